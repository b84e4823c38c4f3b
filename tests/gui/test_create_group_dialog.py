"""Issue 23: Edit > Create RAID Group... (Ctrl+G) opens a dialog, and a new group's RAID level
defaults to the preferred protected one (RAID 5 where allowed), not RAID 0."""
from __future__ import annotations

import pytest
from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)
from PySide6.QtWidgets import QDialog

from app.domain import edits
from app.ui.create_group_dialog import CreateGroupDialog

pytestmark = pytest.mark.gui

FREE = [f"0_1_{s}" for s in range(8, 13)]


def _five_new_drives(w):
    for loc in FREE:
        assert w.document.try_apply(edits.PlaceDrive(loc, "fc-15k-146")) is None
    w.selection.set([edits.ref_drive(loc) for loc in FREE])


def test_ctrl_g_opens_the_dialog_with_raid_5_and_creates_the_group(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    _five_new_drives(w)
    settle(qtbot)
    seen = []

    def exec_(dialog):
        seen.append(dialog.raid.currentText())
        return QDialog.Accepted

    monkeypatch.setattr(CreateGroupDialog, "exec", exec_)
    groups = len(w.document.project.groups)
    w.act_create_group.trigger()
    assert seen == ["RAID 5"]
    assert len(w.document.project.groups) == groups + 1
    g = w.document.project.groups[-1]
    assert g.raid.value == "R5" and sorted(g.drives) == sorted(FREE)
    assert w.selection.refs() == [edits.ref_group(g.id)]


def test_the_inspectors_raid_level_is_not_raid_0_either(qtbot, isolated):
    w = make_window(qtbot)
    _five_new_drives(w)
    settle(qtbot)
    assert w.inspector.raid_combo.currentText() == "RAID 5"


def test_ctrl_g_without_drives_says_what_to_select(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    opened = []
    monkeypatch.setattr(CreateGroupDialog, "exec", lambda d: opened.append(d) or QDialog.Rejected)
    w.selection.set([])
    w.act_create_group.trigger()
    assert not opened and "Select the drives" in w.statusBar().currentMessage()
