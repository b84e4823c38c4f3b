"""Measured against predicted (docs/measured-data.md): for each compared metric one plot, the
measured values as points at their intervals' middles over the predicted values as steps (one
per interval), per measured object in its own colour; a second prediction (uncalibrated, or the
fit's starting point) dashed. Hours from the first interval on the time axis.

    view = MeasuredCharts()
    view.show_points(points, {"calibrated": after, "uncalibrated": before}, labels)

The widget draws what it is given; the predictions come from app.service.calibrate (a worker
thread: the dialogs run it).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from .timeaxis import TimeAxisItem

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
MAX_OBJECTS = 8  # per plot; the rest are listed as left out
TITLES = {"response_ms": ("LUN response time: measured (points) and predicted (steps)", "ms"),
          "util_pct": ("Utilization: measured (points) and predicted (steps)", "%")}


def steps(points: Sequence, values: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """x (interval edges) and y (one value per interval) for a stepMode='center' curve; a gap
    between intervals is bridged by the earlier value."""
    order = sorted(range(len(points)), key=lambda i: points[i].start_h)
    xs = [points[i].start_h for i in order] + [points[order[-1]].end_h]
    ys = [values[i] if math.isfinite(values[i]) else np.nan for i in order]
    return np.asarray(xs, float), np.asarray(ys, float)


class MeasuredCharts(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(320)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.note)
        self.plots: dict[str, pg.PlotItem] = {}

    def show_points(self, points: Sequence, predictions: dict[str, Sequence[float]], labels: dict[str, str]) -> None:
        """`predictions`: name -> one value per point; the first is drawn solid, the others dashed."""
        self.graphics.clear()
        self.plots = {}
        left_out: list[str] = []
        names = list(predictions)
        for row, metric in enumerate(m for m in TITLES if any(p.metric == m for p in points)):
            title, unit = TITLES[metric]
            plot = self.graphics.addPlot(row=row, col=0, axisItems={"bottom": TimeAxisItem("bottom")})
            plot.setTitle(title, size="9pt")
            plot.setLabel("left", unit)
            plot.setLabel("bottom", "time from the first measured interval")
            plot.showGrid(x=True, y=True, alpha=0.2)
            # the legend beside the plot, not over it: the curves fill the whole plot
            legend = pg.LegendItem(labelTextSize="8pt", frame=False)
            self.graphics.addItem(legend, row=row, col=1)
            self.plots[metric] = plot
            keys = list(dict.fromkeys(p.key for p in points if p.metric == metric))
            if len(keys) > MAX_OBJECTS:
                left_out += keys[MAX_OBJECTS:]
                keys = keys[:MAX_OBJECTS]
            for n, key in enumerate(keys):
                color = QColor(PALETTE[n % len(PALETTE)])
                idx = [i for i, p in enumerate(points) if p.key == key and p.metric == metric]
                pts = [points[i] for i in idx]
                label = labels.get(key, key)
                for k, name in enumerate(names):
                    vals = [predictions[name][i] for i in idx]
                    x, y = steps(pts, vals)
                    pen = QPen(color, 2 if k == 0 else 1.4)
                    if k:
                        pen.setStyle(Qt.DashLine)
                    pen.setCosmetic(True)
                    curve = plot.plot(x, y, stepMode="center", pen=pen)
                    if k == 0:
                        legend.addItem(curve, label)
                mx = [p.hour for p in pts]
                my = [p.measured for p in pts]
                plot.plot(mx, my, pen=None, symbol="o", symbolSize=7, symbolBrush=color, symbolPen=pg.mkPen("k", width=0.5))
            if metric == "util_pct":
                plot.setYRange(0, 100, padding=0.02)
            legend.setVisible(bool(keys))
        if not self.plots:
            self.note.setText("Nothing to compare: no mapped object has a response time (LUNs) or a utilization "
                              "(RAID groups, drives, SPs) measured.")
        else:
            styles = ", ".join(f"{n} {'solid' if i == 0 else 'dashed'}" for i, n in enumerate(names))
            self.note.setText(f"Points: measured (at each interval's middle). Steps: predicted, {styles}. "
                              f"Time from the first measured interval."
                              + (f" Not drawn (more than {MAX_OBJECTS} objects): {', '.join(left_out)}." if left_out else ""))
