"""Issue 23, wrong or misleading numbers a new user meets: a result from another project is never
shown, saturation and names on the charts, a failed drive in the heat map, deletions that say
what they do to workloads and events."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QStandardPaths  # noqa: E402

from app.domain.project import Workload  # noqa: E402

try:
    from test_live_support import catalog, small_project, timeline_window
except ImportError:
    from tests.gui.test_live_support import catalog, small_project, timeline_window

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)


def _invalid_project(cat):
    p = small_project(cat)
    p.workloads = [Workload("w9", "Mail", [77], iops=300)]  # LUN 77 does not exist
    return p


def test_opening_an_invalid_project_never_shows_the_previous_projects_curves(qtbot):
    window, doc, parts = timeline_window(qtbot, small_project(catalog()))
    assert parts.charts.curve("response_ms", "w1") is not None  # the first project's curve
    doc.replace_project(_invalid_project(catalog()))
    qtbot.waitUntil(lambda: not parts.live.busy and parts.charts.stale, timeout=10000)
    assert parts.live.result is None
    assert parts.charts.result is None
    assert parts.charts.curve("response_ms", "w1") is None
    assert all(not curves for curves in parts.charts.shown.values())
    banner = parts.charts.stale_banner.text()
    assert banner.startswith("No prediction:") and "last good prediction" not in banner
    assert parts.timeline.result is None


def _real_window(qtbot, project):
    """The main window with the timeline plug-in predicting with the real engine (in a thread)."""
    from app.service.predict import default_simulate

    window, doc, parts = timeline_window(qtbot, project)
    parts.live.simulate = lambda *a, **k: default_simulate(*a, **k)  # the engine, off the process
    parts.live.request()
    qtbot.waitUntil(lambda: not parts.live.busy and not parts.redrawing, timeout=30000)
    assert parts.live.result is not None and parts.live.result.get("unserved_iops", "w1") is not None
    return window, doc, parts


def test_a_saturated_response_is_marked_on_the_chart_with_the_workloads_name(qtbot):
    project = small_project(catalog())
    project.workloads[0].iops = 6000  # RG 0 cannot serve it
    window, doc, parts = _real_window(qtbot, project)
    charts = parts.charts
    assert "w1" in charts.saturated
    start, end, served = charts.saturated["w1"][0]
    assert served < 0.5
    band_texts = [item.toolTip() for item in charts._saturation_items]
    assert band_texts and band_texts[0].startswith("OLTP saturated:")  # the name, not "w1"
    charts.set_cursor((start + end) / 2)
    readout = [charts.readout.topLevelItem(i).child(j) for i in range(charts.readout.topLevelItemCount())
               for j in range(charts.readout.topLevelItem(i).childCount())]
    oltp = next(item for item in readout if item.text(0) == "OLTP")
    assert oltp.text(1).startswith("≥ ")
    # the engine's advisories name the workload and the operation, not their ids
    texts = [a.text for a in parts.live.result.advisories]
    assert any("(OLTP)" in t for t in texts) and not any("(w1)" in t for t in texts)
    assert not any(t.startswith("op1:") for t in texts)
    assert any(t.startswith("Migrate LUN 0 -> LUN 2") for t in texts)


def test_moving_an_operation_names_it_in_the_status_bar(qtbot):
    window, doc, parts = timeline_window(qtbot, small_project(catalog()))
    assert parts.timeline.move_event("op1", 3.0)
    assert "Migrate LUN 0 -> LUN 2 now starts at 3:00" in window.statusBar().currentMessage()
    assert doc.undo_stack.undoText() == "Move Migrate LUN 0 -> LUN 2"


def test_a_failed_drive_is_not_a_green_zero_in_the_utilization_colours(qtbot):
    from app.domain.project import DriveFailure

    project = small_project(catalog())
    project.scenario().events.append(DriveFailure("op2", 1.0, drive="0_0_1", priority="High"))
    window, doc, parts = timeline_window(qtbot, project)
    parts.colour_drives.setChecked(True)
    parts.cursor.set_time(0.5)
    slots = window.canvas.layout_scene.slots
    assert slots["0_0_1"].bottom_text != "FAIL"  # in service before its failure
    parts.cursor.set_time(1.5)
    failed = slots["0_0_1"]
    assert failed.bottom_text == "FAIL" and "Failed" in failed.toolTip()
    assert failed.fill.name() != slots["0_0_2"].fill.name()
    assert slots["0_0_2"].bottom_text not in ("FAIL", "")
