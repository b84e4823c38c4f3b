"""Bind: zeroing a new LUN, then its background verify.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from app.domain.hardware import Interface

from .op_base import Op
from .op_policy import policy_rate, require_table
from .op_streams import Fixed
from .policy import policy_for
from .rates import MissingRate
from .write_cost import full_stripe

if TYPE_CHECKING:  # pragma: no cover
    from .op_streams import Stream


class BindOp(Op):
    __slots__ = ("l", "gi", "ctrl", "core", "stripe_w", "stripe_d", "res", "zero_rate", "verify_rate", "verify_asap", "mb",
                 "bus", "pol", "verify_cost", "verify_cpu")

    def start(self, t: float) -> bool:
        ev, lay, R, sim = self.event, self.lay, self.R, self.sim
        l = lay.lidx[ev.lun]
        self.l = l
        self.gi = lay.l_group.item(l)  # (.item(): see Migration.start)
        self.ctrl = lay.l_owner.item(l)
        self.core = lay.core_off.item(self.ctrl)
        # back-end MB/s per MB/s bound: full stripes (data + parity), as Python floats
        self.stripe_w, self.stripe_d = float(lay.g_width.item(self.gi)), float(max(lay.g_data.item(self.gi), 1))
        self.bus = self.ix.bus_coefs(lay, [("g", self.gi, full_stripe(lay, self.gi))])
        self.res = [("g", self.gi), ("core", self.core)] + [("bus_x", b) for b, _ in self.bus]  # resources()
        self.label = f"Bind LUN {ev.lun} (verify {self.priority}{', no initial verify' if ev.no_initial_verify else ''})"
        iface = lay.drive_types[lay.g_members[self.gi].item(0)].interface
        key = "SATA" if iface is Interface.SATA else "FC"
        if iface not in (Interface.SATA, Interface.FC):
            sim.advise("info", "nearest-rate", f"{ev.id}: EMC Table 8 has no {iface.value} row; used the FC row",
                       ev.id, "emc Table 8")
        self.zero_rate = R.v(f"bind.zeroing.{key}")
        pol = self.pol = require_table(self.policy("bind", "verify"), "bind")
        self.asap = pol.kind == "asap"
        self.asap_class = 1 if self.asap else 0
        self.use_queue(pol)
        rate_key = "sata_mb_s" if key == "SATA" and pol.has("sata_mb_s") else "mb_s"
        # cap / asap: mb_s is the whole bind's average (emc Table 8), the verify runs at the rate
        # that keeps it; the other kinds (op_policy.policy_rate) scale the verify's full speed
        bind_rate = pol.p(rate_key, 0.0) if pol.kind in ("cap", "asap") else 1.0
        # the verify's drive and CPU costs are calibrated at the platform's fastest (ASAP-class) level
        top = self.sim.platform.operations.get("bind")
        top_pol = pol
        if top:  # (resolved once a run, in the run's memo of Op.policy: ~30 k instructions a bind)
            top_key = ("bind", top.priorities[-1], "verify")
            top_pol = self.sim.policies.get(top_key)
            if top_pol is None:
                top_pol = self.sim.policies[top_key] = policy_for(R, self.sim.platform, "bind", top.priorities[-1],
                                                                  "verify")
        asap_bind = top_pol.p("sata_mb_s" if key == "SATA" and top_pol.has("sata_mb_s") else "mb_s", 0.0)
        if bind_rate <= 0.0 or asap_bind <= 0.0:
            raise MissingRate(f"[{(pol if bind_rate <= 0.0 else top_pol).path}] has no bind rate (mb_s) for {key} "
                              "drives (the verify's drive and CPU cost is calibrated at it)")
        self.verify_rate = 1.0 / max(1.0 / bind_rate - 1.0 / self.zero_rate, 1e-9)
        self.verify_asap = 1.0 / max(1.0 / asap_bind - 1.0 / self.zero_rate, 1e-9)
        # the verify reads full stripes: busy and CPU 0 per MB/s, calibrated at verify_asap (Figure 5)
        self.verify_cost = R.v("bind.disk.verify_util_at_asap") / self.verify_asap
        self.verify_cpu = R.v("bind.cpu.verify_pct_at_asap") / self.verify_asap
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
            elif self.pol.kind not in ("cap", "asap"):
                coef = self.verify_cpu
                rate = policy_rate(self, ctx, self.pol, self.verify_asap, "policy", [("g", gi, self.verify_cost)],
                                   coef, [gi], self.core, self.bus)
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
        if self.pol.kind not in ("cap", "asap") and any(s.tag == "verify" for s in self.streams):
            return None  # shares, duty cycles, windows: not a plain take()
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
