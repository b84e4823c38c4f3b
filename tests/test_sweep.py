"""Load sweep (app/service/sweep.py, `arrayplanner sweep`): the curve behaves like physics,
its answers (knee, max IOPS at a target, headroom) agree with single engine runs, and the
local process pool, the in-process executor and a dask LocalCluster give the same steps."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.simulate import simulate
from app.service.runner import InProcessExecutor, local_pool
from app.service.sweep import SweepSpec, measure, scaled_project, sweep
from app.store.presets import load_catalog
from app.store.project_file import load_project

ROOT = Path(__file__).resolve().parents[1]
OLTP = ROOT / "presets/examples/emc-cx4-960-oltp.json"


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture(scope="module")
def oltp_sweep(catalog):
    project = load_project(OLTP)
    return project, sweep(project, catalog, SweepSpec(steps=16, background="op1"), executor=InProcessExecutor())


def test_the_steady_curve_rises_with_load_and_ends_saturated(oltp_sweep):
    _, result = oltp_sweep
    steady = result.curves[0]
    assert steady.label == "steady" and len(steady.steps) == 16
    factors = [s.factor for s in steady.steps]
    assert factors == sorted(factors) and factors[0] == pytest.approx(0.1) and 1.0 in factors
    unsaturated = [s for s in steady.steps if not s.saturated]
    resp = [s.worst_response_ms for s in unsaturated]
    assert all(b >= a - 1e-9 for a, b in zip(resp, resp[1:])), resp  # more load is never faster
    for s in steady.steps:
        assert s.total_served <= s.total_offered * (1 + 1e-9)
        assert all(0.0 <= u <= 100.0 + 1e-6 for u in s.utilisation_pct.values())  # no centre over 100%
    sat = steady.saturation()
    assert sat is not None and sat.factor >= result.saturation_factor - 1e-9
    assert steady.steps[-1].saturated  # the sweep goes past the point of saturation
    assert steady.knee is not None and steady.knee.factor < sat.factor
    assert steady.knee.limiting.startswith(("drive", "RG", "bus", "CPU", "host port", "write cache"))


def test_a_background_operation_costs_response_at_every_load(oltp_sweep):
    _, result = oltp_sweep
    steady, during = result.curves
    assert during.background == "op1" and "op1" in during.label
    for a, b in zip(steady.steps, during.steps):
        assert a.factor == b.factor
        if not a.saturated:
            assert b.worst_response_ms >= a.worst_response_ms - 1e-6


def test_the_during_curve_is_measured_over_one_window_and_rises_with_load(oltp_sweep, catalog):
    # op1 is an ASAP migration: a heavier load lengthens its run, so each step measured over its
    # own run weighs the run's phases differently; one window for all keeps the curve monotone
    project, result = oltp_sweep
    steady, during = result.curves
    heavy = max(s.factor for s in steady.steps if s.factor < result.saturation_factor)
    p = scaled_project(project, project.current_scenario, heavy, ["op1"])
    op = simulate(p, catalog, project.current_scenario).operation("op1")
    assert during.window_h == pytest.approx((op.start_h, op.end_h))
    unsaturated = [s for s in during.steps if not s.saturated]
    assert len(unsaturated) >= 10
    for wid in unsaturated[0].response_ms:  # every workload, not just the worst
        resp = [s.response_ms[wid] for s in unsaturated]
        assert all(b >= a - 1e-6 for a, b in zip(resp, resp[1:])), (wid, resp)


def test_max_iops_and_headroom_agree_with_single_runs(oltp_sweep, catalog):
    project, result = oltp_sweep
    steady = result.curves[0]
    target = 20.0
    head = steady.headroom_pct(target)
    assert head is not None
    today = sum(w.iops for w in project.workloads)
    assert steady.max_iops_at(target) == pytest.approx(today * (1 + head / 100), rel=1e-6)
    # a run just under the answer meets the target, one well past it does not
    scenario = project.current_scenario
    for factor, meets in ((1 + head / 100) * 0.97, True), ((1 + head / 100) * 1.15, False):
        p = scaled_project(project, scenario, factor)
        step = measure(simulate(p, catalog, scenario), p, factor, None)
        assert (step.worst_response_ms <= target and not step.saturated) is meets, (factor, step.worst_response_ms)


def test_a_heavier_project_saturates_sooner(catalog):
    project = load_project(OLTP)
    light = sweep(project, catalog, SweepSpec(steps=4), executor=InProcessExecutor())
    for w in project.workloads:
        w.iops *= 2
    heavy = sweep(project, catalog, SweepSpec(steps=4), executor=InProcessExecutor())
    assert heavy.saturation_factor == pytest.approx(light.saturation_factor / 2, rel=0.06)


def test_the_local_pool_gives_the_in_process_answer(catalog):
    project = load_project(OLTP)
    spec = SweepSpec(steps=4, max_factor=1.5)
    here = sweep(project, catalog, spec, executor=InProcessExecutor())
    pooled = sweep(project, catalog, spec, executor=local_pool())
    assert [s.response_ms for s in here.curves[0].steps] == [s.response_ms for s in pooled.curves[0].steps]


def test_a_dask_local_cluster_gives_the_local_pool_answer(catalog):
    distributed = pytest.importorskip("dask.distributed")
    project = load_project(OLTP)
    spec = SweepSpec(steps=4, max_factor=1.5)
    pooled = sweep(project, catalog, spec, executor=local_pool())
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        on_dask = sweep(project, catalog, spec, executor=client.get_executor())
    assert [s.response_ms for s in on_dask.curves[0].steps] == [s.response_ms for s in pooled.curves[0].steps]
    assert [s.limiting for s in on_dask.curves[0].steps] == [s.limiting for s in pooled.curves[0].steps]


def test_cancel_returns_nothing(catalog):
    project = load_project(OLTP)
    assert sweep(project, catalog, SweepSpec(steps=4, max_factor=1.0), executor=local_pool(),
                 should_stop=lambda: True) is None


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "app", "sweep", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env={**__import__("os").environ, "ARRAYPLANNER_ENGINE": "python"})


@pytest.mark.parametrize("target", ["20", "10"])  # 10 ms falls between two steps: interpolated
def test_the_command_prints_json_with_the_answers(target):
    r = run_cli(str(OLTP), "--steps", "6", "--target", target, "--json", "--in-process")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    steady = d["curves"][0]
    assert len(steady["steps"]) == 6 and d["engine_runs"] > 6
    assert steady["max_iops_at_target"] > 0 and isinstance(steady["growth_fits"], bool)
    assert all(not math.isnan(s["offered_iops"]) for s in steady["steps"])
    names = {w.name or w.id for w in load_project(OLTP).workloads}
    assert set(steady["steps"][0]["response_ms"]) == names  # workloads by name, not id


def test_the_command_refuses_bad_input(tmp_path):
    assert run_cli(str(OLTP), "--steps", "1").returncode == 2
    r = run_cli(str(OLTP), "--background", "nope", "--in-process")
    assert r.returncode == 2 and "nope" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    idle = ROOT / "presets/examples/emc-cx4-960-worked-examples.json"
    r = run_cli(str(idle), "--in-process")
    assert r.returncode == 1 and "no host workload" in r.stderr


def test_a_controller_limit_is_a_centre_the_sweep_sees(catalog):
    """The Dell MD3200's base-mode limit bounds the closed 256-I/O load at 8,889 IOPS with no
    drive, bus or CPU busy: the limit's utilisation (ctrl_limit_pct) is recorded, reaches 100%,
    is named the limiting component, and the sweep calls the load saturated there (it said "not
    saturated up to the largest step" while the response grew tenfold and the IOPS stayed flat)."""
    project = load_project(ROOT / "presets/examples/dell-md3200-hpt.json")
    res = simulate(project, catalog, "Base mode")
    limits = {e: float(res.get("ctrl_limit_pct", e).peak(0, res.horizon_h)) for e in res.entities("ctrl_limit_pct")}
    assert limits and max(limits.values()) == pytest.approx(100.0, abs=0.5)
    assert float(res.get("group_pct", "0").peak(0, res.horizon_h)) < 90.0  # no drive is the limit
    result = sweep(project, catalog, SweepSpec(steps=4, scenario="Base mode"), executor=InProcessExecutor())
    assert result.saturation_factor is not None and result.saturation_factor <= 1.0
    last = result.curves[0].steps[-1]
    assert last.limiting.startswith("controller limit ") and last.saturated
    # a closed load's IOPS flatten at the limit: the answer is a load the array served
    best = result.curves[0].max_iops_at(20.0)
    assert best is not None and best <= max(s.total_served for s in result.curves[0].steps) + 1e-6
    # the other platforms have no such limit: no series
    assert not simulate(load_project(OLTP), catalog).entities("ctrl_limit_pct")
