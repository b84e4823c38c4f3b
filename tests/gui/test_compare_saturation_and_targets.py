"""The scenario comparison shows saturation and broken targets (issue 23: "Show saturation on the
chart and in the comparison"; "an SLA broken in one scenario is highlighted"): a scenario whose
workload the array cannot serve gets an "unserved IOPS" row under the workload's name, and the
scenario whose peak response breaks the workload's target has its cell marked, with a tooltip."""
from __future__ import annotations

import copy

from test_live_support import catalog, small_project

import pytest

from app.domain.overlay import Overlay

pytestmark = pytest.mark.gui


def _texts(table):
    t = table.table
    return [[t.item(r, c).text() if t.item(r, c) else "" for c in range(t.columnCount())]
            for r in range(t.rowCount())]


def _two_scenarios():
    """The small CX4 at 500 IOPS (served) and the same plan at 6,000 (RG 0 cannot serve it)."""
    from app.domain.project import Scenario

    cat = catalog()
    p = small_project(cat)
    p.workloads[0].iops = 500
    p.workloads[0].response_target_ms = 30.0
    base_name = p.current_scenario
    events = copy.deepcopy(p.scenario().events)
    heavy = copy.deepcopy(p.workloads[0])
    heavy.iops = 6000
    p.scenarios.append(Scenario("Four times the load", events, overlay=Overlay(changed={"workloads": {"w1": heavy}})))
    return p, cat, base_name


def test_saturation_and_a_broken_target_are_marked(qtbot):
    from app.engine import simulate
    from app.ui.scenarios import CompareTable

    p, cat, base_name = _two_scenarios()
    base, heavy = simulate(p, cat, base_name), simulate(p, cat, "Four times the load")
    assert heavy.get("unserved_iops", "w1").peak() > 0 and base.get("unserved_iops", "w1").peak() == 0
    table = CompareTable()
    qtbot.addWidget(table)
    table.resize(800, 600)
    table.set_results(heavy, base, p, cat)
    texts = _texts(table)
    titles = [t[0].strip() for t in texts]
    # saturation: its own section, the workload by name, the unserved IOPS of each scenario
    i = titles.index("Workloads (unserved IOPS, peak)")
    assert titles[i + 1] == "OLTP" and texts[i + 1][1].startswith("0") and texts[i + 1][2] != texts[i + 1][1]
    assert "w1" not in " ".join(" ".join(t) for t in texts)

    # the broken target: the current scenario's peak response cell is marked, the baseline's not
    j = titles.index("Workloads (peak response time)")
    r = j + 1
    assert titles[r] == "OLTP"
    peak_base, peak_cur = base.get("response_ms", "w1").peak(), heavy.get("response_ms", "w1").peak()
    assert peak_base <= 30.0 < peak_cur
    cur_cell, base_cell = table.table.item(r, 2), table.table.item(r, 1)
    assert cur_cell.background().color().name() == table._SLA_BROKEN.name()
    assert "target is broken" in cur_cell.toolTip()
    assert base_cell.data(0x8) is None or base_cell.background().color().name() != table._SLA_BROKEN.name()
    assert "broken in current" in texts[r][4]
