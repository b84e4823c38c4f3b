"""Uncertainty bands in the GUI (issue 25): after each point estimate is shown, sample the ranged
preset values in the background and draw the P10-P90 bands.

A plug-in (app/ui/main_window.py PLUGINS, after app.ui.timeline, whose LiveSimulator it
follows). `BandSampler` starts app.service.uncertainty.compute_bands when the live prediction
delivers a result: on a Python thread that only waits on the runner's shared process pool
(app/service/runner.py, a worker per core), as the load sweep does, so the engine never runs
on the GUI thread. Progress shows in the status bar with a Cancel button (also View > Cancel
Uncertainty Sampling). An edit, another project, a new result or turning the bands off cancels
the sampling under way; each run has a ticket, and a result arrives on screen only if its
ticket is the newest and the prediction it was sampled around is still the one shown: a band
from a stale project or edit is never drawn. View > Uncertainty Bands turns the sampling off
(remembered in QSettings "view/uncertainty_bands").

When bands arrive the charts draw them under the curves (app/ui/charts/bands.py), and the
timeline and the inspector write the operations' durations with their range:
"3.4 h (P10-P90 2.8-4.1 h)". The report dialog uses `bands_for(result)` so that the PDF prints
the ranges the window shows instead of sampling again.
"""
from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QProgressBar, QToolButton

from app.domain.formatting import format_duration_band, format_pct
from app.report.uncertainty import bands_by_default
from app.service.uncertainty import compute_bands, sample_count
from app.ui.i18n import tr

SETTING = "view/uncertainty_bands"
# jobs per worker: small chunks of samples, so that a cancelled sampling (an edit) leaves little
# running in the pool beside the next point estimate (a chunk that started runs to its end)
JOBS_PER_WORKER = 12


def chunk_size(samples: int) -> int:
    return max(1, math.ceil(samples / ((os.cpu_count() or 1) * JOBS_PER_WORKER)))


class _Bridge(QObject):
    """Signals from the sampling thread (queued to the GUI thread); each carries its ticket."""

    progress = Signal(int, int, int)  # ticket, runs done, runs in all
    finished = Signal(int, object)  # ticket, Bands or None (cancelled)
    failed = Signal(int, str)


@dataclass(frozen=True)
class BandMessage:
    """A row of the Messages dock (severity, where, text), source "uncertainty"."""

    severity: str
    where: str
    text: str


def band_messages(bands, result) -> list[BandMessage]:
    """The operations whose duration has a range, with it ("op1 ...: 3.4 h (P10-P90 2.8-4.1 h)"),
    and a warning for one that does not finish in some of the sampled runs although the point
    estimate does. Operations the ranged values do not move are left out (their duration is on
    the timeline already)."""
    out: list[BandMessage] = []
    if bands is None or result is None:
        return out
    for op in result.operations:
        band = bands.operations.get(op.event_id)
        if band is None or not op.phases:
            continue
        q = band.duration_h
        text = format_duration_band(op.duration_h, q.p10, q.p90)
        if op.duration_h is not None and band.unfinished_share > 0:
            out.append(BandMessage("warning", op.event_id, tr(
                "{operation}: {duration}; it does not finish within the plan in {share} of the sampled runs").format(
                    operation=op.label, duration=text, share=format_pct(100.0 * band.unfinished_share))))
        elif q.p10 != q.p90:
            out.append(BandMessage("info", op.event_id, tr("{operation}: {duration}").format(
                operation=op.label, duration=text)))
    return out


class BandSampler(QObject):
    """Samples the bands of each point estimate shown; the newest wins, the stale are dropped."""

    started = Signal()
    progressed = Signal(int, int)  # runs done, runs in all (of the newest sampling)
    bandsReady = Signal(object, object)  # Bands, the LiveResult they were sampled around
    idle = Signal()  # the newest sampling ended: done, cancelled or failed
    failed = Signal(str)

    def __init__(self, live, document, samples: int | None = None, executor: Any = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.live = live  # app.ui.live.LiveSimulator
        self.document = document
        self.samples = samples  # None: the bands choose (app.service.uncertainty.sample_count)
        self.executor = executor  # None: the runner's shared local process pool (all cores)
        self.bands = None  # the newest bands shown
        self.bands_of = None  # the LiveResult they belong to
        self.runs_started = 0  # samplings started (tests: "toggle off -> none")
        self._enabled = bool(QSettings().value(SETTING, bands_by_default(), type=bool))
        self._ticket = 0
        self._running: tuple[int, threading.Event, threading.Thread, Any] | None = None
        # no parent, and held by each sampling's thread: it outlives this object while a thread
        # may still emit (deleting an object another thread emits from can deadlock on the GIL)
        self._bridge = _Bridge()
        self._stops: list[threading.Event] = []  # every sampling's cancel, set when this goes
        stops = self._stops
        self.destroyed.connect(lambda *_a: [e.set() for e in stops])
        self._bridge.progress.connect(self._on_progress)
        self._bridge.finished.connect(self._on_finished)
        self._bridge.failed.connect(self._on_failed)
        live.resultReady.connect(self.on_result)
        live.failed.connect(lambda _m: self.cancel())
        document.changed.connect(self._on_changed)
        if hasattr(document, "replaced"):
            document.replaced.connect(self.cancel)

    # ---------------------------------------------------------------- state
    @property
    def enabled(self) -> bool:
        return self._enabled

    def set_enabled(self, on: bool) -> None:
        """View > Uncertainty Bands; remembered. Off: the sampling stops and the bands go."""
        on = bool(on)
        if on == self._enabled:
            return
        self._enabled = on
        QSettings().setValue(SETTING, on)
        if not on:
            self.cancel()
            self._drop_bands()
        elif self.live.live is not None:
            self.on_result(self.live.live)

    @property
    def busy(self) -> bool:
        return self._running is not None

    def bands_for(self, result) -> Any:
        """The bands sampled around `result` (an engine Result), if they are the ones shown."""
        if self.bands is not None and self.bands_of is not None and self.bands_of.current is result:
            return self.bands
        return None

    # ---------------------------------------------------------------- running
    def on_result(self, live_result) -> None:
        """A point estimate is on screen: sample its bands (the previous sampling is stale)."""
        self.cancel()
        self._drop_bands()
        if not self._enabled or live_result is None or self.live.live is not live_result or self.live.busy:
            return  # off, or an edit since: the prediction on its way will be sampled instead
        # the project as it was simulated: no edit has arrived since (the result would be stale)
        project = self.document.project.clone()
        catalog = self.document.catalog
        self._ticket += 1
        ticket, stop = self._ticket, threading.Event()
        self._stops[:] = [e for e in self._stops if not e.is_set()] + [stop]
        bridge, samples, executor = self._bridge, self.samples, self.executor
        point, scenario = live_result.current, live_result.scenario

        def work() -> None:
            try:
                n = samples if samples is not None else sample_count(point)
                bands = compute_bands(project, catalog, scenario, samples=n, executor=executor,
                                      progress=lambda d, t: bridge.progress.emit(ticket, d, t),
                                      cancel=stop, point=point, chunk=chunk_size(n),
                                      adaptive=True)  # stops once P10/P50/P90 are stable
            except Exception as exc:  # noqa: BLE001 - shown in the status bar; the window stays usable
                bridge.failed.emit(ticket, f"{type(exc).__name__}: {exc}")
                return
            bridge.finished.emit(ticket, bands)

        thread = threading.Thread(target=work, name="uncertainty-bands", daemon=True)
        self._running = (ticket, stop, thread, live_result)
        self.runs_started += 1
        self.started.emit()
        thread.start()

    def cancel(self) -> None:
        """Stop the sampling under way (the runs not started are cancelled; its answer, if it
        still comes, is dropped)."""
        if self._running is None:
            return
        _ticket, stop, _thread, _of = self._running
        stop.set()
        self._running = None
        self.idle.emit()

    def wait(self, timeout_s: float = 60.0) -> None:
        """For tests and closing: wait for the sampling thread."""
        if self._running is not None:
            self._running[2].join(timeout_s)

    def _on_changed(self, change=None) -> None:
        if change is not None and not getattr(change, "needs_simulation", True):
            return  # e.g. the project title: the bands still describe the plan
        self.cancel()

    def _current(self, ticket: int):
        """The running sampling's LiveResult if `ticket` is it and its prediction is still shown."""
        if self._running is None or self._running[0] != ticket:
            return None
        of = self._running[3]
        return of if self.live.live is of else None

    def _on_progress(self, ticket: int, done: int, total: int) -> None:
        if self._current(ticket) is not None:
            self.progressed.emit(done, total)

    def _on_finished(self, ticket: int, bands) -> None:
        of = self._current(ticket)
        if self._running is not None and self._running[0] == ticket:
            self._running = None
            self.idle.emit()
        if of is None or bands is None:
            return  # stale (an edit, another project, cancelled): never shown
        self.bands, self.bands_of = bands, of
        self.bandsReady.emit(bands, of)

    def _on_failed(self, ticket: int, message: str) -> None:
        if self._running is not None and self._running[0] == ticket:
            self._running = None
            self.idle.emit()
            self.failed.emit(message)

    def _drop_bands(self) -> None:
        if self.bands is not None:
            self.bands = self.bands_of = None
            self.bandsReady.emit(None, None)


class BandsStatus(QObject):
    """The status bar's part: "Uncertainty bands: 40 of 200 runs", a progress bar and Cancel."""

    def __init__(self, window, sampler: BandSampler):
        super().__init__(window)
        self.window, self.sampler = window, sampler
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(120)
        self.bar.setTextVisible(False)
        self.bar.setAccessibleName(tr("Uncertainty sampling progress"))
        self.cancel_button = QToolButton()
        self.cancel_button.setText(tr("Cancel"))
        self.cancel_button.setToolTip(tr("Stop sampling the uncertainty bands of this prediction"))
        self.cancel_button.clicked.connect(sampler.cancel)
        bar = window.statusBar()
        for w in (self.label, self.bar, self.cancel_button):
            bar.addPermanentWidget(w)
            w.hide()
        sampler.started.connect(self._started)
        sampler.progressed.connect(self._progress)
        sampler.idle.connect(self._idle)
        sampler.failed.connect(lambda m: window.status(tr("Uncertainty bands failed: {why}").format(why=m)))
        sampler.bandsReady.connect(self._ready)

    def _started(self) -> None:
        self.label.setText(tr("Uncertainty bands…"))
        self.bar.setRange(0, 0)  # busy until the first runs are back
        for w in (self.label, self.bar, self.cancel_button):
            w.show()

    def _progress(self, done: int, total: int) -> None:
        self.label.setText(tr("Uncertainty bands: {done} of {total} runs").format(done=done, total=total))
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)

    def _idle(self) -> None:
        for w in (self.label, self.bar, self.cancel_button):
            w.hide()

    def _ready(self, bands, _of) -> None:
        if bands is None:
            return
        if not bands.parameters:
            self.window.status(tr("No preset value of this platform carries a range: the bands have no width"))
        else:
            self.window.status(tr("Uncertainty bands from {runs} runs over {n} ranged values ({seconds} s)").format(
                runs=bands.runs, n=len(bands.parameters), seconds=f"{bands.seconds:.1f}"))


class BandsParts:
    """What install() made: window.plugins["app.ui.bands"]."""

    def __init__(self, window, timeline_parts, sampler: BandSampler):
        self.window, self.timeline_parts, self.sampler = window, timeline_parts, sampler
        self.status = BandsStatus(window, sampler)
        self.toggle = QAction(tr("Uncertainty &Bands"), window)
        self.toggle.setObjectName("uncertainty_bands")
        self.toggle.setCheckable(True)
        self.toggle.setChecked(sampler.enabled)
        self.toggle.setStatusTip(tr("After each prediction, sample the preset values' ranges in the background "
                                    "and show P10-P90 bands and duration ranges"))
        self.toggle.toggled.connect(sampler.set_enabled)
        self.cancel_action = QAction(tr("Cancel Uncertainty &Sampling"), window)
        self.cancel_action.setEnabled(False)
        self.cancel_action.triggered.connect(sampler.cancel)
        sampler.started.connect(lambda: self.cancel_action.setEnabled(True))
        sampler.idle.connect(lambda: self.cancel_action.setEnabled(False))
        sampler.bandsReady.connect(self.show_bands)
        view = window.menu("View")
        view.addAction(self.toggle)
        view.addAction(self.cancel_action)

    def show_bands(self, bands, of) -> None:
        """Bands sampled around `of` (a LiveResult), or None: draw them, or take them away."""
        parts = self.timeline_parts
        result = of.current if of is not None else None
        parts.charts.set_bands(bands)
        parts.timeline.set_bands(bands, result)
        inspector = getattr(self.window, "inspector", None)
        if inspector is not None and hasattr(inspector, "set_bands"):
            inspector.set_bands(bands, result)
        messages = getattr(self.window, "messages", None)
        if messages is not None and hasattr(messages, "set_extra"):
            from app.ui.messages import UNCERTAINTY

            messages.set_extra(UNCERTAINTY, band_messages(bands, result))


def install(window) -> BandsParts | None:
    timeline_parts = getattr(window, "plugins", {}).get("app.ui.timeline")
    if timeline_parts is None:  # no live prediction: nothing to sample around
        return None
    sampler = BandSampler(timeline_parts.live, window.document, parent=window)
    return BandsParts(window, timeline_parts, sampler)
