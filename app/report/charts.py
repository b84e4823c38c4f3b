"""Vector charts for the PDF: step lines of the Result's piecewise-constant Series (straight lines
for the linear ones: operation progress), drawn with QPainter paths (sharp at any print
resolution). Axes, ticks, gridlines, labels and a legend.

All sizes are in points; `u` converts points to device units (device dpi / 72).
"""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF

from app.domain.formatting import format_pct, format_sig, format_time

from .content import Chart
from .fonts import make_font

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#7f7f7f", "#bcbd22"]

TARGET_COLOR = "#222222"
PLOT_H = 128.0  # plot area height, pt
TITLE_H = 22.0
AXIS_H = 26.0  # x tick labels + axis title
LEGEND_ROW_H = 12.0
Y_LABEL_W = 44.0


def nice_step(span: float, target_ticks: int = 5) -> float:
    if span <= 0:
        return 1.0
    raw = span / target_ticks
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def time_step(horizon_h: float) -> float:
    """Tick spacing in hours for a time axis of this length (about 6-10 ticks)."""
    for step in (1 / 60, 1 / 30, 1 / 12, 1 / 6, 0.25, 0.5, 1, 2, 3, 4, 6, 12, 24, 48, 72, 168, 336, 720):
        if horizon_h / step <= 10:
            return step
    return nice_step(horizon_h, 8)


def time_tick_label(t: float, step: float) -> str:
    """'2:30' (plan time, as everywhere), or '3 d' on an axis ticked in whole days."""
    if step >= 24 and abs(t / 24 - round(t / 24)) < 1e-9:
        return f"{round(t / 24)} d"
    return format_time(t)


def y_top(chart: Chart) -> float:
    # fmax: a response time's NaN cells (no I/O) left out
    peaks = [float(np.fmax.reduce(np.asarray(s.v, float))) for s in chart.series if len(s.v)]
    # a band's P90 may lie above its line: the axis holds it too
    peaks += [float(np.fmax.reduce(s.band[2])) for s in chart.series if s.band is not None and len(s.band[2])]
    peak = max((x for x in peaks if not math.isnan(x)), default=0.0)
    peak = max([peak] + [v for v, _ in chart.targets])
    if chart.y_max is not None:
        return max(chart.y_max, peak)
    if peak <= 0:
        return 1.0
    step = nice_step(peak * 1.1)
    return math.ceil(peak * 1.1 / step) * step


def tick_label(value: float, unit: str) -> str:
    if unit == "%":
        return format_pct(value)
    return format_sig(value)


def step_points(t: np.ndarray, v: np.ndarray, horizon: float, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (time, value) of a step line over [0, horizon], reduced so no more than about
    4 vertices fall in one of `columns` columns (min/max envelope): 100,000 breakpoints draw as
    fast as 1,000 and look the same."""
    t = np.asarray(t, dtype=float)
    v = np.asarray(v, dtype=float)
    if not len(t):
        return np.array([0.0, horizon]), np.array([0.0, 0.0])
    keep = t <= horizon
    if not keep.any():
        keep[0] = True
    t, v = t[keep], v[keep]
    if len(t) > 2 * columns:
        col = np.floor(np.clip(t / max(horizon, 1e-12), 0, 1) * columns).astype(np.int64)
        starts = np.flatnonzero(np.r_[True, col[1:] != col[:-1]])
        vmin = np.fmin.reduceat(v, starts)  # fmin/fmax: NaN (no I/O) only where a column has nothing else
        vmax = np.fmax.reduceat(v, starts)
        ends = np.r_[starts[1:], len(v)] - 1
        first, last = v[starts], v[ends]
        tg = t[starts]
        xs, ys = [], []
        prev = None
        for i in range(len(starts)):
            x = tg[i]
            if prev is not None:
                xs.append(x), ys.append(prev)
            xs += [x, x, x, x]
            ys += [first[i], vmin[i], vmax[i], last[i]]
            prev = last[i]
        xs.append(horizon), ys.append(prev)
        return np.array(xs), np.array(ys)
    xs = np.empty(2 * len(t))
    ys = np.empty(2 * len(t))
    xs[0::2] = t
    ys[0::2] = v
    xs[1:-1:2] = t[1:]
    ys[1:-1:2] = v[:-1]
    xs[-1] = horizon
    ys[-1] = v[-1]
    return xs, ys


def line_points(t: np.ndarray, v: np.ndarray, horizon: float) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of a linear series (Series.linear: progress) over [0, horizon]: its own points,
    held at the last value to the horizon. Such series have one point per engine step of the
    operation, few enough to draw as they are."""
    t = np.asarray(t, dtype=float)
    v = np.asarray(v, dtype=float)
    if not len(t):
        return np.array([0.0, horizon]), np.array([0.0, 0.0])
    keep = t <= horizon
    t, v = (t[keep], v[keep]) if keep.any() else (t[:1], v[:1])
    return np.r_[t, horizon], np.r_[v, v[-1]]


def series_points(s, horizon: float, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of one chart line over the chart's [0, horizon]: up to the line's own end when
    its plan ends sooner (a pinned baseline's curve stops there, as in the GUI, rather than run
    flat to this plan's end)."""
    end = horizon if s.end_h is None else max(min(float(s.end_h), horizon), 0.0)
    if s.linear:
        return line_points(s.t, s.v, end)
    return step_points(s.t, s.v, end, max(int(columns * end / max(horizon, 1e-12)), 1))


BAND_ALPHA = 55  # of 255: a band under its line, in the line's colour (the lines stay readable)


def band_polygons(s, horizon: float, columns: int) -> list[list[tuple[float, float, float]]]:
    """The P10-P90 band of a chart line as runs of (t, low, high) vertices, split where either
    quantile is NaN (no I/O completed in the samples), stepped like the line (step_points: the
    same time vertices for both edges, since they come from the same grid)."""
    t, lo, hi = s.band
    end = horizon if s.end_h is None else max(min(float(s.end_h), horizon), 0.0)
    cols = max(int(columns * end / max(horizon, 1e-12)), 1)
    xs, ylo = step_points(t, lo, end, cols)
    _xs, yhi = step_points(t, hi, end, cols)
    runs: list[list[tuple[float, float, float]]] = []
    run: list[tuple[float, float, float]] = []
    for a, b, c in zip(xs.tolist(), ylo.tolist(), yhi.tolist()):
        if math.isnan(b) or math.isnan(c):
            if len(run) > 1:
                runs.append(run)
            run = []
        else:
            run.append((a, b, c))
    if len(run) > 1:
        runs.append(run)
    return runs


def series_pen(chart: Chart, i: int, width: float) -> QPen:
    """Series i's pen: its palette colour (a baseline line takes its counterpart's), dashed for
    baseline lines and once the palette has been used up."""
    s = chart.series[i]
    k = s.color if s.color >= 0 else i
    pen = QPen(QColor(PALETTE[k % len(PALETTE)]))
    pen.setWidthF(width)
    if s.dashed or k >= len(PALETTE):
        pen.setStyle(Qt.DashLine)
    return pen


class ChartPainter:
    def __init__(self, device, u: float, font_family: list[str]):
        self.u = u
        self.device = device
        self.font = make_font(7.0)
        self.title_font = make_font(9.0, bold=True)
        self.fm = QFontMetricsF(self.font, device)

    # -- geometry
    def legend_rows(self, chart: Chart, width_pt: float) -> list[list[tuple[int, str, float]]]:
        rows: list[list[tuple[int, str, float]]] = [[]]
        x = 0.0
        items = [(i, s.label) for i, s in enumerate(chart.series)]  # legend entries by series index
        if chart.marks:
            items.append((-1, "operation start"))
        for k, (_v, label) in enumerate(chart.targets):
            items.append((-2 - k, label))
        for i, label in items:
            w = 16 + self.fm.horizontalAdvance(label) / self.u + 14
            if rows[-1] and x + w > width_pt:
                rows.append([])
                x = 0.0
            rows[-1].append((i, label, x))
            x += w
        return rows

    def height_pt(self, chart: Chart, width_pt: float) -> float:
        h = TITLE_H + PLOT_H + AXIS_H + LEGEND_ROW_H * len(self.legend_rows(chart, width_pt - Y_LABEL_W)) + 4
        if chart.caption:
            h += 12
        return h

    # -- drawing
    def draw(self, p: QPainter, chart: Chart, x_pt: float, y_pt: float, width_pt: float) -> None:
        u = self.u
        p.save()
        p.setRenderHint(QPainter.Antialiasing, True)
        # title
        p.setFont(self.title_font)
        p.setPen(QColor("#222222"))
        unit_text = f" ({chart.unit})" if chart.unit else ""
        p.drawText(QPointF(x_pt * u, (y_pt + 11) * u), chart.title + unit_text)
        p.setFont(self.font)
        plot = QRectF((x_pt + Y_LABEL_W) * u, (y_pt + TITLE_H) * u, (width_pt - Y_LABEL_W - 6) * u, PLOT_H * u)
        horizon = chart.horizon_h if chart.horizon_h > 0 else 1.0  # an empty plan: one hour of axis
        top = y_top(chart)

        def X(t):
            return plot.left() + plot.width() * (t / horizon)

        def Y(v):
            return plot.bottom() - plot.height() * (v / top)

        grid = QPen(QColor("#dddddd"))
        grid.setWidthF(0.4 * u)
        axis = QPen(QColor("#555555"))
        axis.setWidthF(0.6 * u)
        text_pen = QPen(QColor("#333333"))
        # y grid + labels
        ystep = 20.0 if chart.unit == "%" and top <= 100 else nice_step(top, 5)
        k = 0
        while k * ystep <= top * 1.0001:
            val = k * ystep
            yy = Y(val)
            p.setPen(grid)
            p.drawLine(QPointF(plot.left(), yy), QPointF(plot.right(), yy))
            p.setPen(text_pen)
            label = tick_label(val, chart.unit)
            w = self.fm.horizontalAdvance(label)
            p.drawText(QPointF(plot.left() - w - 3 * u, yy + self.fm.ascent() / 2.6), label)
            k += 1
        # x grid + labels: plan time, or a value axis (the load sweep's offered IOPS)
        xstep = nice_step(horizon, 6) if chart.x_unit else time_step(horizon)
        k = 0
        last_right = -1e18
        while k * xstep <= horizon * 1.0001:
            tt = k * xstep
            xx = X(tt)
            p.setPen(grid)
            p.drawLine(QPointF(xx, plot.top()), QPointF(xx, plot.bottom()))
            label = f"{tt:,.0f}" if chart.x_unit else time_tick_label(tt, xstep)
            w = self.fm.horizontalAdvance(label)
            left = min(max(xx - w / 2, plot.left() - w / 2), plot.right() - w / 2)
            if left > last_right + 4 * u:
                p.setPen(text_pen)
                p.drawText(QPointF(left, plot.bottom() + self.fm.ascent() + 3 * u), label)
                last_right = left + w
            k += 1
        p.setPen(text_pen)
        if chart.x_unit:
            axis_title = f"{chart.x_title} ({chart.x_unit})"
        else:
            axis_title = (chart.x_title or "time from the start of the plan") + " (" + ("days" if xstep >= 24 else "h:mm") + ")"
        w = self.fm.horizontalAdvance(axis_title)
        p.drawText(QPointF(plot.center().x() - w / 2, plot.bottom() + 2 * self.fm.height() + 4 * u), axis_title)
        # shaded intervals (controller reboots: no host I/O), under everything else
        if chart.bands:
            band_pen = QPen(QColor(255, 140, 0, 150))
            band_pen.setWidthF(0.5 * u)
            for a, b, label in chart.bands:
                a, b = max(a, 0.0), min(b, horizon)
                if b <= a:
                    continue
                p.setPen(band_pen)
                p.setBrush(QColor(255, 140, 0, 45))
                p.drawRect(QRectF(QPointF(X(a), plot.top()), QPointF(X(b), plot.bottom())))
                p.setPen(QColor("#8a4b00"))
                lx = min(X(b) + 3 * u, plot.right() - self.fm.horizontalAdvance(label))
                p.drawText(QPointF(lx, plot.top() + self.fm.ascent() + 2 * u), label)
            p.setBrush(Qt.NoBrush)
        # operation start markers
        if chart.marks:
            mark = QPen(QColor("#777777"))
            mark.setWidthF(0.6 * u)
            mark.setStyle(Qt.DotLine)
            p.setPen(mark)
            for t0, _label in chart.marks:
                if 0 <= t0 <= horizon:
                    p.drawLine(QPointF(X(t0), plot.top()), QPointF(X(t0), plot.bottom()))
        # response-time targets
        if chart.targets:
            tpen = QPen(QColor(TARGET_COLOR))
            tpen.setWidthF(0.9 * u)
            tpen.setStyle(Qt.DashLine)
            p.setPen(tpen)
            for value, _label in chart.targets:
                p.drawLine(QPointF(plot.left(), Y(value)), QPointF(plot.right(), Y(value)))
        # series
        columns = int(plot.width() / u * 2)  # two vertices' columns per point of width
        p.setClipRect(plot.adjusted(-u, -u, u, u))
        # uncertainty bands, under every line
        for i, s in enumerate(chart.series):
            if s.band is None:
                continue
            fill = QColor(series_pen(chart, i, 1.0).color())
            fill.setAlpha(BAND_ALPHA)
            p.setPen(Qt.NoPen)
            p.setBrush(fill)
            for run in band_polygons(s, horizon, columns):
                poly = QPolygonF([QPointF(X(a), Y(c)) for a, _b, c in run]
                                 + [QPointF(X(a), Y(b)) for a, b, _c in reversed(run)])
                p.drawPolygon(poly)
            p.setBrush(Qt.NoBrush)
        for i, s in enumerate(chart.series):
            if s.markers:  # measured values: dots
                pen = series_pen(chart, i, 0.5 * u)
                pen.setStyle(Qt.SolidLine)
                p.setPen(QPen(QColor("#222222"), 0.4 * u))
                p.setBrush(pen.color())
                for a, b in zip(np.asarray(s.t, float).tolist(), np.asarray(s.v, float).tolist()):
                    if math.isfinite(b) and 0 <= a <= horizon:
                        p.drawEllipse(QPointF(X(a), Y(b)), 2.2 * u, 2.2 * u)
                p.setBrush(Qt.NoBrush)
                continue
            xs, ys = series_points(s, horizon, columns)
            path = QPainterPath()
            gap = True  # the line breaks at NaN (a response time where nothing completed I/O)
            for a, b in zip(xs.tolist(), ys.tolist()):
                if math.isnan(b):
                    gap = True
                elif gap:
                    path.moveTo(X(a), Y(b))
                    gap = False
                else:
                    path.lineTo(X(a), Y(b))
            pen = series_pen(chart, i, 1.1 * u)
            pen.setJoinStyle(Qt.MiterJoin)
            p.setPen(pen)
            p.setBrush(Qt.NoBrush)
            p.drawPath(path)
        p.setClipping(False)
        p.setPen(axis)
        p.setBrush(Qt.NoBrush)
        p.drawLine(plot.bottomLeft(), plot.bottomRight())
        p.drawLine(plot.bottomLeft(), plot.topLeft())
        # legend
        ly = y_pt + TITLE_H + PLOT_H + AXIS_H
        for row in self.legend_rows(chart, width_pt - Y_LABEL_W):
            for i, label, lx in row:
                x0 = (x_pt + Y_LABEL_W + lx) * u
                cy = (ly + LEGEND_ROW_H / 2) * u
                if i >= 0 and chart.series[i].markers:
                    p.setPen(QPen(QColor("#222222"), 0.4 * u))
                    p.setBrush(series_pen(chart, i, 1.0).color())
                    p.drawEllipse(QPointF(x0 + 6 * u, cy), 2.2 * u, 2.2 * u)
                    p.setBrush(Qt.NoBrush)
                    p.setPen(text_pen)
                    p.drawText(QPointF(x0 + 16 * u, cy + self.fm.ascent() / 2.6), label)
                    continue
                if i >= 0:
                    pen = series_pen(chart, i, 2.0 * u if not chart.series[i].dashed else 1.2 * u)
                elif i == -1:
                    pen = QPen(QColor("#777777"))
                    pen.setWidthF(0.8 * u)
                    pen.setStyle(Qt.DotLine)
                else:
                    pen = QPen(QColor(TARGET_COLOR))
                    pen.setWidthF(0.9 * u)
                    pen.setStyle(Qt.DashLine)
                p.setPen(pen)
                p.drawLine(QPointF(x0, cy), QPointF(x0 + 12 * u, cy))
                p.setPen(text_pen)
                p.drawText(QPointF(x0 + 16 * u, cy + self.fm.ascent() / 2.6), label)
            ly += LEGEND_ROW_H
        if chart.caption:
            p.setPen(QColor("#666666"))
            p.drawText(QPointF((x_pt + Y_LABEL_W) * u, (ly + 9) * u), chart.caption)
        p.restore()
