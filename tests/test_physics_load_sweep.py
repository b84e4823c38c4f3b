"""More host load never answers faster, and never ends an operation sooner (issue 20: physics
away from the documents; issue 26: the load sweep).

For every example project with a host load and each operation of each of its scenarios as the
background, a 20-step sweep as `arrayplanner sweep --background` runs it (app/service/sweep.py:
from 10% of today's load to just past the saturation of the steady load, each step measured over
the operation's window at the heaviest unsaturated step) checks, step by step:
- each workload's response is non-decreasing (tolerance 0.5% or 0.05 ms);
- the operation's duration is non-decreasing (an operation that finished at a lighter step still
  finishes or runs on; one that did not finish never finishes at a heavier step).
Steps where the sweep finds demand unserved (`saturated`) are left out of the response check: the
response there is that of the served I/Os only, a lower bound (docs/model.md 2.3); a workload with
LUNs on a saturated and an unsaturated group is then weighted towards the unsaturated one as load
rises (Dell ME5 RAID 6 rebuild: 131.9 -> 120.6 ms from 1.07x to 1.3x, every step saturated).

Examples without a host workload (the EMC worked examples, Hitachi's tiers) have nothing to sweep.
"""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from app.domain.project import DriveReplacement, WorkloadChange
from app.engine.simulate import simulate
from app.service.sweep import SweepSpec, find_saturation, measure, operation_window, scaled_project, step_factors
from app.store.presets import load_catalog
from app.store.project_file import catalog_for, load_project

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "presets/examples").glob("*.json"))
STEPS = 20
REL_TOL, ABS_TOL_MS = 0.005, 0.05


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def has_host_load(project) -> bool:
    return any((w.iops if w.mode == "open" else w.outstanding) > 0 for w in project.workloads)


def operations(project):
    """(scenario, event id) of every operation of every scenario (not drive replacements, which
    run with their failure, nor workload changes)."""
    return [(sc.name, ev.id) for sc in project.scenarios for ev in sc.events
            if not isinstance(ev, (DriveReplacement, WorkloadChange))]


def during_curve(project, catalog, scenario: str, op: str, factors: list[float], saturation):
    """(factor, SweepStep, duration h or None) per factor, as the sweep's "during" curve measures."""
    heavy = max((f for f in factors if saturation is None or f < saturation), default=factors[0])
    window = operation_window(simulate(scaled_project(project, scenario, heavy, [op]), catalog, scenario), op)
    rows = []
    for f in factors:
        p = scaled_project(project, scenario, f, [op])
        if window is not None:
            p.horizon_h = max(p.horizon_h or 0.0, window[1])
        result = simulate(p, catalog, scenario)
        rows.append((f, measure(result, p, f, op, window), result.operation(op).duration_h))
    return rows


def load_faults(rows) -> list[str]:
    faults = []
    for (f0, s0, d0), (f1, s1, d1) in zip(rows, rows[1:]):
        if not s1.saturated:
            for w, r0 in s0.response_ms.items():
                r1 = s1.response_ms[w]
                if not (math.isnan(r0) or math.isnan(r1)) and r1 < r0 - max(REL_TOL * r0, ABS_TOL_MS):
                    faults.append(f"{w}: {r0:.3f} ms at {f0:.3f}x, {r1:.3f} ms at {f1:.3f}x")
        if d0 is None and d1 is not None:
            faults.append(f"duration: unfinished at {f0:.3f}x, {d1:.3f} h at {f1:.3f}x")
        elif d0 is not None and d1 is not None and d1 < d0 * (1 - 1e-6) - 1e-9:
            faults.append(f"duration: {d0:.4f} h at {f0:.3f}x, {d1:.4f} h at {f1:.3f}x")
    return faults


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_more_load_never_answers_faster_nor_ends_an_operation_sooner(catalog, path):
    project = load_project(path)
    cat = catalog_for(project, catalog)
    if not has_host_load(project):
        pytest.skip("no host workload to scale")
    ops = operations(project)
    assert ops, f"{path.name}: no operation to sweep"
    # the saturation of the steady load: the project's configuration, the same for every scenario
    saturation = find_saturation(project, cat, project.scenarios[0].name, [0])
    factors = step_factors(SweepSpec(steps=STEPS), saturation)
    faults = []
    for scenario, op in ops:
        faults += [f"[{scenario}] {op} {x}" for x in
                   load_faults(during_curve(project, cat, scenario, op, factors, saturation))]
    assert not faults, f"{path.name}:\n" + "\n".join(faults)


class _FreeTime:
    """The two things Migration.expansion_blend reads of a placement context."""

    def __init__(self, free: float):
        self.free = free
        self.asap_g = [1]

    def free_g(self, gi: int) -> float:
        return self.free


def test_the_cached_share_of_an_asap_expansion_follows_the_drives_headroom():
    """The ASAP expansion where the destination's drives are the limit: its writes go through the
    write cache (12 MB/s at 90% busy, emc Figure 1) or around it (40 MB/s at the same busy,
    'Best practices for migrations'). An all-or-nothing switch at the headroom the cached cap
    needs cut the expansion's drive time to 30% at once, so a slightly heavier host load left the
    drives idler and answered faster; the cached share now follows the headroom: the drive time
    the expansion takes is continuous and non-decreasing in the headroom, its rate too."""
    from app.domain.project import LunMigration
    from app.engine.op_migration import Migration
    from app.engine.simulate import Sim

    # a real Sim and Migration (a compiled class has no instance without __init__), its
    # expansion terms then set to the published pair
    project = load_project(ROOT / "presets/examples/emc-cx4-960-oltp.json")
    sim = Sim(project, catalog_for(project, load_catalog()))
    m = Migration(sim, LunMigration("blend", 0.0, source_lun=0, dest_lun=1, priority="ASAP"))
    m.gd, m.exp_cap = 0, 12.0
    m.exp_cost_u = 0.9 / 12.0
    m.exp_cost_lo = m.exp_cost_u * 12.0 / 40.0
    m.cpu_exp, m.cpu_exp_lo = 2.5, 2.5 * 12.0 / 40.0
    m.exp_uses, m.exp_uses_lo = [("g", 0, m.exp_cost_u)], [("g", 0, m.exp_cost_lo)]
    last_busy = last_rate = last_cpu = None
    for i in range(0, 1001):
        free = 1.0 * i / 1000  # the destination members' free time, 0 to 100%
        uses, cpu = m.expansion_blend(_FreeTime(free))
        cost = uses[0][2]
        rate = min(m.exp_cap, free / cost)  # what take() gives on these drives
        busy = rate * cost
        assert busy <= free + 1e-12
        assert m.exp_cost_lo - 1e-12 <= cost <= m.exp_cost_u + 1e-12
        if last_busy is not None:  # 0.1% more headroom: never less drive time, rate, CPU
            assert busy >= last_busy - 1e-12 and rate >= last_rate - 1e-12
            assert busy - last_busy <= 0.0011 and abs(cpu * rate - last_cpu) <= 0.5, (free, busy, last_busy)
        last_busy, last_rate, last_cpu = busy, rate, cpu * rate
    assert last_busy == pytest.approx(m.exp_cap * m.exp_cost_u)  # ample headroom: all cached


def ddp_rebuild_hours(catalog, iops: float, raid: str = "DDP") -> float:
    """The DDP example's High rebuild (one drive of the 60-drive pool) under `iops` of its
    application load: hours, the equalization after the replacement included."""
    project = load_project(ROOT / "presets/examples/netapp-e5700-ddp.json")
    cat = catalog_for(project, catalog)
    scenario = "One drive fails (High)"
    p = scaled_project(project, scenario, iops / project.workloads[0].iops, ["op1"])
    p.horizon_h = 2000.0
    d = simulate(p, cat, scenario).operation("op1").duration_h
    assert d is not None
    return d


def test_a_light_host_load_barely_slows_a_declustered_rebuild(catalog):
    """A stripe of a 60-drive pool (8+2) waits only on host I/O at its own drives. Counting the
    host's busy summed over the pool as each stripe's contention (before) doubled the High
    rebuild at 50 IOPS (15.7 -> 31.4 h), as at 1,000; per stripe, 50 IOPS costs ~12%."""
    idle, light, heavy = (ddp_rebuild_hours(catalog, x) for x in (0.001, 50.0, 1000.0))
    assert light <= idle * 1.25, (idle, light)
    hours = [ddp_rebuild_hours(catalog, x) for x in (1.0, 10.0, 50.0, 100.0, 200.0, 500.0, 1000.0)]
    assert all(b >= a * (1 - 1e-9) for a, b in zip([idle] + hours, hours)), hours  # more load, never sooner
    assert heavy > 1.5 * idle  # the example's own load still contends for nearly all the time


@pytest.mark.parametrize("path,scenario", [("netapp-e5700-ddp", "One drive fails (High)"),
                                           ("dell-me5-adapt", "ADAPT drive fails (High)")])
def test_a_trickle_during_a_share_rebuild_answers_no_slower_than_a_heavier_load(catalog, path, scenario):
    """At light load a share level runs the rebuild on nearly all the drive time. Counted as
    open load it put a trickle behind a ~97%-busy queue (DDP: 36.5 ms at 5 IOPS, 12.3 ms at 160);
    with the level's queue depth a host I/O waits behind the rebuild's queued I/Os only, and
    the response rises with load from the lightest step (sweep steps start at 10%)."""
    project = load_project(ROOT / "presets/examples" / f"{path}.json")
    cat = catalog_for(project, catalog)
    factors = [0.005, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3]
    window = operation_window(simulate(scaled_project(project, scenario, factors[-1], ["op1"]), cat, scenario), "op1")
    rows = []
    for f in factors:
        p = scaled_project(project, scenario, f, ["op1"])
        p.horizon_h = max(p.horizon_h or 0.0, window[1])
        result = simulate(p, cat, scenario)
        rows.append((f, measure(result, p, f, "op1", window), result.operation("op1").duration_h))
    assert not load_faults(rows), load_faults(rows)
