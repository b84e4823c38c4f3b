"""The embedded model: an event-driven fluid simulation (docs/model.md has the equations).

Between two events every rate is constant, so the engine jumps from event to event: user events
(operations, failures, replacements, workload changes) and the engine's own (a phase ends, the
write cache reaches its watermark, a cache re-warm step). At each step it solves the host load
and the operations' rates together (a few fixed-point passes, numpy over all drives, groups,
LUNs and workload pairs), records one row per metric, and advances every running phase.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from app.domain.hardware import Catalog
from app.domain.project import (
    Bind, DriveFailure, DriveReplacement, FeatureEnable, LunMigration, Project, Reallocate,
    VolumeMigration, WorkloadChange,
)
from app.domain.raid import mttdl_hours

from .ops import OPS, Op
from .rates import RateReader
from .result import Advisory, Assumption, Result, SeriesBlock
from .state import Layout

INF = math.inf
MAX_STEPS = 200_000
_WL_FIELDS = ("mode", "iops", "outstanding", "read_pct", "io_kb", "random_pct", "read_hit_pct")


class Ctx:
    """Per-pass scratch: what the host and the operations put on each resource."""

    def __init__(self, sim: "Sim"):
        lay = sim.lay
        self.U_host_d = np.zeros(lay.D)  # host busy fraction per drive
        self.busy_d = np.zeros(lay.D)  # operations' busy fraction per drive
        self.asap_n = np.zeros(lay.D)  # ASAP-class operations sharing each drive
        self.core = np.zeros(lay.C)  # operations' CPU % per core
        self.bus_mb = np.zeros(lay.B)
        self.forced = sim.forced  # controller index -> bool (write cache in forced flush)
        self.host_active_g = np.zeros(lay.G, bool)
        self.host_random_g = np.ones(lay.G)  # busy-weighted random fraction of the host load
        self.max_util = sim.max_util


class Sim:
    def __init__(self, project: Project, catalog: Catalog, scenario_name: str | None = None):
        self.project = project
        self.platform = catalog.platform(project.platform_id)
        self.R = RateReader(self.platform.rates, f"{self.platform.id} rates")
        self.scenario = project.scenario(scenario_name)
        self.lay = Layout(project, catalog, self.platform)
        lay = self.lay
        self.advisories: dict[tuple[str, str], Advisory] = {}
        self.max_util = self.R.v("host.max_util")
        self.failed = np.zeros(lay.D, bool)
        self.spare_busy = np.zeros(lay.D, bool)  # a hot spare standing in for a failed drive
        self.forced = np.zeros(len(lay.ctrl_names), bool)
        self.cache_fill = np.zeros(len(lay.ctrl_names))  # MB of operation data in the write cache
        self.offline = np.zeros(len(lay.ctrl_names), bool)  # controller rebooting
        self.features = {k: bool(v) for k, v in project.features.items()}
        self.workloads = [{f: getattr(w, f) for f in _WL_FIELDS} | {"id": w.id, "name": w.name}
                          for w in project.workloads]
        self.widx = {w.id: i for i, w in enumerate(project.workloads)}
        pw, pl = [], []
        for wi, w in enumerate(project.workloads):
            for lid in w.luns:
                if lid in lay.lidx:
                    pw.append(wi)
                    pl.append(lay.lidx[lid])
        self.p_w = np.array(pw, int)
        self.p_l = np.array(pl, int)
        self.P = len(pw)
        self.w_nluns = np.bincount(self.p_w, minlength=len(self.workloads)).astype(float) if self.P else np.zeros(len(self.workloads))
        self._wl_arrays()
        self.ops: list[Op] = []
        self.active: list[Op] = []
        self.timers: list[tuple[float, Any]] = []  # (time, callback) engine events
        self.X = np.zeros(self.P)
        self.rebuild_hours: dict[int, float] = {}
        # host path parameters (read once; recorded as assumptions)
        R = self.R
        self.cpu_us = R.v("host.cpu_us_per_io")
        self.sp_lat = R.v("host.sp_latency_ms")
        self.hit_default = R.v("host.read_hit_pct") / 100.0
        self.hit_ms = R.v("host.cache_hit_ms")
        self.degr_fac = R.v("host.degraded_read_factor")
        self.rand_over = R.opt("host.random_overhead_ms") or 0.0
        self.seq64 = R.opt("host.seq_read_ms_per_64k")
        self.degr_seq = R.opt("host.degraded_seq_factor")
        self.ff_ms = R.opt("cache.forced_flush_write_ms")
        self.frag_k = R.opt("fragmentation.k") if R.has("fragmentation.k") else None
        self.wp_pct = np.zeros(len(lay.ctrl_names))
        wp = project.cache.get("write_pending_pct")
        if isinstance(wp, (int, float)):
            self.wp_pct[:] = float(wp)
        self.limits = self._controller_limits()
        # recording
        self.rec_t: list[float] = []
        self.rec: dict[str, list[np.ndarray]] = {}

    # ------------------------------------------------------------------ advisories
    def advise(self, severity: str, code: str, text: str, where: str = "", source: str = "") -> None:
        key = (code, where)
        if key not in self.advisories:
            self.advisories[key] = Advisory(severity, code, text, where, source)

    # ------------------------------------------------------------------ workloads
    def _wl_arrays(self) -> None:
        W = self.workloads
        self.w_closed = np.array([w["mode"] == "closed" for w in W], bool)
        self.w_iops = np.array([float(w["iops"] or 0) for w in W], float)
        self.w_out = np.array([float(w["outstanding"] or 0) for w in W], float)
        self.w_r = np.array([float(w["read_pct"]) / 100 for w in W], float)
        self.w_kb = np.array([float(w["io_kb"]) for w in W], float)
        self.w_rand = np.array([float(w["random_pct"]) / 100 for w in W], float)
        self.w_hit = np.array([np.nan if w["read_hit_pct"] is None else float(w["read_hit_pct"]) / 100 for w in W], float)

    def _controller_limits(self) -> dict[str, np.ndarray] | None:
        """MD32xx: base controller limits from the Dell drive counts, raised by HPT."""
        if not self.R.has("hpt.bandwidth_factor"):
            return None
        lay = self.lay
        if not lay.D:
            return None
        n_ctrl = len(lay.ctrl_names)
        seq = float(np.median(lay.d_seq))
        iops1 = 1000.0 / float(np.median(lay.d_rand))
        base_mb = self.R.v("hpt.base_seq_drives_dual") * seq / 2.0
        base_iops = self.R.v("hpt.base_random_drives_dual") * iops1 / 2.0
        links = self.platform.host_ports_per_controller * self.platform.host_port_mb_s
        return {"base_mb": np.full(n_ctrl, base_mb), "base_iops": np.full(n_ctrl, base_iops),
                "link_mb": np.full(n_ctrl, links)}

    def ctrl_caps(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.limits is None:
            return None
        hpt = any(v for k, v in self.features.items() if "hpt" in k or "high_performance" in k)
        bw = self.R.v("hpt.bandwidth_factor") if hpt else 1.0
        io = self.R.v("hpt.iops_factor") if hpt else 1.0
        mb = np.minimum(self.limits["base_mb"] * bw, self.limits["link_mb"])
        return mb, self.limits["base_iops"] * io

    # ------------------------------------------------------------------ the host load
    def solve(self) -> dict[str, Any]:
        lay = self.lay
        P = self.P
        pw, pl = self.p_w, self.p_l
        g = lay.l_group[pl] if P else np.zeros(0, int)
        live = (lay.l_live[pl] & (g >= 0)) if P else np.zeros(0, bool)
        gi = np.where(g >= 0, g, 0)
        ctrl = lay.l_owner[pl] if P else np.zeros(0, int)
        r = self.w_r[pw]
        kb = self.w_kb[pw]
        rnd = self.w_rand[pw]
        hit = np.where(np.isnan(self.w_hit[pw]), self.hit_default, self.w_hit[pw]) * lay.l_hit_scale[pl] if P else np.zeros(0)
        nl = self.w_nluns[pw] if P else np.zeros(0)
        closed = self.w_closed[pw]
        on = live & ~self.offline[ctrl] if P else np.zeros(0, bool)
        # group state: alive members, degraded
        alive_g = np.maximum(lay.g_width - np.bincount(lay.d_group[self.failed & (lay.d_group >= 0)],
                                                         minlength=lay.G)[:lay.G], 1.0) if lay.G else np.zeros(0)
        degraded_g = alive_g < lay.g_width
        alive_n = alive_g.copy()
        if lay.G:
            alive_g = np.where(lay.g_dedicated_parity, np.minimum(alive_g, lay.g_data), alive_g)
        # per-I/O drive service times (s)
        seq = lay.g_seq[gi] if P else np.zeros(0)
        s_rand = lay.g_rand[gi] / 1000.0 + kb / 1024.0 / seq if P else np.zeros(0)
        s_seqr = kb / 1024.0 / seq
        frag = np.ones(P)
        if self.frag_k is not None and P:
            frag = 1.0 + self.frag_k * np.maximum(lay.l_opt[pl] - 1.0, 0.0)
        deg_p = degraded_g[gi] & lay.g_parity[gi] if P else np.zeros(0, bool)
        width = lay.g_width[gi] if P else np.zeros(0)
        rd_mult = np.where(deg_p, 1.0 + (width - 2.0) / width, 1.0)
        seq_deg = np.where(deg_p, 1.0 / self.degr_seq if self.degr_seq else 1.0 + (width - 2.0) / width, 1.0)
        pen = lay.g_pen[gi] if P else np.zeros(0)
        fullstripe = width / lay.g_data[gi] if P else np.zeros(0)
        busy_per_io = (r * (1 - hit) * rnd * s_rand * rd_mult
                       + (1 - r) * rnd * pen * s_rand
                       + r * (1 - rnd) * s_seqr * seq_deg * frag
                       + (1 - r) * (1 - rnd) * s_seqr * fullstripe)
        be_mb_per_io = (kb / 1024.0) * (r * (1 - hit) + (1 - r) * np.where(rnd > 0.5, pen, fullstripe))
        # response-time pieces that do not depend on utilization (ms)
        if self.seq64 is not None:
            t_seq = kb / 64.0 * self.seq64 * frag * seq_deg
        else:
            t_seq = s_seqr * 1000.0 / np.maximum(lay.g_data[gi] if P else 1.0, 1.0) * frag * seq_deg
        # open workloads: fixed arrival rate; closed: start from the no-queue response
        X = np.where(closed, 0.0, self.w_iops[pw] / np.maximum(nl, 1)) if P else np.zeros(0)
        X = np.where(on, X, 0.0)
        if P and closed.any():
            X0 = self.X if len(self.X) == P else np.zeros(P)
            X = np.where(closed, X0, X)
        caps = self.ctrl_caps()
        n_ctrl = len(lay.ctrl_names)
        n_pass = 14 if (P and closed.any()) else 3
        ctx = None
        R_p = np.zeros(P)
        for it in range(n_pass):
            host_busy_g = np.bincount(gi[on], weights=(X * busy_per_io)[on], minlength=lay.G) if P else np.zeros(lay.G)
            U_host_g = host_busy_g / np.maximum(alive_g, 1)
            U_host_d = lay.M @ U_host_g if lay.G else np.zeros(lay.D)
            U_host_d = np.where(self.failed, 0.0, U_host_d)
            ctx = Ctx(self)
            ctx.U_host_d = U_host_d
            ctx.host_active_g = host_busy_g > 1e-9
            if P:
                rb = np.bincount(gi[on], weights=(X * busy_per_io * rnd)[on], minlength=lay.G)
                ctx.host_random_g = np.where(host_busy_g > 0, rb / np.maximum(host_busy_g, 1e-12), 1.0)
            for op in self.active:
                op.count_asap(ctx)
            for op in sorted(self.active, key=lambda o: o.asap_class):
                op.demand(ctx)
            U_d = np.minimum(U_host_d + ctx.busy_d, 1.0)
            U_d = np.where(self.failed, 0.0, U_d)
            U_g = (U_d @ lay.M) / np.maximum(alive_n, 1) if lay.G else np.zeros(0)
            # CPU: host I/O spread over the owning controller's cores, operations on their core
            host_cpu_ctrl = np.bincount(ctrl[on], weights=X[on] * self.cpu_us * 1e-4, minlength=n_ctrl) if P else np.zeros(n_ctrl)
            core_u = np.minimum(host_cpu_ctrl[lay.core_ctrl] / lay.cores[lay.core_ctrl] + ctx.core, 100.0)
            core_max = np.array([core_u[lay.core_off[k]:lay.core_off[k] + lay.cores[k]].max() for k in range(n_ctrl)])
            if not P:
                break
            # response time per pair (ms)
            own = X * busy_per_io / np.maximum(alive_g[gi], 1)
            n_raw = self.w_out[pw] / np.maximum(nl, 1)
            n_out = np.maximum(n_raw, 1.0)
            # closed loop (arrival theorem): an I/O sees the others' load and (N-1)/N of its own
            u = np.clip(U_g[gi] - np.where(closed, own / n_out, 0.0), 0.0, self.max_util)
            stretch = 1.0 / (1.0 - u)
            r_rand_read = s_rand * 1000.0 * stretch * np.where(deg_p, 1.0 + (self.degr_fac - 1.0) / width, 1.0)
            r_seq_read = t_seq * stretch
            r_read = hit * self.hit_ms + (1 - hit) * (rnd * r_rand_read + (1 - rnd) * r_seq_read)
            forced = self.forced[ctrl]
            wcache = lay.l_wcache[pl]
            r_write = np.where(wcache, self.hit_ms, s_rand * 1000.0 * stretch * 2.0)
            if self.ff_ms is not None:
                r_write = np.where(forced & wcache, self.ff_ms, r_write)
            uc = np.clip(core_max[ctrl] / 100.0, 0.0, self.max_util)
            r_sp = self.sp_lat * uc / (1.0 - uc)
            R_p = r * r_read + (1 - r) * r_write + r_sp + rnd * self.rand_over
            if closed.any():
                Xc = n_raw / (R_p / 1000.0)
                # asymptotic bound: the busiest drive cannot exceed max_util
                others = np.maximum(U_g[gi] - own, 0.0)
                demand = busy_per_io / np.maximum(alive_g[gi], 1)
                Xcap = np.maximum(self.max_util - others, 0.01) / np.maximum(demand, 1e-12)
                Xc = np.where(on, np.minimum(Xc, Xcap), 0.0)
                X = np.where(closed, 0.5 * X + 0.5 * Xc if it else Xc, X)
                R_p = np.where(closed & (X > 0), n_raw / np.maximum(X, 1e-12) * 1000.0, R_p)
            if caps is not None:
                mb_lim, io_lim = caps
                io_c = np.bincount(ctrl, weights=X, minlength=n_ctrl)
                mb_c = np.bincount(ctrl, weights=X * kb / 1024.0, minlength=n_ctrl)
                scale = np.minimum(1.0, np.minimum(mb_lim / np.maximum(mb_c, 1e-9), io_lim / np.maximum(io_c, 1e-9)))
                X = X * scale[ctrl]
                R_p = np.where(closed & (X > 0), (self.w_out[pw] / np.maximum(nl, 1)) / np.maximum(X, 1e-12) * 1000.0, R_p)
        self.X = X
        if not P:
            U_g = (np.minimum(ctx.U_host_d + ctx.busy_d, 1.0) @ lay.M) / np.maximum(alive_n, 1) if lay.G else np.zeros(0)
            U_d = np.minimum(ctx.U_host_d + ctx.busy_d, 1.0)
        # buses and ports
        bus = ctx.bus_mb.copy()
        if P and lay.G:
            be_g = np.bincount(gi[on], weights=(X * be_mb_per_io)[on], minlength=lay.G)
            bus += be_g @ lay.GB
        host_mb_c = np.bincount(ctrl[on], weights=(X * kb / 1024.0)[on], minlength=n_ctrl) if P else np.zeros(n_ctrl)
        port_cap = self.platform.host_ports_per_controller * self.platform.host_port_mb_s
        # per workload
        W = len(self.workloads)
        if P:
            iops_w = np.bincount(pw, weights=X, minlength=W)
            mbs_w = np.bincount(pw, weights=X * kb / 1024.0, minlength=W)
            resp_w = np.bincount(pw, weights=X * R_p, minlength=W) / np.maximum(iops_w, 1e-12)
            resp_w = np.where(iops_w > 0, resp_w, 0.0)
            rmax = np.zeros(W)
            np.maximum.at(rmax, pw, np.where(X > 0, R_p, 0.0))
            lun_r = np.zeros(lay.L)
            lun_x = np.bincount(pl, weights=X, minlength=lay.L)
            lun_r = np.bincount(pl, weights=X * R_p, minlength=lay.L) / np.maximum(lun_x, 1e-12)
        else:
            iops_w = mbs_w = resp_w = rmax = np.zeros(W)
            lun_r = np.zeros(lay.L)
        self.last = {"U_d": U_d, "U_g": U_g, "U_host_d": ctx.U_host_d, "core": core_u, "bus": bus,
                     "iops_w": iops_w, "mbs_w": mbs_w, "resp_w": resp_w, "rmax_w": rmax, "lun_r": lun_r,
                     "port": host_mb_c / max(port_cap, 1e-9) * 100.0, "ctx": ctx}
        return self.last

    # ------------------------------------------------------------------ the loop
    def run(self) -> Result:
        events = sorted(enumerate(self.scenario.events), key=lambda ie: (ie[1].start_h, ie[0]))
        events = [e for _, e in events]
        ei = 0
        t = 0.0
        steps = 0
        while ei < len(events) and events[ei].start_h <= 0.0:
            self.fire(events[ei], 0.0)
            ei += 1
        while True:
            self.solve()
            self.record(t)
            steps += 1
            t_next = events[ei].start_h if ei < len(events) else INF
            for op in self.active:
                t_next = min(t_next, t + op.time_left())
            for tt, _ in self.timers:
                t_next = min(t_next, tt)
            if t_next == INF or steps > MAX_STEPS:
                break
            dt = max(t_next - t, 0.0)
            for op in list(self.active):
                op.advance(dt, t)
            self.advance_cache(dt)
            t = t_next
            # engine events due now
            due = [cb for tt, cb in self.timers if tt <= t + 1e-12]
            self.timers = [(tt, cb) for tt, cb in self.timers if tt > t + 1e-12]
            for cb in due:
                cb(t)
            for op in list(self.active):
                op.maybe_finish_phase(t)
            while ei < len(events) and events[ei].start_h <= t + 1e-12:
                self.fire(events[ei], t)
                ei += 1
        horizon = max(t, float(self.project.horizon_h or 0.0))
        if horizon <= 0:
            horizon = 1.0
        return self.finish(horizon, steps)

    def fire(self, ev, t: float) -> None:
        if isinstance(ev, WorkloadChange):
            wi = self.widx.get(ev.workload)
            if wi is None:
                return
            for k, v in ev.changes.items():
                if k in _WL_FIELDS:
                    self.workloads[wi][k] = v
            self._wl_arrays()
            return
        if isinstance(ev, DriveReplacement):
            for op in self.active:
                if op.on_replacement(ev, t):
                    return
            # replacement of a drive with no running operation: the drive is back
            d = self.lay.didx.get(ev.drive)
            if d is not None:
                self.failed[d] = False
            return
        cls = OPS.get(type(ev).__name__)
        if cls is None:
            self.advise("info", "event-not-modelled", f"{ev.id}: {type(ev).__name__} is not modelled by the engine", ev.id)
            return
        op = cls(self, ev)
        self.ops.append(op)
        if op.start(t):
            self.active.append(op)

    def add_timer(self, when: float, cb) -> None:
        self.timers.append((when, cb))

    def advance_cache(self, dt_h: float) -> None:
        pass  # operations keep their own cache fill (see ops.Migration)

    # ------------------------------------------------------------------ recording
    def record(self, t: float) -> None:
        s = self.last
        self.rec_t.append(t)
        row = {
            "drive_pct": s["U_d"] * 100.0, "group_pct": s["U_g"] * 100.0, "cpu_pct": s["core"],
            "bus_pct": s["bus"] / max(self.platform.bus_mb_s, 1e-9) * 100.0,
            "response_ms": s["resp_w"], "response_max_ms": s["rmax_w"], "iops": s["iops_w"], "mb_s": s["mbs_w"],
            "lun_response_ms": s["lun_r"], "port_pct": s["port"],
            "write_cache_pct": self.cache_pct(), "write_pending_pct": self.wp_pct.copy(),
        }
        for k, v in row.items():
            self.rec.setdefault(k, []).append(np.asarray(v, float).copy())
        # per-operation progress and rate
        prog = np.array([op.progress_pct() for op in self.ops], float)
        rate = np.array([op.rate if op in self.active else 0.0 for op in self.ops], float)
        self.rec.setdefault("_ops", []).append((len(self.ops), prog, rate))

    def cache_pct(self) -> np.ndarray:
        wc = self.project.cache.get("write_cache_mb") or 0
        if not wc:
            return np.zeros(len(self.lay.ctrl_names))
        return np.minimum(self.cache_fill / float(wc) * 100.0, 100.0)

    def finish(self, horizon: float, steps: int) -> Result:
        lay = self.lay
        t = np.array(self.rec_t)
        res = Result(scenario=self.scenario.name, horizon_h=horizon, event_count=steps,
                     platform_id=self.platform.id,
                     rates_id=self.R.model)
        ents = {
            "drive_pct": ("%", lay.drive_locs), "group_pct": ("%", [str(g.id) for g in lay.groups]),
            "cpu_pct": ("%", lay.core_names), "bus_pct": ("%", [str(b) for b in range(lay.B)]),
            "response_ms": ("ms", [w["id"] for w in self.workloads]),
            "response_max_ms": ("ms", [w["id"] for w in self.workloads]),
            "iops": ("IOPS", [w["id"] for w in self.workloads]), "mb_s": ("MB/s", [w["id"] for w in self.workloads]),
            "lun_response_ms": ("ms", [str(l.id) for l in lay.luns]),
            "port_pct": ("%", lay.ctrl_names), "write_cache_pct": ("%", lay.ctrl_names),
            "write_pending_pct": ("%", lay.ctrl_names),
        }
        for metric, (unit, names) in ents.items():
            if not names:
                continue
            V = np.vstack(self.rec[metric]) if self.rec.get(metric) else np.zeros((0, len(names)))
            res.add_block(SeriesBlock(metric, unit, list(names), t, V))
        if self.ops:
            n = len(self.ops)
            P = np.zeros((len(t), n))
            Rt = np.zeros((len(t), n))
            for i, (k, prog, rate) in enumerate(self.rec["_ops"]):
                P[i, :k] = prog
                Rt[i, :k] = rate
                P[i, k:] = 0.0
            ids = [op.event.id for op in self.ops]
            res.add_block(SeriesBlock("progress_pct", "%", ids, t, P))
            res.add_block(SeriesBlock("rate_mb_s", "MB/s", ids, t, Rt))
        for op in self.ops:
            res.operations.append(op.result())
        self.final_advisories(res)
        res.advisories = list(self.advisories.values())
        res.mttdl_h = self.mttdl()
        res.assumptions = [Assumption(p.path, float(p.value), p.unit, p.source)
                           for p in sorted(self.R.used.values(), key=lambda p: p.path)]
        return res

    # ------------------------------------------------------------------ reliability
    def mttdl(self) -> dict[int, float]:
        out: dict[int, float] = {}
        lay = self.lay
        from .ops import idle_rebuild_hours
        for gi, g in enumerate(lay.groups):
            if not len(lay.g_members[gi]):
                continue
            mttr = self.rebuild_hours.get(g.id)
            if mttr is None:
                try:
                    mttr = idle_rebuild_hours(self, gi)
                except Exception:  # no rebuild table for this platform
                    mttr = None
            if not mttr or mttr <= 0:
                continue
            mttf = min(lay.drive_types[d].mttf_h for d in lay.g_members[gi])
            try:
                out[g.id] = float(mttdl_hours(g.raid, len(lay.g_members[gi]), 1, mttf, mttr))
            except ValueError:
                continue
        return out

    def final_advisories(self, res: Result) -> None:
        lay = self.lay
        # SATA RAID 5 (Hitachi: RAID 6 recommended for SATA; EMC: SATA rebuilds slowest)
        from app.domain.hardware import Interface
        from app.domain.raid import RaidType
        for gi, g in enumerate(lay.groups):
            m = lay.g_members[gi]
            if len(m) and g.raid is RaidType.R5 and any(lay.drive_types[d].interface is Interface.SATA for d in m):
                self.advise("warning", "sata-raid5",
                            f"{g.label}: RAID 5 on SATA drives; RAID 6 is recommended for SATA because of the long "
                            "rebuild (sparing) times", f"RG {g.id}",
                            "hitachi 'Migration to SATA Volumes'")
        # Dell HPT: too few drives / workload below the base limits
        if self.limits is not None:
            n = lay.D
            need = self.R.v("hpt.base_seq_drives_dual") + 1
            hpt_on = any(v for k, v in self.features.items() if "hpt" in k)
            hpt_event = any(isinstance(e, FeatureEnable) for e in self.scenario.events)
            if (hpt_on or hpt_event) and n < need:
                self.advise("warning", "hpt-too-few-drives",
                            f"{n} drives: more than {need - 1:g} drives are needed in a dual controller to exceed the "
                            "base bandwidth, so High Performance Tier cannot help", "feature hpt",
                            "dell 'Number of Disk Drives'")


def simulate(project: Project, catalog: Catalog, scenario_name: str | None = None) -> Result:
    """Project -> Result for one scenario (the caller validates the project first)."""
    return Sim(project, catalog, scenario_name).run()
