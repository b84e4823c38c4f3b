"""Issue 23: hiding a chart leaves no blank space: the charts below move up to the top (the grid
kept each hidden plot's 26 px minimum and the spacing after it)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.engine import simulate  # noqa: E402
from app.store.examples import example_path  # noqa: E402
from app.store.presets import default_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.charts import ChartsPanel  # noqa: E402

pytestmark = pytest.mark.gui


def test_hidden_charts_take_no_room_and_come_back(qtbot):
    cat = default_catalog()
    p = load_project(example_path("emc-cx4-960-oltp"))
    panel = ChartsPanel()
    qtbot.addWidget(panel)
    panel.resize(1100, 500)
    panel.show()
    panel.set_results(simulate(p, cat, p.current_scenario), project=p)
    qtbot.wait(50)
    keys = list(panel.plots)
    top = panel.glw.ci.layout.getContentsMargins()[1]
    heights = {k: panel.plots[k].geometry().height() for k in keys}
    for k in keys[:3]:
        panel.set_plot_visible(k, False)
    qtbot.waitUntil(lambda: abs(panel.plots[keys[3]].geometry().y() - top) < 1.5, timeout=2000)
    assert all(panel.plots[k].geometry().height() == 0 for k in keys[:3])
    for k in keys[:3]:
        panel.set_plot_visible(k, True)
    qtbot.waitUntil(lambda: all(panel.plots[k].geometry().height() >= 0.9 * heights[k] for k in keys[:3]),
                    timeout=2000)
