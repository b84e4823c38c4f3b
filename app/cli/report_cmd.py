"""`arrayplanner report FILE -o OUT.pdf [--scenario NAME]`: the customer PDF, headless.

Exit codes: 0 written; 1 the project has validation errors (one line, nothing written);
2 the file cannot be read, an unknown scenario or chart, or the PDF cannot be written;
3 the engine failed on a scenario (one line naming it; ARRAYPLANNER_DEBUG=1 for the traceback);
143 terminated (SIGTERM) before the PDF was complete (nothing written, an existing PDF unchanged).
A PDF that cannot be written completely (a full disk) leaves an existing one unchanged (exit 2).
Works without a display (Qt's offscreen platform).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import Callable
from pathlib import Path

from app.cli.common import (
    EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, CliError, format_issue, load_or_fail, refuse_read_only, refuse_too_large,
)

EXIT_FAILED = 3  # the engine failed on a scenario (a bug; the message names it)
EXIT_TERMINATED = 128 + 15  # SIGTERM, as a shell reports a process it ended


def register(sub: argparse._SubParsersAction) -> None:
    from app.report.content import CHART_KINDS
    from app.report.uncertainty import REPORT_SAMPLES

    p = sub.add_parser(
        "report", help="write the PDF report of a project (headless)",
        description="Simulate the project's scenarios and write the PDF report: configuration, layout, "
                    "RAID groups and LUNs, workloads, the operations plan, charts, advisories, MTTDL and "
                    "the assumptions with their sources. Exit 1 if the project has validation errors.")
    p.add_argument("file", help="project file (.arrayplan or .json)")
    p.add_argument("-o", "--output", help="PDF to write (default: FILE with .pdf)")
    p.add_argument("--force", action="store_true", help="replace the PDF even when it is read-only")
    p.add_argument("--scenario", action="append", metavar="NAME",
                   help="include this scenario (repeat for several; default: every scenario)")
    p.add_argument("--charts", metavar="LIST",
                   help=f"comma-separated charts to include, from: {', '.join(CHART_KINDS)} "
                        f"(default: {','.join(k for k, v in CHART_KINDS.items() if v[3])}; 'none' for no charts)")
    p.add_argument("--page-size", choices=["A4", "Letter"], default="A4", help="paper size (default A4)")
    p.add_argument("--no-luns", action="store_true", help="leave out the per-LUN table (large arrays)")
    p.add_argument("--no-canvas", action="store_true",
                   help="draw the layout with the report's own painter instead of the GUI's canvas")
    p.add_argument("--sweep", action="store_true",
                   help="add a load-sweep section (response against load to saturation; see `arrayplanner sweep`)")
    p.add_argument("--sweep-background", metavar="OP", help="with --sweep: also sweep while this operation runs")
    p.add_argument("--sweep-target", type=float, default=20.0, metavar="MS",
                   help="with --sweep: the response target it answers for (default 20 ms)")
    p.add_argument("--sweep-advise", action="store_true",
                   help="with --sweep: per operation, the lowest-impact priority in its window at each load")
    p.add_argument("--sweep-window", type=float, metavar="HOURS",
                   help="with --sweep (implies --sweep-advise): the window the operations must finish in "
                        "(default: the plan's horizon after each operation's start)")
    p.add_argument("--size-target", type=float, metavar="MS",
                   help="add a sizing section: the cheapest designs with a worst response of at most MS")
    p.add_argument("--size-growth", type=float, default=0.0, metavar="PCT", help="with --size-target: growth")
    p.add_argument("--size-rebuild-hours", type=float, metavar="H",
                   help="with --size-target: a rebuild under load within H h (at the platform's default priority)")
    bands = p.add_mutually_exclusive_group()
    bands.add_argument("--bands", type=int, default=None, metavar="N",
                       help="print P10-P90 ranges of the durations and shade bands on the charts from N "
                            f"sampled runs per scenario (default {REPORT_SAMPLES}, all cores; "
                            "none when ARRAYPLANNER_BANDS=off)")
    bands.add_argument("--no-bands", action="store_true", help="leave the uncertainty ranges out (faster)")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    p.set_defaults(handler=cmd_report)


def _cancel_on_sigterm() -> Callable[[], bool]:
    """SIGTERM (kill, a session ending) cancels the export between pages, as the GUI's Cancel
    does: the temporary PDF is removed and an existing report stays as it was. A flag, not an
    exception thrown from the handler (that could land between creating the temporary file and
    recording its name); a second SIGTERM ends the process at once. Returns the flag's test."""
    stop = threading.Event()

    def on_term(signum, _frame):
        stop.set()
        signal.signal(signum, signal.SIG_DFL)

    try:
        signal.signal(signal.SIGTERM, on_term)
    except (ValueError, OSError, AttributeError):  # not the main thread, or no SIGTERM (Windows)
        pass
    return stop.is_set


def _sweeps(project, catalog, args) -> list:
    """The load sweep of each reported scenario (the background operation where it has it)."""
    from app.service.sweep import SweepSpec, sweep

    out = []
    for name in args.scenario or [project.current_scenario]:
        ids = {e.id for e in project.scenario(name).events}
        bg = args.sweep_background if args.sweep_background in ids else None
        if args.sweep_background and bg is None and len(args.scenario or [name]) == 1:
            raise CliError(f"{args.file}: no operation {args.sweep_background!r} in scenario {name!r}", EXIT_UNREADABLE)
        try:
            spec = SweepSpec(scenario=name, background=bg, window_h=args.sweep_window,
                             advise=args.sweep_advise or args.sweep_window is not None)
            out.append((name, sweep(project, catalog, spec)))
        except ValueError as exc:
            raise CliError(f"{args.file}: no load sweep: {exc}", EXIT_INVALID) from None
    return out


def _band_samples(args: argparse.Namespace) -> int:
    from app.report.uncertainty import REPORT_SAMPLES, bands_by_default

    if args.no_bands:
        return 0
    if args.bands is None:
        return REPORT_SAMPLES if bands_by_default() else 0
    if args.bands < 0:
        raise CliError(f"--bands {args.bands}: the number of samples cannot be negative", EXIT_UNREADABLE)
    return args.bands


def _bands(project, catalog, names: list[str], samples: int, results: dict, cancelled) -> dict:
    """{scenario: Bands} for the reported scenarios, each sampled around its point estimate
    (simulated here, and handed on to the report so it is not simulated twice)."""
    from app.report import ReportCancelled, simulate_scenarios
    from app.service.uncertainty import compute_bands

    results.update(simulate_scenarios(project, catalog, [n for n in names if n not in results],
                                      cancelled=cancelled))
    out = {}
    for name in names:
        bands = compute_bands(project, catalog, name, samples=samples, point=results[name], cancel=cancelled)
        if bands is None:
            raise ReportCancelled()
        out[name] = bands
    return out


def cmd_report(args: argparse.Namespace) -> int:
    from app.domain.validation import validate
    from app.report.content import CHART_KINDS, ReportOptions

    project, catalog = load_or_fail(args.file)
    names = [s.name for s in project.scenarios]
    for n in args.scenario or []:
        if n not in names:
            raise CliError(f"{args.file}: no scenario {n!r} (scenarios: {', '.join(names)})", EXIT_UNREADABLE)
    charts = [k for k, v in CHART_KINDS.items() if v[3]]
    if args.charts is not None:
        charts = [] if args.charts.strip().lower() == "none" else [c.strip() for c in args.charts.split(",") if c.strip()]
        bad = [c for c in charts if c not in CHART_KINDS]
        if bad:
            raise CliError(f"unknown chart {bad[0]!r} (charts: {', '.join(CHART_KINDS)})", EXIT_UNREADABLE)

    refuse_too_large(args.file, project, args.scenario or [project.current_scenario, project.baseline_scenario])
    issues = []
    for n in (args.scenario or [None]):
        issues += [i for i in validate(project, catalog, n) if i not in issues]
    from app.domain.user_names import names_for

    names = names_for(project, catalog)
    errors = [i for i in issues if i.severity == "error"]
    if errors:
        more = f" and {len(errors) - 1} more" if len(errors) > 1 else ""
        raise CliError(f"{args.file}: no report: the project has {len(errors)} validation "
                       f"error{'s' if len(errors) != 1 else ''} ({format_issue(errors[0], names)}{more}); "
                       f"run `arrayplanner check {args.file}`", EXIT_INVALID)
    warnings = [format_issue(i, names).removeprefix("warning: ") for i in issues if i.severity != "error"]

    out = Path(args.output) if args.output else Path(args.file).with_suffix(".pdf")
    if out.suffix.lower() != ".pdf":
        raise CliError(f"{out}: the report must be a .pdf file", EXIT_UNREADABLE)
    refuse_read_only(out, args.force)
    options = ReportOptions(scenarios=args.scenario or None, charts=charts, page_size=args.page_size,
                            lun_table=not args.no_luns, sweep_target_ms=args.sweep_target)
    sweeps = _sweeps(project, catalog, args) if args.sweep else []
    sizing = None
    if args.size_target is not None:
        from app.service.goal_seek import SizingGoal, goal_seek
        from app.store.prices import load_prices

        try:
            sizing = goal_seek(project, catalog, SizingGoal(args.size_target, args.size_growth,
                                                            rebuild_hours=args.size_rebuild_hours), load_prices())
        except ValueError as exc:
            raise CliError(f"{args.file}: no sizing section: {exc}", EXIT_INVALID) from None

    from app.report import ReportCancelled, SimulationFailed, generate_report
    from app.report.qt import ensure_gui_app

    picture = None
    if options.diagram and not args.no_canvas:
        from app.ui.report_dialog import canvas_picture

        ensure_gui_app(widgets=True)
        picture = canvas_picture(project, catalog)
    ensure_gui_app()
    terminated = _cancel_on_sigterm()
    samples = _band_samples(args)
    try:
        results: dict = {}
        bands = _bands(project, catalog, options.scenario_names(project), samples, results, terminated) \
            if samples else {}
        info = generate_report(project, catalog, out, options, results=results, scene_picture=picture,
                               warnings=warnings, cancelled=terminated, sweeps=sweeps, sizing=sizing, bands=bands)
    except ReportCancelled:
        kept = "; the existing file is unchanged" if out.is_file() else ""
        raise CliError(f"{out}: the report was not written: terminated (SIGTERM){kept}", EXIT_TERMINATED) from None
    except OSError as exc:  # a full disk, a read-only folder...: the old PDF (if any) is untouched
        kept = "; the existing file is unchanged" if out.is_file() else ""
        raise CliError(f"{out}: cannot write the report: {exc.strerror or exc}{kept}", EXIT_UNREADABLE) from None
    except SimulationFailed as exc:
        if os.environ.get("ARRAYPLANNER_DEBUG"):
            raise
        raise CliError(f"{args.file}: no report: {exc} (ARRAYPLANNER_DEBUG=1 shows the traceback)",
                       EXIT_FAILED) from None
    if not args.quiet:
        print(f"wrote {info.path} ({info.pages} pages, {info.seconds:.1f} s)", file=sys.stdout)
    return EXIT_OK
