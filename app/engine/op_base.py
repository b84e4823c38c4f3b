"""The operation base class Op: phases, streams, the policy of each phase, the take() of
drive, CPU and bus time a placement gives it, progress and results. One subclass per operation
kind: op_migration, op_rebuild, op_bind, op_volume_mig, op_reallocate, op_feature (registry:
ops.OPS).
"""
from __future__ import annotations

import math
from typing import Any

from .op_streams import EPS_MB, Fixed, INF, Stream, stream_limit
from .policy import Policy, generic_levels_note, policy_for
from .protocols import CtxView as Ctx, SimView as Sim
from .rates import MissingRate
from .result import OperationResult, Phase
from .run_index import RunIndex


def _phase_order(p: Phase) -> tuple:
    """Op.result lists the phases by start, then end."""
    return p.start_h, p.end_h or INF


# an event's priority as the tables name it (Low/Medium/High, ASAP, ...) and whether it is ASAP,
# per raw value (Op.__init__)
_PRIORITIES: dict[Any, tuple[str, bool]] = {}


class Op:
    now: float  # its clock: a float field (advance() sets it for every busy op at every step)
    index: Any
    pos: int  # placement order (Sim.fire sets it; Ctx compares it at every placement)
    rec_first: Any
    rec_end: Any
    on_sp: Any
    asap_class = 0  # economical/fixed phases are placed first, ASAP-class after
    stopped = False  # stop() ended it before its work was done (set on the instance)
    # MB/s it puts into its SP's write cache beyond what the destination drains (only a Migration
    # on the write-cache path sets it): time_left/advance/at_rest follow the cache then. A hook
    # here, not an override, because the loop calls them for every busy op at every step.
    fill_rate = 0.0
    # the policy's queue_depth: I/Os the operation keeps outstanding on each drive (a closed class
    # in the host's response and Little's law on its rate, docs/model.md 3.1); 0: its I/O is
    # counted as an open load (no queue of its own). queue_io_mb: the size of one of those I/Os.
    queue_depth = 0.0
    queue_io_mb = 1.0
    # slots (and the subclasses' own): the loop, the placement and the starts read and set
    # these on every op; in an instance dict (an op has 40-60 attributes, past CPython's
    # shared-key limit of 30) each store costs a dict insert. Attributes not listed (asap_class
    # or fill_rate set on an instance, the other subclasses') go to the __dict__.
    __slots__ = ("sim", "R", "lay", "ix", "event", "priority", "asap", "streams", "phases", "start_h", "now",
                 "label", "placed", "reads", "counted", "end_h", "rate", "total_mb", "moved_mb", "touches",
                 "sver", "_fixed_sver", "_fixed", "pos", "running", "reads_key", "idle", "rec_first", "rec_end",
                 "on_sp", "index", "last_limit", "fit_log", "n_reads", "__dict__")
    __deletable__ = ("sim",)  # simulate() drops each op's reference to its Sim after the run

    def __init__(self, sim: "Sim", ev):
        self.sim = sim
        self.R = sim.R  # the run's rate reader, Layout and RunIndex (fixed for the run)
        self.lay = sim.lay
        self.ix = RunIndex.of(sim)
        self.event = ev
        raw = getattr(ev, "priority", "")
        hit = _PRIORITIES.get(raw)
        if hit is None:
            p = str(raw or "")
            if p.lower() in ("low", "medium", "high"):  # tables use Low/Medium/High
                p = p.capitalize()
            hit = _PRIORITIES[raw] = (p, p.upper() == "ASAP")
        self.priority, self.asap = hit
        self.streams: list[Stream] = []
        self.phases: list[Phase] = []
        self.start_h = self.now = ev.start_h
        self.end_h: float | None = None
        self.rate = self.total_mb = self.moved_mb = 0.0
        self.label = ev.id
        self.touches: set[str] | frozenset[str] = frozenset()  # the starts set theirs
        self.sver = 0  # bumped when a stream begins or ends (keys Op.fixed's cache)
        self._fixed_sver: Any = None
        self._fixed: Any = None
        # placement (placement.place, Ctx): order, running, additions per resource, resources read and
        # their key (Ctx.footprint), ASAP counts; idle: no rate and nothing due, the loop skips it
        # (None until first placed: placement.place then puts it in Sim.busy or not)
        self.pos = 0
        self.running = False
        self.placed: dict[int, float] = {}  # (Ctx resource keys)
        self.reads: set[int] = set()
        self.reads_key: Any = None
        self.counted: dict[int, float] = {}  # (Ctx.count: what Ctx.own holds)
        # its CPU and bus reads at its last placement (Ctx.fit_log, Ctx.holds) and the cores whose
        # ASAP count it read (Ctx.read_count): placement.place places it again only if they changed
        self.fit_log: list[tuple[int, float, float, float, float, bool]] = []
        self.n_reads: list[int] = []
        self.idle: bool | None = None
        self.rec_first = self.rec_end = 0  # the recorded rows it ran in (results.record): none unless started
        self.on_sp: dict | None = None  # sim.lun_ops' dict it is in (concurrent_advice)
        self.last_limit = ""  # take(): the centre that limited the last rate

    # ---- life cycle
    def start(self, t: float) -> bool:
        raise NotImplementedError

    def begin(self, name: str, t: float, mb: float = 0.0, kind: str = "transfer", dur_h: float | None = None,
              tag: object = None) -> Stream:
        s = Stream(name, t, mb, kind, None if dur_h is None else t + dur_h, tag)
        self.streams.append(s)
        self.changed()
        return s

    def remove_stream(self, s: Stream) -> None:
        self.streams.remove(s)
        self.changed()

    def changed(self) -> None:
        """Its phases changed: rebuild Op.fixed and have placement.place place it again."""
        self.sver += 1
        self.sim.dirty_ops.add(self)

    def at_rest(self) -> bool:
        """No rate and nothing due: advancing it changes nothing (the loop skips it)."""
        return self.rate == 0.0 and self.fill_rate == 0.0 and self.time_left() == INF

    def time_left(self) -> float:
        """Hours until the first of its streams ends at the current rates: a transfer when its MB
        are moved (never while its rate is 0), a timed stream at its end, a wait on an event
        (INF). Per stream inline: the loop asks every busy op at every step."""
        best = INF
        for s in self.streams:
            kind = s.kind
            if kind == "transfer":
                rem = s.mb - s.done
                if rem <= EPS_MB:
                    v = 0.0
                elif s.rate > 1e-12:
                    v = rem / (s.rate * 3600.0)
                else:
                    continue
            elif kind == "timed":
                end_h = s.end_h  # (a timed stream has one: begin(dur_h=...))
                if end_h is None:
                    continue
                v = end_h - self.now
                if v < 0.0:
                    v = 0.0
            else:
                continue  # wait: ends on an event
            if v < best:
                best = v
        if self.fill_rate > 1e-9:
            return self.cache_full_in(best)
        return best

    def cache_full_in(self, tl: float) -> float:
        """time_left of an op filling the write cache (fill_rate): at most until it is full."""
        return tl

    def advance(self, dt_h: float, t: float) -> None:
        moved = self.moved_mb
        for s in self.streams:
            if s.kind == "transfer":
                step = s.rate * dt_h * 3600.0
                done = s.done + step
                s.done = s.mb if s.mb < done else done  # min(done, mb)
                moved += step
                if step > 0.0:
                    s.lim_mb[s.limit] = s.lim_mb.get(s.limit, 0.0) + step
        self.moved_mb = moved
        self.now = t + dt_h
        if self.fill_rate > 0:
            self.fill_cache(dt_h)

    def fill_cache(self, dt_h: float) -> None:
        """advance() of an op filling the write cache (fill_rate)."""

    def maybe_finish_phase(self, t: float) -> None:
        self.now = t
        for s in list(self.streams):
            if s in self.streams and s.finished(t):
                self.remove_stream(s)
                self.close(s, t)
                self.on_stream_end(s, t)
        if not self.streams and self.end_h is None:
            self.finish(t)

    def close(self, s: Stream, t: float, name: str | None = None) -> None:
        dur = t - s.start_h
        avg = s.done / (dur * 3600.0) if dur > 0 and s.kind == "transfer" else 0.0
        self.phases.append(Phase(name or s.name, s.start_h, t, s.mb if s.kind == "transfer" else 0.0, avg,
                                 stream_limit(s)))

    def on_stream_end(self, s: Stream, t: float) -> None:
        pass

    def finish(self, t: float) -> None:
        self.end_h = t
        if self.running:
            self.running = False
            self.sim.active.remove(self)
            if self.on_sp is not None:  # it no longer runs with the LUN operations on its SP
                del self.on_sp[self]
            self.rec_end = self.sim.rec_n
            self.sim.dirty_ops.add(self)  # its additions go

    def policy(self, op_kind: str, phase: str = "", kinds: tuple[str, ...] = ()) -> Policy:
        """The policy of this op's priority level for a phase (policy_for); kinds: the policy
        kinds this operation models (another one is reported, not approximated). The level's
        canonical spelling replaces the event's."""
        key = (op_kind, self.priority, phase)
        pol = self.sim.policies.get(key)
        if pol is None:  # (the same tables for every op of the run: resolved once)
            pol = self.sim.policies[key] = policy_for(self.R, self.sim.platform, op_kind, self.priority, phase)
        self.priority = pol.level
        if kinds and pol.kind not in kinds:
            raise MissingRate(f"[{pol.path}] kind {pol.kind!r} is not modelled for this operation "
                              f"(it takes {', '.join(kinds)})")
        if pol.generic:
            self.sim.advise("info", "generic-model",
                            f"{self.event.id}: the {self.sim.platform.name} rates have no [policy.{op_kind}] "
                            f"table; the generic model predicts it from the drives, buses and controller, "
                            f"each level a duty cycle of the full-speed rate ({generic_levels_note(self.sim.platform, op_kind)})",
                            self.event.id, "assumption: generic operation model (docs/model.md 4)")
        return pol

    def use_queue(self, pol: Policy) -> None:
        """Take the policy's per-drive queue depth (docs/model.md 3.1), with the rebuild's I/O
        size (`rebuild.io.kb`, 1 MB without it) as the size of each queued I/O."""
        q = pol.p("queue_depth", 0.0)
        self.queue_depth = q
        if q > 0.0:
            self.queue_io_mb = (self.R.v("rebuild.io.kb") if self.R.has("rebuild.io.kb") else 1024.0) / 1024.0
            self.sim.any_queue = True

    def stop(self, t: float, why: str) -> None:
        """End the operation before its work is done (a RAID group it works on lost its data):
        its open phases close with `why` in their names and it takes nothing any more. Not
        finish(): a migration's finish() would move its LUN."""
        if self.end_h is not None:
            return
        self.stopped = True
        self.on_stop()
        for s in list(self.streams):
            self.remove_stream(s)
            self.close(s, t, f"{s.name} ({why})")
        Op.finish(self, t)

    def on_stop(self) -> None:
        """What stop() undoes besides the phases (a migration's write-cache state)."""

    # ---- resources
    def resources(self) -> list[tuple[str, int]]:
        """The drive time its rate reads: ("g", group) and ("d", drive) keys (Ctx). placement.place
        places it again when the host load, the failures, the ASAP counts or an earlier
        operation's additions change there. The same list object while they do not change:
        Ctx.footprint compares it with the last one at every placement."""
        return []

    def count_asap(self, ctx: "Ctx") -> None:
        pass

    def demand(self, ctx: "Ctx") -> None:
        self.rate = 0.0

    def fixed(self) -> "Fixed | None":
        """What demand() puts on the resources when every transfer runs at its cap, for
        host_solve.solve's fast path; None when the rate is not a plain take() (shares, the write-cache
        path). For an ASAP op it only tells that the op is starved (the ASAP share of nothing is
        nothing); its capped use is never placed from here. Cached until the op's streams change
        (which drives are alive members, the placement reads at each step)."""
        if self._fixed_sver != self.sver:
            try:
                self._fixed = self.build_fixed()
            except MissingRate:
                self._fixed = None  # demand() reports it
            self._fixed_sver = self.sver
        return self._fixed

    def build_fixed(self) -> "Fixed | None":
        return Fixed() if type(self).demand is Op.demand else None

    def take_parts(self) -> "Fixed | None":
        """The drive time each transfer's take() reads, for results.unfinished_advisories to tell an
        op the host load starves: fixed(), unless an op without one can say it."""
        return self.fixed()

    def take(self, ctx: "Ctx", cap: float, uses: list[tuple[str, int, float]], asap: bool,
             core: int = -1, cpu_coef: float = 0.0, cap_limit: str = "policy",
             bus: list[tuple[int, float]] | None = None, min_share: float = 0.0) -> float:
        """Rate for a phase with drive costs `uses` [("g", group, busy per MB/s on each alive
        member) or ("d", drive, busy per MB/s)]: the cap, limited by the free drive time (shared
        equally among the ASAP-class phases on the same drives when asap) and, with a core and
        its CPU % per MB/s, by the CPU the host and the earlier operations leave (ASAP-class
        phases on one core each take at most an equal part of what the host leaves). The
        centre that limited it is in self.last_limit (cap_limit when the cap did). min_share: the
        share of each drive's time the level keeps whatever the host asks (a policy's min_share):
        where the host leaves less, the phase takes it from the host, which host_solve._squeeze
        then serves what is left; never more than the other operations leave."""
        rate = cap
        limit = cap_limit
        q = self.queue_depth
        for kind, i, cost in uses:
            if cost <= 0:
                continue
            free = ctx.free_g(i) if kind == "g" else ctx.free_d(i)
            if asap:
                n: Any = ctx.asap_g[i] if kind == "g" else ctx.asap_of_d(i)
                if n > 1:
                    free /= n
            lim = free / cost
            if lim < rate:
                rate = lim
                limit = self.centre(kind, i)
            if q > 0.0:
                lim = self.little_limit(ctx, kind, i, cost, q)
                if lim < rate:
                    rate = lim
                    limit = "queue depth (" + self.centre(kind, i) + ")"
        if core >= 0 and cpu_coef > 0.0:
            free = ctx.free_core(core)
            n_c: Any = 0  # (counts may be floats: Ctx.recount)
            if asap:
                n_c = ctx.read_count(core)
                if n_c > 1:
                    fair = (100.0 - ctx.core_host[core]) / n_c
                    if fair < free:
                        free = fair
            lim = free / cpu_coef
            if lim < rate:
                rate = lim
                limit = "cpu " + self.lay.core_names[core]
            else:  # the core did not limit it: nor will any load that leaves this (and, with a
                # fair share, the same host CPU: the share moves with it)
                ctx.allow(rate * cpu_coef, n_c > 1)
        if bus:
            for b, coef in bus:  # MB/s on bus b per MB/s: what the host and earlier operations leave
                lim = ctx.free_bus(b) / coef
                if lim < rate:
                    rate = lim
                    limit = f"bus {b}"
                else:
                    ctx.allow(rate * coef, False)
        if rate < 0.0:
            rate = 0.0
        if min_share > 0.0 and limit.startswith("drive"):  # (a CPU, bus or queue limit stands)
            lo = self.floor_rate(ctx, cap, uses, min_share)
            if lo > rate:
                rate, limit = lo, "policy (guaranteed share)"
        for kind, i, cost in uses:
            ctx.add(kind, i, cost * rate)
        self.last_limit = limit
        return rate

    def floor_rate(self, ctx: "Ctx", cap: float, uses: list[tuple[str, int, float]], min_share: float) -> float:
        """The rate a level's guaranteed share of the drive time gives (min_share x max_util on
        each drive it uses, at most its cap), where only the other operations' drive time counts
        (the host's is taken): every drive stays at or below max_util."""
        mu = ctx.max_util
        floor = cap
        for kind, i, cost in uses:
            if cost <= 0:
                continue
            if min_share * mu / cost < floor:
                floor = min_share * mu / cost
            if kind == "g":
                others = ctx.used_g(i) - ctx.U_host_g[i]
            else:
                others = ctx.used_d(i)
                g = ctx.d_group[i]
                if g >= 0 and not ctx.failed[i]:
                    others -= ctx.U_host_g[g]
            room = (mu - others) / cost
            if room < floor:
                floor = room
        return floor if floor > 0.0 else 0.0

    def little_limit(self, ctx: "Ctx", kind: str, i: int, cost: float, q: float) -> float:
        """Little's law on a drive: with q I/Os of queue_io_mb outstanding the rate is at most
        q x io / residence, an I/O's residence being its own q service times plus the host I/Os
        queued ahead of it, N_h = U/(1-U) of them at the group's random service time (U: what the
        host and the operations placed before this one keep busy). MB/s; inf on an idle drive."""
        g = i if kind == "g" else ctx.d_group[i]
        if g < 0:
            return math.inf
        u = ctx.used_g(g) if kind == "g" else ctx.used_d(i)
        if u <= 0.0:
            return math.inf
        u = min(u, ctx.max_util)
        s_o = cost * self.queue_io_mb  # drive-seconds of one queued I/O
        ahead = u / (1.0 - u) * float(self.lay.g_rand.item(g)) / 1000.0
        return q * self.queue_io_mb / (q * s_o + ahead)

    def centre(self, kind: str, i: int) -> str:
        """A drive-time resource's name for Phase.limited_by."""
        lay = self.lay
        if kind == "g":
            return "drives " + lay.groups[i].label
        return "drive " + lay.drive_locs[i]

    def cpu(self, ctx: "Ctx", ctrl: int, pct: float) -> None:
        ctx.add("core", int(self.lay.core_off[ctrl]), pct)

    def bus_g(self, ctx: Any, gi: int, mb_s: float) -> None:
        """MB/s on group gi's buses, spread as its members are (to a Ctx or a cached Part)."""
        if mb_s > 0:
            for b, share in self.ix.bus_split(self.lay, gi):
                ctx.add("bus_x", b, mb_s * share)

    # ---- reporting
    def progress_pct(self) -> float:
        if self.end_h is not None and not self.stopped:
            return 100.0
        if self.total_mb <= 0:
            return 0.0
        return min(self.moved_mb / self.total_mb * 100.0, 100.0)

    def result(self) -> OperationResult:
        phases = sorted(self.phases, key=_phase_order) if len(self.phases) > 1 else self.phases.copy()
        for s in self.streams:  # still running at the horizon
            phases.append(Phase(s.name, s.start_h, None, s.mb if s.kind == "transfer" else 0.0, 0.0,
                                stream_limit(s)))
        return OperationResult(self.event.id, self.event.kind, self.label, self.priority, self.start_h,
                               self.end_h, phases, sorted(self.touches))

    # ---- helpers
    def workloads_on_groups(self, groups: set[int]) -> list[str]:
        return self.ix.workloads_on(self.sim, groups)

    def host_busy(self) -> bool:
        return self.ix.host_busy(self.sim)

    def asap_advice(self, what: str) -> None:
        if self.asap and self.host_busy():
            self.sim.advise("warning", "asap-under-load",
                            f"{self.event.id}: {what} at ASAP while host workloads run; ASAP takes the free drive "
                            "and SP time and raises host response time (the 'ASAP effect'). Use Low/Medium/High "
                            "when response time matters.", self.event.id,
                            "emc 'Executive summary', 'Dependent LUN effects on performance'")

    def concurrent_advice(self, ctrl: int) -> None:
        """A LUN operation (migration, rebuild, bind) starts on SP `ctrl`: warn when others run
        there. Each one calls this once from start(); sim.lun_ops keeps the running ones per SP in
        start order, with their event ids (finish() takes one out), so no scan of any list."""
        on_sp = self.sim.lun_ops.get(ctrl)
        if on_sp is None:
            on_sp = self.sim.lun_ops[ctrl] = {}
        same = list(on_sp.values())
        on_sp[self] = self.event.id
        self.on_sp = on_sp  # finish() takes it out (Sim.fire when its start fails)
        if same:
            name = self.lay.ctrl_names[ctrl]
            self.sim.advise("warning", "concurrent-lun-ops",
                            f"{self.event.id}: runs on {name} together with {', '.join(same)}; "
                            "LUN operations add up on CPU 0 of the owning SP. Stagger them so only one LUN "
                            "migrates, rebuilds or binds at a time.", self.event.id,
                            "emc 'Independent LUN effects on performance' (recommendations)")

    def gseq(self, gi: int) -> float:
        return float(self.lay.g_seq[gi])
