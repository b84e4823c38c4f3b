"""Placing the running operations on the time the host leaves free (place, place_op,
place_economical, starved, demand) and the resulting loads of a step (loads, drive_snapshot).
Functions of the run's state (SimState, sim_state.py); the placement's state is Ctx (placement_ctx.py).
"""
from __future__ import annotations

import bisect
import heapq
import math
from operator import attrgetter
from typing import Final, TYPE_CHECKING

import numpy as np

from .ops import Op, RK_BITS, RK_BUS_G, RK_BUS_X, RK_CORE, RK_D, RK_G, RK_MASK
from .rates import MissingRate
from .sim_state import SimState

if TYPE_CHECKING:  # pragma: no cover
    from .placement_ctx import Ctx


_INDEX = attrgetter("index")
# (module attributes are a generic getattr per call in the compiled engine: placement.place's queue)
_heapify: Final = heapq.heapify
_heappop: Final = heapq.heappop
_heappush: Final = heapq.heappush
_NEG_INF: Final = -math.inf


def place(sim: SimState, U_host_g: np.ndarray, host_random_g: np.ndarray) -> None:
    """Bring the placement (sim.ctx) up to date: place again, in placement order, only the
    operations whose inputs changed since it was last placed (see Ctx), then the ones after
    them that read a resource whose additions changed. The outcome is the one-by-one
    placement of every running operation from scratch (the sums may differ in the last bits)."""
    ctx = sim.ctx
    host = ctx.follow_host(U_host_g, host_random_g, host_occupancy(sim, U_host_g))
    # the host's CPU and bus loads: their readers are placed again only if their reads no longer
    # hold (Ctx.holds), as for an earlier operation's CPU or bus additions below
    soft: list[int] = []
    core_host = getattr(sim, "step_core_host", None)
    if core_host is not None:
        soft += ctx.follow_core(core_host)
    be_g = getattr(sim, "step_be_g", None)
    if be_g is not None:
        soft += ctx.follow_bus(be_g)
    # resources whose inputs changed for every reader: drives that failed, came back or moved
    # between groups (the group's load per alive member is in the host load), ASAP counts
    changed = ctx.follow_topology(sim)
    dirty, sim.dirty_ops = sim.dirty_ops, set()
    for op in dirty:  # ASAP counts are totals over all running ops: update them first
        if op.running and op.asap:
            counts: dict[int, float] = {}
            ctx.own = counts
            op.count_asap(ctx)
            if counts or op.counted:
                changed += ctx.recount(op, counts)
        elif op.counted:  # (no dict per op that counts nothing: most dirty ops)
            changed += ctx.recount(op, {})
    # placed in any case: these, and below the later readers of changed additions; the
    # readers of a changed host load only if it no longer starves them
    must = dirty  # (a set of its own: sim.dirty_ops is a new one)
    for key in changed:
        if key & RK_MASK == RK_CORE:  # an ASAP count per core: only an ASAP take() reads it
            must.update([o for o in ctx.readers.get(key, ()) if key in o.n_reads])
        else:
            must.update(ctx.readers.get(key, ()))
    if not must and not host and not soft:
        return  # nothing to place (a step of one in ten): no additions changed either
    # a heap of placement positions (ints compare faster than (pos, op) tuples), each op by its
    # position: unique, Sim.fire sets it (start index + ASAP class)
    by_pos: dict[int, Op] = {op.pos: op for op in must}
    # the readers of a changed host drive load: placed again unless it still starves them
    hard: set[Op] = set()
    for key in host:
        hard.update(ctx.readers[key])
    for op in hard:
        by_pos[op.pos] = op
    for key in soft:
        for op in ctx.readers[key]:
            by_pos[op.pos] = op
    queue: list[int] = list(by_pos)
    _heapify(queue)
    done = set()
    while queue:
        pos = _heappop(queue)
        op = by_pos[pos]
        if op in done:
            continue
        done.add(op)
        if op not in must:
            if still_starved(op, ctx):
                continue  # only the host load changed and it still fills the op's drives
            if op not in hard and ctx.holds(op):  # only CPU or bus loads changed, too little to
                if op.idle:  # change its rates (as placing it again would)
                    op.now = sim.idle_now
                continue
        if op.running:
            if op.idle:
                op.now = sim.idle_now  # its clock stood still while it was idle
            ctx.pos, ctx.own = pos, {}
            ctx.fit_log, ctx.n_reads = [], []
            place_op(sim, op, ctx)
            op.fit_log, op.n_reads = ctx.fit_log, ctx.n_reads
            moved = ctx.commit(op, ctx.own, ctx.footprint(op))
            # no rate and nothing due: the loop skips it (advance would add 0 MB) until placed again;
            # sim.busy holds the placed ops that are not idle, so only a change moves it
            was, op.idle = op.idle, op.at_rest()
            if was is None or was != op.idle:
                set_busy(sim, op, not op.idle)
        else:  # finished: its additions go
            moved = ctx.commit(op, {}, set())
            set_busy(sim, op, False)
        for key in moved:  # later ops on these resources saw other partial sums
            kind = key & RK_MASK
            cpu_or_bus = kind == RK_CORE or kind == RK_BUS_X  # (checked when popped: Ctx.holds)
            for o in ctx.readers.get(key, ()):
                if o.pos > pos and o not in done:
                    if not cpu_or_bus:
                        must.add(o)
                    by_pos[o.pos] = o
                    _heappush(queue, o.pos)
    ctx.settle()


def host_occupancy(sim: SimState, U_host_g: np.ndarray) -> list[float]:
    """Per group: the fraction of time host I/O is at the group, min(1, L) by Little's law:
    the drive-seconds per second the host's I/O takes there (U x alive members; on a distributed
    group U x the drives of one stripe, all that an operation's stripe waits on: a rebuild of a
    60-drive pool reads each 8+2 stripe from 9 of them, and host I/O on the other 51 does not
    hold it up, docs/model.md 4.2), plus the I/Os a closed loop keeps there (hp Tables 1-2: one outstanding I/O is always at the
    array; with think time Z only N - X Z of them). The share and idle_only policies throttle
    only this fraction of the time (docs/model.md 4): a trickle barely slows a rebuild
    (Thomasian and Menon's rebuild in the drives' idle periods). Kept per host-load version."""
    hit = getattr(sim, "_occ_memo", None)
    if hit is not None and hit[0] is U_host_g:
        return hit[1]
    G = sim.lay.G
    occ = np.zeros(G)
    if sim.P:
        st = sim._st
        occ = U_host_g * np.minimum(st["alive_n"], sim.lay.g_stripe_n)
        if st["any_closed"]:
            # with think time only the I/Os not thinking are at the array (solve sets n_at)
            n_at = st["n_raw"] if st["think_ms"] is None else st["n_at"]
            w = np.where(st["closed"] & st["on"], n_at, 0.0)
            occ = occ + np.bincount(st["gi"], weights=w, minlength=G)[:G]
    out = np.minimum(occ, 1.0).tolist()
    sim._occ_memo = (U_host_g, out)
    return out


def set_busy(sim: SimState, op: Op, busy: bool) -> None:
    """Put op in sim.busy or take it out: the running ops that are not idle, in start order
    (what the loop advances). Only place() changes them: an op's idle flag is set there, a
    new op and a finished one are placed."""
    ops = sim.busy
    i = bisect.bisect_left(ops, op.index, key=_INDEX)
    there = i < len(ops) and ops[i] is op
    if busy and not there:
        ops.insert(i, op)
    elif there and not busy:
        del ops[i]


def still_starved(op: Op, ctx: Ctx) -> bool:
    """op added nothing and has no rate, and every transfer is still on a drive the host
    alone fills: placing it again would give the same zeros."""
    if op.rate or op.placed:
        return False
    f = op.fixed()
    return f is not None and all(ctx.starves(p) for p in f.parts)


def queue_columns(sim: SimState, groups: list[int] | None, cores: list[int] | None) -> None:
    """The row's queue columns of the groups and cores (None: all), the closed class of the
    response (docs/model.md 3.1): queue_u, queue_n, the busy per alive member that operations
    with a queue depth put on each group and the I/Os they keep outstanding on each of its
    drives (their queue depths added), queue_s the drive time of one of those I/Os; queue_cu,
    queue_cn, their CPU % on each core and their requests there (one queue depth per
    operation: its I/Os in flight go through the core in turn)."""
    rv, by_of = sim.rv, sim.ctx.by
    queued_keys: set[int] | None = None
    if groups is None or cores is None:
        # all of them (a new host-load version or topology: ~170 a run): only resources that
        # an operation with a queue depth adds to can be non-zero, the rest are 0
        queued_keys = set()
        for op in sim.active:
            if op.queue_depth > 0.0:
                queued_keys.update(op.placed)
    for kind, n_res, code, cu, cn in ((RK_G, sim.lay.G, groups, "queue_u", "queue_n"),
                                      (RK_CORE, sim.lay.C, cores, "queue_cu", "queue_cn")):
        if code is None:  # whole columns, written from lists (an ndarray item costs ~250 instructions)
            ids: list[int] = [] if queued_keys is None else sorted(
                k >> RK_BITS for k in queued_keys if k & RK_MASK == kind)
        else:
            ids = code
        us: list[float] = []
        ns: list[float] = []
        ss: list[float] = []
        for i in ids:
            u = 0.0
            n = 0.0
            work = 0.0  # drive-seconds of the queued I/Os (a group's)
            by = by_of.get(i << RK_BITS | kind)
            if by:
                for op, v in by.items():
                    if op.queue_depth > 0.0 and v > 0.0:
                        u += v
                        n += op.queue_depth
                        if op.rate > 0.0:  # busy per MB/s x MB per I/O: one queued I/O's service
                            work += op.queue_depth * v / op.rate * op.queue_io_mb
            us.append(u)
            ns.append(n)
            ss.append(work / n if n > 0.0 else 0.0)
        qu, qn = rv[cu], rv[cn]
        if code is None:
            qu.fill(0.0)
            qn.fill(0.0)
            if kind == RK_G:
                rv["queue_s"].fill(0.0)
        for j, i in enumerate(ids):
            qu[i] = us[j]
            qn[i] = ns[j]
            if kind == RK_G:
                rv["queue_s"][i] = ss[j]


def loads(sim: SimState, U_host_g, core_host, be_g, alive_n) -> tuple[np.ndarray, np.ndarray]:
    """The host load plus the placement, written in place into the row's columns (sim.rv):
    group_pct, drive_group, cpu_pct, bus_pct's terms, and the drive extras and layout record() keeps
    (sim._drive_rec); returns (U_g, core_u) (views). New host-load arrays or a new topology
    recompute whole columns; otherwise only the entries of the resources whose totals
    changed (Ctx.stale), with the same arithmetic per element."""
    ctx, lay, rv = sim.ctx, sim.lay, sim.rv
    T = ctx.totals
    stale, ctx.stale = ctx.stale, []
    src = sim._loads_src
    new_topo = sim.topo != src[2]
    new_g = U_host_g is not src[0] or alive_n is not src[1] or new_topo
    new_core, new_bus = core_host is not src[3], be_g is not src[4]
    U_g, core_u = rv["group_pct"], rv["cpu_pct"]
    if new_g or new_core or new_bus:
        sim._loads_src = (U_host_g, alive_n, sim.topo, core_host, be_g)
    elif not stale:
        return U_g, core_u  # nothing changed since the last step
    busy_g = rv["drive_group"]
    groups, cores, drives, bus_g, bus_x = [], [], False, [], []
    for key in stale:  # (Ctx's resource keys)
        kind, i = key & RK_MASK, key >> RK_BITS
        if kind == RK_G:
            groups.append(i)
        elif kind == RK_CORE:
            cores.append(i)
        elif kind == RK_D:
            drives = True
            if ctx.d_group[i] >= 0 and not ctx.failed[i]:
                groups.append(ctx.d_group[i])  # its group's load per alive member
        elif kind == RK_BUS_G:
            bus_g.append(i)
        else:
            bus_x.append(i)
    # per group: U_g = min(host + ops + drive extras per alive member, 1); drive_group
    # (the load of each alive member, for drive_pct) = host + ops
    if new_g:
        np.add(U_host_g, T["g"], out=busy_g)
        extra_g = ctx.extra_by_group()
        if extra_g:
            extra = np.zeros(lay.G)
            for g, b in extra_g.items():
                extra[g] = b
            np.minimum(busy_g + extra / alive_n, 1.0, out=U_g)  # (alive_n >= 1)
        else:
            np.minimum(busy_g, 1.0, out=U_g)
    elif groups:
        # (Python floats per entry: lists and .item() rather than numpy scalars; the same doubles)
        host, T_g = ctx.U_host_g, ctx.total_lists[RK_G]
        extra_g = ctx.extra_by_group()
        for g in groups:
            busy = host[g] + T_g[g]
            busy_g[g] = busy
            extra = extra_g.get(g)
            U_g[g] = min(busy + extra / alive_n.item(g), 1.0) if extra else min(busy, 1.0)
    if sim.any_queue and (new_g or groups or new_core or cores):
        if not new_g:
            # a queued I/O's drive time (queue_s) follows each queued op's rate, not only the
            # group's total: a phase change that leaves a group's total as it was (a copy and
            # then an expansion both at the destination's free time) changes it too
            groups = sorted(set(groups).union(*(
                [k >> RK_BITS for k in op.placed if k & RK_MASK == RK_G]
                for op in sim.active if op.queue_depth > 0.0)))
        queue_columns(sim, None if new_g else groups, None if new_core else cores)
    # per drive (for charts): group load on alive members + per-drive extras, built for all
    # steps at once in drive_load(); the extras are copied only when they changed
    if drives or new_topo:
        extras = dict(ctx.extra) if drives or sim._drive_rec is None else sim._drive_rec[0]
        sim._drive_rec = (extras, drive_snapshot(sim))
    if new_core:
        np.minimum(np.add(core_host, T["core"], out=core_u), 100.0, out=core_u)
    elif cores:
        T_c = ctx.total_lists[RK_CORE]
        # (one tolist of the C entries per host-load version rather than an ndarray.item() per
        # read: a version is read here ~18 times; be_g below is not: G entries, ~8 reads)
        if core_host is not sim._core_src:
            sim._core_src, sim._core_vals = core_host, core_host.tolist()
        ch = sim._core_vals
        for c in cores:
            core_u[c] = min(ch[c] + T_c[c], 100.0)
    # the bus terms (bus_columns() sums them per bus at the end of the run)
    by_group, by_bus = rv["bus_by_group"], rv["bus_by_bus"]
    if new_bus:
        np.add(be_g, T["bus_g"], out=by_group)
        by_bus[:] = T["bus_x"]
    else:
        T_bg, T_bx = ctx.total_lists[RK_BUS_G], ctx.total_lists[RK_BUS_X]
        for g in bus_g:
            by_group[g] = be_g.item(g) + T_bg[g]
        for bx in bus_x:
            by_bus[bx] = T_bx[bx]
    return U_g, core_u


def place_op(sim: SimState, op: Op, ctx: Ctx) -> None:
    if not op.asap_class:
        place_economical(sim, op, ctx)
    elif not starved(sim, op, ctx):
        demand(sim, op, ctx)


def place_economical(sim: SimState, op: Op, ctx: Ctx) -> None:
    """An economical phase (asap_class 0; placed before the ASAP class). If its capped
    transfers all fit in the drive time left (after the host and the ops before it) it runs
    at its table rates: its resource use is a cached constant (Op.fixed), added without
    calling demand(). A transfer on a drive the host alone fills gets nothing (take() gives 0
    whatever the others do). Otherwise demand() runs on the same partial sums, so the outcome
    is the same."""
    f = op.fixed()
    if f is None or op.queue_depth > 0.0:  # (a queue depth: Little's law in take() may bind)
        demand(sim, op, ctx)
        return
    mu = ctx.max_util
    lim = mu - 1e-9  # a margin against rounding: near the limit, demand() decides
    dg, failed = ctx.d_group, ctx.failed
    # check every part against the partial sums plus this op's earlier parts
    rates = []
    pend_g: dict[int, float] = {}
    pend_d: dict[int, float] = {}
    pend_c: dict[int, float] = {}
    fits = True
    starved = False
    for p in f.parts:
        if ctx.starves(p):
            rates.append(0.0)  # a zero rate adds nothing anywhere
            starved = True
            continue
        for i, v in p.g:
            pend_g[i] = pend_g.get(i, 0.0) + v
        for d, v in p.d:
            pend_d[d] = pend_d.get(d, 0.0) + v
        for i in p.check_g:
            if ctx.used_g(i) + pend_g[i] > lim:
                fits = False
        for d in p.check_d:
            g = dg[d]
            used = ctx.used_d(d) + pend_d[d]
            if g >= 0 and not failed[d]:
                used += pend_g.get(g, 0.0)
            if used > lim:
                fits = False
        for key, v in p.adds:  # the CPU and bus it adds must fit in what the host and the others leave
            kind = key & RK_MASK
            if v > 0.0 and (kind == RK_CORE or kind == RK_BUS_X):
                pend = pend_c[key] = pend_c.get(key, 0.0) + v
                if kind == RK_CORE:
                    cap, host = 100.0, ctx.core_host[key >> RK_BITS]
                    top = 100.0 - 1e-9
                else:
                    cap, host = ctx.bus_mb_s, ctx.host_bus[key >> RK_BITS]
                    top = ctx.bus_mb_s * (1 - 1e-9)
                others = ctx.partial(key)
                used = host + others
                if used + pend > top:
                    fits = False
                    ctx.note_fit(key, host, others, _NEG_INF)
                else:  # it fits under any load up to this one, or up to the top with a margin
                    room = top - pend - cap * 1e-9
                    ctx.note_fit(key, host, others, room if room > used else used)
        rates.append(p.rate)
    if not fits:
        demand(sim, op, ctx)
        return
    total = 0.0
    for p, r in zip(f.parts, rates):
        p.stream.rate = r
        # at its cap: the level's policy holds it; nothing: the host fills a drive it needs
        p.stream.limit = "policy" if r > 0.0 or p.rate == 0.0 else "drives (host load)"
        total += r
    op.rate = total
    if not starved:  # (most placements) the op's additions are a constant: share it
        ctx.own = f.adds()  # (ctx.own was empty: place() starts each op with none)
        return
    for p, r in zip(f.parts, rates):
        if r == 0.0 and p.rate != 0.0:
            continue  # starved
        ctx.add_all(p.adds)


def starved(sim: SimState, op: Op, ctx: Ctx) -> bool:
    """An ASAP-class op whose every transfer is on a drive the host alone fills gets 0 MB/s
    whatever the others do (demand() would compute exactly that): set it so and skip
    demand()."""
    if not op.asap:
        return False
    f = op.fixed()
    if f is None or not f.parts:
        return False
    if not all(ctx.starves(p) for p in f.parts):
        return False
    for p in f.parts:
        p.stream.rate = 0.0
        p.stream.limit = "drives (host load)"
    op.rate = 0.0
    return True


def demand(sim: SimState, op: Op, ctx: Ctx) -> None:
    try:
        op.demand(ctx)
    except MissingRate as exc:
        sim.advise("warning", "no-rates", f"{op.event.id}: {exc}; its rate is not predicted", op.event.id)
        op.rate = 0.0
        for st_ in op.streams:
            st_.rate = 0.0


def drive_snapshot(sim: SimState) -> np.ndarray:
    """The drive layout for this topology version (failures, spares and replacements change
    only with a topology invalidation): per drive the column of DriveLoad.group_rows it
    shows: its group, G outside any group, G + 1 idle (failed and not being rebuilt)."""
    if getattr(sim, "_ds_key", None) != sim.topo:
        G = sim.lay.G
        dg = sim.lay.d_group
        # each drive's group column changes only when drives move between groups (a swap, rare;
        # compared as bytes), the idle ones with every failure, rebuild and replacement
        if dg.tobytes() != getattr(sim, "_ds_dg", None):
            sim._ds_dg = dg.tobytes()
            sim._ds_group = np.where(dg >= 0, dg, G).astype(np.int32)
        sim._ds = sim._ds_group.copy()
        sim._ds[sim.failed > sim.writing] = G + 1  # (bools: failed and not writing, one call)
        sim._ds_key = sim.topo
    return sim._ds