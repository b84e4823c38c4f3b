"""A failed prediction dims the Gantt bars (as it dims the charts), and the next good prediction
restores their colours. The items cache their pixmaps: the state must reach the pixels."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QPointF, QStandardPaths  # noqa: E402

from app.domain import edits  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project, timeline_window
except ImportError:
    from tests.gui.test_live_support import FakeEngine, catalog, small_project, timeline_window

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)


def bar_colour(gantt, event_id: str) -> str:
    """The colour on screen in the middle of the event's last phase."""
    item = gantt.items[event_id]
    name, start, end = item.phases[-1]
    vb = gantt.plot.getViewBox()
    at = gantt.plot_widget.mapFromScene(vb.mapViewToScene(QPointF((start + end) / 2, item.y)))
    return gantt.plot_widget.grab().toImage().pixelColor(at.x(), at.y()).name()


def broken(project, catalog, scenario_name=None):
    raise RuntimeError("the model made no progress at 1.000 h")


def test_a_failed_prediction_dims_the_bars_and_a_good_one_restores_them(qtbot):
    window, doc, parts = timeline_window(qtbot, small_project(catalog()))
    gantt = parts.timeline.gantt
    qtbot.wait(50)
    full = bar_colour(gantt, "op1")
    phases = list(gantt.items["op1"].phases)

    parts.live.simulate = broken
    with qtbot.waitSignal(parts.live.failed, timeout=10000):
        doc.apply(edits.SetEventPriority("op1", "Low"))  # the bar does not move: only the state changes
    qtbot.wait(50)
    assert gantt.items["op1"].phases == phases  # the last good prediction's bar stays...
    dimmed = bar_colour(gantt, "op1")
    assert dimmed != full  # ...dimmed
    # paler: every channel nearer white
    from PySide6.QtGui import QColor
    assert all(getattr(QColor(dimmed), c)() >= getattr(QColor(full), c)() for c in ("red", "green", "blue"))

    parts.live.simulate = FakeEngine()
    with qtbot.waitSignal(parts.live.resultReady, timeout=10000):
        doc.undo_stack.undo()  # the same prediction as at first: the bar itself does not change
    qtbot.waitUntil(lambda: not parts.redrawing, timeout=5000)
    qtbot.wait(50)
    assert gantt.items["op1"].phases == phases
    assert bar_colour(gantt, "op1") == full
