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
    cat = with_ranges(catalog, project.platform_id, ranges, keep_others=False)
    out = compute_bands(project, cat, samples=samples, seed=seed, executor=InProcessExecutor(), chunk=4, **kw)
    assert out is not None
    return out


def test_ranges_are_read_from_the_rates(project, catalog):
    cat = with_ranges(catalog, project.platform_id, {RATE: (3.0, 3.8)})
    params = {p.path: p for p in ranged_parameters(cat.platform(project.platform_id))}
    assert params[RATE] == RangedParameter(RATE, 3.4, 3.0, 3.8, "what-if range")
    shipped = params[LATENCY]  # a fitted value: the built-in rates give it a range
    assert shipped.low < shipped.value < shipped.high and "P10-P90" in shipped.source
    only = with_ranges(catalog, project.platform_id, {RATE: (3.0, 3.8)}, keep_others=False)
    assert [p.path for p in ranged_parameters(only.platform(project.platform_id))] == [RATE]


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
    cat = with_ranges(catalog, project.platform_id, {RATE: (3.0, 3.8)}, keep_others=False)
    stop = threading.Event()
    seen = []

    def progress(done, total):
        seen.append(done)
        stop.set()

    out = compute_bands(project, cat, samples=40, seed=0, executor=InProcessExecutor(), chunk=4,
                        progress=progress, cancel=stop)
    assert out is None
    assert seen and max(seen) < 40


@pytest.mark.parametrize("entry, message", [
    ("{ value = 63.91, low = 70, high = 80, source = 'x' }",
     "[host] cpu_us_per_io: range low = 70, high = 80 must hold the value 63.91"),
    ("{ value = 63.91, low = 50, source = 'x' }", "[host] cpu_us_per_io: a range needs both low and high (high missing)"),
    ("{ value = 63.91, low = 50, high = 'many', source = 'x' }", "[host] cpu_us_per_io: range high must be a number"),
    ("{ value = 63.91, low = -5, high = 80, source = 'x' }", "[host] cpu_us_per_io: range low = -5 is out of range"),
    ("{ value = 63.91, low = 50, high = 80, range_source = 3, source = 'x' }",
     "[host] cpu_us_per_io: range_source must be text"),
])
def test_a_bad_range_is_refused_naming_file_table_and_key(tmp_path, entry, message):
    from app.store.presets import builtin_presets_dir

    text = (builtin_presets_dir() / "rates" / "clariion-flare28.toml").read_text()
    line = next(x for x in text.splitlines() if x.startswith("cpu_us_per_io = "))
    mine = text.replace(line, f"cpu_us_per_io = {entry}").replace('rates_id = "clariion-flare28"', 'rates_id = "mine"')
    (tmp_path / "mine.toml").write_text(mine)
    problems = " | ".join(str(p) for p in load_catalog(user_dir=tmp_path).problems)
    assert "mine.toml" in problems and message in problems


def test_presets_doc_lists_the_shipped_ranges():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, str(root / "scripts" / "update_presets_doc.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, "docs/presets.md: run scripts/update_presets_doc.py (the ranges table)"


def test_shipped_ranges_follow_the_fit_rule(tmp_path):
    """Every fitted value of the built-in rates carries the range fit_range gives it: rewriting
    the files' ranges changes nothing (and a refit, `fit --write`, rewrites them)."""
    import shutil

    from app.cli.calibration import write_ranges
    from app.store.presets import builtin_presets_dir

    for src in sorted((builtin_presets_dir() / "rates").glob("*.toml")):
        if "[fit." not in src.read_text():
            continue
        copy = tmp_path / src.name
        shutil.copy(src, copy)
        assert write_ranges(copy) == src.read_text(), f"{src.name}: ranges out of date (write_ranges)"


def test_simulate_json_carries_the_bands(capsys, monkeypatch):
    import json

    import app.service.runner as runner
    from app.cli import main

    monkeypatch.setattr(runner, "local_pool", lambda: InProcessExecutor())  # no process start-up here
    path = next(p for p in example_paths() if p.name == "emc-cx4-960-oltp.json")
    args = ["simulate", str(path), "--scenario", "Dependent ASAP migration", "--json", "--bands", "12", "--seed", "3"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    bands = out["bands"]
    assert bands["samples"] == 12 and bands["seed"] == 3 and bands["runs"] == 12
    assert {p["path"] for p in bands["parameters"]} >= {"host.sp_latency_ms", "host.cpu_us_per_io"}
    resp = next(s for s in bands["series"] if s["metric"] == "response_ms" and s["entity"] == "oltp")
    assert len(resp["t"]) == len(resp["p10"]) == len(resp["p90"])
    assert max(b - a for a, b in zip(resp["p10"], resp["p90"]) if a is not None) > 1.0  # ms: the band has width
    assert [o["event_id"] for o in bands["operations"]] == ["op1"]
    assert main(args) == 0 and json.loads(capsys.readouterr().out)["bands"] == bands  # seeded: the same
    assert main(args[:4] + ["--bands", "-1"]) == 2


def test_draws_stay_inside_what_the_model_accepts(catalog):
    """A range near a limit (a share of at most 1, the fit's bounds 0-0.95): the 3-sigma tail is
    cut there, so every sample is a platform the engine takes."""
    pf = catalog.platform("hp-sa6402-msa30")
    share = {p.path: p for p in ranged_parameters(pf)}["policy.rebuild.High.share_sequential"]
    assert (share.valid_low, share.valid_high) == (0.0, 0.95)
    x = sample_matrix([share], 400, seed=0)[:, 0]
    assert x.max() <= 0.95 and x.min() > 0
    wide = RangedParameter("a", 0.5, 0.01, 0.9, valid_low=0.0)  # positive: never 0 or below
    assert sample_matrix([wide], 400, seed=0).min() > 0


def test_tables_with_values_copies_only_the_path(catalog):
    rates = catalog.platform("emc-cx4-960-r28").rates
    new = rates.with_values({"host.sp_latency_ms": 99.0})
    assert new.value("host.sp_latency_ms") == 99.0 and rates.value("host.sp_latency_ms") == pytest.approx(11.24)
    assert new.param("host.sp_latency_ms").source == rates.param("host.sp_latency_ms").source
    assert new["migration"] is rates["migration"]  # tables off the path are shared
    with pytest.raises(KeyError):
        rates.with_values({"host.no_such_value": 1.0})


def test_adaptive_stopping_stops_when_stable_and_matches_the_first_rows(project, catalog):
    """adaptive=True: a band that does not move between rounds stops at ADAPTIVE_MIN samples, and
    its quantiles are those of the hypercube's first rows (the same seed, the same bands)."""
    from app.service import uncertainty as unc

    narrow = {LATENCY: (11.2, 11.28)}  # a tiny range: the quantiles are stable after one round
    full = run(project, catalog, narrow, samples=unc.ADAPTIVE_MIN + 2 * unc.ADAPTIVE_STEP, seed=3, adaptive=True)
    assert full.runs == full.samples == unc.ADAPTIVE_MIN + unc.ADAPTIVE_STEP  # one check, then stop
    same = run(project, catalog, narrow, samples=unc.ADAPTIVE_MIN + 2 * unc.ADAPTIVE_STEP, seed=3)
    assert same.runs == unc.ADAPTIVE_MIN + 2 * unc.ADAPTIVE_STEP  # not adaptive: every row
    wide = {LATENCY: (2.0, 40.0)}
    moved = run(project, catalog, wide, samples=unc.ADAPTIVE_MIN + 2 * unc.ADAPTIVE_STEP, seed=3, adaptive=True)
    assert moved.runs > unc.ADAPTIVE_MIN  # never below the minimum


def test_quantiles_moved_measures_duration_and_series_moves():
    from app.service.uncertainty import OperationBand, Quantiles, _quantiles_moved

    def summary(p90: float, series_p50: float):
        ops = {"op1": OperationBand("op1", "x", Quantiles(1.0, 2.0, p90), 0.0, 10)}
        q = np.array([[series_p50]])
        return ops, {"cpu_pct": (q * 0.5, q, q * 2)}

    assert _quantiles_moved(summary(3.0, 50.0), summary(3.0, 50.0)) == 0.0
    assert _quantiles_moved(summary(3.0, 50.0), summary(3.3, 50.0)) == pytest.approx(0.3 / 3.3)
    assert _quantiles_moved(summary(float("inf"), 50.0), summary(float("inf"), 50.0)) == 0.0
    assert _quantiles_moved(summary(3.0, 50.0), summary(float("inf"), 50.0)) == float("inf")
    assert _quantiles_moved(summary(3.0, 50.0), summary(3.0, 60.0)) > 0.02


def test_a_ranged_table_row_is_sampled_and_reaches_the_engine(catalog):
    """emc Table 6's rows carry ranges (Table 5 and Table 6 print the same rebuild as 73 and 74
    MB/s): the bands list a row's value by its path, Tables.with_values sets it in a copy of
    the row, and the rebuild the validation case runs moves with it."""
    from app.cli.calibration import Bench
    from app.service.uncertainty import catalog_with

    row = "rebuild.asap_by_group[0].r5_high"
    pf = catalog.platform("emc-cx4-960-r28")
    ranged = {p.path: p for p in ranged_parameters(pf)}
    assert ranged[row].low < ranged[row].value == 74 < ranged[row].high
    new = pf.rates.with_values({row: 70.0})
    assert new["rebuild"]["asap_by_group"][0]["r5_high"].value == 70.0
    assert pf.rates["rebuild"]["asap_by_group"][0]["r5_high"].value == 74  # the catalog's row is untouched
    with pytest.raises(KeyError):
        pf.rates.with_values({"rebuild.asap_by_group[9].r5_high": 1.0})
    case = "emc.rebuild.table5.parity"
    assert Bench(catalog).run([case])[case].predicted == pytest.approx(74.0, rel=1e-3)
    moved = Bench(catalog_with(catalog, "emc-cx4-960-r28", {row: 70.0})).run([case])[case]
    assert moved.predicted == pytest.approx(70.0, rel=1e-3)
