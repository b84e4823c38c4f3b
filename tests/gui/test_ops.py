"""app.domain.edits: every operation undoes exactly, reports what it changed, and refuses what
breaks a rule with a sentence (no Qt needed)."""
from __future__ import annotations

import pytest

from app.domain import edits
from app.domain.project import Bind, DriveFailure, Workload, WorkloadChange
from app.store.presets import default_catalog
from app.store.project_json import project_to_dict
from app.ui.sample import sample_project


@pytest.fixture
def cat():
    return default_catalog()


@pytest.fixture
def proj(cat):
    p = sample_project(cat)
    p.scenarios[0].events.append(DriveFailure("op1", 1.0, drive="0_0_1", priority="High"))
    p.scenarios[0].events.append(WorkloadChange("op2", 2.0, workload="w1", changes={"iops": 0}))
    return p


def roundtrip(project, catalog, op, aspects=None):
    before = project_to_dict(project)
    assert op.check(project, catalog) is None, op.check(project, catalog)
    change = op.do(project)
    after = project_to_dict(project)
    assert after != before or isinstance(op, edits.SetCurrentScenario)
    if aspects:
        assert set(aspects) <= change.aspects, change
    undo_change = op.undo(project)
    assert project_to_dict(project) == before
    assert undo_change.aspects == change.aspects or undo_change.aspects
    op.do(project)  # redo gives the same again
    assert project_to_dict(project) == after
    return change


def test_every_op_undoes_exactly(proj, cat):
    cases = [
        (edits.AddEnclosure(2, 0, "dae-4g-15"), [edits.LAYOUT]),
        (edits.PlaceDrive("0_0_12", "fc-15k-73"), [edits.LAYOUT]),
        (edits.SetHotSpare("0_0_12", True), [edits.LAYOUT]),
        (edits.MoveDrive("0_0_3", "0_0_13"), [edits.LAYOUT, edits.GROUPS]),
        (edits.PlaceDrive("0_1_9", "fc-10k-400"), [edits.LAYOUT]),
        (edits.PlaceDrive("0_1_10", "fc-10k-400"), [edits.LAYOUT]),
        (edits.CreateRaidGroup("R1", ["0_1_9", "0_1_10"], name="Log"), [edits.GROUPS]),
        (edits.SetLunFields(0, capacity_gb=50, owner="SP B", settings={"write_cache": False}), [edits.LUNS]),
        (edits.CreateLun(3, 500, "SP B"), [edits.LUNS]),
        (edits.DeleteLun(1), [edits.LUNS, edits.WORKLOADS]),
        (edits.DeleteRaidGroup(0), [edits.GROUPS]),
        (edits.SetGroupFields(2, name="Fast"), [edits.GROUPS]),
        (edits.SetCacheSetting("write_cache_mb", 2000), [edits.CACHE]),
        (edits.SetProjectInfo(title="T", customer="C"), [edits.INFO]),
        (edits.AddWorkload(Workload("w2", "Backup", [3], iops=100)), [edits.WORKLOADS]),
        (edits.EditWorkload("w1", iops=3000, luns=[2]), [edits.WORKLOADS]),
        (edits.RenameWorkload("w1", "oltp"), [edits.WORKLOADS, edits.EVENTS]),
        (edits.AddEvent(Bind("", 3.0, lun=2)), [edits.EVENTS]),
        (edits.MoveEvent("op1", 5.0), [edits.EVENTS]),
        (edits.SetEventPriority("op1", "ASAP"), [edits.EVENTS]),
        (edits.RemoveEvent("op1"), [edits.EVENTS]),
        (edits.RemoveWorkload("oltp"), [edits.WORKLOADS]),
        (edits.AddScenario("Plan B"), [edits.SCENARIOS]),
        (edits.DuplicateScenario(proj, "Baseline"), [edits.SCENARIOS]),
        (edits.RenameScenario("Baseline", "Today"), [edits.SCENARIOS]),
        (edits.SetBaselineScenario("Today"), [edits.SCENARIOS]),
        (edits.SetCurrentScenario("Today"), [edits.SCENARIOS]),
        (edits.RemoveScenario("Plan B"), [edits.SCENARIOS]),
    ]
    start = project_to_dict(proj)
    done = []
    for op, aspects in cases:
        roundtrip(proj, cat, op, aspects)
        done.append(op)
    for op in reversed(done):
        op.undo(proj)
    assert project_to_dict(proj) == start


def test_remove_enclosure_and_drive_keep_the_drive_order(proj, cat):
    order = list(proj.drives)
    op = edits.RemoveDrive("0_0_14")  # the hot spare
    roundtrip(proj, cat, op)
    op.undo(proj)
    assert list(proj.drives) == order
    proj.groups = [g for g in proj.groups if not g.drives[0].startswith("1_0")]
    proj.luns = [l for l in proj.luns if l.group_id in {g.id for g in proj.groups}]
    proj.workloads[0].luns = [l.id for l in proj.luns][:2]
    order = list(proj.drives)
    op = edits.RemoveEnclosure("1_0")
    roundtrip(proj, cat, op)
    op.undo(proj)
    assert list(proj.drives) == order


def test_move_drive_follows_group_and_events(proj, cat):
    op = edits.MoveDrive("0_0_1", "0_0_12")
    change = op.do(proj)
    assert "0_0_12" in proj.group(0).drives and proj.scenarios[0].event("op1").drive == "0_0_12"
    assert {"RG 0", "op1", "drive 0_0_1", "drive 0_0_12"} <= change.refs
    op.undo(proj)
    assert proj.scenarios[0].event("op1").drive == "0_0_1"


@pytest.mark.parametrize("op, words", [
    (edits.PlaceDrive("0_0_0", "fc-15k-73"), "already holds a drive"),
    (edits.PlaceDrive("3_0_0", "fc-15k-73"), "no enclosure 3_0"),
    (edits.PlaceDrive("0_0_15", "fc-15k-73"), "slots 0 to 14"),
    (edits.PlaceDrive("0_0_12", "nonsense"), "unknown drive type"),
    (edits.AddEnclosure(0, 0, "dae-4g-15"), "already has enclosure 0_0"),
    (edits.AddEnclosure(9, 0, "dae-4g-15"), "buses 0 to 7"),
    (edits.RemoveDrive("0_0_0"), "delete the group first"),
    (edits.RemoveEnclosure("0_0"), "delete the group first"),
    (edits.SetHotSpare("0_0_0", True), "must not belong to a group"),
    (edits.CreateRaidGroup("R6", [f"0_0_{s}" for s in range(5)]), "already in RG 0"),
    (edits.CreateLun(0, 1e6, "SP A"), "GB free"),
    (edits.CreateLun(0, 1, "SP C"), "owner must be one of SP A, SP B"),
    (edits.SetCacheSetting("page_kb", 3), "must be one of 2, 4, 8, 16"),
    (edits.SetCacheSetting("write_cache_mb", 99999), "above the maximum"),
    (edits.SetFeature("hpt", True), "no premium feature"),
    (edits.SetEventPriority("op1", "Turbo"), "priorities are Low, Medium, High, ASAP"),
    (edits.RemoveScenario("Baseline"), "at least one scenario"),
    (edits.RenameWorkload("w1", "two words"), "one word"),
])
def test_refusals_are_sentences(proj, cat, op, words):
    why = op.check(proj, cat)
    assert why and words in why


def test_allowed_raid_types_follow_platform_rules(proj, cat):
    proj.drives.update({f"0_0_{s}": proj.drives.get(f"0_0_{s}") or __import__("app.domain.project", fromlist=["Drive"]).Drive(f"0_0_{s}", "fc-15k-73") for s in (10, 11, 12, 13)})
    allowed = edits.allowed_raid_types(proj, cat, ["0_0_10", "0_0_11", "0_0_12", "0_0_13"])
    assert {rt.value for rt, why in allowed.items() if why is None} == {"R0", "R1/0", "R5", "R6"}
    mixed = edits.allowed_raid_types(proj, cat, ["0_0_12", "1_0_12"] if "1_0_12" in proj.drives else ["0_0_12", "0_1_9"])
    assert all(why for why in mixed.values())


def test_batch_is_one_step_and_all_or_nothing(proj, cat):
    before = project_to_dict(proj)
    bad = edits.Batch([edits.PlaceDrive("0_0_12", "fc-15k-73"), edits.PlaceDrive("0_0_12", "fc-15k-73")])
    assert "already holds a drive" in bad.check(proj, cat)
    with pytest.raises(edits.EditError):
        bad.do(proj)
    assert project_to_dict(proj) == before
    good = edits.Batch([edits.PlaceDrive("0_0_12", "fc-15k-73"), edits.SetHotSpare("0_0_12", True)])
    roundtrip(proj, cat, good, [edits.LAYOUT])


def test_move_event_merges_into_one_undo_step(proj):
    a = edits.MoveEvent("op1", 3.0)
    a.do(proj)
    b = edits.MoveEvent("op1", 4.0)
    b.do(proj)
    assert a.merge_key() == b.merge_key()
    assert not a.merge(b)  # two separate moves (two drags) stay two undo steps
    a.mergeable = b.mergeable = True  # their source's arrow steps
    assert a.merge(b)
    a.undo(proj)
    assert proj.scenarios[0].event("op1").start_h == 1.0


def test_parse_ref_reads_validation_references():
    assert edits.parse_ref("drive 0_1_4") == ("drive", "0_1_4")
    assert edits.parse_ref("RG 3") == ("group", 3)
    assert edits.parse_ref("LUN 12") == ("lun", 12)
    assert edits.parse_ref("enclosure 0_2") == ("enclosure", "0_2")
    assert edits.parse_ref("bus 1") == ("bus", 1)
    assert edits.parse_ref("cache.page_kb") == ("cache", "page_kb")
    assert edits.parse_ref("feature hpt") == ("feature", "hpt")
    assert edits.parse_ref("workload oltp") == ("workload", "oltp")
    assert edits.parse_ref("op3") == ("event", "op3")
    assert edits.parse_ref("project") == ("project", "")


def test_change_flags():
    c = edits.Change.of(edits.INFO)
    assert not c.needs_simulation
    assert (c | edits.Change.of(edits.LAYOUT)).needs_simulation
    assert edits.Change.everything().affects(edits.CACHE)
