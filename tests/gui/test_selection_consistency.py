"""The window's selection, the timeline's and the Inspector's agree after deletes, undo and redo:
no view goes on showing (or acting on) an object the project no longer has."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QStandardPaths, Qt  # noqa: E402
from PySide6.QtWidgets import QLabel  # noqa: E402

from app.domain import edits  # noqa: E402
from app.domain.project import Bind, Workload  # noqa: E402

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)


@pytest.fixture
def win(small_timeline):
    return small_timeline


def inspector_title(window) -> str:
    """The first label of the Inspector's Selection page (its title: "Project", "LUN 4", ...)."""
    labels = [l for l in window.inspector.selection_page.findChildren(QLabel) if l.text()]
    return labels[0].text() if labels else ""


def settled(qtbot, window):
    qtbot.wait(30)  # the Inspector rebuilds on the next turn of the event loop
    return window.selection.refs(), inspector_title(window)


def test_timeline_delete_drops_the_op_from_the_selection_and_undo_leaves_them_agreed(win, qtbot):
    window, doc, parts = win
    tl = parts.timeline
    tl.gantt.eventClicked.emit("op1")  # what a click on the bar emits
    assert settled(qtbot, window) == (["op1"], "LUN migration op1")
    qtbot.mouseClick(tl.delete_button, Qt.LeftButton)
    assert not doc.project.scenario().events
    assert settled(qtbot, window) == ([], "Project")
    assert tl.selected is None and not tl.delete_button.isEnabled()

    doc.undo_stack.undo()  # op1 is back, selected nowhere
    assert [e.id for e in doc.project.scenario().events] == ["op1"]
    assert settled(qtbot, window) == ([], "Project")
    assert tl.selected is None and not tl.gantt.items["op1"].selected

    doc.undo_stack.redo()  # deleted again: nothing to drop, nothing shown
    assert settled(qtbot, window) == ([], "Project")


def test_undoing_the_add_of_the_selected_op_drops_it(win, qtbot):
    window, doc, parts = win
    tl = parts.timeline
    tl.select("op1")
    new_id = tl.add_event(Bind("", 1.0, lun=1))
    assert new_id == "op2" and settled(qtbot, window) == (["op2"], "Bind op2")
    doc.undo_stack.undo()
    assert [e.id for e in doc.project.scenario().events] == ["op1"]
    assert settled(qtbot, window) == ([], "Project")
    assert tl.selected is None and not tl.delete_button.isEnabled()


def test_a_selection_without_an_op_clears_the_timeline_selection(win, qtbot):
    window, _doc, parts = win
    tl = parts.timeline
    window.selection.set(["op1"])
    assert tl.selected == "op1" and tl.delete_button.isEnabled()
    window.selection.set(["RG 1"])  # e.g. a click on the canvas
    assert tl.selected is None and not tl.gantt.items["op1"].selected
    assert not tl.delete_button.isEnabled() and not tl.advisor_button.isEnabled()


def _place_drive(doc):
    return edits.PlaceDrive("0_0_7", doc.project.drives["0_0_1"].type_id)


@pytest.mark.parametrize("make, selected, left, title", [
    (lambda doc: edits.CreateLun(1, 10, "SP A"), ["LUN 4"], [], "Project"),
    (_place_drive, ["drive 0_0_7"], [], "Project"),
    (_place_drive, ["drive 0_0_1", "drive 0_0_7"], ["drive 0_0_1"], "Drive 0_0_1"),
    (lambda doc: edits.AddWorkload(Workload("w2", "Backup", [2], iops=100.0)), ["workload w2"], [], "Project"),
], ids=["lun", "drive", "one-of-two-drives", "workload"])
def test_undoing_the_creation_of_a_selected_object_drops_it(win, qtbot, make, selected, left, title):
    window, doc, _parts = win
    doc.apply(make(doc))
    window.selection.set(selected)
    assert settled(qtbot, window)[0] == selected
    doc.undo_stack.undo()
    assert settled(qtbot, window) == (left, title)
    doc.undo_stack.redo()  # back, but not selected again: the selection stays as the undo left it
    assert settled(qtbot, window) == (left, title)
