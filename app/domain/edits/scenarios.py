"""Edits of the scenario list: add, rename, remove, current and baseline."""
from __future__ import annotations

import copy
from typing import Sequence

from ..hardware import Catalog
from ..overlay import Overlay
from ..project import Event, Project, Scenario
from .base import Edit, RenameEdit
from .change import CONFIG_ASPECTS, Change, EVENTS, EditError, INFO, SCENARIOS
from .events import _scenario
from .refs import ref_scenario


class AddScenario(Edit):
    def __init__(self, name: str, events: Sequence[Event] = (), notes: str = "", make_current: bool = True,
                 overlay: Overlay | None = None):
        self.scenario = Scenario(name, [copy.deepcopy(e) for e in events], notes, copy.deepcopy(overlay))
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
            raise EditError(why)
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
    """A copy of `source` (its events, notes and own configuration) under a new name, made current."""
    sc = project.scenario(source)
    return AddScenario(new_name or unique_scenario_name(project, f"{source} copy"), sc.events, sc.notes,
                       overlay=sc.overlay)


class RenameScenario(RenameEdit):
    """Change a scenario's name; the current and baseline scenario follow."""

    what = "scenario"

    def names(self, project: Project) -> list[str]:
        return [s.name for s in project.scenarios]

    def _move(self, project: Project, a: str, b: str) -> Change:
        project.scenario(a).name = b
        if project.current_scenario == a:
            project.current_scenario = b
        if project.baseline_scenario == a:
            project.baseline_scenario = b
        return Change.of(SCENARIOS, refs=[ref_scenario(a), ref_scenario(b)], scenario=b)


class RemoveScenario(Edit):
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
            raise EditError(why)
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


class SetCurrentScenario(Edit):
    def __init__(self, name: str):
        self.name = name
        self.text = f"Switch to scenario {name}"
        self._old = ""

    def check(self, project: Project, catalog: Catalog) -> str | None:
        return None if any(s.name == self.name for s in project.scenarios) else f"scenario {self.name!r} does not exist"

    def do(self, project: Project) -> Change:
        if not any(s.name == self.name for s in project.scenarios):
            raise EditError(f"scenario {self.name!r} does not exist")
        self._old, project.current_scenario = project.current_scenario, self.name
        return Change.of(SCENARIOS, refs=[ref_scenario(self.name)], scenario=self.name)

    def undo(self, project: Project) -> Change:
        project.current_scenario = self._old
        return Change.of(SCENARIOS, refs=[ref_scenario(self._old)], scenario=self._old)


class SetBaselineScenario(Edit):
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
            raise EditError(why)
        self._old, project.baseline_scenario = project.baseline_scenario, self.name
        return Change.of(SCENARIOS, refs=[ref_scenario(self.name or "")])

    def undo(self, project: Project) -> Change:
        project.baseline_scenario = self._old
        return Change.of(SCENARIOS, refs=[ref_scenario(self.name or "")])


class SetScenarioNotes(Edit):
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


class SetScenarioOverlay(Edit):
    """Give a scenario a configuration of its own (`overlay`: an Overlay, empty to start from the
    project's configuration) or take it away (None: the scenario runs on the project's
    configuration again). While a scenario with an overlay is current, configuration edits
    change its overlay (app/ui/document.py)."""

    def __init__(self, name: str, overlay: Overlay | None):
        self.name, self.overlay = name, copy.deepcopy(overlay)
        self.text = (f"Give scenario {name} its own configuration" if overlay is not None
                     else f"Scenario {name} follows the project configuration")
        self._old: Overlay | None = None

    def check(self, project: Project, catalog: Catalog) -> str | None:
        if not any(s.name == self.name for s in project.scenarios):
            return f"scenario {self.name!r} does not exist"
        return None

    def _set(self, project: Project, overlay: Overlay | None) -> Change:
        sc = _scenario(project, self.name)
        sc.overlay = copy.deepcopy(overlay)
        # what the scenario runs on changed: every part of the configuration may look different
        return Change.of(SCENARIOS, EVENTS, *CONFIG_ASPECTS, refs=[ref_scenario(self.name)], scenario=self.name)

    def do(self, project: Project) -> Change:
        self._old = copy.deepcopy(_scenario(project, self.name).overlay)
        return self._set(project, self.overlay)

    def undo(self, project: Project) -> Change:
        return self._set(project, self._old)
