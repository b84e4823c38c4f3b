"""Each validation rule fires on a deliberately broken project and names the object it is about."""
from __future__ import annotations

import pytest

from app.domain.project import (
    Bind, Drive, DriveFailure, DriveReplacement, Enclosure, FeatureEnable, Lun, LunMigration, Project,
    RaidGroup, Reallocate, Scenario, VolumeMigration, Workload, WorkloadChange,
)
from app.domain.raid import RaidType
from app.domain.validation import ERROR, WARNING, Issue, validate

EMC = "emc-cx4-960-r28"


def base() -> Project:
    """A small valid CX4-960 project: two 4+1 R5 groups of 73 GB 15k FC, a spare, two LUNs, a load."""
    p = Project(EMC)
    p.enclosures = [Enclosure(0, 0, "dae-4g-15"), Enclosure(1, 0, "dae-4g-15")]
    for s in range(11):
        p.drives[f"0_0_{s}"] = Drive(f"0_0_{s}", "fc-15k-73", hot_spare=(s == 10))
    for s in range(6):
        p.drives[f"1_0_{s}"] = Drive(f"1_0_{s}", "sata-7k2-1000")
    p.groups = [
        RaidGroup(0, RaidType.R5, [f"0_0_{s}" for s in range(5)]),
        RaidGroup(1, RaidType.R5, [f"0_0_{s}" for s in range(5, 10)]),
        RaidGroup(2, RaidType.R6, [f"1_0_{s}" for s in range(6)]),
    ]
    p.drives["1_0_14"] = Drive("1_0_14", "sata-7k2-1000", hot_spare=True)
    p.luns = [Lun(0, 0, 50, "SP A"), Lun(1, 1, 100, "SP A"), Lun(2, 2, 500, "SP B")]
    p.workloads = [Workload("oltp", "OLTP", [0], iops=1000)]
    p.scenarios = [Scenario("Baseline"), Scenario("Ops", [LunMigration("op1", 0.5, source_lun=0, dest_lun=1,
                                                                       priority="High")])]
    return p


def issues_at(project, catalog, where, severity=None) -> list[Issue]:
    return [i for i in validate(project, catalog) if i.where == where and (severity is None or i.severity == severity)]


def expect(project, catalog, where, severity, *words) -> Issue:
    """Exactly the rule we broke fires at `where`, and its text names the object and says why."""
    found = issues_at(project, catalog, where, severity)
    assert found, f"no {severity} at {where!r}; got: {[str(i) for i in validate(project, catalog)]}"
    for issue in found:
        if all(w.lower() in issue.text.lower() for w in words):
            return issue
    raise AssertionError(f"{severity} at {where!r} lacks {words}: {[i.text for i in found]}")


def test_base_project_is_valid(catalog):
    issues = validate(base(), catalog)
    assert [i for i in issues if i.severity == ERROR] == []
    assert all(isinstance(i, Issue) and i.where and i.text for i in issues)


@pytest.mark.parametrize("name", ["emc-cx4-960-oltp", "emc-cx4-960-worked-examples", "hp-sa6402-raid5",
                                  "hitachi-usp600-tiers", "dell-md3200-hpt", "netapp-fas-wafl"])
def test_examples_have_no_errors(catalog, load_example, name):
    errors = [str(i) for i in validate(load_example(name), catalog) if i.severity == ERROR]
    assert errors == []


# ---------------------------------------------------------------- platform and project

def test_unknown_platform(catalog):
    p = base()
    p.platform_id = "acme-9000"
    issue = expect(p, catalog, "project", ERROR, "acme-9000", "not in the preset catalog")
    assert len(validate(p, catalog)) == 1, "nothing else can be checked without a platform"
    assert issue.is_error


def test_negative_horizon(catalog):
    p = base()
    p.horizon_h = -3
    expect(p, catalog, "project", ERROR, "horizon")


@pytest.mark.parametrize("hours,words", [
    (0, ("horizon 0 h", "must be a positive number")),
    (float("nan"), ("horizon nan h", "must be a positive number")),
    (1e9, ("horizon 1,000,000,000 h", "more than ten years", "87,660 h")),
    (87_660.5, ("more than ten years",)),
])
def test_horizon_zero_or_beyond_ten_years(catalog, hours, words):
    p = base()
    p.horizon_h = hours
    expect(p, catalog, "project", ERROR, *words)


def test_horizon_up_to_ten_years_is_valid(catalog):
    p = base()
    for hours in (None, 0.25, 87_660.0):
        p.horizon_h = hours
        assert not issues_at(p, catalog, "project", ERROR), hours


# ---------------------------------------------------------------- RAID rules

@pytest.mark.parametrize("raid,width,words", [
    (RaidType.R5, 2, ("RG 0", "2 drives", "RAID 5 takes 3 to 16")),
    (RaidType.R6, 5, ("RG 0", "RAID 6", "even")),
    (RaidType.R10, 3, ("RG 0", "RAID 1/0", "even")),
    (RaidType.R3, 4, ("RG 0", "RAID 3 takes 5 or 9")),
    (RaidType.R1, 3, ("RG 0", "RAID 1 takes 2 to 2")),
])
def test_raid_width_rules(catalog, raid, width, words):
    p = base()
    p.luns = [l for l in p.luns if l.group_id != 0]
    p.workloads = []
    p.scenarios = [Scenario("Baseline")]
    p.groups[0] = RaidGroup(0, raid, [f"0_0_{s}" for s in range(width)])
    expect(p, catalog, "RG 0", ERROR, *words)


def test_raid_width_17_is_too_wide(catalog):
    p = base()
    p.enclosures.append(Enclosure(2, 0, "dae-4g-15"))
    p.enclosures.append(Enclosure(2, 1, "dae-4g-15"))
    locs = [f"2_0_{s}" for s in range(15)] + ["2_1_0", "2_1_1"]
    for loc in locs:
        p.drives[loc] = Drive(loc, "fc-15k-73")
    p.groups.append(RaidGroup(7, RaidType.R5, locs))
    expect(p, catalog, "RG 7", ERROR, "17 drives", "3 to 16")


def test_raid_type_not_offered(catalog):
    p = base()
    p.groups[2] = RaidGroup(2, RaidType.RAID_DP, [f"1_0_{s}" for s in range(6)])
    expect(p, catalog, "RG 2", ERROR, "RAID-DP", "does not offer")


def test_hitachi_widths_are_allowed(catalog):
    pf = catalog.platform("hitachi-usp600-ams500")
    for raid, width in [(RaidType.R5, 8), (RaidType.R5, 4), (RaidType.R10, 4), (RaidType.R6, 8),
                        (RaidType.R5, 15), (RaidType.R10, 8), (RaidType.R6, 7), (RaidType.R5, 5)]:
        assert pf.raid_rules[raid].allows_width(width), (raid, width)


def test_raid_rule_interfaces(catalog):
    # a user platform whose RAID 6 takes only SATA drives
    import dataclasses

    from app.domain.hardware import Interface, RaidRule

    pf = catalog.platform(EMC)
    rules = dict(pf.raid_rules)
    rules[RaidType.R5] = RaidRule(RaidType.R5, 3, 16, interfaces=(Interface.SATA,))
    custom = dataclasses.replace(pf, raid_rules=rules)
    cat = dataclasses.replace(catalog, platforms={**catalog.platforms, EMC: custom})
    expect(base(), cat, "RG 0", ERROR, "RG 0", "takes SATA drives", "not FC")


def test_mixed_interfaces_in_a_group(catalog):
    p = base()
    p.drives["0_0_4"] = Drive("0_0_4", "sata-7k2-1000")
    expect(p, catalog, "RG 0", ERROR, "RG 0", "mixes drive interfaces", "FC", "SATA")


def test_mixed_capacities_in_a_group(catalog):
    p = base()
    p.drives["0_0_4"] = Drive("0_0_4", "fc-15k-300")
    issue = expect(p, catalog, "RG 0", WARNING, "RG 0", "mixes drive capacities", "73 GB", "300 GB")
    assert "used as 73 GB" in issue.text


def test_mixed_speeds_in_a_group(catalog):
    p = base()
    p.drives["0_0_4"] = Drive("0_0_4", "fc-10k-400")
    expect(p, catalog, "RG 0", WARNING, "mixes drive speeds", "10k", "15k")


def test_sata_raid5_and_raid0_warnings(catalog):
    p = base()
    p.groups[2] = RaidGroup(2, RaidType.R5, [f"1_0_{s}" for s in range(6)])
    expect(p, catalog, "RG 2", WARNING, "RAID 5 on SATA", "RAID 6 is recommended")
    p = base()
    p.groups[1] = RaidGroup(1, RaidType.R0, [f"0_0_{s}" for s in range(5, 10)])
    expect(p, catalog, "RG 1", WARNING, "RAID 0", "no protection")


def test_group_with_missing_drive_and_empty_group(catalog):
    p = base()
    p.groups[0].drives[4] = "0_0_13"
    expect(p, catalog, "RG 0", ERROR, "slot 0_0_13", "holds no drive")
    p = base()
    p.groups.append(RaidGroup(9, RaidType.R5, []))
    expect(p, catalog, "RG 9", ERROR, "no drives")


def test_drive_in_two_groups(catalog):
    p = base()
    p.groups[1].drives[0] = "0_0_0"
    expect(p, catalog, "drive 0_0_0", ERROR, "drive 0_0_0", "RG 0 and RG 1")


def test_drive_twice_in_one_group(catalog):
    p = base()
    p.groups[0].drives[1] = "0_0_0"
    expect(p, catalog, "RG 0", ERROR, "drive 0_0_0", "more than once")


def test_hot_spare_in_a_group(catalog):
    p = base()
    p.drives["0_0_3"].hot_spare = True
    expect(p, catalog, "RG 0", ERROR, "RG 0", "0_0_3", "hot spare")


def test_duplicate_group_lun_workload_event_scenario_enclosure_ids(catalog):
    p = base()
    p.groups[1].id = 0
    expect(p, catalog, "RG 0", ERROR, "RAID group id 0", "2 groups")
    p = base()
    p.luns[1].id = 0
    expect(p, catalog, "LUN 0", ERROR, "LUN id 0", "2 LUNs")
    p = base()
    p.workloads.append(Workload("oltp", "again", [1], iops=5))
    expect(p, catalog, "workload oltp", ERROR, "'oltp'", "2 workloads")
    p = base()
    p.scenarios[1].events.append(Bind("op1", 1.0, lun=2, priority="Medium"))
    issue = expect(p, catalog, "op1", ERROR, "Ops: ", "event id 'op1'")
    assert issue.scenario == "Ops"
    p = base()
    p.scenarios.append(Scenario("Ops"))
    expect(p, catalog, "scenario Ops", ERROR, "'Ops'", "2 scenarios")
    p = base()
    p.enclosures.append(Enclosure(0, 0, "dae-4g-15"))
    expect(p, catalog, "enclosure 0_0", ERROR, "enclosure 0_0", "2 times")


# ---------------------------------------------------------------- slots, enclosures, buses

def test_slot_used_twice(catalog):
    p = base()
    p.drives["0_0_11"] = Drive("0_0_3", "fc-15k-73")  # a second drive claiming slot 0_0_3
    expect(p, catalog, "drive 0_0_3", ERROR, "slot 0_0_3", "2 drives")


def test_slot_used_twice_in_a_json_file(catalog, tmp_path):
    import json

    from app.store.project_file import load_project
    from app.store.project_json import project_to_dict

    d = project_to_dict(base())
    d["drives"].append({"location": "0_0_12", "type_id": "fc-15k-73"})
    d["drives"].append({"location": "0_0_12", "type_id": "fc-15k-146"})
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(d))
    expect(load_project(path), catalog, "drive 0_0_12", ERROR, "slot 0_0_12", "2 drives")


def test_slot_outside_enclosure(catalog):
    p = base()
    p.drives["0_0_15"] = Drive("0_0_15", "fc-15k-73", hot_spare=True)
    expect(p, catalog, "drive 0_0_15", ERROR, "slot 15", "enclosure 0_0", "slots 0 to 14")


def test_drive_in_missing_enclosure(catalog):
    p = base()
    p.drives["3_2_0"] = Drive("3_2_0", "fc-15k-73", hot_spare=True)
    expect(p, catalog, "drive 3_2_0", ERROR, "enclosure 3_2", "does not exist")


def test_bad_drive_location(catalog):
    p = base()
    p.drives["zero"] = Drive("zero", "fc-15k-73", hot_spare=True)
    expect(p, catalog, "drive zero", ERROR, "'zero'", "bus_enclosure_slot")


def test_drive_type_not_in_catalog_or_not_offered(catalog):
    p = base()
    p.drives["0_0_12"] = Drive("0_0_12", "floppy-1440k", hot_spare=True)
    expect(p, catalog, "drive 0_0_12", ERROR, "'floppy-1440k'", "not in the drive catalog")
    p = base()
    p.drives["0_0_12"] = Drive("0_0_12", "scsi-10k-36", hot_spare=True)
    expect(p, catalog, "drive 0_0_12", ERROR, "36.4 GB", "not a drive the EMC CLARiiON CX4-960")


def test_drive_not_accepted_by_enclosure(catalog):
    p = Project("hitachi-usp600-ams500")
    p.enclosures = [Enclosure(4, 0, "ams500-fc")]
    p.drives["4_0_0"] = Drive("4_0_0", "sata-7k2-250", hot_spare=True)
    expect(p, catalog, "drive 4_0_0", ERROR, "250 GB", "does not fit enclosure 4_0", "takes FC drives")


def test_bus_beyond_platform(catalog):
    p = base()
    p.enclosures.append(Enclosure(8, 0, "dae-4g-15"))
    expect(p, catalog, "enclosure 8_0", ERROR, "bus 8", "8 buses (0 to 7)")


def test_too_many_enclosures_on_a_bus(catalog):
    p = base()
    for pos in range(1, 9):
        p.enclosures.append(Enclosure(0, pos, "dae-4g-15"))
    expect(p, catalog, "bus 0", ERROR, "bus 0 has 9 enclosures", "at most 8")


def test_gap_in_enclosure_chain(catalog):
    p = base()
    p.enclosures.append(Enclosure(1, 2, "dae-4g-15"))
    expect(p, catalog, "bus 1", WARNING, "gap", "no enclosure 1_1 before enclosure 1_2")
    assert not issues_at(p, catalog, "bus 0")


def test_unknown_enclosure_type(catalog):
    p = base()
    p.enclosures.append(Enclosure(2, 0, "ds14mk4"))
    expect(p, catalog, "enclosure 2_0", ERROR, "'ds14mk4'", "does not offer")


def test_dell_96_drive_limit(catalog, load_example):
    p = load_example("dell-md3200-hpt")
    p.enclosures[1].type_id = "md1220"  # 24 slots: room for a 97th drive
    p.drives["0_1_12"] = Drive("0_1_12", "sas-15k-300", hot_spare=True)
    expect(p, catalog, "project", ERROR, "97 drives", "at most 96")


# ---------------------------------------------------------------- hot spares

def test_group_without_compatible_spare(catalog):
    p = base()
    del p.drives["1_0_14"]  # the SATA spare; the FC spare cannot replace SATA drives
    expect(p, catalog, "RG 2", WARNING, "RG 2", "no compatible hot spare", "SATA", "1,000 GB")
    # RG 0 has its FC spare (its only warning: its LUNs beyond the vault drives' formatted space)
    assert not [i for i in issues_at(p, catalog, "RG 0", WARNING) if "spare" in i.text]


def test_spare_too_small(catalog):
    p = base()
    p.drives["1_0_14"] = Drive("1_0_14", "sata-7k2-500", hot_spare=True)
    expect(p, catalog, "RG 2", WARNING, "no compatible hot spare", "at least 1,000 GB")


def test_no_spares_at_all(catalog):
    p = base()
    for d in p.drives.values():
        d.hot_spare = False
    p.drives = {k: d for k, d in p.drives.items() if k not in ("0_0_10", "1_0_14")}
    expect(p, catalog, "project", WARNING, "no hot spare", "RG 0, RG 1, RG 2")


# ---------------------------------------------------------------- LUNs

def test_lun_larger_than_group(catalog):
    p = base()
    p.luns[0].capacity_gb = 300  # 4 x 73 = 292 GB usable
    expect(p, catalog, "LUN 0", ERROR, "LUN 0 (300 GB)", "does not fit in RG 0", "292 GB usable")


def test_luns_overallocate_a_group(catalog):
    p = base()
    p.luns.append(Lun(5, 0, 200, "SP A"))
    p.luns.append(Lun(6, 0, 50, "SP A"))  # 50 + 200 + 50 = 300 > 292
    issue = expect(p, catalog, "LUN 6", ERROR, "LUN 6 (50 GB)", "does not fit in RG 0", "42 GB free")
    assert not issues_at(p, catalog, "LUN 5", ERROR)


def test_lun_on_missing_group_and_bad_capacity(catalog):
    p = base()
    p.luns.append(Lun(7, 42, 10, "SP A"))
    expect(p, catalog, "LUN 7", ERROR, "RG 42", "does not exist")
    p = base()
    p.luns[2].capacity_gb = 0
    expect(p, catalog, "LUN 2", ERROR, "capacity", "positive")


def test_lun_owner_not_a_controller(catalog):
    p = base()
    p.luns[1].owner = "SP C"
    expect(p, catalog, "LUN 1", ERROR, "'SP C'", "not a controller", "SP A, SP B")


def test_lun_setting_out_of_range(catalog):
    p = base()
    p.luns[0].settings = {"write_aside_blocks": 70000}
    expect(p, catalog, "LUN 0", ERROR, "LUN 0", "Write-aside size", "above the maximum 65534")
    p.luns[0].settings = {"rebuild_priority": "Urgent"}
    expect(p, catalog, "LUN 0", ERROR, "Rebuild priority must be one of Low, Medium, High, ASAP")
    p.luns[0].settings = {"write_cache": "yes"}
    expect(p, catalog, "LUN 0", ERROR, "Write cache must be on or off")
    p.luns[0].settings = {"turbo": True}
    expect(p, catalog, "LUN 0", WARNING, "'turbo'", "ignored")


# ---------------------------------------------------------------- cache and features

def test_cache_settings(catalog):
    p = base()
    p.cache = {"page_kb": 3}
    expect(p, catalog, "cache.page_kb", ERROR, "Cache page size must be one of 2, 4, 8, 16")
    p.cache = {"write_cache_mb": -5}
    expect(p, catalog, "cache.write_cache_mb", ERROR, "Write cache", "below the minimum 0")
    p.cache = {"read_cache_mb": 10.5}
    expect(p, catalog, "cache.read_cache_mb", ERROR, "whole number")
    p.cache = {"high_watermark_pct": 50, "low_watermark_pct": 70}
    expect(p, catalog, "cache.low_watermark_pct", ERROR, "low watermark (70%)", "below the high")
    p.cache = {"flux": 1}
    expect(p, catalog, "cache.flux", WARNING, "'flux'", "does not exist")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_setting_that_is_not_finite_is_a_field_error(catalog, value):
    """Not 'the project could not be fully checked' (int(nan) raised inside the rule)."""
    p = base()
    p.cache = {"write_cache_mb": value}
    expect(p, catalog, "cache.write_cache_mb", ERROR, "Write cache", f"expected a finite number, got {value}")
    p = base()
    p.luns[0].settings = {"write_aside_blocks": value}
    expect(p, catalog, "LUN 0", ERROR, "LUN 0", "Write-aside size", "expected a finite number")
    assert not issues_at(p, catalog, "project", ERROR)


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_a_decimal_setting_that_is_not_finite_is_refused(value):
    """NaN compares false with both limits, and a setting without a maximum took inf."""
    from app.domain.hardware import SettingSpec

    for spec in (SettingSpec("x", "Ratio", "float", 1.0, minimum=0.0, maximum=10.0),
                 SettingSpec("x", "Ratio", "float", 1.0, minimum=0.0)):
        assert spec.check(value) == f"Ratio: expected a finite number, got {value}"
    assert SettingSpec("x", "Ratio", "float", 1.0, minimum=0.0).check(2.5) is None


def test_dell_cache_block_choices(catalog, load_example):
    p = load_example("dell-md3200-hpt")
    p.cache["cache_block_kb"] = 64
    expect(p, catalog, "cache.cache_block_kb", ERROR, "Cache block size must be one of 4, 8, 16, 32")


def test_feature_not_offered(catalog):
    p = base()
    p.features = {"hpt": True}
    expect(p, catalog, "feature hpt", ERROR, "'hpt'", "not offered by the EMC")
    p = base()
    p.scenarios[1].events.append(FeatureEnable("op2", 1.0, feature="hpt"))
    issue = expect(p, catalog, "op2", ERROR, "op2", "'hpt'", "not offered")
    assert issue.scenario == "Ops"


def test_feature_enable_already_enabled(catalog, load_example):
    p = load_example("dell-md3200-hpt")
    p.features["hpt"] = True
    expect(p, catalog, "op1", WARNING, "already enabled")


# ---------------------------------------------------------------- workloads

@pytest.mark.parametrize("field,value,words", [
    ("iops", -10, ("IOPS", "zero or a positive")),
    ("iops", 1e9, ("not a plausible",)),
    ("iops", float("nan"), ("IOPS",)),
    ("read_pct", 120, ("read share", "between 0 and 100")),
    ("read_pct", -1, ("read share",)),
    ("random_pct", 101, ("random share",)),
    ("io_kb", 0, ("I/O size 0", "more than 0")),
    ("io_kb", 32768, ("I/O size", "at most 16384")),
    ("outstanding", -1, ("outstanding", "0 (idle) to")),
    ("outstanding", 70000, ("outstanding", "to 65536")),
    ("outstanding", 2.5, ("outstanding", "whole number")),
    ("mode", "bursty", ("mode 'bursty'",)),
    ("read_hit_pct", 150, ("read cache hit",)),
    ("response_target_ms", -1, ("response-time target",)),
    ("luns", [], ("no LUN",)),
    ("luns", [0, 99], ("LUN 99 does not exist",)),
    ("luns", [0, 1, 0, 0], ("LUN 0 is listed 3 times",)),  # would triple LUN 0's share of the load
])
def test_absurd_workloads(catalog, field, value, words):
    p = base()
    setattr(p.workloads[0], field, value)
    expect(p, catalog, "workload oltp", ERROR, "workload 'oltp'", *words)


def test_workload_change(catalog):
    p = base()
    p.scenarios[1].events.append(WorkloadChange("w1", 1.0, workload="oltp", changes={"read_pct": 300}))
    expect(p, catalog, "w1", ERROR, "workload 'oltp' after the change", "read share")
    p = base()
    p.scenarios[1].events.append(WorkloadChange("w1", 1.0, workload="batch", changes={"iops": 0}))
    expect(p, catalog, "w1", ERROR, "workload 'batch' does not exist")
    p = base()
    p.scenarios[1].events.append(WorkloadChange("w1", 1.0, workload="oltp", changes={"colour": "red"}))
    expect(p, catalog, "w1", ERROR, "no field colour")
    p = base()
    p.scenarios[1].events.append(WorkloadChange("w1", 1.0, workload="oltp", changes={"iops": 0}))
    assert not issues_at(p, catalog, "w1"), "going idle is the documented use of a workload change"
    p = base()
    p.workloads[0].mode = "closed"
    p.scenarios[1].events.append(WorkloadChange("w1", 1.0, workload="oltp", changes={"outstanding": 0}))
    assert not issues_at(p, catalog, "w1"), "a closed loop goes idle with 0 outstanding I/Os"
    p.workloads[0].outstanding = 0
    expect(p, catalog, "workload oltp", WARNING, "0 outstanding", "no load")


# ---------------------------------------------------------------- operations

def ops(p: Project) -> Scenario:
    return p.scenario("Ops")


def test_migration_destination_smaller(catalog):
    p = base()
    ops(p).events[0] = LunMigration("op1", 0.5, source_lun=1, dest_lun=0, priority="High")
    expect(p, catalog, "op1", ERROR, "destination LUN 0 (50 GB) is smaller than source LUN 1 (100 GB)")


def test_migration_onto_itself_missing_and_in_use(catalog):
    p = base()
    ops(p).events[0] = LunMigration("op1", 0.5, source_lun=1, dest_lun=1, priority="High")
    expect(p, catalog, "op1", ERROR, "LUN 1 cannot be migrated onto itself")
    p = base()
    ops(p).events[0] = LunMigration("op1", 0.5, source_lun=8, dest_lun=9, priority="High")
    expect(p, catalog, "op1", ERROR, "source LUN 8 does not exist")
    expect(p, catalog, "op1", ERROR, "destination LUN 9 does not exist")
    p = base()
    p.workloads[0].luns = [0, 1]
    expect(p, catalog, "op1", ERROR, "destination LUN 1 is in use by workload 'oltp'")
    p = base()
    p.luns.append(Lun(3, 2, 100, "SP A"))
    ops(p).events.append(LunMigration("op2", 1.0, source_lun=3, dest_lun=1, priority="High"))
    expect(p, catalog, "op2", ERROR, "already the destination of op1")


def test_priority_not_offered(catalog):
    p = base()
    ops(p).events[0].priority = "Turbo"
    expect(p, catalog, "op1", ERROR, "priority 'Turbo'", "Low, Medium, High, ASAP")
    p = Project("hp-sa6402-msa30")
    p.enclosures = [Enclosure(0, 0, "msa30-sb")]
    for s in range(6):
        p.drives[f"0_0_{s}"] = Drive(f"0_0_{s}", "scsi-10k-36")
    p.groups = [RaidGroup(0, RaidType.R5, [f"0_0_{s}" for s in range(6)])]
    p.scenarios = [Scenario("S", [DriveFailure("op1", 0, drive="0_0_1", priority="ASAP")])]
    expect(p, catalog, "op1", ERROR, "priority 'ASAP'", "High", "Low")


def test_priority_case_is_accepted_with_a_warning_and_runs_at_that_level(catalog):
    """An unknown level is an error; one that differs only in case ("high") is read as the
    platform's level ("High") with a warning naming its spelling, as the engine reads it."""
    from app.engine import simulate

    p = base()
    ops(p).events[0].priority = "Highest"
    expect(p, catalog, "op1", ERROR, "priority 'Highest'", "Low, Medium, High, ASAP")
    p = base()
    ops(p).events[0].priority = "high"
    assert issues_at(p, catalog, "op1", ERROR) == []
    expect(p, catalog, "op1", WARNING, "priority 'high'", "read as 'High'", "Low, Medium, High, ASAP")
    lower = simulate(p, catalog, "Ops").operation("op1")
    ops(p).events[0].priority = "High"
    upper = simulate(p, catalog, "Ops").operation("op1")
    assert lower.priority == "High" and lower.duration_h == upper.duration_h
    p = base()
    ops(p).events[0].priority = "aSaP"
    expect(p, catalog, "op1", WARNING, "read as 'ASAP'")


def test_operation_not_offered(catalog):
    p = base()
    ops(p).events.append(VolumeMigration("op2", 1.0, moves=[[0, 1]]))
    expect(p, catalog, "op2", ERROR, "does not offer volume migration")
    p = base()
    ops(p).events.append(Reallocate("op3", 1.0, lun=0))
    expect(p, catalog, "op3", ERROR, "does not offer WAFL reallocate")


def test_drive_failure_and_replacement(catalog):
    p = base()
    ops(p).events = [DriveFailure("op1", 1.0, drive="9_9_9", priority="High")]
    expect(p, catalog, "op1", ERROR, "drive 9_9_9 does not exist")
    p = base()
    ops(p).events = [DriveReplacement("op1", 1.0, drive="0_0_2")]
    expect(p, catalog, "op1", ERROR, "drive 0_0_2 is replaced but has not failed")
    p = base()
    ops(p).events = [DriveFailure("op1", 1.0, drive="0_0_2", priority="High"),
                     DriveFailure("op2", 2.0, drive="0_0_2", priority="High")]
    expect(p, catalog, "op2", ERROR, "already failed in op1")
    p = base()
    ops(p).events = [DriveFailure("op1", 1.0, drive="0_0_10", priority="High")]
    expect(p, catalog, "op1", WARNING, "hot spare", "spare pool")  # modelled: a what-if (docs/model.md 4.2)
    p = base()
    ops(p).events = [DriveFailure("op1", 1.0, drive="0_0_2", priority="High"),
                     DriveReplacement("op2", 3.0, drive="0_0_2")]
    assert not [i for i in validate(p, catalog) if i.where in ("op1", "op2")]


def test_failures_beyond_what_the_group_survives(catalog):
    p = base()
    ops(p).events = [DriveFailure("op1", 1.0, drive="0_0_1", priority="High"),
                     DriveFailure("op2", 2.0, drive="0_0_3", priority="High")]
    expect(p, catalog, "op2", WARNING, "RG 0 (RAID 5) loses its data", "0_0_1, 0_0_3", "survives 1")
    assert not issues_at(p, catalog, "op1", WARNING)
    p = base()  # RAID 6 survives two; a replacement in between resets the count
    ops(p).events = [DriveFailure("op1", 1.0, drive="1_0_0", priority="High"),
                     DriveFailure("op2", 2.0, drive="1_0_1", priority="High"),
                     DriveReplacement("op3", 3.0, drive="1_0_0"),
                     DriveFailure("op4", 4.0, drive="1_0_2", priority="High")]
    assert not [i for i in validate(p, catalog) if i.where.startswith("op")]


def test_bind_and_start_time(catalog):
    p = base()
    ops(p).events = [Bind("op1", -1.0, lun=12, priority="ASAP")]
    expect(p, catalog, "op1", ERROR, "LUN 12 does not exist")
    expect(p, catalog, "op1", ERROR, "start time -1")


def test_volume_migration_rules(catalog, load_example):
    p = load_example("hitachi-usp600-tiers")
    s = p.scenario()
    s.events = [VolumeMigration("op1", 0.0, moves=[[3, 10], [0, 0], [1, 99], [2, 11], [1, 11]])]
    expect(p, catalog, "op1", ERROR, "target LUN 10 (20 GB) is smaller than source LUN 3 (200 GB)")
    expect(p, catalog, "op1", ERROR, "LUN 0 cannot be migrated onto itself")
    expect(p, catalog, "op1", ERROR, "target volume LUN 99 does not exist")
    expect(p, catalog, "op1", ERROR, "target LUN 11 is the target of 2 moves")
    s.events = [VolumeMigration("op1", 0.0, moves=[])]
    expect(p, catalog, "op1", ERROR, "moves no volume")


def test_reallocate_rules(catalog, load_example):
    p = load_example("netapp-fas-wafl")
    p.scenario().events = [Reallocate("op1", 0.0, lun=5, threshold=0)]
    expect(p, catalog, "op1", ERROR, "LUN 5 does not exist")
    expect(p, catalog, "op1", ERROR, "threshold 0")


def test_scenario_references(catalog):
    p = base()
    p.current_scenario = "Nope"
    expect(p, catalog, "project", ERROR, "current scenario 'Nope'")
    p = base()
    p.baseline_scenario = "Gone"
    expect(p, catalog, "project", ERROR, "baseline scenario 'Gone'")


def test_validate_one_scenario(catalog):
    p = base()
    ops(p).events[0].priority = "Turbo"
    assert any(i.where == "op1" for i in validate(p, catalog))
    assert not any(i.where == "op1" for i in validate(p, catalog, "Baseline"))


def test_errors_come_first_and_never_raise(catalog):
    p = base()
    p.luns[0].capacity_gb = "lots"  # wrong type from a hand-edited file
    p.groups[0].raid = "R9"
    issues = validate(p, catalog)
    sev = [i.severity for i in issues]
    assert sev == sorted(sev, key=lambda s: s != ERROR)
    expect(p, catalog, "LUN 0", ERROR, "capacity 'lots'")
    expect(p, catalog, "RG 0", ERROR, "unknown RAID type")


def test_validation_never_crashes_on_mutated_projects(catalog, example_paths):
    """Random hand-edit-like mutations of the examples: loading either refuses them with a
    ProjectFormatError or gives a project that validate() checks completely (no internal error)."""
    import copy
    import json
    import random

    from app.store.project_json import ProjectFormatError, project_from_dict

    rng = random.Random(20240321)
    bases = [json.loads(p.read_text()) for p in example_paths]
    numbers = [0, -1, 1, 3, 17, 99, 2.5, -0.5, 16385, 1e9]
    strings = ["", "x", "0_0_0", "99_99_99", "0_0", "R5", "R0", "SP A", "ASAP", "hpt", "op1", "fc-15k-73"]

    def leaves(node, prefix=()):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            yield prefix + (k,)
            yield from leaves(v, prefix + (k,))

    checked = 0
    for _ in range(400):
        d = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            path = rng.choice([p for p in leaves(d) if p[0] not in ("format", "version")])
            parent = d
            for k in path[:-1]:
                parent = parent[k]
            cur = parent[path[-1]]
            if isinstance(cur, bool):
                parent[path[-1]] = not cur
            elif isinstance(cur, (int, float)):
                parent[path[-1]] = rng.choice(numbers if isinstance(cur, float) else [n for n in numbers if n == int(n)])
            elif isinstance(cur, str):
                parent[path[-1]] = rng.choice(strings)
            elif isinstance(parent, list) and rng.random() < 0.5:
                parent.pop(path[-1])
        try:
            project = project_from_dict(d)
        except ProjectFormatError:
            continue
        issues = validate(project, catalog)
        assert not [i for i in issues if "could not be fully checked" in i.text], [str(i) for i in issues][:3]
        checked += 1
    assert checked > 100


def test_layout_cache_checks_the_layout_again_only_when_a_container_is_replaced(catalog, monkeypatch):
    from app.domain import validation

    checked = []
    check_layout = validation._Checker.check_layout
    monkeypatch.setattr(validation._Checker, "check_layout",
                        lambda self: checked.append(1) or check_layout(self))
    cache: dict = {}
    p = base()
    p.drives["0_0_3"].hot_spare = True  # a layout error
    p.scenarios[1].events.append(WorkloadChange("w1", 1.0, workload="oltp", changes={"read_pct": 300}))

    def same() -> list[Issue]:
        got = validate(p, catalog, layout_cache=cache)
        assert got == validate(p, catalog)
        return got

    first = same()
    assert any(i.severity == ERROR and i.where == "w1" for i in first)
    n = len(checked)
    p.scenarios = [Scenario("Baseline")]  # an event edit: the layout's issues are reused
    assert same() != first and len(checked) == n + 1  # the uncached call only
    # the events' rules look up the layout (LUNs, workloads) in lookups cached with it
    p.scenarios = [Scenario("Baseline", events=[Bind("b9", 1.0, lun=9),
                                                WorkloadChange("w9", 2.0, workload="w9", changes={"iops": 5.0})])]
    assert any("LUN 9 does not exist" in i.text for i in same())
    p.luns = p.luns + [Lun(9, 7, 50, "SP A")]  # a layout container replaced: checked again
    p.workloads = p.workloads + [Workload("w9", "new", [9])]
    got = same()
    assert any("9" in i.where for i in got)
    assert not any(i.scenario and "does not exist" in i.text for i in got)  # LUN 9 and w9 are found
    p.horizon_h = -1.0  # a value the layout reads
    assert any("horizon" in i.text for i in same())
    p.enclosures = [None]  # a rule trips: reported, and the scenarios are not checked, cached or not
    assert any("could not be fully checked" in i.text for i in same())
    assert len(checked) == n + 2 + 2 * 3  # the two event edits' uncached calls, three replacements


def test_start_time_beyond_ten_years(catalog, load_example):
    """A start past MAX_START_H is refused with a sentence; the latest allowed start still runs."""
    from app.domain.validation import MAX_START_H
    from app.engine.simulate import simulate

    p = base()
    ops(p).events = [LunMigration("op1", 1e6, source_lun=0, dest_lun=1, priority="High")]
    expect(p, catalog, "op1", ERROR, "start time 1,000,000 h", "ten years")
    p = load_example("emc-cx4-960-oltp")  # the engine reaches the limit (it stalled at 700,000 h)
    for e in p.scenario().events:
        e.start_h = MAX_START_H
    assert not [i for i in validate(p, catalog) if i.severity == ERROR and i.where.startswith("op")]
    result = simulate(p, catalog)
    assert all(op.start_h == MAX_START_H and op.end_h > op.start_h for op in result.operations)
