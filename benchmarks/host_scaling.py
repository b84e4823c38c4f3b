"""Host-model scaling benchmark (a script, not a timed test): prints medians and their ratio.

    python benchmarks/host_scaling.py [--repeat N] [--factor 10]

A plan on a configuration k times larger, with k times the events: k x the RAID groups, drives,
LUNs, workloads (each on as many LUNs as before) and operations. The cost should grow about
linearly (steps x the size of what a step changes): target ratio <= 12x for k = 10. The
per-workload response times (RecordedRows / OpenResponses.mean_by_workload) are read, as a chart
would, so their cost counts.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.domain.project import (  # noqa: E402
    Drive, DriveFailure, DriveReplacement, Enclosure, Lun, LunMigration, Project, RaidGroup, Scenario, Workload,
    WorkloadChange,
)
from app.domain.raid import RaidType  # noqa: E402
from app.engine import native, simulate  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402


def project(k: int, seed: int = 1, blocks: int | None = None) -> Project:
    """18 k RAID 5 4+1 groups (90 k drives), 100 k LUNs, 2 k workloads on 45 LUNs each; per block
    of 18 groups 20 operations and 10 workload changes: k x the configuration and k x the events.
    Linear scaling is k x the time (the steps grow k-fold, the cost of a step should not).
    blocks: the plan on only that many blocks (--same-plan: 1, the same events at every size)."""
    rnd = random.Random(seed)
    p = Project(platform_id="emc-cx4-960-r28")
    p.cache = {"read_cache_mb": 1000, "write_cache_mb": 3000, "page_kb": 8, "high_watermark_pct": 80,
               "low_watermark_pct": 60}
    G = 18 * k
    locs = []
    per_bus = -(-G * 5 // 8)
    for b in range(8):
        for e in range(-(-per_bus // 15)):
            p.enclosures.append(Enclosure(b, e, "dae-4g-15"))
            locs += [f"{b}_{e}_{s}" for s in range(15)]
    for l in locs[:G * 5]:
        p.drives[l] = Drive(l, "fc-15k-146", False)
    for g in range(G):
        p.groups.append(RaidGroup(g, RaidType.R5, locs[g * 5:(g + 1) * 5]))
    L = 100 * k
    for i in range(L):
        p.luns.append(Lun(i, i % G, 50.0 if i < 90 * k else 100.0, ("SP A", "SP B")[i % 2]))
    for w in range(2 * k):
        p.workloads.append(Workload(f"w{w}", f"OLTP {w}", list(range(w * 45, w * 45 + 45)), "open",
                                    iops=1500, read_pct=67, io_kb=8, random_pct=100))
    horizon = 72.0
    events = []
    for blk in range(k if blocks is None else blocks):  # the plan on each block of 18 groups: k x the events
        g0, l0 = 18 * blk, 90 * k + 10 * blk
        for j in range(20):
            t = rnd.uniform(0, horizon * 0.9)
            if j % 2 == 0:
                events.append(LunMigration(f"op{blk}_{j}", t, g0 + j, l0 + j // 2, rnd.choice(["High", "ASAP"])))
            else:
                d = p.groups[g0 + j % 18].drives[1]
                events.append(DriveFailure(f"op{blk}_{j}", t, d, "High"))
                events.append(DriveReplacement(f"rep{blk}_{j}", t + 4.0, d))
        for j in range(10):
            events.append(WorkloadChange(f"wl{blk}_{j}", rnd.uniform(0, horizon), f"w{2 * blk}",
                                         {"iops": rnd.choice([1000, 2000])}))
    events.sort(key=lambda e: e.start_h)
    p.scenarios = [Scenario("Scaling", events)]
    p.current_scenario = "Scaling"
    p.horizon_h = horizon
    return p


def run(p: Project, cat) -> int:
    r = simulate(p, cat)
    r.get("response_ms", "w0")  # the per-workload responses, as the charts read them
    return r.event_count


def median_ms(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append((time.process_time() - t0) * 1000.0)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--factor", type=int, default=10)
    ap.add_argument("--same-plan", action="store_true", help="the same events at every size (one block's)")
    args = ap.parse_args()
    print(native.describe())
    cat = load_catalog()
    small, large = project(1), project(args.factor, blocks=1 if args.same_plan else None)
    steps = run(small, cat), run(large, cat)
    a = median_ms(lambda: run(small, cat), args.repeat)
    b = median_ms(lambda: run(large, cat), args.repeat)
    print(f"x1:  {len(small.drives)} drives, {len(small.workloads)} workloads: {a:.1f} ms cpu median ({steps[0]} steps)")
    print(f"x{args.factor}: {len(large.drives)} drives, {len(large.workloads)} workloads: {b:.1f} ms cpu median "
          f"({steps[1]} steps)")
    print(f"ratio {b / a:.1f}x (target <= 12x for 10x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
