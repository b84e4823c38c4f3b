"""File > Import measured data..., File > Calibrate to measured data..., View > Measured vs
predicted (docs/measured-data.md). `install(window)` is called by the main window (PLUGINS).

Reading a file, the replay and the fit run in a worker thread (BackgroundJob); nothing in the
project changes until the user accepts a dialog, and then by one undoable edit (ImportMeasured,
ApplyCalibration in app.domain.edits.measured).
"""
from __future__ import annotations

import math
import threading
import traceback
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, QSettings, QThread, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFileDialog, QHeaderView, QLabel, QMessageBox, QPlainTextEdit,
    QProgressBar, QPushButton, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from app.ui.i18n import tr
from app.ui.screen_fit import fit_to_screen
from app.domain.hardware import group_noun
from app.domain.measured import KIND_LABELS, MeasuredData
from app.domain.edits.measured import ImportMeasured
from app.domain.measured_map import guess_mapping, target_choices
from app.ui.charts.measured import MeasuredCharts

FILTER = "Measured data (*.csv *.txt *.log *.out);;All files (*)"


class BackgroundJob(QObject):
    """Runs `work(progress, cancelled)` in a QThread; the signals arrive on the GUI thread."""

    finished = Signal(object)
    failed = Signal(str)
    progress = Signal(int)

    def __init__(self, work: Callable[[Callable[[int], None], Callable[[], bool]], Any]) -> None:
        super().__init__()
        self.work = work
        self._cancel = threading.Event()
        self._thread = QThread()
        self.moveToThread(self._thread)
        self._thread.started.connect(self.run)

    def start(self) -> None:
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    def wait(self, ms: int = 60000) -> bool:
        return self._thread.wait(ms)

    @Slot()
    def run(self) -> None:
        try:
            out = self.work(self.progress.emit, self._cancel.is_set)
        except Exception as exc:  # shown to the user; the GUI stays up
            if type(exc).__name__ not in ("MeasuredImportError", "CalibrationError", "CalibrationCancelled"):
                traceback.print_exc()
            self.failed.emit(str(exc) or type(exc).__name__)
        else:
            self.finished.emit(out)
        finally:
            self._thread.quit()


def _controllers(document) -> tuple[str, ...]:
    return tuple(c.name for c in document.platform.controllers)


def parameter_table() -> QTableWidget:
    """The calibration's parameters: before, after (± the fit's standard error), change, bounds."""
    table = QTableWidget(0, 6)
    table.setHorizontalHeaderLabels(["Parameter", "Before", "After", "Change", "Bounds", "Note"])
    table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeToContents)
    table.horizontalHeader().setSectionResizeMode(5, QHeaderView.Stretch)  # the notes are the longest
    table.setEditTriggers(QTableWidget.NoEditTriggers)
    return table


def fill_parameter_table(table: QTableWidget, cal) -> None:
    table.setRowCount(len(cal.parameters))
    for row, p in enumerate(cal.parameters):
        change = f"{p.moved_pct:+.1f}%" if p.identified and math.isfinite(p.moved_pct) else ""
        note = "not identified by this data: unchanged" if not p.identified else ("at a bound" if p.at_bound else "")
        after = f"{p.after:.4g}" + (f" ± {p.stderr:.2g}" if p.stderr is not None else "")
        for col, text in enumerate((p.path, f"{p.before:.4g}", after, change, f"{p.low:g} – {p.high:g}", note)):
            item = QTableWidgetItem(text)
            item.setToolTip(p.about)
            table.setItem(row, col, item)
    table.resizeColumnsToContents()
    table.horizontalHeader().setSectionResizeMode(5, QHeaderView.Stretch)


def rms_text(cal) -> str:
    units = {"response_ms": "ms", "util_pct": "% points"}
    return "; ".join(f"RMS {m}: {cal.rms_before[m]:.3g} -> {cal.rms_after[m]:.3g} {units.get(m, '')}".rstrip()
                     for m in cal.rms_before)


class ImportMeasuredDialog(QDialog):
    """What the file holds, what was skipped, and which project object each measured object is;
    OK applies ImportMeasured (one edit)."""

    def __init__(self, document, data: MeasuredData, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.data = document, data
        self.setWindowTitle(tr("Import measured data: {source}").format(source=data.source))
        fit_to_screen(self, (760, 560))
        lay = QVBoxLayout(self)
        n_obj = len(data.objects())
        summary = (f"{data.source}: {data.format}, {len(data.intervals)} intervals of {n_obj} objects, "
                   f"{len(data.times())} polls")
        if data.skipped_count:
            summary += f"; {data.skipped_count} lines skipped (below)"
        lay.addWidget(QLabel(summary))
        self.table = QTableWidget(n_obj, 4)
        self.table.setHorizontalHeaderLabels(["Measured object", "Kind", "Intervals", "Is in the project"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.Stretch)
        project = document.project
        keep = project.measured.mapping if project.measured is not None else None
        mapping = guess_mapping(project, data, _controllers(document), keep)
        self.combos: dict[str, QComboBox] = {}
        counts: dict[str, int] = {}
        for iv in data.intervals:
            counts[iv.key] = counts.get(iv.key, 0) + 1
        for row, (kind, name) in enumerate(data.objects()):
            key = f"{kind}:{name}"
            self.table.setItem(row, 0, QTableWidgetItem(name))
            kind_label = (group_noun(document.platform, in_sentence=True) if kind == "group"
                          else KIND_LABELS.get(kind, kind))
            self.table.setItem(row, 1, QTableWidgetItem(kind_label))
            self.table.setItem(row, 2, QTableWidgetItem(str(counts.get(key, 0))))
            combo = QComboBox()
            combo.addItem("(not used)", "")
            for t, label in target_choices(project, kind, _controllers(document), document.platform):
                combo.addItem(label, t)
            combo.setCurrentIndex(max(0, combo.findData(mapping.get(key, ""))))
            self.table.setCellWidget(row, 3, combo)
            self.combos[key] = combo
        lay.addWidget(self.table, 3)
        if data.skipped:
            skipped = QPlainTextEdit("\n".join(data.skipped) + (
                f"\n... and {data.skipped_count - len(data.skipped)} more" if data.skipped_count > len(data.skipped) else ""))
            skipped.setReadOnly(True)
            lay.addWidget(skipped, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Import")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    def mapping(self) -> dict[str, str]:
        return {k: c.currentData() or "" for k, c in self.combos.items()}

    def accept(self) -> None:
        self.data.mapping = self.mapping()
        why = self.document.try_apply(ImportMeasured(self.data))
        if why:
            QMessageBox.warning(self, tr("Import measured data"), why)
            return
        super().accept()


class CalibrateDialog(QDialog):
    """Runs the fit off the GUI thread (progress: engine runs; Cancel), then shows the moved
    parameters, the RMS error per metric before and after, and the charts; Apply is one edit."""

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.result = None
        self.setWindowTitle(tr("Calibrate to measured data"))
        fit_to_screen(self, (980, 760))
        lay = QVBoxLayout(self)
        self.label = QLabel(tr("Fitting the platform's free parameters to the measured intervals…"))
        self.label.setWordWrap(True)
        lay.addWidget(self.label)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        lay.addWidget(self.progress)
        split = QSplitter()
        split.setOrientation(split.orientation().__class__.Vertical)
        self.params = parameter_table()
        split.addWidget(self.params)
        self.charts = MeasuredCharts()
        split.addWidget(self.charts)
        split.setSizes([220, 480])
        lay.addWidget(split, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Cancel)
        self.apply_button = QPushButton(tr("Apply Calibration"))
        self.apply_button.setEnabled(False)
        self.buttons.addButton(self.apply_button, QDialogButtonBox.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        project, catalog = document.project.clone(), document.catalog
        data = project.measured

        def work(progress, cancelled):
            from app.service.calibrate import calibrate
            return calibrate(project, catalog, data, progress=progress, cancelled=cancelled)

        self.job = BackgroundJob(work)
        self.job.progress.connect(self._progress)
        self.job.finished.connect(self._done)
        self.job.failed.connect(self._failed)
        self.job.start()

    @Slot(int)
    def _progress(self, runs: int) -> None:
        self.label.setText(f"Fitting… {runs} engine runs")

    @Slot(object)
    def _done(self, result) -> None:
        from app.service.calibrate import describe

        self.result = result
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        cal = result.calibration
        rms = rms_text(cal)
        self.label.setText(describe(cal)[0] + f" in {result.seconds:.1f} s. {rms}. Apply makes the project use "
                           f"{cal.platform_id} (one edit: Edit > Undo returns to {cal.base_platform_id})."
                           + "".join(f"\nNote: {n}." for n in cal.notes))
        fill_parameter_table(self.params, cal)
        from app.domain.measured_replay import target_label

        mapping = self.document.project.measured.mapping
        self.charts.show_points(result.replay.points, {"calibrated": result.after, "before": result.before},
                                {k: target_label(t, self.document.project, self.document.platform)
                                 for k, t in mapping.items() if t})
        self.apply_button.setEnabled(True)

    @Slot(str)
    def _failed(self, message: str) -> None:
        self.progress.setRange(0, 1)
        self.label.setText(f"The calibration could not be made: {message}")

    def accept(self) -> None:
        if self.result is None:
            return
        why = self.document.try_apply(self.result.edit())
        if why:
            QMessageBox.warning(self, tr("Calibrate"), why)
            return
        super().accept()

    def reject(self) -> None:
        self.job.cancel()
        self.job.wait(30000)
        super().reject()


class CompareDialog(QDialog):
    """The project's measured data against its prediction (and the uncalibrated one)."""

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Measured vs predicted"))
        fit_to_screen(self, (960, 640))
        lay = QVBoxLayout(self)
        cal = document.project.calibration
        self.label = QLabel(tr("Running the measured load…"))
        self.label.setWordWrap(True)
        lay.addWidget(self.label)
        self.charts = MeasuredCharts()
        self.params = None
        if cal is not None:  # what the calibration moved, from the project's record of it
            split = QSplitter()
            split.setOrientation(split.orientation().__class__.Vertical)
            self.params = parameter_table()
            fill_parameter_table(self.params, cal)
            split.addWidget(self.params)
            split.addWidget(self.charts)
            split.setSizes([200, 520])
            lay.addWidget(split, 1)
        else:
            lay.addWidget(self.charts, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        project, catalog = document.project.clone(), document.catalog
        self.cal = cal

        def work(progress, cancelled):
            from app.service.calibrate import compare
            return compare(project, catalog)

        self.job = BackgroundJob(work)
        self.job.finished.connect(self._done)
        self.job.failed.connect(self._failed)
        self.job.start()

    @Slot(str)
    def _failed(self, message: str) -> None:
        self.label.setText(f"No comparison: {message}")

    @Slot(object)
    def _done(self, comparison) -> None:
        preds = {"calibrated" if self.cal else "predicted": comparison.now}
        if comparison.uncalibrated is not None:
            preds["uncalibrated"] = comparison.uncalibrated
        data = comparison.replay
        self.label.setText(f"{len(data.points)} measured values"
                           + (f"; calibrated {self.cal.created[:10]} from {self.cal.source} "
                              f"({self.cal.intervals_used} intervals; from {self.cal.base_platform_id}): "
                              f"{rms_text(self.cal)}" if self.cal else
                              "; the platform is not calibrated (File > Calibrate to measured data)"))
        self.charts.show_points(comparison.replay.points, preds, comparison.labels)

    def reject(self) -> None:
        self.job.wait(30000)
        super().reject()


class MeasuredPlugin(QObject):
    """The menu actions; a QObject in the GUI thread, so the reader's signals reach its slots there."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        f = window.menu("File")
        tail = getattr(window, "_file_tail", None)
        self.act_import = QAction(tr("Import &Measured Data…"), window)
        self.act_import.setStatusTip(tr("Read interval performance data (CSV, iostat, Unisphere Analyzer) and map it"))
        self.act_import.triggered.connect(lambda: self.import_file())
        self.act_calibrate = QAction(tr("&Calibrate to Measured Data…"), window)
        self.act_calibrate.setStatusTip(tr("Fit the platform's free parameters to the imported measured data"))
        self.act_calibrate.triggered.connect(self.calibrate)
        self.act_compare = QAction(tr("Measured vs &Predicted…"), window)
        self.act_compare.triggered.connect(self.compare)
        for a in (self.act_import, self.act_calibrate):
            f.insertAction(tail, a) if tail is not None else f.addAction(a)
        window.menu("View").addAction(self.act_compare)
        self.dialog: QDialog | None = None
        self._read_job: BackgroundJob | None = None
        window.document.changed.connect(self._enable)
        self._enable()

    @Slot()
    @Slot(object)
    def _enable(self, _change=None) -> None:
        has = self.window.document.project.measured is not None
        self.act_calibrate.setEnabled(has)
        self.act_compare.setEnabled(has)

    def import_file(self, path: str | Path | None = None) -> None:
        if path is None:
            start = str(QSettings().value("measured/last_dir", "") or "")
            path, _ = QFileDialog.getOpenFileName(self.window, "Import measured data", start, FILTER)
            if not path:
                return
        path = Path(path)
        QSettings().setValue("measured/last_dir", str(path.parent))

        def work(progress, cancelled):
            from app.store.measured import read_measured
            return read_measured(path)

        self.window.status(tr("Reading {name}…").format(name=path.name))
        self._read_job = BackgroundJob(work)
        self._read_job.finished.connect(self._read)
        self._read_job.failed.connect(self._read_failed)
        self._read_job.start()

    @Slot(str)
    def _read_failed(self, message: str) -> None:
        QMessageBox.warning(self.window, tr("Import measured data"), message)

    @Slot(object)
    def _read(self, data: MeasuredData) -> None:
        self.dialog = ImportMeasuredDialog(self.window.document, data, self.window)
        self.dialog.accepted.connect(self._imported)
        self.dialog.open()

    @Slot()
    def _imported(self) -> None:
        data = self.window.document.project.measured
        if data is not None:
            self.window.status(tr("Imported {n} measured intervals from {source}").format(n=len(data.intervals), source=data.source))

    def calibrate(self) -> None:
        self.dialog = CalibrateDialog(self.window.document, self.window)
        self.dialog.open()

    def compare(self) -> None:
        self.dialog = CompareDialog(self.window.document, self.window)
        self.dialog.open()


def install(window) -> MeasuredPlugin:
    return MeasuredPlugin(window)
