"""A chart cursor line dragged past the plan's end snaps back to the shared time (the plan's end):
the charts, their read-out, the timeline cursor and its time label all show the same time. It
used to stay where it was dragged once the shared time already sat at the end (QA4)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.domain.formatting import format_time  # noqa: E402

pytestmark = pytest.mark.gui


def test_a_chart_cursor_dragged_past_the_end_snaps_back(small_timeline, qtbot):
    _window, _doc, parts = small_timeline
    qtbot.waitUntil(lambda: parts.live.result is not None and parts.cursor.horizon_h > 0, timeout=10000)
    h = parts.cursor.horizon_h
    charts = parts.charts
    line = next(iter(charts.cursor_lines.values()))
    for t in (1.0, h + 0.5, h + 0.9):  # what a mouse drag does to the line, move by move
        line.setValue(t)
        qtbot.wait(1)
        assert parts.cursor.time_h == min(t, h)
        assert {round(x.value(), 9) for x in charts.cursor_lines.values()} == {round(min(t, h), 9)}
        assert charts.cursor_h == min(t, h)
        assert charts.readout.headerItem().text(0) == f"At {format_time(min(t, h))}"
        assert parts.timeline.gantt.cursor.value() == pytest.approx(min(t, h))
        assert parts.timeline.time_label.text() == format_time(min(t, h))
