"""Issue 23: a hover tooltip disappears when the mouse leaves its item (Qt kept a graphics item's
tooltip up over the rest of the view until a timeout)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QMouseEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QGraphicsRectItem, QGraphicsScene, QGraphicsView, QToolTip  # noqa: E402

from app.ui.tooltips import follow_pointer, tooltip_at  # noqa: E402

pytestmark = pytest.mark.gui


def _move(view, pos: QPoint) -> None:
    ev = QMouseEvent(QEvent.MouseMove, QPointF(pos), QPointF(view.viewport().mapToGlobal(pos)),
                     Qt.NoButton, Qt.NoButton, Qt.NoModifier)
    QApplication.sendEvent(view.viewport(), ev)


@pytest.fixture
def view(qtbot):
    scene = QGraphicsScene(0, 0, 400, 200)
    item = QGraphicsRectItem(0, 0, 100, 100)
    item.setToolTip("drive 0_0_1")
    scene.addItem(item)
    v = QGraphicsView(scene)
    v.setAlignment(Qt.AlignLeft | Qt.AlignTop)
    v.resize(420, 220)
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    v._scene, v._item = scene, item  # kept alive with the view
    return v


def _show_tip(view) -> None:
    inside = view.mapFromScene(QPointF(50, 50))
    assert tooltip_at(view, inside) == "drive 0_0_1"
    QToolTip.showText(view.viewport().mapToGlobal(inside), "drive 0_0_1", view.viewport())
    assert QToolTip.isVisible()


def test_the_tooltip_goes_over_empty_ground_and_stays_over_its_item(view, qtbot):
    follow_pointer(view)
    _show_tip(view)
    _move(view, view.mapFromScene(QPointF(60, 40)))  # still over the drive: it stays
    qtbot.wait(500)  # (Qt hides a tooltip 300 ms after it is told to)
    assert QToolTip.isVisible()
    _move(view, view.mapFromScene(QPointF(300, 150)))  # the pointer left the drive
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=2000)


def test_the_window_views_follow_the_pointer(qtbot):
    try:
        from test_live_support import catalog, small_project, timeline_window
    except ImportError:
        from tests.gui.test_live_support import catalog, small_project, timeline_window
    from app.ui.tooltips import _HideOnLeave

    window, _doc, parts = timeline_window(qtbot, small_project(catalog()))
    for v in (window.canvas, parts.timeline.gantt.plot_widget, parts.charts.glw):
        assert v.viewport().findChildren(_HideOnLeave) or any(
            isinstance(c, _HideOnLeave) for c in v.children()), v
