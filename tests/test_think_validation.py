"""Validation of a workload's think time (think_ms): a finite number from 0 to an hour, named
with the workload and the field; a warning where an open workload sets it (it is ignored)."""
from __future__ import annotations

import math

import pytest

from app.domain.project import WorkloadChange
from app.domain.validation import MAX_THINK_MS, validate


def issues(project, catalog, severity):
    return [i.text for i in validate(project, catalog) if i.severity == severity]


@pytest.mark.parametrize("bad", [-1.0, math.inf, math.nan, MAX_THINK_MS * 2, "5", True, None])
def test_bad_think_time_is_an_error_naming_workload_and_field(load_example, catalog, bad):
    p = load_example("hp-sa6402-raid5")
    w = next(x for x in p.workloads if x.mode == "closed")
    w.think_ms = bad
    errors = issues(p, catalog, "error")
    assert any(t.startswith(f"workload {w.id!r}: think time (think_ms)") for t in errors), errors


def test_good_think_time_is_clean(load_example, catalog):
    p = load_example("hp-sa6402-raid5")
    for w in p.workloads:
        if w.mode == "closed":
            w.think_ms = 25.0
    assert not [t for t in issues(p, catalog, "error") + issues(p, catalog, "warning") if "think" in t]


def test_think_time_on_an_open_workload_warns(load_example, catalog):
    p = load_example("emc-cx4-960-oltp")
    w = p.workloads[0]
    assert w.mode == "open"
    w.think_ms = 10.0
    warnings = [t for t in issues(p, catalog, "warning") if "think" in t]
    assert warnings == [f"workload {w.id!r}: think time 10 ms is used only by closed workloads; "
                        "this open workload ignores it"]


def test_a_change_of_an_open_workloads_think_time_has_no_effect(load_example, catalog):
    p = load_example("emc-cx4-960-oltp")
    w = p.workloads[0]
    p.scenario().events.append(WorkloadChange(id="c1", start_h=0.5, workload=w.id, changes={"think_ms": 5.0}))
    texts = [i.text for i in validate(p, catalog) if "c1" in i.text or i.where.endswith("c1")]
    assert any("open-loop" in t and "think time is not used" in t for t in texts), texts
