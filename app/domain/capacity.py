"""Capacity arithmetic on a project (raw, usable and free per RAID group and in total)."""
from __future__ import annotations

from dataclasses import dataclass

from .hardware import Catalog
from .project import Project, RaidGroup


@dataclass(frozen=True)
class GroupCapacity:
    group_id: int
    raw_gb: float
    usable_gb: float
    allocated_gb: float

    @property
    def free_gb(self) -> float:
        return self.usable_gb - self.allocated_gb


def member_capacity_gb(project: Project, catalog: Catalog, group: RaidGroup) -> float:
    """Capacity of the smallest member: a group uses that much of every drive."""
    caps = [catalog.drive(project.drives[loc].type_id).capacity_gb
            for loc in group.drives if loc in project.drives and project.drives[loc].type_id in catalog.drives]
    return min(caps, default=0.0)


def group_capacity(project: Project, catalog: Catalog, group: RaidGroup) -> GroupCapacity:
    per_drive = member_capacity_gb(project, catalog, group)
    allocated = sum(l.capacity_gb for l in project.luns_in_group(group.id))
    return GroupCapacity(group.id, group.math.raw_gb(per_drive), group.math.usable_gb(per_drive), allocated)


def capacity_summary(project: Project, catalog: Catalog) -> tuple[list[GroupCapacity], GroupCapacity]:
    """Per group, and a total row (group_id -1) whose raw figure counts every drive, spares included."""
    allocated: dict[int, float] = {}
    for l in project.luns:  # one pass over the LUNs (large plans: 1,000 LUNs in 200 groups)
        allocated[l.group_id] = allocated.get(l.group_id, 0.0) + l.capacity_gb
    rows = []
    for g in project.groups:
        per_drive = member_capacity_gb(project, catalog, g)
        rows.append(GroupCapacity(g.id, g.math.raw_gb(per_drive), g.math.usable_gb(per_drive), allocated.get(g.id, 0.0)))
    raw_all = sum(catalog.drive(d.type_id).capacity_gb for d in project.drives.values() if d.type_id in catalog.drives)
    total = GroupCapacity(-1, raw_all, sum(r.usable_gb for r in rows), sum(r.allocated_gb for r in rows))
    return rows, total
