"""Operations: each is a set of phases whose rate follows the priority level's policy
(app/engine/policy.py, read from the rates preset's [policy.*] tables; docs/model.md 4):

  cap         up to the policy's mb_s, limited by the free drive time and CPU
  asap        up to the full-speed rate on the drive time the host leaves free (up to max_util),
              shared equally with other ASAP-class phases on the same drives and core
  share       a share of the drive time the host contends for, full speed the rest of the time
  idle_only   full speed while the host is away, trickle_mb_s while it contends
  duty_cycle  duty x the full-speed rate, limited by the free drive time
  window      at least min_mb_s (even under load), at most max_mb_s
  timed       a fixed duration (set-up, reboot, measure)

The full-speed rate comes from the configuration (drives, RAID geometry, buses, controller),
capped by a platform's measured full-speed tables where it has them.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from app.domain.hardware import Interface

from .policy import Policy, generic_levels_note, policy_for
from .protocols import CtxView as Ctx
from .protocols import SimView as Sim
from .rates import MissingRate
from .rebuild_model import io_mb, read_cost, table_ceiling
from .result import OperationResult, Phase

if TYPE_CHECKING:  # pragma: no cover
    from .state import Layout

# Final: constants in the compiled engine, not a dict look-up in the module's globals at each use
INF: Final = math.inf
EPS_MB: Final = 1e-6

# Ctx's resource keys: one int per (kind, index), index << RK_BITS | kind code; cheaper to build,
# hash and compare at every placement than ("g", i) tuples. The kinds are Ctx.add's.
RK_G: Final = 0  # "g": busy of each alive member of a group
RK_D: Final = 1  # "d": busy of a single drive
RK_CORE: Final = 2  # "core": CPU %
RK_BUS_G: Final = 3  # "bus_g": MB/s on a group's buses
RK_BUS_X: Final = 4  # "bus_x": MB/s on one bus
RK_BITS: Final = 3
RK_MASK: Final = 7


def res_key(kind: str, i: int) -> int:
    """Ctx's resource key of (kind, i): kind "g", "d", "core", "bus_g" or "bus_x"."""
    if kind == "g":
        return i << RK_BITS
    if kind == "d":
        return i << RK_BITS | RK_D
    if kind == "core":
        return i << RK_BITS | RK_CORE
    if kind == "bus_g":
        return i << RK_BITS | RK_BUS_G
    assert kind == "bus_x", kind
    return i << RK_BITS | RK_BUS_X


class Stream:
    """One running phase: moves `mb` at `rate` (transfer) or lasts until `end_h` (timed/wait)."""

    # the loop reads rate/mb/done of every busy stream at every step: typed attributes are
    # struct fields in the compiled engine (plan and bus_cap: Rebuild.plan's, set once per stream)
    name: str
    start_h: float
    mb: float
    done: float
    kind: str
    end_h: float | None
    rate: float
    tag: Any
    plan: Any
    bus_cap: float
    limit: str  # the centre holding its rate down now (Phase.limited_by)
    lim_mb: dict[str, float]  # MB moved under each limiting centre

    def __init__(self, name: str, start_h: float, mb: float = 0.0, kind: str = "transfer",
                 end_h: float | None = None, tag: Any = None) -> None:
        self.name = name
        self.start_h = start_h
        self.mb = mb
        self.done = 0.0
        self.kind = kind
        self.end_h = end_h
        self.rate = 0.0
        self.tag = tag
        self.plan = None
        self.bus_cap = INF
        self.limit = ""
        self.lim_mb = {}

    def finished(self, now: float) -> bool:
        if self.kind == "transfer":
            return self.mb - self.done <= max(EPS_MB, self.mb * 1e-9)
        if self.kind == "timed":
            end_h = self.end_h
            return end_h is not None and now >= end_h - 1e-9
        return False


class Part:
    """One transfer's resource use at its capped rate: the additions demand() makes through
    take(), cpu() and bus_g() when nothing limits the rate. g/d: drive time per group / single
    drive; check_g/check_d: the ones whose free time must cover it; adds: every addition as
    (Ctx resource key (res_key), value), drive time first."""

    __slots__ = ("stream", "rate", "g", "d", "check_g", "check_d", "adds")

    def __init__(self, stream: Stream, cap: float, uses):
        self.stream = stream
        self.rate = rate = cap if cap > 0.0 else 0.0
        self.g: list[tuple[int, float]] = []
        self.d: list[tuple[int, float]] = []
        self.check_g: list[int] = []
        self.check_d: list[int] = []
        self.adds: list[tuple[int, float]] = []
        for kind, i, cost in uses:
            v = cost * rate
            if kind == "g":
                self.g.append((i, v))
                if cost > 0:
                    self.check_g.append(i)
            else:
                self.d.append((i, v))
                if cost > 0:
                    self.check_d.append(i)
            self.adds.append((res_key(kind, i), v))

    def add(self, kind: str, i: int, value: float) -> None:
        """A CPU or bus addition ("core", "bus_g", "bus_x"; see Ctx.add)."""
        self.adds.append((res_key(kind, i), value))


class Fixed:
    """An operation's transfers as Parts (Op.fixed); no parts: it puts nothing on the array."""

    __slots__ = ("parts", "_adds")

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self._adds: dict[int, float] | None = None

    def take(self, s: Stream, cap: float, uses) -> Part:
        p = Part(s, cap, uses)
        self.parts.append(p)
        return p

    def adds(self) -> dict[int, float]:
        """Every part's additions summed per resource (Ctx.add_all of all parts in order, from
        none): an op placed at its capped rates with no part starved puts exactly this. Built
        once; Sim.place_economical hands it to the placement, which only reads it."""
        if self._adds is None:
            own: dict[int, float] = {}
            for p in self.parts:
                for key, value in p.adds:
                    own[key] = own.get(key, 0.0) + value
            self._adds = own
        return self._adds


class RunIndex:
    """What operation starts look up, indexed once per run (Sim) instead of scanned per start:
    the hot spares by interface and capacity, which running workloads have LUNs on which groups
    (per LUN placement and workload change), the write-cache-path migrations per SP."""

    def __init__(self, sim: "Sim"):
        lay = sim.lay
        self.groups = lay.groups
        self.default_lun_settings = sim.platform.default_lun_settings()
        spares = lay.spares.tolist()  # the few spares only (not Layout.d_iface of every drive)
        self.spare_facts = list(zip(spares, [lay.drive_types[d].interface.value for d in spares],
                                    lay.d_cap[lay.spares].tolist(), lay.d_bus[lay.spares].tolist()))
        self.spare_cands: dict[tuple, tuple[list[int], dict[int, list[int]]]] = {}
        self.ids = [w["id"] for w in sim.workloads]  # the workload ids, in workload order
        # per group: the workloads with LUNs on it (workloads_on); built at the first start, then
        # updated by move_lun for each LUN that moves (a W x G matrix rebuilt after every move
        # cost ~30k instructions per start; comparing all of l_group per move, ~1% of a run)
        self.on_g: list[dict[int, int]] | None = None
        self.p_w: list[int] = []  # Sim.p_w (each pair's workload) as a list, with on_g
        self.running_src: Any = None  # Sim.w_running the list below is of
        self.running: list[bool] = []
        self.busy_src: Any = None  # Sim.w_running the flag below is of (a new array per workload change)
        self.any_busy = False
        # per SP: the running migrations on the write-cache path (Migration.set_forced dirties them)
        self.cache_path_migs: dict[int, dict["Migration", None]] = {}
        self.first_l: list[int] | None = None  # first_lun per group (-2: to be found again)
        self.migration_rates: dict[tuple, tuple] = {}  # Migration.rates per (ASAP, mirror, cached, copy_cap)
        self.splits: dict[int, list[tuple[int, float]]] = {}  # bus_split per group
        self.lost: set[int] = set()  # groups whose data is lost (Rebuild.lose_group): no I/O, no rebuild

    def bus_split(self, lay: "Layout", gi: int) -> list[tuple[int, float]]:
        """(bus, share of the group's members on it): how a group's back-end MB/s spread over
        its buses (Layout.GB's row; bus_columns spreads the host's the same way)."""
        hit = self.splits.get(gi)
        if hit is None:
            row = lay.GB[gi]
            hit = self.splits[gi] = [(int(b), float(row[b])) for b in np.flatnonzero(row > 0).tolist()]
        return hit

    def bus_coefs(self, lay: "Layout", per_mb: list[tuple[str, int, float]]) -> list[tuple[int, float]]:
        """MB/s on each bus per MB/s of a transfer, from ("g", group, MB per MB) spread over the
        group's buses and ("d", drive, MB per MB) on the drive's bus."""
        out: dict[int, float] = {}
        for kind, i, f in per_mb:
            if f <= 0:
                continue
            if kind == "g":
                for b, share in self.bus_split(lay, i):
                    out[b] = out.get(b, 0.0) + f * share
            else:
                b = int(lay.d_bus[i])
                out[b] = out.get(b, 0.0) + f
        return sorted(out.items())

    def first_lun(self, lay: "Layout", gi: int) -> int:
        """The group's first LUN (-1 when none), which owns its rebuild: from l_group once per run,
        then per group again only after move_lun changed it (a compare of all of l_group and an
        argmax per Rebuild.start cost ~10k instructions)."""
        first = self.first_l
        if first is None:
            groups, at = np.unique(lay.l_group, return_index=True)
            first = self.first_l = [-1] * lay.G
            for g, l in zip(groups.tolist(), at.tolist()):
                if g >= 0:
                    first[g] = l
        l = first[gi]
        if l == -2:  # a LUN moved in or out
            hit = lay.l_group == gi
            l = first[gi] = int(hit.argmax()) if hit.any() else -1
        return l

    @staticmethod
    def of(sim: "Sim") -> "RunIndex":
        ix = getattr(sim, "_run_index", None)
        if ix is None:
            ix = sim._run_index = RunIndex(sim)
        return ix

    def spares_for(self, iface: str, min_cap: float) -> tuple[list[int], dict[int, list[int]]]:
        """The hot spares of an interface and at least a capacity, in drive order, and per bus."""
        key = (iface, min_cap)
        hit = self.spare_cands.get(key)
        if hit is None:
            fit = [(d, bus) for d, i, cap, bus in self.spare_facts if i == iface and cap >= min_cap - 1e-9]
            by_bus: dict[int, list[int]] = {}
            for d, bus in fit:
                by_bus.setdefault(bus, []).append(d)
            hit = self.spare_cands[key] = ([d for d, _ in fit], by_bus)
        return hit

    def workloads_on(self, sim: "Sim", groups) -> list[str]:
        """The ids of the running workloads with a LUN on any of the groups, in workload order."""
        on_g = self.luns_on_groups(sim)
        ws: set[int] = set()
        for g in groups:  # one group or two, each with a few workloads
            if 0 <= g < len(on_g):
                ws.update(on_g[g])
        if not ws:
            return []
        active = sim.w_running
        if active is not self.running_src:  # (a new array per workload change)
            self.running_src, self.running = active, active.tolist()
        ids, running = self.ids, self.running
        return [ids[w] for w in sorted(ws) if running[w]]

    def luns_on_groups(self, sim: "Sim") -> list[dict[int, int]]:
        """Per group: {workload: how many of its LUNs are on the group} (none: not there; a LUN
        outside any group counts nowhere). Built from Layout.l_group once; move_lun keeps it."""
        on_g = self.on_g
        if on_g is None:
            lay = sim.lay
            # one pass over the pairs (~900): a (G+1) x W bincount, its nonzero() and the dicts
            # filled from it cost ~1M instructions a run
            p_w: list[int] = sim.p_w.tolist()
            lg: list[int] = lay.l_group[sim.p_l].tolist()
            new: list[dict[int, int]] = [{} for _ in range(lay.G)]
            for g, w in zip(lg, p_w):
                if g >= 0:
                    on = new[g]
                    on[w] = on.get(w, 0) + 1
            self.on_g = on_g = new
            self.p_w = p_w
        return on_g

    def move_lun(self, sim: "Sim", l: int, new: int) -> None:
        """LUN l moves to group `new`: Layout.l_group and on_g. During a run LUNs move only
        here (Migration.finish, VolumeMig's pointer swap), so on_g never rescans l_group."""
        lg = sim.lay.l_group
        old = int(lg[l])
        lg[l] = new
        if old == new:
            return
        first = self.first_l
        if first is not None:
            for g in (old, new):
                if g >= 0:
                    first[g] = -2
        on_g = self.on_g
        if on_g is None:
            return
        p_w = self.p_w
        for k in sim._pairs_of_l.get(l, ()):
            w = p_w[k]
            if old >= 0:
                n = on_g[old][w] - 1
                if n:
                    on_g[old][w] = n
                else:
                    del on_g[old][w]
            if new >= 0:
                on_g[new][w] = on_g[new].get(w, 0) + 1

    def idle_rebuild_rate(self, sim: "Sim", gi: int) -> float:
        """MB/s of a rebuild of group gi without host load at the platform's default priority
        (idle_rebuild_hours, for every group at the end of a run): the same plan and policy as a
        running rebuild onto a drive like its first member, with the drives all free."""
        spec = sim.platform.operations.get("drive_failure")
        prio = spec.default if spec else ""
        pol = policy_for(sim.R, sim.platform, "rebuild", prio, "rebuild")
        lay = sim.lay
        members = lay.g_members[gi].tolist()
        d = int(members[0])
        mirror = bool(lay.g_mirror[gi])
        src = [("d", int(members[1]) if len(members) > 1 else d, 1.0)] if mirror else [("g", gi, 1.0)]
        uses, _, full, _, full_limit, cpu_coef, _ = rebuild_plan(
            sim, gi, d, src, d, "rebuild", pol, "rebuild.cpu.mirror" if mirror else "rebuild.cpu.parity", "",
            advise=False)
        r0 = full_speed(sim.max_util, full, uses, cpu_coef)
        kind = pol.kind
        if kind in ("cap", "asap"):
            return min(pol.p("mb_s", INF), r0)
        if kind == "duty_cycle":
            return pol.p("duty", 1.0) * r0
        if kind == "window":
            return min(pol.p("max_mb_s", INF), r0)
        return pol.p("idle_duty", 1.0) * r0

    def host_busy(self, sim: "Sim") -> bool:
        """Any workload offers I/O."""
        active = sim.w_running
        if active is not self.busy_src:
            self.busy_src, self.any_busy = active, bool(active.any())
        return self.any_busy


def stream_limit(s: Stream) -> str:
    """The centre that held a transfer down for most of its MB (its current one if it has not
    moved yet); "" for waits and timed phases."""
    if s.kind != "transfer":
        return ""
    best, most = s.limit, -1.0
    for name, mb in s.lim_mb.items():
        if mb > most:
            best, most = name, mb
    return best


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
    # slots (and the subclasses' own): the loop, the placement and the starts read and set
    # these on every op; in an instance dict (an op has 40-60 attributes, past CPython's
    # shared-key limit of 30) each store costs a dict insert. Attributes not listed (asap_class
    # or fill_rate set on an instance, the other subclasses') go to the __dict__.
    __slots__ = ("sim", "R", "lay", "ix", "event", "priority", "asap", "streams", "phases", "start_h", "now",
                 "label", "placed", "reads", "counted", "end_h", "rate", "total_mb", "moved_mb", "touches",
                 "sver", "_fixed_sver", "_fixed", "pos", "running", "reads_key", "idle", "rec_first", "rec_end",
                 "on_sp", "index", "last_limit", "__dict__")
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
        # placement (Sim.place, Ctx): order, running, additions per resource, resources read and
        # their key (Ctx.footprint), ASAP counts; idle: no rate and nothing due, the loop skips it
        # (None until first placed: Sim.place then puts it in Sim.busy or not)
        self.pos = 0
        self.running = False
        self.placed: dict[int, float] = {}  # (Ctx resource keys)
        self.reads: set[int] = set()
        self.reads_key: Any = None
        self.counted: dict[int, float] = {}  # (Ctx.count: what Ctx.own holds)
        self.idle: bool | None = None
        self.rec_first = self.rec_end = 0  # the recorded rows it ran in (Sim.record): none unless started
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
        """Its phases changed: rebuild Op.fixed and have Sim.place place it again."""
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
        pol = policy_for(self.R, self.sim.platform, op_kind, self.priority, phase)
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
        """The drive time its rate reads: ("g", group) and ("d", drive) keys (Ctx). Sim.place
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
        Sim.solve's fast path; None when the rate is not a plain take() (shares, the write-cache
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
        """The drive time each transfer's take() reads, for Sim.unfinished_advisories to tell an
        op the host load starves: fixed(), unless an op without one can say it."""
        return self.fixed()

    def take(self, ctx: "Ctx", cap: float, uses: list[tuple[str, int, float]], asap: bool,
             core: int = -1, cpu_coef: float = 0.0, cap_limit: str = "policy",
             bus: list[tuple[int, float]] | None = None) -> float:
        """Rate for a phase with drive costs `uses` [("g", group, busy per MB/s on each alive
        member) or ("d", drive, busy per MB/s)]: the cap, limited by the free drive time (shared
        equally among the ASAP-class phases on the same drives when asap) and, with a core and
        its CPU % per MB/s, by the CPU the host and the earlier operations leave (ASAP-class
        phases on one core each take at most an equal part of what the host leaves). The
        centre that limited it is in self.last_limit (cap_limit when the cap did)."""
        rate = cap
        limit = cap_limit
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
        if core >= 0 and cpu_coef > 0.0:
            free = ctx.free_core(core)
            if asap:
                n_c = ctx.asap_c.get(core, 0)
                if n_c > 1:
                    fair = (100.0 - ctx.core_host[core]) / n_c
                    if fair < free:
                        free = fair
            lim = free / cpu_coef
            if lim < rate:
                rate = lim
                limit = "cpu " + self.lay.core_names[core]
        if bus:
            for b, coef in bus:  # MB/s on bus b per MB/s: what the host and earlier operations leave
                lim = ctx.free_bus(b) / coef
                if lim < rate:
                    rate = lim
                    limit = f"bus {b}"
        if rate < 0.0:
            rate = 0.0
        for kind, i, cost in uses:
            ctx.add(kind, i, cost * rate)
        self.last_limit = limit
        return rate

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


# ====================================================================== LUN migration (EMC)
class Migration(Op):
    __slots__ = ("src", "dst", "gs", "gd", "ctrl", "core", "copy_cap", "exp_cap", "cached", "cache_path", "cpu_copy",
                 "cpu_exp", "exp_cost_u", "c_src", "c_dst", "copy_uses", "src_uses", "exp_uses", "res", "dst_width",
                 "dst_data", "copy_mb", "exp_mb", "exp_pending", "exp_uses_lo", "exp_cost_lo", "cpu_exp_lo", "copy_bus")

    def start(self, t: float) -> bool:
        ev, lay, R, sim = self.event, self.lay, self.R, self.sim
        self.src = lay.lidx[ev.source_lun]
        self.dst = lay.lidx[ev.dest_lun]
        # Layout reads as Python scalars (.item(): no numpy scalar made and converted; ~100 ns each
        # on the ~20 reads of an operation start)
        self.gs = lay.l_group.item(self.src)
        self.gd = lay.l_group.item(self.dst)
        self.ctrl = lay.l_owner.item(self.src)
        mirror = lay.g_mirror.item(self.gd)
        pol = self.policy("migration", "copy", ("cap", "asap"))
        self.asap = pol.kind == "asap"
        self.asap_class = 1 if self.asap else 0
        self.label = f"Migrate LUN {ev.source_lun} -> LUN {ev.dest_lun} ({self.priority})"
        self.copy_cap = pol.p("mirror_mb_s" if mirror and pol.has("mirror_mb_s") else "mb_s", INF)
        dest = self.ix.default_lun_settings | lay.luns[self.dst].settings
        wa = dest.get("write_aside_blocks")
        # write-aside 511 or less sends the copy's large writes around the cache (emc 'Best
        # practices for migrations'); so does a disabled write cache, or an array without one
        self.cached = (bool(dest.get("write_cache", True)) and (wa is None or wa > 511)
                       and sim.write_cache_mb > 0)
        # an ASAP copy through the write cache: it fills the cache when the destination cannot
        # keep up, and forced flushes (sim.forced) change its rate
        self.cache_path = self.asap and self.cached and sim.ff_ms is not None
        key = (self.asap, mirror, self.cached, self.copy_cap)
        rates = self.ix.migration_rates.get(key)
        if rates is None:
            rates = self.ix.migration_rates[key] = self.rates(mirror)
        self.exp_cap, self.cpu_copy, self.cpu_exp, self.exp_cost_u, copy_read, copy_write, overlap = rates
        # busy per MB/s copied on each source / destination member
        self.c_src = copy_read / (self.gseq(self.gs) * float(lay.g_data.item(self.gs)))
        self.c_dst = copy_write / (self.gseq(self.gd) * float(lay.g_data.item(self.gd)))
        # what demand() and build_fixed() read at every placement, as plain Python values
        self.core = lay.core_off.item(self.ctrl)
        self.copy_uses = [("g", self.gs, self.c_src), ("g", self.gd, self.c_dst)]
        self.dst_width, self.dst_data = float(lay.g_width.item(self.gd)), float(lay.g_data.item(self.gd))
        self.src_uses = self.copy_uses[:1]  # the write-cache path takes only the source's drive time
        self.exp_uses = [("g", self.gd, self.exp_cost_u)]
        # the write-around expansion (what the economical levels and write-aside 511 use) costs
        # the drives less per MB; an ASAP expansion whose drives are the limit takes that path,
        # so a higher priority never expands slower than a lower one (docs/model.md 4.1)
        self.exp_cost_lo, self.cpu_exp_lo = self.exp_cost_u, self.cpu_exp
        if self.asap and self.cached and R.has("migration.expansion.parity_write_aside_511"):
            cheaper = R.v("migration.expansion.parity") / R.v("migration.expansion.parity_write_aside_511")
            self.exp_cost_lo, self.cpu_exp_lo = self.exp_cost_u * cheaper, self.cpu_exp * cheaper
        self.exp_uses_lo = [("g", self.gd, self.exp_cost_lo)]
        # MB/s on each bus per MB/s copied: the source reads, full stripes written on the destination
        self.copy_bus = self.ix.bus_coefs(lay, [("g", self.gs, 1.0), ("g", self.gd, self.dst_width / self.dst_data)])
        self.res = ([("g", self.gs), ("g", self.gd), ("core", self.core)]
                    + [("bus_x", b) for b, _ in self.copy_bus])  # resources()
        src_gb = float(lay.l_cap.item(self.src))
        dst_gb = float(lay.l_cap.item(self.dst))
        self.copy_mb = src_gb * 1024.0
        self.exp_mb = max(dst_gb - src_gb, 0.0) * 1024.0
        self.total_mb = self.copy_mb + self.exp_mb
        self.begin("copy", t, self.copy_mb, tag="copy")
        if self.exp_mb > 0 and overlap:
            self.begin("expansion", t, self.exp_mb, tag="exp")
        self.exp_pending = self.exp_mb > 0 and not overlap
        lay.l_live[self.dst] = False  # the destination is not available during the migration
        sim.invalidate(luns={self.dst})
        self.touches = set(self.workloads_on_groups({self.gs, self.gd}))
        self.asap_advice("LUN migration")
        self.concurrent_advice(self.ctrl)
        self.fill_rate = 0.0
        if self.asap and self.host_busy():
            dep = "dependent" if self.touches else "independent"
            self.sim.advise("info", f"migration-{dep}",
                            f"{ev.id}: {dep} migration (the source or destination RAID group "
                            f"{'carries' if dep == 'dependent' else 'does not carry'} host load)", ev.id,
                            "emc 'Cumulative effects on performance'")
        if self.cache_path:  # (last: a start that raises is not running; finish() takes it out)
            self.ix.cache_path_migs.setdefault(self.ctrl, {})[self] = None
        return True

    def rates(self, mirror: bool) -> tuple:
        """What start() reads of the rate tables after copy_cap: the same for every migration with
        that copy_cap, ASAP or not, to a destination of one kind (mirror, cached), so
        RunIndex.migration_rates keeps it per run (~10 reads a start)."""
        R = self.R
        if self.asap:
            if not mirror and not self.cached and R.has("migration.expansion.parity_write_aside_511"):
                exp_cap = R.v("migration.expansion.parity_write_aside_511")
            else:
                exp_cap = R.v("migration.expansion.mirror" if mirror else "migration.expansion.parity")
        else:
            exp_cap = self.copy_cap
        cpu_copy = R.v("migration.cpu.copy")
        cpu_exp = R.v("migration.cpu.expansion")
        asap_exp = R.v("migration.expansion.mirror" if mirror else "migration.expansion.parity")
        exp_cost_u = R.v("migration.disk.expansion_util_at_asap") / asap_exp
        if not self.asap or not self.cached:
            # throttled (or write-aside) expansion writes do not pile up in the write cache: they
            # cost what the uncached best-case expansion costs (12 vs 40 MB/s at the same busy)
            exp_cost_u *= R.v("migration.expansion.parity") / R.v("migration.expansion.parity_write_aside_511")
            cpu_exp *= R.v("migration.expansion.parity") / R.v("migration.expansion.parity_write_aside_511")
        overlap = bool(R.raw("migration.expansion.economical_overlaps_copy", False)) and not self.asap
        return (exp_cap, cpu_copy, cpu_exp, exp_cost_u,
                R.v("migration.disk.copy_read"), R.v("migration.disk.copy_write"), overlap)

    def resources(self) -> list[tuple[str, int]]:
        return self.res

    def count_asap(self, ctx) -> None:
        if self.asap:
            for s in self.streams:
                if s.kind == "transfer":
                    ctx.count("g", self.gd)
                    if s.tag == "copy":
                        ctx.count("g", self.gs)
                        ctx.count("core", self.core)

    def drain(self, ctx, cost: float) -> float:
        """MB/s the destination drives can absorb (what the host and other phases leave)."""
        n = max(ctx.asap_g[self.gd], 1)
        return ctx.free_g(self.gd) / n / cost if cost > 0 else math.inf

    def demand(self, ctx) -> None:
        total = 0.0
        gs, gd = self.gs, self.gd
        c_dst = self.c_dst
        cache_path = self.cache_path
        forced = cache_path and self.sim.forced[self.ctrl]
        core = self.core
        self.fill_rate = 0.0
        for s in self.streams:
            if s.tag == "copy":
                if cache_path:
                    drain = self.drain(ctx, c_dst)
                    if forced:
                        ctx.add("core", core, self.R.v("cache.forced_flush_cpu_pct"))
                        rate = self.take(ctx, min(self.copy_cap, drain), self.copy_uses, True, core, self.cpu_copy,
                                         bus=self.copy_bus)
                    else:
                        rate = self.take(ctx, self.copy_cap, self.src_uses, True, core, self.cpu_copy,
                                         bus=self.copy_bus)
                        ctx.add("g", gd, c_dst * min(rate, drain))
                        self.fill_rate += max(rate - drain, 0.0)
                else:
                    rate = self.take(ctx, self.copy_cap, self.copy_uses, self.asap, core, self.cpu_copy,
                                     bus=self.copy_bus)
                s.limit = self.last_limit
                s.rate = rate
                ctx.add("core", core, self.cpu_copy * rate)
                self.bus_g(ctx, gs, rate)
                self.bus_g(ctx, gd, rate * self.dst_width / self.dst_data)
                total += rate
            elif s.tag == "exp":
                cost = self.exp_cost_u
                cpu_exp = self.cpu_exp
                if cache_path:
                    # the expansion writes through the write cache too (emc: 'affected by the cache
                    # settings'); a destination that cannot keep up fills it
                    drain = self.drain(ctx, cost)
                    if forced:
                        ctx.add("core", core, self.R.v("cache.forced_flush_cpu_pct"))
                        if drain < self.exp_cap:  # drive-limited: the cheaper write-around path
                            rate = self.take(ctx, self.exp_cap, self.exp_uses_lo, True)
                            cpu_exp = self.cpu_exp_lo
                        else:
                            rate = self.take(ctx, min(self.exp_cap, drain), self.exp_uses, True)
                    else:
                        rate = self.exp_cap
                        ctx.add("g", gd, cost * min(rate, drain))
                        self.fill_rate += max(rate - drain, 0.0)
                else:
                    uses = self.exp_uses
                    if self.asap and self.drain(ctx, cost) < self.exp_cap:
                        uses, cpu_exp = self.exp_uses_lo, self.cpu_exp_lo
                    rate = self.take(ctx, self.exp_cap, uses, self.asap)
                s.limit = self.last_limit
                s.rate = rate
                ctx.add("core", core, cpu_exp * rate)
                total += rate  # no bus bandwidth in the expansion (emc 'Migration duration')
        self.rate = total

    def build_fixed(self) -> Fixed | None:
        if self.cache_path:
            return None  # the write-cache path: not a plain take()
        f = Fixed()
        gs, gd, core = self.gs, self.gd, self.core
        for s in self.streams:
            if s.tag == "copy":
                p = f.take(s, self.copy_cap, self.copy_uses)
                p.add("core", core, self.cpu_copy * p.rate)
                for gi, mb in ((gs, p.rate), (gd, p.rate * self.dst_width / self.dst_data)):
                    self.bus_g(p, gi, mb)
            elif s.tag == "exp":
                p = f.take(s, self.exp_cap, self.exp_uses)
                p.add("core", core, self.cpu_exp * p.rate)
        return f

    def take_parts(self) -> Fixed | None:
        # the write-cache path has no fixed(), but its copy is a take() too (on the source only,
        # unless forced flushes are on): a source the host fills starves it at any priority
        if not self.cache_path:
            return self.fixed()
        forced = bool(self.sim.forced[self.ctrl])
        f = Fixed()
        for s in self.streams:
            if s.tag == "copy":
                f.take(s, self.copy_cap, self.copy_uses if forced else self.src_uses)
            elif s.tag == "exp" and forced:  # unforced, it runs at its cap whatever the drives
                f.take(s, self.exp_cap, self.exp_uses)
        return f

    def cache_full_in(self, tl: float) -> float:
        if not self.sim.forced[self.ctrl]:
            at = self.R.v("cache.forced_flush_at_pct") / 100.0 * self.sim.write_cache_mb
            left = max(at - float(self.sim.cache_fill[self.ctrl]), 0.0)  # a float: the clock follows it
            tl = min(tl, left / (self.fill_rate * 3600.0))
        return tl

    def fill_cache(self, dt_h: float) -> None:
        if not self.sim.forced[self.ctrl]:
            self.sim.cache_fill[self.ctrl] += self.fill_rate * dt_h * 3600.0

    def set_forced(self, on: bool) -> None:
        """Forced flushes on this op's SP start or stop; demand() reads the flag on the
        write-cache path, so every running migration on that path on that SP is placed again."""
        sim = self.sim
        if not on and self.ctrl in sim.host_forced:
            return  # the host's own writes keep the SP in forced flush (Sim.host_fill_advance)
        if bool(sim.forced[self.ctrl]) is not on:  # (a numpy bool compared with != costs ~1 us)
            sim.forced = sim.forced.copy()  # a new array: recorded steps keep theirs
            sim.forced[self.ctrl] = on
            sim.dirty_ops.update(self.ix.cache_path_migs.get(self.ctrl, ()))

    def maybe_finish_phase(self, t: float) -> None:
        wc = self.sim.write_cache_mb
        if self.fill_rate > 0 and not self.sim.forced[self.ctrl] and self.sim.ff_ms is not None:
            at = self.R.v("cache.forced_flush_at_pct") / 100.0 * wc
            if self.sim.cache_fill[self.ctrl] >= at - 1e-6:
                self.set_forced(True)
                self.sim.advise("warning", "forced-flush",
                                f"{self.event.id}: the destination cannot write as fast as the source reads; the "
                                f"write cache of {self.lay.ctrl_names[self.ctrl]} fills and forced flushes slow every "
                                "LUN on that SP. Set write-aside 511 on the destination or use High priority.",
                                self.event.id, "emc 'Best practices for migrations'")
        super().maybe_finish_phase(t)

    def on_stream_end(self, s: Stream, t: float) -> None:
        if s.tag == "copy":
            if not (self.exp_pending and self.asap and self.cached):
                self.set_forced(False)
                self.sim.cache_fill[self.ctrl] = self.sim.host_dirty[self.ctrl]  # (the host's dirty MB stay)
            self.fill_rate = 0.0
            if self.exp_pending:
                self.exp_pending = False
                self.begin("expansion", t, self.exp_mb, tag="exp")

    def finish(self, t: float) -> None:
        lay = self.lay
        self.on_stop()
        self.ix.move_lun(self.sim, self.src, self.gd)
        lay.l_cap[self.src] = lay.l_cap[self.dst]
        lay.l_live[self.dst] = False
        self.sim.invalidate(luns={self.src, self.dst})
        super().finish(t)

    def on_stop(self) -> None:
        """The write-cache state goes with the migration (finish, or stop when a group it works
        on lost its data: the source stays where it is, the destination unavailable)."""
        self.set_forced(False)
        self.sim.cache_fill[self.ctrl] = self.sim.host_dirty[self.ctrl]  # (the host's dirty MB stay)
        if self.cache_path and self in self.ix.cache_path_migs.get(self.ctrl, {}):
            del self.ix.cache_path_migs[self.ctrl][self]


# ====================================================================== rebuild / equalization
def full_speed(mu: float, full: float, uses: list[tuple[str, int, float]], cpu_coef: float) -> float:
    """A transfer's rate on idle drives and an idle core: its full-speed ceiling (tables, buses,
    engine), the drive time up to mu on each drive it uses, the whole core."""
    r0 = full
    for _, _, cost in uses:
        if cost > 0 and mu / cost < r0:
            r0 = mu / cost
    if cpu_coef > 0 and 100.0 / cpu_coef < r0:
        r0 = 100.0 / cpu_coef
    return r0


def rebuild_plan(sim: "Sim", gi: int, d: int, src: list[tuple[str, int, float]], dst: int, phase: str,
                 pol: Policy, cpu_key: str, where: str, advise: bool = True) -> tuple:
    """A rebuild or equalization transfer from the geometry (rebuild_model): drive uses
    [(kind, index, busy per MB/s)], the policy, the full-speed ceiling and its bus part, what
    sets the ceiling ("policy", "bus", "engine"), CPU % per MB/s, bus additions per MB/s."""
    lay, R = sim.lay, sim.R
    io = io_mb(R)
    rd = R.v("rebuild.disk.survivor_read") if R.has("rebuild.disk.survivor_read") else 1.0
    wr = R.v("rebuild.disk.spare_write") if R.has("rebuild.disk.spare_write") else 1.0
    uses: list[tuple[str, int, float]] = []
    n_read = 1
    for kind, i, _ in src:
        if kind == "g":
            n_read = max(int(lay.g_width[gi]) - 1, 1)  # the survivors, read row by row in lockstep
            cost = rd * read_cost(float(lay.g_seq[gi]), lay.drive_types[d].rpm, io, n_read)
        else:
            cost = rd * read_cost(float(lay.d_seq[i]), lay.drive_types[i].rpm, io, 1)
        uses.append((kind, i, cost))
    uses.append(("d", dst, wr * read_cost(float(lay.d_seq[dst]), lay.drive_types[dst].rpm, io, 1)))
    # each MB restored moves the reads and one write over the group's buses (hp 'Array size':
    # the N:1 inefficiency once the bus is the limit)
    nb = max(len(lay.g_buses[gi]), 1)
    bus_cap = sim.platform.bus_mb_s * nb / (n_read + 1)
    full, full_limit = INF, "policy"
    if pol.kind == "asap":  # full speed: the platform's measured idle-array rates, where it has them
        adv = sim.advise if advise else None
        full = table_ceiling(R, lay, gi, phase, d, where, (lambda sev, code, text, src_: sim.advise(
            sev, code, text, where, src_)) if adv is not None else None)
        if full < INF and advise:
            from .state import documented_class
            t = lay.drive_types[d]
            if not documented_class(t.interface, t.rpm):
                sim.advise("info", "nearest-drive-class",
                           f"{where}: the rebuild tables cover 15k/10k FC and SATA drives only; "
                           f"{t.name} uses the nearest class ({lay.speed_key_of(d) or '15k FC'})", where,
                           "emc 'Other factors affecting ASAP rebuild'")
    if bus_cap < full:
        full, full_limit = bus_cap, "bus"
    if R.has("rebuild.engine_mb_s"):
        eng = R.v("rebuild.engine_mb_s")
        if eng < full:
            full, full_limit = eng, "engine"
    cpu_coef = R.v(cpu_key) if R.has(cpu_key) else 0.0
    bus = [(kind, i, float(lay.g_width[i]) - 1 if kind == "g" else 1.0) for kind, i, _ in src] + [("d", dst, 1.0)]
    return uses, pol, full, bus_cap, full_limit, cpu_coef, bus


def rebuild_mb(lay: "Layout", gi: int) -> float:
    """MB a rebuild of group gi writes: a member's capacity times the group's allocated fraction.
    A Python float (from Python floats): the rebuild's phase times follow from it, and a numpy
    scalar there would make the clock (and every op's arithmetic after it) numpy scalars."""
    return lay.g_member_cap.item(gi) * 1024.0 * lay.group_allocated_frac(gi)


def idle_rebuild_hours(sim: "Sim", gi: int) -> float:
    """Rebuild time (no host load) at the platform's default priority, for MTTDL."""
    return rebuild_mb(sim.lay, gi) / RunIndex.of(sim).idle_rebuild_rate(sim, gi) / 3600.0


class Rebuild(Op):
    __slots__ = ("d", "gi", "ctrl", "core0", "mb", "replaced", "target", "spare", "res", "pols")
    spare: int | None  # the hot spare it rebuilds onto (None: onto the replacement)

    def start(self, t: float) -> bool:
        ev, lay, sim = self.event, self.lay, self.sim
        self.res: Any = None  # (target, resources()) of the current target
        d = lay.didx.get(ev.drive)
        if d is None:
            return False
        self.d = d
        self.gi = gi = lay.d_group.item(d)  # (.item(): see Migration.start)
        self.end_h = t  # (a failure that starts no rebuild ends when it happens)
        if sim.failed[d]:
            sim.advise("info", "already-failed",
                       f"{ev.id}: drive {ev.drive} has already failed and was not replaced; this failure "
                       "changes nothing", ev.id)
            return False
        sim.failed[d] = True
        sim.invalidate(topology=True, groups={gi})
        if gi < 0:
            # a hot spare (or a drive outside any group): it leaves the spare pool; a rebuild
            # writing onto it starts again on another spare or waits for its replacement
            for rb in [rb for rbs in sim.rebuild_of.values() for rb in rbs]:
                if rb.running and rb.target == d:
                    rb.target_failed(t)
            sim.advise("info", "spare-failed", f"{ev.id}: drive {ev.drive} is not in a RAID group"
                       + (" (a hot spare: it leaves the spare pool)" if bool(lay.d_spare.item(d)) else ""), ev.id)
            return False
        g = lay.groups[gi]
        # the level's policy per phase (UnknownLevel: the failure stands, its rebuild is not predicted)
        self.pols = {ph: self.policy("rebuild", ph) for ph in ("rebuild", "equalization")}
        self.asap = self.pols["rebuild"].kind == "asap"
        self.label = f"Rebuild drive {ev.drive} of {g.label} ({self.priority})"
        if gi in self.ix.lost:
            sim.advise("info", "lost-group-failure",
                       f"{ev.id}: {g.label} has lost its data already; the failure of {ev.drive} changes nothing",
                       ev.id)
            return False
        # a spare standing in for a member fails: the rebuild that put it there has nothing to
        # equalize from; this failure rebuilds the member's slot again
        for rb in [rb for rbs in sim.rebuild_of.values() for rb in rbs]:
            if rb.running and rb is not self and rb.spare == d:
                rb.stop(t, "spare failed")
        members = lay.g_members[gi].tolist()
        failed = sim.failed
        down = [k for k, m in enumerate(members) if failed[m]]  # failed or still being rebuilt
        if g.math.loses_data(down):
            self.lose_group(t, [lay.drive_locs[members[k]] for k in down])
            return False
        self.end_h = None
        self.asap_class = 1 if self.asap else 0
        first = self.ix.first_lun(lay, gi)  # the group's first LUN owns the rebuild (SP 0 when none)
        self.ctrl = lay.l_owner.item(first) if first >= 0 else 0
        self.core0 = lay.core_off.item(self.ctrl)
        self.mb = rebuild_mb(lay, gi)
        self.replaced = False
        self.target: Any = None
        self.spare = self.pick_spare(d)
        sim.rebuild_of.setdefault(ev.drive, []).append(self)  # for its replacement (Sim.fire)
        self.total_mb = self.mb * (2 if self.spare is not None else 1)
        self.touches = set(self.workloads_on_groups({gi}))
        if self.spare is not None:
            sim.spare_busy[self.spare] = True
            self.target = self.spare
            self.begin("rebuild", t, self.mb, tag="rebuild")
        else:
            sim.advise("warning", "no-hot-spare",
                       f"{ev.id}: no compatible hot spare for drive {ev.drive}; {g.label} runs degraded until the "
                       "drive is replaced, then rebuilds onto the replacement", ev.id,
                       "emc 'Rebuild overview'; hp 'Overview of the RAID 5 rebuild process'")
            self.begin("degraded", t, kind="wait", tag="wait_replace")
        self.asap_advice("rebuild")
        self.concurrent_advice(self.ctrl)
        pol = self.pols["rebuild"]
        if pol.kind == "idle_only" and self.host_busy():
            sim.advise("info", "low-priority-idle-only",
                       f"{ev.id}: at {self.priority} priority the rebuild runs only in the drives' idle time "
                       f"({pol.p('trickle_mb_s', 0.0):g} MB/s while host I/O contends); a busy host holds it back",
                       ev.id, pol.path)
        return True

    def lose_group(self, t: float, down: list[str]) -> None:
        """The group's data is lost (RaidMath.loses_data): no rebuild (there is nothing left to
        rebuild from), the operations on it stop, its LUNs get no host I/O for the rest of the
        plan (a replacement drive does not bring the data back: the group must be bound again
        and restored from a backup), and an error advisory names the group, LUNs and workloads."""
        lay, sim, ev, gi = self.lay, self.sim, self.event, self.gi
        g = lay.groups[gi]
        self.ix.lost.add(gi)
        self.stopped = True  # no rebuild: at 0%, not done
        self.label = f"Drive {ev.drive} fails: {g.label} loses its data"
        key = ("g", gi)
        for op in list(sim.active):
            if op is not self and op.running and key in op.resources():
                op.stop(t, "data lost")
        luns: list[int] = (lay.l_group == gi).nonzero()[0].tolist()
        lay.l_live[luns] = False
        sim.invalidate(luns=set(luns))
        on_g = self.ix.luns_on_groups(sim)[gi]
        ws = [self.ix.ids[w] for w in sorted(on_g)]
        self.touches = set(ws)
        lun_ids = ", ".join(str(lay.luns[l].id) for l in luns) or "none"
        sim.advise("error", "data-loss",
                   f"{ev.id}: {g.label} ({g.math.label}) loses its data at {t:g} h: drives {', '.join(down)} "
                   f"hold no valid data, more than a {g.raid.label} group survives"
                   + (" (both drives of a mirror pair)" if g.math.is_mirror else "")
                   + f". Lost LUNs: {lun_ids}; they get no I/O for the rest of the plan"
                   + (f" (workloads {', '.join(ws)})" if ws else "")
                   + "; a replacement does not bring the data back (bind again and restore from a backup)",
                   f"RG {g.id}", "hp 'Overview of the RAID 5 rebuild process'; docs/model.md 4.2")

    def target_failed(self, t: float) -> None:
        """The hot spare this rebuild writes onto failed: the rebuild starts again from the
        start on another free spare, or the group waits for the failed drive's replacement."""
        for s in list(self.streams):
            if s.tag == "rebuild":
                self.remove_stream(s)
                self.close(s, t, "rebuild (spare failed)")
        self.moved_mb = 0.0
        self.spare = self.pick_spare(self.d)
        self.target = self.spare
        self.sim.invalidate(topology=True, groups={self.gi})
        if self.spare is not None:
            self.sim.spare_busy[self.spare] = True
            self.begin("rebuild", t, self.mb, tag="rebuild")
        else:
            self.total_mb = self.mb
            self.begin("degraded", t, kind="wait", tag="wait_replace")

    def on_stop(self) -> None:
        """A stopped rebuild gives its spare back unless the spare stands in the group."""
        spare = self.spare
        if spare is not None and self.lay.d_group.item(spare) < 0:
            self.sim.spare_busy[spare] = False
        self.sim.writing[self.d] = False

    def pick_spare(self, d: int) -> int | None:
        """A free hot spare of the failed drive's interface and at least the group's member
        capacity, on the drive's bus if there is one."""
        lay, sim = self.lay, self.sim
        # the spares that fit are fixed per run; only which are free changes
        cands, by_bus = self.ix.spares_for(lay.drive_types[d].interface.value,
                                           float(lay.g_member_cap[self.gi]))
        failed, busy = sim.failed, sim.spare_busy
        for group in (by_bus.get(int(lay.d_bus[d]), ()), cands):
            for s in group:
                if not failed[s] and not busy[s]:
                    return s
        return None

    def partner(self) -> int | None:
        """The mirror partner of the failed drive: the member in the paired position of the
        group's current members (RaidMath.mirror_partner: 0-1, 2-3, ...; a spare standing in
        takes its drive's position)."""
        members = self.lay.g_members[self.gi].tolist()
        if self.d not in members:
            return None
        k = members.index(self.d)
        return members[self.lay.groups[self.gi].math.mirror_partner(k)]

    def sources(self, cost: float) -> list[tuple[str, int, float]]:
        if self.lay.g_mirror[self.gi]:
            p = self.partner()
            return [("d", p, cost / float(self.lay.d_seq[p]))] if p is not None else []
        return [("g", self.gi, cost / self.gseq(self.gi))]

    def on_replacement(self, ev, t: float) -> bool:
        if ev.drive != self.event.drive or self.end_h is not None:
            return False
        self.replaced = True
        for s in list(self.streams):
            if s.tag == "wait_replace":
                self.remove_stream(s)
                self.close(s, t)
                self.target = self.d
                self.sim.writing[self.d] = True
                # the drive is failed until rebuilt: the host load stays, only the drives' state changed
                self.sim.invalidate(topology=True, groups=())
                self.begin("rebuild", t, self.mb, tag="rebuild")
            elif s.tag == "wait_eq":
                self.remove_stream(s)
                self.close(s, t, "wait for replacement")
                self.begin("equalization", t, self.mb, tag="eq")
        return True

    def on_stream_end(self, s: Stream, t: float) -> None:
        lay, sim = self.lay, self.sim
        if s.tag == "rebuild":
            sim.rebuild_hours[lay.groups[self.gi].id] = t - s.start_h
            if self.spare is not None and self.target == self.spare:
                # the spare stands in for the failed drive: the group is whole again
                self.swap_in(self.spare, self.d)
                sim.invalidate(topology=True, groups={self.gi})
                if self.replaced:
                    self.begin("equalization", t, self.mb, tag="eq")
                else:
                    self.begin("wait for replacement", t, kind="wait", tag="wait_eq")
            else:
                sim.failed[self.d] = False
                sim.writing[self.d] = False
                sim.invalidate(topology=True, groups={self.gi})
        elif s.tag == "eq":  # the replacement takes the spare's place, the spare is free again
            spare = self.spare
            assert spare is not None  # (equalization follows a rebuild onto a spare)
            sim.spare_busy[spare] = False
            self.swap_in(self.d, spare)
            # the group was whole with the spare and is with the replacement: the host load stays
            sim.invalidate(topology=True, groups=())

    def swap_in(self, new: int, old: int) -> None:
        """Drive `new` (alive) replaces `old` in the group."""
        lay = self.lay
        gi = self.gi
        # a new array (Layout's are read-only views, recorded state keeps them), changed at old's
        # place: a copy and a scan of the few members, not np.where(m == old) (~14k instructions)
        m = lay.g_members[gi].copy()
        for k, x in enumerate(m.tolist()):
            if x == old:
                m[k] = new
        lay.g_members[gi] = m
        lay.d_group[old] = -1
        lay.d_group[new] = gi
        self.sim.failed[new] = False

    def resources(self) -> list[tuple[str, int]]:
        res: Any = self.res
        if res is None or res[0] != self.target:  # the target changes once, on the replacement
            drives = {self.d, self.spare, self.target, self.partner() if self.lay.g_mirror[self.gi] else None}
            buses = {b for b, _ in self.ix.bus_split(self.lay, self.gi)}
            buses.update(int(self.lay.d_bus[d]) for d in drives if d is not None)
            res = self.res = (self.target, [("g", self.gi)] + [("d", d) for d in drives if d is not None]
                              + [("core", self.core0)] + [("bus_x", b) for b in sorted(buses)])
        return res[1]

    def count_asap(self, ctx) -> None:
        if self.asap:
            for s in self.streams:
                if s.kind == "transfer":
                    if s.tag == "rebuild":
                        for kind, i, _ in self.sources(1.0):
                            ctx.count(kind, i)
                        ctx.count("d", self.target)
                    else:
                        ctx.count("d", self.spare)
                        ctx.count("d", self.d)

    def plan(self, s: Stream):
        """What a rebuild/equalization stream uses, fixed for the stream's life (its source and
        target drives are chosen before it begins; which of them are alive members, the
        placement reads at each step): (drive uses, policy, full-speed rate and what sets it,
        CPU % per MB/s, bus additions per MB/s)."""
        if s.plan is not None:
            return s.plan
        lay, R, sim = self.lay, self.R, self.sim
        phase = "equalization" if s.tag == "eq" else "rebuild"
        if s.tag == "rebuild":
            src = self.sources(1.0)
            dst = self.target
            mirror = bool(lay.g_mirror[self.gi])
            cpu_key = "rebuild.cpu.mirror" if mirror else "rebuild.cpu.parity"
        else:  # equalization: spare -> replacement
            spare = self.spare
            assert spare is not None
            src = [("d", spare, 1.0)]
            dst = self.d
            cpu_key = "rebuild.cpu.equalization"
        uses, pol, full, bus_cap, full_limit, cpu_coef, bus = rebuild_plan(
            sim, self.gi, self.d, src, dst, phase, self.pols[phase], cpu_key, self.event.id)
        s.plan = (uses, pol, full, bus_cap, full_limit, cpu_coef, self.ix.bus_coefs(lay, bus))
        s.bus_cap = bus_cap
        return s.plan

    def demand(self, ctx) -> None:
        self.rate = 0.0
        for s in self.streams:
            if s.kind != "transfer":
                continue
            uses, pol, full, bus_cap, full_limit, cpu_coef, bus = self.plan(s)
            rate = self.policy_rate(ctx, pol, full, full_limit, uses, cpu_coef, self.gi, bus)
            s.rate = rate
            s.limit = self.last_limit
            self.add_cpu_and_bus(ctx, rate, cpu_coef, bus)
            self.rate += rate

    def build_fixed(self) -> Fixed | None:
        f = Fixed()
        for s in self.streams:
            if s.kind != "transfer":
                continue
            uses, pol, full, bus_cap, full_limit, cpu_coef, bus = self.plan(s)
            if pol.kind not in ("cap", "asap"):
                return None  # shares, duty cycles, windows: not a plain take()
            cap = min(pol.p("mb_s", INF), full)
            p = f.take(s, cap, uses)
            self.add_cpu_and_bus(p, p.rate, cpu_coef, bus)
        return f

    def policy_rate(self, ctx, pol: Policy, full: float, full_limit: str, uses, cpu_coef: float, gi: int,
                    bus: list[tuple[int, float]] | None = None) -> float:
        """A transfer's rate under its level's policy (docs/model.md 4); self.last_limit names
        the centre that set it."""
        kind = pol.kind
        core = self.core0
        if kind == "cap" or kind == "asap":
            cap = min(pol.p("mb_s", INF), full)
            return self.take(ctx, cap, uses, kind == "asap", core, cpu_coef, full_limit if cap >= full else "policy",
                             bus)
        r0 = full_speed(ctx.max_util, full, uses, cpu_coef)
        lim0 = full_limit if r0 >= full else "drives"
        if kind == "duty_cycle":
            duty = pol.p("duty", 1.0)
            return self.take(ctx, duty * r0, uses, False, core, cpu_coef, "policy" if duty < 1.0 else lim0, bus)
        if kind == "window":
            cap = min(pol.p("max_mb_s", INF), r0)
            rate = self.take(ctx, cap, uses, False, core, cpu_coef, "policy" if cap < r0 else lim0, bus)
            lo = min(pol.p("min_mb_s", 0.0), r0)
            if rate < lo:  # guaranteed even under load: it pushes the host aside
                for kind_, i, cost in uses:
                    ctx.add(kind_, i, cost * (lo - rate))
                self.last_limit = "policy"
                rate = lo
            return rate
        # share / idle_only: the host contends for a fraction c of the time (Sim.host_occupancy);
        # the rest of the time the transfer runs at full speed in the drives' idle periods
        c = ctx.occ_g[gi]
        duty = pol.p("idle_duty", 1.0)
        idle = (1.0 - c) * duty * r0
        if kind == "share":
            pattern = "random" if ctx.host_random_g[gi] >= 0.5 else "sequential"
            f = pol.p("share_" + pattern, pol.p("share", 0.0))
            eff = pol.p("efficiency_" + pattern, pol.p("efficiency", 1.0))
            busy = c * f * eff * r0
            for kind_, i, cost in uses:
                ctx.add(kind_, i, idle * cost + c * f)
        else:  # idle_only
            busy = c * min(pol.p("trickle_mb_s", 0.0), r0)
            for kind_, i, cost in uses:
                ctx.add(kind_, i, (idle + busy) * cost)
        self.last_limit = "policy" if c > 0.5 or duty < 1.0 else lim0
        return idle + busy

    def add_cpu_and_bus(self, target, rate: float, cpu_coef: float, bus) -> None:
        """A transfer's CPU 0 and bus load at `rate`, added to the placement (Ctx) or to a cached
        Part: both take the same ("core" | "bus_g" | "bus_x", index, value) additions."""
        if rate > 0:
            if cpu_coef > 0:
                target.add("core", self.core0, cpu_coef * rate)
            for b, f in bus:
                target.add("bus_x", b, rate * f)

    def progress_pct(self) -> float:
        if self.end_h is not None and not self.stopped:
            return 100.0
        return min(self.moved_mb / max(self.total_mb, 1e-9) * 100.0, 100.0)


# ====================================================================== bind
class BindOp(Op):
    __slots__ = ("l", "gi", "ctrl", "core", "stripe_w", "stripe_d", "res", "zero_rate", "verify_rate", "verify_asap", "mb",
                 "bus")

    def start(self, t: float) -> bool:
        ev, lay, R, sim = self.event, self.lay, self.R, self.sim
        l = lay.lidx[ev.lun]
        self.l = l
        self.gi = lay.l_group.item(l)  # (.item(): see Migration.start)
        self.ctrl = lay.l_owner.item(l)
        self.core = lay.core_off.item(self.ctrl)
        # back-end MB/s per MB/s bound: full stripes (data + parity), as Python floats
        self.stripe_w, self.stripe_d = float(lay.g_width.item(self.gi)), float(max(lay.g_data.item(self.gi), 1))
        self.bus = self.ix.bus_coefs(lay, [("g", self.gi, self.stripe_w / self.stripe_d)])
        self.res = [("g", self.gi), ("core", self.core)] + [("bus_x", b) for b, _ in self.bus]  # resources()
        self.label = f"Bind LUN {ev.lun} (verify {self.priority}{', no initial verify' if ev.no_initial_verify else ''})"
        iface = lay.drive_types[lay.g_members[self.gi].item(0)].interface
        key = "SATA" if iface is Interface.SATA else "FC"
        if iface not in (Interface.SATA, Interface.FC):
            sim.advise("info", "nearest-rate", f"{ev.id}: EMC Table 8 has no {iface.value} row; used the FC row",
                       ev.id, "emc Table 8")
        self.zero_rate = R.v(f"bind.zeroing.{key}")
        pol = self.policy("bind", "verify", ("cap", "asap"))
        self.asap = pol.kind == "asap"
        self.asap_class = 1 if self.asap else 0
        rate_key = "sata_mb_s" if key == "SATA" and pol.has("sata_mb_s") else "mb_s"
        bind_rate = pol.p(rate_key, 0.0)
        # the verify's drive and CPU costs are calibrated at the platform's fastest (ASAP-class) level
        top = self.sim.platform.operations.get("bind")
        top_pol = policy_for(R, self.sim.platform, "bind", top.priorities[-1], "verify") if top else pol
        asap_bind = top_pol.p("sata_mb_s" if key == "SATA" and top_pol.has("sata_mb_s") else "mb_s", 0.0)
        if bind_rate <= 0.0 or asap_bind <= 0.0:
            raise MissingRate(f"[{pol.path}] has no bind rate (mb_s) for {key} drives")
        self.verify_rate = 1.0 / max(1.0 / bind_rate - 1.0 / self.zero_rate, 1e-9)
        self.verify_asap = 1.0 / max(1.0 / asap_bind - 1.0 / self.zero_rate, 1e-9)
        mb = float(lay.l_cap.item(l)) * 1024.0
        self.mb = mb
        self.total_mb = mb if ev.no_initial_verify else 2 * mb
        self.begin("zeroing", t, mb, tag="zero")
        self.touches = set(self.workloads_on_groups({self.gi}))
        self.asap_advice("bind verify")
        self.concurrent_advice(self.ctrl)
        return True

    def on_stream_end(self, s: Stream, t: float) -> None:
        if s.tag == "zero" and not self.event.no_initial_verify:
            self.begin("verify", t, self.mb, tag="verify")

    def resources(self) -> list[tuple[str, int]]:
        return self.res

    def count_asap(self, ctx) -> None:
        if self.asap:
            ctx.count("g", self.gi)

    def demand(self, ctx) -> None:
        R = self.R
        gi = self.gi
        self.rate = 0.0
        for s in self.streams:
            if s.tag == "zero":
                cost = R.v("bind.disk.zeroing_util") / self.zero_rate
                coef = R.v("bind.cpu.zeroing_pct") / self.zero_rate
                rate = self.take(ctx, self.zero_rate, [("g", gi, cost)], False, self.core, coef, bus=self.bus)
            else:
                cost = R.v("bind.disk.verify_util_at_asap") / self.verify_asap
                coef = R.v("bind.cpu.verify_pct_at_asap") / self.verify_asap
                rate = self.take(ctx, self.verify_rate, [("g", gi, cost)], self.asap, self.core, coef, bus=self.bus)
            self.cpu(ctx, self.ctrl, coef * rate)
            s.limit = self.last_limit
            s.rate = rate
            self.bus_g(ctx, gi, rate * self.stripe_w / self.stripe_d)
            self.rate += rate


    def build_fixed(self) -> Fixed | None:
        R, gi = self.R, self.gi
        f = Fixed()
        core = self.core
        for s in self.streams:
            if s.tag == "zero":
                cost = R.v("bind.disk.zeroing_util") / self.zero_rate
                p = f.take(s, self.zero_rate, [("g", gi, cost)])
                p.add("core", core, R.v("bind.cpu.zeroing_pct") * (p.rate / self.zero_rate))
            else:
                cost = R.v("bind.disk.verify_util_at_asap") / self.verify_asap
                p = f.take(s, self.verify_rate, [("g", gi, cost)])
                p.add("core", core, R.v("bind.cpu.verify_pct_at_asap") * p.rate / self.verify_asap)
            self.bus_g(p, gi, p.rate * self.stripe_w / self.stripe_d)
        return f


# ====================================================================== volume migration (Hitachi)
class VolumeMig(Op):
    asap_class = 1

    def start(self, t: float) -> bool:
        ev, lay, R, sim = self.event, self.lay, self.R, self.sim
        self._memo: dict = {}
        self.moves = []
        for pair in ev.moves:
            s, d = lay.lidx[pair[0]], lay.lidx[pair[1]]
            self.moves.append((pair[0], pair[1], s, d, int(lay.l_group[s]), int(lay.l_group[d])))
        # the level's policy: the copy keeps its array groups at most max_util busy
        self.max_util = self.policy("volume_migration", "copy", ("asap",)).p("max_util", sim.max_util)
        self.setup_h = R.v("migration.setup_s") / 3600.0
        if sim.wp_pct[int(lay.l_owner[self.moves[0][2]]) if self.moves else 0] > R.v("migration.write_pending_threshold_pct"):
            self.setup_h *= R.v("migration.write_pending_slowdown")  # hitachi Table 4: the whole migration slows
        self.verify = R.v("migration.sata_verify_factor")
        self.link = R.v("migration.external.link_mb_s")
        self.total_mb = sum(float(lay.l_cap[m[2]]) * 1024.0 for m in self.moves)
        self.label = (f"Volume migration of {len(self.moves)} volume(s) "
                      f"({'migration group' if ev.parallel else 'serial'})")
        self.ctrl = int(lay.l_owner[self.moves[0][2]]) if self.moves else 0
        self.queue = list(range(len(self.moves)))
        if ev.parallel:
            for k in self.queue:
                self.begin(f"set-up LUN {self.moves[k][0]}", t, kind="timed", dur_h=self.setup_h, tag=("setup", k))
            self.queue = []
        else:
            k = self.queue.pop(0)
            self.begin(f"set-up LUN {self.moves[k][0]}", t, kind="timed", dur_h=self.setup_h, tag=("setup", k))
        targets = [m[5] for m in self.moves]
        groups = {m[4] for m in self.moves} | set(targets)
        self.touches = set(self.workloads_on_groups(groups))
        for o in sim.active:
            if isinstance(o, VolumeMig):
                targets += [m[5] for m in o.moves]
        dup = {g for g in targets if targets.count(g) > 1}
        if dup and (ev.parallel or len(targets) > len(self.moves)):
            names = ", ".join(lay.groups[g].label for g in sorted(dup))
            sata = any(self.is_sata(g) for g in dup)
            sim.advise("warning", "concurrent-migrations-same-group",
                       f"{ev.id}: concurrent migrations target the same array group ({names}); they share its drives "
                       f"and take much longer{' (critical on SATA)' if sata else ''}", ev.id,
                       "hitachi 'Volume Configuration and Layout'; 'Important Note'")
        # said, not drawn as 0%: a reader of the CPU chart would take the flat line for a prediction
        sim.advise("info", "cpu-not-predicted",
                   f"{ev.id}: the controller CPU this migration uses is not predicted (the brief gives no CPU "
                   "figure for volume migration); the CPU chart shows the host load only", ev.id,
                   "hitachi brief (no CPU figure; docs/model.md 4.4)")
        if any(self.is_sata(m[5]) for m in self.moves):
            sim.advise("info", "sata-target",
                       f"{ev.id}: SATA target: verify-after-write adds a read to every write; allow for longer "
                       "migration times", ev.id, "hitachi 'Migration to SATA Volumes'")
        if (sim.wp_pct[self.ctrl]) > R.v("migration.write_pending_threshold_pct"):
            sim.advise("warning", "migration-high-write-pending",
                       f"{ev.id}: write pending is {sim.wp_pct[self.ctrl]:.0f}%; migrations run for extended times "
                       "when write pending is high", ev.id, "hitachi Table 4")
        return True

    def resources(self) -> list[tuple[str, int]]:
        return [("g", g) for mv in self.moves for g in (mv[4], mv[5])]

    def changed(self) -> None:
        # demand() counts the copies of every volume migration on a group: place them all again
        super().changed()
        self.sim.dirty_ops.update(o for o in self.sim.active if isinstance(o, VolumeMig))

    def is_sata(self, gi: int) -> bool:
        key = ("sata", gi)
        if key not in self._memo:
            self._memo[key] = any(self.lay.drive_types[d].interface is Interface.SATA for d in self.lay.g_members[gi])
        return self._memo[key]

    def is_external(self, gi: int) -> bool:
        key = ("ext", gi)
        if key not in self._memo:
            self._memo[key] = self._is_external(gi)
        return self._memo[key]

    def _is_external(self, gi: int) -> bool:
        proj = self.sim.project
        for d in self.lay.g_members[gi]:
            enc = proj.drives[self.lay.drive_locs[d]].enclosure
            try:
                e = proj.enclosure(enc)
            except KeyError:
                continue
            et = self.sim.platform.enclosure_types.get(e.type_id)
            text = f"{e.type_id} {et.name if et else ''}".lower()
            if "ams" in text or "external" in text or "ext-" in text:
                return True
        return False

    def tier(self, gi: int) -> str:
        if not self.is_external(gi):
            return "internal"
        return "ext_SATA" if self.is_sata(gi) else "ext_FC"

    def capacity(self, gi: int, write: bool, streams: int = 1) -> float:
        key = ("cap", gi, write, streams)
        if key not in self._memo:
            self._memo[key] = self._capacity(gi, write, streams)
        return self._memo[key]

    def _capacity(self, gi: int, write: bool, streams: int = 1) -> float:
        """Copy MB/s an array group sustains: member streaming rates x RAID efficiency x tier
        factor; SATA writes pay verify-after-write; concurrent streams writing to one group
        interfere (hitachi: 'if two destination volumes are on the same array group, migration
        will take much longer')."""
        lay, R = self.lay, self.R
        raid = lay.group_raid(gi).value
        table = "migration.write_eff" if write else "migration.read_eff"
        eff, note = R.keyed(table, raid, ["R1/0", "R5", "R6"])
        if note:
            self.sim.advise("info", "nearest-rate", f"{self.event.id}: {note}", self.event.id)
        tier_tab = "migration.tier_write" if write else "migration.tier_read"
        tf, note = R.keyed(tier_tab, self.tier(gi), ["internal", "ext_FC", "ext_SATA"])
        m = lay.g_members[gi]
        cap = float(lay.d_seq[m].sum()) * eff * tf
        if not write and lay.g_mirror[gi] and R.has(f"migration.mirror_read_sides.{self.tier(gi)}"):
            cap *= R.v(f"migration.mirror_read_sides.{self.tier(gi)}") / 2.0  # copies read from one or both sides
        if write and self.is_sata(gi):
            cap /= self.verify
        if streams > 1:
            key = "migration.write_interference" if write else "migration.read_interference"
            cap /= 1.0 + R.v(key) * (streams - 1)
        return cap

    def on_stream_end(self, s: Stream, t: float) -> None:
        kind, k = s.tag
        mv = self.moves[k]
        if kind == "setup":
            self.begin(f"copy LUN {mv[0]} -> LUN {mv[1]}", t, float(self.lay.l_cap[mv[2]]) * 1024.0, tag=("copy", k))
        else:
            lay = self.lay
            self.ix.move_lun(self.sim, mv[2], mv[5])
            lay.l_live[mv[3]] = False
            self.sim.invalidate()
            self.rewarm(mv[2], t)
            if self.queue:
                k2 = self.queue.pop(0)
                self.begin(f"set-up LUN {self.moves[k2][0]}", t, kind="timed", dur_h=self.setup_h, tag=("setup", k2))

    def rewarm(self, l: int, t: float) -> None:
        """After the pointer swap the cache entries are invalid; hits recover over rewarm_min."""
        lay = self.lay
        total_h = self.R.v("migration.rewarm_min") / 60.0
        steps = 4
        lay.l_hit_scale[l] = 0.0
        for i in range(1, steps + 1):
            def cb(_t, l=l, v=i / steps):
                lay.l_hit_scale[l] = v
                self.sim.invalidate()
            self.sim.add_timer(t + total_h * i / steps, cb)

    def demand(self, ctx) -> None:
        sim = self.sim
        copies = [s for s in self.streams if s.kind == "transfer"]
        self.rate = 0.0
        if not copies:
            return
        # count copies per resource (this and other volume migrations)
        load: dict[tuple, int] = {}
        all_copies = []
        for o in sim.active:
            if isinstance(o, VolumeMig):
                for s in o.streams:
                    if s.kind == "transfer":
                        mv = o.moves[s.tag[1]]
                        res = [("r", mv[4]), ("w", mv[5])]
                        if o.is_external(mv[4]) or o.is_external(mv[5]):
                            res.append(("link", 0))
                        all_copies.append((o, s, res))
                        for r_ in res:
                            load[r_] = load.get(r_, 0) + 1
        mu = min(self.max_util, ctx.max_util)
        slow = 1.0
        if sim.wp_pct[self.ctrl] > self.R.v("migration.write_pending_threshold_pct"):
            slow = self.R.v("migration.write_pending_slowdown")
        for o, s, res in all_copies:
            if o is not self:
                continue
            mv = self.moves[s.tag[1]]
            rates = []
            for kind, g in res:
                if kind == "link":
                    cap = self.link
                else:
                    cap = self.capacity(g, kind == "w", load[(kind, g)])
                    host = float(ctx.U_host_g[g])
                    cap *= max(mu - host, 0.0) / mu
                rates.append(cap / load[(kind, g)])
            rate = min(rates) / slow
            s.rate = rate
            lay = self.lay
            for kind, g in res:
                if kind == "link":
                    continue
                capg = self.capacity(g, kind == "w", load[(kind, g)]) / load[(kind, g)]
                ctx.add("g", g, min(rate / max(capg, 1e-9), 1.0) * mu / load[(kind, g)])
                # back-end traffic as for the EMC copy: the data read from the source group, full
                # stripes (data + parity) written to the destination
                self.bus_g(ctx, g, rate * (lay.g_width[g] / max(lay.g_data[g], 1) if kind == "w" else 1.0))
            self.rate += rate


# ====================================================================== WAFL reallocate
class ReallocateOp(Op):
    asap_class = 1

    def start(self, t: float) -> bool:
        ev, lay, R = self.event, self.lay, self.R
        self.l = lay.lidx[ev.lun]
        self.gi = int(lay.l_group[self.l])
        self.ctrl = int(lay.l_owner[self.l])
        self.label = f"WAFL reallocate LUN {ev.lun}"
        self.max_util = self.policy("reallocate", "reallocate", ("asap",)).p("max_util", self.sim.max_util)
        self.mb = float(lay.l_cap[self.l]) * 1024.0
        self.total_mb = self.mb
        self.begin("measure", t, kind="timed", dur_h=R.v("reallocate.measure_s") / 3600.0, tag="measure")
        self.touches = set(self.workloads_on_groups({self.gi}))
        return True

    def resources(self) -> list[tuple[str, int]]:
        return [("g", self.gi)]

    def on_stream_end(self, s: Stream, t: float) -> None:
        ev, lay = self.event, self.lay
        if s.tag == "measure":
            level = float(lay.l_opt[self.l])
            if level > ev.threshold and not ev.measure_only:
                self.sim.advise("info", "reallocate-advised",
                                f"{ev.id}: optimization {level:g} is above the threshold {ev.threshold:g}; "
                                "reallocate reads and rewrites the whole LUN (resource hungry)", ev.id,
                                "netapp post ('consider running reallocate')")
                self.begin("reallocate", t, self.mb, tag="realloc")
            elif level <= ev.threshold:
                self.sim.advise("info", "reallocate-not-needed",
                                f"{ev.id}: optimization {level:g} is within the threshold {ev.threshold:g}; "
                                "reallocate only measures the LUN (nothing is rewritten)", ev.id,
                                "netapp post ('consider running reallocate')")
        elif s.tag == "realloc":
            lay.l_opt[self.l] = self.R.v("reallocate.optimized_level")
            self.sim.invalidate()

    def demand(self, ctx) -> None:
        R, lay = self.R, self.lay
        self.rate = 0.0
        for s in self.streams:
            if s.tag != "realloc":
                continue
            target = R.v("reallocate.disk_util")  # the busy its read rate was measured at
            host = float(ctx.U_host_g[self.gi])
            free = max(min(self.max_util, ctx.max_util) - host, 0.0)
            rate = R.v("reallocate.read_mb_s_at_util") * free / target
            ctx.add("g", self.gi, free)
            ctx.add("core", int(lay.core_off[self.ctrl]), R.v("reallocate.cpu_pct") * (free / target))
            s.rate = rate
            self.rate += rate


# ====================================================================== feature enable
class FeatureOp(Op):
    def start(self, t: float) -> bool:
        ev, sim = self.event, self.sim
        spec = sim.platform.features.get(ev.feature)
        self.label = f"Enable {spec.name if spec else ev.feature}"
        minutes = spec.reboot_minutes if spec else 0.0
        if minutes > 0:
            sim.advise("warning", "feature-reboot",
                       f"{ev.id}: enabling {self.label[7:]} reboots all controllers ({minutes:g} min without host I/O); "
                       "plan accordingly", ev.id, spec.source if spec else "")
            sim.offline[:] = True
            sim.invalidate()
            self.begin("reboot", t, kind="timed", dur_h=minutes / 60.0, tag="reboot")
        else:
            self.enable(t)
            self.end_h = t
            return False
        self.check_benefit()
        return True

    def check_benefit(self) -> None:
        sim = self.sim
        caps = sim.ctrl_caps()
        if caps is None or "hpt" not in self.event.feature:
            return
        mb_lim, io_lim = caps
        lay = sim.lay
        P = sim.P
        if not P:
            return
        X = sim.X if len(sim.X) == P else np.zeros(P)
        ctrl = lay.l_owner[sim.p_l]
        kb = sim.w_kb[sim.p_w]
        io_c = np.bincount(ctrl, weights=X, minlength=len(lay.ctrl_names))
        mb_c = np.bincount(ctrl, weights=X * kb / 1024.0, minlength=len(lay.ctrl_names))
        if np.all(mb_c < mb_lim * 0.98) and np.all(io_c < io_lim * 0.98):
            sim.advise("info", "hpt-no-benefit",
                       f"{self.event.id}: the workload stays below the base controller limits; High Performance "
                       "Tier gives no benefit here", self.event.id, "dell 'Workload Dependencies'")

    def enable(self, t: float) -> None:
        self.sim.features[self.event.feature] = True

    def on_stream_end(self, s: Stream, t: float) -> None:
        self.sim.offline[:] = False
        self.sim.invalidate()
        self.enable(t)


OPS: dict[str, type[Op]] = {
    "LunMigration": Migration,
    "DriveFailure": Rebuild,
    "Bind": BindOp,
    "VolumeMigration": VolumeMig,
    "Reallocate": ReallocateOp,
    "FeatureEnable": FeatureOp,
}
