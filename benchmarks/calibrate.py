"""Measured data and calibration benchmark (a script, not a timed test): prints medians.

    python benchmarks/calibrate.py [--repeat N]

1. reading a day of `iostat -x -t 60` output of 20 devices (sysstat 12.4 columns, 28,800 device
   lines, ~6 MB), generated here;
2. calibrating the OLTP example (emc-cx4-960-oltp) to 8 and to 96 five-minute intervals of its
   18 LUNs, their RAID groups and SP A, measured values made by the engine itself from other
   parameter values: the whole fit (engine runs counted).
No target in the issue; the GUI runs both off its thread with progress and Cancel.
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.domain.measured import MeasuredData, MeasuredInterval  # noqa: E402
from app.domain.measured_replay import READ_HIT, build_replay  # noqa: E402
from app.engine import ENGINE_BUILD, simulate  # noqa: E402
from app.service.calibrate import calibrate, free_parameters, platform_with  # noqa: E402
from app.store.measured import parse_measured  # noqa: E402
from app.store.presets import default_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402

HEADER = ("Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await "
          "wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util")


def iostat_day(devices: int = 20, reports: int = 1440) -> str:
    lines = ["Linux 6.1.0-18-amd64 (bench) \t2026-12-06 \t_x86_64_\t(8 CPU)", ""]
    for i in range(reports):
        h, m = divmod(i, 60)
        lines += [f"2026-12-06T{h:02d}:{m:02d}:00+0000", HEADER]
        for d in range(devices):
            r, w = 200 + (i + d) % 50, 100 + (i * d) % 40
            lines.append(f"sd{chr(97 + d % 26)}{d // 26 or ''} {r:.2f} {r * 8:.2f} 0.00 0.00 12.00 8.00 {w:.2f} {w * 8:.2f} "
                         f"0.00 0.00 9.00 8.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 4.00 80.00")
        lines.append("")
    return "\n".join(lines)


def synthetic(project, catalog, n_intervals: int) -> MeasuredData:
    pf = catalog.platform(project.platform_id)
    ivs = []
    for i in range(n_intervals):
        load = 300 + 150 * abs((i % 16) - 8) / 8
        for l in range(18):
            ivs.append(MeasuredInterval(300.0 * i, 300, "lun", f"LUN {l}", iops=load + 5 * l, read_pct=67.0, io_kb=8.0,
                                        response_ms=1.0))
            ivs.append(MeasuredInterval(300.0 * i, 300, "group", f"RG {l}", util_pct=1.0))
        ivs.append(MeasuredInterval(300.0 * i, 300, "sp", "SP A", util_pct=1.0))
    mapping = {f"lun:LUN {l}": f"lun:{l}" for l in range(18)} | {f"group:RG {l}": f"group:{l}" for l in range(18)}
    data = MeasuredData("bench.csv", "generic-csv", ivs, mapping=mapping | {"sp:SP A": "sp:SP A"})
    true = {"host.cpu_us_per_io": 90.0, "host.sp_latency_ms": 20.0}
    alt = platform_with(pf, true, catalog, free_parameters(pf, project, data))
    cat = dataclasses.replace(catalog, platforms={**catalog.platforms, pf.id: alt})
    rp = build_replay(project, data, {c.name: c.cores for c in pf.controllers}, 35.0)
    pred = {(p.key, p.start_h): v for p, v in zip(rp.points, rp.predicted(simulate(rp.project, cat, rp.scenario)))}
    origin = data.start
    out = [dataclasses.replace(iv, **({"response_ms": pred[(iv.key, (iv.start - origin) / 3600.0)]} if iv.kind == "lun"
                                      else {"util_pct": pred[(iv.key, (iv.start - origin) / 3600.0)]})) for iv in ivs]
    return dataclasses.replace(data, intervals=out)


def median_time(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"engine: {ENGINE_BUILD}")
    text = iostat_day()
    t, data = median_time(lambda: parse_measured(text, "day.txt", "iostat"), args.repeat)
    print(f"iostat, 1 day x 20 devices ({len(text) / 1e6:.1f} MB, {len(data.intervals)} intervals): median {t:.2f} s")
    project = load_project(ROOT / "presets" / "examples" / "emc-cx4-960-oltp.json")
    catalog = default_catalog()
    for n in (8, 96):
        measured = synthetic(project, catalog, n)
        t, res = median_time(lambda: calibrate(project, catalog, measured), args.repeat)
        cal = res.calibration
        got = ", ".join(f"{p.path.split('.')[-1]} {p.after:.4g}" for p in cal.parameters if p.identified)
        print(f"calibrate OLTP to {n} intervals ({sum(cal.points.values())} values, {cal.engine_runs} engine runs): "
              f"median {t:.2f} s; fitted {got}")


if __name__ == "__main__":
    main()
