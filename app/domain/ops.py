"""Operations on a Project: every edit the GUI makes, as a small object with do/undo.

Anki-style: `op.do(project)` mutates the project and returns a `Change` saying what it touched;
`op.undo(project)` puts it back and returns the same kind of Change. An op that would break a
rule raises OpError(reason) from `do` and leaves the project untouched; `op.check(project,
catalog)` returns that reason (or None) without changing anything, so the canvas can refuse a
drop while the pointer is still moving.

No Qt here (tests/test_layering.py): app/ui/document.py wraps each op in a QUndoCommand.

References (`Change.refs`, the selection, validation's `where`) are strings:
  "drive 0_1_4", "enclosure 0_2", "bus 0", "RG 3", "LUN 12", "workload w1", "op3",
  "scenario Baseline", "SP A" (a controller name).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, fields as dc_fields
from typing import Any, Iterable, Sequence

from .formatting import plural
from .hardware import Catalog, Platform
from .project import (
    Bind, Drive, DriveFailure, DriveReplacement, Enclosure, Event, Lun, LunMigration, Project, ProjectInfo,
    RaidGroup, Reallocate, Scenario, VolumeMigration, Workload, WorkloadChange, enclosure_id, parse_slot_id,
    slot_id,
)
from .raid import RaidType
from .validation import drives_left

# ---------------------------------------------------------------- what changed

LAYOUT = "layout"        # enclosures, drives, hot spares
GROUPS = "groups"        # RAID groups
LUNS = "luns"
CACHE = "cache"
FEATURES = "features"
WORKLOADS = "workloads"
EVENTS = "events"        # events of a scenario
SCENARIOS = "scenarios"  # scenario list, current / baseline scenario
INFO = "info"            # title, customer, notes: nothing the engine reads
ALL_ASPECTS = frozenset({LAYOUT, GROUPS, LUNS, CACHE, FEATURES, WORKLOADS, EVENTS, SCENARIOS, INFO})


@dataclass(frozen=True)
class Change:
    """What an operation touched. `aspects` are the constants above; `refs` the objects."""

    aspects: frozenset[str] = frozenset()
    refs: frozenset[str] = frozenset()
    scenario: str | None = None  # the scenario whose events changed (EVENTS)
    replaced: bool = False       # a whole new project (open / new / recover)

    @staticmethod
    def of(*aspects: str, refs: Iterable[str] = (), scenario: str | None = None) -> "Change":
        return Change(frozenset(aspects), frozenset(refs), scenario)

    @staticmethod
    def everything() -> "Change":
        return Change(ALL_ASPECTS, frozenset(), None, True)

    def __or__(self, other: "Change") -> "Change":
        return Change(self.aspects | other.aspects, self.refs | other.refs,
                      self.scenario or other.scenario, self.replaced or other.replaced)

    def affects(self, *aspects: str) -> bool:
        return self.replaced or bool(self.aspects.intersection(aspects))

    @property
    def needs_simulation(self) -> bool:
        """Anything but the project info changes what the engine predicts."""
        return self.replaced or bool(self.aspects - {INFO})


class OpError(ValueError):
    """The operation breaks a rule; the message is a sentence for the user."""


# ---------------------------------------------------------------- references

def ref_drive(location: str) -> str:
    return f"drive {location}"


def ref_enclosure(enc_id: str) -> str:
    return f"enclosure {enc_id}"


def ref_group(group_id: int) -> str:
    return f"RG {group_id}"


def ref_lun(lun_id: int) -> str:
    return f"LUN {lun_id}"


def ref_workload(workload_id: str) -> str:
    return f"workload {workload_id}"


def ref_scenario(name: str) -> str:
    return f"scenario {name}"


def parse_ref(ref: str) -> tuple[str, Any]:
    """("drive", "0_1_4"), ("enclosure", "0_2"), ("bus", 0), ("group", 3), ("lun", 12),
    ("workload", "w1"), ("scenario", "Baseline"), ("event", "op3"), ("controller", "SP A"),
    or ("", ref) when the string names nothing known."""
    ref = ref.strip()
    head, _, rest = ref.partition(" ")
    try:
        if head == "drive":
            parse_slot_id(rest)
            return "drive", rest
        if head == "enclosure":
            return "enclosure", rest
        if head == "bus":
            return "bus", int(rest)
        if head == "RG":
            return "group", int(rest)
        if head == "LUN":
            return "lun", int(rest)
        if head == "workload":
            return "workload", rest
        if head == "scenario":
            return "scenario", rest
        if head == "feature":
            return "feature", rest
        if head.startswith("cache.") and not rest:
            return "cache", head[len("cache."):]
        if ref == "project":
            return "project", ""
        if head in ("SP", "Controller", "controller"):
            return "controller", ref
    except ValueError:
        return "", ref
    if " " not in ref and ref[:1].isalpha() and any(c.isdigit() for c in ref):
        return "event", ref
    return "", ref


def ref_exists(project: Project, ref: str) -> bool:
    """Does the object `ref` names exist in `project` as it is now? An event ("op3") exists when
    the current scenario has it. References to what cannot vanish (the project, a cache setting,
    a feature, a controller, a bus) or to nothing known count as existing: only objects an edit,
    an undo or a redo can remove are checked."""
    kind, key = parse_ref(ref)
    if kind == "drive":
        return key in project.drives
    if kind == "enclosure":
        return any(e.id == key for e in project.enclosures)
    if kind == "group":
        return any(g.id == key for g in project.groups)
    if kind == "lun":
        return any(l.id == key for l in project.luns)
    if kind == "workload":
        return any(w.id == key for w in project.workloads)
    if kind == "scenario":
        return any(s.name == key for s in project.scenarios)
    if kind == "event":
        try:
            project.scenario().event(key)
        except KeyError:
            return False
        return True
    return True


# ---------------------------------------------------------------- rules used by drops

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


# ---------------------------------------------------------------- base classes

class Op:
    """One undoable edit. Subclasses set `text` (for Edit > Undo <text>) and implement do/undo."""

    text = "Edit"
    note = ""  # said after `text` when applied (not in Undo): e.g. a fill that stopped at a limit

    def check(self, project: Project, catalog: Catalog) -> str | None:
        """Why this op would be refused (None: it is fine). Default: no rule."""
        return None

    def do(self, project: Project) -> Change:  # pragma: no cover - abstract
        raise NotImplementedError

    def undo(self, project: Project) -> Change:  # pragma: no cover - abstract
        raise NotImplementedError

    # a burst of small steps (a spin box's arrows) may merge into one undo step; only ops that
    # their source flags `mergeable` do, so two separate drags stay two steps
    mergeable: bool = False

    def merge_key(self) -> Any:
        return None

    def merge(self, other: "Op") -> bool:
        return False


class SnapshotOp(Op):
    """Undo by restoring deep copies of the project attributes the op touches (small lists:
    groups, LUNs, workloads, scenarios). `attrs` names them; `_apply` does the edit."""

    attrs: tuple[str, ...] = ()
    aspects: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._saved: dict[str, Any] | None = None
        self._refs: set[str] = set()
        self._scenario: str | None = None

    def _apply(self, project: Project) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def do(self, project: Project) -> Change:
        saved = {a: copy.deepcopy(getattr(project, a)) for a in self.attrs}
        try:
            self._apply(project)
        except Exception:
            for a, v in saved.items():
                setattr(project, a, v)
            raise
        self._saved = saved
        return Change.of(*self.aspects, refs=self._refs, scenario=self._scenario)

    def undo(self, project: Project) -> Change:
        assert self._saved is not None, "undo before do"
        for a, v in self._saved.items():
            setattr(project, a, copy.deepcopy(v))
        return Change.of(*self.aspects, refs=self._refs, scenario=self._scenario)


class Batch(Op):
    """Several ops as one undo step (drop five drives, delete a selection)."""

    def __init__(self, ops: Sequence[Op], text: str = ""):
        self.ops = list(ops)
        self.text = text or (self.ops[0].text if len(self.ops) == 1 else f"{len(self.ops)} edits")
        self._done = 0

    def check(self, project: Project, catalog: Catalog) -> str | None:
        # each op checked against the project as the earlier ones leave it
        trial = project.clone()
        for op in self.ops:
            why = op.check(trial, catalog)
            if why:
                return why
            try:
                op.do(trial)
            except OpError as exc:
                return str(exc)
        # fresh state for the real run (ops remember what they did)
        for op in reversed(self.ops):
            op.undo(trial)
        return None

    def do(self, project: Project) -> Change:
        change = Change()
        done: list[Op] = []
        try:
            for op in self.ops:
                change = change | op.do(project)
                done.append(op)
        except Exception:
            for op in reversed(done):
                op.undo(project)
            raise
        return change

    def undo(self, project: Project) -> Change:
        change = Change()
        for op in reversed(self.ops):
            change = change | op.undo(project)
        return change


# ---------------------------------------------------------------- layout

class AddEnclosure(Op):
    def __init__(self, bus: int, position: int, type_id: str):
        self.bus, self.position, self.type_id = bus, position, type_id
        self.text = f"Add enclosure {enclosure_id(bus, position)}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return add_enclosure_problem(project, catalog, self.bus, self.position, self.type_id)

    def do(self, project: Project) -> Change:
        eid = enclosure_id(self.bus, self.position)
        if any(e.id == eid for e in project.enclosures):
            raise OpError(f"bus {self.bus} already has enclosure {eid}")
        project.enclosures.append(Enclosure(self.bus, self.position, self.type_id))
        project.enclosures.sort(key=lambda e: (e.bus, e.position))
        return Change.of(LAYOUT, refs=[ref_enclosure(eid), f"bus {self.bus}"])

    def undo(self, project: Project) -> Change:
        eid = enclosure_id(self.bus, self.position)
        project.enclosures = [e for e in project.enclosures if e.id != eid]
        return Change.of(LAYOUT, refs=[ref_enclosure(eid), f"bus {self.bus}"])


class RemoveEnclosure(Op):
    """Remove an enclosure and the drives in it; refused while one of them is in a RAID group."""

    def __init__(self, enc_id: str):
        self.enc_id = enc_id
        self.text = f"Remove enclosure {enc_id}"
        self._enc: Enclosure | None = None
        self._index = 0
        self._drives: list[Drive] = []

    def _problem(self, project: Project) -> str | None:
        if not any(e.id == self.enc_id for e in project.enclosures):
            return f"enclosure {self.enc_id} does not exist"
        for loc, d in project.drives.items():
            if d.enclosure == self.enc_id:
                g = project.group_of_drive(loc)
                if g is not None:
                    return f"enclosure {self.enc_id} holds drive {loc} of {g.label}; delete the group first"
        return None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return self._problem(project)

    def do(self, project: Project) -> Change:
        why = self._problem(project)
        if why:
            raise OpError(why)
        self._index = next(i for i, e in enumerate(project.enclosures) if e.id == self.enc_id)
        self._enc = project.enclosures.pop(self._index)
        self._drives = [(i, d) for i, d in enumerate(project.drives.values()) if d.enclosure == self.enc_id]
        for _i, d in self._drives:
            del project.drives[d.location]
        return Change.of(LAYOUT, refs=[ref_enclosure(self.enc_id), *(ref_drive(d.location) for _i, d in self._drives)])

    def undo(self, project: Project) -> Change:
        assert self._enc is not None
        project.enclosures.insert(self._index, self._enc)
        for i, d in self._drives:
            _insert_drive(project, i, d)
        return Change.of(LAYOUT, refs=[ref_enclosure(self.enc_id), *(ref_drive(d.location) for _i, d in self._drives)])


def _insert_drive(project: Project, index: int, drive: Drive) -> None:
    """Put `drive` back at position `index` of project.drives (the order the user placed drives
    in is the order files list them; undo restores it exactly)."""
    items = list(project.drives.items())
    items.insert(min(index, len(items)), (drive.location, drive))
    project.drives.clear()
    project.drives.update(items)


def _rekey_drive(project: Project, old: str, new: str) -> None:
    """Rename a drive's key in place (a move keeps the drive's position in the order)."""
    items = [((new, d) if k == old else (k, d)) for k, d in project.drives.items()]
    project.drives.clear()
    project.drives.update(items)


class PlaceDrive(Op):
    def __init__(self, location: str, type_id: str, hot_spare: bool = False):
        self.location, self.type_id, self.hot_spare = location, type_id, hot_spare
        self.text = f"Place drive {location}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        # the limit only here: a move (place_drive_problem too) does not add a drive
        return (place_drive_problem(project, catalog, self.location, self.type_id)
                or drive_limit_problem(project, catalog))

    def do(self, project: Project) -> Change:
        if self.location in project.drives:
            raise OpError(f"slot {self.location} already holds a drive")
        project.drives[self.location] = Drive(self.location, self.type_id, self.hot_spare)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])

    def undo(self, project: Project) -> Change:
        project.drives.pop(self.location, None)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])


class RemoveDrive(Op):
    def __init__(self, location: str):
        self.location = location
        self.text = f"Remove drive {location}"
        self._drive: Drive | None = None

    def _problem(self, project: Project) -> str | None:
        if self.location not in project.drives:
            return f"slot {self.location} is empty"
        g = project.group_of_drive(self.location)
        if g is not None:
            return f"drive {self.location} is in {g.label}; delete the group first"
        return None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return self._problem(project)

    def do(self, project: Project) -> Change:
        why = self._problem(project)
        if why:
            raise OpError(why)
        self._index = list(project.drives).index(self.location)
        self._drive = project.drives.pop(self.location)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])

    def undo(self, project: Project) -> Change:
        assert self._drive is not None
        _insert_drive(project, self._index, self._drive)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])


def _retarget_events(project: Project, kinds: tuple[type, ...], attr: str, a: Any, b: Any) -> set[str]:
    """Point every event of `kinds` (in every scenario) whose `attr` is `a` at `b`, so a moved
    drive or renamed workload keeps its failures and changes; returns the event ids touched."""
    touched: set[str] = set()
    for sc in project.scenarios:
        for e in sc.events:
            if isinstance(e, kinds) and getattr(e, attr) == a:
                setattr(e, attr, b)
                touched.add(e.id)
    return touched


class MoveDrive(Op):
    """Move a drive to an empty slot. Its RAID group membership and the timeline events that
    name it (drive failure / replacement, in every scenario) follow it."""

    def __init__(self, source: str, dest: str):
        self.source, self.dest = source, dest
        self.text = f"Move drive {source} to {dest}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if self.source == self.dest:
            return "the drive is already in that slot"
        d = project.drives.get(self.source)
        if d is None:
            return f"slot {self.source} is empty"
        why = place_drive_problem(project, catalog, self.dest, d.type_id)
        return why

    def _move(self, project: Project, a: str, b: str) -> Change:
        if a not in project.drives:
            raise OpError(f"slot {a} is empty")
        if b in project.drives:
            raise OpError(f"slot {b} already holds a drive")
        d = project.drives[a]
        d.location = b
        _rekey_drive(project, a, b)
        refs = {ref_drive(a), ref_drive(b)}
        for g in project.groups:
            if a in g.drives:
                g.drives[g.drives.index(a)] = b
                refs.add(ref_group(g.id))
        moved = _retarget_events(project, (DriveFailure, DriveReplacement), "drive", a, b)
        refs |= moved
        return Change.of(LAYOUT, GROUPS, *([EVENTS] if moved else []), refs=refs)

    def do(self, project: Project) -> Change:
        return self._move(project, self.source, self.dest)

    def undo(self, project: Project) -> Change:
        return self._move(project, self.dest, self.source)


class SetHotSpare(Op):
    def __init__(self, location: str, hot_spare: bool = True):
        self.location, self.hot_spare = location, hot_spare
        self.text = f"{'Mark' if hot_spare else 'Unmark'} hot spare {location}"
        self._old = False

    def _problem(self, project: Project) -> str | None:
        if self.location not in project.drives:
            return f"slot {self.location} is empty"
        g = project.group_of_drive(self.location)
        if self.hot_spare and g is not None:
            return f"drive {self.location} is in {g.label}; a hot spare must not belong to a group"
        return None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return self._problem(project)

    def do(self, project: Project) -> Change:
        why = self._problem(project)
        if why:
            raise OpError(why)
        d = project.drives[self.location]
        self._old = d.hot_spare
        d.hot_spare = self.hot_spare
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])

    def undo(self, project: Project) -> Change:
        project.drives[self.location].hot_spare = self._old
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])


# ---------------------------------------------------------------- RAID groups

class CreateRaidGroup(Op):
    def __init__(self, raid: RaidType | str, drives: Sequence[str], group_id: int | None = None, name: str = ""):
        self.raid = raid if isinstance(raid, RaidType) else RaidType.parse(raid)
        self.drives = list(drives)
        self.group_id = group_id
        self.name = name
        self.text = f"Create {self.raid.label} group"

    def check(self, project: Project, catalog: Catalog) -> str | None:
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
            raise OpError(f"RAID group {self.group_id} already exists")
        for loc in self.drives:
            if loc not in project.drives:
                raise OpError(f"slot {loc} is empty")
            g = project.group_of_drive(loc)
            if g is not None:
                raise OpError(f"drive {loc} is already in {g.label}")
        project.groups.append(RaidGroup(self.group_id, self.raid, list(self.drives), self.name))
        project.groups.sort(key=lambda g: g.id)
        self.text = f"Create RG {self.group_id} ({self.raid.label})"
        return Change.of(GROUPS, refs=[ref_group(self.group_id), *map(ref_drive, self.drives)])

    def undo(self, project: Project) -> Change:
        project.groups = [g for g in project.groups if g.id != self.group_id]
        return Change.of(GROUPS, refs=[ref_group(self.group_id), *map(ref_drive, self.drives)])


class DeleteRaidGroup(SnapshotOp):
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
        g = _get(project.group, self.group_id)
        gone = {l.id for l in project.luns_in_group(g.id)}
        project.groups.remove(g)
        project.luns = [l for l in project.luns if l.id not in gone]
        for w in project.workloads:
            w.luns = [x for x in w.luns if x not in gone]
        self._refs = {ref_group(g.id), *map(ref_drive, g.drives), *map(ref_lun, gone)}


class SetGroupFields(SnapshotOp):
    """Rename a group or change its RAID type (the drives stay)."""

    attrs = ("groups",)
    aspects = (GROUPS,)

    def __init__(self, group_id: int, **values: Any):
        super().__init__()
        self.group_id, self.values = group_id, values
        self.text = f"Edit RG {group_id}"

    def _apply(self, project: Project) -> None:
        g = _get(project.group, self.group_id)
        for k, v in self.values.items():
            if k == "raid":
                v = v if isinstance(v, RaidType) else RaidType.parse(v)
            if k not in ("raid", "name"):
                raise OpError(f"a RAID group has no field {k!r}")
            setattr(g, k, v)
        self._refs = {ref_group(g.id)}


# ---------------------------------------------------------------- LUNs

def _get(lookup, key):
    try:
        return lookup(key)
    except KeyError as exc:
        raise OpError(exc.args[0]) from None


class CreateLun(Op):
    def __init__(self, group_id: int, capacity_gb: float, owner: str, settings: dict[str, Any] | None = None,
                 lun_id: int | None = None, name: str = ""):
        self.group_id, self.capacity_gb, self.owner = group_id, float(capacity_gb), owner
        self.settings = dict(settings or {})
        self.lun_id, self.name = lun_id, name
        self.text = f"Create LUN in RG {group_id}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if not any(g.id == self.group_id for g in project.groups):
            return f"RAID group {self.group_id} does not exist"
        if self.capacity_gb <= 0:
            return "a LUN needs a capacity above 0 GB"
        if self.lun_id is not None and any(l.id == self.lun_id for l in project.luns):
            return f"LUN {self.lun_id} already exists"
        platform = platform_of(project, catalog)
        if self.owner not in platform.controller_names():
            return f"the owner must be one of {', '.join(platform.controller_names())}"
        from .capacity import group_capacity
        free = group_capacity(project, catalog, project.group(self.group_id)).free_gb
        if self.capacity_gb > free + 1e-9:
            return f"RG {self.group_id} has {free:,.1f} GB free; the LUN needs {self.capacity_gb:,.1f} GB"
        return None

    def do(self, project: Project) -> Change:
        _get(project.group, self.group_id)
        if self.lun_id is None:
            self.lun_id = project.next_lun_id()
        if any(l.id == self.lun_id for l in project.luns):
            raise OpError(f"LUN {self.lun_id} already exists")
        project.luns.append(Lun(self.lun_id, self.group_id, self.capacity_gb, self.owner, self.name,
                                dict(self.settings)))
        project.luns.sort(key=lambda l: l.id)
        self.text = f"Create LUN {self.lun_id}"
        return Change.of(LUNS, refs=[ref_lun(self.lun_id), ref_group(self.group_id)])

    def undo(self, project: Project) -> Change:
        project.luns = [l for l in project.luns if l.id != self.lun_id]
        return Change.of(LUNS, refs=[ref_lun(self.lun_id), ref_group(self.group_id)])


LUN_FIELDS = ("capacity_gb", "owner", "name", "group_id", "optimization")


class SetLunFields(Op):
    """Change LUN fields (capacity_gb: resize; owner; name) and/or per-LUN settings."""

    def __init__(self, lun_id: int, settings: dict[str, Any] | None = None, **values: Any):
        self.lun_id, self.values, self.settings = lun_id, values, dict(settings or {})
        bad = set(values) - set(LUN_FIELDS)
        if bad:
            raise OpError(f"a LUN has no field {', '.join(sorted(bad))}")
        self.text = f"Resize LUN {lun_id}" if set(values) == {"capacity_gb"} and not settings else f"Edit LUN {lun_id}"
        self._old: dict[str, Any] = {}
        self._old_settings: dict[str, Any] = {}

    def check(self, project: Project, catalog: Catalog) -> str | None:
        try:
            lun = project.lun(self.lun_id)
        except KeyError as exc:
            return exc.args[0]
        if "capacity_gb" in self.values:
            cap = float(self.values["capacity_gb"])
            if cap <= 0:
                return "a LUN needs a capacity above 0 GB"
            from .capacity import group_capacity
            gid = self.values.get("group_id", lun.group_id)
            free = group_capacity(project, catalog, project.group(gid)).free_gb + (lun.capacity_gb if gid == lun.group_id else 0)
            if cap > free + 1e-9:
                return f"RG {gid} has room for {free:,.1f} GB; LUN {self.lun_id} would need {cap:,.1f} GB"
        if "owner" in self.values:
            names = platform_of(project, catalog).controller_names()
            if self.values["owner"] not in names:
                return f"the owner must be one of {', '.join(names)}"
        platform = platform_of(project, catalog)
        for k, v in self.settings.items():
            spec = platform.lun_settings.get(k)
            if spec is None:
                return f"the {platform.name} has no LUN setting {k!r}"
            why = spec.check(v)
            if why:
                return why
        return None

    def do(self, project: Project) -> Change:
        lun = _get(project.lun, self.lun_id)
        self._old = {k: getattr(lun, k) for k in self.values}
        self._old_settings = {k: lun.settings.get(k, _MISSING) for k in self.settings}
        for k, v in self.values.items():
            setattr(lun, k, float(v) if k == "capacity_gb" else v)
        lun.settings.update(self.settings)
        return Change.of(LUNS, refs=[ref_lun(self.lun_id), ref_group(lun.group_id)])

    def undo(self, project: Project) -> Change:
        lun = project.lun(self.lun_id)
        for k, v in self._old.items():
            setattr(lun, k, v)
        for k, v in self._old_settings.items():
            if v is _MISSING:
                lun.settings.pop(k, None)
            else:
                lun.settings[k] = v
        return Change.of(LUNS, refs=[ref_lun(self.lun_id), ref_group(lun.group_id)])


_MISSING = object()


def ResizeLun(lun_id: int, capacity_gb: float) -> SetLunFields:  # noqa: N802 - reads like the others
    return SetLunFields(lun_id, capacity_gb=capacity_gb)


class DeleteLun(SnapshotOp):
    """Delete a LUN and take it out of the workloads that use it."""

    attrs = ("luns", "workloads")
    aspects = (LUNS, WORKLOADS)

    def __init__(self, lun_id: int):
        super().__init__()
        self.lun_id = lun_id
        self.text = f"Delete LUN {lun_id}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return None if any(l.id == self.lun_id for l in project.luns) else f"LUN {self.lun_id} does not exist"

    def _apply(self, project: Project) -> None:
        lun = _get(project.lun, self.lun_id)
        project.luns.remove(lun)
        for w in project.workloads:
            if lun.id in w.luns:
                w.luns = [x for x in w.luns if x != lun.id]
                self._refs.add(ref_workload(w.id))
        self._refs |= {ref_lun(lun.id), ref_group(lun.group_id)}


# ---------------------------------------------------------------- cache, features, info

class _SetKey(Op):
    """Set `key` to `value` in one of the project's setting dicts; undo restores the old value,
    or removes the key when it was unset (so the platform default applies again)."""

    key: str
    value: Any
    _old: Any = _MISSING

    def _mapping(self, project: Project) -> dict[str, Any]:
        raise NotImplementedError

    def _change(self) -> Change:
        raise NotImplementedError

    def do(self, project: Project) -> Change:
        mapping = self._mapping(project)
        self._old = mapping.get(self.key, _MISSING)
        mapping[self.key] = self.value
        return self._change()

    def undo(self, project: Project) -> Change:
        mapping = self._mapping(project)
        if self._old is _MISSING:
            mapping.pop(self.key, None)
        else:
            mapping[self.key] = self._old
        return self._change()


class SetCacheSetting(_SetKey):
    def __init__(self, key: str, value: Any, label: str | None = None):
        """label: the setting's name as the platform shows it (for Undo and messages)."""
        self.key, self.value = key, value
        self.text = f"Set {label or key}"
        self._old: Any = _MISSING

    def check(self, project: Project, catalog: Catalog) -> str | None:
        platform = platform_of(project, catalog)
        spec = platform.cache_settings.get(self.key)
        if spec is None:
            return f"the {platform.name} has no cache setting {self.key!r}"
        return spec.check(self.value)

    def _mapping(self, project: Project) -> dict[str, Any]:
        return project.cache

    def _change(self) -> Change:
        return Change.of(CACHE, refs=[f"cache.{self.key}"])


class SetFeature(_SetKey):
    def __init__(self, feature_id: str, enabled: bool):
        self.feature_id, self.enabled = feature_id, bool(enabled)
        self.key, self.value = feature_id, self.enabled
        self.text = f"{'Enable' if enabled else 'Disable'} {feature_id}"
        self._old: Any = _MISSING

    def check(self, project: Project, catalog: Catalog) -> str | None:
        platform = platform_of(project, catalog)
        if self.feature_id not in platform.features:
            return f"the {platform.name} has no premium feature {self.feature_id!r}"
        return None

    def _mapping(self, project: Project) -> dict[str, Any]:
        return project.features

    def _change(self) -> Change:
        return Change.of(FEATURES, refs=[f"feature {self.key}"])


class SetProjectInfo(Op):
    def __init__(self, **values: Any):
        bad = set(values) - {f.name for f in dc_fields(ProjectInfo)} - {"horizon_h"}
        if bad:
            raise OpError(f"project info has no field {', '.join(sorted(bad))}")
        self.values = values
        self.text = "Edit project info"
        self._old: dict[str, Any] = {}

    def do(self, project: Project) -> Change:
        self._old = {}
        for k, v in self.values.items():
            target = project if k == "horizon_h" else project.info
            self._old[k] = getattr(target, k)
            setattr(target, k, v)
        return Change.of(EVENTS if "horizon_h" in self.values else INFO, refs=["project"])

    def undo(self, project: Project) -> Change:
        for k, v in self._old.items():
            setattr(project if k == "horizon_h" else project.info, k, v)
        return Change.of(EVENTS if "horizon_h" in self.values else INFO, refs=["project"])


# ---------------------------------------------------------------- workloads

WORKLOAD_FIELDS = tuple(f.name for f in dc_fields(Workload) if f.name != "id")


def new_workload_id(project: Project, prefix: str = "w") -> str:
    used = {w.id for w in project.workloads}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


class AddWorkload(Op):
    def __init__(self, workload: Workload):
        self.workload = copy.deepcopy(workload)
        self.text = f"Add workload {workload.name or workload.id}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if any(w.id == self.workload.id for w in project.workloads):
            return f"workload {self.workload.id!r} already exists"
        known = {l.id for l in project.luns}
        missing = [x for x in self.workload.luns if x not in known]
        if missing:
            return f"LUN {missing[0]} does not exist"
        return None

    def do(self, project: Project) -> Change:
        if any(w.id == self.workload.id for w in project.workloads):
            raise OpError(f"workload {self.workload.id!r} already exists")
        project.workloads.append(copy.deepcopy(self.workload))
        return Change.of(WORKLOADS, refs=[ref_workload(self.workload.id), *map(ref_lun, self.workload.luns)])

    def undo(self, project: Project) -> Change:
        project.workloads = [w for w in project.workloads if w.id != self.workload.id]
        return Change.of(WORKLOADS, refs=[ref_workload(self.workload.id), *map(ref_lun, self.workload.luns)])


class EditWorkload(Op):
    def __init__(self, workload_id: str, **values: Any):
        bad = set(values) - set(WORKLOAD_FIELDS)
        if bad:
            raise OpError(f"a workload has no field {', '.join(sorted(bad))}")
        self.workload_id, self.values = workload_id, values
        self.text = f"Edit workload {workload_id}"
        self._old: dict[str, Any] = {}

    def check(self, project: Project, catalog: Catalog) -> str | None:
        try:
            project.workload(self.workload_id)
        except KeyError as exc:
            return exc.args[0]
        from .validation import workload_errors  # validation reads the project model only

        w = project.workload(self.workload_id)
        edited = copy.copy(w)
        for k, v in self.values.items():
            setattr(edited, k, v)
        # refused here rather than saved and flagged; errors it had before do not block fixing another field
        before = set(workload_errors(project, catalog, w))
        new = [e for e in workload_errors(project, catalog, edited) if e not in before]
        return new[0] if new else None

    def do(self, project: Project) -> Change:
        w = _get(project.workload, self.workload_id)
        self._old = {k: copy.deepcopy(getattr(w, k)) for k in self.values}
        for k, v in self.values.items():
            setattr(w, k, copy.deepcopy(v))
        return Change.of(WORKLOADS, refs=[ref_workload(w.id)])

    def undo(self, project: Project) -> Change:
        w = project.workload(self.workload_id)
        for k, v in self._old.items():
            setattr(w, k, v)
        return Change.of(WORKLOADS, refs=[ref_workload(w.id)])

    def merge_key(self) -> Any:
        return ("workload", self.workload_id, tuple(sorted(self.values)))


class RenameWorkload(Op):
    """Change a workload's id; the workload-change events that name it follow."""

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new.strip()
        self.text = f"Rename workload {old} to {self.new}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if not self.new or any(c.isspace() for c in self.new):
            return "a workload id is one word, e.g. oltp"
        if not any(w.id == self.old for w in project.workloads):
            return f"workload {self.old!r} does not exist"
        if self.new != self.old and any(w.id == self.new for w in project.workloads):
            return f"there is already a workload {self.new!r}"
        return None

    def _rename(self, project: Project, a: str, b: str) -> Change:
        why = RenameWorkload(a, b).check(project, None)  # type: ignore[arg-type]
        if why:
            raise OpError(why)
        project.workload(a).id = b
        refs = {ref_workload(a), ref_workload(b)}
        moved = _retarget_events(project, (WorkloadChange,), "workload", a, b)
        refs |= moved
        return Change.of(WORKLOADS, *([EVENTS] if moved else []), refs=refs)

    def do(self, project: Project) -> Change:
        return self._rename(project, self.old, self.new)

    def undo(self, project: Project) -> Change:
        return self._rename(project, self.new, self.old)


class RemoveWorkload(Op):
    def __init__(self, workload_id: str):
        self.workload_id = workload_id
        self.text = f"Remove workload {workload_id}"
        self._index = 0
        self._w: Workload | None = None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return None if any(w.id == self.workload_id for w in project.workloads) else f"workload {self.workload_id!r} does not exist"

    def do(self, project: Project) -> Change:
        w = _get(project.workload, self.workload_id)
        self._index = project.workloads.index(w)
        self._w = project.workloads.pop(self._index)
        return Change.of(WORKLOADS, refs=[ref_workload(w.id)])

    def undo(self, project: Project) -> Change:
        assert self._w is not None
        project.workloads.insert(self._index, self._w)
        return Change.of(WORKLOADS, refs=[ref_workload(self._w.id)])


# ---------------------------------------------------------------- timeline: events

def _scenario(project: Project, name: str | None) -> Scenario:
    return _get(project.scenario, name)


class AddEvent(Op):
    """Add `event` to a scenario (the current one when `scenario` is None). An empty event id is
    filled with the scenario's next free one ("op1", "op2" ...)."""

    def __init__(self, event: Event, scenario: str | None = None):
        self.event = copy.deepcopy(event)
        self.scenario = scenario
        self.text = f"Add {event.label_text or event.kind}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        try:
            sc = project.scenario(self.scenario)
        except KeyError as exc:
            return exc.args[0]
        if self.event.id and any(e.id == self.event.id for e in sc.events):
            return f"event {self.event.id} already exists in {sc.name}"
        if self.event.start_h < 0:
            return "an event cannot start before the plan (0 h)"
        return None

    def do(self, project: Project) -> Change:
        sc = _scenario(project, self.scenario)
        self.scenario = sc.name
        if not self.event.id:
            self.event.id = sc.new_event_id()
        if any(e.id == self.event.id for e in sc.events):
            raise OpError(f"event {self.event.id} already exists in {sc.name}")
        sc.events.append(copy.deepcopy(self.event))
        return Change.of(EVENTS, refs=[self.event.id], scenario=sc.name)

    def undo(self, project: Project) -> Change:
        sc = project.scenario(self.scenario)
        sc.events = [e for e in sc.events if e.id != self.event.id]
        return Change.of(EVENTS, refs=[self.event.id], scenario=sc.name)


class RemoveEvent(Op):
    def __init__(self, event_id: str, scenario: str | None = None):
        self.event_id, self.scenario = event_id, scenario
        self.text = f"Remove {event_id}"
        self._index = 0
        self._event: Event | None = None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        try:
            project.scenario(self.scenario).event(self.event_id)
        except KeyError as exc:
            return exc.args[0]
        return None

    def do(self, project: Project) -> Change:
        sc = _scenario(project, self.scenario)
        self.scenario = sc.name
        ev = _get(sc.event, self.event_id)
        self._index = sc.events.index(ev)
        self._event = sc.events.pop(self._index)
        return Change.of(EVENTS, refs=[self.event_id], scenario=sc.name)

    def undo(self, project: Project) -> Change:
        assert self._event is not None
        sc = project.scenario(self.scenario)
        sc.events.insert(self._index, self._event)
        return Change.of(EVENTS, refs=[self.event_id], scenario=sc.name)


class SetEventFields(Op):
    """Change fields of an event (start_h, priority, lun, moves, changes ...). Successive edits of
    the same fields of the same event merge into one undo step when both are flagged `mergeable`
    (a spin box's arrow steps); separate actions such as two drags stay separate steps."""

    def __init__(self, event_id: str, scenario: str | None = None, **values: Any):
        self.event_id, self.scenario, self.values = event_id, scenario, values
        if set(values) == {"start_h"}:
            self.text = f"Move {event_id}"
        elif set(values) == {"priority"}:
            self.text = f"Set {event_id} priority to {values['priority']}"
        else:
            self.text = f"Edit {event_id}"
        self._old: dict[str, Any] = {}

    def check(self, project: Project, catalog: Catalog) -> str | None:
        try:
            ev = project.scenario(self.scenario).event(self.event_id)
        except KeyError as exc:
            return exc.args[0]
        names = {f.name for f in dc_fields(ev)}
        bad = set(self.values) - names
        if bad:
            return f"{ev.label_text or ev.kind} has no field {', '.join(sorted(bad))}"
        if "id" in self.values:
            return "an event's id cannot be changed"
        if "start_h" in self.values and float(self.values["start_h"]) < 0:
            return "an event cannot start before the plan (0 h)"
        if "priority" in self.values:
            offered = platform_of(project, catalog).priorities(ev.kind)
            if offered and self.values["priority"] not in offered:
                return f"{ev.label_text or ev.kind} priorities are {', '.join(offered)}"
        return None

    def do(self, project: Project) -> Change:
        sc = _scenario(project, self.scenario)
        self.scenario = sc.name
        ev = _get(sc.event, self.event_id)
        names = {f.name for f in dc_fields(ev)}
        bad = set(self.values) - names
        if bad or "id" in self.values:
            raise OpError(f"{ev.label_text or ev.kind} has no field {', '.join(sorted(bad or {'id'}))}")
        self._old = {k: copy.deepcopy(getattr(ev, k)) for k in self.values}
        for k, v in self.values.items():
            setattr(ev, k, copy.deepcopy(v))
        return Change.of(EVENTS, refs=[self.event_id], scenario=sc.name)

    def undo(self, project: Project) -> Change:
        sc = project.scenario(self.scenario)
        ev = sc.event(self.event_id)
        for k, v in self._old.items():
            setattr(ev, k, v)
        return Change.of(EVENTS, refs=[self.event_id], scenario=sc.name)

    def merge_key(self) -> Any:
        return ("event", self.scenario, self.event_id, tuple(sorted(self.values)))

    def merge(self, other: Op) -> bool:
        if not isinstance(other, SetEventFields) or other.merge_key() != self.merge_key():
            return False
        if not (self.mergeable and other.mergeable):
            return False
        self.values = dict(other.values)  # keep our _old: undo goes back to before the first edit
        return True


def MoveEvent(event_id: str, start_h: float, scenario: str | None = None) -> SetEventFields:  # noqa: N802
    return SetEventFields(event_id, scenario, start_h=float(start_h))


def SetEventPriority(event_id: str, priority: str, scenario: str | None = None) -> SetEventFields:  # noqa: N802
    return SetEventFields(event_id, scenario, priority=priority)


# ---------------------------------------------------------------- timeline: scenarios

class AddScenario(Op):
    def __init__(self, name: str, events: Sequence[Event] = (), notes: str = "", make_current: bool = True):
        self.scenario = Scenario(name, [copy.deepcopy(e) for e in events], notes)
        self.make_current = make_current
        self.text = f"Add scenario {name}"
        self._old_current = ""

    def check(self, project: Project, catalog: Catalog) -> str | None:
        name = self.scenario.name.strip()
        if not name:
            return "a scenario needs a name"
        if any(s.name == name for s in project.scenarios):
            return f"there is already a scenario {name!r}"
        return None

    def do(self, project: Project) -> Change:
        why = self.check(project, None)  # type: ignore[arg-type]  (no catalog needed)
        if why:
            raise OpError(why)
        project.scenarios.append(copy.deepcopy(self.scenario))
        self._old_current = project.current_scenario
        if self.make_current:
            project.current_scenario = self.scenario.name
        return Change.of(SCENARIOS, EVENTS, refs=[ref_scenario(self.scenario.name)], scenario=self.scenario.name)

    def undo(self, project: Project) -> Change:
        project.scenarios = [s for s in project.scenarios if s.name != self.scenario.name]
        project.current_scenario = self._old_current
        return Change.of(SCENARIOS, EVENTS, refs=[ref_scenario(self.scenario.name)], scenario=self._old_current)


def unique_scenario_name(project: Project, base: str) -> str:
    names = {s.name for s in project.scenarios}
    if base not in names:
        return base
    n = 2
    while f"{base} ({n})" in names:
        n += 1
    return f"{base} ({n})"


def DuplicateScenario(project: Project, source: str, new_name: str | None = None) -> AddScenario:  # noqa: N802
    """A copy of `source` (its events and notes) under a new name, made current."""
    sc = project.scenario(source)
    return AddScenario(new_name or unique_scenario_name(project, f"{source} copy"), sc.events, sc.notes)


class RenameScenario(Op):
    def __init__(self, old: str, new: str):
        self.old, self.new = old, new.strip()
        self.text = f"Rename scenario {old} to {self.new}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if not self.new:
            return "a scenario needs a name"
        if not any(s.name == self.old for s in project.scenarios):
            return f"scenario {self.old!r} does not exist"
        if self.new != self.old and any(s.name == self.new for s in project.scenarios):
            return f"there is already a scenario {self.new!r}"
        return None

    def _rename(self, project: Project, a: str, b: str) -> Change:
        why = RenameScenario(a, b).check(project, None)  # type: ignore[arg-type]
        if why:
            raise OpError(why)
        project.scenario(a).name = b
        if project.current_scenario == a:
            project.current_scenario = b
        if project.baseline_scenario == a:
            project.baseline_scenario = b
        return Change.of(SCENARIOS, refs=[ref_scenario(a), ref_scenario(b)], scenario=b)

    def do(self, project: Project) -> Change:
        return self._rename(project, self.old, self.new)

    def undo(self, project: Project) -> Change:
        return self._rename(project, self.new, self.old)


class RemoveScenario(Op):
    def __init__(self, name: str):
        self.name = name
        self.text = f"Remove scenario {name}"
        self._index = 0
        self._sc: Scenario | None = None
        self._current = ""
        self._baseline: str | None = None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if not any(s.name == self.name for s in project.scenarios):
            return f"scenario {self.name!r} does not exist"
        if len(project.scenarios) == 1:
            return "a project keeps at least one scenario"
        return None

    def do(self, project: Project) -> Change:
        why = self.check(project, None)  # type: ignore[arg-type]
        if why:
            raise OpError(why)
        self._current, self._baseline = project.current_scenario, project.baseline_scenario
        self._index = next(i for i, s in enumerate(project.scenarios) if s.name == self.name)
        self._sc = project.scenarios.pop(self._index)
        if project.current_scenario == self.name:
            project.current_scenario = project.scenarios[max(self._index - 1, 0)].name
        if project.baseline_scenario == self.name:
            project.baseline_scenario = None
        return Change.of(SCENARIOS, EVENTS, refs=[ref_scenario(self.name)], scenario=project.current_scenario)

    def undo(self, project: Project) -> Change:
        assert self._sc is not None
        project.scenarios.insert(self._index, self._sc)
        project.current_scenario, project.baseline_scenario = self._current, self._baseline
        return Change.of(SCENARIOS, EVENTS, refs=[ref_scenario(self.name)], scenario=self._current)


class SetCurrentScenario(Op):
    def __init__(self, name: str):
        self.name = name
        self.text = f"Switch to scenario {name}"
        self._old = ""

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return None if any(s.name == self.name for s in project.scenarios) else f"scenario {self.name!r} does not exist"

    def do(self, project: Project) -> Change:
        if not any(s.name == self.name for s in project.scenarios):
            raise OpError(f"scenario {self.name!r} does not exist")
        self._old, project.current_scenario = project.current_scenario, self.name
        return Change.of(SCENARIOS, refs=[ref_scenario(self.name)], scenario=self.name)

    def undo(self, project: Project) -> Change:
        project.current_scenario = self._old
        return Change.of(SCENARIOS, refs=[ref_scenario(self._old)], scenario=self._old)


class SetBaselineScenario(Op):
    """The scenario others are compared with (None: no comparison)."""

    def __init__(self, name: str | None):
        self.name = name
        self.text = f"Set baseline {name}" if name else "Clear baseline"
        self._old: str | None = None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if self.name is None or any(s.name == self.name for s in project.scenarios):
            return None
        return f"scenario {self.name!r} does not exist"

    def do(self, project: Project) -> Change:
        why = self.check(project, None)  # type: ignore[arg-type]
        if why:
            raise OpError(why)
        self._old, project.baseline_scenario = project.baseline_scenario, self.name
        return Change.of(SCENARIOS, refs=[ref_scenario(self.name or "")])

    def undo(self, project: Project) -> Change:
        project.baseline_scenario = self._old
        return Change.of(SCENARIOS, refs=[ref_scenario(self.name or "")])


class SetScenarioNotes(Op):
    def __init__(self, name: str, notes: str):
        self.name, self.notes = name, notes
        self.text = f"Edit notes of {name}"
        self._old = ""

    def do(self, project: Project) -> Change:
        sc = _scenario(project, self.name)
        self._old, sc.notes = sc.notes, self.notes
        return Change.of(INFO, refs=[ref_scenario(self.name)])

    def undo(self, project: Project) -> Change:
        project.scenario(self.name).notes = self._old
        return Change.of(INFO, refs=[ref_scenario(self.name)])


def fill_enclosure(project: Project, catalog: Catalog, enc_id: str, type_id: str) -> Batch:
    """Drives of `type_id` in every empty slot of an enclosure, as one step (a drive type dropped
    on an enclosure's label). check() says why not (unknown enclosure, full, type refused, the
    platform's drive limit reached).

    Near the platform's drive limit it fills the first empty slots up to the limit, and `note`
    says how many stay empty and why: what fits is what the user asked for, as with a partly
    filled enclosure (refusing would leave placing them one by one)."""
    platform = platform_of(project, catalog)
    try:
        enc = project.enclosure(enc_id)
        etype = platform.enclosure_types[enc.type_id]
        slots = [slot_id(enc.bus, enc.position, s) for s in range(etype.slots)]
    except KeyError:
        slots = []
    empty = [loc for loc in slots if loc not in project.drives]
    left = drives_left(project, platform)
    todo = [PlaceDrive(loc, type_id) for loc in (empty if left is None else empty[:max(left, 0)])]
    batch = Batch(todo, f"Fill enclosure {enc_id} with {plural(len(todo), 'drive')}")
    if todo and len(todo) < len(empty):
        batch.note = (f"{plural(len(empty) - len(todo), 'slot')} left empty: the {platform.name} "
                      f"addresses at most {plural(platform.max_drives, 'drive')}")
    if not empty:
        batch.check = lambda p, c: f"enclosure {enc_id} has no empty slot"  # type: ignore[method-assign]
    elif not todo:
        batch.check = lambda p, c: drive_limit_problem(p, c)  # type: ignore[method-assign]
    else:  # empty slots of one enclosure take one drive type alike: the first slot's answer holds
        batch.check = lambda p, c: todo[0].check(p, c)  # type: ignore[method-assign]
    return batch


# ---------------------------------------------------------------- selection helpers

def delete_ops(project: Project, refs: Iterable[str]) -> list[Op]:
    """The ops that delete what `refs` name (the Delete key on a selection): LUNs, then groups,
    then drives not in a surviving group, then empty enclosures. Objects that cannot go are left
    for the caller to report via check()."""
    kinds: dict[str, list[Any]] = {}
    for r in refs:
        k, v = parse_ref(r)
        kinds.setdefault(k, []).append(v)
    ops: list[Op] = []
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


# ---------------------------------------------------------------- what a deletion leaves behind

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


def removed_refs(project: Project, op: Op) -> tuple[set[str], set[tuple[str, str]]]:
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


def dangling_events(project: Project, op: Op) -> list[tuple[str, Event]]:
    """(scenario name, event) of every event, in any scenario, that would name something `op`
    deletes: left in place, each is a validation error that stops the prediction."""
    refs, removed = removed_refs(project, op)
    if not refs:
        return []
    return [(sc.name, ev) for sc in project.scenarios for ev in sc.events
            if (sc.name, ev.id) not in removed and event_refs(ev) & refs]


def with_dependent_events(op: Op, dangling: list[tuple[str, Event]]) -> Op:
    """`op` and the removal of the events it would leave dangling, as one undo step (the events
    go first: undo puts them back after the objects they name)."""
    if not dangling:
        return op
    n = len(dangling)
    return Batch([RemoveEvent(ev.id, sc) for sc, ev in dangling] + [op],
                 f"{op.text} and {plural(n, 'event')} that use{'s' if n == 1 else ''} it")
