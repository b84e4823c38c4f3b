"""Scenarios with a configuration of their own, in the window (issue 23): edited on the canvas and
in the inspector while current, undoable, the base untouched, saved and reopened; switching
scenario is no undo step; the comparison with deltas, the unfinished plan, CSV export."""
from __future__ import annotations

import csv

from configurator_support import (  # noqa: F401  (fixtures)
    EXAMPLES, drop_drive, isolated, make_window, settle,
)

import pytest

from app.domain import edits
from app.domain.overlay import Overlay

pytestmark = pytest.mark.gui

HPT = "Enable High Performance Tier"


def _proposed(w, name: str = "Proposed"):
    """A second scenario, current, with its own configuration (as the bar's checkbox makes it)."""
    from app.ui.scenarios import ScenarioBar

    doc = w.document
    doc.apply(edits.AddScenario(name))
    bar = ScenarioBar(doc)
    assert bar.set_own_configuration(True)
    assert bar.own_box.isChecked()
    return bar


def test_canvas_edit_goes_into_the_scenario_and_undo_redo(qtbot, isolated):
    w = make_window(qtbot)  # the sample: slot 0_0_12 is empty
    doc = w.document
    _proposed(w)
    slots = w.canvas.layout_scene.slots
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    assert "0_0_12" in doc.view.drives and slots["0_0_12"].occupied
    assert "0_0_12" not in doc.project.drives  # the base is untouched
    assert list(doc.project.scenario("Proposed").overlay.changed["drives"]) == ["0_0_12"]
    doc.undo_stack.undo()
    assert "0_0_12" not in doc.view.drives and not slots["0_0_12"].occupied
    assert doc.project.scenario("Proposed").overlay.is_empty()
    doc.undo_stack.redo()
    assert "0_0_12" in doc.view.drives and slots["0_0_12"].occupied

    # switching scenario: no undo step, and the canvas shows that scenario's configuration
    steps = doc.undo_stack.count()
    w.scenario_combo.setCurrentIndex(w.scenario_combo.findData("Baseline"))
    w.scenario_combo.activated.emit(w.scenario_combo.currentIndex())
    assert doc.project.current_scenario == "Baseline" and doc.undo_stack.count() == steps
    assert not slots["0_0_12"].occupied
    # an undo of the scenario's edit shows the scenario it was made in
    doc.undo_stack.undo()
    assert doc.project.current_scenario == "Proposed" and not slots["0_0_12"].occupied
    doc.undo_stack.redo()
    assert slots["0_0_12"].occupied and "0_0_12" not in doc.project.drives


def test_feature_in_one_scenario_only_and_save_reopen(qtbot, isolated):
    from app.store.project_file import load_project

    w = make_window(qtbot, load_project(EXAMPLES / "dell-md3200-hpt.json"))
    doc = w.document
    settle(qtbot)
    assert doc.project.current_scenario == HPT
    doc.apply(edits.SetScenarioOverlay(HPT, Overlay()))
    settle(qtbot)
    box = w.inspector.feature_boxes["hpt"]
    box.setChecked(True)
    settle(qtbot)
    assert doc.view.features["hpt"] is True and doc.project.features["hpt"] is False
    doc.set_current_scenario("Base mode")
    settle(qtbot)
    assert not w.inspector.feature_boxes["hpt"].isChecked()  # the baseline keeps HPT off
    doc.set_current_scenario(HPT)
    settle(qtbot)
    assert w.inspector.feature_boxes["hpt"].isChecked()

    for name in ("hpt.arrayplan", "hpt.json"):
        path = isolated / name
        assert w.files.save_to(path)
        w.files.load(path)
        settle(qtbot)
        p = doc.project
        assert p.features["hpt"] is False and p.scenario(HPT).overlay.changed == {"features": {"hpt": True}}
        assert doc.view.features["hpt"] is True and w.inspector.feature_boxes["hpt"].isChecked()


def test_switching_clears_a_refused_start_mark(qtbot, isolated):
    from app.store.project_file import load_project
    from app.ui.timeline.panel import TimelinePanel

    p = load_project(EXAMPLES / "dell-md3200-hpt.json")
    w = make_window(qtbot, p)
    panel = TimelinePanel(w.document)
    qtbot.addWidget(panel)
    panel.select("op1")
    box = panel.start_box
    box.lineEdit().setText("1000000")
    box.fixup("1000000")
    assert "c62828" in box.styleSheet()
    w.document.set_current_scenario("Base mode")
    assert "c62828" not in box.styleSheet()


def _table_texts(table):
    t = table.table
    return [[t.item(r, c).text() if t.item(r, c) else "" for c in range(5)] for r in range(t.rowCount())]


def test_comparison_shows_iops_config_and_exports_csv(qtbot, isolated, catalog):
    from app.engine import simulate
    from app.store.project_file import load_project
    from app.ui.scenarios import CompareTable

    p = load_project(EXAMPLES / "dell-md3200-hpt.json")
    base, cur = simulate(p, catalog, "Base mode"), simulate(p, catalog, HPT)
    table = CompareTable()
    qtbot.addWidget(table)
    table.resize(700, 600)
    table.set_results(cur, base, p, catalog)
    texts = _table_texts(table)
    titles = [t[0] for t in texts]
    assert "Workloads (IOPS served, mean)" in titles and "Workloads (mean response time)" in titles
    i = titles.index("Workloads (IOPS served, mean)") + 1
    assert texts[i][1] == "8,889 IOPS" and texts[i][3].startswith("+")
    assert table.table.item(i, 3).foreground().color().name() == "#1e8449"  # more IOPS: better
    assert not any(t.lower().startswith(("w1", "random")) for t in titles)  # names, not ids

    # the same plan with HPT in the scenario's own configuration: the difference is listed
    sc = p.scenario(HPT)
    sc.overlay = Overlay(changed={"features": {"hpt": True}})
    sc.events = []
    cur = simulate(p, catalog, HPT)
    table.set_results(cur, base, p, catalog)
    texts = _table_texts(table)
    row = next(t for t in texts if t[0].strip() == "feature High Performance Tier")
    assert row[1:3] == ["off", "on"]
    path = isolated / "compare.csv"
    table.export_csv(path)
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0][3:5] == ["Base mode", HPT]
    assert ["Configuration", "feature High Performance Tier", "", "off", "on"] == rows[-1][:5]
    assert table.export_button.isEnabled()


def test_unfinished_plan_is_not_shown_as_shorter(qtbot, isolated, host_first_catalog):
    """(On the CX4 whose levels keep no share of the drive time, where the host starves the
    migration too, so the unfinished plan stops at its last event, before the baseline's end:
    on the shipped CX4 the failure no longer speeds the migration up, issue 20, and the trap
    is gone.)"""
    from app.domain.project import DriveFailure
    from app.engine import simulate
    from app.store.project_file import load_project
    from app.ui.scenarios import CompareTable

    catalog = host_first_catalog
    p = load_project(EXAMPLES / "emc-cx4-960-oltp.json")
    p.platform_id = "host-first"
    p.current_scenario = "Dependent ASAP migration"
    base = simulate(p, catalog)
    src = p.lun(p.scenario().events[0].source_lun)
    p.scenario().events.append(DriveFailure("fail", 0.1, drive=p.group(src.group_id).drives[1], priority="ASAP"))
    cur = simulate(p, catalog)
    assert cur.horizon_h < base.horizon_h  # the trap: the plan "ends" at its last event
    table = CompareTable()
    qtbot.addWidget(table)
    table.set_results(cur, base, p, catalog)
    texts = _table_texts(table)
    r = next(i for i, t in enumerate(texts) if t[0].strip() == "Plan length")
    assert texts[r][2] == "not finished" and texts[r][3] == "worse: not finished"
    from app.ui.theme import theme

    assert table.table.item(r, 3).foreground().color().name() == theme().error.name()  # "worse" tone
    for i, t in enumerate(texts):  # nothing about the plan or its operations reads as better
        item = table.table.item(i, 3)
        if item is not None and t[0].strip() in ("Plan length",) + tuple(o.label for o in cur.operations):
            assert item.foreground().color().name() != "#1e8449"
