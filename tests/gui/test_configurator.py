"""Configurator GUI: drops, refused drops, RAID groups and LUNs from a selection, undo/redo, the
inspector's registry editors, messages, files (save/reopen, unsaved-changes prompt, recovery)."""
from __future__ import annotations

import sys

from configurator_support import (  # noqa: F401  (fixtures)
    EXAMPLES, config_dict, drag_drop, drop_drive, drop_enclosure, isolated, make_window, palette_mime,
    placeholder_center, select_drives, settle, simulate_crash, slot_center,
)

import pytest
from PySide6.QtCore import QMimeData, QByteArray, Qt
from PySide6.QtWidgets import QMessageBox

from app.domain import edits
from app.domain.project import Project
from app.domain.raid import RaidType
from app.ui.canvas import MIME_DRIVE_MOVE, MIME_DRIVE_TYPE

pytestmark = pytest.mark.gui


def empty_cx4() -> Project:
    from app.store.presets import default_catalog
    from app.ui.new_dialog import empty_project
    return empty_project(default_catalog(), "emc-cx4-960-r28")


# ---------------------------------------------------------------- drops

def test_drop_enclosure_on_bus_then_drive_into_slot_with_undo_redo(qtbot, isolated):
    w = make_window(qtbot, empty_cx4())
    doc, stack = w.document, w.document.undo_stack
    assert drop_enclosure(w, "dae-4g-15", 2)
    assert [e.id for e in doc.project.enclosures] == ["2_0"]
    assert "2_0_14" in w.canvas.layout_scene.slots  # real slot count: 15
    assert "2_0_15" not in w.canvas.layout_scene.slots
    assert drop_drive(w, "fc-15k-146", "2_0_3")
    assert doc.project.drives["2_0_3"].type_id == "fc-15k-146"
    assert w.canvas.layout_scene.slots["2_0_3"].occupied
    assert doc.dirty and w.isWindowModified()

    stack.undo()
    assert "2_0_3" not in doc.project.drives and not w.canvas.layout_scene.slots["2_0_3"].occupied
    stack.undo()
    assert doc.project.enclosures == [] and "2_0_0" not in w.canvas.layout_scene.slots
    assert not doc.dirty
    stack.redo()
    stack.redo()
    assert doc.project.drives["2_0_3"].type_id == "fc-15k-146"
    assert w.canvas.layout_scene.slots["2_0_3"].occupied


def test_refused_drops_say_why(qtbot, isolated):
    w = make_window(qtbot)  # sample: 0_0_0 holds a drive
    doc = w.document
    before = config_dict(doc.project)
    # onto an occupied slot
    assert not drop_drive(w, "fc-15k-73", "0_0_0")
    assert "already holds a drive" in w.statusBar().currentMessage()
    # a drive type this platform does not take
    mime = QMimeData()
    mime.setData(MIME_DRIVE_TYPE, QByteArray(b"sas-15k-300"))
    assert not drag_drop(w.canvas, mime, slot_center(w, "0_0_12"))
    assert "does not take" in w.statusBar().currentMessage() or "unknown drive type" in w.statusBar().currentMessage()
    # moving a drive onto another drive
    mime = QMimeData()
    mime.setData(MIME_DRIVE_MOVE, QByteArray(b"0_0_1"))
    assert not drag_drop(w.canvas, mime, slot_center(w, "0_0_2"))
    assert config_dict(doc.project) == before
    assert doc.undo_stack.count() == 0


def test_full_bus_refuses_an_enclosure(qtbot, isolated):
    w = make_window(qtbot, empty_cx4())
    for _ in range(w.document.platform.max_enclosures_per_bus):
        assert drop_enclosure(w, "dae-4g-15", 0)
    assert not any(ph.bus == 0 for ph in w.canvas.layout_scene.placeholders)
    lane = w.canvas.layout_scene.lanes[0]
    pt = lane.sceneBoundingRect().topLeft()
    pt.setX(pt.x() + 20)
    pt.setY(pt.y() + 20)
    assert not drag_drop(w.canvas, palette_mime(w, "enclosure", "dae-4g-15"), pt)
    assert "bus 0 is full" in w.statusBar().currentMessage()
    assert len(w.document.project.enclosures) == 8


def test_move_drive_between_slots_keeps_its_group(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    g = doc.project.group_of_drive("0_0_2")
    mime = QMimeData()
    mime.setData(MIME_DRIVE_MOVE, QByteArray(b"0_0_2"))
    assert drag_drop(w.canvas, mime, slot_center(w, "0_0_12"))
    assert "0_0_2" not in doc.project.drives and "0_0_12" in doc.project.drives
    assert "0_0_12" in doc.project.group(g.id).drives
    doc.undo_stack.undo()
    assert "0_0_2" in doc.project.group(g.id).drives and "0_0_12" not in doc.project.drives


def test_delete_key_removes_selected_drive_and_undo_restores(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    select_drives(w, ["0_0_12"])
    assert w.selection.refs() == ["drive 0_0_12"]
    w.canvas.setFocus()
    qtbot.keyClick(w.canvas.viewport(), Qt.Key_Delete)
    settle(qtbot)
    assert "0_0_12" not in doc.project.drives
    doc.undo_stack.undo()
    assert "0_0_12" in doc.project.drives
    # a drive in a RAID group is refused with the reason
    select_drives(w, ["0_0_0"])
    w.act_delete.trigger()
    assert "0_0_0" in doc.project.drives
    assert "delete the group first" in w.statusBar().currentMessage()


# ---------------------------------------------------------------- RAID groups and LUNs

def test_create_raid_group_from_a_selection_lists_only_allowed_types(qtbot, isolated):
    w = make_window(qtbot, empty_cx4())
    doc = w.document
    assert drop_enclosure(w, "dae-4g-15", 0)
    for s in range(6):
        assert drop_drive(w, "fc-15k-73", f"0_0_{s}")
    assert drop_drive(w, "sata-7k2-1000", "0_0_6")
    # mixed drive types: no RAID type offered, and the reason is shown
    select_drives(w, [f"0_0_{s}" for s in range(7)])
    settle(qtbot)
    combo = w.inspector.raid_combo
    enabled = [combo.itemText(i) for i in range(combo.count()) if combo.model().item(i).isEnabled()]
    assert enabled == [] and not w.inspector.create_group_button.isEnabled()
    # five of one type: R5, R0 and R3 fit; R1, R1/0 and R6 need other widths
    select_drives(w, [f"0_0_{s}" for s in range(5)])
    settle(qtbot)
    combo = w.inspector.raid_combo
    enabled = {combo.itemData(i) for i in range(combo.count()) if combo.model().item(i).isEnabled()}
    assert enabled == {"R0", "R3", "R5"}
    r6 = next(i for i in range(combo.count()) if combo.itemData(i) == "R6")
    assert "RAID 6 takes 4 to 16 drives (an even number)" in combo.model().item(r6).toolTip()
    combo.setCurrentIndex(next(i for i in range(combo.count()) if combo.itemData(i) == "R5"))
    qtbot.mouseClick(w.inspector.create_group_button, Qt.LeftButton)
    settle(qtbot)
    assert len(doc.project.groups) == 1
    g = doc.project.groups[0]
    assert (g.raid, g.drives) == (RaidType.R5, [f"0_0_{s}" for s in range(5)])
    assert w.selection.refs() == ["RG 0"]
    assert w.storage.topLevelItem(0).text(0) == "RAID Group 0"  # the CLARiiON's word (group_noun)
    # the canvas colours members by group
    slot = w.canvas.layout_scene.slots["0_0_0"]
    assert slot.bottom_text == "0"
    doc.undo_stack.undo()
    assert doc.project.groups == [] and w.canvas.layout_scene.slots["0_0_0"].bottom_text == ""
    doc.undo_stack.redo()
    assert doc.project.groups[0].raid is RaidType.R5


def test_the_new_lun_default_fits_a_group_whose_free_space_has_more_decimals(qtbot, isolated):
    # ME5's ADAPT group has 410,666.666... GB free: the default, rounded up to 410,666.67 GB, was
    # marked red and Create LUN refused it; rounded down it is taken
    from app.domain.capacity import group_capacity
    from app.store.project_file import load_project
    from configurator_support import EXAMPLES

    w = make_window(qtbot, load_project(EXAMPLES / "dell-me5-adapt.json"))
    doc = w.document
    w.selection.set(["RG 0"])
    settle(qtbot)
    free = group_capacity(doc.project, doc.catalog, doc.project.group(0)).free_gb
    assert round(free, 2) > free  # the case: rounding to the box's decimals goes up
    cap = w.inspector.new_lun_form.editors["capacity_gb"]
    assert cap.value() <= free and cap.styleSheet() == ""  # not marked as refused
    n = len(doc.project.luns)
    qtbot.mouseClick(w.inspector.create_lun_button, Qt.LeftButton)
    settle(qtbot)
    assert len(doc.project.luns) == n + 1 and doc.project.luns[-1].capacity_gb == pytest.approx(free, abs=0.01)


def test_create_resize_delete_lun_and_attach_a_workload(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    w.selection.set(["RG 3"])  # 8+2 R6 of 1 TB SATA: 8,000 GB usable, one 1,000 GB LUN
    settle(qtbot)
    form = w.inspector.new_lun_form
    cap = form.editors["capacity_gb"]
    cap.setValue(250.0)
    cap.editingFinished.emit()
    owner = form.editors["owner"]
    owner.setCurrentIndex(owner.findData("SP B"))
    owner.activated.emit(owner.currentIndex())
    wc = form.editors["write_cache"]
    wc.setChecked(False)
    n = len(doc.project.luns)
    qtbot.mouseClick(w.inspector.create_lun_button, Qt.LeftButton)
    settle(qtbot)
    assert len(doc.project.luns) == n + 1
    lun = doc.project.luns[-1]
    assert (lun.group_id, lun.capacity_gb, lun.owner) == (3, 250.0, "SP B")
    assert lun.settings == {"write_cache": False}  # only what differs from the platform default
    assert w.selection.refs() == [f"LUN {lun.id}"]
    # resize through the LUN inspector (registry editor), then undo
    settle(qtbot)
    ed = w.inspector.lun_form.editors["capacity_gb"]
    ed.setValue(300.0)
    ed.editingFinished.emit()
    settle(qtbot)
    assert doc.project.lun(lun.id).capacity_gb == 300.0
    doc.undo_stack.undo()
    assert doc.project.lun(lun.id).capacity_gb == 250.0
    # too big: refused with the free capacity named
    settle(qtbot)
    ed = w.inspector.lun_form.editors["capacity_gb"]
    assert "At most 7" in ed.toolTip()  # the editor says the room (its own 250 GB included)
    why = doc.check(edits.SetLunFields(lun.id, capacity_gb=99999))
    assert why and "RG 3 has room for" in why
    # attach a workload
    from PySide6.QtWidgets import QPushButton
    add = w.inspector.findChild(QPushButton, "add_workload")
    qtbot.mouseClick(add, Qt.LeftButton)
    settle(qtbot)
    wl = doc.project.workloads[-1]
    assert wl.luns == [lun.id] and w.selection.refs() == [f"workload {wl.id}"]
    settle(qtbot)
    iops = w.inspector.workload_form.editors["iops"]
    iops.setValue(2500)
    iops.editingFinished.emit()
    assert doc.project.workload(wl.id).iops == 2500
    # undo everything back to the start
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert len(doc.project.luns) == n and not any(x.id == wl.id for x in doc.project.workloads)


def test_hot_spare_and_cache_and_feature_edits_are_undoable(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    assert drop_drive(w, "sata-7k2-1000", "1_0_12")
    select_drives(w, ["1_0_12"])
    w.act_hot_spare.trigger()
    assert doc.project.drives["1_0_12"].hot_spare
    assert w.canvas.layout_scene.slots["1_0_12"].bottom_text == "HS"
    doc.undo_stack.undo()
    assert not doc.project.drives["1_0_12"].hot_spare
    # cache editors come from the platform's SettingSpecs
    editors = w.inspector.cache_form.editors
    assert set(editors) == set(doc.platform.cache_settings)
    ed = editors["write_cache_mb"]
    ed.setValue(2000)
    ed.editingFinished.emit()
    assert doc.project.cache["write_cache_mb"] == 2000
    page = editors["page_kb"]
    page.setCurrentIndex(page.findData(16))
    page.activated.emit(page.currentIndex())
    assert doc.project.cache["page_kb"] == 16
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.project.cache["write_cache_mb"] == 3000 and doc.project.cache["page_kb"] == 8


def test_array_page_is_rebuilt_only_for_cache_and_feature_edits(qtbot, isolated):
    from app.domain.project import DriveFailure
    from app.store.project_file import load_project

    w = make_window(qtbot, load_project(EXAMPLES / "dell-md3200-hpt.json"))
    settle(qtbot)
    form = w.inspector.cache_form
    drive = next(iter(w.document.project.groups[0].drives))
    w.document.apply(edits.AddEvent(DriveFailure("", 1.0, drive=drive)))  # a timeline edit
    settle(qtbot)
    assert w.inspector.cache_form is form
    w.inspector.feature_boxes["hpt"].setChecked(True)
    settle(qtbot)
    assert w.inspector.cache_form is not form and w.inspector.feature_boxes["hpt"].isChecked()


def test_md3200_high_performance_tier_toggle(qtbot, isolated):
    from app.store.project_file import load_project
    w = make_window(qtbot, load_project(EXAMPLES / "dell-md3200-hpt.json"))
    settle(qtbot)
    box = w.inspector.feature_boxes["hpt"]
    from PySide6.QtWidgets import QLabel
    texts = [lab.text() for lab in w.inspector.array_page.widget().findChildren(QLabel)]
    assert any("Controller reboot: about 5 min" in t for t in texts)
    box.setChecked(True)
    assert w.document.project.features["hpt"] is True
    w.document.undo_stack.undo()
    settle(qtbot)
    assert w.document.project.features["hpt"] is False
    assert not w.inspector.feature_boxes["hpt"].isChecked()


# ---------------------------------------------------------------- messages and selection

def test_clicking_a_message_selects_the_object(qtbot, isolated):
    w = make_window(qtbot)
    settle(qtbot)
    msgs = w.messages
    refs = [msgs.ref(i) for i in range(msgs.row_count())]
    row = next(i for i, ref in enumerate(refs) if ref.startswith("RG "))
    rect = msgs.visualRect(msgs.model().index(row, 2))
    if not rect.isValid():  # off screen in a short dock: scroll to it first
        msgs.scrollTo(msgs.model().index(row, 2))
        rect = msgs.visualRect(msgs.model().index(row, 2))
    qtbot.mouseClick(msgs.viewport(), Qt.LeftButton, pos=rect.center())  # a real click on the row
    settle(qtbot)
    ref = refs[row]
    assert w.selection.refs() == [ref]
    gid = int(ref.split()[1])
    members = set(w.document.project.group(gid).drives)
    selected = {it.location for it in w.canvas.layout_scene.selectedItems() if hasattr(it, "location")}
    assert selected == members
    assert refs  # the sample has warnings (no matching hot spares)


def test_selection_from_tree_shows_group_in_inspector(qtbot, isolated):
    w = make_window(qtbot)
    settle(qtbot)
    w.storage.select_refs([])
    w.storage.topLevelItem(1).setSelected(True)
    settle(qtbot)
    assert w.selection.refs() == ["RG 1"]
    assert w.inspector.create_lun_button is not None


# ---------------------------------------------------------------- files

def test_save_then_reopen_gives_the_same_project(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    before = config_dict(doc.project)
    path = isolated / "mine.arrayplan"
    assert w.files.save_to(path)
    assert not doc.dirty and doc.path == path
    assert str(path.resolve()) in w.files.recent_files()
    doc.undo_stack.undo()  # change it, then reopen the file without saving
    from app.store.project_file import load_project
    assert config_dict(load_project(path)) == before
    w.files.load(path)
    assert config_dict(doc.project) == before and not doc.dirty
    # JSON too
    jpath = isolated / "mine.json"
    assert w.files.save_to(jpath)
    w.files.load(jpath)
    assert config_dict(doc.project) == before


def test_open_error_is_a_clear_message(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    bad = isolated / "broken.arrayplan"
    bad.write_bytes(b"not a database at all")
    before = config_dict(w.document.project)
    assert not w.files.load(bad)
    assert shown and "broken.arrayplan" in shown[0]
    assert config_dict(w.document.project) == before


def test_failed_save_keeps_the_users_file(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    path = isolated / "keep.arrayplan"
    assert w.files.save_to(path)
    good = path.read_bytes()
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    import app.store.project_file as pf

    def boom(tmp, project):
        tmp.write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pf, "write_arrayplan_db", boom)
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    assert not w.files.save_to(path)
    assert path.read_bytes() == good and w.document.dirty
    # said once: the store's message already ends "the previous file is unchanged"
    assert len(shown) == 1 and "No space left" in shown[0], shown
    assert "previous file is unchanged" in shown[0] and "Your file was not changed" not in shown[0], shown

    def no_temp_file(folder, name):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(pf, "_new_temp_file", no_temp_file)
    shown.clear()
    assert not w.files.save_to(path)  # the store's message does not say the file is unchanged: the window does
    assert len(shown) == 1 and shown[0].endswith("Permission denied)\n\nYour file was not changed."), shown
    assert path.read_bytes() == good


@pytest.mark.parametrize("answer, closes, saved", [
    (QMessageBox.Cancel, False, False), (QMessageBox.Discard, True, False), (QMessageBox.Save, True, True)])
def test_unsaved_changes_prompt_on_close(qtbot, isolated, monkeypatch, answer, closes, saved):
    w = make_window(qtbot)
    path = isolated / "p.arrayplan"
    assert w.files.save_to(path)
    mtime = path.stat().st_mtime_ns
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or answer)
    w.close()  # clean: no question
    assert not asked
    w.show()
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    closed = w.close()
    assert asked and "Save the changes" in asked[0]
    assert closed is closes and w.isVisible() is (not closes)
    from app.store.project_file import load_project
    assert ("0_0_12" in load_project(path).drives) is saved
    if not saved:
        assert path.stat().st_mtime_ns == mtime


def test_autosave_and_recovery_after_a_crash(qtbot, isolated, monkeypatch):
    from app.ui import recovery

    w = make_window(qtbot)
    assert not w.files.autosave()  # nothing to save while clean
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    assert w.files.autosave()
    data, meta = w.files.recovery_paths()
    assert data.exists() and meta.exists()
    edited = config_dict(w.document.project)
    simulate_crash(w)  # the session's files stay, its lock is free; a new session starts
    w2 = make_window(qtbot)
    offered = []
    monkeypatch.setattr(recovery, "ask", lambda _parent, leftovers: offered.extend(leftovers)
                        or recovery.Choice(restore=list(leftovers)))
    assert w2.files.offer_recovery()
    assert [lo.data for lo in offered] == [data]
    assert config_dict(w2.document.project) == edited
    assert w2.document.dirty  # recovered work is unsaved until the user saves it
    assert data.exists()  # kept until saved or autosaved anew (tests/reliability/test_recovery.py)


def test_leftover_recovery_ignores_own_session_and_finds_dead_ones(qtbot, isolated):
    import json
    from app.ui import recovery

    w = make_window(qtbot)
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    assert w.files.autosave()
    assert recovery.find_leftovers() == []  # our own live file
    rec = recovery.recovery_dir()
    dead = rec / "999999-dead.arrayplan"
    dead.write_bytes(w.files.recovery_paths()[0].read_bytes())
    (rec / "999999-dead.json").write_text(json.dumps({"pid": 99999999, "original": None, "saved_at": 1}))
    found = recovery.find_leftovers()
    assert [lo.data.name for lo in found] == ["999999-dead.arrayplan"]
    found[0].release()


def test_window_layout_is_remembered(qtbot, isolated):
    w = make_window(qtbot)
    w.messages_dock.hide()
    w.save_layout()
    w.files.discard_recovery()
    w2 = make_window(qtbot)
    assert not w2.messages_dock.isVisible()
    w2.reset_layout()
    assert w2.messages_dock.isVisible()


def test_plugins_are_installed_and_a_missing_one_is_an_error(qtbot, isolated, monkeypatch):
    import types
    mod = types.ModuleType("fake_plugin_for_test")
    seen = []
    mod.install = lambda window: seen.append((window.menu("Report"), window.document)) or "ok"
    monkeypatch.setitem(sys.modules, "fake_plugin_for_test", mod)
    from app.ui.document import Document
    from app.ui.main_window import MainWindow
    from app.store.presets import default_catalog
    from app.ui.sample import sample_project
    cat = default_catalog()
    with pytest.raises(ModuleNotFoundError, match="app.ui.not_there"):
        MainWindow(Document(sample_project(cat), cat), plugins=("app.ui.not_there",))
    w = MainWindow(Document(sample_project(cat), cat), plugins=("fake_plugin_for_test",))
    qtbot.addWidget(w, before_close_func=lambda w: w.document.mark_saved())
    assert w.plugins == {"fake_plugin_for_test": "ok"}
    assert seen[0][0].title() == "&Report"
    assert [a.text() for a in w.menuBar().actions()] == ["&File", "&Edit", "&View", "&Scenario", "&Operations", "&Report", "&Help"]


def test_scenario_combo_switches_scenario_without_an_undo_step(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    doc.apply(edits.AddScenario("What if", make_current=False))
    combo = w.scenario_combo
    assert [combo.itemData(i) for i in range(combo.count())] == ["Baseline", "What if"]
    steps = doc.undo_stack.count()
    combo.setCurrentIndex(1)
    combo.activated.emit(1)
    assert doc.project.current_scenario == "What if"
    assert doc.undo_stack.count() == steps  # switching is no edit (issue 23)
    doc.undo_stack.undo()  # the scenario's addition, made in Baseline: shown again, then undone
    assert combo.currentData() == "Baseline" and len(doc.project.scenarios) == 1


def test_no_reference_to_none_is_lost(qtbot, isolated):
    """PySide6 6.12 drops a reference to None when an empty QVariant is read; on Python 3.11 that
    crashes at exit. The configurator must not read empty QVariants in normal use."""
    w = make_window(qtbot)
    settle(qtbot)
    before = sys.getrefcount(None)
    for _ in range(3):
        assert drop_drive(w, "fc-15k-73", "0_0_12")
        select_drives(w, ["0_0_12"])
        w.selection.set(["RG 0"])
        settle(qtbot)
        w.storage.topLevelItem(0).setSelected(True)
        w.messages.refresh()
        w.document.undo_stack.undo()
        settle(qtbot)
    assert sys.getrefcount(None) >= before - 5


def test_rubber_band_selects_drives(qtbot, isolated):
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest
    from configurator_support import view_point

    w = make_window(qtbot)
    view = w.canvas
    a = w.canvas.layout_scene.slots["0_0_0"].sceneBoundingRect()
    b = w.canvas.layout_scene.slots["0_0_4"].sceneBoundingRect()
    start = view_point(view, a.topLeft()) + QPoint(2, -3)  # on the enclosure frame above slot 0
    end = view_point(view, b.center())
    QTest.mousePress(view.viewport(), Qt.LeftButton, Qt.NoModifier, start)
    for i in range(1, 6):
        QTest.mouseMove(view.viewport(), start + (end - start) * i / 5)
    QTest.mouseRelease(view.viewport(), Qt.LeftButton, Qt.NoModifier, end)
    settle(qtbot)
    assert w.selection.refs() == [f"drive 0_0_{s}" for s in range(5)]


def test_layout_scene_renders_headless_and_colours_by_value(qtbot, isolated):
    """The report renders LayoutScene(document) with no view; the timeline colours drives by value."""
    from PySide6.QtGui import QImage, QPainter
    from app.store.presets import default_catalog
    from app.ui.canvas import LayoutScene, NO_VALUE_FILL, group_color, value_color
    from app.ui.document import Document
    from app.ui.sample import sample_project

    cat = default_catalog()
    doc = Document(sample_project(cat), cat)
    scene = LayoutScene(doc)
    assert scene.views() == []
    assert scene.slots["0_0_0"].fill.rgba() == group_color(0).rgba()
    img = QImage(800, 600, QImage.Format_ARGB32)
    img.fill(0xFFFFFFFF)
    p = QPainter(img)
    scene.render(p)
    p.end()
    assert len({img.pixel(x, y) for x in range(0, 800, 7) for y in range(0, 600, 7)}) > 10
    scene.set_drive_values({"0_0_0": 90.0, "0_0_1": 10.0})
    assert scene.slots["0_0_0"].fill.rgba() == value_color(90).rgba()
    assert scene.slots["0_0_2"].fill.rgba() == NO_VALUE_FILL.rgba()
    assert "Utilization: 90%" in scene.slots["0_0_0"].toolTip()
    scene.set_drive_values(None)
    assert scene.slots["0_0_0"].fill.rgba() == group_color(0).rgba()
    # edits reach a scene without a view too
    doc.apply(edits.PlaceDrive("0_0_12", "fc-15k-73"))
    assert scene.slots["0_0_12"].occupied


def test_new_drive_values_repaint_only_the_slots_they_change(qtbot, isolated, monkeypatch):
    from app.store.presets import default_catalog
    from app.ui.canvas import NO_VALUE_FILL, LayoutScene, SlotItem, value_color
    from app.ui.document import Document
    from app.ui.sample import sample_project

    cat = default_catalog()
    doc = Document(sample_project(cat), cat)
    scene = LayoutScene(doc)
    scene.set_drive_values({"0_0_0": 90.0, "0_0_1": 11.0, "0_0_2": 50.0})
    touched = []
    set_state = SlotItem.set_state
    monkeypatch.setattr(SlotItem, "set_state", lambda item, *a: (touched.append(item.location), set_state(item, *a)))
    # 0_0_1 moves within its shown number and colour, 0_0_0 changes, 0_0_2 has no value any more
    scene.set_drive_values({"0_0_0": 20.0, "0_0_1": 11.2})
    assert sorted(touched) == ["0_0_0", "0_0_2"]
    assert scene.slots["0_0_0"].fill.rgba() == value_color(20).rgba() and scene.slots["0_0_0"].bottom_text == "20"
    assert "Utilization: 20%" in scene.slots["0_0_0"].toolTip()
    assert scene.slots["0_0_2"].fill.rgba() == NO_VALUE_FILL.rgba()


def test_drive_tooltip_names_type_capacity_and_group(qtbot, isolated):
    w = make_window(qtbot)
    tip = w.canvas.layout_scene.slots["0_0_0"].toolTip()
    assert "73 GB 15k rpm FC" in tip and "73 GB" in tip and "RAID Group 0" in tip and "RAID 5" in tip
    assert "Hot spare" in w.canvas.layout_scene.slots["0_0_14"].toolTip()


def test_timer_autosave_writes_in_the_background(qtbot, isolated):
    w = make_window(qtbot)
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    data, meta = w.files.recovery_paths()
    with qtbot.waitSignal(w.files.recovery.finished, timeout=10000):
        w.files.timer.timeout.emit()
    assert data.exists() and meta.exists()
    from app.store.project_file import load_project
    assert "0_0_12" in load_project(data).drives
    assert not w.files.autosave(wait=False)  # nothing new since


def test_drive_dropped_on_an_enclosure_label_fills_its_empty_slots(qtbot, isolated):
    w = make_window(qtbot)  # sample: enclosure 0_1 holds 8 drives in 15 slots
    doc = w.document
    label = w.canvas.layout_scene.enclosure_items["0_1"].sceneBoundingRect().topLeft()
    label.setX(label.x() + 20)
    label.setY(label.y() + 20)
    assert drag_drop(w.canvas, palette_mime(w, "drive", "fc-10k-400"), label)
    assert all(f"0_1_{s}" in doc.project.drives for s in range(15))
    assert doc.undo_stack.undoText() == "Fill enclosure 0_1 with 7 drives"
    doc.undo_stack.undo()
    assert sum(1 for l in doc.project.drives if l.startswith("0_1_")) == 8
    doc.undo_stack.redo()
    # full now: refused with the reason
    assert not drag_drop(w.canvas, palette_mime(w, "drive", "fc-10k-400"), label)
    assert "no empty slot" in w.statusBar().currentMessage()


def test_a_long_enclosure_type_name_ends_in_an_ellipsis_not_mid_word():
    from app.ui.canvas import _wrap

    assert _wrap("MSA30, single-bus (14 slots on one channel)", 13) == "MSA30,\nsingle-bus\n(14 slots on\u2026"
    assert _wrap("DAE 4 Gb FC, 15 slots", 13) == "DAE 4 Gb FC,\n15 slots"


def test_about_names_the_engine_build(qtbot, isolated, monkeypatch):
    """Help > About says which prediction engine runs (compiled or pure Python, and why)."""
    import app.engine

    shown = []
    monkeypatch.setattr(QMessageBox, "about", lambda parent, title, text: shown.append(text))
    monkeypatch.setattr(app.engine, "ENGINE_BUILD", "python (no native build)")
    w = make_window(qtbot)
    w.about()
    assert shown and "Prediction engine: python (no native build)" in shown[0]
