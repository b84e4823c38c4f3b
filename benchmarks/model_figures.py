"""The model's own figures that docs/model.md quotes (a script, not a test): sensitivities and
behaviour away from the documents, each printed with the set-up that produced it.

    python benchmarks/model_figures.py

Every number docs/model.md gives for the model's behaviour (rather than a document's figure or
a validation score) comes from this script's output, so that the doc can be checked and
refreshed after a model change. Pure engine runs on the shipped presets; ~10 s.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.domain.project import DriveFailure  # noqa: E402
from app.engine import simulate  # noqa: E402
from app.engine.cases import build_project  # noqa: E402
from app.store.presets import default_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402

CAT = default_catalog()
OLTP = ROOT / "presets" / "examples" / "emc-cx4-960-oltp.json"


def phase(res, op, name):
    return next(p for p in res.operation(op).phases if p.name == name)


def hp_rebuild(width=6, raid="R5", drive="scsi-10k-36", load=None, prio="High"):
    """One HP Smart Array 6402 group (one Ultra320 bus), drive 2 fails at 0.05 h and is replaced
    at 0.1 h (no spare, as in hp Tables 1-2); load None, ("open", IOPS) or ("closed", N) of
    2 KB random I/O, 67% reads."""
    data = {"R5": width - 1, "R6": width - 2, "R1/0": width // 2}[raid]
    spec = {"platform": "hp-sa6402-msa30",
            "groups": [{"id": 0, "raid": raid, "drives": width, "drive_type": drive, "buses": [0]}],
            "luns": [{"id": 0, "group": 0, "gb": 36.4 * data}], "workloads": [],
            "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0.05, "drive": "0_0_1", "priority": prio},
                       {"kind": "drive_replacement", "id": "op2", "start_h": 0.1, "drive": "0_0_1"}],
            "horizon_h": 500}
    if load is not None:
        mode, n = load
        w = {"id": "oltp", "name": "OLTP", "luns": [0], "mode": mode, "read_pct": 67, "io_kb": 2, "random_pct": 100}
        w.update(iops=float(n), outstanding=1) if mode == "open" else w.update(iops=0.0, outstanding=int(n))
        spec["workloads"] = [w]
    res = simulate(build_project(spec, CAT), CAT)
    ph = phase(res, "op1", "rebuild")
    return ph.avg_mb_s, ph.duration_h, ph.limited_by


def oltp(iops=None, events=None, scenario="Baseline", prio=None, horizon_h=None):
    p = load_project(OLTP)
    if horizon_h is not None:
        p.horizon_h = horizon_h
    if iops is not None:
        p.workloads = [replace(w, iops=float(iops)) if w.id == "oltp" else w for w in p.workloads]
    sc = next(s for s in p.scenarios if s.name == scenario)
    if events is not None:
        sc.events = events(p)
    if prio is not None:
        sc.events = [replace(e, priority=prio) for e in sc.events]
    return simulate(p, CAT, sc.name), sc


def emc_rebuild_rate(raid, drives):
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": 0, "raid": raid, "drives": drives, "drive_type": "fc-15k-73", "buses": [0, 1]}],
            "spares": [{"drive_type": "fc-15k-73", "bus": 0}], "luns": [{"id": 0, "group": 0, "gb": 100}],
            "events": [{"kind": "drive_failure", "id": "op1", "start_h": 0.0, "drive": "0_0_2", "priority": "ASAP"}]}
    return phase(simulate(build_project(spec, CAT), CAT), "op1", "rebuild").avg_mb_s


def main() -> None:
    print("1. HP Smart Array rebuild at High, idle, by geometry (MB/s, h, limited_by)")
    for kw in ({"width": 3}, {"width": 6}, {"width": 12}, {"width": 14}, {"width": 6, "raid": "R1/0"},
               {"width": 6, "raid": "R6"}, {"width": 6, "drive": "scsi-15k-36"}):
        r, h, lim = hp_rebuild(**kw)
        print(f"   {kw}: {r:.2f} MB/s, {h:.3f} h, {lim}")

    print("2. HP Smart Array 6-drive RAID 5 rebuild against host load (h)")
    for prio in ("High", "Low"):
        row = [("idle", None)] + [(f"open {x}", ("open", x)) for x in (0.1, 1, 10, 60)] + \
              [(f"closed {n}", ("closed", n)) for n in (1, 8, 128)]
        hours = [(name, hp_rebuild(load=ld, prio=prio)[1]) for name, ld in row]
        print(f"   {prio}: " + ", ".join(f"{name} " + (f"{h:.3f}" if h is not None else "unfinished at 500 h")
                                        for name, h in hours))

    print("3. EMC OLTP example, open load swept: at 0.01 h and at the end of the plan (served IOPS,"
          " unserved, response ms; plan of 2 h), the centres host-overload names, when forced flush starts")
    for iops in (7490, 8500, 9100, 15000, 100000):
        r, _ = oltp(iops, horizon_h=2.0)
        over = {a.where for a in r.advisories if a.code == "host-overload"}
        groups = sum(1 for w in over if w.startswith("RG "))
        others = sorted(w for w in over if not w.startswith("RG "))
        end = r.horizon_h - 1e-6
        w = r.get("response_write_ms", "oltp")
        t_ff = next((t for t, v in zip(w.t, w.v) if v > 50.0), None)
        cells = [f"{r.get('iops', 'oltp').at(t):.0f} served, {r.get('unserved_iops', 'oltp').at(t):.0f} unserved, "
                 f"{r.get('response_ms', 'oltp').at(t):.1f} ms" for t in (0.01, end)]
        print(f"   {iops}: {cells[0]} | at {r.horizon_h:g} h {cells[1]} | overload: {groups} groups {others}"
              f" | forced flush from {'never' if t_ff is None else f'{t_ff:.2f} h'}")

    print("4. EMC OLTP response during an ASAP rebuild of RG 0 (ms at 0.12 h)")
    out = []
    for iops in (1000, 3000, 5000, 7000):
        def ev(p):
            return [DriveFailure(id="op1", start_h=0.1, drive=p.groups[0].drives[0], priority="ASAP")]
        r, _ = oltp(iops, ev)
        out.append(f"{iops} IOPS {r.get('response_ms', 'oltp').at(0.12):.1f}")
    print("   " + ", ".join(out))

    print("5. EMC OLTP dependent migration by level and OLTP load (h)")
    for iops in (0, 7490, 8400, 8500, 8700):
        row = []
        for prio in ("Low", "Medium", "High", "ASAP"):
            r, sc = oltp(iops, scenario="Dependent ASAP migration", prio=prio)
            d = r.operation(sc.events[0].id).duration_h
            row.append(f"{prio} {d:.3f}" if d is not None else f"{prio} unfinished")
        print(f"   {iops} IOPS: " + ", ".join(row))

    print("6. Two ASAP migrations on SP A, idle (copy MB/s, limited_by; CPU 0 peak %)")
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": g, "raid": "R5", "drives": 5, "drive_type": "fc-15k-73", "buses": [g]} for g in range(4)],
            "luns": [{"id": g, "group": g, "gb": 50} for g in range(4)],
            "events": [{"kind": "lun_migration", "id": "m1", "start_h": 0.0, "source_lun": 0, "dest_lun": 1, "priority": "ASAP"},
                       {"kind": "lun_migration", "id": "m2", "start_h": 0.0, "source_lun": 2, "dest_lun": 3, "priority": "ASAP"}]}
    r = simulate(build_project(spec, CAT), CAT)
    for op in ("m1", "m2"):
        c = phase(r, op, "copy")
        print(f"   {op}: {c.avg_mb_s:.1f} MB/s, {c.limited_by}")
    print(f"   CPU SP A/0 peak {float(r.get('cpu_pct', 'SP A/0').v.max()):.1f}%")

    print("7. EMC ASAP rebuild of 8 drives: RAID 6 (6+2) vs RAID 5 (7+1), and 10 drives R6 (8+2) (MB/s)")
    print(f"   R6 8: {emc_rebuild_rate('R6', 8):.1f}, R5 8: {emc_rebuild_rate('R5', 8):.1f}, "
          f"R6 10: {emc_rebuild_rate('R6', 10):.1f}, R5 9: {emc_rebuild_rate('R5', 9):.1f}")

    print("8. Write-back cache: 8-drive RAID 5 of 146 GB 15k FC, 500 IOPS of 8 KB random writes, 3,000 MB cache")
    spec = {"platform": "emc-cx4-960-r28", "cache": {},
            "groups": [{"id": 0, "raid": "R5", "drives": 8, "drive_type": "fc-15k-146", "buses": [0]}],
            "luns": [{"id": 0, "group": 0, "gb": 200}],
            "workloads": [{"id": "w", "name": "w", "luns": [0], "mode": "open", "iops": 500.0, "read_pct": 0,
                           "io_kb": 8, "random_pct": 100}], "horizon_h": 2.0}
    r = simulate(build_project(spec, CAT), CAT)
    w = r.get("response_write_ms", "w")
    # forced flush: the write response jumps from the cache's time to the flush's (tens of ms)
    t_ff = next(t for t, v in zip(w.t, w.v) if v > 10.0 * w.at(0.0))
    print(f"   write response {w.at(0.0):.2f} ms until forced flush at {t_ff:.3f} h, then {w.at(t_ff + 0.01):.0f} ms;"
          f" served {r.get('iops', 'w').at(r.horizon_h - 1e-6):.0f} IOPS at the end")


if __name__ == "__main__":
    main()
