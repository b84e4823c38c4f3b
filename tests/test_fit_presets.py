"""The fit (arrayplanner fit, scripts/fit_presets.py) and the cross-validation: the fit recovers
known parameters from figures the engine generated with them; a fitted preset is written with
its figures and residuals and reads back; --cross predicts figures it did not fit and says which
it cannot."""
from __future__ import annotations

import shutil
import tomllib

import pytest

from app.cli.calibration import (
    Bench, FitParam, citations, cross_validate, fit_params, fit_rates, load_rates_docs, plumbing_reason, rates_files,
    same_source, write_fit,
)
from app.store.presets import set_rates_value, with_rates_values


@pytest.fixture(scope="module")
def bench(catalog):
    return Bench(catalog)


def test_override_changes_one_run_only(catalog):
    pf = catalog.platform("hp-sa6402-msa30")
    c2 = with_rates_values(catalog, "smartarray-6402", {"policy.rebuild.High.efficiency_random": 0.3})
    assert c2.platform("hp-sa6402-msa30").rates.value("policy.rebuild.High.efficiency_random") == 0.3
    assert pf.rates.value("policy.rebuild.High.efficiency_random") != 0.3  # the catalog itself is untouched
    src = c2.platform("hp-sa6402-msa30").rates.param("policy.rebuild.High.efficiency_random").source
    assert src == pf.rates.param("policy.rebuild.High.efficiency_random").source
    doc = {"a": {"b": {"value": 1.0, "unit": "ms", "source": "x"}, "rows": [{"c": 2}]}}
    assert set_rates_value(doc, "a.rows[0].c", 5)["a"]["rows"][0]["c"] == 5
    assert set_rates_value(doc, "a.b", 3)["a"]["b"] == {"value": 3, "unit": "ms", "source": "x"}
    assert doc["a"]["b"]["value"] == 1.0 and doc["a"]["rows"][0]["c"] == 2
    with pytest.raises(KeyError):
        set_rates_value(doc, "a.nope", 1)


def test_fit_recovers_known_parameters_from_synthetic_figures(catalog):
    """Generate the HP figures with known values of two parameters, start the fit elsewhere,
    and get the known values back."""
    bench = Bench(catalog)
    rid = "smartarray-6402"
    truth = {"policy.rebuild.High.efficiency_random": 0.30, "host.degraded_read_factor": 2.3}
    figs = ["hp.table1.High.rebuild_rate", "hp.table1.Medium.rebuild_rate",
            "hp.table1.High.degraded_iops", "hp.table1.Low.degraded_iops"]
    made = bench.run(figs, {rid: truth})
    for f in figs:
        case, projects = bench.cases[f]
        bench.cases[f] = (dict(case, published=made[f].predicted), projects)
    params = [FitParam("eff", rid, "policy.rebuild.High.efficiency_random", (0.05, 1.0), tuple(figs[:2]), 0.6),
              FitParam("deg", rid, "host.degraded_read_factor", (1.0, 4.0), tuple(figs[2:]), 1.5)]
    fr = fit_rates(bench, rid, params)
    for path, v in truth.items():
        assert fr.values[path] == pytest.approx(v, rel=0.02), (path, fr.values)
    assert fr.cost < 1e-4 < fr.start_cost
    assert all(abs(r) < 1.0 for r in fr.residuals_pct.values())


def test_fit_write_records_value_figures_and_residuals(tmp_path, bench):
    params = fit_params(load_rates_docs())
    fr = fit_rates(bench, "netapp-ontap", params)
    path = tmp_path / "netapp-ontap.toml"
    shutil.copy(rates_files()["netapp-ontap"], path)
    write_fit(path, fr, today="2000-01-02")
    doc = tomllib.loads(path.read_text())
    k = doc["fragmentation"]["k"]
    assert k["value"] == pytest.approx(fr.values["fragmentation.k"], rel=1e-3)
    assert "netapp.seq_fragmented" in k["source"] and "2000-01-02" in k["source"]
    fit = doc["fit"]["fragmentation_k"]
    assert fit["fitted_on"] == "2000-01-02" and "netapp.seq_fragmented" in fit["residuals_pct"]
    # the comments stay
    assert path.read_text().count("#") >= rates_files()["netapp-ontap"].read_text().count("#")


def test_cross_validation_on_one_platform(bench):
    params = fit_params(load_rates_docs())
    cross = cross_validate(params, rates="clariion-flare28", workers=1, bench=bench)
    # the forced-flush write time has one figure: without it nothing determines it
    assert cross.unidentified.get("emc.load.dependent.response") == ["cache.forced_flush_write_ms"]
    assert not set(cross.predicted) & set(cross.unidentified)


def test_cross_validation_predicts_a_figure_from_its_siblings(bench):
    """HP's random-load rebuild efficiency is one parameter for High and Medium ([fit] also =):
    each level's rebuild rate is predicted from a fit that saw only the other one."""
    params = [p for p in fit_params(load_rates_docs()) if p.name == "efficiency_random"]
    cross = cross_validate(params, rates="smartarray-6402", workers=1, bench=bench)
    for f in ("hp.table1.High.rebuild_rate", "hp.table1.Medium.rebuild_rate"):
        assert f in cross.predicted and abs(cross.predicted[f].error_pct) < 25, cross


def test_citations_and_plumbing_scan():
    assert citations("emc Table 4 (15k FC)") == ("emc", frozenset({"table 4"}))
    assert citations("hp Tables 1-2 (derived)")[1] == {"table 1", "table 2"}
    assert citations("emc 'Migration duration' example ('the storage initialization takes')")[1] == {"'migration duration'"}
    assert same_source("emc Table 1", "emc Table 1 (x)") and not same_source("emc Table 3", "emc Table 1")
    assert not same_source("emc Table 1", "assumption: emc Table 1")
    case = {"published": 33.07, "source": "hp 'Rebuild rate with no host I/O activity' (High)", "unit": "MB/s"}
    used = [("rebuild.idle.High", 33.07, "hp 'Rebuild rate with no host I/O activity' (RAID 5)")]
    assert plumbing_reason(case, used, set()).startswith("preset rebuild.idle.High")
    assert plumbing_reason(case, used, {"rebuild.idle.High"}) is None  # a fitted value is not an input
    assert plumbing_reason(dict(case, published=40.0), used, set()) is None
    assert plumbing_reason(dict(case, tolerance="greater"), used, set()) is None  # a direction


def test_a_ratio_ladder_is_one_parameter(tmp_path, bench):
    """SANtricity's reconstruction levels are one fitted share ([fit.rebuild_high_share] ratios
    =): a run with the parameter set moves every level by its factor, and --write writes each
    level as the factor times the fitted value, with the same range around it."""
    from app.store.presets import fit_tied_keys

    (p,) = [p for p in fit_params(load_rates_docs()) if p.name == "rebuild_high_share"]
    tied = dict(p.also)
    assert tied["policy.rebuild.Highest.share"] == 2.0 and tied["policy.rebuild.Lowest.share"] == 0.25
    with pytest.raises(ValueError, match="Low.share"):
        fit_tied_keys({"ratios": {"policy.rebuild.Low.share": 0}})
    path = tmp_path / "santricity.toml"
    shutil.copy(rates_files()["santricity"], path)
    fr = fit_rates(bench, "santricity", [p], max_iter=0)
    fr.values[p.path] = 0.3
    write_fit(path, fr, today="2000-01-02")
    from app.cli.calibration import write_ranges

    write_ranges(path)
    doc = tomllib.loads(path.read_text())["policy"]["rebuild"]
    assert doc["High"]["share"]["value"] == pytest.approx(0.3)
    assert doc["Highest"]["share"]["value"] == pytest.approx(0.6)
    assert doc["Lowest"]["share"]["value"] == pytest.approx(0.075)
    assert doc["Lowest"]["share"]["high"] / doc["Lowest"]["share"]["value"] == pytest.approx(
        doc["High"]["share"]["high"] / doc["High"]["share"]["value"], rel=1e-3)
    assert "this key 2 x policy.rebuild.High.share" in doc["Highest"]["share"]["source"]
    assert doc["Highest"]["share"]["source"].startswith("fitted 2000-01-02")
    # in a run: every level set from the one parameter (Bench.run's values for the catalog)
    import app.store.presets as presets

    seen = {}
    real = presets.with_rates_values

    def spy(cat, rid, values):
        seen.update(values)
        return real(cat, rid, values)

    presets.with_rates_values = spy
    try:
        bench.run(["santricity.pool_faster_than_hot_spare"], {"santricity": {p.path: 0.3}})
    finally:
        presets.with_rates_values = real
    assert seen["policy.rebuild.Highest.share"] == pytest.approx(0.6)
    assert seen["policy.rebuild.Medium.share"] == pytest.approx(0.3 * 0.5714)
