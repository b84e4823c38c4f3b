"""How a reply crosses the engine worker's pipe (app/service/engine_worker/main.py -> app/ui/engine_process.py):

    send(conn, payload)                 # in the worker
    payload, figures = receive(conn)    # in the GUI's reader thread

A Result is mostly numpy arrays (5.07 of the large plan's 5.25 MB). Pickled with protocol 5 and
a buffer_callback, the arrays stay out of the pickle stream (0.17 MB: operations, advisories,
entity names, the arrays' shapes); their memory goes through the pipe as it is and lands in
memory the unpickled arrays use (writable, like arrays unpickled in-band).

The payload goes in pieces: the containers two attributes down (a Prediction's issues, each
Result's operations, series, advisories...), then the payload itself, all through one Pickler,
so that the payload's references to the pieces are references to what was already sent. The
reader unpickles a piece while the worker pickles the next one, on the other core.

Each piece: a small message (the sizes of its pickle stream and buffers; with the last piece,
the seconds the worker spent pickling and when it finished), then the bytes. On POSIX they go
through the pipe's file descriptor (os.writev / os.readv: one copy into the kernel and one out,
into their final place; Connection.recv_bytes reads into a BytesIO and copies again). Elsewhere
(Windows' PipeConnection has no descriptor) each is one send_bytes / recv_bytes_into message.
"""
from __future__ import annotations

import collections
import copyreg
import dataclasses
import io
import os
import pickle
import socket
import time
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from app.engine.result import Advisory, Assumption, OperationResult, Phase

ALIGN = 16  # each array starts on a 16-byte boundary (numpy is slower on unaligned memory)
_RAW = hasattr(os, "readv")
_IOV_MAX = os.sysconf("SC_IOV_MAX") if _RAW else 0


def _reduce_float64(x: np.float64):
    # numpy pickles a scalar as scalar(dtype, bytes), with the dtype's own state: 2-5x slower to
    # dump and to load than this (the engine leaves a few hundred in the operations' phases)
    return np.float64, (float(x),)


def _by_fields(cls):
    """Pickle a dataclass instance as cls(*fields): no state dict is built and applied to each
    object (loading 200 operations, 350 phases and 280 advisories takes ~40% less)."""
    names = tuple(f.name for f in dataclasses.fields(cls))

    def reduce(obj):
        state = obj.__dict__
        # __init__ set the fields in their order: the values are the arguments (a quarter
        # faster than looking each up by name)
        if tuple(state) != names:  # an attribute beside the fields: the default way keeps it
            return obj.__reduce_ex__(5)
        return cls, tuple(state.values())

    return reduce


# the engine's many small objects; none has a __post_init__ that cls(*fields) would run again
_DISPATCH = {np.float64: _reduce_float64,
             **{cls: _by_fields(cls) for cls in (OperationResult, Phase, Advisory, Assumption)}}


def _pieces(obj, depth: int = 2):
    """The lists and dicts among obj's attributes and, `depth` levels down, theirs."""
    for value in getattr(obj, "__dict__", {}).values():
        if isinstance(value, (list, dict)):
            yield value
        elif depth > 1:
            yield from _pieces(value, depth - 1)


def send(conn, payload) -> None:
    """Send `payload` to `receive`."""
    out = io.BytesIO()
    buffers: list[pickle.PickleBuffer] = []
    pickler = pickle.Pickler(out, protocol=5, buffer_callback=buffers.append)
    pickler.dispatch_table = {**copyreg.dispatch_table, **_DISPATCH}
    pickling = 0.0
    pieces = [*_pieces(payload), payload]
    for i, piece in enumerate(pieces, 1):
        t0 = time.perf_counter()
        pickler.dump(piece)
        stream = out.getvalue()
        out.seek(0)
        out.truncate()
        views = [memoryview(stream), *(b.raw() for b in buffers)]
        buffers.clear()
        pickling += time.perf_counter() - t0
        # the last piece says how long the pickling took and when it ended
        conn.send(([v.nbytes for v in views], (pickling, time.perf_counter()) if i == len(pieces) else None))
        _write(conn, views)


class UnreadableReply(ValueError):
    """The payload could not be unpickled (everything sent was read: the pipe is still in step)."""


def receive(conn) -> tuple[Any, dict[str, float]]:
    """What `send` sent, and figures: bytes (all), pickled_bytes (the pickle streams), pieces,
    dumps_s (the sender's pickling), loads_s (unpickling), and the time.perf_counter() when the
    sender had pickled the last piece (pickled_at) and when its bytes were read (received_at)."""
    stream = io.BytesIO()
    buffers: collections.deque = collections.deque()
    unpickler = pickle.Unpickler(stream, buffers=iter(buffers.popleft, None))
    payload = error = None
    figures = dict.fromkeys(("bytes", "pickled_bytes", "pieces", "loads_s"), 0)
    while True:
        sizes, last = conn.recv()
        views = _read(conn, sizes)
        received_at = time.perf_counter()
        figures["bytes"] += sum(sizes)
        figures["pickled_bytes"] += sizes[0]
        figures["pieces"] += 1
        if error is None:
            t0 = time.perf_counter()
            stream.seek(0)
            stream.truncate()
            stream.write(views[0])
            stream.seek(0)
            buffers.extend(views[1:])
            try:
                payload = unpickler.load()
            except Exception as exc:  # noqa: BLE001 - raised below, once the rest is read
                error = UnreadableReply(f"{type(exc).__name__}: {exc}")
                error.__cause__ = exc
            figures["loads_s"] += time.perf_counter() - t0
        if last is not None:
            break
    if error is not None:
        raise error
    dumps_s, pickled_at = last
    return payload, {**figures, "dumps_s": dumps_s, "pickled_at": pickled_at, "received_at": received_at}


# What a reply may queue in the socket before the writer waits for the reader: the large plan's
# reply is ~5 MB, and with Linux's default 208 KB (macOS: 8 KB) it crossed in ~25 round trips of
# the two processes waking each other. The kernel caps the request (Linux: net.core.wmem_max).
SOCKET_BUFFER = 8 << 20


def widen_socket_buffers(conn, size: int = SOCKET_BUFFER) -> int:
    """Ask for `size`-byte send and receive buffers on the connection's socket (a duplex
    multiprocessing.Pipe is a socket pair on POSIX); the send buffer granted, 0 where the
    connection is not a socket (Windows' named pipes). Best effort: a refusal changes nothing."""
    if not _RAW or not isinstance(conn, Connection):
        return 0
    try:
        sock = socket.socket(fileno=os.dup(conn.fileno()))
    except OSError:
        return 0
    with sock:
        for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
            try:
                sock.setsockopt(socket.SOL_SOCKET, option, size)
            except OSError:
                pass
        return sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)


def _write(conn, views: list[memoryview]) -> None:
    if _RAW and isinstance(conn, Connection):
        _move(os.writev, conn.fileno(), views)
    else:
        for v in views:
            conn.send_bytes(v)


def _read(conn, sizes: list[int]) -> list[memoryview]:
    """The stream and the buffers `_write` wrote, the buffers as views of one block of memory."""
    stream = memoryview(bytearray(sizes[0]))
    offsets, end = [], 0
    for n in sizes[1:]:
        offsets.append(end)
        end += -(-n // ALIGN) * ALIGN
    area = memoryview(np.empty(end, np.uint8))  # not zero-filled (bytearray(n) is): the pipe fills it
    views = [stream, *(area[at:at + n] for at, n in zip(offsets, sizes[1:]))]
    if _RAW and isinstance(conn, Connection):
        _move(os.readv, conn.fileno(), views)
    else:
        for v in views:
            conn.recv_bytes_into(v)
    return views


def _move(call, fd: int, views: list[memoryview]) -> None:
    """os.writev / os.readv until every view is written / filled (each call may move less)."""
    views = [v for v in views if v.nbytes]
    first = 0
    while first < len(views):
        n = call(fd, views[first:first + _IOV_MAX])
        if n == 0:
            raise EOFError("the pipe was closed")
        while n:
            if n >= views[first].nbytes:
                n -= views[first].nbytes
                first += 1
            else:
                views[first] = views[first][n:]
                n = 0
