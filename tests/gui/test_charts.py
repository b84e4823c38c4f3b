"""Charts dock: the Result's series drawn as right-steps, the cursor read-out, hover, export, and the
dashed baseline."""
from __future__ import annotations

import csv
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QPointF, Qt  # noqa: E402

from app.domain.formatting import format_ms  # noqa: E402
from app.engine.result import Result, Series, SeriesBlock  # noqa: E402
from app.ui.charts import FOLLOW_SPARE, MAX_CURVES, PLOTS, ChartsPanel, choose_entities, step_xy  # noqa: E402
from app.ui.charts.timeaxis import TimeAxisItem, pick_spacing  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui


@pytest.fixture
def result():
    cat = catalog()
    proj = small_project(cat)
    return proj, FakeEngine()(proj, cat)


def test_curves_are_the_engine_series_as_right_steps(panel, result):
    proj, res = result
    panel.set_results(res, project=proj)
    for (metric, ent), s in res.series.items():
        item = panel.curve(metric, ent)
        assert item is not None, (metric, ent)
        x, y = item.getOriginalDataset()
        assert item.opts["stepMode"] == "right"
        # every breakpoint and value of the series, then the last value held to the horizon
        np.testing.assert_allclose(x[: len(s.t)], s.t)
        np.testing.assert_allclose(y[: len(s.v)], s.v)
        assert x[-1] == pytest.approx(res.horizon_h) and y[-1] == s.v[-1]


def test_selected_curves_stand_out(panel, result):
    proj, res = result
    panel.set_results(res, project=proj)
    widths = lambda: {k[:2]: item.opts["pen"].widthF() for key in panel.curves for k, item in panel.curves[key].items()}
    assert set(widths().values()) == {1.0}  # one pixel: Qt draws those fastest
    panel.set_focus({("response_ms", "w1")})
    assert widths()[("response_ms", "w1")] == 2.0 and sorted(widths().values())[:-1] == [1.0] * (len(widths()) - 1)
    assert panel.curve("response_ms", "w1").zValue() > panel.curve("cpu_pct", "SP A/0").zValue()
    panel.set_focus(set())
    assert set(widths().values()) == {1.0}


def test_step_xy_holds_last_value_until_horizon():
    s = Series("cpu_pct", "SP A/0", "%", np.array([0.0, 2.0]), np.array([10.0, 30.0]))
    x, y = step_xy(s, 5.0)
    assert list(x) == [0.0, 2.0, 5.0] and list(y) == [10.0, 30.0, 30.0]


def test_cursor_readout(panel, result):
    proj, res = result
    panel.set_results(res, project=proj)
    op = res.operation("op1")
    during = (op.start_h + op.end_h) / 2
    panel.set_cursor(during)
    vals = {(m, e): v for _, m, e, v, _ in panel.values_at(during)}
    assert vals[("response_ms", "w1")] == res.get("response_ms", "w1").at(during) == pytest.approx(58.0)
    # the read-out tree shows the same, under its plot's title, with the workload's name
    tree = panel.readout
    tops = {tree.topLevelItem(i).text(0): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}
    resp = tops["Host response time"]
    assert (resp.child(0).text(0), resp.child(0).text(1)) == ("OLTP", format_ms(58.0))
    # dragging a cursor line moves the others and reports the time
    seen = []
    panel.cursorMoved.connect(seen.append)
    panel.cursor_lines["cpu"].setValue(1.0)
    assert seen == [1.0]
    assert all(line.value() == 1.0 for line in panel.cursor_lines.values())
    assert tops and panel.readout.topLevelItem(0) is not None


def test_hover_readout(panel, result, qtbot):
    proj, res = result
    panel.set_results(res, project=proj)
    qtbot.wait(50)  # let the layout settle before mapping view coordinates
    plot = panel.plots["response"]
    op = res.operation("op1")
    scene_pos = plot.getViewBox().mapViewToScene(QPointF((op.start_h + op.end_h) / 2, 30.0))
    panel._mouse_moved((scene_pos,))
    text = panel.hover_text["response"]
    assert text.isVisible()
    assert "OLTP: " + format_ms(58.0) in text.textItem.toPlainText()


def test_export_png_and_csv(panel, result, tmp_path):
    proj, res = result
    panel.set_results(res, project=proj)
    png = panel.export_png("response", tmp_path / "resp.png")
    assert png.stat().st_size > 1000 and png.read_bytes()[:4] == b"\x89PNG"
    path = panel.export_csv(tmp_path / "all.csv")
    rows = list(csv.DictReader(path.open()))
    resp = [r for r in rows if r["metric"] == "response_ms"]
    s = res.get("response_ms", "w1")
    assert [float(r["value"]) for r in resp] == list(s.v)
    assert [float(r["start_h"]) for r in resp] == list(s.t)
    assert float(resp[-1]["end_h"]) == pytest.approx(res.horizon_h)
    assert resp[0]["label"] == "OLTP" and resp[0]["unit"] == "ms"
    one = panel.export_csv(tmp_path / "cpu.csv", "cpu")
    assert {r["metric"] for r in csv.DictReader(one.open())} == {"cpu_pct"}


def test_baseline_drawn_dashed(panel, result):
    proj, res = result
    cat = catalog()
    other = small_project(cat)
    other.scenario().events[0].priority = "Low"
    base = FakeEngine()(other, cat)
    panel.set_results(res, base, project=proj)
    item = panel.curve("response_ms", "w1", baseline=True)
    assert item is not None and item.opts["pen"].style() == Qt.DashLine
    x, y = item.getOriginalDataset()
    np.testing.assert_allclose(y[:-1], base.get("response_ms", "w1").v)
    assert panel.values_at(3.0)[0][4] is not None
    panel.set_results(res, None, project=proj)
    assert panel.curve("response_ms", "w1", baseline=True) is None


def test_many_entities_limited_to_busiest_and_focused():
    res = Result("S", 10.0)
    for i in range(40):
        res.series[("group_pct", str(i))] = Series("group_pct", str(i), "%", np.array([0.0]), np.array([float(i)]))
    spec = next(s for s in PLOTS if s.key == "disk")
    pairs, total = choose_entities(res, spec, {("group_pct", "3")})
    assert total == 40 and len(pairs) == MAX_CURVES
    assert ("group_pct", "3") in pairs and ("group_pct", "39") in pairs and ("group_pct", "20") not in pairs


def test_busiest_ranked_from_the_engine_matrix_without_building_series():
    # the engine stores each metric as one matrix; ranking 40 groups must not build 40 Series
    res = Result("S", 10.0)
    peaks = np.array([(7 * i) % 40 for i in range(40)], dtype=float)  # a shuffled ranking
    V = np.vstack([np.zeros(40), peaks, peaks / 2])  # each group peaks in the second step
    res.add_block(SeriesBlock("group_pct", "%", [str(i) for i in range(40)], np.array([0.0, 1.0, 2.0]), V))
    spec = next(s for s in PLOTS if s.key == "disk")
    pairs, total = choose_entities(res, spec)
    assert total == 40
    busiest = sorted(range(40), key=lambda i: -peaks[i])[:MAX_CURVES]
    assert set(pairs) == {("group_pct", str(i)) for i in busiest}
    assert dict.__len__(res.series) == 0  # no Series was materialized
    assert max(res.series[p].peak() for p in pairs) == 39.0


def test_values_at_a_time_as_each_series_gives_them():
    from app.ui.charts import values_at

    res = Result("S", 10.0)
    V = np.array([[10.0, 0.0, 5.0], [10.0, 40.0, 5.0], [30.0, 40.0, 7.0]])
    res.add_block(SeriesBlock("drive_pct", "%", ["0_0_1", "0_0_2", "0_0_3"], np.array([0.0, 2.0, 4.0]), V))
    res.series[("drive_pct", "0_0_4")] = Series("drive_pct", "0_0_4", "%", np.array([0.0, 3.0]), np.array([1.0, 2.0]))
    for t in (0.0, 1.9, 2.0, 3.5, 4.0, 9.0):
        got = values_at(res, "drive_pct", t)
        assert got == {e: res.series[("drive_pct", e)].at(t) for e in ("0_0_1", "0_0_2", "0_0_3", "0_0_4")}


def test_status_text_changes_without_a_relayout(qtbot):
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

    from app.ui.charts.statustext import StatusText

    class Requests(QObject):
        count = 0

        def eventFilter(self, obj, event):  # noqa: N802
            if event.type() == QEvent.LayoutRequest:
                self.count += 1
            return False

    box = QWidget()
    qtbot.addWidget(box)
    lay = QHBoxLayout(box)
    status, label = StatusText("Predicting..."), QLabel("Predicting...")
    lay.addWidget(status, 1)
    lay.addWidget(label)
    box.show()
    qtbot.waitExposed(box)
    qtbot.wait(20)  # the first layout
    requests = Requests()
    box.installEventFilter(requests)
    status.setText("Scenario 'Generated', plan to 30 d 00:00  ·  updated in 250 ms")
    qtbot.wait(20)
    assert requests.count == 0 and status.text().endswith("250 ms")
    label.setText("Scenario 'Generated', plan to 30 d 00:00")  # what a QLabel does
    qtbot.wait(20)
    assert requests.count > 0


def test_time_axis_ticks(qtbot):
    # issue 23: one notation at every zoom, the plan's own (format_time): it switched between
    # "0:30", "1 h" and "0 d 02:00"
    axis = TimeAxisItem()
    for span, spacing, values, want in (
            (1.0, 0.25, [0.25, 0.5], ["0:15", "0:30"]),
            (12.0, 2, [2.0, 4.0], ["2:00", "4:00"]),
            (48.0, 6, [18.0, 30.0], ["18:00", "1 d 06:00"]),
            (24 * 30, 7 * 24, [0.0, 168.0, 672.0], ["0:00", "7 d 00:00", "28 d 00:00"])):
        axis.setRange(0.0, span)
        assert axis.tickStrings(values, 1.0, spacing) == want
    assert pick_spacing(10.0, 1000) == 1
    assert pick_spacing(24 * 14, 1000) == 24


def test_hide_plot(panel, result):
    proj, res = result
    panel.set_results(res, project=proj)
    panel.set_plot_visible("bus", False)
    assert not panel.plots["bus"].isVisible()
    panel.set_plot_visible("bus", True)
    assert panel.plots["bus"].isVisible()


def test_time_axis_follows_the_plan_until_zoomed(panel, result):
    proj, res = result
    panel.set_results(res, project=proj)
    x0, x1 = panel.master_plot.getViewBox().viewRange()[0]
    assert x1 == pytest.approx(res.horizon_h, rel=0.05)
    longer = Result(res.scenario, res.horizon_h * 2, res.operations, res.series)
    panel.set_results(longer, project=proj)
    x1 = panel.master_plot.getViewBox().viewRange()[0][1]
    assert longer.horizon_h < x1 <= longer.horizon_h * (1 + FOLLOW_SPARE) * 1.02  # with room to spare
    # growing into the room to spare does not move the axis (a refit redraws every plot)
    a_bit_longer = Result(res.scenario, longer.horizon_h * (1 + FOLLOW_SPARE / 2), res.operations, res.series)
    panel.set_results(a_bit_longer, project=proj)
    assert panel.master_plot.getViewBox().viewRange()[0][1] == pytest.approx(x1)
    panel.fit()  # the Fit button: the whole plan, no room to spare
    assert panel.master_plot.getViewBox().viewRange()[0][1] == pytest.approx(a_bit_longer.horizon_h, rel=0.02)
    panel.master_plot.setXRange(1.0, 2.0, padding=0)  # the user zooms in
    panel.set_results(res, project=proj)
    assert panel.master_plot.getViewBox().viewRange()[0] == pytest.approx([1.0, 2.0])


def test_plots_out_of_view_are_drawn_when_scrolled_to(qtbot, result):
    proj, res = result
    p = ChartsPanel()
    qtbot.addWidget(p)
    p.resize(900, 330)  # room for about one plot: the others are below, in the scroll area
    p.show()
    qtbot.waitExposed(p)
    p.set_results(res, project=proj)
    assert "response" not in p._pending and "progress" in p._pending
    assert p.values_at(3.0)  # the read-out covers every plot all the same
    bar = p.scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    qtbot.waitUntil(lambda: "progress" not in p._pending, timeout=3000)
    x, y = p.curves["progress"][("progress_pct", "op1", False)].getOriginalDataset()
    assert list(y[:-1]) == list(res.get("progress_pct", "op1").v)
