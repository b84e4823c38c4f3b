"""A rebuild or equalization transfer's plan from the RAID geometry (rebuild_plan, rebuild_mb;
app/engine/rebuild_model.py) and the full-speed rate of a transfer (full_speed). Apart from
op_rebuild because RunIndex (run_index.py) uses them too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.domain.raid import RaidType

from .op_rebuild_geometry import geometry_plan, is_geometric
from .op_streams import INF
from .policy import Policy
from .protocols import SimView as Sim
from .rebuild_model import io_mb, read_cost, table_ceiling

if TYPE_CHECKING:  # pragma: no cover
    from .state import Layout


def full_speed(mu: float, full: float, uses: list[tuple[str, int, float]], cpu_coef: float) -> float:
    """A transfer's rate on idle drives and an idle core: its full-speed ceiling (tables, buses,
    engine), the drive time up to mu on each drive it uses, the whole core."""
    r0 = full
    for _, _, cost in uses:
        if cost > 0 and mu / cost < r0:
            r0 = mu / cost
    if cpu_coef > 0 and 100.0 / cpu_coef < r0:
        r0 = 100.0 / cpu_coef
    return r0


def rebuild_plan(sim: "Sim", gi: int, d: int, src: list[tuple[str, int, float]], dst: "int | None", phase: str,
                 pol: Policy, cpu_key: str, where: str, advise: bool = True) -> tuple:
    """A rebuild or equalization transfer from the geometry (rebuild_model): drive uses
    [(kind, index, busy per MB/s)], the policy, the full-speed ceiling and its bus part, what
    sets the ceiling ("policy", "bus", "engine"), CPU % per MB/s, bus additions per MB/s, and
    the drive uses while its drives carry no other I/O (the same list unless the rates say the
    rebuild streams then: `rebuild.io.idle_streaming`, idle_uses)."""
    lay, R = sim.lay, sim.R
    io = io_mb(R)
    rd = R.v("rebuild.disk.survivor_read") if R.has("rebuild.disk.survivor_read") else 1.0
    wr = R.v("rebuild.disk.spare_write") if R.has("rebuild.disk.spare_write") else 1.0
    # RAID 50/60 and distributed groups: their own geometry (op_rebuild_geometry.py)
    geo = geometry_plan(sim, gi, d, dst, phase, rd, wr, io) if is_geometric(lay.group_raid(gi)) else None
    if geo is not None:
        uses, n_read, geo_bus = geo
    else:
        uses, n_read = drive_uses(lay, gi, d, src, dst, rd, wr, io, True)
    idle_uses = uses
    if bool(R.raw("rebuild.io.idle_streaming", False)):
        if geo is not None:
            idle_geo = geometry_plan(sim, gi, d, dst, phase, rd, wr, io, lockstep=False)
            assert idle_geo is not None
            idle_uses = idle_geo[0]
        else:
            idle_uses = drive_uses(lay, gi, d, src, dst, rd, wr, io, False)[0]
    # each MB restored moves the reads and one write over the group's buses (hp 'Array size':
    # the N:1 inefficiency once the bus is the limit)
    nb = max(len(lay.g_buses[gi]), 1)
    bus_cap = sim.platform.bus_mb_s * nb / (n_read + 1)
    full, full_limit = INF, "policy"
    if pol.kind == "asap":  # full speed: the platform's measured idle-array rates, where it has them
        adv = sim.advise if advise else None
        full = table_ceiling(R, lay, gi, phase, d, where, (lambda sev, code, text, src_: sim.advise(
            sev, code, text, where, src_)) if adv is not None else None)
        if full < INF and advise:
            from .state import documented_class
            t = lay.drive_types[d]
            if not documented_class(t.interface, t.rpm):
                sim.advise("info", "nearest-drive-class",
                           f"{where}: the rebuild tables cover 15k/10k FC and SATA drives only; "
                           f"{t.name} uses the nearest class ({lay.speed_key_of(d) or '15k FC'})", where,
                           "emc 'Other factors affecting ASAP rebuild'")
    if bus_cap < full:
        full, full_limit = bus_cap, "bus"
    if R.has("rebuild.engine_mb_s"):
        eng = R.v("rebuild.engine_mb_s")
        if eng < full:
            full, full_limit = eng, "engine"
    cpu_coef = R.v(cpu_key) if R.has(cpu_key) else 0.0
    if geo is not None:
        bus = geo_bus
    else:
        assert dst is not None
        bus = [(kind, i, float(lay.g_width[i]) - 1 if kind == "g" else 1.0) for kind, i, _ in src] + [("d", dst, 1.0)]
    return uses, pol, full, bus_cap, full_limit, cpu_coef, bus, idle_uses


def drive_uses(lay: "Layout", gi: int, d: int, src: list[tuple[str, int, float]], dst: "int | None", rd: float,
               wr: float, io: float, lockstep: bool) -> tuple[list[tuple[str, int, float]], int]:
    """(drive uses, drives read per row) of a one-group rebuild: a parity group's survivors read
    row by row (lockstep: each row waits for the slowest rotation; else each streams on its own),
    a mirror partner or a copy's source streams; the target writes."""
    uses: list[tuple[str, int, float]] = []
    n_read = 1
    for kind, i, _ in src:
        if kind == "g":
            n_read = max(int(lay.g_width[gi]) - 1, 1)  # the survivors, read row by row in lockstep
            cost = rd * read_cost(float(lay.g_seq[gi]), lay.drive_types[d].rpm, io, n_read if lockstep else 1)
        else:
            cost = rd * read_cost(float(lay.d_seq[i]), lay.drive_types[i].rpm, io, 1)
        uses.append((kind, i, cost))
    assert dst is not None  # (only a distributed group's rebuild writes to no one drive)
    uses.append(("d", dst, wr * read_cost(float(lay.d_seq[dst]), lay.drive_types[dst].rpm, io, 1)))
    return uses, n_read


def rebuild_mb(lay: "Layout", gi: int, R: Any) -> float:
    """MB a rebuild of group gi writes: a member's capacity, times the group's allocated fraction
    (a distributed group: the member's 1/N share of the allocated pieces) when the platform
    rebuilds only allocated data (`rebuild.scope`, "allocated" by default;
    "whole_drive": the whole member device, as Linux md without a write-intent bitmap resyncs it).
    A Python float (from Python floats): the rebuild's phase times follow from it, and a numpy
    scalar there would make the clock (and every op's arithmetic after it) numpy scalars."""
    member_mb: float = lay.g_member_cap.item(gi) * 1024.0
    if rebuild_scope(R) == "whole_drive":
        return member_mb
    mb = member_mb * lay.group_allocated_frac(gi)
    raid = lay.groups[gi].raid
    # (identity tests, not RaidType.distributed: an Enum property is a Python call, and the end
    # of a run asks every group; a RaidMath only for the pool, the Layout's own)
    if raid is RaidType.DRAID6 or raid is RaidType.DDP:
        m = lay.group_math(gi)
        # a pool's allocated pieces and its spare capacity are both spread over all N members
        # (SANtricity 'How pools and volume groups work': the preservation capacity 'is spread
        # across the entire pool of drives'; ME4 guide 'About ADAPT': 'data is spread evenly
        # across all of the disks'): a member holds 1/N of the allocated pieces, not the
        # 1/(N - spare) share of a drive that held data only
        mb *= max(m.width - m.spare_drives, 0) / m.width
    return mb


def rebuild_scope(R: Any) -> str:
    """What a rebuild restores: "allocated" (the LUNs' share of each member) or "whole_drive"."""
    scope = R.raw("rebuild.scope", "allocated")
    return str(getattr(scope, "value", scope))
