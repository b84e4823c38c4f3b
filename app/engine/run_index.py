"""The run's look-up tables for operation starts (RunIndex), built once per run.
"""
from __future__ import annotations

from typing import Any, TYPE_CHECKING

import numpy as np

from app.domain.raid import RaidType

from .op_rebuild_plan import full_speed, rebuild_mb, rebuild_plan
from .op_streams import INF
from .policy import policy_for
from .protocols import SimView as Sim

if TYPE_CHECKING:  # pragma: no cover
    from .state import Layout


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
        self.cache_path_migs: dict[int, dict[Any, None]] = {}  # (of Migration: op_migration imports this module)
        self.first_l: list[int] | None = None  # first_lun per group (-2: to be found again)
        self.migration_rates: dict[tuple, tuple] = {}  # Migration.rates per (ASAP, mirror, cached, copy_cap)
        self.splits: dict[int, list[tuple[int, float]]] = {}  # bus_split per group
        self.lost: set[int] = set()  # groups whose data is lost (Rebuild.lose_group): no I/O, no rebuild
        self.full_rates: dict[tuple[int, str], tuple[Any, float, float]] = {}  # full_rebuild_rate per (group, level)
        self.shared_rates: dict[tuple, tuple[Any, float, float]] = {}  # the same per plan_shape
        # rebuild_mb per group at the end of the run (results.mttdl, then reliability)
        self.end_mb: dict[int, float] = {}
        self._shape_facts: tuple[list[bool], list[float], list[float], list[float]] | None = None

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
        pol, r0 = self.full_rebuild_rate(sim, gi, prio)
        kind = pol.kind
        if kind in ("cap", "asap"):
            return min(pol.p("mb_s", INF), r0)
        if kind == "duty_cycle":
            return pol.p("duty", 1.0) * r0
        if kind == "window":
            return min(pol.p("max_mb_s", INF), r0)
        return pol.p("idle_duty", 1.0) * r0

    def full_rebuild_rate(self, sim: "Sim", gi: int, level: str, busy: bool = False) -> tuple[Any, float]:
        """(the policy of a rebuild at `level`, its full-speed MB/s on group gi's free drives):
        the plan of a running rebuild onto a drive like the group's first member; busy: with
        other I/O on its drives (differs where the rates say the rebuild streams only on an
        idle array, rebuild.io.idle_streaming). Kept per (group, level) for the run: the end of
        a run asks it for the MTTDL (idle_rebuild_rate) and again for the reliability estimate
        (reliability._rate), ~10k instructions each."""
        key = (gi, level)
        hit = self.full_rates.get(key)
        if hit is None:
            # groups alike in everything the plan reads share it (the end of a run plans every
            # group; the 20 of emc-cx4-960-oltp have 2 plans between them)
            shape = self.plan_shape(sim.lay, gi, level, self.shape_facts(sim.lay))
            hit = self.shared_rates.get(shape) if shape is not None else None
            if hit is None:
                hit = self._full_rates(sim, gi, level)
                if shape is not None:
                    self.shared_rates[shape] = hit
            self.full_rates[key] = hit
        pol, idle, loaded = hit
        return pol, (loaded if busy else idle)

    def end_rebuild_mb(self, sim: "Sim", gi: int) -> float:
        """op_rebuild_plan.rebuild_mb of group gi, once per run: the MTTDL (results.mttdl) and
        the reliability estimate both ask it for every group at the end of a run."""
        mb = self.end_mb.get(gi)
        if mb is None:
            mb = self.end_mb[gi] = rebuild_mb(sim.lay, gi, sim.R)
        return mb

    def shape_facts(self, lay: "Layout") -> tuple[list[bool], list[float], list[float], list[float]]:
        """Layout's g_mirror, g_width, g_seq and d_seq as lists, for plan_shape: made at the
        first full_rebuild_rate, at the end of the run (per-element numpy indexing costs ~1k
        instructions a read)."""
        facts = self._shape_facts
        if facts is None:
            facts = self._shape_facts = (lay.g_mirror.tolist(), lay.g_width.tolist(), lay.g_seq.tolist(),
                                         lay.d_seq.tolist())
        return facts

    @staticmethod
    def plan_shape(lay: "Layout", gi: int, level: str,
                   facts: tuple[list[bool], list[float], list[float], list[float]]) -> tuple | None:
        """What _full_rates reads of group gi, None for a group whose plan is not shared (RAID
        50/60 and distributed groups: op_rebuild_geometry reads each survivor). A one-group plan
        (op_rebuild_plan.rebuild_plan with drive_uses, rebuild_model.table_ceiling) reads the
        level's policy, the RAID type, mirror or parity, the width, the group's sequential
        rate, its bus count and, of the first member (the rebuild's target and, for parity,
        whose rotation the survivors' reads wait for) and a mirror's partner (its source), the
        drive's interface, rpm and sequential rate; everything else it reads is the run's
        (rates, platform, max_util). tests/test_engine_rebuild_share.py plans every group of
        every example alone and compares."""
        raid = lay.groups[gi].raid
        # (RaidType.spanned / distributed by identity: an Enum property is a Python call)
        if raid is RaidType.R50 or raid is RaidType.R60 or raid is RaidType.DRAID6 or raid is RaidType.DDP:
            return None
        g_mirror, g_width, g_seq, d_seq = facts
        members = lay.g_members[gi]
        d = int(members[0])
        mirror = g_mirror[gi]
        src = int(members[1]) if mirror and len(members) > 1 else d
        t, ts = lay.drive_types[d], lay.drive_types[src]
        # (the Enums by id: their hash is a Python call; members are singletons)
        return (level, id(raid), mirror, g_width[gi], g_seq[gi], len(lay.g_buses[gi]),
                id(t.interface), t.rpm, d_seq[d], id(ts.interface), ts.rpm, d_seq[src])

    def _full_rates(self, sim: "Sim", gi: int, level: str) -> tuple[Any, float, float]:
        pol = sim.policies.get(("rebuild", level, "rebuild"))
        if pol is None:  # (Op.policy's cache)
            pol = sim.policies[("rebuild", level, "rebuild")] = policy_for(sim.R, sim.platform, "rebuild", level,
                                                                           "rebuild")
        lay = sim.lay
        members = lay.g_members[gi].tolist()
        d = int(members[0])
        mirror = bool(lay.g_mirror[gi])
        src = [("d", int(members[1]) if len(members) > 1 else d, 1.0)] if mirror else [("g", gi, 1.0)]
        uses, _, full, _, _, cpu_coef, _, idle_uses = rebuild_plan(
            sim, gi, d, src, d, "rebuild", pol, "rebuild.cpu.mirror" if mirror else "rebuild.cpu.parity", "",
            advise=False)
        return (pol, full_speed(sim.max_util, full, idle_uses, cpu_coef),
                full_speed(sim.max_util, full, uses, cpu_coef))

    def host_busy(self, sim: "Sim") -> bool:
        """Any workload offers I/O."""
        active = sim.w_running
        if active is not self.busy_src:
            self.busy_src, self.any_busy = active, bool(active.any())
        return self.any_busy
