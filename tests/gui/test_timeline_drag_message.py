"""The timeline toolbar's "start h:mm" read-out lives as long as the drag: dropped (moved or
not) or its bar gone mid-drag, the text goes."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QPointF, QStandardPaths, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from app.domain.project import Bind  # noqa: E402

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)


@pytest.fixture
def win(small_timeline, qtbot):
    window, doc, parts = small_timeline
    parts.timeline.gantt.plot.setXRange(0, 20, padding=0)
    qtbot.wait(50)
    return window, doc, parts


def _point(gantt, t, event_id):
    vb = gantt.plot.getViewBox()
    return gantt.plot_widget.mapFromScene(vb.mapViewToScene(QPointF(t, gantt.items[event_id].y)))


def _drag(qtbot, gantt, event_id, hours: list[float], release: bool = True):
    """Press on the bar at hours[0], move through the others, release at the last."""
    points = [_point(gantt, t, event_id) for t in hours]
    vp = gantt.plot_widget.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, points[0])
    for a, b in zip(points, points[1:]):
        for i in range(1, 6):
            QTest.mouseMove(vp, a + (b - a) * i / 5)
            qtbot.wait(5)
    if release:
        QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, points[-1])


def start_of(doc, event_id):
    return doc.project.scenario().event(event_id).start_h


def test_the_drag_read_out_goes_when_the_bar_is_dropped(win, qtbot):
    _window, doc, parts = win
    tl = parts.timeline
    start = start_of(doc, "op1")
    _drag(qtbot, tl.gantt, "op1", [start + 0.2, start + 4.2], release=False)
    assert tl.message.text().startswith("start ")  # while dragging
    QTest.mouseRelease(tl.gantt.plot_widget.viewport(), Qt.LeftButton, Qt.NoModifier,
                       _point(tl.gantt, start + 4.2, "op1"))
    assert start_of(doc, "op1") == pytest.approx(start + 4.0, abs=0.15)
    assert tl.message.text() == ""
    doc.undo_stack.undo()
    assert tl.message.text() == ""


def test_the_drag_read_out_goes_when_the_bar_is_dropped_where_it_was(win, qtbot):
    _window, doc, parts = win
    tl = parts.timeline
    start = start_of(doc, "op1")
    _drag(qtbot, tl.gantt, "op1", [start + 0.2, start + 3.2, start + 0.2])
    assert start_of(doc, "op1") == start and doc.undo_stack.count() == 0  # no move
    assert tl.message.text() == ""


def test_the_drag_read_out_goes_when_the_dragged_bar_goes(win, qtbot):
    _window, doc, parts = win
    tl = parts.timeline
    tl.add_event(Bind("", 1.0, lun=1, priority="Low"))
    qtbot.waitUntil(lambda: not parts.live.busy and not parts.redrawing, timeout=10000)
    _drag(qtbot, tl.gantt, "op2", [1.2, 3.2], release=False)
    assert tl.message.text().startswith("start ")
    doc.undo_stack.undo()  # the add undone mid-drag (Ctrl+Z)
    assert "op2" not in tl.gantt.items and tl.message.text() == ""
    QTest.mouseRelease(tl.gantt.plot_widget.viewport(), Qt.LeftButton)
    assert tl.message.text() == ""
