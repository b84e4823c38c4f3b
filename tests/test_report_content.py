"""The report's document model (Qt-free): sections, tables and the figures taken from the Result."""
import datetime as dt

import pytest

from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity, format_duration, format_mttdl, format_rate, format_time
from app.report.content import (
    Chart, Diagram, PageRef, ReportOptions, Table, build_report, compress_locations,
)
from app.store.presets import default_catalog
from app.store.sources import default_bibliography

from report_fixtures import small_project, small_results


@pytest.fixture(scope="module")
def report():
    return build_report(small_project(), default_catalog(), small_results(),
                        ReportOptions(date=dt.date(2026, 11, 21), version="9.9"))


def test_cover(report):
    c = report.cover
    assert (c.title, c.customer, c.author) == ("Exchange consolidation", "Acme Bank", "J. Presales")
    assert c.date == "21 November 2026" and c.version == "ArrayPlanner 9.9"
    assert c.scenarios == ["Baseline", "ASAP"]


def test_sections_numbered_and_in_the_toc(report):
    tops = [h.text for h in report.headings() if h.level == 1]
    assert tops == ["Contents", "Summary", "Configuration", "Layout", "RAID groups and LUNs",
                    "Cache and premium features", "Host workloads", "Operations plan", "Scenario comparison", "Charts", "Advisories",
                    "Data protection (MTTDL)", "Assumptions", "References"]
    nums = {h.text: h.number for h in report.headings() if h.level == 1}
    assert nums["Summary"] == "1" and nums["Assumptions"] == "A"
    toc = next(b for b in report.blocks if isinstance(b, Table) and b.kind == "toc")
    keys = [r.cells[2].key for r in toc.rows]
    assert all(isinstance(r.cells[2], PageRef) for r in toc.rows)
    assert set(keys) == {h.key for h in report.headings() if h.level <= 2 and h.key != "contents"}


def test_operation_figures_come_from_the_result(report):
    text = report.text()
    res = small_results()
    for r in res.values():
        for op in r.operations:
            assert format_duration(op.duration_h) in text
            assert format_time(op.start_h) in text
            for ph in op.phases:
                assert format_duration(ph.duration_h) in text
                if ph.avg_mb_s:
                    assert format_rate(ph.avg_mb_s) in text
        for gid, h in r.mttdl_h.items():
            assert format_mttdl(h) in text
        for a in r.assumptions:
            assert a.path in text and default_bibliography().cite(a.source) in text
        for a in r.advisories:
            assert a.text in text
    assert "not finished" in text  # the Baseline rebuild's equalization runs past the horizon


def test_capacities_come_from_domain_arithmetic(report):
    rows, total = capacity_summary(report.project, report.catalog)
    text = report.text()
    for r in rows:
        assert format_capacity(r.usable_gb) in text and format_capacity(r.raw_gb) in text
    assert format_capacity(total.raw_gb) in text and format_capacity(total.usable_gb) in text
    assert "Write-aside size 511 blocks" in text  # a LUN setting that differs from the default


def test_charts_and_diagram(report):
    charts = [b for b in report.blocks if isinstance(b, Chart)]
    assert {c.title for c in charts} == {"Host response time", "Controller CPU utilization",
                                         "Back-end bus utilization", "RAID group disk utilization",
                                         "Operation progress"}
    assert len(charts) == 10  # five per scenario
    cpu = next(c for c in charts if c.title.startswith("Controller"))
    assert [s.label for s in cpu.series] == ["SP A CPU 0", "SP A CPU 1", "SP B CPU 0"]
    groups = next(c for c in charts if c.title.startswith("RAID"))
    # the platform's word for an unnamed group (issue 23: "RAID Group 0" on the CX4, not "RG 0")
    assert [s.label for s in groups.series] == ["RAID Group 0", "RAID Group 1", "RAID Group 2", "Archive"]
    assert [b.buses for b in report.blocks if isinstance(b, Diagram)] == [[0, 1]]
    resp = next(c for c in charts if c.title == "Host response time")
    assert resp.targets == [(10.0, "target 10 ms")] and resp.unit == "ms"


def test_options_choose_scenarios_and_charts():
    rep = build_report(small_project(), default_catalog(), small_results(),
                       ReportOptions(scenarios=["ASAP"], charts=["response"], diagram=False, lun_table=False))
    assert rep.cover.scenarios == ["ASAP"]
    assert [b.title for b in rep.blocks if isinstance(b, Chart)] == ["Host response time"]
    assert not any(isinstance(b, Diagram) for b in rep.blocks)
    assert "Scenario \u201cBaseline\u201d" not in rep.text()
    with pytest.raises(KeyError, match="Nope"):
        ReportOptions(scenarios=["Nope"]).scenario_names(small_project())


def test_many_series_are_cut_to_the_highest_peaks():
    import numpy as np

    from app.engine.result import Series

    res = small_results()
    r = res["Baseline"]
    for g in range(20):
        r.series[("group_pct", str(100 + g))] = Series("group_pct", str(100 + g), "%", np.array([0.0]),
                                                      np.array([float(g)]))
    rep = build_report(small_project(), default_catalog(), res, ReportOptions(scenarios=["Baseline"]))
    groups = next(b for b in rep.blocks if isinstance(b, Chart) and b.title.startswith("RAID"))
    assert len(groups.series) == 8
    assert "8 of 24" in groups.caption


def test_compress_locations():
    assert compress_locations(["0_0_0", "0_0_1", "0_0_2", "0_1_4"]) == "0_0_0\u20130_0_2, 0_1_4"
    assert compress_locations(["0_0_0", "0_0_1"]) == "0_0_0, 0_0_1"
    assert compress_locations(["1_0_3", "0_0_4"]) == "1_0_3, 0_0_4"


def test_compress_numbers():
    from app.report.content import compress_numbers

    assert compress_numbers([0, 1, 2, 3, 7, 9, 10]) == "0\u20133, 7, 9, 10"
    assert compress_numbers([]) == ""


def test_recurring_advice_is_summed_up():
    from app.engine.result import Advisory

    res = small_results()
    r = res["Baseline"]
    r.advisories = [Advisory("warning", "asap-under-load", f"op{k}: ASAP under load", f"op{k}", "emc Table 2")
                    for k in range(12)]
    rep = build_report(small_project(), default_catalog(), res, ReportOptions(scenarios=["Baseline"]))
    text = rep.text()
    assert text.count("ASAP under load") == 5
    assert "The same advice (asap-under-load) applies to 7 more: op5, op6, op7, op8, op9, op10, op11." in text
    assert "7 more" in text


def test_operations_table_names_the_event_ids(report):
    ops = next(b for b in report.blocks if isinstance(b, Table) and b.columns[0].title == "ID")
    assert [r.cells[0] for r in ops.rows if r.style == "bold"] == ["op1", "op2"]


def test_response_charts_show_the_pinned_baseline_dashed():
    p = small_project()
    p.baseline_scenario = "Baseline"
    rep = build_report(p, default_catalog(), small_results(), ReportOptions(charts=["response"]))
    base_chart, asap_chart = [b for b in rep.blocks if isinstance(b, Chart)]
    assert [s.label for s in base_chart.series] == ["OLTP"]  # the baseline's own chart: no overlay
    assert [(s.label, s.dashed, s.color) for s in asap_chart.series] == [("OLTP", False, -1),
                                                                        ("OLTP (baseline)", True, 0)]
    assert "baseline scenario \u201cBaseline\u201d" in asap_chart.caption


def test_chart_time_axis_ticks():
    pytest.importorskip("PySide6")
    from app.report.charts import step_points, time_step, time_tick_label

    assert time_step(0.05) == pytest.approx(1 / 60)
    assert time_step(3) == 0.5 and time_step(200) == 24
    assert [time_tick_label(k * 0.5, 0.5) for k in range(3)] == ["0:00", "0:30", "1:00"]
    assert [time_tick_label(k * 24.0, 24.0) for k in range(3)] == ["0 d", "1 d", "2 d"]
    # a step line of 100,000 breakpoints is reduced to a few vertices per drawing column
    import numpy as np

    t = np.linspace(0, 10, 100_000)
    v = np.sin(t * 50) * 50 + 50
    xs, ys = step_points(t, v, 10.0, 500)
    assert len(xs) <= 6 * 500 and ys.max() == pytest.approx(v.max()) and ys.min() == pytest.approx(v.min())
    xs, ys = step_points(np.array([0.0, 1.0]), np.array([5.0, 7.0]), 2.0, 500)
    assert list(zip(xs, ys)) == [(0.0, 5.0), (1.0, 5.0), (1.0, 7.0), (2.0, 7.0)]


def test_progress_is_drawn_as_straight_lines_in_the_pdf(catalog, load_example):
    """Progress (Series.linear) rises in a line between engine steps, as in the GUI; a step line
    would show it flat until the next step."""
    pytest.importorskip("PySide6")
    from app.engine import simulate
    from app.report.charts import line_points

    project = load_example("emc-cx4-960-oltp")
    res = {project.current_scenario: simulate(project, catalog)}
    rep = build_report(project, catalog, res, ReportOptions(scenarios=[project.current_scenario], charts=["progress"]))
    chart = next(b for b in rep.blocks if isinstance(b, Chart) and b.title.startswith("Operation progress"))
    line = chart.series[0]
    assert line.linear and not any(isinstance(b, Chart) and any(s.linear for s in b.series)
                                   for b in rep.blocks if b is not chart)
    xs, ys = line_points(line.t, line.v, chart.horizon_h)
    assert list(xs[:-1]) == list(line.t) and list(ys[:-1]) == list(line.v)  # the points themselves, joined
    assert xs[-1] == chart.horizon_h and ys[-1] == line.v[-1]


def test_capacity_summary_states_the_vault_spares_and_rack_space(report):
    """Issue 23: the report's capacity summary gives the vault's reserved space, the hot-spare
    ratio, the enclosures and the rack units, as the GUI's Array page does, from array_space."""
    from app.domain.capacity import array_space
    from app.domain.formatting import format_count

    space = array_space(report.project, report.catalog)
    assert space.vault_drives and space.hot_spares and space.rack_units  # the CX4 fixture has all three
    text = report.text()
    assert "Capacity summary" in text
    assert f"{space.vault_drives} drives, {format_capacity(space.vault_gb)} reserved for the system" in text
    assert f"{format_count(space.hot_spares)} ({space.spare_ratio})" in text
    assert f"{format_count(space.enclosures)}, {space.rack_units:g} U of rack" in text
    assert f"nominal x {space.formatted_factor:g}" in text  # formatted, not nominal, capacity
