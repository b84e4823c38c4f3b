"""Copies of the project that follow the GUI's edits: what a worker reads while the user edits.

A `Change` (app.domain.edits) names the aspects an edit touched; `ASPECT_ATTRS` maps them to the
Project containers that can hold them. `ChangeLog` gathers the containers edited since a copy
was last brought up to date, so only those are copied again: `snapshot_project` for a worker
thread in the GUI process, `project_parts` / `apply_parts` for the replica in the engine worker
process (the parts are pickled on the GUI thread and rebuilt there).
"""
from __future__ import annotations

import copy
from dataclasses import is_dataclass
from enum import Enum
from typing import Any

from app.domain.project import Project

# which Project attributes each kind of change (app.domain.edits.Change.aspects) can touch
ASPECT_ATTRS = {
    "layout": ("enclosures", "drives"),
    "groups": ("groups",),
    "luns": ("luns",),
    "cache": ("cache",),
    "features": ("features",),
    "workloads": ("workloads",),
    "events": ("scenarios",),
    "scenarios": ("scenarios",),
    # measured data (imported as an INFO edit) can be large and the engine never reads it: sent
    # only when it changes, like a container
    "info": ("info", "measured"),
}
CONTAINERS = ("enclosures", "drives", "groups", "luns", "cache", "features", "workloads", "scenarios", "info",
              "measured")

_ATOMS = (str, int, float, bool, type(None))


def _copy_value(v: Any) -> Any:
    t = type(v)
    if t in _ATOMS or isinstance(v, Enum):
        return v
    if t is list:
        return [x if type(x) in _ATOMS else _copy_value(x) for x in v]
    if t is dict:
        return {k: (x if type(x) in _ATOMS else _copy_value(x)) for k, x in v.items()}
    if is_dataclass(v) and not isinstance(v, type):
        new = object.__new__(t)
        new.__dict__.update({k: (x if type(x) in _ATOMS else _copy_value(x)) for k, x in v.__dict__.items()})
        return new
    return copy.deepcopy(v)


def snapshot_project(project, previous=None, changed_attrs: set[str] | None = None):
    """A copy of the project a worker can read while the user edits the original.

    Every dataclass, list and dict of the copy is new (like Project.clone(), without deepcopy's
    bookkeeping). With `previous` (an earlier snapshot, never modified since) and
    `changed_attrs` (the attributes edited since), untouched parts are shared with `previous`:
    after an edit of one event only the scenarios are copied again, which keeps the GUI thread
    free on the 960-drive / 1,000-LUN configuration."""
    new = object.__new__(type(project))
    for k, v in project.__dict__.items():
        if k in CONTAINERS and previous is not None and changed_attrs is not None and k not in changed_attrs:
            new.__dict__[k] = previous.__dict__[k]
        else:
            new.__dict__[k] = _copy_value(v)
    return new


class ChangeLog:
    """The Project containers edited since one copy of the project was last brought up to date.

    `take(target)` returns them (None: copy everything) and starts a new log for `target`; a
    different target than last time gets None, since the edits were logged for the other copy."""

    def __init__(self) -> None:
        self._attrs: set[str] | None = None
        self._target: Any = None

    def note(self, change) -> None:
        aspects = getattr(change, "aspects", None)
        if change is None or aspects is None or getattr(change, "replaced", False) or self._attrs is None:
            self._attrs = None
            return
        for a in aspects:
            attrs = ASPECT_ATTRS.get(a)
            if attrs is None:
                self._attrs = None
                return
            self._attrs.update(attrs)

    def forget(self) -> None:
        """Another project: the next copy is a full one."""
        self._attrs = None

    def take(self, target: Any) -> set[str] | None:
        attrs = self._attrs if target == self._target else None
        self._attrs, self._target = set(), target
        return attrs


def project_parts(project, changed_attrs: set[str] | None) -> dict[str, Any]:
    """The attributes to send to a replica: the containers in `changed_attrs` (all of them when
    None) and the plain attributes (platform, current and baseline scenario, horizon), which
    are small. The values are the project's own objects: pickle them before the next edit."""
    return {k: v for k, v in project.__dict__.items()
            if k not in CONTAINERS or changed_attrs is None or k in changed_attrs}


def apply_parts(replica: Project | None, parts: dict[str, Any]) -> Project:
    """The replica with `parts` (from project_parts) put in; a new one when `replica` is None."""
    if replica is None:
        replica = object.__new__(Project)
    replica.__dict__.update(parts)
    return replica
