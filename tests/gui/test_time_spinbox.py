"""Times on the plan are typed and shown as the timeline writes them (h:mm, d hh:mm), decimal
hours accepted: the timeline's Start box, the event forms and the Inspector use TimeSpinBox."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QValidator

from app.domain.formatting import parse_time
from app.ui.properties import TimeSpinBox
from configurator_support import isolated  # noqa: F401  (fixture)

pytestmark = pytest.mark.gui


def test_parse_time_reads_what_format_time_writes_and_decimal_hours():
    assert parse_time("2:32") == pytest.approx(2 + 32 / 60)
    assert parse_time("1 d 02:32") == parse_time("1d 2:32") == pytest.approx(26 + 32 / 60)
    assert parse_time("2.5") == parse_time("2.5 h") == 2.5
    assert parse_time("0:75") is None and parse_time("-1") is None and parse_time("soon") is None


def test_typing_h_mm_and_decimal_hours(qtbot):
    box = TimeSpinBox()
    qtbot.addWidget(box)
    box.setValue(1.5)
    assert box.text() == "1:30"
    box.lineEdit().selectAll()
    qtbot.keyClicks(box, "26:15")
    box.interpretText()
    assert box.value() == pytest.approx(26.25) and box.text() == "1 d 02:15"
    box.lineEdit().selectAll()
    qtbot.keyClicks(box, "0.75")
    box.interpretText()
    assert box.value() == pytest.approx(0.75) and box.text() == "0:45"
    assert box.validate("1:", 2)[0] == QValidator.Intermediate  # still typing
    assert box.validate("later", 5)[0] == QValidator.Invalid
    box.stepUp()
    assert box.value() == pytest.approx(1.0)  # the arrows step 15 minutes


def _type_enter(qtbot, box, text: str) -> None:
    from PySide6.QtCore import Qt
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key_Return)


def test_a_start_past_ten_years_is_refused_with_a_message(small_timeline, qtbot):
    """Typing 1000000 into the Start box was dropped without a word (its maximum is MAX_START_H)."""
    window, doc, parts = small_timeline
    tl = parts.timeline
    tl.select("op1")
    start = doc.project.scenario().event("op1").start_h
    _type_enter(qtbot, tl.start_box, "1000000")
    assert doc.project.scenario().event("op1").start_h == start
    msg = window.statusBar().currentMessage()
    assert "the latest start is 87,660 h (10 years)" in msg, msg
    assert "87,660 h" in tl.start_box.toolTip()
    assert "Start of the selected operation" in tl.start_box.toolTip()  # its own tip is kept
    tl.start_box.stepBy(1)  # a new value clears the mark
    assert "87,660" not in tl.start_box.toolTip()
    assert tl.start_box.toolTip().startswith("Start of the selected operation")


def test_the_inspectors_start_says_the_latest_start_too(qtbot, isolated):
    from configurator_support import make_window, settle
    from app.store.examples import example_path
    from app.store.project_file import load_project
    w = make_window(qtbot, load_project(example_path("emc-cx4-960-oltp")))
    messages: list[str] = []
    w.inspector.message.connect(messages.append)
    ev = w.document.project.scenario().events[0]
    w.selection.set([ev.id])
    settle(qtbot)
    _type_enter(qtbot, w.inspector.event_form.editors["start_h"], "1000000")
    assert w.document.project.scenario().event(ev.id).start_h == ev.start_h
    assert messages and "the latest start is 87,660 h (10 years)" in messages[-1], messages
