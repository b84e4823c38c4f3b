"""Every policy kind for every operation kind, and operations that read the target's write
penalty (issue 20; docs/model.md 4).

A custom platform describes LUN migration, bind or volume migration with duty_cycle / share /
window / idle_only levels: `check` accepts it and the engine predicts sensible, monotone
durations (a higher level never later, more host load never faster). A platform override of
host.write_penalty moves a migration onto a group of that RAID level as it moves the host."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from app.engine import simulate
from app.engine.cases import build_project
from app.store.presets import builtin_presets_dir, load_catalog

PRESETS = builtin_presets_dir()
EMC = (PRESETS / "platforms" / "emc-cx4-960-r28.toml").read_text()
FLARE28 = (PRESETS / "rates" / "clariion-flare28.toml").read_text()
HITACHI = (PRESETS / "platforms" / "hitachi-usp600-ams500.toml").read_text()
USP = (PRESETS / "rates" / "hitachi-usp.toml").read_text()

# per kind: the parameters of each of four levels, slowest first
LEVELS4 = {
    "duty_cycle": [{"duty": 0.25}, {"duty": 0.5}, {"duty": 0.75}, {"duty": 1.0}],
    "window": [{"min_mb_s": 0.5, "max_mb_s": 5.0}, {"min_mb_s": 1.0, "max_mb_s": 20.0},
               {"min_mb_s": 2.0, "max_mb_s": 60.0}, {"min_mb_s": 4.0, "max_mb_s": 500.0}],
    # share x efficiency <= idle_duty at each level: more load never speeds it up
    "share": [{"share": 0.05, "idle_duty": 0.3}, {"share": 0.1, "idle_duty": 0.5},
              {"share": 0.2, "idle_duty": 0.8}, {"share": 0.4, "idle_duty": 1.0}],
    "idle_only": [{"trickle_mb_s": 0.2, "idle_duty": 0.3}, {"trickle_mb_s": 0.5, "idle_duty": 0.5},
                  {"trickle_mb_s": 1.0, "idle_duty": 0.8}, {"trickle_mb_s": 2.0, "idle_duty": 1.0}],
}
EMC_LEVELS = ("Low", "Medium", "High", "ASAP")


def strip_tables(text: str, prefix: str) -> str:
    """The TOML text without the tables whose header starts with `prefix`."""
    kept, skip = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            skip = line.startswith(prefix)
        if not skip:
            kept.append(line)
    return "".join(kept)


def policy_tables(op: str, levels: tuple[str, ...], kind: str, params: list[dict], keep: dict | None = None) -> str:
    out = []
    for lv, ps in zip(levels, params):
        extra = (keep or {}).get(lv)
        if extra is not None:  # a level kept as the shipped table says
            out.append(extra)
            continue
        out.append(f'[policy.{op}.{lv}]\nkind = "{kind}"\nsource = "test: {kind} level"\n'
                   + "".join(f"{k} = {v}\n" for k, v in ps.items()))
    return "\n" + "\n".join(out)


def emc_catalog(tmp_path: Path, op: str, kind: str, keep_top: bool = False, extra: str = ""):
    """A user copy of the CX4-960 whose `op` levels are all of `kind` (bind keeps its shipped ASAP
    level with keep_top: its Table 8 rate calibrates the verify's drive and CPU cost)."""
    rates = strip_tables(FLARE28, f"[policy.{op}.").replace('rates_id = "clariion-flare28"', 'rates_id = "t-rates"')
    keep = None
    if keep_top:
        start = FLARE28.index(f"[policy.{op}.ASAP]")
        keep = {"ASAP": FLARE28[start:FLARE28.index("\n\n", start)] + "\n"}
    rates += policy_tables(op, EMC_LEVELS, kind, LEVELS4[kind], keep) + extra
    tmp_path.mkdir(parents=True, exist_ok=True)
    plat = EMC.replace('id = "emc-cx4-960-r28"', 'id = "t-cx4"').replace('rates = "clariion-flare28"',
                                                                         'rates = "t-rates"')
    (tmp_path / "t-rates.toml").write_text(rates)
    (tmp_path / "t-cx4.toml").write_text(plat)
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.problems == (), cat.problems
    p = cat.platform("t-cx4")
    errors = [i.text for i in p.preset_issues if i.severity == "error"]
    assert errors == [], errors
    return cat


def emc_spec(platform: str, event: dict, iops: float, dst_raid: str = "R5", dst_drives: int = 5,
             host_luns: tuple[int, ...] = (2, 3)) -> dict:
    groups = [{"id": 0, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [0]},
              {"id": 1, "raid": dst_raid, "drives": dst_drives, "drive_type": "fc-15k-73", "buses": [1]},
              {"id": 2, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [2]}]
    return {
        "platform": platform,
        "cache": {"write_cache_mb": 3000},
        "groups": groups,
        "luns": [{"id": 0, "group": 0, "gb": 20}, {"id": 1, "group": 1, "gb": 40},
                 {"id": 2, "group": 0, "gb": 100}, {"id": 3, "group": 1, "gb": 100},
                 {"id": 4, "group": 2, "gb": 100}, {"id": 5, "group": 2, "gb": 20}],
        "workloads": [{"id": "oltp", "name": "OLTP", "luns": list(host_luns), "mode": "open", "iops": float(iops),
                       "read_pct": 67, "io_kb": 8, "random_pct": 100, "read_hit_pct": 45}] if iops else [],
        "events": [event],
        "horizon_h": 2000,
    }


def duration(cat, spec: dict, op: str = "op1") -> float:
    res = simulate(build_project(spec, cat), cat)
    bad = [a.text for a in res.advisories if a.severity == "error"]
    assert bad == [], bad
    d = res.operation(op).duration_h
    return math.inf if d is None else d


def assert_monotone(durs: dict[tuple[str, float], float], levels, loads) -> None:
    for load in loads:  # a higher level never finishes later
        for a, b in zip(levels, levels[1:]):
            assert durs[(b, load)] <= durs[(a, load)] * (1 + 1e-6), (load, a, b, durs)
    for lv in levels:  # more host load never finishes sooner
        for x, y in zip(loads, loads[1:]):
            assert durs[(lv, y)] >= durs[(lv, x)] * (1 - 1e-6), (lv, x, y, durs)


# ---------------------------------------------------------------- LUN migration

@pytest.mark.parametrize("kind", list(LEVELS4))
def test_lun_migration_takes_every_policy_kind_monotone(tmp_path, kind):
    cat = emc_catalog(tmp_path, "migration", kind)
    loads = (0.0, 300.0, 600.0, 900.0)
    durs = {}
    for lv in EMC_LEVELS:
        for load in loads:
            ev = {"kind": "lun_migration", "id": "op1", "start_h": 0.0, "source_lun": 0, "dest_lun": 1,
                  "priority": lv}
            durs[(lv, load)] = duration(cat, emc_spec("t-cx4", ev, load))
    assert all(math.isfinite(d) and d > 0 for d in durs.values()), durs
    assert_monotone(durs, EMC_LEVELS, loads)
    # the levels mean something: the slowest level is clearly slower than the fastest, idle
    assert durs[("Low", 0.0)] > 1.5 * durs[("ASAP", 0.0)], durs


def test_lun_migration_duty_cycle_scales_the_full_speed_rate(tmp_path):
    """Idle, a duty cycle d runs the copy at d x the full-speed (drive, CPU) rate: Low (25%) takes
    about 4x as long as the 100% level for the copy part."""
    cat = emc_catalog(tmp_path, "migration", "duty_cycle")
    res = {}
    for lv in ("Low", "ASAP"):
        ev = {"kind": "lun_migration", "id": "op1", "start_h": 0.0, "source_lun": 0, "dest_lun": 1, "priority": lv}
        r = simulate(build_project(emc_spec("t-cx4", ev, 0.0), cat), cat)
        res[lv] = next(p for p in r.operation("op1").phases if p.name == "copy").avg_mb_s
    assert res["Low"] == pytest.approx(0.25 * res["ASAP"], rel=1e-6), res


def test_lun_migration_window_keeps_its_bounds(tmp_path):
    cat = emc_catalog(tmp_path, "migration", "window")
    ev = {"kind": "lun_migration", "id": "op1", "start_h": 0.0, "source_lun": 0, "dest_lun": 1, "priority": "Low"}
    r = simulate(build_project(emc_spec("t-cx4", ev, 0.0), cat), cat)
    copy = next(p for p in r.operation("op1").phases if p.name == "copy")
    assert copy.avg_mb_s == pytest.approx(5.0, rel=1e-6)  # idle: the maximum


# ---------------------------------------------------------------- bind

@pytest.mark.parametrize("kind", list(LEVELS4))
def test_bind_verify_takes_every_policy_kind_monotone(tmp_path, kind):
    cat = emc_catalog(tmp_path, "bind", kind, keep_top=True)
    loads = (0.0, 300.0, 600.0)
    durs = {}
    for lv in EMC_LEVELS[:3]:  # the kind's levels (ASAP stays the shipped Table 8 level)
        for load in loads:
            ev = {"kind": "bind", "id": "op1", "start_h": 0.0, "lun": 4, "priority": lv}
            spec = emc_spec("t-cx4", ev, load)
            if spec["workloads"]:
                spec["workloads"][0]["luns"] = [2, 5]  # host I/O on the bound group too
            durs[(lv, load)] = duration(cat, spec)
    assert all(math.isfinite(d) and d > 0 for d in durs.values()), durs
    assert_monotone(durs, EMC_LEVELS[:3], loads)


# ---------------------------------------------------------------- volume migration

def hitachi_catalog(tmp_path: Path, kind: str):
    rates = strip_tables(USP, "[policy.volume_migration.").replace('rates_id = "hitachi-usp"', 'rates_id = "t-usp"')
    rates += policy_tables("volume_migration", ("Low", "Normal"), kind, [LEVELS4[kind][1], LEVELS4[kind][3]])
    plat = HITACHI.replace('id = "hitachi-usp600-ams500"', 'id = "t-usp600"').replace(
        'rates = "hitachi-usp"', 'rates = "t-usp"')
    start = plat.index("[operations.volume_migration]")
    plat = plat[:start] + plat[start:].replace('priorities = ["Normal"]', 'priorities = ["Low", "Normal"]', 1)
    (tmp_path / "t-usp.toml").write_text(rates)
    (tmp_path / "t-usp600.toml").write_text(plat)
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.problems == (), cat.problems
    errors = [i.text for i in cat.platform("t-usp600").preset_issues if i.severity == "error"]
    assert errors == [], errors
    return cat


def hitachi_spec(prio: str, iops: float) -> dict:
    return {
        "platform": "t-usp600",
        "groups": [{"id": 0, "raid": "R5", "drives": 8, "drive_type": "fc-10k-146"},
                   {"id": 1, "raid": "R5", "drives": 4, "drive_type": "fc-10k-146"}],
        "luns": [{"id": 0, "group": 0, "gb": 20}, {"id": 1, "group": 1, "gb": 20},
                 {"id": 2, "group": 0, "gb": 100}, {"id": 3, "group": 1, "gb": 100}],
        "workloads": [{"id": "oltp", "name": "OLTP", "luns": [2, 3], "mode": "open", "iops": float(iops),
                       "read_pct": 67, "io_kb": 8, "random_pct": 100, "read_hit_pct": 45}] if iops else [],
        "events": [{"kind": "volume_migration", "id": "op1", "start_h": 0.0, "moves": [[0, 1]], "parallel": True,
                    "priority": prio}],
        "horizon_h": 500,
    }


@pytest.mark.parametrize("kind", list(LEVELS4))
def test_volume_migration_takes_every_policy_kind_monotone(tmp_path, kind):
    cat = hitachi_catalog(tmp_path, kind)
    loads = (0.0, 150.0, 300.0)
    durs = {(lv, load): duration(cat, hitachi_spec(lv, load)) for lv in ("Low", "Normal") for load in loads}
    assert all(math.isfinite(d) and d > 0 for d in durs.values()), durs
    assert_monotone(durs, ("Low", "Normal"), loads)
    assert durs[("Low", 0.0)] > durs[("Normal", 0.0)] * 1.05, durs


# ---------------------------------------------------------------- the write penalty

def penalty_catalog(tmp_path: Path, r5: float):
    tmp_path.mkdir(parents=True, exist_ok=True)
    plat = EMC.replace('id = "emc-cx4-960-r28"', 'id = "t-pen"')
    plat += f'\n[rates_override.host.write_penalty]\nR5 = {{ value = {r5}, source = "test: a parity engine" }}\n'
    (tmp_path / "t-pen.toml").write_text(plat)
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.problems == (), cat.problems
    return cat


def copy_rate(cat, platform: str, prio: str, iops: float, dst_raid: str = "R5", dst_drives: int = 5) -> float:
    """The copy phase's MB/s of a migration LUN 0 (RAID 5) -> LUN 1 (dst_raid), host I/O on the
    destination group only (LUN 3)."""
    ev = {"kind": "lun_migration", "id": "op1", "start_h": 0.0, "source_lun": 0, "dest_lun": 1, "priority": prio}
    r = simulate(build_project(emc_spec(platform, ev, iops, dst_raid, dst_drives, host_luns=(3,)), cat), cat)
    return next(p for p in r.operation("op1").phases if p.name == "copy").avg_mb_s


def penalty_rates(pen: float) -> str:
    return f'\n[host.write_penalty]\nR5 = {{ value = {pen}, source = "test: a parity engine" }}\n'


def test_the_copy_itself_writes_with_the_targets_penalty(tmp_path):
    """No host load: only the copy's own drive cost moves. At a 100% duty cycle the copy runs at
    the destination drives' full speed, 1 / (1.6 / data / seq): RAID 5 writes that cost 6
    back-end I/Os instead of 4 raise the partial-stripe excess 0.6 by 6/4 (1.9x a full stripe),
    2 I/Os lower it (1.3x); a RAID 1/0 target does not read the RAID 5 override."""
    rates = {}
    for pen in (None, 2.0, 6.0):
        cat = emc_catalog(tmp_path / str(pen), "migration", "duty_cycle", extra=penalty_rates(pen) if pen else "")
        rates[pen] = (copy_rate(cat, "t-cx4", "ASAP", 0.0), copy_rate(cat, "t-cx4", "ASAP", 0.0, "R1/0", 8))
    r4, m4 = rates[None]
    assert rates[6.0][0] == pytest.approx(r4 * 1.6 / 1.9, rel=1e-6), rates
    assert rates[2.0][0] == pytest.approx(r4 * 1.6 / 1.3, rel=1e-6), rates
    assert rates[6.0][1] == pytest.approx(m4, rel=1e-12) and rates[2.0][1] == pytest.approx(m4, rel=1e-12), rates


def test_write_penalty_override_moves_a_migration_onto_raid5(tmp_path):
    """The shipped levels under host load on the destination: a dearer RAID 5 write (6 back-end
    I/Os instead of 4) slows the ASAP copy onto a RAID 5 group (host writes and the copy's
    partial stripes both cost more), a cheaper one (2) speeds it up; a High copy (a 3.4 MB/s cap
    the drives never limit) does not move."""
    cats = {pen: penalty_catalog(tmp_path / str(pen), pen) for pen in (2.0, 6.0)}
    base = load_catalog(PRESETS)
    iops = 250.0
    r4 = copy_rate(base, "emc-cx4-960-r28", "ASAP", iops)
    r6 = copy_rate(cats[6.0], "t-pen", "ASAP", iops)
    r2 = copy_rate(cats[2.0], "t-pen", "ASAP", iops)
    assert r6 < r4 * 0.97 and r2 > r4 * 1.03, (r2, r4, r6)
    assert copy_rate(cats[6.0], "t-pen", "High", iops) == copy_rate(base, "emc-cx4-960-r28", "High", iops)


def test_write_penalty_orders_raid10_before_raid5_targets(tmp_path):
    """With as many data disks, a RAID 1/0 destination takes a copy faster than a RAID 5 one under
    the same host load: its small writes cost 2 back-end I/Os, not 4."""
    base = load_catalog(PRESETS)
    for iops in (150.0, 300.0):
        r5 = copy_rate(base, "emc-cx4-960-r28", "ASAP", iops, "R5", 5)
        r10 = copy_rate(base, "emc-cx4-960-r28", "ASAP", iops, "R1/0", 8)
        assert r10 > r5 > 0, (iops, r10, r5)
    # a RAID 5 whose writes cost what RAID 1/0's do (2) closes the gap from below
    cheap = copy_rate(penalty_catalog(tmp_path, 2.0), "t-pen", "ASAP", 300.0, "R5", 5)
    assert copy_rate(base, "emc-cx4-960-r28", "ASAP", 300.0, "R5", 5) < cheap, cheap


# ---------------------------------------------------------------- WAFL reallocate

NETAPP = (PRESETS / "platforms" / "netapp-fas-ontap.toml").read_text()
ONTAP = (PRESETS / "rates" / "netapp-ontap.toml").read_text()
NETAPP_LEVELS = ("Low", "Medium", "High", "Top")


def netapp_catalog(tmp_path: Path, kind: str):
    """A user copy of the FAS whose reallocate offers four levels, all of `kind`."""
    rates = strip_tables(ONTAP, "[policy.reallocate.").replace('rates_id = "netapp-ontap"', 'rates_id = "t-ontap"')
    rates += policy_tables("reallocate", NETAPP_LEVELS, kind, LEVELS4[kind])
    plat = NETAPP.replace('id = "netapp-fas-ontap"', 'id = "t-fas"').replace('rates = "netapp-ontap"',
                                                                           'rates = "t-ontap"')
    start = plat.index("[operations.reallocate]")
    plat = plat[:start] + plat[start:].replace('priorities = ["Normal"]', 'priorities = ["Low", "Medium", "High", "Top"]', 1).replace(
        'default = "Normal"', 'default = "Top"', 1)
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "t-ontap.toml").write_text(rates)
    (tmp_path / "t-fas.toml").write_text(plat)
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.problems == (), cat.problems
    errors = [i.text for i in cat.platform("t-fas").preset_issues if i.severity == "error"]
    assert errors == [], errors
    return cat


def netapp_spec(platform: str, prio: str, iops: float) -> dict:
    """A fragmented 20 GB LUN reallocated while an open random load runs on the same group."""
    return {
        "platform": platform,
        "groups": [{"id": 0, "raid": "RAID-DP", "drives": 8, "drive_type": "fc-10k-144", "buses": [0]}],
        "luns": [{"id": 0, "group": 0, "gb": 20, "owner": "Controller A", "optimization": 8},
                 {"id": 1, "group": 0, "gb": 200, "owner": "Controller A"}],
        "workloads": [{"id": "oltp", "name": "OLTP", "luns": [1], "mode": "open", "iops": float(iops),
                       "read_pct": 67, "io_kb": 8, "random_pct": 100, "read_hit_pct": 30}] if iops else [],
        "events": [{"kind": "reallocate", "id": "op1", "start_h": 0.0, "lun": 0, "threshold": 4, "priority": prio}],
        "horizon_h": 2000,
    }


@pytest.mark.parametrize("kind", list(LEVELS4))
def test_reallocate_takes_every_policy_kind_monotone(tmp_path, kind):
    """Before, reallocate took `asap` only (check: bad-rate; the engine: not predicted)."""
    cat = netapp_catalog(tmp_path, kind)
    loads = (0.0, 100.0, 200.0, 300.0)  # (the host alone fills the 8 drives near 350 IOPS)
    durs = {(lv, load): duration(cat, netapp_spec("t-fas", lv, load)) for lv in NETAPP_LEVELS for load in loads}
    assert all(math.isfinite(d) and d > 0 for d in durs.values()), durs
    assert_monotone(durs, NETAPP_LEVELS, loads)
    assert durs[("Low", 0.0)] > 1.5 * durs[("Top", 0.0)], durs


def realloc_phase(cat, platform: str, prio: str, iops: float):
    r = simulate(build_project(netapp_spec(platform, prio, iops), cat), cat)
    return next(p for p in r.operation("op1").phases if p.name == "reallocate")


def test_reallocate_duty_cycle_scales_its_idle_rate(tmp_path):
    """Idle, a duty cycle d scans at d x the full-speed rate (the measured MB/s per unit of drive
    busy, at max_util): Low (25%) a quarter of Top (100%), and the policy is what limits it."""
    cat = netapp_catalog(tmp_path, "duty_cycle")
    low, top = realloc_phase(cat, "t-fas", "Low", 0.0), realloc_phase(cat, "t-fas", "Top", 0.0)
    assert low.avg_mb_s == pytest.approx(0.25 * top.avg_mb_s, rel=1e-6), (low.avg_mb_s, top.avg_mb_s)
    assert low.limited_by == "policy" and top.limited_by.startswith("drives"), (low.limited_by, top.limited_by)


def test_reallocate_window_keeps_its_bounds(tmp_path):
    cat = netapp_catalog(tmp_path, "window")
    assert realloc_phase(cat, "t-fas", "Low", 0.0).avg_mb_s == pytest.approx(5.0, rel=1e-6)  # idle: the maximum
    # a host that leaves the drives almost nothing: the guaranteed minimum still moves it
    heavy = realloc_phase(cat, "t-fas", "Low", 2000.0)
    assert heavy.avg_mb_s >= 0.5 * (1 - 1e-6), heavy.avg_mb_s


def test_reallocate_asap_level_unchanged_by_the_policy_path():
    """The shipped Normal level (asap, max_util 0.93) still scans at the post's 24.2 MB/s idle, and
    slows as a host load takes drive time."""
    cat = load_catalog(PRESETS)
    idle = realloc_phase(cat, "netapp-fas-ontap", "Normal", 0.0)
    assert idle.avg_mb_s == pytest.approx(24.2, rel=1e-6)
    assert realloc_phase(cat, "netapp-fas-ontap", "Normal", 300.0).avg_mb_s < idle.avg_mb_s * 0.9
