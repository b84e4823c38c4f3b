"""Applying a sized design (goal seeking): the project's hardware replaced in one undo step."""
from __future__ import annotations

import copy
from typing import Any

from ..formatting import plural
from ..project import Project
from .base import SnapshotEdit
from .change import CACHE, EVENTS, FEATURES, GROUPS, LAYOUT, LUNS, SCENARIOS, WORKLOADS
from .deletion import event_refs
from .refs import ref_workload

DESIGN_ATTRS = ("enclosures", "drives", "groups", "luns", "workloads", "features", "cache")


class ApplyDesign(SnapshotEdit):
    """Replace enclosures, drives, RAID groups, LUNs, the workloads' LUNs, the features and cache with
    those of `design` (a Project made from this one by app.service.goal_seek.build_design). The
    timeline events that name a drive or a LUN (migrations, failures, binds ...) are removed with
    it in every scenario, since the design's drives and LUNs are new ones even where an id is
    reused; `note` says how many. Workload changes and feature events stay."""

    attrs = DESIGN_ATTRS + ("scenarios",)
    aspects = (LAYOUT, GROUPS, LUNS, WORKLOADS, FEATURES, CACHE, EVENTS, SCENARIOS)

    def __init__(self, design: Project, label: str):
        super().__init__()
        self.parts: dict[str, Any] = {a: copy.deepcopy(getattr(design, a)) for a in DESIGN_ATTRS}
        self.text = f"Apply design: {label}"

    def _apply(self, project: Project) -> None:
        for a, v in self.parts.items():
            setattr(project, a, copy.deepcopy(v))
        known = {ref_workload(w.id) for w in project.workloads}
        dropped = 0
        for sc in project.scenarios:
            keep = [ev for ev in sc.events if event_refs(ev) <= known]
            dropped += len(sc.events) - len(keep)
            sc.events = keep
        self.note = (f"{plural(dropped, 'timeline event')} that named the replaced drives or LUNs removed"
                     if dropped else "")
        self._scenario = project.current_scenario


def DesignAsScenario(project: Project, design: Project, name: str, label: str = "") -> "AddScenario":  # noqa: N802
    """A new scenario, made current, whose own configuration (its overlay) is the difference
    between `project`'s configuration and `design` (from build_design): the candidate runs
    beside today's array, so the scenario comparison (KPIs with deltas, CSV, report) serves it.
    It takes the current scenario's events that name no drive or LUN (the design's are new ones,
    as ApplyDesign says); one edit, undone as one."""
    from ..overlay import overlay_between
    from .scenarios import AddScenario

    known = {ref_workload(w.id) for w in design.workloads}
    events = [ev for ev in project.scenario().events if event_refs(ev) <= known]
    notes = f"Goal-seek candidate: {label}" if label else "Goal-seek candidate"
    edit = AddScenario(name, events, notes, make_current=True, overlay=overlay_between(project, design))
    edit.text = f"Add scenario {name} from design {label}".rstrip()
    return edit
