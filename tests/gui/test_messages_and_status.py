"""The Messages dock and the status bar count what the dock lists (prediction advisories too),
the advisories of a prediction that validation errors now stop are marked as from the last good
one, an issue of another scenario selects nothing, counts read in good English, and a typed LUN
capacity is neither cut nor silently changed."""
from __future__ import annotations

from types import SimpleNamespace

from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.domain.validation import ERROR, WARNING, Issue

pytestmark = pytest.mark.gui


def _advisory(text="the rebuild runs at ASAP"):
    return SimpleNamespace(severity="warning", where="op1", text=text, code="x", source="engine")


def _window(qtbot):
    w = make_window(qtbot)
    w.document.issue_sources = 1  # as with the live simulator: issues come only from publish_issues
    settle(qtbot)
    return w


def _rows(view):
    return [(view.cell(i, 2), view.cell(i, 3)) for i in range(view.row_count())]


def test_counts_include_the_prediction_advisories(qtbot, isolated):
    w = _window(qtbot)
    doc = w.document
    doc.publish_issues(doc.revision, [Issue(WARNING, "RG 0", "RG 0 is RAID 0")])
    w.messages.set_extra("prediction", [_advisory(), _advisory("the copy waits for the rebuild")])
    assert w.messages.counts()["warning"] == 3
    qtbot.waitUntil(lambda: "0 errors, 3 warnings" in w._status_label.text(), timeout=3000)
    assert w.messages_dock.windowTitle() == "Messages (0 errors, 3 warnings)"


def test_advisories_of_a_stopped_prediction_are_marked_and_not_counted(qtbot, isolated):
    w = _window(qtbot)
    doc = w.document
    current = doc.project.current_scenario
    doc.publish_issues(doc.revision, [])
    w.messages.set_extra("prediction", [_advisory()])
    assert ("the rebuild runs at ASAP", "prediction") in _rows(w.messages)
    # an error in the scenario on screen: there is no new prediction
    doc.publish_issues(doc.revision, [Issue(ERROR, "op3", f"{current}: op3 (bind): LUN 99 does not exist", current)])
    assert ("the rebuild runs at ASAP", "last good prediction") in _rows(w.messages)
    assert w.messages.counts() == {"error": 1, "warning": 0, "info": 0}
    # an error in another scenario does not stop the prediction: the advisories are current
    doc.publish_issues(doc.revision, [Issue(ERROR, "op3", "Other: op3 (bind): LUN 99 does not exist", "Other")])
    assert ("the rebuild runs at ASAP", "prediction") in _rows(w.messages)
    assert w.messages.counts()["warning"] == 1


def test_an_issue_of_another_scenario_selects_nothing(qtbot, isolated):
    w = _window(qtbot)
    doc = w.document
    current = doc.project.current_scenario
    doc.publish_issues(doc.revision, [
        Issue(ERROR, "op1", "Other: op1 (bind): LUN 99 does not exist", "Other"),
        Issue(ERROR, "op1", f"{current}: op1 (bind): LUN 98 does not exist", current)])
    refs = {w.messages.cell(i, 2): w.messages.ref(i) for i in range(w.messages.row_count())}
    assert refs == {"Other: op1 (bind): LUN 99 does not exist": "",
                    f"{current}: op1 (bind): LUN 98 does not exist": "op1"}


def test_status_bar_counts_are_singular_for_one(qtbot, isolated):
    from app.store.examples import example_path
    from app.store.project_file import load_project

    p = load_project(example_path("hp-sa6402-raid5"))
    assert (len(p.enclosures), len(p.groups), len(p.luns)) == (1, 1, 1)
    w = make_window(qtbot, p)
    text = w._status_label.text()
    # the Smart Array's word for a RAID group: an array
    assert "1 enclosure ·" in text and "1 array ·" in text and "1 LUN ·" in text, text


def test_a_typed_capacity_above_the_free_space_is_refused_with_a_message(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    messages = []
    w.inspector.message.connect(messages.append)
    w.selection.set(["RG 3"])  # 8+2 R6 of 1 TB SATA: 7,000 GB free
    settle(qtbot)
    cap = w.inspector.new_lun_form.editors["capacity_gb"]
    cap.setFocus()
    cap.selectAll()
    qtbot.keyClicks(cap, "99999")
    qtbot.keyClick(cap, Qt.Key_Return)
    assert cap.value() == 99999  # not cut at the maximum (was 9999.0 -> clamped)
    assert "above the maximum" in cap.toolTip()
    n = len(doc.project.luns)
    qtbot.mouseClick(w.inspector.create_lun_button, Qt.LeftButton)
    settle(qtbot)
    assert len(doc.project.luns) == n  # nothing created
    assert messages and "RAID Group 3 has 7,000.0 GB free" in messages[-1], messages  # named, not "RG 3"
    QApplication.processEvents()
