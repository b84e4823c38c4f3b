"""Issue 23: deleting a LUN a workload runs on, or a RAID group with such LUNs, says what happens
to the workload (its whole load goes to the LUNs it keeps, or it runs on none) and asks first."""
from __future__ import annotations

import pytest
from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)
from PySide6.QtWidgets import QMessageBox

from app.domain import edits

pytestmark = pytest.mark.gui


def test_deleting_a_workloads_lun_says_where_its_iops_go_and_cancel_keeps_it(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    doc = w.document
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Cancel)
    w.selection.set([edits.ref_lun(0)])
    settle(qtbot)
    w.act_delete.trigger()
    assert len(asked) == 1
    assert "OLTP: leaves LUN 0; its 1,500 IOPS all go to LUN 1" in asked[0]
    assert any(l.id == 0 for l in doc.project.luns) and doc.project.workloads[0].luns == [0, 1]

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    w.act_delete.trigger()
    assert not any(l.id == 0 for l in doc.project.luns) and doc.project.workloads[0].luns == [1]


def test_deleting_a_raid_group_whose_luns_are_in_use_asks(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    doc = w.document
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Cancel)
    w.selection.set([edits.ref_group(0)])
    settle(qtbot)
    w.act_delete.trigger()
    assert len(asked) == 1
    assert "OLTP: leaves LUNs 0, 1 and runs on no LUN" in asked[0]
    assert any(g.id == 0 for g in doc.project.groups)  # cancelled: nothing deleted


def test_deleting_an_unused_lun_asks_nothing(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Cancel)
    w.selection.set([edits.ref_lun(4)])
    settle(qtbot)
    w.act_delete.trigger()
    assert asked == [] and not any(l.id == 4 for l in w.document.project.luns)
