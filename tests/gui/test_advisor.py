"""Priority advisor: one engine run per priority, the fastest priority within the target, applied as
an undoable edit."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

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
