"""The engine worker's job after each timeline edit, in one process: CPU time per edit.

    python benchmarks/worker_job.py [--edits 40]
    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 setarch -R valgrind --tool=callgrind \\
        --callgrind-out-file=/tmp/cg.out python benchmarks/worker_job.py --edits N

benchmarks/gui_latency.py's edits (move an operation by half an hour, change its priority;
alternately, the same random choices) on benchmarks/engine.py's generated plan, each followed by
what app.service.engine_worker.main runs for the live view: `predict` with the layout-validation cache, the
result cache and the Layout cache, on a replica whose edited container (the scenarios) is a new
object. Prints the median and p95 CPU ms per edit (no GUI, no pipe: the engine's share of
gui_latency's figure without the window's noise). Under callgrind the instruction counts are
repeatable to ~0.01% with the settings above (hash seed; OpenBLAS's idle threads spin); per-edit
instructions = (I(N) - I(M)) / (N - M).
"""
from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from app.engine import native  # noqa: E402
from app.engine.state import LayoutCache  # noqa: E402
from app.service.engine_worker.heap import keep_freed_memory  # noqa: E402
from app.service.predict import predict  # noqa: E402
from app.service.engine_worker.result_cache import ResultCache  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402
from engine import large_project  # noqa: E402
from gui_latency import timeline_edit  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=40)
    args = ap.parse_args(argv)
    print(native.describe())
    keep_freed_memory()  # as the worker process does (app/service/engine_worker/main.py)
    catalog, project = load_catalog(), large_project()
    platform = catalog.platform(project.platform_id)
    caches = dict(layout_cache={}, results=ResultCache(), layouts=LayoutCache())
    predict(project, catalog, should_stop=lambda: False, **caches)
    op_events = [e for e in project.scenario().events if len(platform.priorities(e.kind)) >= 2]
    rnd = random.Random(1)
    times = []
    for i in range(args.edits):
        op = timeline_edit(i, op_events, platform, rnd)
        project.scenarios = copy.deepcopy(project.scenarios)  # the replica gets the edited container anew
        op.do(project)
        t0 = time.process_time()
        pred = predict(project, catalog, should_stop=lambda: False, **caches)
        times.append((time.process_time() - t0) * 1000.0)
        if pred.error:
            raise SystemExit(f"edit {i}: {pred.error}")
    p95 = sorted(times)[max(0, round(0.95 * len(times)) - 1)]
    print(f"worker job per edit ({len(times)} edits, CPU): median {statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, best {min(times):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
