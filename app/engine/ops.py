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

This module is the registry (OPS: event kind -> operation class) and hands on the names of the
operation modules: op_streams (Stream, Part, Fixed, res_key), run_index (RunIndex), op_base (Op)
and one module per kind (op_migration, op_rebuild with op_rebuild_plan, op_bind, op_volume_mig,
op_reallocate, op_feature; op_generic for a kind the platform's rates do not calibrate). They see the run through protocols.py (SimView, CtxView) and import
nothing of simulate.py or its modules.
"""
from __future__ import annotations

from .op_streams import (
    EPS_MB, Fixed, INF, Part, RK_BITS, RK_BUS_G, RK_BUS_X, RK_CORE, RK_D, RK_G, RK_MASK, Stream,
    res_key, stream_limit,
)
from .run_index import RunIndex
from .op_base import Op
from .op_migration import Migration
from .op_rebuild_plan import full_speed, rebuild_mb, rebuild_plan
from .op_rebuild import Rebuild, idle_rebuild_hours
from .op_bind import BindOp
from .op_volume_mig import VolumeMig
from .op_reallocate import ReallocateOp
from .op_feature import FeatureOp
from .op_generic import GenericOp, needs_generic

__all__ = [
    'BindOp', 'EPS_MB', 'FeatureOp', 'Fixed', 'GenericOp', 'op_class', 'INF', 'Migration', 'Op', 'Part', 'RK_BITS',
    'RK_BUS_G', 'RK_BUS_X', 'RK_CORE', 'RK_D', 'RK_G', 'RK_MASK', 'ReallocateOp', 'Rebuild',
    'RunIndex', 'Stream', 'VolumeMig', 'full_speed', 'idle_rebuild_hours', 'rebuild_mb',
    'rebuild_plan', 'res_key', 'stream_limit', 'OPS',
]

OPS: dict[str, type[Op]] = {
    "LunMigration": Migration,
    "DriveFailure": Rebuild,
    "Bind": BindOp,
    "VolumeMigration": VolumeMig,
    "Reallocate": ReallocateOp,
    "FeatureEnable": FeatureOp,
}


def op_class(sim, ev) -> "type[Op] | None":
    """The class that predicts event ev: its kind's, or the generic model (op_generic.py) where
    the platform offers that kind but its rates do not calibrate it (an operation the platform
    does not offer keeps its kind's class, which reports the missing rates)."""
    cls = OPS.get(type(ev).__name__)
    kind = getattr(ev, "kind", "")
    if cls is not None and cls is not Rebuild and kind in sim.platform.operations:
        # once a run per kind: needs_generic reads every rate key's paths (interpreted domain
        # code, ~18 k instructions an event on the 960-drive plan)
        generic = sim.generic_kinds.get(kind)
        if generic is None:
            generic = sim.generic_kinds[kind] = needs_generic(sim.R, kind)
        if generic:
            return GenericOp
    return cls
