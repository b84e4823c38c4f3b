"""Charts on the Dell HPT example: while both controllers reboot no workload completes I/O, so its
response time is undefined (NaN): the curve breaks there instead of dropping to 0 ms, the read-out
and the hover say "no I/O", the CSV cell is empty, and a band marks the outage."""
from __future__ import annotations

import csv
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pyqtgraph as pg  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QPointF  # noqa: E402
from PySide6.QtGui import QPainterPath  # noqa: E402

from app.domain.formatting import NO_IO, OUTAGE_TEXT  # noqa: E402
from app.engine import simulate  # noqa: E402
from app.store.examples import example_paths  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.charts import HOST_PLOTS, ChartsPanel  # noqa: E402

pytestmark = pytest.mark.gui


def hpt_project():
    return load_project(next(p for p in example_paths() if p.stem == "dell-md3200-hpt"))


@pytest.fixture
def hpt(catalog):
    project = hpt_project()
    result = simulate(project, catalog, "Enable High Performance Tier")
    (outage,) = result.host_outages()
    return project, result, outage


@pytest.fixture
def panel(qtbot, hpt):
    p = ChartsPanel()
    qtbot.addWidget(p)
    p.resize(1200, 900)
    p.show()
    qtbot.waitExposed(p)
    project, result, _ = hpt
    p.set_results(result, project=project)
    return p


def drawn_segments(item: pg.PlotDataItem) -> list[tuple[float, float]]:
    """The x extent of every line the curve draws."""
    path = item.curve.getPath()
    out, last = [], None
    for i in range(path.elementCount()):
        e = path.elementAt(i)
        if e.type == QPainterPath.ElementType.LineToElement and last is not None:
            out.append((min(last, e.x), max(last, e.x)))
        last = e.x
    return out


def test_response_curve_breaks_during_the_reboot(panel, hpt):
    _, result, (a, b) = hpt
    item = panel.curve("response_ms", "random")
    drawn = drawn_segments(item)
    assert drawn and not any(lo < b - 1e-9 and hi > a + 1e-9 for lo, hi in drawn)  # nothing inside
    assert any(hi <= a + 1e-9 for _, hi in drawn) and any(lo >= b - 1e-9 for lo, _ in drawn)
    assert min(y for y in item.getOriginalDataset()[1] if y == y) > 1.0  # never 0 ms
    # the throughput is a real 0 and drawn as one
    thr = drawn_segments(panel.curve("iops", "random"))
    assert any(lo <= a + 1e-9 and hi >= b - 1e-9 for lo, hi in thr)


def test_readout_and_hover_say_no_io_inside_the_outage(panel, hpt, qtbot):
    _, result, (a, b) = hpt
    inside = (a + b) / 2
    panel.set_cursor(inside)
    tree = panel.readout
    tops = {tree.topLevelItem(i).text(0): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}
    resp = tops["Host response time"]
    assert resp.child(0).text(1) == NO_IO
    texts = [tree.topLevelItem(i).child(j).text(1) for i in range(tree.topLevelItemCount())
             for j in range(tree.topLevelItem(i).childCount())]
    assert not any("nan" in t.lower() for t in texts)
    panel.set_cursor(a / 2)  # before the reboot: a response time
    assert resp.child(0).text(1).endswith(" ms")
    qtbot.wait(50)
    vb = panel.plots["response"].getViewBox()
    panel._mouse_moved((vb.mapViewToScene(QPointF(inside, 25.0)),))
    assert f": {NO_IO}" in panel.hover_text_at("response")


def test_outage_band_on_the_host_charts(panel, hpt, catalog):
    _, result, (a, b) = hpt
    assert panel.outages == [(a, b)]
    for key in HOST_PLOTS:
        bands = [i for i in panel.plots[key].items if isinstance(i, pg.LinearRegionItem)]
        assert len(bands) == 1 and bands[0].getRegion() == pytest.approx((a, b))
        labels = [c for c in bands[0].lines[0].childItems() if isinstance(c, pg.InfLineLabel)]
        assert labels and labels[0].toPlainText() == OUTAGE_TEXT
    assert not any(isinstance(i, pg.LinearRegionItem) for i in panel.plots["cpu"].items)
    # a result without a reboot: the bands go
    panel.set_results(simulate(hpt_project(), catalog, "Base mode"))
    assert panel.outages == []
    assert not any(isinstance(i, pg.LinearRegionItem) for i in panel.plots["response"].items)


def test_csv_cell_is_empty_where_no_io(panel, hpt, tmp_path):
    _, result, (a, b) = hpt
    rows = list(csv.DictReader(panel.export_csv(tmp_path / "all.csv").open()))
    resp = [r for r in rows if r["metric"] == "response_ms" and r["entity"] == "random"]
    (gap,) = [r for r in resp if float(r["start_h"]) == pytest.approx(a)]
    assert gap["value"] == "" and float(gap["end_h"]) == pytest.approx(b)
    assert all(float(r["value"]) > 0 for r in resp if r is not gap)
    assert not any(r["value"].lower() == "nan" for r in rows)
    iops = [r for r in rows if r["metric"] == "iops" and float(r["start_h"]) == pytest.approx(a)]
    assert iops and iops[0]["value"] == "0.0"
