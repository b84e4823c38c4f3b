"""Failure semantics per RAID level (docs/model.md 4.2): which failures lose data, what a lost
group and its LUNs do, and the edge cases (a failed drive failing again, a hot spare failing, a
failure during a rebuild of the same group, two groups failing on one bus)."""
from __future__ import annotations

import math

import pytest

from app.domain.raid import RaidMath, RaidType
from app.engine import simulate
from app.engine.cases import build_project


def _spec(raid, n, fails, spares=0, iops=300.0, horizon=6.0, prio="High", groups=1, platform="emc-cx4-960-r28",
          drive="fc-15k-73", replace=()):
    spec = {"platform": platform,
            "groups": [{"id": i, "raid": raid, "drives": n, "drive_type": drive, "buses": [0]} for i in range(groups)],
            "spares": [{"drive_type": drive, "bus": 0, "count": spares}] if spares else [],
            "luns": [{"id": i, "group": i, "gb": 100} for i in range(groups)],
            "workloads": [{"id": f"w{i}", "name": f"w{i}", "luns": [i], "mode": "open", "iops": iops,
                           "read_pct": 60, "io_kb": 8, "random_pct": 100} for i in range(groups)],
            "events": [{"kind": "drive_failure", "id": f"f{i}", "start_h": t, "drive": d, "priority": prio}
                       for i, (d, t) in enumerate(fails)]
            + [{"kind": "drive_replacement", "id": f"r{i}", "start_h": t, "drive": d} for i, (d, t) in enumerate(replace)],
            "horizon_h": horizon}
    return spec


def run(catalog, *args, **kw):
    return simulate(build_project(_spec(*args, **kw), catalog), catalog)


def codes(r, code):
    return [a for a in r.advisories if a.code == code]


def lost(r):
    return codes(r, "data-loss")


# ---------------------------------------------------------------- the rule, per RAID level

@pytest.mark.parametrize("raid,width,down,loses", [
    (RaidType.R0, 4, {2}, True),
    (RaidType.R1, 2, {0}, False),
    (RaidType.R1, 2, {0, 1}, True),
    (RaidType.R10, 8, {0, 2, 4, 6}, False),  # one drive of every pair: survives
    (RaidType.R10, 8, {2, 3}, True),  # both drives of the second pair
    (RaidType.R5, 5, {1}, False),
    (RaidType.R5, 5, {0, 4}, True),
    (RaidType.R6, 6, {0, 5}, False),
    (RaidType.R6, 6, {0, 1, 5}, True),
    (RaidType.RAID_DP, 8, {3, 4}, False),
    (RaidType.RAID_DP, 8, {1, 3, 4}, True),
])
def test_loses_data_rule(raid, width, down, loses):
    assert RaidMath(raid, width).loses_data(down) is loses


def test_mirror_pairs_follow_member_order():
    m = RaidMath(RaidType.R10, 6)
    assert [m.mirror_partner(k) for k in range(6)] == [1, 0, 3, 2, 5, 4]
    assert m.failures_tolerated == 1 and m.failures_tolerated_best == 3


# ---------------------------------------------------------------- the engine

def test_raid10_failures_in_different_pairs_keep_the_data(catalog):
    # members 0_0_0..0_0_3 pair up 0-1 and 2-3: 0_0_0 and 0_0_2 are in different pairs
    r = run(catalog, "R1/0", 4, [("0_0_0", 0.0), ("0_0_2", 0.5)], spares=2, iops=100)
    assert not lost(r)
    for op in ("f0", "f1"):
        assert [p.name for p in r.operation(op).phases][0] == "rebuild"
    assert r.get("iops", "w0").at(1.0) == pytest.approx(100)


def test_raid10_both_drives_of_a_pair_lose_the_data(catalog):
    r = run(catalog, "R1/0", 4, [("0_0_0", 0.0), ("0_0_1", 0.5)], spares=2, iops=100)
    (adv,) = lost(r)
    assert adv.severity == "error" and adv.where == "RG 0"
    assert "mirror pair" in adv.text and "0_0_0, 0_0_1" in adv.text


def test_raid10_partner_is_the_rebuild_source(catalog):
    """The mirror rebuild reads the failed drive's partner (emc Figure 2: only the mirroring
    drive is busy): 0_0_2's partner is 0_0_3."""
    r = run(catalog, "R1/0", 4, [("0_0_2", 0.0)], spares=1, iops=0.0, prio="ASAP")
    busy = {d: r.get("drive_pct", d).at(0.05) for d in ("0_0_0", "0_0_1", "0_0_3")}
    assert busy["0_0_3"] > 50 and busy["0_0_0"] < 1 and busy["0_0_1"] < 1


def test_raid0_failure_loses_the_group_without_rebuild(catalog):
    r = run(catalog, "R0", 4, [("0_0_0", 0.0)], spares=1)
    (adv,) = lost(r)
    assert "LUNs: 0" in adv.text and "w0" in adv.text
    op = r.operation("f0")
    assert op.phases == [] and op.end_h == 0.0  # no rebuild: nothing to rebuild from
    assert r.get("iops", "w0").at(1.0) == 0.0
    assert math.isnan(r.get("response_ms", "w0").at(1.0))
    # the spare was never taken
    assert r.get("drive_pct", "0_0_4").at(1.0) == 0.0


def test_raid5_double_failure_stops_io_and_the_rebuild(catalog):
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_1", 0.5)], spares=2, prio="Low", iops=300)
    (adv,) = lost(r)
    assert adv.severity == "error"
    assert "RG 0" in adv.text and "LUNs: 0" in adv.text and "w0" in adv.text
    assert r.get("iops", "w0").at(0.25) == pytest.approx(300)
    assert r.get("iops", "w0").at(1.0) == 0.0
    assert math.isnan(r.get("response_ms", "w0").at(1.0))
    f0 = r.operation("f0")
    assert f0.end_h == pytest.approx(0.5) and f0.phases[-1].name == "rebuild (data lost)"
    assert r.operation("f1").phases == []
    # the group's drives carry no host I/O after the loss
    assert r.get("group_pct", "0").at(1.0) == pytest.approx(0.0, abs=1e-9)


def test_a_lost_lun_only_takes_its_share_of_a_workload(catalog):
    """A workload on a lost LUN and a healthy one keeps the healthy LUN's I/O."""
    spec = _spec("R5", 5, [("0_0_0", 0.0), ("0_0_1", 0.5)], groups=2, iops=200)
    spec["workloads"] = [{"id": "w", "name": "w", "luns": [0, 1], "mode": "open", "iops": 200, "read_pct": 60,
                          "io_kb": 8, "random_pct": 100}]
    r = simulate(build_project(spec, catalog), catalog)
    assert r.get("iops", "w").at(0.25) == pytest.approx(200)
    assert r.get("iops", "w").at(1.0) == pytest.approx(100)
    assert r.get("lun_response_ms", "1").at(1.0) > 0
    assert math.isnan(r.get("lun_response_ms", "0").at(1.0))


def test_raid6_survives_two_failures_and_loses_data_at_three(catalog):
    two = run(catalog, "R6", 6, [("0_0_0", 0.0), ("0_0_1", 0.3)], spares=3, iops=100)
    assert not lost(two)
    assert two.get("iops", "w0").at(1.0) == pytest.approx(100)
    three = run(catalog, "R6", 6, [("0_0_0", 0.0), ("0_0_1", 0.1), ("0_0_2", 0.2)], spares=3, iops=100)
    (adv,) = lost(three)
    assert "0_0_0, 0_0_1, 0_0_2" in adv.text
    assert three.get("iops", "w0").at(1.0) == 0.0
    assert three.operation("f0").phases[-1].name == "rebuild (data lost)"
    assert three.operation("f1").phases[-1].name == "rebuild (data lost)"


def test_a_rebuilt_drive_no_longer_counts(catalog):
    """A second RAID 5 failure after the first rebuild finished is a new single failure."""
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_1", 5.0)], spares=2, iops=0.0, prio="ASAP", horizon=8)
    assert r.operation("f0").phases[0].end_h < 5.0
    assert not lost(r)


def test_failure_of_an_already_failed_drive_changes_nothing(catalog):
    once = run(catalog, "R5", 5, [("0_0_0", 0.0)], spares=1)
    twice = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_0", 0.5)], spares=1)
    assert codes(twice, "already-failed") and not lost(twice)
    assert twice.operation("f1").phases == []
    assert twice.operation("f0").phases[0].end_h == pytest.approx(once.operation("f0").phases[0].end_h)


def test_hot_spare_failure_restarts_the_rebuild_on_another_spare(catalog):
    # spares are 0_0_5 (taken first) and 0_0_6
    one = run(catalog, "R5", 5, [("0_0_0", 0.0)], spares=2, iops=0.0)
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_5", 0.3)], spares=2, iops=0.0)
    assert codes(r, "spare-failed") and not lost(r)
    names = [p.name for p in r.operation("f0").phases]
    assert names[:2] == ["rebuild (spare failed)", "rebuild"]
    rb = [p for p in r.operation("f0").phases if p.name == "rebuild"][0]
    first = [p for p in one.operation("f0").phases if p.name == "rebuild"][0]
    assert rb.start_h == pytest.approx(0.3)
    assert rb.end_h == pytest.approx(first.end_h + 0.3, rel=1e-6)  # from the start again
    assert r.get("drive_pct", "0_0_6").at(0.5) > 0


def test_hot_spare_failure_without_another_spare_waits_for_replacement(catalog):
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_5", 0.3)], spares=1, iops=0.0, replace=[("0_0_0", 3.0)])
    names = [p.name for p in r.operation("f0").phases]
    assert names[:3] == ["rebuild (spare failed)", "degraded", "rebuild"]
    assert not lost(r)


def test_idle_spare_failure_takes_it_out_of_the_pool(catalog):
    r = run(catalog, "R5", 5, [("0_0_5", 0.0), ("0_0_0", 0.5)], spares=1, iops=0.0)
    assert codes(r, "spare-failed") and codes(r, "no-hot-spare")
    assert r.operation("f1").phases[0].name == "degraded"


def test_failure_of_the_spare_standing_in(catalog):
    """The spare rebuilt into the group fails before equalization: the first rebuild stops (its
    spare has nothing to give), and the spare's slot is rebuilt again like any member's."""
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_5", 4.0)], spares=2, iops=0.0, prio="ASAP", horizon=9)
    f0 = r.operation("f0")
    assert [p.name for p in f0.phases][-1] == "wait for replacement (spare failed)"
    assert not lost(r)
    assert r.operation("f1").phases[0].name == "rebuild"


def test_second_group_on_the_same_bus(catalog):
    """Two groups on one bus fail at once, one spare: the first takes it, the second waits for
    its replacement; both groups keep their data and their I/O."""
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_5", 0.0)], spares=1, groups=2, iops=100,
            replace=[("0_0_5", 2.0)])
    assert not lost(r)
    assert r.operation("f0").phases[0].name == "rebuild"
    assert [p.name for p in r.operation("f1").phases][:2] == ["degraded", "rebuild"]
    assert r.get("iops", "w0").at(1.0) == pytest.approx(100) and r.get("iops", "w1").at(1.0) == pytest.approx(100)


def test_failure_in_a_lost_group_and_replacement_change_nothing(catalog):
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_1", 0.5), ("0_0_2", 1.0)], spares=0,
            replace=[("0_0_0", 2.0), ("0_0_1", 2.0)])
    assert len(lost(r)) == 1 and codes(r, "lost-group-failure")
    assert r.get("iops", "w0").at(3.0) == 0.0  # a replacement does not bring the data back


def test_a_migration_onto_a_lost_group_stops_and_the_source_stays(catalog):
    spec = _spec("R5", 5, [("0_0_5", 0.5), ("0_0_6", 0.6)], groups=2, iops=100)
    spec["workloads"] = spec["workloads"][:1]
    spec["luns"].append({"id": 2, "group": 1, "gb": 200})
    spec["events"].append({"kind": "lun_migration", "id": "m", "start_h": 0.0, "source_lun": 0, "dest_lun": 2,
                           "priority": "Low"})
    r = simulate(build_project(spec, catalog), catalog)
    (adv,) = lost(r)
    assert adv.where == "RG 1"
    m = r.operation("m")
    assert m.end_h == pytest.approx(0.6) and m.phases[-1].name.endswith("(data lost)")
    assert r.get("iops", "w0").at(2.0) == pytest.approx(100)  # the source LUN on RG 0 is untouched


def test_a_lost_group_has_no_mttdl(catalog):
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_1", 0.5)], spares=2, groups=2)
    assert 0 not in r.mttdl_h and 1 in r.mttdl_h


def test_progress_of_a_stopped_rebuild_stays_at_its_part(catalog):
    r = run(catalog, "R5", 5, [("0_0_0", 0.0), ("0_0_1", 0.1)], spares=2, iops=0.0)
    f0 = r.get("progress_pct", "f0")
    assert 0 < f0.at(0.1) < 100 and f0.at(3.0) == pytest.approx(f0.at(0.1))
    assert r.get("progress_pct", "f1").at(3.0) == 0.0
    assert "loses its data" in r.operation("f1").label
