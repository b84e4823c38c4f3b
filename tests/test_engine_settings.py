"""The engine reads cache and LUN settings the way the rest of the app shows them: a key the
project leaves unset has the platform's default. Regression: an ASAP migration under load on a
project without `write_cache_mb` spun at one instant until the 200,000-step limit."""
import pytest

from app.engine import simulate

SIM = __import__("sys").modules["app.engine.simulate"]


def _dependent_asap(load_example):
    project = load_example("emc-cx4-960-oltp")
    project.current_scenario = "Dependent ASAP migration"
    return project


def test_unset_cache_keys_mean_platform_defaults(load_example, catalog):
    explicit = _dependent_asap(load_example)
    platform = catalog.platform(explicit.platform_id)
    explicit.cache = platform.default_cache()
    unset = _dependent_asap(load_example)
    unset.cache = {}
    a, b = simulate(explicit, catalog), simulate(unset, catalog)
    assert a.operations[0].end_h is not None
    assert b.operations[0].end_h == pytest.approx(a.operations[0].end_h)
    assert b.event_count == a.event_count < 1_000


def test_no_write_cache_still_finishes(load_example, catalog):
    project = _dependent_asap(load_example)
    project.cache["write_cache_mb"] = 0
    result = simulate(project, catalog)
    op = result.operations[0]
    assert op.end_h is not None and op.end_h > op.start_h
    assert result.event_count < 1_000
    assert not any(a.code == "forced-flush" for a in result.advisories)  # nothing to fill


@pytest.mark.python_engine  # monkeypatches ops.Migration (conftest.py)
def test_a_stalled_clock_is_an_error_not_a_silent_loop(load_example, catalog, monkeypatch):
    project = _dependent_asap(load_example)
    ops = __import__("sys").modules["app.engine.ops"]
    monkeypatch.setattr(ops.Migration, "time_left", lambda self: 0.0)
    with pytest.raises(SIM.EngineStall, match="no progress"):
        simulate(project, catalog)
