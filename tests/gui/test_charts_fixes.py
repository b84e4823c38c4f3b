"""Charts and comparison fixes after the QA review: linear progress (read-out, curve, CSV), the time
axis under the lowest visible chart and on exported PNGs, no SI prefix on the time axis, one colour
per workload, hidden charts out of the read-out, the stale state after a failed prediction, and the
comparison's "not finished"."""
from __future__ import annotations

import csv
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from app.domain import edits  # noqa: E402
from app.engine.result import Result, Series, SeriesBlock  # noqa: E402
from app.engine.simulate import simulate  # noqa: E402
from app.ui.charts import PLOTS  # noqa: E402
from app.ui.charts.timeaxis import TimeAxisItem  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.scenarios import CompareTable  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def cat():
    from app.store.presets import default_catalog

    return default_catalog()


def _example(cat, name: str, scenario: str | None = None):
    from app.store.examples import example_path
    from app.store.project_file import load_project

    doc = Document(load_project(example_path(name)), cat)
    if scenario is not None:
        doc.apply(edits.SetCurrentScenario(scenario))
    return doc


@pytest.fixture(scope="module")
def oltp(cat):
    """The EMC OLTP example's dependent ASAP migration: copy to 50% by 0:23, then a slow
    expansion to 100% at 2:53."""
    doc = _example(cat, "emc-cx4-960-oltp", "Dependent ASAP migration")
    return doc.project, simulate(doc.project, cat)


def _by_hand(block: SeriesBlock, j: int, t: float) -> float:
    """The engine's recorded progress points joined by straight lines."""
    i = int(np.searchsorted(block.t, t, side="right")) - 1
    t0, t1 = block.t[i], block.t[i + 1]
    v0, v1 = block.V[i, j], block.V[i + 1, j]
    return float(v0 + (v1 - v0) * (t - t0) / (t1 - t0))


def _readout(panel) -> dict[str, dict[str, str]]:
    tree = panel.readout
    out = {}
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        out[top.text(0)] = {top.child(k).text(0): top.child(k).text(1) for k in range(top.childCount())}
    return out


# ------------------------------------------------------------------ 1. progress
def test_progress_readout_is_the_linear_interpolation(panel, oltp):
    proj, res = oltp
    panel.set_results(res, project=proj)
    block = next(b for b in res.series.blocks if b.metric == "progress_pct")
    j = block.column("op1")
    panel.set_cursor(0.6)  # inside the expansion (recorded at 0:23 = 50% and 1:08 = 100%)
    want = _by_hand(block, j, 0.6)
    assert 60.0 < want < 70.0
    vals = {(m, e): v for _, m, e, v, _ in panel.values_at(0.6)}
    assert vals[("progress_pct", "op1")] == pytest.approx(want)
    assert res.get("progress_pct", "op1").at(0.6) == pytest.approx(want)
    assert list(_readout(panel)["Operation progress"].values()) == [f"{want:.0f}%"]
    # the curve: the engine's points joined by lines (no step), then held to the horizon
    item = panel.curve("progress_pct", "op1")
    assert item.opts["stepMode"] is None
    x, y = item.getOriginalDataset()
    s = res.get("progress_pct", "op1")
    np.testing.assert_allclose(x[: len(s.t)], s.t)
    np.testing.assert_allclose(y[: len(s.v)], s.v)
    # the engine's numbers are unchanged: the recorded points are those of the matrix
    assert set(np.round(s.v, 9)) <= set(np.round(block.V[:, j], 9))
    # the stepwise metrics are still steps
    assert panel.curve("response_ms", "oltp").opts["stepMode"] == "right"


def test_progress_reaches_100_at_the_operations_end(panel, oltp):
    proj, res = oltp
    panel.set_results(res, project=proj)
    op = res.operation("op1")
    s = res.get("progress_pct", "op1")
    assert s.linear and s.v[-1] == 100.0 and s.t[-1] == pytest.approx(op.end_h)
    # rising until the end: just before it the operation is nearly done (not stuck at 50%)
    assert 99.0 < s.at(op.end_h - 0.01) < 100.0
    # the flat 0% before the start keeps its end: the line starts rising at the start
    assert s.at(op.start_h) == 0.0 and s.at((op.start_h + 0.32) / 2) > 0.0


def test_progress_of_a_long_low_migration_rises_through_the_run(cat):
    """QA: worked examples, 'Migration Low' with op1 at 40 h: 0% for the whole run, then a spike."""
    doc = _example(cat, "emc-cx4-960-worked-examples", "Migration Low")
    doc.apply(edits.MoveEvent("op1", 40.0))
    res = simulate(doc.project, cat)
    op = res.operation("op1")
    s = res.get("progress_pct", "op1")
    mid = (op.start_h + op.end_h) / 2
    assert 20.0 < s.at(mid) < 80.0
    assert s.at(op.end_h) == 100.0


def test_csv_pieces_are_lines_for_progress_and_none_has_zero_length(panel, oltp, tmp_path):
    proj, res = oltp
    panel.set_results(res, project=proj)
    rows = list(csv.DictReader(panel.export_csv(tmp_path / "all.csv").open()))
    assert all(float(r["end_h"]) > float(r["start_h"]) for r in rows)
    prog = [r for r in rows if r["metric"] == "progress_pct"]
    s = res.get("progress_pct", "op1")
    # each piece goes from one recorded point to the next; the last piece ends at 100% at the end
    assert [float(r["value"]) for r in prog] == pytest.approx(list(s.v[:-1]))
    assert [float(r["end_value"]) for r in prog] == pytest.approx(list(s.v[1:]))
    assert float(prog[-1]["end_h"]) == pytest.approx(res.operation("op1").end_h)
    assert float(prog[-1]["end_value"]) == 100.0
    # stepwise series: flat pieces
    resp = [r for r in rows if r["metric"] == "response_ms"]
    assert all(r["value"] == r["end_value"] for r in resp)
    # the rate is named after the operation, not its id
    rate = next(r for r in rows if r["metric"] == "rate_mb_s")
    assert rate["label"] == res.operation("op1").label


def test_result_json_says_which_series_are_linear(oltp):
    _, res = oltp
    series = res.to_json()["series"]
    assert {s["metric"] for s in series if s["linear"]} == {"progress_pct"}


# ------------------------------------------------------------------ 2. time axis on the lowest chart / PNG
def _ticks_shown(panel, key: str) -> bool:
    axis = panel.plots[key].getAxis("bottom")
    return bool(axis.style["showValues"]) and axis.label.isVisible()


def test_time_ticks_under_the_lowest_visible_chart(panel, oltp):
    proj, res = oltp
    panel.set_results(res, project=proj)
    keys = [s.key for s in PLOTS]
    assert [k for k in keys if _ticks_shown(panel, k)] == [keys[-1]]
    panel.set_plot_visible(keys[-1], False)  # QA: hide "Host throughput": no chart had times
    assert [k for k in keys if _ticks_shown(panel, k)] == [keys[-2]]
    panel.set_plot_visible(keys[-2], False)
    assert [k for k in keys if _ticks_shown(panel, k)] == [keys[-3]]
    panel.set_plot_visible(keys[-1], True)
    assert [k for k in keys if _ticks_shown(panel, k)] == [keys[-1]]


def test_exported_png_has_its_time_axis_and_a_title(panel, oltp, tmp_path, monkeypatch):
    from pyqtgraph.exporters import ImageExporter

    proj, res = oltp
    panel.set_results(res, project=proj)
    panel.set_plot_visible("progress", False)
    seen = {}
    real = ImageExporter.export

    def spy(self, path=None, *a, **kw):
        plot = self.item  # what is rendered
        axis = plot.getAxis("bottom")
        vb = plot.getViewBox()
        x0, x1 = vb.viewRange()[0]
        ticks = [v for level in axis.tickValues(x0, x1, vb.width()) for v in level[1]]
        seen.update(values=axis.style["showValues"], label=axis.label.isVisible(), height=axis.height(),
                    texts=axis.tickStrings(ticks, 1.0, 0.25), title=plot.titleLabel.text,
                    curves=[i for i in plot.listDataItems() if i.isVisible()], size=(vb.width(), vb.height()))
        return real(self, path, *a, **kw)

    monkeypatch.setattr(ImageExporter, "export", spy)
    for key, title in (("response", "Host response time"), ("progress", "Operation progress")):
        seen.clear()
        # the top chart has no ticks on screen; the progress chart is hidden
        png = panel.export_png(key, tmp_path / f"{key}.png")
        assert png.read_bytes()[:4] == b"\x89PNG"
        assert seen["values"] and seen["label"] and seen["height"] > 20, key
        assert "0:30" in seen["texts"] or "0:20" in seen["texts"], seen["texts"]
        assert title in seen["title"] and res.scenario in seen["title"]
        assert len(seen["curves"]) == len(panel.curves[key]) > 0
        assert seen["size"][1] > 200  # a readable chart, whatever its size on screen
    # the screen is as it was
    assert not _ticks_shown(panel, "response") and not panel.plots["progress"].isVisible()


# ------------------------------------------------------------------ 3. no SI prefix, one format per view
def test_time_axis_label_has_no_si_prefix(panel, oltp, qtbot):
    proj, res = oltp
    panel.set_results(res, project=proj)
    panel.master_plot.setXRange(0.2, 0.6, padding=0)  # less than an hour in view
    qtbot.wait(20)
    for spec in PLOTS:
        axis = panel.plots[spec.key].getAxis("bottom")
        assert "x0.001" not in axis.labelString() and axis.autoSIPrefixScale == 1.0
    label = panel.plots[PLOTS[-1].key].getAxis("bottom").labelString()
    assert "time from plan start" in label and "(x" not in label


def test_one_tick_format_per_view(qtbot):
    # issue 23: one notation at every zoom, the plan's own (format_time, as the timeline's cursor
    # and the Start box write times): not "18 h", "0 d 18:00" or "2 d" depending on the view
    axis = TimeAxisItem()
    axis.setRange(0.0, 40.0)
    assert axis.tickStrings([6.0, 12.0, 18.0, 24.0, 30.0, 36.0], 1.0, 6.0) == [
        "6:00", "12:00", "18:00", "1 d 00:00", "1 d 06:00", "1 d 12:00"]
    axis.setRange(0.0, 20.0)
    assert axis.tickStrings([6.0, 12.0, 18.0], 1.0, 6.0) == ["6:00", "12:00", "18:00"]
    axis.setRange(0.0, 24 * 10.0)
    assert axis.tickStrings([48.0, 96.0], 1.0, 48.0) == ["2 d 00:00", "4 d 00:00"]


# ------------------------------------------------------------------ 4. colours
def test_one_colour_per_workload_in_every_chart(panel, oltp):
    proj, res = oltp
    panel.set_results(res, project=proj)
    wids = res.entities("response_ms")
    assert len(wids) >= 2
    for wid in wids:
        resp = panel.curve("response_ms", wid).opts["pen"].color().name()
        iops = panel.curve("iops", wid).opts["pen"].color().name()
        assert resp == iops, wid
    resp_colours = {panel.curve("response_ms", w).opts["pen"].color().name() for w in wids}
    assert len(resp_colours) == len(wids)  # still one colour per workload within a chart
    # the read-out names are in the same colours
    tree = panel.readout
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        if top.text(0) in ("Host response time", "Host throughput"):
            assert [top.child(k).foreground(0).color().name() for k in range(top.childCount())] == \
                [panel.curve("response_ms", w).opts["pen"].color().name() for w in sorted(wids)]


# ------------------------------------------------------------------ 5. hidden charts
def test_hidden_charts_leave_the_read_out_at_once(panel, oltp):
    proj, res = oltp
    panel.set_results(res, project=proj)
    assert "Host throughput" in _readout(panel)
    panel.set_plot_visible("throughput", False)  # no cursor move after it
    assert "Host throughput" not in _readout(panel) and "Back-end bus" in _readout(panel)
    panel.set_plot_visible("throughput", True)
    assert "Host throughput" in _readout(panel)


# ------------------------------------------------------------------ 6. stale
def test_set_stale_dims_and_restores_the_charts(panel, oltp):
    proj, res = oltp
    panel.set_results(res, project=proj)
    panel.set_stale("LUN 22 does not fit in RAID group 3")
    assert panel.stale_banner.isVisible() and "LUN 22 does not fit" in panel.stale_banner.text()
    assert "last good prediction" in panel.stale_banner.text()
    assert all(p.getViewBox().opacity() < 0.5 for p in panel.plots.values())
    assert panel.readout.viewport().graphicsEffect() is not None
    panel.set_stale(None)
    assert not panel.stale_banner.isVisible()
    assert all(p.getViewBox().opacity() == 1.0 for p in panel.plots.values())
    assert panel.readout.viewport().graphicsEffect() is None
    # a new prediction is not stale
    panel.set_stale("invalid")
    panel.set_results(res, project=proj)
    assert not panel.stale and not panel.stale_banner.isVisible()


def test_set_stale_dims_and_restores_the_comparison(qtbot):
    c = catalog()
    proj = small_project(c)
    engine = FakeEngine()
    base = engine(proj, c)
    table = CompareTable()
    qtbot.addWidget(table)
    table.show()
    table.set_results(base, base, proj)
    table.set_stale("RAID group 3 has too few drives")
    assert table.stale_banner.isVisible() and "too few drives" in table.stale_banner.text()
    assert table.table.viewport().graphicsEffect() is not None
    table.set_stale(None)
    assert not table.stale_banner.isVisible() and table.table.viewport().graphicsEffect() is None
    table.set_stale("again")
    table.set_results(base, base, proj)
    assert not table.stale_banner.isVisible()
    table.set_stale("again")
    table.set_results(base, None, proj)  # a new prediction, no baseline pinned any more
    assert not table.stale_banner.isVisible() and table.table.viewport().graphicsEffect() is None


# ------------------------------------------------------------------ 7. polish
def test_comparison_says_not_finished_and_absent(qtbot):
    c = catalog()
    proj = small_project(c)
    engine = FakeEngine()
    base = engine(proj, c)
    cur = engine(proj, c)
    cur.operations[0].end_h = None  # still running at the end of the plan
    table = CompareTable()
    qtbot.addWidget(table)
    table.set_results(cur, base, proj)
    t = table.table
    row = next(r for r in range(t.rowCount()) if t.item(r, 0) and cur.operations[0].label in t.item(r, 0).text())
    assert t.item(row, 2).text() == "not finished" and t.item(row, 1).text() != "not finished"
    base.operations.clear()  # only in the current scenario
    table.set_results(cur, base, proj)
    row = next(r for r in range(t.rowCount()) if t.item(r, 0) and cur.operations[0].label in t.item(r, 0).text())
    assert (t.item(row, 1).text(), t.item(row, 2).text()) == ("absent", "not finished")


def test_comparison_numbers_fit_at_the_default_dock_width(qtbot, oltp):
    proj, res = oltp
    table = CompareTable()
    qtbot.addWidget(table)
    table.resize(370, 300)  # the dock at a 1280x800 window
    table.show()
    qtbot.waitExposed(table)
    table.set_results(res, res, proj)
    t = table.table
    right = sum(t.columnWidth(c) for c in range(4))
    assert right <= t.viewport().width() + 1  # Baseline, Current and Difference all in view
    assert t.columnWidth(0) >= CompareTable.LABEL_MIN_W


def test_controller_word_in_the_cpu_chart_title(panel):
    def result(cores):
        series = {("cpu_pct", c): Series("cpu_pct", c, "%", np.array([0.0]), np.array([10.0])) for c in cores}
        return Result("S", 1.0, [], series)

    panel.set_results(result(["SP A/0", "SP B/0"]))
    assert panel._base_titles["cpu"] == "SP CPU per core / write cache"
    panel.set_results(result(["Controller 0/0", "Controller 1/0"]))
    assert panel._base_titles["cpu"] == "Controller CPU per core / write cache"
    assert "Controller CPU per core / write cache" in [a.text() for a in panel.view_menu.actions()]
    panel.set_results(result(["USP600/0"]))
    assert panel._base_titles["cpu"] == "Controller CPU per core / write cache"
    # a controller I/O limit (Dell MD32xx base mode) is drawn there too: the title says so
    limited = result(["Controller 0/0", "Controller 1/0"])
    limited.series[("ctrl_limit_pct", "Controller 0")] = Series("ctrl_limit_pct", "Controller 0", "%",
                                                                np.array([0.0]), np.array([40.0]))
    panel.set_results(limited)
    assert panel._base_titles["cpu"] == "Controller CPU per core / write cache / I/O limit"
    panel.set_results(result(["SP A/0", "SP B/0"]))
    assert panel._base_titles["cpu"] == "SP CPU per core / write cache"


def test_charts_without_workloads_say_so(panel):
    series = {("cpu_pct", "SP A/0"): Series("cpu_pct", "SP A/0", "%", np.array([0.0]), np.array([10.0]))}
    panel.set_results(Result("S", 1.0, [], series))
    note = panel.empty_notes["response"]
    assert note.isVisible() and note.text == "no host workloads"
    assert not panel.plots["response"].getAxis("left").style["showValues"]  # no 0.2-0.8 axis
    assert not panel.empty_notes["cpu"].isVisible()


def test_legends_sit_outside_the_curves(panel, oltp, qtbot):
    proj, res = oltp
    panel.set_results(res, project=proj)
    qtbot.wait(50)
    for key in ("response", "throughput"):
        legend = panel.legends[key]
        assert legend.isVisible() and legend.items
        vb = panel.plots[key].getViewBox()
        assert not legend.sceneBoundingRect().intersects(vb.sceneBoundingRect()), key


def test_read_out_values_are_not_clipped(panel, oltp):
    proj, res = oltp
    panel.set_results(res, project=proj)
    fm = panel.readout.fontMetrics()
    assert panel.readout.columnWidth(1) >= fm.horizontalAdvance("7,490 IOPS") + 8


def test_stale_before_any_prediction_says_there_is_none(panel, qtbot):
    panel.set_stale("RAID group 3 has too few drives")
    assert panel.stale_banner.text() == "No prediction: RAID group 3 has too few drives"
    table = CompareTable()
    qtbot.addWidget(table)
    table.set_stale("RAID group 3 has too few drives")
    assert table.stale_banner.text() == "No comparison: RAID group 3 has too few drives"


def test_exported_png_of_a_host_chart_keeps_the_reboot_band(panel, cat, tmp_path, monkeypatch):
    import pyqtgraph as pg
    from pyqtgraph.exporters import ImageExporter

    doc = _example(cat, "dell-md3200-hpt")
    res = simulate(doc.project, cat, "Enable High Performance Tier")
    (outage,) = res.host_outages()
    panel.set_results(res, project=doc.project)
    seen = {}

    def spy(self, path=None, *a, **kw):
        seen["bands"] = [i.getRegion() for i in self.item.items if isinstance(i, pg.LinearRegionItem)]
        seen["connect"] = {i.opts["connect"] for i in self.item.listDataItems()}

    monkeypatch.setattr(ImageExporter, "export", spy)
    panel.export_png("response", tmp_path / "r.png")
    assert seen["bands"] == [pytest.approx(outage)] and seen["connect"] == {"finite"}
