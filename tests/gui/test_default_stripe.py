"""Issue 24: a group made in the GUI starts from the platform's stripe (presets/platforms
`[raid.<level>] default_stripe`, e.g. ME5 ADAPT 16+2, E-Series DDP 8+2): the Create RAID Group
dialog, the inspector's Create group button and the group's own stripe editor."""
from __future__ import annotations

import pytest
from configurator_support import EXAMPLES, isolated, make_window, settle  # noqa: F401  (fixtures)
from PySide6.QtWidgets import QDialog

from app.domain import edits
from app.domain.raid import RaidType
from app.store.project_file import load_project
from app.ui.create_group_dialog import CreateGroupDialog

pytestmark = pytest.mark.gui


def _me5_with_free_drives(qtbot, n: int):
    """The ME5 example with n new 24 TB drives in free ME5084 slots, selected."""
    w = make_window(qtbot, load_project(EXAMPLES / "dell-me5-adapt.json"))
    used = set(w.document.project.drives)
    free = [f"0_0_{s}" for s in range(84) if f"0_0_{s}" not in used][:n]
    for loc in free:
        assert w.document.try_apply(edits.PlaceDrive(loc, "nlsas-7k2-24000")) is None
    w.selection.set([edits.ref_drive(loc) for loc in free])
    settle(qtbot)
    return w, free


def _choose(combo, data) -> None:
    i = combo.findData(data)
    assert i >= 0 and combo.model().item(i).isEnabled()
    combo.setCurrentIndex(i)


@pytest.mark.parametrize("n,stripe", [(20, 18), (16, 10)])
def test_the_dialog_starts_from_the_platforms_adapt_stripe(qtbot, isolated, monkeypatch, n, stripe):
    # 20 drives hold ME5's 16+2 stripe and two drives of spare capacity; 16 do not: 8+2
    w, free = _me5_with_free_drives(qtbot, n)
    seen = []

    def exec_(dialog):
        _choose(dialog.raid, RaidType.DRAID6.value)
        seen.append((dialog.stripe.isVisibleTo(dialog), dialog.stripe.currentData(), dialog.stripe.currentText()))
        return QDialog.Accepted

    monkeypatch.setattr(CreateGroupDialog, "exec", exec_)
    w.act_create_group.trigger()
    shown, value, text = seen[0]
    assert shown and value == stripe and f"{stripe - 2}+2" in text
    assert "platform default" in text  # (16 drives: the widest stripe ME5 offers that fits)
    g = w.document.project.groups[-1]
    assert g.raid is RaidType.DRAID6 and sorted(g.drives) == sorted(free) and g.stripe == stripe


def test_the_dialog_hides_the_stripe_of_a_level_without_one(qtbot, isolated, monkeypatch):
    w, _ = _me5_with_free_drives(qtbot, 6)
    seen = []

    def exec_(dialog):
        _choose(dialog.raid, RaidType.R6.value)
        seen.append(dialog.stripe.isVisibleTo(dialog))
        return QDialog.Accepted

    monkeypatch.setattr(CreateGroupDialog, "exec", exec_)
    w.act_create_group.trigger()
    assert seen == [False] and w.document.project.groups[-1].stripe == 0


def test_the_inspectors_create_button_uses_the_platforms_stripe(qtbot, isolated):
    w, free = _me5_with_free_drives(qtbot, 20)
    _choose(w.inspector.raid_combo, RaidType.DRAID6.value)
    w.inspector.create_group_button.click()
    settle(qtbot)
    g = w.document.project.groups[-1]
    assert g.raid is RaidType.DRAID6 and sorted(g.drives) == sorted(free) and g.stripe == 18


def test_the_inspector_shows_the_groups_stripe_and_changes_it(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "dell-me5-adapt.json"))
    w.selection.set([edits.ref_group(0)])
    settle(qtbot)
    editor = w.inspector.group_form.editors["stripe"]
    assert editor.currentData() == 18 and [editor.itemData(i) for i in range(editor.count())] == [10, 18]
    # the same words as the Create dialog: the geometry, and which stripe the platform starts from
    assert [editor.itemText(i) for i in range(editor.count())] == ["8+2 (10 drives)",
                                                                   "16+2 (18 drives) (platform default)"]
    w.inspector.group_form.committed.emit("stripe", 10)
    settle(qtbot)
    assert w.document.project.group(0).stripe == 10
    w.document.undo_stack.undo()
    assert w.document.project.group(0).stripe == 18
    # a linear RAID 6 group has no stripe to choose
    w.selection.set([edits.ref_group(1)])
    settle(qtbot)
    assert "stripe" not in w.inspector.group_form.editors


def test_a_dynamic_disk_pool_offers_only_its_8_plus_2_stripe(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "netapp-e5700-ddp.json"))
    w.selection.set([edits.ref_group(0)])
    settle(qtbot)
    editor = w.inspector.group_form.editors["stripe"]
    assert [editor.itemData(i) for i in range(editor.count())] == [10] and editor.currentData() == 10
    assert editor.currentText() == "8+2 (10 drives) (platform default)"
