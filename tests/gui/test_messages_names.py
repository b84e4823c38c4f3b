"""Issue 23: the Messages dock names operations and workloads (no "op1" / "w1" where the user
reads): the Object column and the message texts; clicking still selects by the id."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.domain.validation import ERROR, Issue

try:
    from configurator_support import isolated, make_window, settle  # noqa: F401
except ImportError:
    from tests.gui.configurator_support import isolated, make_window, settle  # noqa: F401

pytestmark = pytest.mark.gui


def test_objects_and_texts_by_name(qtbot, isolated):
    from app.store.examples import example_path
    from app.store.project_file import load_project

    w = make_window(qtbot, load_project(example_path("emc-cx4-960-oltp")))
    doc = w.document
    doc.issue_sources = 1
    settle(qtbot)
    current = doc.project.current_scenario
    ev = doc.project.scenario().events[0]
    wl = doc.project.workloads[0]
    assert (ev.id, wl.id) == ("op1", "oltp")  # an id with digits, and a word
    doc.publish_issues(doc.revision, [
        Issue(ERROR, ev.id, f"{current}: {ev.id} (LUN migration): LUN 99 does not exist", current),
        Issue(ERROR, f"workload {wl.id}", f"workload {wl.id} runs on LUN 99, which does not exist; oltp load")])
    w.messages.set_extra("prediction", [SimpleNamespace(severity="warning", where="RG 0", text="RG 0 is busy",
                                                        code="x", source="engine")])
    settle(qtbot, 20)
    rows = {w.messages.cell(i, 1): (w.messages.cell(i, 2), w.messages.ref(i)) for i in range(w.messages.row_count())}
    assert set(rows) == {"Migrate LUN 18 -> LUN 19", f"workload {wl.name}", "RAID Group 0"}, rows
    text, ref = rows["Migrate LUN 18 -> LUN 19"]
    assert text == f"{current}: Migrate LUN 18 -> LUN 19 (LUN migration): LUN 99 does not exist" and ref == ev.id
    text, ref = rows[f"workload {wl.name}"]
    # the id after "workload" is its name; the same word elsewhere stays a word
    assert text == f"workload {wl.name} runs on LUN 99, which does not exist; oltp load"
    assert ref == f"workload {wl.id}"
    # a renamed workload is named anew
    from app.domain import edits
    doc.apply(edits.EditWorkload(wl.id, name="Orders"))
    settle(qtbot, 20)
    assert "workload Orders" in [w.messages.cell(i, 1) for i in range(w.messages.row_count())]
