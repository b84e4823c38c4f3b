"""The response chart shows a workload's reads and writes apart (the engine's response_read_ms and
response_write_ms series): for a selected workload, or for the only one; not for every workload
of a busy plan, which would triple the plot."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from app.engine import simulate  # noqa: E402
from app.store.examples import example_path  # noqa: E402
from app.store.presets import default_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.charts import PLOTS, ChartsPanel, choose_entities  # noqa: E402

pytestmark = pytest.mark.gui
RESPONSE = next(s for s in PLOTS if s.key == "response")


@pytest.fixture(scope="module")
def hp():
    cat = default_catalog()
    p = load_project(example_path("hp-sa6402-raid5"))
    return p, simulate(p, cat, "OLTP 2 KB, rebuild at High")


def test_reads_and_writes_follow_the_selection(hp):
    project, res = hp
    assert len(res.entities("response_ms")) > 1  # two workloads: no split curves unless selected
    shown, _ = choose_entities(res, RESPONSE)
    assert {m for m, _ in shown} == {"response_ms"}
    focus = {("response_ms", "oltp")}
    shown, _ = choose_entities(res, RESPONSE, focus)
    assert ("response_read_ms", "oltp") in shown and ("response_write_ms", "oltp") in shown
    assert ("response_read_ms", "seq") not in shown


def test_the_split_curves_are_the_engines_series(qtbot, hp):
    project, res = hp
    charts = ChartsPanel()
    qtbot.addWidget(charts)
    charts.set_focus({("response_ms", "oltp")})
    charts.set_results(res, None, project)
    for metric in ("response_read_ms", "response_write_ms"):
        s = res.get(metric, "oltp")
        x, y = charts.curve(metric, "oltp").getOriginalDataset()
        np.testing.assert_allclose(y[: len(s.v)], s.v, rtol=1e-9)
    # a 2 KB OLTP read misses the cache and waits for a drive; its write lands in the cache
    reads, writes = res.get("response_read_ms", "oltp"), res.get("response_write_ms", "oltp")
    assert reads.at(0.01) > 5 * writes.at(0.01)
