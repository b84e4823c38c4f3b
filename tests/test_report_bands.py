"""The report's uncertainty ranges (app/report/uncertainty.py): durations "3.4 h (P10-P90 ...)",
P10-P90 bands shaded under the chart lines, `arrayplanner report --bands N / --no-bands`."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from app.report import build_report, simulate_scenarios
from app.report.charts import band_polygons
from app.report.content import ChartSeries, ReportOptions
from app.service.runner import InProcessExecutor
from app.service.uncertainty import compute_bands, with_ranges
from app.store.examples import example_path
from app.store.project_file import load_project

from conftest import ROOT

SCENARIO = "Dependent High migration"
RATE = "policy.migration.High.mb_s"  # emc Table 1: 3.4 MB/s; given a range so the duration has one
pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def ranged():
    from app.store.presets import load_catalog

    project = load_project(example_path("emc-cx4-960-oltp"))
    cat = with_ranges(load_catalog(), project.platform_id, {RATE: (2.8, 4.1)})
    results = simulate_scenarios(project, cat, [SCENARIO])
    bands = compute_bands(project, cat, SCENARIO, samples=6, executor=InProcessExecutor(),
                          point=results[SCENARIO])
    return project, cat, results, {SCENARIO: bands}


def test_durations_print_their_range_and_charts_carry_bands(ranged):
    project, cat, results, bands = ranged
    options = ReportOptions(scenarios=[SCENARIO], charts=["response", "cpu"])
    report = build_report(project, cat, results, options, bands=bands)
    text = report.text()
    op = results[SCENARIO].operations[0]
    band = bands[SCENARIO].operation(op.event_id).duration_h
    assert band.p10 < band.p90, "the ranged High rate moves the migration's duration"
    assert re.search(r"\d[\d.]* h \(P10-P90 \d[\d.]*-\d[\d.]* h\)", text), text[:2000]
    assert "Ranges are P10-P90: 6 engine runs" in text
    charts = [b for b in report.blocks if type(b).__name__ == "Chart"]
    assert charts and all(any(s.band is not None for s in c.series) for c in charts)
    assert all("Shaded: P10-P90" in c.caption for c in charts)
    # without bands: the point estimate alone, as before
    plain = build_report(project, cat, results, options).text()
    assert "P10-P90" not in plain


def test_a_band_is_drawn_between_its_quantiles_and_breaks_at_no_io():
    t = np.array([0.0, 1.0, 2.0, 3.0])
    line = ChartSeries("w", t, np.array([5.0, 6.0, np.nan, 7.0]),
                       band=(t, np.array([4.0, 5.0, np.nan, 6.0]), np.array([6.0, 7.0, np.nan, 8.0])))
    runs = band_polygons(line, 4.0, 400)
    assert len(runs) == 2  # the no-I/O step splits the band
    for run in runs:
        assert all(lo <= hi for _t, lo, hi in run)
    assert runs[0][0] == (0.0, 4.0, 6.0) and runs[-1][-1] == (4.0, 6.0, 8.0)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("flag", ["--bands", "--no-bands"])
def test_report_command_includes_or_skips_the_ranges(tmp_path, flag):
    out = tmp_path / "r.pdf"
    args = [sys.executable, "-m", "app", "report", str(example_path("emc-cx4-960-oltp")), "-o", str(out),
            "--scenario", "Baseline", "--charts", "response", "--no-canvas", "-q"]
    args += ["--bands", "4"] if flag == "--bands" else ["--no-bands"]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "ARRAYPLANNER_BANDS": "on",
           "HOME": str(tmp_path)}
    res = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=110)
    assert res.returncode == 0, res.stderr
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert ("Ranges are P10-P90: 4 engine runs" in text) == (flag == "--bands")
    assert ("Shaded: P10-P90" in text) == (flag == "--bands")
