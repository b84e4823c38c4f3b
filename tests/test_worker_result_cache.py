"""app/service/engine_worker/result_cache.py: the engine worker answers a run it has made before from memory
(undo/redo, the pinned baseline after an edit of the current scenario) and only then.

The worker's replica gets new container objects for every edit (app.service.engine_worker.replica); the tests
play that with snapshot_project() copies of a project edited in place."""
from __future__ import annotations

import json

from app.domain import edits
from app.engine.simulate import simulate
from app.service.predict import predict
from app.service.engine_worker.replica import snapshot_project
from app.service.engine_worker.result_cache import ResultCache


class CountingEngine:
    def __init__(self) -> None:
        self.runs: list[str] = []

    def __call__(self, project, catalog, scenario_name=None):
        self.runs.append(scenario_name)
        return simulate(project, catalog, scenario_name=scenario_name)


def migration_id(project) -> str:
    return next(e.id for e in project.scenario().events if e.kind == "lun_migration")


def test_undo_is_answered_from_memory_with_what_a_fresh_run_gives(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    cache, engine = ResultCache(), CountingEngine()
    name = project.current_scenario
    first = cache.run(engine, snapshot_project(project), catalog, name)
    ev = migration_id(project)
    old = project.scenario().event(ev).priority
    other = next(p for p in catalog.platform(project.platform_id).priorities("lun_migration") if p != old)
    edits.SetEventPriority(ev, other).do(project)
    edited = cache.run(engine, snapshot_project(project), catalog, name)
    assert engine.runs == [name, name] and edited is not first
    assert edited.operation(ev).duration_h != first.operation(ev).duration_h
    edits.SetEventPriority(ev, old).do(project)  # undo
    again = cache.run(engine, snapshot_project(project), catalog, name)
    assert len(engine.runs) == 2 and again is first  # not run again
    fresh = simulate(snapshot_project(project), catalog, scenario_name=name)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(fresh.to_json(), sort_keys=True)
    assert (cache.hits, cache.misses) == (1, 2)


def test_every_input_of_the_engine_is_in_the_key(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    cache = ResultCache()
    name = project.current_scenario
    keys = {cache.key(snapshot_project(project), name)}
    # what the engine does not read: the project's title, another scenario's events
    edits.SetProjectInfo(title="Renamed").do(project)
    assert cache.key(snapshot_project(project), name) in keys
    # what it reads: a workload, the cache settings, a LUN, the horizon, the scenario's events
    project.workloads[0].iops += 1
    keys.add(cache.key(snapshot_project(project), name))
    project.cache["write_cache_mb"] = 123
    keys.add(cache.key(snapshot_project(project), name))
    project.luns[0].capacity_gb += 1
    keys.add(cache.key(snapshot_project(project), name))
    project.horizon_h = (project.horizon_h or 0) + 5
    keys.add(cache.key(snapshot_project(project), name))
    ev = project.scenario().events[0]
    edits.MoveEvent(ev.id, ev.start_h + 0.5).do(project)
    keys.add(cache.key(snapshot_project(project), name))
    assert len(keys) == 6


def test_the_pinned_baseline_is_not_simulated_again_after_an_edit_of_the_current_scenario(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    base = project.current_scenario
    edits.DuplicateScenario(project, base).do(project)  # the copy becomes current
    edits.SetBaselineScenario(base).do(project)
    current = project.current_scenario
    assert current != base and project.baseline_scenario == base
    cache, engine = ResultCache(), CountingEngine()
    first = predict(snapshot_project(project), catalog, simulate=engine, results=cache)
    assert first.error is None and sorted(engine.runs) == sorted([current, base])
    ev = migration_id(project)
    edits.MoveEvent(ev, project.scenario().event(ev).start_h + 0.5).do(project)
    second = predict(snapshot_project(project), catalog, simulate=engine, results=cache)
    assert engine.runs[2:] == [current]  # the baseline came from memory
    assert second.baseline is first.baseline and second.current is not first.current


def test_least_recently_used_results_go_first(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    cache, engine = ResultCache(size=2), CountingEngine()
    name = project.current_scenario
    ev = migration_id(project)
    start = project.scenario().event(ev).start_h
    states = []
    for dt in (0.0, 0.5, 1.0):
        edits.MoveEvent(ev, start + dt).do(project)
        states.append(snapshot_project(project))
        cache.run(engine, states[-1], catalog, name)
    cache.run(engine, states[2], catalog, name)  # kept
    cache.run(engine, states[1], catalog, name)  # kept
    assert len(engine.runs) == 3
    cache.run(engine, states[0], catalog, name)  # evicted: run again
    assert len(engine.runs) == 4
