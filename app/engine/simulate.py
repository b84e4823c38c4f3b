"""The embedded model: an event-driven fluid simulation (docs/model.md has the equations).

Between two events every rate is constant, so the engine jumps from event to event: user events
(operations, failures, replacements, workload changes) and the engine's own (a phase ends, the
write cache reaches its watermark, a cache re-warm step). At each step it solves the host load
and the operations' rates together (a few fixed-point passes, numpy over all drives, groups,
LUNs and workload pairs), records one row per metric, and advances every running phase.
"""
from __future__ import annotations

import bisect
import gc
import heapq
import math
from operator import attrgetter
from typing import Any, Callable, Final

import numpy as np

from app.domain.hardware import Catalog
from app.domain.project import DriveReplacement, FeatureEnable, Project, WorkloadChange
from app.domain.raid import mttdl_hours

from . import envelope
from .errors import EngineStall
from .ops import OPS, Part, RK_BITS, RK_BUS_G, RK_BUS_X, RK_CORE, RK_D, RK_G, RK_MASK, Op, Rebuild, res_key
from .policy import UnknownLevel
from .rates import MissingRate, RateReader
from .recorded import INPUTS, Cells, DriveLoad, OpenResponses, PairHistory, PartResponses, Progress, RecordedRows
from .result import Advisory, Assumption, Result, SeriesBlock
from .state import Layout, LayoutCache

INF: Final = math.inf
MAX_STEPS: Final = 200_000
REC_CHUNK = 256  # recorded steps per matrix (Sim.record)
STALL_STEPS: Final = 1_000  # steps in a row without the clock moving


_SCALAR_PAIRS = 16  # Sim._host_static: up to this many dirty pairs, Python floats are faster than numpy
_SCALAR_SUMS = 32  # Sim._host_load: up to this many pairs on the changed groups, their sums on floats
_WT_X_OPEN = 9  # the open IOPS per LUN's row in Sim._workload_terms() (x_open in _pair_arith)


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


def _pair_arith(wt, gt, hit_scale, opt, on, seq64: bool, frag_k: float | None) -> tuple:
    """The host path's per-pair terms (PAIR_TERMS, in order), written once for numpy rows
    (many pairs) and Python floats (one pair; the same IEEE operations, so the same values):
    wt: the workload's factors (Sim._workload_terms), gt: the group's (Sim._group_terms),
    hit_scale and opt: the LUN's cache re-warm scale and optimization, on: the pair has an I/O
    path; seq64: sequential reads are timed per 64 KB; frag_k: fragmentation slows them."""
    (r, omr, rnd, kb, kbm, omr_rnd, r_omrnd, omr_omrnd, hit_w, x_open, n_raw, n_out, kb64) = wt
    seq, rand_s, pen, fullstripe, data1, wpass, rd_mult, seq_deg, rrf_mult = gt
    hit = hit_w * hit_scale
    r_omh = r * (1 - hit)
    s_seqr = kbm / seq
    s_rand = rand_s + s_seqr
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


# Checks called after each call of a Sim method, by its name, with (sim, what it returned):
# tests/test_engine_placement.py and test_engine_host_load.py compare the incremental
# bookkeeping with a computation from scratch through them (tests/conftest.py
# check_after_each_call). A registry, not wrapping: the compiled engine's methods cannot be replaced.
CHECKS: Final[dict[str, Callable[[Sim, Any], None]]] = {}


def _after_call(name: str, sim: Sim, out: Any) -> None:
    check = CHECKS.get(name)
    if check is not None:
        check(sim, out)


class RunCancelled(Exception):
    """The caller's should_stop() said the run is no longer wanted (a newer edit came)."""


STOP_CHECK_STEPS: Final = 16  # how often a run asks should_stop() (a pipe poll: ~2 us)

_INDEX = attrgetter("index")
# (module attributes are a generic getattr per call in the compiled engine: Sim.place's queue)
_heapify: Final = heapq.heapify
_heappop: Final = heapq.heappop
_heappush: Final = heapq.heappush


_WL_FIELDS = ("mode", "iops", "outstanding", "read_pct", "io_kb", "random_pct", "read_hit_pct")
_WL_ARRAYS = (  # Sim's per-workload arrays: (attribute, dtype, value of a workload)
    ("w_closed", bool, lambda w: w["mode"] == "closed"),
    ("w_iops", float, lambda w: float(w["iops"] or 0)),
    ("w_out", float, lambda w: float(w["outstanding"] or 0)),
    ("w_r", float, lambda w: float(w["read_pct"]) / 100),
    ("w_kb", float, lambda w: float(w["io_kb"])),
    ("w_rand", float, lambda w: float(w["random_pct"]) / 100),
    ("w_hit", float, lambda w: np.nan if w["read_hit_pct"] is None else float(w["read_hit_pct"]) / 100),
)


class Ctx:
    """The running operations' placement on the resources, kept from step to step (Sim.place).

    Operations are placed one by one in a fixed order (Op.pos: economical phases first, then the
    ASAP class, each in start order); a rate depends on the host load and on what the operations
    placed before it left free on its drives. Each operation's additions are kept per resource,
    so a step places again only the operations whose inputs changed: their own phases, the host
    load, failures or ASAP counts on their drives, or an earlier operation's additions there.
    Resources are (kind, index): ("g", group) busy of each alive member, ("d", drive) busy of
    a single drive (a spare, a replacement, a mirror partner), ("core", core) CPU %, ("bus_g",
    group) and ("bus_x", bus) MB/s, keyed by one int each (ops.res_key: index << RK_BITS | kind
    code). That keeps a step's cost independent of the drive count."""

    def __init__(self, sim: "Sim"):
        lay = sim.lay
        self.max_util = sim.max_util
        self.U_src: Any = None  # the host-load arrays the placement was made with
        self.random_src: Any = None
        self.U_host_g: list[float] = [0.0] * lay.G  # (follow_host)
        # group -> the highest host utilization seen at or above max_util (follow_host): the host
        # I/O alone asks for more drive time than the model lets a drive give (host-overload)
        self.overloaded: dict[int, float] = {}
        self.host_peak: dict[int, float] = {}  # group -> its highest host utilization (envelope)
        self.host_active_g: list[bool] = [False] * lay.G
        self.host_random_g = np.ones(lay.G)
        # per group: the fraction of time host I/O is at the group (Sim.host_occupancy), which
        # the share and idle_only policies throttle by; per core: the host's CPU % (free_core)
        self.occ_g: list[float] = [0.0] * lay.G
        self.core_host: list[float] = [0.0] * lay.C
        self.core_src: Any = None
        self.asap_c: dict[int, Any] = {}  # ASAP-priority phases per core (counts as Ctx.count adds them)
        # per bus: the host's back-end MB/s (follow_bus) and the bus's capacity (free_bus)
        self.host_bus: list[float] = [0.0] * lay.B
        self.bus_src: Any = None
        self.bus_mb_s = float(sim.platform.bus_mb_s)
        self.GB = lay.GB
        self.topo: Any = None  # topology version of d_group / failed below
        self.dg_arr = lay.d_group.copy()
        self.failed_arr = sim.failed.copy()
        self.d_group: list[int] = self.dg_arr.tolist()
        self.failed: list[bool] = self.failed_arr.tolist()
        self.asap_g: Any = [0] * lay.G  # ASAP-priority phases per group / per single drive (totals)
        self.asap_x: Any = {}
        self.by: dict[int, dict[Op, float]] = {}  # resource key -> {op: its addition}
        self.readers: dict[int, set[Op]] = {}  # drive-time resource key -> ops whose rate reads it
        self.pending: set[int] = set()  # resource keys whose total is out of date
        # totals for the step's rows (Sim.loads): per group, core and bus; per single drive
        self.totals = {"g": np.zeros(lay.G), "core": np.zeros(lay.C), "bus_g": np.zeros(lay.G),
                       "bus_x": np.zeros(lay.B)}
        # the same arrays by kind code (RK_G .. RK_BUS_X; single drives are in self.extra), and
        # their values as lists (Sim.loads reads single entries: a list item, not ndarray.item())
        self._totals_by_code: list[Any] = [self.totals["g"], None, self.totals["core"], self.totals["bus_g"],
                                           self.totals["bus_x"]]
        self.total_lists: list[list[float]] = [[0.0] * lay.G, [], [0.0] * lay.C, [0.0] * lay.G, [0.0] * lay.B]
        self.extra: dict[int, float] = {}
        self._extra_g: dict[int, float] | None = None  # extra per group (extra_by_group)
        self.stale: list[int] = []  # resource keys whose totals changed since Sim.loads read them
        # the operation being placed: its position and additions so far
        self.pos = -1
        self.own: dict[int, float] = {}

    # ---- what an operation reads while it is placed
    def partial(self, key: int) -> float:
        """What the operations placed before the current one put on resource `key` (the host
        load aside), plus the current one's additions so far."""
        s = self.own.get(key, 0.0)
        by = self.by.get(key)
        if by:
            pos = self.pos
            for o, v in by.items():
                if o.pos < pos:
                    s += v
        return s

    def used_g(self, g: int) -> float:
        return self.U_host_g[g] + self.partial(g << RK_BITS)  # (RK_G)

    def used_d(self, d: int) -> float:
        used = self.partial(d << RK_BITS | RK_D)
        g = self.d_group[d]
        if g >= 0 and not self.failed[d]:
            used += self.used_g(g)
        return used

    def free_g(self, g: int) -> float:
        f = self.max_util - self.U_host_g[g] - self.partial(g << RK_BITS)
        return f if f > 0.0 else 0.0

    def free_d(self, d: int) -> float:
        f = self.max_util - self.used_d(d)
        return f if f > 0.0 else 0.0

    def free_core(self, c: int) -> float:
        """CPU % of core c that the host and the operations placed before this one leave."""
        f = 100.0 - self.core_host[c] - self.partial(c << RK_BITS | RK_CORE)
        return f if f > 0.0 else 0.0

    def free_bus(self, b: int) -> float:
        """MB/s of bus b that the host and the operations placed before this one leave."""
        f = self.bus_mb_s - self.host_bus[b] - self.partial(b << RK_BITS | RK_BUS_X)
        return f if f > 0.0 else 0.0

    def follow_bus(self, be_g: np.ndarray) -> list[int]:
        """Take the host's back-end MB/s per group (spread over each group's buses as its members
        are); the bus keys operations read whose value changed."""
        if be_g is self.bus_src:
            return []
        vals = (be_g @ self.GB).tolist() if len(self.GB) else [0.0] * len(self.host_bus)
        read = []
        for b, v in enumerate(vals):
            if v != self.host_bus[b]:
                self.host_bus[b] = v
                key = b << RK_BITS | RK_BUS_X
                if self.readers.get(key):
                    read.append(key)
        self.bus_src = be_g
        return read

    def follow_core(self, core_host: np.ndarray) -> list[int]:
        """Take the host's CPU per core; the core keys operations read whose value changed."""
        if core_host is self.core_src:
            return []
        vals = core_host.tolist()
        read = []
        for c, v in enumerate(vals):
            if v != self.core_host[c]:
                self.core_host[c] = v
                key = c << RK_BITS | RK_CORE
                if self.readers.get(key):
                    read.append(key)
        self.core_src = core_host
        return read

    def asap_of_d(self, d: int) -> Any:
        g = self.d_group[d]
        n: Any = self.asap_x.get(d, 0)
        if g >= 0 and not self.failed[d]:
            n += self.asap_g[g]
        return n

    # ---- what an operation writes
    def add(self, kind: str, i: int, value: float) -> None:
        """Add to resource (kind, i): "g" busy of each alive member of group i, "d" busy of drive i,
        "core" CPU % of core i, "bus_g" MB/s on group i's buses, "bus_x" MB/s on bus i."""
        key = res_key(kind, i)
        self.own[key] = self.own.get(key, 0.0) + value

    def add_all(self, adds: list[tuple[int, float]]) -> None:
        """Several additions as (resource key, value) (an Op.fixed part)."""
        own = self.own
        for key, value in adds:
            own[key] = own.get(key, 0.0) + value

    def count(self, kind: str, i: int) -> None:
        """One more ASAP-priority phase on group ("g") or single drive ("d") i (Op.count_asap)."""
        key = res_key(kind, i)
        self.own[key] = self.own.get(key, 0) + 1

    # ---- bookkeeping (Sim.place)
    def follow_host(self, U_host_g: np.ndarray, host_random_g: np.ndarray, occ_g: Any = None) -> list[int]:
        """Take a new host-load solution; the groups where it changed that operations read."""
        if U_host_g is self.U_src:
            return []
        if occ_g is not None:
            self.occ_g = occ_g
        # lists: ops read a few entries each, cheaper than numpy; a new version changes one or
        # two groups as a rule, so only their entries are copied
        if self.U_src is None:
            idx: Any = range(len(U_host_g))
        else:
            # (ndarray.nonzero, not np.flatnonzero's Python wrapper; the random shares are the
            # same array in four versions of five)
            diff = U_host_g != self.U_src
            if host_random_g is not self.random_src:
                diff |= host_random_g != self.random_src
            idx = diff.nonzero()[0].tolist()
        U, active, readers, mu = self.U_host_g, self.host_active_g, self.readers, self.max_util
        # (ndarray.item per entry for a few; one tolist for many: the first version, a workload change)
        vals: list[float] | None = U_host_g.tolist() if len(idx) > 8 else None
        read = []
        for g in idx:
            u = U[g] = U_host_g.item(g) if vals is None else vals[g]
            active[g] = u > 1e-9
            if u >= mu and u > self.overloaded.get(g, 0.0):
                self.overloaded[g] = u
            if u > self.host_peak.get(g, 0.0):
                self.host_peak[g] = u
            key = g << RK_BITS  # (RK_G)
            if readers.get(key):
                read.append(key)
        self.U_src, self.random_src = U_host_g, host_random_g
        self.host_random_g = host_random_g
        return read

    def follow_topology(self, sim: "Sim") -> list[int]:
        """Take the drives' current groups and failures (a new topology version); the drives
        whose membership changed (free_d and asap_of_d read it)."""
        if self.topo == sim.topo:
            return []
        d_group = sim.lay.d_group
        moved = ((d_group != self.dg_arr) | (sim.failed != self.failed_arr)).nonzero()[0].tolist()
        for d in moved:
            self.dg_arr[d] = self.d_group[d] = int(d_group[d])
            self.failed_arr[d] = self.failed[d] = bool(sim.failed[d])
        if moved:
            self._extra_g = None
        self.topo = sim.topo
        return [d << RK_BITS | RK_D for d in moved]

    def starves(self, part: Part) -> bool:
        """The host alone fills a drive this transfer (an Op.fixed part) needs: take() gives it
        0 MB/s whatever the others do."""
        U, mu = self.U_host_g, self.max_util
        for g in part.check_g:
            if U[g] >= mu:
                return True
        dg, failed = self.d_group, self.failed
        for d in part.check_d:
            g = dg[d]
            if g >= 0 and not failed[d] and U[g] >= mu:
                return True
        return False

    def footprint(self, op: Op) -> set[int]:
        """The drive-time resources op's rate reads: its own, and the group of a single drive
        that is an alive member (free_d reads the group's load). The same set while neither op's
        resources nor, if it reads a single drive, the topology change (commit() then has no
        readers to move)."""
        resources = op.resources()
        key = op.reads_key  # (resources, the topology version, or None when it reads no drive)
        if key is not None and key[0] == resources and (key[1] is None or key[1] == self.topo):
            return op.reads
        keys: set[int] = set()
        single = False
        for kind, i in resources:
            keys.add(res_key(kind, i))
            if kind == "d":
                single = True
                g = self.d_group[i]
                if g >= 0 and not self.failed[i]:
                    keys.add(g << RK_BITS)  # (RK_G)
        op.reads_key = (resources, self.topo if single else None)
        return op.reads if keys == op.reads else keys  # (the same set: commit() moves no readers)

    def commit(self, op: Op, own: dict[int, float], reads: set[int]) -> list[int]:
        """Replace op's additions and read set; the drive-time resources whose additions changed."""
        # (keys typed Any in these loops: the compiled code then passes the key objects through
        # instead of unboxing each int and boxing it again for every look-up, an allocation above 256)
        readers: dict[Any, set[Op]] = self.readers
        if reads is not op.reads:
            # (membership tests rather than set differences, and no set() made per setdefault:
            # no temporary sets; each reader set gets or loses op once, as before)
            was: set[Any] = op.reads
            now: set[Any] = reads
            for key in was:
                if key not in now:
                    readers[key].discard(op)
            for key in now:
                if key not in was:
                    rs = readers.get(key)
                    if rs is None:
                        readers[key] = {op}
                    else:
                        rs.add(op)
            op.reads = reads
        old = op.placed
        if own == old:  # (placed again to the same additions: a fifth of the placements)
            return []
        moved: list[Any] = []
        by_of: dict[Any, dict[Op, float]] = self.by
        pending: set[Any] = self.pending
        own_k: dict[Any, float] = own
        old_k: dict[Any, float] = old
        for key, v in own_k.items():  # new or changed additions
            ov = old_k.get(key)
            if ov is not None and ov == v:
                continue
            by = by_of.get(key)
            if by is None:
                by = by_of[key] = {}
            by[op] = v
            pending.add(key)
            if key & RK_MASK != RK_BUS_G:  # drive time, CPU and buses: operations read them
                moved.append(key)
        for key in old_k:  # additions that go
            if key not in own_k:
                del by_of[key][op]
                pending.add(key)
                if key & RK_MASK != RK_BUS_G:
                    moved.append(key)
        op.placed = own
        return moved

    def recount(self, op: Op, counts: dict[int, Any]) -> list[int]:
        """Replace op's ASAP counts; the resources whose count changed."""
        old = op.counted
        moved = []
        for key in old.keys() | counts.keys():
            n: Any = counts.get(key, 0) - old.get(key, 0)
            if not n:
                continue
            i = key >> RK_BITS
            if key & RK_MASK == RK_G:
                self.asap_g[i] += n
            elif key & RK_MASK == RK_CORE:
                n += self.asap_c.pop(i, 0)
                if n:
                    self.asap_c[i] = n
            else:
                n += self.asap_x.pop(i, 0)
                if n:
                    self.asap_x[i] = n
            moved.append(key)
        op.counted = counts
        return moved

    def settle(self) -> None:
        """Bring the totals of the changed resources up to date (they go stale for Sim.loads)."""
        by_of, totals, lists, extra = self.by, self._totals_by_code, self.total_lists, self.extra
        for key in self.pending:
            kind, i = key & RK_MASK, key >> RK_BITS
            by = by_of.get(key)
            total = 0.0  # (sum() in the values' order, a loop: no call of the builtin)
            if by:
                for v in by.values():
                    total += v
            if kind == RK_D:
                self._extra_g = None
                if by:
                    extra[i] = total
                else:
                    extra.pop(i, None)
            else:
                totals[kind][i] = total
                lists[kind][i] = total
        self.stale.extend(self.pending)
        self.pending.clear()

    def extra_by_group(self) -> dict[int, float]:
        """The single-drive extras of each group's alive members, summed in self.extra's order
        (Sim.loads); kept until an extra or the topology changes."""
        eg = self._extra_g
        if eg is None:
            eg = self._extra_g = {}
            dg, failed = self.d_group, self.failed
            for d, b in self.extra.items():
                g = dg[d]
                if g >= 0 and not failed[d]:
                    eg[g] = eg.get(g, 0.0) + b
        return eg


# per-pair float terms (one row each of Sim._pair_f); the first ones are recorded.INPUTS
PAIR_TERMS: Final = ("X_raw", "r", "hit", "rnd", "t_seq", "r_rand_fixed", "w_unc", "kb", "busy_per_io",
                     "be_mb_per_io", "n_raw", "n_out", "busy_w")
_KB: Final = PAIR_TERMS.index("kb")
# the rows _host_load sums per group, kept as lists beside _pair_f (Sim._sum_rows)
SUM_TERMS: Final = [PAIR_TERMS.index("busy_per_io"), PAIR_TERMS.index("rnd"), PAIR_TERMS.index("be_mb_per_io")]

# mttdl_hours per (RAID type, width, MTTF, MTTR), None where it raises: a pure function whose
# arguments recur in every run of the same hardware (each group's idle MTTR differs, so a per-run
# cache would miss); Sim.mttdl clears it past a few thousand entries
_MTTDL_KNOWN: dict[tuple, float | None] = {}


class Sim:
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
        self.read_cache_mb, write_mb = self._cache_sizes()
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
        self.hit_curve = self._hit_curve()
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
        self.limits = self._controller_limits()
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

    # ------------------------------------------------------------------ workloads
    def _wl_arrays(self, wi: int | None = None) -> None:
        """Workload parameters as arrays; wi: only that workload changed (its pairs are dirty, or
        only their offered IOPS if only its IOPS changed; nothing if no value changed)."""
        if wi is not None:
            changed = [name for name, _, value in _WL_ARRAYS  # (NaN: the platform's default in both)
                       if not _same(getattr(self, name).item(wi), value(self.workloads[wi]))]
            if not changed:
                return  # a change to the values it has: the same host load (no new version to solve)
        self.version = getattr(self, "version", 0) + 1
        if wi is None:
            self._dirty = None  # every pair
            self._dirty_groups: dict[int, set[int]] = {}  # pairs to recompute if their group's terms changed
            self._dirty_x: set[int] = set()  # pairs whose offered IOPS alone changed (_host_static)
            self._topo_groups = None  # groups whose drives changed (None: any)
            self._row_ids: dict[tuple, int] = {}  # (_value_id)
            # _update_few: a pair's terms by (workload value id, group value id, the LUN's re-warm
            # scale, optimization, I/O path): _pair_arith of the same floats, once per run
            self._arith_memo: dict[tuple, tuple] = {}
        elif self._dirty is not None:  # (an open workload's IOPS change alters its pairs' X_raw only)
            (self._dirty_x if changed == ["w_iops"] else self._dirty).update(self._pairs_of_w[wi])
        if wi is None:
            self._pairs_of_w: list[list[int]] = [[] for _ in self.workloads]  # (fixed per run)
            for k, w in enumerate(self.p_w.tolist()):
                self._pairs_of_w[w].append(k)
            for name, dtype, value in _WL_ARRAYS:
                setattr(self, name, np.array([value(w) for w in self.workloads], dtype))
        else:
            for name, _, value in _WL_ARRAYS:
                getattr(self, name)[wi] = value(self.workloads[wi])
        self.any_closed_w = bool(self.w_closed.any())
        self.w_running = (self.w_iops > 0) | (self.w_closed & (self.w_out > 0))  # offering I/O
        # the open workloads' host MB/s together: a bound of any controller's (port_scale)
        self.open_mb = float(np.where(self.w_closed, 0.0, self.w_iops * self.w_kb / 1024.0).sum())
        if wi is None or self._wl_terms is None:
            self._wl_terms: Any = None
            self._wl_rows: Any = None  # rebuilt by _workload_terms()
        else:  # that workload's column only (on Python floats)
            column = self._workload_factors(wi)
            self._wl_terms[:, wi] = column
            if self._wl_rows is not None:
                self._wl_rows[wi] = column
                self._wl_ids[wi] = self._value_id(column)

    def _workload_factors(self, wi: int | None = None) -> list:
        """The rows of _workload_terms(): every workload's (arrays), or workload wi's (floats)."""
        pick = (lambda a: a) if wi is None else (lambda a: a.item(wi))
        r, rnd, kb, hit = pick(self.w_r), pick(self.w_rand), pick(self.w_kb), pick(self.w_hit)
        n_luns = pick(self.w_nluns)
        per_lun = _pick(n_luns > 1.0, n_luns, 1.0)
        n_raw = pick(self.w_out) / per_lun
        return [
            r, 1 - r, rnd, kb, kb / 1024.0, (1 - r) * rnd, r * (1 - rnd), (1 - r) * (1 - rnd),
            _pick(hit != hit, pick(self.hit_curve), hit),  # (a NaN: the cache's hit curve, _hit_curve)
            _pick(pick(self.w_closed), 0.0, pick(self.w_iops) / per_lun),  # open workloads' IOPS per LUN
            n_raw, _pick(n_raw > 1.0, n_raw, 1.0),
            kb / 64.0 * self.seq64 if self.seq64 is not None else kb * 0.0,
        ]

    def _workload_terms(self) -> np.ndarray:
        """The per-workload factors of _pair_terms() (one row each, in the order it unpacks
        them), computed once per run and then per workload change: the values the pair
        formulas would compute."""
        if self._wl_terms is None:
            self._wl_terms = np.array(self._workload_factors())
        return self._wl_terms

    def _workload_rows(self) -> list[list[float]]:
        """_workload_terms() per workload, as Python floats (_update_few), and their value ids
        in self._wl_ids."""
        if self._wl_rows is None:
            self._wl_rows = self._workload_terms().T.tolist()
            self._wl_ids = [self._value_id(row) for row in self._wl_rows]
        return self._wl_rows

    def _value_id(self, row: list[float]) -> int:
        """A small int per distinct row of factors (workload or group) in this run: the keys of
        _update_few's memo (equal rows, equal id; NaN rows: always a new id)."""
        return self._row_ids.setdefault(tuple(row), len(self._row_ids))

    def _hit_curve(self) -> np.ndarray:
        """Each workload's read hit ratio where it gives none (docs/model.md section 2):
        hit = min(1, read cache / working set) ^ a, the working set host.working_set_pct of its
        LUNs' capacity and a = host.read_hit_exponent (1: uniform random access; below 1: access
        skewed to a hot part); no read cache, no hits. Without a cache size or those two figures
        in the preset: host.read_hit_pct, whatever the cache."""
        W = len(self.workloads)
        R, C = self.R, self.read_cache_mb
        if C is None or not (R.has("host.working_set_pct") and R.has("host.read_hit_exponent")):
            return np.full(W, self.hit_default)
        frac, a = R.v("host.working_set_pct") / 100.0, R.v("host.read_hit_exponent")
        cap = np.bincount(self.p_w, weights=self.lay.l_cap[self.p_l], minlength=W) if self.P else np.zeros(W)
        ws = cap * 1024.0 * frac
        if C <= 0:
            return np.zeros(W)
        return np.where(ws > 0, np.minimum(1.0, C / np.maximum(ws, 1e-9)) ** a, 1.0)

    def pair_wcache(self) -> np.ndarray:
        """Per pair: its writes go to a write-back cache (the LUN's write cache is on and the
        array has one; write_cache_mb = 0 makes every write write-through)."""
        return self.lay.l_wcache[self.p_l] & (self.write_cache_mb > 0)

    def _cache_sizes(self) -> tuple[float | None, float | None]:
        """(read, write) cache MB per controller from the project's cache settings, in the
        platform's own terms: CLARiiON read_cache_mb / write_cache_mb; Smart Array: the
        accelerator's cache.total_mb split by accelerator_read_pct; otherwise the rates' own
        cache.read_cache_mb / cache.write_cache_mb. None where nothing gives a size (the read
        hit ratio is then host.read_hit_pct, and writes are cached without a fill model)."""
        c, R = self.cache, self.R
        if "read_cache_mb" in c or "write_cache_mb" in c:
            return float(c.get("read_cache_mb") or 0.0), float(c.get("write_cache_mb") or 0.0)
        if "accelerator_read_pct" in c and R.has("cache.total_mb"):
            total, share = R.v("cache.total_mb"), float(c["accelerator_read_pct"] or 0.0) / 100.0
            return total * share, total * (1.0 - share)
        return R.opt("cache.read_cache_mb"), R.opt("cache.write_cache_mb")

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

    def port_scale(self, ctrl: np.ndarray, X: np.ndarray, kb: np.ndarray, bound_mb: float = INF) -> np.ndarray | float:
        """Host ports: a controller's host MB/s cannot exceed its ports' MB/s; the pairs it
        serves are scaled down together (per pair factor; the float 1.0 when every controller's
        ports have room). bound_mb: at least the MB/s of any controller (the ports have room
        if it fits, with a margin for the rounding of the sums)."""
        n_ctrl = len(self.lay.ctrl_names)
        cap = self.platform.host_ports_per_controller * self.platform.host_port_mb_s
        if cap <= 0 or not len(X) or bound_mb <= cap * (1.0 - 1e-9):
            return 1.0
        mb = np.bincount(ctrl, weights=X * kb / 1024.0, minlength=n_ctrl)
        if max(mb.tolist(), default=0.0) <= cap:  # the common case, decided without the scale
            return 1.0
        scale = np.minimum(1.0, cap / np.maximum(mb, 1e-9))
        if (scale >= 1.0).all():
            return 1.0
        self.advise("warning", "host-ports-saturated",
                    "the host load exceeds the host ports' bandwidth of "
                    + ", ".join(self.lay.ctrl_names[k] for k in np.nonzero(scale < 1.0)[0])
                    + f" ({cap:g} MB/s each); throughput is capped there", "project")
        return scale[ctrl]

    def ctrl_caps(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.limits is None:
            return None
        hpt = any(v for k, v in self.features.items() if "hpt" in k or "high_performance" in k)
        bw = self.R.v("hpt.bandwidth_factor") if hpt else 1.0
        io = self.R.v("hpt.iops_factor") if hpt else 1.0
        mb = np.minimum(self.limits["base_mb"] * bw, self.limits["link_mb"])
        return mb, self.limits["base_iops"] * io

    # ------------------------------------------------------------------ the host load

    def _host_static(self) -> dict[str, Any]:
        """Per workload-pair arrays that change only when invalidate() was called, updated in
        place: when the invalidations named their groups/LUNs (a failure, a swap, a migration's
        end, one workload's change), only those pairs are recomputed, and a group's only if its
        per-group terms changed. Each version's response-time inputs go to self.pair_history (only
        the recomputed pairs) for finish()."""
        lay = self.lay
        dirty: Any = self._dirty
        self._dirty = set()
        on_groups, self._dirty_groups = self._dirty_groups, {}
        x_only, self._dirty_x = self._dirty_x, set()
        st = getattr(self, "_st", None)
        alive_changed = False
        if getattr(self, "_group_key", None) != self.topo:  # failures and swaps bump self.topo
            changed = self._group_terms()
            alive_changed = changed is not None
            if changed is not None and dirty is not None:  # a replacement drive arriving changes nothing here
                for g, pairs in on_groups.items():
                    if g in changed:
                        dirty |= pairs
        if dirty is not None and x_only:
            x_only -= dirty
            dirty |= x_only
        recap, self._recap = self._recap, False  # only the centres' capping changed (forced flush)
        if st is not None and dirty is not None and not dirty and not alive_changed and not recap:
            # nothing the host load depends on changed: the same arrays (so the same host load
            # object: solve() keeps operations starved by it idle) and the same history version
            return st
        alive_n, alive_g = self._alive
        if st is None or dirty is None:
            idx: Any = None
            self._p_w_list, self._p_l_list = self.p_w.tolist(), self.p_l.tolist()  # (_update_few)
            self._pair_f, self._pair_i, self._pair_b = self._pair_terms(np.arange(self.P))
            # _pair_i and _pair_b as lists too: _update_few reads them pair by pair (.item costs ~10x)
            self._pair_i_rows, self._pair_b_rows = self._pair_i.tolist(), self._pair_b.tolist()
            self._sum_rows = self._pair_f[SUM_TERMS].tolist()  # (_host_load's per-group sums)
            st = {name: self._pair_f[k] for k, name in enumerate(PAIR_TERMS)}
            st.update(gi=self._pair_i[0], ctrl=self._pair_i[1], on=self._pair_b[0], closed=self._pair_b[1],
                      pw=self.p_w, pl=self.p_l, wcache=self.pair_wcache())  # the last three fixed per pair
            terms, where = self._pair_f[:len(INPUTS)].copy(), self._pair_i.copy()
            same_x = False
            self._group_pairs: list[list[int]] = [[] for _ in range(lay.G)]  # each group's pairs, ascending (_host_load)
            for k, g in enumerate(self._pair_i[0].tolist()):
                self._group_pairs[g].append(k)
            touched: Any = None
        else:
            idx = np.fromiter(dirty, int, len(dirty))
            # same_x: the pairs' offered IOPS, I/O size and controller are as they were (a
            # failure, a LUN moving between groups): the open IOPS and the per-workload and
            # per-controller sums stay (only the per-group ones change)
            if len(idx) <= _SCALAR_PAIRS:
                same_x, touched = self._update_few(idx.tolist())
                # (take: a few times faster than fancy indexing [:, idx] on a few columns)
                terms, where = self._pair_f[:len(INPUTS)].take(idx, axis=1), self._pair_i.take(idx, axis=1)
            elif len(x_only) == len(idx):
                # their workloads changed only their IOPS: only X_raw changes (what _pair_terms
                # would compute, without its ~50 array operations)
                pf = self._pair_f
                x = _offered(self._workload_terms()[_WT_X_OPEN].take(self.p_w[idx]), self._pair_b[0].take(idx))
                same_x = x.tobytes() == pf[0].take(idx).tobytes()
                pf[0, idx] = x
                touched = None
                terms, where = pf[:len(INPUTS)].take(idx, axis=1), self._pair_i.take(idx, axis=1)
            else:
                f, i, b = self._pair_terms(idx)
                pf, pi = self._pair_f, self._pair_i
                # (compared as bytes: a few times faster than (a == b).all(); equal bytes are equal values)
                same_x = (f[0].tobytes() == pf[0].take(idx).tobytes() and f[_KB].tobytes() == pf[_KB].take(idx).tobytes()
                          and i[1].tobytes() == pi[1].take(idx).tobytes())
                g_old, g_new = pi[0].take(idx), i[0]
                for j in (g_old != g_new).nonzero()[0].tolist():  # a migrated LUN's pairs
                    self._move_pair(idx.item(j), g_old.item(j), g_new.item(j))
                touched = None  # many pairs (a workload change: on some 40 groups): every group's sums
                pf[:, idx], pi[:, idx], self._pair_b[:, idx] = f, i, b
                self._pair_i_rows, self._pair_b_rows = pi.tolist(), self._pair_b.tolist()
                self._sum_rows = pf[SUM_TERMS].tolist()
                terms, where = f[:len(INPUTS)], i
            if not same_x:
                st.pop("agg", None)  # solve()'s per-version sums
        st["alive_g"], st["alive_n"] = alive_g, alive_n
        if same_x:
            scaled = self._scaled
        else:
            scale = self.port_scale(st["ctrl"], st["X_raw"], st["kb"], self.open_mb)
            st["X_port"] = st["X_raw"] * scale  # a new array: solve() keeps it past this version
            scaled = isinstance(scale, np.ndarray)
        st["any_closed"] = self.any_closed_w and bool((st["closed"] & st["on"]).any())
        # open workloads: the host load on every resource is fixed until the next invalidate();
        # an open load a centre cannot serve is served at that centre's capacity (_centre_scale)
        was_capped = getattr(self, "_capped", False)
        capped = False
        x_prev = st.get("X_open")  # the served IOPS the history holds (before this version)
        if st["any_closed"]:
            st["host"] = st["host_off"] = None
            st["X_open"] = st["X_port"]
            st["full_g"] = None
            self.host_fill = None
        else:
            # the offered load's sums (kept from version to version, updated for the touched
            # groups), then the served one's where a centre caps it
            host = st.get("host_off")
            X_port = st["X_port"]
            st["full_g"] = None
            self.host_fill = None
            host = self._host_load(st, X_port, host[2] if same_x and host else None, touched if host else None)
            st["host_off"] = host
            cap = self._centre_scale(st, X_port, host)
            if cap is not None:
                capped = True
                st["X_open"] = X_port * cap
                # a group its own host load fills is at max_util (not a rounding below it: the
                # operations on it get no drive time, as before the cap; _host_load)
                st["full_g"] = host[0] > self.max_util
                busy_off = st["host_busy"]
                host = self._host_load(st, st["X_open"])
                st["host_busy"] = busy_off  # (the offered sums: the next update's base)
            else:
                st["X_open"] = X_port
            st["host"] = host
        self.host_cache_follow()
        if capped or was_capped:
            st.pop("agg", None)  # solve()'s per-version sums (the served IOPS changed)
        self._capped = capped
        if scaled or getattr(self, "_scaled", False):  # every pair's IOPS changed
            idx = touched = None
            terms, where = np.vstack([st["X_open"], self._pair_f[1:len(INPUTS)]]), self._pair_i.copy()
        elif (capped or was_capped) and idx is not None and x_prev is not None and len(x_prev) == self.P:
            # served IOPS capped by a centre: the history gets the pairs whose served IOPS or
            # terms changed (a few groups' pairs as a rule, not every pair at every version)
            moved = (st["X_open"] != x_prev).nonzero()[0]
            # (a sorted merge of two short lists: np.union1d's unique and sort cost ~25 us a version)
            idx = np.array(sorted(set(idx.tolist()).union(moved.tolist())), int) if len(idx) else moved
            terms = np.vstack([st["X_open"].take(idx), self._pair_f[1:len(INPUTS)].take(idx, axis=1)])
            where = self._pair_i.take(idx, axis=1)
        elif capped or was_capped:
            idx = None
            terms, where = np.vstack([st["X_open"], self._pair_f[1:len(INPUTS)]]), self._pair_i.copy()
        self._scaled = scaled
        self._history_version = self.pair_history.add(idx, terms, where)  # (record)
        return st

    def host_cache_follow(self) -> None:
        """A controller the host put in forced flush leaves it when its host writes no longer
        outrun the destage (a new host load): its cache is taken as drained at once (as at the
        end of a migration; the drain time is not modelled)."""
        if not self.host_forced:
            return
        fill = self.host_fill
        for c in sorted(self.host_forced):
            if fill is None or fill[c] <= 1e-12:
                self.host_forced.discard(c)
                self.set_forced(c, False)
                self.cache_fill[c] = max(float(self.cache_fill[c]) - self.host_dirty[c], 0.0)
                self.host_dirty[c] = 0.0
                self._recap = True  # (the pairs on it are served as cached again: _centre_scale)
                self.version += 1

    def set_forced(self, c: int, on: bool) -> None:
        """Forced flush on controller c on or off (the flag Migration.set_forced sets too; the
        migrations on its write-cache path are placed again)."""
        if bool(self.forced[c]) is not on:
            self.forced = self.forced.copy()  # a new array: recorded steps keep theirs
            self.forced[c] = on
            ix = getattr(self, "_run_index", None)
            if ix is not None:
                self.dirty_ops.update(ix.cache_path_migs.get(c, ()))

    def host_fill_in(self) -> float:
        """Hours until the host writes fill a controller's write cache to the high watermark
        (INF: none fills)."""
        fill = self.host_fill
        if fill is None:
            return INF
        best = INF
        at = self.host_flush_at * self.write_cache_mb
        for c, f in enumerate(fill.tolist()):
            if f > 1e-12 and not self.forced[c]:
                best = min(best, max(at - float(self.cache_fill[c]), 0.0) / (f * 3600.0))
        return best

    def host_fill_advance(self, dt_h: float, t: float) -> None:
        """The host writes' share of the write cache after dt_h; at the high watermark the
        controller goes into forced flush (its writes then wait for the drives: a new host load)."""
        fill = self.host_fill
        if fill is None:
            return
        at = self.host_flush_at * self.write_cache_mb
        for c, f in enumerate(fill.tolist()):
            if f <= 1e-12 or self.forced[c]:
                continue
            self.cache_fill[c] += f * dt_h * 3600.0
            self.host_dirty[c] += f * dt_h * 3600.0
            if self.cache_fill[c] >= at - 1e-6:
                self.host_forced.add(c)
                self.set_forced(c, True)
                self._recap = True  # the controller's writes are back-end bound now (_centre_scale)
                self.version += 1
                from app.domain.formatting import format_time
                name = self.lay.ctrl_names[c]
                self.advise("warning", "host-forced-flush",
                            f"{name}: the host writes outrun what the drives can destage ({f:.1f} MB/s more); the "
                            f"write cache reaches its {self.host_flush_at * 100:g}% watermark at {format_time(t + dt_h)} "
                            "and from then on every write on this controller waits for the drives (forced flush)",
                            name, "emc 'Best practices for migrations' (forced flushes: poor response times)")

    def _centre_scale(self, st, X: np.ndarray, host: tuple) -> np.ndarray | None:
        """Open workloads against the centres' capacity (docs/model.md section 2.3): a RAID group's
        drives, a controller's cores and a back-end bus can be busy at most host.max_util of the
        time. Where the offered host load alone asks for more, the pairs through that centre are
        served at its capacity (scaled down together; a pair through several takes the smallest
        factor) and the rest is unserved demand (the Result's offered_iops beside iops, the
        host-overload advisory naming the centre). Returns the per-pair factor, None when every
        centre has room (the common case: three comparisons)."""
        U_g, _, core_u, be_g = host
        mu = self.max_util
        lim = mu * (1.0 + 1e-12)
        lay = self.lay
        over_g = bool(len(U_g)) and float(U_g.max()) > lim
        over_c = bool(len(core_u)) and float(core_u.max()) > lim * 100.0
        bus_cap = self.platform.bus_mb_s * mu
        bus_mb: Any = None
        over_b = False
        if bus_cap > 0 and len(be_g) and lay.B and float(be_g.sum()) > bus_cap * (1.0 - 1e-9):
            bus_mb = be_g @ lay.GB
            over_b = float(bus_mb.max()) > bus_cap * (1.0 + 1e-12)
        if not (over_g or over_c or over_b):
            return None
        gi, ctrl = st["gi"], st["ctrl"]
        on = X > 0
        scale = np.ones(len(X))
        sat = self.saturated
        if over_g:
            # a write-back cache with room takes the writes the drives cannot destage now: the
            # drives serve the reads (and uncached writes) first and destage with the rest of
            # their time; the excess fills the cache of the LUN's controller (host_fill, an engine
            # event at the high watermark); in forced flush the writes wait for the drives
            # (the fill is computed as if no controller were in forced flush: a controller stays in
            # it while its writes would still fill the cache, host_cache_follow)
            cached = st["wcache"] & (self.write_cache_mb < INF)
            forced_p = self.forced[ctrl]
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
            self.host_fill = np.bincount(ctrl, weights=mb, minlength=len(lay.ctrl_names))
            if forced_p.any():  # writes on a controller in forced flush wait for the drives
                w_busy, must, s_g = split(cached & ~forced_p)
            scale = np.minimum(scale, s_g[gi])
            # (each group's peak demand, an array: no Python loop over the groups per version)
            np.maximum(self.sat_g, np.where(U_g > lim, U_g, 0.0), out=self.sat_g)
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
                sat[key] = max(sat.get(key, 0.0), float(bus_mb[b] / max(self.platform.bus_mb_s, 1e-9)))
        self.unserved_mask |= np.bincount(st["pw"], weights=on & (scale < 1.0), minlength=len(self.workloads)) > 0
        return scale

    def _group_terms(self) -> set[int] | None:
        """Per-group arrays for this topology version: alive members, and the per-group factors
        of _pair_terms() (one row each, in its order; a group's column is its whole or its
        degraded one). Only the groups invalidate() named are counted again (a topology change
        without groups: all). Returns None if no group's alive count changed, else the groups
        whose factors changed."""
        lay = self.lay
        self._group_key = self.topo
        named: Any = self._topo_groups
        self._topo_groups = set()
        before = getattr(self, "_alive", None)
        whole, degraded = self._group_factors()
        if before is None or named is None:
            failed_in = self.failed & (lay.d_group >= 0)
            alive_n = np.maximum(lay.g_width - np.bincount(lay.d_group[failed_in], minlength=lay.G)[:lay.G], 1.0)
            if before is not None and np.array_equal(alive_n, before[0]):
                return None
            deg = (alive_n < lay.g_width) & lay.g_parity  # degraded parity groups
            terms = np.where(deg, degraded, whole)
            changed = (set(range(lay.G)) if before is None
                       else set(np.flatnonzero((terms != self._grp_terms).any(axis=0)).tolist()))
            self._grp_terms, self._degraded = terms, deg.tolist()
            self._grp_rows: Any = None
        else:
            # (one or two groups: Python numbers)
            counted = {}
            for g in named:  # (a group's members are its drives in lay.d_group)
                # (int(): a float minus a numpy int goes through numpy's scalar math, ~9k instructions)
                n = max(lay.g_width.item(g) - int(np.count_nonzero(self.failed[lay.g_members[g]])), 1.0)
                if n != before[0].item(g):
                    counted[g] = n
            if not counted:
                return None
            alive_n = before[0].copy()  # new arrays: solve() compares them by identity
            rows, factor_rows = self._group_rows(), self._grp_factor_rows
            changed = set()
            for g, n in counted.items():
                alive_n[g] = n
                deg = bool(n < lay.g_width.item(g) and lay.g_parity.item(g))
                if deg != self._degraded[g]:
                    self._degraded[g] = deg
                    column = factor_rows[deg][g]
                    if column != rows[g]:
                        self._grp_terms[:, g] = rows[g] = column
                        changed.add(g)
        # the drives a group's host I/O is spread over: a dedicated-parity group's data drives
        self._alive = alive_n, (np.where(lay.g_dedicated_parity, np.minimum(alive_n, lay.g_data), alive_n)
                                if self._any_dedicated_parity else alive_n)
        return changed

    def _group_factors(self) -> tuple[np.ndarray, np.ndarray]:
        """_group_terms()'s factors of every group, whole and degraded (fixed for the run; they
        read only the Layout's static group arrays and two rates, so the runs of a shared
        Layout (LayoutCache) take the first one's: lay.group_factors)."""
        if getattr(self, "_grp_factors", None) is None:
            lay = self.lay
            # a platform may override the RAID write penalty (host.write_penalty.<RAID level>)
            pen_over = tuple(sorted((raid, self.R.v(f"host.write_penalty.{raid}")) for raid in set(lay.g_raid)
                                    if self.R.has(f"host.write_penalty.{raid}")))
            key: tuple = (self.degr_seq, self.degr_fac) + ((pen_over,) if pen_over else ())
            cached = lay.group_factors.get(key)
            if cached is None:
                width = lay.g_width
                wider = 1.0 + (width - 2.0) / width
                pen = lay.g_pen
                if pen_over:
                    over = dict(pen_over)
                    pen = np.array([over.get(raid, p) for raid, p in zip(lay.g_raid, lay.g_pen.tolist())], float)
                fixed = [lay.g_seq, lay.g_rand / 1000.0, pen, width / lay.g_data, np.maximum(lay.g_data, 1.0),
                         lay.g_wpass]
                ones = np.ones(lay.G)
                factors = (
                    np.array(fixed + [ones, ones, ones]),
                    np.array(fixed + [
                        wider,  # random read multiplier
                        ones / self.degr_seq if self.degr_seq else wider,  # sequential read
                        1.0 + (self.degr_fac - 1.0) / width,  # fixed random response
                    ]))
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
            self._grp_factors, self._grp_factor_rows, self._grp_factor_ids, self._any_dedicated_parity = cached
        return self._grp_factors

    def _group_rows(self) -> list[list[float]]:
        """_group_terms()'s factors per group, as Python floats (_update_few)."""
        if self._grp_rows is None:
            self._grp_rows = self._grp_terms.T.tolist()
        return self._grp_rows

    def _pair_terms(self, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The host path of pairs idx: what each I/O costs the drives, its response-time inputs
        (the first rows: recorded.INPUTS) and its offered IOPS (before the host ports' limit).
        Returns (floats: PAIR_TERMS x n, ints: group and controller x n, bools: on and closed x n).
        Per-workload and per-group factors are gathered once (the same values per pair)."""
        lay = self.lay
        pw, pl = self.p_w[idx], self.p_l[idx]
        g = lay.l_group[pl]
        gi = np.maximum(g, 0)  # a LUN outside any group (-1) reads group 0's factors (and is off)
        ctrl = lay.l_owner[pl]
        on = lay.l_live[pl] & (g >= 0) & ~self.offline[ctrl]
        # (take: a gather of columns, a few times faster than fancy indexing [:, pw])
        f = _pair_arith(self._workload_terms().take(pw, axis=1), self._grp_terms.take(gi, axis=1),
                        lay.l_hit_scale[pl] * lay.l_rcache[pl],  # (a LUN without read cache: no hits)
                        lay.l_opt[pl] if self.frag_k is not None else None, on, self.seq64 is not None, self.frag_k)
        return np.array(f), np.array([gi, ctrl]), np.array([on, self.w_closed[pw]])

    def _update_few(self, pairs: list[int]) -> tuple[bool, set[int]]:
        """_pair_terms() of a few pairs (a failure's group, a migrated LUN), one by one on
        Python floats, stored in place: a numpy call on a handful of values costs more than the
        arithmetic. Returns (the pairs' offered IOPS, I/O size and controller are as they were,
        the groups they leave, join or stay on)."""
        lay = self.lay
        pf, pi, pb = self._pair_f, self._pair_i, self._pair_b
        # (their values, as lists; typed: the compiled engine reads and compares them unboxed)
        p_g: list[int] = self._pair_i_rows[0]
        p_ctrl: list[int] = self._pair_i_rows[1]
        p_on: list[bool] = self._pair_b_rows[0]
        p_closed: list[bool] = self._pair_b_rows[1]
        s_busy: list[float] = self._sum_rows[0]
        s_rnd: list[float] = self._sum_rows[1]
        s_be: list[float] = self._sum_rows[2]
        i_busy, i_rnd, i_be = SUM_TERMS
        wt, gt, p_w, p_l = self._workload_rows(), self._group_rows(), self._p_w_list, self._p_l_list
        # (a group's factors are its whole or degraded ones: _group_terms)
        w_ids, g_ids, memo = self._wl_ids, self._grp_factor_ids, self._arith_memo
        degraded: list[bool] = self._degraded
        l_group, l_owner, l_live, offline = lay.l_group, lay.l_owner, lay.l_live, self.offline
        seq64, frag_k = self.seq64 is not None, self.frag_k
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
                self._move_pair(k, g_old, gi)
            if gi != g_old or ctrl != ctrl_old:
                pi[:, k] = p_g[k], p_ctrl[k] = gi, ctrl
            closed: bool = self.w_closed.item(w)
            if on != p_on[k] or closed != p_closed[k]:
                pb[:, k] = p_on[k], p_closed[k] = on, closed
        return same_x, touched

    def _move_pair(self, k: int, g_old: int, g: int) -> None:
        """Pair k's LUN moved from group g_old to g (_group_pairs, in pair order)."""
        self._group_pairs[g_old].remove(k)
        bisect.insort(self._group_pairs[g], k)

    def _host_load(self, st, X, core_host: np.ndarray | None = None, groups: set[int] | None = None) -> tuple:
        """The host I/O's load of pair IOPS X (0 on pairs without an I/O path: the LUN unbound,
        its controller offline): (group utilization, random fraction of each group's host busy
        time, SP-core utilization, back-end MB/s per group). core_host: the SP-core utilization
        if it is known unchanged (the same IOPS per controller). groups: only the pairs on these
        groups changed since st["host"] (and the alive members): the other groups' sums stay,
        and an unchanged random fraction or back-end array stays the same object (loads()
        compares by identity; their pairs' terms are read from self._sum_rows, the lists of st's
        rows that _host_static keeps). Sets st["host_busy"]: each group's host busy time (read by the
        next update with groups; solve()'s closed loop sets it too, but st["host"] is None then)."""
        lay = self.lay
        if groups is not None and sum(len(self._group_pairs[g]) for g in groups) > _SCALAR_SUMS:
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
            bpi: list[float] = self._sum_rows[0]
            rnd: list[float] = self._sum_rows[1]
            bem: list[float] = self._sum_rows[2]
            new_random, new_be = {}, {}
            for g in groups:
                hb: float = 0.0
                rb: float = 0.0
                be: float = 0.0
                for k in self._group_pairs[g]:
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
            U_host_g = np.where(full, self.max_util, U_host_g)
        if core_host is None:
            host_cpu_ctrl = np.bincount(st["ctrl"], weights=X * self.cpu_us * 1e-4, minlength=len(lay.ctrl_names))
            core_host = host_cpu_ctrl[lay.core_ctrl] / lay.cores[lay.core_ctrl]
        return U_host_g, host_random_g, core_host, be_g

    def solve(self) -> None:
        """The step's host load and operation rates: its row in self.row (see loads), its
        response times in self.step_resp."""
        P = self.P
        if P and self._host_key != self.version:
            self._st = self._host_static()
            self._host_key = self.version
            if CHECKS:
                _after_call("_host_static", self, self._st)
        st: Any = self._st if P else None
        caps = self.ctrl_caps()
        if P and caps is None and not st["any_closed"]:
            self.solve_open(st)
            return
        lay = self.lay
        n_ctrl = len(lay.ctrl_names)
        closed_loop = bool(P and st["any_closed"])
        X = st["X_open"] if P else np.zeros(0)
        if closed_loop:
            X0 = self.X if len(self.X) == P else np.zeros(P)
            X = np.where(st["closed"], X0, X)
        n_pass = 40 if closed_loop else 1
        R_p = np.zeros(P)
        if not P:
            if getattr(self, "_alive_key", None) != self.topo:  # cached: loads() reuses by identity
                self._alive_n = np.maximum(lay.g_width - np.bincount(
                    lay.d_group[self.failed & (lay.d_group >= 0)], minlength=lay.G)[:lay.G], 1.0)
                self._alive_key = self.topo
            alive_n = self._alive_n
        else:
            alive_n = st["alive_n"]
        for it in range(n_pass):
            if not P:
                U_host_g, host_random_g, core_host, be_g = self.no_host
            elif closed_loop:
                U_host_g, host_random_g, core_host, be_g = self._host_load(st, X * st["on"])
            else:
                U_host_g, host_random_g, core_host, be_g = st["host"]
            self.step_core_host, self.step_be_g = core_host, be_g
            self.place(U_host_g, host_random_g)
            if CHECKS:
                _after_call("place", self, None)
            U_g, core_u = self.loads(U_host_g, core_host, be_g, alive_n)
            if not P:
                break
            core_max = np.maximum.reduceat(core_u, lay.core_off) if lay.C else np.zeros(n_ctrl)
            gi, ctrl, closed = st["gi"], st["ctrl"], st["closed"]
            own = X * st["busy_per_io"] / st["alive_g"][gi]
            u = U_g[gi]
            if closed_loop:  # arrival theorem: an I/O sees the others' load and (N-1)/N of its own
                u = u - np.where(closed, own / st["n_out"], 0.0)
            u = np.clip(u, 0.0, self.max_util)
            stretch = 1.0 / (1.0 - u)
            hit, rnd = st["hit"], st["rnd"]
            r_read = hit * self.hit_ms + (1 - hit) * (rnd * st["r_rand_fixed"] * stretch + (1 - rnd) * st["t_seq"] * stretch)
            wc = st["wcache"]
            r_write = np.where(wc, self.hit_ms, st["w_unc"] * stretch)
            if self.forced.any():  # forced flush: the preset's time, else back-end bound
                r_write = np.where(self.forced[ctrl] & wc, self.ff_ms if self.ff_ms is not None else
                                   st["w_unc"] * stretch, r_write)
            uc = np.clip(core_max[ctrl] / 100.0, 0.0, self.max_util)
            r = st["r"]
            common = self.sp_lat * uc / (1.0 - uc) + rnd * self.rand_over
            R_p = R_f = r * r_read + (1 - r) * r_write + common
            if closed_loop:
                n_raw = st["n_raw"]
                Xc = n_raw / (R_p / 1000.0)
                # asymptotic bound: the busiest drive cannot exceed max_util
                others = np.maximum(U_g[gi] - own, 0.0)
                demand = st["busy_per_io"] / st["alive_g"][gi]
                Xcap = np.maximum(self.max_util - others, 0.01) / np.maximum(demand, 1e-12)
                Xc = np.where(st["on"], np.minimum(Xc, Xcap), 0.0)
                X_prev = X
                X = np.where(closed, 0.5 * X + 0.5 * Xc if it else Xc, X)
            if closed_loop:
                X = X * self.port_scale(ctrl, X, st["kb"])
            if caps is not None:
                mb_lim, io_lim = caps
                io_c = np.bincount(ctrl, weights=X, minlength=n_ctrl)
                mb_c = np.bincount(ctrl, weights=X * st["kb"] / 1024.0, minlength=n_ctrl)
                scale = np.minimum(1.0, np.minimum(mb_lim / np.maximum(mb_c, 1e-9), io_lim / np.maximum(io_c, 1e-9)))
                X = X * scale[ctrl]
            if closed_loop:
                R_p = np.where(closed & (X > 0), st["n_raw"] / np.maximum(X, 1e-12) * 1000.0, R_p)
                # converged: the fixed point moved less than 0.05% (a warm start needs few passes)
                if it >= 2 and np.all(np.abs(X - X_prev) <= 5e-4 * np.maximum(np.abs(X), 1e-9)):
                    break
        self.X = X
        W = len(self.workloads)
        port_cap = self.platform.host_ports_per_controller * self.platform.host_port_mb_s
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
        rv = self.rv
        rv["iops"][:], rv["mb_s"][:], rv["offered_iops"][:] = iops_w, mbs_w, offered_w
        np.multiply(host_mb_c / max(port_cap, 1e-9), 100.0, out=rv["port_pct"])
        self._row_agg = None
        self.step_resp = (resp_w, rmax, lun_r, read_w, write_w)

    def solve_open(self, st: dict[str, Any]) -> None:
        """solve() for open workloads and no controller limits: the host load is fixed until
        the next invalidate(), so a step places the operations and sums the rows; response
        times are computed for all steps at once in finish()."""
        U_host_g, host_random_g, core_host, be_g = st["host"]
        self.step_core_host, self.step_be_g = core_host, be_g
        self.place(U_host_g, host_random_g)
        if CHECKS:
            _after_call("place", self, None)
        self.loads(U_host_g, core_host, be_g, st["alive_n"])
        self.X = X = st["X_open"]
        agg = st.get("agg")
        if agg is None:  # per host-load version
            W, n_ctrl = len(self.workloads), len(self.lay.ctrl_names)
            port_cap = self.platform.host_ports_per_controller * self.platform.host_port_mb_s
            pw, kb, ctrl = st["pw"], st["kb"], st["ctrl"]
            mb = X * kb / 1024.0
            iops_w = np.bincount(pw, weights=X, minlength=W)
            mbs_w = np.bincount(pw, weights=mb, minlength=W)
            host_mb_c = np.bincount(ctrl, weights=mb, minlength=n_ctrl)  # (X_open is 0 without an I/O path)
            offered_w = np.bincount(pw, weights=st["X_raw"], minlength=W)
            agg = st["agg"] = (iops_w, mbs_w, host_mb_c / max(port_cap, 1e-9) * 100.0, offered_w)
        rv = self.rv
        busy = rv["drive_group"]
        if len(busy) and float(busy.max()) > self.max_util * (1.0 + 1e-9) and self._squeeze(st, U_host_g, busy):
            self._row_agg = None  # the step's rows are its own (_squeeze)
        elif agg is not self._row_agg:
            rv["iops"][:], rv["mb_s"][:], rv["port_pct"][:], rv["offered_iops"][:] = agg
            self._row_agg = agg
        self.step_resp = None  # record() keeps this step's response-time inputs for finish()

    def _squeeze(self, st: dict[str, Any], U_host_g: np.ndarray, busy: np.ndarray) -> bool:
        """An operation that holds a share of the drive time whatever the host asks (HP High and
        Medium: rebuild.share) takes a group whose open host load fits alone past max_util: the
        host gets what the operation leaves, max_util - its share, and the rest of its load is
        unserved in this step (the pairs on the group are served at that fraction; the rows
        iops, mb_s, port_pct and offered_iops of the step are written here). The response times
        stay those of drives at max_util (a lower bound). False if no host load is squeezed."""
        mu = self.max_util
        over = np.flatnonzero((busy > mu * (1.0 + 1e-9)) & (U_host_g > 1e-12))
        if not len(over):
            return False
        s_g = np.ones(len(U_host_g))
        host_u = U_host_g[over]
        ops_u = busy[over] - host_u
        s_g[over] = np.clip((mu - ops_u) / host_u, 0.0, 1.0)
        X = st["X_open"] * s_g[st["gi"]]
        for g, h, o in zip(over.tolist(), host_u.tolist(), ops_u.tolist()):
            key = ("s", g)
            old = self.saturated.get(key)
            if old is None or h > old[0]:
                self.saturated[key] = (h, o)  # type: ignore[assignment]
        pw, kb, ctrl = st["pw"], st["kb"], st["ctrl"]
        on = st["on"] & (s_g[st["gi"]] < 1.0) & (st["X_raw"] > 0)
        self.unserved_w.update(np.unique(pw[on]).tolist())
        W, n_ctrl = len(self.workloads), len(self.lay.ctrl_names)
        port_cap = self.platform.host_ports_per_controller * self.platform.host_port_mb_s
        mb = X * kb / 1024.0
        rv = self.rv
        rv["iops"][:] = np.bincount(pw, weights=X, minlength=W)
        rv["mb_s"][:] = np.bincount(pw, weights=mb, minlength=W)
        rv["port_pct"][:] = np.bincount(ctrl, weights=mb, minlength=n_ctrl) / max(port_cap, 1e-9) * 100.0
        rv["offered_iops"][:] = np.bincount(pw, weights=st["X_raw"], minlength=W)
        return True

    def place(self, U_host_g: np.ndarray, host_random_g: np.ndarray) -> None:
        """Bring the placement (self.ctx) up to date: place again, in placement order, only the
        operations whose inputs changed since it was last placed (see Ctx), then the ones after
        them that read a resource whose additions changed. The outcome is the one-by-one
        placement of every running operation from scratch (the sums may differ in the last bits)."""
        ctx = self.ctx
        host = ctx.follow_host(U_host_g, host_random_g, self.host_occupancy(U_host_g))
        core_host = getattr(self, "step_core_host", None)
        if core_host is not None:
            host += ctx.follow_core(core_host)
        be_g = getattr(self, "step_be_g", None)
        if be_g is not None:
            host += ctx.follow_bus(be_g)
        # resources whose inputs changed for every reader: drives that failed, came back or moved
        # between groups (the group's load per alive member is in the host load), ASAP counts
        changed = ctx.follow_topology(self)
        dirty, self.dirty_ops = self.dirty_ops, set()
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
        must = dirty  # (a set of its own: self.dirty_ops is a new one)
        for key in changed:
            must.update(ctx.readers.get(key, ()))
        if not must and not host:
            return  # nothing to place (a step of one in ten): no additions changed either
        queue = [(op.pos, op) for op in must]
        for key in host:
            queue.extend([(op.pos, op) for op in ctx.readers[key]])
        _heapify(queue)
        done = set()
        while queue:
            pos, op = _heappop(queue)
            if op in done:
                continue
            done.add(op)
            if op not in must and self.still_starved(op, ctx):
                continue  # only the host load changed and it still fills the op's drives
            if op.running:
                if op.idle:
                    op.now = self.idle_now  # its clock stood still while it was idle
                ctx.pos, ctx.own = pos, {}
                self.place_op(op, ctx)
                moved = ctx.commit(op, ctx.own, ctx.footprint(op))
                # no rate and nothing due: the loop skips it (advance would add 0 MB) until placed again;
                # self.busy holds the placed ops that are not idle, so only a change moves it
                was, op.idle = op.idle, op.at_rest()
                if was is None or was != op.idle:
                    self.set_busy(op, not op.idle)
            else:  # finished: its additions go
                moved = ctx.commit(op, {}, set())
                self.set_busy(op, False)
            for key in moved:  # later ops on these resources saw other partial sums
                for o in ctx.readers.get(key, ()):
                    if o.pos > pos and o not in done:
                        must.add(o)
                        _heappush(queue, (o.pos, o))
        ctx.settle()

    def host_occupancy(self, U_host_g: np.ndarray) -> list[float]:
        """Per group: the fraction of time host I/O is at the group, min(1, L) by Little's law:
        the drive-seconds per second the host's I/O takes there (U x alive members), plus the
        I/Os a closed loop without think time keeps there (hp Tables 1-2: one outstanding I/O is
        always at the array). The share and idle_only policies throttle only this fraction of
        the time (docs/model.md 4): a trickle barely slows a rebuild (Thomasian and Menon's
        rebuild in the drives' idle periods). Kept per host-load version."""
        hit = getattr(self, "_occ_memo", None)
        if hit is not None and hit[0] is U_host_g:
            return hit[1]
        G = self.lay.G
        occ = np.zeros(G)
        if self.P:
            st = self._st
            occ = U_host_g * st["alive_n"]
            if st["any_closed"]:
                w = np.where(st["closed"] & st["on"], st["n_raw"], 0.0)
                occ = occ + np.bincount(st["gi"], weights=w, minlength=G)[:G]
        out = np.minimum(occ, 1.0).tolist()
        self._occ_memo = (U_host_g, out)
        return out

    def set_busy(self, op: Op, busy: bool) -> None:
        """Put op in self.busy or take it out: the running ops that are not idle, in start order
        (what the loop advances). Only place() changes them: an op's idle flag is set there, a
        new op and a finished one are placed."""
        ops = self.busy
        i = bisect.bisect_left(ops, op.index, key=_INDEX)
        there = i < len(ops) and ops[i] is op
        if busy and not there:
            ops.insert(i, op)
        elif there and not busy:
            del ops[i]

    @staticmethod
    def still_starved(op: Op, ctx: Ctx) -> bool:
        """op added nothing and has no rate, and every transfer is still on a drive the host
        alone fills: placing it again would give the same zeros."""
        if op.rate or op.placed:
            return False
        f = op.fixed()
        return f is not None and all(ctx.starves(p) for p in f.parts)

    def loads(self, U_host_g, core_host, be_g, alive_n) -> tuple[np.ndarray, np.ndarray]:
        """The host load plus the placement, written in place into the row's columns (self.rv):
        group_pct, drive_group, cpu_pct, bus_pct's terms, and the drive extras and layout record() keeps
        (self._drive_rec); returns (U_g, core_u) (views). New host-load arrays or a new topology
        recompute whole columns; otherwise only the entries of the resources whose totals
        changed (Ctx.stale), with the same arithmetic per element."""
        ctx, lay, rv = self.ctx, self.lay, self.rv
        T = ctx.totals
        stale, ctx.stale = ctx.stale, []
        src = self._loads_src
        new_topo = self.topo != src[2]
        new_g = U_host_g is not src[0] or alive_n is not src[1] or new_topo
        new_core, new_bus = core_host is not src[3], be_g is not src[4]
        U_g, core_u = rv["group_pct"], rv["cpu_pct"]
        if new_g or new_core or new_bus:
            self._loads_src = (U_host_g, alive_n, self.topo, core_host, be_g)
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
        # per drive (for charts): group load on alive members + per-drive extras, built for all
        # steps at once in drive_load(); the extras are copied only when they changed
        if drives or new_topo:
            extras = dict(ctx.extra) if drives or self._drive_rec is None else self._drive_rec[0]
            self._drive_rec = (extras, self.drive_snapshot())
        if new_core:
            np.minimum(np.add(core_host, T["core"], out=core_u), 100.0, out=core_u)
        elif cores:
            T_c = ctx.total_lists[RK_CORE]
            # (one tolist of the C entries per host-load version rather than an ndarray.item() per
            # read: a version is read here ~18 times; be_g below is not: G entries, ~8 reads)
            if core_host is not self._core_src:
                self._core_src, self._core_vals = core_host, core_host.tolist()
            ch = self._core_vals
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

    def place_op(self, op: Op, ctx: Ctx) -> None:
        if not op.asap_class:
            self.place_economical(op, ctx)
        elif not self.starved(op, ctx):
            self.demand(op, ctx)

    def place_economical(self, op: Op, ctx: Ctx) -> None:
        """An economical phase (asap_class 0; placed before the ASAP class). If its capped
        transfers all fit in the drive time left (after the host and the ops before it) it runs
        at its table rates: its resource use is a cached constant (Op.fixed), added without
        calling demand(). A transfer on a drive the host alone fills gets nothing (take() gives 0
        whatever the others do). Otherwise demand() runs on the same partial sums, so the outcome
        is the same."""
        f = op.fixed()
        if f is None:
            self.demand(op, ctx)
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
                    pend_c[key] = pend_c.get(key, 0.0) + v
                    if kind == RK_CORE:
                        over = ctx.core_host[key >> RK_BITS] + ctx.partial(key) + pend_c[key] > 100.0 - 1e-9
                    else:
                        over = ctx.host_bus[key >> RK_BITS] + ctx.partial(key) + pend_c[key] > ctx.bus_mb_s * (1 - 1e-9)
                    if over:
                        fits = False
            rates.append(p.rate)
        if not fits:
            self.demand(op, ctx)
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

    def starved(self, op: Op, ctx: Ctx) -> bool:
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

    def demand(self, op: Op, ctx: Ctx) -> None:
        try:
            op.demand(ctx)
        except MissingRate as exc:
            self.advise("warning", "no-rates", f"{op.event.id}: {exc}; its rate is not predicted", op.event.id)
            op.rate = 0.0
            for st_ in op.streams:
                st_.rate = 0.0

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
            self.solve()
            # idle ops (no rate, nothing due; see place) are left alone until placed again
            was_busy, busy = busy, self.busy.copy()
            self.record(t, busy, was_busy)
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
                t_fill = t + self.host_fill_in()
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
                self.host_fill_advance(dt, t)
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
        self.progress_cells()
        self.bus_columns()
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
            self._wl_arrays(wi)
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

    def add_timer(self, when: float, cb) -> None:
        self.timers.append((when, cb))

    # ------------------------------------------------------------------ recording
    def record(self, t: float, busy: list[Op], was_busy: list[Op]) -> None:
        """Keep the step's row (self.row, as solve() left it) and what changed of the operations:
        busy, the running ops not idle now; was_busy, the previous step's."""
        k = self.rec_n
        self.rec_n = k + 1
        self.rec_t.append(t)
        if k % REC_CHUNK == 0:
            self.rec_chunks.append(np.empty((REC_CHUNK, len(self.row))))
        # raw values; finish() scales whole columns (the same arithmetic per element). Operations
        # fill the write cache in place (self.cache_fill is in the row); forced and wp_pct are
        # replaced when they change (Op)
        rv = self.rv
        if self.forced is not self._rec_forced:
            rv["forced"][:] = self._rec_forced = self.forced
        if self.wp_pct is not self._rec_wp:
            rv["write_pending_pct"][:] = self._rec_wp = self.wp_pct
        self.rec_chunks[-1][k % REC_CHUNK] = self.row
        if self.step_resp is None:  # open load: the response times follow from the row
            self.rec_open.append(k)
            self.rec_open_version.append(self._history_version)
        else:
            self.rec_resp.append((k, *self.step_resp))
        self.rec_drive.append(self._drive_rec)
        # progress and rate: an idle op is not advanced and has no rate until it is placed again
        # (and then it is busy, or idle at a rate of 0), so only busy ops and those that stopped
        # since the previous step change (a new op before its first entry: 0 MB at 0 MB/s)
        # (four appends: compiled, cheaper than a tuple built for extend)
        log = self.rec_progress
        for op in busy:
            log.append(k)
            log.append(op.index)
            log.append(op.moved_mb)
            log.append(op.rate)
        for op in was_busy:
            if op.idle and op.running:
                log.append(k)
                log.append(op.index)
                log.append(op.moved_mb)
                log.append(op.rate)

    def bus_columns(self) -> None:
        """bus_pct's recorded MB/s (finish() scales them) from its terms: single buses plus each
        group's MB/s on its buses, one matrix product per chunk."""
        GB, cols = self.lay.GB, self.rec_cols
        left = self.rec_n
        for c in self.rec_chunks:
            c = c[:left]
            left -= len(c)
            np.add(c[:, cols["bus_by_bus"]], c[:, cols["bus_by_group"]] @ GB if len(GB) else 0.0,
                   out=c[:, cols["bus_pct"]])

    def progress_cells(self) -> None:
        """rec_cells, rec_moved and rec_rate as finish() reads them, from rec_progress: the
        moved MB and rate of every running op at every step, in row-major (step, op) order (a
        step's entries follow self.active, which is in op order)."""
        ops = self.ops
        n_rows, n_ops = self.rec_n, len(ops)
        if not self.rec_progress and not n_ops:
            return
        # the log as rows of (step, op index, moved MB, rate); small ints are exact as floats
        log = np.fromiter(self.rec_progress, float, len(self.rec_progress)).reshape(-1, 4)
        k, j, moved, rate = log[:, 0].astype(int), log[:, 1].astype(int), log[:, 2], log[:, 3]
        # per (step, op) the latest entry at or before the step (-1: none, the new op's zeros);
        # an op's entries all lie in its rows, so the fill never crosses from another run
        # (int32: half the memory of the (steps x ops) matrices to fill and scan)
        latest = np.full((n_rows, n_ops), -1, np.int32)
        latest[k, j] = np.arange(len(k))
        np.maximum.accumulate(latest, axis=0, out=latest)
        first = np.array([op.rec_first for op in ops], np.int32)
        end = np.array([min(op.rec_end, n_rows) for op in ops], np.int32)
        row = np.arange(n_rows, dtype=np.int32)[:, None]
        self.rec_cells = np.flatnonzero((row >= first) & (row < end))  # (flat, row-major; finish)
        # (take: cheaper than fancy indexing for a flat gather)
        src = latest.ravel().take(self.rec_cells)
        self.rec_moved = np.append(moved, 0.0).take(src)
        self.rec_rate = np.append(rate, 0.0).take(src)

    def drive_snapshot(self) -> np.ndarray:
        """The drive layout for this topology version (failures, spares and replacements change
        only with a topology invalidation): per drive the column of DriveLoad.group_rows it
        shows: its group, G outside any group, G + 1 idle (failed and not being rebuilt)."""
        if getattr(self, "_ds_key", None) != self.topo:
            G = self.lay.G
            dg = self.lay.d_group
            # each drive's group column changes only when drives move between groups (a swap, rare;
            # compared as bytes), the idle ones with every failure, rebuild and replacement
            if dg.tobytes() != getattr(self, "_ds_dg", None):
                self._ds_dg = dg.tobytes()
                self._ds_group = np.where(dg >= 0, dg, G).astype(np.int32)
            self._ds = self._ds_group.copy()
            self._ds[self.failed > self.writing] = G + 1  # (bools: failed and not writing, one call)
            self._ds_key = self.topo
        return self._ds

    def drive_load(self, group_load: list[np.ndarray]) -> DriveLoad:
        """drive_pct's compact form: the recorded group rows (group_load: in consecutive parts),
        the distinct layouts, the extras."""
        group_rows = np.zeros((sum(map(len, group_load)), self.lay.G + 2))  # two zero columns (DriveLoad)
        np.concatenate(group_load, out=group_rows[:, :self.lay.G])
        layouts: list[Any] = []
        starts: list[int] = []
        ks: list[int] = []
        ds: list[int] = []
        bs: list[float] = []
        # loads() replaces its record only when the extras or the layout change (~100 times in
        # 550 steps on the large plan): each run of steps sharing one record is expanded at once
        rec = self.rec_drive
        firsts = [k for k in range(len(rec)) if not k or rec[k] is not rec[k - 1]]
        for k0, k1 in zip(firsts, firsts[1:] + [len(rec)]):
            extras, layout = rec[k0]
            if not layouts or layout is not layouts[-1]:
                layouts.append(layout)
                starts.append(k0)
            if extras:
                n = len(extras)
                for k in range(k0, k1):
                    ks += [k] * n
                ds += list(extras) * (k1 - k0)
                bs += list(extras.values()) * (k1 - k0)
        return DriveLoad(group_rows, np.array(layouts, np.int32).reshape(len(layouts), self.lay.D),
                         np.array(starts, int), np.array(ks, int), np.array(ds, int), np.array(bs, float))

    def open_responses(self, U_g: np.ndarray, core: np.ndarray, forced: np.ndarray) -> OpenResponses | None:
        """The open-load steps' response times (computed when read), None without such steps;
        U_g, core (%), forced: the recorded rows of every step."""
        if not self.rec_open or not self.P:
            return None
        lay = self.lay
        if len(self.rec_open) < len(U_g):  # (usually every step is: no copies then)
            ks = np.array(self.rec_open, int)
            U_g, core, forced = U_g[ks], core[ks], forced[ks]
        core_max = np.maximum.reduceat(core, lay.core_off, axis=1) if lay.C else np.zeros((len(U_g), len(lay.ctrl_names)))
        terms = self.pair_history.response_terms(self.pair_wcache(), self.hit_ms, self.rand_over,
                                                 self.ff_ms, self.max_util)
        return OpenResponses(terms, np.array(self.rec_open_version, int), U_g, core_max, forced > 0.0, self.p_w,
                             self.p_l, len(self.workloads), lay.L, self.max_util, self.sp_lat)

    def finish(self, horizon: float, steps: int) -> Result:
        lay = self.lay
        n_rows = self.rec_n
        t = np.array(self.rec_t, float)
        res = Result(scenario=self.scenario.name, horizon_h=horizon, event_count=steps,
                     platform_id=self.platform.id,
                     rates_id=str(self.platform.document.get("rates", "")))
        chunks = self.rec_chunks[:-1] + [self.rec_chunks[-1][:n_rows - REC_CHUNK * (len(self.rec_chunks) - 1)]]

        # a metric's rows as a new matrix straight from the chunks (fresh memory is slow to touch:
        # no matrix of every metric first), then scaled in place (the same arithmetic per element)
        def parts(metric: str) -> list[np.ndarray]:
            return [c[:, self.rec_cols[metric]] for c in chunks]

        def recorded(metric: str) -> np.ndarray:
            return np.concatenate(parts(metric))

        group_pct, cpu_pct, bus_pct = recorded("group_pct"), recorded("cpu_pct"), recorded("bus_pct")
        open_resp = self.open_responses(group_pct, cpu_pct, recorded("forced"))
        group_pct *= 100.0
        bus_pct /= max(self.platform.bus_mb_s, 1e-9)
        bus_pct *= 100.0
        open_steps = np.array(self.rec_open, int)
        resp_steps = np.array([r[0] for r in self.rec_resp], int)

        def responses(which: int, width: int, method: str, part: str = "all") -> RecordedRows:
            values = np.array([r[which] for r in self.rec_resp], float).reshape(len(resp_steps), width)
            opened: Any = open_resp if part == "all" or open_resp is None else PartResponses(
                open_resp, self.pair_history, self.pair_wcache(), self.hit_ms, self.rand_over,
                self.ff_ms, self.max_util, part)
            return RecordedRows(n_rows, resp_steps, values, opened, open_steps, method)

        W = len(self.workloads)
        wl_ids = [w["id"] for w in self.workloads]
        iops, offered = recorded("iops"), recorded("offered_iops")
        fill = recorded("write_cache_pct")
        cache = np.minimum(fill / self.write_cache_mb * 100.0, 100.0) if self.write_cache_mb else np.zeros_like(fill)
        # (metric, unit, entities, V or, for the large blocks few callers read, a SeriesBlock.compute)
        blocks = (
            ("drive_pct", "%", lay.drive_locs, self.drive_load(parts("drive_group"))),
            ("group_pct", "%", [str(g.id) for g in lay.groups], group_pct),
            ("cpu_pct", "%", lay.core_names, cpu_pct),
            ("bus_pct", "%", [str(b) for b in range(lay.B)], bus_pct),
            ("response_ms", "ms", wl_ids, responses(1, W, "mean_by_workload")()),
            ("response_max_ms", "ms", wl_ids, responses(2, W, "max_by_workload")),
            ("response_read_ms", "ms", wl_ids, responses(4, W, "mean_by_workload", "read")),
            ("response_write_ms", "ms", wl_ids, responses(5, W, "mean_by_workload", "write")),
            ("iops", "IOPS", wl_ids, iops),
            ("offered_iops", "IOPS", wl_ids, offered),
            ("unserved_iops", "IOPS", wl_ids, np.maximum(offered - iops, 0.0)),
            ("mb_s", "MB/s", wl_ids, recorded("mb_s")),
            ("lun_response_ms", "ms", [str(l.id) for l in lay.luns], responses(3, lay.L, "mean_by_lun")),
            ("port_pct", "%", lay.ctrl_names, recorded("port_pct")),
            ("write_cache_pct", "%", lay.ctrl_names, cache),
            ("write_pending_pct", "%", lay.ctrl_names, recorded("write_pending_pct")),
        )
        for metric, unit, names, V in blocks:
            if not names:
                continue
            if callable(V):
                res.add_block(SeriesBlock(metric, unit, list(names), t, compute=V))
            else:
                res.add_block(SeriesBlock(metric, unit, list(names), t, V))
        if self.ops:
            # a finished op is at 100% from its end; a running one at its moved MB over its total
            # (Progress: the matrix is built when read)
            ops = self.ops
            ends = np.array([INF if op.end_h is None else op.end_h for op in ops])
            # the (step, op) cells where an op ran and its moved MB and rate there (progress_cells)
            cells, moved, rate = self.rec_cells, self.rec_moved, self.rec_rate
            totals = np.array([op.total_mb for op in ops], float)
            ids = [op.event.id for op in self.ops]
            # an op stopped before its work was done (its group lost its data) stays at its part
            final = (np.array([op.progress_pct() for op in ops]) if any(op.stopped for op in ops) else None)
            res.add_block(SeriesBlock("progress_pct", "%", ids, t,
                                      compute=Progress(t, ends, cells, moved, totals, final)))
            # no chart shows the rate: its matrix (zero where an op does not run) is built when read
            res.add_block(SeriesBlock("rate_mb_s", "MB/s", ids, t, compute=Cells((n_rows, len(ops)), cells, rate)))
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
        mttf_of = [t.mttf_h for t in lay.drive_types]
        known = _MTTDL_KNOWN
        if len(known) > 4096:
            known.clear()
        ix = getattr(self, "_run_index", None)  # (made by the first operation start, if any)
        lost: set[int] = ix.lost if ix is not None else set()  # a group that lost its data has no MTTDL
        for gi, g in enumerate(lay.groups):
            members = lay.g_members[gi]
            if not len(members) or gi in lost:
                continue
            mttr = self.rebuild_hours.get(g.id)
            if mttr is None:
                try:
                    mttr = idle_rebuild_hours(self, gi)
                except Exception:  # no rebuild table for this platform
                    mttr = None
            if not mttr or mttr <= 0:
                continue
            key = (g.raid, len(members), min(map(mttf_of.__getitem__, members.tolist())), mttr)
            v: Any = known.get(key, known)  # (one look-up: the key's hash includes an Enum's, a Python call)
            if v is known:
                try:
                    v = float(mttdl_hours(key[0], key[1], 1, key[2], mttr))
                except ValueError:
                    v = None
                known[key] = v
            if v is not None:
                out[g.id] = v
        return out

    def unfinished_advisories(self, horizon_h: float) -> None:
        """Say why an operation is still running when the plan ends: starved by the host load
        (no priority helps) or only slow (its progress then)."""
        from app.domain.formatting import format_time

        ctx, lay, mu = self.ctx, self.lay, self.max_util
        U = ctx.U_host_g  # (a list)
        dg = None  # each drive's group as a list (at the first starved op; numpy indexing per drive is slow)
        for op in self.ops:
            if not op.running or op.end_h is not None:
                continue
            ev = op.event
            f = op.take_parts() if op.streams else None
            if op.rate == 0.0 and f is not None and f.parts and all(ctx.starves(p) for p in f.parts):
                if dg is None:
                    dg = lay.d_group.tolist()
                full = sorted({g for p in f.parts for g in p.check_g if U[g] >= mu}
                              | {dg[d] for p in f.parts for d in p.check_d if dg[d] >= 0 and U[dg[d]] >= mu})
                groups = ", ".join(
                    f"{lay.groups[g].label} {U[g] * 100:.0f}%"
                    + (" (degraded)" if self.failed[lay.g_members[g]].any() else "") for g in full)
                self.advise("warning", "starved-by-host",
                            f"{ev.id}: does not finish within the plan: at its end the host I/O alone needs "
                            f"{groups} of the drive time, at or above the {mu * 100:g}% the model lets a drive be "
                            "busy, so the operation gets no drive time at any priority; lighten or move the host "
                            "load, or schedule it when the load is lower", ev.id)
            elif op.total_mb > 0:
                self.advise("info", "unfinished",
                            f"{ev.id}: {min(op.moved_mb / op.total_mb, 1.0) * 100:.0f}% done when the plan ends at "
                            f"{format_time(horizon_h)}", ev.id)

    def overload_advisories(self) -> None:
        """A centre (a RAID group's drives, a controller's CPU, a back-end bus) that the open host
        loads (fixed arrival rates) alone ask more of than max_util: its workloads are served at
        the centre's capacity (_centre_scale) and the rest is unserved; the response times there
        are those of a centre max_util busy, a lower bound of a queue that keeps growing (docs/model.md
        section 3). Closed loads are never named: they slow to what the centres give (saturation)."""
        lay, mu = self.lay, self.max_util
        for g in np.flatnonzero(self.sat_g > 0).tolist():
            self.saturated[("g", g)] = float(self.sat_g[g])
        self.unserved_w.update(np.flatnonzero(self.unserved_mask).tolist())
        if not self.saturated:
            return
        on_g: dict[int, set[int]] = {}
        on_c: dict[int, set[int]] = {}
        for g, c, w in zip(lay.l_group[self.p_l].tolist(), lay.l_owner[self.p_l].tolist(), self.p_w.tolist()):
            on_g.setdefault(g, set()).add(w)
            on_c.setdefault(c, set()).add(w)
        closed: list[bool] = self.w_closed.tolist()
        unserved = self.unserved_w
        cap = f"{mu * 100:g}%"

        def named(ws: set[int]) -> str:
            names = ", ".join(self.workloads[w]["id"] for w in sorted(ws) if w in unserved and not closed[w])
            return f" ({names})" if names else ""

        for (kind, i), peak in sorted(self.saturated.items()):
            if kind == "g":
                what, where = f"{lay.groups[i].label}: the host I/O alone needs {peak * 100:.0f}% of its drives' time", \
                    f"RG {lay.groups[i].id}"
                ws = on_g.get(i, set())
            elif kind == "s":
                h, o = peak  # type: ignore[misc]
                ws = on_g.get(i, set())
                self.advise("warning", "host-overload",
                            f"{lay.groups[i].label}: the host I/O needs {h * 100:.0f}% of its drives' time while an "
                            f"operation holds {o * 100:.0f}% of it (its priority's share), more than the {cap} a "
                            f"drive can be busy: the workloads on it{named(ws)} are served at "
                            f"{max(mu - o, 0.0) / h * 100:.0f}% of the load they offer meanwhile and the rest is "
                            f"unserved (offered_iops, unserved_iops); their response times are those of drives "
                            f"{cap} busy, a lower bound of a queue that keeps growing; lower the operation's "
                            "priority or the load", f"RG {lay.groups[i].id}")
                continue
            elif kind == "c":
                name = lay.ctrl_names[i]
                what, where = f"{name}: the host I/O alone needs {peak * 100:.0f}% of its CPU", name
                ws = on_c.get(i, set())
            else:
                what, where = f"bus {i}: the host transfers alone need {peak * 100:.0f}% of its bandwidth", f"bus {i}"
                ws = {w for g in np.flatnonzero(lay.GB[:, i] > 0).tolist() for w in on_g.get(g, ())}
            self.advise("warning", "host-overload",
                        f"{what} (at its peak), more than the {cap} it can be busy: it is the limiting centre, "
                        f"the workloads through it{named(ws)} are served at {mu / peak * 100:.0f}% of the "
                        "load they offer (a write-back cache takes their writes until it reaches its "
                        "watermark, then forced flush) and the rest is unserved (offered_iops, unserved_iops); their "
                        f"response times are those of a centre {cap} busy, a lower bound of a queue that keeps "
                        "growing; spread the load over more drives, controllers or buses", where)

    def final_advisories(self, res: Result) -> None:
        lay = self.lay
        self.unfinished_advisories(res.horizon_h)
        self.overload_advisories()
        envelope.advise(self, res)  # inputs outside what the documents cover
        # SATA RAID 5 (Hitachi: RAID 6 recommended for SATA; EMC: SATA rebuilds slowest)
        from app.domain.hardware import Interface
        from app.domain.raid import RaidType
        SATA = Interface.SATA
        sata = [t.interface is SATA for t in lay.drive_types]
        for gi, g in enumerate(lay.groups):
            if g.raid is RaidType.R5 and any(map(sata.__getitem__, lay.g_members[gi].tolist())):
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
            if hpt_on or hpt_event:
                links = self.platform.host_ports_per_controller * self.platform.host_port_mb_s
                need_mb = self.R.v("hpt.host_mb_s_per_controller_needed")
                if links < need_mb:
                    self.advise("warning", "hpt-host-links",
                                f"the host ports carry {links:g} MB/s per controller, less than the ~{need_mb:g} MB/s "
                                "needed to take bandwidth beyond the base limits: HPT adds IOPS at most",
                                "feature hpt", "dell 'When Should High Performance Tier be used'")
                from app.domain.hardware import Interface as _If
                ssd = sum(1 for t in lay.drive_types if t.interface is _If.SSD)
                if 0 < ssd < self.R.v("hpt.ssd_min_sequential"):
                    self.advise("info", "hpt-few-ssd",
                                f"{ssd} SSDs: HPT needs at least {self.R.v('hpt.ssd_min_sequential'):g} SSDs for "
                                f"sequential and {self.R.v('hpt.ssd_min_random'):g} for random (RAID 5) workloads",
                                "feature hpt", "dell 'Number of Disk Drives'")


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
