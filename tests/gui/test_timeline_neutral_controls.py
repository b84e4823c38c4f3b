"""With no operation selected the timeline's Start and Priority boxes are disabled and empty (not
the last selected operation's values); selecting one shows its values again."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.store.examples import example_path  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.timeline.panel import TimelinePanel  # noqa: E402

try:
    from test_live_support import catalog
except ImportError:
    from tests.gui.test_live_support import catalog

pytestmark = pytest.mark.gui


@pytest.fixture
def panel(qtbot):
    project = load_project(example_path("emc-cx4-960-oltp"))
    project.current_scenario = "Dependent High migration"  # one migration, High, at 0:15
    doc = Document(project, catalog())
    panel = TimelinePanel(doc)
    qtbot.addWidget(panel)
    panel.resize(1400, 200)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def shown(panel) -> tuple[str, str]:
    return panel.start_box.text(), panel.priority_box.currentText()


def test_no_selection_leaves_the_boxes_empty(panel):
    eid = panel.project.scenario().events[0].id
    panel.select(eid)
    assert shown(panel) == ("0:15", "High")
    assert panel.start_box.isEnabled() and panel.priority_box.isEnabled()
    panel.select("")
    assert not panel.start_box.isEnabled() and not panel.priority_box.isEnabled()
    assert shown(panel) == ("", "")
    panel.select(eid)  # the same start again: its text comes back though the value did not change
    assert shown(panel) == ("0:15", "High")
    assert panel.start_box.isEnabled()


def test_deselecting_does_not_move_the_operation(panel, qtbot):
    ev = panel.project.scenario().events[0]
    panel.select(ev.id)
    panel.select("")
    panel.window().activateWindow()
    qtbot.wait(20)
    assert panel.project.scenario().events[0].start_h == ev.start_h
    assert shown(panel) == ("", "")
