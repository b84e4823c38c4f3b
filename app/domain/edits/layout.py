"""Edits of the hardware layout: enclosures, drives, hot spares."""
from __future__ import annotations

from ..formatting import plural
from ..hardware import Catalog
from ..project import Drive, DriveFailure, DriveReplacement, Enclosure, Project, enclosure_id, slot_id
from ..validation import drives_left
from .base import Batch, Edit, retarget_events
from .change import Change, EVENTS, EditError, GROUPS, LAYOUT
from .refs import ref_drive, ref_enclosure, ref_group
from .rules import add_enclosure_problem, drive_limit_problem, place_drive_problem, platform_of


class AddEnclosure(Edit):
    def __init__(self, bus: int, position: int, type_id: str):
        self.bus, self.position, self.type_id = bus, position, type_id
        self.text = f"Add enclosure {enclosure_id(bus, position)}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return add_enclosure_problem(project, catalog, self.bus, self.position, self.type_id)

    def do(self, project: Project) -> Change:
        eid = enclosure_id(self.bus, self.position)
        if any(e.id == eid for e in project.enclosures):
            raise EditError(f"bus {self.bus} already has enclosure {eid}")
        project.enclosures.append(Enclosure(self.bus, self.position, self.type_id))
        project.enclosures.sort(key=lambda e: (e.bus, e.position))
        return Change.of(LAYOUT, refs=[ref_enclosure(eid), f"bus {self.bus}"])

    def undo(self, project: Project) -> Change:
        eid = enclosure_id(self.bus, self.position)
        project.enclosures = [e for e in project.enclosures if e.id != eid]
        return Change.of(LAYOUT, refs=[ref_enclosure(eid), f"bus {self.bus}"])


class RemoveEnclosure(Edit):
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
            raise EditError(why)
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


class PlaceDrive(Edit):
    def __init__(self, location: str, type_id: str, hot_spare: bool = False):
        self.location, self.type_id, self.hot_spare = location, type_id, hot_spare
        self.text = f"Place drive {location}"

    def check(self, project: Project, catalog: Catalog) -> str | None:
        # the limit only here: a move (place_drive_problem too) does not add a drive
        return (place_drive_problem(project, catalog, self.location, self.type_id)
                or drive_limit_problem(project, catalog))

    def do(self, project: Project) -> Change:
        if self.location in project.drives:
            raise EditError(f"slot {self.location} already holds a drive")
        project.drives[self.location] = Drive(self.location, self.type_id, self.hot_spare)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])

    def undo(self, project: Project) -> Change:
        project.drives.pop(self.location, None)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])


class RemoveDrive(Edit):
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
            raise EditError(why)
        self._index = list(project.drives).index(self.location)
        self._drive = project.drives.pop(self.location)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])

    def undo(self, project: Project) -> Change:
        assert self._drive is not None
        _insert_drive(project, self._index, self._drive)
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])


class MoveDrive(Edit):
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
            raise EditError(f"slot {a} is empty")
        if b in project.drives:
            raise EditError(f"slot {b} already holds a drive")
        d = project.drives[a]
        d.location = b
        _rekey_drive(project, a, b)
        refs = {ref_drive(a), ref_drive(b)}
        for g in project.groups:
            if a in g.drives:
                g.drives[g.drives.index(a)] = b
                refs.add(ref_group(g.id))
        moved = retarget_events(project, (DriveFailure, DriveReplacement), "drive", a, b)
        refs |= moved
        return Change.of(LAYOUT, GROUPS, *([EVENTS] if moved else []), refs=refs)

    def do(self, project: Project) -> Change:
        return self._move(project, self.source, self.dest)

    def undo(self, project: Project) -> Change:
        return self._move(project, self.dest, self.source)


class SetHotSpare(Edit):
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
            raise EditError(why)
        d = project.drives[self.location]
        self._old = d.hot_spare
        d.hot_spare = self.hot_spare
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])

    def undo(self, project: Project) -> Change:
        project.drives[self.location].hot_spare = self._old
        return Change.of(LAYOUT, refs=[ref_drive(self.location)])


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
