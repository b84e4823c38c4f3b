"""Documentation screenshots of the timeline, the charts and the scenario comparison.

    xvfb-run -a -s "-screen 0 1600x1000x24" python -m app.ui.timeline.screenshots [OUTDIR]

Opens the EMC CX4-960 OLTP example in the real main window and saves (default docs/screenshots/):
  timeline-dependent-asap.png   the paper's dependent-LUN ASAP migration: the OLTP response time
                                rising during the migration, cursor in the copy phase, drives
                                coloured by utilization at the cursor
  timeline-advisor.png          the same, with the priority advisor's table for the migration
  compare-asap-vs-high.png      the ASAP scenario against the High one pinned as the baseline
                                (dashed curves, table of differences)
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path


def _settle(app, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.01)


def _wait_result(app, parts, timeout: float = 60.0) -> None:
    end = time.perf_counter() + timeout
    while (parts.live.busy or parts.live.result is None) and time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.01)
    _settle(app, 0.4)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    root = Path(__file__).resolve().parents[3]
    out = Path(argv[0]) if argv else root / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="arrayplanner-shots-"))

    from app.domain import edits
    from app.store.examples import example_path
    from app.store.presets import default_catalog
    from app.store.project_file import load_project
    from app.ui.document import Document
    from app.ui.launch import make_app
    from app.ui.main_window import MainWindow

    app = make_app()
    catalog = default_catalog()
    doc = Document(load_project(example_path("emc-cx4-960-oltp")), catalog, example_path("emc-cx4-960-oltp"))
    window = MainWindow(doc)
    window.files.maybe_save = lambda: True
    window.resize(1600, 1000)
    window.show()
    parts = window.plugins["app.ui.timeline"]
    _settle(app, 0.8)

    doc.apply(edits.SetBaselineScenario(None))
    doc.set_current_scenario("Dependent ASAP migration")
    _wait_result(app, parts)
    res = parts.live.result
    op = res.operation("op1")
    end = op.end_h if op.end_h is not None else res.horizon_h
    copy = next((p for p in op.phases if p.name == "copy"), op.phases[0])
    copy_end = copy.end_h if copy.end_h is not None else end
    parts.charts.set_plot_visible("bus", False)
    parts.charts.set_plot_visible("throughput", False)
    parts.charts.fit()
    window.canvas.fit()
    window.selection.set(["op1"])
    parts.colour_drives.setChecked(True)
    parts.cursor.set_time((copy.start_h + copy_end) / 2)
    _settle(app, 0.6)
    window.grab().save(str(out / "timeline-dependent-asap.png"))

    parts.show_advisor("op1")
    app.processEvents()
    deadline = time.perf_counter() + 120
    while parts.advisor.advice is None and time.perf_counter() < deadline:
        app.processEvents()
        time.sleep(0.02)
    _settle(app, 0.4)
    window.grab().save(str(out / "timeline-advisor.png"))

    # the comparison: ASAP against the High-priority scenario pinned as the baseline
    doc.apply(edits.SetBaselineScenario("Dependent High migration"))
    _wait_result(app, parts)
    parts.docks["compare"].show()
    parts.docks["compare"].raise_()
    window.inspector_dock.raise_()
    parts.charts.fit()
    _settle(app, 0.6)
    window.grab().save(str(out / "compare-asap-vs-high.png"))
    for name in ("timeline-dependent-asap.png", "timeline-advisor.png", "compare-asap-vs-high.png"):
        print(out / name)
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
