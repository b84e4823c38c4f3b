"""PDF report built from engine Results.

    from app.report import ReportOptions, generate_report

    info = generate_report(project, catalog, "plan.pdf", ReportOptions(scenarios=["Baseline"]))

`generate_report` simulates the scenarios it has no Result for (app.engine.simulate), builds the
document model (app.report.content, Qt-free) and paints it (app.report.render: QPdfWriter). It
needs a Q(Gui)Application (app.report.qt.ensure_gui_app() starts one, offscreen without a display)
and may run in a worker thread: `progress(fraction, message)` reports, `cancelled()` is polled and
a cancelled or failed export leaves no file behind and an existing PDF unchanged (the PDF is
written to a new temporary file next to the target, checked and renamed: app.report.output).
`scene_picture` is the GUI's layout canvas recorded as vector QPicture parts, one per page
(app.ui.report_dialog.canvas_picture, made on the GUI thread); without it the report draws the
layout itself.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from .content import CHART_KINDS, Report, ReportOptions, build_report

if TYPE_CHECKING:  # pragma: no cover
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPicture

    from app.domain.hardware import Catalog
    from app.domain.project import Project
    from app.engine.result import Result

__all__ = ["CHART_KINDS", "Report", "ReportCancelled", "ReportInfo", "ReportOptions", "SimulationFailed",
           "build_report", "generate_report", "simulate_scenarios"]


class ReportCancelled(Exception):
    """The export was cancelled; no file was written."""


class SimulationFailed(RuntimeError):
    """The engine raised while predicting a scenario (the message names the scenario)."""

    def __init__(self, scenario: str, error: BaseException):
        super().__init__(f"the prediction of scenario {scenario!r} failed: {type(error).__name__}: {error}")
        self.scenario = scenario
        self.error = error


@dataclass
class ReportInfo:
    path: Path
    pages: int
    seconds: float
    simulate_seconds: float


Progress = Callable[[float, str], None]


def simulate_scenarios(project: "Project", catalog: "Catalog", names: Iterable[str],
                       progress: Progress | None = None, cancelled: Callable[[], bool] | None = None,
                       share: float = 1.0) -> dict[str, "Result"]:
    from app.engine import simulate
    names = list(names)
    out: dict[str, Result] = {}
    for i, name in enumerate(names):
        if cancelled is not None and cancelled():
            raise ReportCancelled()
        if progress is not None:
            progress(share * i / max(len(names), 1), f"Simulating \u201c{name}\u201d")
        try:
            out[name] = simulate(project, catalog, name)
        except Exception as exc:
            raise SimulationFailed(name, exc) from exc
    return out


def generate_report(project: "Project", catalog: "Catalog", path: str | os.PathLike,
                    options: ReportOptions | None = None, results: dict[str, "Result"] | None = None,
                    progress: Progress | None = None, cancelled: Callable[[], bool] | None = None,
                    scene_picture: "tuple[QPicture, QRectF] | list[tuple[QPicture, QRectF]] | None" = None,
                    warnings: Iterable[str] = (), sweeps: Sequence[tuple[str, Any]] = (),
                    sizing: Any = None, bands: dict[str, Any] | None = None) -> ReportInfo:
    """Write the report PDF to `path`. Scenarios without a given Result are simulated first.
    sweeps: (scenario, app.service.sweep.SweepResult) pairs for the "Load sweep" section;
    sizing: an app.service.goal_seek.SizingResult for the "Sizing" section;
    bands: {scenario: app.service.uncertainty.Bands}: durations print their P10-P90 range and the
    charts shade their bands (app/report/uncertainty.py); the caller samples them.
    OSError (naming `path`) when it cannot be written."""
    t0 = time.perf_counter()
    options = options or ReportOptions()
    names = options.scenario_names(project)
    results = dict(results or {})
    wanted = list(names)
    base = project.baseline_scenario
    if base and base not in wanted and any(s.name == base for s in project.scenarios) and "response" in options.charts:
        wanted.append(base)  # the response charts show the baseline dashed, as the GUI does
    todo = [n for n in wanted if n not in results]
    sim_share = 0.4 if todo else 0.0
    if todo:
        results.update(simulate_scenarios(project, catalog, todo, progress, cancelled, sim_share))
    t_sim = time.perf_counter() - t0
    if cancelled is not None and cancelled():
        raise ReportCancelled()
    if progress is not None:
        progress(sim_share, "Building the document")
    report = build_report(project, catalog, {n: results[n] for n in wanted if n in results}, options, warnings,
                          sweeps, sizing, bands)

    target = Path(path)
    pages = _write_pdf(report, target, options.page_size, scene_picture, progress, cancelled, sim_share)
    if progress is not None:
        progress(1.0, "Done")
    return ReportInfo(target, pages, time.perf_counter() - t0, t_sim)


def _write_pdf(report: Report, target: Path, page_size: str, scene_picture, progress: Progress | None,
               cancelled: Callable[[], bool] | None, sim_share: float) -> int:
    """Paint `report` into a new temporary file next to `target`, check that all of it reached
    the disk, and rename it over `target` (app.report.output); the number of pages. On any
    failure or a cancel the temporary file is removed and an existing `target` is unchanged;
    an OSError names `target`."""
    from .output import PdfOutput
    from .render import PdfRenderer, ReportCancelled as _RenderCancelled

    with PdfOutput(target) as out:
        renderer = PdfRenderer(report, out.device, page_size, scene_picture, name=str(target))
        try:
            renderer.paginate()
            if progress is not None:
                progress(sim_share + 0.05, "Laying out pages")

            def page_done(k: int, n: int) -> None:
                if progress is not None:
                    progress(sim_share + 0.05 + (0.95 - sim_share) * k / n, f"Page {k} of {n}")

            pages = renderer.paint(page_done, cancelled)
        except _RenderCancelled:
            raise ReportCancelled() from None
        except OSError as exc:  # the painter stopped: a failed write to the file is the real reason
            raise out.device_error() or out.named(exc) from None
        finally:
            renderer.close()  # QPdfWriter released before the file is checked, renamed or removed
        out.commit()
    return pages
