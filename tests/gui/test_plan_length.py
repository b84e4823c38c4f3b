"""Issue 23: a rebuild that waits for a replacement drive names the cause, and the plan's length
has a control (Plan > Plan length..., undoable, saved)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtWidgets import QDialog  # noqa: E402

from app.domain import edits  # noqa: E402
from app.domain.project import DriveFailure  # noqa: E402

try:
    from test_live_support import catalog, small_project, timeline_window
except ImportError:
    from tests.gui.test_live_support import catalog, small_project, timeline_window

pytestmark = pytest.mark.gui


def _failure_without_replacement(spare: bool):
    cat = catalog()
    p = small_project(cat)
    if spare:
        edits.PlaceDrive("0_0_5", "fc-15k-73").do(p)
        p.drives["0_0_5"].hot_spare = True
    p.workloads[0].iops = 300
    p.scenario().events[:] = [DriveFailure("op2", 1.0, drive="0_0_1", priority="High")]
    return p, cat


@pytest.mark.parametrize("spare", [True, False])
def test_a_rebuild_waiting_for_a_replacement_names_the_missing_event(spare):
    from app.engine.simulate import simulate
    from app.service.advice import evaluate_priorities

    p, cat = _failure_without_replacement(spare)
    r = simulate(p, cat)
    texts = [a.text for a in r.advisories if a.where == "op2"]
    assert any("no drive replacement event" in t for t in texts)
    assert not any("% done when the plan ends" in t for t in texts)  # not "50% done": the cause
    advice = evaluate_priorities(p, cat, "op2", simulate)
    assert "replacement drive" in advice.summary() and "extend the plan" not in advice.summary()


def test_plan_length_is_set_from_the_plan_menu_undoable_and_saved(qtbot, monkeypatch, tmp_path):
    from app.store.project_file import load_project, save_project
    from app.ui.timeline.plan_length import PlanLengthDialog

    window, doc, parts = timeline_window(qtbot, small_project(catalog()))
    generation = parts.live.generation
    action = next(a for a in window.menu("Plan").actions() if a.text().replace("&", "") == "Plan length...")

    def typed(dialog):
        dialog.length.setText("abc")
        dialog.fixed.setChecked(True)
        dialog.accept()  # refused: it stays open and says why
        assert "not a length" in dialog.error.text() and dialog.result() != QDialog.Accepted
        dialog.length.setText("12:00")
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(PlanLengthDialog, "exec", typed)
    action.trigger()
    assert doc.project.horizon_h == pytest.approx(12.0)
    assert doc.undo_stack.undoText() == "Set the plan length to 12:00"
    assert parts.live.generation > generation  # predicted again with the new length
    path = tmp_path / "p.arrayplan"
    save_project(doc.project, path)
    assert load_project(path).horizon_h == pytest.approx(12.0)
    doc.undo_stack.undo()
    assert doc.project.horizon_h is None
