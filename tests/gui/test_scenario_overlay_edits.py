"""A scenario's own configuration beyond drives and features (issue 23: "RAID level or width, LUN
placement, cache settings, ... workloads scaled"): each edit made while the scenario is current
goes into its overlay, the inspector shows the scenario's value and the base's after a switch,
undo takes each back, and the comparison lists every difference."""
from __future__ import annotations

from configurator_support import isolated, make_window  # noqa: F401  (fixtures)

import pytest
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit

from app.domain import edits

pytestmark = pytest.mark.gui


def _inspector_texts(w) -> list[str]:
    out = []
    for cls, text in ((QComboBox, "currentText"), (QLabel, "text"), (QLineEdit, "text")):
        out += [getattr(x, text)() for x in w.inspector.findChildren(cls) if x.isVisibleTo(w.inspector)]
    return out


def test_raid_level_lun_owner_cache_and_workload_scale_go_into_the_scenario(qtbot, isolated, catalog):
    from app.engine import simulate
    from app.ui.scenarios import CompareTable, ScenarioBar

    w = make_window(qtbot)  # the sample CX4: RG 0 is RAID 5, w1 runs 1500 IOPS
    doc = w.document
    base = doc.project
    assert str(base.group(0).raid).endswith("R5") and base.workloads[0].iops == 1500
    doc.apply(edits.AddScenario("Proposed"))
    assert ScenarioBar(doc).set_own_configuration(True)
    steps = doc.undo_stack.count()
    for edit in (edits.SetGroupFields(0, raid="RAID 6"), edits.SetLunFields(0, owner="SP B"),
                 edits.SetCacheSetting("write_cache_mb", 2000, "write cache"),
                 edits.EditWorkload("w1", iops=3000)):
        assert doc.try_apply(edit) is None, edit.text
    assert doc.undo_stack.count() == steps + 4  # one undo step each
    assert doc.project.scenario("Proposed").overlay.sections() == ["groups", "luns", "cache", "workloads"]
    view = doc.view
    assert str(view.group(0).raid).endswith("R6") and view.lun(0).owner == "SP B"
    assert view.cache["write_cache_mb"] == 2000 and view.workload("w1").iops == 3000
    # the base is untouched
    assert str(base.group(0).raid).endswith("R5") and base.lun(0).owner == "SP A"
    assert base.cache["write_cache_mb"] == 3000 and base.workloads[0].iops == 1500

    w.selection.set(["RG 0"])
    qtbot.wait(20)
    assert any("RAID 6" in t for t in _inspector_texts(w)), _inspector_texts(w)
    doc.set_current_scenario("Baseline")
    qtbot.wait(20)
    texts = _inspector_texts(w)
    assert any("RAID 5" in t for t in texts) and not any("RAID 6" in t for t in texts)
    doc.set_current_scenario("Proposed")

    # the comparison lists each difference, and the engine ran each scenario on its own
    p = doc.project
    table = CompareTable()
    qtbot.addWidget(table)
    table.set_results(simulate(p, catalog, "Proposed"), simulate(p, catalog, "Baseline"), p, catalog)
    config = [r for r in table.rows if r.section == "Configuration"]
    text = " | ".join(f"{r.label}: {r.baseline_text} -> {r.current_text}" for r in config)
    for what in ("RAID Group 0: RAID 5, 5 drives -> RAID 6, 5 drives",
                 "LUN 0: 100 GB on RAID Group 0, SP A -> 100 GB on RAID Group 0, SP B",
                 "1,500 IOPS", "3,000 IOPS"):
        assert what in text, (what, text)
    spec = doc.platform.cache_settings["write_cache_mb"]
    assert f"cache: {spec.label}: 3,000 {spec.unit} -> 2,000 {spec.unit}" in text, text
    from app.domain.user_names import RAW_ID
    assert not RAW_ID.search(text) and "write_cache_mb" not in text, text  # names, not ids or keys

    for _ in range(4):
        doc.undo_stack.undo()
    assert doc.project.scenario("Proposed").overlay.is_empty()
    assert str(doc.view.group(0).raid).endswith("R5") and doc.view.workload("w1").iops == 1500
