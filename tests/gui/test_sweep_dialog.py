"""Scenario > Load Sweep…: the sweep runs off the GUI thread, the chart draws a curve per
scenario and operation with the knee, saturation and target marked, and the table and summary
show the engine's steps and answers; Cancel stops it."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pyqtgraph as pg  # noqa: E402
import pytest  # noqa: E402

from app.service.runner import InProcessExecutor  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.sizing import SweepDialog  # noqa: E402

pytestmark = pytest.mark.gui
OLTP = Path(__file__).resolve().parents[2] / "presets/examples/emc-cx4-960-oltp.json"


@pytest.fixture
def dialog(qtbot):
    doc = Document(load_project(OLTP), load_catalog())
    dlg = SweepDialog(doc, executor=InProcessExecutor())
    qtbot.addWidget(dlg)
    dlg.steps.setValue(8)
    return doc, dlg


def test_a_sweep_fills_the_chart_table_and_answers(qtbot, dialog):
    doc, dlg = dialog
    dlg.background.setCurrentIndex(dlg.background.findData("op1"))
    dlg.target.setValue(20.0)
    with qtbot.waitSignal(dlg.bridge.finished, timeout=120000):
        dlg.start()
    from app.domain.project import describe_event

    op1 = describe_event(doc.project.scenario().event("op1"))  # named as the timeline names it, not "op1"
    assert [dlg.curve_box.itemText(i) for i in range(dlg.curve_box.count())] == [
        f"{doc.project.current_scenario}: steady", f"{doc.project.current_scenario}: during {op1} (LUN migration at ASAP)"]
    assert dlg.table.rowCount() == 8
    headers = [dlg.table.horizontalHeaderItem(j).text() for j in range(dlg.table.columnCount())]
    notes = [dlg.table.item(i, headers.index("Note")).text() for i in range(8)]
    assert "knee" in notes and "saturated" in notes
    # per step: each workload's response and the busiest component of each kind, as the service measured
    _name, res = dlg.results[0]
    step = res.curves[0].steps[-2]
    for wid, name in res.workloads.items():
        assert dlg.table.item(6, headers.index(name)).text() == f"{step.response_ms[wid]:.1f} ms"
    kinds = step.utilisation_by_kind()
    assert {"drive", "bus", "CPU", "host port"} <= set(kinds)
    for kind, pct in kinds.items():
        assert dlg.table.item(6, headers.index(f"{dlg._kind(kind)} peak")).text() == f"{pct:.0f}%"
    assert kinds["drive"] == max(v for k, v in step.utilisation_pct.items() if k.startswith("drive "))
    curves = [i for i in dlg.plot.getPlotItem().items if isinstance(i, pg.PlotDataItem)]
    assert len(curves) >= 3  # two curves and their marks
    from PySide6.QtCore import Qt

    styles = {c.name(): pg.mkPen(c.opts["pen"]).style() for c in curves if c.name()}
    assert [styles[n] for n in sorted(styles)] == [Qt.DashLine, Qt.SolidLine]  # "… during op1 …" dashed
    lines = [i for i in dlg.plot.getPlotItem().items if isinstance(i, pg.InfiniteLine)]
    assert [ln.value() for ln in lines] == [20.0]
    _name, res = dlg.results[0]
    steady = res.curves[0]
    assert f"{steady.max_iops_at(20.0):,.0f} IOPS within 20 ms" in dlg.summary.text()
    dlg.target.setValue(30.0)  # a new target redraws from the same steps, no new run
    assert f"{steady.max_iops_at(30.0):,.0f} IOPS within 30 ms" in dlg.summary.text()
    assert dlg.run_button.isEnabled() and not dlg.cancel_button.isEnabled()


def test_the_priority_advice_table_shows_the_service_answer(qtbot, dialog):
    from app.service.sweep_advice import level_text

    _doc, dlg = dialog
    dlg.steps.setValue(4)
    assert dlg.advice_table.isHidden()
    dlg.advise.setChecked(True)
    dlg.window_h.setValue(6.0)
    with qtbot.waitSignal(dlg.bridge.finished, timeout=120000):
        dlg.start()
    _name, res = dlg.results[0]
    (op,) = res.advice.operations
    assert op.window_h == 6.0 and not dlg.advice_table.isHidden()
    assert dlg.advice_table.horizontalHeaderItem(1).text() == op.label != "op1"
    assert dlg.advice_table.rowCount() == len(op.levels) == 4
    assert [dlg.advice_table.item(i, 1).text() for i in range(4)] == [level_text(lv) for lv in op.levels]
    assert "window 6 h (given)" in dlg.advice_note.text()
    from app.service.sweep_advice import LoadAdvice

    res.advice = LoadAdvice([], [], 0)  # a scenario with no operation that takes a priority
    dlg._fill_advice()
    assert dlg.advice_note.text() == "No operation of this scenario has a priority to advise on."
    assert dlg.advice_table.isHidden()


def test_components_are_named_as_the_platform_names_them(qtbot):
    """The limiting component and the kind columns say "Disk Group 0" / "Disk Group peak" on a
    Dell array, never the engine's "RG 0"."""
    from app.domain.user_names import RAW_ID

    doc = Document(load_project(OLTP.with_name("dell-md3200-hpt.json")), load_catalog())
    dlg = SweepDialog(doc, executor=InProcessExecutor())
    qtbot.addWidget(dlg)
    dlg.steps.setValue(4)
    with qtbot.waitSignal(dlg.bridge.finished, timeout=120000):
        dlg.start()
    headers = [dlg.table.horizontalHeaderItem(j).text() for j in range(dlg.table.columnCount())]
    assert "Disk Group peak" in headers and "RG peak" not in headers
    col = headers.index("Limiting component")
    limiting = [dlg.table.item(i, col).text() for i in range(dlg.table.rowCount())]
    texts = limiting + [dlg.summary.text()] + [dlg.curve_box.itemText(i) for i in range(dlg.curve_box.count())]
    assert not [t for t in texts if RAW_ID.search(t)], texts
    steps = dlg.results[0][1].curves[0].steps
    if any(s.limiting.startswith("RG ") for s in steps):  # a group limits: named as the platform does
        assert any(t.startswith("Disk Group ") for t in limiting)
    assert dlg.advice_pane.isHidden()  # nothing advised: the steps take the width


def test_cancel_stops_the_sweep(qtbot, dialog):
    _doc, dlg = dialog
    with qtbot.waitSignal(dlg.bridge.finished, timeout=120000) as sig:
        dlg.start()  # the saturation probes take a few hundred ms: Cancel lands during them
        dlg.cancel()
    assert sig.args[0] is None and dlg.summary.text() == "Cancelled." and not dlg.results
    assert dlg.run_button.isEnabled()


def test_the_menu_opens_the_dialog(qtbot):
    from app.ui.main_window import MainWindow

    doc = Document(load_project(OLTP), load_catalog())
    w = MainWindow(doc)
    qtbot.addWidget(w)
    acts = [a for a in w.menu("Scenario").actions() if a.text() == "Load &Sweep…"]
    assert len(acts) == 1
    dlg = w.plugins["app.ui.sizing"].open_sweep()
    assert dlg.isVisible() and dlg.chosen_scenarios() == [doc.project.current_scenario]
    dlg.close()


def test_goal_seek_finds_and_applies_a_design_as_one_undo_step(qtbot):
    from app.domain.prices import PriceList
    from app.ui.sizing import GoalSeekDialog

    doc = Document(load_project(OLTP), load_catalog())
    dlg = GoalSeekDialog(doc, executor=InProcessExecutor(), prices=PriceList())
    qtbot.addWidget(dlg)
    dlg.target.setValue(10.0)
    dlg.growth.setValue(30.0)
    dlg.rebuild_h.setValue(8.0)
    dlg.priority.setCurrentText("High")
    with qtbot.waitSignal(dlg.bridge.finished, timeout=300000):
        dlg.start()
    res = dlg.result
    assert res.chosen is not None and dlg.rows[0] in res.front
    assert dlg.table.item(0, 7).text().startswith("chosen") or res.chosen in dlg.rows
    assert f"{res.runs} engine runs" in dlg.summary.text()
    row = dlg.rows.index(res.chosen)
    dlg.table.selectRow(row)
    assert dlg.apply_button.isEnabled()
    before = doc.project.clone()
    dlg.apply_selected()
    assert len(doc.project.groups) == res.chosen.groups and "Applied" in dlg.summary.text()
    doc.undo_stack.undo()
    assert doc.project == before
    dlg.table.selectRow(row)
    assert dlg.scenario_button.isEnabled()
    dlg.add_as_scenario()  # the candidate beside today's array: one undo step
    added = doc.project.scenario()
    assert added.overlay is not None and added.name.startswith("Design: ")
    assert len(doc.view.groups) == res.chosen.groups and doc.project.groups == before.groups
    assert "Added scenario" in dlg.summary.text()
    doc.undo_stack.undo()
    assert doc.project == before
