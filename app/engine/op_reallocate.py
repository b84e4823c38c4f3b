"""WAFL reallocate (NetApp).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .op_base import Op

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
