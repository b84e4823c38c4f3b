"""`arrayplanner sweep`: response time and utilisation against host load (app/service/sweep.py).

    arrayplanner sweep FILE [--steps 20] [--background OP] [--target MS] [--growth PCT] [--json]
                            [--scenario NAME] [--workers N | --in-process | --dask ADDRESS]
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from app.cli.common import CliError


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("sweep", help="response time and utilisation from 10%% of today's load to saturation")
    s.add_argument("file", help="project file (.arrayplan or .json)")
    s.add_argument("--scenario", help="scenario name (default: the project's current scenario)")
    s.add_argument("--steps", type=int, default=20, help="load steps per curve (default 20)")
    s.add_argument("--background", metavar="OP",
                   help="an operation id of the scenario: also sweep while it runs (e.g. a rebuild at High)")
    s.add_argument("--target", type=float, metavar="MS",
                   help="response target: print the most IOPS that meet it, and the headroom")
    s.add_argument("--growth", type=float, metavar="PCT", default=30.0,
                   help="with --target: does today's load grown by PCT%% still meet it (default 30)")
    s.add_argument("--json", action="store_true", help="print the sweep as JSON")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--in-process", action="store_true", help="run in this process (no pool)")
    where.add_argument("--dask", metavar="ADDRESS", help="run on a dask.distributed scheduler (optional extra)")
    s.set_defaults(handler=cmd_sweep)


def _num(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), 4)


def sweep_to_json(result, target: float | None, growth: float) -> dict:
    curves = []
    for c in result.curves:
        knee, sat = c.knee, c.saturation()
        d = {
            "label": c.label, "background": c.background,
            "knee_factor": _num(knee.factor if knee else None),
            "saturation_factor": _num(sat.factor if sat else None),
            "steps": [{
                "factor": _num(s.factor), "offered_iops": _num(s.total_offered), "served_iops": _num(s.total_served),
                "saturated": s.saturated, "limiting": s.limiting,
                "response_ms": {result.workloads.get(k, k): _num(v) for k, v in s.response_ms.items()},
                "utilisation_pct": {k: _num(v) for k, v in s.utilisation_pct.items()},
                "advisories": list(s.advisories),
            } for s in c.steps],
        }
        if target is not None:
            head = c.headroom_pct(target)
            d["target_ms"] = target
            d["max_iops_at_target"] = _num(c.max_iops_at(target))
            d["headroom_pct"] = _num(head)
            d["growth_pct"] = growth
            d["growth_fits"] = head is not None and head >= growth
        curves.append(d)
    return {"scenario": result.scenario, "saturation_factor": _num(result.saturation_factor),
            "engine_runs": result.runs, "curves": curves}


def sweep_text(result, target: float | None, growth: float) -> str:
    lines = [f"Scenario: {result.scenario}   engine runs: {result.runs}   "
             f"saturation at {result.saturation_factor:.2f}x today's load" if result.saturation_factor
             else f"Scenario: {result.scenario}   engine runs: {result.runs}   not saturated up to the largest step"]
    for c in result.curves:
        knee, sat = c.knee, c.saturation()
        lines.append("")
        lines.append(f"{c.label}:")
        lines.append(f"  {'load':>6}  {'offered IOPS':>12}  {'served':>10}  {'worst resp':>10}  limiting")
        for s in c.steps:
            mark = "  knee" if knee is s else ("  SATURATED" if s is sat else "")
            lines.append(f"  {s.factor:5.2f}x  {s.total_offered:12,.0f}  {s.total_served:10,.0f}  "
                         f"{s.worst_response_ms:8.1f} ms  {s.limiting} "
                         f"{s.utilisation_pct.get(s.limiting, 0.0):.0f}%{mark}")
        if target is not None:
            mx, head = c.max_iops_at(target), c.headroom_pct(target)
            if mx is None:
                lines.append(f"  response <= {target:g} ms: not met even at the lightest step")
            else:
                fits = "fits" if head >= growth else "does NOT fit"
                lines.append(f"  response <= {target:g} ms up to {mx:,.0f} IOPS (headroom {head:+.0f}%; "
                             f"{growth:g}% growth {fits})")
    return "\n".join(lines)


def cmd_sweep(args: argparse.Namespace) -> int:
    from app.cli.common import load_or_fail, refuse_too_large, validate_or_fail
    from app.service.runner import InProcessExecutor, dask_executor
    from app.service.sweep import SweepSpec, sweep

    if not 2 <= args.steps <= 200:
        raise CliError("--steps takes 2 to 200", 2)
    if args.target is not None and not args.target > 0:
        raise CliError("--target is a response time in ms, above 0", 2)
    project, catalog = load_or_fail(args.file)
    refuse_too_large(args.file, project, [args.scenario])
    validate_or_fail(project, catalog, args.scenario)
    executor = None
    if args.in_process:
        executor = InProcessExecutor()
    elif args.dask:
        try:
            executor = dask_executor(args.dask)
        except (RuntimeError, OSError) as exc:
            raise CliError(str(exc), 2) from None
    spec = SweepSpec(steps=args.steps, scenario=args.scenario, background=args.background)
    try:
        result = sweep(project, catalog, spec, executor=executor)
    except KeyError as exc:
        raise CliError(str(exc).strip("'\""), 2) from None
    except ValueError as exc:
        raise CliError(str(exc), 1) from None
    if args.json:
        json.dump(sweep_to_json(result, args.target, args.growth), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(sweep_text(result, args.target, args.growth))
    return 0
