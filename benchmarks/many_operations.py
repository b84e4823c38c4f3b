"""Benchmark: engine time and peak memory for plans of very many operations (issue 21 item 9).

    python benchmarks/many_operations.py [--sizes 1000,10000,100000] [--kinds binds,mix]
                                         [--timeout 600] [--profile N]

The configuration is benchmarks/engine.py's large one (CX4-960, 960 drives, 180 RAID 5 groups,
1,000 LUNs, 20 open workloads). Two plan families of n operations:
  binds  n binds on the 33 LUNs 967-999, start times uniform over n x 0.5 h (~10 at a time);
  mix    a third each of binds, drive failures (each with its replacement 24 h later, one
         group's failures 48 h apart) and workload changes, over the failures' span.
Each case runs `simulate()` once in a fresh subprocess (so its peak RSS is its own) and prints
the engine's wall time, its steps and the process's peak RSS; "Plan" is the RSS before the run
(interpreter, catalog, project). A case over --timeout seconds is reported as such.
--profile N: run the binds plan of N operations under cProfile and print the top entries.
Not a timed test: figures go to docs/performance.md ("Many operations").
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def plan(kind: str, n: int):
    from app.domain.project import Bind, DriveFailure, DriveReplacement, Scenario, WorkloadChange
    from engine import large_project  # benchmarks/engine.py

    p = large_project(n_ops=0)
    rnd = random.Random(1)
    events = []
    if kind == "binds":
        horizon = max(n * 0.5, 24.0)
        for k in range(n):
            events.append(Bind(f"op{k}", rnd.uniform(0, horizon * 0.95), 967 + k % 33,
                               ("Low", "Medium", "High", "ASAP")[k % 4]))
    else:
        n_fail = n // 3
        horizon = max((n_fail // 180 + 1) * 48.0, 24.0)
        for k in range(n_fail):  # group k % 180's (k // 180)-th failure, replaced 24 h later
            g, t = k % 180, (k // 180) * 48.0 + rnd.uniform(0, 20)
            d = p.groups[g].drives[rnd.randrange(5)]
            events.append(DriveFailure(f"f{k}", t, d, ("Low", "Medium", "High")[k % 3]))
            events.append(DriveReplacement(f"r{k}", t + 24.0, d))
        for k in range(n - 2 * n_fail):
            if k % 2:
                events.append(Bind(f"op{k}", rnd.uniform(0, horizon * 0.95), 967 + k % 33,
                                   ("Low", "Medium", "High", "ASAP")[k % 4]))
            else:
                events.append(WorkloadChange(f"wl{k}", rnd.uniform(0, horizon * 0.95), f"w{k % 20}",
                                             {"iops": rnd.choice([1500, 3000, 4500])}))
    events.sort(key=lambda e: e.start_h)
    p.scenarios = [Scenario("Many", events)]
    p.current_scenario = "Many"
    p.horizon_h = horizon
    return p


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def one(kind: str, n: int) -> dict:
    """In the child: build the plan, run it, report."""
    from app.engine import native, simulate
    from app.store.presets import load_catalog

    catalog = load_catalog()
    p = plan(kind, n)
    before = rss_mb()
    t0 = time.perf_counter()
    res = simulate(p, catalog)
    wall = time.perf_counter() - t0
    return {"kind": kind, "n": n, "events": len(p.scenario().events) if hasattr(p, "scenario") else None,
            "ops": len(res.operations), "steps": res.event_count, "engine_s": wall, "plan_mb": before,
            "peak_mb": rss_mb(), "engine": native.ENGINE_BUILD}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--kinds", default="binds,mix")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--profile", type=int, default=0)
    ap.add_argument("--child", nargs=2, metavar=("KIND", "N"))
    args = ap.parse_args()
    if args.child:
        print(json.dumps(one(args.child[0], int(args.child[1]))))
        return 0
    if args.profile:
        import cProfile
        import pstats

        from app.engine import simulate
        from app.store.presets import load_catalog

        catalog, p = load_catalog(), plan("binds", args.profile)
        prof = cProfile.Profile()
        prof.runcall(simulate, p, catalog)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return 0
    print(f"{'plan':>6} {'ops':>8} {'steps':>8} {'engine s':>9} {'plan MB':>8} {'peak MB':>8}  engine")
    for kind in args.kinds.split(","):
        for n in map(int, args.sizes.split(",")):
            try:
                out = subprocess.run([sys.executable, __file__, "--child", kind, str(n)], capture_output=True,
                                     text=True, timeout=args.timeout, env=os.environ.copy())
            except subprocess.TimeoutExpired:
                print(f"{kind:>6} {n:>8}  over {args.timeout:g} s: stopped")
                continue
            if out.returncode:
                last = (out.stderr.strip().splitlines() or ["?"])[-1]
                print(f"{kind:>6} {n:>8}  failed: {last}")
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"{kind:>6} {r['ops']:>8} {r['steps']:>8} {r['engine_s']:>9.2f} {r['plan_mb']:>8.0f} "
                  f"{r['peak_mb']:>8.0f}  {r['engine']}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
