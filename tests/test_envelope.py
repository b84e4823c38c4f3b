"""The validity envelope (app/engine/envelope.py): each rates preset lists what its documents
cover, and a Result says `extrapolated` where a run's inputs lie outside it."""
from __future__ import annotations

import pytest

from app.domain.hardware import Param, Tables
from app.engine import envelope, simulate
from app.engine.cases import build_project
from app.store.project_file import load_project

from conftest import EXAMPLE_PATHS


def extrapolated(r):
    return [a for a in r.advisories if a.code == "extrapolated"]


def run(catalog, spec):
    return simulate(build_project(spec, catalog), catalog)


def emc_rebuild(drives, raid="R5", priority="ASAP", drive="fc-15k-73"):
    return {"platform": "emc-cx4-960-r28",
            "groups": [{"id": 0, "raid": raid, "drives": drives, "drive_type": drive}],
            "spares": [{"drive_type": drive}], "luns": [{"id": 0, "group": 0, "gb": 100}],
            "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0, "drive": "0_0_0", "priority": priority},
                       {"kind": "drive_replacement", "id": "r1", "start_h": 0.1, "drive": "0_0_0"}]}


def hp_rebuild(raid, drives, drive, outstanding=1):
    return {"platform": "hp-sa6402-msa30",
            "groups": [{"id": 0, "raid": raid, "drives": drives, "drive_type": drive}],
            "luns": [{"id": 0, "group": 0, "gb": 30}],
            "workloads": [{"id": "oltp", "name": "oltp", "luns": [0], "mode": "closed", "outstanding": outstanding,
                           "read_pct": 67, "io_kb": 2, "random_pct": 100}],
            "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0, "drive": "0_0_0", "priority": "High"},
                       {"kind": "drive_replacement", "id": "r1", "start_h": 0.01, "drive": "0_0_0"}]}


# ---------------------------------------------------------------- the presets

def test_every_rates_preset_has_a_well_formed_envelope(catalog):
    seen = set()
    for p in catalog.platforms.values():
        rates_id = p.document.get("rates")
        if rates_id in seen:
            continue
        seen.add(rates_id)
        assert isinstance(p.rates.get("envelope"), Tables), f"{rates_id}: no [envelope]"
        assert envelope.problems(p.rates, rates_id) == []
    assert len(seen) >= 6


def test_problems_name_table_and_key():
    def P(v):
        return Param(v, "x", "", "")
    bad = Tables({"envelope": Tables({
        "rebuld": Tables({}),
        "rebuild": Tables({"raid": Tables({"R7": Tables({}), "R5": Tables({"disks": Tables({"min": P(1)}),
                                                                           "width": Tables({"min": P(9), "max": P(3)})})}),
                           "drives": Tables({"PATA": Tables({})}), "iops": Tables({"max": P(1)})}),
    })})
    text = "\n".join(envelope.problems(bad, "my-rates"))
    for part in ("[envelope.rebuld] is not a scope", "[envelope.rebuild.raid.R7]: unknown RAID level",
                 "[envelope.rebuild.raid.R5] disks: unknown key", "[envelope.rebuild.raid.R5.width] has min 9 > max 3",
                 "[envelope.rebuild.drives.PATA]: unknown interface", "[envelope.rebuild] iops: unknown key"):
        assert part in text, part
    assert all(line.startswith("my-rates: ") for line in text.splitlines())


def test_a_rates_table_without_envelope_says_nothing(catalog):
    assert envelope.Envelope(None).tables is None


# ---------------------------------------------------------------- the documented cases

def test_emc_small_parity_group_rebuild_is_extrapolated(catalog):
    """Table 6 lists 4-14 data disks; the 4-row rule for smaller groups is the paper's rule, not
    a measurement: a 2+1 RAID 5 rebuild says so."""
    (adv,) = extrapolated(run(catalog, emc_rebuild(3)))
    assert adv.where == "op1" and adv.severity == "info"
    assert "RAID 5 2+1: data disks 2 (covered: 4-14)" in adv.text
    assert "emc Table 6" in adv.source
    # at an economical priority too: the group was never measured
    assert extrapolated(run(catalog, emc_rebuild(3, priority="High")))


@pytest.mark.parametrize("drives,raid,drive", [(5, "R5", "fc-15k-73"), (15, "R5", "fc-15k-73"),
                                               (6, "R6", "sata-7k2-500"), (8, "R1/0", "fc-10k-400")])
def test_emc_documented_rebuilds_are_not_extrapolated(catalog, drives, raid, drive):
    assert extrapolated(run(catalog, emc_rebuild(drives, raid, drive=drive))) == []


def test_emc_rebuild_of_an_undocumented_raid_level(catalog):
    """RAID 3 is a parity type (emc 'Rebuild overview') but no table gives its rebuild rate."""
    (adv,) = extrapolated(run(catalog, emc_rebuild(5, raid="R3")))
    assert adv.severity == "warning" and "RAID 3 4+1, 5 drives (covered RAID levels: R5, R6, R1/0)" in adv.text


def test_hp_wide_raid6_15k_rebuild_is_extrapolated(catalog):
    advs = {a.where: a for a in extrapolated(run(catalog, hp_rebuild("R6", 14, "scsi-15k-36")))}
    rb = advs["op1"]
    assert rb.severity == "warning"  # a RAID level the brief never measured
    assert "RAID 6 12+2, 14 drives (covered RAID levels: R5)" in rb.text
    assert "SCSI drive speed 15000 rpm (covered: only 10000 rpm)" in rb.text
    assert "RG 0" in advs  # the host I/O on the group too


def test_hp_wide_raid5_rebuild_names_the_width(catalog):
    (rb,) = [a for a in extrapolated(run(catalog, hp_rebuild("R5", 14, "scsi-10k-36"))) if a.where == "op1"]
    assert "RAID 5 13+1: drives in the group 14 (covered: only 6)" in rb.text and rb.severity == "info"


def test_hp_measured_configuration_is_not_extrapolated(catalog):
    assert extrapolated(run(catalog, hp_rebuild("R5", 6, "scsi-10k-36"))) == []


def test_hp_more_outstanding_ios_than_measured(catalog):
    (adv,) = [a for a in extrapolated(run(catalog, hp_rebuild("R5", 6, "scsi-10k-36", outstanding=8)))]
    assert adv.where == "oltp" and "outstanding I/Os 8 (covered: only 1)" in adv.text


def test_emc_host_load_beyond_the_measured_utilization(catalog):
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": 0, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73"}],
            "luns": [{"id": 0, "group": 0, "gb": 100}],
            "workloads": [{"id": "w", "name": "w", "luns": [0], "mode": "open", "iops": iops, "read_pct": 67,
                           "io_kb": 8, "random_pct": 100} for iops in (200,)]}
    light = run(catalog, spec)
    assert extrapolated(light) == []
    spec["workloads"][0]["iops"] = 1200
    (adv,) = extrapolated(run(catalog, spec))
    assert adv.where == "RG 0" and "peak host drive busy" in adv.text and "(covered: 0-85 %)" in adv.text


def test_emc_cache_settings_outside_the_test_configuration(catalog):
    spec = emc_rebuild(5)
    spec["cache"] = {"write_cache_mb": 1000}
    (adv,) = extrapolated(run(catalog, spec))
    assert adv.where == "cache" and "write_cache_mb 1000 (covered: only 3000)" in adv.text


def test_envelope_is_not_an_assumption_of_the_prediction(catalog):
    r = run(catalog, emc_rebuild(3))
    assert not [a for a in r.assumptions if a.path.startswith("envelope")]


@pytest.mark.parametrize("path", EXAMPLE_PATHS, ids=[p.stem for p in EXAMPLE_PATHS])
def test_shipped_examples_are_inside_the_envelope(path, catalog):
    project = load_project(path)
    for sc in project.scenarios:
        assert extrapolated(simulate(project, catalog, sc.name)) == [], sc.name


def test_a_user_rates_file_with_a_malformed_envelope_is_reported(tmp_path):
    from app.store.presets import builtin_presets_dir, load_catalog

    builtin = builtin_presets_dir()
    rates = (builtin / "rates" / "smartarray-6402.toml").read_text()
    rates = rates.replace('rates_id = "smartarray-6402"', 'rates_id = "my-rates"')
    rates += '\n[envelope.rebuild.raid.R9]\nsource = "lab"\nwidth = { min = 3, max = 4 }\n'
    (tmp_path / "my-rates.toml").write_text(rates)
    platform = (builtin / "platforms" / "hp-sa6402-msa30.toml").read_text()
    platform = platform.replace('id = "hp-sa6402-msa30"', 'id = "my-hp"').replace(
        'rates = "smartarray-6402"', 'rates = "my-rates"')
    (tmp_path / "my-hp.toml").write_text(platform)
    catalog = load_catalog(user_dir=tmp_path)
    assert "my-hp" in catalog.platforms  # still usable
    (msg,) = [p for p in catalog.problems if "envelope" in p]
    assert "my-hp.toml (rates my-rates)" in msg and "[envelope.rebuild.raid.R9]: unknown RAID level" in msg
