"""Issue 23: the mouse wheel over the inspector's fields changes a value only when the field has
the focus (a high watermark went 80 -> 77 -> 72 while scrolling), and "abc" typed in a workload's
LUNs field is put back with a message that says why."""
from __future__ import annotations

from configurator_support import EXAMPLES, isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from app.domain import edits
from app.store.project_file import load_project

pytestmark = pytest.mark.gui


def _wheel(widget, steps: int = -3) -> None:
    centre = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
    QApplication.processEvents()


def test_the_wheel_passes_over_an_unfocused_watermark(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    w.inspector.setCurrentWidget(w.inspector.array_page)
    settle(qtbot)
    box = w.inspector.cache_form.editors["high_watermark_pct"]
    before = doc.project.cache.get("high_watermark_pct", 80)
    w.canvas.setFocus()
    settle(qtbot)
    assert not box.hasFocus()
    _wheel(box)
    assert box.value() == before and doc.project.cache.get("high_watermark_pct", 80) == before
    box.setFocus()
    settle(qtbot)
    _wheel(box, -1)
    assert box.value() == before - 1  # focused: the wheel steps it


def test_letters_in_the_luns_field_are_put_back_with_a_message(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "emc-cx4-960-oltp.json"))
    doc = w.document
    wl = doc.project.workloads[0]
    before = list(wl.luns)
    w.selection.set([edits.ref_workload(wl.id)])
    settle(qtbot)
    editor = w.inspector.workload_form.editors["luns"]
    editor.setText("abc")
    editor.editingFinished.emit()
    settle(qtbot)
    assert doc.project.workload(wl.id).luns == before
    assert editor.text() == ", ".join(map(str, before))
    message = w.statusBar().currentMessage()
    assert "'abc' is not a list of numbers" in message
