"""Rebuild and equalization after a drive failure (Rebuild), and a group's rebuild time on idle
drives (idle_rebuild_hours).
"""
from __future__ import annotations

from typing import Any, TYPE_CHECKING

from .op_base import Op
from .op_policy import policy_rate
from .op_rebuild_geometry import add_member, critical_fraction, remove_member
from .op_rebuild_plan import rebuild_mb, rebuild_plan
from .op_streams import Fixed, INF
from .policy import Policy
from .protocols import SimView as Sim
from .run_index import RunIndex

if TYPE_CHECKING:  # pragma: no cover
    from .op_streams import Stream


def idle_rebuild_hours(sim: "Sim", gi: int) -> float:
    """Rebuild time (no host load) at the platform's default priority, for MTTDL."""
    return rebuild_mb(sim.lay, gi, sim.R) / RunIndex.of(sim).idle_rebuild_rate(sim, gi) / 3600.0


def other_io(ctx: Any, uses: list[tuple[str, int, float]]) -> bool:
    """Does the host, or an operation placed before, use any drive of `uses`? (md treats an
    array with any non-resync I/O on its members as busy: is_mddev_idle() in md.c.)"""
    for kind, i, _ in uses:
        if (ctx.used_g(i) if kind == "g" else ctx.used_d(i)) > 0.0:
            return True
    return False


class Rebuild(Op):
    __slots__ = ("d", "gi", "ctrl", "core0", "mb", "replaced", "target", "spare", "res", "pols", "distributed",
                 "critical_done", "rebuild_start")
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
        self.use_queue(self.pols["rebuild"])
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
        self.distributed = dist = g.raid.distributed
        self.critical_done = False
        # a distributed group's drive whose critical stripes were rebuilt first counts as restored
        # (op_rebuild_geometry.py): a third failure then finds no stripe with two pieces missing
        restored = self.critical_restored() if dist else set()
        down = [k for k, m in enumerate(members) if failed[m] and m not in restored]  # failed or still being rebuilt
        if lay.group_math(gi).loses_data(down):
            self.lose_group(t, [lay.drive_locs[members[k]] for k in down])
            return False
        self.end_h = None
        self.asap_class = 1 if self.asap else 0
        first = self.ix.first_lun(lay, gi)  # the group's first LUN owns the rebuild (SP 0 when none)
        self.ctrl = lay.l_owner.item(first) if first >= 0 else 0
        self.core0 = lay.core_off.item(self.ctrl)
        self.mb = rebuild_mb(lay, gi, self.R)
        self.replaced = False
        self.target: Any = None
        self.rebuild_start = t
        if dist:
            return self.start_distributed(t, len(down))
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

    def critical_restored(self) -> set[int]:
        """Drives of this group whose running rebuild has rebuilt its critical stripes."""
        return {rb.d for rbs in self.sim.rebuild_of.values() for rb in rbs
                if rb.running and rb is not self and rb.gi == self.gi and rb.critical_done}

    def start_distributed(self, t: float, n_down: int) -> bool:
        """A distributed group rebuilds into its spare capacity at once (no hot spare). With a
        second drive down and a platform that rebuilds critical stripes first (DDP), those
        stripes go first at the highest priority."""
        sim, ev, gi = self.sim, self.event, self.gi
        self.spare = None
        sim.rebuild_of.setdefault(ev.drive, []).append(self)
        self.total_mb = 2 * self.mb  # the rebuild, then the replacement's refill from the pool
        self.touches = set(self.workloads_on_groups({gi}))
        others = [rb for rbs in sim.rebuild_of.values() for rb in rbs
                  if rb.running and rb is not self and rb.gi == gi and rb.end_h is None]
        crit_first = self.R.has("rebuild.distributed.critical_first") and self.R.v("rebuild.distributed.critical_first") > 0
        if n_down >= 2 and crit_first and others:
            left = 1.0 - min(sum(rb.moved_mb for rb in others) / max(sum(rb.mb for rb in others), 1e-9), 1.0)
            crit_mb = self.mb * critical_fraction(self.lay.group_math(gi), left)
            levels = sim.platform.operations["drive_failure"].priorities
            from .policy import policy_for
            self.pols["critical"] = policy_for(self.R, sim.platform, "rebuild", levels[-1], "rebuild")
            sim.advise("info", "critical-reconstruction",
                       f"{ev.id}: two drives of {self.lay.groups[gi].label} are down; the {crit_mb / 1024:.1f} GB of "
                       f"stripes that lost a piece on both are rebuilt first at {levels[-1]}", ev.id,
                       "rebuild.distributed.critical_first")
            self.begin("critical reconstruction", t, crit_mb, tag="crit")
            self.mb -= crit_mb
            for rb in others:  # they wait while the critical stripes go first (demand)
                rb.changed()
        else:  # (critical_done stays False: only a finished critical phase makes a drive count as restored)
            self.begin("rebuild", t, self.mb, tag="rebuild")
        self.asap_advice("rebuild")
        self.concurrent_advice(self.ctrl)
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
        return members[self.lay.group_math(self.gi).mirror_partner(k)]

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
                if self.distributed:  # the new drive is written while the pool refills it
                    self.sim.writing[self.d] = True
                self.begin("equalization", t, self.mb, tag="eq")
        return True

    def on_stream_end(self, s: Stream, t: float) -> None:
        lay, sim = self.lay, self.sim
        if self.distributed:
            self.distributed_end(s, t)
            return
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

    def distributed_end(self, s: Stream, t: float) -> None:
        """A distributed group's phases: critical stripes, then the rest into the spare
        capacity (the drive leaves the pool: the group is whole without it), then the
        replacement's refill (it joins the pool again)."""
        lay, sim, gi = self.lay, self.sim, self.gi
        if s.tag == "crit":
            self.critical_done = True
            self.begin("rebuild", t, self.mb, tag="rebuild")
            for rb in self.group_rebuilds():
                rb.changed()
        elif s.tag == "rebuild":
            sim.rebuild_hours[lay.groups[gi].id] = t - self.rebuild_start
            remove_member(lay, gi, self.d)
            sim.invalidate(topology=True, groups={gi})
            if self.replaced:
                self.begin("equalization", t, self.mb, tag="eq")
            else:
                self.begin("wait for replacement", t, kind="wait", tag="wait_eq")
        elif s.tag == "eq":
            add_member(lay, gi, self.d)
            sim.failed[self.d] = False
            sim.writing[self.d] = False
            sim.invalidate(topology=True, groups={gi})

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
                    if self.distributed:
                        ctx.count("g", self.gi)
                        if s.tag == "eq":
                            ctx.count("d", self.d)
                    elif s.tag == "rebuild":
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
        if self.distributed:  # op_rebuild_geometry.py: reads and writes spread over the pool
            src, dst = [("g", self.gi, 1.0)], (self.d if s.tag == "eq" else None)
            cpu_key = "rebuild.cpu.equalization" if s.tag == "eq" else "rebuild.cpu.parity"
        elif s.tag == "rebuild":
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
        pol = self.pols["critical"] if s.tag == "crit" else self.pols[phase]
        uses, pol, full, bus_cap, full_limit, cpu_coef, bus, idle_uses = rebuild_plan(
            sim, self.gi, self.d, src, dst, phase, pol, cpu_key, self.event.id)
        s.plan = (uses, pol, full, bus_cap, full_limit, cpu_coef, self.ix.bus_coefs(lay, bus), idle_uses)
        s.bus_cap = bus_cap
        return s.plan

    def group_rebuilds(self) -> list["Rebuild"]:
        """The other running rebuilds of this op's (distributed) group."""
        return [rb for rbs in self.sim.rebuild_of.values() for rb in rbs
                if rb.running and rb is not self and rb.gi == self.gi]

    def held_by_critical(self) -> bool:
        """Another rebuild of the pool is rebuilding its critical stripes: they go first (the
        critical reconstruction priority preempts degraded reconstruction, tr4652)."""
        return any(s.tag == "crit" for rb in self.group_rebuilds() for s in rb.streams)

    def demand(self, ctx) -> None:
        self.rate = 0.0
        held = self.distributed and self.held_by_critical()
        for s in self.streams:
            if s.kind != "transfer":
                continue
            if held and s.tag != "crit":
                s.rate, s.limit = 0.0, "critical reconstruction first"
                continue
            uses, pol, full, bus_cap, full_limit, cpu_coef, bus, idle_uses = self.plan(s)
            floor_uses = None
            if idle_uses is not uses:  # rebuild.io.idle_streaming (md)
                if other_io(ctx, uses):
                    floor_uses = idle_uses  # throttled to lockstep rows, but not below the minimum
                else:
                    uses = idle_uses  # no other I/O on its drives: each member streams
            rate = self.policy_rate(ctx, pol, full, full_limit, uses, cpu_coef, self.gi, bus, floor_uses)
            s.rate = rate
            s.limit = self.last_limit
            self.add_cpu_and_bus(ctx, rate, cpu_coef, bus)
            self.rate += rate

    def build_fixed(self) -> Fixed | None:
        if self.distributed:
            return None  # its rate depends on the pool's other rebuilds (held_by_critical)
        f = Fixed()
        for s in self.streams:
            if s.kind != "transfer":
                continue
            uses, pol, full, bus_cap, full_limit, cpu_coef, bus, idle_uses = self.plan(s)
            if pol.kind not in ("cap", "asap") or pol.p("min_share", 0.0) > 0.0 or idle_uses is not uses:
                # shares, duty cycles, windows, guaranteed rates, a cost that follows the other
                # I/O (idle_streaming): not a plain take()
                return None
            cap = min(pol.p("mb_s", INF), full)
            p = f.take(s, cap, uses)
            self.add_cpu_and_bus(p, p.rate, cpu_coef, bus)
        return f

    def policy_rate(self, ctx, pol: Policy, full: float, full_limit: str, uses, cpu_coef: float, gi: int,
                    bus: list[tuple[int, float]] | None = None, floor_uses=None) -> float:
        """A transfer's rate under its level's policy (op_policy.policy_rate, docs/model.md 4);
        self.last_limit names the centre that set it."""
        return policy_rate(self, ctx, pol, full, full_limit, uses, cpu_coef, [gi], self.core0, bus,
                           floor_uses=floor_uses)

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
