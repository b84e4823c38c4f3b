"""`arrayplanner simulate FILE [--scenario NAME] [--json] [--bands N]` and `arrayplanner validate [--json]`.

simulate prints a readable summary (operations with phase durations as h:mm, peaks, advisories)
or the Result in its versioned JSON format (docs/result-format.md). validate replays every case
of presets/validation/*.toml (the documents' published figures) and exits 1 if any fails.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import tomllib
from pathlib import Path
from typing import Any

from app.cli.common import CliError
from app.domain.formatting import format_response


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="predict a scenario: durations, peaks, advisories")
    p.add_argument("file", help="project file (.arrayplan or .json)")
    p.add_argument("--scenario", help="scenario name (default: the project's current scenario)")
    p.add_argument("--json", action="store_true", help="print the Result as JSON (docs/result-format.md)")
    p.add_argument("--bands", type=int, default=0, metavar="N",
                   help="also P10/P50/P90 bands from N engine runs over the presets' ranges (e.g. 200)")
    p.add_argument("--seed", type=int, default=0, help="with --bands: the sampling seed (default 0)")
    p.set_defaults(handler=cmd_simulate)
    v = sub.add_parser("validate", help="replay the documents' published figures against the model")
    v.add_argument("--json", action="store_true", help="print {cases: [...], scores: {...}} as JSON")
    v.add_argument("--only", help="run only cases whose id contains this text")
    v.add_argument("--all", action="store_true", help="also list the plumbing cases (the model's inputs read back)")
    v.add_argument("--cross", action="store_true",
                   help="leave-one-out cross-validation: refit without each fitted figure and predict it")
    v.add_argument("--by-table", action="store_true", help="with --cross: leave out one table at a time")
    v.add_argument("--rates", help="with --cross: only this rates preset (e.g. smartarray-6402)")
    v.add_argument("--workers", type=int, default=2, help="with --cross or --bands: processes (default 2)")
    v.add_argument("--bands", type=int, default=0, metavar="N",
                   help="coverage: the share of published figures inside the predicted P10-P90 (N samples)")
    v.add_argument("--seed", type=int, default=0, help="with --bands: the sampling seed (default 0)")
    v.set_defaults(handler=cmd_validate)
    f = sub.add_parser("fit", help="fit the rates presets' declared free parameters to their figures")
    f.add_argument("--rates", help="only this rates preset (e.g. smartarray-6402)")
    f.add_argument("--write", action="store_true", help="write the fitted values, figures and residuals into the presets")
    f.set_defaults(handler=cmd_fit)


# ---------------------------------------------------------------- simulate

def hmm(hours: float | None) -> str:
    if hours is None or not math.isfinite(hours):
        return "--"
    minutes = int(round(hours * 60))
    return f"{minutes // 60}:{minutes % 60:02d}"


def cmd_simulate(args: argparse.Namespace) -> int:
    from app.cli.common import load_or_fail, refuse_too_large, validate_or_fail
    from app.engine import simulate

    project, catalog = load_or_fail(args.file)
    if args.scenario is not None:  # a name typed on the command line: bad usage (2), as check and report
        try:
            project.scenario(args.scenario)
        except KeyError as exc:
            raise CliError(str(exc).strip("'\""), 2) from None
    refuse_too_large(args.file, project, [args.scenario])
    # a file whose current scenario does not exist reads but is invalid: validation's error (1)
    validate_or_fail(project, catalog, args.scenario)
    result = simulate(project, catalog, args.scenario)
    bands = None
    if args.bands < 0:
        raise CliError(f"--bands {args.bands}: the number of samples must be 0 or more", 2)
    if args.bands:
        from app.service.uncertainty import compute_bands

        bands = compute_bands(project, catalog, args.scenario, samples=args.bands, seed=args.seed, point=result)
    if args.json:
        out = result.to_json()
        if bands is not None:
            out["bands"] = bands.to_json()
        json.dump(out, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    from app.domain.user_names import names_for

    print(summary(result, names_for(project, catalog)))
    if bands is not None:
        print("")
        print(bands_summary(bands))
    return 0


def bands_summary(bands) -> str:
    """The durations' P10 / P50 / P90 (h:mm; "--": not finished in the plan)."""
    lines = [f"Uncertainty: {bands.runs} engine runs over {len(bands.parameters)} ranged preset values "
             f"(seed {bands.seed}; P10 / P50 / P90)"]
    if not bands.parameters:
        lines.append("  the platform's rates carry no ranges: the bands are the point estimate")
    for b in bands.operations.values():
        q = b.duration_h
        late = f", not finished in {b.unfinished_share:.0%} of the runs" if b.unfinished_share else ""
        lines.append(f"  {b.event_id:6s} duration {hmm(q.p10)} / {hmm(q.p50)} / {hmm(q.p90)}{late}")
    return "\n".join(lines)


def summary(result, names=None) -> str:
    """The readable summary; `names` (app.domain.user_names.ObjectNames) names the RAID groups and
    the advisories' ids as the GUI does (the operations' ids stay: their column is the file's id)."""
    lines = [f"Scenario: {result.scenario}   horizon {hmm(result.horizon_h)} h:mm   ({result.event_count} engine steps)"]
    if result.operations:
        lines.append("")
        lines.append("Operations")
        for op in result.operations:
            lines.append(f"  {op.event_id:6s} {op.label}: start {hmm(op.start_h)}, end {hmm(op.end_h)}, "
                         f"duration {hmm(op.duration_h)}")
            for ph in op.phases:
                rate = f", {ph.avg_mb_s:.1f} MB/s" if ph.avg_mb_s else ""
                lines.append(f"           - {ph.name}: {hmm(ph.start_h)} -> {hmm(ph.end_h)} ({hmm(ph.duration_h)}{rate})")
    lines.append("")
    lines.append("Peaks")
    for metric, label, unit in (("cpu_pct", "SP/controller CPU", "%"), ("bus_pct", "bus", "%"),
                                ("group_pct", "RAID group", "%"), ("response_ms", "response", "ms")):
        best = None
        for ent in result.entities(metric):
            s = result.get(metric, ent)
            pk = s.peak()
            if not math.isnan(pk) and (best is None or pk > best[0]):  # NaN: a workload with no I/O
                best = (pk, ent)
        if best is not None:
            lines.append(f"  {label:18s} {best[0]:8.1f} {unit}  ({best[1]})")
    for wid in result.entities("response_ms"):
        s = result.get("response_ms", wid)
        pk = s.peak()
        if math.isnan(pk):
            lines.append(f"  workload {wid}: no I/O in this scenario")
        else:
            line = f"  workload {wid}: response {format_response(s.at(0.0))} at start, peak {format_response(pk)}"
            parts = []
            for metric, label in (("response_read_ms", "reads"), ("response_write_ms", "writes")):
                if wid in result.entities(metric):
                    p_k = result.get(metric, wid).peak()
                    if not math.isnan(p_k):
                        parts.append(f"{label} peak {format_response(p_k)}")
            if parts:
                line += " (" + ", ".join(parts) + ")"
            lines.append(line)
            if wid in result.entities("unserved_iops"):
                un = result.get("unserved_iops", wid).peak()
                if not math.isnan(un) and un > 0.5:
                    lines.append(f"    unserved: up to {un:,.0f} IOPS of the "
                                 f"{result.get('offered_iops', wid).peak():,.0f} offered (see host-overload)")
    if result.mttdl_h:
        lines.append("")
        items = sorted(result.mttdl_h.items(), key=lambda gh: gh[1])
        shown = items if len(items) <= 8 else items[:5]
        more = "" if len(items) <= 8 else f" ... ({len(items)} groups; lowest shown)"
        lines.append("MTTDL per RAID group (years): " + ", ".join(
            f"{names.group(g) if names is not None else f'RG {g}'}: {h / 8766:.3g}" for g, h in shown) + more)
    if result.advisories:
        lines.append("")
        lines.append("Advisories")
        for a in result.advisories:
            text = names.text(a.text, result.scenario) if names is not None else a.text
            lines.append(f"  [{a.severity}] {text}" + (f"  ({a.source})" if a.source else ""))
    return "\n".join(lines)


# ---------------------------------------------------------------- validate

def validation_dir() -> Path:
    from app.store.presets import builtin_presets_dir

    return builtin_presets_dir() / "validation"


def load_cases(folder: Path | None = None) -> list[tuple[dict[str, Any], dict[str, dict[str, Any]], str]]:
    """Every case of presets/validation/*.toml with the project definitions it may use:
    (case, projects, file name). Projects are named NAME (same file) and FILE#NAME."""
    folder = folder or validation_dir()
    docs = {}
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as fh:
            docs[path.name] = tomllib.load(fh)
    everywhere = {f"{name}#{k}": v for name, d in docs.items() for k, v in d.get("projects", {}).items()}
    out = []
    for name, d in docs.items():
        projects = dict(everywhere) | dict(d.get("projects", {}))
        for case in d.get("case", []):
            out.append((case, projects, name))
    return out


def load_examples(catalog) -> dict[str, Any]:
    from app.store.examples import example_paths
    from app.store.project_file import load_project

    return {p.stem: load_project(p) for p in example_paths()}


def run_all(only: str | None = None):
    """Every case (plumbing included), unclassified: the tests' and benchmarks' entry point."""
    from app.engine.cases import run_case
    from app.store.presets import default_catalog

    catalog = default_catalog()
    examples = load_examples(catalog)
    results = []
    for case, projects, fname in load_cases():
        if only and only not in case["id"]:
            continue
        try:
            results.append(run_case(case, catalog, examples, projects))
        except Exception as exc:  # a broken case is a failing case, named
            from app.engine.cases import CaseResult

            results.append(CaseResult(case.get("id", "?"), case.get("source", ""), case.get("published"),
                                      math.nan, case.get("unit", ""), None, case.get("tolerance_pct"), False,
                                      f"error: {exc}"))
    return results


def _fmt(v: Any) -> str:
    if isinstance(v, list):
        return "-".join(_fmt(x) for x in v)
    if isinstance(v, (int, float)):
        if not math.isfinite(v):
            return "--"
        return f"{v:.4g}"
    return str(v)


def table_row(r) -> tuple[str, str, str, str]:
    """(published, predicted, error, tolerance) as the table shows them: a published number for
    cases that compare with one; otherwise the condition checked ("> 4", "< 1.1", "range
    90-97", "flag set"), with "--" for the error, which would be a meaningless percentage."""
    if r.rule == "flag":
        pred = "--" if not math.isfinite(r.predicted) else ("set" if r.predicted > 0.5 else "not set")
        return r.check, pred, "--", "--"
    pub = _fmt(r.published) if r.is_number or not r.check else r.check
    err = "--" if r.error_pct is None else f"{r.error_pct:+.1f}%"
    if r.rule == "ceil":  # the source rounds up to whole units
        tol = "rounds up"
    else:
        tol = "--" if r.tolerance_pct is None or r.rule in ("less", "greater") else f"{r.tolerance_pct:g}%"
    return pub, _fmt(r.predicted), err, tol


def classified(only: str | None = None):
    """(results of the cases, their classification, the fit declarations) for validate."""
    from app.cli.calibration import Bench, classify, fit_params, load_rates_docs

    bench = Bench()
    ids = [cid for cid in bench.order if not only or only in cid]
    results = bench.run(ids)
    params = fit_params(load_rates_docs())
    cls = classify(bench, results, params)
    for cid, r in results.items():
        r.cls = cls.cls.get(cid, "prediction")
    return bench, [results[cid] for cid in ids], cls, params


def _print_table(results) -> None:
    rows = [table_row(r) for r in results]
    w = max([len(r.id) for r in results] + [10])
    wp = max([len(row[0]) for row in rows] + [11])
    print(f"{'case':{w}s}  {'published':>{wp}s}  {'predicted':>10s}  {'unit':5s}  {'error':>8s}  {'tolerance':>9s}  pass  class")
    for r, (pub, pred, err, tol) in zip(results, rows):
        known = "  (known miss)" if not r.passed and r.id in _known_misses() else ""
        print(f"{r.id:{w}s}  {pub:>{wp}s}  {pred:>10s}  {r.unit:5s}  {err:>8s}  "
              f"{tol:>9s}  {'yes' if r.passed else 'NO ':3s}  {r.cls}{known}")
        if not r.passed and r.note.startswith("error:"):
            print(f"    {r.note}")


def _known_misses() -> dict[str, str]:
    from app.cli.calibration import KNOWN_MISSES

    return KNOWN_MISSES


def cmd_validate(args: argparse.Namespace) -> int:
    import time

    from app.cli.calibration import score

    t0 = time.perf_counter()
    bench, results, cls, params = classified(args.only)
    plumbing = [r for r in results if r.cls == "plumbing"]
    shown = results if args.all else [r for r in results if r.cls != "plumbing"]
    scores = {c: score(r for r in results if r.cls == c) for c in ("calibration", "prediction")}
    cross = None
    if args.cross:
        from app.cli.calibration import cross_validate

        cross = cross_validate(params, by_table=args.by_table, rates=args.rates, workers=args.workers)
        if args.only:
            cross.predicted = {k: v for k, v in cross.predicted.items() if args.only in k}
            cross.unidentified = {k: v for k, v in cross.unidentified.items() if args.only in k}
        for r in cross.predicted.values():
            r.cls = "cross"
    cov = None
    if args.bands < 0:
        raise CliError(f"--bands {args.bands}: the number of samples must be 0 or more", 2)
    if args.bands:
        from app.cli.coverage import coverage

        cov = coverage(bench, results, args.bands, args.seed, args.workers)
    unexpected = [r.id for r in results if r.cls != "plumbing" and not r.passed and r.id not in _known_misses()]
    if args.json:
        out: dict[str, Any] = {
            "cases": [r.to_json() | ({"why": cls.why[r.id]} if r.id in cls.why else {}) for r in shown],
            "scores": {c: s.__dict__ for c, s in scores.items()},
            "plumbing_moved": len(plumbing),
            "plumbing": {r.id: cls.why.get(r.id, "") for r in plumbing},
        }
        if cross is not None:
            out["cross"] = {"cases": [r.to_json() for r in cross.predicted.values()],
                            "score": score(cross.predicted.values()).__dict__,
                            "unidentified": cross.unidentified, "case_evaluations": cross.runs,
                            "engine_runs": cross.sims,
                            "seconds": round(cross.seconds, 1),
                            "mode": "leave-one-table-out" if args.by_table else "leave-one-out"}
        if cov is not None:
            out["coverage"] = cov.to_json()
        json.dump(out, sys.stdout, indent=1, default=lambda x: None)
        sys.stdout.write("\n")
    else:
        _print_table(shown)
        n_fail = sum(not r.passed for r in shown)
        print(f"\n{len(shown) - n_fail} of {len(shown)} cases pass"
              + ("" if args.all else f" ({len(plumbing)} plumbing cases not listed: the model's own inputs read back, "
                                       f"tests/test_rate_plumbing.py; --all lists them)"))
        print("")
        print("Scores (error in % of the published figure; a range counts its distance outside)")
        for c, sc in scores.items():
            print("  " + sc.line(c))
        print(f"  {'plumbing':12s} {len(plumbing):4d} cases moved to tests/test_rate_plumbing.py")
        if cross is not None:
            mode = "leave-one-table-out" if args.by_table else "leave-one-out"
            print("")
            print(f"Cross-validation ({mode}): each fitted figure predicted by a fit that did not see it")
            if cross.predicted:
                _print_table(list(cross.predicted.values()))
            for f, dep in cross.unidentified.items():
                why = (dep[0].replace("underdetermined: ", "the other figures do not determine it: ")
                       if dep[0].startswith("underdetermined") else
                       f"no figure outside those left out moves {', '.join(dep)}")
                print(f"  {f}: not predictable without itself ({why})")
            print("  " + score(cross.predicted.values()).line("cross"))
            print(f"  {len(cross.unidentified)} fitted figures unidentified without themselves (not scored)")
            print(f"  {cross.sims} engine runs ({cross.runs} case evaluations) in {cross.seconds:.1f} s "
                  f"({args.workers} workers)")
        if cov is not None:
            from app.cli.coverage import print_coverage

            print_coverage(cov)
        print(f"\n({time.perf_counter() - t0:.1f} s)")
        if cls.conflicts:
            print("classification problems (a figure fitted and plumbing, or a broken [fit]; "
                  "arrayplanner fit after fixing it):\n  " + "\n  ".join(cls.conflicts))
    return 1 if unexpected or cls.conflicts else 0


def cmd_fit(args: argparse.Namespace) -> int:
    import time

    from app.cli.calibration import (Bench, FitResult, fit_params, fit_rates, load_rates_docs, rates_files,
                                     write_fit, write_ranges)

    t0 = time.perf_counter()
    params = fit_params(load_rates_docs())
    files = rates_files()
    if args.rates and args.rates not in {p.rates_id for p in params}:
        raise CliError(f"rates {args.rates!r} declare no [fit] parameters (known: "
                       f"{', '.join(sorted({p.rates_id for p in params}))})", 2)
    for p in params:
        if p.problem and (not args.rates or p.rates_id == args.rates):
            print(f"skipped: {p.problem}", file=sys.stderr)
    bench = Bench()
    unknown = [f"[fit.{p.name}] of {p.rates_id}: {f}" for p in params for f in p.figures if f not in bench.cases]
    if unknown:
        raise CliError("fit figures that are not validation cases: " + "; ".join(unknown), 1)
    leaders = [rid for rid in dict.fromkeys(p.rates_id for p in params if not p.follows)
               if not args.rates or rid == args.rates]
    fitted: dict[str, FitResult] = {}
    for rid in leaders:
        fr = fit_rates(bench, rid, params)
        fitted[rid] = fr
        print(f"{rid}: {len(fr.params)} parameters, {len(fr.residuals_pct)} figures, "
              f"{fr.sims} engine runs ({fr.runs} case evaluations), {fr.seconds:.1f} s; sum of squared relative errors {fr.start_cost:.4g} -> {fr.cost:.4g}")
        for p in fr.params:
            print(f"  {p.path:45s} {p.value:10.4g} -> {fr.values[p.path]:10.4g}   [{p.bounds[0]:g}, {p.bounds[1]:g}]")
        for f, r in fr.residuals_pct.items():
            print(f"    {f:45s} {r:+7.2f}%")
        if args.write:
            write_fit(files[rid], fr)
            write_ranges(files[rid])
            print(f"  written: {files[rid]}")
    for rid in dict.fromkeys(p.rates_id for p in params if p.follows):
        own = [p for p in params if p.rates_id == rid]
        lead = fitted.get(own[0].follows)
        if lead is None:
            continue
        lead_vals = {p.name: lead.values[p.path] for p in lead.params}
        fr = FitResult(rid, own, {p.path: lead_vals[p.name] for p in own if p.name in lead_vals},
                       lead.residuals_pct, 0, 0.0, lead.start_cost, lead.cost)
        fr.params = [p for p in own if p.path in fr.values]
        print(f"{rid}: follows {own[0].follows} ({len(fr.params)} values copied)")
        if args.write:
            write_fit(files[rid], fr)
            write_ranges(files[rid])
            print(f"  written: {files[rid]}")
    print(f"\n{bench.sims} engine runs ({bench.runs} case evaluations) in {time.perf_counter() - t0:.1f} s"
          + ("" if args.write else " (nothing written; --write records the fit in the presets)"))
    return 0
