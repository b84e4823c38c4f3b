"""Separate edits of an operation are separate undo steps (two drags, two typed starts); only a
burst of arrow steps in a Start box merges into one (qa4 drag/t8_undo_merge.py)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QStandardPaths  # noqa: E402

from configurator_support import isolated, make_window, settle  # noqa: E402, F401  (fixtures)

from app.store.examples import example_path  # noqa: E402
from app.store.project_file import load_project  # noqa: E402

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)


def start_of(doc, event_id):
    return doc.project.scenario().event(event_id).start_h


def test_two_moves_are_two_undo_steps(small_timeline):
    _window, doc, parts = small_timeline
    tl = parts.timeline
    start = start_of(doc, "op1")
    assert tl.move_event("op1", start + 0.5)  # what a drag's drop does
    assert tl.move_event("op1", start + 1.0)  # a second drag, at once after the first
    assert doc.undo_stack.index() == 2
    doc.undo_stack.undo()
    assert start_of(doc, "op1") == pytest.approx(start + 0.5)
    assert doc.undo_stack.canUndo()
    doc.undo_stack.undo()
    assert start_of(doc, "op1") == pytest.approx(start)


def test_arrow_steps_of_the_start_box_are_one_undo_step(small_timeline):
    _window, doc, parts = small_timeline
    tl = parts.timeline
    tl.select("op1")
    start = start_of(doc, "op1")
    for _ in range(3):
        tl.start_box.stepBy(1)  # the arrows: 15 minutes each
    assert start_of(doc, "op1") == pytest.approx(start + 0.75)
    assert doc.undo_stack.index() == 1
    doc.undo_stack.undo()
    assert start_of(doc, "op1") == pytest.approx(start)


def test_arrow_steps_after_a_move_or_a_pause_are_steps_of_their_own(small_timeline, monkeypatch):
    from app.ui import document
    _window, doc, parts = small_timeline
    tl = parts.timeline
    tl.select("op1")
    start = start_of(doc, "op1")
    tl.move_event("op1", start + 1.0)  # a drag
    tl.start_box.stepBy(1)
    assert doc.undo_stack.index() == 2  # the arrow step did not swallow the drag
    monkeypatch.setattr(document, "MERGE_BURST_S", -1.0)  # every later step comes "too late"
    tl.start_box.stepBy(1)
    assert doc.undo_stack.index() == 3


def test_inspector_start_steps_merge_typed_starts_do_not(qtbot, isolated):
    w = make_window(qtbot, load_project(example_path("emc-cx4-960-oltp")))
    doc = w.document
    ev = doc.project.scenario().events[0]
    start = ev.start_h
    w.selection.set([ev.id])
    settle(qtbot)
    w.inspector.event_form.committed.emit("start_h", start + 1.0)  # typed, Enter
    settle(qtbot)
    w.inspector.event_form.committed.emit("start_h", start + 2.0)  # typed again
    settle(qtbot)
    assert doc.undo_stack.index() == 2
    box = w.inspector.event_form.editors["start_h"]
    box.clearFocus()
    box.stepBy(1)  # without focus a step commits at once
    settle(qtbot)
    box = w.inspector.event_form.editors["start_h"]  # the form may have been rebuilt
    box.clearFocus()
    box.stepBy(1)
    settle(qtbot)
    assert start_of(doc, ev.id) == pytest.approx(start + 2.5)
    assert doc.undo_stack.index() == 3
    doc.undo_stack.undo()
    assert start_of(doc, ev.id) == pytest.approx(start + 2.0)


def test_undo_and_redo_say_what_they_did_in_the_status_bar(small_timeline):
    window, doc, parts = small_timeline
    start = start_of(doc, "op1")
    assert parts.timeline.move_event("op1", start + 0.5)
    assert "now starts at" in window.statusBar().currentMessage()
    window.act_undo.trigger()  # Ctrl+Z
    assert start_of(doc, "op1") == pytest.approx(start)
    assert window.statusBar().currentMessage() == "Undo: Move Migrate LUN 0 -> LUN 2"  # not the stale "... now starts at"
    window.act_redo.trigger()
    assert start_of(doc, "op1") == pytest.approx(start + 0.5)
    assert window.statusBar().currentMessage() == "Redo: Move Migrate LUN 0 -> LUN 2"
