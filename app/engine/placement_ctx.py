"""The placement context Ctx: the running operations' additions on drives, cores and buses, kept
from step to step (placement.place, placement.py).
"""
from __future__ import annotations

import math
from typing import Any, Final

import numpy as np

from .ops import Op, Part, RK_BITS, RK_BUS_G, RK_BUS_X, RK_CORE, RK_D, RK_G, RK_MASK, res_key

from .protocols import SimView

_NEG_INF: Final = -math.inf
_INF: Final = math.inf


class Ctx:
    """The running operations' placement on the resources, kept from step to step (placement.place).

    Operations are placed one by one in a fixed order (Op.pos: economical phases first, then the
    ASAP class, each in start order); a rate depends on the host load and on what the operations
    placed before it left free on its drives. Each operation's additions are kept per resource,
    so a step places again only the operations whose inputs changed: their own phases, the host
    load, failures or ASAP counts on their drives, or an earlier operation's additions there.
    Resources are (kind, index): ("g", group) busy of each alive member, ("d", drive) busy of
    a single drive (a spare, a replacement, a mirror partner), ("core", core) CPU %, ("bus_g",
    group) and ("bus_x", bus) MB/s, keyed by one int each (ops.res_key: index << RK_BITS | kind
    code). That keeps a step's cost independent of the drive count."""

    def __init__(self, sim: SimView):
        lay = sim.lay
        self.max_util = sim.max_util
        self.U_src: Any = None  # the host-load arrays the placement was made with
        self.random_src: Any = None
        self.U_host_g: list[float] = [0.0] * lay.G  # (follow_host)
        # group -> the highest host utilization seen at or above max_util (follow_host): the host
        # I/O alone asks for more drive time than the model lets a drive give (host-overload)
        self.overloaded: dict[int, float] = {}
        self.host_peak: dict[int, float] = {}  # group -> its highest host utilization (envelope)
        self.host_active_g: list[bool] = [False] * lay.G
        self.host_random_g = np.ones(lay.G)
        # per group: the fraction of time host I/O is at the group (placement.host_occupancy), which
        # the share and idle_only policies throttle by; per core: the host's CPU % (free_core)
        self.occ_g: list[float] = [0.0] * lay.G
        self.core_host: list[float] = [0.0] * lay.C
        self.core_src: Any = None
        self.asap_c: dict[int, Any] = {}  # ASAP-priority phases per core (counts as Ctx.count adds them)
        # per bus: the host's back-end MB/s (follow_bus) and the bus's capacity (free_bus)
        self.host_bus: list[float] = [0.0] * lay.B
        self.bus_src: Any = None
        self.bus_mb_s = float(sim.platform.bus_mb_s)
        self.GB = lay.GB
        self.topo: Any = None  # topology version of d_group / failed below
        self.dg_arr = lay.d_group.copy()
        self.failed_arr = sim.failed.copy()
        self.d_group: list[int] = self.dg_arr.tolist()
        self.failed: list[bool] = self.failed_arr.tolist()
        self.asap_g: Any = [0] * lay.G  # ASAP-priority phases per group / per single drive (totals)
        self.asap_x: Any = {}
        self.by: dict[int, dict[Op, float]] = {}  # resource key -> {op: its addition}
        self.readers: dict[int, set[Op]] = {}  # drive-time resource key -> ops whose rate reads it
        self.pending: set[int] = set()  # resource keys whose total is out of date
        # totals for the step's rows (placement.loads): per group, core and bus; per single drive
        self.totals = {"g": np.zeros(lay.G), "core": np.zeros(lay.C), "bus_g": np.zeros(lay.G),
                       "bus_x": np.zeros(lay.B)}
        # the same arrays by kind code (RK_G .. RK_BUS_X; single drives are in self.extra), and
        # their values as lists (placement.loads reads single entries: a list item, not ndarray.item())
        self._totals_by_code: list[Any] = [self.totals["g"], None, self.totals["core"], self.totals["bus_g"],
                                           self.totals["bus_x"]]
        self.total_lists: list[list[float]] = [[0.0] * lay.G, [], [0.0] * lay.C, [0.0] * lay.G, [0.0] * lay.B]
        self.extra: dict[int, float] = {}
        self._extra_g: dict[int, float] | None = None  # extra per group (extra_by_group)
        self.stale: list[int] = []  # resource keys whose totals changed since placement.loads read them
        # the operation being placed: its position and additions so far
        self.pos = -1
        self.own: dict[int, float] = {}
        # and what it read of the CPU and bus loads: (key, host value, its own addition, partial(),
        # the highest host + partial that gives the same placement, -inf: only the same values do;
        # whether that needs the same host value too), and the cores whose ASAP count it read
        # (Op.fit_log, Op.n_reads; holds())
        self.fit_log: list[tuple[int, float, float, float, float, bool]] = []
        self.n_reads: list[int] = []

    # ---- what an operation reads while it is placed
    def partial(self, key: int) -> float:
        """What the operations placed before the current one put on resource `key` (the host
        load aside), plus the current one's additions so far."""
        s = self.own.get(key, 0.0)
        by = self.by.get(key)
        if by:
            pos = self.pos
            for o, v in by.items():
                if o.pos < pos:
                    s += v
        return s

    def used_g(self, g: int) -> float:
        return self.U_host_g[g] + self.partial(g << RK_BITS)  # (RK_G)

    def used_d(self, d: int) -> float:
        used = self.partial(d << RK_BITS | RK_D)
        g = self.d_group[d]
        if g >= 0 and not self.failed[d]:
            used += self.used_g(g)
        return used

    def free_g(self, g: int) -> float:
        f = self.max_util - self.U_host_g[g] - self.partial(g << RK_BITS)
        return f if f > 0.0 else 0.0

    def free_d(self, d: int) -> float:
        f = self.max_util - self.used_d(d)
        return f if f > 0.0 else 0.0

    def free_core(self, c: int) -> float:
        """CPU % of core c that the host and the operations placed before this one leave."""
        key = c << RK_BITS | RK_CORE
        host = self.core_host[c]
        p = self.partial(key)
        self.fit_log.append((key, host, self.own.get(key, 0.0), p, _NEG_INF, True))  # (allow() widens it)
        f = 100.0 - host - p
        return f if f > 0.0 else 0.0

    def free_bus(self, b: int) -> float:
        """MB/s of bus b that the host and the operations placed before this one leave."""
        key = b << RK_BITS | RK_BUS_X
        host = self.host_bus[b]
        p = self.partial(key)
        self.fit_log.append((key, host, self.own.get(key, 0.0), p, _NEG_INF, True))
        f = self.bus_mb_s - host - p
        return f if f > 0.0 else 0.0

    def read_count(self, c: int) -> Any:
        """The ASAP-priority phases on core c (asap_c), noted as read: a change of the count
        places again only the operations that read it."""
        self.n_reads.append(c << RK_BITS | RK_CORE)
        return self.asap_c.get(c, 0)

    def allow(self, need: float, same_host: bool) -> None:
        """The last free_core/free_bus read did not limit the rate: it needed only `need` of
        what was free. Any host + partial load that leaves `need` free gives the same placement
        (a margin of 1e-9 against rounding); same_host: only with the same host value (an ASAP
        phase's fair share of what the host leaves limits it too)."""
        key, host, own, p, _, _ = self.fit_log[-1]
        cap = 100.0 if key & RK_MASK == RK_CORE else self.bus_mb_s
        most = cap - need * (1.0 + 1e-9) - cap * 1e-9 if need > 0.0 else _INF
        self.fit_log[-1] = (key, host, own, p, most, same_host)

    def note_fit(self, key: int, host: float, p: float, most: float) -> None:
        """A CPU or bus fit check of placement.place_economical (own additions: none yet)."""
        self.fit_log.append((key, host, 0.0, p, most, False))

    def holds(self, op: Op) -> bool:
        """op's CPU and bus reads at its last placement give the same placement with today's
        loads: each read sees the same host value and partial sum, or a load no higher than the
        one it allowed (with the same host value where it said so). Then placing op again would
        give the same rates and additions."""
        by_of = self.by
        pos = op.pos
        for key, host0, own, p0, most, same_host in op.fit_log:
            i = key >> RK_BITS
            host = self.core_host[i] if key & RK_MASK == RK_CORE else self.host_bus[i]
            p = own  # (summed as partial() sums)
            by = by_of.get(key)
            if by:
                for o, v in by.items():
                    if o.pos < pos:
                        p += v
            if host == host0:
                if p != p0 and host + p > most:
                    return False
            elif same_host or host + p > most:
                return False
        return True

    def follow_bus(self, be_g: np.ndarray) -> list[int]:
        """Take the host's back-end MB/s per group (spread over each group's buses as its members
        are); the bus keys operations read whose value changed."""
        if be_g is self.bus_src:
            return []
        vals = (be_g @ self.GB).tolist() if len(self.GB) else [0.0] * len(self.host_bus)
        read = []
        for b, v in enumerate(vals):
            if v != self.host_bus[b]:
                self.host_bus[b] = v
                key = b << RK_BITS | RK_BUS_X
                if self.readers.get(key):
                    read.append(key)
        self.bus_src = be_g
        return read

    def follow_core(self, core_host: np.ndarray) -> list[int]:
        """Take the host's CPU per core; the core keys operations read whose value changed."""
        if core_host is self.core_src:
            return []
        vals = core_host.tolist()
        read = []
        for c, v in enumerate(vals):
            if v != self.core_host[c]:
                self.core_host[c] = v
                key = c << RK_BITS | RK_CORE
                if self.readers.get(key):
                    read.append(key)
        self.core_src = core_host
        return read

    def asap_of_d(self, d: int) -> Any:
        g = self.d_group[d]
        n: Any = self.asap_x.get(d, 0)
        if g >= 0 and not self.failed[d]:
            n += self.asap_g[g]
        return n

    # ---- what an operation writes
    def add(self, kind: str, i: int, value: float) -> None:
        """Add to resource (kind, i): "g" busy of each alive member of group i, "d" busy of drive i,
        "core" CPU % of core i, "bus_g" MB/s on group i's buses, "bus_x" MB/s on bus i."""
        key = res_key(kind, i)
        self.own[key] = self.own.get(key, 0.0) + value

    def add_all(self, adds: list[tuple[int, float]]) -> None:
        """Several additions as (resource key, value) (an Op.fixed part)."""
        own = self.own
        for key, value in adds:
            own[key] = own.get(key, 0.0) + value

    def count(self, kind: str, i: int) -> None:
        """One more ASAP-priority phase on group ("g") or single drive ("d") i (Op.count_asap)."""
        key = res_key(kind, i)
        self.own[key] = self.own.get(key, 0) + 1

    # ---- bookkeeping (placement.place)
    def follow_host(self, U_host_g: np.ndarray, host_random_g: np.ndarray, occ_g: Any = None) -> list[int]:
        """Take a new host-load solution; the groups where it changed that operations read."""
        if U_host_g is self.U_src:
            return []
        if occ_g is not None:
            self.occ_g = occ_g
        # lists: ops read a few entries each, cheaper than numpy; a new version changes one or
        # two groups as a rule, so only their entries are copied
        if self.U_src is None:
            idx: Any = range(len(U_host_g))
        else:
            # (ndarray.nonzero, not np.flatnonzero's Python wrapper; the random shares are the
            # same array in four versions of five)
            diff = U_host_g != self.U_src
            if host_random_g is not self.random_src:
                diff |= host_random_g != self.random_src
            idx = diff.nonzero()[0].tolist()
        U, active, readers, mu = self.U_host_g, self.host_active_g, self.readers, self.max_util
        # (ndarray.item per entry for a few; one tolist for many: the first version, a workload change)
        vals: list[float] | None = U_host_g.tolist() if len(idx) > 8 else None
        read = []
        for g in idx:
            u = U[g] = U_host_g.item(g) if vals is None else vals[g]
            active[g] = u > 1e-9
            if u >= mu and u > self.overloaded.get(g, 0.0):
                self.overloaded[g] = u
            if u > self.host_peak.get(g, 0.0):
                self.host_peak[g] = u
            key = g << RK_BITS  # (RK_G)
            if readers.get(key):
                read.append(key)
        self.U_src, self.random_src = U_host_g, host_random_g
        self.host_random_g = host_random_g
        return read

    def follow_topology(self, sim: SimView) -> list[int]:
        """Take the drives' current groups and failures (a new topology version); the drives
        whose membership changed (free_d and asap_of_d read it)."""
        if self.topo == sim.topo:
            return []
        d_group = sim.lay.d_group
        moved = ((d_group != self.dg_arr) | (sim.failed != self.failed_arr)).nonzero()[0].tolist()
        for d in moved:
            self.dg_arr[d] = self.d_group[d] = int(d_group[d])
            self.failed_arr[d] = self.failed[d] = bool(sim.failed[d])
        if moved:
            self._extra_g = None
        self.topo = sim.topo
        return [d << RK_BITS | RK_D for d in moved]

    def starves(self, part: Part) -> bool:
        """The host alone fills a drive this transfer (an Op.fixed part) needs: take() gives it
        0 MB/s whatever the others do."""
        U, mu = self.U_host_g, self.max_util
        for g in part.check_g:
            if U[g] >= mu:
                return True
        dg, failed = self.d_group, self.failed
        for d in part.check_d:
            g = dg[d]
            if g >= 0 and not failed[d] and U[g] >= mu:
                return True
        return False

    def footprint(self, op: Op) -> set[int]:
        """The drive-time resources op's rate reads: its own, and the group of a single drive
        that is an alive member (free_d reads the group's load). The same set while neither op's
        resources nor, if it reads a single drive, the topology change (commit() then has no
        readers to move)."""
        resources = op.resources()
        key = op.reads_key  # (resources, the topology version, or None when it reads no drive)
        if key is not None and key[0] == resources and (key[1] is None or key[1] == self.topo):
            return op.reads
        keys: set[int] = set()
        single = False
        for kind, i in resources:
            keys.add(res_key(kind, i))
            if kind == "d":
                single = True
                g = self.d_group[i]
                if g >= 0 and not self.failed[i]:
                    keys.add(g << RK_BITS)  # (RK_G)
        op.reads_key = (resources, self.topo if single else None)
        return op.reads if keys == op.reads else keys  # (the same set: commit() moves no readers)

    def commit(self, op: Op, own: dict[int, float], reads: set[int]) -> list[int]:
        """Replace op's additions and read set; the drive-time resources whose additions changed."""
        # (keys typed Any in these loops: the compiled code then passes the key objects through
        # instead of unboxing each int and boxing it again for every look-up, an allocation above 256)
        readers: dict[Any, set[Op]] = self.readers
        if reads is not op.reads:
            # (membership tests rather than set differences, and no set() made per setdefault:
            # no temporary sets; each reader set gets or loses op once, as before)
            was: set[Any] = op.reads
            now: set[Any] = reads
            for key in was:
                if key not in now:
                    readers[key].discard(op)
            for key in now:
                if key not in was:
                    rs = readers.get(key)
                    if rs is None:
                        readers[key] = {op}
                    else:
                        rs.add(op)
            op.reads = reads
        old = op.placed
        if own == old:  # (placed again to the same additions: a fifth of the placements)
            return []
        moved: list[Any] = []
        by_of: dict[Any, dict[Op, float]] = self.by
        pending: set[Any] = self.pending
        own_k: dict[Any, float] = own
        old_k: dict[Any, float] = old
        for key, v in own_k.items():  # new or changed additions
            ov = old_k.get(key)
            if ov is not None and ov == v:
                continue
            by = by_of.get(key)
            if by is None:
                by = by_of[key] = {}
            by[op] = v
            pending.add(key)
            if key & RK_MASK != RK_BUS_G:  # drive time, CPU and buses: operations read them
                moved.append(key)
        for key in old_k:  # additions that go
            if key not in own_k:
                del by_of[key][op]
                pending.add(key)
                if key & RK_MASK != RK_BUS_G:
                    moved.append(key)
        op.placed = own
        return moved

    def recount(self, op: Op, counts: dict[int, Any]) -> list[int]:
        """Replace op's ASAP counts; the resources whose count changed."""
        old = op.counted
        moved = []
        for key in old.keys() | counts.keys():
            n: Any = counts.get(key, 0) - old.get(key, 0)
            if not n:
                continue
            i = key >> RK_BITS
            if key & RK_MASK == RK_G:
                self.asap_g[i] += n
            elif key & RK_MASK == RK_CORE:
                n += self.asap_c.pop(i, 0)
                if n:
                    self.asap_c[i] = n
            else:
                n += self.asap_x.pop(i, 0)
                if n:
                    self.asap_x[i] = n
            moved.append(key)
        op.counted = counts
        return moved

    def settle(self) -> None:
        """Bring the totals of the changed resources up to date (they go stale for placement.loads)."""
        by_of, totals, lists, extra = self.by, self._totals_by_code, self.total_lists, self.extra
        for key in self.pending:
            kind, i = key & RK_MASK, key >> RK_BITS
            by = by_of.get(key)
            total = 0.0  # (sum() in the values' order, a loop: no call of the builtin)
            if by:
                for v in by.values():
                    total += v
            if kind == RK_D:
                self._extra_g = None
                if by:
                    extra[i] = total
                else:
                    extra.pop(i, None)
            else:
                totals[kind][i] = total
                lists[kind][i] = total
        self.stale.extend(self.pending)
        self.pending.clear()

    def extra_by_group(self) -> dict[int, float]:
        """The single-drive extras of each group's alive members, summed in self.extra's order
        (placement.loads); kept until an extra or the topology changes."""
        eg = self._extra_g
        if eg is None:
            eg = self._extra_g = {}
            dg, failed = self.d_group, self.failed
            for d, b in self.extra.items():
                g = dg[d]
                if g >= 0 and not failed[d]:
                    eg[g] = eg.get(g, 0.0) + b
        return eg
