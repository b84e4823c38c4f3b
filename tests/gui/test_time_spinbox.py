"""Times on the plan are typed and shown as the timeline writes them (h:mm, d hh:mm), decimal
hours accepted: the timeline's Start box, the event forms and the Inspector use TimeSpinBox."""
from __future__ import annotations

import pytest
from PySide6.QtGui import QValidator

from app.domain.formatting import parse_time
from app.ui.properties import TimeSpinBox

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
