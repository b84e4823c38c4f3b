"""The engine reads cache and LUN settings the way the rest of the app shows them: a key the
project leaves unset has the platform's default. Regression: an ASAP migration under load on a
project without `write_cache_mb` spun at one instant until the 200,000-step limit."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine import simulate

ROOT = Path(__file__).resolve().parents[1]


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


# A broken operation is injected by replacing a method, which only the Python sources allow (the
# compiled engine's methods are fixed): the run's guard is the same code in both.
STALL_SCRIPT = """
import sys
from app.engine import simulate
from app.engine import ops
from app.engine.simulate import EngineStall
from app.store.presets import load_catalog
from app.store.project_file import load_project
from app.store.examples import example_paths
path = next(p for p in example_paths() if p.stem == "emc-cx4-960-oltp")
project = load_project(path)
project.current_scenario = "Dependent ASAP migration"
ops.Migration.time_left = lambda self: 0.0
try:
    simulate(project, load_catalog())
except EngineStall as exc:
    print("EngineStall:", exc)
    sys.exit(0)
print("no EngineStall")
sys.exit(1)
"""


def test_a_stalled_clock_is_an_error_not_a_silent_loop():
    env = dict(os.environ, ARRAYPLANNER_ENGINE="python")
    done = subprocess.run([sys.executable, "-c", STALL_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no progress" in done.stdout
