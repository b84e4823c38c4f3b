"""Scenarios: duplicate, switch, pin a baseline (all undoable and stored in the project), and the
comparison table and dashed curves against the baseline."""
from __future__ import annotations

import dataclasses
import math
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from app.domain import edits  # noqa: E402
from app.domain.formatting import DASH, NO_IO  # noqa: E402
from app.ui.charts import ChartsPanel  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.scenarios import CompareTable, ScenarioBar, compare_results  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui


@pytest.fixture
def bar(qtbot):
    cat = catalog()
    doc = Document(small_project(cat), cat)
    b = ScenarioBar(doc)
    qtbot.addWidget(b)
    return doc, b


def test_duplicate_switch_and_pin_are_undoable(bar):
    doc, b = bar
    p = doc.project
    name = b.duplicate()
    assert name == "Baseline copy" and p.current_scenario == name
    assert [e.id for e in p.scenario(name).events] == ["op1"]
    assert b.current_box.currentText() == name and b.current_box.count() == 2
    # the copy is independent
    doc.apply(edits.SetEventPriority("op1", "Low"))
    assert p.scenario("Baseline").event("op1").priority == "ASAP"
    assert b.set_baseline("Baseline") and p.baseline_scenario == "Baseline"
    assert b.baseline_box.currentData() == "Baseline"
    steps = doc.undo_stack.count()
    assert b.switch_to("Baseline") and p.current_scenario == "Baseline"
    assert doc.undo_stack.count() == steps  # switching is no undo step (issue 23)
    doc.undo_stack.undo()  # the pin, made in the copy: undo shows the copy again
    assert p.current_scenario == name
    assert p.baseline_scenario is None and b.baseline_box.currentIndex() == 0
    b.current_box.setCurrentText("Baseline")
    b.current_box.activated.emit(0)
    assert p.current_scenario == "Baseline"


def test_choices_are_stored_in_the_project_file(bar, tmp_path):
    from app.store.project_file import load_project, save_project

    doc, b = bar
    b.duplicate("Staggered")
    b.set_baseline("Baseline")
    path = tmp_path / "p.arrayplan"
    save_project(doc.project, path)
    back = load_project(path)
    assert [s.name for s in back.scenarios] == ["Baseline", "Staggered"]
    assert back.current_scenario == "Staggered" and back.baseline_scenario == "Baseline"


def test_compare_rows_and_table(qtbot):
    cat = catalog()
    proj = small_project(cat)
    engine = FakeEngine()
    base = engine(proj, cat)
    proj.scenario().event("op1").priority = "High"
    cur = engine(proj, cat)
    rows = compare_results(cur, base, proj)
    op = next(r for r in rows if r.key == "op1")
    assert (op.baseline, op.current) == (base.operation("op1").duration_h, cur.operation("op1").duration_h)
    assert op.delta == pytest.approx(5.0 - 0.5) and op.note == "ASAP -> High"
    wl = next(r for r in rows if r.key == "w1")
    assert (wl.baseline, wl.current) == (58.0, 16.0) and wl.label == "OLTP"
    table = CompareTable()
    qtbot.addWidget(table)
    table.set_results(cur, base, proj)
    texts = [[table.table.item(r, c).text() if table.table.item(r, c) else "" for c in range(5)]
             for r in range(table.table.rowCount())]
    resp = next(t for t in texts if t[0].strip() == "OLTP")
    assert resp[3].startswith("-") and "(-72%)" in resp[3]
    r = texts.index(resp)
    assert table.table.item(r, 3).foreground().color().name() == "#1e8449"  # better: green
    # the same rows after an edit: the cells are updated in place, not rebuilt
    item = table.table.item(r, 3)
    table.set_results(base, base, proj)
    assert table.table.item(r, 3) is item and item.text() == "same"
    assert item.data(Qt.ForegroundRole) is None  # no colour of its own any more
    # another row set (an operation only in the current scenario): the table is rebuilt
    proj.scenario().events.append(dataclasses.replace(proj.scenario().event("op1"), id="op9"))
    table.set_results(engine(proj, cat), base, proj)
    labels = [table.table.item(i, 4).text() for i in range(table.table.rowCount()) if table.table.item(i, 4)]
    assert "only in current" in labels
    table.set_results(cur, None)
    assert table.table.rowCount() == 0


def test_baseline_curves_dashed_over_current(qtbot):
    cat = catalog()
    proj = small_project(cat)
    engine = FakeEngine()
    base = engine(proj, cat)
    proj.scenario().event("op1").priority = "Low"
    cur = engine(proj, cat)
    charts = ChartsPanel()
    qtbot.addWidget(charts)
    charts.set_results(cur, base, project=proj)
    solid = charts.curve("response_ms", "w1")
    dashed = charts.curve("response_ms", "w1", baseline=True)
    assert solid.opts["pen"].style() == Qt.SolidLine and dashed.opts["pen"].style() == Qt.DashLine
    assert dashed.zValue() < solid.zValue()
    assert "baseline 'Baseline' dashed" in charts.status_label.text()


def test_compare_with_workloads_without_io(qtbot):
    # the HP example: the OLTP scenario never starts the sequential workload and the other way
    # round, so each has a response series that is NaN throughout in one of the two
    from app.engine import simulate
    from app.store.examples import example_path
    from app.store.project_file import load_project

    cat = catalog()
    proj = load_project(example_path("hp-sa6402-raid5"))
    cur = simulate(proj, cat, "OLTP 2 KB, rebuild at High")
    base = simulate(proj, cat, "Sequential 64 KB, rebuild at High")
    rows = {r.key: r for r in compare_results(cur, base, proj) if r.section == "Workloads"}
    oltp, seq = rows["oltp"], rows["seq"]
    assert oltp.current > 0 and math.isnan(oltp.baseline) and oltp.delta is None and oltp.delta_pct is None
    assert seq.baseline > 0 and math.isnan(seq.current) and seq.delta is None
    table = CompareTable()
    qtbot.addWidget(table)
    table.set_results(cur, base, proj)
    texts = [[table.table.item(r, c).text() if table.table.item(r, c) else "" for c in range(5)]
             for r in range(table.table.rowCount())]
    assert not any("nan" in t.lower() for row in texts for t in row)
    line = next(t for t in texts if t[0].strip() == proj.workload('oltp').name)
    assert line[1] == NO_IO and line[2].endswith(" ms") and line[3] == DASH
