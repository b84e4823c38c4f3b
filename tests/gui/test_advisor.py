"""Priority advisor: one engine run per priority, the fastest priority within the target, applied as
an undoable edit."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from app.engine.result import Series  # noqa: E402
from app.ui.advisor import AdvisorPanel, evaluate_priorities  # noqa: E402
from app.ui.document import Document  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui


def test_evaluate_priorities_with_fake_engine():
    cat = catalog()
    proj = small_project(cat)
    engine = FakeEngine()
    advice = evaluate_priorities(proj, cat, "op1", engine, target_ms=20.0)
    assert engine.calls == 4
    assert [o.priority for o in advice.outcomes] == ["Low", "Medium", "High", "ASAP"]
    peaks = {o.priority: o.worst_ms for o in advice.outcomes}
    assert peaks == {"Low": 12.5, "Medium": 13.5, "High": 16.0, "ASAP": 58.0}
    # ASAP is fastest but breaks 20 ms; High is the fastest that keeps it
    assert advice.recommended.priority == "High"
    assert advice.with_target(60.0).recommended.priority == "ASAP"
    assert advice.with_target(10.0).recommended is None
    assert "No priority" in advice.with_target(10.0).summary()
    # the project itself was not touched
    assert proj.scenario().event("op1").priority == "ASAP"


def test_panel_recommends_and_applies_undoably(qtbot):
    cat = catalog()
    doc = Document(small_project(cat), cat)
    panel = AdvisorPanel(doc, simulate=FakeEngine())
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(panel.adviceReady, timeout=10000) as sig:
        panel.set_event("op1")
    advice = sig.args[0]
    assert panel.target_box.value() == 20.0  # the workload's own response-time target
    assert advice.recommended.priority == "High"
    assert panel.table.rowCount() == 4
    assert panel.table.item(2, 0).font().bold() and panel.table.item(2, 3).text() == "keeps"
    assert panel.table.item(3, 3).text() == "exceeds"
    assert panel.apply_button.isEnabled()
    assert panel.apply_recommendation()
    assert doc.project.scenario().event("op1").priority == "High"
    doc.undo_stack.undo()
    assert doc.project.scenario().event("op1").priority == "ASAP"
    # a looser target changes the recommendation without re-running the engine
    panel.target_box.setValue(100.0)
    assert panel.advice.recommended.priority == "ASAP"


def test_panel_ignores_non_operations(qtbot):
    cat = catalog()
    doc = Document(small_project(cat), cat)
    panel = AdvisorPanel(doc, simulate=FakeEngine())
    qtbot.addWidget(panel)
    panel.set_event("nope")
    assert panel.event_id is None and not panel.evaluate_button.isEnabled()


def test_advisor_on_the_emc_oltp_example(qtbot):
    """The paper's dependent-LUN migration under OLTP: ASAP is fastest but breaks the OLTP
    workload's 20 ms target; the advisor recommends the fastest economical priority that keeps
    it, and its figures are the engine's for that priority."""
    from app.engine.simulate import simulate
    from app.store.examples import example_path
    from app.store.presets import default_catalog
    from app.store.project_file import load_project

    cat = default_catalog()
    project = load_project(example_path("emc-cx4-960-oltp"))
    project.current_scenario = "Dependent ASAP migration"
    doc = Document(project, cat)
    panel = AdvisorPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(panel.adviceReady, timeout=120000) as sig:
        panel.set_event("op1")
    advice = sig.args[0]
    assert advice.target_ms == 20.0  # the OLTP workload's own target
    by = {o.priority: o for o in advice.outcomes}
    assert list(by) == list(doc.platform.priorities("lun_migration"))
    assert all(o.error is None for o in advice.outcomes)
    # each row is the engine's prediction with only the priority changed
    for prio, o in by.items():
        trial = project.clone()
        trial.scenario().event("op1").priority = prio
        res = simulate(trial, cat, "Dependent ASAP migration")
        op = res.operation("op1")
        assert o.duration_h == pytest.approx(op.duration_h)
        assert o.peaks_ms["oltp"] == pytest.approx(res.get("response_ms", "oltp").peak(op.start_h, op.end_h))
    # the ASAP effect: the OLTP response time goes far over its target
    assert by["ASAP"].peaks_ms["oltp"] > 20.0 and not by["ASAP"].meets(20.0)
    rec = advice.recommended
    assert rec is not None and rec.priority != "ASAP" and rec.meets(20.0)
    faster = [o for o in advice.outcomes if o.duration_h is not None and o.duration_h < rec.duration_h]
    assert all(not o.meets(20.0) for o in faster)
    assert panel.apply_recommendation()
    assert doc.project.scenario().event("op1").priority == rec.priority
    doc.undo_stack.undo()
    assert doc.project.scenario().event("op1").priority == "ASAP"


def test_edits_during_an_evaluation_stop_it_and_the_newest_state_wins(qtbot):
    from app.domain import edits

    cat = catalog()
    doc = Document(small_project(cat), cat)
    engine = FakeEngine(delay_s=0.05)
    panel = AdvisorPanel(doc, simulate=engine)
    qtbot.addWidget(panel)
    panel.show()
    got = []
    panel.adviceReady.connect(got.append)
    panel.set_event("op1")
    for t in (3.0, 4.0, 5.0):  # edits while the first evaluation runs
        doc.apply(edits.MoveEvent("op1", t))
    qtbot.waitUntil(lambda: bool(got) and not panel._in_flight and not panel._timer.isActive(), timeout=20000)
    qtbot.wait(100)
    assert not panel._in_flight
    # a stopped run does not finish its four engine runs, and only current answers are shown
    assert engine.calls < 4 * 4
    assert got[-1] is panel.advice and panel.advice.current_priority == "ASAP"
    assert len(got) <= 2


class NoIoEngine(FakeEngine):
    """FakeEngine with response times undefined (NaN) where no I/O completes: OLTP stops for the
    first half of op1, and a touched workload 'idle' never completes I/O."""

    def __call__(self, project, catalog, scenario_name=None):
        r = super().__call__(project, catalog, scenario_name)
        op = r.operation("op1")
        mid = (op.start_h + op.end_h) / 2
        s = r.get("response_ms", "w1")
        busy = s.at(mid)
        r.series[("response_ms", "w1")] = Series("response_ms", "w1", "ms", np.array([0.0, op.start_h, mid, op.end_h]),
                                                 np.array([s.at(0.0), np.nan, busy, s.at(op.end_h)]))
        r.series[("response_ms", "idle")] = Series("response_ms", "idle", "ms", np.array([0.0]), np.array([np.nan]))
        op.touches_workloads.append("idle")
        return r


def test_advisor_ignores_steps_without_io(qtbot):
    cat = catalog()
    proj = small_project(cat)
    advice = evaluate_priorities(proj, cat, "op1", NoIoEngine(), target_ms=20.0)
    # the peaks are those of the steps with I/O; 'idle' has none to limit
    peaks = {o.priority: o.worst_ms for o in advice.outcomes}
    assert peaks == {"Low": 12.5, "Medium": 13.5, "High": 16.0, "ASAP": 58.0}
    assert all(o.no_io == ["idle"] and "idle" not in o.peaks_ms for o in advice.outcomes)
    assert advice.recommended.priority == "High"
    assert "nan" not in advice.summary().lower()
    doc = Document(small_project(cat), cat)
    panel = AdvisorPanel(doc, simulate=NoIoEngine())
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.adviceReady, timeout=10000):
        panel.set_event("op1")
    cells = [panel.table.item(r, c) for r in range(panel.table.rowCount()) for c in range(4)]
    assert not any("nan" in (i.text() + i.toolTip()).lower() for i in cells)
    assert "idle: no I/O" in panel.table.item(0, 2).toolTip()


def test_an_operation_without_a_priority_is_named_not_ignored(qtbot):
    from app.store.examples import example_path
    from app.store.project_file import load_project

    cat = catalog()
    doc = Document(load_project(example_path("dell-md3200-hpt")), cat)
    panel = AdvisorPanel(doc, simulate=FakeEngine())
    qtbot.addWidget(panel)
    enable = next(e for e in doc.project.scenario().events if e.kind == "feature_enable")
    panel.set_event(enable.id)
    assert panel.title.text().startswith(f"{enable.id}: Feature enable has no priority to choose")
    assert not panel.evaluate_button.isEnabled() and panel.table.rowCount() == 0
    panel.set_event(None)
    assert panel.title.text() == "Select an operation on the timeline."
