"""Rebuild work of the RAID schemes beyond one parity group (issue 24): RAID 50/60 and the
distributed groups (dRAID6: ADAPT, IBM DRAID, MSA-DP+; DDP: NetApp Dynamic Disk Pools).

RAID 50/60  a lost drive is rebuilt from the survivors of its own span only (k = span - 1
            drives read row by row in lockstep, as a RAID 5/6 group of the span's width); the
            other spans are not read.
distributed every stripe (k drives: data + parity) that had a piece on the lost drive reads its
            k - 1 surviving pieces and writes the restored piece into the spare capacity; the
            stripes are spread evenly over the pool, so per MB restored each of the N - 1
            survivors reads (k - 1) / (N - 1) MB and writes 1 / (N - 1) MB
            (RaidMath.rebuild_mb_per_survivor). No hot spare: the rebuild starts at once; a
            replacement drive is filled back from the pool afterwards (the "equalization" phase,
            SANtricity's and ADAPT's rebalance / copyback). Only allocated data is rebuilt
            (rebuild_mb, the group's allocated fraction), as for every group.
critical    (DDP) while two drives of a pool are down, the stripes that lost a piece on both
            are rebuilt first at the highest priority (NetApp TR-4652 'critical
            reconstruction'); once they are, a third failure no longer loses data.

Called at a stream's start only (plans are kept for the stream's life): plain Python.
"""
from __future__ import annotations

from typing import Any

from app.domain.raid import RaidType

from .rebuild_model import read_cost


def is_geometric(raid: RaidType) -> bool:
    return raid.spanned or raid.distributed


def span_survivors(lay: Any, gi: int, d: int) -> list[int]:
    """The members of failed drive d's span (RAID 50/60), d excluded, in member order."""
    m = lay.group_math(gi)
    members = lay.g_members[gi].tolist()
    k = members.index(d) if d in members else 0
    span = m.span_of(k)
    return [x for j, x in enumerate(members) if m.span_of(j) == span and x != d]


def geometry_plan(sim: Any, gi: int, d: int, dst: int | None, phase: str, rd: float, wr: float,
                  io: float, lockstep: bool = True) -> tuple[list, int, list] | None:
    """(drive uses [(kind, index, busy per MB/s)], drives read per row, bus additions
    [(kind, index, MB per MB restored)]) of a RAID 50/60 or distributed group's rebuild or
    (distributed) refill of the replacement; None for the other groups (op_rebuild_plan's
    one-group physics). lockstep False: each survivor streams on its own (no row wait; the
    plan of a rebuild that keeps many reads outstanding, `rebuild.io.idle_streaming`)."""
    lay = sim.lay
    raid = lay.group_raid(gi)
    rpm = lay.drive_types[d].rpm
    if raid.spanned and phase == "rebuild":
        src = span_survivors(lay, gi, d)
        k = max(len(src), 1)
        kw = k if lockstep else 1
        uses = [("d", x, rd * read_cost(float(lay.d_seq[x]), lay.drive_types[x].rpm, io, kw)) for x in src]
        bus = [("d", x, 1.0) for x in src]
        if dst is not None:
            uses.append(("d", dst, wr * read_cost(float(lay.d_seq[dst]), lay.drive_types[dst].rpm, io, 1)))
            bus.append(("d", dst, 1.0))
        return uses, k, bus
    if not raid.distributed:
        return None
    m = lay.group_math(gi)
    seq = float(lay.g_seq[gi])
    if phase == "rebuild":
        read_mb, write_mb = m.rebuild_mb_per_survivor
        k = m.span_width - 1  # a stripe's surviving pieces, read in lockstep
        cost = rd * read_mb * read_cost(seq, rpm, io, k if lockstep else 1) + wr * write_mb * read_cost(seq, rpm, io, 1)
        return [("g", gi, cost)], k, [("g", gi, float(m.span_width))]
    # refill of the replacement: each restored MB is read from one survivor (spread over the
    # pool) and written on the new drive
    n = max(m.width - 1, 1)
    uses = [("g", gi, rd * read_cost(seq, rpm, io, 1) / n)]
    bus = [("g", gi, 1.0)]
    if dst is not None:
        uses.append(("d", dst, wr * read_cost(float(lay.d_seq[dst]), lay.drive_types[dst].rpm, io, 1)))
        bus.append(("d", dst, 1.0))
    return uses, 1, bus


def critical_fraction(math: Any, other_left: float) -> float:
    """The share of a newly failed drive's pieces whose stripes also lost a piece on another
    down drive: a stripe through the new drive holds k - 1 of the other N - 1 drives' pieces,
    so (k - 1) / (N - 1) of them cross a given other drive, of which `other_left` (0-1) is not
    rebuilt yet."""
    n = max(math.width - 1, 1)
    return min(max(other_left, 0.0), 1.0) * (math.span_width - 1) / n


def remove_member(lay: Any, gi: int, d: int) -> None:
    """A distributed group's drive d leaves the pool: its data lives in the spare capacity now
    (a new member array: the Layout's arrays are shared, as Rebuild.swap_in)."""
    m = lay.g_members[gi]
    lay.g_members[gi] = m[m != d].copy()
    lay.d_group[d] = -1


def add_member(lay: Any, gi: int, d: int) -> None:
    """The replacement drive joins the pool again (after its refill)."""
    import numpy as np

    m = lay.g_members[gi]
    if d not in m.tolist():
        lay.g_members[gi] = np.append(m, d)
    lay.d_group[d] = gi
