"""The engine worker process: live predictions and the advisor's runs happen there, on a replica
of the project that follows every edit, and match the engine run in this process; a killed
worker is restarted; the worker never outlives the GUI."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from app.domain import edits  # noqa: E402
from app.domain.project import Bind  # noqa: E402
from app.domain.validation import validate  # noqa: E402
from app.service.advice import evaluate_priorities  # noqa: E402
from app.service.predict import default_simulate, predict, refusal  # noqa: E402
from app.service.engine_worker.replica import snapshot_project  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.engine_process import engine_process  # noqa: E402
from app.ui.live import LiveSimulator  # noqa: E402

try:
    from test_live_support import catalog, small_project
except ImportError:
    from tests.gui.test_live_support import catalog, small_project

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parents[2]


def same_result(got, want) -> None:
    """Every number of two Results agrees (the engine is deterministic; the tolerance only
    covers a different summation order)."""
    assert got.scenario == want.scenario and got.horizon_h == pytest.approx(want.horizon_h)
    assert [(o.event_id, o.priority, o.start_h, o.end_h, [(p.name, p.start_h, p.end_h) for p in o.phases])
            for o in got.operations] == [
        (o.event_id, o.priority, pytest.approx(o.start_h), pytest.approx(o.end_h),
         [(p.name, pytest.approx(p.start_h), pytest.approx(p.end_h)) for p in o.phases]) for o in want.operations]
    assert sorted(got.series.keys()) == sorted(want.series.keys())
    for key in want.series.keys():
        np.testing.assert_allclose(got.series[key].t, want.series[key].t, rtol=1e-9, err_msg=str(key))
        np.testing.assert_allclose(got.series[key].v, want.series[key].v, rtol=1e-9, atol=1e-12, err_msg=str(key))
    assert [a.text for a in got.advisories] == [a.text for a in want.advisories]


def same_as_here(live: LiveSimulator, doc: Document) -> None:
    """The newest live result is what the engine predicts here for the document as it is."""
    want = predict(snapshot_project(doc.project), doc.catalog)
    assert want.error is None, want.error
    assert live.live.scenario == want.scenario and live.live.baseline_scenario == want.baseline_scenario
    same_result(live.result, want.current)
    if want.baseline is None:
        assert live.baseline_result is None
    else:
        same_result(live.baseline_result, want.baseline)
    assert live.live.issues == want.issues


@pytest.fixture
def proc(qtbot):
    p = engine_process("live")
    assert p.start(), "the worker process could not be started"
    qtbot.waitUntil(lambda: p.ready, timeout=60000)
    return p


@pytest.fixture
def doc():
    cat = catalog()
    return Document(small_project(cat), cat)


def test_prediction_comes_from_the_worker_process_and_matches_the_engine(qtbot, proc, doc):
    live = LiveSimulator(doc)
    assert live.uses_process
    with qtbot.waitSignal(live.resultReady, timeout=30000):
        pass
    assert proc.pid != os.getpid()
    assert live.live.transfer_s > 0  # it crossed the pipe
    same_as_here(live, doc)


def test_a_request_to_an_idle_worker_is_written_at_once(qtbot, proc, doc, monkeypatch):
    queued = []
    to_writer = proc._queue
    monkeypatch.setattr(proc, "_queue",
                        lambda ch, data, marks: (queued.append(data), to_writer(ch, data, marks)))
    replies = []

    def on_reply(ticket, ok, _payload, _transfer_s):
        replies.append((ticket, ok))

    proc.replied.connect(on_reply)
    first = proc.submit("live", doc.project, doc.catalog, None, ())
    assert "written_at" in proc.last_request and not queued  # by the GUI thread: no wait for the writer's turn
    second = proc.submit("live", doc.project, doc.catalog, set(), ())
    assert len(queued) == 1  # the worker has a job: the writer thread sends it
    qtbot.waitUntil(lambda: len(replies) == 2, timeout=30000)
    proc.replied.disconnect(on_reply)
    assert replies == [(first, True), (second, True)]
    assert "written_at" in proc.last_request


def test_replica_follows_edits_undo_redo_and_another_project(qtbot, proc, doc):
    live = LiveSimulator(doc)
    qtbot.waitSignal(live.resultReady, timeout=30000).wait()
    full_bytes = proc.last_request_bytes
    drive = next(iter(doc.project.drives.values())).type_id
    steps = [
        lambda: doc.apply(edits.SetEventPriority("op1", "Low")),
        lambda: doc.apply(edits.EditWorkload("w1", iops=2500)),
        lambda: doc.apply(edits.PlaceDrive("0_0_7", drive)),
        lambda: doc.apply(edits.CreateLun(1, 10, "SP B")),
        lambda: doc.apply(edits.SetCacheSetting("page_kb", 16)),
        lambda: doc.apply(edits.DuplicateScenario(doc.project, "Baseline", "High")),
        lambda: doc.apply(edits.SetEventPriority("op1", "High")),
        lambda: doc.apply(edits.SetBaselineScenario("Baseline")),
        doc.undo_stack.undo, doc.undo_stack.undo, doc.undo_stack.undo, doc.undo_stack.undo,
        doc.undo_stack.redo, doc.undo_stack.redo,
        lambda: doc.apply(edits.MoveEvent("op1", 3.5)),
    ]
    sizes = []
    for step in steps:
        with qtbot.waitSignal(live.resultReady, timeout=30000):
            step()
        assert live.uses_process
        sizes.append(proc.last_request_bytes)
        same_as_here(live, doc)
    assert sizes[0] < full_bytes / 3  # an event edit sends the scenarios, not the project

    other = small_project(doc.catalog)
    other.scenarios[0].name = other.current_scenario = "Other"
    other.scenarios[0].events = [Bind("op7", 1.0, lun=3, priority="Low")]
    with qtbot.waitSignal(live.resultReady, timeout=30000):
        doc.replace_project(other)
    assert live.live.scenario == "Other"
    same_as_here(live, doc)


def test_burst_of_edits_gives_one_newest_result(qtbot, proc, doc):
    live = LiveSimulator(doc)
    qtbot.waitSignal(live.resultReady, timeout=30000).wait()
    received = []
    live.resultReady.connect(received.append)
    for t in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0):  # faster than a run: one in flight, the rest wait
        doc.apply(edits.MoveEvent("op1", t))
    qtbot.waitUntil(lambda: not live.busy, timeout=30000)
    assert len(received) == 1 and received[0].generation == live.generation
    assert received[0].current.operation("op1").start_h == 6.0
    same_as_here(live, doc)


def test_validation_errors_stop_the_prediction_and_reach_the_messages_dock(qtbot, proc, doc, monkeypatch):
    from app.ui.main_window import MainWindow

    window = MainWindow(doc, plugins=("app.ui.timeline",))
    window.files.maybe_save = lambda: True
    qtbot.addWidget(window)
    live = window.plugins["app.ui.timeline"].live
    qtbot.waitUntil(lambda: live.result is not None, timeout=30000)
    assert live.uses_process
    validated_here = []
    monkeypatch.setattr(Document, "issues", lambda self: validated_here.append(1) or [])

    def messages():
        view = window.messages
        return [view.cell(i, 2) for i in range(view.row_count())]

    with qtbot.waitSignal(live.failed, timeout=30000) as sig:
        doc.apply(edits.SetEventFields("op1", None, dest_lun=1))  # a LUN the workload uses
    expected = refusal(validate(doc.project, doc.catalog), [doc.project.current_scenario])
    assert sig.args[0] == expected  # a sentence for the status bar, no exception name
    text = "Baseline: op1 (LUN migration): destination LUN 1 is in use by workload 'w1'; a destination must be an unused LUN"
    assert text in expected
    # the dock (and the status bar) name the operation and the workload (issue 23: no "op1", "w1")
    text = ("Baseline: Migrate LUN 0 -> LUN 1 (LUN migration): destination LUN 1 is in use by workload 'OLTP'; "
            "a destination must be an unused LUN")
    qtbot.waitUntil(lambda: text in messages(), timeout=5000)
    assert text in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: "1 error," in window._status_label.text(), timeout=5000)
    with qtbot.waitSignal(live.resultReady, timeout=30000):
        doc.undo_stack.undo()
    qtbot.waitUntil(lambda: text not in messages(), timeout=5000)
    qtbot.waitUntil(lambda: "0 errors," in window._status_label.text(), timeout=5000)
    assert validated_here == []  # nothing validated on the GUI thread after the edits


def test_a_killed_worker_is_restarted_and_the_run_sent_again(qtbot, proc, doc):
    from app.ui.main_window import MainWindow

    window = MainWindow(doc, plugins=("app.ui.timeline",))
    window.files.maybe_save = lambda: True
    qtbot.addWidget(window)
    live = window.plugins["app.ui.timeline"].live
    qtbot.waitUntil(lambda: live.result is not None, timeout=30000)
    notices, shown = [], []
    live.notice.connect(notices.append)
    window.statusBar().messageChanged.connect(shown.append)
    old = proc.pid
    os.kill(old, signal.SIGKILL)
    with qtbot.waitSignal(live.resultReady, timeout=60000):
        doc.apply(edits.SetEventPriority("op1", "Medium"))  # sent to the dead process, then again
    assert live.result.operation("op1").priority == "Medium"
    assert proc.usable and proc.pid not in (None, old)
    assert any("restarted" in n for n in notices)
    assert any("restarted" in m for m in shown)  # in the status bar
    qtbot.waitUntil(lambda: proc.ready, timeout=60000)
    assert live.uses_process
    same_as_here(live, doc)


def test_a_worker_that_cannot_start_leaves_the_runs_in_this_process(qtbot, doc, monkeypatch):
    from app.ui import engine_process as ep

    def launch():
        raise OSError("no processes here")

    broken = ep.EngineProcess("live")
    monkeypatch.setattr(broken, "_launch", launch)
    monkeypatch.setitem(ep.WORKERS.processes, "live", broken)
    monkeypatch.setattr(ep.WORKERS, "cannot_start", False)
    monkeypatch.setattr("app.ui.live.PROCESS_START_DELAY_MS", 0)
    live = LiveSimulator(doc)
    notices = []
    live.notice.connect(notices.append)
    qtbot.waitSignal(live.resultReady, timeout=30000).wait()
    qtbot.waitUntil(lambda: broken.failed, timeout=5000)
    assert notices == ["The engine process could not be started (OSError: no processes here); "
                       "predictions run in the GUI process"]
    assert not live.uses_process
    assert not ep.EngineProcess("other").start()  # no other worker is tried
    for prio in ("Low", "High"):
        with qtbot.waitSignal(live.resultReady, timeout=30000):
            doc.apply(edits.SetEventPriority("op1", prio))
        same_as_here(live, doc)
    assert len(notices) == 1


def test_advisor_evaluates_in_its_own_worker_process(qtbot, doc):
    from app.ui.advisor import AdvisorPanel

    live = LiveSimulator(doc)
    panel = AdvisorPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(panel.adviceReady, timeout=60000) as sig:
        panel.set_event("op1")
    assert panel.process.usable and panel.process.pid not in (None, os.getpid(), live.process.pid)
    want = evaluate_priorities(snapshot_project(doc.project), doc.catalog, "op1", default_simulate,
                               panel.target_box.value())
    assert sig.args[0].outcomes == want.outcomes
    # an edit re-runs both; neither drops the other's answer
    got = []
    panel.adviceReady.connect(got.append)
    with qtbot.waitSignal(live.resultReady, timeout=60000):
        doc.apply(edits.EditWorkload("w1", iops=3000))
    qtbot.waitUntil(lambda: bool(got), timeout=60000)
    want = evaluate_priorities(snapshot_project(doc.project), doc.catalog, "op1", default_simulate,
                               panel.target_box.value())
    assert got[-1].outcomes == want.outcomes


# ---------------------------------------------------------------- the worker never outlives the GUI

GUI = textwrap.dedent("""
    import os, sys, time
    sys.path[:0] = [{root!r}, {benchmarks!r}]
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    def main():
        app = QApplication([])
        from engine import large_project
        from app.store.presets import default_catalog
        from app.ui.engine_process import engine_process, wait_until
        proc = engine_process("live")
        proc.start()
        wait_until(lambda: proc.ready, 60000)
        proc.submit("live", large_project(), default_catalog(), None, ())  # ~0.2-1 s of engine
        print("WORKER", proc.pid, flush=True)
        time.sleep(0.1)
        if sys.argv[1] == "quit":  # as closing the window does
            QTimer.singleShot(0, app.quit)
            sys.exit(app.exec())
        time.sleep(60)  # killed meanwhile

    if __name__ == "__main__":
        main()
""")


def _gone(pid: int, timeout_s: float = 10.0) -> bool:
    """The process has exited (a zombie waiting for its reaper counts as gone)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", ["quit", "kill"])
def test_the_worker_ends_with_the_gui_even_mid_run(tmp_path, how):
    script = tmp_path / "gui.py"
    script.write_text(GUI.format(root=str(ROOT), benchmarks=str(ROOT / "benchmarks")))
    gui = subprocess.Popen([sys.executable, str(script), how], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    try:
        line = gui.stdout.readline()
        assert line.startswith("WORKER"), gui.stderr.read()[-2000:]
        worker = int(line.split()[1])
        if how == "kill":
            gui.kill()
        out, err = gui.communicate(timeout=60)
    finally:
        if gui.poll() is None:
            gui.kill()
    if how == "quit":
        assert gui.returncode == 0 and "Traceback" not in err, err[-2000:]
    assert _gone(worker), "the worker process outlived the GUI"


def test_an_edit_during_a_run_stops_it_and_the_newest_project_is_predicted(qtbot, proc, doc, monkeypatch):
    live = LiveSimulator(doc)
    with qtbot.waitSignal(live.resultReady, timeout=30000):
        pass
    stops = []
    interrupt = live.process.interrupt
    monkeypatch.setattr(live.process, "interrupt", lambda: (stops.append(1), interrupt()))
    doc.apply(edits.MoveEvent("op1", 3.0))  # starts a run in the worker
    doc.apply(edits.MoveEvent("op1", 4.0))  # while it is in flight: "stop", then the newest
    doc.apply(edits.MoveEvent("op1", 5.0))  # one "stop" per run is enough
    qtbot.waitUntil(lambda: not live.busy, timeout=30000)
    assert stops == [1]
    assert live.error is None and live.result.operation("op1").start_h == 5.0
    same_as_here(live, doc)


def test_a_started_worker_is_primed_and_its_answer_ignored(qtbot, proc, doc):
    """LiveSimulator._start_process (run once a first prediction is shown) sends the project on
    screen to the worker as a "prime" job; its empty reply is no prediction, and the next edit's
    prediction from the primed worker is right."""
    live = LiveSimulator(doc)
    with qtbot.waitSignal(live.resultReady, timeout=30000):
        pass
    shown = live.live
    sent, replies = [], []
    submit = proc.submit
    proc.submit = lambda kind, *a: (sent.append(kind), submit(kind, *a))[1]
    proc.replied.connect(lambda ticket, ok, payload, _t: replies.append((ok, payload)))
    try:
        live._start_process()
        qtbot.waitUntil(lambda: bool(replies), timeout=30000)
    finally:
        del proc.submit
    assert sent == ["prime"] and replies == [(True, None)]
    assert live.live is shown and not live.busy  # not a prediction
    with qtbot.waitSignal(live.resultReady, timeout=30000):
        doc.apply(edits.MoveEvent(doc.project.scenario().events[0].id, 1.0))
    same_as_here(live, doc)
