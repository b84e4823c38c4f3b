"""A transfer's rate under its level's policy, for every operation kind (docs/model.md 4): cap,
asap, duty_cycle, window, share, idle_only.

policy_rate() places a phase whose drive costs are a take() list (rebuild, equalization, LUN
migration, bind verify); scaled_rate() answers the same question for a phase that knows only its
idle rate and the rate the free drive time allows (volume migration's group-capacity model, WAFL
reallocate's measured cost per MB).
"""
from __future__ import annotations

from typing import Any

from .errors import MissingRate
from .op_rebuild_plan import full_speed
from .op_streams import INF
from .policy import Policy


def require_table(pol: Policy, op_kind: str) -> Policy:
    """`pol` unless it is the generic model: only a rebuild is predicted without its
    [policy.<op kind>] table (app/domain/rate_keys.py GENERIC_POLICY; `check` says so too)."""
    if pol.generic:
        raise MissingRate(f"the rates have no [policy.{op_kind}] table: a {op_kind} is predicted from "
                          "its level's policy (docs/presets.md, 'Priority policies and operation keys')")
    return pol


def policy_rate(op: Any, ctx: Any, pol: Policy, full: float, full_limit: str, uses: list[tuple[str, int, float]],
                cpu_coef: float, groups: list[int], core: int, bus: list[tuple[int, float]] | None = None,
                cap_key: str = "mb_s", floor_uses: list[tuple[str, int, float]] | None = None) -> float:
    """Rate of one transfer of `op` (an Op) with drive costs `uses` and full-speed ceiling `full`
    under policy `pol`, placed on ctx; op.last_limit names the centre that set it. `groups`: the
    RAID groups whose host load the share / idle_only policies contend with (the busiest one
    counts); cap_key: the policy's rate key for this target (mirror_mb_s, sata_mb_s); floor_uses:
    the drive costs that bound a window's guaranteed minimum where they differ from `uses` (md
    below speed_limit_min does not throttle: its members stream, Rebuild.demand)."""
    kind = pol.kind
    if kind == "cap" or kind == "asap":
        cap = min(pol.p(cap_key, pol.p("mb_s", INF)), full)
        return op.take(ctx, cap, uses, kind == "asap", core, cpu_coef, full_limit if cap >= full else "policy", bus,
                       floor_of(pol))
    r0 = full_speed(ctx.max_util, full, uses, cpu_coef)
    lim0 = full_limit if r0 >= full else "drives"
    if kind == "duty_cycle":
        duty = pol.p("duty", 1.0)
        return op.take(ctx, duty * r0, uses, False, core, cpu_coef, "policy" if duty < 1.0 else lim0, bus)
    if kind == "window":
        cap = min(pol.p("max_mb_s", INF), r0)
        rate = op.take(ctx, cap, uses, False, core, cpu_coef, "policy" if cap < r0 else lim0, bus)
        r_floor = r0 if floor_uses is None else full_speed(ctx.max_util, full, floor_uses, cpu_coef)
        lo = min(pol.p("min_mb_s", 0.0), r_floor)
        if rate < lo:  # guaranteed even under load: it pushes the host aside
            for kind_, i, cost in uses:
                ctx.add(kind_, i, cost * (lo - rate))
            op.last_limit = "policy"
            rate = lo
        return rate
    # share / idle_only: the host contends for a fraction c of the time (placement.host_occupancy);
    # the rest of the time the transfer runs at full speed in the drives' idle periods
    gi = groups[0]
    for g in groups[1:]:
        if ctx.occ_g[g] > ctx.occ_g[gi]:
            gi = g
    c = ctx.occ_g[gi]
    duty = pol.p("idle_duty", 1.0)
    idle = (1.0 - c) * duty * r0
    held = 0.0  # the share policy's drive time held per member while the host contends
    if kind == "share":
        f, eff = share_of(pol, bool(ctx.host_random_g[gi] >= 0.5))
        busy = c * f * eff * r0
        held = c * f
        moved = idle
    else:  # idle_only
        busy = c * min(pol.p("trickle_mb_s", 0.0), r0)
        moved = idle + busy
    op.last_limit = "policy" if c > 0.5 or duty < 1.0 else lim0
    scale = 1.0
    # a share level's queue shapes only the host's wait (docs/model.md 3.1): its share of the
    # contended time already is what the host leaves it, a Little bound would count that twice
    q = op.queue_depth if kind != "share" else 0.0
    if q > 0.0:  # Little's law on each drive it reads or writes (Op.little_limit)
        for kind_, i, cost in uses:
            if cost > 0.0:
                lim = op.little_limit(ctx, kind_, i, cost, q)
                if lim < (idle + busy) * scale:
                    scale = lim / (idle + busy)
                    op.last_limit = "queue depth (" + op.centre(kind_, i) + ")"
    # the held time is the share at the drive that sets the rate (the costliest per MB); a drive
    # the phase needs less of per MB (a hot spare written while 11 survivors read in lockstep
    # rows) is busy with it only in proportion: the phase sends it no more I/O than its rate needs
    top = max((cost for _, _, cost in uses), default=0.0) if held > 0.0 else 0.0
    for kind_, i, cost in uses:
        ctx.add(kind_, i, (moved * cost + (held * cost / top if top > 0.0 else 0.0)) * scale)
    return (idle + busy) * scale


def floor_of(pol: Policy) -> float:
    """A cap or asap level's guaranteed share of each drive's time (min_share; 0: the host
    first): the phase keeps it even where the host would fill the drives, taking it from the host."""
    return pol.p("min_share", 0.0)


def share_of(pol: Policy, random: bool) -> tuple[float, float]:
    """A share policy's (share, efficiency) under a random or a sequential host load."""
    pattern = "random" if random else "sequential"
    return pol.p("share_" + pattern, pol.p("share", 0.0)), pol.p("efficiency_" + pattern, pol.p("efficiency", 1.0))


def scaled_rate(pol: Policy, idle_rate: float, free_rate: float, c: float, random: bool) -> float:
    """A phase's rate under `pol` when it knows its rate on idle drives (`idle_rate`) and the rate
    the drive time the host leaves allows (`free_rate`, what asap takes); c: the fraction of the
    time the host contends for its drives (as in policy_rate). A floor the window guarantees is
    taken even when the host leaves less."""
    kind = pol.kind
    if kind == "asap" or kind == "cap":
        cap = pol.p("mb_s", INF)
        # a kept share of the drive time (min_share) is a floor the host cannot take
        return max(min(cap, free_rate), min(cap, floor_of(pol) * idle_rate))
    if kind == "duty_cycle":
        return min(pol.p("duty", 1.0) * idle_rate, free_rate)
    if kind == "window":
        rate = min(pol.p("max_mb_s", INF), free_rate)
        return max(rate, min(pol.p("min_mb_s", 0.0), idle_rate))
    idle = (1.0 - c) * pol.p("idle_duty", 1.0) * idle_rate
    if kind == "share":
        f, eff = share_of(pol, random)
        return idle + c * f * eff * idle_rate
    return idle + c * min(pol.p("trickle_mb_s", 0.0), idle_rate)  # idle_only
