"""Deleting what timeline events use (a LUN a migration moves, a drive that fails, a workload
that changes) asks once, naming the events; yes removes them with the object as one undo step,
cancel changes nothing. The domain half (which events dangle) is tested without Qt."""
from __future__ import annotations

import pytest
from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)
from PySide6.QtWidgets import QMessageBox

from app.domain import edits
from app.domain.project import (
    Bind, DriveFailure, DriveReplacement, LunMigration, Scenario, WorkloadChange,
)

pytestmark = pytest.mark.gui


def _with_events(project):
    """Events in two scenarios that name LUN 1, a member drive of its group and the workload."""
    lun = project.luns[0]
    drive = project.group(lun.group_id).drives[0]
    other = next(l for l in project.luns if l.id != lun.id)
    base = project.scenario()
    base.events[:] = [
        LunMigration("m1", 1.0, source_lun=lun.id, dest_lun=other.id),
        DriveFailure("f1", 2.0, drive=drive), DriveReplacement("r1", 5.0, drive=drive),
        Bind("b1", 3.0, lun=other.id)]
    wl = project.workloads[0].id if project.workloads else None
    if wl:
        base.events.append(WorkloadChange("c1", 4.0, workload=wl, changes={"iops": 0}))
    project.scenarios.append(Scenario("What-if", [Bind("b2", 1.0, lun=lun.id)]))
    return lun, other, drive, wl


def test_dangling_events_name_what_a_deletion_leaves_behind(qtbot, isolated):
    w = make_window(qtbot)
    p = w.document.project
    lun, other, drive, wl = _with_events(p)
    got = {(sc, ev.id) for sc, ev in edits.dangling_events(p, edits.DeleteLun(lun.id))}
    assert got == {(p.scenarios[0].name, "m1"), ("What-if", "b2")}
    # a group takes its LUNs' events; the failure and replacement name a member drive, which stays
    group = {ev.id for _, ev in edits.dangling_events(p, edits.DeleteRaidGroup(lun.group_id))}
    assert {"m1", "b2"} <= group and not {"f1", "r1"} & group
    if wl:
        assert [ev.id for _, ev in edits.dangling_events(p, edits.RemoveWorkload(wl))] == ["c1"]
    # an event the deletion removes itself is not asked about; other edits leave nothing
    both = edits.Batch([edits.RemoveEvent("m1"), edits.DeleteLun(lun.id)])
    assert [ev.id for _, ev in edits.dangling_events(p, both)] == ["b2"]
    assert edits.dangling_events(p, edits.SetEventPriority("m1", "Low")) == []


def test_deleting_a_lun_used_by_operations_asks_and_removes_them_in_one_undo_step(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    doc = w.document
    lun, other, drive, _wl = _with_events(doc.project)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    w.selection.set([edits.ref_lun(lun.id)])
    settle(qtbot)
    w.act_delete.trigger()
    settle(qtbot)
    assert len(asked) == 1 and "m1" in asked[0] and "b2" in asked[0] and "2 timeline events" in asked[0]
    assert all(l.id != lun.id for l in doc.project.luns)
    assert "m1" not in [e.id for e in doc.project.scenario().events]
    assert doc.project.scenario("What-if").events == []
    assert doc.issues() == [] or not any(i.severity == "error" for i in doc.issues())
    doc.undo_stack.undo()  # one step brings the LUN and both events back, in their places
    assert any(l.id == lun.id for l in doc.project.luns)
    assert [e.id for e in doc.project.scenario().events][:1] == ["m1"]
    assert [e.id for e in doc.project.scenario("What-if").events] == ["b2"]


def test_cancel_deletes_nothing(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    doc = w.document
    lun, *_ = _with_events(doc.project)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Cancel)
    n_undo = doc.undo_stack.count()
    # from the inspector's Delete button (the selection's page)
    w.selection.set([edits.ref_lun(lun.id)])
    settle(qtbot)
    assert w.inspector.apply(edits.DeleteLun(lun.id)) is False
    assert any(l.id == lun.id for l in doc.project.luns)
    assert doc.undo_stack.count() == n_undo
    assert [e.id for e in doc.project.scenario("What-if").events] == ["b2"]


def test_a_refused_deletion_does_not_ask(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    doc = w.document
    _lun, _other, drive, _wl = _with_events(doc.project)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: pytest.fail("asked about a refused deletion"))
    w.selection.set([edits.ref_drive(drive)])  # a member of a group: refused, with the reason
    settle(qtbot)
    w.act_delete.trigger()
    assert drive in doc.project.drives
    assert "delete the group first" in w.statusBar().currentMessage()
