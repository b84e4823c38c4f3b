"""Load-sweep benchmark (a script, not a timed test): prints medians.

    python benchmarks/sweep.py [--repeat N] [--steps 20]

For every example project with host workloads: a sweep of `--steps` load steps (steady curve,
and the curve during the scenario's first operation with a priority), probes included, run
(a) in this process and (b) on the shared local process pool, already started (as the GUI keeps
it). Target (issue 26): <= 1 s each. The engine runs it used are printed too.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.engine import native  # noqa: E402
from app.service.runner import InProcessExecutor, local_pool  # noqa: E402
from app.service.sweep import SweepSpec, sweep  # noqa: E402
from app.store.examples import example_paths  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402


def median_s(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()
    print(native.describe())
    cat = load_catalog()
    pool = local_pool()
    t = time.perf_counter()
    pool.submit(sum, [1]).result()
    print(f"pool start-up (first job): {time.perf_counter() - t:.2f} s")
    for path in example_paths():
        project = load_project(path)
        if not any(w.iops > 0 or w.mode == "closed" for w in project.workloads):
            print(f"  {path.stem:30s} no host workload: no sweep")
            continue
        ev = next((e for e in project.scenario().events if getattr(e, "priority", None)), None)
        spec = SweepSpec(steps=args.steps, background=ev.id if ev else None)
        runs = sweep(project, cat, spec, executor=InProcessExecutor()).runs
        here = median_s(lambda: sweep(project, cat, spec, executor=InProcessExecutor()), args.repeat)
        pooled = median_s(lambda: sweep(project, cat, spec, executor=pool), args.repeat)
        print(f"  {path.stem:30s} {runs:3d} engine runs: in-process {here:5.2f} s, pool {pooled:5.2f} s "
              f"(target <= 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
