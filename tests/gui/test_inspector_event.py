"""The Inspector shows a selected operation (a timeline event): its start and priority are edited
there as on the timeline (undoable), its other fields are listed."""
from __future__ import annotations

from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest

from app.store.examples import example_path
from app.store.project_file import load_project

pytestmark = pytest.mark.gui


def test_a_selected_operation_is_edited_in_the_inspector(qtbot, isolated):
    w = make_window(qtbot, load_project(example_path("emc-cx4-960-oltp")))
    doc = w.document
    ev = doc.project.scenario().events[0]
    start, priority = ev.start_h, ev.priority
    w.selection.set([ev.id])
    settle(qtbot)
    form = w.inspector.event_form
    assert set(form.editors) == {"start_h", "priority"}
    assert form.editors["priority"].count() == len(doc.platform.priorities(ev.kind))
    form.committed.emit("start_h", start + 1.0)
    settle(qtbot)
    assert doc.project.scenario().event(ev.id).start_h == start + 1.0
    other = next(p for p in doc.platform.priorities(ev.kind) if p != priority)
    w.inspector.event_form.committed.emit("priority", other)
    settle(qtbot)
    assert doc.project.scenario().event(ev.id).priority == other
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert (doc.project.scenario().event(ev.id).start_h, doc.project.scenario().event(ev.id).priority) == (start, priority)
    from PySide6.QtWidgets import QLabel
    texts = [lab.text() for lab in w.inspector.selection_page.findChildren(QLabel)]
    assert any("LUN migration op1" in t for t in texts)  # the title
    assert any(t.startswith("LUN") or t.isdigit() for t in texts)  # a read-only field (source LUN)
