"""What a run records for the series results.finish() builds after the run: the host path's
response-time inputs per host-load version, the open-load response times computed from them,
and the per-drive load.

The per-pair and per-drive series (response_max_ms, lun_response_ms, drive_pct) are large
(steps x LUNs, steps x drives) and no chart reads them unless asked, so their SeriesBlocks get a
`compute` (an object of this module over compact arrays, never over the Sim) instead of a
matrix: nothing is built until a caller reads them, and a pickled Result stays small.
"""
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

# The response time of a workload-on-LUN pair (docs/model.md, host_terms._pair_terms) is linear in its
# group's stretch 1/(1-u) and its controller's SP wait:
#     R = A + B * stretch[group] + spwait[controller] + (WF if the controller is in forced flush else WH)
# TERMS are the float rows of a history entry in that form (X: the pair's IOPS); the int rows are
# (group, controller). The run records INPUTS instead (rows of host_terms._pair_terms: X_raw or X_open,
# r, hit, rnd, t_seq, r_rand_fixed), and finish() derives TERMS from them for every version at
# once (PairHistory.response_terms): the same arithmetic per element, ~13 array operations fewer
# per host-load version.
TERMS = ("X", "A", "B", "WH", "WF")
X, A, B, WH, WF = range(len(TERMS))
INPUTS = ("X", "r", "hit", "rnd", "t_seq", "RRF", "WU")
_BLOCK_CELLS = 1 << 16  # OpenResponses.mean_by_workload: unit-row entries gathered per block (512 KiB)


class PairHistory:
    """Every host-load version's response-time inputs or terms: the first version in full, then
    only the pairs each later version recomputed (the pairs an invalidation named)."""

    def __init__(self):
        self.first: tuple[np.ndarray, np.ndarray] | None = None
        self.changes: list[tuple[np.ndarray | None, np.ndarray, np.ndarray]] = []

    def __len__(self) -> int:
        return 0 if self.first is None else 1 + len(self.changes)

    def add(self, idx: np.ndarray | None, terms: np.ndarray, where: np.ndarray) -> int:
        """terms (len(INPUTS) or len(TERMS), n) and where (2, n) of pairs idx (None: all pairs).
        Returns the new version's index (len(self) - 1, without a second call)."""
        if self.first is None:
            self.first = (terms, where)
        else:
            self.changes.append((idx, terms, where))
        return len(self.changes)

    def __getstate__(self) -> dict:
        # one array per kind instead of three small ones per version: a few hundred small
        # arrays take longer to pickle than their data
        n_pairs = self.first[0].shape[1]
        idx = [np.arange(n_pairs) if i is None else i for i, _, _ in self.changes]
        return {"first": self.first, "sizes": np.array([len(i) for i in idx], int),
                "idx": np.concatenate(idx) if idx else np.zeros(0, int),
                "terms": np.concatenate([t for _, t, _ in self.changes], axis=1) if idx else None,
                "where": np.concatenate([w for _, _, w in self.changes], axis=1) if idx else None}

    def __setstate__(self, state: dict) -> None:
        self.first = state["first"]
        sizes = state["sizes"].tolist()
        if not sizes:
            self.changes = []
            return
        idx = _column_blocks(state["idx"][None], sizes)
        self.changes = list(zip([i[0] for i in idx], _column_blocks(state["terms"], sizes),
                                _column_blocks(state["where"], sizes)))

    def flat(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """Every version's entries side by side: (the pair of each, its terms, its where, the
        number of entries of each version)."""
        if getattr(self, "_flat", None) is not None:  # (response_terms' history: it had them)
            return self._flat
        n_pairs = self.first[0].shape[1]
        idx = [np.arange(n_pairs)] + [np.arange(n_pairs) if i is None else i for i, _, _ in self.changes]
        return (np.concatenate(idx), np.concatenate([self.first[0]] + [t for _, t, _ in self.changes], axis=1),
                np.concatenate([self.first[1]] + [w for _, _, w in self.changes], axis=1), [len(i) for i in idx])

    def response_terms(self, wcache: np.ndarray, hit_ms: float, rand_over: float, flush_ms: float | None,
                       max_util: float, part: str = "all") -> PairHistory:
        """This history of INPUTS in TERMS form, every version's entries in one pass; wcache:
        per pair, its LUN has a write cache; flush_ms: a write's time in forced flush (None: the
        back end's write time on drives at max_util, where forced flushes happen). The
        arithmetic is _pair_terms' before it moved here, element by element. part: "all" (the
        mix of reads and writes), "read" or "write" (that kind alone, X its IOPS)."""
        pairs, (x, r, hit, rnd, t_seq, rrf, wu), where, sizes = self.flat()
        wc = wcache[pairs]
        flush = wu / (1.0 - max_util) if flush_ms is None else flush_ms
        # reads: hits at cache speed, misses random or sequential (B: stretched by the group's
        # queue); writes: to the write cache at cache speed (forced flush: its penalty) or, without
        # it, the back end's write time (wu: the RAID level's service times, full stripes)
        if part == "all":
            omr = 1 - r
            terms = np.array([
                x,
                r * hit * hit_ms + rnd * rand_over,
                r * (1 - hit) * (rnd * rrf + (1 - rnd) * t_seq) + omr * np.where(wc, 0.0, wu),
                np.where(wc, omr * hit_ms, 0.0),
                np.where(wc, omr * flush, 0.0),
            ])
        elif part == "read":
            zero = np.zeros_like(x)
            terms = np.array([x * r, hit * hit_ms + rnd * rand_over, (1 - hit) * (rnd * rrf + (1 - rnd) * t_seq),
                              zero, zero])
        else:
            terms = np.array([x * (1 - r), rnd * rand_over, np.where(wc, 0.0, wu), np.where(wc, hit_ms, 0.0),
                              np.where(wc, flush, 0.0)])
        blocks = _column_blocks(terms, sizes)
        out = PairHistory()
        out.first = (blocks[0], self.first[1])
        out.changes = [(i, t, w) for (i, _, w), t in zip(self.changes, blocks[1:])]
        out._flat = (pairs, terms, where, sizes)  # for OpenResponses.mean_by_workload (not pickled)
        return out

    def replay(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(terms, where) of every version in order; the same two arrays, updated in place."""
        terms, where = self.first[0].copy(), self.first[1].copy()
        yield terms, where
        for idx, t, w in self.changes:
            if idx is None:
                terms[:], where[:] = t, w
            else:
                terms[:, idx] = t
                where[:, idx] = w
            yield terms, where


def queue_stretch(U: np.ndarray, U_o: np.ndarray, N: np.ndarray, r: np.ndarray | float = 1.0) -> np.ndarray:
    """An open (host) I/O's queueing stretch, residence / own service time, at a centre of
    utilization U (host and operations, capped) of which U_o is a closed class of N requests
    (operations with a queue depth), each r times the host I/O's service time; the rest open
    (docs/model.md 3.1). The open I/O waits for the open load's queue and the Q_o closed
    requests ahead of it, R = S (1 + U_h R/S) + Q_o r S, so
        stretch = (1 + r Q_o) / (1 - U_h),  U_h = U - U_o,
        Q_o = a / (1 - a (N-1)/N),  a = U_o / (1 - U_h)
    (Q_o from the closed class's own residence, s (1 + Q_o (N-1)/N) / (1 - U_h), by Little's law
    and Schweitzer's estimate of the queue an arriving closed request sees: mixed mean-value
    analysis). Where N = 0 it is the open stretch 1 / (1 - U); with r = 1 it tends to it as N
    grows (the former open treatment)."""
    # the open stretch everywhere, then the mixed one on the few entries with a closed class
    # (a steps x groups matrix has ~0.1% of them: whole-matrix temporaries were ~6 ms of page
    # faults a run); the same arithmetic per element
    out = np.subtract(1.0, U)
    np.divide(1.0, out, out=out)
    closed = np.flatnonzero(np.asarray(N > 0).ravel())
    if not len(closed):
        return out
    Uc, Nc = U.ravel().take(closed), N.ravel().take(closed)
    U_o = np.minimum(U_o.ravel().take(closed), Uc)
    rc = r.ravel().take(closed) if isinstance(r, np.ndarray) else r
    U_h = Uc - U_o
    free = 1.0 - U_h
    a = U_o / free
    Q_o = np.minimum(a / (1.0 - a * (Nc - 1.0) / Nc), Nc)
    out.ravel()[closed] = (1.0 + rc * Q_o) / free
    return out


def queue_core_pct(core: np.ndarray, queue_cu: np.ndarray, queue_cn: np.ndarray, max_util: float) -> np.ndarray:
    """Core CPU % as the SP path reads it where operations with a queue depth run on a core: the
    closed class's wait factor w = queue_stretch - 1 (r = 1: the fitted sp_latency_ms stands for
    every request's time there) as the utilization w / (1 + w) an open load would need for it,
    so the SP path stays sp_latency_ms x U / (1 - U) of the busiest core."""
    u = np.clip(core / 100.0, 0.0, max_util)
    w = queue_stretch(u, queue_cu / 100.0, queue_cn) - 1.0
    return 100.0 * w / (1.0 + w)


class OpenResponses:
    """Response times of the open-load steps (solve() leaves them to finish()): per workload
    (mean and worst LUN) and per LUN, from the pair history and each step's group and SP-core
    utilization and forced-flush state."""

    def __init__(self, history: PairHistory, versions: np.ndarray, U_g: np.ndarray, core_max: np.ndarray,
                 forced: np.ndarray, p_w: np.ndarray, p_l: np.ndarray, W: int, L: int, max_util: float,
                 sp_latency_ms: float, queue_u: np.ndarray | None = None, queue_n: np.ndarray | None = None,
                 queue_r: np.ndarray | None = None):
        """versions: the history version of each step (non-decreasing); U_g, core_max (%), forced:
        one row per step; queue_u, queue_n, queue_r (None: no operation keeps a queue): per step
        and group the busy and the I/Os per drive of the operations with a queue depth, and one
        such I/O's service time over a host I/O's."""
        self.history = history
        self.versions = versions
        # in place: one new matrix, not one per operation (the same arithmetic per element)
        self.stretch = np.clip(U_g, 0.0, max_util)
        if queue_n is not None and queue_u is not None and bool((queue_n > 0).any()):
            self.stretch = queue_stretch(self.stretch, queue_u, queue_n, 1.0 if queue_r is None else queue_r)
        else:
            np.subtract(1.0, self.stretch, out=self.stretch)
            np.divide(1.0, self.stretch, out=self.stretch)
        uc = np.clip(core_max / 100.0, 0.0, max_util)
        self.spwait = sp_latency_ms * uc / (1.0 - uc)
        self.forced = forced
        self.p_w, self.p_l, self.W, self.L = p_w, p_l, W, L

    def with_history(self, history: PairHistory) -> OpenResponses:
        """The same steps with other pair terms (the read or write part of the response)."""
        out = object.__new__(OpenResponses)
        out.__dict__.update(self.__dict__)
        out.history = history
        return out

    def spans(self) -> tuple[list[int], list[int]]:
        """Per history version: its first step and end step (equal if it has none)."""
        versions = np.arange(len(self.history))
        return (np.searchsorted(self.versions, versions, side="left").tolist(),
                np.searchsorted(self.versions, versions, side="right").tolist())

    def runs(self) -> Iterator[tuple[int, np.ndarray, np.ndarray, int, int]]:
        """(version, terms, where, first step, end step) per history version that has steps."""
        starts, ends = self.spans()
        for v, (terms, where) in enumerate(self.history.replay()):
            if ends[v] > starts[v]:
                yield v, terms, where, starts[v], ends[v]

    def mean_by_workload(self) -> np.ndarray:
        """(steps x W): the IOPS-weighted mean over each workload's pairs. A sum of per-pair
        responses is linear in the per-group and per-controller terms, so a step's row is a
        small matrix product: Z (its J = G + 3 controllers + 1 factors) by M (W x J). A row of M
        (with the workload's IOPS in an extra column) changes only at the versions that changed
        that workload's pairs, so every such row ("unit": a workload at a version) is counted
        in one bincount of all units at once, each a bincount of the workload's pairs in pair
        order as a whole-matrix count adds them; then each step's row of Z times the rows of
        its workloads' units (gathered per block of steps)."""
        G, n_ctrl = self.stretch.shape[1], self.spwait.shape[1]
        J = G + 3 * n_ctrl + 1
        W, J1 = self.W, J + 1  # a unit's row: its J matrix entries, then its IOPS
        fo = self.forced.astype(float)
        Z = np.concatenate([self.stretch, self.spwait, fo, 1.0 - fo, np.ones((len(fo), 1))], axis=1)
        pairs, terms, (g, c), sizes = self.history.flat()
        V = len(sizes)
        ver = np.repeat(np.arange(V), sizes)  # each entry's version
        # each entry's column of each weighted term in TERMS order (X -> SP wait, A -> 1, B ->
        # stretch, WH -> not forced, WF -> forced, then X itself -> IOPS) and its weight; a column
        # gets one kind of term only, so a bincount of these term by term adds each column's
        # terms in the order of the entries given, as one of whole lines would
        cols = np.array([G + c, np.full_like(c, G + 3 * n_ctrl), g, G + 2 * n_ctrl + c, G + n_ctrl + c,
                         np.full_like(c, J)]).T.copy()
        weights = np.concatenate([terms * terms[X], terms[X:X + 1]])
        weights[X] = terms[X]
        weights = weights.T.copy()
        # the units (sorted by version, then workload) and their lines: the workload's pairs in
        # pair order, each with the pair's latest entry at or before the unit's version
        # (version 0 has every pair)
        units = np.zeros(V * W, bool)
        units[ver * W + self.p_w[pairs]] = True
        units = np.flatnonzero(units)
        u_ver, u_w = units // W, units % W
        order = np.argsort(self.p_w, kind="stable")
        first_line = np.searchsorted(self.p_w[order], np.arange(W + 1))  # of each workload in order
        n_lines = np.diff(first_line)[u_w]
        line_unit = np.repeat(np.arange(len(units)), n_lines)
        skip = np.repeat(first_line[u_w] - (np.cumsum(n_lines) - n_lines), n_lines)
        line_pair = order[np.arange(len(line_unit)) + skip]
        # each pair's latest entry at or before each version: entries are numbered in version
        # order, so a running maximum down the versions (version 0 has every pair; no larger than
        # the lines' own arrays: lines <= V x pairs; a table lookup, not a search per line)
        n_pairs = self.history.first[0].shape[1]
        latest = np.zeros((V, n_pairs), np.int32)
        latest[ver, pairs] = np.arange(len(pairs), dtype=np.int32)
        np.maximum.accumulate(latest, axis=0, out=latest)
        entry = latest.ravel().take(u_ver[line_unit] * n_pairs + line_pair)
        # one more, zero row: the unit of a workload without pairs (index -1 below)
        bins = cols.take(entry, axis=0).ravel()
        bins += np.repeat(line_unit * J1, cols.shape[1])
        U = np.bincount(bins, weights.take(entry, axis=0).ravel(),
                        minlength=(len(units) + 1) * J1).reshape(-1, J1)
        # per step, each workload's unit: the latest at or before the step's version
        at = np.full((V, W), -1)
        at[u_ver, u_w] = np.arange(len(units))
        np.maximum.accumulate(at, axis=0, out=at)
        at = at[self.versions]
        # each step's row times the rows of its workloads' units, in blocks of steps: a gather of
        # W unit rows per step and one product, S x W x J multiply-adds. (A matrix product of a
        # block by every unit used in it did 3-5x those: a step needs only its own workloads'
        # units, and on the 10x host-scaling plan a block of 32 steps used ~100 units for 20
        # workloads. einsum, not a BLAS product: past ~260k multiply-adds OpenBLAS wakes its
        # threads, which then spin for milliseconds after the call; its dot products add in the
        # same order as before, the same bits.)
        S = len(Z)
        out = np.empty((S, W))
        rows_of = np.ascontiguousarray(U[:, :J])
        per_block = max(1, _BLOCK_CELLS // max(W * J, 1))
        for a in range(0, S, per_block):
            b = min(a + per_block, S)
            rows = rows_of.take(at[a:b].ravel(), axis=0).reshape(b - a, W, J)
            out[a:b] = np.einsum("swj,sj->sw", rows, Z[a:b])
        xw = U[at, J]
        # no I/O completed (no IOPS on any of its pairs): no response time (NaN), not 0 ms
        return np.where(xw > 0, out / np.maximum(xw, 1e-12), np.nan)

    def _pair_responses(self) -> Iterator[tuple[np.ndarray, np.ndarray, int, int]]:
        """(R: steps x pairs response times, X of the pairs, first step, end step) per version."""
        for _, terms, where, a, b in self.runs():
            g, c = where
            R = np.take(self.stretch[a:b], g, axis=1)
            R *= terms[B]
            R += terms[A]
            R += np.take(self.spwait[a:b], c, axis=1)
            R += np.where(np.take(self.forced[a:b], c, axis=1), terms[WF], terms[WH])
            yield R, terms[X], a, b

    def max_by_workload(self) -> np.ndarray:
        """(steps x W): the worst pair (with I/O) of each workload; NaN where none has I/O."""
        order, starts, ids = _segments(self.p_w)
        out = np.full((len(self.versions), self.W), np.nan)
        for R, x, a, b in self._pair_responses():
            R[:, x <= 0] = np.nan
            # fmax skips NaN (pairs without I/O); all NaN stays NaN
            out[a:b, ids] = np.fmax.reduceat(R if order is None else R[:, order], starts, axis=1)
        return out

    def mean_by_lun(self) -> np.ndarray:
        """(steps x L): the IOPS-weighted mean over each LUN's pairs; NaN where they have no I/O."""
        order, starts, ids = _segments(self.p_l)
        out = np.full((len(self.versions), self.L), np.nan)
        for R, x, a, b in self._pair_responses():
            R *= x
            if order is not None:
                R, x = R[:, order], x[order]
            xs = np.add.reduceat(x, starts)
            out[a:b, ids] = np.where(xs > 0, np.add.reduceat(R, starts, axis=1) / np.maximum(xs, 1e-12), np.nan)
        return out


def _column_blocks(a: np.ndarray, sizes: list[int]) -> list[np.ndarray]:
    """a's columns in consecutive blocks of the given sizes (views; np.split is slower)."""
    ends = np.cumsum(sizes).tolist()
    return [a[:, e - n:e] for n, e in zip(sizes, ends)]


def _segments(keys: np.ndarray) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """(order that sorts keys, None if they are sorted; start of each key's run in that order;
    the keys)."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    starts = np.r_[0, np.nonzero(np.diff(ordered))[0] + 1]
    return (None if (order == np.arange(len(order))).all() else order), starts, ordered[starts]


class PartResponses:
    """OpenResponses for the reads or the writes alone (response_read_ms, response_write_ms),
    derived when first read: the same steps, the pair terms of that part (response_terms)."""

    def __init__(self, responses: OpenResponses, inputs: PairHistory, wcache: np.ndarray, hit_ms: float,
                 rand_over: float, flush_ms: float | None, max_util: float, part: str):
        self.responses, self.inputs = responses, inputs
        self.args = (wcache, hit_ms, rand_over, flush_ms, max_util, part)

    def mean_by_workload(self) -> np.ndarray:
        wcache, hit_ms, rand_over, flush_ms, max_util, part = self.args
        terms = self.inputs.response_terms(wcache, hit_ms, rand_over, flush_ms, max_util, part)
        return self.responses.with_history(terms).mean_by_workload()


class RecordedRows:
    """SeriesBlock.compute of a response series: the rows solve() recorded (closed loop, controller
    limits) and the open-load rows, computed by OpenResponses when first read."""

    def __init__(self, n_rows: int, recorded: np.ndarray, values: np.ndarray,
                 responses: OpenResponses | PartResponses | None, steps: np.ndarray, method: str):
        self.shape = (n_rows, values.shape[1])
        self.recorded, self.values = recorded, values  # row indices and their rows
        self.responses, self.steps, self.method = responses, steps, method

    def __call__(self) -> np.ndarray:
        V = np.zeros(self.shape)
        V[self.recorded] = self.values
        if self.responses is not None:
            V[self.steps] = getattr(self.responses, self.method)()
        return V


class DriveLoad:
    """SeriesBlock.compute of drive_pct: per step the load of each RAID group's alive members,
    the per-drive extras (spares, replacements, mirror partners) and which group each drive
    belongs to at that step (one layout per topology version, placement.drive_snapshot)."""

    def __init__(self, group_rows: np.ndarray, layouts: np.ndarray, starts: np.ndarray,
                 extra_steps: np.ndarray, extra_drives: np.ndarray, extra_busy: np.ndarray):
        """group_rows (steps x G + 2): the groups' load, then two zero columns; layouts (n x D):
        the column each drive shows: its group's, G outside any group, G + 1 idle (failed and
        not being rebuilt: 0 whatever its extras); starts: the first step of each layout."""
        self.group_rows, self.layouts, self.starts = group_rows, layouts, starts
        idle = group_rows.shape[1] - 1
        layout_of_step = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(group_rows)]))
        shown = layouts[layout_of_step[extra_steps], extra_drives] != idle
        self.extra_steps, self.extra_drives, self.extra_busy = extra_steps[shown], extra_drives[shown], extra_busy[shown]

    def __call__(self) -> np.ndarray:
        n = len(self.group_rows)
        U = np.empty((n, self.layouts.shape[1]))
        ends = np.r_[self.starts[1:], n].tolist()
        for layout, a, b in zip(self.layouts, self.starts.tolist(), ends):
            np.take(self.group_rows[a:b], layout, axis=1, out=U[a:b])
        U[self.extra_steps, self.extra_drives] += self.extra_busy
        np.minimum(U, 1.0, out=U)
        U *= 100.0
        return U


class Cells:
    """SeriesBlock.compute of a sparse block (rate_mb_s): zero but in the given cells. Stored
    per column (operation): the rows of its cells and their values, column after column, so
    that a column, a row or the peaks are read without the (steps x columns) matrix, which for
    10^5 operations would not fit in memory (docs/result-format.md, "Many operations")."""

    def __init__(self, shape: tuple[int, int], cells: np.ndarray, values: np.ndarray):
        """cells: flat indices (row-major) of the non-zero cells, in any order."""
        self.shape = shape
        n_rows, n = shape
        cells = np.asarray(cells, np.int64)
        col = cells % n if n else cells
        order = np.argsort(col, kind="stable")  # (already column-major from the engine: cheap)
        self.rows = (cells // max(n, 1))[order].astype(np.int32)
        self.values = np.asarray(values, float)[order]
        self.offsets = np.searchsorted(col[order], np.arange(n + 1))  # column j: offsets[j]:offsets[j + 1]
        self._row_order: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # (row(): built on first use)

    @classmethod
    def by_column(cls, shape: tuple[int, int], rows: np.ndarray, offsets: np.ndarray, values: np.ndarray):
        """From the column-major form itself: column j's cells are rows[offsets[j]:offsets[j + 1]]."""
        out = object.__new__(cls)
        out.shape, out.rows, out.offsets, out.values = shape, rows.astype(np.int32), offsets, values
        out._row_order = None
        return out

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_row_order"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        if "cells" in state:  # pickled before the column-major form
            state = Cells(state["shape"], state["cells"], state["values"]).__dict__
        self.__dict__.update(state)

    def _cols(self) -> np.ndarray:
        """The column of every stored cell."""
        return np.repeat(np.arange(self.shape[1]), np.diff(self.offsets))

    def _background(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The value outside the stored cells at (rows, cols), broadcast (here 0); non-decreasing
        down a column (peaks)."""
        return np.zeros(np.broadcast(rows, cols).shape)

    def _stored(self, values: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The series' value in stored cells (here the stored value itself)."""
        return values

    def __call__(self) -> np.ndarray:
        V = self._background(np.arange(self.shape[0])[:, None], np.arange(self.shape[1])[None, :])
        V[self.rows, self._cols()] = self._stored(self.values, self._cols())
        return V

    def column(self, j: int) -> np.ndarray:
        """Column j of the matrix __call__ builds, without building it (a report charting the 8
        longest of 10^6 operations reads 8 columns, not a steps x 10^6 matrix)."""
        p = self._background(np.arange(self.shape[0]), np.full(self.shape[0], j))
        a, b = int(self.offsets[j]), int(self.offsets[j + 1])
        p[self.rows[a:b]] = self._stored(self.values[a:b], np.full(b - a, j))
        return p

    def row(self, i: int) -> np.ndarray:
        """Row i of the matrix (every column at one step), without building it."""
        if self._row_order is None:  # (kept: the charts read a row per hover)
            order = np.argsort(self.rows, kind="stable")
            self._row_order = (order, self.rows[order], self._cols()[order])
        order, rows, cols = self._row_order
        lo, hi = np.searchsorted(rows, [i, i + 1]).tolist()
        p = self._background(np.full(self.shape[1], i), np.arange(self.shape[1]))
        p[cols[lo:hi]] = self._stored(self.values[order[lo:hi]], cols[lo:hi])
        return p

    def peaks(self) -> np.ndarray:
        """Each column's largest value (np.fmax.reduce of the matrix, column by column)."""
        T, n = self.shape
        cols = self._cols()
        counts = np.diff(self.offsets)
        # the background's largest value is at a column's last row outside its cells: before
        # the run of stored rows that ends the column (a column's rows are sorted and distinct,
        # so its cell i is in that run if its row is T - count + i)
        at = np.arange(len(cols)) - np.repeat(self.offsets[:-1], counts)
        in_tail = np.bincount(cols[self.rows == T - counts[cols] + at], minlength=n)
        last_free = T - 1 - in_tail
        free = last_free >= 0
        out = np.full(n, np.nan)
        out[free] = self._background(last_free[free], np.flatnonzero(free))
        if len(cols):
            np.fmax.at(out, cols, self._stored(self.values, cols))
        return out


class Progress(Cells):
    """SeriesBlock.compute of progress_pct: each operation (column) at 100% from its end and, in
    the cells where it ran, at its moved MB over its total (at most 100%; 0% without a total).
    Stored sparsely (Cells): only the rows an operation ran in; before them it is at 0%, after
    them at its final value (a step function of t)."""

    def __init__(self, t: np.ndarray, ends: np.ndarray, cells: np.ndarray, moved: np.ndarray, totals: np.ndarray,
                 final: np.ndarray | None = None):
        """cells: flat indices (row-major) of the cells where an op ran, moved: its MB there."""
        super().__init__((len(t), len(ends)), cells, moved)
        self._set(t, ends, totals, final)

    @classmethod
    def by_column(cls, t: np.ndarray, ends: np.ndarray, rows: np.ndarray, offsets: np.ndarray, moved: np.ndarray,
                  totals: np.ndarray, final: np.ndarray | None = None) -> Progress:  # type: ignore[override]
        out = Cells.by_column.__func__(cls, (len(t), len(ends)), rows, offsets, moved)  # type: ignore[attr-defined]
        out._set(t, ends, totals, final)
        return out

    def _set(self, t: np.ndarray, ends: np.ndarray, totals: np.ndarray, final: np.ndarray | None) -> None:
        self.t, self.ends, self.totals = t, ends, totals
        self.final = final  # % from its end (None: 100 for all; an op stopped early keeps its part)

    def __setstate__(self, state: dict) -> None:
        if "cells" in state:  # pickled before the column-major form: convert
            fresh = Progress(state["t"], state["ends"], state["cells"], state["moved"], state["totals"],
                             state.get("final"))
            self.__dict__.update(fresh.__dict__)
        else:
            self.__dict__.update(state)

    def _background(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        # non-decreasing down a column: t is, and final >= 0
        final = 100.0 if getattr(self, "final", None) is None else self.final[cols]
        return (self.t[rows] >= self.ends[cols] - 1e-12) * final

    def _stored(self, values: np.ndarray, cols: np.ndarray) -> np.ndarray:
        tot = self.totals[cols]
        ok = tot > 0
        return np.where(ok, np.minimum(values / np.where(ok, tot, 1.0) * 100.0, 100.0), 0.0)
