"""The embedded model: an event-driven fluid simulation (docs/model.md has the equations).

Between two events every rate is constant, so the engine jumps from event to event: user events
(operations, failures, replacements, workload changes) and the engine's own (a phase ends, the
write cache reaches its watermark, a cache re-warm step). At each step it solves the host load
and the operations' rates together (a few fixed-point passes, numpy over all drives, groups,
LUNs and workload pairs), records one row per metric, and advances every running phase.

This module is the step loop: Sim's state (__init__), invalidation, run() and fire(), and
simulate(). The rest is functions of the Sim in modules of their own (issue 20: functions that
take the sim keep the compiled engine's direct attribute access, as methods had it):

  host_terms.py     the host model's per-workload, per-group and per-pair terms; _host_load
  host_model.py     cache sizes, controller limits, _host_static, write cache fill, centre scaling
  host_solve.py     the network solver of a step (solve, solve_open, _squeeze); CHECKS
  placement_ctx.py  Ctx, the operations' placement kept from step to step
  placement.py      placing the operations (place, demand, ...) and the step's loads
  results.py        recording, the Result and its series, MTTDL, the end-of-run advisories
  ops.py            the operations (one module per kind, op_*.py; registry OPS)
"""
from __future__ import annotations

import gc
from typing import Any, Callable, Final

import numpy as np

from app.domain.hardware import Catalog
from app.domain.project import DriveReplacement, Project, WorkloadChange

from .errors import EngineStall
from .host_model import _cache_sizes, _controller_limits, ctrl_caps, host_fill_advance, host_fill_in
from .host_solve import CHECKS, solve  # (CHECKS: tests/conftest.py hooks it here)
from .host_terms import _WL_FIELDS, _hit_curve, _wl_arrays
from .op_streams import INF
from .ops import OPS, Op, Rebuild
from .placement_ctx import Ctx
from .policy import UnknownLevel
from .rates import MissingRate, RateReader
from .recorded import PairHistory
from .result import Advisory, Result
from .results import bus_columns, finish, progress_cells, record
from .state import Layout, LayoutCache


MAX_STEPS: Final = 200_000
STALL_STEPS: Final = 1_000  # steps in a row without the clock moving


class RunCancelled(Exception):
    """The caller's should_stop() said the run is no longer wanted (a newer edit came)."""


STOP_CHECK_STEPS: Final = 16  # how often a run asks should_stop() (a pipe poll: ~2 us)


class Sim:
    """One run's state. Every attribute is declared here or set in __init__ (the compiled
    engine's classes have a fixed set of typed attributes), including those the functions of
    host_terms, host_model, host_solve, placement and results set."""

    # attributes set outside __init__ (lazily, or by another object): declared for the compiled
    # engine, whose classes have a fixed set of typed attributes (docs/performance.md, mypyc)
    _run_index: Any
    step_core_host: Any = None  # the host's CPU per core of the step being placed (solve -> place)
    step_be_g: Any = None  # and its back-end MB/s per group
    _occ_memo: Any = None  # host_occupancy's (U_host_g, occupancy) of the last host-load version
    # loads(): the entries of the last core_host array it read one by one, as a list
    _core_src: Any = None
    _core_vals: list[float] = []
    _p_w_list: list[int]
    _p_l_list: list[int]
    _alive: tuple[Any, Any]
    _scaled: bool
    _capped: bool
    _grp_terms: Any
    _grp_factors: tuple[Any, Any]  # (_group_factors: a shared Layout's)
    _grp_factor_rows: list[list[list[float]]]
    _grp_factor_ids: list[list[int]]
    _any_dedicated_parity: bool
    no_host: tuple[Any, Any, Any, Any]
    dirty_ops: set[Op]
    _topo_groups: set[int] | None
    w_closed: Any
    w_iops: Any
    w_out: Any
    w_r: Any
    w_kb: Any
    w_rand: Any
    w_hit: Any
    # set first by the host model, placement and results functions (host_terms.py, ...)
    any_closed_w: bool
    w_running: Any
    open_mb: float
    _dirty_groups: dict[int, set[int]]
    _dirty_x: set[int]
    _row_ids: dict[tuple, int]
    _arith_memo: dict[tuple, tuple]
    _pairs_of_w: list[list[int]]
    _wl_terms: Any
    _wl_rows: Any
    _wl_ids: list[int]
    _history_version: int
    _sum_rows: Any
    _group_pairs: list[list[int]]
    _pair_f: np.ndarray
    _pair_i: np.ndarray
    _pair_b: np.ndarray
    _pair_i_rows: Any
    _pair_b_rows: Any
    _group_key: int
    _grp_rows: Any
    _degraded: Any
    _st: dict[str, Any]
    _alive_n: Any
    _alive_key: int
    _ds: np.ndarray
    _ds_key: int
    _ds_dg: Any
    _ds_group: np.ndarray
    def __init__(self, project: Project, catalog: Catalog, scenario_name: str | None = None,
                 layouts: LayoutCache | None = None):
        self.project = project
        self.platform = catalog.platform(project.platform_id)
        self.R = RateReader(self.platform.rates, f"{self.platform.id} rates")
        self.scenario = project.scenario(scenario_name)
        # the run's copy with or without a cache, so that a write into an array the runs share
        # fails in every run, not only in the worker's
        self.lay = (layouts.layout(project, catalog, self.platform) if layouts is not None
                    else Layout(project, catalog, self.platform).for_run(project))
        lay = self.lay
        self.advisories: dict[tuple[str, str], Advisory] = {}
        self.max_util = self.R.v("host.max_util")
        self.failed = np.zeros(lay.D, bool)
        self.spare_busy = np.zeros(lay.D, bool)  # a hot spare standing in for a failed drive
        self.writing = np.zeros(lay.D, bool)  # a replacement drive being rebuilt
        self.version = 0  # bumped when the host load's inputs change (see invalidate)
        self.topo = 0
        self._host_key: Any = None
        self.forced = np.zeros(len(lay.ctrl_names), bool)
        self.offline = np.zeros(len(lay.ctrl_names), bool)  # controller rebooting
        self.features = {k: bool(v) for k, v in project.features.items()}
        # effective settings: a key the project does not set has the platform's default, as the
        # inspector, validation and report show it
        self.cache = self.platform.default_cache() | dict(project.cache or {})
        # cache sizes per controller (MB; None: the platform's preset gives none, see _cache_sizes)
        self.read_cache_mb, write_mb = _cache_sizes(self)
        # no size known: writes are cached without a fill model (INF); 0: no write cache at all
        self.write_cache_mb = INF if write_mb is None else write_mb
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
        self._pairs_of_l: dict[int, list[int]] = {}
        for k, l in enumerate(pl):
            self._pairs_of_l.setdefault(l, []).append(k)
        self.w_nluns = np.bincount(self.p_w, minlength=len(self.workloads)).astype(float) if self.P else np.zeros(len(self.workloads))
        self.hit_default = self.R.v("host.read_hit_pct") / 100.0
        self.hit_curve = _hit_curve(self)
        _wl_arrays(self)
        self.ops: list[Op] = []
        self.active: list[Op] = []
        self.timers: list[tuple[float, Any]] = []  # (time, callback) engine events
        self.X = np.zeros(self.P)
        self.rebuild_hours: dict[int, float] = {}
        # host path parameters (read once; recorded as assumptions)
        R = self.R
        self.cpu_us = R.v("host.cpu_us_per_io")
        self.sp_lat = R.v("host.sp_latency_ms")
        self.hit_ms = R.v("host.cache_hit_ms")
        self.degr_fac = R.v("host.degraded_read_factor")
        self.rand_over = R.opt("host.random_overhead_ms") or 0.0
        self.seq64 = R.opt("host.seq_read_ms_per_64k")
        self.degr_seq = R.opt("host.degraded_seq_factor")
        self.ff_ms = R.opt("cache.forced_flush_write_ms")
        self.frag_k = R.opt("fragmentation.k") if R.has("fragmentation.k") else None
        self.wp_pct = np.zeros(len(lay.ctrl_names))
        wp = self.cache.get("write_pending_pct")
        if isinstance(wp, (int, float)):
            self.wp_pct[:] = float(wp)
        self.limits = _controller_limits(self)
        # centres an open host load alone asks more of than max_util -> the peak demand (fraction
        # of the centre's time; _centre_scale), and the workloads not fully served
        self.saturated: dict[tuple[str, int], Any] = {}
        self.unserved_w: set[int] = set()
        self.sat_g = np.zeros(lay.G)  # each group's peak offered host demand above max_util (else 0)
        self.unserved_mask = np.zeros(len(project.workloads), bool)  # workloads a centre capped
        # host writes into each controller's write cache beyond what its drives destage (MB/s;
        # None: none), and the controllers the host load put in forced flush (_centre_scale)
        self.host_fill: Any = None
        self.host_forced: set[int] = set()
        self._recap = False  # a forced flush started or ended: the host load's capping again
        self.host_dirty: list[float] = [0.0] * len(lay.ctrl_names)  # the host's MB in cache_fill
        at = self.R.opt("cache.forced_flush_at_pct")
        if at is None:
            at = float(self.cache.get("high_watermark_pct") or 100.0)
        self.host_flush_at = at / 100.0
        # recording
        # one row per step of every metric side by side (record() copies it with one call), in
        # matrices of REC_CHUNK rows (no growing matrix to copy); series that need the whole run
        # (open-load response times, per-drive load) are built by finish()
        n_ctrl, W = len(lay.ctrl_names), len(self.workloads)
        self.rec_width = {
            "group_pct": lay.G, "cpu_pct": lay.C, "bus_pct": lay.B, "iops": W, "mb_s": W, "port_pct": n_ctrl,
            "offered_iops": W,  # what the workloads ask (open: their arrival rate; closed: what they get)
            "write_cache_pct": n_ctrl, "write_pending_pct": n_ctrl,
            "forced": n_ctrl,  # 1 where the controller's write cache is in forced flush
            "drive_group": lay.G,  # the group load of alive members (DriveLoad.group_rows)
            # bus_pct's terms: MB/s on each group's buses (host back-end + ops) and on single
            # buses (ops); bus_columns() sums them for all steps at once at the end of run()
            "bus_by_group": lay.G, "bus_by_bus": lay.B,
        }
        ends = np.cumsum(list(self.rec_width.values())).tolist()
        self.rec_cols = {m: slice(e - w, e) for (m, w), e in zip(self.rec_width.items(), ends)}
        self.rec_n = 0
        self.rec_t: list[float] = []
        self.rec_chunks: list[np.ndarray] = []
        # the current step's row: loads() and solve() write their columns in place (only the
        # entries that changed), record() the controller columns, then copies the row
        self.row = np.zeros(ends[-1])
        self.rv = {m: self.row[c] for m, c in self.rec_cols.items()}  # each metric's columns (views)
        # MB of operation data in each controller's write cache: the row's own columns, which
        # operations fill in place (Op.fill_cache), so record() copies it with the row
        self.cache_fill = self.rv["write_cache_pct"]
        self._rec_forced: Any = None
        self._rec_wp: Any = None  # the arrays in the row (record)
        self._loads_src: Any = (None,) * 5  # loads()'s inputs at its last call
        self._row_agg: Any = None  # the per-version host sums in the row (solve_open)
        self._drive_rec: Any = None  # (drive extras, drive layout) of the row (loads)
        self.step_resp: Any = None  # solve(): (resp_w, rmax_w, lun_r) of the step; None: open load
        # per-operation progress and rate: step, Op.index, moved MB, rate whenever they may have
        # changed (record(); an operation runs in rows Op.rec_first to Op.rec_end, set by fire and
        # Op.finish), four numbers an entry in one flat list (one fromiter reads it); expanded to
        # every running op's step by progress_cells() at the end of run()
        self.rec_progress: list[float] = []
        # (the cells where an op ran, flat in a steps x ops matrix, and its moved MB and rate there)
        self.rec_cells, self.rec_moved, self.rec_rate = np.zeros(0, int), np.zeros(0), np.zeros(0)
        self.pair_history = PairHistory()  # the host path's response-time inputs per version
        self.rec_open: list[int] = []  # open-load steps: finish() computes their response times
        self.rec_open_version: list[int] = []  # and the pair_history version each used
        self.rec_resp: list[tuple] = []  # other steps: (step, response, worst LUN, per LUN)
        self.rec_drive: list[tuple] = []  # per step: (drive extras, drive layout)

    # ------------------------------------------------------------------ advisories
    def advise(self, severity: str, code: str, text: str, where: str = "", source: str = "") -> None:
        key = (code, where)
        if key not in self.advisories:
            self.advisories[key] = Advisory(severity, code, text, where, source)

    def invalidate(self, topology: bool = False, groups=None, luns=None) -> None:
        """The host load's inputs changed (workloads, LUN placement, failures, cache, reboot);
        topology: drives failed, were replaced or swapped (operations re-plan their drives).
        With `groups`/`luns`, the host load is recomputed only if host I/O touches them, and
        only for the pairs on them (for a topology change, on a group whose per-group terms
        changed: the groups' drives are all that changed)."""
        if topology:
            self.topo += 1
            if groups is None:
                self._topo_groups = None  # every group's alive count (_group_terms)
            elif self._topo_groups is not None:
                self._topo_groups.update(g for g in groups if 0 <= g < self.lay.G)
        if groups is not None or luns is not None:
            pairs: set[int] = set()
            for l in luns or ():
                pairs.update(self._pairs_of_l.get(l, ()))
            on_groups: dict[int, list[int]] = {}
            if groups and self.P:
                # the pairs on the groups now: those _host_static last put there that are still
                # there (a LUN that moved since is dirty already: every move invalidates its LUNs)
                group_pairs, l_group = getattr(self, "_group_pairs", None), self.lay.l_group
                lg = l_group[self.p_l] if group_pairs is None else None
                for g in groups:
                    if 0 <= g < self.lay.G:
                        on_groups[g] = ((lg == g).nonzero()[0].tolist() if group_pairs is None else
                                        [k for k in group_pairs[g] if l_group.item(self._p_l_list[k]) == g])
            if not pairs and not any(on_groups.values()):
                return  # no host I/O on them
            if self._dirty is not None:
                self._dirty |= pairs
                for g, on_g in on_groups.items():
                    if topology:  # their pairs change only if the group's terms do (_host_static)
                        self._dirty_groups.setdefault(g, set()).update(on_g)
                    else:
                        self._dirty.update(on_g)
        else:
            self._dirty: Any = None  # anything may have changed: every pair
        self.version += 1


    # ------------------------------------------------------------------ the loop
    def run(self, should_stop: Callable[[], bool] | None = None) -> Result:
        """Simulate the scenario; `should_stop()`, asked every STOP_CHECK_STEPS steps, ends
        the run with RunCancelled when it returns True."""
        ordered = sorted(enumerate(self.scenario.events), key=lambda ie: (ie[1].start_h, ie[0]))
        events: list[Any] = [e for _, e in ordered]
        starts: list[float] = [e.start_h for e in events]  # their times, as floats once (the loop reads them per step)
        n_events = len(events)
        ei = 0
        t = 0.0
        steps = 0
        stalled = 0
        lay = self.lay
        self.ctx = Ctx(self)
        self.dirty_ops = set()  # ops whose phases changed since they were placed (Op.changed)
        self.busy: list[Op] = []  # see set_busy
        self.lun_ops: dict[int, dict[Op, str]] = {}  # per SP: the LUN operations running -> event id (Op.concurrent_advice)
        self.rebuild_of: dict[str, list[Rebuild]] = {}  # per drive: the rebuilds of its failures (Rebuild.start)
        self.idle_now = 0.0
        self.no_host = (np.zeros(lay.G), np.ones(lay.G), np.zeros(lay.C), np.zeros(lay.G))  # no workloads
        while ei < n_events and starts[ei] <= 0.0:
            self.fire(events[ei], 0.0)
            ei += 1
        busy: list[Op] = []
        while True:
            solve(self)
            # idle ops (no rate, nothing due; see place) are left alone until placed again
            was_busy, busy = busy, self.busy.copy()
            record(self, t, busy, was_busy)
            steps += 1
            if should_stop is not None and steps % STOP_CHECK_STEPS == 0 and should_stop():
                raise RunCancelled(f"stopped at {t:.3f} h: a newer request came")
            t_next = starts[ei] if ei < n_events else INF
            ends: list[float] = []  # when each busy op's next phase ends; t_next: the first of all
            for op in busy:
                te = t + op.time_left()
                ends.append(te)
                if te < t_next:
                    t_next = te
            if self.timers:
                t_next = min(t_next, min(tt for tt, _ in self.timers))
            if self.host_fill is not None:
                # the write cache reaching its watermark is an event, within the plan: a run
                # with nothing else to come goes on to fill it only within the plan's horizon
                # (the project's, else the hour a plan without events shows)
                t_fill = t + host_fill_in(self)
                if t_fill < t_next and (t_next < INF or t_fill <= (float(self.project.horizon_h or 0.0) or 1.0)):
                    t_next = t_fill
            if t_next == INF:
                break
            if steps > MAX_STEPS:
                self.advise("warning", "step-limit",
                            f"the prediction stops at {t:.1f} h: the plan needs more than {MAX_STEPS:,} engine "
                            "steps; operations still running then are shown unfinished", "")
                break
            dt = max(t_next - t, 0.0)
            # an event-driven model must move the clock: many steps at one instant is a loop in
            # an operation's bookkeeping, reported rather than spun through to the step limit
            stalled = stalled + 1 if dt <= 0.0 else 0
            if stalled > STALL_STEPS:
                names = ", ".join(op.label for op in self.active) or "no operation"
                raise EngineStall(f"the model made no progress at {t:.3f} h ({names})")
            for op in busy:
                op.advance(dt, t)
            if self.host_fill is not None:
                host_fill_advance(self, dt, t)
            self.idle_now = t + dt  # the clock of an idle op (what advance() would set)
            t = t_next
            if self.timers:  # engine events due now
                due = [cb for tt, cb in self.timers if tt <= t + 1e-12]
                self.timers = [(tt, cb) for tt, cb in self.timers if tt > t + 1e-12]
                for cb in due:
                    cb(t)
            due_by = t + 1e-9 * max(1.0, t)
            for op, te in zip(busy, ends):  # only operations with a phase (or the cache) due now
                if te <= due_by:
                    op.maybe_finish_phase(t)
            while ei < n_events and starts[ei] <= t + 1e-12:
                self.fire(events[ei], t)
                ei += 1
        progress_cells(self)
        bus_columns(self)
        horizon = max(t, float(self.project.horizon_h or 0.0))
        if horizon <= 0:
            horizon = 1.0
        return finish(self, horizon, steps)

    def fire(self, ev, t: float) -> None:
        if isinstance(ev, WorkloadChange):
            wi = self.widx.get(ev.workload)
            if wi is None:
                return
            for k, v in ev.changes.items():
                if k in _WL_FIELDS:
                    self.workloads[wi][k] = v
            _wl_arrays(self, wi)
            return
        if isinstance(ev, DriveReplacement):
            for rb in self.rebuild_of.get(ev.drive, ()):  # the running rebuild of that drive
                if rb.running and rb.on_replacement(ev, t):
                    return
            # replacement of a drive with no running operation: the drive is back
            d = self.lay.didx.get(ev.drive)
            if d is not None:
                self.failed[d] = False
                # only its group's alive members changed (a drive of a group that lost its data:
                # its LUNs stay off the host path); a full invalidation recomputed every pair
                self.invalidate(topology=True, groups={self.lay.d_group.item(d)})
            return
        cls = OPS.get(type(ev).__name__)
        if cls is None:
            self.advise("info", "event-not-modelled", f"{ev.id}: {type(ev).__name__} is not modelled by the engine", ev.id)
            return
        op = cls(self, ev)
        op.index = len(self.ops)
        self.ops.append(op)
        try:
            started = op.start(t)
        except UnknownLevel as exc:
            self.advise("error", "unknown-priority", f"{ev.id}: {exc}; the operation is not predicted", ev.id,
                        "the platform's [operations] priorities and the rates' [policy] tables")
            op.streams = []
            op.end_h = None  # not predicted (a failure that starts no rebuild would end at once)
            started = False
        except MissingRate as exc:
            self.advise("warning", "no-rates", f"{ev.id}: {exc}; this operation is not predicted on "
                        f"{self.platform.name}", ev.id)
            op.streams = []
            started = False
        # placement order: economical phases first, then the ASAP class (start() sets it), in start order
        op.pos = op.index + (1 << 32) * op.asap_class
        if started:
            op.running = True
            op.rec_first, op.rec_end = self.rec_n, INF  # recorded from the next row until it finishes
            self.active.append(op)
            self.dirty_ops.add(op)
        elif op.on_sp is not None:  # it failed after Op.concurrent_advice: it does not run on that SP
            del op.on_sp[op]

    def ctrl_caps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """host_model.ctrl_caps; a method because the operations call it (protocols.SimView)."""
        return ctrl_caps(self)

    def add_timer(self, when: float, cb) -> None:
        self.timers.append((when, cb))


def simulate(project: Project, catalog: Catalog, scenario_name: str | None = None,
             should_stop: Callable[[], bool] | None = None, layouts: LayoutCache | None = None) -> Result:
    """Project -> Result for one scenario (the caller validates the project first).
    should_stop: see Sim.run (the engine worker passes its pipe's poll).
    layouts: a LayoutCache kept by the caller between runs, only for a project whose containers
    are replaced, never modified in place (the worker's replica): runs on the same drives,
    groups and LUNs share their static arrays (the 960-drive plan: ~12 M instructions, ~1 ms a run)."""
    # the run allocates many small short-lived objects and makes no reference cycles worth
    # collecting; a collection during the run would scan the caller's whole heap (the GUI's is
    # large), so the collector waits until the result is built
    paused = gc.isenabled()
    gc.disable()
    sim: Sim | None = None
    try:
        sim = Sim(project, catalog, scenario_name, layouts)
        return sim.run(should_stop)
    finally:
        # the operations refer back to the Sim (op.sim), a cycle that would keep the run's
        # recorded rows and caches (~5 MB on the large plan) alive until the cyclic collector
        # runs; freed now, the next run reuses that memory instead of faulting in new pages
        # (docs/performance.md, "Optimisation pass 3")
        if sim is not None:
            for _op in sim.ops:
                del _op.sim
        if paused:
            gc.enable()
