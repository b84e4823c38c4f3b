"""A whole number typed over an editor's maximum is kept and refused with a message, as the
decimal editors do; it used to be cut at the spin box's range (9000 -> 900) and saved."""
from __future__ import annotations

from PySide6.QtCore import Qt

from app.domain.validation import MAX_OUTSTANDING
from app.store.project_file import load_project
from app.ui.inspector import WORKLOAD_SPECS
from configurator_support import EXAMPLES, isolated, make_window, settle  # noqa: F401


def _type(qtbot, box, text: str) -> None:
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)
    qtbot.keyClick(box.lineEdit(), Qt.Key_Return)
    settle(qtbot)


def test_write_cache_typed_over_its_maximum_is_refused_not_cut(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "emc-cx4-960-oltp.json"))
    doc = w.document
    messages: list[str] = []
    w.inspector.message.connect(messages.append)
    w.inspector.setCurrentWidget(w.inspector.array_page)
    settle(qtbot)
    before = doc.project.cache.get("write_cache_mb")
    box = w.inspector.cache_form.editors["write_cache_mb"]
    assert doc.platform.cache_settings["write_cache_mb"].maximum == 4500
    _type(qtbot, box, "9000")
    assert doc.project.cache.get("write_cache_mb") == before  # nothing saved (was 900)
    assert messages and "Write cache 9000 MB is above the maximum 4500" in messages[-1], messages
    assert "write_cache_mb" not in messages[-1]  # the setting by its label, not its key
    # after the refusal the editor shows the project's value again, as the workload fields do
    # (qa4 new/test_wcache.py: "9000 MB" stayed after focus-out and reselecting)
    settle(qtbot, 20)
    box = w.inspector.cache_form.editors["write_cache_mb"]
    assert box.value() == before
    assert "above the maximum" not in box.toolTip()
    w.selection.set(["lun 0"])
    settle(qtbot, 20)
    w.selection.set([])
    settle(qtbot, 20)
    assert w.inspector.cache_form.editors["write_cache_mb"].value() == before


def test_outstanding_ios_take_the_domains_limits(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "emc-cx4-960-oltp.json"))
    doc = w.document
    messages: list[str] = []
    w.inspector.message.connect(messages.append)
    wid = doc.project.workloads[0].id
    w.selection.set([f"workload {wid}"])
    settle(qtbot, 50)
    _type(qtbot, w.inspector.workload_form.editors["outstanding"], "5000")
    assert doc.project.workload(wid).outstanding == 5000  # was cut to 500

    settle(qtbot, 50)
    box = w.inspector.workload_form.editors["outstanding"]
    _type(qtbot, box, str(MAX_OUTSTANDING + 1))
    assert doc.project.workload(wid).outstanding == 5000  # refused, and said so
    assert messages and messages[-1].startswith("Cannot edit workload") and "outstanding" in messages[-1], messages
    assert messages[-1].count(wid) == 1, messages  # named once (was "workload oltp: workload 'oltp': ...")
    spec = next(s for s in WORKLOAD_SPECS if s.key == "outstanding")
    assert (spec.minimum, spec.maximum) == (0, MAX_OUTSTANDING)  # validation's, not the editor's own
