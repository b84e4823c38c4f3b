"""The validity envelope: what a rates preset's documents cover, and an `extrapolated`
advisory where a run's inputs lie outside it (docs/model.md section 5, docs/presets.md
"Validity envelope").

A rates preset's `[envelope]` table has one sub-table per *scope*:

  host                 every RAID group that carries host I/O, and the workloads that run
  rebuild, migration,  the RAID groups that operation works on (drive_failure -> rebuild,
  bind, volume_migration, lun_migration -> migration; the other kinds by their own name)
  reallocate
  cache                the project's cache settings

and in each scope (all optional; what a scope does not list is not checked):

  raid.<LEVEL>         the RAID levels covered (R0, R1, "R1/0", R3, R5, R6, RAID-DP); a level
                       missing from a scope that lists any is outside. Per level optional ranges
                       `data_disks` and `width` = { min = .., max = .. }
  drives.<INTERFACE>   the drive interfaces covered (FC, SAS, SATA, SSD, SCSI), each with optional
                       ranges `rpm` and `capacity_gb`
  drive_util           (host) the peak host-only busy fraction of a group's drives
  outstanding          (host) a closed workload's outstanding I/Os
  io_kb                (host) a workload's I/O size
  <setting> (cache)    a range for a project cache setting, e.g. write_cache_mb

Every number carries its source like any rates number (table-wide `source = ...` or
`{ value = .., source = .. }`); the advisory cites it. The envelope is read without recording
it in Result.assumptions: it bounds the prediction, no predicted number depends on it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.domain.envelope import OP_SCOPE, bounds, problems as problems
from app.domain.hardware import Param, Tables

if TYPE_CHECKING:  # pragma: no cover
    from .result import Result
    from .sim_state import SimState

CODE = "extrapolated"


def _num(x: float) -> str:
    return f"{round(x, 1):g}"  # 96.9 (not 96.9032), 36.4, 15000


def _covered(lo: Param | None, hi: Param | None, unit: str = "") -> str:
    u = f" {unit}" if unit else ""
    if lo is not None and hi is not None:
        if lo.value == hi.value:
            return f"only {_num(lo.value)}{u}"
        return f"{_num(lo.value)}-{_num(hi.value)}{u}"
    if lo is not None:
        return f"at least {_num(lo.value)}{u}"
    if hi is not None:
        return f"up to {_num(hi.value)}{u}"
    return "any"


def check_range(node: Any, value: float, label: str, unit: str = "", scale: float = 1.0,
                limits: tuple[Param | None, Param | None] | None = None) -> tuple[str, str] | None:
    """(text, source) when `value` lies outside the node's {min, max} (each x scale for the
    text: drive_util is a fraction shown in %), else None. limits: bounds(node), when the
    caller checks many values against one node."""
    lo, hi = bounds(node) if limits is None else limits
    eps = 1e-9 * max(1.0, abs(value))
    if (lo is None or value >= lo.value - eps) and (hi is None or value <= hi.value + eps):
        return None
    src = "; ".join(dict.fromkeys(p.source for p in (lo, hi) if p is not None))
    shown = [None if p is None else Param(p.value * scale, p.source, p.unit, p.path) for p in (lo, hi)]
    return f"{label} {_num(value * scale)}{' ' + unit if unit else ''} (covered: {_covered(shown[0], shown[1], unit)})", src


class Envelope:
    """A rates preset's [envelope] table, read for one run."""

    def __init__(self, tables: Any):
        self.tables = tables if isinstance(tables, Tables) else None
        self._group_memo: dict[tuple, list[tuple[str, str, bool]]] = {}

    def scope(self, name: str) -> Tables | None:
        node = self.tables.get(name) if self.tables is not None else None
        return node if isinstance(node, Tables) else None

    def group(self, scope: str, raid: str, raid_label: str, width: int, data: int,
              drives: tuple[tuple[str, int, float, str], ...]) -> list[tuple[str, str, bool]]:
        """What of a RAID group lies outside a scope: [(text, source, categorical)] where
        categorical means a RAID level or drive interface the scope does not list at all.
        drives: (interface, rpm, capacity_gb, name) of each distinct drive type in the group."""
        key = (scope, raid, width, data, drives)
        hit = self._group_memo.get(key)
        if hit is not None:
            return hit
        out: list[tuple[str, str, bool]] = []
        node = self.scope(scope)
        if node is not None:
            levels = node.get("raid")
            if isinstance(levels, Tables) and len(levels):
                lvl = levels.get(raid)
                if not isinstance(lvl, Tables):
                    out.append((f"{raid_label}, {width} drives (covered RAID levels: {', '.join(levels)})",
                                _sources(levels) or f"[envelope.{scope}.raid]", True))
                else:
                    for k, label in (("data_disks", f"{raid_label}: data disks"),
                                     ("width", f"{raid_label}: drives in the group")):
                        r = check_range(lvl.get(k), float(data if k == "data_disks" else width), label)
                        if r is not None:
                            out.append((r[0], r[1], False))
            classes = node.get("drives")
            if isinstance(classes, Tables) and len(classes):
                for iface, rpm, cap, name in drives:
                    cls = classes.get(iface)
                    if not isinstance(cls, Tables):
                        out.append((f"{iface} drives ({name}; covered: {', '.join(classes)})",
                                    _sources(classes) or f"[envelope.{scope}.drives]", True))
                        continue
                    for k, v, label, unit in (("rpm", float(rpm), f"{iface} drive speed", "rpm"),
                                              ("capacity_gb", cap, f"{iface} drive capacity", "GB")):
                        r = check_range(cls.get(k), v, label, unit)
                        if r is not None:
                            out.append((r[0], r[1], False))
        self._group_memo[key] = out
        return out


def _sources(node: Tables) -> str:
    """The distinct sources of a table's numbers (a table that lists levels or interfaces)."""
    found: dict[str, None] = {}

    def walk(n: Any) -> None:
        if isinstance(n, Param):
            found[n.source] = None
        elif isinstance(n, Tables):
            for k in n:
                walk(n[k])

    walk(node)
    return "; ".join(found)


def _ran(res: "Result") -> set[str]:
    """The workloads that completed I/O at some time (read from the iops block: no Series built)."""
    for block in getattr(res.series, "blocks", ()):
        if block.metric == "iops":
            V = block.V
            if not V.size:
                return set()
            return {e for e, on in zip(block.entities, (V > 0).any(axis=0).tolist()) if on}
    return set()


def _group_facts(sim: "SimState", gi: int) -> tuple[str, str, int, int, tuple]:
    lay = sim.lay
    g = lay.groups[gi]
    math = g.math
    types = []
    for d in lay.g_members[gi].tolist():  # (a spare standing in counts with its own type)
        t = lay.drive_types[d]
        fact = (t.interface.value, int(t.rpm), float(t.capacity_gb), t.name)
        if fact not in types:
            types.append(fact)
    shape = math.label.split(" ")[0] if "+" in math.label else f"of {len(g.drives)}"  # 4+1; RAID 0 of 4
    return g.raid.value, f"{g.raid.label} {shape}", len(g.drives), math.data_disks, tuple(types)


def advise(sim: "SimState", res: "Result") -> None:
    """Add an `extrapolated` advisory for each scope's inputs outside the envelope: per
    operation (where = its event id), per group with host load (where = "RG <id>"), the
    workloads' load (where = the workload id) and the cache (where = "cache")."""
    env = Envelope(sim.R.raw("envelope"))
    if env.tables is None:
        return
    lay = sim.lay
    facts: dict[tuple, tuple[str, str, int, int, tuple]] = {}  # per RAID type, width and drive types
    of_group: dict[int, tuple[str, str, int, int, tuple]] = {}  # each group's (asked per op and for the host)

    type_ids: list[int] = []  # each drive's type (its id), made at the first group

    def group(scope: str, gi: int) -> list[tuple[str, str, bool]]:
        f = of_group.get(gi)
        if f is None:
            if not type_ids:
                type_ids.extend(map(id, lay.drive_types))
            key = (id(lay.groups[gi].raid), len(lay.groups[gi].drives),  # (an Enum's hash is a Python call)
                   tuple(dict.fromkeys(map(type_ids.__getitem__, lay.g_members[gi].tolist()))))
            f = facts.get(key)
            if f is None:
                f = facts[key] = _group_facts(sim, gi)
            of_group[gi] = f
        return env.group(scope, *f)

    def say(where: str, what: str, found: list[tuple[str, str, bool]]) -> None:
        if not found:
            return
        severity = "warning" if any(c for _, _, c in found) else "info"
        text = "; ".join(t for t, _, _ in found)
        sim.advise(severity, CODE,
                   f"{where}: {what} lies outside what the documents cover: {text}. The prediction "
                   "extrapolates the model there", where, "; ".join(dict.fromkeys(s for _, s, _ in found if s)))

    # operations: the groups each works on
    for op in sim.ops:
        scope = OP_SCOPE.get(op.event.kind)
        if scope is None or env.scope(scope) is None or not (op.phases or op.streams):
            continue
        groups = sorted({i for kind, i in op.resources() if kind == "g" and 0 <= i < lay.G})
        found: list[tuple[str, str, bool]] = []
        for gi in groups:
            for t, s, c in group(scope, gi):
                found.append((f"{lay.groups[gi].label}: {t}" if len(groups) > 1 else t, s, c))
        say(op.event.id, f"the {scope.replace('_', ' ')} of {', '.join(lay.groups[g].label for g in groups)}",
            found)
    # host load: the groups it reached, and the workloads that ran
    host = env.scope("host")
    if host is not None:
        peak: dict[int, float] = getattr(sim.ctx, "host_peak", {})
        util = host.get("drive_util")
        util_limits = bounds(util)  # (once: every group is checked against it)
        for gi in sorted(g for g, u in peak.items() if u > 0.0):
            found = list(group("host", gi))
            r = check_range(util, peak[gi], "peak host drive busy", "%", 100.0, util_limits)
            if r is not None:
                found.append((r[0], r[1], False))
            say(f"RG {lay.groups[gi].id}", "the host I/O on this group", found)
        ran = _ran(res)
        for w in sim.workloads:
            if w["id"] not in ran:
                continue
            found = []
            if w.get("mode") == "closed":
                r = check_range(host.get("outstanding"), float(w.get("outstanding") or 1), "outstanding I/Os")
                if r is not None:
                    found.append((r[0], r[1], False))
            r = check_range(host.get("io_kb"), float(w.get("io_kb") or 0.0), "I/O size", "KB")
            if r is not None:
                found.append((r[0], r[1], False))
            say(w["id"], f"workload {w['name'] or w['id']}", found)
    cache = env.scope("cache")
    if cache is not None:
        found = []
        for key in cache:
            value = sim.cache.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            r = check_range(cache.get(key), float(value), key)
            if r is not None:
                found.append((r[0], r[1], False))
        say("cache", "the cache configuration", found)
