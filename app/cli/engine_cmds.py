"""`arrayplanner simulate FILE [--scenario NAME] [--json]` and `arrayplanner validate [--json]`.

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

from app.cli import CliError
from app.domain.formatting import format_response


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="predict a scenario: durations, peaks, advisories")
    p.add_argument("file", help="project file (.arrayplan or .json)")
    p.add_argument("--scenario", help="scenario name (default: the project's current scenario)")
    p.add_argument("--json", action="store_true", help="print the Result as JSON (docs/result-format.md)")
    p.set_defaults(handler=cmd_simulate)
    v = sub.add_parser("validate", help="replay the documents' published figures against the model")
    v.add_argument("--json", action="store_true", help="print {cases: [...]} as JSON")
    v.add_argument("--only", help="run only cases whose id contains this text")
    v.set_defaults(handler=cmd_validate)


# ---------------------------------------------------------------- simulate

def hmm(hours: float | None) -> str:
    if hours is None or not math.isfinite(hours):
        return "--"
    minutes = int(round(hours * 60))
    return f"{minutes // 60}:{minutes % 60:02d}"


def cmd_simulate(args: argparse.Namespace) -> int:
    from app.cli.common import load_or_fail, validate_or_fail
    from app.engine import simulate

    project, catalog = load_or_fail(args.file)
    if args.scenario is not None:  # a name typed on the command line: bad usage (2), as check and report
        try:
            project.scenario(args.scenario)
        except KeyError as exc:
            raise CliError(str(exc).strip("'\""), 2) from None
    # a file whose current scenario does not exist reads but is invalid: validation's error (1)
    validate_or_fail(project, catalog, args.scenario)
    result = simulate(project, catalog, args.scenario)
    if args.json:
        json.dump(result.to_json(), sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    print(summary(result))
    return 0


def summary(result) -> str:
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
            f"RG {g}: {h / 8766:.3g}" for g, h in shown) + more)
    if result.advisories:
        lines.append("")
        lines.append("Advisories")
        for a in result.advisories:
            lines.append(f"  [{a.severity}] {a.text}" + (f"  ({a.source})" if a.source else ""))
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


def cmd_validate(args: argparse.Namespace) -> int:
    results = run_all(args.only)
    if args.json:
        json.dump({"cases": [r.to_json() for r in results]}, sys.stdout, indent=1,
                  default=lambda x: None)
        sys.stdout.write("\n")
    else:
        rows = [table_row(r) for r in results]
        w = max((len(r.id) for r in results), default=10)
        wp = max([len(row[0]) for row in rows] + [11])
        print(f"{'case':{w}s}  {'published':>{wp}s}  {'predicted':>10s}  {'unit':5s}  {'error':>8s}  {'tolerance':>9s}  pass")
        for r, (pub, pred, err, tol) in zip(results, rows):
            print(f"{r.id:{w}s}  {pub:>{wp}s}  {pred:>10s}  {r.unit:5s}  {err:>8s}  "
                  f"{tol:>9s}  {'yes' if r.passed else 'NO'}")
            if not r.passed and r.note.startswith("error:"):
                print(f"    {r.note}")
        n_fail = sum(not r.passed for r in results)
        print(f"\n{len(results) - n_fail} of {len(results)} cases pass")
    return 1 if any(not r.passed for r in results) else 0
