"""Edits of host workloads."""
from __future__ import annotations

import copy
from dataclasses import fields as dc_fields
from typing import Any

from ..hardware import Catalog
from ..project import Project, Workload, WorkloadChange
from .base import Edit, RenameEdit, lookup, retarget_events
from .change import Change, EVENTS, EditError, WORKLOADS
from .refs import ref_lun, ref_workload


WORKLOAD_FIELDS = tuple(f.name for f in dc_fields(Workload) if f.name != "id")


def new_workload_id(project: Project, prefix: str = "w") -> str:
    used = {w.id for w in project.workloads}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


class AddWorkload(Edit):
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
            raise EditError(f"workload {self.workload.id!r} already exists")
        project.workloads.append(copy.deepcopy(self.workload))
        return Change.of(WORKLOADS, refs=[ref_workload(self.workload.id), *map(ref_lun, self.workload.luns)])

    def undo(self, project: Project) -> Change:
        project.workloads = [w for w in project.workloads if w.id != self.workload.id]
        return Change.of(WORKLOADS, refs=[ref_workload(self.workload.id), *map(ref_lun, self.workload.luns)])


class EditWorkload(Edit):
    def __init__(self, workload_id: str, **values: Any):
        bad = set(values) - set(WORKLOAD_FIELDS)
        if bad:
            raise EditError(f"a workload has no field {', '.join(sorted(bad))}")
        self.workload_id, self.values = workload_id, values
        self.text = f"Edit workload {workload_id}"
        self._old: dict[str, Any] = {}

    def check(self, project: Project, catalog: Catalog) -> str | None:
        try:
            project.workload(self.workload_id)
        except KeyError as exc:
            return exc.args[0]
        from ..validation import workload_errors  # validation reads the project model only

        w = project.workload(self.workload_id)
        edited = copy.copy(w)
        for k, v in self.values.items():
            setattr(edited, k, v)
        # refused here rather than saved and flagged; errors it had before do not block fixing another field
        before = set(workload_errors(project, catalog, w))
        new = [e for e in workload_errors(project, catalog, edited) if e not in before]
        return new[0] if new else None

    def do(self, project: Project) -> Change:
        w = lookup(project.workload, self.workload_id)
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


class RenameWorkload(RenameEdit):
    """Change a workload's id; the workload-change events that name it follow."""

    what = "workload"

    def names(self, project: Project) -> list[str]:
        return [w.id for w in project.workloads]

    def name_problem(self, name: str) -> str | None:
        if not name or any(c.isspace() for c in name):
            return "a workload id is one word, e.g. oltp"
        return None

    def _move(self, project: Project, a: str, b: str) -> Change:
        project.workload(a).id = b
        moved = retarget_events(project, (WorkloadChange,), "workload", a, b)
        refs = {ref_workload(a), ref_workload(b)} | moved
        return Change.of(WORKLOADS, *([EVENTS] if moved else []), refs=refs)


class RemoveWorkload(Edit):
    def __init__(self, workload_id: str):
        self.workload_id = workload_id
        self.text = f"Remove workload {workload_id}"
        self._index = 0
        self._w: Workload | None = None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return None if any(w.id == self.workload_id for w in project.workloads) else f"workload {self.workload_id!r} does not exist"

    def do(self, project: Project) -> Change:
        w = lookup(project.workload, self.workload_id)
        self._index = project.workloads.index(w)
        self._w = project.workloads.pop(self._index)
        return Change.of(WORKLOADS, refs=[ref_workload(w.id)])

    def undo(self, project: Project) -> Change:
        assert self._w is not None
        project.workloads.insert(self._index, self._w)
        return Change.of(WORKLOADS, refs=[ref_workload(self._w.id)])
