"""The engine worker process's main: validates and simulates off the GUI process, so the engine (pure
Python, holding the GIL while it runs) never stalls the GUI thread.

app/ui/engine_process.py starts `serve` with multiprocessing's spawn method and one duplex pipe.
The process keeps a replica of the GUI's project: each request carries the Project containers
edited since the previous one (all of them after open/new, a restart, or another project).

Messages (pickled tuples), GUI -> worker:
    ("run", ticket, kind, full, parts, catalog, args)  bring the replica up to date (`parts` from
        app.service.engine_worker.replica.project_parts; `full`: start a new replica; `catalog`: None when it
        did not change), then run job `kind` ("live", "prime": the live job with no payload
        back, or "advise") and reply
    ("stop",)   the GUI wants something newer: the live job's engine run ends within a few steps
        (it polls the pipe), a job of several engine runs (advise) at the next one
    ("quit",)
worker -> GUI:
    ("ready", pid, engine)                  once imported; engine: app.engine.ENGINE_BUILD, which
        engine this process runs ("mypyc" or "python (<why>)")
    ("reply", ticket, ok, marks)  then the payload (a Prediction or an Advice; a failure
        message when not ok) as app.service.engine_worker.wire sends it. marks: time.perf_counter() (the same
        clock in both processes on Linux) when the request was read ("read"), the replica
        updated ("applied") and the job ended ("done": the transfer is timed from it).

The process ends when the GUI closes the pipe or sends "quit", and when the GUI process dies
(a thread waits on multiprocessing's parent sentinel), even in the middle of a run.
"""
from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time

import app.domain.validation  # noqa: F401 - imported before "ready", not at the first request
import app.engine.simulate  # noqa: F401
from app.engine import ENGINE_BUILD
from app.engine.state import LayoutCache

from app.service.advice import evaluate_priorities
from app.service.predict import default_simulate, failure_message, predict

from . import wire
from .heap import collect_due, keep_freed_memory
from .replica import apply_parts
from .result_cache import ResultCache


class _Server:
    def __init__(self, conn) -> None:
        self.conn = conn
        self.project = None
        self.catalog = None
        # the replica's containers are replaced, never modified: its layout's validation issues
        # hold until a layout container or the catalog comes again
        self.layout_cache: dict = {}
        self.results = ResultCache()  # the live job's recent engine results (undo/redo, baseline)
        self.layouts = LayoutCache()  # the engine's static arrays of the replica's hardware

    def loop(self) -> None:
        while True:
            msg = self.conn.recv()
            read = time.perf_counter()
            if msg[0] == "quit":
                return
            if msg[0] == "run":
                self.run(*msg[1:], read=read)
            # a "stop" read here came after its job had ended: nothing to stop

    def run(self, ticket: int, kind: str, full: bool, parts: dict, catalog, args: tuple, read: float) -> None:
        if catalog is not None:
            self.catalog = catalog
            self.results.clear()
        self.project = apply_parts(None if full else self.project, parts)
        applied = time.perf_counter()
        try:
            ok, payload = True, getattr(self, f"job_{kind}")(*args)
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the GUI as a message
            ok, payload = False, failure_message(exc)
        # the engine runs with the collector paused (app.engine.simulate): collecting its tens of
        # thousands of new objects waits until the reply has left, and then runs at once while
        # the GUI draws the reply, unless a request is waiting. Left to the collector, it came at
        # the next request's first allocations, on that edit's time (a young generation ~0.1 ms,
        # an older one ~2 ms every ~5 edits, all of them ~14 ms every ~40 on the large plan).
        paused = gc.isenabled()
        gc.disable()
        try:
            marks = {"read": read, "applied": applied, "done": time.perf_counter()}
            self.conn.send(("reply", ticket, ok, marks))
            wire.send(self.conn, payload)
        finally:
            if paused:
                gc.enable()
                if not self.conn.poll():
                    collect_due()

    def job_live(self):
        # a message waiting (the GUI's "stop": the user edited again) ends the run early; the
        # GUI drops its answer as stale and sends the newest project
        return predict(self.project, self.catalog, layout_cache=self.layout_cache, results=self.results,
                       should_stop=self.conn.poll, layouts=self.layouts)

    def job_prime(self):
        """The live job for the project the GUI shows, once, when the process starts: the replica,
        the layout's validation, the LayoutCache, the result cache and the interpreter are warm
        for the first edit. Nothing to send back (the GUI has this prediction already)."""
        self.job_live()

    def job_advise(self, event_id: str, target_ms: float | None, scenario: str | None):
        # any message waiting (a stop, a newer request) makes the answer stale
        return evaluate_priorities(self.project, self.catalog, event_id, default_simulate, target_ms,
                                   scenario, should_stop=self.conn.poll)


def _exit_with_parent() -> None:
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def serve(conn) -> None:
    """The worker process's main (the multiprocessing target)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in a terminal is for the GUI, which stops us
    keep_freed_memory()  # a run reuses the pages earlier runs freed (app/service/engine_worker/heap.py)
    wire.widen_socket_buffers(conn)  # a reply's megabytes in a few writes (app/service/engine_worker/wire.py)
    _exit_with_parent()
    conn.send(("ready", os.getpid(), ENGINE_BUILD))
    try:
        _Server(conn).loop()
    except (EOFError, OSError):  # the GUI closed the pipe or is gone
        pass
