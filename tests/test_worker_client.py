"""app/service/engine_worker/client.py, the GUI's end of the worker without Qt: a Channel starts
the process, the reader thread hands each reply to a callback; Requests sends the replica the
whole project first and then only what was edited."""
from __future__ import annotations

import pickle
import threading

from app.engine.simulate import simulate
from app.service.engine_worker.client import Channel, Requests
from app.store.project_file import load_project

from conftest import EXAMPLE_PATHS


def test_requests_send_the_whole_project_then_the_edited_containers(catalog):
    project = load_project(EXAMPLE_PATHS[0])
    requests = Requests()
    t1, first = requests.run("live", project, catalog, {"workloads"}, ())
    t2, second = requests.run("live", project, catalog, {"workloads"}, ())
    _, _, _, full1, parts1, cat1, _ = pickle.loads(first)
    _, _, _, full2, parts2, cat2, _ = pickle.loads(second)
    assert (t1, t2) == (1, 2)
    assert full1 and "luns" in parts1 and cat1 is not None  # a replica it never had
    assert not full2 and "workloads" in parts2 and "luns" not in parts2 and cat2 is None
    requests.forget_replica()  # a new process
    assert pickle.loads(requests.run("live", project, catalog, set(), ())[1])[3]


def test_a_channel_runs_a_job_in_its_process_and_replies_through_the_callback(catalog):
    project = load_project(EXAMPLE_PATHS[0])
    got: dict = {}
    replied = threading.Event()

    def on_reply(incarnation, ticket, ok, payload, transfer_s, figures):
        got.update(incarnation=incarnation, ticket=ticket, ok=ok, payload=payload, figures=figures)
        replied.set()

    ready = threading.Event()
    ch = Channel.launch("test", 7, lambda _inc, _pid: ready.set(), on_reply, lambda _inc: None)
    try:
        assert ready.wait(60) and ch.engine_build
        ticket, data = Requests().run("live", project, catalog, None, ())
        marks: dict = {}
        assert ch.write_now(data, marks) and "written_at" in marks
        assert replied.wait(60)
    finally:
        ch.close()
    assert (got["incarnation"], got["ticket"], got["ok"]) == (7, ticket, True)
    want = simulate(project, catalog, project.current_scenario)
    assert got["payload"].current.operations == want.operations
    assert got["payload"].current.labels == want.labels
    assert got["figures"]["transfer_s"] > 0 and got["figures"]["bytes"] > 0
