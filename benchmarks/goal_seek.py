"""Goal-seek benchmark (a script, not a timed test): prints the median time and engine runs.

    python benchmarks/goal_seek.py [--repeat N]

The EMC OLTP example sized for 10 ms at +30% load with an 8 h rebuild at High, every drive type,
RAID level and width the CX4-960 offers: target (issue 26) <= 30 s on 2 cores, on the shared
local process pool (started before timing, as the GUI keeps it) and in this process.
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
from app.service.goal_seek import SizingGoal, goal_seek  # noqa: E402
from app.service.runner import InProcessExecutor, local_pool  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(native.describe())
    cat = load_catalog()
    project = load_project(ROOT / "presets/examples/emc-cx4-960-oltp.json")
    goal = SizingGoal(10.0, 30.0, rebuild_hours=8.0, rebuild_priority="High")
    pool = local_pool()
    pool.submit(sum, [1]).result()
    for name, ex in (("pool", pool), ("in-process", InProcessExecutor())):
        times, runs = [], 0
        for _ in range(args.repeat):
            t = time.perf_counter()
            res = goal_seek(project, cat, goal, executor=ex)
            times.append(time.perf_counter() - t)
            runs = res.runs
        print(f"{name:10s}: median {statistics.median(times):5.1f} s (min {min(times):.1f}, max {max(times):.1f}); "
              f"{res.families} families, {runs} engine runs; chosen {res.chosen.label if res.chosen else None} "
              f"(target <= 30 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
