"""The P10-P90 uncertainty bands under the charts' point curves (issue 25).

`BandOverlay(panel)` draws, for each curve a plot shows (`panel.shown`), the band the sampling
computed for the same (metric, entity) (app/service/uncertainty.py `Bands.series`): a
pyqtgraph FillBetweenItem between the P10 and P90 steps, in the curve's colour made translucent
(app/ui/theme.py `band_color`), under the curve. Bands belong to one prediction: the panel
drops them when a new result arrives (`clear`), so a band never outlives the curve it was
sampled around. Fill items are pooled per plot like the curves (adding and removing items is
what makes a redraw slow).

Nothing is computed here: the quantiles are the service's.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from app.ui.theme import band_color

BAND_Z = 2  # under the curves (5 baseline, 10 current) and over the plot's ground


def band_xy(band, horizon_h: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x, P10, P90 of a band as steps (each value holds until the next breakpoint), the last
    one held to the horizon like the point curve (charts.step_xy). Where either quantile is NaN
    (no I/O completed in the samples) both are, so the fill breaks with the curve."""
    t = np.asarray(band.t, dtype=float)
    lo = np.asarray(band.p10, dtype=float).copy()
    hi = np.asarray(band.p90, dtype=float).copy()
    gap = ~(np.isfinite(lo) & np.isfinite(hi))
    lo[gap] = np.nan
    hi[gap] = np.nan
    if len(t) and horizon_h > t[-1]:
        t = np.append(t, horizon_h)
        lo = np.append(lo, lo[-1])
        hi = np.append(hi, hi[-1])
    return t, lo, hi


class _Band:
    """One fill and its two edges. The edges are curves outside the scene (never drawn): the
    fill takes its outline from their paths."""

    def __init__(self, plot: pg.PlotItem):
        self.low = pg.PlotCurveItem(stepMode="right", connect="finite", pen=None)
        self.high = pg.PlotCurveItem(stepMode="right", connect="finite", pen=None)
        self.fill = pg.FillBetweenItem(self.low, self.high, brush=pg.mkBrush(0, 0, 0, 0))
        self.fill.setZValue(BAND_Z)
        plot.addItem(self.fill, ignoreBounds=True)

    def set(self, x: np.ndarray, lo: np.ndarray, hi: np.ndarray, color) -> None:
        # stepMode "right" wants as many x as y: the last value is drawn up to the last x
        self.low.setData(x, lo)
        self.high.setData(x, hi)
        self.fill.setBrush(pg.mkBrush(color))
        self.fill.setVisible(True)


class BandOverlay:
    def __init__(self, panel):
        self.panel = panel
        self.bands = None  # app.service.uncertainty.Bands of the result on screen, or None
        self.items: dict[str, dict[tuple[str, str], _Band]] = {}
        self._pools: dict[str, list[_Band]] = {}

    def set_bands(self, bands) -> None:
        self.bands = bands
        self.sync()

    def clear(self) -> None:
        if self.bands is not None or any(self.items.values()):
            self.bands = None
            self.sync()

    def shown_pairs(self, key: str) -> list[tuple[str, str]]:
        """The (metric, entity) pairs of plot `key` that have a band drawn (tests, read-out)."""
        return sorted(self.items.get(key, {}))

    def sync(self) -> None:
        panel = self.panel
        result = panel.result
        for key, plot in panel.plots.items():
            wanted: dict[tuple[str, str], object] = {}
            if self.bands is not None and result is not None:
                for pair in panel.shown.get(key, []):
                    band = self.bands.series_band(*pair)
                    if band is not None and len(band.t):
                        wanted[pair] = band
            existing = self.items.setdefault(key, {})
            pool = self._pools.setdefault(key, [])
            for pair in [p for p in existing if p not in wanted]:
                item = existing.pop(pair)
                item.fill.setVisible(False)
                pool.append(item)
            for pair, band in wanted.items():
                item = existing.get(pair)
                if item is None:
                    item = existing[pair] = pool.pop() if pool else _Band(plot)
                x, lo, hi = band_xy(band, result.horizon_h)
                item.set(x, lo, hi, band_color(panel._color(pair), panel.ink))

    def set_theme(self) -> None:
        if self.bands is not None:
            self.sync()
