"""Edits of LUNs."""
from __future__ import annotations

from typing import Any

from ..hardware import Catalog
from ..project import Lun, Project
from .base import Edit, SnapshotEdit, lookup
from .change import Change, EditError, LUNS, WORKLOADS
from .refs import ref_group, ref_lun, ref_workload
from .rules import platform_of


class CreateLun(Edit):
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
        from ..capacity import group_capacity
        free = group_capacity(project, catalog, project.group(self.group_id)).free_gb
        if self.capacity_gb > free + 1e-9:
            return f"RG {self.group_id} has {free:,.1f} GB free; the LUN needs {self.capacity_gb:,.1f} GB"
        return None

    def do(self, project: Project) -> Change:
        lookup(project.group, self.group_id)
        if self.lun_id is None:
            self.lun_id = project.next_lun_id()
        if any(l.id == self.lun_id for l in project.luns):
            raise EditError(f"LUN {self.lun_id} already exists")
        project.luns.append(Lun(self.lun_id, self.group_id, self.capacity_gb, self.owner, self.name,
                                dict(self.settings)))
        project.luns.sort(key=lambda l: l.id)
        self.text = f"Create LUN {self.lun_id}"
        return Change.of(LUNS, refs=[ref_lun(self.lun_id), ref_group(self.group_id)])

    def undo(self, project: Project) -> Change:
        project.luns = [l for l in project.luns if l.id != self.lun_id]
        return Change.of(LUNS, refs=[ref_lun(self.lun_id), ref_group(self.group_id)])


LUN_FIELDS = ("capacity_gb", "owner", "name", "group_id", "optimization")


class SetLunFields(Edit):
    """Change LUN fields (capacity_gb: resize; owner; name) and/or per-LUN settings."""

    def __init__(self, lun_id: int, settings: dict[str, Any] | None = None, **values: Any):
        self.lun_id, self.values, self.settings = lun_id, values, dict(settings or {})
        bad = set(values) - set(LUN_FIELDS)
        if bad:
            raise EditError(f"a LUN has no field {', '.join(sorted(bad))}")
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
            from ..capacity import group_capacity
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
        lun = lookup(project.lun, self.lun_id)
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


class DeleteLun(SnapshotEdit):
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
        lun = lookup(project.lun, self.lun_id)
        project.luns.remove(lun)
        for w in project.workloads:
            if lun.id in w.luns:
                w.luns = [x for x in w.luns if x != lun.id]
                self._refs.add(ref_workload(w.id))
        self._refs |= {ref_lun(lun.id), ref_group(lun.group_id)}
