"""Reliability next to performance (issue 24): per RAID group, the rebuild time under the planned
load, the MTTDL from it and the drives' MTTF, and the chance of an unrecoverable read error
(URE) while a rebuild reads the survivors.

mttr_h     the group's rebuild in this plan if it had one (the load it met), else an estimate:
           the default priority's policy with the host taking the group's mean busy share of the
           plan (op_policy.scaled_rate on the geometry's full-speed rate; a share or idle-only
           policy slows with the load, md's window never below its minimum, a
           cap / asap level never below its kept share, min_share)
mttdl_h    raid.mttdl_hours with that MTTR; a DDP pool that rebuilds critical stripes first
           leaves a second failure the shorter window critical_h (the critical share at the
           highest priority) before a third one is survivable
p_ure      1 - (1 - 1/ure_bits)^bits for the bits one rebuild reads: the allocated share of a
           member on every drive it reads (the survivors; a mirror's partner; a span's
           survivors; a distributed stripe's k - 1 pieces). A double-parity group corrects a URE
           met during a one-drive rebuild (ure_covered); single parity and mirrors lose the
           sector.

Computed once at the end of a run (results.finish): plain Python.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from app.domain.raid import mttdl_hours, ure_probability

from .op_policy import scaled_rate
from .op_rebuild_geometry import critical_fraction
from .run_index import RunIndex

BITS_PER_MB = 1024.0 * 1024.0 * 8.0
# mttdl_hours per (RAID type's id, drives, MTTF, MTTR, span width, critical window), None where
# it raises (as results._MTTDL_KNOWN); cleared past a few thousand entries
_MTTDL_KNOWN: dict[tuple, float | None] = {}


@dataclass
class GroupReliability:
    group_id: int
    mttr_h: float  # rebuild time under the planned load (this plan's rebuild, or the estimate)
    basis: str  # how mttr_h was found
    mttr_idle_h: float  # the same rebuild on idle drives
    mttdl_h: float | None
    critical_h: float | None  # DDP: the second failure's window (critical stripes first)
    read_tb: float  # data one rebuild reads, TB (10^12 bytes)

    @property
    def read_gb(self) -> float:
        """read_tb in the app's GB (1 GB = 1024 MB, 1 MB = 2^20 bytes), for format_capacity:
        the unit of the Raw and Usable figures shown beside it."""
        return self.read_tb * 1e12 / 2.0 ** 30
    p_ure: float | None  # None: the drives publish no URE rate
    ure_covered: bool  # a URE during a one-drive rebuild is corrected (double parity)
    host_busy_pct: float  # the group's mean busy share over the plan (what the estimate used)

    def to_json(self) -> dict[str, Any]:
        return {k: (float(v) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _rate(sim: Any, gi: int, level: str, u: float, random: bool) -> tuple[float, float]:
    """(MB/s under a host busy share u, MB/s on idle drives) of a rebuild of group gi at `level`."""
    # (the full-speed plan is the one the MTTDL's idle rebuild time used: kept per run)
    ix = RunIndex.of(sim)
    pol, r0 = ix.full_rebuild_rate(sim, gi, level)
    # under load the plan's costs with other I/O on the drives (md: lockstep rows, not streaming)
    r_busy = ix.full_rebuild_rate(sim, gi, level, busy=True)[1] if u > 0.0 else r0
    mu = sim.max_util
    free = r_busy * max(mu - u, 0.0) / mu
    c = min(max(u / mu, 0.0), 1.0)
    idle = scaled_rate(pol, r0, r0, 0.0, random)
    return scaled_rate(pol, r0, free, c, random), idle


def _mean(series: Any, horizon: float) -> float:
    """The time-weighted mean of a stepwise series up to the horizon (NaN cells left out)."""
    if series is None or not len(series.t):
        return 0.0
    t = list(series.t) + [max(horizon, float(series.t[-1]))]
    v = [float(x) for x in series.v]
    area = sum(v[k] * (t[k + 1] - t[k]) for k in range(len(v)) if v[k] == v[k])  # (NaN: no I/O)
    span = t[-1] - t[0]
    return area / span if span > 0 else (v[0] if v else 0.0)


def _group_means(res: Any, groups: list[Any]) -> list[float] | None:
    """_mean of every group's group_pct series at once, from the block's matrix: the same
    breakpoints as SeriesBlock.series keeps and the same products, added in the same order
    (a running sum down each column, as Python's sum of floats adds them, 0 first), so the
    same values; a Series and a Python loop over the steps per group cost ~40k instructions
    each. None: the series are not the block's columns in group order (the caller falls back)."""
    blocks = [b for b in res.series.blocks if b.metric == "group_pct"]
    if not blocks or blocks[-1].linear or blocks[-1].entities != [str(g.id) for g in groups]:
        return None
    block = blocks[-1]
    if any(dict.__contains__(res.series, ("group_pct", e)) for e in block.entities):
        return None  # (a series set by hand wins over the block's: SeriesStore.peek)
    V, t = block.V, np.asarray(block.t, float)
    T, G = V.shape
    if not T:
        return [0.0] * G
    keep = np.empty(V.shape, bool)
    keep[:1] = True
    np.not_equal(V[1:], V[:-1], out=keep[1:])
    nan = np.isnan(V)
    if nan.any():  # a run of NaN cells is one breakpoint (SeriesBlock.series)
        keep[1:] &= ~(nan[1:] & nan[:-1])
    # the breakpoints (~2% of the cells), column by column, each with the next one's time
    # (the last one's: the horizon, or its own time if later)
    cols, rows = np.nonzero(keep.T)
    t_k = t.take(rows)
    t_last = np.empty(G)
    t_last[cols] = t_k  # (the last write of a column wins: its last breakpoint)
    t_end = np.maximum(float(res.horizon_h), t_last)
    t_next = t_end.take(cols)
    same = cols[1:] == cols[:-1]
    t_next[:-1][same] = t_k[1:][same]
    v_k = V[rows, cols]
    terms = (v_k * (t_next - t_k)).tolist()
    area: list[Any] = [0] * G  # (sum() starts from the int 0)
    for c, x, ok in zip(cols.tolist(), terms, (v_k == v_k).tolist()):  # NaN: no I/O
        if ok:
            area[c] = area[c] + x
    span = (t_end - t[0]).tolist()
    first = V[0].tolist()
    return [area[c] / span[c] if span[c] > 0 else first[c] for c in range(G)]


def _geometry(m: Any) -> tuple[int, int, bool, int]:
    """(failures tolerated, span width, distributed, drives one rebuild reads, each its member's
    allocated share: a mirror's partner; a distributed stripe's k - 1 pieces; the survivors)."""
    distributed = m.raid.distributed
    if m.is_mirror:
        readers = 1
    elif distributed:
        readers = m.span_width - 1
    else:
        readers = m.rebuild_read_fanout
    return m.failures_tolerated, m.span_width, distributed, readers


def group_reliability(sim: Any, res: Any) -> dict[int, GroupReliability]:
    out: dict[int, GroupReliability] = {}
    lay = sim.lay
    spec = sim.platform.operations.get("drive_failure")
    if spec is None or not spec.priorities:
        return out
    level, top = spec.default or spec.priorities[0], spec.priorities[-1]
    ix = getattr(sim, "_run_index", None)
    lost: set[int] = ix.lost if ix is not None else set()
    random = any(float(w.get("random_pct", 100.0)) >= 50.0 for w in sim.workloads) if sim.workloads else True
    means = _group_means(res, lay.groups)
    # per drive its MTTF and URE rate; per geometry (RaidGroup.math's inputs) its facts: the
    # groups of a plan share a few geometries and drive types (a RaidMath and its properties
    # per group cost more than the estimate's own arithmetic)
    mttf_of = [t.mttf_h for t in lay.drive_types]
    ure_of = [t.ure_bits for t in lay.drive_types]
    geometries: dict[tuple, tuple[int, int, bool, int]] = {}
    ix = RunIndex.of(sim)
    idle_of: dict[tuple, float] = {}  # scaled_rate on idle drives per (policy, full-speed rate)
    known = _MTTDL_KNOWN
    if len(known) > 4096:
        known.clear()
    critical_first: bool | None = None  # (read at the first distributed group)
    for gi, g in enumerate(lay.groups):
        members = lay.g_members[gi].tolist()
        shape = (id(g.raid), len(g.drives), g.stripe, g.spare)  # (an Enum's hash is a Python call)
        m = lay.group_math(gi)  # (the Layout's, made once)
        facts = geometries.get(shape)
        if facts is None:
            facts = geometries[shape] = _geometry(m)
        tolerated, span_width, distributed, readers = facts
        if not members or gi in lost or tolerated == 0:
            continue
        u = float(means[gi] if means is not None else _mean(res.series.peek(("group_pct", str(g.id))),
                                                             res.horizon_h)) / 100.0
        mb = ix.end_rebuild_mb(sim, gi)  # (results.mttdl kept it, unless the plan rebuilt the group)
        try:
            # _rate, with the idle rate once per plan
            pol, r0 = ix.full_rebuild_rate(sim, gi, level)
            r_busy = ix.full_rebuild_rate(sim, gi, level, busy=True)[1] if u > 0.0 else r0
        except Exception:  # a platform whose rates cannot rebuild (no policy): no figure
            continue
        mu = sim.max_util
        rate = scaled_rate(pol, r0, r_busy * max(mu - u, 0.0) / mu, min(max(u / mu, 0.0), 1.0), random)
        plan = (id(pol), r0)  # (all scaled_rate reads of a plan besides `random`, the run's)
        idle = idle_of.get(plan)  # type: ignore[assignment]
        if idle is None:
            idle = idle_of[plan] = scaled_rate(pol, r0, r0, 0.0, random)
        if rate <= 0 or idle <= 0 or mb <= 0:
            continue
        actual = sim.rebuild_hours.get(g.id)
        if actual:
            mttr, basis = float(actual), "this plan's rebuild"
        else:
            mttr, basis = mb / rate / 3600.0, f"estimated at the plan's mean load ({100 * u:.0f}% busy), {level}"
        critical = None
        if distributed and critical_first is None:
            critical_first = (sim.R.has("rebuild.distributed.critical_first")
                              and sim.R.v("rebuild.distributed.critical_first") > 0)
        if distributed and critical_first:
            top_rate, _ = _rate(sim, gi, top, u, random)
            critical = mb * critical_fraction(m, 1.0) / max(top_rate, 1e-9) / 3600.0
        mttf = min(map(mttf_of.__getitem__, members))
        # (a pure function whose arguments recur between runs of the same hardware)
        key = (id(g.raid), len(members), mttf, mttr, span_width, critical)
        mttdl = known.get(key, known)
        if mttdl is known:
            try:
                mttdl = float(mttdl_hours(g.raid, len(members), 1, mttf, mttr, span_width=span_width,
                                          mttr2_h=critical))
            except ValueError:
                mttdl = None
            known[key] = mttdl
        bits = mb * readers * BITS_PER_MB
        ure = min(map(ure_of.__getitem__, members), default=0.0)
        out[g.id] = GroupReliability(
            group_id=g.id, mttr_h=mttr, basis=basis, mttr_idle_h=mb / idle / 3600.0, mttdl_h=mttdl,
            critical_h=critical, read_tb=bits / 8.0 / 1e12, p_ure=ure_probability(bits, ure) if ure > 0 else None,
            ure_covered=tolerated >= 2, host_busy_pct=100.0 * u)
    return out

