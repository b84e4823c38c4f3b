"""Validation: every rule a project must satisfy before it can be simulated.

    issues = validate(project, catalog)            # all scenarios
    issues = validate(project, catalog, "Baseline")  # the layout plus one scenario

Each Issue has a severity ("error" blocks simulation, "warning" does not), a `where` reference
that names the object so the GUI can select it, and a sentence of `text` that names it again
(the message reads well on its own, e.g. in `arrayplanner check`).

Reference format of `Issue.where` (stable; the GUI parses it):

    "project"              the project as a whole (platform, horizon)
    "bus 1"                a back-end bus / channel (number)
    "enclosure 0_2"        an enclosure, bus_position
    "drive 0_1_4"          a drive slot, bus_enclosure_slot
    "RG 3"                 a RAID group by id
    "LUN 12"               a LUN by id (also its per-LUN settings)
    "cache.<key>"          a cache setting, e.g. "cache.page_kb"
    "feature <id>"         a premium feature, e.g. "feature hpt"
    "workload <id>"        a host workload, e.g. "workload oltp"
    "scenario <name>"      a scenario as a whole
    "<event id>"           a timeline event, e.g. "op3"; Issue.scenario names its scenario

The text of an issue of a scenario starts with the scenario's name ("Baseline: op3 (bind): ..."):
event ids repeat across scenarios, and a message about another scenario than the one on screen
must say which. Only errors of the layout and of the scenarios being simulated block a
simulation (`blocking`); an error in another scenario is listed, not in the way.

Nothing here raises on bad data: a malformed object produces an Issue, never a traceback.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, fields, replace
from typing import Any, Callable, Iterable

from .hardware import Catalog, DriveType, Interface, Platform
from .limits import too_many_events
from .project import (
    Bind, DriveFailure, DriveReplacement, Event, FeatureEnable, Lun, LunMigration, Project,
    RaidGroup, Reallocate, Scenario, VolumeMigration, Workload, WorkloadChange, enclosure_id,
    parse_slot_id,
)
from .raid import RaidMath, RaidType

ERROR = "error"
WARNING = "warning"

# Workload limits that no real host load exceeds; beyond them the number is a typo.
MAX_IO_KB = 16384  # 16 MB per I/O
MAX_IOPS = 10_000_000
MAX_OUTSTANDING = 65536
MAX_THINK_MS = 3_600_000.0  # an hour between a closed loop's I/Os: beyond that it is no host load
# The latest start a timeline event may have: ten years of 8,766 h. A plan for an array's service
# life; a later start is a typo (a date typed as hours). The engine's clock also loses the
# precision it needs to step past ~500,000 h (a run at 700,000 h stalls).
MAX_START_H = 87_660.0
# Numbers of timeline events: (least, most) a form should offer; the rules below use the same.
# WAFL's optimization scale runs from 1 (optimal) to 10 (very unoptimized).
REALLOCATE_THRESHOLD = (1.0, 10.0)
# LUN capacities are compared with a small tolerance (GB arithmetic in floating point).
_EPS_GB = 1e-6
# The smallest LUN: 1 MB, as arrays bind them. A capacity of 1e-320 GB passed "positive" and the
# engine's rebuild time squared underflowed to 0 (ZeroDivisionError in the MTTDL).
MIN_LUN_GB = 1 / 1024
# What a project file can store (app.store.project_file): SQLite's integers are signed 64-bit and
# its text is UTF-8. A value beyond either passed `check` and then failed the save (OverflowError
# for a LUN id of 2**63, UnicodeEncodeError for a lone surrogate that a JSON "\\ud800" escape
# gives): the rules below make it an error naming the field.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# The largest integer that converts to a float (a larger one raises OverflowError).
_FLOAT_INT_MAX = 2**1023


@dataclass(frozen=True)
class Issue:
    severity: str  # "error" or "warning"
    where: str  # reference to the object, see the module docstring
    text: str
    scenario: str | None = None  # for event issues: the scenario holding the event

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    @property
    def line(self) -> str:
        """The message on one line, naming its object once: most texts already start with it
        ('LUN 0 has ...', "workload 'oltp': ...", a scenario's 'Other: op1 (bind): ...'), and
        'LUN 0: LUN 0 has ...' read as a stutter in the CLI and the report dialog."""
        plain = self.text.replace("'", "")
        named = plain.startswith(self.where) and not plain[len(self.where):len(self.where) + 1].isalnum()
        if not self.where or named or self.scenario is not None:
            return self.text
        return f"{self.where}: {self.text}"

    def __str__(self) -> str:
        return f"{self.severity}: {self.line}"


def unknown_platform_text(platform_id: str, catalog: Catalog) -> str:
    """Why a project on `platform_id` cannot be used (validation, and the GUI refusing to open it)."""
    known = ", ".join(sorted(catalog.platforms)) or "none"
    why = catalog.refused.get(f"platform {platform_id}")
    if why:  # a user preset defines it but could not be loaded
        return f"platform {platform_id!r} was not loaded from the user presets: {why}"
    return (f"platform {platform_id!r} is not in the preset catalog (known: {known}) and the file "
            "carries no copy of it")


def errors(issues: Iterable[Issue]) -> list[Issue]:
    return [i for i in issues if i.severity == ERROR]


def warnings(issues: Iterable[Issue]) -> list[Issue]:
    return [i for i in issues if i.severity == WARNING]


def workload_errors(project: Project, catalog: Catalog, workload: Workload) -> list[str]:
    """The errors validation would report for `workload` as it stands (e.g. an edit's result
    before it is made): the same rules as the whole-project check, one text each."""
    c = _Checker(project, catalog)
    # no "workload 'x': " prefix: the caller's message names the workload ("Cannot edit workload x: ...")
    c.check_workload(workload, {l.id for l in project.luns}, f"workload {workload.id}", "")
    return [i.text for i in c.issues if i.severity == ERROR]


def blocking(issues: Iterable[Issue], scenarios: Iterable[str | None]) -> list[Issue]:
    """The errors that stop a simulation of `scenarios`: the layout's and those scenarios'
    (an error in a scenario that is not run does not change the run)."""
    run = set(scenarios)
    return [i for i in issues if i.severity == ERROR and (i.scenario is None or i.scenario in run)]


def _num(x: Any) -> bool:
    # `type(x) is float` first: most numbers checked are floats (an event edit checks ~600)
    if type(x) is float:
        return math.isfinite(x)
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    # an int too large for a float has no math.isfinite (OverflowError) and no use in the engine
    return abs(x) <= _FLOAT_INT_MAX if isinstance(x, int) else math.isfinite(x)


def unstorable(value: Any) -> str | None:
    """Why a project file cannot store the scalar `value` (a whole number beyond 64 bits, text
    that is not UTF-8), or None."""
    if isinstance(value, int) and not isinstance(value, bool):
        if INT64_MIN <= value <= INT64_MAX:
            return None
        digits = len(str(abs(value))) if abs(value) < 10**4000 else "4,000+"
        shown = f"{value}" if abs(value) < 10**30 else f"a {digits}-digit number"
        return f"{shown} is beyond the whole numbers a project file can store ({INT64_MIN} to {INT64_MAX})"
    if isinstance(value, str) and not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return (f"'{printable(value)}' holds {printable(exc.object[exc.start])}, which is not a character "
                    f"(a lone surrogate, e.g. from a JSON \\u escape) and cannot be stored as UTF-8 text")
    return None


def printable(text: str) -> str:
    """`text` with what UTF-8 cannot encode (lone surrogates) written as \\udxxx escapes: safe to
    print, show or save in a message."""
    return text if text.isascii() else text.encode("utf-8", "backslashreplace").decode("utf-8")


def _plainly_storable(v: Any) -> bool:
    """A quick yes for the common scalars (an event's fields): floats, ASCII text, small ints."""
    t = type(v)
    if t is float or t is bool or v is None:
        return True
    if t is str:
        return v.isascii()
    return t is int and INT64_MIN <= v <= INT64_MAX


def storage_problems(obj: Any, path: str = "") -> list[tuple[str, str]]:
    """(field path, why) for each value inside `obj` (a dataclass of the project, a dict, a list or
    a scalar) that a project file cannot store; dict keys are checked too. Iterative: the
    nesting is bounded where files are read (app.store.project_json.MAX_JSON_DEPTH), not here."""
    out: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [(path, obj)]
    while stack:
        at, v = stack.pop()
        if isinstance(v, (str, int)):
            why = unstorable(v)
            if why:
                out.append((at, why))
        elif isinstance(v, dict):
            for k, x in v.items():
                key = printable(k) if isinstance(k, str) else str(k)
                why = unstorable(k)
                if why:
                    out.append((f"{at} key" if at else "key", why))
                stack.append((f"{at}.{key}" if at else key, x))
        elif isinstance(v, (list, tuple)):
            stack.extend((f"{at}[{i}]", x) for i, x in enumerate(v))
        elif hasattr(v, "__dataclass_fields__"):
            fields_ = vars(v)
            if not all(map(_plainly_storable, fields_.values())):  # most objects: nothing to walk
                stack.extend((f"{at}.{name}" if at else name, x) for name, x in fields_.items())
    out.reverse()  # the stack walks backwards: report in field order
    return out


def _kind_label(e: Event) -> str:
    """'LUN migration', 'drive failure', 'WAFL reallocate': sentence case, acronyms kept."""
    t = e.label_text or e.kind.replace("_", " ")
    return t[0].lower() + t[1:] if len(t) > 1 and t[1].islower() else t


def _gb(x: float) -> str:
    return f"{x:,.1f} GB" if x != int(x) else f"{int(x):,} GB"


class _Checker:
    def __init__(self, project: Project, catalog: Catalog):
        self.p = project
        self.catalog = catalog
        self.issues: list[Issue] = []
        self.platform: Platform | None = catalog.platforms.get(project.platform_id)
        self.lookups: tuple | None = None  # scenario_lookups(), kept with the layout by validate()

    def err(self, where: str, text: str, scenario: str | None = None) -> None:
        self.issues.append(Issue(ERROR, where, text, scenario))

    def warn(self, where: str, text: str, scenario: str | None = None) -> None:
        self.issues.append(Issue(WARNING, where, text, scenario))

    # ------------------------------------------------------------ helpers
    def drive_type(self, location: str) -> DriveType | None:
        d = self.p.drives.get(location)
        if d is None:
            return None
        return self.catalog.drives.get(d.type_id)

    def check_layout(self) -> bool:
        """Every rule but the scenarios'; False when the scenarios are not to be checked (an
        unknown platform, or a rule that tripped)."""
        try:
            if not self.check_project():
                return False
            self.check_enclosures()
            self.check_drives()
            self.check_groups()
            self.check_spares()
            self.check_luns()
            self.check_formatted_space()
            self.check_cache()
            self.check_features()
            self.check_workloads()
            self.check_storable()
        except Exception as exc:  # noqa: BLE001 - a rule tripped over unexpected data: report, never crash
            self.tripped(exc)
            return False
        return True

    def tripped(self, exc: Exception) -> None:
        self.err("project", f"the project could not be fully checked ({type(exc).__name__}: {exc})")

    # ------------------------------------------------------------ project / platform
    def check_project(self) -> bool:
        if self.platform is None:
            self.err("project", unknown_platform_text(self.p.platform_id, self.catalog))
            return False
        # what checking the platform's preset found (app.store.presets, app.domain.rate_keys): an
        # error (a rate the engine needs is missing) blocks the simulation
        for pi in self.platform.preset_issues:
            (self.err if pi.severity == ERROR else self.warn)("project", f"platform {self.platform.id}: {pi.text}")
        h = self.p.horizon_h  # None: until the last operation ends
        if h is not None and (not _num(h) or h <= 0):
            self.err("project", f"the simulation horizon {h!r} h must be a positive number of hours")
        elif h is not None and h > MAX_START_H:  # the events' limit: a plan for the array's service life
            self.err("project", f"the simulation horizon {h:,.0f} h is more than ten years "
                                f"(the longest is {MAX_START_H:,.0f} h)")
        return True

    # ------------------------------------------------------------ what the project file can hold
    def check_storable(self) -> None:
        """Every value of the layout a project file can store (the events': check_scenario)."""
        p = self.p

        def check(where: Callable[[], str], obj: Any, path: str = "") -> None:
            if _plainly_storable(obj) or (hasattr(obj, "__dataclass_fields__")
                                          and all(map(_plainly_storable, vars(obj).values()))):
                return  # the common case, without walking or building the object's name
            for at, why in storage_problems(obj, path):
                self.err(where(), f"{where()}: {at} {why}")

        project = lambda: "project"  # noqa: E731
        for name in ("platform_id", "current_scenario", "baseline_scenario", "platform_snapshot", "features"):
            check(project, getattr(p, name), name)
        check(project, p.info, "info")
        for e in p.enclosures:
            check(lambda: f"enclosure {printable(str(e.id))}", e)
        for d in p.drives.values():
            check(lambda: f"drive {printable(str(d.location))}", d)
        for g in p.groups:
            check(lambda: f"RG {g.id}", g)
        for l in p.luns:
            check(lambda: f"LUN {l.id}", l)
        for k, v in p.cache.items():
            check(lambda: f"cache.{printable(str(k))}", {k: v}, "cache")
        for w in p.workloads:
            check(lambda: f"workload {printable(str(w.id))}", w)
        for sc in p.scenarios:
            check(lambda: f"scenario {printable(str(sc.name))}", {"name": sc.name, "notes": sc.notes})

    # ------------------------------------------------------------ enclosures and buses
    def check_enclosures(self) -> None:
        pf = self.platform
        assert pf is not None
        seen = Counter(e.id for e in self.p.enclosures)
        for eid, n in seen.items():
            if n > 1:
                self.err(f"enclosure {eid}", f"enclosure {eid} is defined {n} times")
        per_bus: dict[int, int] = Counter()
        for e in self.p.enclosures:
            where = f"enclosure {e.id}"
            if not isinstance(e.bus, int) or not isinstance(e.position, int) or e.bus < 0 or e.position < 0:
                self.err(where, f"enclosure {e.id}: bus and position must be whole numbers from 0")
                continue
            if e.bus >= pf.buses:
                self.err(where, f"enclosure {e.id} is on bus {e.bus}, but the {pf.name} has "
                                f"{pf.buses} bus{'es' if pf.buses != 1 else ''} (0 to {pf.buses - 1})")
            if e.type_id not in pf.enclosure_types:
                offered = ", ".join(sorted(pf.enclosure_types))
                self.err(where, f"enclosure {e.id} has type {e.type_id!r}, which the {pf.name} does not "
                                f"offer (offered: {offered})")
            per_bus[e.bus] += 1
        positions: dict[int, set[int]] = defaultdict(set)
        for e in self.p.enclosures:
            if isinstance(e.bus, int) and isinstance(e.position, int) and e.position >= 0:
                positions[e.bus].add(e.position)
        for bus, pos in sorted(positions.items()):
            expected = 0  # first position missing from the chain (positions can be any size: no range())
            for q in sorted(pos):
                if q > expected:
                    break
                expected = q + 1
            if expected < max(pos):
                self.warn(f"bus {bus}", f"bus {bus} has a gap in its enclosure chain: no enclosure "
                                        f"{enclosure_id(bus, expected)} before enclosure {enclosure_id(bus, max(pos))}")
        for bus, n in sorted(per_bus.items()):
            if n > pf.max_enclosures_per_bus:
                self.err(f"bus {bus}", f"bus {bus} has {n} enclosures; the {pf.name} allows at most "
                                       f"{pf.max_enclosures_per_bus} per bus")

    # ------------------------------------------------------------ drives
    def check_drives(self) -> None:
        pf = self.platform
        assert pf is not None
        encl = {e.id: e for e in self.p.enclosures}
        left = drives_left(self.p, pf)
        if left is not None and left < 0:
            self.err("project", f"the project has {len(self.p.drives)} drives; the {pf.name} addresses at most "
                                f"{pf.max_drives}")
        slot_count = Counter(d.location for d in self.p.drives.values())
        reported_twice: set[str] = set()
        for key, d in self.p.drives.items():
            where = f"drive {d.location}"
            if slot_count[d.location] > 1 and d.location not in reported_twice:
                reported_twice.add(d.location)
                self.err(where, f"slot {d.location} is used by {slot_count[d.location]} drives")
            try:
                b, e, s = parse_slot_id(d.location)
            except ValueError as exc:
                self.err(where, f"drive {d.location!r}: {exc}")
                continue
            eid = enclosure_id(b, e)
            enc = encl.get(eid)
            if enc is None:
                self.err(where, f"drive {d.location} is in enclosure {eid}, which does not exist")
            else:
                et = pf.enclosure_types.get(enc.type_id)
                if et is not None:
                    if s < 0 or s >= et.slots:
                        self.err(where, f"drive {d.location} is in slot {s}, but enclosure {eid} "
                                        f"({et.name}) has slots 0 to {et.slots - 1}")
            dt = self.catalog.drives.get(d.type_id)
            if dt is None:
                why = self.catalog.refused.get(f"drive {d.type_id}")
                self.err(where, f"drive {d.location} has type {d.type_id!r}, which is not in the drive catalog"
                         + (f" (a user preset defines it but was not loaded: {why})" if why else ""))
                continue
            if d.type_id not in pf.drive_types:
                self.err(where, f"drive {d.location} ({dt.name}) is not a drive the {pf.name} accepts")
            if enc is not None:
                et = pf.enclosure_types.get(enc.type_id)
                if et is not None and et.interfaces and dt.interface not in et.interfaces:
                    accepted = ", ".join(i.value for i in et.interfaces)
                    self.err(where, f"drive {d.location} ({dt.name}) does not fit enclosure {eid}: "
                                    f"{et.name} takes {accepted} drives")
                elif et is not None and (size := et.size_problem(dt)):
                    self.err(where, f"drive {d.location} ({dt.name}) does not fit enclosure {eid}: {size}")

    # ------------------------------------------------------------ RAID groups
    def check_groups(self) -> None:
        pf = self.platform
        assert pf is not None
        ids = Counter(g.id for g in self.p.groups)
        for gid, n in ids.items():
            if n > 1:
                self.err(f"RG {gid}", f"RAID group id {gid} is used by {n} groups")
        member_of: dict[str, list[int]] = defaultdict(list)
        for g in self.p.groups:
            for loc in g.drives:
                member_of[loc].append(g.id)
        for loc, gids in member_of.items():
            distinct = sorted(set(gids))
            if len(gids) > 1:
                if len(distinct) > 1:
                    names = " and ".join(f"RG {i}" for i in distinct)
                    self.err(f"drive {loc}", f"drive {loc} is a member of {names}; a drive belongs to one group")
                else:
                    self.err(f"RG {distinct[0]}", f"RG {distinct[0]} lists drive {loc} more than once")
        for g in self.p.groups:
            self.check_group(g, pf)

    def check_group(self, g: RaidGroup, pf: Platform) -> None:
        where = f"RG {g.id}"
        if not isinstance(g.raid, RaidType):
            self.err(where, f"RG {g.id} has an unknown RAID type {g.raid!r}")
            return
        if not g.drives:
            self.err(where, f"RG {g.id} has no drives")
            return
        types: list[DriveType] = []
        for loc in g.drives:
            d = self.p.drives.get(loc)
            if d is None:
                self.err(where, f"RG {g.id} uses slot {loc}, which holds no drive")
                continue
            if d.hot_spare:
                self.err(where, f"RG {g.id} uses drive {loc}, which is a hot spare")
            dt = self.catalog.drives.get(d.type_id)
            if dt is not None:
                types.append(dt)
        rule = pf.raid_rules.get(g.raid)
        if rule is None:
            offered = ", ".join(r.label for r in pf.raid_rules) or "none"
            self.err(where, f"RG {g.id} is {g.raid.label}, which the {pf.name} does not offer (offered: {offered})")
        else:
            if not rule.allows_width(g.width):
                self.err(where, f"RG {g.id} has {g.width} drive{'s' if g.width != 1 else ''}; on the "
                                f"{pf.name} {rule.describe()}")
            if rule.interfaces:
                bad = sorted({t.interface.value for t in types if t.interface not in rule.interfaces})
                if bad:
                    allowed = ", ".join(i.value for i in rule.interfaces)
                    self.err(where, f"RG {g.id}: {g.raid.label} on the {pf.name} takes {allowed} drives, "
                                    f"not {', '.join(bad)}")
        if types:
            interfaces = {t.interface for t in types}
            if len(interfaces) > 1:
                self.err(where, f"RG {g.id} mixes drive interfaces ({', '.join(sorted(i.value for i in interfaces))}); "
                                f"a RAID group uses one kind of drive")
            else:
                rpms = {t.rpm for t in types}
                if len(rpms) > 1:
                    self.warn(where, f"RG {g.id} mixes drive speeds ({', '.join(f'{r / 1000:g}k' for r in sorted(rpms))} rpm); "
                                     f"the group runs at the pace of the slowest")
            caps = {t.capacity_gb for t in types}
            if len(caps) > 1:
                lo = min(caps)
                self.warn(where, f"RG {g.id} mixes drive capacities ({', '.join(_gb(c) for c in sorted(caps))}); "
                                 f"every member is used as {_gb(lo)}")
            if g.raid is RaidType.R5 and Interface.SATA in interfaces:
                self.warn(where, f"RG {g.id} is RAID 5 on SATA drives: long rebuilds leave it exposed; "
                                 f"RAID 6 is recommended for SATA (Hitachi brief, 'Migration to SATA Volumes')")
        if g.raid is RaidType.R0:
            self.warn(where, f"RG {g.id} is RAID 0: it has no protection, one drive failure loses its data")
        self.check_geometry(g, where)

    def check_geometry(self, g: RaidGroup, where: str) -> None:
        """RAID 50/60 spans and a distributed group's stripe and spare capacity (RaidMath)."""
        m = g.math
        if g.raid.spanned:
            need = 3 if g.raid is RaidType.R50 else 4
            if m.span_width < need or g.width % m.span_width:
                self.err(where, f"RG {g.id}: {g.raid.label} needs equal spans of at least {need} drives; "
                                f"{g.width} drives do not split into spans of {m.span_width}")
        elif g.raid.distributed:
            if m.span_width < 4 or g.width < m.span_width + m.spare_drives:
                self.err(where, f"RG {g.id}: a {g.raid.label} of {m.span_width - 2}+2 stripes with "
                                f"{m.spare_drives} drives of spare capacity needs at least "
                                f"{max(m.span_width, 4) + m.spare_drives} drives, not {g.width}")
        elif g.stripe or g.spare:
            self.warn(where, f"RG {g.id}: stripe/spare apply to RAID 50/60 and distributed groups only; "
                             f"{g.raid.label} ignores them")

    # ------------------------------------------------------------ hot spares
    def check_spares(self) -> None:
        # (a distributed group has its spare capacity on its own drives: no hot spare needed)
        protected = [g for g in self.p.groups if isinstance(g.raid, RaidType) and g.raid is not RaidType.R0
                     and not g.raid.distributed and g.drives]
        if not self.p.hot_spares():
            if protected:
                names = ", ".join(f"RG {g.id}" for g in protected[:8]) + (" ..." if len(protected) > 8 else "")
                self.warn("project", f"the project has no hot spare: a drive that fails in {names} leaves "
                                     f"its group degraded until the drive is replaced")
            return
        spares = []
        for d in self.p.hot_spares():
            dt = self.catalog.drives.get(d.type_id)
            if dt is not None:
                spares.append((d, dt))
        for g in self.p.groups:
            if not isinstance(g.raid, RaidType) or g.raid is RaidType.R0:
                continue
            members = [self.drive_type(loc) for loc in g.drives]
            members = [m for m in members if m is not None]
            if not members:
                continue
            need_cap = max(m.capacity_gb for m in members)
            interfaces = {m.interface for m in members}
            ok = any(dt.interface in interfaces and dt.capacity_gb >= need_cap for _, dt in spares)
            if not ok:
                kind = "/".join(sorted(i.value for i in interfaces))
                self.warn(f"RG {g.id}", f"RG {g.id} has no compatible hot spare (needs a {kind} spare of at "
                                        f"least {_gb(need_cap)}): a failed drive waits for its replacement")

    # ------------------------------------------------------------ LUNs
    def check_luns(self) -> None:
        pf = self.platform
        assert pf is not None
        ids = Counter(l.id for l in self.p.luns)
        for lid, n in ids.items():
            if n > 1:
                self.err(f"LUN {lid}", f"LUN id {lid} is used by {n} LUNs")
        groups = {g.id: g for g in self.p.groups}
        controllers = pf.controller_names()
        free: dict[int, float] = {}
        usable: dict[int, float] = {}
        for g in self.p.groups:
            if not isinstance(g.raid, RaidType) or not g.drives:
                continue
            caps = [t.capacity_gb for t in (self.drive_type(loc) for loc in g.drives) if t is not None]
            if len(caps) != len(g.drives):
                continue
            usable[g.id] = g.math.usable_gb(min(caps))
            free[g.id] = usable[g.id]
        for l in sorted(self.p.luns, key=lambda x: (x.group_id if isinstance(x.group_id, int) else -1, x.id)):
            where = f"LUN {l.id}"
            if not _num(l.capacity_gb) or l.capacity_gb <= 0:
                self.err(where, f"LUN {l.id} has capacity {l.capacity_gb!r}; it must be a positive number of GB")
                cap_ok = False
            elif l.capacity_gb < MIN_LUN_GB:
                self.err(where, f"LUN {l.id} has capacity {l.capacity_gb:g} GB; the smallest LUN is 1 MB "
                                f"({MIN_LUN_GB:g} GB)")
                cap_ok = False
            else:
                cap_ok = True
            if l.group_id not in groups:
                self.err(where, f"LUN {l.id} is bound to RG {l.group_id}, which does not exist")
            elif cap_ok and l.group_id in free:
                if l.capacity_gb > free[l.group_id] + _EPS_GB:
                    left = max(free[l.group_id], 0.0)
                    self.err(where, f"LUN {l.id} ({_gb(l.capacity_gb)}) does not fit in RG {l.group_id}: "
                                    f"{_gb(round(left, 1))} free of {_gb(round(usable[l.group_id], 1))} usable")
                free[l.group_id] -= l.capacity_gb
            if l.owner not in controllers:
                self.err(where, f"LUN {l.id} is owned by {l.owner!r}, which is not a controller of the "
                                f"{pf.name} ({', '.join(controllers)})")
            if not _num(l.optimization) or l.optimization < 1:
                self.err(where, f"LUN {l.id}: layout optimization {l.optimization!r} must be a number of at least 1 "
                                f"(1 = optimal, as 'reallocate measure' reports)")
            for key, value in (l.settings or {}).items():
                spec = pf.lun_settings.get(key)
                if spec is None:
                    self.warn(where, f"LUN {l.id} has a setting {key!r} that the {pf.name} does not have; it is ignored")
                    continue
                msg = spec.check(value)
                if msg:
                    self.err(where, f"LUN {l.id}: {msg}")

    def check_formatted_space(self) -> None:
        """LUNs that fit a group's nominal capacity (checked above) but not what it holds once
        formatted and less the vault's system area (the platform's [capacity]): a warning, since
        the figures are the preset's."""
        pf = self.platform
        assert pf is not None
        cap = pf.capacity
        if cap.formatted_factor >= 1.0 and not cap.vault_reserved_gb:
            return
        from .capacity import drive_formatted_gb

        bound: dict[int, float] = {}
        for l in self.p.luns:
            if _num(l.capacity_gb) and l.capacity_gb > 0:
                bound[l.group_id] = bound.get(l.group_id, 0.0) + l.capacity_gb
        for g in self.p.groups:
            if not isinstance(g.raid, RaidType) or not g.drives or g.id not in bound:
                continue
            types = [self.drive_type(loc) for loc in g.drives]
            if any(t is None for t in types):
                continue
            per_drive = min(drive_formatted_gb(pf, t.capacity_gb, loc) for t, loc in zip(types, g.drives))
            usable = RaidMath(g.raid, g.width).usable_gb(per_drive)
            if bound[g.id] > usable + _EPS_GB:
                vault = [loc for loc in g.drives if loc in cap.vault_drives]
                why = f"; {len(vault)} of its drives are vault drives, {_gb(cap.vault_reserved_gb)} each reserved" \
                    if vault and cap.vault_reserved_gb else ""
                self.warn(f"RG {g.id}", f"RG {g.id}: its LUNs take {_gb(round(bound[g.id], 1))}, more than the "
                                        f"{_gb(round(usable, 1))} it holds formatted (x{cap.formatted_factor:g} of the "
                                        f"nominal drive size{why}); the array would refuse the last LUNs")

    # ------------------------------------------------------------ cache and features
    def check_cache(self) -> None:
        pf = self.platform
        assert pf is not None
        for key, value in (self.p.cache or {}).items():
            spec = pf.cache_settings.get(key)
            if spec is None:
                self.warn(f"cache.{key}", f"cache setting {key!r} does not exist on the {pf.name}; it is ignored")
                continue
            msg = spec.check(value)
            if msg:
                self.err(f"cache.{key}", f"cache: {msg}")
        eff = {**pf.default_cache(), **(self.p.cache or {})}
        read, write, memory = eff.get("read_cache_mb"), eff.get("write_cache_mb"), pf.capacity.cache_memory_mb
        if memory and _num(read) and _num(write) and read + write > memory:
            self.warn("cache.read_cache_mb", f"cache: read cache {read:,.0f} MB + write cache {write:,.0f} MB = "
                                             f"{read + write:,.0f} MB, more than the {memory:,.0f} MB of cache memory "
                                             f"per controller of the {pf.name}; lower one of them")
        hi, lo = eff.get("high_watermark_pct"), eff.get("low_watermark_pct")
        if _num(hi) and _num(lo) and lo >= hi:
            self.err("cache.low_watermark_pct", f"cache: the low watermark ({lo:g}%) must be below the high "
                                                f"watermark ({hi:g}%)")

    def check_features(self) -> None:
        pf = self.platform
        assert pf is not None
        for fid, on in (self.p.features or {}).items():
            if fid not in pf.features:
                offered = ", ".join(sorted(pf.features)) or "none"
                self.err(f"feature {fid}", f"feature {fid!r} is not offered by the {pf.name} (offered: {offered})")
            elif not isinstance(on, bool):
                self.err(f"feature {fid}", f"feature {fid!r} must be enabled (true) or disabled (false), not {on!r}")

    # ------------------------------------------------------------ workloads
    def check_workloads(self) -> None:
        ids = Counter(w.id for w in self.p.workloads)
        for wid, n in ids.items():
            if n > 1:
                self.err(f"workload {wid}", f"workload id {wid!r} is used by {n} workloads")
        lun_ids = {l.id for l in self.p.luns}
        for w in self.p.workloads:
            self.check_workload(w, lun_ids, f"workload {w.id}", f"workload {w.id!r}")

    def check_workload(self, w: Workload, lun_ids: set[int], where: str, name: str,
                       scenario: str | None = None) -> None:
        def bad(text: str) -> None:
            self.err(where, f"{name}: {text}" if name else text, scenario)

        if not w.luns:
            bad("it runs on no LUN")
        for lid in w.luns:
            if lid not in lun_ids:
                bad(f"LUN {lid} does not exist")
        # the engine spreads the load per listed entry: a repeated LUN would get a larger share
        for lid, n in Counter(w.luns).items():
            if n > 1:
                bad(f"LUN {lid} is listed {n} times; list each LUN once")
        if w.mode not in ("open", "closed"):
            bad(f"mode {w.mode!r} must be 'open' (a fixed IOPS rate) or 'closed' (a fixed number of outstanding I/Os)")
        if not _num(w.iops) or w.iops < 0:
            bad(f"IOPS {w.iops!r} must be zero or a positive number")
        elif w.iops > MAX_IOPS:
            bad(f"IOPS {w.iops:,.0f} is not a plausible host load (limit {MAX_IOPS:,})")
        if not isinstance(w.outstanding, int) or isinstance(w.outstanding, bool) or not 0 <= w.outstanding <= MAX_OUTSTANDING:
            bad(f"outstanding I/Os {w.outstanding!r} must be a whole number from 0 (idle) to {MAX_OUTSTANDING}")
        if not _num(w.think_ms) or not 0 <= w.think_ms <= MAX_THINK_MS:
            bad(f"think time (think_ms) {w.think_ms!r} ms must be a number from 0 (the next I/O at once) "
                f"to {MAX_THINK_MS:,.0f} ms")
        elif w.mode == "open" and w.think_ms > 0 and scenario is None:
            self.warn(where, f"{name}: think time {w.think_ms:g} ms is used only by closed workloads; "
                      "this open workload ignores it", scenario)
        for label, v in (("read share", w.read_pct), ("random share", w.random_pct)):
            if not _num(v) or not 0 <= v <= 100:
                bad(f"{label} {v!r}% must be between 0 and 100")
        if w.read_hit_pct is not None and (not _num(w.read_hit_pct) or not 0 <= w.read_hit_pct <= 100):
            bad(f"read cache hit {w.read_hit_pct!r}% must be between 0 and 100")
        if not _num(w.io_kb) or w.io_kb <= 0 or w.io_kb > MAX_IO_KB:
            bad(f"I/O size {w.io_kb!r} KB must be more than 0 and at most {MAX_IO_KB} KB")
        if w.response_target_ms is not None and (not _num(w.response_target_ms) or w.response_target_ms <= 0):
            bad(f"response-time target {w.response_target_ms!r} ms must be a positive number")
        # going idle (open: iops 0, closed: outstanding 0) is what a workload change is for; on the
        # workload itself it is worth a word
        if w.mode == "open" and _num(w.iops) and w.iops == 0 and scenario is None:
            self.warn(where, f"{name}: an open workload with 0 IOPS puts no load on the array", scenario)
        if w.mode == "closed" and w.outstanding == 0 and scenario is None:
            self.warn(where, f"{name}: a closed workload with 0 outstanding I/Os puts no load on the array", scenario)

    # ------------------------------------------------------------ scenarios and events
    def scenario_lookups(self) -> tuple[dict[int, Lun], set[int], dict[str, RaidGroup], dict[int, str],
                                        dict[str, Workload]]:
        """What the events' rules look up in the layout: LUNs by id, their ids, each drive's RAID
        group, the workload on each LUN, workloads by id (the first with the id, as
        Project.group_of_drive and Project.workload find them). Built once per layout: validate()
        keeps them in its cache (on the 960-drive plan they were a fifth of an event edit's check)."""
        if self.lookups is None:
            luns = {l.id: l for l in self.p.luns}
            group_of_drive = {loc: g for g in reversed(self.p.groups) for loc in g.drives}
            workloads = {w.id: w for w in reversed(self.p.workloads)}
            self.lookups = (luns, set(luns), group_of_drive, _workload_luns(self.p), workloads)
        return self.lookups

    def check_scenarios(self, only: str | None, own_configuration: frozenset[str] = frozenset()) -> None:
        """The scenario list and each scenario's events (`only`: just that one's); the scenarios
        in `own_configuration` are left to _overlay_issues (they run on another layout)."""
        names = Counter(s.name for s in self.p.scenarios)
        for n, c in names.items():
            if c > 1:
                self.err(f"scenario {n}", f"scenario name {n!r} is used by {c} scenarios")
        if not self.p.scenarios:
            self.err("project", "the project has no scenario")
        if self.p.current_scenario not in names:
            self.err("project", f"the current scenario {self.p.current_scenario!r} does not exist")
        if self.p.baseline_scenario is not None and self.p.baseline_scenario not in names:
            self.err("project", f"the baseline scenario {self.p.baseline_scenario!r} does not exist")
        for s in self.p.scenarios:
            if (only is None or s.name == only) and s.name not in own_configuration:
                too_many = too_many_events(self.p, s.name)
                if too_many:  # not simulated at all: its events are not checked either (slow)
                    self.err(f"scenario {s.name}", too_many, s.name)
                    continue
                self.check_scenario(s)
        if only is not None and only not in names:
            self.err(f"scenario {only}", f"scenario {only!r} does not exist")

    def check_scenario(self, s: Scenario) -> None:
        pf = self.platform
        assert pf is not None
        sc = s.name
        ids = Counter(e.id for e in s.events)
        for eid, n in ids.items():
            if n > 1:
                self.err(eid, f"{sc}: event id {eid!r} is used by {n} events", sc)
        luns, lun_ids, group_of_drive, workload_luns, workloads = self.scenario_lookups()
        failed: dict[str, str] = {}  # drive -> id of the failure that is not yet replaced
        migration_dests: dict[int, str] = {}
        migration_sources: dict[int, str] = {}
        enabled: dict[str, str] = {}  # feature -> id of the event that enabled it
        loads: dict[str, Workload] = {}  # workload id -> the workload after the changes so far
        ordered = sorted(s.events, key=lambda e: (e.start_h if _num(e.start_h) else 0.0))

        # an issue of `e`, the event the loop below is at; its name is built only for an issue
        def bad(text: str) -> None:
            self.err(e.id, f"{_event_name(sc, e)}: {text}", sc)

        def note(text: str) -> None:
            self.warn(e.id, f"{_event_name(sc, e)}: {text}", sc)

        for e in ordered:
            if not all(map(_plainly_storable, vars(e).values())):  # the walk only when it may find something
                for at, why in storage_problems(e):
                    bad(f"{at} {why}")
            if not _num(e.start_h) or e.start_h < 0:
                bad(f"start time {e.start_h!r} h must be zero or a positive number of hours")
            elif e.start_h > MAX_START_H:
                bad(f"start time {e.start_h:,.0f} h is more than ten years ahead "
                    f"(the latest start is {MAX_START_H:,.0f} h)")
            if e.is_operation:
                spec = pf.operations.get(e.kind)
                prio = getattr(e, "priority")
                if spec is None:
                    bad(f"the {pf.name} does not offer {_kind_label(e)}")
                elif prio not in spec.priorities:
                    # a level matches without regard to case, as the engine reads it
                    # (app/engine/policy.py canonical_level): said, so the file can be corrected
                    same = [lv for lv in spec.priorities if isinstance(prio, str) and lv.lower() == prio.lower()]
                    if same:
                        note(f"priority {prio!r} is read as {same[0]!r}: levels match without regard to case; "
                             f"the {pf.name} spells them {', '.join(spec.priorities)}")
                    else:
                        bad(f"priority {prio!r} is not offered by the {pf.name} for {_kind_label(e)} "
                            f"(offered: {', '.join(spec.priorities)})")
            if isinstance(e, LunMigration):
                src, dst = luns.get(e.source_lun), luns.get(e.dest_lun)
                if src is None:
                    bad(f"source LUN {e.source_lun} does not exist")
                if dst is None:
                    bad(f"destination LUN {e.dest_lun} does not exist")
                if e.source_lun == e.dest_lun:
                    bad(f"LUN {e.source_lun} cannot be migrated onto itself")
                elif src is not None and dst is not None:
                    for text in _destination_problems(src, dst, workload_luns, "destination"):
                        bad(text)
                    if e.dest_lun in migration_dests:
                        bad(f"destination LUN {dst.id} is already the destination of {migration_dests[e.dest_lun]}")
                    if e.dest_lun in migration_sources:
                        bad(f"destination LUN {dst.id} is the source of {migration_sources[e.dest_lun]}")
                    if e.source_lun in migration_sources:
                        bad(f"source LUN {src.id} is already migrated by {migration_sources[e.source_lun]}")
                migration_dests.setdefault(e.dest_lun, e.id)
                migration_sources.setdefault(e.source_lun, e.id)
            elif isinstance(e, DriveFailure):
                d = self.p.drives.get(e.drive)
                if d is None:
                    bad(f"drive {e.drive} does not exist")
                else:
                    if e.drive in failed:
                        bad(f"drive {e.drive} already failed in {failed[e.drive]} and was not replaced")
                    if d.hot_spare:
                        # modelled (docs/model.md 4.2): a what-if, not a mistake
                        note(f"drive {e.drive} is a hot spare: its failure takes it out of the spare pool, and a "
                             "rebuild writing onto it starts again on another spare or waits for a replacement")
                    elif (g := group_of_drive.get(e.drive)) is None:
                        note(f"drive {e.drive} is in no RAID group, so its failure needs no rebuild")
                    else:
                        down = [loc for loc in g.drives if loc in failed] + [e.drive]
                        # which members may fail together: RaidMath.loses_data (RAID 1/0: both
                        # drives of one mirror pair, pairs by member order)
                        lost = (g.math.loses_data({k for k, loc in enumerate(g.drives) if loc in down})
                                if isinstance(g.raid, RaidType) else len(set(down)) > 0)
                        if lost:
                            note(f"RG {g.id} ({g.raid.label if isinstance(g.raid, RaidType) else g.raid}) "
                                 f"loses its data: {len(set(down))} of its drives are failed at once "
                                 f"({', '.join(sorted(set(down)))})"
                                 + (" including both drives of a mirror pair" if isinstance(g.raid, RaidType)
                                    and g.math.is_mirror else f", it survives {g.math.failures_tolerated}"
                                    if isinstance(g.raid, RaidType) else ""))
                    failed[e.drive] = e.id
            elif isinstance(e, DriveReplacement):
                if e.drive not in self.p.drives:
                    bad(f"drive {e.drive} does not exist")
                elif e.drive not in failed:
                    bad(f"drive {e.drive} is replaced but has not failed before {e.start_h:g} h")
                else:
                    del failed[e.drive]
            elif isinstance(e, Bind):
                if e.lun not in luns:
                    bad(f"LUN {e.lun} does not exist")
                else:
                    # a bind zeroes the LUN (docs/model.md 4.3): it prepares a new LUN, it does not
                    # keep data, so binding a LUN that holds data is modelled but unlikely meant
                    if e.lun in workload_luns:
                        note(f"LUN {e.lun} is in use by workload {workload_luns[e.lun]!r}: a bind zeroes "
                             f"a new LUN, binding one that hosts data would erase it")
                    if e.lun in migration_dests:
                        note(f"LUN {e.lun} is the destination of {migration_dests[e.lun]}: a bind zeroes "
                             f"the LUN, erasing what the migration copies there")
            elif isinstance(e, VolumeMigration):
                if not e.moves:
                    bad("it moves no volume")
                targets: Counter[int] = Counter()
                for pair in e.moves:
                    if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                        bad(f"move {pair!r} must be a pair [source LUN, target LUN]")
                        continue
                    a, b = pair
                    la, lb = luns.get(a), luns.get(b)
                    if la is None:
                        bad(f"source volume LUN {a} does not exist")
                    if lb is None:
                        bad(f"target volume LUN {b} does not exist")
                    if a == b:
                        bad(f"LUN {a} cannot be migrated onto itself")
                    elif la is not None and lb is not None:
                        for text in _destination_problems(la, lb, workload_luns, "target"):
                            bad(text)
                    targets[b] += 1
                for b, n in targets.items():
                    if n > 1:
                        bad(f"target LUN {b} is the target of {n} moves")
            elif isinstance(e, Reallocate):
                if e.lun not in luns:
                    bad(f"LUN {e.lun} does not exist")
                lo, hi = REALLOCATE_THRESHOLD
                if not _num(e.threshold) or not lo <= e.threshold <= hi:
                    bad(f"threshold {e.threshold!r} must be between {lo:g} and {hi:g} "
                        f"(WAFL optimization: 1 optimal, 10 very unoptimized)")
            elif isinstance(e, FeatureEnable):
                if e.feature not in pf.features:
                    offered = ", ".join(sorted(pf.features)) or "none"
                    bad(f"feature {e.feature!r} is not offered by the {pf.name} (offered: {offered})")
                elif self.p.features.get(e.feature):
                    note(f"feature {e.feature!r} is already enabled at the start of the plan")
                elif e.feature in enabled:
                    note(f"feature {e.feature!r} is already enabled by {enabled[e.feature]}; enabling it "
                         f"again adds another outage (the controllers reboot) and nothing else")
                enabled.setdefault(e.feature, e.id)
            elif isinstance(e, WorkloadChange):
                try:
                    w = workloads[e.workload]
                except (KeyError, TypeError):  # TypeError: an id that is no key (a list) is no workload's
                    bad(f"workload {e.workload!r} does not exist")
                    continue
                unknown = sorted(set(e.changes) - _CHANGEABLE)
                if unknown:
                    bad(f"workloads have no field{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
                    continue
                changed = _changed(w, e.changes)
                self.check_workload(changed, lun_ids, e.id, f"{_event_name(sc, e)}: workload {w.id!r} after the change", sc)
                # errors are judged against the workload as defined (one bad change is reported
                # once); whether a change does anything against the changes before it
                now = loads.get(w.id, w)
                loads[w.id] = after = changed if now is w else _changed(now, e.changes)
                why = _no_effect(now, after, e.changes)
                if why:
                    note(f"it has no effect: {why}")


def _event_name(scenario: str, e: Event) -> str:
    """'Baseline: op3 (bind)': how an event's issues start."""
    return f"{printable(str(scenario))}: {printable(str(e.id))} ({_kind_label(e)})"


# the Workload fields a workload change may set
_CHANGEABLE = frozenset(f.name for f in fields(Workload)) - {"id"}


def _changed(w: Workload, changes: dict) -> Workload:
    """dataclasses.replace(w, **changes) for `changes` of _CHANGEABLE fields, 3x faster (a
    Workload has only init fields and no __post_init__); only read: no deep copy."""
    return Workload(**{**vars(w), **changes})


def _workload_luns(project: Project) -> dict[int, str]:
    """LUN id -> the id of a workload on it."""
    return {lid: w.id for w in project.workloads for lid in w.luns}


def _destination_problems(src: Lun, dst: Lun, workload_luns: dict[int, str], noun: str) -> list[str]:
    """Why `dst` cannot receive a copy of `src` (a LUN migration's destination, a volume
    migration's target); [] when it can."""
    out = []
    if _num(src.capacity_gb) and _num(dst.capacity_gb) and dst.capacity_gb + _EPS_GB < src.capacity_gb:
        out.append(f"{noun} LUN {dst.id} ({_gb(dst.capacity_gb)}) is smaller than source LUN {src.id} "
                   f"({_gb(src.capacity_gb)}); a {noun} must be at least as large")
    if dst.id in workload_luns:
        out.append(f"{noun} LUN {dst.id} is in use by workload {workload_luns[dst.id]!r}; a {noun} must be "
                   f"an unused LUN")
    return out


def _no_effect(before: Workload, after: Workload, changes: dict) -> str | None:
    """Why a workload change that turns `before` into `after` changes nothing the engine reads."""
    if not changes:
        return "it changes no field"
    # the engine reads IOPS of open workloads only, outstanding I/Os and think time of closed ones only
    ignored = {"closed": ("iops",), "open": ("outstanding", "think_ms")}.get(after.mode, ())
    effective = [k for k in changes if k not in ignored and getattr(before, k) != getattr(after, k)]
    if effective:
        return None
    unused = [k for k in ignored if k in changes]
    if unused:
        kind = {"closed": "closed-loop (a fixed number of outstanding I/Os)",
                "open": "open-loop (a fixed IOPS rate)"}[after.mode]
        what = " and ".join({"iops": "IOPS", "outstanding": "outstanding I/Os", "think_ms": "think time"}[k]
                            for k in unused)
        return f"workload {before.id!r} is {kind}, so its {what} {'is' if unused == ['think_ms'] else 'are'} not used"
    return f"workload {before.id!r} already has {', '.join(f'{k}={v!r}' for k, v in changes.items())}"


def migration_targets(project: Project, source_lun: int, taken: Iterable[int] = ()) -> list[int]:
    """LUNs a copy of `source_lun` can go to (the rules of check_scenario: at least as large,
    unused, not the source), other RAID groups first; `taken`: LUNs to leave out (targets
    already chosen, the ends of other migrations)."""
    luns = {l.id: l for l in project.luns}
    src = luns.get(source_lun)
    if src is None:
        return []
    used = _workload_luns(project)
    skip = set(taken) | {source_lun}
    fits = [l for l in project.luns if l.id not in skip and not _destination_problems(src, l, used, "destination")]
    # another group first (a migration is to move the data off its group), then the tightest fit
    fits.sort(key=lambda l: (l.group_id == src.group_id, l.capacity_gb, l.id))
    return [l.id for l in fits]


def unused_luns(project: Project) -> list[int]:
    """LUNs no workload uses (a bind's natural subject)."""
    used = _workload_luns(project)
    return [l.id for l in project.luns if l.id not in used]


def event_issues(project: Project, catalog: Catalog, event: Event, scenario: str | None = None,
                 layout_cache: dict | None = None) -> list[Issue]:
    """The issues `event` brings to `scenario` (default: the current one), as the rules above
    judge it: the issues of a throwaway copy of the scenario with the event (in place of an
    event with its id) that a copy without it does not have: the event's own and those it
    causes in other events. Nothing in `project` changes."""
    import copy as _copy

    name = scenario or project.current_scenario

    def trial(*added: Event) -> Project:
        p = _copy.copy(project)  # shares the layout: validation only reads it
        p.scenarios = [replace(s, events=[x for x in s.events if x.id != event.id] + list(added))
                       if s.name == name else s for s in project.scenarios]
        return p

    cache = layout_cache if layout_cache is not None else {}
    without = set(validate(trial(), catalog, name, layout_cache=cache))
    return [i for i in validate(trial(event), catalog, name, layout_cache=cache) if i not in without]


# what the layout's rules read besides the catalog: every Project container but the scenarios
# (compared by identity), the platform and the horizon (by value)
_LAYOUT_CONTAINERS = ("enclosures", "drives", "groups", "luns", "cache", "features", "workloads")


def drives_left(project: Project, platform: Platform) -> int | None:
    """How many more drives the platform can address (negative: the project is over its
    max_drives); None: no limit beyond the slots. The one limit rule: validation and the drop
    checks (ops) both use it."""
    return platform.max_drives - len(project.drives) if platform.max_drives else None


def validate(project: Project, catalog: Catalog, scenario: str | None = None,
             layout_cache: dict | None = None) -> list[Issue]:
    """All issues of `project` (errors first, then warnings, each in a stable order).

    scenario: check only this scenario's events (the layout is always checked); None = all.
    layout_cache: a dict kept by the caller between calls, for a copy of the project whose
    containers are replaced, never modified in place (the engine worker's replica): the layout
    is checked again only when the catalog or one of the layout's containers is another object
    (an event edit on the 960-drive plan: ~1/5 of the time); the lookups the events' rules make
    in the layout (_Checker.scenario_lookups) are kept with it."""
    c = _Checker(project, catalog)
    objects = (catalog, *(getattr(project, a) for a in _LAYOUT_CONTAINERS))
    values = (project.platform_id, project.horizon_h)
    cache = layout_cache if layout_cache is not None else {}
    if cache.get("values") == values and all(a is b for a, b in zip(cache.get("objects", ()), objects)):
        c.issues, complete, c.lookups = list(cache["issues"]), cache["complete"], cache["lookups"]
    else:
        complete = c.check_layout()
        cache.update(objects=objects, values=values, issues=list(c.issues), complete=complete, lookups=None)
    own = frozenset(s.name for s in project.scenarios if s.overlay is not None)
    if complete:
        try:
            c.check_scenarios(scenario, own)
        except Exception as exc:  # noqa: BLE001 - see check_layout
            c.tripped(exc)
        cache["lookups"] = c.lookups
    base_layout = {(i.severity, i.where, i.text) for i in c.issues if i.scenario is None}
    for s in project.scenarios:
        if s.name in own and (scenario is None or s.name == scenario):
            c.issues.extend(_overlay_issues(project, catalog, s.name, base_layout))
    return sorted(c.issues, key=lambda i: 0 if i.severity == ERROR else 1)


def _overlay_issues(project: Project, catalog: Catalog, name: str, base_layout: set) -> list[Issue]:
    """The issues of a scenario with a configuration of its own: its effective project's layout
    issues that the base does not have (as the scenario's, named by it: they block only its
    run), and its events checked against that layout."""
    from .overlay import effective_project

    try:
        eff = effective_project(project, name)
    except Exception as exc:  # noqa: BLE001 - a damaged overlay is reported, never a crash
        return [Issue(ERROR, f"scenario {name}", f"{printable(str(name))}: its configuration could not be "
                                                  f"applied ({type(exc).__name__}: {exc})", name)]
    c = _Checker(eff, catalog)
    complete = c.check_layout()
    out = [Issue(i.severity, i.where, f"{printable(str(name))}: {i.line}", name)
           for i in c.issues if (i.severity, i.where, i.text) not in base_layout]
    if complete:
        c.issues = []
        try:
            c.check_scenarios(name)
        except Exception as exc:  # noqa: BLE001 - see check_layout
            c.tripped(exc)
        # the list-wide checks (names used twice, current scenario) are the base checker's
        out.extend(i for i in c.issues if i.scenario == name)
    return out


def storage_issues(project: Project) -> list[Issue]:
    """The errors of values a project file cannot store (the rule validate() runs among the
    others), for a command that writes a project without checking it all (export, import)."""
    c = _Checker(project, Catalog({}, {}))
    c.check_storable()
    for s in project.scenarios:
        for e in s.events:
            for at, why in storage_problems(e):
                c.err(e.id, f"{_event_name(s.name, e)}: {at} {why}", s.name)
    return c.issues


def has_errors(project: Project, catalog: Catalog, scenario: str | None = None) -> bool:
    return any(i.severity == ERROR for i in validate(project, catalog, scenario))
