"""`arrayplanner sweep`: response time and utilisation against host load (app/service/sweep.py);
`arrayplanner size`: goal seeking, the cheapest designs that meet the goals (app/service/goal_seek.py).

    arrayplanner sweep FILE [--steps 20] [--background OP] [--target MS] [--growth PCT] [--json]
                            [--scenario NAME] [--workers N | --in-process | --dask ADDRESS]
"""
from __future__ import annotations

import argparse
import json
import math

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
    s.add_argument("--advise", action="store_true",
                   help="per operation, the lowest-impact priority that finishes in its window at each load")
    s.add_argument("--window", type=float, metavar="HOURS",
                   help="with --advise (implied): the window each operation must finish in "
                        "(default: the plan's horizon after the operation's start)")
    s.add_argument("--json", action="store_true", help="print the sweep as JSON")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--in-process", action="store_true", help="run in this process (no pool)")
    where.add_argument("--dask", metavar="ADDRESS", help="run on a dask.distributed scheduler (optional extra)")
    s.set_defaults(handler=cmd_sweep)
    register_size(sub)


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
            # a "during" curve: the hours every step is measured over (docs/sizing.md)
            "window_h": [_num(x) for x in c.window_h] if c.window_h else None,
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
            d["growth_fits"] = bool(head is not None and head >= growth)
        curves.append(d)
    out = {"scenario": result.scenario, "saturation_factor": _num(result.saturation_factor),
           "engine_runs": result.runs, "curves": curves}
    if result.advice is not None:
        out["priority_advice"] = advice_to_json(result.advice)
    return out


def advice_to_json(advice) -> dict:
    """The priority advisor across the load levels (app/service/sweep_advice.py)."""
    return {"engine_runs": advice.runs, "skipped": advice.skipped, "operations": [{
        "event": op.event_id, "label": op.label, "current_priority": op.current_priority,
        "window_h": _num(op.window_h), "window_source": op.window_source, "priorities": list(op.priorities),
        "heaviest_factor_in_time": {p: _num(f) for p, f in op.heaviest_in_time.items()},
        "levels": [{"factor": _num(l.factor), "priority": l.priority, "duration_h": _num(l.duration_h)}
                   for l in op.levels],
    } for op in advice.operations]}


def advice_text(advice) -> list[str]:
    from app.service.sweep_advice import level_text

    lines = ["", "Lowest-impact priority that finishes in the window, per load level:"]
    for op in advice.operations:
        lines.append(f"  {op.label} (now {op.current_priority}; window {op.window_h:g} h, {op.window_source}):")
        lines += [f"    {l.factor:5.2f}x  {level_text(l)}" for l in op.levels]
    lines += [f"  {s}" for s in advice.skipped]
    return lines


def sweep_text(result, target: float | None, growth: float, names=None) -> str:
    """The readable sweep; `names` (app.domain.user_names.ObjectNames) names the operations and
    RAID groups as the GUI does ("during Migrate LUN 18 -> LUN 19", "Disk Group 3")."""
    def named(text: str) -> str:
        return names.text(text, result.scenario) if names is not None else text

    lines = [f"Scenario: {result.scenario}   engine runs: {result.runs}   "
             f"saturation at {result.saturation_factor:.2f}x today's load" if result.saturation_factor
             else f"Scenario: {result.scenario}   engine runs: {result.runs}   not saturated up to the largest step"]
    for c in result.curves:
        knee, sat = c.knee, c.saturation()
        lines.append("")
        lines.append(f"{named(c.label)}:")
        lines.append(f"  {'load':>6}  {'offered IOPS':>12}  {'served':>10}  {'worst resp':>10}  limiting")
        for s in c.steps:
            mark = "  knee" if knee is s else ("  SATURATED" if s is sat else "")
            lines.append(f"  {s.factor:5.2f}x  {s.total_offered:12,.0f}  {s.total_served:10,.0f}  "
                         f"{s.worst_response_ms:8.1f} ms  {named(s.limiting)} "
                         f"{s.utilisation_pct.get(s.limiting, 0.0):.0f}%{mark}")
        if target is not None:
            mx, head = c.max_iops_at(target), c.headroom_pct(target)
            if mx is None:
                lines.append(f"  response <= {target:g} ms: not met even at the lightest step")
            else:
                fits = "fits" if head >= growth else "does NOT fit"
                lines.append(f"  response <= {target:g} ms up to {mx:,.0f} IOPS (headroom {head:+.0f}%; "
                             f"{growth:g}% growth {fits})")
    if result.advice is not None:
        lines += advice_text(result.advice)
    return "\n".join(lines)


def cmd_sweep(args: argparse.Namespace) -> int:
    from app.cli.common import load_or_fail, refuse_too_large, validate_or_fail
    from app.service.runner import InProcessExecutor, dask_executor
    from app.service.sweep import SweepSpec, sweep

    if not 2 <= args.steps <= 200:
        raise CliError("--steps takes 2 to 200", 2)
    if args.target is not None and not args.target > 0:
        raise CliError("--target is a response time in ms, above 0", 2)
    if args.window is not None and not args.window > 0:
        raise CliError("--window is a duration in hours, above 0", 2)
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
    spec = SweepSpec(steps=args.steps, scenario=args.scenario, background=args.background,
                     advise=args.advise or args.window is not None, window_h=args.window)
    try:
        result = sweep(project, catalog, spec, executor=executor)
    except KeyError as exc:
        raise CliError(str(exc).strip("'\""), 2) from None
    except ValueError as exc:
        raise CliError(str(exc), 1) from None
    if args.json:
        # serialised whole before printing: a failure leaves no half document on stdout
        print(json.dumps(sweep_to_json(result, args.target, args.growth), indent=1))
    else:
        from app.domain.user_names import names_for

        print(sweep_text(result, args.target, args.growth, names_for(project, catalog)))
    return 0


# ---------------------------------------------------------------- size (goal seek)

def register_size(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("size", help="goal seek: the cheapest designs of the platform that meet an SLA")
    s.add_argument("file", help="project file (.arrayplan or .json): its platform and workloads")
    s.add_argument("--target", type=float, required=True, metavar="MS",
                   help="worst workload response at the (grown) load, in ms")
    s.add_argument("--growth", type=float, default=0.0, metavar="PCT", help="size for today's load + PCT%%")
    s.add_argument("--capacity", type=float, metavar="GB", help="usable capacity at least (default: today's LUNs)")
    s.add_argument("--rebuild-hours", type=float, metavar="H", help="a drive rebuild under the load ends within H h")
    s.add_argument("--priority", help="the rebuild's priority (default: the platform's default)")
    s.add_argument("--rebuild-target", type=float, metavar="MS", help="response during the rebuild, in ms")
    s.add_argument("--mttdl-years", type=float, metavar="Y", help="every group's MTTDL at least Y years")
    s.add_argument("--drive-type", action="append", metavar="ID", help="only this drive type (repeatable)")
    s.add_argument("--raid", action="append", metavar="LEVEL", help="only this RAID level, e.g. R5 (repeatable)")
    s.add_argument("--spares-per", type=int, default=30, metavar="N", help="one hot spare per N drives (default 30)")
    s.add_argument("--keep-features", action="store_true", help="keep the premium features as they are")
    s.add_argument("--apply", metavar="OUT", help="write the project with the chosen design to OUT")
    s.add_argument("--as-scenario", nargs=2, metavar=("NAME", "OUT"),
                   help="write the project to OUT with the chosen design as a new scenario NAME (its own "
                        "configuration; today's stays the base), compared with today's by `arrayplanner report OUT` "
                        "and the GUI's scenario comparison")
    s.add_argument("--json", action="store_true", help="print the candidates as JSON")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--in-process", action="store_true", help="run in this process (no pool)")
    where.add_argument("--dask", metavar="ADDRESS", help="run on a dask.distributed scheduler (optional extra)")
    s.set_defaults(handler=cmd_size)


def candidate_json(c) -> dict:
    return {"design": c.label, "drive_type": c.family.drive_type, "raid": c.family.raid.value,
            "width": c.family.width, "groups": c.groups, "drives": c.drives, "spares": c.spares,
            "enclosures": c.enclosures, "buses": c.buses,
            "features": {f: on for f, on in c.family.features},
            "cache": {k: size for k, size in c.family.cache}, "usable_gb": _num(c.usable_gb),
            "cost": _num(c.cost), "response_ms": _num(c.response_ms), "rebuild_h": _num(c.rebuild_h),
            "rebuild_response_ms": _num(c.rebuild_response_ms),
            "mttdl_years": _num(c.mttdl_h / 8766.0 if c.mttdl_h else None), "meets": c.meets,
            "why_not": c.why_not, "engine_runs": c.runs}


def cmd_size(args: argparse.Namespace) -> int:
    from app.cli.common import load_or_fail, validate_or_fail
    from app.domain.raid import RaidType
    from app.service.goal_seek import SizingGoal, goal_seek
    from app.service.runner import InProcessExecutor, dask_executor
    from app.store.presets import PresetError
    from app.store.prices import load_prices

    project, catalog = load_or_fail(args.file)
    validate_or_fail(project, catalog)
    try:
        raids = tuple(RaidType(r) for r in args.raid or ())
    except ValueError as exc:
        raise CliError(f"{exc} (levels: {', '.join(r.value for r in RaidType)})", 2) from None
    unknown = [t for t in args.drive_type or () if t not in catalog.drives]
    if unknown:
        raise CliError(f"unknown drive type {unknown[0]!r}", 2)
    for name in ("target", "rebuild_hours", "rebuild_target", "mttdl_years", "capacity"):
        v = getattr(args, name)
        if v is not None and not v > 0:
            raise CliError(f"--{name.replace('_', '-')} must be above 0", 2)
    try:
        prices = load_prices()
    except (PresetError, OSError) as exc:
        raise CliError(str(exc), 2) from None
    goal = SizingGoal(args.target, args.growth, args.capacity, args.rebuild_hours, args.priority,
                      args.rebuild_target, args.mttdl_years, tuple(args.drive_type or ()), raids,
                      args.spares_per, not args.keep_features)
    executor = InProcessExecutor() if args.in_process else (dask_executor(args.dask) if args.dask else None)
    try:
        result = goal_seek(project, catalog, goal, prices, executor=executor)
    except ValueError as exc:
        raise CliError(str(exc), 1) from None
    if args.apply:
        if result.chosen is None:
            raise CliError("no design meets the goals: nothing to apply", 1)
        from app.domain import edits
        from app.service.goal_seek import build_design
        from app.store.project_file import save_project

        design = build_design(project, catalog, result.chosen.family, result.chosen.groups, goal.spares_per)
        edits.ApplyDesign(design, result.chosen.label).do(project)
        save_project(project, args.apply)
    if args.as_scenario:
        if result.chosen is None:
            raise CliError("no design meets the goals: no scenario to add", 1)
        from app.domain import edits
        from app.service.goal_seek import build_design
        from app.store.project_file import save_project

        name, out_path = args.as_scenario
        base = load_or_fail(args.file)[0]  # the file as it is (--apply may have changed `project`)
        design = build_design(base, catalog, result.chosen.family, result.chosen.groups, goal.spares_per)
        edit = edits.DesignAsScenario(base, design, name, result.chosen.label)
        why = edit.check(base, catalog)
        if why:
            raise CliError(f"--as-scenario: {why}", 2)
        edit.do(base)
        save_project(base, out_path)
    if args.json:
        out = {"engine_runs": result.runs, "families": result.families, "cost_unit": result.cost_unit,
               "chosen": candidate_json(result.chosen) if result.chosen else None,
               "chosen_reason": result.chosen_reason or None,
               "front": [{**candidate_json(c), "verdict": result.verdict(c)} for c in result.front],
               "candidates": [candidate_json(c) for c in result.candidates]}
        print(json.dumps(out, indent=1))
        return 0
    print(f"{result.families} design families, {result.runs} engine runs; cost = "
          f"{'price list' if result.cost_unit == 'price' else 'drive count (no complete price list)'}")
    if result.chosen is None:
        print("No design meets the goals. Closest tries:")
        for c in result.candidates[:5]:
            print(f"  {c.label}: {'; '.join(c.why_not)}")
        return 1
    print("Pareto front (cost, response, rebuild time, MTTDL):")
    for c in result.front:
        rb = f"{c.rebuild_h:.1f} h" if c.rebuild_h is not None else "-"
        print(f"  {c.label}: cost {c.cost:,.0f}, {c.response_ms:.1f} ms, rebuild {rb}: {result.verdict(c)}")
    print(f"Chosen: {result.chosen.label}: {result.chosen_reason}.")
    if args.apply:
        print(f"wrote {args.apply}")
    if args.as_scenario:
        print(f"wrote {args.as_scenario[1]} with scenario {args.as_scenario[0]!r}")
    return 0
