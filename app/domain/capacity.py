"""Capacity arithmetic on a project: raw, usable and free per RAID group and in total (nominal,
what validation checks LUNs against), and the formatted summary (`array_space`: formatted
capacity, the vault's system area, hot-spare ratio, enclosures and rack units, from the
platform preset's [capacity] table)."""
from __future__ import annotations

from dataclasses import dataclass

from .hardware import Catalog, Platform
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


# ---------------------------------------------------------------- formatted capacity and the vault

@dataclass(frozen=True)
class GroupSpace:
    """One RAID group's space: nominal raw, formatted (as the array reports it, less the vault's
    system area on vault drives), usable (data drives of the formatted space), bound to LUNs."""

    group_id: int
    label: str
    layout: str
    raw_gb: float
    formatted_gb: float
    usable_gb: float
    vault_gb: float
    allocated_gb: float


@dataclass(frozen=True)
class ArraySpace:
    """The capacity summary of a project (the GUI's Capacity view and the report)."""

    groups: list[GroupSpace]
    drives: int
    raw_gb: float  # nominal, every drive (spares and ungrouped ones included)
    formatted_gb: float  # formatted, every drive, less the vault's system area
    usable_gb: float  # the groups' usable space
    allocated_gb: float
    vault_drives: int  # vault drives fitted
    vault_gb: float  # system area they hold
    hot_spares: int
    grouped_drives: int
    enclosures: int
    rack_units: float  # 0: the preset gives no rack size
    formatted_factor: float
    source: str

    @property
    def spare_ratio(self) -> str:
        """Hot spares per drive in a RAID group, as sizing guides write it ("1 per 30")."""
        if not self.hot_spares:
            return "no hot spare"
        return f"1 per {self.grouped_drives / self.hot_spares:.0f} drives"


def drive_formatted_gb(platform: Platform, nominal_gb: float, location: str) -> float:
    """What a drive of `nominal_gb` holds for RAID groups at `location`: its formatted capacity,
    less the vault's system area when it is a vault drive."""
    cap = platform.capacity
    reserved = cap.vault_reserved_gb if location in cap.vault_drives else 0.0
    return max(nominal_gb * cap.formatted_factor - reserved, 0.0)


def array_space(project: Project, catalog: Catalog) -> ArraySpace:
    platform = catalog.platform(project.platform_id)
    cap = platform.capacity
    allocated: dict[int, float] = {}
    for l in project.luns:
        allocated[l.group_id] = allocated.get(l.group_id, 0.0) + l.capacity_gb

    def nominal(loc: str) -> float:
        d = project.drives.get(loc)
        return catalog.drives[d.type_id].capacity_gb if d is not None and d.type_id in catalog.drives else 0.0

    groups = []
    for g in project.groups:
        members = [loc for loc in g.drives if loc in project.drives]
        formatted = [drive_formatted_gb(platform, nominal(loc), loc) for loc in members]
        # a group uses on every member what its smallest (a vault drive's remainder) holds
        per_drive = min(formatted, default=0.0)
        vault = sum(cap.vault_reserved_gb for loc in members if loc in cap.vault_drives)
        groups.append(GroupSpace(g.id, g.label, g.math.label, sum(nominal(loc) for loc in members), sum(formatted),
                                 g.math.usable_gb(per_drive), vault, allocated.get(g.id, 0.0)))
    fitted_vault = [loc for loc in cap.vault_drives if loc in project.drives]
    spares = sum(1 for d in project.drives.values() if d.hot_spare)
    grouped = sum(len(g.drives) for g in project.groups)
    enclosures = len(project.enclosures)
    rack = enclosures * cap.enclosure_rack_units + cap.controller_rack_units if cap.enclosure_rack_units else 0.0
    return ArraySpace(
        groups, len(project.drives), sum(nominal(loc) for loc in project.drives),
        sum(drive_formatted_gb(platform, nominal(loc), loc) for loc in project.drives),
        sum(g.usable_gb for g in groups), sum(g.allocated_gb for g in groups),
        len(fitted_vault), len(fitted_vault) * cap.vault_reserved_gb, spares, grouped, enclosures, rack,
        cap.formatted_factor, cap.source)
