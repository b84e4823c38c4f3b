"""The Result's series storage: large blocks built on first read (SeriesBlock.compute), pickling
without building every Series, and the open-load response series that finish() computes."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

from app.engine import simulate
from app.engine.result import Result, Series
from app.store.project_file import load_project

from conftest import EXAMPLE_PATHS

EX = {p.stem: p for p in EXAMPLE_PATHS}


def oltp_migration(catalog) -> Result:
    return simulate(load_project(EX["emc-cx4-960-oltp"]), catalog, "Dependent ASAP migration")


@pytest.mark.parametrize("path", EXAMPLE_PATHS, ids=[p.stem for p in EXAMPLE_PATHS])
def test_pickled_result_has_every_series_and_builds_none(path, catalog):
    project = load_project(path)
    for sc in project.scenarios:
        r = simulate(project, catalog, sc.name)
        data = pickle.dumps(r, protocol=5)
        assert dict.__len__(r.series) == 0  # pickling built no Series
        back = pickle.loads(data)
        assert back.series.keys() == r.series.keys()
        for key in r.series.keys():
            a, b = r.series[key], back.series[key]
            assert np.array_equal(a.t, b.t) and np.array_equal(a.v, b.v, equal_nan=True), (sc.name, key)


def test_series_set_directly_survive_pickling(catalog):
    r = oltp_migration(catalog)
    own = Series("response_ms", "extra", "ms", np.array([0.0, 1.0]), np.array([2.0, 3.0]))
    r.series[("response_ms", "extra")] = own
    r.get("cpu_pct", "SP A/0")  # built from its block: not pickled, rebuilt after
    back = pickle.loads(pickle.dumps(r))
    assert "extra" in back.entities("response_ms") and "oltp" in back.entities("response_ms")
    assert np.array_equal(back.get("response_ms", "extra").v, own.v)
    assert np.array_equal(back.get("cpu_pct", "SP A/0").v, r.get("cpu_pct", "SP A/0").v)


def test_open_load_response_series_agree(catalog):
    r = oltp_migration(catalog)
    # a workload on one LUN: its mean, its worst LUN and that LUN's response are the same curve
    one = r.get("response_ms", "oltp-src")
    assert one.peak() > 0
    for other in (r.get("response_max_ms", "oltp-src"), r.get("lun_response_ms", "18")):
        assert np.array_equal(other.t, one.t)
        assert np.allclose(other.v, one.v, rtol=1e-12)
    # a workload on many LUNs: the worst LUN is at least the IOPS-weighted mean, and above it
    # while the migration loads some of its groups more than others
    mean = r.series.blocks[[b.metric for b in r.series.blocks].index("response_ms")].V
    worst = r.series.blocks[[b.metric for b in r.series.blocks].index("response_max_ms")].V
    assert np.all(worst >= mean * (1 - 1e-12)) and np.any(worst > mean * 1.01)


def test_series_interval_mean_is_time_weighted_and_continuous():
    steps = Series("lun_response_ms", "0", "ms", np.array([0.0, 1.0, 1.25]), np.array([2.0, 10.0, np.nan]))
    # [0.5, 1.5): half at 2, a quarter at 10, the NaN quarter (no I/O) left out of the weights
    assert steps.mean(0.5, 1.5) == pytest.approx((0.5 * 2 + 0.25 * 10) / 0.75)
    assert steps.mean(0.0, 1.0) == pytest.approx(2.0) and np.isnan(steps.mean(1.3, 2.0))
    line = Series("moved_mb", "m", "MB", np.array([0.0, 2.0]), np.array([0.0, 4.0]), linear=True)
    assert line.mean(0.0, 2.0) == pytest.approx(2.0) and line.mean(1.0, 3.0) == pytest.approx(3.5)

    # a jump moving across the window's middle moves the mean a little, the middle value a lot:
    # that is what keeps the calibration's least squares from stalling on a cache filling
    def jump_at(t):
        return Series("lun_response_ms", "0", "ms", np.array([0.0, t]), np.array([1.0, 100.0]))
    before, after = jump_at(0.499), jump_at(0.501)
    assert abs(before.mean(0.0, 1.0) - after.mean(0.0, 1.0)) < 0.5
    assert abs(before.at(0.5) - after.at(0.5)) == pytest.approx(99.0)
