"""Edits of a Project: every edit the GUI makes, as a small object with do/undo.

Anki-style: `edit.do(project)` mutates the project and returns a `Change` saying what it touched;
`edit.undo(project)` puts it back and returns the same kind of Change. An edit that would break a
rule raises EditError(reason) from `do` and leaves the project untouched; `edit.check(project,
catalog)` returns that reason (or None) without changing anything, so the canvas can refuse a
drop while the pointer is still moving.

No Qt here (tests/test_layering.py): app/ui/document.py wraps each edit in a QUndoCommand.

References (`Change.refs`, the selection, validation's `where`) are strings:
  "drive 0_1_4", "enclosure 0_2", "bus 0", "RG 3", "LUN 12", "workload w1", "op3",
  "scenario Baseline", "SP A" (a controller name).

One module per concern: change (what an edit touched), refs, rules (checks a drop makes while the
pointer moves), base (Edit, SnapshotEdit, Batch, RenameEdit), layout, groups, luns, settings,
workloads, events, scenarios, deletion. The simulated operations of the engine (migrations,
rebuilds ...) are app/engine/ops.py: "edit" here, "operation" there.
"""
from __future__ import annotations

from .change import (  # noqa: F401
    ALL_ASPECTS,
    CACHE,
    CONFIG_ASPECTS,
    Change,
    EVENTS,
    EditError,
    FEATURES,
    GROUPS,
    INFO,
    LAYOUT,
    LUNS,
    SCENARIOS,
    WORKLOADS,
)
from .refs import (  # noqa: F401
    parse_ref,
    ref_drive,
    ref_enclosure,
    ref_exists,
    ref_group,
    ref_lun,
    ref_scenario,
    ref_workload,
)
from .rules import (  # noqa: F401
    add_enclosure_problem,
    allowed_raid_types,
    default_stripe,
    drive_limit_problem,
    place_drive_problem,
    platform_of,
    preferred_raid_type,
    stripe_options,
)
from .base import (  # noqa: F401
    Batch,
    Edit,
    RenameEdit,
    SnapshotEdit,
)
from .layout import (  # noqa: F401
    AddEnclosure,
    MoveDrive,
    PlaceDrive,
    RemoveDrive,
    RemoveEnclosure,
    SetHotSpare,
    fill_enclosure,
)
from .groups import (  # noqa: F401
    CreateRaidGroup,
    DeleteRaidGroup,
    SetGroupFields,
)
from .luns import (  # noqa: F401
    CreateLun,
    DeleteLun,
    LUN_FIELDS,
    ResizeLun,
    SetLunFields,
)
from .settings import (  # noqa: F401
    SetCacheSetting,
    SetFeature,
    SetProjectInfo,
)
from .workloads import (  # noqa: F401
    AddWorkload,
    EditWorkload,
    RemoveWorkload,
    RenameWorkload,
    WORKLOAD_FIELDS,
    new_workload_id,
)
from .events import (  # noqa: F401
    AddEvent,
    MoveEvent,
    RemoveEvent,
    SetEventFields,
    SetEventPriority,
)
from .scenarios import (  # noqa: F401
    AddScenario,
    DuplicateScenario,
    RemoveScenario,
    RenameScenario,
    SetBaselineScenario,
    SetCurrentScenario,
    SetScenarioNotes,
    SetScenarioOverlay,
    unique_scenario_name,
)
from .deletion import (  # noqa: F401
    dangling_events,
    delete_edits,
    event_refs,
    removed_refs,
    with_dependent_events,
    workload_effects,
)
from .design import ApplyDesign, DesignAsScenario  # noqa: F401,E402
