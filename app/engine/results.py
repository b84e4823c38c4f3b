"""Recording a run and building its Result: one row per step (record), the series computed at the
end (bus_columns, progress_cells, drive_load, open_responses, finish), MTTDL and the advisories
at the end of a run (unfinished, overload). Functions of the run's state (SimState, sim_state.py).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from app.domain.project import FeatureEnable
from app.domain.raid import mttdl_hours

from . import envelope
from .host_terms import pair_wcache
from .op_streams import INF
from .ops import Op
from .recorded import Cells, DriveLoad, OpenResponses, PartResponses, Progress, RecordedRows, queue_core_pct
from .result import Advisory, Assumption, Result, SeriesBlock
from .sim_state import SimState



REC_CHUNK = 256  # recorded steps per matrix (results.record)

# mttdl_hours per (RAID type (its id), width, MTTF, MTTR, span width), None where it raises: a
# pure function whose arguments recur in every run of the same hardware (each group's idle MTTR
# differs, so a per-run cache would miss); results.mttdl clears it past a few thousand entries
_MTTDL_KNOWN: dict[tuple, float | None] = {}


def record(sim: SimState, t: float, busy: list[Op], was_busy: list[Op]) -> None:
    """Keep the step's row (sim.row, as solve() left it) and what changed of the operations:
    busy, the running ops not idle now; was_busy, the previous step's."""
    k = sim.rec_n
    sim.rec_n = k + 1
    sim.rec_t.append(t)
    if k % REC_CHUNK == 0:
        sim.rec_chunks.append(np.empty((REC_CHUNK, len(sim.row))))
    # raw values; finish() scales whole columns (the same arithmetic per element). Operations
    # fill the write cache in place (sim.cache_fill is in the row); forced and wp_pct are
    # replaced when they change (Op)
    rv = sim.rv
    if sim.forced is not sim._rec_forced:
        rv["forced"][:] = sim._rec_forced = sim.forced
    if sim.wp_pct is not sim._rec_wp:
        rv["write_pending_pct"][:] = sim._rec_wp = sim.wp_pct
    sim.rec_chunks[-1][k % REC_CHUNK] = sim.row
    if sim.step_resp is None:  # open load: the response times follow from the row
        sim.rec_open.append(k)
        sim.rec_open_version.append(sim._history_version)
    else:
        sim.rec_resp.append((k, *sim.step_resp))
    sim.rec_drive.append(sim._drive_rec)
    # progress and rate: an idle op is not advanced and has no rate until it is placed again
    # (and then it is busy, or idle at a rate of 0), so only busy ops and those that stopped
    # since the previous step change (a new op before its first entry: 0 MB at 0 MB/s)
    # (four appends: compiled, cheaper than a tuple built for extend)
    log = sim.rec_progress
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


def bus_columns(sim: SimState) -> None:
    """bus_pct's recorded MB/s (finish() scales them) from its terms: single buses plus each
    group's MB/s on its buses, one matrix product per chunk."""
    GB, cols = sim.lay.GB, sim.rec_cols
    left = sim.rec_n
    for c in sim.rec_chunks:
        c = c[:left]
        left -= len(c)
        np.add(c[:, cols["bus_by_bus"]], c[:, cols["bus_by_group"]] @ GB if len(GB) else 0.0,
               out=c[:, cols["bus_pct"]])


def progress_cells(sim: SimState) -> None:
    """rec_rows, rec_offsets, rec_moved and rec_rate as finish() reads them, from rec_progress:
    the moved MB and rate of every running op at every step it ran in, op after op (op j's
    cells: rows rec_rows[rec_offsets[j]:rec_offsets[j + 1]]). Sparse: an op's cells are its own
    rows only, never a (steps x ops) matrix (10^5 binds would need ~50 GiB)."""
    ops = sim.ops
    n_rows, n_ops = sim.rec_n, len(ops)
    if not sim.rec_progress and not n_ops:
        return
    # the log as rows of (step, op index, moved MB, rate); small ints are exact as floats
    log = np.fromiter(sim.rec_progress, float, len(sim.rec_progress)).reshape(-1, 4)
    k, j, moved, rate = log[:, 0].astype(np.int64), log[:, 1].astype(np.int64), log[:, 2], log[:, 3]
    first = np.array([op.rec_first for op in ops], np.int64)
    end = np.maximum(np.array([min(op.rec_end, n_rows) for op in ops], np.int64), first)
    lengths = end - first
    offsets = np.zeros(n_ops + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    cell_op = np.repeat(np.arange(n_ops, dtype=np.int64), lengths)
    rows = np.arange(len(cell_op), dtype=np.int64) - np.repeat(offsets[:-1] - first, lengths)
    # per cell the op's latest entry at or before its row (-1: none, the new op's zeros): the
    # entries ordered by (op, step), a search of each cell's (op, row) key among theirs; an
    # op's entries all lie in its rows, so a found entry of another op means none
    stride = n_rows + 1
    order = np.argsort(j, kind="stable")  # (the log is in step order: each op's entries stay so)
    keys = (j * stride + k)[order]
    src = np.searchsorted(keys, cell_op * stride + rows, side="right") - 1
    mine = src >= 0
    mine[mine] = j[order[src[mine]]] == cell_op[mine]
    # (index len(k): the zeros appended below; an op may have rows and no entry yet)
    src = np.append(order, len(k)).take(np.where(mine, src, len(k)))
    sim.rec_rows, sim.rec_offsets = rows, offsets
    # (take: cheaper than fancy indexing for a flat gather)
    sim.rec_moved = np.append(moved, 0.0).take(src)
    sim.rec_rate = np.append(rate, 0.0).take(src)


def drive_load(sim: SimState, group_load: list[np.ndarray]) -> DriveLoad:
    """drive_pct's compact form: the recorded group rows (group_load: in consecutive parts),
    the distinct layouts, the extras."""
    group_rows = np.zeros((sum(map(len, group_load)), sim.lay.G + 2))  # two zero columns (DriveLoad)
    np.concatenate(group_load, out=group_rows[:, :sim.lay.G])
    layouts: list[Any] = []
    starts: list[int] = []
    ks: list[int] = []
    ds: list[int] = []
    bs: list[float] = []
    # loads() replaces its record only when the extras or the layout change (~100 times in
    # 550 steps on the large plan): each run of steps sharing one record is expanded at once
    rec = sim.rec_drive
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
    return DriveLoad(group_rows, np.array(layouts, np.int32).reshape(len(layouts), sim.lay.D),
                     np.array(starts, int), np.array(ks, int), np.array(ds, int), np.array(bs, float))


def open_responses(sim: SimState, U_g: np.ndarray, core: np.ndarray, forced: np.ndarray,
                   queue_u: np.ndarray | None = None, queue_n: np.ndarray | None = None,
                   queue_cu: np.ndarray | None = None, queue_cn: np.ndarray | None = None,
                   queue_s: np.ndarray | None = None) -> OpenResponses | None:
    """The open-load steps' response times (computed when read), None without such steps;
    U_g, core (%), forced, queue_u, queue_n (None: no operation kept a queue): the recorded
    rows of every step."""
    if not sim.rec_open or not sim.P:
        return None
    lay = sim.lay
    if len(sim.rec_open) < len(U_g):  # (usually every step is: no copies then)
        ks = np.array(sim.rec_open, int)
        U_g, core, forced = U_g[ks], core[ks], forced[ks]
        if queue_u is not None and queue_n is not None and queue_cu is not None and queue_cn is not None:
            queue_u, queue_n, queue_cu, queue_cn = queue_u[ks], queue_n[ks], queue_cu[ks], queue_cn[ks]
            queue_s = None if queue_s is None else queue_s[ks]
    queue_r = None
    if queue_s is not None:
        # a queued I/O's drive time over the host's random I/O (the group's positioning time)
        queue_r = queue_s / np.maximum(lay.g_rand / 1000.0, 1e-6)
    if queue_cu is not None and queue_cn is not None and lay.C and bool((queue_cn > 0).any()):
        core = queue_core_pct(core, queue_cu, queue_cn, sim.max_util)  # (operations with a queue there)
    core_max = np.maximum.reduceat(core, lay.core_off, axis=1) if lay.C else np.zeros((len(U_g), len(lay.ctrl_names)))
    terms = sim.pair_history.response_terms(pair_wcache(sim), sim.hit_ms, sim.rand_over,
                                             sim.ff_ms, sim.max_util)
    return OpenResponses(terms, np.array(sim.rec_open_version, int), U_g, core_max, forced > 0.0, sim.p_w,
                         sim.p_l, len(sim.workloads), lay.L, sim.max_util, sim.sp_lat, queue_u, queue_n, queue_r)


def finish(sim: SimState, horizon: float, steps: int) -> Result:
    lay = sim.lay
    n_rows = sim.rec_n
    t = np.array(sim.rec_t, float)
    res = Result(scenario=sim.scenario.name, horizon_h=horizon, event_count=steps,
                 platform_id=sim.platform.id,
                 rates_id=str(sim.platform.document.get("rates", "")))
    chunks = sim.rec_chunks[:-1] + [sim.rec_chunks[-1][:n_rows - REC_CHUNK * (len(sim.rec_chunks) - 1)]]

    # a metric's rows as a new matrix straight from the chunks (fresh memory is slow to touch:
    # no matrix of every metric first), then scaled in place (the same arithmetic per element)
    def parts(metric: str) -> list[np.ndarray]:
        return [c[:, sim.rec_cols[metric]] for c in chunks]

    def recorded(metric: str) -> np.ndarray:
        return np.concatenate(parts(metric))

    group_pct, cpu_pct, bus_pct = recorded("group_pct"), recorded("cpu_pct"), recorded("bus_pct")
    queues = (tuple(recorded(m) for m in ("queue_u", "queue_n", "queue_cu", "queue_cn", "queue_s"))
              if sim.any_queue else (None,) * 5)
    open_resp = open_responses(sim, group_pct, cpu_pct, recorded("forced"), *queues)
    group_pct *= 100.0
    bus_pct /= max(sim.platform.bus_mb_s, 1e-9)
    bus_pct *= 100.0
    open_steps = np.array(sim.rec_open, int)
    resp_steps = np.array([r[0] for r in sim.rec_resp], int)

    def responses(which: int, width: int, method: str, part: str = "all") -> RecordedRows:
        values = np.array([r[which] for r in sim.rec_resp], float).reshape(len(resp_steps), width)
        opened: Any = open_resp if part == "all" or open_resp is None else PartResponses(
            open_resp, sim.pair_history, pair_wcache(sim), sim.hit_ms, sim.rand_over,
            sim.ff_ms, sim.max_util, part)
        return RecordedRows(n_rows, resp_steps, values, opened, open_steps, method)

    W = len(sim.workloads)
    wl_ids = [w["id"] for w in sim.workloads]
    iops, offered = recorded("iops"), recorded("offered_iops")
    fill = recorded("write_cache_pct")
    cache = np.minimum(fill / sim.write_cache_mb * 100.0, 100.0) if sim.write_cache_mb else np.zeros_like(fill)
    # (metric, unit, entities, V or, for the large blocks few callers read, a SeriesBlock.compute)
    blocks = (
        ("drive_pct", "%", lay.drive_locs, drive_load(sim, parts("drive_group"))),
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
        ("ctrl_limit_pct", "%", lay.ctrl_names if sim.limits is not None else [], recorded("ctrl_limit_pct")),
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
    if sim.ops:
        # a finished op is at 100% from its end; a running one at its moved MB over its total
        # (Progress: the matrix is built when read)
        ops = sim.ops
        ends = np.array([INF if op.end_h is None else op.end_h for op in ops])
        # the rows where each op ran and its moved MB and rate there (progress_cells)
        rows, offsets, moved, rate = sim.rec_rows, sim.rec_offsets, sim.rec_moved, sim.rec_rate
        totals = np.array([op.total_mb for op in ops], float)
        ids = [op.event.id for op in sim.ops]
        # an op stopped before its work was done (its group lost its data) stays at its part
        final = (np.array([op.progress_pct() for op in ops]) if any(op.stopped for op in ops) else None)
        res.add_block(SeriesBlock("progress_pct", "%", ids, t,
                                  compute=Progress.by_column(t, ends, rows, offsets, moved, totals, final)))
        # no chart shows the rate: its matrix (zero where an op does not run) is built when read
        res.add_block(SeriesBlock("rate_mb_s", "MB/s", ids, t, compute=Cells.by_column((n_rows, len(ops)), rows, offsets, rate)))
    for op in sim.ops:
        res.operations.append(op.result())
    final_advisories(sim, res)
    res.advisories = named_advisories(sim)
    res.mttdl_h = mttdl(sim)
    res.assumptions = [Assumption(p.path, float(p.value), p.unit, p.source)
                       for p in sorted(sim.R.used.values(), key=lambda p: p.path)]
    # after the assumptions: they list what the plan's predictions read; the reliability
    # estimate's reads of the default level's policy would make a case's scan (plumbing /
    # calibration, app/cli/calibration.py) see values its figure never depended on
    from .reliability import group_reliability  # (end of run only: not a hot module)
    res.reliability = group_reliability(sim, res)
    return res


def mttdl(sim: SimState) -> dict[int, float]:
    out: dict[int, float] = {}
    lay = sim.lay
    from .ops import RunIndex
    mttf_of = [t.mttf_h for t in lay.drive_types]
    known = _MTTDL_KNOWN
    if len(known) > 4096:
        known.clear()
    ix = getattr(sim, "_run_index", None)  # (made by the first operation start, if any)
    lost: set[int] = ix.lost if ix is not None else set()  # a group that lost its data has no MTTDL
    for gi, g in enumerate(lay.groups):
        members = lay.g_members[gi]
        if not len(members) or gi in lost:
            continue
        mttr = sim.rebuild_hours.get(g.id)
        if mttr is None:
            try:
                # op_rebuild.idle_rebuild_hours, its MB kept for the reliability estimate
                idx = RunIndex.of(sim)
                mttr = idx.end_rebuild_mb(sim, gi) / idx.idle_rebuild_rate(sim, gi) / 3600.0
            except Exception:  # no rebuild table for this platform
                mttr = None
        if not mttr or mttr <= 0:
            continue
        span = lay.group_math(gi).span_width
        # (the RAID type by id: an Enum's hash is a Python call)
        key = (id(g.raid), len(members), min(map(mttf_of.__getitem__, members.tolist())), mttr, span)
        v: Any = known.get(key, known)  # (one look-up)
        if v is known:
            try:
                v = float(mttdl_hours(g.raid, key[1], 1, key[2], mttr, span_width=key[4]))
            except ValueError:
                v = None
            known[key] = v
        if v is not None:
            out[g.id] = v
    return out


def named_advisories(sim: SimState) -> list[Advisory]:
    """The run's advisories, an operation's written with its label ("Migrate LUN 0 -> LUN 2
    (High): ...") instead of its event id ("op1: ..."), which the user never typed; `where`
    keeps the id (the GUI selects the operation from it)."""
    labels = {op.event.id: op.label for op in sim.ops if op.label and op.label != op.event.id}
    out = []
    for a in sim.advisories.values():
        label = labels.get(a.where)
        if label and a.text.startswith(f"{a.where}: "):
            a = Advisory(a.severity, a.code, f"{label}: {a.text[len(a.where) + 2:]}", a.where, a.source)
        out.append(a)
    return out


def unfinished_advisories(sim: SimState, horizon_h: float) -> None:
    """Say why an operation is still running when the plan ends: starved by the host load
    (no priority helps) or only slow (its progress then)."""
    from app.domain.formatting import format_time

    ctx, lay, mu = sim.ctx, sim.lay, sim.max_util
    U = ctx.U_host_g  # (a list)
    dg = None  # each drive's group as a list (at the first starved op; numpy indexing per drive is slow)
    for op in sim.ops:
        if op.end_h is None and _waits_for_replacement(sim, op):
            _no_replacement_advice(sim, op)
            continue
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
                + (" (degraded)" if sim.failed[lay.g_members[g]].any() else "") for g in full)
            sim.advise("warning", "starved-by-host",
                        f"{ev.id}: does not finish within the plan: at its end the host I/O alone needs "
                        f"{groups} of the drive time, at or above the {mu * 100:g}% the model lets a drive be "
                        "busy, so the operation gets no drive time at any priority; lighten or move the host "
                        "load, or schedule it when the load is lower", ev.id)
        elif op.total_mb > 0:
            sim.advise("info", "unfinished",
                        f"{ev.id}: {min(op.moved_mb / op.total_mb, 1.0) * 100:.0f}% done when the plan ends at "
                        f"{format_time(horizon_h)}", ev.id)


_REPLACEMENT_WAITS = ("degraded", "wait for replacement")  # op_rebuild's phases waiting for the new drive


def _no_replacement_advice(sim: SimState, op: Op) -> None:
    """Name the cause of a rebuild that cannot go on: the replacement drive never comes."""
    from app.domain.formatting import format_time

    ev = op.event
    wait = next(s for s in op.streams if s.name in _REPLACEMENT_WAITS)
    what = ("its RAID group runs degraded and the rebuild" if wait.name == "degraded" else
            f"rebuilt onto the hot spare by {format_time(wait.start_h)}; the equalization back to the slot")
    sim.advise("warning", "no-replacement",
               f"{ev.id}: {what} waits for drive {ev.drive} to be replaced, and the scenario has no drive "  # type: ignore[attr-defined]
               "replacement event for it: add one (a longer plan alone does not finish it)", ev.id)


def _waits_for_replacement(sim: SimState, op: Op) -> bool:
    """A drive failure's rebuild that ends the plan waiting for a replacement that no event of
    the scenario brings (after its failure)."""
    from app.domain.project import DriveFailure, DriveReplacement

    ev = op.event
    # the phases still open at the horizon are its streams (Op.result)
    if not isinstance(ev, DriveFailure) or not any(s.name in _REPLACEMENT_WAITS for s in op.streams):
        return False
    return not any(isinstance(e, DriveReplacement) and e.drive == ev.drive and e.start_h >= ev.start_h
                   for e in sim.scenario.events)


def overload_advisories(sim: SimState) -> None:
    """A centre (a RAID group's drives, a controller's CPU, a back-end bus) that the open host
    loads (fixed arrival rates) alone ask more of than max_util: its workloads are served at
    the centre's capacity (_centre_scale) and the rest is unserved; the response times there
    are those of a centre max_util busy, a lower bound of a queue that keeps growing (docs/model.md
    section 3). Closed loads are never named: they slow to what the centres give (saturation)."""
    lay, mu = sim.lay, sim.max_util
    for g in np.flatnonzero(sim.sat_g > 0).tolist():
        sim.saturated[("g", g)] = float(sim.sat_g[g])
    sim.unserved_w.update(np.flatnonzero(sim.unserved_mask).tolist())
    if not sim.saturated:
        return
    on_g: dict[int, set[int]] = {}
    on_c: dict[int, set[int]] = {}
    for g, c, w in zip(lay.l_group[sim.p_l].tolist(), lay.l_owner[sim.p_l].tolist(), sim.p_w.tolist()):
        on_g.setdefault(g, set()).add(w)
        on_c.setdefault(c, set()).add(w)
    closed: list[bool] = sim.w_closed.tolist()
    unserved = sim.unserved_w
    cap = f"{mu * 100:g}%"

    def named(ws: set[int]) -> str:
        names = ", ".join(sim.workloads[w]["name"] or sim.workloads[w]["id"]
                          for w in sorted(ws) if w in unserved and not closed[w])
        return f" ({names})" if names else ""

    for (kind, i), peak in sorted(sim.saturated.items()):
        if kind == "g":
            what, where = f"{lay.groups[i].label}: the host I/O alone needs {peak * 100:.0f}% of its drives' time", \
                f"RG {lay.groups[i].id}"
            ws = on_g.get(i, set())
        elif kind == "s":
            h, o = peak  # type: ignore[misc]
            ws = on_g.get(i, set())
            sim.advise("warning", "host-overload",
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
        sim.advise("warning", "host-overload",
                    f"{what} (at its peak), more than the {cap} it can be busy: it is the limiting centre, "
                    f"the workloads through it{named(ws)} are served at {mu / peak * 100:.0f}% of the "
                    "load they offer (a write-back cache takes their writes until it reaches its "
                    "watermark, then forced flush) and the rest is unserved (offered_iops, unserved_iops); their "
                    f"response times are those of a centre {cap} busy, a lower bound of a queue that keeps "
                    "growing; spread the load over more drives, controllers or buses", where)


def final_advisories(sim: SimState, res: Result) -> None:
    lay = sim.lay
    unfinished_advisories(sim, res.horizon_h)
    overload_advisories(sim)
    envelope.advise(sim, res)  # inputs outside what the documents cover
    # SATA RAID 5 (Hitachi: RAID 6 recommended for SATA; EMC: SATA rebuilds slowest)
    from app.domain.hardware import Interface
    from app.domain.raid import RaidType
    SATA = Interface.SATA
    sata = [t.interface is SATA for t in lay.drive_types]
    for gi, g in enumerate(lay.groups):
        if g.raid is RaidType.R5 and any(map(sata.__getitem__, lay.g_members[gi].tolist())):
            sim.advise("warning", "sata-raid5",
                        f"{g.label}: RAID 5 on SATA drives; RAID 6 is recommended for SATA because of the long "
                        "rebuild (sparing) times", f"RG {g.id}",
                        "hitachi 'Migration to SATA Volumes'")
    # Dell HPT: too few drives / workload below the base limits
    if sim.limits is not None:
        n = lay.D
        need = sim.R.v("hpt.base_seq_drives_dual") + 1
        hpt_on = any(v for k, v in sim.features.items() if "hpt" in k)
        hpt_event = any(isinstance(e, FeatureEnable) for e in sim.scenario.events)
        if (hpt_on or hpt_event) and n < need:
            sim.advise("warning", "hpt-too-few-drives",
                        f"{n} drives: more than {need - 1:g} drives are needed in a dual controller to exceed the "
                        "base bandwidth, so High Performance Tier cannot help", "feature hpt",
                        "dell 'Number of Disk Drives'")
        if hpt_on or hpt_event:
            links = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
            need_mb = sim.R.v("hpt.host_mb_s_per_controller_needed")
            if links < need_mb:
                sim.advise("warning", "hpt-host-links",
                            f"the host ports carry {links:g} MB/s per controller, less than the ~{need_mb:g} MB/s "
                            "needed to take bandwidth beyond the base limits: HPT adds IOPS at most",
                            "feature hpt", "dell 'When Should High Performance Tier be used'")
            from app.domain.hardware import Interface as _If
            ssd = sum(1 for t in lay.drive_types if t.interface is _If.SSD)
            if 0 < ssd < sim.R.v("hpt.ssd_min_sequential"):
                sim.advise("info", "hpt-few-ssd",
                            f"{ssd} SSDs: HPT needs at least {sim.R.v('hpt.ssd_min_sequential'):g} SSDs for "
                            f"sequential and {sim.R.v('hpt.ssd_min_random'):g} for random (RAID 5) workloads",
                            "feature hpt", "dell 'Number of Disk Drives'")