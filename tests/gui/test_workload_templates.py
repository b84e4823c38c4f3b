"""Issue 23: workload templates (OLTP, DSS, mail, backup, VDI) from cited sources, offered when a
workload is added and by the inspector's "Apply template"; applying is undoable."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtWidgets import QPushButton  # noqa: E402

from app.store.presets import PresetError  # noqa: E402
from app.store.workload_templates import load_templates, parse_templates  # noqa: E402

try:
    from configurator_support import isolated, make_window, settle  # noqa: F401
except ImportError:
    from tests.gui.configurator_support import isolated, make_window, settle  # noqa: F401

pytestmark = pytest.mark.gui


def test_the_five_templates_cite_a_source_for_every_value():
    by_id = {t.id: t for t in load_templates()}
    assert set(by_id) == {"oltp", "dss", "mail", "backup", "vdi"}
    oltp = by_id["oltp"]
    assert (oltp.io_kb, oltp.read_pct, oltp.random_pct, oltp.read_hit_pct) == (8, 70, 100, None)
    assert by_id["backup"].random_pct == 0 and by_id["backup"].read_pct == 100
    for t in by_id.values():
        assert set(t.sources) >= {"io_kb", "read_pct", "random_pct", "read_hit_pct"}
        assert all(len(t.sources[k]) > 20 for k in t.sources), t.id


def test_a_template_without_a_source_or_out_of_range_is_refused():
    good = {"id": "x", "name": "X", "io_kb": 8, "read_pct": 70, "random_pct": 100, "read_hit_pct": "array",
            "sources": {k: "rule of thumb: a common figure" for k in ("io_kb", "read_pct", "random_pct", "read_hit_pct")}}
    assert parse_templates({"template": [good]}, "t.toml")[0].read_hit_pct is None
    no_source = dict(good, sources={"io_kb": "somewhere"})
    with pytest.raises(PresetError, match=r"t.toml: \[\[template\]\] #1 \(x\).*no source for read_pct"):
        parse_templates({"template": [no_source]}, "t.toml")
    with pytest.raises(PresetError, match="read_pct"):
        parse_templates({"template": [dict(good, read_pct=140)]}, "t.toml")


def _select_workload(w, qtbot, wid):
    w.selection.set([f"workload {wid}"])
    qtbot.waitUntil(lambda: getattr(w.inspector, "apply_template_button", None) is not None
                    and w.inspector.apply_template_button.isVisible(), timeout=3000)


def test_apply_template_sets_the_profile_in_one_undoable_edit(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    wl = doc.project.workloads[0]
    before = (wl.io_kb, wl.read_pct, wl.random_pct, wl.read_hit_pct, wl.iops, list(wl.luns))
    _select_workload(w, qtbot, wl.id)
    box = w.inspector.template_box
    box.setCurrentIndex(next(i for i in range(box.count()) if box.itemData(i).id == "backup"))
    assert "rule of thumb" in box.itemData(box.currentIndex(), Qt.ToolTipRole)  # sources in the tooltip
    qtbot.mouseClick(w.inspector.apply_template_button, Qt.LeftButton)
    wl = doc.project.workload(wl.id)
    assert (wl.io_kb, wl.read_pct, wl.random_pct, wl.read_hit_pct) == (256, 100, 0, 0)
    assert (wl.iops, wl.luns) == (before[4], before[5])  # the load and the LUNs stay
    doc.undo_stack.undo()
    wl = doc.project.workload(wl.id)
    assert (wl.io_kb, wl.read_pct, wl.random_pct, wl.read_hit_pct, wl.iops, list(wl.luns)) == before


def test_adding_a_workload_from_a_template(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    lun = doc.project.luns[0].id
    w.selection.set([f"LUN {lun}"])
    qtbot.waitUntil(lambda: getattr(w.inspector, "add_template_box", None) is not None
                    and w.inspector.add_template_box.isVisible(), timeout=3000)
    box = w.inspector.add_template_box
    assert box.itemData(0) is None  # no template: the editors' defaults
    box.setCurrentIndex(next(i for i in range(box.count()) if box.itemData(i) and box.itemData(i).id == "vdi"))
    n = len(doc.project.workloads)
    add = next(b for b in w.inspector.selection_page.findChildren(QPushButton) if b.objectName() == "add_workload")
    # the long template names do not widen the page past the dock (its buttons went out of view)
    page = w.inspector.selection_page
    w.inspector_dock.resize(380, w.inspector_dock.height())
    qtbot.waitUntil(lambda: add.mapTo(page.viewport(), add.rect().topRight()).x() <= page.viewport().width(),
                    timeout=2000)
    qtbot.mouseClick(add, Qt.LeftButton)
    assert len(doc.project.workloads) == n + 1
    new = doc.project.workloads[-1]
    assert (new.io_kb, new.read_pct, new.random_pct) == (4, 20, 100) and new.name.startswith("Virtual desktops")
    assert new.luns == [lun]
    doc.undo_stack.undo()
    assert len(doc.project.workloads) == n
