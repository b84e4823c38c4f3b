"""The engine on the example projects: durations against the documents, curve shapes, the Result
contract (JSON, lazy series), advisories, MTTDL, assumptions, and a custom platform's own tables."""
from __future__ import annotations

import json
import math
import textwrap

import numpy as np
import pytest

from app.engine import RESULT_FORMAT_VERSION, simulate
from app.engine.cases import build_project, series_stat
from app.store.presets import builtin_presets_dir, load_catalog
from app.store.project_file import load_project

from conftest import EXAMPLE_PATHS

EX = {p.stem: p for p in EXAMPLE_PATHS}


def load(name):
    return load_project(EX[name])


def dur(result, op="op1"):
    return result.operation(op).duration_h


# ---------------------------------------------------------------- every example runs

@pytest.mark.parametrize("path", EXAMPLE_PATHS, ids=[p.stem for p in EXAMPLE_PATHS])
def test_every_example_scenario_simulates(path, catalog):
    project = load_project(path)
    for sc in project.scenarios:
        r = simulate(project, catalog, sc.name)
        assert r.scenario == sc.name and r.horizon_h > 0
        d = r.to_json()
        assert d["format"] == "arrayplanner-result" and d["version"] == RESULT_FORMAT_VERSION
        json.dumps(d, allow_nan=False)  # serializable as strict JSON (no NaN token)
        for s in d["series"]:
            assert len(s["t"]) == len(s["v"])
            # null only for response times where nothing completed I/O (docs/result-format.md)
            nullable = s["metric"] in ("response_ms", "response_max_ms", "lun_response_ms",
                                         "response_read_ms", "response_write_ms")
            assert all((v is None and nullable) or (v is not None and math.isfinite(v)) for v in s["v"])
        for op in r.operations:
            assert op.end_h is not None, f"{path.stem} / {sc.name}: {op.event_id} never ends"


# ---------------------------------------------------------------- durations against the documents

def test_emc_worked_examples(catalog):
    p = load("emc-cx4-960-worked-examples")
    # Migration example and Table 3 (economical rows: copy time, the table rounds up)
    assert dur(simulate(p, catalog, "Migration ASAP")) == pytest.approx(2.53, rel=0.05)
    for prio, printed in (("High", 9), ("Medium", 18), ("Low", 32)):
        assert printed - 1 < dur(simulate(p, catalog, f"Migration {prio}")) <= printed
    # Table 7 economical rows (18 / 36 / 108 h); the example's 0.05 h replacement delay adds nothing
    # because the rebuild takes longer than that
    for prio, printed in (("High", 18), ("Medium", 36), ("Low", 108)):
        assert dur(simulate(p, catalog, f"Rebuild {prio}")) == pytest.approx(printed, rel=0.05)
    # ASAP rebuild on the example's one-bus layout: Table 6 low end for R6 4+2 (51 MB/s; below the
    # cap of R5 4+1, the group with as many data disks, 57 MB/s), / 1.33 for SATA, + equalization
    # at 63.1 MB/s
    expected = 2000 / 4 * 1024 / (51 / 1.33) / 3600 + 500 * 1024 / 63.1 / 3600
    assert dur(simulate(p, catalog, "Rebuild ASAP")) == pytest.approx(expected, rel=0.01)
    # Bind example
    assert dur(simulate(p, catalog, "Bind ASAP verify")) == pytest.approx(0.34, rel=0.05)


def test_hp_rebuild_durations(catalog):
    p = load("hp-sa6402-raid5")
    r = simulate(p, catalog, "Sequential 64 KB, rebuild at High")
    rb = [ph for ph in r.operation("op1").phases if ph.name == "rebuild"][0]
    assert rb.avg_mb_s == pytest.approx(21.83, rel=0.25)  # hp Table 2
    assert rb.duration_h == pytest.approx(36.4 * 1024 / rb.avg_mb_s / 3600, rel=0.01)
    low = simulate(p, catalog, "OLTP 2 KB, rebuild at Low")
    # Low: no rebuild while the host works; the iops during "rebuild mode" stay near degraded (Table 1: 170)
    assert low.get("iops", "oltp").at(0.5) == pytest.approx(170, rel=0.25)


def test_hitachi_group_beats_serial(catalog):
    p = load("hitachi-usp600-tiers")
    group = dur(simulate(p, catalog, "Table 3: migration group R6 6+2 -> R5 3+1"))
    serial = dur(simulate(p, catalog, "Table 3: serial R6 6+2 -> R5 3+1"))
    assert group < serial
    assert serial * 60 == pytest.approx(74 + 56 / 60, rel=0.25)  # Table 3: 1:14:56


def test_dell_reboot_and_netapp(catalog):
    r = simulate(load("dell-md3200-hpt"), catalog, "Enable High Performance Tier")
    assert dur(r) * 60 == pytest.approx(5.0)
    assert r.get("iops", "random").at(0.3) == 0.0
    assert r.get("iops", "random").at(1.0) > 1.2 * r.get("iops", "random").at(0.1)
    n = simulate(load("netapp-fas-wafl"), catalog, "Measure only")
    assert dur(n) * 3600 == pytest.approx(1.0)


def test_reallocate_after_reallocate_only_measures(catalog):
    """The first reallocate leaves the LUN optimized: a second one within its threshold measures
    (one second) and says so, citing the same source as the advice to reallocate."""
    from app.domain.project import Reallocate

    p = load("netapp-fas-wafl")
    sc = p.scenario("Reallocate")
    sc.events.append(Reallocate("op2", 0.5, 0, threshold=1.0))
    r = simulate(p, catalog, sc.name)
    assert (r.operation("op2").end_h - 0.5) * 3600 == pytest.approx(1.0)
    [note] = [a for a in r.advisories if a.code == "reallocate-not-needed"]
    assert note.where == "op2" and "only measures" in note.text and note.source.startswith("netapp")


# ---------------------------------------------------------------- curve shapes

def test_asap_migration_cpu0_shape(catalog):
    r = simulate(load("emc-cx4-960-worked-examples"), catalog, "Migration ASAP")
    op = r.operation("op1")
    copy, exp = op.phases[0], op.phases[1]
    cpu0 = r.get("cpu_pct", "SP A/0")
    assert series_stat(r, "cpu_pct", "SP A/0", copy.start_h, copy.end_h) == pytest.approx(60, abs=10)
    assert series_stat(r, "cpu_pct", "SP A/0", exp.start_h, exp.end_h) == pytest.approx(30, abs=6)
    assert cpu0.at(op.end_h + 0.01) < 5  # idle again
    assert r.get("cpu_pct", "SP A/1").peak() < 5  # other cores untouched: CPU 0 affinity


def test_dependent_asap_raises_oltp_response_several_fold(catalog):
    p = load("emc-cx4-960-oltp")
    r = simulate(p, catalog, "Dependent ASAP migration")
    op = r.operation("op1")
    base = r.get("response_ms", "oltp").at(0.1)
    during = series_stat(r, "response_ms", "oltp", op.start_h, op.end_h)
    assert base == pytest.approx(12, rel=0.25)
    assert during > 3 * base
    assert r.get("response_ms", "oltp").at(op.end_h + 0.01) == pytest.approx(base, rel=0.02)
    high = simulate(p, catalog, "Dependent High migration")
    oh = high.operation("op1")
    assert series_stat(high, "response_ms", "oltp", oh.start_h, oh.end_h) < 1.1 * base
    codes = {a.code for a in r.advisories}
    assert {"asap-under-load", "forced-flush"} <= codes
    assert "asap-under-load" not in {a.code for a in high.advisories}


def test_independent_asap_leaves_oltp_disks(catalog):
    r = simulate(load("emc-cx4-960-oltp"), catalog, "Independent ASAP migration")
    g = r.get("group_pct", "5")
    assert np.ptp(g.v) < 0.5  # OLTP group unchanged
    assert r.get("group_pct", "19").peak() > 70  # destination busy


# ---------------------------------------------------------------- the Result contract

def test_result_json_and_lazy_series(catalog):
    r = simulate(load("emc-cx4-960-oltp"), catalog, "Independent ASAP migration")
    assert "cpu_pct" in r.metrics() and "SP A/0" in r.entities("cpu_pct")
    s = r.get("drive_pct", "0_0_0")
    assert s is not None and s.unit == "%"
    assert r.get("nope", "x") is None
    assert ("progress_pct", "op1") in r.series
    prog = r.get("progress_pct", "op1")
    assert prog.v[0] == 0 and prog.at(r.horizon_h) == 100
    d = r.to_json()
    for key in ("scenario", "horizon_h", "operations", "series", "advisories", "mttdl_h", "assumptions"):
        assert key in d
    ph = d["operations"][0]["phases"][0]
    assert set(ph) >= {"name", "start_h", "end_h", "duration_h", "mb", "avg_mb_s"}
    assert all(a["source"] for a in d["assumptions"])
    paths = {a["path"] for a in d["assumptions"]}
    assert "policy.migration.ASAP.mb_s" in paths and "host.sp_latency_ms" in paths


def test_mttdl_uses_predicted_rebuild(catalog):
    p = load("emc-cx4-960-worked-examples")
    fast = simulate(p, catalog, "Rebuild ASAP").mttdl_h
    slow = simulate(p, catalog, "Rebuild Low").mttdl_h
    assert set(fast) == {g.id for g in p.groups}
    g = 2  # the rebuilt SATA R6 group: MTTDL ~ 1 / MTTR^2 (double parity)
    assert fast[g] > 50 * slow[g]


def asap_rebuild_spec(drives: int, drive_type: str, buses: list[int]) -> dict:
    """One RAID 5 group on the CX4-960 whose first drive fails at once and is replaced at once
    (an ASAP rebuild with nothing else running)."""
    return {"platform": "emc-cx4-960-r28",
            "groups": [{"id": 0, "raid": "R5", "drives": drives, "drive_type": drive_type, "buses": buses}],
            "luns": [{"id": 0, "group": 0, "gb": 100}],
            "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0, "drive": "0_0_0", "priority": "ASAP"},
                       {"kind": "drive_replacement", "id": "r1", "start_h": 0, "drive": "0_0_0"}]}


def test_nearest_row_is_advised_not_silent(catalog):
    r = simulate(build_project(asap_rebuild_spec(13, "fc-15k-73", [0]), catalog), catalog)
    adv = [a for a in r.advisories if a.code == "nearest-table-row"]
    assert adv and "13-drive RAID 5 group" in adv[0].text and "interpolated" in adv[0].text


def test_concurrent_migrations_to_one_group_slow_each_other(catalog):
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": i, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [i]} for i in range(3)],
            "luns": [{"id": 0, "group": 0, "gb": 50}, {"id": 1, "group": 1, "gb": 50},
                     {"id": 2, "group": 2, "gb": 50}, {"id": 3, "group": 2, "gb": 50}],
            "scenarios": [
                {"name": "one", "events": [{"kind": "lun_migration", "id": "op1", "start_h": 0, "source_lun": 0, "dest_lun": 2, "priority": "ASAP"}]},
                {"name": "two", "events": [{"kind": "lun_migration", "id": "op1", "start_h": 0, "source_lun": 0, "dest_lun": 2, "priority": "ASAP"},
                                           {"kind": "lun_migration", "id": "op2", "start_h": 0, "source_lun": 1, "dest_lun": 3, "priority": "ASAP"}]}]}
    p = build_project(spec, catalog)
    one = simulate(p, catalog, "one")
    two = simulate(p, catalog, "two")
    c1 = one.operation("op1").phases[0]
    c2 = two.operation("op1").phases[0]
    assert c2.avg_mb_s < c1.avg_mb_s
    assert "concurrent-lun-ops" in {a.code for a in two.advisories}
    # two LUN operations on SP A add up on CPU 0
    assert two.get("cpu_pct", "SP A/0").peak() > one.get("cpu_pct", "SP A/0").peak()


# ---------------------------------------------------------------- a custom platform drives the engine

def test_custom_platform_uses_its_own_tables(tmp_path, catalog):
    src = (builtin_presets_dir() / "platforms" / "emc-cx4-960-r28.toml").read_text()
    src = src.replace('id = "emc-cx4-960-r28"', 'id = "my-array"').replace(
        'name = "EMC CLARiiON CX4-960"', 'name = "My array"')
    src += textwrap.dedent("""
        [rates_override.policy.migration.High]
        source = "test: a faster custom array"
        mb_s = 6.8
        [rates_override.policy.rebuild.High]
        source = "test"
        mb_s = 24.4
        """)
    (tmp_path / "my-array.toml").write_text(src)
    cat = load_catalog(builtin_presets_dir(), user_dir=tmp_path)
    assert not cat.problems and "my-array" in cat.platforms
    spec = {"platform": "my-array",
            "groups": [{"id": 0, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [0]},
                       {"id": 1, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [1]}],
            "luns": [{"id": 0, "group": 0, "gb": 100}, {"id": 1, "group": 1, "gb": 100}],
            "events": [{"kind": "lun_migration", "id": "op1", "start_h": 0, "source_lun": 0, "dest_lun": 1, "priority": "High"}]}
    custom = simulate(build_project(spec, cat), cat)
    spec["platform"] = "emc-cx4-960-r28"
    stock = simulate(build_project(spec, catalog), catalog)
    assert dur(custom) == pytest.approx(dur(stock) / 2, rel=1e-6)
    used = {a.path: a for a in custom.assumptions}
    assert used["policy.migration.High.mb_s"].value == 6.8
    assert used["policy.migration.High.mb_s"].source == "test: a faster custom array"


def test_undocumented_drive_class_is_advised(catalog):
    r = simulate(build_project(asap_rebuild_spec(5, "nlsas-7k2-1000", [0, 1]), catalog), catalog)
    adv = [a for a in r.advisories if a.code == "nearest-drive-class"]
    assert adv and "SATA" in adv[0].text
    # the 7.2k nearline drive rebuilds with the SATA factor: Table 6 high end / 1.33
    rb = [p for p in r.operation("op1").phases if p.name == "rebuild"][0]
    assert rb.avg_mb_s == pytest.approx(74 / 1.33, rel=0.01)


def test_robust_to_operations_a_platform_does_not_model(catalog):
    p = load("hitachi-usp600-tiers")
    from app.domain.project import Reallocate
    sc = p.scenario("Table 3: serial R6 6+2 -> R5 3+1")
    sc.events.append(Reallocate("x1", 0.1, 0))
    r = simulate(p, catalog, sc.name)
    assert r.operation("op1").end_h is not None
    assert any(a.code == "no-rates" and a.where == "x1" for a in r.advisories)


def test_second_failure_in_raid5_is_data_loss(catalog):
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": 0, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [0]}],
            "luns": [{"id": 0, "group": 0, "gb": 100}],
            "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0, "drive": "0_0_0", "priority": "High"},
                       {"kind": "drive_failure", "id": "op2", "start_h": 0.5, "drive": "0_0_1", "priority": "High"}]}
    r = simulate(build_project(spec, catalog), catalog)
    assert any(a.code == "data-loss" for a in r.advisories)


def test_host_ports_cap_throughput(catalog):
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": i, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [i]} for i in range(8)],
            "luns": [{"id": i, "group": i, "gb": 100} for i in range(8)],
            "workloads": [{"id": "stream", "name": "backup", "luns": list(range(8)), "mode": "open", "iops": 50000,
                           "read_pct": 100, "io_kb": 64, "random_pct": 0}]}
    r = simulate(build_project(spec, catalog), catalog)
    ports = catalog.platform("emc-cx4-960-r28")
    cap = ports.host_ports_per_controller * ports.host_port_mb_s
    assert r.get("mb_s", "stream").at(0) == pytest.approx(cap, rel=1e-6)
    assert r.get("port_pct", "SP A").at(0) == pytest.approx(100.0)
    assert any(a.code == "host-ports-saturated" for a in r.advisories)


def test_a_run_that_cannot_start_leaves_the_collector_on():
    """simulate() pauses the cyclic collector for the run; a project it cannot even set up (here a
    scenario that does not exist) must not leave it paused for the rest of the process."""
    import gc

    project = load_project(EXAMPLE_PATHS[0])
    was = gc.isenabled()  # (the GUI tests' process runs it by hand: app/ui/gc_policy.py)
    gc.enable()
    try:
        with pytest.raises(KeyError):
            simulate(project, load_catalog(), "no such scenario")
        assert gc.isenabled()
    finally:
        if not was:
            gc.disable()


def test_volume_migration_says_its_cpu_is_not_predicted(catalog):
    """The Hitachi brief gives no CPU figure for migrations: the engine charges none and says so
    (an advisory per migration) instead of leaving a flat 0% to be read as a prediction."""
    p = load("hitachi-usp600-tiers")
    for sc in p.scenarios:
        r = simulate(p, catalog, sc.name)
        migrations = [op.event_id for op in r.operations if op.kind == "volume_migration"]
        notes = {a.where for a in r.advisories if a.code == "cpu-not-predicted"}
        assert migrations and notes == set(migrations), sc.name
        assert max(r.get("cpu_pct", e).peak() for e in r.entities("cpu_pct")) == 0.0  # no host load here
