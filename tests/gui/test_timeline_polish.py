"""The timeline's toolbar and drawing: the cursor time and the message side by side, the phase
legend, a feature enable's words, workload lanes as long as the plan."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.domain.project import FeatureEnable, Scenario  # noqa: E402
from app.engine.result import OperationResult, Phase, Result  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.timeline.gantt import LEGEND_PHASES, PHASE_COLORS  # noqa: E402
from app.ui.timeline.legend import legend_keys  # noqa: E402
from app.ui.timeline.panel import TimelinePanel  # noqa: E402

try:
    from test_live_support import catalog
except ImportError:
    from tests.gui.test_live_support import catalog

pytestmark = pytest.mark.gui
EXAMPLES = Path(__file__).resolve().parents[2] / "presets" / "examples"


def op(eid, kind, priority, phases):
    return OperationResult(eid, kind, f"{kind} {eid}", priority, phases[0][1], phases[-1][2],
                           [Phase(n, s, e, 0.0, 0.0) for n, s, e in phases], [])


@pytest.fixture
def dell(qtbot):
    """The Dell example with only a feature enable at 0:15 (a 5 min reboot), plan 0:20."""
    cat = catalog()
    project = load_project(EXAMPLES / "dell-md3200-hpt.json")
    project.scenarios = [Scenario("S", [FeatureEnable("op1", 0.25, feature="hpt")])]
    project.current_scenario = "S"
    doc = Document(project, cat)
    panel = TimelinePanel(doc)
    qtbot.addWidget(panel)
    panel.resize(1400, 200)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_result(Result("S", 20 / 60, [op("op1", "feature_enable", "", [("reboot", 0.25, 20 / 60)])], {}, []))
    return doc, panel


def test_cursor_time_and_message_do_not_overlap(dell, qtbot):
    _, panel = dell
    panel.gantt.dragging.emit("op1", 1.25)
    qtbot.wait(10)
    assert panel.message.text() == "start 1:15"
    assert panel.time_label.geometry().right() < panel.message.geometry().left()
    assert panel.message.geometry().right() < panel.legend.geometry().left()


def test_feature_enable_is_named_and_has_no_empty_priority(dell):
    _, panel = dell
    item = panel.gantt.items["op1"]
    tip = item.tooltip_text()
    assert "Enable High Performance Tier" in tip and "Enable hpt" not in tip
    assert "priority" not in tip and "duration 5 min" in tip
    assert item.note == "5 min"


def test_workload_lanes_end_with_the_plan(dell):
    _, panel = dell
    assert [lane.horizon for lane in panel.gantt.lanes.values()] == [pytest.approx(20 / 60)]


def test_legend_lists_the_phases_the_plan_shows(dell):
    _, panel = dell
    assert panel.legend.keys == ["reboot"]
    result = Result("S", 5.0, [
        op("op1", "volume_migration", "Normal", [("set-up LUN 3", 0, 1), ("copy LUN 3 -> LUN 20", 1, 2)]),
        op("op2", "reallocate", "Normal", [("measure", 0, 0.1), ("reallocate", 0.1, 1)]),
        op("op3", "drive_failure", "High", [("degraded", 0, 1), ("rebuild", 1, 2), ("wait for replacement", 2, 3)]),
    ], {}, [])
    assert legend_keys(result) == ["set-up", "copy", "rebuild", "degraded", "wait", "measure", "reallocate"]
    assert set(LEGEND_PHASES) <= set(PHASE_COLORS)
    assert PHASE_COLORS["reallocate"] not in (PHASE_COLORS["rebuild"], PHASE_COLORS["degraded"])
