"""Goal seek: the cheapest designs of the project's platform that meet its goals.

    result = goal_seek(project, catalog, SizingGoal(response_ms=10, usable_gb=20_000,
                                                    rebuild_hours=6, rebuild_priority="High"))
    result.chosen, result.front, result.runs

A design is a drive type, a RAID level and width, a number of RAID groups, hot spares (one per
`spares_per` drives, at least one), the enclosures and buses they need, the premium features on
or off, and a size of each cache setting the platform is sold in sizes of (`sizes` in its
preset; priced by the price list's [cache] table). The workloads keep their mix; each is spread over every LUN of the design
(one LUN per group, the group's usable capacity), at today's load grown by `growth_pct`.

A design meets the goals when the engine says so:
- steady response: the worst workload's response under the grown load, all demand served;
- rebuild window: a drive of the first group fails at the start under that load and its
  rebuild (to a hot spare) at the chosen priority ends within `rebuild_hours`, with the
  response during it within `rebuild_response_ms` when given;
- capacity: usable >= `usable_gb` (default: today's LUNs);
- reliability: every group's MTTDL at least `mttdl_years`: the figure the GUI and the report
  show (app/engine/reliability.py: the rebuild time under the grown load, a pool's critical
  window).

The search prunes instead of enumerating: per family (drive type, RAID level, width, features)
the capacity goal and the platform's slots and drive limit bound the group count first (no
engine run); then, since the model never slows down when the same load is spread over more
drives (tests/test_goal_seek.py checks it), the fewest groups that meet the goals are found by
doubling and bisection, two engine runs per probe. Families run in parallel on the executor
(app/service/runner.py). Cost comes from a price list (presets/prices.toml, or the user's),
else it is the drive count. No Qt here.
"""
from __future__ import annotations

import copy
import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from itertools import product
from typing import Callable, Mapping, Sequence

from app.domain.hardware import Catalog, Platform
from app.domain.prices import PriceList
from app.domain.project import Drive, DriveFailure, Enclosure, Lun, Project, RaidGroup, slot_id
from app.domain.raid import RaidMath, RaidType
from app.domain.validation import ERROR, validate

from .runner import RunJob, run_jobs
from .sweep import measure

HOURS_PER_YEAR = 8766.0
TRIAL_WIDTHS = (4, 5, 6, 8, 9, 10, 12, 14, 16)  # widths tried where the platform allows them
MAX_WIDTHS_PER_RAID = 3
STEADY_H = 4.0  # the steady run: the grown load alone, measured over its second half


@dataclass(frozen=True)
class SizingGoal:
    response_ms: float
    growth_pct: float = 0.0
    usable_gb: float | None = None          # None: today's LUN capacity
    rebuild_hours: float | None = None
    rebuild_priority: str | None = None     # None: the platform's default for a drive failure
    rebuild_response_ms: float | None = None
    mttdl_years: float | None = None
    drive_types: tuple[str, ...] = ()       # empty: every type the platform takes
    raid_types: tuple[RaidType, ...] = ()   # empty: every protected level the platform allows
    spares_per: int = 30                    # one hot spare per this many drives (a common guideline)
    search_features: bool = True            # try each premium feature on and off
    search_cache: bool = True               # try each cache size the platform is sold in


@dataclass(frozen=True)
class Family:
    drive_type: str
    raid: RaidType
    width: int
    features: tuple[tuple[str, bool], ...] = ()
    cache: tuple[tuple[str, float], ...] = ()  # (cache setting, size): the sizes the platform sells

    @property
    def label(self) -> str:
        on = [f for f, v in self.features if v] + [f"{k} {v:g}" for k, v in self.cache]
        return f"{self.width}-drive {self.raid.label} on {self.drive_type}" + (f" + {', '.join(on)}" if on else "")


@dataclass
class Candidate:
    family: Family
    groups: int
    drives: int = 0
    spares: int = 0
    enclosures: int = 0
    buses: int = 0
    usable_gb: float = 0.0
    response_ms: float = math.nan
    rebuild_h: float | None = None
    rebuild_response_ms: float = math.nan
    mttdl_h: float | None = None
    cost: float = 0.0
    meets: bool = False
    why_not: list[str] = field(default_factory=list)
    runs: int = 0

    @property
    def label(self) -> str:
        return f"{self.groups} x {self.family.label} ({self.drives} drives, {self.spares} spares)"


@dataclass
class SizingResult:
    goal: SizingGoal
    candidates: list[Candidate]       # the best try of each family (met or not)
    front: list[Candidate]            # Pareto front of the designs that meet the goals
    chosen: Candidate | None          # the cheapest of the front
    runs: int                         # engine runs used
    cost_unit: str                    # "price" (from the price list) or "drives"
    families: int

    # methods, so the report (which does not import the service layer) asks the result itself
    def verdict(self, c: Candidate) -> str:
        """A design's verdict: against the chosen one if it meets the goals, else why not."""
        if c.meets and self.chosen is not None:
            return against_chosen(c, self.chosen)
        return "meets" if c.meets else "; ".join(c.why_not)

    @property
    def chosen_reason(self) -> str:
        return chosen_reason(self)


# ---------------------------------------------------------------- prices

def design_cost(c: Candidate, enclosure_type: str, prices: PriceList, by_price: bool) -> float:
    if not by_price:
        return float(c.drives + c.spares)
    cost = (c.drives + c.spares) * prices.drives[c.family.drive_type]
    cost += c.enclosures * prices.enclosures.get(enclosure_type, 0.0)
    cost += sum(prices.features.get(f, 0.0) for f, on in c.family.features if on)
    cost += sum(prices.cache_price(k, size) for k, size in c.family.cache)
    return cost


# ---------------------------------------------------------------- designs

def families(project: Project, catalog: Catalog, goal: SizingGoal) -> list[Family]:
    platform = catalog.platform(project.platform_id)
    types = [t for t in (goal.drive_types or platform.drive_types) if t in catalog.drives]
    out = []
    feats = [f for f in platform.features] if goal.search_features else []
    feature_sets = [tuple(zip(feats, bits)) for bits in product((False, True), repeat=len(feats))] or [()]
    if not goal.search_features:
        feature_sets = [tuple((f, bool(project.features.get(f))) for f in platform.features)]
    # the cache settings the platform is sold in sizes of: each size is a family of its own
    sized = [(k, spec.sizes) for k, spec in platform.cache_settings.items() if spec.sizes] if goal.search_cache else []
    cache_sets = [tuple(zip([k for k, _ in sized], pick)) for pick in product(*[sz for _, sz in sized])] or [()]
    for t in types:
        iface = catalog.drive(t).interface
        if _enclosure_for(platform, catalog, t) is None:
            continue
        for rt, rule in platform.raid_rules.items():
            if rt is RaidType.R0 or (goal.raid_types and rt not in goal.raid_types):
                continue  # an unprotected group cannot rebuild: never a sizing answer
            if rule.interfaces and iface not in rule.interfaces:
                continue
            widths = [w for w in TRIAL_WIDTHS if rule.allows_width(w)][:MAX_WIDTHS_PER_RAID]
            for w in widths:
                for fs in feature_sets:
                    out += [Family(t, rt, w, fs, cs) for cs in cache_sets]
    return out


def _enclosure_for(platform: Platform, catalog: Catalog, drive_type: str):
    drive = catalog.drive(drive_type)
    for eid, et in platform.enclosure_types.items():
        if et.interfaces and drive.interface not in et.interfaces:
            continue
        if et.size_problem(drive):
            continue
        return eid
    return None


def slot_limit(platform: Platform, catalog: Catalog, drive_type: str) -> int:
    eid = _enclosure_for(platform, catalog, drive_type)
    if eid is None:
        return 0
    slots = platform.buses * platform.max_enclosures_per_bus * platform.enclosure_types[eid].slots
    return min(slots, platform.max_drives) if platform.max_drives else slots


def spares_for(drives: int, spares_per: int) -> int:
    return max(1, math.ceil(drives / max(spares_per, 1)))


def build_design(base: Project, catalog: Catalog, fam: Family, groups: int, spares_per: int) -> Project:
    """A copy of `base` with the design's hardware: enclosures round-robin over the buses, the
    groups' drives in slot order, then the hot spares; one LUN per group; every workload spread
    over every LUN. The scenarios keep no events (the goal runs make their own)."""
    platform = catalog.platform(base.platform_id)
    eid = _enclosure_for(platform, catalog, fam.drive_type)
    slots = platform.enclosure_types[eid].slots
    n_drives = groups * fam.width
    total = n_drives + spares_for(n_drives, spares_per)
    p = copy.deepcopy(base)
    n_enc = math.ceil(total / slots)
    p.enclosures = [Enclosure(k % platform.buses, k // platform.buses, eid) for k in range(n_enc)]
    locs = [slot_id(e.bus, e.position, s) for e in p.enclosures for s in range(slots)][:total]
    p.drives = {loc: Drive(loc, fam.drive_type, i >= n_drives) for i, loc in enumerate(locs)}
    p.groups = [RaidGroup(g, fam.raid, locs[g * fam.width:(g + 1) * fam.width]) for g in range(groups)]
    per_drive = catalog.drive(fam.drive_type).capacity_gb
    owners = platform.controller_names()
    p.luns = [Lun(g, g, round(p.groups[g].math.usable_gb(per_drive), 3), owners[g % len(owners)])
              for g in range(groups)]
    for w in p.workloads:
        w.luns = [l.id for l in p.luns]
    p.features = {**p.features, **{f: on for f, on in fam.features}}
    p.cache = {**p.cache, **{k: size for k, size in fam.cache}}
    for sc in p.scenarios:
        sc.events = []
    return p


# ---------------------------------------------------------------- evaluating one design

def evaluate(base: Project, catalog: Catalog, fam: Family, groups: int, goal: SizingGoal,
             needed_gb: float, quick: bool = False) -> Candidate:
    """The design of `groups` groups of `fam`, run by the engine against the goals. quick: stop
    at the first goal missed (a search probe)."""
    from app.engine.simulate import simulate
    from .sweep import scaled_project

    platform = catalog.platform(base.platform_id)
    p = build_design(base, catalog, fam, groups, goal.spares_per)
    c = Candidate(fam, groups, drives=groups * fam.width, spares=sum(d.hot_spare for d in p.drives.values()),
                  enclosures=len(p.enclosures), buses=len({e.bus for e in p.enclosures}),
                  usable_gb=sum(l.capacity_gb for l in p.luns))
    if c.usable_gb < needed_gb:
        c.why_not.append(f"usable {c.usable_gb:,.0f} GB < {needed_gb:,.0f} GB")
    errors = [i for i in validate(p, catalog) if i.severity == ERROR]
    if errors:
        c.why_not.append(f"not a valid configuration: {errors[0].text}")
        return c
    factor = 1.0 + goal.growth_pct / 100.0
    sc = p.current_scenario
    steady = scaled_project(p, sc, factor)
    steady.horizon_h = STEADY_H
    r = simulate(steady, catalog, sc)
    c.runs += 1
    step = measure(r, steady, factor, None)
    c.response_ms = step.worst_response_ms
    if step.saturated:
        c.why_not.append(f"saturated ({step.limiting} {step.utilisation_pct.get(step.limiting, 0):.0f}%)")
    elif not c.response_ms <= goal.response_ms:
        c.why_not.append(f"response {c.response_ms:.1f} ms > {goal.response_ms:g} ms")
    if c.why_not and quick:
        return c  # a probe only needs "meets or not": the rebuild run would not change it
    if goal.rebuild_hours is not None or goal.mttdl_years is not None or goal.rebuild_response_ms is not None:
        prio = rebuild_priority(platform, goal)
        failing = scaled_project(p, sc, factor)
        failing.horizon_h = None
        failing.scenario(sc).events = [DriveFailure("rebuild", 0.0, p.groups[0].drives[0], prio)]
        rr = simulate(failing, catalog, sc)
        c.runs += 1
        op = rr.operation("rebuild")
        rebuild = next((ph for ph in op.phases if ph.name == "rebuild"), None)
        c.rebuild_h = rebuild.duration_h if rebuild is not None else op.duration_h
        c.rebuild_response_ms = measure(rr, failing, factor, "rebuild").worst_response_ms
        c.mttdl_h = worst_mttdl(rr)
        if goal.rebuild_hours is not None and not (c.rebuild_h is not None and c.rebuild_h <= goal.rebuild_hours):
            took = "does not finish" if c.rebuild_h is None else f"takes {c.rebuild_h:.1f} h"
            c.why_not.append(f"rebuild at {prio} {took} > {goal.rebuild_hours:g} h")
        if goal.rebuild_response_ms is not None and not c.rebuild_response_ms <= goal.rebuild_response_ms:
            c.why_not.append(f"response during the rebuild {c.rebuild_response_ms:.1f} ms > {goal.rebuild_response_ms:g} ms")
        if goal.mttdl_years is not None and not (c.mttdl_h is not None and c.mttdl_h >= goal.mttdl_years * HOURS_PER_YEAR):
            c.why_not.append(f"MTTDL below {goal.mttdl_years:g} years")
    c.meets = not c.why_not
    return c


def worst_mttdl(result) -> float | None:
    """The lowest MTTDL of a run's groups as the GUI and the report show it (Result.reliability:
    the rebuild under the planned load, a pool's critical-first window); a group without that
    figure keeps the plain one (Result.mttdl_h)."""
    worst = {gid: rel.mttdl_h for gid, rel in result.reliability.items() if rel.mttdl_h is not None}
    for gid, h in result.mttdl_h.items():
        worst.setdefault(gid, h)
    return min(worst.values()) if worst else None


def rebuild_priority(platform: Platform, goal: SizingGoal) -> str:
    spec = platform.operations.get("drive_failure")
    return goal.rebuild_priority or (spec.default if spec is not None else "High")


def idle_rebuild_hours(base: Project, catalog: Catalog, fam: Family, groups: int, goal: SizingGoal) -> float | None:
    """The rebuild time of a drive of the design with every workload idle (one engine run)."""
    from app.engine.simulate import simulate

    platform = catalog.platform(base.platform_id)
    p = build_design(base, catalog, fam, groups, goal.spares_per)
    p.workloads = []  # idle hosts
    sc = p.current_scenario
    p.scenario(sc).events = [DriveFailure("rebuild", 0.0, p.groups[0].drives[0], rebuild_priority(platform, goal))]
    op = simulate(p, catalog, sc).operation("rebuild")
    ph = next((x for x in op.phases if x.name == "rebuild"), None)
    return ph.duration_h if ph is not None else op.duration_h


@dataclass
class FamilyJob:
    base: Project
    family: Family
    goal: SizingGoal
    needed_gb: float
    max_groups: int


def search_family(job: RunJob, catalog: Catalog) -> Candidate:
    """The fewest groups of one family that meet the goals (or the best try and why not):
    capacity bound first, then doubling and bisection on the monotone "meets" (more groups
    carrying the same load are never slower). Runs where the job lands (a pool worker)."""
    fj: FamilyJob = job.tag
    fam, goal = fj.family, fj.goal
    per_drive = catalog.drive(fam.drive_type).capacity_gb
    usable_per_group = RaidMath(fam.raid, fam.width).usable_gb(per_drive)
    lo_groups = max(1, math.ceil(fj.needed_gb / usable_per_group)) if usable_per_group > 0 else 1
    if lo_groups > fj.max_groups:
        c = Candidate(fam, lo_groups, drives=lo_groups * fam.width)
        c.why_not.append(f"{lo_groups} groups needed for the capacity; the platform holds {fj.max_groups}")
        return c
    runs = 0
    tried: dict[int, Candidate] = {}
    if goal.rebuild_hours is not None:
        # a rebuild with no host load at all is the fastest it gets (more load never speeds an
        # operation up): slower than the window even then, no size of this family meets it
        idle_h = idle_rebuild_hours(fj.base, catalog, fam, lo_groups, goal)
        runs += 1
        if idle_h is None or idle_h > goal.rebuild_hours:
            c = Candidate(fam, lo_groups, drives=lo_groups * fam.width, runs=runs, rebuild_h=idle_h)
            took = "does not finish" if idle_h is None else f"takes {idle_h:.1f} h"
            c.why_not.append(f"even with no host load the rebuild {took} > {goal.rebuild_hours:g} h")
            return c

    def at(n: int) -> Candidate:
        nonlocal runs
        if n not in tried:
            tried[n] = evaluate(fj.base, catalog, fam, n, goal, fj.needed_gb, quick=True)
            runs += tried[n].runs
        return tried[n]

    n = lo_groups
    if not at(n).meets:
        bad = n
        good = None
        # the largest design first: when even it misses, the family is out in one probe
        if fj.max_groups > n and not at(fj.max_groups).meets:
            bad = fj.max_groups
        while good is None:
            nxt = min(bad * 2, fj.max_groups)
            if nxt == bad:
                break
            if at(nxt).meets:
                good = nxt
            else:
                bad = nxt
        if good is None:
            best = evaluate(fj.base, catalog, fam, bad, goal, fj.needed_gb)
            best.runs = runs + best.runs
            best.why_not.insert(0, f"not met even with {bad} groups (the platform's most)")
            return best
        while good - bad > 1:
            mid = (good + bad) // 2
            if at(mid).meets:
                good = mid
            else:
                bad = mid
        n = good
    # the answer in full (the probes stopped at the first goal missed)
    c = evaluate(fj.base, catalog, fam, n, goal, fj.needed_gb)
    c.runs = runs + c.runs
    return c


def pareto(cands: Sequence[Candidate]) -> list[Candidate]:
    """Designs no other design beats on every axis: cost, response, rebuild time (lower) and
    MTTDL (higher)."""
    def key(c: Candidate):
        return (c.cost, c.response_ms, c.rebuild_h if c.rebuild_h is not None else math.inf,
                -(c.mttdl_h or 0.0))

    def dominates(a, b):
        ka, kb = key(a), key(b)
        return all(x <= y for x, y in zip(ka, kb)) and any(x < y for x, y in zip(ka, kb))

    return sorted((c for c in cands if not any(dominates(o, c) for o in cands if o is not c)), key=key)


def against_chosen(c: Candidate, chosen: Candidate) -> str:
    """Why a design on the front is not the chosen one: what more it costs (the choice is the
    cheapest, ties to the faster response) and what it buys with it."""
    if c is chosen:
        return "chosen"
    gains = []
    if c.response_ms < chosen.response_ms - 1e-9:
        gains.append(f"a faster response ({c.response_ms:.2f} ms)")
    if c.rebuild_h is not None and chosen.rebuild_h is not None and c.rebuild_h < chosen.rebuild_h - 1e-9:
        gains.append(f"a shorter rebuild ({c.rebuild_h:.1f} h)")
    if (c.mttdl_h or 0.0) > (chosen.mttdl_h or 0.0) * (1 + 1e-9):
        gains.append("a higher MTTDL")
    if c.cost > chosen.cost:
        return f"costs {c.cost - chosen.cost:,.0f} more" + (" for " + ", ".join(gains) if gains else "")
    if c.response_ms > chosen.response_ms + 1e-9:
        head = f"same cost, slower response ({c.response_ms:.2f} vs {chosen.response_ms:.2f} ms)"
    else:
        head = "same cost and response"
    return head + ("; but " + ", ".join(gains) if gains else "")


def chosen_reason(res: "SizingResult") -> str:
    """One sentence: why the chosen design wins (empty when none meets the goals)."""
    c = res.chosen
    if c is None:
        return ""
    ties = [o for o in res.front if o is not c and o.cost == c.cost]
    tie = (f"; {len(ties)} other design{'s' if len(ties) > 1 else ''} on the front cost as much, and it has the "
           f"fastest response of them ({c.response_ms:.2f} ms)") if ties else ""
    return f"it meets every goal and is the cheapest design that does (cost {c.cost:,.0f}{tie})"


def goal_seek(project: Project, catalog: Catalog, goal: SizingGoal, prices: PriceList | None = None,
              executor: Executor | None = None, progress: Callable[[int, int], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> SizingResult | None:
    if not goal.response_ms > 0:
        raise ValueError("the response target must be above 0 ms")
    if not project.workloads:
        raise ValueError("the project has no host workload: goal seeking needs the load to size for")
    platform = catalog.platform(project.platform_id)
    needed = goal.usable_gb if goal.usable_gb is not None else sum(l.capacity_gb for l in project.luns)
    fams = families(project, catalog, goal)
    if not fams:
        raise ValueError(f"the {platform.name} offers no drive type and protected RAID level to try")
    jobs = []
    for fam in fams:
        limit = slot_limit(platform, catalog, fam.drive_type)
        # the most groups whose drives and spares fit the slots and the drive limit
        max_groups = 0
        while (max_groups + 1) * fam.width + spares_for((max_groups + 1) * fam.width, goal.spares_per) <= limit:
            max_groups += 1
        jobs.append(RunJob(project, project.current_scenario,
                           FamilyJob(project, fam, goal, needed, max(max_groups, 0))))
    done = run_jobs(jobs, catalog, executor, work=search_family, progress=progress, should_stop=should_stop)
    if done is None:
        return None
    prices = prices or PriceList()
    by_price = prices.covers(sorted({f.drive_type for f in fams}))
    for c in done:
        eid = _enclosure_for(platform, catalog, c.family.drive_type)
        c.cost = design_cost(c, eid, prices, by_price)
    met = [c for c in done if c.meets]
    front = pareto(met)
    chosen = min(front, key=lambda c: (c.cost, c.response_ms)) if front else None
    return SizingResult(goal, sorted(done, key=lambda c: (not c.meets, c.cost, c.response_ms)), front, chosen,
                        sum(c.runs for c in done), "price" if by_price else "drives", len(fams))
