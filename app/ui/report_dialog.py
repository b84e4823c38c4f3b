"""File > Export report…: choose scenarios and charts, write the PDF in a worker thread with a
progress bar and Cancel, and open it in the system viewer on request.

`install(window)` is called by the main window (PLUGINS). The export takes a snapshot of the
project (a deep copy) and records the layout canvas as vector drawing commands (a QPicture) on
the GUI thread; simulation, layout and painting run in a QThread, so the window stays responsive.
With "Uncertainty ranges" ticked the report prints P10-P90 ranges and shades bands: the bands
the window shows are used for the scenario they were sampled for (app/ui/bands.py), the other
scenarios are sampled in the export's thread (app.service.uncertainty, the runner's pool).
"""
from __future__ import annotations

import threading
import traceback
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from PySide6.QtCore import QObject, QSettings, Qt, QThread, QUrl, Signal, Slot
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QGridLayout, QGroupBox,
    QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMessageBox, QProgressBar, QPushButton,
    QVBoxLayout, QWidget,
)

from app.report import ReportCancelled, ReportOptions, generate_report
from app.report.content import CHART_KINDS
from app.report.uncertainty import REPORT_SAMPLES, bands_by_default
from app.service.uncertainty import compute_bands
from app.ui.i18n import tr, tr_count


class ExportJob(QObject):
    """Runs generate_report in a worker thread. Signals are delivered on the GUI thread."""

    progress = Signal(float, str)
    finished = Signal(object)  # ReportInfo
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, project, catalog, path: Path, options: ReportOptions, scene_picture=None,
                 warnings: list[str] | None = None, results: dict | None = None,
                 bands: dict | None = None, band_samples: int = 0):
        super().__init__()
        self.project, self.catalog, self.path, self.options = project, catalog, path, options
        self.scene_picture = scene_picture
        self.warnings = warnings or []
        self.results = dict(results or {})
        # {scenario: Bands} given (the window's); with band_samples > 0 the others are sampled
        self.bands = dict(bands or {})
        self.band_samples = band_samples
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def _sample_bands(self) -> float:
        """The bands of the reported scenarios the window had none for; the share of the
        progress bar they took (the first half, when there was any to sample)."""
        from app.report import simulate_scenarios

        names = [n for n in self.options.scenario_names(self.project) if n not in self.bands]
        if self.band_samples <= 0 or not names:
            return 0.0
        self.results.update(simulate_scenarios(self.project, self.catalog, [n for n in names if n not in self.results],
                                               cancelled=self.is_cancelled))
        for k, name in enumerate(names):
            def progress(done: int, total: int, k: int = k, name: str = name) -> None:
                self.progress.emit(0.5 * (k + done / max(total, 1)) / len(names),
                                   tr("Uncertainty of \u201c{scenario}\u201d: {done} of {total} runs").format(
                                       scenario=name, done=done, total=total))
            bands = compute_bands(self.project, self.catalog, name, samples=self.band_samples,
                                  point=self.results[name], progress=progress, cancel=self.is_cancelled)
            if bands is None:
                raise ReportCancelled()
            self.bands[name] = bands
        return 0.5

    @Slot()
    def run(self) -> None:
        try:
            share = self._sample_bands()
            info = generate_report(self.project, self.catalog, self.path, self.options, results=self.results,
                                   progress=lambda f, msg: self.progress.emit(share + (1.0 - share) * f, msg),
                                   cancelled=self.is_cancelled, scene_picture=self.scene_picture,
                                   warnings=self.warnings, bands=self.bands if self.band_samples > 0 else None)
        except ReportCancelled:
            self.cancelled.emit()
        except OSError as exc:  # the file that could not be written, and why
            self.failed.emit(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc))
        except Exception as exc:  # shown to the user; the GUI stays up
            traceback.print_exc()
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.finished.emit(info)


def canvas_picture(project, catalog):
    """The layout canvas recorded as vectors, coloured by RAID group (a fresh scene, so the
    user's selection and utilization colouring do not end up in the customer's PDF), in parts
    that each fit a page (a list of (QPicture, bounds)). Needs a QApplication; call on the GUI
    thread."""
    from app.report.diagram import pictures_from_scene
    from app.ui.canvas import LayoutScene
    from app.ui.theme import paper

    doc = SimpleNamespace(project=project, view=project, catalog=catalog, platform=catalog.platform(project.platform_id))
    scene = LayoutScene(doc, ink=paper())  # white paper, whether the screen is light or dark
    try:
        return pictures_from_scene(scene)
    finally:
        scene.deleteLater()


class ReportDialog(QDialog):
    def __init__(self, document: Any, parent: QWidget | None = None, canvas: bool = True):
        super().__init__(parent)
        self.document = document
        self.use_canvas = canvas
        self.setWindowTitle(tr("Export report"))
        self.setMinimumWidth(520)
        self.job: ExportJob | None = None
        self.thread: QThread | None = None
        self.info = None
        self.error: str | None = None
        project = document.project
        settings = QSettings()

        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.path_edit = QLineEdit(str(self._default_path()))
        browse = QPushButton(tr("Browse…"))
        browse.clicked.connect(self.browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        form.addRow(tr("Save as:"), row)
        self.page_size = QComboBox()
        self.page_size.addItems(["A4", "Letter"])
        self.page_size.setCurrentText(str(settings.value("report/page_size", "A4")))
        form.addRow(tr("Paper:"), self.page_size)
        lay.addLayout(form)

        box = QGroupBox(tr("Scenarios"))
        bl = QVBoxLayout(box)
        self.scenarios = QListWidget()
        for s in project.scenarios:
            item = QListWidgetItem(s.name)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            checked = s.name == project.current_scenario or s.name == project.baseline_scenario
            item.setCheckState(Qt.Checked if checked else Qt.Unchecked)
            self.scenarios.addItem(item)
        self.scenarios.setMaximumHeight(110)
        bl.addWidget(self.scenarios)
        row = QHBoxLayout()
        for text, state in ((tr("All"), Qt.Checked), (tr("None"), Qt.Unchecked)):
            b = QPushButton(text)
            b.setAutoDefault(False)
            b.clicked.connect(lambda _=False, st=state: self._check_all(st))
            row.addWidget(b)
        row.addStretch(1)
        bl.addLayout(row)
        lay.addWidget(box)

        box = QGroupBox(tr("Charts"))
        grid = QGridLayout(box)
        self.chart_boxes: dict[str, QCheckBox] = {}
        for i, (key, (title, _metric, _unit, default)) in enumerate(CHART_KINDS.items()):
            cb = QCheckBox(title)  # (the report layer names them, in the English of the PDF)
            cb.setChecked(default)
            self.chart_boxes[key] = cb
            grid.addWidget(cb, i // 2, i % 2)
        lay.addWidget(box)

        box = QGroupBox(tr("Contents"))
        bl = QVBoxLayout(box)
        self.diagram_box = QCheckBox(tr("Layout diagram"))
        self.diagram_box.setChecked(True)
        self.luns_box = QCheckBox(tr("Table of every LUN"))
        self.luns_box.setChecked(len(project.luns) <= 2000)
        self.assumptions_box = QCheckBox(tr("Assumptions appendix (rates and factors with their sources)"))
        self.assumptions_box.setChecked(True)
        self.bands_box = QCheckBox(tr("Uncertainty ranges (P10-P90 durations and chart bands)"))
        self.bands_box.setToolTip(tr("Sample the ranged preset values: the window's bands where it has them, "
                                     "else {n} runs per scenario").format(n=REPORT_SAMPLES))
        default = "true" if bands_by_default() else "false"
        self.bands_box.setChecked(settings.value("report/bands", default) in (True, "true"))
        for w in (self.diagram_box, self.luns_box, self.assumptions_box, self.bands_box):
            bl.addWidget(w)
        lay.addWidget(box)

        self.open_box = QCheckBox(tr("Open the report when it is written"))
        self.open_box.setChecked(settings.value("report/open_after", "true") in (True, "true"))
        lay.addWidget(self.open_box)

        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setValue(0)
        self.progress.setVisible(False)
        self.progress_label = QLabel("")
        self.progress_label.setVisible(False)
        lay.addWidget(self.progress)
        lay.addWidget(self.progress_label)

        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(tr("Export"), QDialogButtonBox.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.Cancel)
        self.export_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        lay.addWidget(self.buttons)

    # ---------------------------------------------------------------- options
    def _default_path(self) -> Path:
        """The project's name with .pdf, in the folder of the last report (else next to the project,
        else the home folder)."""
        doc_path = getattr(self.document, "path", None)
        if doc_path:
            name = Path(doc_path).with_suffix(".pdf").name
        else:
            title = (self.document.project.info.title or "report").strip()
            name = ("".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip() or "report") + ".pdf"
        last = QSettings().value("report/last_dir", "")
        if last and Path(str(last)).is_dir():
            return Path(str(last)) / name
        return (Path(doc_path).parent if doc_path else Path.home()) / name

    def browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Export report"), self.path_edit.text(), tr("PDF (*.pdf)"))
        if path:
            if not path.lower().endswith(".pdf"):
                path += ".pdf"
            self.path_edit.setText(path)

    def _check_all(self, state) -> None:
        for i in range(self.scenarios.count()):
            self.scenarios.item(i).setCheckState(state)

    def chosen_scenarios(self) -> list[str]:
        return [self.scenarios.item(i).text() for i in range(self.scenarios.count())
                if self.scenarios.item(i).checkState() == Qt.Checked]

    def options(self) -> ReportOptions:
        return ReportOptions(
            scenarios=self.chosen_scenarios(),
            charts=[k for k, cb in self.chart_boxes.items() if cb.isChecked()],
            diagram=self.diagram_box.isChecked(), lun_table=self.luns_box.isChecked(),
            assumptions=self.assumptions_box.isChecked(), page_size=self.page_size.currentText(),
        )

    def _errors(self, scenarios: list[str]) -> tuple[list[str], list[str]]:
        from app.domain.validation import validate

        issues = []
        for name in scenarios or [None]:
            issues += [i for i in validate(self.document.project, self.document.catalog, name) if i not in issues]

        from app.domain.user_names import names_for

        names = names_for(self.document.project, self.document.catalog)

        def line(i):
            return names.issue_line(i)  # names the object once, by its name

        return ([line(i) for i in issues if i.severity == "error"],
                [line(i) for i in issues if i.severity != "error"])

    # ---------------------------------------------------------------- running
    def start(self) -> None:
        if self.job is not None:
            return
        names = self.chosen_scenarios()
        if not names:
            QMessageBox.warning(self, tr("Export report"), tr("Choose at least one scenario for the report."))
            return
        errors, warnings = self._errors(names)
        if errors:
            more = "\n" + tr("… and {n} more.").format(n=len(errors) - 5) if len(errors) > 5 else ""
            QMessageBox.warning(self, tr("Export report"), tr_count(
                len(errors), "The project has {n} validation error; fix it before making a report:",
                "The project has {n} validation errors; fix them before making a report:")
                + "\n\n" + "\n".join(errors[:5]) + more)
            return
        path = Path(self.path_edit.text()).expanduser()
        if path.suffix.lower() != ".pdf":
            path = path.with_suffix(".pdf")
            self.path_edit.setText(str(path))
        settings = QSettings()
        settings.setValue("report/page_size", self.page_size.currentText())
        settings.setValue("report/open_after", "true" if self.open_box.isChecked() else "false")
        settings.setValue("report/bands", "true" if self.bands_box.isChecked() else "false")
        options = self.options()
        snapshot = self.document.project.clone()
        picture = canvas_picture(snapshot, self.document.catalog) if (self.use_canvas and options.diagram) else None
        results, bands = self._window_bands() if self.bands_box.isChecked() else ({}, {})
        self.job = ExportJob(snapshot, self.document.catalog, path, options, picture, warnings, results, bands,
                             REPORT_SAMPLES if self.bands_box.isChecked() else 0)
        self.thread = QThread(self)
        self.job.moveToThread(self.thread)
        self.thread.started.connect(self.job.run)
        self.job.progress.connect(self._progress)
        self.job.finished.connect(self._finished)
        self.job.failed.connect(self._failed)
        self.job.cancelled.connect(self._cancelled)
        for sig in (self.job.finished, self.job.failed, self.job.cancelled):
            sig.connect(self.thread.quit)
        self._set_running(True)
        self.thread.start()

    def _window_bands(self) -> tuple[dict, dict]:
        """The prediction on screen and the bands sampled around it, if they describe the project
        as it is now (no edit since: the live prediction is not busy and they belong to it)."""
        window = self.parent()
        plugins = getattr(window, "plugins", {}) or {}
        parts, bands_ui = plugins.get("app.ui.timeline"), plugins.get("app.ui.bands")
        if parts is None or bands_ui is None or parts.live.busy or parts.live.live is None:
            return {}, {}
        live = parts.live.live
        bands = bands_ui.sampler.bands_for(live.current)
        if bands is None or live.scenario != self.document.project.current_scenario:
            return {}, {}
        return {live.scenario: live.current}, {live.scenario: bands}

    def _set_running(self, running: bool) -> None:
        self.progress.setVisible(True)
        self.progress_label.setVisible(True)
        self.export_button.setEnabled(not running)
        for w in (self.scenarios, self.path_edit, self.page_size, self.diagram_box, self.luns_box,
                  self.assumptions_box, self.bands_box, *self.chart_boxes.values()):
            w.setEnabled(not running)
        if running:
            self.progress.setValue(0)
            self.progress_label.setText(tr("Starting…"))

    @Slot(float, str)
    def _progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(round(fraction * 1000)))
        self.progress_label.setText(message)

    def _done(self) -> None:
        if self.thread is not None:
            self.thread.quit()
            self.thread.wait(10000)
        self.job = None
        self.thread = None
        self._set_running(False)

    @Slot(object)
    def _finished(self, info) -> None:
        self.info = info
        self._done()
        QSettings().setValue("report/last_dir", str(Path(info.path).parent))  # only a folder written to
        self.progress_label.setText(tr("Wrote {path} ({pages} pages)").format(path=info.path, pages=info.pages))
        parent = self.parent()
        if parent is not None and hasattr(parent, "status"):
            parent.status(tr("Report written: {path} ({pages} pages)").format(path=info.path, pages=info.pages))
        if self.open_box.isChecked():
            self.open_in_viewer(Path(info.path))
        self.accept()

    def open_in_viewer(self, path: Path) -> None:
        """Open the PDF in the system's viewer; when none starts (openUrl returns False: no
        viewer installed, no desktop session) say so and offer the folder or the path."""
        if QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            return
        # non-modal, on the main window: this dialog closes right after
        owner = self.parent() if isinstance(self.parent(), QWidget) else self
        box = QMessageBox(QMessageBox.Warning, tr("Open the report"),
                          tr("The report was written, but no program to show PDF files could be started "
                             "(none installed, or no desktop session). The report is:\n{path}").format(path=path),
                          QMessageBox.NoButton, owner)
        box.setObjectName("noViewerBox")
        folder = box.addButton(tr("Show Folder"), QMessageBox.ActionRole)
        folder.setObjectName("showFolder")
        copy = box.addButton(tr("Copy Path"), QMessageBox.ActionRole)
        copy.setObjectName("copyPath")
        box.addButton(QMessageBox.Close)
        box.setAttribute(Qt.WA_DeleteOnClose)

        def clicked(button) -> None:
            if button is folder and QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent))):
                return
            if button in (folder, copy):  # the folder cannot be shown either: the path is what is left
                QGuiApplication.clipboard().setText(str(path))
                status = getattr(owner, "status", None)
                if status is not None:
                    status(tr("Copied the report's path: {path}").format(path=path))

        box.buttonClicked.connect(clicked)
        box.open()

    @Slot(str)
    def _failed(self, message: str) -> None:
        self.error = message
        path = self.job.path if self.job is not None else None
        self._done()
        self.progress_label.setText(tr("The report could not be written."))
        # a failed export never touches an existing report (app.report.output): say so
        kept = "\n\n" + tr("The existing file was left unchanged.") if path is not None and path.is_file() else ""
        QMessageBox.critical(self, tr("Export report"),
                             tr("The report could not be written:\n{message}").format(message=message) + kept)

    @Slot()
    def _cancelled(self) -> None:
        self._done()
        self.progress.setValue(0)
        self.progress_label.setText(tr("Cancelled; no file was written."))

    def cancel(self) -> None:
        """Cancel the running export (the dialog stays open), or close the dialog."""
        if self.job is not None:
            self.progress_label.setText(tr("Cancelling…"))
            self.job.cancel()
        else:
            self.reject()

    def wait(self, timeout_ms: int = 60000) -> bool:
        """For tests: wait until the worker thread has finished."""
        return self.thread.wait(timeout_ms) if self.thread is not None else True

    def closeEvent(self, event) -> None:  # noqa: N802
        if self.job is not None:
            self.job.cancel()
            if self.thread is not None:
                self.thread.wait(10000)
        super().closeEvent(event)

    def reject(self) -> None:
        if self.job is not None:
            self.cancel()
            return
        super().reject()


class ReportPlugin:
    def __init__(self, window):
        self.window = window
        self.action = QAction(tr("Export &Report…"), window)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+E"))
        self.action.setStatusTip(tr("Write the PDF report for the customer: configuration, plan, charts, assumptions"))
        self.action.triggered.connect(self.open_dialog)
        file_menu = window.menu("File")
        tail = getattr(window, "_file_tail", None)
        if tail is not None:
            file_menu.insertAction(tail, self.action)
        else:
            file_menu.addAction(self.action)
        window.menu("Report").addAction(self.action)
        self.dialog: ReportDialog | None = None

    def open_dialog(self) -> ReportDialog:
        self.dialog = ReportDialog(self.window.document, self.window)
        self.dialog.open()
        return self.dialog


def install(window) -> ReportPlugin:
    return ReportPlugin(window)
