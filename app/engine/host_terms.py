"""The host model's terms: per workload (_workload_terms), per group (_group_terms) and per
workload-LUN pair (_pair_terms, _pair_arith), kept incrementally from step to step (dirty pairs
and groups, _update_few), and the host load on each group from them (_host_load). Functions of
the run's state (SimState, sim_state.py); docs/model.md 2-3 has the equations.
"""
from __future__ import annotations

import bisect
from typing import Any, Final

import numpy as np

from app.domain.hardware import reordered_seek_share

from .sim_state import SimState
from .write_cost import penalty_overrides



_SCALAR_PAIRS = 16  # host_model._host_static: up to this many dirty pairs, Python floats are faster than numpy
_SCALAR_SUMS = 32  # host_terms._host_load: up to this many pairs on the changed groups, their sums on floats
_WT_X_OPEN = 9  # the open IOPS per LUN's row in host_terms._workload_terms() (x_open in _pair_arith)


def _pick(cond, a, b):
    """np.where for arrays, a conditional for floats (the one-pair, one-group and one-workload
    paths of the host load compute with the same functions as the array ones)."""
    return np.where(cond, a, b) if isinstance(cond, np.ndarray) else (a if cond else b)


def _random_share(rb, hb):
    """The random fraction of a group's host busy time hb (rb: its random part; 1 when idle),
    for arrays of groups or one group's floats."""
    return _pick(hb > 0, rb / _pick(hb > 1e-12, hb, 1e-12), 1.0)


def _same(a, b) -> bool:
    """Two numbers are equal or both NaN."""
    return a == b or (a != a and b != b)


def _offered(x_open, on):
    """A pair's offered IOPS (X_raw): its workload's open IOPS per LUN, 0 without an I/O path."""
    return x_open * on


def _reordered_share(span, queue):
    """hardware.reordered_seek_share for numpy rows (each distinct span and queue once) and
    Python floats."""
    if isinstance(queue, np.ndarray):
        span_row = np.broadcast_to(span, queue.shape)
        out = np.ones(queue.shape)
        for i in np.flatnonzero(queue > 1.0).tolist():
            out[i] = reordered_seek_share(float(span_row[i]), float(queue[i]))
        return out
    return reordered_seek_share(float(span), float(queue))


def _pair_arith(wt, gt, hit_scale, opt, on, seq64: bool, frag_k: float | None) -> tuple:
    """The host path's per-pair terms (PAIR_TERMS, in order), written once for numpy rows
    (many pairs) and Python floats (one pair; the same IEEE operations, so the same values):
    wt: the workload's factors (host_terms._workload_terms), gt: the group's (host_terms._group_terms),
    hit_scale and opt: the LUN's cache re-warm scale and optimization, on: the pair has an I/O
    path; seq64: sequential reads are timed per 64 KB; frag_k: fragmentation slows them."""
    (r, omr, rnd, kb, kbm, omr_rnd, r_omrnd, omr_omrnd, hit_w, x_open, n_raw, n_out, kb64) = wt
    seq, rand_s, pen, fullstripe, data1, wpass, rd_mult, seq_deg, rrf_mult, seek_s, seek_span, serving = gt
    hit = hit_w * hit_scale
    r_omh = r * (1 - hit)
    s_seqr = kbm / seq
    # a closed loop's I/Os wait at the drives its group spreads them over; a drive with a queue
    # serves it in order of position (elevator) and seeks shorter (n_raw: 0 for an open load)
    s_rand = rand_s - seek_s * (1.0 - _reordered_share(seek_span, n_raw / serving)) + s_seqr
    seq_read = r_omrnd * s_seqr * seq_deg
    t_seq = kb64 if seq64 else s_seqr * 1000.0 / data1
    if frag_k is not None:  # fragmentation (WAFL) slows sequential reads
        over = opt - 1.0
        frag = 1.0 + frag_k * _pick(over > 0.0, over, 0.0)
        seq_read = seq_read * frag
        t_seq = t_seq * frag
    t_seq = t_seq * seq_deg
    busy_per_io = (r_omh * rnd * s_rand * rd_mult
                   + omr_rnd * pen * s_rand
                   + seq_read
                   + omr_omrnd * s_seqr * fullstripe)
    be_mb_per_io = kbm * (r_omh + omr * _pick(rnd > 0.5, pen, fullstripe))
    r_rand_fixed = s_rand * 1000.0 * rrf_mult
    # a write the back end must complete first (no write-back cache, forced flush): random ones
    # take the RAID level's service times in a row (app/domain/raid.py write_service_times),
    # sequential ones a full-stripe transfer over the data disks
    w_unc = rnd * wpass * r_rand_fixed + (1 - rnd) * (s_seqr * 1000.0 / data1)
    busy_w = omr_rnd * pen * s_rand + omr_omrnd * s_seqr * fullstripe  # the writes' part of busy_per_io
    X_raw = _offered(x_open, on)
    return X_raw, r, hit, rnd, t_seq, r_rand_fixed, w_unc, kb, busy_per_io, be_mb_per_io, n_raw, n_out, busy_w


_WL_ARRAYS = (  # Sim's per-workload arrays: (attribute, dtype, value of a workload)
    ("w_closed", bool, lambda w: w["mode"] == "closed"),
    ("w_iops", float, lambda w: float(w["iops"] or 0)),
    ("w_out", float, lambda w: float(w["outstanding"] or 0)),
    ("w_think", float, lambda w: float(w["think_ms"] or 0)),  # closed loops' think time Z (ms)
    ("w_r", float, lambda w: float(w["read_pct"]) / 100),
    ("w_kb", float, lambda w: float(w["io_kb"])),
    ("w_rand", float, lambda w: float(w["random_pct"]) / 100),
    ("w_hit", float, lambda w: np.nan if w["read_hit_pct"] is None else float(w["read_hit_pct"]) / 100),
)


# per-pair float terms (one row each of Sim._pair_f); the first ones are recorded.INPUTS
PAIR_TERMS: Final = ("X_raw", "r", "hit", "rnd", "t_seq", "r_rand_fixed", "w_unc", "kb", "busy_per_io",
                     "be_mb_per_io", "n_raw", "n_out", "busy_w")
_KB: Final = PAIR_TERMS.index("kb")
# the rows _host_load sums per group, kept as lists beside _pair_f (Sim._sum_rows)
SUM_TERMS: Final = [PAIR_TERMS.index("busy_per_io"), PAIR_TERMS.index("rnd"), PAIR_TERMS.index("be_mb_per_io")]


def _wl_arrays(sim: SimState, wi: int | None = None) -> None:
    """Workload parameters as arrays; wi: only that workload changed (its pairs are dirty, or
    only their offered IOPS if only its IOPS changed; nothing if no value changed)."""
    if wi is not None:
        changed = [name for name, _, value in _WL_ARRAYS  # (NaN: the platform's default in both)
                   if not _same(getattr(sim, name).item(wi), value(sim.workloads[wi]))]
        if not changed:
            return  # a change to the values it has: the same host load (no new version to solve)
    sim.version = getattr(sim, "version", 0) + 1
    if wi is None:
        sim._dirty = None  # every pair
        sim._dirty_groups = {}  # pairs to recompute if their group's terms changed
        sim._dirty_x = set()  # pairs whose offered IOPS alone changed (_host_static)
        sim._topo_groups = None  # groups whose drives changed (None: any)
        sim._row_ids = {}  # (_value_id)
        # _update_few: a pair's terms by (workload value id, group value id, the LUN's re-warm
        # scale, optimization, I/O path): _pair_arith of the same floats, once per run
        sim._arith_memo = {}
    elif sim._dirty is not None:  # (an open workload's IOPS change alters its pairs' X_raw only)
        (sim._dirty_x if changed == ["w_iops"] else sim._dirty).update(sim._pairs_of_w[wi])
    if wi is None:
        sim._pairs_of_w = [[] for _ in sim.workloads]  # (fixed per run)
        for k, w in enumerate(sim.p_w.tolist()):
            sim._pairs_of_w[w].append(k)
        for name, dtype, value in _WL_ARRAYS:
            setattr(sim, name, np.array([value(w) for w in sim.workloads], dtype))
    else:
        for name, _, value in _WL_ARRAYS:
            getattr(sim, name)[wi] = value(sim.workloads[wi])
    sim.any_closed_w = bool(sim.w_closed.any())
    sim.w_running = (sim.w_iops > 0) | (sim.w_closed & (sim.w_out > 0))  # offering I/O
    # the open workloads' host MB/s together: a bound of any controller's (port_scale)
    sim.open_mb = float(np.where(sim.w_closed, 0.0, sim.w_iops * sim.w_kb / 1024.0).sum())
    if wi is None or sim._wl_terms is None:
        sim._wl_terms = None
        sim._wl_rows = None  # rebuilt by _workload_terms()
    else:  # that workload's column only (on Python floats)
        column = _workload_factors(sim, wi)
        sim._wl_terms[:, wi] = column
        if sim._wl_rows is not None:
            sim._wl_rows[wi] = column
            sim._wl_ids[wi] = _value_id(sim, column)


def _workload_factors(sim: SimState, wi: int | None = None) -> list:
    """The rows of _workload_terms(): every workload's (arrays), or workload wi's (floats)."""
    pick = (lambda a: a) if wi is None else (lambda a: a.item(wi))
    r, rnd, kb, hit = pick(sim.w_r), pick(sim.w_rand), pick(sim.w_kb), pick(sim.w_hit)
    n_luns = pick(sim.w_nluns)
    per_lun = _pick(n_luns > 1.0, n_luns, 1.0)
    n_raw = pick(sim.w_out) / per_lun
    return [
        r, 1 - r, rnd, kb, kb / 1024.0, (1 - r) * rnd, r * (1 - rnd), (1 - r) * (1 - rnd),
        _pick(hit != hit, pick(sim.hit_curve), hit),  # (a NaN: the cache's hit curve, _hit_curve)
        _pick(pick(sim.w_closed), 0.0, pick(sim.w_iops) / per_lun),  # open workloads' IOPS per LUN
        n_raw, _pick(n_raw > 1.0, n_raw, 1.0),
        kb / 64.0 * sim.seq64 if sim.seq64 is not None else kb * 0.0,
    ]


def _workload_terms(sim: SimState) -> np.ndarray:
    """The per-workload factors of _pair_terms() (one row each, in the order it unpacks
    them), computed once per run and then per workload change: the values the pair
    formulas would compute."""
    if sim._wl_terms is None:
        sim._wl_terms = np.array(_workload_factors(sim))
    return sim._wl_terms


def _workload_rows(sim: SimState) -> list[list[float]]:
    """_workload_terms() per workload, as Python floats (_update_few), and their value ids
    in sim._wl_ids."""
    if sim._wl_rows is None:
        sim._wl_rows = _workload_terms(sim).T.tolist()
        sim._wl_ids = [_value_id(sim, row) for row in sim._wl_rows]
    return sim._wl_rows


def _value_id(sim: SimState, row: list[float]) -> int:
    """A small int per distinct row of factors (workload or group) in this run: the keys of
    _update_few's memo (equal rows, equal id; NaN rows: always a new id)."""
    return sim._row_ids.setdefault(tuple(row), len(sim._row_ids))


def pair_wcache(sim: SimState) -> np.ndarray:
    """Per pair: its writes go to a write-back cache (the LUN's write cache is on and the
    array has one; write_cache_mb = 0 makes every write write-through)."""
    return sim.lay.l_wcache[sim.p_l] & (sim.write_cache_mb > 0)


def _group_terms(sim: SimState) -> set[int] | None:
    """Per-group arrays for this topology version: alive members, and the per-group factors
    of _pair_terms() (one row each, in its order; a group's column is its whole or its
    degraded one). Only the groups invalidate() named are counted again (a topology change
    without groups: all). Returns None if no group's alive count changed, else the groups
    whose factors changed."""
    lay = sim.lay
    sim._group_key = sim.topo
    named: Any = sim._topo_groups
    sim._topo_groups = set()
    before = getattr(sim, "_alive", None)
    whole, degraded = _group_factors(sim)
    if before is None or named is None:
        failed_in = sim.failed & (lay.d_group >= 0)
        alive_n = np.maximum(lay.g_width - np.bincount(lay.d_group[failed_in], minlength=lay.G)[:lay.G], 1.0)
        if before is not None and np.array_equal(alive_n, before[0]):
            return None
        deg = (alive_n < lay.g_width) & lay.g_parity  # degraded parity groups
        terms = np.where(deg, degraded, whole)
        changed = (set(range(lay.G)) if before is None
                   else set(np.flatnonzero((terms != sim._grp_terms).any(axis=0)).tolist()))
        sim._grp_terms, sim._degraded = terms, deg.tolist()
        sim._grp_rows = None
    else:
        # (one or two groups: Python numbers)
        counted = {}
        for g in named:  # (a group's members are its drives in lay.d_group)
            # (int(): a float minus a numpy int goes through numpy's scalar math, ~9k instructions)
            n = max(lay.g_width.item(g) - int(np.count_nonzero(sim.failed[lay.g_members[g]])), 1.0)
            if n != before[0].item(g):
                counted[g] = n
        if not counted:
            return None
        alive_n = before[0].copy()  # new arrays: solve() compares them by identity
        rows, factor_rows = _group_rows(sim), sim._grp_factor_rows
        changed = set()
        for g, n in counted.items():
            alive_n[g] = n
            deg = bool(n < lay.g_width.item(g) and lay.g_parity.item(g))
            if deg != sim._degraded[g]:
                sim._degraded[g] = deg
                column = factor_rows[deg][g]
                if column != rows[g]:
                    sim._grp_terms[:, g] = rows[g] = column
                    changed.add(g)
    # the drives a group's host I/O is spread over: a dedicated-parity group's data drives
    sim._alive = alive_n, (np.where(lay.g_dedicated_parity, np.minimum(alive_n, lay.g_data), alive_n)
                            if sim._any_dedicated_parity else alive_n)
    return changed


def _group_factors(sim: SimState) -> tuple[np.ndarray, np.ndarray]:
    """_group_terms()'s factors of every group, whole and degraded (fixed for the run; they
    read only the Layout's static group arrays and two rates, so the runs of a shared
    Layout (LayoutCache) take the first one's: lay.group_factors)."""
    if getattr(sim, "_grp_factors", None) is None:
        lay = sim.lay
        # a platform may override the RAID write penalty (host.write_penalty.<RAID level>)
        # (write_cost.py: the operations read the same overrides)
        pen_over = penalty_overrides(sim.R, lay.g_raid)
        key: tuple = (sim.degr_seq, sim.degr_fac) + ((pen_over,) if pen_over else ())
        cached = lay.group_factors.get(key)
        if cached is None:
            width = lay.g_width
            # a degraded parity group's random read: 1/N of them rebuilt from the stripe's data
            # chunks (RAID 5 N - 1, RAID 6 N - 2, a pool's 8+2 stripe 8; RaidMath)
            wider = lay.g_degraded_read
            pen = lay.g_pen
            if pen_over:
                over = dict(pen_over)
                pen = np.array([over.get(raid, p) for raid, p in zip(lay.g_raid, lay.g_pen.tolist())], float)
            fixed = [lay.g_seq, lay.g_rand / 1000.0, pen, width / lay.g_data, np.maximum(lay.g_data, 1.0),
                     lay.g_wpass]
            ones = np.ones(lay.G)
            resp = lay.g_resp  # an SSD's latency over its busy time per I/O (1 for disks)
            # the seek a queue can shorten, its span, and the drives a closed loop's I/Os wait
            # at (a dedicated-parity group's data drives, else all members)
            seek = [lay.g_seek / 1000.0, lay.g_seek_span,
                    np.where(lay.g_dedicated_parity, np.maximum(lay.g_data, 1.0), width)]
            factors = (
                np.array(fixed + [ones, ones, resp] + seek),
                np.array(fixed + [
                    wider,  # random read multiplier
                    ones / sim.degr_seq if sim.degr_seq else wider,  # sequential read
                    (1.0 + (sim.degr_fac - 1.0) / width) * resp,  # fixed random response
                ] + seek))
            for f in factors:
                f.flags.writeable = False  # shared by the runs
            # per group as Python floats, [whole, degraded] (_group_terms' one-group path), and
            # a small int per distinct row (_update_few's memo: many groups have the same
            # factors; equal rows, equal id, as _value_id; their own ids: the memo's keys
            # never compare a group's id with a workload's)
            rows = [f.T.tolist() for f in factors]
            ids: dict[tuple, int] = {}
            row_ids = [[ids.setdefault(tuple(row), len(ids)) for row in rs] for rs in rows]
            cached = lay.group_factors[key] = (factors, rows, row_ids, bool(lay.g_dedicated_parity.any()))
        sim._grp_factors, sim._grp_factor_rows, sim._grp_factor_ids, sim._any_dedicated_parity = cached
    return sim._grp_factors


def _group_rows(sim: SimState) -> list[list[float]]:
    """_group_terms()'s factors per group, as Python floats (_update_few)."""
    if sim._grp_rows is None:
        sim._grp_rows = sim._grp_terms.T.tolist()
    return sim._grp_rows


def _pair_terms(sim: SimState, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The host path of pairs idx: what each I/O costs the drives, its response-time inputs
    (the first rows: recorded.INPUTS) and its offered IOPS (before the host ports' limit).
    Returns (floats: PAIR_TERMS x n, ints: group and controller x n, bools: on and closed x n).
    Per-workload and per-group factors are gathered once (the same values per pair)."""
    lay = sim.lay
    pw, pl = sim.p_w[idx], sim.p_l[idx]
    g = lay.l_group[pl]
    gi = np.maximum(g, 0)  # a LUN outside any group (-1) reads group 0's factors (and is off)
    ctrl = lay.l_owner[pl]
    on = lay.l_live[pl] & (g >= 0) & ~sim.offline[ctrl]
    hit_scale = lay.l_hit_scale[pl] * lay.l_rcache[pl]  # (a LUN without read cache: no hits)
    opt = lay.l_opt[pl] if sim.frag_k is not None else None
    f_rows = _pair_rows_few(sim, pw, gi, hit_scale, opt, on) if len(idx) <= _SCALAR_PAIRS else None
    if f_rows is None:
        # (take: a gather of columns, a few times faster than fancy indexing [:, pw])
        f_rows = np.array(_pair_arith(_workload_terms(sim).take(pw, axis=1), sim._grp_terms.take(gi, axis=1),
                                      hit_scale, opt, on, sim.seq64 is not None, sim.frag_k))
    return f_rows, np.array([gi, ctrl]), np.array([on, sim.w_closed[pw]])


def _pair_rows_few(sim: SimState, pw: np.ndarray, gi: np.ndarray, hit_scale: np.ndarray, opt: np.ndarray | None,
                   on: np.ndarray) -> np.ndarray | None:
    """_pair_terms()'s float rows of a few pairs (a small project's every pair, at its first
    version), pair by pair on Python floats: the same IEEE operations as the rows (as
    _update_few), without ~50 numpy calls. None where a pair divides by zero (the rows give
    inf or NaN there, Python floats raise): the caller takes the rows' path."""
    wt, gt = _workload_rows(sim), _group_rows(sim)
    seq64, frag_k = sim.seq64 is not None, sim.frag_k
    hs: list[float] = hit_scale.tolist()
    opts: list[float] | None = opt.tolist() if opt is not None else None
    ons: list[bool] = on.tolist()
    gis: list[int] = gi.tolist()
    cols = []
    try:
        for j, w in enumerate(pw.tolist()):
            cols.append(_pair_arith(wt[w], gt[gis[j]], hs[j], opts[j] if opts is not None else None, ons[j],
                                    seq64, frag_k))
    except ZeroDivisionError:
        return None
    return np.array(cols, float).reshape(len(cols), len(PAIR_TERMS)).T.copy()


def _update_few(sim: SimState, pairs: list[int]) -> tuple[bool, set[int]]:
    """_pair_terms() of a few pairs (a failure's group, a migrated LUN), one by one on
    Python floats, stored in place: a numpy call on a handful of values costs more than the
    arithmetic. Returns (the pairs' offered IOPS, I/O size and controller are as they were,
    the groups they leave, join or stay on)."""
    lay = sim.lay
    pf, pi, pb = sim._pair_f, sim._pair_i, sim._pair_b
    # (their values, as lists; typed: the compiled engine reads and compares them unboxed)
    p_g: list[int] = sim._pair_i_rows[0]
    p_ctrl: list[int] = sim._pair_i_rows[1]
    p_on: list[bool] = sim._pair_b_rows[0]
    p_closed: list[bool] = sim._pair_b_rows[1]
    s_busy: list[float] = sim._sum_rows[0]
    s_rnd: list[float] = sim._sum_rows[1]
    s_be: list[float] = sim._sum_rows[2]
    i_busy, i_rnd, i_be = SUM_TERMS
    wt, gt, p_w, p_l = _workload_rows(sim), _group_rows(sim), sim._p_w_list, sim._p_l_list
    # (a group's factors are its whole or degraded ones: _group_terms)
    w_ids, g_ids, memo = sim._wl_ids, sim._grp_factor_ids, sim._arith_memo
    degraded: list[bool] = sim._degraded
    l_group, l_owner, l_live, offline = lay.l_group, lay.l_owner, lay.l_live, sim.offline
    seq64, frag_k = sim.seq64 is not None, sim.frag_k
    same_x = True
    touched: set[int] = set()
    for k in pairs:
        w, l = p_w[k], p_l[k]
        g: int = l_group.item(l)
        ctrl: int = l_owner.item(l)
        gi = max(g, 0)  # as in _pair_terms
        on: bool = l_live.item(l) and g >= 0 and not offline.item(ctrl)
        hit_scale = lay.l_hit_scale.item(l) * lay.l_rcache.item(l)
        opt = lay.l_opt.item(l) if frag_k is not None else None
        key = (w_ids[w], g_ids[degraded[gi]][gi], hit_scale, opt, on)
        terms = memo.get(key)
        if terms is None:  # (the floats, and as an array: writing a tuple into pf's column costs 1.6x)
            f = _pair_arith(wt[w], gt[gi], hit_scale, opt, on, seq64, frag_k)
            terms = memo[key] = f, np.array(f)
        f, column = terms
        g_old, ctrl_old = p_g[k], p_ctrl[k]
        # X_raw and kb (PAIR_TERMS 0 and _KB) compared as values (a NaN: not the same)
        if same_x and (ctrl != ctrl_old or f[0] != pf.item(0, k) or f[_KB] != pf.item(_KB, k)):
            same_x = False
        pf[:, k] = column
        s_busy[k], s_rnd[k], s_be[k] = f[i_busy], f[i_rnd], f[i_be]
        touched.update((g_old, gi))
        # the group, controller, I/O path and mode mostly stay (a failure): written if not
        if gi != g_old:
            _move_pair(sim, k, g_old, gi)
        if gi != g_old or ctrl != ctrl_old:
            pi[:, k] = p_g[k], p_ctrl[k] = gi, ctrl
        closed: bool = sim.w_closed.item(w)
        if on != p_on[k] or closed != p_closed[k]:
            pb[:, k] = p_on[k], p_closed[k] = on, closed
    return same_x, touched


def _move_pair(sim: SimState, k: int, g_old: int, g: int) -> None:
    """Pair k's LUN moved from group g_old to g (_group_pairs, in pair order)."""
    sim._group_pairs[g_old].remove(k)
    bisect.insort(sim._group_pairs[g], k)


def _host_load(sim: SimState, st, X, core_host: np.ndarray | None = None, groups: set[int] | None = None) -> tuple:
    """The host I/O's load of pair IOPS X (0 on pairs without an I/O path: the LUN unbound,
    its controller offline): (group utilization, random fraction of each group's host busy
    time, SP-core utilization, back-end MB/s per group). core_host: the SP-core utilization
    if it is known unchanged (the same IOPS per controller). groups: only the pairs on these
    groups changed since st["host"] (and the alive members): the other groups' sums stay,
    and an unchanged random fraction or back-end array stays the same object (loads()
    compares by identity; their pairs' terms are read from sim._sum_rows, the lists of st's
    rows that _host_static keeps). Sets st["host_busy"]: each group's host busy time (read by the
    next update with groups; solve()'s closed loop sets it too, but st["host"] is None then)."""
    lay = sim.lay
    if groups is not None and sum(len(sim._group_pairs[g]) for g in groups) > _SCALAR_SUMS:
        groups = None
    if groups is None:
        gi = st["gi"]
        busy_p = X * st["busy_per_io"]  # (names apart from the float path's: one type each, compiled)
        host_busy_g = np.bincount(gi, weights=busy_p, minlength=lay.G)
        rb_g = np.bincount(gi, weights=busy_p * st["rnd"], minlength=lay.G)
        host_random_g = _random_share(rb_g, host_busy_g)
        be_g = np.bincount(gi, weights=X * st["be_mb_per_io"], minlength=lay.G)
    else:
        # those groups' sums again on Python floats, added pair by pair in pair order as
        # bincount adds them (the same values): a failure or a migration touches one or two
        # (the offered load's arrays where a centre caps the served one: _host_static)
        _, host_random_g, _, be_g = st.get("host_off") or st["host"]
        host_busy_g = st["host_busy"]  # (only this method reads it: updated in place)
        # st's rows as lists (.item costs ~10x a list's index); typed floats: the compiled
        # engine adds them unboxed
        bpi: list[float] = sim._sum_rows[0]
        rnd: list[float] = sim._sum_rows[1]
        bem: list[float] = sim._sum_rows[2]
        new_random, new_be = {}, {}
        for g in groups:
            hb: float = 0.0
            rb: float = 0.0
            be: float = 0.0
            for k in sim._group_pairs[g]:
                x: float = X.item(k)
                busy = x * bpi[k]
                hb += busy
                rb += busy * rnd[k]
                be += x * bem[k]
            host_busy_g[g] = hb
            share = _random_share(rb, hb)
            if share != host_random_g.item(g):
                new_random[g] = share
            if be != be_g.item(g):
                new_be[g] = be
        if new_random:
            host_random_g = host_random_g.copy()
            host_random_g[list(new_random)] = list(new_random.values())
        if new_be:
            be_g = be_g.copy()
            be_g[list(new_be)] = list(new_be.values())
    st["host_busy"] = host_busy_g
    U_host_g = host_busy_g / st["alive_g"]
    full = st.get("full_g")
    if full is not None:  # groups served at their capacity (_centre_scale)
        U_host_g = np.where(full, sim.max_util, U_host_g)
    if core_host is None:
        host_cpu_ctrl = np.bincount(st["ctrl"], weights=X * sim.cpu_us * 1e-4, minlength=len(lay.ctrl_names))
        core_host = host_cpu_ctrl[lay.core_ctrl] / lay.cores[lay.core_ctrl]
    return U_host_g, host_random_g, core_host, be_g