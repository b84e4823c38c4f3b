"""The closed-loop solve (host_solve.solve): how many fixed-point passes a step takes.

A closed workload's throughput X is the fixed point X = f(X) of the response-time law; each pass
of the solve places the operations and evaluates f once (one call of placement.place, counted
through the engine's CHECKS hook). Plain damping by 0.5 took 9-13 passes on a step that changes
the load (netapp-fas-wafl Reallocate: 28 passes for 3 steps); the secant step settles in 3-4.
The passes are the solve's cost (issue 20's 5 ms budget per example), so their count is checked
here; the predictions themselves are checked by the other engine tests and `validate`.
"""
from __future__ import annotations

import pytest

from app.engine import simulate
from app.store.presets import load_catalog
from app.store.project_file import load_project

from conftest import EXAMPLE_PATHS, check_after_each_call

CLOSED_LOOP_SCENARIOS = [
    ("netapp-fas-wafl", "Reallocate", 12),  # 3 steps: 28 passes with damping 0.5
    ("netapp-fas-wafl", "Measure only", 7),  # 2 steps: 12
    ("hp-sa6402-raid5", "Sequential 64 KB, rebuild at High", 12),  # 4 steps: 22
    ("hp-sa6402-raid5", "OLTP 2 KB, rebuild at High", 12),  # 4 steps: 19
]


@pytest.mark.parametrize("stem,scenario,max_passes", CLOSED_LOOP_SCENARIOS,
                         ids=[f"{s}/{n}" for s, n, _ in CLOSED_LOOP_SCENARIOS])
def test_closed_loop_settles_in_few_passes(monkeypatch, stem, scenario, max_passes):
    project = load_project(next(p for p in EXAMPLE_PATHS if p.stem == stem))
    passes = check_after_each_call(monkeypatch, "place", lambda sim, out: None)
    result = simulate(project, load_catalog(), scenario)
    assert result.event_count <= len(passes) <= max_passes, (len(passes), result.event_count)
