"""A project made in code: the EMC paper's CX4-960 layout, used when the shipped example file is
missing (a development checkout) and by tests. Built with the same operations the GUI uses."""
from __future__ import annotations

from app.domain import edits
from app.domain.hardware import Catalog
from app.domain.project import Project, ProjectInfo, Workload


def sample_project(catalog: Catalog) -> Project:
    pid = "emc-cx4-960-r28"
    p = Project(pid, ProjectInfo(title="CX4-960 OLTP (built in code)"))
    plat = catalog.platform(pid)
    p.cache = plat.default_cache()
    enc = next(iter(plat.enclosure_types))
    steps: list[edits.Edit] = [edits.AddEnclosure(0, 0, enc), edits.AddEnclosure(0, 1, enc), edits.AddEnclosure(1, 0, enc)]
    steps += [edits.PlaceDrive(f"0_0_{s}", "fc-15k-73") for s in range(10)]
    steps += [edits.PlaceDrive(f"0_1_{s}", "fc-10k-400") for s in range(8)]
    steps += [edits.PlaceDrive(f"1_0_{s}", "sata-7k2-1000") for s in range(10)]
    steps += [edits.PlaceDrive("0_0_14", "fc-15k-73", hot_spare=True)]
    steps += [
        edits.CreateRaidGroup("R5", [f"0_0_{s}" for s in range(5)]),
        edits.CreateRaidGroup("R1/0", [f"0_0_{s}" for s in range(5, 10)][:4]),
        edits.CreateRaidGroup("R1/0", [f"0_1_{s}" for s in range(8)]),
        edits.CreateRaidGroup("R6", [f"1_0_{s}" for s in range(10)]),
        edits.CreateLun(0, 100, "SP A"), edits.CreateLun(0, 100, "SP A"),
        edits.CreateLun(1, 100, "SP A"), edits.CreateLun(2, 500, "SP A"), edits.CreateLun(3, 1000, "SP A"),
    ]
    for op in steps:
        why = op.check(p, catalog)
        if why:
            raise edits.EditError(why)
        op.do(p)
    p.workloads.append(Workload("w1", "OLTP", [0, 1], iops=1500, read_pct=67, io_kb=8))
    return p
