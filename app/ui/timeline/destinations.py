"""Destinations for a new LUN or volume migration that the project's validation accepts.

A form pre-filled with a destination that validation refuses (the source itself, a LUN a workload
uses, a smaller one, one another migration already writes to) gives an error as soon as it is
accepted. The rules are validation's (app.domain.validation): each candidate is tried by
validating the scenario with the new event in it, and is valid when that adds no error. The
candidates are tried best first, so that the first is nearly always valid: LUNs that no workload
and no other migration uses, as large as the source, in another RAID group (a migration moves
data off its group), the smallest first (the least capacity tied up). A scenario of 300 events
validates in ~1 ms; after TIME_BUDGET_S the best-ranked LUN is taken unchecked.

Qt-free: `choose_targets(event, project, catalog)` fills every destination left as None.
"""
from __future__ import annotations

import copy
import dataclasses
import time
from typing import Callable

from app.domain.hardware import Catalog
from app.domain.project import Event, Lun, LunMigration, Project, Scenario, VolumeMigration
from app.domain.validation import validate

TIME_BUDGET_S = 0.5
NEW_ID = "the new migration"  # the trial event's id: other events' errors name it


class _Trial:
    """Validates the current scenario with one extra event; the errors it adds."""

    def __init__(self, project: Project, catalog: Catalog):
        self.project, self.catalog = project, catalog
        self.scenario = project.scenario()
        self.busy = {l for e in self.scenario.events for l in _luns_moved(e)}
        self.busy |= {l for w in project.workloads for l in w.luns}
        self._layout: dict = {}  # the layout is checked once for all the candidates
        self._before = self._errors(self.scenario)

    def _errors(self, scenario: Scenario) -> set[tuple[str, str]]:
        trial = dataclasses.replace(
            self.project, scenarios=[scenario if s.name == scenario.name else s for s in self.project.scenarios])
        return {(i.where, i.text) for i in validate(trial, self.catalog, scenario.name, self._layout) if i.is_error}

    def new_errors(self, event: Event) -> list[str]:
        """The errors `event` adds to the scenario, those about itself without its name."""
        ev = copy.copy(event)
        ev.id = NEW_ID
        sc = dataclasses.replace(self.scenario, events=[*self.scenario.events, ev])
        return [text.split(": ", 1)[-1] if where == NEW_ID else text
                for where, text in sorted(self._errors(sc) - self._before)]

    def ranked(self, source: Lun, exclude: set[int]) -> list[Lun]:
        def key(l: Lun):
            return (l.id in self.busy, l.capacity_gb < source.capacity_gb, l.group_id == source.group_id,
                    l.capacity_gb, l.id)
        return sorted((l for l in self.project.luns if l.id != source.id and l.id not in exclude), key=key)


def _luns_moved(e: Event) -> list[int]:
    if isinstance(e, LunMigration):
        return [e.source_lun, e.dest_lun]
    if isinstance(e, VolumeMigration):
        return [x for m in e.moves for x in m]
    return []


def _first_valid(trial: _Trial, project: Project, source_id: int, exclude: set[int],
                 make: Callable[[int], Event]) -> tuple[int | None, str]:
    """The best destination for LUN `source_id` that `make(dest)` makes valid, or None and why."""
    try:
        source = project.lun(source_id)
    except KeyError as exc:
        return None, str(exc.args[0])
    first_error = ""
    stop = time.perf_counter() + TIME_BUDGET_S
    ranked = trial.ranked(source, exclude)
    for cand in ranked:
        if time.perf_counter() > stop:  # a huge plan: the form opens with the best guess
            return ranked[0].id, ""
        errors = trial.new_errors(make(cand.id))
        if not errors:
            return cand.id, ""
        first_error = first_error or errors[0]
    why = f"no LUN can be the destination of LUN {source_id} in scenario {trial.scenario.name!r}"
    return None, why + (f" ({first_error})" if first_error else "")


def choose_targets(event: Event, project: Project, catalog: Catalog, any_source: bool = False) -> str | None:
    """Fill the destinations of a new migration left as None (LunMigration.dest_lun, the second
    LUN of a VolumeMigration move) with the best valid ones, in the current scenario. A move
    without a valid target is dropped. Returns why a destination could not be chosen (None: all
    were); has_targets(event) says whether the event still has something to do.
    any_source: the source (of a single move) may change too, for the first LUN in the project's
    order that has a valid destination (the Add menu: the form is not about a given LUN)."""
    single = (isinstance(event, LunMigration) and event.dest_lun is None) or (
        isinstance(event, VolumeMigration) and len(event.moves) == 1 and event.moves[0][1] is None)
    if not (any_source and single):
        return _choose(event, project, catalog)
    first = event.source_lun if isinstance(event, LunMigration) else event.moves[0][0]
    stop = time.perf_counter() + TIME_BUDGET_S
    first_why = None
    for src in [first] + [l.id for l in project.luns if l.id != first]:
        trial = copy.deepcopy(event)
        if isinstance(trial, LunMigration):
            trial.source_lun = src
        else:
            trial.moves = [[src, None]]
        why = _choose(trial, project, catalog)
        if why is None:
            if isinstance(event, LunMigration):
                event.source_lun, event.dest_lun = trial.source_lun, trial.dest_lun
            else:
                event.moves = trial.moves
            return None
        first_why = first_why or why
        if time.perf_counter() > stop:
            break
    return first_why


def _choose(event: Event, project: Project, catalog: Catalog) -> str | None:
    if isinstance(event, LunMigration) and event.dest_lun is None:
        trial = _Trial(project, catalog)
        dest, why = _first_valid(trial, project, event.source_lun, set(),
                                 lambda d: dataclasses.replace(event, dest_lun=d))
        if dest is None:
            return why
        event.dest_lun = dest
    elif isinstance(event, VolumeMigration) and any(b is None for _, b in event.moves):
        trial = _Trial(project, catalog)
        chosen = [list(m) for m in event.moves if m[1] is not None]
        reasons = []
        for a, b in event.moves:
            if b is not None:
                continue
            taken = {x for m in chosen for x in m} | {s for s, _ in event.moves}  # not a volume that moves
            dest, why = _first_valid(trial, project, a, taken,
                                     lambda d: dataclasses.replace(event, moves=[*chosen, [a, d]]))
            if dest is None:
                reasons.append(why)
            else:
                chosen.append([a, dest])
        event.moves = chosen
        return "; ".join(reasons) or None
    return None


def has_targets(event: Event) -> bool:
    """A migration whose destinations choose_targets left something to do (a volume migration
    keeps the moves it found a target for)."""
    if isinstance(event, LunMigration):
        return event.dest_lun is not None
    if isinstance(event, VolumeMigration):
        return bool(event.moves) and all(b is not None for _, b in event.moves)
    return True
