"""Benchmark: how the PDF report's time and memory grow with the project (issue 21.9).

    .venv/bin/python benchmarks/report_scaling.py [--runs 3] [--only notes|operations] [--keep DIR]

Two families, each case in a fresh subprocess (so its peak RSS is its own):
  notes       the project notes at 100 KB, 1.6 MB and 45 MB (the report prints the first
              MAX_NOTES_CHARS and counts the rest)
  operations  a plan of 10^4 and 10^6 operations (the report lists MAX_OPERATIONS_LISTED and
              counts the rest; the 8 longest in the progress chart)

Times are the PDF alone (`generate_report` given the Result: document, layout, paint, write),
from a synthetic Result of the engine's shape (every operation with two phases, host series,
a progress block the engine builds on read, advisories), so the engine's own cost (and its limit:
it does not simulate 10^5 operations, see the report) is not measured. Prints the median of
`--runs` runs (the 10^6 case and the 45 MB case once) and the peak RSS of the process (the
Result's own memory included; "Result" gives the RSS after building it, before the report).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

NOTES_KB = [100, 1600, 45000]
OPERATIONS = [10_000, 1_000_000]


def notes_project(size_chars: int):
    """The small example-like project of the report tests, with notes of `size_chars`
    characters (words of 2-9 letters, in lines of about 20 words)."""
    import random

    from app.domain.project import (
        Drive, Enclosure, Lun, Project, ProjectInfo, RaidGroup, Scenario, Workload,
    )
    from app.domain.raid import RaidType

    p = Project("emc-cx4-960-r28", ProjectInfo("Long notes", "Benchmark", "benchmarks/report_scaling.py"))
    p.enclosures = [Enclosure(0, 0, "dae-4g-15")]
    for s in range(15):
        p.drives[f"0_0_{s}"] = Drive(f"0_0_{s}", "fc-15k-146", hot_spare=(s == 14))
    p.groups = [RaidGroup(0, RaidType.R5, [f"0_0_{s}" for s in range(5)])]
    p.luns = [Lun(0, 0, 100.0, "SP A", "data")]
    p.workloads = [Workload("oltp", "OLTP", [0], iops=500)]
    p.scenarios = [Scenario("Plan", [])]
    p.current_scenario = "Plan"
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghijklmnop") for _ in range(rng.randint(2, 9))) for _ in range(5000)]
    chunk = " ".join(words)
    p.info.notes = (chunk * (size_chars // len(chunk) + 1))[:size_chars]
    return p


def many_operations(n: int, points: int = 2000):
    """A project of `n` operations (binds spread over the 960-drive configuration of
    benchmarks/report.py) and a Result of the engine's shape for it: two phases per
    operation, SeriesBlocks for CPU, buses, RAID groups and workloads (`points` rows), the
    progress block as the engine makes it (built on read: reading it whole would take
    points x n values), and one advisory per 50 operations in three codes."""
    import numpy as np

    from app.domain.project import Bind, Scenario
    from app.engine.recorded import Progress
    from app.engine.result import Advisory, Assumption, OperationResult, Phase, Result, SeriesBlock

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from report import large_project  # noqa: E402 (benchmarks/report.py)

    p = large_project()
    n_luns = len(p.luns)
    rng = np.random.default_rng(1)
    starts = np.sort(rng.uniform(0.0, 500.0, n))
    d1 = rng.uniform(0.05, 2.0, n)
    d2 = rng.uniform(0.1, 6.0, n)
    events, ops = [], []
    prios = ("Low", "Medium", "High", "ASAP")
    for i in range(n):
        eid = f"op{i + 1}"
        s, a, b = float(starts[i]), float(d1[i]), float(d2[i])
        prio = prios[i % 4]
        events.append(Bind(eid, s, lun=i % n_luns, priority=prio))
        ops.append(OperationResult(eid, "bind", f"Bind LUN {i % n_luns} ({prio})", prio, s, s + a + b,
                                   [Phase("zeroing", s, s + a, 20480.0, 20480.0 / (a * 3600)),
                                    Phase("verify", s + a, s + a + b, 20480.0, 20480.0 / (b * 3600))]))
    p.scenarios = [Scenario("Many operations", events)]
    p.current_scenario = "Many operations"
    horizon = float(max(o.end_h for o in ops))
    t = np.linspace(0.0, horizon, points)
    res = Result("Many operations", horizon, ops)

    def block(metric, unit, entities, scale):
        res.add_block(SeriesBlock(metric, unit, entities, t,
                                  np.clip(rng.normal(scale, scale / 3, (points, len(entities))), 0, None)))

    block("cpu_pct", "%", [f"{c}/{k}" for c in ("SP A", "SP B") for k in range(4)], 30)
    block("bus_pct", "%", [str(b) for b in sorted({e.bus for e in p.enclosures})], 20)
    block("group_pct", "%", [str(g.id) for g in p.groups], 40)
    block("response_ms", "ms", [w.id for w in p.workloads], 8)
    ends = np.array([o.end_h for o in ops])
    empty = np.zeros(0, dtype=np.int64)
    res.add_block(SeriesBlock("progress_pct", "%", [o.event_id for o in ops], t,
                              compute=Progress(t, ends, empty, np.zeros(0), np.full(n, 40960.0))))
    codes = ("verify-under-load", "asap-under-load", "many-binds")
    res.advisories = [Advisory("warning" if k % 3 else "info", codes[k % 3], f"Advice about op{i + 1}.", f"op{i + 1}",
                               "EMC best practices") for k, i in enumerate(range(0, n, 50))]
    res.mttdl_h = {g.id: 1e9 for g in p.groups}
    res.assumptions = [Assumption(f"table.{k}", float(k), "MB/s", f"emc Table {k % 8 + 1}") for k in range(60)]
    return p, res


def _rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_case(family: str, size: int, out: Path) -> dict:
    """One report in this process: its time, pages, size and peak RSS."""
    from app.report import ReportOptions, generate_report
    from app.report.qt import ensure_gui_app
    from app.store.presets import default_catalog
    from app.store.project_file import catalog_for

    from app.report import simulate_scenarios

    ensure_gui_app()
    if family == "notes":
        project = notes_project(size * 1000)
        catalog = catalog_for(project, default_catalog())
        results = simulate_scenarios(project, catalog, ["Plan"])  # an empty plan: the engine is not timed
    else:
        project, result = many_operations(size)
        catalog = catalog_for(project, default_catalog())
        results = {result.scenario: result}
    rss_before = _rss_mb()
    t0 = time.perf_counter()
    info = generate_report(project, catalog, out, ReportOptions(), results=results)
    seconds = time.perf_counter() - t0
    return {"seconds": seconds, "pages": info.pages, "kb": out.stat().st_size / 1024, "rss_mb": _rss_mb(),
            "rss_before_mb": rss_before}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=["notes", "operations"])
    ap.add_argument("--keep", type=Path, help="keep the PDFs in this folder")
    ap.add_argument("--case", nargs=2, metavar=("FAMILY", "SIZE"), help=argparse.SUPPRESS)  # the child
    args = ap.parse_args()
    if args.case:
        family, size = args.case[0], int(args.case[1])
        out = Path(os.environ["REPORT_SCALING_OUT"])
        print(json.dumps(run_case(family, size, out)))
        return 0

    folder = args.keep or Path(tempfile.mkdtemp(prefix="report-scaling-"))
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    if args.only in (None, "notes"):
        cases += [("notes", kb, f"notes {kb / 1000:g} MB" if kb >= 1000 else f"notes {kb} KB") for kb in NOTES_KB]
    if args.only in (None, "operations"):
        cases += [("operations", n, f"{n:,} operations") for n in OPERATIONS]
    print(f"{'case':<22} {'runs':>4} {'median s':>9} {'pages':>6} {'PDF KB':>8} {'peak RSS MB':>12} {'Result MB':>10}")
    for family, size, label in cases:
        runs = 1 if (family == "operations" and size >= 10**6) or (family == "notes" and size >= 10_000) else args.runs
        rows = []
        for k in range(runs):
            out = folder / f"{family}-{size}-{k}.pdf"
            env = dict(os.environ, REPORT_SCALING_OUT=str(out), PYTHONPATH=str(ROOT))
            res = subprocess.run([sys.executable, __file__, "--case", family, str(size)], capture_output=True,
                                 text=True, env=env, cwd=ROOT)
            if res.returncode != 0:
                print(f"{label}: failed:\n{res.stderr}")
                break
            rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
            if args.keep is None:
                out.unlink()
        if not rows:
            continue
        med = statistics.median(r["seconds"] for r in rows)
        print(f"{label:<22} {len(rows):>4} {med:>9.2f} {rows[-1]['pages']:>6} {rows[-1]['kb']:>8,.0f} "
              f"{max(r['rss_mb'] for r in rows):>12,.0f} {rows[-1]['rss_before_mb']:>10,.0f}")
    if args.keep is None:
        folder.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main())
