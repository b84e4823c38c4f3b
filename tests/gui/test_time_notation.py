"""One time notation on every time axis (issue 23: "the time axis switches between 0:30,
"0 d 02:00" and "1 h""): the timeline's axis, the charts' axes and the cursor's time label write
the times of the plan as format_time does (h:mm, then d hh:mm), whatever the plan's length; the
axes' units (tests/gui/test_charts.py::test_time_axis_ticks) are checked there."""
from __future__ import annotations

import re

from test_live_support import catalog, small_project, timeline_window

import pytest

from app.domain.formatting import format_time, parse_time

pytestmark = pytest.mark.gui

# what format_time writes: "0:30", "12:00", "1 d 06:00"; never "1 h", "0 d 02:00" or "90 min"
NOTATION = re.compile(r"^(\d+:\d\d|[1-9]\d* d \d\d:\d\d)$")


def _ticks(axis) -> list[str]:
    lo, hi = axis.range
    out = []
    for spacing, values in axis.tickValues(lo, hi, 800):  # the same width: the same ticks
        out += axis.tickStrings(values, 1.0, spacing)
    return out


@pytest.mark.parametrize("hours", [0.75, 6.0, 40.0, 24 * 9.0])
def test_the_timeline_and_the_charts_write_times_alike(qtbot, hours):
    window, doc, parts = timeline_window(qtbot, small_project(catalog()))
    gantt_axis = parts.timeline.gantt.plot.getAxis("bottom")
    chart_axes = [plot.getAxis("bottom") for plot in parts.charts.plots.values()]
    for axis in [gantt_axis] + chart_axes:
        axis.setRange(0.0, hours)
    gantt = _ticks(gantt_axis)
    assert gantt and all(NOTATION.match(t) for t in gantt), gantt
    for t in gantt:
        assert format_time(parse_time(t)) == t  # what the Start box reads back
    for axis in chart_axes:
        assert _ticks(axis) == gantt  # the same ticks in the same words as the timeline's
    parts.charts.set_cursor(hours / 2)
    qtbot.wait(10)
    label = parts.timeline.time_label.text()
    assert NOTATION.match(label), label
