"""The rules a drop is checked against while the pointer still moves (no edit made)."""
from __future__ import annotations

from typing import Sequence

from ..formatting import plural
from ..hardware import Catalog, Platform, RaidRule
from ..project import Project, enclosure_id, parse_slot_id
from ..raid import RaidType
from ..validation import drives_left


def platform_of(project: Project, catalog: Catalog) -> Platform:
    return catalog.platform(project.platform_id)


def place_drive_problem(project: Project, catalog: Catalog, location: str, type_id: str) -> str | None:
    """Why a drive of `type_id` cannot go into `location` (None: it can)."""
    try:
        b, e, s = parse_slot_id(location)
    except ValueError as exc:
        return str(exc)
    platform = platform_of(project, catalog)
    if type_id not in catalog.drives:
        return f"unknown drive type {type_id!r}"
    drive = catalog.drive(type_id)
    if type_id not in platform.drive_types:
        return f"the {platform.name} does not take {drive.name} drives"
    try:
        enc = project.enclosure(enclosure_id(b, e))
    except KeyError:
        return f"there is no enclosure {enclosure_id(b, e)}"
    etype = platform.enclosure_types.get(enc.type_id)
    if etype is None:
        return f"enclosure {enc.id} has a type ({enc.type_id}) the {platform.name} does not know"
    if not 0 <= s < etype.slots:
        return f"{etype.name} has slots 0 to {etype.slots - 1}"
    if etype.interfaces and drive.interface not in etype.interfaces:
        accepted = "/".join(i.value for i in etype.interfaces)
        return f"{etype.name} takes {accepted} drives, not {drive.interface.value}"
    size = etype.size_problem(drive)
    if size:
        return size
    if location in project.drives:
        return f"slot {location} already holds a drive"
    return None


def drive_limit_problem(project: Project, catalog: Catalog) -> str | None:
    """Why no further drive can be added: the platform addresses no more (None: one more fits)."""
    platform = platform_of(project, catalog)
    left = drives_left(project, platform)
    if left is not None and left <= 0:
        return (f"the {platform.name} addresses at most {plural(platform.max_drives, 'drive')}; "
                f"the project has {len(project.drives)}")
    return None


def add_enclosure_problem(project: Project, catalog: Catalog, bus: int, position: int, type_id: str) -> str | None:
    platform = platform_of(project, catalog)
    if type_id not in platform.enclosure_types:
        return f"the {platform.name} has no enclosure type {type_id!r}"
    if not 0 <= bus < platform.buses:
        return f"the {platform.name} has buses 0 to {platform.buses - 1}"
    on_bus = sorted(e.position for e in project.enclosures if e.bus == bus)
    if position in on_bus:
        return f"bus {bus} already has enclosure {enclosure_id(bus, position)}"
    if len(on_bus) >= platform.max_enclosures_per_bus:
        return f"bus {bus} is full: the {platform.name} takes {platform.max_enclosures_per_bus} enclosures per bus"
    if position >= platform.max_enclosures_per_bus or position < 0:
        return f"enclosure positions on a bus run from 0 to {platform.max_enclosures_per_bus - 1}"
    return None


def allowed_raid_types(project: Project, catalog: Catalog, locations: Sequence[str]) -> dict[RaidType, str | None]:
    """For each RAID type of the platform: None if these drives can form a group of it, else why not.

    The selection must be drives that exist, all of one drive type, none a hot spare or already in a
    group; the width must be one the platform's rule allows."""
    platform = platform_of(project, catalog)
    common = _selection_problem(project, catalog, locations)
    out: dict[RaidType, str | None] = {}
    for rt, rule in platform.raid_rules.items():
        if common:
            out[rt] = common
            continue
        iface = catalog.drive(project.drives[locations[0]].type_id).interface
        if rule.interfaces and iface not in rule.interfaces:
            out[rt] = f"{rt.label} is not allowed on {iface.value} drives"
        elif not rule.allows_width(len(locations)):
            out[rt] = f"{rule.describe()}; {len(locations)} selected"
        else:
            out[rt] = None
    return out


def _selection_problem(project: Project, catalog: Catalog, locations: Sequence[str]) -> str | None:
    if not locations:
        return "select the drives for the RAID group first"
    if len(set(locations)) != len(locations):
        return "a drive is listed twice"
    types = set()
    for loc in locations:
        d = project.drives.get(loc)
        if d is None:
            return f"slot {loc} is empty"
        if d.hot_spare:
            return f"drive {loc} is a hot spare"
        g = project.group_of_drive(loc)
        if g is not None:
            return f"drive {loc} is already in {g.label}"
        types.add(d.type_id)
    if len(types) > 1:
        names = sorted(catalog.drive(t).name if t in catalog.drives else t for t in types)
        return "a RAID group needs drives of one type; the selection mixes " + " and ".join(names)
    return None


# the RAID level a new group gets unless the user picks another: the protected levels first, the
# one sizing guides use most (RAID 5) ahead; RAID 0 (no protection) only when nothing else fits
RAID_PREFERENCE = ("R5", "RAID-DP", "R6", "R1/0", "R1", "R3", "R0")


def preferred_raid_type(allowed: dict[RaidType, str | None]) -> RaidType | None:
    """The allowed RAID type (None reason) a new group of these drives defaults to."""
    ok = [rt for rt, why in allowed.items() if why is None]
    ok.sort(key=lambda rt: RAID_PREFERENCE.index(rt.value) if rt.value in RAID_PREFERENCE else len(RAID_PREFERENCE))
    return ok[0] if ok else None


def default_stripe(project: Project, catalog: Catalog, raid: RaidType, width: int) -> int:
    """The stripe (RAID 50/60 drives per span, distributed drives per stripe) a new group of
    `width` drives of `raid` starts from: the platform preset's default_stripe when it fits the
    width, else 0 (the level's default geometry, app/domain/raid.py RaidMath)."""
    rule = platform_of(project, catalog).raid_rules.get(raid)
    return rule.stripe_for(width) if rule is not None else 0


def stripe_options(project: Project, catalog: Catalog, raid: RaidType, width: int) -> tuple[int, ...]:
    """The stripes a `raid` group of `width` drives can have on this platform: the preset's
    `stripes` that fit, or (none listed) every span that splits the width / every distributed
    stripe of 4 drives up that leaves room for the spare capacity. Empty: the level has no
    stripe to choose (or none fits)."""
    if not (raid.spanned or raid.distributed):
        return ()
    rule = platform_of(project, catalog).raid_rules.get(raid)
    rule = rule if rule is not None else RaidRule(raid, 1, width)
    least = 3 if raid is RaidType.R50 else 4
    offered = rule.stripes or tuple(range(least, width + 1))
    return tuple(s for s in offered if s >= least and rule.stripe_fits(s, width))
