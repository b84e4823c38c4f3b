"""LUN migration (EMC): a copy phase into the destination, then the expansion.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .op_base import Op
from .op_policy import floor_of, policy_rate, require_table
from .op_streams import Fixed, INF
from .write_cost import partial_stripe_factor

if TYPE_CHECKING:  # pragma: no cover
    from .op_streams import Stream


class Migration(Op):
    __slots__ = ("src", "dst", "gs", "gd", "ctrl", "core", "copy_cap", "exp_cap", "cached", "cache_path", "cpu_copy",
                 "cpu_exp", "exp_cost_u", "c_src", "c_dst", "copy_uses", "src_uses", "exp_uses", "res", "dst_width",
                 "dst_data", "copy_mb", "exp_mb", "exp_pending", "exp_uses_lo", "exp_cost_lo", "cpu_exp_lo", "copy_bus",
                 "pol", "pol_exp", "throttled", "share_copy", "share_exp", "copy_dirty", "destage_rate", "dst_uses")

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
        pol = self.pol = require_table(self.policy("migration", "copy"), "migration")
        self.pol_exp = self.policy("migration", "expansion")
        self.asap = pol.kind == "asap"
        # a cap or asap level's share of the drive time kept against the host (docs/model.md 4.0)
        self.share_copy, self.share_exp = floor_of(pol), floor_of(self.pol_exp)
        # duty_cycle / window / share / idle_only: op_policy.policy_rate scales the full-speed rate
        # (the drives, CPU and buses alone); cap and asap keep their own paths below
        self.throttled = pol.kind not in ("cap", "asap")
        self.asap_class = 1 if self.asap else 0
        self.use_queue(pol)
        self.label = f"Migrate LUN {ev.source_lun} -> LUN {ev.dest_lun} ({self.priority})"
        self.copy_cap = INF if self.throttled else pol.p("mirror_mb_s" if mirror and pol.has("mirror_mb_s") else "mb_s", INF)
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
        if self.throttled:
            # the expansion follows the copy (as at ASAP): an overlapped one would compete with the
            # copy for the destination's drive time, so a faster copy could end the migration later
            overlap = False
            # the expansion's full speed: the measured write-around (uncached) rate
            self.exp_cap = R.v("migration.expansion.mirror" if mirror else (
                "migration.expansion.parity_write_aside_511" if R.has("migration.expansion.parity_write_aside_511")
                else "migration.expansion.parity"))
        # busy per MB/s copied on each source / destination member
        self.c_src = copy_read / (self.gseq(self.gs) * float(lay.g_data.item(self.gs)))
        # (the destination's partial-stripe writes pay its write penalty: write_cost.py)
        copy_write = partial_stripe_factor(R, lay, self.gd, copy_write)
        self.c_dst = copy_write / (self.gseq(self.gd) * float(lay.g_data.item(self.gd)))
        # what demand() and build_fixed() read at every placement, as plain Python values
        self.core = lay.core_off.item(self.ctrl)
        self.copy_uses = [("g", self.gs, self.c_src), ("g", self.gd, self.c_dst)]
        self.dst_width, self.dst_data = float(lay.g_width.item(self.gd)), float(lay.g_data.item(self.gd))
        self.src_uses = self.copy_uses[:1]  # the write-cache path takes only the source's drive time
        self.dst_uses = self.copy_uses[1:]  # destaging the copy's writes left in the cache
        self.copy_dirty = self.destage_rate = 0.0
        self.exp_uses = [("g", self.gd, self.exp_cost_u)]
        # the write-around expansion (what the economical levels and write-aside 511 use) costs
        # the drives less per MB; an ASAP expansion whose drives are the limit sends a share of
        # its writes that way (expansion_blend), so a higher priority never expands slower than a
        # lower one (docs/model.md 4.1)
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
                        # (take() on copy_uses holds it to the destination's drain, as drain() does;
                        # a kept share is not capped by what the host leaves)
                        rate = self.take(ctx, self.copy_cap, self.copy_uses, True, core, self.cpu_copy,
                                         bus=self.copy_bus, min_share=self.share_copy)
                    else:
                        rate = self.take(ctx, self.copy_cap, self.src_uses, True, core, self.cpu_copy,
                                         bus=self.copy_bus, min_share=self.share_copy)
                        ctx.add("g", gd, c_dst * min(rate, drain))
                        self.fill_rate += max(rate - drain, 0.0)
                elif self.throttled:
                    rate = policy_rate(self, ctx, self.pol, INF, "policy", self.copy_uses, self.cpu_copy, [gs, gd],
                                       core, self.copy_bus)
                else:
                    rate = self.take(ctx, self.copy_cap, self.copy_uses, self.asap, core, self.cpu_copy,
                                     bus=self.copy_bus, min_share=self.share_copy)
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
                        self.destage_rate = 0.0
                        if self.copy_dirty > 0.0:
                            # the cache is full of the copy's writes: each MB the drives destage
                            # (at the copy's cost) makes room for an expansion MB, so the expansion
                            # runs at that rate until they are out; without it a copy that filled
                            # the cache left the expansion less of it than one that did not, and a
                            # slower copy (a failed source drive) ended the migration earlier
                            rate = self.take(ctx, self.exp_cap, self.dst_uses, True, min_share=self.share_exp)
                            self.destage_rate = rate
                        else:  # the share the cache absorbs follows the drives' headroom
                            uses, cpu_exp = self.expansion_blend(ctx)
                            rate = self.take(ctx, self.exp_cap, uses, True, min_share=self.share_exp)
                    else:
                        rate = self.exp_cap
                        ctx.add("g", gd, cost * min(rate, drain))
                        self.fill_rate += max(rate - drain, 0.0)
                elif self.throttled:
                    rate = policy_rate(self, ctx, self.pol_exp, self.exp_cap, "policy", self.exp_uses, 0.0, [gd], -1)
                else:
                    uses = self.exp_uses
                    if self.asap:
                        uses, cpu_exp = self.expansion_blend(ctx)
                    rate = self.take(ctx, self.exp_cap, uses, self.asap, min_share=self.share_exp)
                s.limit = self.last_limit
                s.rate = rate
                ctx.add("core", core, cpu_exp * rate)
                total += rate  # no bus bandwidth in the expansion (emc 'Migration duration')
        self.rate = total

    def expansion_blend(self, ctx) -> tuple[list[tuple[str, int, float]], float]:
        """The ASAP expansion's drive cost and CPU per MB/s where the destination's drives are
        the limit: the share of its writes the write cache absorbs (at the cached cost, exp_cost_u)
        follows the drive time the host and the other phases leave (F per member); the rest goes
        around the cache at the cheaper write-around cost (exp_cost_lo). All cached while
        F >= cap x cost_u, none once F <= cap x cost_lo, and in between the cached share that
        fills F exactly at the cap: the drive time the expansion takes is min(cap x cost_u, F),
        continuous and never more where the host asks more. (An all-or-nothing switch at
        F = cap x cost_u dropped the expansion's drive time by cost_lo/cost_u at once, so a
        heavier host load answered faster: issue 20.)"""
        cu, clo = self.exp_cost_u, self.exp_cost_lo
        cap = self.exp_cap
        if clo >= cu or not (cap < INF):
            return self.exp_uses, self.cpu_exp
        free = ctx.free_g(self.gd) / max(ctx.asap_g[self.gd], 1)
        if free >= cap * cu:
            return self.exp_uses, self.cpu_exp
        if free <= cap * clo:
            return self.exp_uses_lo, self.cpu_exp_lo
        cached = (free - cap * clo) / (cap * (cu - clo))  # share of the expansion's MB cached
        cost = clo + cached * (cu - clo)
        return [("g", self.gd, cost)], self.cpu_exp_lo + cached * (self.cpu_exp - self.cpu_exp_lo)

    def build_fixed(self) -> Fixed | None:
        if self.cache_path or self.throttled or self.share_copy > 0.0 or self.share_exp > 0.0:
            return None  # the write-cache path, shares, duty cycles, windows, kept shares: not a plain take()
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
        if self.share_copy > 0.0 or self.share_exp > 0.0:
            return None  # its level keeps a share of the drive time: the host never starves it
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

    def time_left(self) -> float:
        tl = super().time_left()
        if self.destage_rate > 1e-9:  # the copy's writes out of the cache: the expansion slows
            tl = min(tl, self.copy_dirty / (self.destage_rate * 3600.0))
        return tl

    def advance(self, dt_h: float, t: float) -> None:
        super().advance(dt_h, t)
        if self.destage_rate > 0.0:
            self.copy_dirty = max(self.copy_dirty - self.destage_rate * dt_h * 3600.0, 0.0)

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
            return  # the host's own writes keep the SP in forced flush (host_model.host_fill_advance)
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
        if self.destage_rate > 0.0 and self.copy_dirty <= 1e-6:
            self.copy_dirty = self.destage_rate = 0.0
            self.changed()  # placed again: the expansion now waits for its own writes' destage
        super().maybe_finish_phase(t)

    def on_stream_end(self, s: Stream, t: float) -> None:
        if s.tag == "copy":
            if not (self.exp_pending and self.asap and self.cached):
                self.set_forced(False)
                self.sim.cache_fill[self.ctrl] = self.sim.host_dirty[self.ctrl]  # (the host's dirty MB stay)
            elif self.exp_pending and self.cache_path and self.sim.forced[self.ctrl]:
                # the copy's writes still in the cache, which the expansion's wait for (demand)
                self.copy_dirty = max(float(self.sim.cache_fill[self.ctrl]) - self.sim.host_dirty[self.ctrl], 0.0)
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
