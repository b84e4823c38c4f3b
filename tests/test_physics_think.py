"""Closed workloads with think time (issue 20, docs/model.md section 2.4): N outstanding I/Os,
each followed by Z ms of think time, obey the interactive response time law X = N / (R + Z)
against the engine's own response R; more think time lowers the throughput and never raises
the response; a long think time with many I/Os behaves as an open load of N / Z; Z = 0 is the
closed loop without think time."""
from __future__ import annotations

import pytest

from app.domain.project import DriveFailure
from app.engine import simulate

from test_physics_host import one_group

T = 0.01  # a moment of the plan (h)


def closed(catalog, n, z, **kw):
    p = one_group(catalog, 0, mode="closed", outstanding=n, read_pct=67, **kw)
    p.workloads[0].think_ms = z
    return p


def served(result):
    return result.get("iops", "w").at(T), result.get("response_ms", "w").at(T)


@pytest.mark.parametrize("n,z", [(1, 5.0), (8, 2.0), (32, 10.0), (64, 40.0)])
def test_interactive_response_time_law(catalog, n, z):
    """X = N / (R + Z), with R the response the engine reports for the same step."""
    x, r = served(simulate(closed(catalog, n, z), catalog))
    assert x == pytest.approx(n / ((r + z) / 1000.0), rel=2e-3)


def test_more_think_time_less_iops_no_slower_response(catalog):
    """Thinking longer offers less: IOPS fall strictly, the response never rises (less queueing),
    and the drives get less busy."""
    rows = []
    for z in (0.0, 1.0, 5.0, 20.0, 100.0, 1000.0):
        res = simulate(closed(catalog, 16, z), catalog)
        rows.append((*served(res), res.get("group_pct", "0").at(T)))
    for (x0, r0, u0), (x1, r1, u1) in zip(rows, rows[1:]):
        assert x1 <= x0 * (1 + 1e-9)  # (equal while the drives are at max_util: the bound holds X)
        assert r1 <= r0 * (1 + 1e-9)
        assert u1 <= u0 * (1 + 1e-9)
    assert rows[-1][0] < rows[0][0] / 10
    assert rows[0][1] > rows[-1][1] * 1.5  # 16 I/Os at once queue; with 1 s think time they do not


def test_zero_think_time_is_the_closed_loop_without_it(catalog):
    """Z = 0 gives X = N / R, and the same figures as before the field existed."""
    x, r = served(simulate(closed(catalog, 8, 0.0), catalog))
    assert x == pytest.approx(8 / (r / 1000.0), rel=2e-3)


@pytest.mark.parametrize("kw", [{}, {"wc": False}])
def test_long_think_time_approaches_the_open_load(catalog, kw):
    """N and Z large with N / Z fixed: the closed loop tends to an open load of N / Z (its own
    I/Os are a vanishing share of what an arriving I/O sees, and R << Z)."""
    rate = 400.0  # IOPS: the drives ~45% busy
    x_open, r_open = served(simulate(one_group(catalog, rate, read_pct=67, **kw), catalog))
    errs = []
    for n in (50, 500, 5000):
        z = n / rate * 1000.0
        x, r = served(simulate(closed(catalog, n, z, **kw), catalog))
        assert x == pytest.approx(n / ((r + z) / 1000.0), rel=2e-3)
        assert x < rate  # X = N / (R + Z) < N / Z
        errs.append((abs(x - x_open) / x_open, abs(r - r_open) / r_open))
    assert errs[-1][0] < 0.005 and errs[-1][1] < 0.02
    assert errs[-1][0] < errs[0][0] and errs[-1][1] < errs[0][1]  # and closer as they grow


def test_think_time_never_exceeds_a_centre(catalog):
    """Even with think time, a closed loop is bounded by the drives' capacity (max_util)."""
    res = simulate(closed(catalog, 4096, 1000.0, drives=5), catalog)  # N / Z: 4,096 IOPS offered
    from app.engine.rates import RateReader
    mu = RateReader(catalog.platforms["emc-cx4-960-r28"].rates).v("host.max_util")
    assert res.get("group_pct", "0").at(T) <= mu * 100 * (1 + 1e-6)
    x, r = served(res)
    assert x < 4096 / 2  # held by the drives, not by the think time
    assert x == pytest.approx(4096 / ((r + 1000.0) / 1000.0), rel=2e-3)
    assert not [a for a in res.advisories if a.code == "host-overload"]


def test_think_time_during_a_rebuild(catalog):
    """A rebuild on the group raises R; the law still holds and the loop's IOPS fall."""
    p = closed(catalog, 16, 5.0)
    quiet = served(simulate(p, catalog))
    p.scenarios[0].events.append(DriveFailure(id="f", start_h=0.0, drive=p.groups[0].drives[0]))
    x, r = served(simulate(p, catalog))
    assert r > quiet[1] and x < quiet[0]
    assert x == pytest.approx(16 / ((r + 5.0) / 1000.0), rel=2e-3)


def test_a_workload_change_sets_think_time(catalog):
    """think_ms is a workload field a workload change may set (the closed loop slows from then on)."""
    from app.domain.project import WorkloadChange
    p = closed(catalog, 16, 0.0, horizon=2.0)
    p.scenarios[0].events.append(WorkloadChange(id="c", start_h=1.0, workload="w", changes={"think_ms": 50.0}))
    res = simulate(p, catalog)
    before, after = res.get("iops", "w").at(0.5), res.get("iops", "w").at(1.5)
    assert after < before / 2
    r = res.get("response_ms", "w").at(1.5)
    assert after == pytest.approx(16 / ((r + 50.0) / 1000.0), rel=2e-3)


def test_a_thinking_host_contends_less_with_an_hp_rebuild(catalog):
    """HP High (the share policy) throttles a rebuild only while host I/O is at the drives:
    with think time only N - X Z of the N I/Os are, so a long think time lets the rebuild run
    as beside an open load of N / Z (docs/model.md 2.4 and 4)."""
    from app.store.project_file import load_project
    from conftest import EXAMPLE_PATHS
    path = next(p for p in EXAMPLE_PATHS if p.stem == "hp-sa6402-raid5")

    def rebuild_h(mode, z=0.0, iops=0.0):
        p = load_project(path)
        for w in p.workloads:
            if w.id == "oltp":
                w.mode, w.think_ms, w.iops = mode, z, iops
        return simulate(p, catalog).operation("op1").duration_h

    durations = [rebuild_h("closed", z) for z in (0.0, 100.0, 1000.0, 10000.0)]
    assert all(b < a for a, b in zip(durations, durations[1:]))
    assert durations[-1] == pytest.approx(rebuild_h("open", iops=1000.0 / 10000.0), rel=0.02)
