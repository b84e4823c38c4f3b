"""Volume migration (Hitachi): a LUN's copy between tiers or to external storage.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from app.domain.hardware import Interface

from .op_base import Op
from .op_policy import require_table, scaled_rate
from .op_streams import RK_BITS

if TYPE_CHECKING:  # pragma: no cover
    from .op_streams import Stream


class VolumeMig(Op):
    asap_class = 1

    def start(self, t: float) -> bool:
        ev, lay, R, sim = self.event, self.lay, self.R, self.sim
        self._memo: dict = {}
        self.moves = []
        for pair in ev.moves:
            s, d = lay.lidx[pair[0]], lay.lidx[pair[1]]
            self.moves.append((pair[0], pair[1], s, d, int(lay.l_group[s]), int(lay.l_group[d])))
        # the level's policy (op_policy.scaled_rate): asap keeps its array groups at most max_util busy
        self.pol = require_table(self.policy("volume_migration", "copy"), "volume_migration")
        self.max_util = self.pol.p("max_util", sim.max_util)
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

    def others_busy(self, ctx, g: int) -> float:
        """Busy of group g's members that operations other than volume migrations, placed
        before this one, take (the volume migrations' copies divide the capacity by their count
        in demand(), so theirs is not subtracted again)."""
        by = ctx.by.get(g << RK_BITS)  # (RK_G)
        if not by:
            return 0.0
        return sum(v for o, v in by.items() if o.pos < ctx.pos and not isinstance(o, VolumeMig))

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
            idle_rates = []  # on idle drives (what duty_cycle, share, idle_only and window scale)
            busiest = -1  # the copy's group with the most host contention (share, idle_only)
            for kind, g in res:
                if kind == "link":
                    cap = self.link
                    idle_rates.append(cap / load[(kind, g)])
                else:
                    cap = self.capacity(g, kind == "w", load[(kind, g)])
                    idle_rates.append(cap / load[(kind, g)])
                    # the drive time the host and the other operations placed before leave (a
                    # rebuild on the group: on the host's time alone both took all of it, and the
                    # failure left the copy as fast); volume migrations share theirs by count
                    host = float(ctx.U_host_g[g])
                    cap *= max(mu - host - self.others_busy(ctx, g), 0.0) / mu
                    if busiest < 0 or ctx.occ_g[g] > ctx.occ_g[busiest]:
                        busiest = g
                rates.append(cap / load[(kind, g)])
            rate = min(rates) / slow
            if self.pol.kind != "asap":
                c = float(ctx.occ_g[busiest]) if busiest >= 0 else 0.0
                rnd = busiest >= 0 and bool(ctx.host_random_g[busiest] >= 0.5)
                rate = scaled_rate(self.pol, min(idle_rates) / slow, rate, c, rnd)
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
