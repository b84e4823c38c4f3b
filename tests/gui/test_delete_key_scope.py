"""Delete and Backspace delete the selection only from its views (canvas, RAID group/LUN tree,
timeline); in an Inspector editor they are the editor's keys (with a combo box focused, Delete
went on to delete the selected LUN). Edit > Delete works from anywhere."""
from __future__ import annotations

from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox

from app.domain import edits

pytestmark = pytest.mark.gui


def _focus(qtbot, widget):
    widget.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget, timeout=3000)


def _luns(doc):
    return {lun.id for lun in doc.project.luns}


@pytest.fixture
def window(qtbot, isolated, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    w = make_window(qtbot)
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=5000)
    return w


@pytest.mark.parametrize("key", [Qt.Key_Delete, Qt.Key_Backspace])
def test_the_keys_in_an_inspector_combo_box_delete_nothing(qtbot, window, key):
    w, doc = window, window.document
    lun = next(iter(_luns(doc)))
    w.selection.set([edits.ref_lun(lun)])
    settle(qtbot)
    combos = [c for c in w.inspector.selection_page.findChildren(QComboBox) if c.isVisible() and not c.isEditable()]
    assert combos, "no combo box on the LUN's page"
    _focus(qtbot, combos[0])
    QTest.keyClick(combos[0], key)
    settle(qtbot)
    assert lun in _luns(doc) and not doc.undo_stack.canUndo()


@pytest.mark.parametrize("view", ["canvas", "storage"])
def test_the_keys_in_a_view_of_the_selection_delete_it(qtbot, window, view):
    w, doc = window, window.document
    lun = next(iter(_luns(doc)))
    w.selection.set([edits.ref_lun(lun)])
    settle(qtbot)
    widget = w.canvas.viewport() if view == "canvas" else w.storage
    _focus(qtbot, w.canvas if view == "canvas" else w.storage)
    QTest.keyClick(widget, Qt.Key_Delete)
    settle(qtbot)
    assert lun not in _luns(doc)


def test_edit_delete_works_from_an_editor(qtbot, window):
    w, doc = window, window.document
    lun = next(iter(_luns(doc)))
    w.selection.set([edits.ref_lun(lun)])
    settle(qtbot)
    combo = next(c for c in w.inspector.selection_page.findChildren(QComboBox) if c.isVisible())
    _focus(qtbot, combo)
    w.act_delete.trigger()  # the Edit menu's item
    settle(qtbot)
    assert lun not in _luns(doc)


def test_the_keys_in_the_timeline_delete_the_selected_operation(qtbot, isolated, monkeypatch):
    from test_live_support import catalog, small_project, timeline_window

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    w, doc, parts = timeline_window(qtbot, small_project(catalog()))
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=5000)
    w.selection.set(["op1"])
    settle(qtbot)
    _focus(qtbot, parts.timeline.gantt)
    QTest.keyClick(parts.timeline.gantt, Qt.Key_Delete)
    settle(qtbot)
    assert [e.id for e in doc.project.scenario().events] == []
