"""Edit > Undo / Redo and the status bar name a step's objects as the user knows them (issue 23:
names, not ids, everywhere; "RG" vs "Disk Group"): "Undo Edit Disk Group 1" on a Dell, the
workload's name, not the edits' "Edit RG 1" / "Edit workload random"; a deleted object keeps
the name it had, and a scenario's own configuration is named the same way."""
from __future__ import annotations

from configurator_support import EXAMPLES, isolated, make_window  # noqa: F401  (fixtures)

import pytest

from app.domain import edits
from app.domain.user_names import RAW_ID

pytestmark = pytest.mark.gui


def test_undo_and_redo_name_groups_and_workloads(qtbot, isolated):
    from app.store.project_file import load_project
    from app.ui.scenarios import ScenarioBar

    p = load_project(EXAMPLES / "dell-md3200-hpt.json")
    for g in p.groups:  # groups made from blank have no names of their own
        g.name = ""
    w = make_window(qtbot, p)
    doc = w.document
    wl = doc.project.workloads[0]
    assert doc.try_apply(edits.SetGroupFields(1, raid="RAID 6")) is None
    assert w.act_undo.text().endswith("Edit Disk Group 1"), w.act_undo.text()
    w.act_undo.trigger()
    assert w.statusBar().currentMessage() == "Undo: Edit Disk Group 1"
    w.act_redo.trigger()
    assert w.statusBar().currentMessage() == "Redo: Edit Disk Group 1"

    assert doc.try_apply(edits.EditWorkload(wl.id, iops=wl.iops + 100)) is None
    assert w.act_undo.text().endswith(f"Edit workload {wl.name}") and wl.name != wl.id

    # a deletion: named as it was before it went
    assert doc.try_apply(edits.RemoveWorkload(wl.id)) is None
    assert wl.name in w.act_undo.text(), w.act_undo.text()

    # the same in a scenario with its own configuration
    doc.apply(edits.AddScenario("Proposed"))
    assert ScenarioBar(doc).set_own_configuration(True)
    assert doc.try_apply(edits.SetGroupFields(2, raid="RAID 6")) is None
    assert w.act_undo.text().endswith("Edit Disk Group 2"), w.act_undo.text()
    for _ in range(doc.undo_stack.count()):
        assert not RAW_ID.search(doc.undo_stack.text(_)), doc.undo_stack.text(_)
