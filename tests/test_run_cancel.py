"""A stale engine run ends early: Sim.run asks should_stop() every few steps (the worker passes
its pipe's poll, so the GUI's "stop" after a newer edit ends the live run within ~16 steps)."""
from __future__ import annotations

import json

import pytest

from app.engine.simulate import STOP_CHECK_STEPS, RunCancelled, simulate
from app.service.engine_worker.main import _Server


def test_should_stop_false_changes_nothing_and_true_stops_the_run(catalog, load_example):
    project = load_example("hitachi-usp600-tiers")
    asked = []
    plain = simulate(project, catalog)
    polled = simulate(project, catalog, should_stop=lambda: asked.append(1) or False)
    assert json.dumps(polled.to_json(), sort_keys=True) == json.dumps(plain.to_json(), sort_keys=True)
    assert len(asked) == plain.event_count // STOP_CHECK_STEPS
    with pytest.raises(RunCancelled):
        simulate(project, catalog, should_stop=lambda: True)


class WaitingPipe:
    """A pipe end with a message waiting (the GUI's "stop")."""

    def poll(self, timeout=0.0) -> bool:
        return True


def test_the_workers_live_job_stops_when_a_message_waits(catalog):
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from engine import large_project

    server = _Server(WaitingPipe())
    server.project, server.catalog = large_project(), catalog
    pred = server.job_live()
    assert pred.current is None and pred.error.startswith("RunCancelled: stopped at")
