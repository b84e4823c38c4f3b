"""The GUI process's end of one engine worker process, without Qt.

    ch = Channel.launch("live", incarnation, on_ready, on_reply, on_eof)   # process + threads
    ch.write_now(data, marks) / ch.queue(data, marks)                      # a request (bytes)
    ch.close()

`Requests` turns a job into those bytes, sending the replica only what changed. The callbacks
run in the reader thread; app/ui/engine_process.py (the Qt adapter) turns them into queued
signals for the GUI thread and owns the restart policy and the notices.

Python threads, not QThreads: a daemon thread blocked in a read may be left at exit, a QThread
destroyed while it runs aborts the process.
"""
from __future__ import annotations

import multiprocessing
import pickle
import queue
import threading
import time
from typing import Any, Callable

from app.service.predict import failure_message

from . import wire
from .replica import project_parts

# A request up to this size, for a worker with nothing to do, is written on the GUI thread: the
# pipe's buffer (a socket pair's is 200+ KB on Linux) takes it without blocking
DIRECT_WRITE_MAX = 64 * 1024

OnReady = Callable[[int, int], None]  # incarnation, pid
# incarnation, ticket, ok, payload (or failure message), transfer_s, figures (see EngineProcess.last_reply)
OnReply = Callable[[int, int, bool, Any, float, dict], None]
OnEof = Callable[[int], None]  # incarnation: the process is gone (not after close())


class Requests:
    """The requests to one worker process: tickets, and what its replica already has."""

    def __init__(self) -> None:
        self.ticket = 0
        self.replica_of: Any = None  # the GUI project the replica mirrors
        self.replica_catalog: Any = None

    def forget_replica(self) -> None:
        """A new process: its replica is empty."""
        self.replica_of = self.replica_catalog = None

    def run(self, kind: str, project, catalog, changed_attrs: set[str] | None, args: tuple) -> tuple[int, bytes]:
        """(ticket, the pickled "run" message) for job `kind` on `project` (app.service.
        engine_worker.main's protocol). `changed_attrs`: the containers edited since this
        process last got this project (None: all). The pickling is the snapshot."""
        full = changed_attrs is None or self.replica_of is not project
        parts = project_parts(project, None if full else changed_attrs)
        new_catalog = catalog if catalog is not self.replica_catalog else None
        self.ticket += 1
        data = pickle.dumps(("run", self.ticket, kind, full, parts, new_catalog, args),
                            protocol=pickle.HIGHEST_PROTOCOL)
        self.replica_of, self.replica_catalog = project, catalog
        return self.ticket, data

    @staticmethod
    def stop() -> bytes:
        return pickle.dumps(("stop",))


class Channel:
    """One worker process and its pipe, reader and writer threads (a restart makes a new one)."""

    def __init__(self, incarnation: int, process, conn) -> None:
        self.incarnation = incarnation
        self.process = process
        self.conn = conn
        self.outbox: queue.SimpleQueue = queue.SimpleQueue()
        self.queued = 0  # messages put in the outbox and not yet written (under `lock`)
        self.lock = threading.Lock()
        self.closing = False
        self.ready = False  # set by the owner on the GUI thread when it gets on_ready
        self.engine_build: str | None = None  # the worker's app.engine.ENGINE_BUILD, from "ready"
        self.started_at = time.perf_counter()
        self.reader: threading.Thread | None = None
        self.writer: threading.Thread | None = None

    @classmethod
    def launch(cls, name: str, incarnation: int, on_ready: OnReady, on_reply: OnReply, on_eof: OnEof) -> "Channel":
        """Start worker process `name` (spawn: the GUI has threads, fork is unsafe) and its threads."""
        from .main import serve

        ctx = multiprocessing.get_context("spawn")
        here, there = ctx.Pipe(duplex=True)
        wire.widen_socket_buffers(here)  # the worker widens its end too (wire.py)
        process = ctx.Process(target=serve, args=(there,), name=f"arrayplanner-engine-{name}", daemon=True)
        process.start()
        there.close()
        ch = cls(incarnation, process, here)
        ch.reader = threading.Thread(target=ch._read, args=(on_ready, on_reply, on_eof),
                                     name=f"engine-{name}-reader", daemon=True)
        ch.writer = threading.Thread(target=ch._write, name=f"engine-{name}-writer", daemon=True)
        ch.reader.start()
        ch.writer.start()
        return ch

    def close(self) -> None:
        """Stop the process and the threads; no on_eof follows."""
        self.closing = True
        self.outbox.put(None)
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(2.0)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(2.0)
        for t in (self.reader, self.writer):  # the reader ends at the pipe's end-of-file
            if t is not None and t is not threading.current_thread():
                t.join(2.0)
        self.conn.close()

    # ---------------------------------------------------------------- writing
    def queue(self, data: bytes, marks: dict) -> None:
        """Hand `data` to the writer thread; marks["written_at"] is set once it is written."""
        with self.lock:
            self.queued += 1
            self.outbox.put((data, marks))

    def write_now(self, data: bytes, marks: dict) -> bool:
        """Write on the calling thread unless the writer has messages to write first; False if
        it did not (the caller queues it). Handed to the writer, a request waited ~3 ms for the
        GIL while the GUI thread went on handling the edit."""
        with self.lock:
            if self.queued:
                return False
            try:
                self.conn.send_bytes(data)
                marks["written_at"] = time.perf_counter()
            except OSError:  # the process is gone: the reader reports it
                pass
            return True

    def _write(self) -> None:
        while (item := self.outbox.get()) is not None:
            data, marks = item
            try:
                self.conn.send_bytes(data)
            except OSError:  # the process is gone: the reader reports it
                return
            marks["written_at"] = time.perf_counter()
            with self.lock:
                self.queued -= 1

    # ---------------------------------------------------------------- reading
    def _read(self, on_ready: OnReady, on_reply: OnReply, on_eof: OnEof) -> None:
        try:
            while True:
                head = self.conn.recv()
                if head[0] == "ready":
                    self.engine_build = head[2]
                    on_ready(self.incarnation, head[1])
                    continue
                _, ticket, ok, marks = head
                try:
                    payload, figures = wire.receive(self.conn)
                except wire.UnreadableReply as exc:  # an answer the GUI cannot read is a failure
                    payload, ok, figures = failure_message(exc), False, {}
                unpickled_at = time.perf_counter()
                transfer_s = unpickled_at - marks["done"]
                figures = {**figures, **{f"{k}_at": t for k, t in marks.items()},
                           "unpickled_at": unpickled_at, "transfer_s": transfer_s}
                on_reply(self.incarnation, ticket, ok, payload, transfer_s, figures)
                del payload  # the GUI thread holds the last reference (Qt objects never go here)
        except (EOFError, OSError):
            pass
        if not self.closing:
            on_eof(self.incarnation)
