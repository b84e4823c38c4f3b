"""Issue 23: "RG" vs "Disk Group". The GUI names a RAID group with the platform's own word
(group_noun): a Dell MD's tree, inspector, canvas tooltip, dialogs, menus and status bar say
"Disk Group"; a CLARiiON's "RAID Group"."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtWidgets import QLabel  # noqa: E402

from app.store.examples import example_path  # noqa: E402
from app.store.project_file import load_project  # noqa: E402

try:
    from configurator_support import isolated, make_window, settle  # noqa: F401
except ImportError:
    from tests.gui.configurator_support import isolated, make_window, settle  # noqa: F401

pytestmark = pytest.mark.gui


def _texts(widget) -> list[str]:
    return [l.text() for l in widget.findChildren(QLabel)]


def test_a_dell_md_names_its_groups_disk_groups(qtbot):
    from app.ui.create_group_dialog import CreateGroupDialog

    w = make_window(qtbot, load_project(example_path("dell-md3200-hpt")))
    settle(qtbot)
    gid = w.document.project.groups[0].id
    assert w.storage.topLevelItem(0).text(0) == f"Disk Group {gid}"
    assert w.storage_dock.windowTitle() == "Disk Groups and LUNs"
    assert w.act_create_group.text() == "Create Disk Group…"
    assert "disk group" in w._status_label.text() and "RAID group" not in w._status_label.text()
    w.selection.set([f"RG {gid}"])
    settle(qtbot, 50)
    assert any(t.startswith(f"Disk Group {gid}:") for t in _texts(w.inspector.selection_page)), _texts(w.inspector)
    loc = w.document.project.groups[0].drives[0]
    assert f"Disk Group {gid}:" in w.canvas.layout_scene.slots[loc].toolTip()
    lun = w.document.project.luns_in_group(gid)[0]
    assert f"in Disk Group {gid}" in w.storage._rows[f"LUN {lun.id}"].toolTip(0)
    free = [l for l, d in w.document.project.drives.items() if w.document.project.group_of_drive(l) is None]
    dialog = CreateGroupDialog(w.document, free[:2] or [loc], w)
    assert dialog.windowTitle() == "Create Disk Group"
    dialog.deleteLater()


def test_another_platform_in_the_same_window_renames_the_menu(qtbot):
    w = make_window(qtbot, load_project(example_path("dell-md3200-hpt")))
    settle(qtbot)
    w.document.replace_project(load_project(example_path("netapp-fas-wafl")))
    settle(qtbot, 50)
    assert w.act_create_group.text() == "Create Aggregate…"
    assert w.storage.topLevelItem(0).text(0).startswith("Aggregate ")
