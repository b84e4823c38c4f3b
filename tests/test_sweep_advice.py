"""The priority advisor across the sweep's load levels (app/service/sweep_advice.py, `arrayplanner
sweep --advise/--window`): its answer at each level agrees with single engine runs, the answer
never drops to a lower-impact priority as the load grows, and the window rule is the documented
one."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.simulate import simulate
from app.service.runner import InProcessExecutor
from app.service.sweep import SweepSpec, scaled_project, sweep
from app.service.sweep_advice import operation_window
from app.store.presets import load_catalog
from app.store.project_file import load_project

ROOT = Path(__file__).resolve().parents[1]
OLTP = ROOT / "presets/examples/emc-cx4-960-oltp.json"
WINDOW_H = 6.0


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture(scope="module")
def advised(catalog):
    project = load_project(OLTP)
    spec = SweepSpec(steps=6, max_factor=1.3, advise=True, window_h=WINDOW_H)
    return project, sweep(project, catalog, spec, executor=InProcessExecutor())


def duration(project, catalog, factor: float, event_id: str, priority: str):
    sc = project.current_scenario
    p = scaled_project(project, sc, factor, [event_id])
    p.scenario(sc).event(event_id).priority = priority
    return simulate(p, catalog, sc).operation(event_id).duration_h


def test_each_level_gets_the_slowest_priority_that_finishes_in_time(advised, catalog):
    project, result = advised
    (op,) = result.advice.operations
    assert op.event_id == "op1" and op.window_h == WINDOW_H and op.window_source == "given"
    assert [lv.factor for lv in op.levels] == [s.factor for s in result.curves[0].steps]
    assert any(lv.priority is not None for lv in op.levels)
    for lv in op.levels[::2]:
        levels = op.priorities
        if lv.priority is None:  # not even the fastest level finishes in time
            d = duration(project, catalog, lv.factor, "op1", levels[-1])
            assert d is None or d > WINDOW_H
            continue
        d = duration(project, catalog, lv.factor, "op1", lv.priority)
        assert d is not None and d <= WINDOW_H
        k = levels.index(lv.priority)
        if k > 0:  # the next lower-impact level misses the window
            slower = duration(project, catalog, lv.factor, "op1", levels[k - 1])
            assert slower is None or slower > WINDOW_H, (lv.factor, levels[k - 1], slower)


def test_more_load_never_allows_a_lower_impact_priority(advised):
    _, result = advised
    (op,) = result.advice.operations
    rank = [op.priorities.index(lv.priority) if lv.priority else len(op.priorities) for lv in op.levels]
    assert rank == sorted(rank)
    assert result.advice.runs > 0 and result.runs > result.advice.runs


def test_a_given_window_wins_and_the_plan_is_the_fallback(catalog):
    project = load_project(OLTP)
    ev = project.scenario().event("op1")
    project.horizon_h = None
    assert operation_window(project, ev, None) is None
    assert operation_window(project, ev, 3.0) == (3.0, "given")
    project.horizon_h = ev.start_h + 10.0
    assert operation_window(project, ev, None) == (pytest.approx(10.0), "plan")
    assert operation_window(project, ev, 3.0) == (3.0, "given")
    project.horizon_h = None
    res = sweep(project, catalog, SweepSpec(steps=2, max_factor=1.0, advise=True), executor=InProcessExecutor())
    assert res.advice.operations == [] and "op1" in res.advice.skipped[0]


def test_the_command_prints_the_advice_in_json():
    r = subprocess.run([sys.executable, "-m", "app", "sweep", str(OLTP), "--steps", "4", "--window", "6",
                        "--json", "--in-process"], capture_output=True, text=True, cwd=ROOT, timeout=300,
                       env={**__import__("os").environ, "ARRAYPLANNER_ENGINE": "python"})
    assert r.returncode == 0, r.stderr
    advice = json.loads(r.stdout)["priority_advice"]
    (op,) = advice["operations"]
    assert op["event"] == "op1" and op["window_h"] == 6 and op["window_source"] == "given"
    assert len(op["levels"]) == 4 and all(lv["priority"] in op["priorities"] + [None] for lv in op["levels"])
    bad = subprocess.run([sys.executable, "-m", "app", "sweep", str(OLTP), "--window", "0"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "--window" in bad.stderr
