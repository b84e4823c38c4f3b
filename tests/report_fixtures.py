"""Hand-built projects and Results for the report tests (no engine needed)."""
from __future__ import annotations

import numpy as np

from app.domain.project import (
    Drive, DriveFailure, DriveReplacement, Enclosure, Lun, LunMigration, Project, ProjectInfo, RaidGroup,
    Scenario, Workload, WorkloadChange,
)
from app.domain.raid import RaidType
from app.engine.result import Advisory, Assumption, OperationResult, Phase, Result, Series

PLATFORM = "emc-cx4-960-r28"


def small_project() -> Project:
    p = Project(PLATFORM, ProjectInfo("Exchange consolidation", "Acme Bank", "J. Presales", "Phase 1 sizing."))
    p.enclosures = [Enclosure(0, 0, "dae-4g-15"), Enclosure(0, 1, "dae-4g-15"), Enclosure(1, 0, "dae-4g-15")]
    for s in range(15):
        p.drives[f"0_0_{s}"] = Drive(f"0_0_{s}", "fc-15k-146", hot_spare=(s == 14))
    for s in range(10):
        p.drives[f"0_1_{s}"] = Drive(f"0_1_{s}", "fc-10k-400")
    for s in range(7):
        p.drives[f"1_0_{s}"] = Drive(f"1_0_{s}", "sata-7k2-1000", hot_spare=(s == 6))
    p.groups = [
        RaidGroup(0, RaidType.R5, [f"0_0_{s}" for s in range(5)]),
        RaidGroup(1, RaidType.R10, [f"0_0_{s}" for s in range(5, 11)]),
        RaidGroup(2, RaidType.R5, [f"0_1_{s}" for s in range(5)]),
        RaidGroup(3, RaidType.R6, [f"1_0_{s}" for s in range(6)], name="Archive"),
    ]
    p.luns = [
        Lun(0, 0, 100.0, "SP A", "Mail DB"),
        Lun(1, 1, 200.0, "SP A", "Logs", settings={"write_aside_blocks": 511}),
        Lun(2, 2, 200.0, "SP B"),
        Lun(3, 3, 1500.0, "SP B", "Archive"),
    ]
    p.workloads = [Workload("oltp", "OLTP", [0, 1], iops=2000, response_target_ms=10.0)]
    p.scenarios = [
        Scenario("Baseline", [
            LunMigration("op1", 1.0, source_lun=0, dest_lun=2, priority="High"),
            DriveFailure("op2", 2.0, drive="0_0_3", priority="High"),
            DriveReplacement("ev3", 8.0, drive="0_0_3"),
            WorkloadChange("ev4", 12.0, workload="oltp", changes={"iops": 0}),
        ]),
        Scenario("ASAP", [
            LunMigration("op1", 1.0, source_lun=0, dest_lun=2, priority="ASAP"),
            DriveFailure("op2", 2.0, drive="0_0_3", priority="ASAP"),
        ]),
    ]
    return p


def _series(metric, entity, unit, t, v) -> Series:
    return Series(metric, entity, unit, np.asarray(t, float), np.asarray(v, float))


def small_result(name: str = "Baseline", fast: bool = False) -> Result:
    k = 0.25 if fast else 1.0
    mig = OperationResult("op1", "lun_migration", "Migrate LUN 0 \u2192 LUN 2", "ASAP" if fast else "High",
                          1.0, 1.0 + 8.4 * k, [
                              Phase("copy", 1.0, 1.0 + 0.9 * k, 102400.0, 102400.0 / (0.9 * k * 3600)),
                              Phase("expansion", 1.0 + 0.9 * k, 1.0 + 8.4 * k, 102400.0,
                                    102400.0 / (7.5 * k * 3600)),
                          ], ["oltp"])
    reb = OperationResult("op2", "drive_failure", "Drive 0_0_3 fails: rebuild", "ASAP" if fast else "High",
                          2.0, None if not fast else 4.5, [
                              Phase("rebuild", 2.0, 2.0 + 2.533 * k * 2, 149504.0, 12.2),
                              Phase("wait", 2.0 + 2.533 * k * 2, 8.0),
                              Phase("equalization", 8.0, None if not fast else 9.0, 149504.0, 40.0),
                          ], ["oltp"])
    horizon = 24.0
    t = [0.0, 1.0, 1.9, 2.0, 7.07, 8.0, 12.0]
    series = {}
    for core, base in (("SP A/0", 12.0), ("SP A/1", 8.0), ("SP B/0", 3.0)):
        series[("cpu_pct", core)] = _series("cpu_pct", core, "%", t, [base, base + 30, base + 15, base + 20,
                                                                        base + 10, base + 12, 1.0])
    series[("bus_pct", "0")] = _series("bus_pct", "0", "%", t, [10, 35, 20, 28, 15, 14, 1])
    for g in range(4):
        series[("group_pct", str(g))] = _series("group_pct", str(g), "%", t, [20 + g, 70, 50 + g, 80, 40, 45, 2])
    series[("response_ms", "oltp")] = _series("response_ms", "oltp", "ms", t, [6.2, 14.8, 9.1, 12.4, 7.0, 7.5, 0.0])
    series[("progress_pct", "op1")] = _series("progress_pct", "op1", "%", [0, 1, 5, 9.4], [0, 0, 50, 100])
    adv = [
        Advisory("warning", "asap-under-load", "ASAP migration while OLTP runs: response time rises above its "
                 "10 ms target.", "op1", "emc: 'Best practices for migrations'"),
        Advisory("info", "sata-raid5", "SATA drives in RAID 5: consider RAID 6 for large drives.", "RG 3",
                 "emc: 'Rebuild overview'"),
    ]
    assumptions = [
        Assumption("migration.economical.High", 3.4, "MB/s", "emc Table 1"),
        Assumption("migration.asap.parity", 40.0, "MB/s", "emc Table 2"),
        Assumption("rebuild.economical.High", 12.2, "MB/s", "emc Table 4"),
        Assumption("response.stretch_limit", 0.95, "", "assumption: utilization cap of the M/M/1 stretch"),
    ]
    return Result(name, horizon, [mig, reb], series, adv, {0: 2.6e9, 1: 5.1e9, 2: 2.4e9, 3: 7.7e12},
                  assumptions, 42)


def small_results() -> dict[str, Result]:
    return {"Baseline": small_result("Baseline"), "ASAP": small_result("ASAP", fast=True)}
