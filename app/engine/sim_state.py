"""One run's state (SimState): what the run reads of the project and the presets (cache sizes,
controller limits, the read hit curve), the host model's, placement's and recording's
bookkeeping, and invalidate(), which tells the host model what changed. simulate.py's Sim adds
the step loop. The functions of host_terms, host_model, host_solve, placement and results take
a SimState and import this module; it imports none of them, so the engine's imports have no
circle.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from app.domain.hardware import Catalog
from app.domain.project import Project

from .op_streams import INF
from .ops import Op, Rebuild
from .placement_ctx import Ctx
from .rates import RateReader
from .recorded import PairHistory
from .result import Advisory
from .state import Layout, LayoutCache



_WL_FIELDS = ("mode", "iops", "outstanding", "think_ms", "read_pct", "io_kb", "random_pct", "read_hit_pct")


class SimState:
    """One run's state; Sim (simulate.py) adds the step loop."""

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
    w_think: Any
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
    # set by Sim.run (the step loop) and read by the placement and results functions
    ctx: Ctx
    busy: list[Op]
    lun_ops: dict[int, dict[Op, str]]
    rebuild_of: dict[str, list[Rebuild]]
    idle_now: float

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
        # policy_for's Policy per (op kind, level, phase): resolved once a run (Op.policy)
        self.policies: dict[tuple[str, str, str], Any] = {}
        self.generic_kinds: dict[str, bool] = {}  # ops.op_class: the operation kinds the generic model predicts
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
        # an operation keeps a queue on its drives (Op.use_queue): loads() records its closed class
        self.any_queue = False
        # recording
        # one row per step of every metric side by side (record() copies it with one call), in
        # matrices of REC_CHUNK rows (no growing matrix to copy); series that need the whole run
        # (open-load response times, per-drive load) are built by finish()
        n_ctrl, W = len(lay.ctrl_names), len(self.workloads)
        self.rec_width = {
            "group_pct": lay.G, "cpu_pct": lay.C, "bus_pct": lay.B, "iops": W, "mb_s": W, "port_pct": n_ctrl,
            "offered_iops": W,  # what the workloads ask (open: their arrival rate; closed: what they get)
            # host IOPS or MB/s over the controller's own limit (MD32xx base limits, raised by
            # HPT): the centre that bounds the host when no drive, bus or CPU is busy
            "ctrl_limit_pct": n_ctrl if self.limits is not None else 0,
            "write_cache_pct": n_ctrl, "write_pending_pct": n_ctrl,
            "forced": n_ctrl,  # 1 where the controller's write cache is in forced flush
            "drive_group": lay.G,  # the group load of alive members (DriveLoad.group_rows)
            # bus_pct's terms: MB/s on each group's buses (host back-end + ops) and on single
            # buses (ops); bus_columns() sums them for all steps at once at the end of run()
            "bus_by_group": lay.G, "bus_by_bus": lay.B,
            # the operations that keep a queue on each group's drives (Op.queue_depth > 0): their
            # busy per alive member and their I/Os outstanding per drive (the host's response
            # sees them as a closed class, recorded.queue_stretch; docs/model.md 3.1)
            "queue_u": lay.G, "queue_n": lay.G, "queue_s": lay.G,  # (queue_s: s per queued I/O)
            "queue_cu": lay.C, "queue_cn": lay.C,  # the same on each controller core (CPU %, count)
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
        # (the rows where each op ran, op after op, op j's from rec_offsets[j] to rec_offsets[j + 1],
        # and its moved MB and rate there)
        self.rec_rows, self.rec_offsets = np.zeros(0, int), np.zeros(1, int)
        self.rec_moved, self.rec_rate = np.zeros(0), np.zeros(0)
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

    def ctrl_caps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The controllers' MB/s and IOPS caps (MD32xx: the base limits, raised by HPT); None
        without. A method: the operations call it too (protocols.SimView)."""
        if self.limits is None:
            return None
        hpt = any(v for k, v in self.features.items() if "hpt" in k or "high_performance" in k)
        bw = self.R.v("hpt.bandwidth_factor") if hpt else 1.0
        io = self.R.v("hpt.iops_factor") if hpt else 1.0
        mb = np.minimum(self.limits["base_mb"] * bw, self.limits["link_mb"])
        return mb, self.limits["base_iops"] * io

    def add_timer(self, when: float, cb) -> None:
        self.timers.append((when, cb))


def _cache_sizes(sim: SimState) -> tuple[float | None, float | None]:
    """(read, write) cache MB per controller from the project's cache settings, in the
    platform's own terms: CLARiiON read_cache_mb / write_cache_mb; Smart Array: the
    accelerator's cache.total_mb split by accelerator_read_pct; otherwise the rates' own
    cache.read_cache_mb / cache.write_cache_mb. None where nothing gives a size (the read
    hit ratio is then host.read_hit_pct, and writes are cached without a fill model)."""
    c, R = sim.cache, sim.R
    if "read_cache_mb" in c or "write_cache_mb" in c:
        return float(c.get("read_cache_mb") or 0.0), float(c.get("write_cache_mb") or 0.0)
    if "accelerator_read_pct" in c and R.has("cache.total_mb"):
        total, share = R.v("cache.total_mb"), float(c["accelerator_read_pct"] or 0.0) / 100.0
        return total * share, total * (1.0 - share)
    return R.opt("cache.read_cache_mb"), R.opt("cache.write_cache_mb")


def _controller_limits(sim: SimState) -> dict[str, np.ndarray] | None:
    """MD32xx: base controller limits from the Dell drive counts, raised by HPT."""
    if not sim.R.has("hpt.bandwidth_factor"):
        return None
    lay = sim.lay
    if not lay.D:
        return None
    n_ctrl = len(lay.ctrl_names)
    seq = float(np.median(lay.d_seq))
    iops1 = 1000.0 / float(np.median(lay.d_rand))
    base_mb = sim.R.v("hpt.base_seq_drives_dual") * seq / 2.0
    base_iops = sim.R.v("hpt.base_random_drives_dual") * iops1 / 2.0
    links = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
    return {"base_mb": np.full(n_ctrl, base_mb), "base_iops": np.full(n_ctrl, base_iops),
            "link_mb": np.full(n_ctrl, links)}


def _hit_curve(sim: SimState) -> np.ndarray:
    """Each workload's read hit ratio where it gives none (docs/model.md section 2):
    hit = min(1, read cache / working set) ^ a, the working set host.working_set_pct of its
    LUNs' capacity and a = host.read_hit_exponent (1: uniform random access; below 1: access
    skewed to a hot part); no read cache, no hits. Without a cache size or those two figures
    in the preset: host.read_hit_pct, whatever the cache."""
    W = len(sim.workloads)
    R, C = sim.R, sim.read_cache_mb
    if C is None or not (R.has("host.working_set_pct") and R.has("host.read_hit_exponent")):
        return np.full(W, sim.hit_default)
    frac, a = R.v("host.working_set_pct") / 100.0, R.v("host.read_hit_exponent")
    cap = np.bincount(sim.p_w, weights=sim.lay.l_cap[sim.p_l], minlength=W) if sim.P else np.zeros(W)
    ws = cap * 1024.0 * frac
    if C <= 0:
        return np.zeros(W)
    return np.where(ws > 0, np.minimum(1.0, C / np.maximum(ws, 1e-9)) ** a, 1.0)
