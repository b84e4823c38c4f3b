"""Build a shipped example by hand through the GUI (File > New, drops from the palette, clicks on
drives, the inspector's RAID-group and LUN forms, hot spares, workloads, cache and features) and
compare the result with the example file as data (its configuration part)."""
from __future__ import annotations

from configurator_support import (  # noqa: F401  (fixtures)
    EXAMPLES, drop_drive, drop_enclosure, isolated, make_window, select_drives, settle,
)

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QPushButton, QSpinBox

from app.store.project_file import load_project
from app.store.project_json import project_to_dict

pytestmark = pytest.mark.gui


def set_editor(editor, value) -> None:
    """Set a registry editor the way a user would, and let it commit."""
    if isinstance(editor, QCheckBox):
        if editor.isChecked() != bool(value):
            editor.setChecked(bool(value))
    elif isinstance(editor, QComboBox):
        idx = editor.findData(value)
        assert idx >= 0, f"{value!r} not offered by {editor.objectName()}"
        editor.setCurrentIndex(idx)
        editor.activated.emit(idx)
    elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
        editor.setFocus()
        editor.setValue(editor.minimum() if value is None else value)
        editor.editingFinished.emit()
    elif isinstance(editor, QLineEdit):
        editor.setText(", ".join(map(str, value)) if isinstance(value, list) else str(value))
        editor.editingFinished.emit()
    else:  # pragma: no cover
        raise AssertionError(f"no way to set {editor!r}")


def effective_config(project, catalog) -> dict:
    d = project_to_dict(project)
    platform = catalog.platform(project.platform_id)
    out = {k: d[k] for k in ("platform_id", "enclosures", "drives", "groups", "luns", "workloads")}
    out["cache"] = {**platform.default_cache(), **project.cache}
    out["features"] = {**{k: False for k in platform.features}, **project.features}
    return out


def new_project_through_dialog(window, platform_id: str, monkeypatch) -> None:
    from app.ui.new_dialog import NewProjectDialog

    def exec_(dlg):
        for i in range(dlg.list.count()):
            if dlg.list.item(i).data(Qt.UserRole) == ("platform", platform_id):
                dlg.list.setCurrentRow(i)
                return NewProjectDialog.Accepted
        raise AssertionError(f"platform {platform_id} not offered")

    monkeypatch.setattr(NewProjectDialog, "exec", exec_)
    window.new_project()
    assert window.document.project.platform_id == platform_id
    assert window.document.project.drives == {}


@pytest.mark.parametrize("example", ["emc-cx4-960-oltp", "dell-md3200-hpt"])
def test_build_example_by_hand(qtbot, isolated, monkeypatch, example):
    target = load_project(EXAMPLES / f"{example}.json")
    w = make_window(qtbot)
    new_project_through_dialog(w, target.platform_id, monkeypatch)
    doc = w.document

    # enclosures onto their buses, in order
    for e in target.enclosures:
        assert drop_enclosure(w, e.type_id, e.bus), e.id
    # drives from the palette into their slots
    for d in target.drives.values():
        assert drop_drive(w, d.type_id, d.location), d.location
    # hot spares: click the drive, Edit > Mark as Hot Spare
    for d in target.drives.values():
        if d.hot_spare:
            select_drives(w, [d.location])
            w.act_hot_spare.trigger()
    # RAID groups: click the members, pick the type, Create group, name it
    for g in target.groups:
        select_drives(w, g.drives)
        settle(qtbot)
        combo = w.inspector.raid_combo
        idx = combo.findData(g.raid.value)
        assert combo.model().item(idx).isEnabled(), combo.model().item(idx).toolTip()
        combo.setCurrentIndex(idx)
        qtbot.mouseClick(w.inspector.create_group_button, Qt.LeftButton)
        settle(qtbot)
        assert w.selection.refs() == [f"RG {g.id}"]
        if g.name:
            settle(qtbot)
            name = w.inspector.findChild(QLineEdit, "prop_name")
            set_editor(name, g.name)
            settle(qtbot)
    # LUNs, in id order: select the group in the tree, fill in the Create LUN form
    for lun in sorted(target.luns, key=lambda l: l.id):
        w.storage.select_refs([])
        w.storage._rows[f"RG {lun.group_id}"].setSelected(True)
        settle(qtbot)
        form = w.inspector.new_lun_form
        set_editor(form.editors["capacity_gb"], lun.capacity_gb)
        set_editor(form.editors["owner"], lun.owner)
        set_editor(form.editors["name"], lun.name)
        for k, v in lun.settings.items():
            set_editor(form.editors[k], v)
        qtbot.mouseClick(w.inspector.create_lun_button, Qt.LeftButton)
        settle(qtbot)
        assert w.selection.refs() == [f"LUN {lun.id}"]
    # workloads: select a LUN, Add workload, edit its fields
    for wl in target.workloads:
        w.selection.set([f"LUN {wl.luns[0]}"])
        settle(qtbot)
        qtbot.mouseClick(w.inspector.findChild(QPushButton, "add_workload"), Qt.LeftButton)
        settle(qtbot)
        fields = {"id": wl.id, "name": wl.name, "luns": wl.luns, "mode": wl.mode, "iops": wl.iops,
                  "outstanding": wl.outstanding, "read_pct": wl.read_pct, "io_kb": wl.io_kb,
                  "random_pct": wl.random_pct, "read_hit_pct": wl.read_hit_pct,
                  "response_target_ms": wl.response_target_ms}
        for k, v in fields.items():
            set_editor(w.inspector.workload_form.editors[k], v)
            settle(qtbot)
    # cache settings and features on the Array tab
    for k, v in target.cache.items():
        set_editor(w.inspector.cache_form.editors[k], v)
        settle(qtbot)
    for k, v in target.features.items():
        set_editor(w.inspector.feature_boxes[k], v)
        settle(qtbot)

    got, want = effective_config(doc.project, doc.catalog), effective_config(target, doc.catalog)
    assert [d for d in got["drives"] if d not in want["drives"]] == [d for d in want["drives"] if d not in got["drives"]]
    assert got == want
    # and the whole build undoes step by step back to the empty project
    steps = doc.undo_stack.count()
    assert steps >= len(target.drives) + len(target.groups) + len(target.luns)
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.project.drives == {} and doc.project.groups == [] and doc.project.luns == []
