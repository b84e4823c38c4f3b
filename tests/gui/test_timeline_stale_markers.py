"""A failed prediction dims the whole Gantt, not only the operations' bars: the drive-failure,
replacement and feature-enable markers and the workload lanes too; the next good prediction
restores them. (The bars: test_timeline_stale_bars.py.)"""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QPointF  # noqa: E402
from PySide6.QtGui import QColor  # noqa: E402

from app.domain.project import DriveFailure, DriveReplacement, FeatureEnable, Scenario  # noqa: E402
from app.engine.result import OperationResult, Phase, Result  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.timeline.panel import TimelinePanel  # noqa: E402

try:
    from test_live_support import catalog
except ImportError:
    from tests.gui.test_live_support import catalog

pytestmark = pytest.mark.gui
EXAMPLES = Path(__file__).resolve().parents[2] / "presets" / "examples"


def op(eid, kind, phases):
    return OperationResult(eid, kind, f"{kind} {eid}", "High", phases[0][1], phases[-1][2],
                           [Phase(n, s, e, 0.0, 0.0) for n, s, e in phases], [])


@pytest.fixture
def gantt(qtbot):
    """The Dell example (one workload lane) with a feature enable at 0:15, a drive failure at 1:00
    (rebuilt by 2:00) and its replacement at 3:00; plan 4:00."""
    project = load_project(EXAMPLES / "dell-md3200-hpt.json")
    project.scenarios = [Scenario("S", [FeatureEnable("op1", 0.25, feature="hpt"),
                                        DriveFailure("op2", 1.0, drive="0_0_1", priority="High"),
                                        DriveReplacement("ev3", 3.0, drive="0_0_1")])]
    project.current_scenario = "S"
    panel = TimelinePanel(Document(project, catalog()))
    qtbot.addWidget(panel)
    panel.resize(1400, 260)
    panel.show()
    qtbot.waitExposed(panel)
    panel.set_result(Result("S", 4.0, [op("op1", "feature_enable", [("reboot", 0.25, 0.35)]),
                                       op("op2", "drive_failure", [("rebuild", 1.0, 2.0)])], {}, []))
    panel.gantt.plot.setXRange(0.0, 4.0, padding=0)
    qtbot.wait(50)
    return panel.gantt


def colours(gantt) -> dict[str, QColor]:
    """The colours on screen at each marker's middle and along the workload lane."""
    vb = gantt.plot.getViewBox()
    img = gantt.plot_widget.grab().toImage()

    def at(t, y):
        pt = gantt.plot_widget.mapFromScene(vb.mapViewToScene(QPointF(t, y)))
        return img.pixelColor(pt.x(), pt.y())

    out = {eid: at(gantt.items[eid].start_h, gantt.items[eid].y) for eid in ("op1", "op2", "ev3")}
    lane = next(iter(gantt.lanes.values()))
    out["lane"] = at(3.5, lane.y)
    return out


def paler(a: QColor, b: QColor) -> bool:
    """a is b drawn paler (lighter; a marker over a bar blends with the bar's own pale colour,
    so not every channel need be nearer white)."""
    return a.lightness() > b.lightness()


def test_a_failed_prediction_dims_markers_and_lanes_and_a_good_one_restores_them(gantt, qtbot):
    full = colours(gantt)
    assert full["op2"] != QColor("white") and full["ev3"] != QColor("white") and full["lane"] != QColor("white")

    gantt.set_stale(True, dim=True)  # the prediction failed (TimelineParts.on_failed)
    qtbot.wait(50)
    dimmed = colours(gantt)
    for what in full:
        assert paler(dimmed[what], full[what]), what

    gantt.set_stale(False)  # the next good prediction
    qtbot.wait(50)
    assert colours(gantt) == full


def test_a_good_result_repaints_only_what_was_painted_pale(gantt, qtbot):
    """The Gantt is redrawn on every edit: a good result after a good one forces no repaint."""
    gantt.set_stale(True)  # a prediction runs: nothing is forced
    gantt.set_stale(False)
    items = [*gantt.items.values(), *gantt.lanes.values()]
    assert not any(i.painted_stale for i in items)
    updated = []
    for i in items:
        i.update = lambda i=i: updated.append(i)
    gantt.set_stale(True)
    gantt.set_stale(False)
    assert updated == []
