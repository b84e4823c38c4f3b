"""Issue 23: Add -> LUN migration with no unused destination offers to create one (it only wrote
a status-bar message)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtWidgets import QMessageBox  # noqa: E402

from app.ui.timeline.dialogs import EventForm  # noqa: E402

try:
    from test_live_support import catalog, small_project, timeline_window
except ImportError:
    from tests.gui.test_live_support import catalog, small_project, timeline_window

pytestmark = pytest.mark.gui


def _no_free_destination():
    p = small_project(catalog())
    p.luns = [l for l in p.luns if l.id != 3]  # LUN 2 is op1's destination: none left for LUN 1
    return p


def test_a_migration_without_a_destination_offers_to_create_one(qtbot, monkeypatch):
    window, doc, parts = timeline_window(qtbot, _no_free_destination())
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Yes)
    monkeypatch.setattr(EventForm, "exec", lambda self: True)
    eid = parts.timeline.new_event_dialog("lun_migration", source_lun=1)
    assert len(asked) == 1 and "Create a 50 GB destination LUN for LUN 1 in RAID Group 1" in asked[0]
    assert eid is not None
    ev = doc.project.scenario().event(eid)
    dest = doc.project.lun(ev.dest_lun)
    assert dest.group_id == 1 and dest.capacity_gb == 50 and ev.source_lun == 1


def test_cancelling_the_form_removes_the_lun_made_for_it(qtbot, monkeypatch):
    window, doc, parts = timeline_window(qtbot, _no_free_destination())
    luns = [l.id for l in doc.project.luns]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Yes)
    monkeypatch.setattr(EventForm, "exec", lambda self: False)
    assert parts.timeline.new_event_dialog("lun_migration", source_lun=1) is None
    assert [l.id for l in doc.project.luns] == luns


def test_declining_creates_nothing_and_says_why(qtbot, monkeypatch):
    window, doc, parts = timeline_window(qtbot, _no_free_destination())
    luns = [l.id for l in doc.project.luns]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Cancel)
    assert parts.timeline.new_event_dialog("lun_migration", source_lun=1) is None
    assert [l.id for l in doc.project.luns] == luns
    assert "Cannot add" in window.statusBar().currentMessage()
