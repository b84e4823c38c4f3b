"""`arrayplanner calibrate PROJECT MEASURED [--map OBJ=TARGET] [--json] [-o OUT]` (docs/measured-data.md).

Imports the measured data (generic CSV, iostat -x -t output or a Unisphere Analyzer dump),
maps its objects by name (a mapping the project remembers from the GUI wins), fits the
platform's free parameters and the workload unknown by bounded least squares and prints which
parameters moved and the RMS error per metric before and after. With -o the calibrated project
(its calibrated platform embedded, the measured data and the provenance kept) is written to OUT;
the input is never overwritten. Exit 0 done, 1 nothing to calibrate, 2 unreadable input.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from app.cli.common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, CliError, load_or_fail, refuse_read_only


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="fit the platform's free parameters to measured performance data",
                       description="Calibrate a project's platform to measured interval data (generic CSV, "
                                   "iostat -x -t output, Unisphere Analyzer archive dump CSV).")
    p.add_argument("file", help="project file (.arrayplan or .json)")
    p.add_argument("measured", help="measured-data file")
    p.add_argument("--format", choices=("generic-csv", "iostat", "unisphere-analyzer"),
                   help="the measured file's format (default: told from its content)")
    p.add_argument("--map", action="append", default=[], metavar="OBJECT=TARGET",
                   help="map a measured object to a project object, e.g. lun:sdb=lun:3, sp:SPA=sp:SP A "
                        "(or =  to leave it out); repeatable; wins over the name rules")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("-o", "--output", help="write the calibrated project here (.arrayplan or .json)")
    p.add_argument("--force", action="store_true", help="replace the output even when it is read-only")
    p.set_defaults(handler=cmd_calibrate)


def _clean(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_clean(x) for x in v]
    return v


def _parse_map(item: str, data, project, controllers) -> tuple[str, str]:
    from app.domain.measured_map import target_exists

    key, sep, target = item.partition("=")
    known = {f"{k}:{n}" for k, n in data.objects()}
    if not sep or key not in known:
        raise CliError(f"--map {item!r}: the measured objects are {', '.join(sorted(known))} "
                       f"(write OBJECT=TARGET, e.g. lun:sdb=lun:3)", EXIT_UNREADABLE)
    if target and (target.partition(":")[0] != key.partition(":")[0]
                   or not target_exists(project, target, controllers)):
        raise CliError(f"--map {item!r}: {target!r} is not a {key.partition(':')[0]} of the project "
                       f"(lun:N, group:N, drive:B_E_S, sp:NAME, port:NAME)", EXIT_UNREADABLE)
    return key, target


def cmd_calibrate(args: argparse.Namespace) -> int:
    from app.domain.measured_map import guess_mapping
    from app.service.calibrate import CalibrationError, calibrate, describe
    from app.store.measured import MeasuredImportError, read_measured
    from app.store.project_file import ProjectFileError, save_project

    project, catalog = load_or_fail(args.file)
    out = Path(args.output) if args.output else None
    if out is not None:
        if out.resolve() == Path(args.file).resolve():
            raise CliError(f"{out}: the output would overwrite the input project", EXIT_UNREADABLE)
        refuse_read_only(out, args.force)
    try:
        data = read_measured(args.measured, args.format)
    except MeasuredImportError as exc:
        raise CliError(str(exc), EXIT_UNREADABLE) from None
    pf = catalog.platform(project.platform_id)
    keep = project.measured.mapping if project.measured is not None else None
    controllers = tuple(c.name for c in pf.controllers)
    data.mapping = guess_mapping(project, data, controllers, keep)
    for item in args.map:
        data.mapping.update([_parse_map(item, data, project, controllers)])
    try:
        result = calibrate(project, catalog, data)
    except CalibrationError as exc:
        raise CliError(str(exc), EXIT_INVALID) from None
    cal = result.calibration
    if args.json:
        doc = {"format": "arrayplanner-calibration", "version": 1, "calibration": cal.to_dict(),
               "mapping": data.mapping, "skipped": data.skipped, "skipped_count": data.skipped_count,
               "residuals": [{"object": k, "metric": m, "hour": h, "measured": meas, "before": b, "after": a}
                             for (k, m, h, meas, a), b in zip(result.residuals("after"), result.before)]}
        sys.stdout.write(json.dumps(_clean(doc), indent=2) + "\n")
    else:
        unmapped = [k for k, t in data.mapping.items() if not t]
        print(f"{args.measured}: {len(data.intervals)} intervals of {len(data.objects())} objects ({data.format})"
              + (f"; {data.skipped_count} lines skipped" if data.skipped_count else ""))
        for s in data.skipped[:5]:
            print(f"  skipped {s}")
        if unmapped:
            print(f"  not mapped to the project (by name): {', '.join(unmapped)}")
        for line in describe(cal):
            print(line)
    if out is not None:
        from app.domain.edits.measured import ImportMeasured

        ImportMeasured(data).do(project)
        result.edit().do(project)
        try:
            from app.store.project_file import catalog_for

            save_project(project, out, catalog_for(project, catalog))
        except ProjectFileError as exc:
            raise CliError(str(exc), EXIT_UNREADABLE) from None
        if not args.json:
            print(f"wrote {out}")
    return EXIT_OK
