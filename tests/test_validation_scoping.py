"""Which validation errors stop a prediction, how scenario issues name their scenario, the
would-be event check of the add/edit forms (event_issues), and the warnings for events that do
nothing useful. Domain and service only: no Qt."""
from __future__ import annotations

import pytest

from app.domain import edits
from app.domain.formatting import plural
from app.domain.project import (
    Bind, FeatureEnable, LunMigration, Reallocate, Scenario, VolumeMigration, WorkloadChange,
)
from app.domain.validation import (
    ERROR, WARNING, blocking, event_issues, migration_targets, validate,
)
from app.service.predict import predict, refusal


@pytest.fixture
def oltp(load_example):
    return load_example("emc-cx4-960-oltp")


def _fake_engine(calls):
    def simulate(project, catalog, scenario_name=None):
        calls.append(scenario_name)
        return object()
    return simulate


def _delete_lun(project, catalog, lun):
    op = edits.Batch(edits.delete_edits(project, [f"LUN {lun}"]), "delete")
    assert op.check(project, catalog) is None
    op.do(project)


def test_an_error_in_a_scenario_not_simulated_does_not_stop_the_prediction(oltp, catalog):
    # LUN 21 is the destination of op1 in 'Independent ASAP migration' only (not current, not baseline)
    assert oltp.current_scenario == "Dependent ASAP migration" and oltp.baseline_scenario == "Baseline"
    _delete_lun(oltp, catalog, 21)
    calls = []
    pred = predict(oltp, catalog, simulate=_fake_engine(calls))
    assert pred.error is None and calls == ["Dependent ASAP migration", "Baseline"]
    other = [i for i in pred.issues if i.severity == ERROR]
    assert [(i.where, i.scenario, i.text) for i in other] == [
        ("op1", "Independent ASAP migration",
         "Independent ASAP migration: op1 (LUN migration): destination LUN 21 does not exist")]


@pytest.mark.parametrize("which", ["current", "baseline"])
def test_an_error_in_a_simulated_scenario_stops_it_and_the_message_names_the_scenario(oltp, catalog, which):
    name = oltp.current_scenario if which == "current" else oltp.baseline_scenario
    oltp.scenario(name).events.append(Bind("op9", 1.0, lun=999, priority="Medium"))
    calls = []
    pred = predict(oltp, catalog, simulate=_fake_engine(calls))
    assert calls == [] and pred.error
    assert pred.error == f"1 error to fix first (see Messages): {name}: op9 (bind): LUN 999 does not exist"
    assert "ProjectInvalid" not in pred.error


def test_a_layout_error_stops_every_prediction(oltp, catalog):
    oltp.luns[0].owner = "SP Z"
    assert blocking(validate(oltp, catalog), ["Baseline"])
    assert refusal(validate(oltp, catalog), []).startswith("1 error to fix first")


def test_repeated_event_ids_in_two_scenarios_give_two_distinct_issues(oltp, catalog):
    # op1 migrates 18 -> 19 in two scenarios: deleting LUN 19 breaks both
    _delete_lun(oltp, catalog, 19)
    errs = [i for i in validate(oltp, catalog) if i.severity == ERROR]
    texts = [i.text for i in errs]
    assert len(errs) == 2 and len(set(texts)) == 2
    assert {i.scenario for i in errs} == {"Dependent ASAP migration", "Dependent High migration"}
    assert all(i.text.startswith(f"{i.scenario}: op1 (LUN migration): ") for i in errs)


# ---------------------------------------------------------------- the forms' check


def test_event_issues_judges_the_would_be_event_without_changing_the_project(oltp, catalog):
    before = [list(s.events) for s in oltp.scenarios]
    smaller = LunMigration("", 0.0, source_lun=0, dest_lun=20, priority="High")  # 20 GB < 50 GB
    found = event_issues(oltp, catalog, LunMigration("op7", 0.0, source_lun=0, dest_lun=20, priority="High"))
    assert [i.severity for i in found] == [ERROR] and "is smaller than source LUN 0" in found[0].text
    assert [list(s.events) for s in oltp.scenarios] == before and smaller.id == ""
    assert migration_targets(oltp, 0) == []  # every LUN of 50 GB or more carries the OLTP load
    free = migration_targets(oltp, 20, taken={18, 19})  # op1 migrates 18 -> 19
    ok = LunMigration("op7", 0.0, source_lun=20, dest_lun=free[0], priority="High")
    assert not [i for i in event_issues(oltp, catalog, ok) if i.severity == ERROR]


def test_event_issues_of_an_edited_event_include_its_existing_errors(oltp, catalog):
    sc = oltp.scenario()
    sc.events.append(Bind("op5", 1.0, lun=999, priority="Medium"))
    found = event_issues(oltp, catalog, Bind("op5", 2.0, lun=999, priority="Medium"))
    assert any("LUN 999 does not exist" in i.text for i in found)
    assert not event_issues(oltp, catalog, Bind("op5", 2.0, lun=20, priority="Medium"))


def test_reallocate_threshold_range(load_example, catalog):
    p = load_example("netapp-fas-wafl")
    for bad in (-5, 0.5, 11):
        found = event_issues(p, catalog, Reallocate("op9", 0.0, lun=0, threshold=bad))
        assert any(i.severity == ERROR and "threshold" in i.text for i in found), bad
    assert not event_issues(p, catalog, Reallocate("op9", 0.0, lun=0, threshold=4))


def test_volume_migration_to_a_missing_lun_is_an_error(load_example, catalog):
    p = load_example("hitachi-usp600-tiers")
    found = event_issues(p, catalog, VolumeMigration("op9", 0.0, moves=[[0, 999]], priority="Normal"))
    assert any(i.severity == ERROR and "LUN 999 does not exist" in i.text for i in found)


def test_migration_targets_are_unused_and_large_enough(oltp):
    src = oltp.lun(20)
    used = {lid for w in oltp.workloads for lid in w.luns}
    targets = migration_targets(oltp, 20)
    assert targets and 20 not in targets
    for t in targets:
        assert oltp.lun(t).capacity_gb >= src.capacity_gb and t not in used
    assert oltp.lun(targets[0]).group_id != src.group_id  # another group first
    assert not set(migration_targets(oltp, 20, taken=targets[:1])) & set(targets[:1])


# ---------------------------------------------------------------- warnings that were missing


def _warnings_at(project, catalog, where):
    return [i.text for i in validate(project, catalog, project.current_scenario)
            if i.where == where and i.severity == WARNING]


def test_a_workload_change_that_changes_nothing_is_a_warning(load_example, catalog):
    p = load_example("dell-md3200-hpt")
    w = next(w for w in p.workloads if w.mode == "closed")
    sc = p.scenario()
    sc.events.append(WorkloadChange("op8", 1.0, workload=w.id, changes={"iops": 0}))
    found = _warnings_at(p, catalog, "op8")
    assert any("no effect" in t and "closed-loop" in t and "IOPS are not used" in t for t in found), found
    sc.events[-1] = WorkloadChange("op8", 1.0, workload=w.id, changes={"outstanding": w.outstanding})
    assert any("no effect" in t and "already has" in t for t in _warnings_at(p, catalog, "op8"))
    # going idle and coming back: both do something
    sc.events[-1] = WorkloadChange("op8", 1.0, workload=w.id, changes={"outstanding": 0})
    sc.events.append(WorkloadChange("op9", 2.0, workload=w.id, changes={"outstanding": w.outstanding}))
    assert not _warnings_at(p, catalog, "op8") and not _warnings_at(p, catalog, "op9")


def test_enabling_a_feature_twice_is_a_warning(load_example, catalog):
    p = load_example("dell-md3200-hpt")
    sc = p.scenario()
    first = next(e for s in p.scenarios for e in s.events if isinstance(e, FeatureEnable))
    sc.events = [e for e in sc.events if not isinstance(e, FeatureEnable)]
    sc.events += [FeatureEnable("op8", 1.0, feature=first.feature), FeatureEnable("op9", 3.0, feature=first.feature)]
    assert not _warnings_at(p, catalog, "op8")
    assert any("already enabled by op8" in t and "outage" in t for t in _warnings_at(p, catalog, "op9"))


def test_binding_an_in_use_lun_or_a_migration_destination_is_a_warning(oltp, catalog):
    sc = oltp.scenario()  # op1 migrates LUN 18 (in use) to LUN 19
    sc.events.append(Bind("op8", 1.0, lun=0, priority="Medium"))
    sc.events.append(Bind("op9", 1.0, lun=19, priority="Medium"))
    assert any("in use by workload" in t for t in _warnings_at(oltp, catalog, "op8"))
    assert any("destination of op1" in t for t in _warnings_at(oltp, catalog, "op9"))
    sc.events.append(Bind("op10", 1.0, lun=20, priority="Medium"))  # unused, no migration
    assert not _warnings_at(oltp, catalog, "op10")


def test_plural():
    assert plural(1, "LUN") == "1 LUN" and plural(0, "LUN") == "0 LUNs"
    assert plural(3, "RAID group") == "3 RAID groups" and plural(2, "bus", "buses") == "2 buses"
    assert plural(1200, "drive") == "1,200 drives"


def test_scenario_issues_are_named_in_the_cli_check_too(oltp, catalog):
    oltp.scenarios.append(Scenario("Other", [Bind("op1", 0.0, lun=999, priority="Medium")]))
    (issue,) = [i for i in validate(oltp, catalog) if i.scenario == "Other"]
    assert str(issue) == "error: Other: op1 (bind): LUN 999 does not exist"
