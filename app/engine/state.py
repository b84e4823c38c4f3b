"""Static arrays of a configuration (drives, RAID groups, LUNs, controllers, buses) and the
per-step host-load solution. Pure numpy, no Qt, no I/O.

Indexing: drives 0..D-1 in project order, groups 0..G-1, LUNs 0..L-1, controller cores 0..C-1
(controller k's cores are core_off[k] .. core_off[k]+cores[k]-1; core 0 of a controller is the one
LUN operations use on CLARiiON). Workload-on-LUN pairs 0..P-1 carry the host load.
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from app.domain.hardware import Catalog, DriveType, Interface, Platform, short_seek_ms
from app.domain.project import Lun, Project, RaidGroup, parse_slot_id
from app.domain.raid import RaidMath, RaidType


def speed_key(interface: Interface, rpm: int) -> str:
    """The EMC paper's drive classes for its rebuild factors: 'SATA' (7.2k), 'fc10k', 'SAS'
    (15k SAS), '' (15k FC). Other drives map to the nearest documented class by speed
    (see documented_class)."""
    if interface is Interface.SATA or (rpm and rpm <= 7200):
        return "SATA"
    if interface is Interface.SAS:
        return "SAS" if rpm >= 15000 or rpm == 0 else "fc10k"
    if rpm and rpm < 15000:
        return "fc10k"
    return ""


def documented_class(interface: Interface, rpm: int) -> bool:
    """True for the drive classes the EMC rebuild factors were measured on (15k/10k FC, SATA)."""
    return interface is Interface.SATA or (interface is Interface.FC and rpm in (10000, 15000))


class Layout:
    """A configuration's static arrays. A run changes a few of them (RUN_STATE) and works on
    `for_run`'s copy, which has its own of those: one Layout can serve many runs (LayoutCache).

    Compiled with the engine (app/engine/native.py's MODULES): a native class whose attributes are
    declared here with their types, so that the compiled engine reads them as struct fields.
    numpy arrays are Any (pyproject.toml makes numpy opaque to mypy)."""

    # what a run changes: LUN migrations (l_group, l_cap, l_live), drive swaps (d_group,
    # g_members' entries), cache re-warm (l_hit_scale), reallocation (l_opt). The other arrays
    # are shared by the runs and read-only (end of __init__): a run writing one raises
    RUN_STATE: ClassVar[tuple[str, ...]] = ("l_group", "l_cap", "l_live", "l_opt", "l_hit_scale", "d_group", "g_members")

    project: Any  # a Project (Any: a stand-in that records what Layout reads is fine)
    platform: Platform
    # drives
    D: int
    drive_locs: list[str]
    didx: dict[str, int]
    drive_types: list[DriveType]
    d_seq: Any
    d_rand: Any
    d_cap: Any
    d_bus: Any
    d_spare: Any
    spares: Any
    B: int
    # controllers and cores
    ctrl_names: list[str]
    cidx: dict[str, int]
    cores: Any
    core_off: Any
    C: int
    core_ctrl: Any
    core_names: list[str]
    # RAID groups
    groups: list[RaidGroup]
    gidx: dict[int, int]
    G: int
    g_members: list[Any]
    g_width: Any
    g_data: Any
    g_pen: Any
    g_wpass: Any
    g_degraded_read: Any  # drive reads per random host read in a degraded parity group
    g_raid: Any
    g_mirror: Any
    g_parity: Any
    g_dedicated_parity: Any
    g_stripe_n: Any  # drives one stripe of a distributed group spans (inf: every member)
    g_seq: Any
    g_rand: Any
    g_seek: Any  # the seek part of g_rand (ms; 0: a class figure, no seek_ms) and its span of the stroke
    g_seek_span: Any
    g_resp: Any  # an I/O's light-load response over the busy time per I/O (SSD latency; 1 for disks)
    g_member_cap: Any
    d_group: Any
    GB: Any
    g_buses: list[list[int]]
    # LUNs
    luns: list[Lun]
    lidx: dict[int, int]
    L: int
    l_group: Any
    l_cap: Any
    l_owner: Any
    l_opt: Any
    l_hit_scale: Any
    l_live: Any
    l_wcache: Any
    l_rcache: Any
    # bound capacity per group at the start of the plan: derived lazily from a run's own
    # l_group / l_cap (group_allocated_frac), None until then
    _alloc_g: list[float] | None = None
    # host_terms._group_factors' per-group factors by the platform rates they read, computed by the
    # first run and shared by the runs of this Layout (they read only the static group arrays)
    group_factors: dict[Any, Any]
    # each group's RaidMath, made on first use (group_math) and shared by the runs (frozen)
    _group_maths: list[RaidMath | None]
    # the names of the attributes above (data_names), kept by a built Layout for for_run
    _names: tuple[str, ...] = ()

    def __init__(self, project: Any, catalog: Catalog | None, platform: Platform,
                 copy_of: Layout | None = None):
        """Build the arrays of `project`'s drives, groups and LUNs; or, with copy_of (for_run),
        take copy_of's attributes (a compiled class cannot be made without its __init__)."""
        if copy_of is not None:
            for name in copy_of._names:
                setattr(self, name, getattr(copy_of, name))
            self._names = copy_of._names
            return
        assert catalog is not None
        self.project = project
        self.platform = platform
        locs = list(project.drives)
        drives = list(project.drives.values())
        D = len(locs)
        self.D = D
        self.drive_locs = locs
        self.didx = {loc: i for i, loc in enumerate(locs)}
        # per drive type once, then gathered by each drive's type number
        tnum = {tid: k for k, tid in enumerate(dict.fromkeys(d.type_id for d in drives))}
        by_num = [catalog.drive(tid) for tid in tnum]
        d_type = np.fromiter([tnum[d.type_id] for d in drives], int, D)
        types = [by_num[k] for k in d_type.tolist()]
        self.drive_types = types
        # each type's figures in one matrix, gathered for all drives with one index (a row each:
        # contiguous, as the separate arrays were)
        per_type = np.array([(t.seq_mb_s, t.random_ms, t.capacity_gb, t.response_ratio,
                              t.seek_ms if not t.is_ssd else 0.0) for t in by_num], float).reshape(len(by_num), 5)
        per_drive = per_type.T[:, d_type].copy() if D else np.zeros((5, 0))
        self.d_seq, self.d_rand, self.d_cap, d_resp, d_seek = per_drive
        # (fromiter: lists of a thousand scalars convert faster than with np.array; the slot
        # parser straight, not through Drive.bus)
        self.d_bus = np.fromiter([_bus_of(loc) for loc in locs], int, D)
        self.d_spare = np.fromiter([d.hot_spare for d in drives], bool, D)
        self.spares = np.flatnonzero(self.d_spare)
        self.B = max(platform.buses, int(self.d_bus.max()) + 1 if D else 1)
        # controllers and cores
        self.ctrl_names = platform.controller_names()
        self.cidx = {n: i for i, n in enumerate(self.ctrl_names)}
        self.cores = np.array([c.cores for c in platform.controllers], int)
        self.core_off = np.concatenate([[0], np.cumsum(self.cores)[:-1]]).astype(int)
        self.C = int(self.cores.sum())
        self.core_ctrl = np.repeat(np.arange(len(self.cores)), self.cores)
        self.core_names = [f"{n}/{k}" for n, c in zip(self.ctrl_names, self.cores) for k in range(c)]
        # RAID groups
        groups = project.groups
        self.groups = groups
        self.gidx = {g.id: i for i, g in enumerate(groups)}
        G = len(groups)
        self.G = G
        # every group's members in one array (group order, member order), each group's a view of it
        didx = self.didx
        listed = np.fromiter([didx.get(l, -1) for g in groups for l in g.drives], int)
        in_project = listed >= 0  # a member location without a drive is left out
        flat = listed[in_project]
        flat.flags.writeable = False  # g_members' arrays are its views: a drive swap replaces one
        flat_group = np.repeat(np.arange(G), [len(g.drives) for g in groups])[in_project]
        width = np.bincount(flat_group, minlength=G)
        ends = np.cumsum(width).tolist()
        self.g_members = [flat[e - n:e] for n, e in zip(width.tolist(), ends)]
        self.g_width = np.maximum(width, 1).astype(float)
        # the RAID arithmetic once per (RAID type, width)
        # (kept between runs: a pure function of the key, whose properties are interpreted code)
        maths = _RAID_FIGURES
        keys_g = [(g.raid, len(g.drives), g.stripe, g.spare) for g in groups]  # what RaidGroup.math is made of
        for key, g in zip(keys_g, groups):
            if key not in maths:
                m = g.math
                if len(maths) >= 4096:  # (bounded: a long session's many edited widths)
                    maths.clear()
                maths[key] = (max(m.data_disks, 1), m.write_penalty, m.is_mirror, m.is_parity, m.write_service_times,
                              m.degraded_read_multiplier)
        per = np.array([maths[key] for key in keys_g], float).reshape(G, 6)
        self.g_data = per[:, 0].copy()
        self.g_pen = per[:, 1].copy()
        self.g_mirror = per[:, 2] > 0
        self.g_parity = per[:, 3] > 0
        self.g_wpass = per[:, 4].copy()  # service times in a row of an uncached random write
        # drive reads per random host read with one member down (RaidMath.degraded_read_multiplier:
        # a lost chunk is rebuilt from its stripe's data chunks, RAID 6 N - 2, a pool's stripe k - 2)
        self.g_degraded_read = per[:, 5].copy()
        self.g_raid = [g.raid.value for g in groups]
        # WAFL RAID-DP keeps parity on dedicated disks: host I/O lands on the data disks
        self.g_dedicated_parity = np.array([g.raid is RaidType.RAID_DP for g in groups], bool)
        # a distributed group (dRAID6, DDP) reads and writes one stripe on a few of its members
        # (8+2 of a 60-drive pool): host I/O on the others does not hold that stripe up
        # (placement.host_occupancy)
        self.g_stripe_n = np.array([float(g.math.span_width) if g.raid.distributed else np.inf
                                    for g in groups], float)
        # each group's slowest member's transfer rate, smallest member capacity and slowest
        # response ratio: one reduceat of the members' rows (the maximum as the minimum of the
        # negated ratio: exact); 50 MB/s, 0 GB and 1 for a group without members
        starts = np.asarray(ends, int) - width
        has = width > 0
        widths = sorted(set(width.tolist()) - {0})  # (np.unique's Python frames cost ~10x)
        g_seq, g_cap, g_resp = np.full(G, 50.0), np.zeros(G), np.ones(G)
        if widths:
            by_member = np.stack((self.d_seq, self.d_cap, -d_resp))[:, flat]
            low = np.minimum.reduceat(by_member, starts[has], axis=1)
            g_seq[has], g_cap[has], g_resp[has] = low[0], low[1], -low[2]
        self.g_seq = g_seq
        # the mean as np.mean sums: per width, a row sum of a (groups x width) matrix sums each row
        # as d_rand[m].sum() does (not a reduceat: its sums differ in the last bits)
        # (the seek's mean by the same row sums: _short_seek)
        # (np.add.reduce: what .sum(axis=1) calls, without its Python frame)
        self.g_rand = np.full(G, 8.0)
        seek_mean, seek_any = np.zeros(G), np.zeros(G, bool)
        any_seek = any(t.seek_ms > 0 and not t.is_ssd for t in by_num)
        for n in widths:
            gs = (width == n).nonzero()[0]
            members = flat[starts[gs, None] + np.arange(n)]
            self.g_rand[gs] = np.add.reduce(self.d_rand[members], axis=1) / n
            if any_seek:
                seek = d_seek[members]
                seek_mean[gs] = np.add.reduce(seek, axis=1) / n
                seek_any[gs] = np.logical_or.reduce(seek > 0, axis=1)
        # SSDs serve many I/Os at once (DriveType.response_ratio); the slowest member sets it
        self.g_resp = g_resp
        self.g_member_cap = g_cap
        self.d_group = np.full(D, -1, int)
        self.d_group[flat] = flat_group
        # group x bus: the share of a group's members on each bus
        self.GB = np.zeros((G, self.B))
        if D and G:  # (bincount adds in drive order, as np.add.at did: the same sums)
            member = self.d_group >= 0
            dg = self.d_group[member]
            self.GB = np.bincount(dg * self.B + self.d_bus[member], weights=1.0 / self.g_width[dg],
                                  minlength=G * self.B).reshape(G, self.B)
        # each group's buses, sorted: the distinct (group, bus) keys of its members, split by group
        member_bus = self.d_bus[flat].tolist()
        self.g_buses = [sorted(set(member_bus[e - n:e])) for n, e in zip(width.tolist(), ends)]
        # LUNs
        self.luns = project.luns
        self.lidx = {l.id: i for i, l in enumerate(project.luns)}
        self.L = len(project.luns)
        luns, L, gidx, cidx = project.luns, self.L, self.gidx, self.cidx
        self.l_group = np.fromiter([gidx.get(l.group_id, -1) for l in luns], int, L)
        self.l_cap = np.fromiter([l.capacity_gb for l in luns], float, L)
        self.l_owner = np.fromiter([cidx.get(l.owner, 0) for l in luns], int, L)
        self.l_opt = np.fromiter([float(l.optimization or 1.0) for l in luns], float, L)
        self.l_hit_scale = np.ones(self.L)  # cache re-warm after a pointer swap
        self.l_live = np.ones(self.L, bool)  # False: unbound (a migration's former source)
        lun_defaults = platform.default_lun_settings()
        wcache = lun_defaults.get("write_cache", True)
        self.l_wcache = np.fromiter([bool(l.settings.get("write_cache", wcache)) for l in luns], bool, L)
        rcache = lun_defaults.get("read_cache", True)
        self.l_rcache = np.fromiter([bool(l.settings.get("read_cache", rcache)) for l in luns], bool, L)
        self._short_seek(project, seek_mean, seek_any)
        self.group_factors = {}
        self._group_maths = [None] * G
        self._names = self.data_names()
        run_state, ndarray = self.RUN_STATE, np.ndarray
        for name in self._names:  # shared by the runs (see RUN_STATE)
            v = getattr(self, name)
            if isinstance(v, ndarray) and name not in run_state:
                v.setflags(write=False)  # (one call: .flags.writeable is two and a flags object)

    def _short_seek(self, project: Any, seek_mean: np.ndarray, seek_any: np.ndarray) -> None:
        """Shorten each group's random service time (g_rand) by the seek its drives save when
        the host's random I/Os fall on part of their stroke (docs/model.md 2.1), and keep the
        seek left (g_seek, ms) and the span (g_seek_span) for the elevator's reordering of a
        queue (host_terms._pair_arith). The span is the capacity of the group's LUNs that a
        workload addresses over the group's usable capacity (the LUNs laid out one after another
        from the start of the members); WAFL (RAID-DP) writes a LUN's blocks wherever its
        aggregate has free space, a span the project does not give: the whole stroke. Only a
        drive whose catalog entry gives its average seek (seek_ms) has a seek to shorten; a
        class figure's random_ms stays whole (g_seek 0). seek_mean, seek_any: each group's
        members' mean seek_ms (SSDs 0) and whether any has one (__init__)."""
        self.g_seek = np.zeros(self.G)
        self.g_seek_span = np.ones(self.G)
        if self.D == 0 or not seek_any.any():
            return
        addressed = {lun for w in project.workloads for lun in w.luns}
        active = np.fromiter([l.id in addressed for l in self.luns], bool, self.L)
        ok = (self.l_group >= 0) & active
        active_gb = np.bincount(self.l_group[ok], weights=self.l_cap[ok], minlength=self.G).tolist()
        usable_g = (self.g_data * self.g_member_cap).tolist()
        rand_g, dedicated = self.g_rand.tolist(), self.g_dedicated_parity.tolist()
        mean_g = seek_mean.tolist()
        for gi in np.flatnonzero(seek_any).tolist():  # (a group with a seek has members)
            usable: float = usable_g[gi]
            if usable <= 0:
                continue
            mean_seek: float = mean_g[gi]
            span = 1.0
            if active_gb[gi] > 0 and not dedicated[gi]:
                span = min(active_gb[gi] / usable, 1.0)
            left = short_seek_ms(mean_seek, span)
            self.g_rand[gi] = max(rand_g[gi] - (mean_seek - left), 1e-3)
            self.g_seek[gi], self.g_seek_span[gi] = left, span

    def data_names(self) -> tuple[str, ...]:
        """The names of the instance's attributes: its __dict__'s keys as Python; compiled, the
        class's own list of its fields (mypyc keeps no __dict__)."""
        names = getattr(type(self), "__mypyc_attrs__", None)
        return tuple(names) if names is not None else tuple(vars(self))

    def for_run(self, project: Project) -> Layout:
        """A Layout for one run of `project` (whose drives, groups and LUNs this one was built
        from): the shared arrays, and copies of those the run changes."""
        new = Layout(project, None, self.platform, copy_of=self)
        new._alloc_g = None  # derived lazily from the run's own l_group / l_cap
        for name in self.RUN_STATE:
            # arrays; g_members a new list of the (read-only) arrays
            setattr(new, name, getattr(self, name).copy())
        new.project = project
        return new

    def per_group(self, values: np.ndarray, ufunc: np.ufunc, empty: float) -> np.ndarray:
        """ufunc (minimum) reduced over each group's members' values, all groups in one call;
        `empty` for a group without members."""
        width = np.array([len(m) for m in self.g_members], int)
        out = np.full(len(width), empty)
        has = width > 0
        if has.any():
            starts = (np.cumsum(width) - width)[has]
            out[has] = ufunc.reduceat(values[np.concatenate(self.g_members)], starts)
        return out

    # group of a drive location, and utilised capacity of a group
    def group_allocated_frac(self, gi: int) -> float:
        # Python scalars (.item(), a list): numpy-scalar arithmetic cost ~8k instructions a call
        usable: float = self.g_data.item(gi) * self.g_member_cap.item(gi)
        alloc_g = self._alloc_g
        if alloc_g is None:  # bound capacity per group at the start of the plan
            ok = self.l_group >= 0
            alloc_g = self._alloc_g = np.bincount(self.l_group[ok], weights=self.l_cap[ok], minlength=self.G).tolist()
        alloc = alloc_g[gi]
        return min(alloc / usable, 1.0) if usable > 0 else 1.0

    @property
    def d_iface(self) -> np.ndarray:
        """Interface of each drive ("FC", "SATA", ...), made on each call (the engine does not
        use it: a hot spare is chosen from the few spares' own types)."""
        return np.array([t.interface.value for t in self.drive_types], dtype=str)

    def speed_key_of(self, d: int) -> str:
        t = self.drive_types[d]
        return speed_key(t.interface, t.rpm)

    def group_math(self, gi: int) -> RaidMath:
        """self.groups[gi].math, made once (RaidGroup.math builds a new one at each read; the
        operations read it at each start)."""
        m = self._group_maths[gi]
        if m is None:
            m = self._group_maths[gi] = self.groups[gi].math
        return m

    def group_raid(self, gi: int) -> RaidType:
        return self.groups[gi].raid


# each drive location's bus (parse_slot_id: interpreted domain code, ~1 k instructions a drive)
_BUS_OF: dict[str, int] = {}


def _bus_of(loc: str) -> int:
    bus = _BUS_OF.get(loc)
    if bus is None:
        if len(_BUS_OF) >= 65536:  # (bounded: locations are a few thousand at most)
            _BUS_OF.clear()
        bus = _BUS_OF[loc] = parse_slot_id(loc)[0]
    return bus


# RaidGroup.math's figures Layout reads, by (RAID type, width, stripe, spare) (Layout.__init__)
_RAID_FIGURES: dict[tuple[Any, int, int, int], tuple[float, float, bool, bool, float, float]] = {}


class LayoutCache:
    """The Layout of the last run, reused while its inputs are the same objects.

    For a caller whose project containers are replaced, never modified in place (the engine
    worker's replica, app.service.engine_worker.replica): the key is the identity of what Layout reads, the
    catalog and the project's drives, groups and LUNs (kept, so an id cannot be reused by a new
    object), plus the platform id by value. Not for a project edited in place (the GUI's own):
    a changed LUN in the same list would not be seen. Enclosures, cache settings, features and
    workloads are not read by Layout (Sim reads them every run)."""

    READS: ClassVar[tuple[str, ...]] = ("drives", "groups", "luns")  # the project containers Layout reads

    def __init__(self) -> None:
        self._objects: tuple[Any, ...] = ()
        self._platform_id: str | None = None
        self._base: Layout | None = None
        self.hits = self.misses = 0

    def layout(self, project: Project, catalog: Catalog, platform: Platform) -> Layout:
        """A Layout for one run of `project` (see Layout.for_run)."""
        objects = (catalog, *(getattr(project, a) for a in self.READS))
        if (self._base is None or project.platform_id != self._platform_id
                or not all(a is b for a, b in zip(self._objects, objects))):
            self.misses += 1
            self._base = None  # the old one's memory is free before the new one is built
            self._base = Layout(project, catalog, platform)
            self._objects, self._platform_id = objects, project.platform_id
        else:
            self.hits += 1
        return self._base.for_run(project)
