"""Reliability next to performance (issue 24): per RAID group the rebuild time under the planned
load, the MTTDL from it, the chance of an unrecoverable read error during a rebuild, in the
Result and the report (app/engine/reliability.py, app/report/reliability.py)."""
from __future__ import annotations

import math

import pytest

from app.domain.formatting import format_chance
from app.domain.raid import ure_probability
from app.engine import simulate
from app.engine.cases import build_project
from app.report.reliability import reliability_rows


def _spec(platform, raid, n, drive, gb, iops=0.0, prio_fail=None, spares=0, stripe=0, horizon=200.0):
    events = [{"kind": "drive_failure", "id": "f0", "start_h": 1.0, "drive": "0_0_0", "priority": prio_fail}] if prio_fail else []
    return {"platform": platform,
            "groups": [{"id": 0, "raid": raid, "drives": n, "drive_type": drive, "buses": [0], "stripe": stripe}],
            "spares": [{"drive_type": drive, "bus": 0, "count": spares}] if spares else [],
            "luns": [{"id": 0, "group": 0, "gb": gb}],
            "workloads": [{"id": "w", "name": "w", "luns": [0], "mode": "open", "iops": iops, "read_pct": 70,
                           "io_kb": 8, "random_pct": 100}],
            "events": events, "horizon_h": horizon}


def rel(catalog, *a, **kw):
    r = simulate(build_project(_spec(*a, **kw), catalog), catalog)
    return r, r.reliability[0]


def test_ure_probability_is_exact_at_datasheet_rates():
    bits = 12e12 * 8  # reading 12 TB
    assert ure_probability(bits, 1e15) == pytest.approx(1 - math.exp(-bits / 1e15), rel=1e-9)
    assert ure_probability(bits, 1e17) == pytest.approx(bits / 1e17, rel=1e-3)
    assert ure_probability(bits, 0) == 0.0
    assert format_chance(0.0003) == "0.03%" and format_chance(0.82) == "82%" and format_chance(1.0) == ">99.9%"


def test_more_allocated_data_reads_more_and_risks_more(catalog):
    # (a platform that rebuilds allocated data only: Linux md rebuilds the whole member, below)
    _, small = rel(catalog, "netapp-e5700", "R5", 6, "nlsas-7k2-24000", 10000, spares=1)
    _, big = rel(catalog, "netapp-e5700", "R5", 6, "nlsas-7k2-24000", 80000, spares=1)
    assert big.read_tb == pytest.approx(8 * small.read_tb, rel=1e-6)
    assert big.p_ure > small.p_ure > 0 and not big.ure_covered  # RAID 5: the sector is lost
    # 5 survivors x 24 TB x the allocated share (80 of 120 TB usable)
    assert big.read_tb == pytest.approx(5 * 24000 * 1024 * (80000 / 120000) * 1024 * 1024 / 1e12, rel=1e-6)
    _, r6 = rel(catalog, "netapp-e5700", "R6", 6, "nlsas-7k2-24000", 80000, spares=1)
    assert r6.ure_covered
    # md (rebuild.scope = "whole_drive") reads the 5 survivors whole, whatever the LUNs hold
    _, md_small = rel(catalog, "linux-md", "R5", 6, "nlsas-7k2-24000", 10000, spares=1)
    assert md_small.read_tb == pytest.approx(5 * 24000 * 1024 * 1024 * 1024 / 1e12, rel=1e-6)


def test_ssd_ure_rate_is_far_lower(catalog):
    _, hdd = rel(catalog, "linux-md", "R1", 2, "nlsas-7k2-24000", 3000, spares=1)
    _, ssd = rel(catalog, "linux-md", "R1", 2, "nvme-ssd-3840", 3000, spares=1)
    assert ssd.p_ure < hdd.p_ure / 50


def test_rebuild_under_load_is_longer_and_lowers_mttdl(catalog):
    # ME5 High is a share of the contended drive time: a busy host stretches the rebuild
    _, idle = rel(catalog, "dell-me5", "dRAID6", 24, "nlsas-7k2-24000", 100000)
    _, busy = rel(catalog, "dell-me5", "dRAID6", 24, "nlsas-7k2-24000", 100000, iops=800)
    assert busy.host_busy_pct > 30 and idle.host_busy_pct == pytest.approx(0.0)
    assert busy.mttr_h > 1.3 * idle.mttr_h and busy.mttr_idle_h == pytest.approx(idle.mttr_idle_h)
    assert busy.mttdl_h < idle.mttdl_h
    assert "estimated" in busy.basis


def test_a_planned_rebuild_is_the_mttr(catalog):
    r, g = rel(catalog, "netapp-e5700", "DDP", 24, "nlsas-7k2-24000", 100000, iops=300, prio_fail="High")
    ph = next(p for p in r.operation("f0").phases if p.name == "rebuild")
    assert g.basis == "this plan's rebuild" and g.mttr_h == pytest.approx(ph.end_h - ph.start_h)


def test_critical_first_shortens_the_exposure(catalog):
    _, ddp = rel(catalog, "netapp-e5700", "DDP", 24, "nlsas-7k2-24000", 100000, iops=300)
    _, adapt = rel(catalog, "dell-me5", "dRAID6", 24, "nlsas-7k2-24000", 100000, iops=300)
    assert ddp.critical_h is not None and ddp.critical_h < ddp.mttr_h / 2
    assert adapt.critical_h is None


def test_result_json_and_report_rows(catalog):
    r, g = rel(catalog, "netapp-e5700", "DDP", 24, "nlsas-7k2-24000", 100000)
    js = r.to_json()["reliability"]["0"]
    assert js["mttdl_h"] == pytest.approx(g.mttdl_h) and js["ure_covered"] is True
    project = build_project(_spec("netapp-e5700", "DDP", 24, "nlsas-7k2-24000", 100000), catalog)
    (row,) = reliability_rows(project, r)
    assert row[0] == "RG 0" and "corrected" in row[-1] and "TB" in row[-2]


def test_group_means_are_each_series_mean_exactly():
    """reliability._group_means (every group's mean busy from the block's matrix at once) gives
    the bytes _mean of each group's Series gives: breakpoints, NaN runs, a horizon before or
    after the last row, a column that never changes."""
    import numpy as np
    from types import SimpleNamespace

    from app.engine.reliability import _group_means, _mean
    from app.engine.result import Result, SeriesBlock

    rng = np.random.default_rng(7)
    T, G = 60, 7
    V = rng.choice([0.0, 12.5, 30.1, 77.7, np.nan], size=(T, G)) + rng.choice([0.0, 1e-9], size=(T, G))
    V[:, 3] = 41.0  # flat
    V[20:40, 4] = np.nan  # a run of no-I/O cells
    V[50:, 5] = np.nan  # ... to the end (its last breakpoint: the run's first row)
    t = np.cumsum(rng.uniform(0.0, 2.0, T))
    t[10] = t[9]  # two rows at one instant
    groups = [SimpleNamespace(id=g) for g in range(G)]
    for horizon in (t[-1] + 5.0, t[-1] * 0.5):
        res = Result(scenario="s", horizon_h=float(horizon))
        res.series.add_block(SeriesBlock("group_pct", "%", [str(g) for g in range(G)], t, V.copy()))
        expect = [_mean(res.series.peek(("group_pct", str(g))), res.horizon_h) for g in range(G)]
        got = _group_means(res, groups)
        assert np.array(got).tobytes() == np.array(expect).tobytes()


def test_the_report_says_which_mttdl_counts_a_pools_critical_window(catalog):
    # a pool's two MTTDL tables differ ~12x (whole rebuild vs critical phase): the report says why
    import datetime as dt

    from app.report.content import ReportOptions, build_report
    note = "counts only the critical phase"
    texts = {}
    for platform, raid, n in (("netapp-e5700", "DDP", 24), ("netapp-e5700", "R6", 12)):
        project = build_project(_spec(platform, raid, n, "nlsas-7k2-24000", 20000, spares=1), catalog)
        results = {project.current_scenario: simulate(project, catalog, project.current_scenario)}
        texts[raid] = build_report(project, catalog, results, ReportOptions(date=dt.date(2026, 12, 7))).text()
    assert note in texts["DDP"] and note not in texts["R6"]


def test_the_data_read_is_shown_in_the_unit_of_the_capacities_beside_it(catalog):
    # md reads 5 survivors whole: 5 x 24,000 GB, shown as the Raw and Usable figures are
    # (format_capacity, 1 TB = 1024 GB), not as 10^12-byte TB (it read "129 TB" beside a
    # 117 TB group of the same drives)
    from app.domain.formatting import format_capacity
    project = build_project(_spec("linux-md", "R5", 6, "nlsas-7k2-24000", 10000, spares=1), catalog)
    r = simulate(project, catalog)
    (row,) = reliability_rows(project, r)
    assert row[-2] == format_capacity(5 * 24000) == "117 TB"
    assert r.reliability[0].read_gb == pytest.approx(5 * 24000)

