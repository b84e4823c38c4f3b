"""Live predictions: re-run the engine after every edit, off the GUI thread, newest result wins.

`LiveSimulator` watches a Document (anything with `project`, `catalog` and a `changed` signal).
Each change bumps a generation counter; the GUI thread takes a cheap snapshot of the project
(a deep copy, so the worker never reads an object the user is editing) and hands it to a
QRunnable on a private QThreadPool with one thread. At most one engine run is in flight: edits
that arrive meanwhile only mark the simulator dirty, and when the running job finishes its result
is dropped if its generation is stale and the newest snapshot is simulated instead.

`TimeCursor` is the shared cursor time (hours) of the timeline, the charts and the canvas
colouring, with a play control that moves it through the plan.

Nothing here computes a prediction: every number comes from `app.engine.simulate`.
"""
from __future__ import annotations

import atexit
import copy
import sys
import time
import traceback
from dataclasses import dataclass, is_dataclass
from enum import Enum
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from app.ui.document import follow_document

SimulateFn = Callable[..., Any]  # simulate(project, catalog, scenario_name=None) -> Result


# While the engine (pure Python) runs in the worker thread it holds the GIL, and the GUI thread
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


class ProjectInvalid(ValueError):
    """The project has validation errors, so the engine is not run."""


def default_simulate(project, catalog, scenario_name=None):
    """Validate, then run the engine (both in the worker thread)."""
    try:  # imported lazily: the GUI starts even while the engine is being built
        from app.engine import simulate
    except ImportError:
        from app.engine.simulate import simulate
    try:
        from app.domain.validation import validate
    except ImportError:
        validate = None
    if validate is not None:
        errors = [i for i in validate(project, catalog) if i.severity == "error"]
        if errors:
            first = "; ".join(f"{i.where}: {i.text}" if i.where else i.text for i in errors[:2])
            more = f" (and {len(errors) - 2} more)" if len(errors) > 2 else ""
            raise ProjectInvalid(f"no prediction while the project has errors: {first}{more}")
    return simulate(project, catalog, scenario_name=scenario_name)


_ATOMS = (str, int, float, bool, type(None))


def _copy_value(v: Any) -> Any:
    t = type(v)
    if t in _ATOMS or isinstance(v, Enum):
        return v
    if t is list:
        return [x if type(x) in _ATOMS else _copy_value(x) for x in v]
    if t is dict:
        return {k: (x if type(x) in _ATOMS else _copy_value(x)) for k, x in v.items()}
    if is_dataclass(v) and not isinstance(v, type):
        new = object.__new__(t)
        new.__dict__.update({k: (x if type(x) in _ATOMS else _copy_value(x)) for k, x in v.__dict__.items()})
        return new
    return copy.deepcopy(v)


# which Project attributes each kind of change (app.domain.ops.Change.aspects) can touch
_ASPECT_ATTRS = {
    "layout": ("enclosures", "drives"),
    "groups": ("groups",),
    "luns": ("luns",),
    "cache": ("cache",),
    "features": ("features",),
    "workloads": ("workloads",),
    "events": ("scenarios",),
    "scenarios": ("scenarios",),
    "info": ("info",),
}
_CONTAINERS = ("enclosures", "drives", "groups", "luns", "cache", "features", "workloads", "scenarios", "info")


def snapshot_project(project, previous=None, changed_attrs: set[str] | None = None):
    """A copy of the project the worker can read while the user edits the original.

    Every dataclass, list and dict of the copy is new (like Project.clone(), without deepcopy's
    bookkeeping). With `previous` (an earlier snapshot, never modified since) and
    `changed_attrs` (the attributes edited since), untouched parts are shared with `previous`:
    after an edit of one event only the scenarios are copied again, which keeps the GUI thread
    free on the 960-drive / 1,000-LUN configuration."""
    new = object.__new__(type(project))
    for k, v in project.__dict__.items():
        if k in _CONTAINERS and previous is not None and changed_attrs is not None and k not in changed_attrs:
            new.__dict__[k] = previous.__dict__[k]
        else:
            new.__dict__[k] = _copy_value(v)
    return new


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

    done = Signal(object)  # LiveResult
    failed = Signal(int, str)  # generation, message


class _EngineJob(QRunnable):
    def __init__(self, fn: Callable[[], LiveResult], generation: int, signals: _JobSignals):
        super().__init__()
        self.setAutoDelete(True)
        self._fn = fn
        self._generation = generation
        self._signals = signals

    def run(self) -> None:  # worker thread
        try:
            out = self._fn()
        except Exception as exc:  # the engine refused the project: show it, do not crash
            msg = f"{type(exc).__name__}: {exc}"
            if not isinstance(exc, (ValueError, KeyError)):
                msg += "\n" + traceback.format_exc(limit=4)
            self._signals.failed.emit(self._generation, msg)
        else:
            self._signals.done.emit(out)


class BackgroundRunner(QObject):
    """Run plain functions on a one-thread pool; callbacks are called on the GUI thread.

    Used by the priority advisor: `submit(fn, on_done, on_failed)` returns a ticket; `cancel()`
    makes every outstanding ticket stale so its callbacks are never called.
    """

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = worker_pool("advisor")
        self._ticket = 0
        self._callbacks: dict[int, tuple[Callable, Callable]] = {}
        self._signals = _JobSignals()
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)

    def submit(self, fn: Callable[[], Any], on_done: Callable[[Any], None],
               on_failed: Callable[[str], None] | None = None) -> int:
        self._ticket += 1
        ticket = self._ticket
        self._callbacks[ticket] = (on_done, on_failed or (lambda _m: None))

        def work() -> LiveResult:
            return LiveResult(ticket, fn(), None, "", None, 0.0, 0.0)

        _job_started()
        self.pool.start(_EngineJob(work, ticket, self._signals))
        return ticket

    def cancel(self) -> None:
        self._callbacks.clear()

    @property
    def busy(self) -> bool:
        return bool(self._callbacks)

    @Slot(object)
    def _on_done(self, live: LiveResult) -> None:
        _job_ended()
        cbs = self._callbacks.pop(live.generation, None)
        if cbs:
            cbs[0](live.current)

    @Slot(int, str)
    def _on_failed(self, ticket: int, message: str) -> None:
        _job_ended()
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

    def __init__(self, document=None, simulate: SimulateFn | None = None, parent: QObject | None = None,
                 debounce_ms: int = 0):
        super().__init__(parent)
        self.simulate = simulate or default_simulate
        self.pool = worker_pool("live")
        self.generation = 0
        self.live: LiveResult | None = None
        self.error: str | None = None
        self.enabled = True
        self._document = None
        self._in_flight: int | None = None  # generation of the running job
        self._dirty = False
        self._requested_at = 0.0
        self._signals = _JobSignals()
        self._signals.done.connect(self._on_done)
        self._signals.failed.connect(self._on_failed)
        self._last_snap = None  # the previous snapshot and the attributes edited since
        self._snap_of = None
        self._changed_attrs: set[str] | None = None
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(debounce_ms)
        self._debounce.timeout.connect(self._start)
        if document is not None:
            self.set_document(document)

    # ---------------------------------------------------------------- inputs
    def set_document(self, document) -> None:
        follow_document(self._document, document, self._on_changed)
        self._document = document
        self._last_snap = self._snap_of = self._changed_attrs = None
        self.request()

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

    @Slot(object)
    def _on_changed(self, change=None) -> None:
        self._note_change(change)
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
        if not was_busy:
            self.busyChanged.emit(True)
        if self._in_flight is None:
            if self._debounce.interval() > 0:
                self._debounce.start()
            else:
                # start now: the engine then runs while the GUI thread finishes handling the
                # edit and repaints, instead of after that
                self._start()

    # ---------------------------------------------------------------- worker
    def _snapshot(self) -> tuple[Any, Any]:
        doc = self._document
        if self._snap_of is not doc.project:  # a different project (open, new): copy it all
            self._last_snap, self._changed_attrs = None, None
        snap = snapshot_project(doc.project, self._last_snap, self._changed_attrs)
        self._last_snap, self._snap_of, self._changed_attrs = snap, doc.project, set()
        return snap, doc.catalog

    def _note_change(self, change) -> None:
        """Remember what the change touched, for the next (partial) snapshot."""
        aspects = getattr(change, "aspects", None)
        if change is None or aspects is None or getattr(change, "replaced", False) or self._changed_attrs is None:
            self._changed_attrs = None  # copy everything next time
            return
        for a in aspects:
            attrs = _ASPECT_ATTRS.get(a)
            if attrs is None:
                self._changed_attrs = None
                return
            self._changed_attrs.update(attrs)

    def _start(self) -> None:
        if self._in_flight is not None or not self._dirty or self._document is None:
            return
        self._dirty = False
        generation = self.generation
        requested_at = self._requested_at
        project, catalog = self._snapshot()
        simulate = self.simulate
        scenario = project.current_scenario
        base = project.baseline_scenario
        if base == scenario or not any(s.name == base for s in project.scenarios):
            base = None

        def work() -> LiveResult:
            t0 = time.perf_counter()
            cur = simulate(project, catalog, scenario_name=scenario)
            bres = simulate(project, catalog, scenario_name=base) if base else None
            return LiveResult(generation, cur, bres, scenario, base, requested_at, time.perf_counter() - t0)

        self._in_flight = generation
        _job_started()
        self.pool.start(_EngineJob(work, generation, self._signals))

    @Slot(object)
    def _on_done(self, live: LiveResult) -> None:
        self._in_flight = None
        _job_ended()
        if live.generation == self.generation:
            self.live = live
            self.error = None
            self.busyChanged.emit(False)
            self.resultReady.emit(live)
        else:  # stale: an edit arrived while it ran
            self._start()

    @Slot(int, str)
    def _on_failed(self, generation: int, message: str) -> None:
        self._in_flight = None
        _job_ended()
        if generation == self.generation:
            self.error = message
            self.busyChanged.emit(False)
            self.failed.emit(message)
        else:
            self._start()

    def wait(self, timeout_ms: int = 30000) -> bool:
        """Block until the worker is idle (tests and benchmarks only)."""
        return self.pool.waitForDone(timeout_ms)


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
        t = max(0.0, float(t))
        if self.horizon_h > 0:
            t = min(t, self.horizon_h)
        if t != self._t:
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
