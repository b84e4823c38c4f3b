"""Engine benchmark (a script, not a timed test): prints medians.

    python benchmarks/engine.py [--repeat N]

1. every scenario of every example project (presets/examples/*.json): target <= 5 ms median each;
2. a generated large configuration on the CX4-960 platform: 960 drives (180 RAID 5 4+1 groups and
   60 hot spares), 1,000 LUNs, 20 host workloads, 200 operations (migrations, drive failures with
   their replacements, binds; random priorities) and 30 workload changes over 30 days: target
   <= 50 ms. The plan passes app.domain.validation without errors (asserted): every LUN migrates
   at most once and a group has one failed drive at a time;
3. the same configuration and event count spread over 300 days: target <= 1.2x the 30-day time
   (cost grows with events, not with simulated time).
Record the figures in docs/performance.md, section "## Engine".
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.domain.project import (  # noqa: E402
    Bind, Drive, DriveFailure, DriveReplacement, Enclosure, LunMigration, Lun, Project, RaidGroup,
    Scenario, Workload, WorkloadChange,
)
from app.domain.raid import RaidType  # noqa: E402
from app.domain.validation import ERROR, validate  # noqa: E402
from app.engine import native, simulate  # noqa: E402
from app.store.examples import example_paths  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402


def machine() -> str:
    """The processor and its count: figures from different machines are not comparable, and
    sessions have run on different machines (a figure is quoted with the machine it came from)."""
    model = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model or platform.machine()}, {os.cpu_count()} CPUs"


def median_ms(fn, repeat: int) -> float:
    """Median CPU time of this process (ms). The machine is shared: process time is not inflated
    by other users' load the way wall time is; the wall-clock median is printed alongside."""
    fn()  # warm-up
    times, walls = [], []
    for _ in range(repeat):
        t0, w0 = time.process_time(), time.perf_counter()
        fn()
        times.append((time.process_time() - t0) * 1000.0)
        walls.append((time.perf_counter() - w0) * 1000.0)
    median_ms.wall = statistics.median(walls)
    median_ms.best = min(times)  # least disturbed by the other users of the machine
    return statistics.median(times)


def large_project(days: float = 30.0, n_ops: int = 200, seed: int = 1) -> Project:
    rnd = random.Random(seed)
    p = Project(platform_id="emc-cx4-960-r28")
    p.cache = {"read_cache_mb": 1000, "write_cache_mb": 3000, "page_kb": 8, "high_watermark_pct": 80,
               "low_watermark_pct": 60}
    locs = []
    for b in range(8):
        for e in range(8):
            p.enclosures.append(Enclosure(b, e, "dae-4g-15"))
            for s in range(15):
                locs.append(f"{b}_{e}_{s}")
    spares = set(locs[14::16][:60])
    members = [l for l in locs if l not in spares]
    for l in locs:
        p.drives[l] = Drive(l, "fc-15k-146" if l not in spares else "fc-15k-146", l in spares)
    for g in range(180):
        p.groups.append(RaidGroup(g, RaidType.R5, members[g * 5:(g + 1) * 5]))
    owners = ["SP A", "SP B"]
    for i in range(1000):
        p.luns.append(Lun(i, i % 180, 50.0 if i < 900 else 100.0, owners[i % 2]))
    for w in range(20):
        p.workloads.append(Workload(f"w{w}", f"OLTP {w}", list(range(w * 45, w * 45 + 45)), "open",
                                    iops=3000, read_pct=67, io_kb=8, random_pct=100))
    horizon = days * 24.0
    events = []
    prios = ["Low", "Medium", "High", "ASAP"]
    migrated: set[int] = set()
    down: dict[int, list[tuple[float, float]]] = {}  # group -> (failure, replacement) intervals
    for k in range(n_ops):  # 200 operations: migrations, drive failures (+ replacements), binds
        t = rnd.uniform(0, horizon * 0.95)
        kind = k % 3
        if kind == 0:  # migrations into the 100 GB LUNs 900-966, each source and destination once
            src = rnd.randrange(0, 900)
            while src in migrated:  # a migrated source is unbound: it cannot move again
                src = rnd.randrange(0, 900)
            migrated.add(src)
            dst = 900 + (k // 3) % 67
            events.append(LunMigration(f"op{k}", t, src, dst, rnd.choice(prios)))
        elif kind == 1:
            # one failed drive per RAID 5 group at a time (a drive fails again only after its
            # replacement; a second failure in the group would lose its data)
            while True:
                gi = rnd.randrange(180)
                rep = t + rnd.uniform(2, 48)
                if all(rep < a or t > b for a, b in down.get(gi, [])):
                    break
            down.setdefault(gi, []).append((t, rep))
            d = p.groups[gi].drives[rnd.randrange(5)]
            events.append(DriveFailure(f"op{k}", t, d, rnd.choice(prios[:3])))
            events.append(DriveReplacement(f"rep{k}", rep, d))
        else:
            events.append(Bind(f"op{k}", t, 967 + rnd.randrange(33), rnd.choice(prios)))
    for k in range(30):  # daily peaks and quiet nights on some workloads
        events.append(WorkloadChange(f"wl{k}", rnd.uniform(0, horizon), f"w{rnd.randrange(20)}",
                                     {"iops": rnd.choice([1500, 3000, 4500])}))
    events.sort(key=lambda e: e.start_h)
    p.scenarios = [Scenario("Generated", events)]
    p.current_scenario = "Generated"
    p.horizon_h = horizon
    return p


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    print(native.describe())
    print(f"Python {sys.version.split()[0]}, {machine()}")
    cat = load_catalog()
    print("Examples (median ms per scenario, target <= 5 ms)")
    worst = 0.0
    for path in example_paths():
        project = load_project(path)
        for sc in project.scenarios:
            ms = median_ms(lambda: simulate(project, cat, sc.name), args.repeat)
            worst = max(worst, ms)
            steps = simulate(project, cat, sc.name).event_count
            print(f"  {path.stem:30s} {sc.name[:44]:44s} {ms:7.2f} ms cpu  {median_ms.wall:7.2f} ms wall  ({steps} steps)")
    print(f"  worst example: {worst:.2f} ms")
    big = large_project(30.0)
    big10 = large_project(300.0)
    for proj in (big, big10):  # the benchmark plans must be ones the application accepts
        errors = [i for i in validate(proj, cat) if i.severity == ERROR]
        assert not errors, errors
    r30 = simulate(big, cat)
    ms30 = median_ms(lambda: simulate(big, cat), args.repeat)
    best30 = median_ms.best
    print(f"Large: 960 drives, 1000 LUNs, 200 operations over 30 days: {ms30:.1f} ms cpu median, "
          f"{best30:.1f} best ({median_ms.wall:.1f} ms wall; {r30.event_count} steps, target <= 50 ms)")
    r300 = simulate(big10, cat)
    ms300 = median_ms(lambda: simulate(big10, cat), args.repeat)
    print(f"Large over 300 days (same events): {ms300:.1f} ms cpu median, {median_ms.best:.1f} best "
          f"({median_ms.wall:.1f} ms wall; {r300.event_count} steps); "
          f"ratio {ms300 / ms30:.2f}x of medians, {median_ms.best / best30:.2f}x of best (target <= 1.2x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
