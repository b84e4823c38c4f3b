"""The rebuild's physics and a platform's measured full-speed tables (docs/model.md 4.2).

Work per MB restored, from the geometry:
  parity (R3/R5/R6/RAID-DP)  the N-1 survivors each read 1 MB, the target writes 1 MB; the
                             controller XORs (CPU per MB); N MB cross the group's buses
  mirror (R1, R1/0)          the partner reads 1 MB, the target writes 1 MB; 2 MB on the buses
  equalization               the spare reads, the replacement writes (a copy)
A survivor's drive time per MB is a streaming read plus the positioning of each rebuild read
(`rebuild.io.kb`): the rebuild reads a stripe row from k drives in lockstep, so each row waits
for the slowest of their rotations, k/(k+1) of a revolution on average (the expected maximum of
k uniform latencies); a single streaming drive (a mirror partner, a copy) reads ahead and waits
for none. Width, RAID type, rpm and streaming rate therefore all move the rate.

Plain functions of the Layout and the rate reader: no import of the simulation.
"""
from __future__ import annotations

import math
from typing import Any, Callable

from app.domain.raid import RaidType

INF = math.inf
DEFAULT_IO_KB = 1024.0


def rotation_s(rpm: int) -> float:
    """One revolution in seconds (0 for SSDs: no rotation)."""
    return 60.0 / rpm if rpm > 0 else 0.0


def read_cost(seq_mb_s: float, rpm: int, io_mb: float, k: int) -> float:
    """Drive-seconds per MB of a rebuild read that waits for the slowest of k drives each row."""
    # one drive streaming alone reads ahead and loses no rotation; k >= 2 drives read in lockstep
    # wait for the slowest of them each row
    wait = rotation_s(rpm) * k / (k + 1.0) if k >= 2 else 0.0
    return 1.0 / seq_mb_s + (wait / io_mb if io_mb > 0 else 0.0)


def io_mb(R: Any) -> float:
    return (R.v("rebuild.io.kb") if R.has("rebuild.io.kb") else DEFAULT_IO_KB) / 1024.0


def dual_parity(raid: RaidType) -> bool:
    return raid in (RaidType.R6, RaidType.RAID_DP)


def _column(rows: list, col: str, r6: bool) -> list[tuple[float, float]]:
    """(width, traffic MB/s) points of one Table 6 column: rate x width, width = data + parity."""
    par = 2.0 if r6 else 1.0
    pts = []
    for row in rows:
        if col in row:
            n = float(row["data_disks"].value) + par
            pts.append((n, float(row[col].value) * n))
    return sorted(pts)


def _interp(pts: list[tuple[float, float]], n: float) -> tuple[float, bool]:
    """Rate at width n from a column's (width, traffic) points: the documented rate below the
    first row (the paper: smaller groups use the 4-data-disk row), traffic interpolated between
    rows, the last row's traffic held beyond it (N MB per MB restored: rate = traffic / n)."""
    if not pts:
        return INF, False
    if n <= pts[0][0]:
        return pts[0][1] / pts[0][0], abs(n - pts[0][0]) < 1e-9
    for (n0, t0), (n1, t1) in zip(pts, pts[1:]):
        if n <= n1:
            t = t0 + (t1 - t0) * (n - n0) / (n1 - n0)
            return t / n, abs(n - n1) < 1e-9
    return pts[-1][1] / n, False


def table_ceiling(R: Any, lay: Any, gi: int, phase: str, d: int, where: str,
                  advise: Callable[[str, str, str, str], None] | None) -> float:
    """A platform's measured full-speed (ASAP) rate for this phase, MB/s, INF when its rates have
    none (the generic physics alone then): emc Table 5 (mirror, equalization), Table 6 (parity,
    by width; low end on one bus, high end spread), divided by the drive-class factors. A RAID 6
    group is never given more than the RAID 5 column with as many data disks: both rebuild a
    lost chunk from that many chunks of its stripe and write one drive, and RAID 6 computes more
    parity (this caps emc Table 6's R6 8-data-disk 74 MB/s, probably a misprint, at the R5
    value of 43; its other R6 rows stay as printed)."""
    key = lay.speed_key_of(d)
    if phase == "equalization":
        if not R.has("rebuild.asap.equalization"):
            return INF
        rate = R.v("rebuild.asap.equalization")
        if key and R.has(f"rebuild.equalization_divisor.{key}"):
            rate /= R.v(f"rebuild.equalization_divisor.{key}")
        return rate
    if bool(lay.g_mirror[gi]):
        if not R.has("rebuild.asap.mirror"):
            return INF
        rate = R.v("rebuild.asap.mirror")
    else:
        rows = R.raw("rebuild.asap_by_group", None)
        if not isinstance(rows, list) or not rows:
            return INF
        width = float(lay.g_width[gi])
        spread = len(lay.g_buses[gi]) > 1
        end = "high" if spread else "low"
        r6 = dual_parity(lay.group_raid(gi))
        r5_rate, exact5 = _interp(_column(rows, f"r5_{end}", False), width)
        rate, exact = r5_rate, exact5
        if r6:
            # capped at the RAID 5 group with as many data disks (one drive narrower): a single
            # failure is rebuilt from the same number of chunks per stripe, and RAID 6 computes
            # more parity, so it is never faster than that group
            r6_rate, exact = _interp(_column(rows, f"r6_{end}", True), width)
            rate = min(r6_rate, _interp(_column(rows, f"r5_{end}", False), width - 1)[0])
        for row in rows:  # the assumptions list the rows the lookup used
            for col in ("data_disks", f"r5_{end}", f"r6_{end}"):
                if col in row:
                    R.row_value(row, col)
        if not exact and advise is not None:
            advise("info", "nearest-table-row",
                   f"{where}: EMC Table 6 has no row for a {int(width)}-drive "
                   f"{'RAID 6' if r6 else 'RAID 5'} group; interpolated between its rows "
                   "(MB/s x drives, the traffic per MB restored)", "emc Table 6")
    if key and R.has(f"rebuild.drive_time_factor.{key}"):
        rate /= R.v(f"rebuild.drive_time_factor.{key}")
    return rate
