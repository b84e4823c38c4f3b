"""Scheduling operations from the context menus (the RAID group/LUN tree, the canvas), a
migration's default destination, and the cursor reaching a longer pinned baseline's horizon; on
the emc-cx4-960-oltp example in the main window (the engine is FakeEngine)."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QStandardPaths, QTimer  # noqa: E402
from PySide6.QtGui import QContextMenuEvent  # noqa: E402
from PySide6.QtWidgets import QApplication, QMenu  # noqa: E402

from app.domain import edits  # noqa: E402
from app.domain.project import Bind, LunMigration, VolumeMigration  # noqa: E402
from app.domain.validation import validate  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.timeline.dialogs import EventForm  # noqa: E402

try:
    from test_live_support import timeline_window
except ImportError:
    from tests.gui.test_live_support import timeline_window

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)
EXAMPLES = Path(__file__).resolve().parents[2] / "presets" / "examples"


def open_example(qtbot, name: str):
    return timeline_window(qtbot, load_project(EXAMPLES / name))


@pytest.fixture
def oltp(qtbot):
    return open_example(qtbot, "emc-cx4-960-oltp.json")


def texts(menu: QMenu, indent: str = "") -> list[str]:
    out = []
    for a in menu.actions():
        if not a.isSeparator():
            out.append(indent + a.text())
            if a.menu() is not None:
                out += texts(a.menu(), indent + "  ")
    return out


def action(menu: QMenu, text: str):
    for a in menu.actions():
        if a.text() == text:
            return a
        if a.menu() is not None and (found := action(a.menu(), text)) is not None:
            return found
    raise AssertionError(f"no {text!r} in {texts(menu)}")


def accept_forms(monkeypatch) -> list:
    """EventForm.exec accepts at once; the forms shown are returned in the list."""
    shown = []
    monkeypatch.setattr(EventForm, "exec", lambda self: shown.append(self) or True)
    return shown


def errors(doc) -> list:
    return [i for i in validate(doc.project, doc.catalog, doc.project.current_scenario) if i.is_error]


def test_tree_menu_on_a_lun_schedules_its_operations(oltp, monkeypatch):
    window, doc, parts = oltp
    doc.apply(edits.SetCurrentScenario("Baseline"))
    menu = window.storage.build_context_menu("LUN 18")
    assert texts(menu) == ["Migrate LUN 18 to...", "Bind LUN 18...", "Delete LUN 18"]  # CX4: no reallocate
    shown = accept_forms(monkeypatch)
    before = len(doc.project.scenario().events)
    action(menu, "Migrate LUN 18 to...").trigger()
    assert len(shown) == 1
    added = doc.project.scenario().events[-1]
    assert len(doc.project.scenario().events) == before + 1
    assert isinstance(added, LunMigration) and added.source_lun == 18 and added.dest_lun != 18
    assert errors(doc) == []
    doc.undo_stack.undo()
    assert len(doc.project.scenario().events) == before


def test_tree_menu_on_a_raid_group(oltp, monkeypatch):
    window, doc, parts = oltp
    menu = window.storage.build_context_menu("RG 0")
    assert texts(menu) == ["Bind LUN...", "Fail a drive of RAID Group 0...", "Migrate LUN 0 to...",
                           "Migrate LUN 18 to...", "Delete RAID Group 0 and its LUNs"]
    accept_forms(monkeypatch)
    action(menu, "Bind LUN...").trigger()
    added = doc.project.scenario().events[-1]
    assert isinstance(added, Bind) and added.lun in (0, 18)
    assert added.priority == doc.platform.operations["bind"].default
    doc.undo_stack.undo()
    assert not any(isinstance(e, Bind) for e in doc.project.scenario().events)


def test_tree_right_click_opens_the_menu(oltp):
    window, doc, parts = oltp
    tree = window.storage
    shown = []

    def close_the_popup():  # what the menu offers, then close it (exec returns)
        popup = QApplication.activePopupWidget()
        if popup is None:
            QTimer.singleShot(20, close_the_popup)
            return
        shown.append(texts(popup))
        popup.close()

    QTimer.singleShot(0, close_the_popup)
    item = tree._rows["LUN 0"]
    pos = tree.visualItemRect(item).center()
    tree.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Mouse, pos, tree.viewport().mapToGlobal(pos)))
    assert shown and shown[0][0] == "Migrate LUN 0 to..."
    assert window.selection.refs() == ["LUN 0"]  # the row right-clicked is selected


def test_canvas_menu_on_a_grouped_drive_offers_the_groups_operations(oltp):
    window, doc, parts = oltp
    window.selection.set(["RG 0"])  # the whole group selected: the drive clicked comes first
    view = window.canvas
    item = view.layout_scene.slots["0_0_3"]
    got = []
    window.canvas.contextRequested.disconnect(window._context_menu)
    view.contextRequested.connect(lambda _pos, refs: got.append(refs))
    pos = view.mapFromScene(item.sceneBoundingRect().center())
    view.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Mouse, pos, view.viewport().mapToGlobal(pos)))
    assert got[0][0] == "drive 0_0_3"
    menu = QMenu()
    parts.context_actions(menu, got[0])
    assert texts(menu) == ["Fail drive 0_0_3...", "RAID Group 0", "  Bind LUN...", "  Migrate LUN 0 to...",
                           "  Migrate LUN 18 to..."]


def test_only_the_platforms_operations_are_offered(qtbot, monkeypatch):
    window, doc, parts = open_example(qtbot, "hitachi-usp600-tiers.json")
    menu = window.storage.build_context_menu("RG 0")
    # Hitachi's word for a RAID group (the preset's group_noun)
    assert texts(menu) == ["Volume migration group...", "Fail a drive of Array Group 0...",
                           "Delete Array Group 0 and its LUNs"]
    accept_forms(monkeypatch)
    said = []
    parts.timeline.notify = said.append
    before = len(doc.project.scenario().events)
    action(menu, "Volume migration group...").trigger()
    added = doc.project.scenario().events[-1]
    assert len(doc.project.scenario().events) == before + 1 and isinstance(added, VolumeMigration)
    group = [l.id for l in doc.project.luns_in_group(0)]
    sources = [a for a, _ in added.moves]
    assert sources and set(sources) <= set(group)
    for missing in set(group) - set(sources):  # no valid target: left out, and said so
        assert f"LUN {missing} " in said[-1] and "left out" in said[-1]
    assert errors(doc) == []


def test_migrate_prefills_a_valid_destination(oltp, monkeypatch):
    window, doc, parts = oltp
    accept_forms(monkeypatch)
    for scenario in ("Baseline", "Dependent ASAP migration"):
        doc.apply(edits.SetCurrentScenario(scenario))
        assert errors(doc) == []
        menu = window.storage.build_context_menu("LUN 20")
        action(menu, "Migrate LUN 20 to...").trigger()
        added = doc.project.scenario().events[-1]
        assert isinstance(added, LunMigration) and added.source_lun == 20
        assert errors(doc) == [], scenario


def test_migrate_without_a_valid_destination_says_so(oltp, monkeypatch):
    window, doc, parts = oltp
    shown = accept_forms(monkeypatch)
    said = []
    parts.timeline.notify = said.append
    before = list(doc.project.scenario().events)
    luns = [lun.id for lun in doc.project.luns]
    from PySide6.QtWidgets import QMessageBox

    asked = []  # the offer to create a destination LUN (declined here)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.Cancel)
    action(window.storage.build_context_menu("LUN 0"), "Migrate LUN 0 to...").trigger()
    assert shown == [] and doc.project.scenario().events == before  # no form that cannot succeed
    assert [lun.id for lun in doc.project.luns] == luns  # declined: no LUN made
    assert "no LUN can be the destination of LUN 0" in said[-1] or (asked and "destination" in asked[0])


def test_add_menu_migration_starts_valid(oltp, monkeypatch):
    window, doc, parts = oltp
    accept_forms(monkeypatch)
    doc.apply(edits.SetCurrentScenario("Baseline"))
    parts.timeline.new_event_dialog("lun_migration")  # Timeline > Add: LUN 0 cannot move, LUN 18 can
    added = doc.project.scenario().events[-1]
    assert (added.source_lun, added.dest_lun) == (18, 20)
    assert errors(doc) == []


def test_cursor_reaches_a_longer_baselines_horizon(oltp, qtbot):
    window, doc, parts = oltp
    with qtbot.waitSignal(parts.live.resultReady, timeout=10000):
        doc.apply(edits.SetCurrentScenario("Baseline"))
    with qtbot.waitSignal(parts.live.resultReady, timeout=10000) as sig:
        parts.scenarios.set_baseline("Dependent High migration")
    live = sig.args[0]
    qtbot.waitUntil(lambda: not parts.redrawing, timeout=5000)
    assert live.baseline.horizon_h > live.current.horizon_h
    parts.cursor.set_time(live.baseline.horizon_h)
    assert parts.cursor.time_h == pytest.approx(live.baseline.horizon_h)
    parts.timeline.refresh()  # any edit redraws the timeline: the horizon stays
    assert parts.cursor.horizon_h == pytest.approx(live.baseline.horizon_h)
