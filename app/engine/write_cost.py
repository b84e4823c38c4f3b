"""What a write costs a RAID group's drives: the one source of the RAID write penalty for the host
model (host_terms) and the operations (op_migration, op_bind, op_volume_mig).

Two kinds of write (docs/model.md 4, "Writes"):
- a small random write (read-modify-write) costs `penalty` back-end I/Os: app/domain/raid.py
  write_penalty (R0 1, mirrors 2, R3/R5 4, R6/RAID-DP 6), or the platform's
  `host.write_penalty.<RAID level>` override;
- a sequential full-stripe write costs width/data MB on the drives per MB written (data plus
  parity, or both halves of a mirror) whatever the penalty: bind's zeroing, a rebuild's stripes,
  the back-end traffic of a copy.
A write between the two (a migration's partial stripes) pays full stripes plus an excess that
scales with the penalty (partial_stripe_factor).

Called at run and operation starts only: plain Python, not in native.MODULES.
"""
from __future__ import annotations

from typing import Any


def penalty_overrides(R: Any, raids: Any) -> tuple[tuple[str, float], ...]:
    """The platform's host.write_penalty.<RAID level> overrides for the levels `raids`, sorted
    (a hashable key: host_terms caches the group factors by it)."""
    return tuple(sorted((raid, R.v(f"host.write_penalty.{raid}")) for raid in set(raids)
                        if R.has(f"host.write_penalty.{raid}")))


def write_penalty(R: Any, lay: Any, gi: int) -> float:
    """Back-end I/Os per small random write on group gi: the override, else the RAID level's."""
    raid = lay.g_raid[gi]
    key = f"host.write_penalty.{raid}"
    return R.v(key) if R.has(key) else float(lay.g_pen.item(gi))


def full_stripe(lay: Any, gi: int) -> float:
    """Drive MB per MB written in full stripes on group gi (width / data disks)."""
    return float(lay.g_width.item(gi)) / max(float(lay.g_data.item(gi)), 1.0)


def partial_stripe_factor(R: Any, lay: Any, gi: int, measured: float) -> float:
    """Drive time of a partial-stripe write on group gi relative to a full-stripe one. `measured`
    is that factor at the RAID level's own penalty (e.g. migration.disk.copy_write = 1.6); its
    excess over 1 (the parity updates of the partial stripes) scales with the penalty in force
    over the level's default, so an override of host.write_penalty moves it as it moves the
    host's random writes, and without one it is `measured` exactly."""
    default = float(lay.g_pen.item(gi))
    pen = write_penalty(R, lay, gi)
    if pen == default or default <= 0:
        return measured
    return 1.0 + (measured - 1.0) * pen / default
