"""A refused position passed during a drag must not put a window under the pointer: the refusal
tooltip did, took the drag away from the view, and the drop on the next slot placed nothing (QA4,
real xdotool drags). The reason shows in the status bar and beside the pointer in the scene, and
clears over a valid target."""
from __future__ import annotations

from configurator_support import isolated, make_window, palette_mime, settle, slot_center, view_point  # noqa: F401

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QToolTip

from app.domain import edits
from app.store.presets import default_catalog
from app.ui.canvas import DropNote
from app.ui.new_dialog import empty_project

pytestmark = pytest.mark.gui
ACTIONS = Qt.CopyAction | Qt.MoveAction
WHY = "drop the drive into a slot of an enclosure (or on its label to fill it)"


def _window(qtbot):
    p = empty_project(default_catalog(), "dell-md3200")
    edits.AddEnclosure(0, 0, "md3200").do(p)
    return make_window(qtbot, p)


def _move(view, mime, scene_pt: QPointF) -> bool:
    ev = QDragMoveEvent(view_point(view, scene_pt), ACTIONS, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(view.viewport(), ev)
    QApplication.processEvents()
    return ev.isAccepted() and ev.dropAction() != Qt.IgnoreAction


def _popups(w) -> list:
    """Visible top-level windows other than the main window (a tooltip, a popup)."""
    return [t for t in QApplication.topLevelWidgets() if t.isVisible() and t is not w]


def _notes(w) -> list[str]:
    return [it.text for it in w.canvas.layout_scene.items() if isinstance(it, DropNote) and it.isVisible()]


def test_a_refused_position_then_a_slot_drops_there_and_nothing_takes_the_pointer(qtbot, isolated):
    w = _window(qtbot)
    view, mime = w.canvas, palette_mime(w, "drive", "sas-15k-300")
    slot = slot_center(w, "0_0_1")
    above = QPointF(slot.x(), w.canvas.layout_scene.slots["0_0_1"].sceneBoundingRect().top() - 3)
    QApplication.sendEvent(view.viewport(), QDragEnterEvent(view_point(view, above), ACTIONS, mime,
                                                            Qt.LeftButton, Qt.NoModifier))
    assert not _move(view, mime, above)  # the enclosure frame, not a slot: refused
    assert w.statusBar().currentMessage() == f"Refused: {WHY}"
    assert _notes(w) == [WHY]
    assert not QToolTip.isVisible() and _popups(w) == []
    assert _move(view, mime, slot)  # on down onto the empty slot: the refusal clears
    assert w.statusBar().currentMessage() == ""
    assert _notes(w) == []
    assert w.canvas.layout_scene.slots["0_0_1"].highlight == "ok"
    assert not QToolTip.isVisible() and _popups(w) == []
    drop = QDropEvent(QPointF(view_point(view, slot)), ACTIONS, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(view.viewport(), drop)
    settle(qtbot)
    assert list(w.document.project.drives) == ["0_0_1"]
    assert _notes(w) == []


def test_the_refusal_clears_when_the_drag_leaves(qtbot, isolated):
    w = _window(qtbot)
    view, mime = w.canvas, palette_mime(w, "drive", "sas-15k-300")
    r = w.canvas.layout_scene.slots["0_0_1"].sceneBoundingRect()
    above = QPointF(r.center().x(), r.top() - 3)
    QApplication.sendEvent(view.viewport(), QDragEnterEvent(view_point(view, above), ACTIONS, mime,
                                                            Qt.LeftButton, Qt.NoModifier))
    assert not _move(view, mime, above)
    assert _notes(w) == [WHY]
    QApplication.sendEvent(view.viewport(), QDragLeaveEvent())
    QApplication.processEvents()
    assert _notes(w) == []
    assert w.statusBar().currentMessage() == ""
    assert w.document.project.drives == {}
