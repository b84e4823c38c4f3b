"""The report where a workload completes no I/O: the response time is undefined there (NaN in the
Result). Tables say "no I/O" (never "nan" or 0 ms), peaks leave those steps out, the lines break
and the host charts shade a controller reboot."""
import math
import re
import shutil
import subprocess

import numpy as np
import pytest

from app.domain.formatting import DASH, NO_IO, OUTAGE_TEXT
from app.report import ReportOptions, generate_report, simulate_scenarios
from app.report.content import Chart, ChartSeries, Table, build_report
from app.store.examples import example_path
from app.store.presets import default_catalog
from app.store.project_file import load_project

HPT = "Enable High Performance Tier"
NAN = re.compile(r"\bnan\b", re.I)  # a NaN formatted as a number


def report_of(stem: str, charts=("response", "iops", "cpu")):
    project, catalog = load_project(example_path(stem)), default_catalog()
    options = ReportOptions(charts=list(charts))
    results = simulate_scenarios(project, catalog, options.scenario_names(project))
    return project, results, build_report(project, catalog, results, options)


def impact_rows(rep) -> list[list]:
    return [r.cells for b in rep.blocks if isinstance(b, Table) and [c.title for c in b.columns][:3] ==
            ["Workload", "At plan start", "Peak"] for r in b.rows]


def test_hpt_reboot_band_and_note():
    _, results, rep = report_of("dell-md3200-hpt")
    (a, b), = results[HPT].host_outages()
    banded = [c for c in rep.blocks if isinstance(c, Chart) and c.bands]
    assert sorted(c.title for c in banded) == ["Host IOPS", "Host response time"]
    assert all(c.bands == [(a, b, OUTAGE_TEXT)] for c in banded)
    text = rep.text()
    assert "The controllers reboot (0:15\u20130:20)" in text
    assert not NAN.search(text)
    # the peak is that of the steps with I/O, not 0 and not NaN
    for cells in impact_rows(rep):
        assert cells[2].endswith(" ms")


def test_a_workload_without_io_reads_no_io():
    _, results, rep = report_of("hp-sa6402-raid5", charts=("response",))
    rows = {c[0]: c for c in impact_rows(rep)}
    assert any(c[1] == NO_IO and c[2] == NO_IO and c[3] == DASH for c in rows.values())
    assert not NAN.search(rep.text())


def test_chart_drawing_skips_nan():
    pytest.importorskip("PySide6")
    from app.report.charts import step_points, y_top

    v = np.array([10.0, np.nan, 30.0])
    chart = Chart("Host response time", "ms", [ChartSeries("w", np.array([0.0, 1.0, 2.0]), v)], 3.0)
    assert math.isfinite(y_top(chart)) and y_top(chart) >= 30.0
    only_nan = Chart("Host response time", "ms", [ChartSeries("w", np.array([0.0]), np.array([np.nan]))], 3.0)
    assert y_top(only_nan) == 1.0
    # many breakpoints (the reduced path): a column with values keeps them, NaN does not spread
    t = np.linspace(0, 10, 10_000)
    v = np.where((t > 4) & (t < 6), np.nan, 20.0)
    xs, ys = step_points(t, v, 10.0, 100)
    assert np.nanmax(ys) == 20.0 and np.isnan(ys).any() and np.isfinite(ys[:10]).all()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_hpt_pdf(tmp_path, qapp):
    project = load_project(example_path("dell-md3200-hpt"))
    path = tmp_path / "hpt.pdf"
    generate_report(project, default_catalog(), path, ReportOptions(charts=["response", "iops"]))
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert text.count(OUTAGE_TEXT) == 2
    assert not NAN.search(text)
