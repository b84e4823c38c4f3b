"""Uncertainty-band benchmark (a script, not a timed test): prints medians.

    python benchmarks/uncertainty.py [--repeat N] [--samples N] [--large-samples N] [--cpu]

Bands (app/service/uncertainty.py: a Latin hypercube over the ranged rates values, one engine
run per sample, chunked over the shared local process pool, already started as the GUI keeps
it) for the current scenario of every example project, target <= 1 s each, and for the
960-drive, 200-operation plan of benchmarks/engine.py, target <= 10 s, on the machine's cores.
As the GUI makes them: adaptive stopping (compute_bands(adaptive=True): at least 100 samples, then
50 more until no P10/P50/P90 moves by more than 2%); --fixed runs every sample (the CLI's bands).
Pure Python or native: the engine app/engine/native.py loads (ARRAYPLANNER_ENGINE=python or
mypyc; the pool's workers inherit it); the first line names it.
The point estimate is passed in (the GUI has it already), so the figures are the bands alone.
The sample count is the bands' own rule (app/service/uncertainty.py `sample_count`: 200, 100 for
the 960-drive plan) unless --samples / --large-samples give one.
An example whose platform's rates carry no range needs no sampling (0 runs): listed as such.
Wall-clock medians (the work is spread over processes); record them in docs/performance.md.
`--cpu`: run in this process instead (InProcessExecutor) and print the median CPU time of this
process: on a shared machine the wall clock counts other users' load, CPU time does not (the
2-core figure is then about half of it, plus the pool's pickling).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.engine import native, simulate  # noqa: E402
from app.service.runner import InProcessExecutor, local_pool  # noqa: E402
from app.service.uncertainty import compute_bands  # noqa: E402
from app.store.examples import example_paths  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from engine import large_project, machine  # noqa: E402


CLOCK = time.perf_counter


def median_s(fn, repeat: int) -> tuple[float, object]:
    out = fn()  # warm-up (the workers import the engine once)
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        out = fn()
        times.append(CLOCK() - t0)
    return statistics.median(times), out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--samples", type=int, default=None, help="per example (default: the bands' rule)")
    ap.add_argument("--large-samples", type=int, default=None, help="the 960-drive plan (default: the rule)")
    ap.add_argument("--cpu", action="store_true", help="in this process, CPU time (see the docstring)")
    ap.add_argument("--fixed", action="store_true", help="every sample (no adaptive stopping; the CLI's bands)")
    args = ap.parse_args()
    adaptive = not args.fixed
    global CLOCK
    catalog = load_catalog()
    if args.cpu:
        CLOCK = time.process_time
        executor = InProcessExecutor()
        where = "in this process, CPU time"
    else:
        executor = local_pool()
        where = f"pool of {executor._max_workers} workers, wall clock"
    print(f"machine: {machine()}; engine: {native.describe()}; {where}; "
          f"{'every sample' if args.fixed else 'adaptive stopping (the GUI)'}")
    worst = 0.0
    for path in example_paths():
        project = load_project(path)
        point = simulate(project, catalog, project.current_scenario)
        med, bands = median_s(lambda: compute_bands(project, catalog, samples=args.samples, point=point,
                                                    executor=executor, adaptive=adaptive),
                              args.repeat)
        worst = max(worst, med) if bands.runs else worst
        print(f"{path.stem:34s} median {med:6.2f} s  {bands.runs:4d} runs over {len(bands.parameters):2d} ranged values"
              f"  {len(bands.series):4d} series bands")
    print(f"examples: worst median {worst:.2f} s (target <= 1 s)")
    project = large_project()
    t0 = time.perf_counter()
    point = simulate(project, catalog, project.current_scenario)
    point_s = time.perf_counter() - t0
    med, bands = median_s(lambda: compute_bands(project, catalog, samples=args.large_samples, point=point,
                                                    executor=executor, adaptive=adaptive),
                          args.repeat)
    print(f"960-drive plan ({point.event_count} engine steps, point estimate {point_s:.2f} s): median {med:.2f} s  "
          f"{bands.runs} runs over {len(bands.parameters)} ranged values, {len(bands.series)} series bands "
          f"(target <= 10 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
