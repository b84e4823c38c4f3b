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

from app.domain.raid import mttdl_hours, ure_probability

from .op_policy import scaled_rate
from .op_rebuild_geometry import critical_fraction
from .op_rebuild_plan import full_speed, rebuild_mb, rebuild_plan
from .policy import policy_for

BITS_PER_MB = 1024.0 * 1024.0 * 8.0


@dataclass
class GroupReliability:
    group_id: int
    mttr_h: float  # rebuild time under the planned load (this plan's rebuild, or the estimate)
    basis: str  # how mttr_h was found
    mttr_idle_h: float  # the same rebuild on idle drives
    mttdl_h: float | None
    critical_h: float | None  # DDP: the second failure's window (critical stripes first)
    read_tb: float  # data one rebuild reads, TB (10^12 bytes)
    p_ure: float | None  # None: the drives publish no URE rate
    ure_covered: bool  # a URE during a one-drive rebuild is corrected (double parity)
    host_busy_pct: float  # the group's mean busy share over the plan (what the estimate used)

    def to_json(self) -> dict[str, Any]:
        return {k: (float(v) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _rate(sim: Any, gi: int, level: str, u: float, random: bool) -> tuple[float, float]:
    """(MB/s under a host busy share u, MB/s on idle drives) of a rebuild of group gi at `level`."""
    lay = sim.lay
    pol = policy_for(sim.R, sim.platform, "rebuild", level, "rebuild")
    members = lay.g_members[gi].tolist()
    d = int(members[0])
    mirror = bool(lay.g_mirror[gi])
    src = [("d", int(members[1]) if len(members) > 1 else d, 1.0)] if mirror else [("g", gi, 1.0)]
    uses, _, full, _, _, cpu, _ = rebuild_plan(sim, gi, d, src, d, "rebuild", pol,
                                               "rebuild.cpu.mirror" if mirror else "rebuild.cpu.parity", "",
                                               advise=False)
    mu = sim.max_util
    r0 = full_speed(mu, full, uses, cpu)
    free = r0 * max(mu - u, 0.0) / mu
    c = min(max(u / mu, 0.0), 1.0)
    idle = scaled_rate(pol, r0, r0, 0.0, random)
    return scaled_rate(pol, r0, free, c, random), idle


def _mean(series: Any, horizon: float) -> float:
    if series is None or not len(series.t):
        return 0.0
    t = list(series.t) + [max(horizon, float(series.t[-1]))]
    v = [float(x) for x in series.v]
    area = sum(v[k] * (t[k + 1] - t[k]) for k in range(len(v)) if v[k] == v[k])  # (NaN: no I/O)
    span = t[-1] - t[0]
    return area / span if span > 0 else (v[0] if v else 0.0)


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
    for gi, g in enumerate(lay.groups):
        members = lay.g_members[gi].tolist()
        m = g.math
        if not members or gi in lost or m.failures_tolerated == 0:
            continue
        u = float(_mean(res.series.peek(("group_pct", str(g.id))), res.horizon_h)) / 100.0
        mb = rebuild_mb(lay, gi)
        try:
            rate, idle = _rate(sim, gi, level, u, random)
        except Exception:  # a platform whose rates cannot rebuild (no policy): no figure
            continue
        if rate <= 0 or idle <= 0 or mb <= 0:
            continue
        actual = sim.rebuild_hours.get(g.id)
        if actual:
            mttr, basis = float(actual), "this plan's rebuild"
        else:
            mttr, basis = mb / rate / 3600.0, f"estimated at the plan's mean load ({100 * u:.0f}% busy), {level}"
        critical = None
        if (g.raid.distributed and sim.R.has("rebuild.distributed.critical_first")
                and sim.R.v("rebuild.distributed.critical_first") > 0):
            top_rate, _ = _rate(sim, gi, top, u, random)
            critical = mb * critical_fraction(m, 1.0) / max(top_rate, 1e-9) / 3600.0
        mttf = min(lay.drive_types[x].mttf_h for x in members)
        try:
            mttdl = float(mttdl_hours(g.raid, len(members), 1, mttf, mttr, span_width=m.span_width, mttr2_h=critical))
        except ValueError:
            mttdl = None
        # the drives one rebuild reads, each its member's allocated share
        if m.is_mirror:
            readers = 1
        elif g.raid.distributed:
            readers = m.span_width - 1
        else:
            readers = m.rebuild_read_fanout
        bits = mb * readers * BITS_PER_MB
        ure = min((lay.drive_types[x].ure_bits for x in members), default=0.0)
        out[g.id] = GroupReliability(
            group_id=g.id, mttr_h=mttr, basis=basis, mttr_idle_h=mb / idle / 3600.0, mttdl_h=mttdl,
            critical_h=critical, read_tb=bits / 8.0 / 1e12, p_ure=ure_probability(bits, ure) if ure > 0 else None,
            ure_covered=m.failures_tolerated >= 2, host_busy_pct=100.0 * u)
    return out
