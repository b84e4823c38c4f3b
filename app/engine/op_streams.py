"""What the operations are made of: streams (one transfer, wait or timed phase each), the parts
of a placement they take (Part, Fixed), and the integer resource keys of the placement (res_key).
"""
from __future__ import annotations

import math
from typing import Any, Final


INF: Final = math.inf
EPS_MB: Final = 1e-6

# Ctx's resource keys: one int per (kind, index), index << RK_BITS | kind code; cheaper to build,
# hash and compare at every placement than ("g", i) tuples. The kinds are Ctx.add's.
RK_G: Final = 0  # "g": busy of each alive member of a group
RK_D: Final = 1  # "d": busy of a single drive
RK_CORE: Final = 2  # "core": CPU %
RK_BUS_G: Final = 3  # "bus_g": MB/s on a group's buses
RK_BUS_X: Final = 4  # "bus_x": MB/s on one bus
RK_BITS: Final = 3
RK_MASK: Final = 7


def res_key(kind: str, i: int) -> int:
    """Ctx's resource key of (kind, i): kind "g", "d", "core", "bus_g" or "bus_x"."""
    if kind == "g":
        return i << RK_BITS
    if kind == "d":
        return i << RK_BITS | RK_D
    if kind == "core":
        return i << RK_BITS | RK_CORE
    if kind == "bus_g":
        return i << RK_BITS | RK_BUS_G
    assert kind == "bus_x", kind
    return i << RK_BITS | RK_BUS_X


class Stream:
    """One running phase: moves `mb` at `rate` (transfer) or lasts until `end_h` (timed/wait)."""

    # the loop reads rate/mb/done of every busy stream at every step: typed attributes are
    # struct fields in the compiled engine (plan and bus_cap: Rebuild.plan's, set once per stream)
    name: str
    start_h: float
    mb: float
    done: float
    kind: str
    end_h: float | None
    rate: float
    tag: Any
    plan: Any
    bus_cap: float
    limit: str  # the centre holding its rate down now (Phase.limited_by)
    lim_mb: dict[str, float]  # MB moved under each limiting centre

    def __init__(self, name: str, start_h: float, mb: float = 0.0, kind: str = "transfer",
                 end_h: float | None = None, tag: Any = None) -> None:
        self.name = name
        self.start_h = start_h
        self.mb = mb
        self.done = 0.0
        self.kind = kind
        self.end_h = end_h
        self.rate = 0.0
        self.tag = tag
        self.plan = None
        self.bus_cap = INF
        self.limit = ""
        self.lim_mb = {}

    def finished(self, now: float) -> bool:
        if self.kind == "transfer":
            return self.mb - self.done <= max(EPS_MB, self.mb * 1e-9)
        if self.kind == "timed":
            end_h = self.end_h
            return end_h is not None and now >= end_h - 1e-9
        return False


class Part:
    """One transfer's resource use at its capped rate: the additions demand() makes through
    take(), cpu() and bus_g() when nothing limits the rate. g/d: drive time per group / single
    drive; check_g/check_d: the ones whose free time must cover it; adds: every addition as
    (Ctx resource key (res_key), value), drive time first."""

    __slots__ = ("stream", "rate", "g", "d", "check_g", "check_d", "adds")

    def __init__(self, stream: Stream, cap: float, uses):
        self.stream = stream
        self.rate = rate = cap if cap > 0.0 else 0.0
        self.g: list[tuple[int, float]] = []
        self.d: list[tuple[int, float]] = []
        self.check_g: list[int] = []
        self.check_d: list[int] = []
        self.adds: list[tuple[int, float]] = []
        for kind, i, cost in uses:
            v = cost * rate
            if kind == "g":
                self.g.append((i, v))
                if cost > 0:
                    self.check_g.append(i)
            else:
                self.d.append((i, v))
                if cost > 0:
                    self.check_d.append(i)
            self.adds.append((res_key(kind, i), v))

    def add(self, kind: str, i: int, value: float) -> None:
        """A CPU or bus addition ("core", "bus_g", "bus_x"; see Ctx.add)."""
        self.adds.append((res_key(kind, i), value))


class Fixed:
    """An operation's transfers as Parts (Op.fixed); no parts: it puts nothing on the array."""

    __slots__ = ("parts", "_adds")

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self._adds: dict[int, float] | None = None

    def take(self, s: Stream, cap: float, uses) -> Part:
        p = Part(s, cap, uses)
        self.parts.append(p)
        return p

    def adds(self) -> dict[int, float]:
        """Every part's additions summed per resource (Ctx.add_all of all parts in order, from
        none): an op placed at its capped rates with no part starved puts exactly this. Built
        once; placement.place_economical hands it to the placement, which only reads it."""
        if self._adds is None:
            own: dict[int, float] = {}
            for p in self.parts:
                for key, value in p.adds:
                    own[key] = own.get(key, 0.0) + value
            self._adds = own
        return self._adds


def stream_limit(s: Stream) -> str:
    """The centre that held a transfer down for most of its MB (its current one if it has not
    moved yet); "" for waits and timed phases."""
    if s.kind != "transfer":
        return ""
    best, most = s.limit, -1.0
    for name, mb in s.lim_mb.items():
        if mb > most:
            best, most = name, mb
    return best
