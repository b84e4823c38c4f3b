"""The Inspector's workload editor shows a closed workload's think time, edits it through the
domain's EditWorkload (one undo step) and leaves it out for an open workload."""
from __future__ import annotations

from configurator_support import EXAMPLES, isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest

from app.domain import edits
from app.store.project_file import load_project

pytestmark = pytest.mark.gui


def test_think_time_edits_and_undoes(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "hp-sa6402-raid5.json"))
    doc = w.document
    wl = next(x for x in doc.project.workloads if x.mode == "closed")
    w.selection.set([edits.ref_workload(wl.id)])
    settle(qtbot)
    editor = w.inspector.workload_form.editors["think_ms"]
    assert editor.value() == 0.0 and editor.suffix() == " ms"
    editor.setValue(12.5)
    editor.editingFinished.emit()
    settle(qtbot)
    assert doc.project.workload(wl.id).think_ms == 12.5
    assert doc.undo_stack.undoText() == f"Edit workload {wl.name}"  # its name, not its id
    assert w.inspector.workload_form.editors["think_ms"].value() == 12.5
    doc.undo_stack.undo()
    settle(qtbot)
    assert doc.project.workload(wl.id).think_ms == 0.0
    assert w.inspector.workload_form.editors["think_ms"].value() == 0.0
    doc.undo_stack.redo()
    settle(qtbot)
    assert doc.project.workload(wl.id).think_ms == 12.5


def test_open_workloads_show_no_think_time_until_closed(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "emc-cx4-960-oltp.json"))
    doc = w.document
    wl = doc.project.workloads[0]
    assert wl.mode == "open"
    w.selection.set([edits.ref_workload(wl.id)])
    settle(qtbot)
    assert "think_ms" not in w.inspector.workload_form.editors
    mode = w.inspector.workload_form.editors["mode"]
    mode.activated.emit(mode.findData("closed"))
    settle(qtbot)
    assert doc.project.workload(wl.id).mode == "closed"
    assert "think_ms" in w.inspector.workload_form.editors
    doc.undo_stack.undo()
    settle(qtbot)
    assert "think_ms" not in w.inspector.workload_form.editors



def test_a_think_time_past_the_bound_is_refused(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "hp-sa6402-raid5.json"))
    doc = w.document
    wl = next(x for x in doc.project.workloads if x.mode == "closed")
    w.selection.set([edits.ref_workload(wl.id)])
    settle(qtbot)
    editor = w.inspector.workload_form.editors["think_ms"]
    editor.setValue(5e6)  # past an hour: the soft bounds let it be typed, the domain refuses it
    editor.editingFinished.emit()
    settle(qtbot)
    assert doc.project.workload(wl.id).think_ms == 0.0
    assert "think time (think_ms)" in w.statusBar().currentMessage()
