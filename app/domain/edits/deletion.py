"""Deleting a selection, and what a deletion leaves behind (events that name it)."""
from __future__ import annotations

from typing import Any, Iterable

from ..formatting import plural
from ..project import (
    Bind, DriveFailure, DriveReplacement, Event, LunMigration, Project, Reallocate, VolumeMigration, WorkloadChange,
)
from .base import Batch, Edit
from .events import RemoveEvent
from .groups import DeleteRaidGroup
from .layout import RemoveDrive, RemoveEnclosure
from .luns import DeleteLun
from .refs import parse_ref, ref_drive, ref_lun, ref_workload
from .workloads import RemoveWorkload


def delete_edits(project: Project, refs: Iterable[str]) -> list[Edit]:
    """The ops that delete what `refs` name (the Delete key on a selection): LUNs, then groups,
    then drives not in a surviving group, then empty enclosures. Objects that cannot go are left
    for the caller to report via check()."""
    kinds: dict[str, list[Any]] = {}
    for r in refs:
        k, v = parse_ref(r)
        kinds.setdefault(k, []).append(v)
    ops: list[Edit] = []
    groups = set(kinds.get("group", []))
    for lun_id in kinds.get("lun", []):
        try:
            if project.lun(lun_id).group_id not in groups:
                ops.append(DeleteLun(lun_id))
        except KeyError:
            pass
    ops += [DeleteRaidGroup(g) for g in sorted(groups)]
    ops += [RemoveDrive(loc) for loc in kinds.get("drive", []) if loc in project.drives]
    ops += [RemoveEnclosure(e) for e in kinds.get("enclosure", [])]
    ops += [RemoveWorkload(w) for w in kinds.get("workload", [])]
    ops += [RemoveEvent(e) for e in kinds.get("event", [])]
    return ops


def event_refs(ev: Event) -> set[str]:
    """The objects an event names: the LUNs it moves, binds or reallocates, the drive that fails
    or is replaced, the workload that changes."""
    if isinstance(ev, LunMigration):
        return {ref_lun(ev.source_lun), ref_lun(ev.dest_lun)}
    if isinstance(ev, (Bind, Reallocate)):
        return {ref_lun(ev.lun)}
    if isinstance(ev, VolumeMigration):
        return {ref_lun(lun) for pair in ev.moves for lun in pair}
    if isinstance(ev, (DriveFailure, DriveReplacement)):
        return {ref_drive(ev.drive)}
    if isinstance(ev, WorkloadChange):
        return {ref_workload(ev.workload)}
    return set()


def removed_refs(project: Project, op: Edit) -> tuple[set[str], set[tuple[str, str]]]:
    """What `op` (a deletion, or a Batch of them) takes out of the project: the refs of the LUNs
    (a group's too), drives (an enclosure's too) and workloads; and the (scenario, event id) of
    the events it removes itself. Other ops remove nothing."""
    refs: set[str] = set()
    events: set[tuple[str, str]] = set()
    for one in (op.ops if isinstance(op, Batch) else [op]):
        if isinstance(one, DeleteLun):
            refs.add(ref_lun(one.lun_id))
        elif isinstance(one, DeleteRaidGroup):
            refs.update(ref_lun(lun.id) for lun in project.luns_in_group(one.group_id))
        elif isinstance(one, RemoveDrive):
            refs.add(ref_drive(one.location))
        elif isinstance(one, RemoveEnclosure):
            refs.update(ref_drive(loc) for loc, d in project.drives.items() if d.enclosure == one.enc_id)
        elif isinstance(one, RemoveWorkload):
            refs.add(ref_workload(one.workload_id))
        elif isinstance(one, RemoveEvent):
            try:
                events.add((project.scenario(one.scenario).name, one.event_id))
            except KeyError:
                pass
    return refs, events


def dangling_events(project: Project, op: Edit) -> list[tuple[str, Event]]:
    """(scenario name, event) of every event, in any scenario, that would name something `op`
    deletes: left in place, each is a validation error that stops the prediction."""
    refs, removed = removed_refs(project, op)
    if not refs:
        return []
    return [(sc.name, ev) for sc in project.scenarios for ev in sc.events
            if (sc.name, ev.id) not in removed and event_refs(ev) & refs]


def workload_effects(project: Project, op: Edit) -> list[str]:
    """What `op` does to the workloads, one sentence each: a deleted LUN leaves every workload
    that runs on it, and that workload's whole load goes to the LUNs it keeps (or, with none
    left, it runs nowhere: a validation error that stops the prediction). A deleted workload's
    own removal is not listed."""
    refs, _ = removed_refs(project, op)
    gone = {parse_ref(r)[1] for r in refs if parse_ref(r)[0] == "lun"}
    removed = {parse_ref(r)[1] for r in refs if parse_ref(r)[0] == "workload"}
    out = []
    for w in project.workloads:
        lost = [lun for lun in w.luns if lun in gone]
        if not lost or w.id in removed:
            continue
        kept = [lun for lun in w.luns if lun not in gone]
        name = w.name or w.id
        lost_text = f"LUN{'s' if len(lost) > 1 else ''} {', '.join(map(str, lost))}"
        if kept:
            out.append(f"{name}: leaves {lost_text}; its {w.iops:,.0f} IOPS all go to "
                       f"LUN{'s' if len(kept) > 1 else ''} {', '.join(map(str, kept))}")
        else:
            out.append(f"{name}: leaves {lost_text} and runs on no LUN (an error that stops the "
                       "prediction until it is given one)")
    return out


def with_dependent_events(op: Edit, dangling: list[tuple[str, Event]]) -> Edit:
    """`op` and the removal of the events it would leave dangling, as one undo step (the events
    go first: undo puts them back after the objects they name)."""
    if not dangling:
        return op
    n = len(dangling)
    return Batch([RemoveEvent(ev.id, sc) for sc, ev in dangling] + [op],
                 f"{op.text} and {plural(n, 'event')} that use{'s' if n == 1 else ''} it")
