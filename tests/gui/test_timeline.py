"""Timeline dock: adding, moving (by dragging), re-prioritizing and deleting operations, all undoable;
the Gantt rows show the engine's phases."""
from __future__ import annotations

import copy
import dataclasses
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from app.domain.project import Bind, DriveFailure, DriveReplacement, WorkloadChange  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.live import TimeCursor  # noqa: E402
from app.ui.timeline.dialogs import EventForm, available_kinds, default_event, parse_changes, parse_moves  # noqa: E402
from app.ui.timeline.panel import TimelinePanel  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:  # tests/gui as a package
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui


@pytest.fixture
def setup(qtbot):
    cat = catalog()
    doc = Document(small_project(cat), cat)
    engine = FakeEngine()
    cursor = TimeCursor()
    panel = TimelinePanel(doc, cursor)
    qtbot.addWidget(panel)
    panel.resize(1200, 320)
    panel.show()
    qtbot.waitExposed(panel)

    def resimulate(*_):
        panel.set_result(engine(doc.project, cat))

    doc.changed.connect(resimulate)
    resimulate()
    return doc, panel, engine, cursor


def events(doc):
    return {e.id: e for e in doc.project.scenario().events}


def test_rows_show_engine_phases(setup):
    doc, panel, engine, _ = setup
    item = panel.gantt.items["op1"]
    res = engine(doc.project, doc.catalog)
    op = res.operation("op1")
    assert [(n, s, e) for n, s, e in item.phases] == [(p.name, p.start_h, p.end_h) for p in op.phases]
    labels = [r.label for r in panel.gantt.rows]
    assert labels[0].startswith("OLTP")  # the workload lane first
    assert any(op.label in lab for lab in labels)


def test_add_operation_and_undo(setup):
    doc, panel, _, _ = setup
    ev = default_event("bind", doc.project, doc.platform, 5.0)
    assert ev.priority == doc.platform.operations["bind"].default
    new_id = panel.add_event(ev)
    assert new_id == "op2" and isinstance(events(doc)[new_id], Bind)
    assert new_id in panel.gantt.items and panel.selected == new_id
    doc.undo_stack.undo()
    assert new_id not in events(doc) and new_id not in panel.gantt.items
    doc.undo_stack.redo()
    assert events(doc)[new_id].start_h == 5.0


def test_add_through_the_form(setup, qtbot):
    doc, panel, _, _ = setup
    ev = default_event("drive_failure", doc.project, doc.platform, 3.0, drive="1_0_2")
    form = EventForm(ev, doc.project, doc.platform)
    qtbot.addWidget(form)
    form.widgets["priority"].setCurrentText("Low")
    made = form.make_event()
    assert isinstance(made, DriveFailure) and made.drive == "1_0_2" and made.priority == "Low"
    assert made.start_h == 3.0
    panel.add_event(made)
    assert events(doc)["op2"].priority == "Low"
    assert set(available_kinds(doc.project, doc.platform)) >= {"lun_migration", "drive_failure", "bind",
                                                             "drive_replacement", "workload_change"}
    assert parse_moves("5>12, 6->13") == [[5, 12], [6, 13]]
    assert parse_changes("iops=0, read_pct=50.5") == {"iops": 0, "read_pct": 50.5}


def _view_point(panel, x_h: float, row: int) -> QPoint:
    vb = panel.gantt.plot.getViewBox()
    scene = vb.mapViewToScene(QPointF(x_h, -row))
    return panel.gantt.plot_widget.mapFromScene(scene)


def test_drag_moves_start_time_undoably(setup, qtbot):
    doc, panel, _, _ = setup
    panel.gantt.plot.setXRange(0, 20, padding=0)
    qtbot.wait(50)
    row = panel.gantt.row_of("op1")
    start = events(doc)["op1"].start_h
    a = _view_point(panel, start + 0.2, row)
    b = _view_point(panel, start + 4.2, row)
    vp = panel.gantt.plot_widget.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    for i in range(1, 11):
        QTest.mouseMove(vp, a + (b - a) * i / 10)
        qtbot.wait(5)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)
    moved = events(doc)["op1"].start_h
    assert moved == pytest.approx(start + 4.0, abs=0.15)
    assert panel.gantt.items["op1"].start_h == moved  # redrawn at the new place
    doc.undo_stack.undo()
    assert events(doc)["op1"].start_h == start


def test_move_by_start_box(setup):
    doc, panel, _, _ = setup
    panel.select("op1")
    panel.start_box.setValue(7.5)
    assert events(doc)["op1"].start_h == 7.5
    doc.undo_stack.undo()
    assert events(doc)["op1"].start_h == 2.0


def test_change_priority_inline_and_undo(setup):
    doc, panel, engine, _ = setup
    panel.select("op1")
    box = panel.priority_box
    assert [box.itemText(i) for i in range(box.count())] == list(doc.platform.priorities("lun_migration"))
    box.setCurrentText("Low")
    box.activated.emit(box.currentIndex())
    assert events(doc)["op1"].priority == "Low"
    # the row was redrawn from the new prediction (the fake engine's Low rate is 1 GB/h)
    item = panel.gantt.items["op1"]
    assert item.phases[-1][2] - item.phases[0][1] == pytest.approx(20.0)
    doc.undo_stack.undo()
    assert events(doc)["op1"].priority == "ASAP"
    assert panel.priority_box.currentText() == "ASAP"


def test_context_menu_priority_and_delete(setup):
    doc, panel, _, _ = setup
    menu = panel.build_context_menu("op1")
    prio_menu = next(a.menu() for a in menu.actions() if a.text() == "Priority")
    medium = next(a for a in prio_menu.actions() if a.text() == "Medium")
    medium.trigger()
    assert events(doc)["op1"].priority == "Medium"
    menu = panel.build_context_menu("op1")
    next(a for a in menu.actions() if a.text() == "Delete").trigger()
    assert "op1" not in events(doc) and "op1" not in panel.gantt.items
    doc.undo_stack.undo()
    assert events(doc)["op1"].priority == "Medium"
    doc.undo_stack.undo()
    assert events(doc)["op1"].priority == "ASAP"


def test_delete_button_and_key(setup, qtbot):
    doc, panel, _, _ = setup
    panel.select("op1")
    qtbot.mouseClick(panel.delete_button, Qt.LeftButton)
    assert "op1" not in events(doc)
    doc.undo_stack.undo()
    assert "op1" in events(doc)
    panel.select("op1")
    panel.delete_action.trigger()
    assert "op1" not in events(doc)


def test_markers_for_failures_replacements_and_workload_changes(setup):
    doc, panel, _, _ = setup
    panel.add_event(DriveFailure("", 4.0, drive="0_0_1"))
    panel.add_event(DriveReplacement("", 9.0, drive="0_0_1"))
    panel.add_event(WorkloadChange("", 12.0, workload="w1", changes={"iops": 0}))
    ids = {e.kind: e.id for e in events(doc).values()}
    g = panel.gantt
    assert g.items[ids["drive_failure"]].marker == "x"
    assert g.items[ids["drive_replacement"]].marker == "triangle"
    # the replacement shares the failure's row; the workload change sits on the workload lane
    assert g.row_of(ids["drive_replacement"]) == g.row_of(ids["drive_failure"])
    assert g.rows[g.row_of(ids["workload_change"])].key == "wl:w1"


def test_refused_edit_reports_and_changes_nothing(setup):
    doc, panel, _, _ = setup
    assert not panel.set_priority("op1", "Turbo")
    assert "priorities are" in panel.message.text()
    assert events(doc)["op1"].priority == "ASAP"


def test_cursor_follows_time_cursor(setup):
    _, panel, _, cursor = setup
    cursor.set_horizon(30)
    cursor.set_time(6.5)
    assert panel.gantt.cursor.value() == pytest.approx(6.5)
    assert panel.time_label.text() == "6:30"


def test_tooltip_lists_the_engine_phases(setup):
    doc, panel, engine, _ = setup
    item = panel.gantt.items["op1"]
    text = item.tooltip_text()
    op = engine(doc.project, doc.catalog).operation("op1")
    # the operation named as on its row, not by its id (issue 23)
    assert text.startswith("Migrate LUN 0 -> LUN 2\n") and "copy:" in text and "expansion:" in text
    assert "op1" not in text
    assert f"priority {op.priority}" in text


def test_workload_change_marker_says_what_changes(setup):
    doc, panel, _, _ = setup
    eid = panel.add_event(WorkloadChange("", 3.0, workload="w1", changes={"iops": 0}))
    assert panel.gantt.items[eid].note == "iops 0"


def test_redraw_after_an_edit_touches_only_what_moved(setup, monkeypatch):
    from app.ui.timeline.gantt import EventItem

    doc, panel, engine, _ = setup
    g = panel.gantt
    project = doc.project
    project.scenario().events.append(Bind("op2", 8.0, lun=3, priority="Low"))
    res = engine(project, doc.catalog)
    g.set_data(project, res)
    touched = []
    set_item = EventItem.set
    monkeypatch.setattr(EventItem, "set", lambda item, *a: (touched.append(item.event_id), set_item(item, *a)))
    # the same prediction, op1 moved and op2 given another LUN: only op1's item is redrawn
    project.scenario().event("op1").start_h = 2.5
    project.scenario().event("op2").lun = 4
    g.set_data(project, res)
    assert touched == ["op1"] and g.items["op1"].start_h == 2.5
    assert "Bind LUN 4" in g.items["op2"].tooltip_text()  # its words follow the edit
    # a new prediction with the same operations but op2's: only op2's item is redrawn
    res2 = copy.deepcopy(res)
    res2.operations = [dataclasses.replace(o, priority="High") if o.event_id == "op2" else o for o in res2.operations]
    touched.clear()
    g.set_data(project, res2)
    assert touched == ["op2"] and g.items["op2"].note.startswith("High")


def test_notes_only_on_rows_as_tall_as_their_text(setup, qtbot):
    doc, panel, _, _ = setup
    item = panel.gantt.items["op1"]
    assert item.note and item.note_fits()
    # the view as a plan of 60 rows would have it: rows of ~4 pixels, the notes would overlap
    panel.gantt.plot.setLimits(yMin=-60)
    panel.gantt.plot.setYRange(-60, 0.6, padding=0)
    qtbot.waitUntil(lambda: not item.note_fits(), timeout=2000)
    assert item.note  # still set, just not written


def test_row_labels_only_as_many_as_fit():
    from PySide6.QtGui import QFont, QFontMetrics

    from app.ui.timeline.gantt import LABEL_W, RowAxisItem

    axis = RowAxisItem()
    font = QFont("Sans", 8)
    axis.setTickFont(font)
    labels = [f"op{i}  Migrate LUN {i} -> LUN {i + 500} with a long label that is elided" for i in range(300)]
    axis.set_labels(labels)
    line = QFontMetrics(font).height()
    # 300 rows in 150 pixels: every n-th row, never closer than a line of text
    (step, values), = axis.tickValues(-299.6, 0.6, 150)
    rows = [int(-v) for v in values]
    row_px = 150 / 300.2
    assert 1 < len(rows) <= 150 // line and rows == sorted(rows)
    assert all(b - a == step for a, b in zip(rows, rows[1:])) and step * row_px >= line
    # whole labels: each row's centre at least half a line inside the axis
    assert (rows[0] + 0.6) * row_px >= line / 2 and (299.6 - rows[-1]) * row_px >= line / 2
    texts = axis.tickStrings(values, 1.0, step)
    assert texts[1].startswith(f"op{rows[1]}  Migrate") and texts[1] != labels[rows[1]]  # elided
    assert QFontMetrics(font).horizontalAdvance(texts[1]) <= LABEL_W
    # ten rows in view, room for each: all ten, only those in view
    (_, values), = axis.tickValues(-109.5, -99.5, 300)
    assert [int(-v) for v in values] == list(range(100, 110))


def test_phase_colours_and_parallel_lanes():
    from app.ui.timeline.gantt import PHASE_COLORS, phase_color, phase_lanes

    assert phase_color("copy LUN 0 -> LUN 20").name() == PHASE_COLORS["copy"]
    assert phase_color("wait for replacement").name() == PHASE_COLORS["wait"]
    # three copies at once, then a set-up after the first: three lanes, the set-up reuses lane 0
    lanes, n = phase_lanes([("copy", 0, 2), ("copy", 0, 3), ("copy", 0, 4), ("set-up", 2, 5)])
    assert (lanes, n) == ([0, 1, 2, 0], 3)
    assert phase_lanes([("copy", 0, 1), ("expansion", 1, 2)]) == ([0, 0], 1)
