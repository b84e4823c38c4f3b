"""The base classes of every edit: Edit, SnapshotEdit, Batch, RenameEdit, and lookups."""
from __future__ import annotations

import copy
from typing import Any, Sequence

from ..hardware import Catalog
from ..project import Project
from .change import Change, EditError


class Edit:
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

    def merge(self, other: "Edit") -> bool:
        return False


class SnapshotEdit(Edit):
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


class Batch(Edit):
    """Several ops as one undo step (drop five drives, delete a selection)."""

    def __init__(self, ops: Sequence[Edit], text: str = ""):
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
            except EditError as exc:
                return str(exc)
        # fresh state for the real run (ops remember what they did)
        for op in reversed(self.ops):
            op.undo(trial)
        return None

    def do(self, project: Project) -> Change:
        change = Change()
        done: list[Edit] = []
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


def retarget_events(project: Project, kinds: tuple[type, ...], attr: str, a: Any, b: Any) -> set[str]:
    """Point every event of `kinds` (in every scenario) whose `attr` is `a` at `b`, so a moved
    drive or renamed workload keeps its failures and changes; returns the event ids touched."""
    touched: set[str] = set()
    for sc in project.scenarios:
        for e in sc.events:
            if isinstance(e, kinds) and getattr(e, attr) == a:
                setattr(e, attr, b)
                touched.add(e.id)
    return touched


def lookup(find, key):
    """find(key), with the KeyError of a vanished object turned into an EditError."""
    try:
        return find(key)
    except KeyError as exc:
        raise EditError(exc.args[0]) from None


class RenameEdit(Edit):
    """Change the name (or id) of one object; undo renames it back. Subclasses say what is
    named (`what`), how names are found (`names`), what makes a name invalid (`name_problem`) and
    what follows the object to its new name (`_move`)."""

    what = "object"

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new.strip()
        self.text = f"Rename {self.what} {old} to {self.new}"

    def names(self, project: Project) -> list[str]:  # pragma: no cover - abstract
        raise NotImplementedError

    def name_problem(self, name: str) -> str | None:
        return None if name else f"a {self.what} needs a name"

    def check(self, project: Project, catalog: Catalog | None) -> str | None:
        return self._problem(project, self.old, self.new)

    def _problem(self, project: Project, a: str, b: str) -> str | None:
        why = self.name_problem(b)
        if why:
            return why
        names = self.names(project)
        if a not in names:
            return f"{self.what} {a!r} does not exist"
        if b != a and b in names:
            return f"there is already a {self.what} {b!r}"
        return None

    def _move(self, project: Project, a: str, b: str) -> Change:  # pragma: no cover - abstract
        raise NotImplementedError

    def _rename(self, project: Project, a: str, b: str) -> Change:
        why = self._problem(project, a, b)
        if why:
            raise EditError(why)
        return self._move(project, a, b)

    def do(self, project: Project) -> Change:
        return self._rename(project, self.old, self.new)

    def undo(self, project: Project) -> Change:
        return self._rename(project, self.new, self.old)
