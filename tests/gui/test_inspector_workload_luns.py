"""The Inspector refuses a workload LUN list that names a LUN twice ('0, 0'): the edit is not
made, the status bar says why, and the editor shows the model's list again."""
from __future__ import annotations

from configurator_support import EXAMPLES, isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest

from app.domain import edits
from app.store.project_file import load_project

pytestmark = pytest.mark.gui


def test_a_lun_typed_twice_is_refused(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "emc-cx4-960-oltp.json"))
    doc = w.document
    wl = doc.project.workloads[0]
    before = list(wl.luns)
    w.selection.set([edits.ref_workload(wl.id)])
    settle(qtbot)
    editor = w.inspector.workload_form.editors["luns"]
    editor.setText(f"{before[0]}, {before[0]}")
    editor.editingFinished.emit()
    settle(qtbot)
    assert doc.project.workload(wl.id).luns == before
    assert f"LUN {before[0]} is listed 2 times" in w.statusBar().currentMessage()
    assert w.inspector.workload_form.editors["luns"].text() == ", ".join(map(str, before))
