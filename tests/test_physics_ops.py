"""Operations behave like physics away from the documents (issue 20, operations part).

Each test is the corrected form of a behaviour seen before the policy rework (docs/model.md §4):
rebuild time smooth and monotone in host load, durations that move with geometry, a higher
priority never finishing later, RAID 6 not rebuilding faster than RAID 5 of the same width,
no centre above 100% with the limiting centre named, every offered operation predicted, and
an unknown priority level an error rather than a silent fallback."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.domain.policies import POLICY_KINDS, policy_problems
from app.engine import simulate
from app.engine.cases import build_project

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- builders

def hp_project(catalog, *, width=6, raid="R5", drive="scsi-10k-36", load=None, prio="High", bound=1.0,
               buses=(0,), horizon_h=None):
    """One HP Smart Array group, drive 2 fails at 0.05 h and is replaced at 0.1 h (no spare, as
    in hp Tables 1-2); `load`: None (idle), ("open", IOPS) or ("closed", outstanding)."""
    data = {"R5": width - 1, "R6": width - 2, "R1/0": width // 2}[raid]
    gb = 36.4 * data * bound
    spec = {
        "platform": "hp-sa6402-msa30",
        "groups": [{"id": 0, "raid": raid, "drives": width, "drive_type": drive, "buses": list(buses)}],
        "luns": [{"id": 0, "group": 0, "gb": gb}],
        "workloads": [],
        "events": [
            {"kind": "drive_failure", "id": "op1", "start_h": 0.05, "drive": "0_0_1", "priority": prio},
            {"kind": "drive_replacement", "id": "op2", "start_h": 0.1, "drive": "0_0_1"},
        ],
    }
    if horizon_h:
        spec["horizon_h"] = horizon_h
    if load is not None:
        mode, n = load
        w = {"id": "oltp", "name": "OLTP", "luns": [0], "mode": mode, "read_pct": 67, "io_kb": 2, "random_pct": 100}
        if mode == "open":
            w.update(iops=float(n), outstanding=1)
        else:
            w.update(iops=0.0, outstanding=int(n))
        spec["workloads"] = [w]
    return build_project(spec, catalog)


def rebuild_h(res, op="op1"):
    ph = [p for p in res.operation(op).phases if p.name == "rebuild"]
    assert ph, f"no rebuild phase in {res.operation(op).phases}"
    return ph[0].duration_h


def codes(res):
    return {a.code for a in res.advisories}


# ---------------------------------------------------------------- 1. smooth, monotone in host load

def test_hp_rebuild_is_a_smooth_monotone_function_of_host_load(catalog):
    idle = rebuild_h(simulate(hp_project(catalog), catalog))
    loads = [("open", x) for x in (0.1, 1, 10, 30, 60, 120, 1000)] + [("closed", 1), ("closed", 8)]
    times = [rebuild_h(simulate(hp_project(catalog, load=ld), catalog)) for ld in loads]
    # one I/O every 10 s barely slows a rebuild (the host contends for 0.05% of the time)
    assert times[0] == pytest.approx(idle, rel=0.01)
    # more offered load never speeds the rebuild up
    for (la, ta), (lb, tb) in zip(zip(loads, times), zip(loads[1:], times[1:])):
        if la[0] == lb[0]:
            assert tb >= ta * (1 - 1e-6), f"{lb} rebuilds faster than {la}: {tb} < {ta}"
    # and no jump: 1 IOPS is within a few percent of 0.1 IOPS
    assert times[1] == pytest.approx(times[0], rel=0.02)
    # a busy host (hp Table 1's closed loop) slows it down a lot
    assert times[7] > 3 * idle


def test_hp_low_priority_finishes_under_a_trickle(catalog):
    idle = rebuild_h(simulate(hp_project(catalog, prio="Low"), catalog))
    res = simulate(hp_project(catalog, prio="Low", load=("open", 0.1)), catalog)
    assert res.operation("op1").end_h is not None
    assert rebuild_h(res) == pytest.approx(idle, rel=0.01)


# ---------------------------------------------------------------- 2. geometry moves durations

def test_hp_rebuild_moves_with_width_raid_rpm_and_capacity(catalog):
    def t(**kw):
        return rebuild_h(simulate(hp_project(catalog, **kw), catalog))

    w3, w6, w12, w14 = t(width=3), t(width=6), t(width=12), t(width=14)
    assert w3 < w6 < w12 < w14  # more survivors to wait for; N MB over the one bus per MB
    # 14 drives on one Ultra320 channel: the bus carries 14 MB per MB rebuilt (hp 'Array size')
    assert 36.4 * 1024 / (w14 * 3600) <= 320 / 14 * (1 + 1e-6)
    # a mirror copies from one partner: faster than a parity rebuild of the same width
    assert t(width=6, raid="R1/0") < w6
    # RAID 6 reads as many survivors and computes two parities: not faster than RAID 5
    assert t(width=6, raid="R6") >= w6 * (1 - 1e-9)
    # faster drives rebuild faster
    assert t(drive="scsi-15k-36") < w6
    # half the data bound: about half the time
    assert t(bound=0.5) == pytest.approx(w6 / 2, rel=0.02)


# ---------------------------------------------------------------- 3. priority order

def emc_migration(catalog, prio, iops):
    spec = {
        "platform": "emc-cx4-960-r28",
        "cache": {"write_cache_mb": 3000},
        "groups": [{"id": g, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [g % 8]}
                   for g in range(4)],
        "luns": [{"id": 0, "group": 0, "gb": 20}, {"id": 1, "group": 1, "gb": 40},
                 {"id": 2, "group": 0, "gb": 100}, {"id": 3, "group": 1, "gb": 100},
                 {"id": 4, "group": 2, "gb": 100}, {"id": 5, "group": 3, "gb": 100}],
        "workloads": [{"id": "oltp", "name": "OLTP", "luns": [2, 3, 4, 5], "mode": "open", "iops": float(iops),
                       "read_pct": 67, "io_kb": 8, "random_pct": 100, "read_hit_pct": 45}] if iops else [],
        "events": [{"kind": "lun_migration", "id": "op1", "start_h": 0.0, "source_lun": 0, "dest_lun": 1,
                    "priority": prio}],
        "horizon_h": 400,
    }
    return build_project(spec, catalog)


@pytest.mark.parametrize("iops", [0, 800, 1600, 2000, 2300])
def test_emc_migration_higher_priority_never_finishes_later(catalog, iops):
    levels = catalog.platform("emc-cx4-960-r28").operations["lun_migration"].priorities
    durs = []
    for prio in levels:
        res = simulate(emc_migration(catalog, prio, iops), catalog)
        d = res.operation("op1").duration_h
        durs.append(float("inf") if d is None else d)
    for (a, da), (b, db) in zip(zip(levels, durs), zip(levels[1:], durs[1:])):
        assert db <= da * (1 + 1e-6), f"{iops} IOPS: {b} takes {db:.3f} h, {a} {da:.3f} h"


def oltp_migration_hours(catalog, prio, iops):
    """The OLTP example's dependent migration (emc 'Cumulative effects on performance') at
    `prio` with the OLTP workload at `iops` (the issue's own set-up)."""
    from dataclasses import replace

    from app.store.project_file import load_project
    p = load_project(ROOT / "presets" / "examples" / "emc-cx4-960-oltp.json")
    p.workloads = [replace(w, iops=float(iops)) if w.id == "oltp" else w for w in p.workloads]
    sc = next(s for s in p.scenarios if s.name == "Dependent ASAP migration")
    sc.events = [replace(e, priority=prio) for e in sc.events]
    d = simulate(p, catalog, sc.name).operation(sc.events[0].id).duration_h
    return float("inf") if d is None else d


def test_emc_oltp_migration_asap_beats_the_levels_the_issue_compared(catalog):
    """Issue 20 point 3 as observed: at 8,500 IOPS ASAP took 6.61 h, longer than Low (6.32 h);
    at 7,490 IOPS ASAP 2.63 h against High 1.67 h."""
    assert oltp_migration_hours(catalog, "ASAP", 8500) < oltp_migration_hours(catalog, "Low", 8500)
    assert oltp_migration_hours(catalog, "ASAP", 7490) < oltp_migration_hours(catalog, "High", 7490)


@pytest.mark.parametrize("iops", [0, 5000, 7490, 8200, 8400, 8500, 8600, 8700, 9000])
def test_emc_oltp_migration_levels_in_order(catalog, iops):
    """Every level of the OLTP example's dependent migration, near and past the saturation of its
    groups. The ASAP copy and expansion run one after the other (emc 'Migration duration': 'Table 2
    for ASAP'), the economical levels overlap them; before every level kept a share of the drive
    time (min_share), the host held the ASAP copy to the rate it held High's and ASAP's serial
    expansion ended later (8,500: 2.47 vs 2.43 h; 8,700: 7.42 vs 4.67 h)."""
    levels = catalog.platform("emc-cx4-960-r28").operations["lun_migration"].priorities
    durs = [oltp_migration_hours(catalog, lv, iops) for lv in levels]
    for (a, da), (b, db) in zip(zip(levels, durs), zip(levels[1:], durs[1:])):
        assert db <= da * (1 + 1e-6), f"{iops} IOPS: {b} takes {db:.3f} h, {a} {da:.3f} h"


@pytest.mark.parametrize("platform,drive", [("emc-cx4-960-r28", "fc-15k-73"), ("dell-md3200", None),
                                            ("netapp-fas-ontap", None), ("hp-sa6402-msa30", "scsi-10k-36")])
@pytest.mark.parametrize("load", [0.0, 0.33, 0.66])
def test_rebuild_higher_priority_never_finishes_later(catalog, platform, drive, load):
    # loads below what the group's host I/O alone saturates (RAID-DP's dedicated parity
    # leaves 4 of the 6 drives to the host)
    iops = load * (100 if platform.startswith("netapp") else 300)
    p = catalog.platform(platform)
    drive = drive or p.drive_types[0]
    raid = "RAID-DP" if platform.startswith("netapp") else "R5"
    levels = p.operations["drive_failure"].priorities
    durs = []
    for prio in levels:
        spec = {"platform": platform,
                "groups": [{"id": 0, "raid": raid, "drives": 6, "drive_type": drive}],
                "luns": [{"id": 0, "group": 0, "gb": 50}],
                "workloads": [{"id": "w", "name": "w", "luns": [0], "mode": "open", "iops": float(iops),
                               "read_pct": 67, "io_kb": 8, "random_pct": 100}] if iops else [],
                "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0.0, "drive": "0_0_1", "priority": prio},
                           {"kind": "drive_replacement", "id": "op2", "start_h": 0.0, "drive": "0_0_1"}],
                "horizon_h": 2000}
        res = simulate(build_project(spec, catalog), catalog)
        d = res.operation("op1").duration_h
        durs.append(float("inf") if d is None else d)
    assert all(d < float("inf") for d in durs[-1:]), f"{platform}: the top level never finishes: {durs}"
    for (a, da), (b, db) in zip(zip(levels, durs), zip(levels[1:], durs[1:])):
        assert db <= da * (1 + 1e-6), f"{platform} {iops} IOPS: {b} {db:.3f} h > {a} {da:.3f} h"


# ---------------------------------------------------------------- 7. RAID 6 vs RAID 5 of the same width

def test_emc_raid6_does_not_rebuild_faster_than_raid5_of_the_same_drives(catalog):
    def rate(raid):
        spec = {"platform": "emc-cx4-960-r28",
                "groups": [{"id": 0, "raid": raid, "drives": 8, "drive_type": "fc-15k-73", "buses": [0, 1]}],
                "spares": [{"drive_type": "fc-15k-73", "bus": 0}],
                "luns": [{"id": 0, "group": 0, "gb": 100}],
                "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0.0, "drive": "0_0_2", "priority": "ASAP"}]}
        res = simulate(build_project(spec, catalog), catalog)
        ph = [p for p in res.operation("op1").phases if p.name == "rebuild"][0]
        return ph.avg_mb_s

    # 6+2 rebuilds a lost chunk from 6 chunks, 7+1 from 7: RAID 6 may gain at most that ratio
    # (today 74 vs 43 MB/s from emc Table 6's probably misprinted 8-data-disk R6 row)
    assert rate("R6") <= rate("R5") * 7 / 6 * (1 + 1e-9)


def test_emc_raid6_is_never_faster_than_raid5_with_as_many_data_disks(catalog):
    def rate(raid, drives):
        spec = {"platform": "emc-cx4-960-r28",
                "groups": [{"id": 0, "raid": raid, "drives": drives, "drive_type": "fc-15k-73", "buses": [0, 1]}],
                "spares": [{"drive_type": "fc-15k-73", "bus": 0}],
                "luns": [{"id": 0, "group": 0, "gb": 100}],
                "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0.0, "drive": "0_0_2", "priority": "ASAP"}]}
        res = simulate(build_project(spec, catalog), catalog)
        return [p for p in res.operation("op1").phases if p.name == "rebuild"][0].avg_mb_s

    for data in (4, 6, 8, 10, 14):
        assert rate("R6", data + 2) <= rate("R5", data + 1) * (1 + 1e-9), data
    assert rate("R6", 10) == pytest.approx(43.0, rel=1e-6)  # the 74 of Table 6 capped at R5 8+1


# ---------------------------------------------------------------- 9. contention, limiting centre

def test_two_asap_migrations_share_the_sp_cpu(catalog):
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": g, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [g]} for g in range(4)],
            "luns": [{"id": 0, "group": 0, "gb": 50}, {"id": 1, "group": 1, "gb": 50},
                     {"id": 2, "group": 2, "gb": 50}, {"id": 3, "group": 3, "gb": 50}],
            "events": [{"kind": "lun_migration", "id": "m1", "start_h": 0.0, "source_lun": 0, "dest_lun": 1,
                        "priority": "ASAP"},
                       {"kind": "lun_migration", "id": "m2", "start_h": 0.0, "source_lun": 2, "dest_lun": 3,
                        "priority": "ASAP"}]}
    res = simulate(build_project(spec, catalog), catalog)
    cpu = res.get("cpu_pct", "SP A/0")
    assert cpu is not None and float(cpu.v.max()) <= 100.0 + 1e-6
    for op in ("m1", "m2"):
        copy = [p for p in res.operation(op).phases if p.name == "copy"][0]
        assert copy.avg_mb_s < 170 * 0.95  # the two copies ask ~120% of CPU 0: both slow down
        assert copy.limited_by == "cpu SP A/0"


def test_rebuild_phase_names_its_limiting_centre(catalog):
    res = simulate(hp_project(catalog, width=14), catalog)
    ph = [p for p in res.operation("op1").phases if p.name == "rebuild"][0]
    assert ph.limited_by.startswith("bus"), ph.limited_by
    res = simulate(hp_project(catalog, load=("closed", 1)), catalog)
    ph = [p for p in res.operation("op1").phases if p.name == "rebuild"][0]
    assert ph.limited_by.startswith("policy"), ph.limited_by


# ---------------------------------------------------------------- B. every offered operation predicted

@pytest.mark.parametrize("platform", ["dell-md3200", "netapp-fas-ontap", "hitachi-usp600-ams500"])
def test_rebuild_without_platform_rates_uses_the_generic_model(catalog, platform):
    p = catalog.platform(platform)
    raid = "RAID-DP" if platform.startswith("netapp") else "R5"
    spec = {"platform": platform,
            "groups": [{"id": 0, "raid": raid, "drives": 5, "drive_type": p.drive_types[0]}],
            "luns": [{"id": 0, "group": 0, "gb": 50}],
            "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0.0, "drive": "0_0_1",
                        "priority": p.operations["drive_failure"].default},
                       {"kind": "drive_replacement", "id": "op2", "start_h": 0.0, "drive": "0_0_1"}],
            "horizon_h": 1000}
    res = simulate(build_project(spec, catalog), catalog)
    op = res.operation("op1")
    assert op.end_h is not None and 0 < op.duration_h < 100
    assert "generic-model" in codes(res) and "no-rebuild-rates" not in codes(res)


# ---------------------------------------------------------------- A. policies

def test_unknown_priority_is_an_error_not_the_slowest_level(catalog):
    res = simulate(hp_project(catalog, prio="Highest"), catalog)
    assert "unknown-priority" in codes(res)
    assert res.operation("op1").end_h is None  # not predicted at some other level
    adv = [a for a in res.advisories if a.code == "unknown-priority"][0]
    assert adv.severity == "error" and "Highest" in adv.text and "High" in adv.text


def test_five_level_scale_orders_durations(catalog):
    # Dell MDSM's five levels (slowest first) run and order their durations (generic model)
    test_rebuild_higher_priority_never_finishes_later(catalog, "dell-md3200", None, 0.66)


def test_shipped_rates_presets_have_valid_policy_tables(catalog):
    for pid, p in catalog.platforms.items():
        assert policy_problems(p.rates_document, p.operations, f"rates of {pid}") == []


def test_policy_problems_name_file_table_and_key():
    ops = {"drive_failure": type("S", (), {"priorities": ("Low", "High")})()}
    doc = {"policy": {"rebuild": {"Low": {"kind": "idle_only", "trickle_mb_s": -1},
                                  "High": {"kind": "warp"},
                                  "Urgent": {"kind": "cap", "mb_s": 5}}}}
    probs = policy_problems(doc, ops, "my.toml")
    text = "\n".join(probs)
    assert "my.toml" in text
    assert "[policy.rebuild.Low] trickle_mb_s" in text
    assert "[policy.rebuild.High] kind" in text and "warp" in text
    assert "[policy.rebuild.Urgent]" in text and "not a priority" in text
    assert set(POLICY_KINDS) == {"cap", "asap", "share", "idle_only", "duty_cycle", "window"}
    # a table the schema replaced is reported, not silently ignored
    old = policy_problems({"migration": {"economical": {"High": 5.0}}}, ops, "user.toml")
    assert len(old) == 1 and "[migration.economical] is no longer read" in old[0]


def test_no_vendor_branches_in_the_operations_engine():
    # every engine module (ops.py, op_*.py and the host and placement code they call), not ops.py alone
    paths = sorted((ROOT / "app" / "engine").glob("*.py"))
    assert any(p.name == "op_rebuild.py" for p in paths)
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for vendor in ("smartarray", "clariion", '"usp"', '"ontap"', '"md32xx"'):
            assert vendor not in text, f"{path.name} branches on {vendor}"


# ---------------------------------------------------------------- D. no import circle

def test_ops_does_not_import_simulate():
    paths = [p for p in (ROOT / "app" / "engine").rglob("*.py") if p.stem.startswith("ops") or p.parent.name == "ops"]
    assert paths
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("simulate", "app.engine.simulate") and not (
                    node.level and node.module == "simulate"), f"{path.name} imports simulate"


def test_rebuilds_sharing_one_bus_never_take_more_than_it_carries(catalog):
    # three R5 4+1 groups on bus 0 lose a drive each at once: at ASAP each alone would move
    # 5 x 57 = 285 MB/s over the 400 MB/s bus (emc Table 6 low end)
    n = 3
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": g, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [0], "enclosure": g}
                       for g in range(n)],
            "spares": [{"drive_type": "fc-15k-73", "bus": 0, "enclosure": n, "count": n}],
            "luns": [{"id": g, "group": g, "gb": 60, "owner": "SP A" if g % 2 == 0 else "SP B"} for g in range(n)],
            "events": [{"kind": "drive_failure", "id": f"f{g}", "start_h": 0.0, "drive": f"0_{g}_1", "priority": "ASAP"}
                       for g in range(n)]}
    res = simulate(build_project(spec, catalog), catalog)
    assert float(res.get("bus_pct", "0").v.max()) <= 100.0 + 1e-6
    rates = [[p for p in res.operation(f"f{g}").phases if p.name == "rebuild"][0].avg_mb_s for g in range(n)]
    assert rates[0] == pytest.approx(57.0, rel=1e-6)  # placed first: the Table 6 rate
    assert rates[2] < rates[0] * 0.9  # the later ones wait for bus time


def test_window_policy_guarantees_its_minimum_and_keeps_its_maximum(tmp_path):
    """A user platform with a Linux md style window for High rebuilds (speed_limit_min/max)."""
    from app.store.presets import builtin_presets_dir, load_catalog

    src = (builtin_presets_dir() / "platforms" / "hp-sa6402-msa30.toml").read_text()
    src = src.replace('id = "hp-sa6402-msa30"', 'id = "md-window"')
    src += ('\n[rates_override.policy.rebuild.High]\nkind = "window"\nsource = "test: md speed limits"\n'
            'min_mb_s = 5.0\nmax_mb_s = 20.0\n')
    (tmp_path / "md.toml").write_text(src)
    cat = load_catalog(builtin_presets_dir(), user_dir=tmp_path)
    assert cat.problems == ()

    def rate(load):
        spec = hp_project(cat, load=load)
        spec.platform_id = "md-window"
        res = simulate(spec, cat)
        return [p for p in res.operation("op1").phases if p.name == "rebuild"][0].avg_mb_s

    assert rate(None) == pytest.approx(20.0, rel=1e-6)  # idle: the maximum, below the drives' 33 MB/s
    assert rate(("closed", 64)) >= 5.0 * (1 - 1e-6)  # a saturating host: still the minimum


def test_policy_with_an_unknown_kind_is_refused_with_file_and_key(tmp_path):
    from app.store.presets import builtin_presets_dir, load_catalog

    src = (builtin_presets_dir() / "platforms" / "hp-sa6402-msa30.toml").read_text()
    src = src.replace('id = "hp-sa6402-msa30"', 'id = "broken"')
    src += '\n[rates_override.policy.rebuild.High]\nkind = "turbo"\n'
    (tmp_path / "broken.toml").write_text(src)
    cat = load_catalog(builtin_presets_dir(), user_dir=tmp_path)
    assert "broken" not in cat.platforms
    assert any("broken.toml" in p and "[policy.rebuild.High] kind = 'turbo'" in p for p in cat.problems)
