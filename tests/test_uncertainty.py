"""Uncertainty bands (app/service/uncertainty.py): Latin hypercube over ranged rates values."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from app.service.runner import InProcessExecutor
from app.service.uncertainty import (
    Bands, RangedParameter, compute_bands, ranged_parameters, sample_matrix, with_ranges,
)
from app.store.examples import example_paths
from app.store.presets import load_catalog
from app.store.project_file import load_project

RATE = "policy.migration.High.mb_s"   # the dependent High migration's cap (emc Table 1: 3.4 MB/s)
LATENCY = "host.sp_latency_ms"        # a fitted value (the SP path time): moves the response


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture(scope="module")
def project():
    path = next(p for p in example_paths() if p.name == "emc-cx4-960-oltp.json")
    proj = load_project(path)
    proj.current_scenario = "Dependent High migration"
    return proj


def run(project, catalog, ranges, samples=24, seed=1, **kw) -> Bands:
    cat = with_ranges(catalog, project.platform_id, ranges)
    out = compute_bands(project, cat, samples=samples, seed=seed, executor=InProcessExecutor(), chunk=4, **kw)
    assert out is not None
    return out


def test_ranges_are_read_from_the_rates(project, catalog):
    cat = with_ranges(catalog, project.platform_id, {RATE: (3.0, 3.8)})
    params = {p.path: p for p in ranged_parameters(cat.platform(project.platform_id))}
    assert params[RATE] == RangedParameter(RATE, 3.4, 3.0, 3.8, "what-if range")


def test_latin_hypercube_is_seeded_and_covers_the_range():
    params = [RangedParameter("a", 10.0, 8.0, 12.0), RangedParameter("b", 1.0, 1.0, 1.0)]
    x = sample_matrix(params, 200, seed=7)
    assert np.array_equal(x, sample_matrix(params, 200, seed=7))
    assert not np.array_equal(x, sample_matrix(params, 200, seed=8))
    p10, p90 = np.quantile(x[:, 0], [0.1, 0.9])
    assert p10 == pytest.approx(8.0, abs=0.15) and p90 == pytest.approx(12.0, abs=0.15)
    assert np.all(x[:, 1] == 1.0)  # zero width: the value itself


def test_bands_are_reproducible_and_ordered(project, catalog):
    a = run(project, catalog, {RATE: (3.0, 3.8), LATENCY: (8.0, 14.0)})
    b = run(project, catalog, {RATE: (3.0, 3.8), LATENCY: (8.0, 14.0)})
    assert a.to_json() == b.to_json()
    op = a.operation("op1")
    assert op.duration_h.p10 < op.duration_h.p50 < op.duration_h.p90
    assert op.unfinished_share == 0.0
    resp = a.series_band("response_ms", "oltp")
    assert resp is not None and len(resp.t) == len(resp.p50)
    ok = ~np.isnan(resp.p10)
    assert np.all(resp.p10[ok] <= resp.p50[ok]) and np.all(resp.p50[ok] <= resp.p90[ok])
    assert np.any(resp.p90[ok] > resp.p10[ok])
    for (metric, _), band in a.series.items():
        if metric.endswith("_pct"):
            assert np.nanmax(band.p90) <= 100.0 + 1e-6


def test_zero_width_range_gives_zero_width_bands(project, catalog):
    from app.engine.simulate import simulate

    bands = run(project, catalog, {RATE: (3.4, 3.4)}, samples=8)
    point = simulate(project, catalog, project.current_scenario)
    op = bands.operation("op1").duration_h
    assert op.p10 == op.p50 == op.p90 == pytest.approx(point.operation("op1").duration_h)
    for band in bands.series.values():
        ok = ~np.isnan(band.p10)
        assert np.array_equal(band.p10[ok], band.p90[ok])


def test_wider_range_gives_wider_band(project, catalog):
    narrow = run(project, catalog, {RATE: (3.2, 3.6)}).operation("op1").duration_h
    wide = run(project, catalog, {RATE: (2.6, 4.2)}).operation("op1").duration_h
    assert wide.p90 - wide.p10 > 1.5 * (narrow.p90 - narrow.p10) > 0


def test_cancel_stops_early(project, catalog):
    cat = with_ranges(catalog, project.platform_id, {RATE: (3.0, 3.8)})
    stop = threading.Event()
    seen = []

    def progress(done, total):
        seen.append(done)
        stop.set()

    out = compute_bands(project, cat, samples=40, seed=0, executor=InProcessExecutor(), chunk=4,
                        progress=progress, cancel=stop)
    assert out is None
    assert seen and max(seen) < 40
