"""Live predictions: re-run the engine after every edit, off the GUI thread, newest result wins.

`LiveSimulator` watches a Document (anything with `project`, `catalog` and a `changed` signal).
Each change bumps a generation counter and starts a run: validation, then the engine for the
current scenario and the pinned baseline (app.service.predict). At most one run is in flight:
edits that arrive meanwhile only mark the simulator dirty, and when the running one finishes its
result is dropped if its generation is stale and the newest project is simulated instead.

Runs go to the engine worker process (app/ui/engine_process.py: no GIL shared with the GUI
thread), which keeps a replica of the project: each run sends only the containers edited since
the previous one. The process is started in the background once the first prediction is shown;
until then, when it cannot be used, and when a test injects its own `simulate`, runs go to a
one-thread pool in this process on a snapshot of the project. The validation issues of each run
are published to the Document (`publish_issues`) for the Messages dock and the status bar.

`TimeCursor` is the shared cursor time (hours) of the timeline, the charts and the canvas
colouring, with a play control that moves it through the plan.

Nothing here computes a prediction: every number comes from `app.engine.simulate`.
"""
from __future__ import annotations

import atexit
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from app.service.predict import Prediction, SimulateFn, default_simulate, failure_message, predict
from app.service.engine_worker.replica import ChangeLog, snapshot_project
from app.ui.document import follow_document
from app.ui.gc_policy import collect_while_waiting
from app.ui.engine_process import WORKERS, engine_process, wait_until

# The worker process starts this long after the first prediction has been shown, so that its
# start (a new interpreter importing numpy and the engine, ~0.5 s of CPU) does not compete
# with the first window for the CPU.
PROCESS_START_DELAY_MS = 300

# While the engine (pure Python) runs in a worker thread it holds the GIL, and the GUI thread
# waits for it at every Python callback: with CPython's default 5 ms switch interval a busy
# worker stretches a 5 ms heartbeat to 25 ms gaps even in an empty window. While a job runs the
# interval is cut to 0.5 ms (measured: 11 ms gaps); it is restored when the worker is idle.
FAST_SWITCH_S = 0.0005
_switch = {"jobs": 0, "saved": None}


def _job_started() -> None:
    if _switch["jobs"] == 0:
        _switch["saved"] = sys.getswitchinterval()
        sys.setswitchinterval(min(_switch["saved"], FAST_SWITCH_S))
    _switch["jobs"] += 1


def _job_ended() -> None:
    _switch["jobs"] = max(0, _switch["jobs"] - 1)
    if _switch["jobs"] == 0 and _switch["saved"] is not None:
        sys.setswitchinterval(_switch["saved"])


@dataclass
class LiveResult:
    """What one engine run produced for the GUI."""

    generation: int
    current: Any  # Result of the current scenario
    baseline: Any | None  # Result of the pinned baseline scenario (None when not pinned / same)
    scenario: str
    baseline_scenario: str | None
    requested_at: float  # time.perf_counter() when the edit arrived
    engine_s: float  # time spent in the engine (both runs)
    issues: list = field(default_factory=list)  # validation issues of the project that was run
    transfer_s: float = 0.0  # from the worker process: pickling, the pipe, unpickling (0: in-process)
    marks: dict = field(default_factory=dict)  # Prediction.marks: when validation and the engine ran


# Worker pools live as long as the process, not as long as the window: a QThreadPool owned by a
# widget would be destroyed with it and wait, inside Qt's object deletion, for a running engine
# job that needs the GIL to finish. One thread each: live predictions, and the advisor's runs.
_POOLS: dict[str, QThreadPool] = {}


def worker_pool(name: str) -> QThreadPool:
    pool = _POOLS.get(name)
    if pool is None:
        pool = _POOLS[name] = QThreadPool()
        pool.setMaxThreadCount(1)
    return pool


@atexit.register
def _drain_pools() -> None:
    for pool in _POOLS.values():
        pool.clear()
        pool.waitForDone(5000)


class _JobSignals(QObject):
    """Emitted from the worker thread. Created without a parent, and referenced by the job, so it
    outlives its owner while a job still runs (deleting an object whose signal another thread is
    emitting can deadlock on the GIL)."""

    done = Signal(int, object)  # ticket, what the function returned
    failed = Signal(int, str)  # ticket, message


class _EngineJob(QRunnable):
    def __init__(self, fn: Callable[[], Any], ticket: int, signals: _JobSignals):
        super().__init__()
        self.setAutoDelete(True)
        self._fn = fn
        self._ticket = ticket
        self._signals = signals

    def run(self) -> None:  # worker thread
        try:
            out = self._fn()
        except Exception as exc:  # the engine refused the project: show it, do not crash
            self._signals.failed.emit(self._ticket, failure_message(exc))
        else:
            self._signals.done.emit(self._ticket, out)


class BackgroundRunner(QObject):
    """Run plain functions on a one-thread pool; callbacks are called on the GUI thread.

    Used by the priority advisor when it cannot use its worker process: `submit(fn, on_done,
    on_failed)` returns a ticket; `cancel()` makes every outstanding ticket stale so its
    callbacks are never called.
    """

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = worker_pool("advisor")
        self._ticket = 0
        self._callbacks: dict[int, tuple[Callable, Callable]] = {}
        self._running: dict[int, Callable] = {}  # ticket -> the job's function (see submit)
        self._signals = _JobSignals()
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)

    def submit(self, fn: Callable[[], Any], on_done: Callable[[Any], None],
               on_failed: Callable[[str], None] | None = None) -> int:
        self._ticket += 1
        self._callbacks[self._ticket] = (on_done, on_failed or (lambda _m: None))
        # `fn` is also kept here until the job's signal arrives, so its last reference (and
        # whatever Qt objects its closure holds) goes on the GUI thread, not in the pool thread
        self._running[self._ticket] = fn
        _job_started()
        self.pool.start(_EngineJob(fn, self._ticket, self._signals))
        return self._ticket

    def cancel(self) -> None:
        self._callbacks.clear()  # their jobs' signals still come and release `_running`

    @property
    def busy(self) -> bool:
        return bool(self._callbacks)

    @Slot(int, object)
    def _on_done(self, ticket: int, value: Any) -> None:
        _job_ended()
        self._running.pop(ticket, None)
        cbs = self._callbacks.pop(ticket, None)
        if cbs:
            cbs[0](value)

    @Slot(int, str)
    def _on_failed(self, ticket: int, message: str) -> None:
        _job_ended()
        self._running.pop(ticket, None)
        cbs = self._callbacks.pop(ticket, None)
        if cbs:
            cbs[1](message)

    def wait(self, timeout_ms: int = 60000) -> bool:
        return self.pool.waitForDone(timeout_ms)


class LiveSimulator(QObject):
    """Keeps `result` (and `baseline_result`) in step with the document."""

    resultReady = Signal(object)  # LiveResult (newest generation only)
    failed = Signal(str)
    busyChanged = Signal(bool)
    notice = Signal(str)  # for the status bar: the engine process was restarted, or is not used

    def __init__(self, document=None, simulate: SimulateFn | None = None, parent: QObject | None = None,
                 debounce_ms: int = 0):
        super().__init__(parent)
        self.simulate = simulate or default_simulate
        self.pool = worker_pool("live")
        self.process = engine_process("live")
        self.process.replied.connect(self._on_replied)
        self.process.lost.connect(self._on_lost)
        WORKERS.notice.connect(self.notice)
        self.generation = 0
        self.live: LiveResult | None = None
        self.error: str | None = None
        self.enabled = True
        self.auto_start_process = True  # start the worker process once a first prediction is shown
        self._document = None
        self._in_flight: int | None = None  # generation of the running job
        self._running: tuple[float, int] | None = None  # its requested_at and document revision
        self._ticket: int | None = None  # its ticket when it runs in the worker process
        self._interrupted: int | None = None  # the ticket a "stop" was sent for (one is enough)
        self._dirty = False
        self._requested_at = 0.0
        self._signals = _JobSignals()
        self._signals.done.connect(self._on_job_done)
        self._signals.failed.connect(self._on_job_failed)
        self._changes = ChangeLog()  # what was edited since the replica or snapshot was made
        self._last_snap = None  # the previous snapshot (in-process runs) and its project
        self._snap_of = None
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(debounce_ms)
        self._debounce.timeout.connect(self._start)
        if document is not None:
            self.set_document(document)

    # ---------------------------------------------------------------- inputs
    def set_document(self, document) -> None:
        follow_document(self._document, document, self._on_changed)
        for doc, step in ((self._document, -1), (document, 1)):
            if hasattr(doc, "issue_sources"):  # the Document leaves validation to us
                doc.issue_sources += step
        self._document = document
        self._changes.forget()
        self.request()

    def forget(self) -> None:
        """Drop the result shown: the document holds a different project now (open, new,
        recover), and a prediction of the old one must never be shown as this one's "last good
        prediction"."""
        self.live = None
        self.error = None

    @property
    def document(self):
        return self._document

    @property
    def result(self):
        return self.live.current if self.live else None

    @property
    def baseline_result(self):
        return self.live.baseline if self.live else None

    @property
    def busy(self) -> bool:
        return self._in_flight is not None or self._dirty

    @property
    def uses_process(self) -> bool:
        """Whether runs go to the worker process (else to a thread of this process)."""
        return self.simulate is default_simulate and self.process.usable

    @Slot(object)
    def _on_changed(self, change=None) -> None:
        self._changes.note(change)
        if change is not None and not getattr(change, "needs_simulation", True):
            return  # e.g. the project title: nothing the engine reads
        self.request()

    def request(self) -> None:
        """Something changed: simulate the newest project (coalescing bursts of edits)."""
        if self._document is None or not self.enabled:
            return
        self.generation += 1
        self._requested_at = time.perf_counter()
        was_busy = self.busy
        self._dirty = True
        if self._ticket is not None and self._interrupted != self._ticket:
            # the run in the worker is stale now: it stops at its next check (~1.5 ms of engine
            # time on the 960-drive plan) instead of finishing, and the newest project goes next
            self._interrupted = self._ticket
            self.process.interrupt()
        if self._in_flight is None:
            if self._debounce.interval() > 0:
                self._debounce.start()
            else:
                # start now: the engine then runs while the GUI thread finishes handling the
                # edit (the busy indication below included) and repaints, instead of after that
                self._start()
        if not was_busy:
            self.busyChanged.emit(True)

    # ---------------------------------------------------------------- running
    def _start(self) -> None:
        if self._in_flight is not None or not self._dirty or self._document is None:
            return
        self._dirty = False
        doc = self._document
        self._in_flight = self.generation
        self._running = (self._requested_at, getattr(doc, "revision", 0))
        if self.uses_process:
            changed = self._changes.take(self.process)
            self._ticket = self.process.submit("live", doc.project, doc.catalog, changed, ())
            collect_while_waiting()  # the GUI thread is idle until the reply (see gc_policy)
            return
        project, catalog = self._snapshot()
        simulate = None if self.simulate is default_simulate else self.simulate
        _job_started()
        self.pool.start(_EngineJob(lambda: predict(project, catalog, simulate), self.generation, self._signals))

    def _snapshot(self) -> tuple[Any, Any]:
        """A copy of the project for a worker thread; only what changed since the previous one
        is copied again."""
        doc = self._document
        changed = self._changes.take(self.pool)
        previous = self._last_snap if self._snap_of is doc.project else None
        snap = snapshot_project(doc.project, previous, changed)
        self._last_snap, self._snap_of = snap, doc.project
        return snap, doc.catalog

    @Slot(int, object)
    def _on_job_done(self, _generation: int, prediction: Prediction) -> None:
        _job_ended()
        self._finish(prediction, None, 0.0)

    @Slot(int, str)
    def _on_job_failed(self, _generation: int, message: str) -> None:
        _job_ended()
        self._finish(None, message, 0.0)

    @Slot(int, bool, object, float)
    def _on_replied(self, ticket: int, ok: bool, payload: Any, transfer_s: float) -> None:
        if ticket == self._ticket:
            self._ticket = None
            self._finish(payload if ok else None, None if ok else payload, transfer_s)

    @Slot(int)
    def _on_lost(self, ticket: int) -> None:
        """The worker process died during the run: run it again (restarted process, or here)."""
        if ticket == self._ticket:
            self._ticket = self._in_flight = self._running = None
            self._dirty = True
            self._start()

    def _finish(self, prediction: Prediction | None, failure: str | None, transfer_s: float) -> None:
        generation, (requested_at, revision) = self._in_flight, self._running
        self._in_flight = self._running = None
        if generation != self.generation:  # stale: an edit arrived while it ran
            self._start()
            return
        if prediction is not None:
            if hasattr(self._document, "publish_issues"):
                self._document.publish_issues(revision, prediction.issues)
            failure = prediction.error
        self.busyChanged.emit(False)
        if failure:
            self.error = failure
            self.failed.emit(failure)
        else:
            self.live = LiveResult(generation, prediction.current, prediction.baseline, prediction.scenario,
                                   prediction.baseline_scenario, requested_at, prediction.engine_s,
                                   prediction.issues, transfer_s, prediction.marks)
            self.error = None
            self.resultReady.emit(self.live)
        if (self.auto_start_process and self.simulate is default_simulate and not self.process.usable
                and not self.process.failed):
            QTimer.singleShot(PROCESS_START_DELAY_MS, self._start_process)

    def _start_process(self) -> None:
        """Start the worker process and prime it with the project on screen: it validates and
        simulates it once, its reply ignored. A new process otherwise met the user's first edits
        cold: the whole project to copy, the layout to check and the engine's static arrays to
        build, its result cache empty and the interpreter's code paths not yet specialised (the
        first 3-4 edits of the large plan 62 ms of engine instead of 48). Primed, the first edit
        is as fast as the later ones, and undoing it back to the opened project is a cache hit.
        A request for an edit meanwhile stops the priming run (the worker polls its pipe)."""
        doc = self._document
        if not self.process.start() or doc is None or self._in_flight is not None:
            return
        self.process.submit("prime", doc.project, doc.catalog, self._changes.take(self.process), ())

    def wait(self, timeout_ms: int = 30000) -> bool:
        """Block until no run is in flight and its result has been delivered (tests and
        benchmarks only)."""
        return wait_until(lambda: not self.busy, timeout_ms)


class TimeCursor(QObject):
    """The shared cursor time in hours, with play/pause."""

    moved = Signal(float)
    playingChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._t = 0.0
        self.horizon_h = 0.0
        self.play_seconds = 10.0  # one pass through the plan takes this long
        self._timer = QTimer(self)
        self._timer.setInterval(50)
        self._timer.timeout.connect(self._tick)

    @property
    def time_h(self) -> float:
        return self._t

    def set_time(self, t: float) -> None:
        asked = float(t)
        t = max(0.0, asked)
        if self.horizon_h > 0:
            t = min(t, self.horizon_h)
        # a clamped request is sent back even when the time stays: the view that asked (a cursor
        # line dragged past the plan's end) snaps back to it instead of showing another time
        if t != self._t or t != asked:
            self._t = t
            self.moved.emit(t)

    def set_horizon(self, horizon_h: float) -> None:
        self.horizon_h = max(0.0, float(horizon_h or 0.0))
        if self.horizon_h and self._t > self.horizon_h:
            self.set_time(self.horizon_h)

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def play(self) -> None:
        if self.horizon_h <= 0 or self.playing:
            return
        if self._t >= self.horizon_h:
            self.set_time(0.0)
        self._timer.start()
        self.playingChanged.emit(True)

    def pause(self) -> None:
        if self.playing:
            self._timer.stop()
            self.playingChanged.emit(False)

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def _tick(self) -> None:
        step = self.horizon_h * self._timer.interval() / 1000.0 / max(self.play_seconds, 0.1)
        nxt = self._t + step
        if nxt >= self.horizon_h:
            self.set_time(self.horizon_h)
            self.pause()
        else:
            self.set_time(nxt)
