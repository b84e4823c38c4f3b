"""A pinned baseline's dashed curve in the PDF stops where the baseline plan ends, as the GUI's
does; it is not held flat to the end of the (longer) scenario it is drawn under. A baseline
LONGER than the scenario runs the chart's time axis to the baseline's end (as the GUI's axis
does), and the scenario's own lines stop at its end."""
import pytest

from app.engine.result import Result
from app.report.content import Chart, ReportOptions, build_report
from app.store.presets import default_catalog

from report_fixtures import _series, small_project

BASE_END_H = 10.0  # the baseline plan ends here; the scenario compared with it at 24 h
BASE_MS, CURRENT_MS = 50.0, 5.0  # far apart: each line has its own height on the chart


def _results(base_end_h: float = BASE_END_H, current_end_h: float = 24.0) -> dict[str, Result]:
    out = {}
    for name, horizon, ms in (("Baseline", base_end_h, BASE_MS), ("ASAP", current_end_h, CURRENT_MS)):
        out[name] = Result(name, horizon, [], {("response_ms", "oltp"): _series(
            "response_ms", "oltp", "ms", [0.0, 1.0], [ms, ms])})
    return out


def _asap_chart(**ends) -> Chart:
    p = small_project()
    p.baseline_scenario = "Baseline"
    rep = build_report(p, default_catalog(), _results(**ends), ReportOptions(scenarios=["ASAP"], charts=["response"]))
    return next(b for b in rep.blocks if isinstance(b, Chart))


def test_the_baseline_line_ends_with_the_baseline_plan():
    chart = _asap_chart()
    assert chart.horizon_h == 24.0
    base = next(s for s in chart.series if s.dashed)
    assert base.end_h == BASE_END_H


def _rendered(chart: Chart):
    """The chart drawn into an image; returns line_pixels(t0, t1, value): how many pixels of the
    line colour (both lines: PALETTE[0]) lie along value's height from t0 to t1."""
    pytest.importorskip("PySide6")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QImage, QPainter

    from app.report.charts import PALETTE, PLOT_H, TITLE_H, Y_LABEL_W, ChartPainter, y_top
    from app.report.fonts import FONT_FAMILIES

    u, width_pt = 4.0, 500.0
    img = QImage(int(width_pt * u), int(400 * u), QImage.Format_RGB32)
    img.fill(Qt.white)
    p = QPainter(img)
    ChartPainter(img, u, FONT_FAMILIES).draw(p, chart, 0.0, 0.0, width_pt)
    p.end()
    left, plot_w = Y_LABEL_W * u, (width_pt - Y_LABEL_W - 6) * u
    top = y_top(chart)

    def x(t):
        return int(left + plot_w * t / chart.horizon_h)

    def line_pixels(t0, t1, value):
        y0 = (TITLE_H + PLOT_H) * u - PLOT_H * u * value / top
        want = QColor(PALETTE[0])
        n = 0
        for yy in range(int(y0) - 3, int(y0) + 4):
            for xx in range(x(t0), x(t1)):
                c = img.pixelColor(xx, yy)
                n += abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) < 60
        return n

    return line_pixels


def test_the_dashed_curve_is_not_drawn_past_the_baseline_end(qapp):
    line_pixels = _rendered(_asap_chart())
    assert line_pixels(2.0, 8.0, BASE_MS) > 0  # the dashed baseline while its plan runs
    assert line_pixels(2.0, 22.0, CURRENT_MS) > 0  # the scenario's own line to its end
    assert line_pixels(BASE_END_H + 0.5, 23.0, BASE_MS) == 0  # nothing after the baseline plan ends


def test_a_longer_baseline_runs_the_axis_to_its_end(qapp):
    """Baseline to 24 h, the scenario to 10 h: the axis runs to 24 h; the dashed line reaches
    it, the scenario's solid line stops at 10 h."""
    chart = _asap_chart(base_end_h=24.0, current_end_h=10.0)
    assert chart.horizon_h == 24.0
    assert [s.end_h for s in chart.series if not s.dashed] == [10.0]
    line_pixels = _rendered(chart)
    assert line_pixels(12.0, 22.0, BASE_MS) > 0  # the dashed baseline past this plan's end
    assert line_pixels(2.0, 8.0, CURRENT_MS) > 0  # the scenario's own line while it runs
    assert line_pixels(10.5, 23.0, CURRENT_MS) == 0  # and not after its plan ends


def test_the_oltp_example_asap_under_a_longer_high_baseline(load_example):
    """The OLTP example: the ASAP migration (~1:08) under the longer High-priority one (~1:55)
    pinned as the baseline (a higher priority never finishes later, docs/model.md 4)."""
    from app.engine.simulate import simulate

    p = load_example("emc-cx4-960-oltp")
    cur, base = "Dependent ASAP migration", "Dependent High migration"
    p.current_scenario, p.baseline_scenario = cur, base
    cat = default_catalog()
    results = {n: simulate(p, cat, n) for n in (cur, base)}
    assert results[base].horizon_h > results[cur].horizon_h + 0.5
    rep = build_report(p, cat, results, ReportOptions(scenarios=[cur], charts=["response", "cpu"]))
    response, cpu = [b for b in rep.blocks if isinstance(b, Chart)]
    assert response.horizon_h == results[base].horizon_h
    assert {s.end_h for s in response.series if s.dashed} == {results[base].horizon_h}
    assert {s.end_h for s in response.series if not s.dashed} == {results[cur].horizon_h}
    # the scenario's other charts share that time axis (they line up on the page), lines to its end
    assert cpu.horizon_h == results[base].horizon_h
    assert {s.end_h for s in cpu.series} == {results[cur].horizon_h}
