"""Two scenarios side by side: every figure the engine predicts for both, with the difference.

    rows = compare(current, baseline, current_project, baseline_project, catalog)

`current` and `baseline` are Results; the projects are each scenario's effective project
(app.domain.overlay.effective_project: a scenario with a configuration of its own has other
drives, groups or features than the base), used for what the configuration decides without a
run: usable capacity, drive count and the configuration differences themselves. Used by the
comparison table (app/ui/scenarios.py), its CSV export and the report (app/report/content.py),
so the three show the same rows.

Verdicts ("worse", "better", neither) are decided here, not from the sign of the difference
alone: higher is better for IOPS, MTTDL and capacity, lower for durations and response times,
and a plan with an operation that does not finish is never better than one whose operations do
(a drive failure that stops every operation ends the plan earlier: that is not a shorter plan).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

NOT_FINISHED = "not finished"
ABSENT = "absent"

# the utilisation series a "busiest component" is looked for in, and how each entity is named
_BUSY_METRICS = (("group_pct", "RAID group"), ("port_pct", "port"), ("cpu_pct", "controller CPU"),
                 ("bus_pct", "bus"), ("ctrl_limit_pct", "controller limit"))


SECTION_TITLES = {"Operations": "Operations (duration)", "Workloads": "Workloads (peak response time)",
                  "Mean response": "Workloads (mean response time)",
                  "Read/write response": "Workloads (mean response time of reads and of writes)",
                  "IOPS": "Workloads (IOPS served, mean)",
                  "Unserved": "Workloads (unserved IOPS, peak)", "Array": "Array",
                  "Configuration": "Configuration differences"}


@dataclass
class CompareRow:
    # "Plan", "Operations", "Workloads" (peak response), "Mean response", "IOPS" (served, mean),
    # "Unserved" (peak), "Array", "Configuration": SECTION_TITLES
    section: str
    key: str  # what the row is about, stable across edits (event id, workload id + figure ...)
    label: str  # as the user names it
    baseline: float | None  # None: not in that scenario (see *_missing); NaN: no I/O
    current: float | None
    unit: str  # "h", "ms", "IOPS", "%", "GB", "drives", "MTTDL" or "" (a text row)
    note: str = ""
    baseline_missing: str = ABSENT
    current_missing: str = ABSENT
    higher_is_better: bool | None = False  # None: neither (a drive count)
    # set when the verdict is not the difference's sign (an unfinished plan); None: from the sign
    forced_worse: bool | None = None
    # the texts of a row that is not a number (a configuration difference, a component's name)
    baseline_text: str | None = None
    current_text: str | None = None
    # which scenarios break the workload's response-time target: subset of {"baseline", "current"}
    sla_broken: frozenset[str] = field(default_factory=frozenset)

    @property
    def delta(self) -> float | None:
        if self.baseline is None or self.current is None or math.isnan(self.baseline) or math.isnan(self.current):
            return None
        return self.current - self.baseline

    @property
    def delta_pct(self) -> float | None:
        if self.delta is None or not self.baseline or math.isinf(self.baseline):
            return None
        return 100.0 * self.delta / self.baseline

    @property
    def worse(self) -> bool | None:
        """True: the current scenario is worse here; False: better; None: the same, or neither."""
        if self.forced_worse is not None:
            return self.forced_worse
        d = self.delta
        if d is None or abs(d) < 1e-9 * max(1.0, abs(self.baseline or 0.0)) or self.higher_is_better is None:
            return None
        if math.isinf(self.baseline or 0.0) and math.isinf(self.current or 0.0):
            return None
        return (d < 0) if self.higher_is_better else (d > 0)


def _time_mean(series, horizon_h: float, skip_nan: bool = True) -> float:
    """The time-weighted mean of a series over the plan, to `horizon_h` (a step's value holds
    to the next breakpoint, the last one to the plan's end); steps without a value (a response
    time where nothing completed I/O) left out unless skip_nan is False. NaN: no value at all."""
    if series is None or not len(series.v):
        return float("nan")
    t = np.append(np.asarray(series.t, float), max(float(horizon_h), float(series.t[-1])))
    v = np.asarray(series.v, float)
    widths = np.diff(t)
    if getattr(series, "linear", False):  # trapezoids between the points, the last value held
        values = np.append((v[:-1] + v[1:]) / 2, v[-1])
    else:
        values = v
    ok = ~np.isnan(values) if skip_nan else np.ones(len(values), bool)
    total = widths[ok].sum()
    if not ok.any():
        return float("nan")
    if total <= 0:  # a plan of no length: its one value
        return float(values[ok][-1])
    return float(np.nansum(values[ok] * widths[ok]) / total)


def _unfinished(result) -> list:
    return [o for o in result.operations if o.end_h is None]


def _names(result, project) -> dict[str, str]:
    names = {w.id: (w.name or w.id) for w in project.workloads} if project is not None else {}
    labels = getattr(result, "labels", None)
    if labels is not None and labels.workloads:
        names.update(labels.workloads)
    return names


def _group_names(result, project, platform) -> dict[int, str]:
    """Each RAID group as the user knows it: its own name, else the platform's noun ("Disk Group
    3", "RAID Group 3"), never the engine's "RG 3". The run's labels come first (the names it was
    computed with); a label that is only the default "RG n" is no name of the user's."""
    from app.domain.hardware import group_title

    typed: dict[int, str] = {}
    if project is not None:
        typed = {g.id: g.name for g in project.groups if g.name}
    labels = getattr(result, "labels", None)
    if labels is not None and labels.groups:
        typed = {int(k): v for k, v in labels.groups.items() if v and v != f"RG {k}"}
        ids = {int(k) for k in labels.groups}
    else:
        ids = {g.id for g in project.groups} if project is not None else set()
    ids |= set(result.mttdl_h) | {int(e) for e in result.entities("group_pct") if str(e).isdigit()}
    return {gid: group_title(platform, gid, typed.get(gid, "")) for gid in ids}


def _busiest(result, project, platform=None) -> tuple[float | None, str]:
    """The highest utilisation any component reaches, and which: "Disk Group 3", "SP A (port)",
    a group the user named: "Tier 1 (disk group)"."""
    from app.domain.hardware import group_noun

    best, where = None, ""
    groups = _group_names(result, project, platform)
    for metric, noun in _BUSY_METRICS:
        for ent in result.entities(metric):
            s = result.get(metric, ent)
            if s is None:
                continue
            peak = s.peak()
            if math.isnan(peak):
                continue
            if best is None or peak > best + 1e-9:
                if metric == "group_pct":
                    gid = int(ent) if str(ent).isdigit() else None
                    name = groups.get(gid) if gid is not None else None
                    default = name is None or name.startswith(group_noun(platform) + " ")
                    where = (name or ent) if default else f"{name} ({group_noun(platform, in_sentence=True)})"
                else:
                    where = f"{ent} ({noun})"
                best = peak
    return best, where


def _worst_mttdl(result, project, platform=None) -> tuple[float | None, str]:
    if not result.mttdl_h:
        return None, ""
    gid, h = min(result.mttdl_h.items(), key=lambda kv: kv[1])
    return h, _group_names(result, project, platform).get(gid, str(gid))


def _op_namer(current, baseline, current_project, baseline_project, platform):
    """An operation's label with its RAID group as the user names it: the engine labels
    "Rebuild drive 0_0_4 of RG 0 (High)"; the comparison says "... of Disk Group 0 (High)"."""
    from app.domain.user_names import GROUP_REF

    groups = _group_names(baseline, baseline_project, platform) | _group_names(current, current_project, platform)

    def named(label: str) -> str:
        if "RG " not in label:
            return label
        return GROUP_REF.sub(lambda m: groups.get(int(m.group(1)), m.group(0)), label)
    return named


def _platform(catalog, project):
    platforms = getattr(catalog, "platforms", None) or {}
    return platforms.get(getattr(project, "platform_id", None))


def compare(current, baseline, current_project=None, baseline_project=None, catalog=None,
            feature_names: dict[str, str] | None = None) -> list[CompareRow]:
    """The comparison's rows, section by section (see the module docstring)."""
    rows: list[CompareRow] = []
    cur_unfinished, base_unfinished = _unfinished(current), _unfinished(baseline)
    op_name = _op_namer(current, baseline, current_project, baseline_project,
                        _platform(catalog, current_project or baseline_project))

    # ---- the plan as a whole
    plan = CompareRow("Plan", "horizon", "Plan length", baseline.horizon_h, current.horizon_h, "h")
    if cur_unfinished or base_unfinished:
        # a plan that stops with operations running has no length to compare: its end is the
        # last event, not the end of the work
        if cur_unfinished:
            plan.current, plan.current_missing = None, NOT_FINISHED
        if base_unfinished:
            plan.baseline, plan.baseline_missing = None, NOT_FINISHED
        plan.forced_worse = (True if cur_unfinished and not base_unfinished
                             else False if base_unfinished and not cur_unfinished else None)
    rows.append(plan)
    rows.append(CompareRow("Plan", "unfinished", "Operations not finished", float(len(base_unfinished)),
                           float(len(cur_unfinished)), "count",
                           note=", ".join(op_name(o.label) for o in cur_unfinished[:3]) + (" ..." if len(cur_unfinished) > 3 else "")))

    # ---- operations, by event id (names: their labels)
    cur_ops = {o.event_id: o for o in current.operations}
    base_ops = {o.event_id: o for o in baseline.operations}
    for eid in list(base_ops) + [k for k in cur_ops if k not in base_ops]:
        c, b = cur_ops.get(eid), base_ops.get(eid)
        if c is not None and b is not None:
            note = f"{b.priority} -> {c.priority}" if c.priority != b.priority else c.priority
        else:
            note = "only in " + ("current" if c is not None else "baseline")
        row = CompareRow("Operations", eid, op_name((c or b).label),
                         b.duration_h if b is not None else None, c.duration_h if c is not None else None, "h",
                         note, ABSENT if b is None else NOT_FINISHED, ABSENT if c is None else NOT_FINISHED)
        if c is not None and b is not None and (c.end_h is None) != (b.end_h is None):
            row.forced_worse = c.end_h is None  # finishing beats any duration
        rows.append(row)

    # ---- workloads, by id, named as the runs named them
    names = _names(baseline, baseline_project) | _names(current, current_project)
    targets: dict[str, float] = {}
    for p in (baseline_project, current_project):
        for w in (p.workloads if p is not None else ()):
            if w.response_target_ms:
                targets.setdefault(w.id, w.response_target_ms)
    wids = sorted(set(current.entities("response_ms")) | set(baseline.entities("response_ms")),
                  key=lambda w: (names.get(w, w).lower(), w))
    peak_rows, mean_rows, rw_rows, iops_rows, unserved_rows = [], [], [], [], []
    for wid in wids:
        name = names.get(wid, wid)
        cr, br = current.get("response_ms", wid), baseline.get("response_ms", wid)
        peak = CompareRow("Workloads", wid, name,
                          br.peak() if br is not None else None, cr.peak() if cr is not None else None, "ms")
        target = targets.get(wid)
        if target:
            broken = {side for side, v in (("baseline", peak.baseline), ("current", peak.current))
                      if v is not None and not math.isnan(v) and v > target}
            peak.sla_broken = frozenset(broken)
            peak.note = f"target {target:g} ms" + (": broken in " + " and ".join(sorted(broken)) if broken else "")
            if broken == {"current"}:
                peak.forced_worse = True  # a broken target is worse whatever the size of the step
        peak_rows.append(peak)
        mean_rows.append(CompareRow("Mean response", wid, name,
                                    _time_mean(br, baseline.horizon_h) if br is not None else None,
                                    _time_mean(cr, current.horizon_h) if cr is not None else None, "ms"))
        # reads and writes apart: a write-back cache can hide a slower back end from writes only
        for metric, what in (("response_read_ms", "reads"), ("response_write_ms", "writes")):
            cs, bs = current.get(metric, wid), baseline.get(metric, wid)
            if cs is not None or bs is not None:
                rw_rows.append(CompareRow("Read/write response", f"{wid}:{what}", f"{name}: {what}",
                                          _time_mean(bs, baseline.horizon_h) if bs is not None else None,
                                          _time_mean(cs, current.horizon_h) if cs is not None else None, "ms"))
        ci, bi = current.get("iops", wid), baseline.get("iops", wid)
        iops_rows.append(CompareRow("IOPS", wid, name,
                                    _time_mean(bi, baseline.horizon_h, skip_nan=False) if bi is not None else None,
                                    _time_mean(ci, current.horizon_h, skip_nan=False) if ci is not None else None,
                                    "IOPS", higher_is_better=True))
        cu, bu = current.get("unserved_iops", wid), baseline.get("unserved_iops", wid)
        peaks = [s.peak() if s is not None else 0.0 for s in (bu, cu)]
        if any(p and p > 1e-6 for p in peaks):  # demand the array could not serve: saturation
            unserved_rows.append(CompareRow("Unserved", wid, name, peaks[0], peaks[1], "IOPS",
                                            note="demand beyond what the array serves"))
    rows += peak_rows + mean_rows + rw_rows + iops_rows + unserved_rows

    # ---- the array
    from app.domain.hardware import group_noun

    platform = _platform(catalog, current_project) or _platform(catalog, baseline_project)
    bb, bwhere = _busiest(baseline, baseline_project, platform)
    cb, cwhere = _busiest(current, current_project, platform)
    if bb is not None or cb is not None:
        # more utilisation is neither better nor worse by itself (it serves more I/O): neutral
        rows.append(CompareRow("Array", "busiest", "Busiest component (peak)", bb, cb, "%",
                               note=cwhere if cwhere == bwhere else f"{bwhere} -> {cwhere}", higher_is_better=None))
    bm, bml = _worst_mttdl(baseline, baseline_project, platform)
    cm, cml = _worst_mttdl(current, current_project, platform)
    if bm is not None or cm is not None:
        rows.append(CompareRow("Array", "mttdl", f"MTTDL (worst {group_noun(platform, in_sentence=True)})",
                               bm, cm, "MTTDL",
                               note=cml if cml == bml else f"{bml} -> {cml}", higher_is_better=True))
    if catalog is not None and current_project is not None and baseline_project is not None:
        from app.domain.capacity import capacity_summary

        try:
            _, btot = capacity_summary(baseline_project, catalog)
            _, ctot = capacity_summary(current_project, catalog)
        except (KeyError, ValueError):  # a drive type the catalog lacks: validation reports it
            btot = ctot = None
        if btot is not None and ctot is not None:
            rows.append(CompareRow("Array", "usable", "Usable capacity", btot.usable_gb, ctot.usable_gb, "GB",
                                   higher_is_better=True))
        rows.append(CompareRow("Array", "drives", "Drives", float(len(baseline_project.drives)),
                               float(len(current_project.drives)), "drives", higher_is_better=None))

    # ---- the configuration differences themselves
    if current_project is not None and baseline_project is not None and current_project is not baseline_project:
        from app.domain.overlay import differences

        for d in differences(baseline_project, current_project, feature_names, platform):
            rows.append(CompareRow("Configuration", f"{d.section}:{d.what}", d.what, None, None, "",
                                   baseline_text=d.base, current_text=d.scenario, higher_is_better=None))
    return rows


def _plain(v: Any) -> Any:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else v


def csv_rows(rows: list[CompareRow], baseline_name: str, current_name: str) -> list[list[Any]]:
    """The rows for a CSV file: section, item, unit, both values, the difference, the verdict and
    the note; numbers unformatted (a spreadsheet's to format), texts as shown."""
    out: list[list[Any]] = [["section", "item", "unit", baseline_name, current_name, "difference",
                             "difference %", "verdict", "note"]]
    for r in rows:
        verdict = {True: "worse", False: "better", None: ""}[r.worse]
        if r.sla_broken:
            verdict = (verdict + "; " if verdict else "") + "target broken in " + " and ".join(sorted(r.sla_broken))
        base = r.baseline_text if r.baseline_text is not None else (_plain(r.baseline) if r.baseline is not None
                                                                     else r.baseline_missing)
        cur = r.current_text if r.current_text is not None else (_plain(r.current) if r.current is not None
                                                                  else r.current_missing)
        out.append([r.section, r.label, r.unit, base, cur, _plain(r.delta), _plain(r.delta_pct), verdict, r.note])
    return out


def _format(v: float, unit: str) -> str:
    from app.domain import formatting as f

    if unit == "ms":
        return f.format_response(v)  # NaN: "no I/O"
    if unit == "h":
        return f.format_duration(v)
    if unit == "IOPS":
        return f.format_iops(v)
    if unit == "%":
        return f.format_pct(v)
    if unit == "GB":
        return f.format_capacity(v)
    if unit == "MTTDL":  # short: the table's columns sit side by side in a narrow dock
        return (f.format_mttdl(v).replace(" million years", "M years").replace(" billion years", "bn years")
                .replace(" years", " y"))
    if unit in ("drives", "count"):
        return f.format_count(v)
    return f.format_sig(v)


def value_text(row: CompareRow, side: str) -> str:
    """The baseline's or the current scenario's cell ("baseline" / "current"), as shown."""
    text = row.baseline_text if side == "baseline" else row.current_text
    if text is not None:
        return text
    v = row.baseline if side == "baseline" else row.current
    if v is None:
        return row.baseline_missing if side == "baseline" else row.current_missing
    return _format(v, row.unit)


def delta_text(row: CompareRow, compact: bool = False) -> str:
    """'+57.9 ms (+486%)'; compact (a narrow table): '+486%'; a forced verdict with no number
    to show says why ('worse: not finished')."""
    from app.domain.formatting import DASH

    if row.baseline_text is not None or row.current_text is not None:
        return "changed"
    d = row.delta
    if d is None:
        if row.forced_worse is not None:
            return "worse: not finished" if row.forced_worse else "better: finishes"
        return DASH
    if abs(d) < 1e-9 * max(1.0, abs(row.baseline or 0.0)) or (
            math.isinf(row.baseline or 0.0) and math.isinf(row.current or 0.0)):
        return "same"
    pct = row.delta_pct
    if compact and pct is not None:
        return f"{pct:+.0f}%"
    sign = "+" if d > 0 else "-"
    if row.unit == "MTTDL":
        text = sign + _format(abs(d), "MTTDL")
    elif row.unit == "ms":
        from app.domain.formatting import format_ms

        text = sign + format_ms(abs(d))
    else:
        text = sign + _format(abs(d), row.unit)
    if pct is not None:
        text += f" ({pct:+.0f}%)"
    return text
