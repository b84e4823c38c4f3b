"""The report's "Measured against predicted" section (docs/measured-data.md): where the project
has measured data, the file and what was compared, the calibration's provenance (parameters
moved, RMS error before and after), and one chart per compared metric with the measured values
as dots over the predicted steps (the uncalibrated prediction dashed, for a calibrated project).
The replay runs here, on the engine, like the scenarios' predictions.
"""
from __future__ import annotations

import math
import time

import numpy as np

from app.domain.formatting import format_count, format_sig
from app.domain.measured_replay import compare

from .content import Chart, ChartSeries, Col, Row

MAX_OBJECTS = 6  # objects per chart (the rest named in the caption)
TITLES = {"response_ms": ("LUN response time, measured and predicted", "ms"),
          "util_pct": ("Utilization, measured and predicted", "%")}


def _steps(points, values) -> tuple[np.ndarray, np.ndarray, float]:
    order = sorted(range(len(points)), key=lambda i: points[i].start_h)
    t = np.array([points[i].start_h for i in order], float)
    v = np.array([values[i] for i in order], float)
    return t, v, points[order[-1]].end_h


def section_measured(b) -> None:
    """Append the section to ReportBuilder `b`."""
    from app.engine import simulate

    p = b.project
    data = p.measured
    b.heading("Measured against predicted", 1)
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(data.start))
    b.para(f"Measured data {data.source} ({data.format}): {format_count(len(data.intervals))} intervals of "
           f"{format_count(len(data.objects()))} objects from {when}"
           + (f"; {format_count(data.skipped_count)} lines were skipped on import" if data.skipped_count else "")
           + ". The measured load (IOPS, read %, I/O size of each mapped LUN) is replayed on this configuration; "
             "the predicted response times and utilizations are compared with the measured ones.", "note")
    try:
        cmp_ = compare(p, b.catalog, simulate)
    except (KeyError, ValueError) as exc:
        b.para(f"The measured load could not be replayed: {exc}.")
        return
    cal = p.calibration
    if cal is not None:
        b.heading("Calibration", 2)
        b.para(f"The platform {cal.platform_id} was calibrated on {cal.created[:10]} from {cal.base_platform_id} to "
               f"{cal.source} ({cal.intervals_used} intervals, {sum(cal.points.values())} compared values) by "
               f"bounded least squares.", "note")
        rows = []
        for m in cal.parameters:
            change = (f"{m.moved_pct:+.1f}%" if m.identified and math.isfinite(m.moved_pct)
                      else "not identified: unchanged" if not m.identified else "")
            after = format_sig(m.after, 4) + (f" \u00b1 {format_sig(m.stderr, 2)}" if m.stderr is not None else "")
            rows.append(Row([m.path, format_sig(m.before, 4), after, change, f"{m.low:g}\u2013{m.high:g}"]))
        b.table([Col("Parameter", 2.6), Col("Before", 0.9, "right"), Col("After", 0.9, "right"),
                 Col("Change", 1.6, "right"), Col("Bounds", 1.0, "right")], rows)
        units = {"response_ms": "ms", "util_pct": "% points"}
        b.table([Col("RMS error", 2.0), Col("Uncalibrated", 1.2, "right"), Col("Calibrated", 1.2, "right"),
                 Col("Values", 0.8, "right")],
                [Row([f"{m} ({units.get(m, '')})", format_sig(cal.rms_before[m], 3), format_sig(cal.rms_after[m], 3),
                      format_count(cal.points.get(m, 0))]) for m in cal.rms_before])
        for note in cal.notes:
            b.para(f"Note: {note}.", "note")
        b.para("\u00b1: the fit's standard error (linearized at the fit, from the residual scatter).", "note")
    points = cmp_.replay.points
    if not points:
        b.para("Nothing to compare: no mapped object has a response time (LUNs) or a utilization (groups, drives, "
               "SPs) measured.")
        return
    horizon = max(pt.end_h for pt in points)
    for metric, (title, unit) in TITLES.items():
        keys = list(dict.fromkeys(pt.key for pt in points if pt.metric == metric))
        if not keys:
            continue
        series = []
        for n, key in enumerate(keys[:MAX_OBJECTS]):
            idx = [i for i, pt in enumerate(points) if pt.key == key and pt.metric == metric]
            pts = [points[i] for i in idx]
            label = cmp_.labels.get(key, key)
            t, v, end = _steps(pts, [cmp_.now[i] for i in idx])
            series.append(ChartSeries(f"{label} predicted", t, v, color=n, end_h=end))
            if cmp_.uncalibrated is not None:
                t, v, end = _steps(pts, [cmp_.uncalibrated[i] for i in idx])
                series.append(ChartSeries(f"{label} uncalibrated", t, v, color=n, dashed=True, end_h=end))
            series.append(ChartSeries(f"{label} measured", np.array([pt.hour for pt in pts]),
                                      np.array([pt.measured for pt in pts]), color=n, markers=True))
        caption = "Dots: measured (at each interval's middle); lines: predicted for the same load."
        if len(keys) > MAX_OBJECTS:
            caption += f" Not drawn: {', '.join(cmp_.labels.get(k, k) for k in keys[MAX_OBJECTS:])}."
        b.blocks.append(Chart(title, unit, series, horizon, 100.0 if unit == "%" else None, caption,
                              x_title="time from the first measured interval"))
