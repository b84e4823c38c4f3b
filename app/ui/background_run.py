"""The plumbing the sizing dialogs (app/ui/sizing.py) share: an engine run on a Python thread that
only waits on the executor (app/service/runner.py), its progress and answer queued back to the
GUI thread, Cancel and closing stopping the jobs not yet started."""
from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QSplitter, QVBoxLayout, QWidget,
)

from app.ui.screen_fit import fit_to_screen


class _Bridge(QObject):
    """Signals from the run's thread (queued to the GUI thread)."""

    progress = Signal(int, int)
    finished = Signal(object)  # the answer, or None (cancelled)
    failed = Signal(str)


class BackgroundRunDialog(QDialog):
    """The plumbing both sizing dialogs share: a run on a Python thread (which only waits on the
    executor: the engine never runs on the GUI thread), its progress and answer queued back by
    `bridge`, Cancel and closing stopping the jobs not yet started. A subclass makes
    `run_button`, `cancel_button`, `bar` and `summary`, implements `_finished(answer)` and calls
    `_run_in_background(name, work)`, where work(progress, should_stop) returns the answer (None:
    cancelled) or raises to fail."""

    failed_text = "The run failed"

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.bridge = _Bridge(self)
        self.bridge.progress.connect(self._progress)
        self.bridge.finished.connect(self._finished)
        self.bridge.failed.connect(self._failed)

    def _lay_out(self, form: QFormLayout, row: QHBoxLayout, split: QSplitter, size: tuple[int, int]) -> None:
        """Goals on top, the run's buttons, the summary, the chart over the table, Close."""
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addLayout(row)
        lay.addWidget(self.summary)
        lay.addWidget(split, 1)
        lay.addWidget(buttons)
        fit_to_screen(self, size)  # 1024 x 600: never taller than the screen

    def _run_in_background(self, name: str, work) -> None:
        self._stop.clear()
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.bar.setRange(0, 0)
        bridge, stop = self.bridge, self._stop

        def run() -> None:
            try:
                answer = work(lambda d, t: bridge.progress.emit(d, t), stop.is_set)
            except Exception as exc:  # noqa: BLE001 - shown to the user, the dialog stays usable
                bridge.failed.emit(str(exc))
                return
            bridge.finished.emit(answer)

        self._thread = threading.Thread(target=run, name=name, daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        self._stop.set()

    def wait(self, timeout: float = 60.0) -> None:
        """For tests and closing: wait for the run's thread."""
        if self._thread is not None:
            self._thread.join(timeout)

    def done(self, r: int) -> None:  # noqa: D401 - QDialog.done: stop a running run first
        self._stop.set()
        super().done(r)

    def _progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, total)
        self.bar.setValue(done)

    def _idle(self) -> None:
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.bar.setRange(0, 1)

    def _failed(self, message: str) -> None:
        self._idle()
        self.summary.setText(f"{self.failed_text}: {message}")

    def _finished(self, answer) -> None:
        raise NotImplementedError
