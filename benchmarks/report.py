"""Benchmark: how long the PDF report takes, for the largest example project and for a large
generated configuration (960 drives, 1,000 LUNs, 200 operations). Target: at most 5 s for the large
one (docs/performance.md, "## Report").

    .venv/bin/python benchmarks/report.py [--runs 5] [--keep DIR]

Prints medians of: the engine alone, the PDF alone from the engine's Results (document, layout,
paint), their sum (what `arrayplanner report` takes), and for the large configuration the PDF
from a synthetic Result of full size (200 operations, every series), so the report's own cost
is measured whatever state the engine is in. The large
configuration comes from benchmarks/engine.py when it offers a generator, else from
`large_project()` below.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.domain.project import (  # noqa: E402
    Bind, Drive, DriveFailure, DriveReplacement, Enclosure, Lun, LunMigration, Project, ProjectInfo, RaidGroup,
    Scenario, Workload,
)
from app.domain.raid import RaidType  # noqa: E402

PLATFORM = "emc-cx4-960-r28"


def large_project() -> Project:
    """CX4-960 fully populated: 8 buses x 8 DAEs x 15 slots = 960 drives; per DAE two 4+1 RAID 5,
    one 2+2 RAID 1/0 and a hot spare (192 RAID groups); 1,000 LUNs; 20 workloads of 40 LUNs;
    200 operations (120 LUN migrations, 40 drive failures with replacement, 40 binds)."""
    p = Project(PLATFORM, ProjectInfo("Large generated configuration", "Benchmark", "benchmarks/report.py"))
    groups: list[RaidGroup] = []
    for bus in range(8):
        for enc in range(8):
            p.enclosures.append(Enclosure(bus, enc, "dae-4g-15"))
            dtype = "fc-15k-146" if (bus + enc) % 3 else "fc-10k-400"
            for s in range(15):
                loc = f"{bus}_{enc}_{s}"
                p.drives[loc] = Drive(loc, dtype, hot_spare=(s == 14))
            base = len(groups)
            groups.append(RaidGroup(base, RaidType.R5, [f"{bus}_{enc}_{s}" for s in range(0, 5)]))
            groups.append(RaidGroup(base + 1, RaidType.R5, [f"{bus}_{enc}_{s}" for s in range(5, 10)]))
            groups.append(RaidGroup(base + 2, RaidType.R10, [f"{bus}_{enc}_{s}" for s in range(10, 14)]))
    p.groups = groups
    # 1,000 LUNs: 5 per group on the first 200 groups' worth of slots (groups reused round-robin)
    luns = []
    for i in range(1000):
        g = groups[i % len(groups)]
        luns.append(Lun(i, g.id, 20.0 if i < 800 else 40.0, "SP A" if i % 2 else "SP B", f"lun{i:04d}"))
    p.luns = luns
    # workloads on LUNs 0..799 (sources); LUNs 800..999 stay unused (migration / bind targets)
    p.workloads = [Workload(f"w{k}", f"App {k}", list(range(k * 40, k * 40 + 40)), iops=400.0,
                            response_target_ms=20.0) for k in range(20)]
    events = []
    t = 0.5
    for k in range(120):  # migrations: source k*5 -> unused 40 GB LUN 800+k
        events.append(LunMigration(f"op{len(events) + 1}", t, source_lun=k * 5, dest_lun=800 + k,
                                   priority=("Low", "Medium", "High", "ASAP")[k % 4]))
        t += 0.25
    for k in range(40):  # drive failures and replacements, one per enclosure
        bus, enc = divmod(k, 8)
        loc = f"{bus}_{enc}_{k % 5}"
        events.append(DriveFailure(f"op{len(events) + 1}", t, drive=loc, priority=("Medium", "High")[k % 2]))
        events.append(DriveReplacement(f"ev{k + 1}", t + 6.0, drive=loc))
        t += 0.5
    for k in range(40):  # binds of the remaining unused LUNs
        events.append(Bind(f"op{len(events) + 1}", t, lun=920 + k, priority="Medium"))
        t += 0.25
    p.scenarios = [Scenario("Large plan", events)]
    p.current_scenario = "Large plan"
    return p


def synthetic_result(project: Project, points: int = 2000):
    """A Result of the size the engine should return for `project`'s first scenario: every
    operation with its phases, and series for every controller core, bus, RAID group, workload and
    operation with `points` breakpoints each. Measures the report at full scale whatever state
    the engine is in."""
    import numpy as np

    from app.engine.result import Assumption, OperationResult, Phase, Result, Series

    rng = np.random.default_rng(1)
    scen = project.scenarios[0]
    ops = []
    horizon = 0.0
    for e in scen.events:
        if not e.is_operation:
            continue
        d1, d2 = float(rng.uniform(0.2, 3)), float(rng.uniform(0.5, 9))
        names = {"lun_migration": ("copy", "expansion"), "drive_failure": ("rebuild", "equalization"),
                 "bind": ("zeroing", "verify")}.get(e.kind, ("run", "finish"))
        phases = [Phase(names[0], e.start_h, e.start_h + d1, 20480.0, 20480.0 / (d1 * 3600)),
                  Phase(names[1], e.start_h + d1, e.start_h + d1 + d2, 20480.0, 20480.0 / (d2 * 3600))]
        ops.append(OperationResult(e.id, e.kind, f"{e.label_text} {e.id} ({e.priority})", e.priority, e.start_h,
                                   e.start_h + d1 + d2, phases))
        horizon = max(horizon, e.start_h + d1 + d2)
    t = np.sort(rng.uniform(0, horizon, points))
    t[0] = 0.0
    series = {}

    def add(metric, entity, unit, scale):
        series[(metric, entity)] = Series(metric, entity, unit, t, np.clip(rng.normal(scale, scale / 3, points), 0, None))

    for c in ("SP A", "SP B"):
        for core in range(4):
            add("cpu_pct", f"{c}/{core}", "%", 30)
    for b in sorted({e.bus for e in project.enclosures}):
        add("bus_pct", str(b), "%", 20)
    for g in project.groups:
        add("group_pct", str(g.id), "%", 40)
    for w in project.workloads:
        add("response_ms", w.id, "ms", 8)
    for o in ops:
        series[("progress_pct", o.event_id)] = Series("progress_pct", o.event_id, "%", np.array([0.0, o.start_h, o.end_h]),
                                                      np.array([0.0, 0.0, 100.0]))
    assumptions = [Assumption(f"table.{k}", float(k), "MB/s", f"emc Table {k % 8 + 1}") for k in range(60)]
    return Result(scen.name, horizon, ops, series, [], {g.id: 1e9 for g in project.groups}, assumptions)


def engine_generator():
    path = ROOT / "benchmarks" / "engine.py"
    if not path.exists():
        return None, "benchmarks/report.py large_project()"
    spec = importlib.util.spec_from_file_location("bench_engine", path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:  # its own imports may not be there yet
        print(f"note: benchmarks/engine.py did not import ({exc}); using our own generator")
        return None, "benchmarks/report.py large_project()"
    for name in ("large_project", "make_large_project", "generate_project", "big_project", "generate"):
        fn = getattr(mod, name, None)
        if callable(fn):
            return fn, f"benchmarks/engine.py {name}()"
    return None, "benchmarks/report.py large_project()"


def median_time(fn, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def bench(label: str, project, catalog, runs: int, keep: Path | None, engine_runs: int | None = None) -> None:
    """Median times of: the engine alone, the PDF alone from the engine's Results, and (for the
    large configuration) the PDF alone from a synthetic Result of full size."""
    from app.domain.validation import validate
    from app.report import ReportOptions, generate_report, simulate_scenarios

    errors = [i for i in validate(project, catalog) if i.severity == "error"]
    if errors:
        print(f"{label}: the project has {len(errors)} validation errors, e.g. {errors[0].where}: {errors[0].text}")
        return
    names = [s.name for s in project.scenarios]
    out_dir = keep or Path(tempfile.mkdtemp(prefix="report-bench-"))
    out = out_dir / f"{label.split(' (')[0].replace(' ', '-')}.pdf"
    t_sim, results = median_time(lambda: simulate_scenarios(project, catalog, names), engine_runs or runs)
    t_rep, info = median_time(lambda: generate_report(project, catalog, out, ReportOptions(), results=results), runs)
    ops = sum(len(r.operations) for r in results.values())
    events = sum(r.event_count for r in results.values())
    size_kb = out.stat().st_size / 1024
    print(f"{label}: {len(project.drives)} drives, {len(project.luns)} LUNs, "
          f"{sum(1 for s in project.scenarios for e in s.events if e.is_operation)} operations planned, "
          f"{len(names)} scenario(s)")
    print(f"  engine (simulate every scenario), median of {engine_runs or runs}: {t_sim:8.2f} s "
          f"({ops} operations in the Results, {events:,} engine steps)")
    print(f"  PDF from those Results, median of {runs}:          {t_rep:8.2f} s ({info.pages} pages, {size_kb:,.0f} KB)")
    print(f"  report total (what `arrayplanner report` takes):  {t_sim + t_rep:8.2f} s")
    if engine_runs is not None:
        syn = synthetic_result(project)
        t_syn, info_s = median_time(lambda: generate_report(project, catalog, out.with_name("synthetic.pdf"),
                                                            ReportOptions(), results={syn.scenario: syn}), runs)
        pts = sum(len(s.t) for s in syn.series.values())
        print(f"  PDF from a synthetic full-size Result ({len(syn.operations)} operations, {len(syn.series)} series, "
              f"{pts:,} points), median of {runs}: {t_syn:6.2f} s ({info_s.pages} pages)")
    if keep is None:
        for f in out_dir.iterdir():
            f.unlink()
        out_dir.rmdir()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", type=Path, help="keep the PDFs in this folder")
    ap.add_argument("--engine-runs", type=int, default=3, help="engine runs on the large configuration (default 3)")
    ap.add_argument("--own", action="store_true", help="also run our own large configuration")
    args = ap.parse_args()
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)

    from app.report.qt import ensure_gui_app
    from app.store.examples import example_paths
    from app.store.presets import default_catalog
    from app.store.project_file import catalog_for, load_project

    ensure_gui_app()
    catalog = default_catalog()
    # the largest example: most drives, then most operations
    examples = [(load_project(p), p) for p in example_paths()]
    project, path = max(examples, key=lambda e: (len(e[0].drives), sum(len(s.events) for s in e[0].scenarios)))
    bench(f"largest example ({path.stem})", project, catalog_for(project, catalog), args.runs, args.keep)

    from app.domain.validation import validate

    gen, where = engine_generator()
    big = gen() if gen else large_project()
    bad = [i for i in validate(big, catalog_for(big, catalog)) if i.severity == "error"]
    if gen and bad:
        # the report refuses a project with errors: drop the events they name and say so
        dropped: list[str] = []
        for _ in range(5):
            ids = {i.where for i in bad}
            if not ids or not all(any(e.id == w for s in big.scenarios for e in s.events) for w in ids):
                break
            for s in big.scenarios:
                s.events = [e for e in s.events if e.id not in ids]
            dropped += sorted(ids)
            bad = [i for i in validate(big, catalog_for(big, catalog)) if i.severity == "error"]
            if not bad:
                break
        if bad:
            print(f"note: {where} made a project with {len(bad)} validation error(s) ({bad[0].where}: "
                  f"{bad[0].text}); using benchmarks/report.py large_project()")
            big, where = large_project(), "benchmarks/report.py large_project()"
        else:
            print(f"note: {where} made {len(dropped)} event(s) the validation refuses ({', '.join(dropped)}); "
                  f"they are left out")
    print(f"(large configuration from {where})")
    bench("large generated configuration", big, catalog_for(big, catalog), args.runs, args.keep,
          engine_runs=args.engine_runs)
    if args.own:
        own = large_project()
        print("(also benchmarks/report.py large_project(): LUN migrations at every priority, drive failures, binds)")
        bench("own large configuration", own, catalog_for(own, catalog), args.runs, args.keep, engine_runs=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
