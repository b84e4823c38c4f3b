"""Live predictions: every edit re-runs the engine off the GUI thread, stale results are dropped,
the GUI keeps responding; the shared cursor plays through the plan."""
from __future__ import annotations

import os
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QTimer  # noqa: E402

from app.domain import edits  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.live import BackgroundRunner, LiveSimulator, TimeCursor  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui


@pytest.fixture
def doc():
    cat = catalog()
    return Document(small_project(cat), cat)


def test_first_result_arrives_from_a_worker_thread(qtbot, doc):
    engine = FakeEngine()
    live = LiveSimulator(doc, simulate=engine)
    with qtbot.waitSignal(live.resultReady, timeout=5000) as sig:
        pass
    got = sig.args[0]
    assert got.generation == live.generation == 1
    assert got.current.operation("op1").priority == "ASAP"
    assert threading.get_ident() not in engine.threads  # never on the GUI thread


def test_edit_reruns_and_result_matches_the_edit(qtbot, doc):
    live = LiveSimulator(doc, simulate=FakeEngine())
    qtbot.waitSignal(live.resultReady, timeout=5000).wait()
    with qtbot.waitSignal(live.resultReady, timeout=5000) as sig:
        doc.apply(edits.SetEventPriority("op1", "Low"))
    assert sig.args[0].current.operation("op1").priority == "Low"
    with qtbot.waitSignal(live.resultReady, timeout=5000) as sig:
        doc.undo_stack.undo()
    assert sig.args[0].current.operation("op1").priority == "ASAP"


def test_burst_of_edits_drops_stale_results_and_gui_stays_responsive(qtbot, doc):
    engine = FakeEngine(delay_s=0.15)
    live = LiveSimulator(doc, simulate=engine)
    received = []
    live.resultReady.connect(received.append)
    qtbot.waitUntil(lambda: len(received) == 1, timeout=5000)
    received.clear()
    ticks = []
    beat = QTimer()
    beat.setInterval(10)
    beat.timeout.connect(lambda: ticks.append(1))
    beat.start()
    calls_before = engine.calls
    for t in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0):
        doc.apply(edits.MoveEvent("op1", t))
        qtbot.wait(20)
    qtbot.waitUntil(lambda: not live.busy, timeout=10000)
    beat.stop()
    # only the newest generation reached the GUI, and it reflects the last edit
    assert len(received) == 1
    assert received[0].generation == live.generation
    assert received[0].current.operation("op1").start_h == 6.0
    # six edits did not mean six engine runs: at most the one in flight plus the newest
    assert engine.calls - calls_before <= 3
    # the event loop kept running while the engine worked (heartbeat every 10 ms)
    assert len(ticks) >= 10


def test_engine_error_is_reported_not_raised(qtbot, doc):
    def broken(project, catalog, scenario_name=None):
        raise ValueError("LUN 99 does not exist")

    live = LiveSimulator(doc, simulate=broken)
    with qtbot.waitSignal(live.failed, timeout=5000) as sig:
        pass
    assert "LUN 99" in sig.args[0] and live.error


def test_baseline_simulated_alongside(qtbot, doc):
    engine = FakeEngine()
    live = LiveSimulator(doc, simulate=engine)
    qtbot.waitSignal(live.resultReady, timeout=5000).wait()
    with qtbot.waitSignal(live.resultReady, timeout=5000):
        doc.apply(edits.DuplicateScenario(doc.project, "Baseline", "Low"))
    with qtbot.waitSignal(live.resultReady, timeout=5000):
        doc.apply(edits.SetEventPriority("op1", "Low"))
    with qtbot.waitSignal(live.resultReady, timeout=5000) as sig:
        doc.apply(edits.SetBaselineScenario("Baseline"))
    got = sig.args[0]
    assert got.scenario == "Low" and got.baseline_scenario == "Baseline"
    assert got.current.operation("op1").priority == "Low"
    assert got.baseline.operation("op1").priority == "ASAP"


def test_info_edit_does_not_resimulate(qtbot, doc):
    engine = FakeEngine()
    live = LiveSimulator(doc, simulate=engine)
    qtbot.waitSignal(live.resultReady, timeout=5000).wait()
    gen = live.generation
    doc.apply(edits.SetProjectInfo(title="Renamed"))
    assert live.generation == gen and not live.busy


def test_cursor_play_runs_to_the_horizon(qtbot):
    cur = TimeCursor()
    cur.play_seconds = 0.3
    cur.set_horizon(10.0)
    seen = []
    cur.moved.connect(seen.append)
    cur.play()
    assert cur.playing
    qtbot.waitUntil(lambda: not cur.playing, timeout=5000)
    assert cur.time_h == 10.0 and len(seen) >= 3 and seen == sorted(seen)
    cur.set_time(50.0)
    assert cur.time_h == 10.0  # clamped to the plan


def test_background_runner_calls_back_on_gui_thread(qtbot):
    runner = BackgroundRunner()
    where = []
    runner.submit(lambda: threading.get_ident(), lambda worker: where.extend([worker, threading.get_ident()]))
    qtbot.waitUntil(lambda: len(where) == 2, timeout=5000)
    assert where[0] != where[1] == threading.get_ident()
    # a cancelled ticket never calls back
    runner.submit(lambda: 1, lambda _r: where.append("late"))
    runner.cancel()
    runner.wait()
    qtbot.wait(50)
    assert "late" not in where


def test_switch_interval_short_only_while_the_engine_runs(qtbot, doc):
    import sys

    before = sys.getswitchinterval()
    seen = []

    def engine(project, catalog, scenario_name=None):
        seen.append(sys.getswitchinterval())
        return FakeEngine()(project, catalog, scenario_name)

    live = LiveSimulator(doc, simulate=engine)
    qtbot.waitSignal(live.resultReady, timeout=5000).wait()
    assert seen and seen[0] <= 0.0005
    assert sys.getswitchinterval() == before
