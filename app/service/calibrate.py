"""Calibrate a project's platform to measured data (docs/measured-data.md "Calibration").

    result = calibrate(project, catalog, data)     # data: MeasuredData with its mapping
    result.calibration                             # provenance: parameters moved, RMS before/after
    op = result.edit()                             # the undoable edit that applies it

The free parameters are the ones the platform's rates declare for fitting (their `[fit.<name>]`
tables: path and bounds, the same set `arrayplanner fit` moves against the documents' figures),
plus one workload unknown: the measured LUNs' read hit ratio where the project fixes one, else
the rates' `host.working_set_pct` (the hit ratio then follows from the cache size). They are
fitted together by bounded least squares (scipy.optimize.least_squares, trust region
reflective, on the unit box of the bounds; forward differences of 2% of the range: the engine's
answers have kinks where a cap changes hands; when the trust region collapses on one, a
single restart with 0.5% differences goes on from there) on the relative errors of the compared values
(a response against max(measured, 1 ms), a utilization against max(measured, 5%)). Each
evaluation runs the real engine on the replay of the measured load (app.domain.measured_replay),
with the values replaced in memory. A parameter the data does not move (its Jacobian column is
zero: no forced flush measured, say) stays where it was and is reported as not identified.

The result is a calibrated copy of the platform ("<id>-calibrated", rates inline, each fitted
value's source saying where it came from), embedded in the project by the edit.
"""
from __future__ import annotations

import copy
import dataclasses
import datetime as _dt
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from app.domain.hardware import Catalog, Platform
from app.domain.measured import Calibration, MeasuredData, ParameterMove, rms
from app.domain.edits.measured import ApplyCalibration
from app.domain.measured_replay import READ_HIT, Comparison, Replay, build_replay
from app.domain.measured_replay import compare as compare_replay
from app.domain.project import Project

WORKING_SET = "host.working_set_pct"
FLOORS = {"response_ms": 1.0, "util_pct": 5.0}
CALIBRATED_SUFFIX = "-calibrated"
Z90 = 1.2815515655446004  # P10-P90 of a normal error: +/- 1.28 standard errors


class CalibrationError(ValueError):
    """The data cannot calibrate this project (nothing mapped, nothing to compare, no parameter)."""


@dataclass
class FreeParameter:
    path: str
    low: float
    high: float
    value: float
    about: str = ""
    also: tuple[tuple[str, float], ...] = ()  # more keys set from it: (path, factor), fit_tied_keys


@dataclass
class CalibrationResult:
    calibration: Calibration
    values: dict[str, float]  # path -> fitted value (READ_HIT for the workload unknown)
    platform: Platform  # the calibrated copy
    snapshot: str  # its TOML, for the project
    replay: Replay
    before: list[float]  # predictions at replay.points, uncalibrated
    after: list[float]  # and calibrated
    read_hit_pct: dict[str, float] = field(default_factory=dict)  # project workload id -> fitted hit %
    seconds: float = 0.0

    def edit(self) -> ApplyCalibration:
        return ApplyCalibration(self.platform.id, self.snapshot, self.calibration, self.read_hit_pct)

    def residuals(self, which: str = "after") -> list[tuple[str, str, float, float, float]]:
        """(object key, metric, hour, measured, predicted) per compared value."""
        pred = self.after if which == "after" else self.before
        return [(p.key, p.metric, p.hour, p.measured, v) for p, v in zip(self.replay.points, pred)]


# ---------------------------------------------------------------- the platform's free parameters

def _merged_rates(pf: Platform) -> dict[str, Any]:
    from app.store.presets import _deep_merge

    return _deep_merge(dict(pf.rates_document), pf.document.get("rates_override", {}) or {})


def _number_at(doc: Mapping[str, Any], path: str) -> float | None:
    node: Any = doc
    try:
        for part in path.split("."):
            node = node[part]
        if isinstance(node, dict):
            node = node["value"]
        return float(node)
    except (KeyError, TypeError, ValueError):
        return None


def _tied(decl: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """A declaration's other keys and factors; a broken `ratios` leaves them out (`validate`
    reports the declaration)."""
    from app.store.presets import fit_tied_keys

    try:
        return fit_tied_keys(decl)
    except ValueError:
        return ()


def free_parameters(pf: Platform, project: Project, data: MeasuredData) -> list[FreeParameter]:
    """The declared fit parameters of the platform's rates that it has, and the workload unknown."""
    merged = _merged_rates(pf)
    out = []
    for name, d in (pf.rates_document.get("fit") or {}).items():
        b = d.get("bounds")
        v = _number_at(merged, str(d.get("path", "")))
        if v is None or not (isinstance(b, list) and len(b) == 2 and float(b[0]) < float(b[1])):
            continue  # `validate` reports a broken declaration; the fit leaves it
        lo, hi = float(b[0]), float(b[1])
        out.append(FreeParameter(d["path"], lo, hi, min(max(v, lo), hi), str(d.get("about", name)),
                                 _tied(d)))
    rp = build_replay(project, data)
    fixed_hits = [w.read_hit_pct for w in rp.project.workloads if w.read_hit_pct is not None
                  and (not rp.measured_luns or w.id in rp.measured_luns.values())]
    if fixed_hits:
        out.append(FreeParameter(READ_HIT, 0.0, 95.0, float(np.mean(fixed_hits)),
                                 "read hit ratio of the measured workloads (%)"))
    else:
        ws = _number_at(merged, WORKING_SET)
        if ws is not None and all(p.path != WORKING_SET for p in out):
            out.append(FreeParameter(WORKING_SET, 0.05, 100.0, ws, "working set, % of a workload's LUN capacity"))
    return out


def platform_with(pf: Platform, values: Mapping[str, float], catalog: Catalog, params: list[FreeParameter],
                  platform_id: str | None = None, source: str | None = None,
                  ranges: Mapping[str, tuple[float, float, str]] | None = None) -> Platform:
    """The platform with some rates values replaced (in its rates and, where it overrides them,
    its [rates_override]); `platform_id`: a copy under a new id (a user platform); `ranges`:
    path -> (low, high, range_source) put on the new values (docs/presets.md "Ranges")."""
    from app.store.presets import parse_platform, set_rates_value

    rid = pf.document["rates"]
    rates = copy.deepcopy(dict(pf.rates_document))
    doc = copy.deepcopy(dict(pf.document))
    doc.pop("rates_inline", None)
    also = {p.path: p.also for p in params}
    for path, v in values.items():
        if path == READ_HIT:
            continue
        for key, factor in ((path, 1.0), *also.get(path, ())):
            rates = set_rates_value(rates, key, float(v) * factor)
            if source:
                _set_source(rates, key, source)
            x = float(v) * factor
            if _number_at(doc.get("rates_override", {}) or {}, key) is not None:
                doc["rates_override"] = set_rates_value(doc["rates_override"], key, x)
            if ranges and path in ranges:
                lo, hi, why = ranges[path]
                _set_range(rates, key, x, lo * factor, hi * factor, why, source or "")
                if _number_at(doc.get("rates_override", {}) or {}, key) is not None:
                    _set_range(doc["rates_override"], key, x, lo * factor, hi * factor, why, source or "")
    builtin = pf.builtin
    if platform_id:
        doc["id"] = platform_id
        doc["name"] = pf.name if pf.name.endswith("(calibrated)") else f"{pf.name} (calibrated)"
        builtin = False
    return parse_platform(doc, {rid: rates}, f"{doc['id']} (calibrated)" if platform_id else f"{pf.id} (fit)",
                          builtin, drives=catalog.drives)


def _set_range(doc: dict[str, Any], path: str, value: float, low: float, high: float, why: str,
               source: str) -> None:
    """Put low / high / range_source on the value at `path` (a bare number becomes an inline
    table with `source`). The tables on the path are copies (set_rates_value made them)."""
    node: Any = doc
    parts = path.split(".")
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, dict) or parts[-1] not in node:
        return
    leaf = node[parts[-1]]
    base = dict(leaf) if isinstance(leaf, dict) else {"value": value, "source": source or node.get("source", "")}
    node[parts[-1]] = base | {"low": min(low, value), "high": max(high, value), "range_source": why}


def range_of(move: ParameterMove) -> tuple[float, float, str] | None:
    """The P10-P90 range a calibrated value carries: +/- 1.28 standard errors of the fit, cut at
    the parameter's bounds; None when the fit gives no standard error (not identified, or the
    data cannot tell the parameters apart)."""
    if not move.identified or move.stderr is None or not math.isfinite(move.stderr):
        return None
    half = Z90 * move.stderr
    return (max(move.low, move.after - half), min(move.high, move.after + half),
            f"P10-P90 from the calibration's standard error ({move.stderr:.3g}) x 1.28")


def _set_source(doc: dict[str, Any], path: str, source: str) -> None:
    node: Any = doc
    parts = path.split(".")
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    leaf = node.get(parts[-1]) if isinstance(node, dict) else None
    if isinstance(leaf, dict) and "value" in leaf:
        leaf["source"] = source


# ---------------------------------------------------------------- the fit

def _cores(pf: Platform) -> dict[str, int]:
    return {c.name: c.cores for c in pf.controllers}


def calibrate(project: Project, catalog: Catalog, data: MeasuredData, max_evaluations: int = 40,
              progress: Callable[[int], None] | None = None, cancelled: Callable[[], bool] | None = None,
              now: str | None = None) -> CalibrationResult:
    """Fit the free parameters to `data` (its mapping says which object is which)."""
    from scipy.optimize import least_squares

    from app.engine import simulate

    t0 = time.perf_counter()
    pf = catalog.platform(project.platform_id)
    if not data.mapped():
        raise CalibrationError(f"{data.source}: no measured object is mapped to the project's LUNs, groups, "
                               f"drives or SPs (map them first)")
    base = build_replay(project, data, _cores(pf))
    if not base.points:
        raise CalibrationError(f"{data.source}: nothing to compare: the mapped objects have no response time "
                               f"(LUNs) or utilization (groups, drives, SPs) measured")
    params = free_parameters(pf, project, data)
    if not params:
        raise CalibrationError(f"the rates of {pf.name} declare no parameter to fit ([fit] tables)")
    lo = np.array([p.low for p in params])
    hi = np.array([p.high for p in params])
    x0 = np.array([p.value for p in params])
    measured = np.array([pt.measured for pt in base.points])
    scale = np.array([max(pt.measured, FLOORS.get(pt.metric, 1.0)) for pt in base.points])
    runs = 0

    def values_of(u: np.ndarray) -> dict[str, float]:
        return {p.path: float(v) for p, v in zip(params, lo + np.clip(u, 0.0, 1.0) * (hi - lo))}

    def predict(vals: Mapping[str, float]) -> list[float]:
        nonlocal runs
        if cancelled is not None and cancelled():
            raise CalibrationCancelled()
        cat = catalog
        rates_vals = {k: v for k, v in vals.items() if k != READ_HIT}
        if rates_vals:
            alt = platform_with(pf, rates_vals, catalog, params)
            cat = dataclasses.replace(catalog, platforms={**catalog.platforms, pf.id: alt})
        rp = build_replay(project, data, _cores(pf), vals.get(READ_HIT)) if READ_HIT in vals else base
        res = simulate(rp.project, cat, rp.scenario)
        runs += 1
        if progress is not None:
            progress(runs)
        return rp.predicted(res)

    def fun(u: np.ndarray) -> np.ndarray:
        pred = np.array(predict(values_of(u)))
        r = (pred - measured) / scale
        return np.where(np.isfinite(r), r, 1.0)  # no prediction where one was measured: a miss

    u0 = (x0 - lo) / (hi - lo)
    before = predict(values_of(u0))
    fit = least_squares(fun, u0, bounds=(0.0, 1.0), method="trf", diff_step=0.02, x_scale=1.0,
                        ftol=1e-6, xtol=1e-6, max_nfev=max_evaluations)
    if fit.status == 3 and fit.cost > 1e-12 and fit.nfev < max_evaluations:
        # the trust region collapsed on a kink (a cap changing hands, the cache filling a step
        # earlier): one restart from there with a fresh region and finer differences
        again = least_squares(fun, fit.x, bounds=(0.0, 1.0), method="trf", diff_step=0.005, x_scale=1.0,
                              ftol=1e-6, xtol=1e-6, max_nfev=max_evaluations - fit.nfev)
        if again.cost < fit.cost:
            fit = again
    jac_norm = np.linalg.norm(fit.jac, axis=0) if fit.jac is not None else np.zeros(len(params))
    identified = jac_norm > 1e-9
    u = np.where(identified, fit.x, u0)  # a parameter the data does not see stays as it was
    vals = values_of(u)
    after = predict(vals)

    created = now or _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    base_id = project.calibration.base_platform_id if project.calibration else pf.id
    new_id = base_id + CALIBRATED_SUFFIX
    source = (f"calibrated {created[:10]} to measured data {data.source} ({len(data.times())} intervals; "
              f"bounded least squares, docs/measured-data.md)")
    rates_vals = {k: v for k, v in vals.items() if k != READ_HIT}
    stderr, notes = _confidence(fit, identified, hi - lo, len(base.points))
    moves = [ParameterMove(p.path, p.value, vals[p.path], p.low, p.high, p.about, bool(ok), se)
             for p, ok, se in zip(params, identified, stderr)]
    # the fit's confidence travels with the calibrated values, as their ranges (the uncertainty bands)
    ranges = {m.path: r for m in moves if m.path != READ_HIT and (r := range_of(m)) is not None}
    platform = platform_with(pf, rates_vals, catalog, params, platform_id=new_id, source=source, ranges=ranges)
    from app.store.toml_write import platform_snapshot_text

    snapshot = platform_snapshot_text(platform)
    metrics = sorted({pt.metric for pt in base.points})

    def rms_of(pred: list[float]) -> dict[str, float]:
        return {m: round(rms(v - pt.measured for pt, v in zip(base.points, pred) if pt.metric == m), 4) for m in metrics}

    hits = {}
    if READ_HIT in vals:
        targets = set(base.source_workloads.values()) if base.measured_luns else {w.id for w in project.workloads}
        hits = {w: vals[READ_HIT] for w in targets}
    cal = Calibration(
        base_platform_id=base_id, platform_id=new_id, source=data.source, intervals_used=len(data.times()),
        objects_used=sorted({pt.key for pt in base.points}),
        first_start=min(data.times()), last_start=max(data.times()), parameters=moves,
        rms_before=rms_of(before), rms_after=rms_of(after),
        points={m: sum(1 for pt in base.points if pt.metric == m) for m in metrics}, created=created,
        engine_runs=runs, notes=notes)
    return CalibrationResult(cal, vals, platform, snapshot, base, before, after, hits, time.perf_counter() - t0)


def _confidence(fit, identified: np.ndarray, span: np.ndarray, n_values: int) -> tuple[list[float | None], list[str]]:
    """Standard errors of the identified parameters from the Jacobian at the fit (Gauss-Newton:
    cov = s^2 (J'J)^-1, s^2 the residual variance), in the parameters' units; and notes on what
    limits the fit (fewer values than parameters, parameters the data cannot tell apart)."""
    out: list[float | None] = [None] * len(identified)
    notes = []
    cols = np.flatnonzero(identified)
    dof = n_values - len(cols)
    if len(cols) and dof <= 0:
        notes.append(f"{n_values} compared values for {len(cols)} identified parameters: the fit is "
                     f"underdetermined (measure more intervals or objects); the values found are one of many")
        return out, notes
    if not len(cols):
        return out, notes
    J = fit.jac[:, cols]
    rank = np.linalg.matrix_rank(J, tol=1e-8 * max(1.0, float(np.abs(J).max())))
    if rank < len(cols):
        notes.append(f"the measured data moves the model along {rank} directions for {len(cols)} parameters: "
                     f"some of them cannot be told apart")
        return out, notes
    s2 = 2.0 * float(fit.cost) / dof
    cov = s2 * np.linalg.inv(J.T @ J)
    for k, j in enumerate(cols):
        out[j] = float(np.sqrt(max(cov[k, k], 0.0)) * span[j])
    return out, notes


class CalibrationCancelled(Exception):
    """The caller asked the fit to stop (between engine runs)."""


def describe(cal: Calibration) -> list[str]:
    """The calibration as lines of text (CLI, GUI, report): parameters moved and the RMS error."""
    lines = [f"Calibrated {cal.base_platform_id} -> {cal.platform_id} to {cal.source}: "
             f"{cal.intervals_used} intervals, {sum(cal.points.values())} compared values "
             f"({', '.join(f'{n} {m}' for m, n in cal.points.items())}), {cal.engine_runs} engine runs"]
    for p in cal.parameters:
        if not p.identified:
            lines.append(f"  {p.path}: {p.before:.4g} (not identified by this data: unchanged)")
            continue
        moved = f"{p.moved_pct:+.1f}%" if math.isfinite(p.moved_pct) else "from 0"
        edge = " (at a bound)" if p.at_bound else ""
        se = f" +/- {p.stderr:.2g}" if p.stderr is not None else ""
        lines.append(f"  {p.path}: {p.before:.4g} -> {p.after:.4g}{se} ({moved}; bounds {p.low:g}-{p.high:g}){edge}")
    units = {"response_ms": "ms", "util_pct": "% points"}
    for m in cal.rms_before:
        lines.append(f"  RMS error {m}: {cal.rms_before[m]:.3g} -> {cal.rms_after[m]:.3g} {units.get(m, '')}")
    lines += [f"  note: {n}" for n in cal.notes]
    return lines


# ---------------------------------------------------------------- measured against predicted

def compare(project: Project, catalog: Catalog, data: MeasuredData | None = None) -> Comparison:
    """The measured data against the prediction with the engine (app.domain.measured_replay.compare)."""
    from app.engine import simulate

    try:
        return compare_replay(project, catalog, simulate, data)
    except ValueError as exc:
        raise CalibrationError(str(exc)) from None
