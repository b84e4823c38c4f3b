"""The two undoable edits of measured data and calibration (docs/measured-data.md). Kept out of
app.domain.edits: SnapshotEdits like the others.

* ImportMeasured: the project keeps the imported intervals and their mapping (replacing any
  earlier import). The predictions do not change (INFO): the data is compared, not simulated.
* ApplyCalibration: the project's platform becomes the calibrated copy (platform_id +
  platform_snapshot), its calibration record is set, and the workloads on measured LUNs take a
  fitted read hit ratio where one was fitted. Undo restores the uncalibrated platform.
"""
from __future__ import annotations

import copy

from ..measured import Calibration, MeasuredData
from .change import ALL_ASPECTS, INFO
from .base import SnapshotEdit
from ..project import Project


class ImportMeasured(SnapshotEdit):
    attrs = ("measured",)
    aspects = (INFO,)

    def __init__(self, data: MeasuredData) -> None:
        super().__init__()
        self.data = copy.deepcopy(data)
        n = len(data.intervals)
        self.text = f"Import measured data ({data.source}, {n} interval{'s' if n != 1 else ''})"

    def _apply(self, project: Project) -> None:
        project.measured = copy.deepcopy(self.data)


class SetMeasuredMapping(SnapshotEdit):
    """Change which project objects the measured objects stand for (the mapping dialog)."""

    attrs = ("measured",)
    aspects = (INFO,)
    text = "Map measured objects"

    def __init__(self, mapping: dict[str, str]) -> None:
        super().__init__()
        self.mapping = dict(mapping)

    def check(self, project, catalog) -> str | None:
        return None if project.measured is not None else "the project has no measured data"

    def _apply(self, project: Project) -> None:
        assert project.measured is not None
        project.measured.mapping = dict(self.mapping)


class ApplyCalibration(SnapshotEdit):
    attrs = ("platform_id", "platform_snapshot", "calibration", "workloads")
    aspects = tuple(sorted(ALL_ASPECTS - {INFO}))

    def __init__(self, platform_id: str, snapshot: str, calibration: Calibration,
                 read_hit_pct: dict[str, float] | None = None) -> None:
        super().__init__()
        self.platform_id = platform_id
        self.snapshot = snapshot
        self.calibration = copy.deepcopy(calibration)
        self.read_hit_pct = dict(read_hit_pct or {})  # workload id -> fitted read hit %
        self.text = f"Calibrate the platform to {calibration.source}"

    def check(self, project, catalog) -> str | None:
        missing = [w for w in self.read_hit_pct if not any(x.id == w for x in project.workloads)]
        return f"workload {missing[0]!r} does not exist" if missing else None

    def _apply(self, project: Project) -> None:
        project.platform_id = self.platform_id
        project.platform_snapshot = self.snapshot
        project.calibration = copy.deepcopy(self.calibration)
        for w in project.workloads:
            if w.id in self.read_hit_pct:
                w.read_hit_pct = round(self.read_hit_pct[w.id], 2)
