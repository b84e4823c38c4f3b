"""app/service/engine_worker/wire.py, the engine worker's replies through a pipe: what arrives equals what was
sent, block by block, for every scenario of every example and the large generated plan, through
the raw descriptor (POSIX) and through Connection messages (Windows' way); an unreadable reply
leaves the pipe in step."""
from __future__ import annotations

import multiprocessing
import pickle
import sys
import threading
from types import SimpleNamespace

import numpy as np
import pytest

from app.engine.simulate import simulate
from app.service.engine_worker import wire
from app.service.predict import predict
from app.store.project_file import load_project

from conftest import EXAMPLE_PATHS, ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from engine import large_project  # noqa: E402


class Messages:
    """A Connection seen only through its message methods, as wire sees a Windows PipeConnection."""

    def __init__(self, conn) -> None:
        self.conn = conn
        self.send, self.recv = conn.send, conn.recv
        self.send_bytes, self.recv_bytes_into = conn.send_bytes, conn.recv_bytes_into


def through_pipe(payload, messages: bool = False):
    here, there = multiprocessing.Pipe(duplex=True)
    if messages:
        here, there = Messages(here), Messages(there)
    # a second thread sends: a reply is larger than the pipe's buffer
    sender = threading.Thread(target=wire.send, args=(there, payload))
    sender.start()
    try:
        return wire.receive(here)
    finally:
        sender.join()


def same_result(got, want) -> None:
    assert (got.scenario, got.horizon_h, got.event_count, got.platform_id, got.rates_id) == (
        want.scenario, want.horizon_h, want.event_count, want.platform_id, want.rates_id)
    assert got.operations == want.operations
    assert [type(p.mb) for o in got.operations for p in o.phases] == [
        type(p.mb) for o in want.operations for p in o.phases]
    assert got.advisories == want.advisories and got.assumptions == want.assumptions
    assert got.mttdl_h == want.mttdl_h
    assert got.labels == want.labels and want.labels.scenario == want.scenario  # its names
    assert len(got.series.blocks) == len(want.series.blocks)
    for a, b in zip(got.series.blocks, want.series.blocks):
        assert (a.metric, a.unit, a.entities) == (b.metric, b.unit, b.entities)
        assert (a.compute is None) == (b.compute is None), a.metric
        for x, y in ((a.t, b.t), (a.V, b.V)):
            assert x.dtype == y.dtype and x.shape == y.shape, a.metric
            assert np.array_equal(x, y, equal_nan=True), a.metric
            assert x.flags.writeable and x.flags.aligned, a.metric
    assert got.series.keys() == want.series.keys()


SCENARIOS = [pytest.param(path, scenario.name, id=f"{path.stem}/{scenario.name}")
             for path in EXAMPLE_PATHS for scenario in load_project(path).scenarios]


@pytest.mark.parametrize("path, scenario", SCENARIOS)
def test_every_example_scenario_arrives_as_it_was_sent(path, scenario, catalog):
    want = simulate(load_project(path), catalog, scenario)
    for messages in (False, True):
        got, figures = through_pipe(want, messages)
        same_result(got, want)
        assert figures["pieces"] >= 2 and figures["bytes"] > figures["pickled_bytes"]


def test_the_large_plan_arrives_as_it_was_sent(catalog):
    want = predict(large_project(), catalog)
    assert want.error is None, want.error
    got, figures = through_pipe(want)
    assert (got.scenario, got.baseline_scenario, got.issues, got.error, got.engine_s) == (
        want.scenario, want.baseline_scenario, want.issues, want.error, want.engine_s)
    same_result(got.current, want.current)
    # the arrays went beside the pickle, not in it
    assert figures["bytes"] > 4e6 and figures["pickled_bytes"] < 0.3e6
    assert figures["dumps_s"] > 0 and figures["loads_s"] > 0


def test_a_failure_message_and_attributes_beside_the_fields_arrive(catalog):
    assert through_pipe("ValueError: no prediction")[0] == "ValueError: no prediction"
    r = simulate(load_project(EXAMPLE_PATHS[0]), catalog)
    r.operations[0].note = "set outside the fields"
    assert through_pipe(r)[0].operations[0].note == "set outside the fields"


class Unreadable:
    def __reduce__(self):
        return pickle.loads, (b"not a pickle",)


def test_an_unreadable_reply_is_an_error_and_the_next_one_arrives():
    here, there = multiprocessing.Pipe(duplex=True)
    big = np.arange(300_000.0)  # more than the pipe holds

    def send_two():
        # pieces: the lists, then the namespace; the first one cannot be unpickled
        wire.send(there, SimpleNamespace(bad=[Unreadable()], big=[big]))
        wire.send(there, SimpleNamespace(big=[big]))

    sender = threading.Thread(target=send_two)
    sender.start()
    with pytest.raises(wire.UnreadableReply):
        wire.receive(here)
    assert np.array_equal(wire.receive(here)[0].big[0], big)
    sender.join()


@pytest.mark.skipif(sys.platform == "win32", reason="a Windows Pipe is a named pipe, not a socket")
def test_the_pipe_s_socket_buffers_are_widened_and_a_reply_still_arrives_whole(catalog):
    import os
    import socket

    here, there = multiprocessing.Pipe(duplex=True)
    with socket.socket(fileno=os.dup(there.fileno())) as sock:
        before = sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
    granted = wire.widen_socket_buffers(there)
    assert granted > before  # as much as the kernel allows (Linux doubles the request, up to its cap)
    assert wire.widen_socket_buffers(Messages(here)) == 0  # not a socket: left alone
    want = simulate(load_project(EXAMPLE_PATHS[0]), catalog)
    sender = threading.Thread(target=wire.send, args=(there, want))
    sender.start()
    try:
        got, _ = wire.receive(here)
    finally:
        sender.join()
    same_result(got, want)
