"""The engine's closed-class operations (docs/model.md 3.1) beside the per-I/O peer simulation.

One RAID 5 group of six 146 GB 15k FC drives on the CX4-960 (a hot spare for the rebuild), one
200 GB LUN, open 8 KB random host I/O (67% reads, no read hits, write-back cache), an ASAP
rebuild of one member at the policy's queue depth q. For each host load and q it prints the
engine's host read response (drive part, the SP path left out: the peer has no controller) and
rebuild rate; with --peer PYTHON (an interpreter with simpy) it runs des_peer (the path in
--des, by default /work/shared/tools/des_peer.py, given --rb-qd support) on the same group and
prints its figures beside them. Trends, not absolute agreement: the peer's rebuild writes each
stripe to the spare before it reads the next (a think time the engine does not have) and its
drives are plain FIFO servers.

    python benchmarks/queue_depth_peer.py [--peer /path/to/python-with-simpy] [--des des_qd.py]
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.domain.project import DriveFailure  # noqa: E402
from app.engine import simulate  # noqa: E402
from app.engine.cases import build_project  # noqa: E402
from app.store.presets import default_catalog, with_rates_values  # noqa: E402

LOADS = (50, 150, 250, 350)
DEPTHS = (1, 4)


def engine(cat, iops: float, q: float) -> tuple[float, float]:
    c = with_rates_values(cat, "clariion-flare28", {"policy.rebuild.ASAP.queue_depth": q})
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": 0, "raid": "R5", "drives": 6, "drive_type": "fc-15k-146", "buses": [0]}],
            "spares": [{"drive_type": "fc-15k-146", "bus": 0, "count": 1}],
            "luns": [{"id": 0, "group": 0, "gb": 200}],
            "workloads": [dict(id="w", name="w", luns=[0], mode="open", iops=iops, read_pct=67, io_kb=8,
                               random_pct=100, read_hit_pct=0)]}
    p = build_project(spec, c)
    p.horizon_h = 1.0
    p.scenarios[0].events = [DriveFailure(id="rb", start_h=0.1, drive=p.groups[0].drives[0], priority="ASAP")]
    r = simulate(p, c, p.scenarios[0].name)
    t = 0.12
    sp = sp_path(r, c, t)
    read = r.get("response_read_ms", "w").at(t)
    rate = r.get("rate_mb_s", r.entities("rate_mb_s")[0]).at(t)
    return read - sp, rate


def sp_path(r, cat, t: float) -> float:
    from app.engine.rates import RateReader
    R = RateReader(cat.platforms["emc-cx4-960-r28"].rates)
    u = min(max(r.get("cpu_pct", e).at(t) for e in r.entities("cpu_pct") if e.startswith("SP A")) / 100.0, 0.97)
    return R.v("host.sp_latency_ms") * u / (1 - u) + R.v("host.random_overhead_ms") if R.has(
        "host.random_overhead_ms") else R.v("host.sp_latency_ms") * u / (1 - u)


def peer(python: str, des: str, iops: float, q: int) -> tuple[float, float]:
    out = subprocess.run([python, des, "--drives", "6", "--rpm", "15000", "--seek-ms", "3.6", "--media-mbs", "100",
                          "--io-kb", "8", "--read-pct", "67", "--iops", str(iops), "--mode", "rebuild",
                          "--priority", "high", "--chunk-kb", "1024", "--sim-s", "120", "--rb-qd", str(q)],
                         capture_output=True, text=True, check=True).stdout
    return (float(re.search(r"read_rt_ms=([\d.]+)", out).group(1)),
            float(re.search(r"rebuild_mbs=([\d.]+)", out).group(1)))


def main() -> int:
    a = argparse.ArgumentParser()
    a.add_argument("--peer", help="a Python interpreter with simpy: run des_peer beside the engine")
    a.add_argument("--des", default="/work/shared/tools/des_peer.py")
    o = a.parse_args()
    cat = default_catalog()
    print("host IOPS  q   engine read ms (drives)  engine rebuild MB/s" + ("   peer read ms  peer rebuild MB/s" if o.peer else ""))
    for q in DEPTHS:
        for iops in LOADS:
            rd, rate = engine(cat, iops, q)
            line = f"{iops:9.0f} {q:3d} {rd:24.2f} {rate:20.2f}"
            if o.peer:
                prd, prate = peer(o.peer, o.des, iops, q)
                line += f" {prd:14.2f} {prate:18.2f}"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
