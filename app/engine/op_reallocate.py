"""WAFL reallocate (NetApp): `reallocate measure`, then a read-and-rewrite scan of the LUN.

The scan's cost is measured, not derived: `reallocate.read_mb_s_at_util` MB/s of reads with the
drives `reallocate.disk_util` busy, so one MB/s costs disk_util / read_mb_s_at_util of the
group's drive time (and the CPU in proportion). Its level's policy paces it like any other
operation (op_policy.scaled_rate): asap takes the drive time the host leaves up to its
`max_util`; cap, duty_cycle, window, share and idle_only scale the rate on idle drives.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .op_base import Op
from .op_policy import require_table, scaled_rate

if TYPE_CHECKING:  # pragma: no cover
    from .op_streams import Stream


class ReallocateOp(Op):
    asap_class = 1

    def start(self, t: float) -> bool:
        ev, lay, R = self.event, self.lay, self.R
        self.l = lay.lidx[ev.lun]
        self.gi = int(lay.l_group[self.l])
        self.ctrl = int(lay.l_owner[self.l])
        self.label = f"WAFL reallocate LUN {ev.lun}"
        self.pol = require_table(self.policy("reallocate", "reallocate"), "reallocate")
        self.asap = self.pol.kind == "asap"
        self.asap_class = 1 if self.asap else 0  # an economical scan is placed before the ASAP class
        self.max_util = self.pol.p("max_util", self.sim.max_util)
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
            busy_at = R.v("reallocate.disk_util")  # the busy its read rate was measured at
            mb_s_per_busy = R.v("reallocate.read_mb_s_at_util") / busy_at
            mu = min(self.max_util, ctx.max_util)
            host = float(ctx.U_host_g[self.gi])
            # what asap takes: the drive time the host and the operations placed before leave
            # (a rebuild on the group too: on the host's time alone the two took 125% of it)
            free_rate = mb_s_per_busy * max(min(mu - host, ctx.free_g(self.gi)), 0.0)
            idle_rate = mb_s_per_busy * mu  # full speed on idle drives (what the other kinds scale)
            rate = scaled_rate(self.pol, idle_rate, free_rate, float(ctx.occ_g[self.gi]),
                               bool(ctx.host_random_g[self.gi] >= 0.5))
            busy = rate / mb_s_per_busy
            # the drives (host load, max_util) set it, or the policy held it below them (or, a
            # window's floor, pushed the host aside)
            at_drives = abs(rate - free_rate) <= 1e-9 * max(free_rate, 1.0)
            s.limit = self.centre("g", self.gi) if at_drives else "policy"
            ctx.add("g", self.gi, busy)
            ctx.add("core", int(lay.core_off[self.ctrl]), R.v("reallocate.cpu_pct") * (busy / busy_at))
            s.rate = rate
            self.rate += rate
