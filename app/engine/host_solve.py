"""The network solver of a step: the host load and the operations' rates together (solve; a few
fixed-point passes for closed workloads, solve_open for open ones, _squeeze when a centre is
over max_util). Functions of the run's state (SimState, sim_state.py).
CHECKS: tests hook a check after a named step of the solver (tests/conftest.py).
"""
from __future__ import annotations

from typing import Any, Callable, Final

import numpy as np

from .host_model import _host_static, port_scale
from .host_terms import _host_load
from .placement import loads, place
from .recorded import queue_core_pct, queue_stretch
from .sim_state import SimState

# Called on the hot paths (every pass of a step) in place of np.clip, .max(), np.flatnonzero
# and np.ones: the same ufuncs without the Python frames numpy's wrappers add (~2-5 us each)
_maximum: Final = np.maximum
_minimum: Final = np.minimum
_any: Final = np.logical_or.reduce  # (.any() of a 1-d bool array)


def _clip(x: Any, lo: float, hi: float) -> Any:
    """np.clip(x, lo, hi) for lo <= hi: the same values (NaN stays NaN, a zero's sign as clip)."""
    return _minimum(hi, _maximum(lo, x))



# Checks called after each call of an engine function, by its name, with (sim, what it returned):
# tests/test_engine_placement.py and test_engine_host_load.py compare the incremental
# bookkeeping with a computation from scratch through them (tests/conftest.py
# check_after_each_call; simulate.CHECKS is this dict). A registry, not wrapping: the compiled
# engine's functions cannot be replaced.
CHECKS: Final[dict[str, Callable[[SimState, Any], None]]] = {}


def _after_call(name: str, sim: SimState, out: Any) -> None:
    check = CHECKS.get(name)
    if check is not None:
        check(sim, out)


def solve(sim: SimState) -> None:
    """The step's host load and operation rates: its row in sim.row (see loads), its
    response times in sim.step_resp."""
    P = sim.P
    if P and sim._host_key != sim.version:
        sim._st = _host_static(sim)
        sim._host_key = sim.version
        if CHECKS:
            _after_call("_host_static", sim, sim._st)
    st: Any = sim._st if P else None
    caps = sim.ctrl_caps()
    if P and caps is None and not st["any_closed"]:
        solve_open(sim, st)
        return
    lay = sim.lay
    n_ctrl = len(lay.ctrl_names)
    closed_loop = bool(P and st["any_closed"])
    X = st["X_open"] if P else np.zeros(0)
    if closed_loop:
        X0 = sim.X if len(sim.X) == P else np.zeros(P)
        X = np.where(st["closed"], X0, X)
    n_pass = 40 if closed_loop else 1
    X_in = Xc_in = X  # the previous pass's input and f(input), for the secant step
    R_p = np.zeros(P)
    if not P:
        if getattr(sim, "_alive_key", None) != sim.topo:  # cached: loads() reuses by identity
            sim._alive_n = np.maximum(lay.g_width - np.bincount(
                lay.d_group[sim.failed & (lay.d_group >= 0)], minlength=lay.G)[:lay.G], 1.0)
            sim._alive_key = sim.topo
        alive_n = sim._alive_n
    else:
        alive_n = st["alive_n"]
    think = st["think_ms"] if closed_loop else None  # Z per pair (ms), None: all 0
    if P:  # the pass loop's terms that only the host-load version moves, computed once per
        # solve with the same operations in the same order as inside the loop (same bytes)
        gi, ctrl, closed = st["gi"], st["ctrl"], st["closed"]
        hit, rnd, r = st["hit"], st["rnd"], st["r"]
        alive_gi = st["alive_g"][gi]
        hit_part, miss = hit * sim.hit_ms, 1 - hit
        rand_fixed, seq_fixed = rnd * st["r_rand_fixed"], (1 - rnd) * st["t_seq"]
        rand_common, write_share = rnd * sim.rand_over, 1 - r
        demand_floor = np.maximum(st["busy_per_io"] / alive_gi, 1e-12)
    for it in range(n_pass):
        if not P:
            U_host_g, host_random_g, core_host, be_g = sim.no_host
        elif closed_loop:
            U_host_g, host_random_g, core_host, be_g = _host_load(sim, st, X * st["on"])
            if think is not None:  # the I/Os at the array, X R (Little), the rest thinking
                st["n_at"] = np.maximum(st["n_raw"] - X * think / 1000.0, 0.0)
        else:
            U_host_g, host_random_g, core_host, be_g = st["host"]
        sim.step_core_host, sim.step_be_g = core_host, be_g
        place(sim, U_host_g, host_random_g)
        if CHECKS:
            _after_call("place", sim, None)
        U_g, core_u = loads(sim, U_host_g, core_host, be_g, alive_n)
        if not P:
            break
        queued = sim.any_queue and bool(_any(sim.rv["queue_n"] > 0) or _any(sim.rv["queue_cn"] > 0))
        if queued:  # operations with a queue depth: a closed class at their drives and cores (3.1)
            core_u = queue_core_pct(core_u, sim.rv["queue_cu"], sim.rv["queue_cn"], sim.max_util)
        core_max = np.maximum.reduceat(core_u, lay.core_off) if lay.C else np.zeros(n_ctrl)
        own = X * st["busy_per_io"] / alive_gi
        u = U_g[gi]
        if closed_loop:  # arrival theorem: an I/O sees the others' load and (N-1)/N of its own
            u = u - np.where(closed, own / st["n_out"], 0.0)
        u = _clip(u, 0.0, sim.max_util)
        if queued:
            rv = sim.rv
            stretch = queue_stretch(u, rv["queue_u"][gi], rv["queue_n"][gi],
                                    rv["queue_s"][gi] / np.maximum(lay.g_rand[gi] / 1000.0, 1e-6))
        else:
            stretch = 1.0 / (1.0 - u)
        r_read = hit_part + miss * (rand_fixed * stretch + seq_fixed * stretch)
        wc = st["wcache"]
        r_write = np.where(wc, sim.hit_ms, st["w_unc"] * stretch)
        if _any(sim.forced):  # forced flush: the preset's time, else back-end bound
            r_write = np.where(sim.forced[ctrl] & wc, sim.ff_ms if sim.ff_ms is not None else
                               st["w_unc"] * stretch, r_write)
        uc = _clip(core_max[ctrl] / 100.0, 0.0, sim.max_util)
        common = sim.sp_lat * uc / (1.0 - uc) + rand_common
        R_p = R_f = r * r_read + write_share * r_write + common
        if closed_loop:
            n_raw = st["n_raw"]
            # the interactive response time law: N I/Os, each R at the array then Z thinking
            Xc = n_raw / ((R_p if think is None else R_p + think) / 1000.0)
            # asymptotic bound: the busiest drive cannot exceed max_util
            others = np.maximum(U_g[gi] - own, 0.0)
            Xcap = np.maximum(sim.max_util - others, 0.01) / demand_floor
            Xc = np.where(st["on"], np.minimum(Xc, Xcap), 0.0)
            X_prev = X
            if not it:  # a warm start: the first pass takes f(X) whole
                X = np.where(closed, Xc, X)
            else:
                X = np.where(closed, X + _secant_weight(X, X_in, Xc, Xc_in) * (Xc - X), X)
            X_in, Xc_in = X_prev, Xc
        if closed_loop:
            X = X * port_scale(sim, ctrl, X, st["kb"])
        if caps is not None:
            mb_lim, io_lim = caps
            io_c = np.bincount(ctrl, weights=X, minlength=n_ctrl)
            mb_c = np.bincount(ctrl, weights=X * st["kb"] / 1024.0, minlength=n_ctrl)
            scale = np.minimum(1.0, np.minimum(mb_lim / np.maximum(mb_c, 1e-9), io_lim / np.maximum(io_c, 1e-9)))
            X = X * scale[ctrl]
        if closed_loop:
            # the loop's measured response: N / X, less the think time (X <= N / Z after the
            # first pass: the clip is for rounding only)
            R_m = st["n_raw"] / np.maximum(X, 1e-12) * 1000.0
            if think is not None:
                R_m = np.maximum(R_m - think, 0.0)
            R_p = np.where(closed & (X > 0), R_m, R_p)
            # converged: the fixed point moved less than 0.05% (a warm start needs few passes);
            # with think time the response N / X - Z is what must settle to 0.05%, so X to
            # R / (R + Z) of that
            tol = 5e-4 * np.maximum(np.abs(X), 1e-9)
            if think is not None:
                tol = tol * (R_f / np.maximum(R_f + think, 1e-12))
            if it >= 1 and np.all(np.abs(X - X_prev) <= tol):
                break
    sim.X = X
    W = len(sim.workloads)
    port_cap = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
    if P:
        pw, pl, kb, ctrl, on = st["pw"], st["pl"], st["kb"], st["ctrl"], st["on"]
        iops_w = np.bincount(pw, weights=X, minlength=W)
        mbs_w = np.bincount(pw, weights=X * kb / 1024.0, minlength=W)
        # a workload (LUN) that completed no I/O in this step has no response time, not a
        # 0 ms one: NaN (docs/result-format.md); its IOPS and MB/s are a real 0
        resp_w = np.bincount(pw, weights=X * R_p, minlength=W) / np.maximum(iops_w, 1e-12)
        resp_w = np.where(iops_w > 0, resp_w, np.nan)
        rmax = np.full(W, -np.inf)
        np.maximum.at(rmax, pw, np.where(X > 0, R_p, -np.inf))
        rmax[rmax == -np.inf] = np.nan
        lun_x = np.bincount(pl, weights=X, minlength=lay.L)
        lun_r = np.bincount(pl, weights=X * R_p, minlength=lay.L) / np.maximum(lun_x, 1e-12)
        lun_r = np.where(lun_x > 0, lun_r, np.nan)
        # reads and writes apart, each weighted by its own IOPS; a closed loop's measured
        # response (N / X) splits in the formula's proportions
        fit = R_p / np.where(R_f > 0, R_f, 1.0)
        xr, xw = X * st["r"], X * (1 - st["r"])
        read_w, write_w = (np.bincount(pw, weights=xk * (part + common) * fit, minlength=W) /
                           np.maximum(np.bincount(pw, weights=xk, minlength=W), 1e-12)
                           for xk, part in ((xr, r_read), (xw, r_write)))
        read_w = np.where(np.bincount(pw, weights=xr, minlength=W) > 0, read_w, np.nan)
        write_w = np.where(np.bincount(pw, weights=xw, minlength=W) > 0, write_w, np.nan)
        host_mb_c = np.bincount(ctrl[on], weights=(X * kb / 1024.0)[on], minlength=n_ctrl)
        offered_w = np.bincount(pw, weights=np.where(st["closed"], X, st["X_raw"]), minlength=W)
    else:
        iops_w = mbs_w = offered_w = np.zeros(W)
        resp_w = rmax = read_w = write_w = np.full(W, np.nan)  # no workload on a LUN: no I/O, no response time
        lun_r = np.full(lay.L, np.nan)
        host_mb_c = np.zeros(n_ctrl)
    rv = sim.rv
    rv["iops"][:], rv["mb_s"][:], rv["offered_iops"][:] = iops_w, mbs_w, offered_w
    np.multiply(host_mb_c / max(port_cap, 1e-9), 100.0, out=rv["port_pct"])
    if caps is not None:  # the controller limit's utilisation: the busier of its IOPS and MB/s
        mb_lim, io_lim = caps
        io_c = np.bincount(st["ctrl"], weights=X, minlength=n_ctrl) if P else np.zeros(n_ctrl)
        rv["ctrl_limit_pct"][:] = 100.0 * np.maximum(io_c / np.maximum(io_lim, 1e-9),
                                                     host_mb_c / np.maximum(mb_lim, 1e-9))
    sim._row_agg = None
    sim.step_resp = (resp_w, rmax, lun_r, read_w, write_w)


def _secant_weight(X: np.ndarray, X_last: np.ndarray, Xc: np.ndarray, Xc_last: np.ndarray) -> np.ndarray:
    """The step towards f(X) of the closed-loop fixed point X = f(X), per pair: 1 / (1 - f'),
    with f' the secant slope of the last two passes (a Newton step on f(X) - X). A fixed
    damping of 0.5 converges at ~0.4 a pass where f' is near 0 (9-13 passes from a changed
    step); the secant's step settles in 3-5. The throughput law makes f decreasing (more I/Os
    -> longer response -> fewer), so the weight is in (0, 1]; it is kept in [0.25, 1] and
    is 0.5 (plain damping) where the last two inputs are too close to give a slope."""
    dX = X - X_last
    ok = np.abs(dX) > 1e-9 * np.maximum(np.abs(X), 1e-9)
    slope = (Xc - Xc_last) / np.where(ok, dX, 1.0)
    return np.where(ok, _clip(1.0 / np.maximum(1.0 - slope, 1e-12), 0.25, 1.0), 0.5)


def solve_open(sim: SimState, st: dict[str, Any]) -> None:
    """solve() for open workloads and no controller limits: the host load is fixed until
    the next invalidate(), so a step places the operations and sums the rows; response
    times are computed for all steps at once in finish()."""
    U_host_g, host_random_g, core_host, be_g = st["host"]
    sim.step_core_host, sim.step_be_g = core_host, be_g
    place(sim, U_host_g, host_random_g)
    if CHECKS:
        _after_call("place", sim, None)
    loads(sim, U_host_g, core_host, be_g, st["alive_n"])
    sim.X = X = st["X_open"]
    agg = st.get("agg")
    if agg is None:  # per host-load version
        W, n_ctrl = len(sim.workloads), len(sim.lay.ctrl_names)
        port_cap = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
        pw, kb, ctrl = st["pw"], st["kb"], st["ctrl"]
        mb = X * kb / 1024.0
        iops_w = np.bincount(pw, weights=X, minlength=W)
        mbs_w = np.bincount(pw, weights=mb, minlength=W)
        host_mb_c = np.bincount(ctrl, weights=mb, minlength=n_ctrl)  # (X_open is 0 without an I/O path)
        offered_w = np.bincount(pw, weights=st["X_raw"], minlength=W)
        agg = st["agg"] = (iops_w, mbs_w, host_mb_c / max(port_cap, 1e-9) * 100.0, offered_w)
    rv = sim.rv
    busy = rv["drive_group"]
    if len(busy) and float(_maximum.reduce(busy)) > sim.max_util * (1.0 + 1e-9) and _squeeze(sim, st, U_host_g, busy):
        sim._row_agg = None  # the step's rows are its own (_squeeze)
        if CHECKS:
            _after_call("_squeeze", sim, st)
    elif agg is not sim._row_agg:
        rv["iops"][:], rv["mb_s"][:], rv["port_pct"][:], rv["offered_iops"][:] = agg
        sim._row_agg = agg
    sim.step_resp = None  # record() keeps this step's response-time inputs for finish()


def _squeeze(sim: SimState, st: dict[str, Any], U_host_g: np.ndarray, busy: np.ndarray) -> bool:
    """An operation that holds a share of the drive time whatever the host asks (HP High and
    Medium: rebuild.share) takes a group whose open host load fits alone past max_util: the
    host gets what the operation leaves, max_util - its share, and the rest of its load is
    unserved in this step (the pairs on the group are served at that fraction; the rows
    iops, mb_s, port_pct and offered_iops of the step are written here). The response times
    stay those of drives at max_util (a lower bound). False if no host load is squeezed.
    A step that squeezes the same groups by the same loads as the last one, in the same
    host-load version, (half the calls on the generated 960-drive plan) writes the rows kept then."""
    mu = sim.max_util
    over = ((busy > mu * (1.0 + 1e-9)) & (U_host_g > 1e-12)).nonzero()[0]
    if not len(over):
        return False
    host_u = U_host_g[over]
    ops_u = busy[over] - host_u
    key = (sim.version, over.tolist(), host_u.tolist(), ops_u.tolist())  # (st lives on across versions)
    rv = sim.rv
    last = st.get("squeezed")
    if last is not None and last[0] == key:  # its saturation and unserved workloads are recorded
        rv["iops"][:], rv["mb_s"][:], rv["port_pct"][:], rv["offered_iops"][:] = last[1]
        return True
    s_g = np.zeros(len(U_host_g)) + 1.0
    s_g[over] = _clip((mu - ops_u) / host_u, 0.0, 1.0)
    s_p = s_g[st["gi"]]  # each pair's served fraction
    X = st["X_open"] * s_p
    for g, h, o in zip(key[1], key[2], key[3]):
        skey = ("s", g)
        old = sim.saturated.get(skey)
        if old is None or h > old[0]:
            sim.saturated[skey] = (h, o)  # type: ignore[assignment]
    pw, kb, ctrl = st["pw"], st["kb"], st["ctrl"]
    on = st["on"] & (s_p < 1.0) & (st["X_raw"] > 0)
    sim.unserved_w.update(pw[on].tolist())
    W, n_ctrl = len(sim.workloads), len(sim.lay.ctrl_names)
    port_cap = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
    mb = X * kb / 1024.0
    rows = (np.bincount(pw, weights=X, minlength=W), np.bincount(pw, weights=mb, minlength=W),
            np.bincount(ctrl, weights=mb, minlength=n_ctrl) / max(port_cap, 1e-9) * 100.0,
            st["agg"][3])  # the offered IOPS: solve_open's per-version sum, the same bytes
    rv["iops"][:], rv["mb_s"][:], rv["port_pct"][:], rv["offered_iops"][:] = rows
    st["squeezed"] = (key, rows)
    return True
