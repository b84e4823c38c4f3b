"""A time axis in hours from plan start, ticked in sensible units (minutes, hours, days) and
labelled as every other time on the plan is written (format_time: '0:30', '18:00', '1 d 06:00'):
one notation from minutes to a month, whatever the zoom (it switched between '0:30', '1 h' and
'0 d 02:00')."""
from __future__ import annotations

import math

import pyqtgraph as pg

from app.domain.formatting import format_time

# candidate major tick spacings, hours
_STEPS = (1 / 60, 2 / 60, 5 / 60, 10 / 60, 0.25, 0.5, 1, 2, 3, 6, 12, 24, 48, 72, 7 * 24, 14 * 24, 28 * 24)


def format_duration(hours: float | None) -> str:
    """A duration for tables: '45 min', '3.2 h', '2 d 4.0 h'; None -> 'not finished'."""
    if hours is None:
        return "not finished"
    if hours < 1:
        return f"{hours * 60:.0f} min"
    if hours < 48:
        return f"{hours:.1f} h"
    d = int(hours // 24)
    return f"{d} d {hours - 24 * d:.1f} h"


def pick_spacing(span_h: float, pixels: float, min_px: float = 70.0) -> float:
    want = span_h * min_px / max(pixels, 1.0)
    for s in _STEPS:
        if s >= want:
            return s
    return _STEPS[-1] * math.ceil(want / _STEPS[-1])


class TimeAxisItem(pg.AxisItem):
    def __init__(self, orientation: str = "bottom", **kw):
        super().__init__(orientation, **kw)
        # hours are not SI units: without this pyqtgraph writes "(x0.001)" below about an hour
        self.enableAutoSIPrefix(False)
        self.setLabel("time from plan start")

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph API)
        span = maxVal - minVal
        if span <= 0 or not math.isfinite(span):
            return super().tickSpacing(minVal, maxVal, size)
        major = pick_spacing(span, size)
        idx = _STEPS.index(major) if major in _STEPS else None
        minor = _STEPS[idx - 1] if idx else major / 2
        return [(major, 0), (minor, 0)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802
        return [format_time(v) for v in values]
