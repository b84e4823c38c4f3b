"""The generic model of a LUN migration, bind, volume migration or WAFL-style reallocate, for a
platform whose rates do not calibrate that operation (none of its keys: app/domain/rate_keys.py
`calibrated`). The rebuild has its own generic path (op_rebuild_plan, policy.py).

Work per MB of LUN data, from the RAID geometry alone (docs/model.md 4.8), as drive time on each
member at the drive's streaming rate (seq_mb_s, presets/drives.toml):
- copy (LUN migration, volume migration): the source's members each read 1 / data MB; the
  destination's each write 1 / data MB, a full stripe of data and parity (or both mirror halves)
  per stripe of data: the target's write penalty for large sequential writes;
- expansion (a LUN migration to a larger destination): the extra capacity written the same way;
- bind: zeroing writes full stripes (1 / data MB per member), then the verify reads them back;
- reallocate: the volume's blocks read and rewritten (2 / data MB per member).
Each MB moves over the groups' buses as the drives see it (width / data written, 1 read); the
controller costs `host.cpu_us_per_io` per I/O of `rebuild.io.kb` (1 MB without it) on CPU 0 of
the owning SP, where the preset has it. Bind's zeroing runs at full speed on the drive time the
host leaves; every other phase follows the level's policy (op_policy.policy_rate: the platform's
[policy.<kind>] table if it has one, else each level a duty cycle of the full-speed rate). The
result is labelled generic (advisory `generic-model`): no document calibrates it.

Compiled with the other operation modules (native.MODULES): Op is a compiled class.
"""
from __future__ import annotations

from typing import Any, TYPE_CHECKING

from app.domain.rate_keys import calibrated

from .op_base import Op
from .op_policy import policy_rate
from .op_streams import INF
from .policy import generic_levels_note

if TYPE_CHECKING:  # pragma: no cover
    from .op_streams import Stream

# event kind -> the [policy.*] op kind and the phase whose policy paces it
_POLICY = {"lun_migration": ("migration", "copy"), "bind": ("bind", "verify"),
           "volume_migration": ("volume_migration", "copy"), "reallocate": ("reallocate", "reallocate")}


def needs_generic(R: Any, kind: str) -> bool:
    """A platform's rates without any key of this operation's calibration (check says so too)."""
    return kind in _POLICY and not calibrated(kind, R.has)


class GenericPhase:
    """One transfer of a generic operation: its drive time per MB/s on each group, bus MB/s per
    MB/s, CPU % per MB/s, its full-speed ceiling (the buses), whether the policy paces it and
    what its end does."""

    __slots__ = ("name", "mb", "uses", "bus", "cpu", "full", "paced", "groups", "end")

    def __init__(self, name: str, mb: float, uses, bus, cpu: float, full: float, paced: bool, end: tuple = ()):
        self.name, self.mb, self.uses, self.bus, self.cpu, self.full = name, mb, uses, bus, cpu, full
        self.paced, self.end = paced, end
        self.groups = [i for k, i, _ in uses if k == "g"]


class GenericOp(Op):
    def start(self, t: float) -> bool:
        ev, lay, sim = self.event, self.lay, self.sim
        op_kind, phase = _POLICY[ev.kind]
        what = ev.kind.replace("_", " ")
        pacing = (f"its [policy.{op_kind}] levels" if self.R.has(f"policy.{op_kind}") else
                  f"each level a duty cycle of the full-speed rate ({generic_levels_note(sim.platform, op_kind)})")
        # (before policy(): the first advisory of a code and object is the one kept)
        sim.advise("info", "generic-model",
                   f"{ev.id}: the {sim.platform.name} rates do not calibrate a {what}; the generic model predicts it "
                   "from the RAID geometry (reads on the source, full-stripe writes on the target), bounded by the "
                   f"drives, buses and controller and paced by {pacing}: advisory, no document measures it",
                   ev.id, "assumption: generic operation model (docs/model.md 4.8)")
        self.pol = self.policy(op_kind, phase)
        self.asap = self.pol.kind == "asap"
        self.asap_class = 1 if self.asap else 0
        self.use_queue(self.pol)
        io_mb = (self.R.v("rebuild.io.kb") if self.R.has("rebuild.io.kb") else 1024.0) / 1024.0
        self.cpu_per_io = (self.R.v("host.cpu_us_per_io") * 1e-4 / io_mb) if self.R.has("host.cpu_us_per_io") else 0.0
        self.pending: list[GenericPhase] = []
        parallel: list[GenericPhase] = []
        if ev.kind == "lun_migration":
            src, dst = lay.lidx[ev.source_lun], lay.lidx[ev.dest_lun]
            lun = src
            self.pending.append(self.copy("copy", src, dst, ("migrated", src, dst)))
            extra = (float(lay.l_cap.item(dst)) - float(lay.l_cap.item(src))) * 1024.0
            if extra > 0:  # copy, then expansion; the LUN moves when both are done
                expansion = self.writes("expansion", lay.l_group.item(dst), extra, 1.0, True)
                expansion.end, self.pending[0].end = self.pending[0].end, ()
                self.pending.append(expansion)
            lay.l_live[dst] = False  # the destination is not available during the migration
            sim.invalidate(luns={dst})
            self.label = f"Migrate LUN {ev.source_lun} -> LUN {ev.dest_lun} ({self.priority}, generic model)"
            groups = {lay.l_group.item(src), lay.l_group.item(dst)}
        elif ev.kind == "bind":
            lun = lay.lidx[ev.lun]
            gi = lay.l_group.item(lun)
            mb = float(lay.l_cap.item(lun)) * 1024.0
            self.pending.append(self.writes("zeroing", gi, mb, 1.0, False))
            if not ev.no_initial_verify:
                self.pending.append(self.verify_reads("verify", gi, mb))
            self.label = f"Bind LUN {ev.lun} (verify {self.priority}, generic model)"
            groups = {gi}
        elif ev.kind == "volume_migration":
            lun = lay.lidx[ev.moves[0][0]] if ev.moves else -1
            moves = [self.copy(f"copy LUN {a} -> LUN {b}", lay.lidx[a], lay.lidx[b],
                               ("moved", lay.lidx[a], lay.lidx[b])) for a, b in ev.moves]
            if ev.parallel:
                parallel = moves
            else:
                self.pending = moves
            self.label = f"Volume migration of {len(moves)} volume(s) ({self.priority}, generic model)"
            groups = {g for a, b in ev.moves for g in (lay.l_group.item(lay.lidx[a]), lay.l_group.item(lay.lidx[b]))}
        else:  # reallocate
            lun = lay.lidx[ev.lun]
            gi = lay.l_group.item(lun)
            self.label = f"Reallocate LUN {ev.lun} ({self.priority}, generic model)"
            groups = {gi}
            level = float(lay.l_opt.item(lun))
            if ev.measure_only or level <= ev.threshold:
                sim.advise("info", "reallocate-not-needed",
                           f"{ev.id}: optimization {level:g} is within the threshold {ev.threshold:g} (or measure "
                           "only); nothing is rewritten", ev.id)
                self.end_h = t
                return False
            ph = self.writes("reallocate", gi, float(lay.l_cap.item(lun)) * 1024.0, 2.0, True)
            ph.end = ("reallocated", lun)
            self.pending.append(ph)
        self.ctrl = lay.l_owner.item(lun) if lun >= 0 else 0
        self.core = lay.core_off.item(self.ctrl)
        self.res = [("g", g) for g in sorted(groups)] + [("core", self.core)] + sorted(
            {("bus_x", b) for ph in self.pending + parallel for b, _ in ph.bus})
        self.total_mb = sum(ph.mb for ph in self.pending + parallel)
        self.touches = set(self.workloads_on_groups(groups))
        for ph in parallel:
            self.begin(ph.name, t, ph.mb, tag=ph)
        if self.pending:
            ph = self.pending.pop(0)
            self.begin(ph.name, t, ph.mb, tag=ph)
        self.asap_advice(what)
        self.concurrent_advice(self.ctrl)
        return True

    # ---- the work per MB, from the geometry
    def member_cost(self, gi: int, mb_per_member: float) -> float:
        """Drive seconds on each member per MB/s when each moves mb_per_member MB per MB."""
        return mb_per_member / float(self.lay.g_seq[gi])

    def phase(self, name: str, parts: list[tuple[int, float, float]], paced: bool, end: tuple = ()) -> GenericPhase:
        """parts: (group, MB each member moves per MB, MB over the group's buses per MB)."""
        costs: dict[int, float] = {}
        for gi, per_member, _ in parts:
            costs[gi] = costs.get(gi, 0.0) + self.member_cost(gi, per_member)
        uses = [("g", gi, c) for gi, c in costs.items()]
        bus = self.ix.bus_coefs(self.lay, [("g", gi, on_bus) for gi, _, on_bus in parts])
        bus_mb_s = self.sim.platform.bus_mb_s
        full = min((bus_mb_s / f for _, f in bus if f > 0), default=INF)
        ios = sum(on_bus for _, _, on_bus in parts)  # MB the drives move per MB, in I/Os of io_mb
        return GenericPhase(name, 0.0, uses, bus, self.cpu_per_io * ios, full, paced, end)

    def data(self, gi: int) -> float:
        return max(float(self.lay.g_data.item(gi)), 1.0)

    def stripe(self, gi: int) -> float:
        return float(self.lay.g_width.item(gi)) / self.data(gi)

    def copy(self, name: str, src: int, dst: int, end: tuple) -> GenericPhase:
        gs, gd = self.lay.l_group.item(src), self.lay.l_group.item(dst)
        ph = self.phase(name, [(gs, 1.0 / self.data(gs), 1.0), (gd, 1.0 / self.data(gd), self.stripe(gd))], True, end)
        ph.mb = float(self.lay.l_cap.item(src)) * 1024.0
        return ph

    def writes(self, name: str, gi: int, mb: float, passes: float, paced: bool) -> GenericPhase:
        """Full stripes written (passes 2: read and rewritten) on every member of gi."""
        ph = self.phase(name, [(gi, passes / self.data(gi), passes * self.stripe(gi))], paced)
        ph.mb = mb
        return ph

    def verify_reads(self, name: str, gi: int, mb: float) -> GenericPhase:
        ph = self.phase(name, [(gi, 1.0 / self.data(gi), self.stripe(gi))], True)
        ph.mb = mb
        return ph

    # ---- placement
    def resources(self) -> list[tuple[str, int]]:
        return self.res

    def count_asap(self, ctx) -> None:
        if self.asap:
            for s in self.streams:
                if s.kind == "transfer" and s.tag.paced:
                    for g in s.tag.groups:
                        ctx.count("g", g)
                    ctx.count("core", self.core)

    def demand(self, ctx) -> None:
        self.rate = 0.0
        for s in self.streams:
            if s.kind != "transfer":
                continue
            ph: GenericPhase = s.tag
            cpu = ph.cpu if self.cpu_per_io > 0 else 0.0
            if ph.paced:
                rate = policy_rate(self, ctx, self.pol, ph.full, "bus", ph.uses, cpu, ph.groups, self.core, ph.bus)
            else:  # bind's zeroing: at full speed on what the host and the others leave
                rate = self.take(ctx, ph.full, ph.uses, False, self.core, cpu, "bus", ph.bus)
            s.rate, s.limit = rate, self.last_limit
            if rate > 0:
                if cpu > 0:
                    ctx.add("core", self.core, cpu * rate)
                for b, f in ph.bus:
                    ctx.add("bus_x", b, rate * f)
            self.rate += rate

    def build_fixed(self):
        return None  # its rates go through policy_rate: placed by demand()

    # ---- phase ends
    def on_stream_end(self, s: "Stream", t: float) -> None:
        ph: GenericPhase = s.tag
        lay, sim = self.lay, self.sim
        if ph.end and ph.end[0] in ("migrated", "moved"):
            _, src, dst = ph.end
            self.ix.move_lun(sim, src, lay.l_group.item(dst))
            if ph.end[0] == "migrated":
                lay.l_cap[src] = lay.l_cap[dst]
            lay.l_live[dst] = False
            sim.invalidate(luns={src, dst})
        elif ph.end and ph.end[0] == "reallocated":
            lay.l_opt[ph.end[1]] = 1.0
            sim.invalidate()
        if self.pending:
            nxt = self.pending.pop(0)
            self.begin(nxt.name, t, nxt.mb, tag=nxt)
