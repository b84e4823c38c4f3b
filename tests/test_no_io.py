"""A response time is undefined where nothing completed I/O: NaN in the engine's series (never
0 ms, which would read as "fastest ever"), null in the JSON, "no I/O" wherever it is shown. The
visible case: enabling Dell High Performance Tier reboots both controllers (no host I/O)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from app.cli import main
from app.engine import simulate
from app.engine.result import Series
from app.store.project_file import load_project
from conftest import EXAMPLE_PATHS

EX = {p.stem: p for p in EXAMPLE_PATHS}
HPT = "Enable High Performance Tier"


@pytest.fixture(scope="module")
def hpt(catalog):
    return simulate(load_project(EX["dell-md3200-hpt"]), catalog, HPT)


def reboot_interval(result) -> tuple[float, float]:
    (ph,) = [p for o in result.operations if o.kind == "feature_enable" for p in o.phases if p.name == "reboot"]
    return ph.start_h, ph.end_h


def test_hpt_response_is_nan_while_the_controllers_reboot(hpt):
    a, b = reboot_interval(hpt)
    assert b > a
    inside, before, after = (a + b) / 2, a / 2, b + (hpt.horizon_h - b) / 2
    for wid in hpt.entities("response_ms"):
        iops = hpt.get("iops", wid)
        assert iops.at(inside) == 0.0 and iops.at(before) > 0 and iops.at(after) > 0  # a real zero
        for metric in ("response_ms", "response_max_ms"):
            s = hpt.get(metric, wid)
            assert math.isnan(s.at(inside)), (metric, wid)
            assert math.isfinite(s.at(before)) and s.at(before) > 0
            assert math.isfinite(s.at(after)) and s.at(after) > 0
            # NaN exactly where the workload has no IOPS (the block's rows)
            assert np.array_equal(np.isnan(s.v), np.array([iops.at(t) == 0.0 for t in s.t]))
    for lun in hpt.entities("lun_response_ms"):
        assert math.isnan(hpt.get("lun_response_ms", lun).at(inside))


def test_a_workload_that_never_runs_has_no_response_time(catalog):
    # the HP example's OLTP scenarios never start the sequential workload
    r = simulate(load_project(EX["hp-sa6402-raid5"]), catalog, "OLTP 2 KB, rebuild at High")
    seq = r.get("response_ms", "seq")
    assert np.isnan(seq.v).all() and (r.get("iops", "seq").v == 0).all()
    assert math.isnan(seq.peak())
    assert math.isfinite(r.get("response_ms", "oltp").peak())


def test_series_peak_ignores_nan():
    s = Series("response_ms", "w", "ms", np.array([0.0, 1.0, 2.0, 3.0]), np.array([5.0, np.nan, 7.0, np.nan]))
    assert s.peak() == 7.0
    assert s.peak(0.0, 1.0) == 5.0
    assert math.isnan(s.peak(1.0, 2.0))  # all NaN in the window
    assert s.peak(1.0, 3.0) == 7.0
    assert math.isnan(s.at(1.5)) and s.at(2.5) == 7.0


def _strict(text: str):
    def refuse(token):
        raise ValueError(f"not JSON: {token}")
    return json.loads(text, parse_constant=refuse)


def test_json_writes_null_where_no_io(hpt):
    d = _strict(json.dumps(hpt.to_json()))
    a, b = reboot_interval(hpt)
    (resp,) = [s for s in d["series"] if s["metric"] == "response_ms" and s["entity"] == "random"]
    i = resp["t"].index(a)
    assert resp["v"][i] is None and resp["t"][i + 1] == pytest.approx(b)
    assert all(v is not None for j, v in enumerate(resp["v"]) if j != i)
    (iops,) = [s for s in d["series"] if s["metric"] == "iops" and s["entity"] == "random"]
    assert 0.0 in iops["v"] and None not in iops["v"]


def test_cli_json_is_strict_and_summary_never_says_nan(capsys):
    assert main(["simulate", str(EX["dell-md3200-hpt"]), "--scenario", HPT, "--json"]) == 0
    d = _strict(capsys.readouterr().out)
    assert any(v is None for s in d["series"] if s["metric"] == "response_ms" for v in s["v"])
    assert main(["simulate", str(EX["hp-sa6402-raid5"]), "--scenario", "OLTP 2 KB, rebuild at High"]) == 0
    out = capsys.readouterr().out
    assert "nan" not in out.lower()
    assert "workload seq: no I/O in this scenario" in out


def test_validation_series_stat_leaves_nan_out(hpt):
    from app.engine.cases import series_stat

    a, b = reboot_interval(hpt)
    before = hpt.get("response_ms", "random").at(0.0)
    after = hpt.get("response_ms", "random").at(b)
    assert series_stat(hpt, "response_ms", "random", 0.0, hpt.horizon_h, "max") == pytest.approx(max(before, after))
    assert series_stat(hpt, "response_ms", "random", 0.0, hpt.horizon_h, "min") == pytest.approx(min(before, after))
    mean = (before * a + after * (hpt.horizon_h - b)) / (a + hpt.horizon_h - b)  # the reboot left out
    assert series_stat(hpt, "response_ms", "random", 0.0, hpt.horizon_h) == pytest.approx(mean)
    assert math.isnan(series_stat(hpt, "response_ms", "random", a, b))
