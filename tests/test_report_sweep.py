"""The report's "Load sweep" section prints the sweep it is given (app/service/sweep.py), with
the answers for the options' target and growth; `report --sweep` makes one."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.engine.simulate import simulate
from app.report.content import ReportOptions, build_report
from app.service.runner import InProcessExecutor
from app.service.sweep import SweepSpec, sweep
from app.store.presets import load_catalog
from app.store.project_file import load_project

ROOT = Path(__file__).resolve().parents[1]
OLTP = ROOT / "presets/examples/emc-cx4-960-oltp.json"


def test_the_section_prints_the_steps_and_answers():
    cat = load_catalog()
    project = load_project(OLTP)
    name = project.current_scenario
    res = sweep(project, cat, SweepSpec(steps=6, background="op1"), executor=InProcessExecutor())
    results = {n: simulate(project, cat, n) for n in [s.name for s in project.scenarios]}
    report = build_report(project, cat, results, ReportOptions(sweep_target_ms=20.0, charts=[]), sweeps=[(name, res)])
    text = report.text()
    assert "Load sweep" in [h.text for h in report.headings()]
    steady = res.curves[0]
    assert f"At most {steady.max_iops_at(20.0):,.0f} IOPS within 20 ms" in text
    assert f"Saturated from {steady.saturation().factor:.2f}x" in text
    assert text.count(f"{steady.steps[0].factor:.2f}x | {steady.steps[0].total_offered:,.0f}") == 2  # both curves
    plain = build_report(project, cat, results, ReportOptions(charts=[]))
    assert "Load sweep" not in [h.text for h in plain.headings()]


def test_the_section_prints_the_priorities_across_the_load_levels():
    cat = load_catalog()
    project = load_project(OLTP)
    name = project.current_scenario
    res = sweep(project, cat, SweepSpec(steps=4, max_factor=1.3, advise=True, window_h=6.0),
                executor=InProcessExecutor())
    results = {name: simulate(project, cat, name)}
    report = build_report(project, cat, results, ReportOptions(charts=[], scenarios=[name]), sweeps=[(name, res)])
    text = report.text()
    assert f"\u201c{name}\u201d, priorities across the load levels" in [h.text for h in report.headings()]
    (op,) = res.advice.operations
    assert "window 6 h (given)" in text
    for lv in op.levels:
        assert f"{lv.factor:.2f}x | {lv.priority or 'none in time'}" in text


def test_report_sweep_writes_the_section(tmp_path):
    out = tmp_path / "r.pdf"
    r = subprocess.run([sys.executable, "-m", "app", "report", str(OLTP), "-o", str(out), "--sweep",
                        "--sweep-background", "op1", "--no-canvas", "--charts", "none", "-q"],
                       capture_output=True, text=True, cwd=ROOT, timeout=600,
                       env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen", "ARRAYPLANNER_ENGINE": "python"})
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 10_000
    bad = subprocess.run([sys.executable, "-m", "app", "report", str(OLTP), "-o", str(tmp_path / "x.pdf"),
                          "--sweep", "--sweep-background", "nope", "-q"], capture_output=True, text=True, cwd=ROOT,
                         timeout=600, env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert bad.returncode != 0 and "nope" in bad.stderr and not (tmp_path / "x.pdf").exists()


def test_the_sizing_section_names_the_chosen_design_and_why_the_others_miss():
    from app.domain.raid import RaidType
    from app.service.goal_seek import SizingGoal, goal_seek

    cat = load_catalog()
    project = load_project(OLTP)
    goal = SizingGoal(10.0, 30.0, rebuild_hours=8.0, rebuild_priority="High",
                      drive_types=("fc-15k-146", "sata-7k2-1000"), raid_types=(RaidType.R5,))
    sized = goal_seek(project, cat, goal, executor=InProcessExecutor())
    results = {n: simulate(project, cat, n) for n in [s.name for s in project.scenarios]}
    report = build_report(project, cat, results, ReportOptions(charts=[]), sizing=sized)
    text = report.text()
    assert "Sizing: candidate designs" in [h.text for h in report.headings()]
    assert f"Chosen: {sized.chosen.label}" in text and f"{sized.runs} engine runs" in text
    miss = next(c for c in sized.candidates if not c.meets)
    assert "; ".join(miss.why_not) in text


def test_each_curve_is_drawn_against_offered_load_and_names_its_operation():
    """Response against offered IOPS per curve (the GUI's sweep chart in the PDF): a value x axis,
    the steps' points, the knee and the saturation as dots, the target as a line; the "during"
    heading names the operation as the timeline does, not by its id."""
    from app.domain.project import describe_event
    from app.report.content import Chart, Heading

    cat = load_catalog()
    project = load_project(OLTP)
    name = project.current_scenario
    res = sweep(project, cat, SweepSpec(steps=6, background="op1"), executor=InProcessExecutor())
    results = {name: simulate(project, cat, name)}
    report = build_report(project, cat, results, ReportOptions(sweep_target_ms=20.0, charts=[], scenarios=[name]),
                          sweeps=[(name, res)])
    charts = [b for b in report.blocks if isinstance(b, Chart) and b.x_unit == "IOPS"]
    assert len(charts) == len(res.curves) == 2
    for chart, curve in zip(charts, res.curves):
        line = chart.series[0]
        assert list(line.t) == [s.total_offered for s in curve.steps if s.worst_response_ms == s.worst_response_ms]
        assert chart.targets == [(20.0, "target 20 ms")]
        dots = {s.label: (float(s.t[0]), float(s.v[0])) for s in chart.series if s.markers}
        if curve.knee is not None:
            assert dots["knee"] == (curve.knee.total_offered, curve.knee.worst_response_ms)
    headings = [b.text for b in report.blocks if isinstance(b, Heading)]
    op1 = describe_event(project.scenario().event("op1"))
    assert any(op1 in h and "during" in h for h in headings) and not any("during op1" in h for h in headings)
