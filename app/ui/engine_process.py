"""The Qt adapter of the engine worker processes (app/service/engine_worker/).

    proc = engine_process("live")       # one per name, living as long as the GUI process
    proc.start()                        # in the background; `usable` from now on
    ticket = proc.submit("live", project, catalog, changed_attrs, ())
    proc.replied.connect(...)           # (ticket, ok, payload, transfer_s) on the GUI thread

The engine is pure Python and holds the GIL while it runs: in a thread of the GUI process it
stalled the GUI thread for up to 110 ms on a 960-drive plan. In a process of its own it does not.
The process, its pipe and its reader/writer threads are app.service.engine_worker.client's
Channel, the requests its Requests (only the containers edited since the replica was last
brought up to date are pickled, on the GUI thread: that is the snapshot). This module adds what
needs Qt: replies handed from the reader thread to the GUI thread as queued signals, a start
timeout, the restart policy and the notices. A small request to an idle worker is written at
once; otherwise the writer thread sends it, so a busy worker never blocks the GUI.

Processes end with the GUI (app.aboutToQuit, atexit; the worker also exits when the GUI process
dies). One that dies is started again and its pending tickets are reported `lost` so their
owners send them again; one that cannot start (or keeps dying) is given up, and the owners run
the engine in a thread of the GUI process instead (`usable` is False). `WORKERS.notice` says
either in the status bar (through LiveSimulator.notice).
"""
from __future__ import annotations

import atexit
import gc
import time
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from app.service.engine_worker.client import DIRECT_WRITE_MAX, Channel, Requests

START_TIMEOUT_MS = 30000  # a worker that has not said "ready" by then is given up
RESTARTS = 3  # deaths within RESTART_WINDOW_S before a worker is given up
RESTART_WINDOW_S = 60.0


class _Workers(QObject):
    """Every worker process of the GUI, and what they have to tell the user."""

    notice = Signal(str)  # for the status bar: a worker was restarted, or is not used

    def __init__(self) -> None:
        super().__init__()
        self.processes: dict[str, EngineProcess] = {}
        self.cannot_start = False  # one could not be started: no other is tried (said once)
        self.quit_hooked = False  # shutdown_all is connected to the application's aboutToQuit
        self.heap_frozen = False  # see _freeze_heap


WORKERS = _Workers()


def engine_process(name: str) -> "EngineProcess":
    """The worker process for `name` ("live", "advisor"), not started until start()."""
    proc = WORKERS.processes.get(name)
    if proc is None:
        proc = WORKERS.processes[name] = EngineProcess(name)
    return proc


def _freeze_heap() -> None:
    """Once, when the first worker starts (the window and its first prediction are up): move the
    GUI's long-lived objects (modules, Qt wrappers, the window's plots) out of the collector's
    sight. Every reply makes thousands of objects, and the full collections they set off, often
    in the reader thread while it holds the GIL, scanned all of those: 54-121 ms each on the
    960-drive plan (~110,000 objects), 1-11 ms once frozen. Refcounting still frees them."""
    if not WORKERS.heap_frozen:
        WORKERS.heap_frozen = True
        gc.freeze()


def wait_until(condition: Callable[[], bool], timeout_ms: int) -> bool:
    """Process events until `condition()` holds (replies arrive through them); False on timeout.
    For tests and benchmarks, which wait for a prediction without an event loop of their own."""
    deadline = time.monotonic() + timeout_ms / 1000.0
    while not condition():
        if time.monotonic() > deadline:
            return False
        QCoreApplication.processEvents()
        time.sleep(0.002)
    return True


@atexit.register
def shutdown_all() -> None:
    for proc in WORKERS.processes.values():
        proc.shutdown()


class EngineProcess(QObject):
    """One engine worker process, started on demand; its replies come as signals."""

    replied = Signal(int, bool, object, float)  # ticket, ok, payload (or failure message), transfer_s
    lost = Signal(int)  # ticket: the process died before replying; send it again
    # from the reader thread to the GUI thread
    _got_ready = Signal(int, int)  # incarnation, pid
    _got_reply = Signal(int, int, bool, object, float)  # incarnation, ticket, ok, payload, transfer_s
    _got_eof = Signal(int)  # incarnation

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.failed = False  # given up: the owners use a worker thread
        self.start_s: float | None = None  # start() to "ready", seconds (the newest start)
        self.last_request_bytes = 0  # pickled size of the newest request (benchmarks)
        # time.perf_counter() when the newest request was pickled (pickled_at) and written to the
        # pipe (written_at): benchmarks trace an edit with these
        self.last_request: dict[str, float] = {}
        # the newest reply: wire.receive's figures, transfer_s, the worker's marks (read_at,
        # applied_at, done_at), when the reader had unpickled it (unpickled_at) and when the GUI
        # thread got it (delivered_at)
        self.last_reply: dict[str, float] = {}
        self._channel: Channel | None = None
        self._incarnations = 0
        self._deaths: list[float] = []
        self._requests = Requests()  # tickets, and what the process's replica has
        self._pending: set[int] = set()
        self._start_timer = QTimer(self)
        self._start_timer.setSingleShot(True)
        self._start_timer.setInterval(START_TIMEOUT_MS)
        self._start_timer.timeout.connect(self._start_timed_out)
        self._got_ready.connect(self._on_ready)
        self._got_reply.connect(self._on_reply)
        self._got_eof.connect(self._on_eof)

    # ---------------------------------------------------------------- state
    @property
    def usable(self) -> bool:
        """Started (maybe still importing: requests wait in the pipe) and not given up."""
        return self._channel is not None and not self.failed

    @property
    def ready(self) -> bool:
        return self.usable and self._channel.ready

    @property
    def engine_build(self) -> str | None:
        """Which engine the worker runs ("mypyc", "python (<why>)"), once it has said "ready"."""
        return self._channel.engine_build if self._channel is not None else None

    @property
    def pid(self) -> int | None:
        return self._channel.process.pid if self._channel is not None else None

    # ---------------------------------------------------------------- start and stop
    def start(self) -> bool:
        """Start the process unless it runs or was given up; True if it is usable."""
        if self._channel is None and not self.failed and not WORKERS.cannot_start:
            try:
                self._launch()
            except Exception as exc:  # noqa: BLE001 - no process: the GUI runs the engine itself
                self._give_up(f"could not be started ({type(exc).__name__}: {exc})", at_start=True)
        return self.usable

    def _launch(self) -> None:
        self._incarnations += 1
        self._channel = Channel.launch(self.name, self._incarnations, self._got_ready.emit,
                                       self._reader_got_reply, self._got_eof.emit)
        self._requests.forget_replica()
        self._start_timer.start()
        app = QCoreApplication.instance()
        if app is not None and not WORKERS.quit_hooked:
            WORKERS.quit_hooked = True
            app.aboutToQuit.connect(shutdown_all)
        _freeze_heap()

    def shutdown(self) -> None:
        """Stop the process (the GUI is quitting); it holds nothing worth waiting for."""
        ch, self._channel = self._channel, None
        if ch is None:
            return
        if self._start_timer.isActive():
            self._start_timer.stop()
        ch.close()
        self._pending.clear()

    # ---------------------------------------------------------------- requests
    def submit(self, kind: str, project, catalog, changed_attrs: set[str] | None, args: tuple) -> int:
        """Send job `kind` for `project` (bringing the replica up to date: `changed_attrs` are the
        containers edited since this process last got this project; None: all). The pickling
        is the snapshot: the project can be edited as soon as this returns."""
        ch = self._channel
        ticket, data = self._requests.run(kind, project, catalog, changed_attrs, args)
        self.last_request_bytes = len(data)
        self.last_request = {"pickled_at": time.perf_counter()}
        # a ready worker with no job is reading the pipe (or will be, once it has collected the
        # last job's garbage): the write does not wait for it
        if ch.ready and not self._pending and len(data) <= DIRECT_WRITE_MAX:
            self._write_now(ch, data, self.last_request)
        else:
            self._queue(ch, data, self.last_request)
        self._pending.add(ticket)
        return ticket

    def interrupt(self) -> None:
        """The running job is stale: the live job's engine run stops within a few steps, a job
        of several engine runs (the advisor's) at its next run."""
        if self._channel is not None and self._pending:
            self._queue(self._channel, Requests.stop(), {})

    @staticmethod
    def _queue(ch: Channel, data: bytes, marks: dict) -> None:
        ch.queue(data, marks)

    @classmethod
    def _write_now(cls, ch: Channel, data: bytes, marks: dict) -> None:
        """On the GUI thread, unless the writer thread has messages to write first."""
        if not ch.write_now(data, marks):
            cls._queue(ch, data, marks)

    # ---------------------------------------------------------------- from the reader thread
    def _reader_got_reply(self, incarnation: int, ticket: int, ok: bool, payload, transfer_s: float,
                          figures: dict) -> None:
        self.last_reply = figures
        self._got_reply.emit(incarnation, ticket, ok, payload, transfer_s)

    # ---------------------------------------------------------------- on the GUI thread
    def _current(self, incarnation: int) -> bool:
        return self._channel is not None and self._channel.incarnation == incarnation

    def _on_ready(self, incarnation: int, _pid: int) -> None:
        if self._current(incarnation):
            self._start_timer.stop()
            self._channel.ready = True
            self.start_s = time.perf_counter() - self._channel.started_at

    def _on_reply(self, incarnation: int, ticket: int, ok: bool, payload: object, transfer_s: float) -> None:
        if self._current(incarnation) and ticket in self._pending:
            self.last_reply["delivered_at"] = time.perf_counter()
            self._pending.discard(ticket)
            self.replied.emit(ticket, ok, payload, transfer_s)

    def _on_eof(self, incarnation: int) -> None:
        if not self._current(incarnation):
            return
        ch, self._channel = self._channel, None
        ch.process.join(1.0)
        code = ch.process.exitcode
        ch.close()
        now = time.monotonic()
        self._deaths = [t for t in self._deaths if now - t < RESTART_WINDOW_S] + [now]
        if not ch.ready:
            self._give_up(f"stopped while starting (exit code {code})", at_start=True)
        elif len(self._deaths) >= RESTARTS:
            self._give_up(f"stopped {len(self._deaths)} times in a minute (exit code {code})")
        else:
            self.start()
            if self.usable:
                WORKERS.notice.emit(f"The engine process stopped (exit code {code}) and was restarted")
        self._lose_pending()

    def _start_timed_out(self) -> None:
        ch, self._channel = self._channel, None
        if ch is not None:
            ch.close()
            self._give_up(f"did not start within {START_TIMEOUT_MS // 1000} s", at_start=True)
            self._lose_pending()

    def _lose_pending(self) -> None:
        lost, self._pending = sorted(self._pending), set()
        for ticket in lost:
            self.lost.emit(ticket)

    def _give_up(self, why: str, at_start: bool = False) -> None:
        """No more processes for this worker (at_start: for any worker, said once)."""
        self.failed = True
        if at_start:
            if WORKERS.cannot_start:
                return
            WORKERS.cannot_start = True
        WORKERS.notice.emit(f"The engine process {why}; predictions run in the GUI process")
