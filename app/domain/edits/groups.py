"""Edits of RAID groups."""
from __future__ import annotations

from typing import Any, Sequence

from ..hardware import Catalog
from ..project import Project, RaidGroup
from ..raid import RaidType
from .base import Edit, SnapshotEdit, lookup
from .change import Change, EditError, GROUPS, LUNS, WORKLOADS
from .refs import ref_drive, ref_group, ref_lun
from .rules import allowed_raid_types, default_stripe, platform_of


class CreateRaidGroup(Edit):
    """A new group of `drives`. stripe: RAID 50/60 drives per span, a distributed group's drives
    per stripe; None takes the platform's default_stripe (edits.default_stripe), 0 the level's
    default geometry."""

    def __init__(self, raid: RaidType | str, drives: Sequence[str], group_id: int | None = None, name: str = "",
                 stripe: int | None = None):
        self.raid = raid if isinstance(raid, RaidType) else RaidType.parse(raid)
        self.drives = list(drives)
        self.group_id = group_id
        self.name = name
        self.stripe = stripe
        self.text = f"Create {self.raid.label} group"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if self.stripe is None:  # (resolved here: do() has no catalog; without a check, 0)
            self.stripe = default_stripe(project, catalog, self.raid, len(self.drives))
        why = allowed_raid_types(project, catalog, self.drives).get(self.raid, "")
        if why == "":
            return f"the {platform_of(project, catalog).name} does not offer {self.raid.label}"
        if self.group_id is not None and any(g.id == self.group_id for g in project.groups):
            return f"RAID group {self.group_id} already exists"
        return why

    def do(self, project: Project) -> Change:
        if self.group_id is None:
            self.group_id = project.next_group_id()
        if any(g.id == self.group_id for g in project.groups):
            raise EditError(f"RAID group {self.group_id} already exists")
        for loc in self.drives:
            if loc not in project.drives:
                raise EditError(f"slot {loc} is empty")
            g = project.group_of_drive(loc)
            if g is not None:
                raise EditError(f"drive {loc} is already in {g.label}")
        project.groups.append(RaidGroup(self.group_id, self.raid, list(self.drives), self.name, int(self.stripe or 0)))
        project.groups.sort(key=lambda g: g.id)
        self.text = f"Create RG {self.group_id} ({self.raid.label})"
        return Change.of(GROUPS, refs=[ref_group(self.group_id), *map(ref_drive, self.drives)])

    def undo(self, project: Project) -> Change:
        project.groups = [g for g in project.groups if g.id != self.group_id]
        return Change.of(GROUPS, refs=[ref_group(self.group_id), *map(ref_drive, self.drives)])


class DeleteRaidGroup(SnapshotEdit):
    """Delete a group, its LUNs, and those LUNs' places in workloads (all restored by undo)."""

    attrs = ("groups", "luns", "workloads")
    aspects = (GROUPS, LUNS, WORKLOADS)

    def __init__(self, group_id: int):
        super().__init__()
        self.group_id = group_id
        self.text = f"Delete RG {group_id}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return None if any(g.id == self.group_id for g in project.groups) else f"RAID group {self.group_id} does not exist"

    def _apply(self, project: Project) -> None:
        g = lookup(project.group, self.group_id)
        gone = {l.id for l in project.luns_in_group(g.id)}
        project.groups.remove(g)
        project.luns = [l for l in project.luns if l.id not in gone]
        for w in project.workloads:
            w.luns = [x for x in w.luns if x not in gone]
        self._refs = {ref_group(g.id), *map(ref_drive, g.drives), *map(ref_lun, gone)}


class SetGroupFields(SnapshotEdit):
    """Rename a group, change its RAID type or its stripe (the drives stay)."""

    attrs = ("groups",)
    aspects = (GROUPS,)

    def __init__(self, group_id: int, **values: Any):
        super().__init__()
        self.group_id, self.values = group_id, values
        self.text = f"Edit RG {group_id}"

    def _apply(self, project: Project) -> None:
        g = lookup(project.group, self.group_id)
        for k, v in self.values.items():
            if k == "raid":
                v = v if isinstance(v, RaidType) else RaidType.parse(v)
            if k not in ("raid", "name", "stripe"):
                raise EditError(f"a RAID group has no field {k!r}")
            if k == "stripe":
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0 or v != int(v):
                    raise EditError(f"a stripe is a whole number of drives, not {v!r}")
                v = int(v)
            setattr(g, k, v)
        self._refs = {ref_group(g.id)}
