"""The charts' cursor read-out past the end of a plan: the pinned baseline's curves stop at the
baseline plan's end, so its values there read "ended" (not its last value held); the same for the
current scenario when the baseline is the longer plan."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

try:
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui


def _result(priority: str):
    """op1 at 2:00: at ASAP the plan ends at 2:45, at Low at 24:12 (FakeEngine)."""
    cat = catalog()
    project = small_project(cat)
    project.scenario().events[0].priority = priority
    return project, FakeEngine()(project, cat)


def _columns(panel) -> dict[str, tuple[str, str]]:
    """Read-out rows: label -> (value, baseline) texts."""
    tree = panel.readout
    out = {}
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        for k in range(top.childCount()):
            item = top.child(k)
            out[item.text(0)] = (item.text(1), item.text(2))
    return out


def test_baseline_values_past_the_baseline_plan_read_ended(panel):
    project, current = _result("Low")
    _, base = _result("ASAP")
    assert base.horizon_h < 10.0 < current.horizon_h
    panel.set_results(current, base, project=project)
    x, _y = panel.curve("response_ms", "w1", baseline=True).getOriginalDataset()
    assert x[-1] == pytest.approx(base.horizon_h)  # the dashed curve stops there

    panel.set_cursor(1.0)  # both plans running: both columns have values
    assert all(v not in ("", "ended") and b not in ("", "ended") for v, b in _columns(panel).values())
    assert all(b is not None for *_, b in panel.values_at(1.0))

    panel.set_cursor(10.0)  # past the baseline's end
    rows = _columns(panel)
    assert rows and all(b == "ended" and v not in ("", "ended") for v, b in rows.values())
    assert all(b is None and v is not None for *_, v, b in panel.values_at(10.0))

    panel.set_cursor(base.horizon_h)  # its last moment still has a value
    assert all(b not in ("", "ended") for _v, b in _columns(panel).values())


def test_current_values_past_its_own_plan_read_ended(panel):
    project, current = _result("ASAP")
    _, base = _result("Low")
    panel.set_results(current, base, project=project)
    panel.set_cursor(10.0)  # the cursor goes as far as the longer (baseline) plan
    rows = _columns(panel)
    assert rows and all(v == "ended" and b not in ("", "ended") for v, b in rows.values())
    assert all(v is None for _k, _m, _e, v, _b in panel.values_at(10.0))
