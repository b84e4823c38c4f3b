"""EditWorkload refuses a value validation would reject (the inspector no longer clamps what is
typed), but not an edit of a workload that was already invalid for another reason."""
from __future__ import annotations

from app.domain import edits


def test_an_impossible_value_is_refused_with_the_rule(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    w = project.workloads[0]
    # the rule alone: the refusal reads "Cannot edit workload oltp: read share ..." (op.text names it)
    assert edits.EditWorkload(w.id, read_pct=150).check(project, catalog) == \
        "read share 150% must be between 0 and 100"
    assert "LUN 999 does not exist" in edits.EditWorkload(w.id, luns=[999]).check(project, catalog)
    assert edits.EditWorkload(w.id, read_pct=50).check(project, catalog) is None


def test_an_already_invalid_workload_can_still_be_edited(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    w = project.workloads[0]
    w.io_kb = -1  # invalid already (e.g. from a hand-edited file)
    assert edits.EditWorkload(w.id, read_pct=50).check(project, catalog) is None
    assert edits.EditWorkload(w.id, io_kb=8).check(project, catalog) is None


def test_a_lun_listed_twice_is_refused(catalog, load_example):
    """The Inspector's LUN list '0, 0' reaches EditWorkload as [0, 0]: refused, naming the LUN."""
    project = load_example("emc-cx4-960-oltp")
    w = project.workloads[0]
    lun = w.luns[0]
    assert edits.EditWorkload(w.id, luns=[lun, lun]).check(project, catalog) == \
        f"LUN {lun} is listed 2 times; list each LUN once"
