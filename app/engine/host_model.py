"""The host model's static part and its limits: controller caps and port scaling,
the host load of a version of the inputs (_host_static), the write cache fill by host writes
(host_fill_*; forced flush per controller) and the scaling of a centre an open load saturates
(_centre_scale). Functions of the run's state (SimState, sim_state.py).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .host_terms import (
    PAIR_TERMS, SUM_TERMS, _KB, _SCALAR_PAIRS, _SCALAR_SUMS, _WT_X_OPEN, _group_terms, _host_load, _move_pair,
    _offered, _pair_terms, _update_few, _workload_terms, pair_wcache,
)
from .op_streams import INF
from .recorded import INPUTS
from .sim_state import SimState



def port_scale(sim: SimState, ctrl: np.ndarray, X: np.ndarray, kb: np.ndarray, bound_mb: float = INF) -> np.ndarray | float:
    """Host ports: a controller's host MB/s cannot exceed its ports' MB/s; the pairs it
    serves are scaled down together (per pair factor; the float 1.0 when every controller's
    ports have room). bound_mb: at least the MB/s of any controller (the ports have room
    if it fits, with a margin for the rounding of the sums)."""
    n_ctrl = len(sim.lay.ctrl_names)
    cap = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
    if cap <= 0 or not len(X) or bound_mb <= cap * (1.0 - 1e-9):
        return 1.0
    mb = np.bincount(ctrl, weights=X * kb / 1024.0, minlength=n_ctrl)
    if max(mb.tolist(), default=0.0) <= cap:  # the common case, decided without the scale
        return 1.0
    scale = np.minimum(1.0, cap / np.maximum(mb, 1e-9))
    if (scale >= 1.0).all():
        return 1.0
    sim.advise("warning", "host-ports-saturated",
                "the host load exceeds the host ports' bandwidth of "
                + ", ".join(sim.lay.ctrl_names[k] for k in np.nonzero(scale < 1.0)[0])
                + f" ({cap:g} MB/s each); throughput is capped there", "project")
    return scale[ctrl]


def _host_static(sim: SimState) -> dict[str, Any]:
    """Per workload-pair arrays that change only when invalidate() was called, updated in
    place: when the invalidations named their groups/LUNs (a failure, a swap, a migration's
    end, one workload's change), only those pairs are recomputed, and a group's only if its
    per-group terms changed. Each version's response-time inputs go to sim.pair_history (only
    the recomputed pairs) for finish()."""
    lay = sim.lay
    dirty: Any = sim._dirty
    sim._dirty = set()
    on_groups, sim._dirty_groups = sim._dirty_groups, {}
    x_only, sim._dirty_x = sim._dirty_x, set()
    st = getattr(sim, "_st", None)
    alive_changed = False
    if getattr(sim, "_group_key", None) != sim.topo:  # failures and swaps bump sim.topo
        changed = _group_terms(sim)
        alive_changed = changed is not None
        if changed is not None and dirty is not None:  # a replacement drive arriving changes nothing here
            for g, pairs in on_groups.items():
                if g in changed:
                    dirty |= pairs
    if dirty is not None and x_only:
        x_only -= dirty
        dirty |= x_only
    recap, sim._recap = sim._recap, False  # only the centres' capping changed (forced flush)
    if st is not None and dirty is not None and not dirty and not alive_changed and not recap:
        # nothing the host load depends on changed: the same arrays (so the same host load
        # object: solve() keeps operations starved by it idle) and the same history version
        return st
    alive_n, alive_g = sim._alive
    if st is None or dirty is None:
        idx: Any = None
        sim._p_w_list, sim._p_l_list = sim.p_w.tolist(), sim.p_l.tolist()  # (_update_few)
        sim._pair_f, sim._pair_i, sim._pair_b = _pair_terms(sim, np.arange(sim.P))
        # _pair_i and _pair_b as lists too: _update_few reads them pair by pair (.item costs ~10x)
        sim._pair_i_rows, sim._pair_b_rows = sim._pair_i.tolist(), sim._pair_b.tolist()
        sim._sum_rows = sim._pair_f[SUM_TERMS].tolist()  # (_host_load's per-group sums)
        st = {name: sim._pair_f[k] for k, name in enumerate(PAIR_TERMS)}
        st.update(gi=sim._pair_i[0], ctrl=sim._pair_i[1], on=sim._pair_b[0], closed=sim._pair_b[1],
                  pw=sim.p_w, pl=sim.p_l, wcache=pair_wcache(sim))  # the last three fixed per pair
        terms, where = sim._pair_f[:len(INPUTS)].copy(), sim._pair_i.copy()
        same_x = False
        sim._group_pairs = [[] for _ in range(lay.G)]  # each group's pairs, ascending (_host_load)
        for k, g in enumerate(sim._pair_i[0].tolist()):
            sim._group_pairs[g].append(k)
        touched: Any = None
    else:
        idx = np.fromiter(dirty, int, len(dirty))
        # same_x: the pairs' offered IOPS, I/O size and controller are as they were (a
        # failure, a LUN moving between groups): the open IOPS and the per-workload and
        # per-controller sums stay (only the per-group ones change)
        if len(idx) <= _SCALAR_PAIRS:
            same_x, touched = _update_few(sim, idx.tolist())
            # (take: a few times faster than fancy indexing [:, idx] on a few columns)
            terms, where = sim._pair_f[:len(INPUTS)].take(idx, axis=1), sim._pair_i.take(idx, axis=1)
        elif len(x_only) == len(idx):
            # their workloads changed only their IOPS: only X_raw changes (what _pair_terms
            # would compute, without its ~50 array operations)
            pf = sim._pair_f
            x = _offered(_workload_terms(sim)[_WT_X_OPEN].take(sim.p_w[idx]), sim._pair_b[0].take(idx))
            same_x = x.tobytes() == pf[0].take(idx).tobytes()
            pf[0, idx] = x
            touched = None
            terms, where = pf[:len(INPUTS)].take(idx, axis=1), sim._pair_i.take(idx, axis=1)
        else:
            f, i, b = _pair_terms(sim, idx)
            pf, pi = sim._pair_f, sim._pair_i
            # (compared as bytes: a few times faster than (a == b).all(); equal bytes are equal values)
            same_x = (f[0].tobytes() == pf[0].take(idx).tobytes() and f[_KB].tobytes() == pf[_KB].take(idx).tobytes()
                      and i[1].tobytes() == pi[1].take(idx).tobytes())
            g_old, g_new = pi[0].take(idx), i[0]
            for j in (g_old != g_new).nonzero()[0].tolist():  # a migrated LUN's pairs
                _move_pair(sim, idx.item(j), g_old.item(j), g_new.item(j))
            touched = None  # many pairs (a workload change: on some 40 groups): every group's sums
            pf[:, idx], pi[:, idx], sim._pair_b[:, idx] = f, i, b
            sim._pair_i_rows, sim._pair_b_rows = pi.tolist(), sim._pair_b.tolist()
            sim._sum_rows = pf[SUM_TERMS].tolist()
            terms, where = f[:len(INPUTS)], i
        if not same_x:
            st.pop("agg", None)  # solve()'s per-version sums
    st["alive_g"], st["alive_n"] = alive_g, alive_n
    if same_x:
        scaled = sim._scaled
    else:
        scale = port_scale(sim, st["ctrl"], st["X_raw"], st["kb"], sim.open_mb)
        st["X_port"] = st["X_raw"] * scale  # a new array: solve() keeps it past this version
        scaled = isinstance(scale, np.ndarray)
    st["any_closed"] = sim.any_closed_w and bool((st["closed"] & st["on"]).any())
    # closed loops' think time per pair (ms; None: every closed loop issues its next I/O at once)
    think = sim.w_think.take(sim.p_w) if st["any_closed"] else None
    st["think_ms"] = think if think is not None and bool((think[st["closed"]] > 0).any()) else None
    # open workloads: the host load on every resource is fixed until the next invalidate();
    # an open load a centre cannot serve is served at that centre's capacity (_centre_scale)
    was_capped = getattr(sim, "_capped", False)
    capped = False
    x_prev = st.get("X_open")  # the served IOPS the history holds (before this version)
    if st["any_closed"]:
        st["host"] = st["host_off"] = None
        st.pop("served", None)
        st["X_open"] = st["X_port"]
        st["full_g"] = None
        sim.host_fill = None
    else:
        # the offered load's sums (kept from version to version, updated for the touched
        # groups), then the served one's where a centre caps it
        host = st.get("host_off")
        X_port = st["X_port"]
        st["full_g"] = None
        sim.host_fill = None
        host = _host_load(sim, st, X_port, host[2] if same_x and host else None, touched if host else None)
        st["host_off"] = host
        cap = _centre_scale(sim, st, X_port, host, touched)
        if cap is not None:
            capped = True
            st["X_open"] = X_port * cap
            # a group its own host load fills is at max_util (not a rounding below it: the
            # operations on it get no drive time, as before the cap; _host_load)
            st["full_g"] = host[0] > sim.max_util
            busy_off, host_off = st["host_busy"], st["host_off"]
            # the served load's sums: from the last version's where only some groups' pairs
            # changed their terms (touched) or their served IOPS, as the offered load's are
            served, groups = st.get("served"), None
            if served is not None and touched is not None and x_prev is not None and len(x_prev) == sim.P:
                groups = set(touched)
                groups.update(st["gi"].take((st["X_open"] != x_prev).nonzero()[0]).tolist())
                st["host_off"], st["host_busy"] = served[0], served[1].copy()  # (_host_load's base)
            host = _host_load(sim, st, st["X_open"], None, groups)
            st["served"] = (host, st["host_busy"])
            st["host_busy"], st["host_off"] = busy_off, host_off  # (the offered sums: the next update's base)
        else:
            st["X_open"] = X_port
            st.pop("served", None)
        st["host"] = host
    host_cache_follow(sim)
    if (capped or was_capped) and not (capped and was_capped and x_prev is not None
                                       and st["X_open"].tobytes() == x_prev.tobytes()):
        st.pop("agg", None)  # solve()'s per-version sums (the served IOPS changed)
    sim._capped = capped
    if scaled or getattr(sim, "_scaled", False):  # every pair's IOPS changed
        idx = touched = None
        terms, where = np.vstack([st["X_open"], sim._pair_f[1:len(INPUTS)]]), sim._pair_i.copy()
    elif (capped or was_capped) and idx is not None and x_prev is not None and len(x_prev) == sim.P:
        # served IOPS capped by a centre: the history gets the pairs whose served IOPS or
        # terms changed (a few groups' pairs as a rule, not every pair at every version)
        moved = (st["X_open"] != x_prev).nonzero()[0]
        # (a sorted merge of two short lists: np.union1d's unique and sort cost ~25 us a version)
        idx = np.array(sorted(set(idx.tolist()).union(moved.tolist())), int) if len(idx) else moved
        terms = np.vstack([st["X_open"].take(idx), sim._pair_f[1:len(INPUTS)].take(idx, axis=1)])
        where = sim._pair_i.take(idx, axis=1)
    elif capped or was_capped:
        idx = None
        terms, where = np.vstack([st["X_open"], sim._pair_f[1:len(INPUTS)]]), sim._pair_i.copy()
    sim._scaled = scaled
    sim._history_version = sim.pair_history.add(idx, terms, where)  # (record)
    return st


def host_cache_follow(sim: SimState) -> None:
    """A controller the host put in forced flush leaves it when its host writes no longer
    outrun the destage (a new host load): its cache is taken as drained at once (as at the
    end of a migration; the drain time is not modelled)."""
    if not sim.host_forced:
        return
    fill = sim.host_fill
    for c in sorted(sim.host_forced):
        if fill is None or fill[c] <= 1e-12:
            sim.host_forced.discard(c)
            set_forced(sim, c, False)
            sim.cache_fill[c] = max(float(sim.cache_fill[c]) - sim.host_dirty[c], 0.0)
            sim.host_dirty[c] = 0.0
            sim._recap = True  # (the pairs on it are served as cached again: _centre_scale)
            sim.version += 1


def set_forced(sim: SimState, c: int, on: bool) -> None:
    """Forced flush on controller c on or off (the flag Migration.set_forced sets too; the
    migrations on its write-cache path are placed again)."""
    if bool(sim.forced[c]) is not on:
        sim.forced = sim.forced.copy()  # a new array: recorded steps keep theirs
        sim.forced[c] = on
        ix = getattr(sim, "_run_index", None)
        if ix is not None:
            sim.dirty_ops.update(ix.cache_path_migs.get(c, ()))


def host_fill_in(sim: SimState) -> float:
    """Hours until the host writes fill a controller's write cache to the high watermark
    (INF: none fills)."""
    fill = sim.host_fill
    if fill is None:
        return INF
    best = INF
    at = sim.host_flush_at * sim.write_cache_mb
    # (Python floats and bools: a numpy scalar read costs ~10x; called every step)
    forced: list[bool] = sim.forced.tolist()
    cache_fill = sim.cache_fill
    for c, f in enumerate(fill.tolist()):
        if f > 1e-12 and not forced[c]:
            best = min(best, max(at - cache_fill.item(c), 0.0) / (f * 3600.0))
    return best


def host_fill_advance(sim: SimState, dt_h: float, t: float) -> None:
    """The host writes' share of the write cache after dt_h; at the high watermark the
    controller goes into forced flush (its writes then wait for the drives: a new host load)."""
    fill = sim.host_fill
    if fill is None:
        return
    at = sim.host_flush_at * sim.write_cache_mb
    cache_fill = sim.cache_fill
    for c, f in enumerate(fill.tolist()):
        if f <= 1e-12 or sim.forced.item(c):
            continue
        # (on Python floats, the same additions: numpy scalar arithmetic costs ~10x a step)
        filled: float = cache_fill.item(c) + f * dt_h * 3600.0
        cache_fill[c] = filled
        sim.host_dirty[c] += f * dt_h * 3600.0
        if filled >= at - 1e-6:
            sim.host_forced.add(c)
            set_forced(sim, c, True)
            sim._recap = True  # the controller's writes are back-end bound now (_centre_scale)
            sim.version += 1
            from app.domain.formatting import format_time
            name = sim.lay.ctrl_names[c]
            sim.advise("warning", "host-forced-flush",
                        f"{name}: the host writes outrun what the drives can destage ({f:.1f} MB/s more); the "
                        f"write cache reaches its {sim.host_flush_at * 100:g}% watermark at {format_time(t + dt_h)} "
                        "and from then on every write on this controller waits for the drives (forced flush)",
                        name, "emc 'Best practices for migrations' (forced flushes: poor response times)")


def _centre_scale(sim: SimState, st, X: np.ndarray, host: tuple, touched: set[int] | None = None) -> np.ndarray | None:
    """Open workloads against the centres' capacity (docs/model.md section 2.3): a RAID group's
    drives, a controller's cores and a back-end bus can be busy at most host.max_util of the
    time. Where the offered host load alone asks for more, the pairs through that centre are
    served at its capacity (scaled down together; a pair through several takes the smallest
    factor) and the rest is unserved demand (the Result's offered_iops beside iops, the
    host-overload advisory naming the centre). Returns the per-pair factor, None when every
    centre has room (the common case: three comparisons)."""
    U_g, _, core_u, be_g = host
    mu = sim.max_util
    lim = mu * (1.0 + 1e-12)
    lay = sim.lay
    # (np.maximum.reduce: what .max() calls, without its Python frame; every version)
    over_g = bool(len(U_g)) and float(np.maximum.reduce(U_g)) > lim
    over_c = bool(len(core_u)) and float(np.maximum.reduce(core_u)) > lim * 100.0
    bus_cap = sim.platform.bus_mb_s * mu
    bus_mb: Any = None
    over_b = False
    if bus_cap > 0 and len(be_g) and lay.B and float(np.add.reduce(be_g)) > bus_cap * (1.0 - 1e-9):
        bus_mb = be_g @ lay.GB
        over_b = float(np.maximum.reduce(bus_mb)) > bus_cap * (1.0 + 1e-12)
    memo = st.pop("centre_memo", None)  # (the last call's, when only groups capped it)
    if not (over_g or over_c or over_b):
        return None
    if memo is not None and touched is not None and not (over_c or over_b):
        few = _centre_scale_few(sim, st, X, U_g, touched, memo)
        if few is not None:
            return few
    gi, ctrl = st["gi"], st["ctrl"]
    on = X > 0
    scale = np.ones(len(X))
    sat = sim.saturated
    if over_g:
        # a write-back cache with room takes the writes the drives cannot destage now: the
        # drives serve the reads (and uncached writes) first and destage with the rest of
        # their time; the excess fills the cache of the LUN's controller (host_fill, an engine
        # event at the high watermark); in forced flush the writes wait for the drives
        # (the fill is computed as if no controller were in forced flush: a controller stays in
        # it while its writes would still fill the cache, host_cache_follow)
        cached = st["wcache"] & (sim.write_cache_mb < INF)
        forced_p = sim.forced[ctrl]
        alive = st["alive_g"]

        def split(absorb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """(the absorbed writes' busy per group, the rest of the busy, the group factor)"""
            if absorb.any():
                w_busy = np.bincount(gi, weights=X * st["busy_w"] * absorb, minlength=lay.G) / alive
            else:
                w_busy = np.zeros(lay.G)
            must = U_g - w_busy
            return w_busy, must, np.minimum(1.0, mu / np.maximum(must, 1e-300))

        w_busy, must, s_g = split(cached)
        # of the absorbed writes' work: the part the drives' time left over cannot destage
        room = np.maximum(mu - must, 0.0)
        to_cache = np.where((U_g > lim) & (w_busy > 0), 1.0 - np.minimum(room / np.maximum(w_busy, 1e-300), 1.0), 0.0)
        mb = X * s_g[gi] * (1 - st["r"]) * st["kb"] / 1024.0 * cached * to_cache[gi]
        sim.host_fill = np.bincount(ctrl, weights=mb, minlength=len(lay.ctrl_names))
        if forced_p.any():  # writes on a controller in forced flush wait for the drives
            w_busy, must, s_g = split(cached & ~forced_p)
        scale = np.minimum(scale, s_g[gi])
        # (each group's peak demand, an array: no Python loop over the groups per version)
        np.maximum(sim.sat_g, np.where(U_g > lim, U_g, 0.0), out=sim.sat_g)
        if not (over_c or over_b):  # the next version's base (_centre_scale_few)
            st["centre_memo"] = (X, U_g, alive, sim.forced, cached.tolist(), mb, scale.copy())
    if over_c:
        # a controller's host CPU is spread evenly over its cores: its busiest core decides
        c_max = np.maximum.reduceat(core_u, lay.core_off) / 100.0
        s_c = np.minimum(1.0, mu / np.maximum(c_max, 1e-300))
        scale = np.minimum(scale, s_c[ctrl])
        for c in np.flatnonzero(c_max > lim).tolist():
            key = ("c", c)
            sat[key] = max(sat.get(key, 0.0), float(c_max[c]))
    if over_b:
        s_b = np.minimum(1.0, bus_cap / np.maximum(bus_mb, 1e-300))
        # a group's transfers cross each of its buses: the smallest factor of its buses
        s_gb = np.where(lay.GB > 0, s_b[None, :], 1.0).min(axis=1)
        scale = np.minimum(scale, s_gb[gi])
        for b in np.flatnonzero(bus_mb > bus_cap * (1.0 + 1e-12)).tolist():
            key = ("b", b)
            sat[key] = max(sat.get(key, 0.0), float(bus_mb[b] / max(sim.platform.bus_mb_s, 1e-9)))
    sim.unserved_mask |= np.bincount(st["pw"], weights=on & (scale < 1.0), minlength=len(sim.workloads)) > 0
    return scale

def _centre_scale_few(sim: SimState, st, X: np.ndarray, U_g: np.ndarray, touched: set[int],
                      memo: tuple) -> np.ndarray | None:
    """_centre_scale where only groups cap the open load, now and at the last call (memo), and
    the pairs of only a few groups changed (touched: their terms; those whose IOPS, group load
    or alive members moved are added here): their pairs' factors and cache-fill MB/s again on
    Python floats, in the order and the arithmetic of the arrays' path (the same values), the
    other pairs' kept. ~40 numpy calls on every pair cost more than a few groups' arithmetic.
    None: too many pairs changed (the caller takes the arrays' path)."""
    x_prev, u_prev, a_prev, forced_prev, cached, mb, scale = memo
    if sim.forced is not forced_prev:  # (a new array when a controller enters or leaves forced flush)
        return None
    lay = sim.lay
    alive = st["alive_g"]
    groups = set(touched)
    if X is not x_prev:
        groups.update(st["gi"].take((X != x_prev).nonzero()[0]).tolist())
    if U_g is not u_prev:
        groups.update((U_g != u_prev).nonzero()[0].tolist())
    if alive is not a_prev:
        groups.update((alive != a_prev).nonzero()[0].tolist())
    group_pairs: list[list[int]] = sim._group_pairs
    if sum(len(group_pairs[g]) for g in groups) > _SCALAR_SUMS:
        return None
    mu = sim.max_util
    lim = mu * (1.0 + 1e-12)
    forced = sim.forced
    p_ctrl: list[int] = sim._pair_i_rows[1]
    p_w: list[int] = sim._p_w_list
    any_forced = bool(forced.take(st["ctrl"]).any())
    sat_g, mask = sim.sat_g, sim.unserved_mask
    order = sorted(groups)
    # the changed groups' pairs' values gathered once (a take and a tolist per row: an .item
    # per pair and row cost ~6 method calls a pair)
    ks: list[int] = [k for g in order for k in group_pairs[g]]
    xs: list[float] = X.take(ks).tolist()
    rs: list[float] = st["r"].take(ks).tolist()
    kbs: list[float] = st["kb"].take(ks).tolist()
    bws: list[float] = st["busy_w"].take(ks).tolist()
    a_g: list[float] = alive.take(order).tolist()
    u_g: list[float] = U_g.take(order).tolist()
    peak_g: list[float] = sat_g.take(order).tolist()
    f_ctrl: list[bool] = forced.tolist() if any_forced else []
    at = 0  # the first of the group's pairs in ks
    for j, g in enumerate(order):
        pairs = group_pairs[g]
        n = len(pairs)
        a: float = a_g[j]
        u: float = u_g[j]
        # split(cached): the absorbed writes' busy, the rest, the group factor
        wb: float = 0.0
        for i in range(at, at + n):
            wb += xs[i] * bws[i] * (1.0 if cached[ks[i]] else 0.0)
        w_busy = wb / a
        must = u - w_busy
        s_g = _min1(mu / max(must, 1e-300))
        room = max(mu - must, 0.0)
        to_cache = 1.0 - min(room / max(w_busy, 1e-300), 1.0) if u > lim and w_busy > 0 else 0.0
        for i in range(at, at + n):
            k = ks[i]
            mb[k] = (xs[i] * s_g * (1 - rs[i]) * kbs[i] / 1024.0 * (1.0 if cached[k] else 0.0) * to_cache)
        if any_forced:  # writes on a controller in forced flush wait for the drives
            wb = 0.0
            for i in range(at, at + n):
                k = ks[i]
                keep = cached[k] and not f_ctrl[p_ctrl[k]]
                wb += xs[i] * bws[i] * (1.0 if keep else 0.0)
            s_g = _min1(mu / max(u - wb / a, 1e-300))
        for i in range(at, at + n):
            k = ks[i]
            scale[k] = s_g
            if s_g < 1.0 and xs[i] > 0:
                mask[p_w[k]] = True
        peak = u if u > lim else 0.0
        if peak > peak_g[j]:
            sat_g[g] = peak
        at += n
    sim.host_fill = np.bincount(st["ctrl"], weights=mb, minlength=len(lay.ctrl_names))
    st["centre_memo"] = (X, U_g, alive, forced, cached, mb, scale)
    return scale.copy()


def _min1(x: float) -> float:
    """np.minimum(1.0, x) of a float (a NaN stays NaN)."""
    return x if not x >= 1.0 else 1.0
