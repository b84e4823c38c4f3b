"""Edits of a scenario's timeline events."""
from __future__ import annotations

import copy
from dataclasses import fields as dc_fields
from typing import Any

from ..hardware import Catalog
from ..priorities import priority_problem
from ..project import Event, Project, Scenario, describe_event
from .base import Edit, lookup
from .change import Change, EVENTS, EditError
from .rules import platform_of


def _scenario(project: Project, name: str | None) -> Scenario:
    return lookup(project.scenario, name)


class AddEvent(Edit):
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
            raise EditError(f"event {self.event.id} already exists in {sc.name}")
        sc.events.append(copy.deepcopy(self.event))
        return Change.of(EVENTS, refs=[self.event.id], scenario=sc.name)

    def undo(self, project: Project) -> Change:
        sc = project.scenario(self.scenario)
        sc.events = [e for e in sc.events if e.id != self.event.id]
        return Change.of(EVENTS, refs=[self.event.id], scenario=sc.name)


class RemoveEvent(Edit):
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
        ev = lookup(sc.event, self.event_id)
        self._index = sc.events.index(ev)
        self._event = sc.events.pop(self._index)
        self.text = f"Remove {describe_event(ev)}"
        return Change.of(EVENTS, refs=[self.event_id], scenario=sc.name)

    def undo(self, project: Project) -> Change:
        assert self._event is not None
        sc = project.scenario(self.scenario)
        sc.events.insert(self._index, self._event)
        return Change.of(EVENTS, refs=[self.event_id], scenario=sc.name)


class SetEventFields(Edit):
    """Change fields of an event (start_h, priority, lun, moves, changes ...). Successive edits of
    the same fields of the same event merge into one undo step when both are flagged `mergeable`
    (a spin box's arrow steps); separate actions such as two drags stay separate steps."""

    def __init__(self, event_id: str, scenario: str | None = None, **values: Any):
        self.event_id, self.scenario, self.values = event_id, scenario, values
        self._name(event_id)
        self._old: dict[str, Any] = {}

    def _name(self, name: str) -> None:
        """The undo step's text (the Edit menu, the status bar) with the event's `name`."""
        if set(self.values) == {"start_h"}:
            self.text = f"Move {name}"
        elif set(self.values) == {"priority"}:
            self.text = f"Set {name} priority to {self.values['priority']}"
        else:
            self.text = f"Edit {name}"

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
            why = priority_problem(platform_of(project, catalog), ev, self.values["priority"])
            if why:
                return why
        return None

    def do(self, project: Project) -> Change:
        sc = _scenario(project, self.scenario)
        self.scenario = sc.name
        ev = lookup(sc.event, self.event_id)
        names = {f.name for f in dc_fields(ev)}
        bad = set(self.values) - names
        if bad or "id" in self.values:
            raise EditError(f"{ev.label_text or ev.kind} has no field {', '.join(sorted(bad or {'id'}))}")
        self._name(describe_event(ev))  # "Migrate LUN 0 -> LUN 2", not "op1"
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

    def merge(self, other: Edit) -> bool:
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
