"""The domain model: plain data and rules, no Qt, no I/O (enforced by tests/test_layering.py)."""
from .hardware import (
    Catalog, ControllerSpec, DriveType, EnclosureType, FeatureSpec, Interface, OperationSpec, Param,
    Platform, RaidRule, SettingSpec, Tables,
)
from .project import (
    Bind, Drive, DriveFailure, DriveReplacement, Enclosure, Event, FeatureEnable, Lun, LunMigration,
    Project, ProjectInfo, RaidGroup, Reallocate, Scenario, VolumeMigration, Workload, WorkloadChange,
    enclosure_id, parse_slot_id, slot_id,
)
from .raid import RaidMath, RaidType, mttdl_hours
