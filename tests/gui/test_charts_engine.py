"""The charts, the cursor read-out and the timeline show the engine's own numbers: compared with
`arrayplanner simulate FILE --scenario S --json` for the EMC OLTP example (the dependent-LUN ASAP
migration of the paper's Figures 9-10)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from app.domain import edits  # noqa: E402
from app.ui.charts import PLOTS, ChartsPanel, choose_entities  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.live import LiveSimulator  # noqa: E402
from app.ui.timeline.panel import TimelinePanel  # noqa: E402

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "Dependent ASAP migration"


def cli_json(path: Path, scenario: str) -> dict:
    exe = shutil.which("arrayplanner")
    cmd = [exe] if exe else [sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main())"]
    out = subprocess.run([*cmd, "simulate", str(path), "--scenario", scenario, "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def value_at(t: list[float], v: list[float], time_h: float) -> float:
    i = int(np.searchsorted(np.asarray(t), time_h, side="right")) - 1
    return v[max(i, 0)]


@pytest.fixture(scope="module")
def example_file():
    from app.store.examples import example_path

    return example_path("emc-cx4-960-oltp")


@pytest.fixture
def live_setup(qtbot, example_file):
    from app.store.presets import default_catalog
    from app.store.project_file import load_project

    cat = default_catalog()
    doc = Document(load_project(example_file), cat)
    doc.apply(edits.SetCurrentScenario(SCENARIO))
    live = LiveSimulator(doc)
    charts = ChartsPanel()
    timeline = TimelinePanel(doc)
    qtbot.addWidget(charts)
    qtbot.addWidget(timeline)

    def show(r):
        charts.set_results(r.current, r.baseline, doc.project)
        timeline.set_result(r.current)

    live.resultReady.connect(show)
    qtbot.waitUntil(lambda: live.result is not None or live.error is not None, timeout=60000)
    assert live.error is None, live.error
    return doc, live, charts, timeline


def test_curves_equal_cli_json(live_setup, example_file):
    doc, live, charts, _ = live_setup
    ref = cli_json(example_file, SCENARIO)
    res = live.result
    assert res.scenario == ref["scenario"] == SCENARIO
    assert res.horizon_h == pytest.approx(ref["horizon_h"])
    by_key = {(s["metric"], s["entity"]): s for s in ref["series"]}
    checked = 0
    for spec in PLOTS:
        shown, _ = choose_entities(res, spec)
        assert shown, f"the {spec.title} chart shows nothing"
        for metric, ent in shown:
            s = by_key[(metric, ent)]
            x, y = charts.curve(metric, ent).getOriginalDataset()
            np.testing.assert_allclose(x[: len(s["t"])], s["t"], rtol=1e-9)
            np.testing.assert_allclose(y[: len(s["v"])], s["v"], rtol=1e-9)
            assert x[-1] == pytest.approx(max(ref["horizon_h"], s["t"][-1]))
            checked += 1
    assert checked >= 10


def test_timeline_phases_equal_cli_json(live_setup, example_file):
    _, _, _, timeline = live_setup
    ref = cli_json(example_file, SCENARIO)
    op = next(o for o in ref["operations"] if o["event_id"] == "op1")
    item = timeline.gantt.items["op1"]
    want = [(p["name"], p["start_h"], p["end_h"] if p["end_h"] is not None else ref["horizon_h"])
            for p in op["phases"]]
    assert [(n, pytest.approx(s), pytest.approx(e)) for n, s, e in item.phases] == want
    assert op["label"] in timeline.gantt.rows[timeline.gantt.row_of("op1")].label


def test_cursor_readout_shows_the_asap_effect(live_setup, example_file):
    doc, live, charts, _ = live_setup
    ref = cli_json(example_file, SCENARIO)
    op = next(o for o in ref["operations"] if o["event_id"] == "op1")
    resp = next(s for s in ref["series"] if s["metric"] == "response_ms" and s["entity"] == "oltp")
    before = op["start_h"] / 2
    end = op["end_h"] if op["end_h"] is not None else ref["horizon_h"]
    during = (op["start_h"] + end) / 2
    for t in (before, during):
        charts.set_cursor(t)
        vals = {(m, e): v for _, m, e, v, _ in charts.values_at(t)}
        assert vals[("response_ms", "oltp")] == pytest.approx(value_at(resp["t"], resp["v"], t))
        tree = charts.readout
        top = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount())
                   if tree.topLevelItem(i).text(0) == "Host response time")
        names = [top.child(i).text(0) for i in range(top.childCount())]
        assert "OLTP (simulated)" in names
    # the paper's Figure 10: the OLTP response time rises while the dependent LUN migrates at ASAP
    assert value_at(resp["t"], resp["v"], during) > 1.5 * value_at(resp["t"], resp["v"], before)
