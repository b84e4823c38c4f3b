"""A Result carries the names it was computed with (Result.labels): while the prediction for a
rename is in flight, the charts and the scenario comparison still name the shown result's
series with the old name, and with the new one once the new result arrives."""
from __future__ import annotations

import os
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.domain import edits  # noqa: E402
from app.engine.simulate import simulate  # noqa: E402
from app.ui.charts import ChartsPanel  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.live import LiveSimulator  # noqa: E402
from app.ui.scenarios import compare_results  # noqa: E402

try:
    from test_live_support import catalog, small_project
except ImportError:
    from tests.gui.test_live_support import catalog, small_project

pytestmark = pytest.mark.gui


class GatedEngine:
    """The real engine, held at a gate: a test decides when a run may finish."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.started = threading.Event()

    def __call__(self, project, catalog, scenario_name=None):
        self.started.set()
        assert self.gate.wait(30), "the test never opened the gate"
        return simulate(project, catalog, scenario_name=scenario_name)


def response_label(charts: ChartsPanel, workload: str) -> str:
    names = {item.opts["name"] for curves in charts.curves.values()
             for (metric, entity, base), item in curves.items() if metric == "response_ms" and entity == workload}
    assert len(names) == 1, names
    return names.pop()


def test_chart_keeps_the_result_s_names_until_the_new_result(qtbot):
    cat = catalog()
    doc = Document(small_project(cat), cat)
    doc.apply(edits.EditWorkload("w1", name="Orders"))
    engine = GatedEngine()
    live = LiveSimulator(doc, simulate=engine)
    charts = ChartsPanel()
    qtbot.addWidget(charts)
    live.resultReady.connect(lambda r: charts.set_results(r.current, r.baseline, doc.project))
    qtbot.waitUntil(lambda: live.result is not None, timeout=30000)
    assert live.result.labels.workloads == {"w1": "Orders"}
    assert response_label(charts, "w1") == "Orders"

    engine.gate.clear()
    engine.started.clear()
    doc.apply(edits.EditWorkload("w1", name="Billing"))  # the rename's prediction is now held
    assert engine.started.wait(30) and live.busy
    # anything redrawing the shown (old) result now, with the renamed project beside it
    charts.set_results(live.result, live.baseline_result, doc.project)
    assert response_label(charts, "w1") == "Orders"
    assert doc.project.workload("w1").name == "Billing"

    engine.gate.set()
    qtbot.waitUntil(lambda: not live.busy, timeout=30000)
    assert live.result.labels.workloads == {"w1": "Billing"}
    assert response_label(charts, "w1") == "Billing"


def test_comparison_names_workloads_as_the_runs_did(qtbot):
    cat = catalog()
    project = small_project(cat)
    project.workload("w1").name = "Orders"
    result = simulate(project, cat)
    project.workload("w1").name = "Billing"  # renamed after the run
    rows = [r for r in compare_results(result, result, project) if r.section == "Workloads"]
    assert [r.label for r in rows] == ["Orders"]
