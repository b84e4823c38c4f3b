"""Feature enable: the measure-and-decide phases of enabling an array feature.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .op_base import Op

if TYPE_CHECKING:  # pragma: no cover
    from .op_streams import Stream


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
