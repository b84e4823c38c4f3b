"""Load sweep: response time and utilisation against host load, to the point of saturation.

    result = sweep(project, catalog, SweepSpec(steps=20, background="op2"))
    result.curves[0].knee, result.curves[0].max_iops_at(10.0), result.curves[0].headroom_pct(10.0)

Every host workload is scaled by a growth factor (open loads: offered IOPS; closed loads: the
outstanding I/Os, at least one). Each factor is one engine run of a copy of the project:
- the "steady" curve keeps no timeline event: the host load alone, measured over the plan;
- a "during <op>" curve keeps one chosen operation (and the replacement of a failed drive it
  needs) and measures while that operation runs: the response during a rebuild at High, say.
The factors run from 10% of today's load up to the saturation factor, which a few serial probe
runs find first (doubling, then bisection on "demand served"), so the steps land on the part
of the curve that matters whatever the array's headroom.

The runs go through a concurrent.futures executor (app/service/runner.py): a local process pool
by default, or any Executor, such as a dask.distributed client's. No Qt here.
"""
from __future__ import annotations

import copy
import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from app.domain.project import DriveFailure, DriveReplacement, Project, Scenario, WorkloadChange

from .runner import RunJob, run_jobs

# a step is saturated when more than this share of the offered IOPS is not served
SATURATED_SHARE = 0.01
UTILISATION_METRICS = (  # (Result metric, label of its entities)
    ("drive_pct", "drive {}"), ("group_pct", "RG {}"), ("bus_pct", "bus {}"),
    ("cpu_pct", "CPU {}"), ("port_pct", "host port {}"), ("write_cache_pct", "write cache {}"),
    ("ctrl_limit_pct", "controller limit {}"),  # MD32xx: the IOPS / MB/s limit HPT raises
)
MAX_FACTOR = 1024.0  # a load that a thousand times today's does not saturate: stop looking
# the steady curve runs the host load alone this long and measures its second half, after the
# transients (a write cache filling to forced flush takes minutes at most)
STEADY_HORIZON_H = 24.0
SATURATED_PCT = 99.0  # a centre this busy: a closed load's throughput has reached its ceiling


@dataclass(frozen=True)
class SweepSpec:
    steps: int = 20
    scenario: str | None = None       # the scenario whose configuration and events are used
    background: str | None = None     # an event id: also sweep with this operation running
    min_factor: float = 0.1
    max_factor: float | None = None   # None: up to the saturation factor found by probing
    # the priority advisor across the load levels (app/service/sweep_advice.py): per operation,
    # the lowest-impact priority that finishes in its window (the plan's, else this many hours)
    advise: bool = False
    window_h: float | None = None


@dataclass(frozen=True)
class SweepStep:
    factor: float
    offered_iops: dict[str, float]   # per workload id
    served_iops: dict[str, float]
    response_ms: dict[str, float]    # time-weighted mean over the measured window
    utilisation_pct: dict[str, float]  # component label -> peak % in the window
    limiting: str                    # the busiest component
    advisories: tuple[str, ...] = ()
    overloaded: bool = False         # the engine's host-overload advisory, or a centre >= 99% busy

    @property
    def total_offered(self) -> float:
        return sum(self.offered_iops.values())

    @property
    def total_served(self) -> float:
        return sum(self.served_iops.values())

    @property
    def saturated(self) -> bool:
        off = self.total_offered
        return self.overloaded or (off > 0 and (off - self.total_served) > SATURATED_SHARE * off)

    def utilisation_by_kind(self) -> dict[str, float]:
        """The peak utilisation of the busiest component of each kind ("drive", "RG", "bus",
        "CPU", "host port", "write cache"), for the kinds the array has."""
        out: dict[str, float] = {}
        for _metric, label in UTILISATION_METRICS:
            prefix = label.format("")
            vals = [v for k, v in self.utilisation_pct.items() if k.startswith(prefix)]
            if vals:
                out[prefix.strip()] = max(vals)
        return out

    @property
    def worst_response_ms(self) -> float:
        vals = [v for v in self.response_ms.values() if not math.isnan(v)]
        return max(vals) if vals else math.nan


@dataclass
class SweepCurve:
    label: str                      # "steady" or "during op2 (Rebuild at High)"
    background: str | None
    steps: list[SweepStep] = field(default_factory=list)
    # the hours every step of a "during" curve is measured over: from the operation's start to
    # its end at the heaviest step below saturation. A heavier load lengthens the run, so each
    # step measured over its own run would weigh the run's phases differently and the curve
    # would not be monotone in load; over one window, a light step counts its run and the
    # steady load after it
    window_h: tuple[float, float] | None = None

    @property
    def knee(self) -> SweepStep | None:
        """The knee of the worst response against load (Kneedle: the step farthest below the
        chord from the lightest to the heaviest unsaturated step, both axes scaled to 0-1)."""
        pts = [s for s in self.steps if not s.saturated and not math.isnan(s.worst_response_ms)]
        if len(pts) < 3:
            return None
        x = np.array([s.factor for s in pts])
        y = np.array([s.worst_response_ms for s in pts])
        if y.max() - y.min() <= 1e-9:
            return None  # flat: no knee within the swept range
        xn = (x - x.min()) / (x.max() - x.min())
        yn = (y - y.min()) / (y.max() - y.min())
        return pts[int(np.argmax(xn - yn))]

    def saturation(self) -> SweepStep | None:
        return next((s for s in self.steps if s.saturated), None)

    def _factor_at(self, target_ms: float, workload: str | None) -> float | None:
        """The largest growth factor whose response (worst workload, or `workload`) is within
        target_ms with all demand served: linear between the steps either side."""
        def resp(s: SweepStep) -> float:
            return s.response_ms.get(workload, math.nan) if workload else s.worst_response_ms
        best, last_ok = None, None
        for s in self.steps:
            r = resp(s)
            if not s.saturated and not math.isnan(r) and r <= target_ms:
                best, last_ok = s.factor, (s.factor, r)
                continue
            if last_ok is not None and not s.saturated and not math.isnan(r) and r > last_ok[1]:
                f0, r0 = last_ok
                best = f0 + (s.factor - f0) * (target_ms - r0) / (r - r0)
            break
        return best

    def max_iops_at(self, target_ms: float, workload: str | None = None) -> float | None:
        """Total offered IOPS at the largest load meeting the response target (None: not even
        the lightest step does)."""
        f = self._factor_at(target_ms, workload)
        if f is None or not self.steps:
            return None
        # the offered IOPS of the steps, linear between them: an open load's grow with the
        # factor, a closed load's (what its outstanding I/Os get) flatten at its ceiling, so
        # scaling the lightest step's by f overstated them (12,321 IOPS on an array that
        # serves 8,889)
        steps = sorted(self.steps, key=lambda s: s.factor)
        return float(np.interp(f, [s.factor for s in steps], [s.total_offered for s in steps]))

    def headroom_pct(self, target_ms: float, workload: str | None = None) -> float | None:
        """Growth of today's load (factor 1) that still meets the target: 30 means 30% more load
        fits; negative: today's load already misses it. None: no step meets it."""
        f = self._factor_at(target_ms, workload)
        return None if f is None else (f - 1.0) * 100.0


@dataclass
class SweepResult:
    scenario: str
    workloads: dict[str, str]        # id -> name
    saturation_factor: float | None  # None: not saturated up to MAX_FACTOR
    curves: list[SweepCurve]
    runs: int                        # engine runs used, probes included
    advice: Any = None               # sweep_advice.LoadAdvice when the spec asked for it


def scaled_project(project: Project, scenario: str, factor: float, keep: Sequence[str] = ()) -> Project:
    """A copy of `project` whose workloads carry `factor` x their load and whose scenario
    `scenario` keeps only the events `keep` (ids; their drive replacements follow)."""
    p = copy.deepcopy(project)
    for w in p.workloads:
        if w.mode == "open":
            w.iops = w.iops * factor
        else:
            w.outstanding = max(1, int(round(w.outstanding * factor)))
    sc = p.scenario(scenario)
    kept = [e for e in sc.events if e.id in keep]
    failed = {e.drive for e in kept if isinstance(e, DriveFailure)}
    kept += [e for e in sc.events if isinstance(e, DriveReplacement) and e.drive in failed and e not in kept]
    for e in kept:
        if isinstance(e, WorkloadChange) and "iops" in e.changes:
            e.changes = {**e.changes, "iops": float(e.changes["iops"]) * factor}
    kept.sort(key=lambda e: e.start_h)
    p.scenarios = [Scenario(sc.name, kept, sc.notes)]
    p.current_scenario = sc.name
    p.baseline_scenario = None
    if not kept:
        p.horizon_h = STEADY_HORIZON_H
    return p


def _window_mean(series, a: float, b: float) -> float:
    """Time-weighted mean of a step series over [a, b] (NaN cells, no I/O, left out)."""
    if series is None or not len(series.v):
        return math.nan
    if b <= a:
        return series.at(a)
    edges = np.clip(np.append(series.t, np.inf), a, b)
    w = np.diff(edges)
    v = np.asarray(series.v, dtype=float)
    ok = ~np.isnan(v) & (w > 0)
    return float((v[ok] * w[ok]).sum() / w[ok].sum()) if ok.any() else math.nan


def operation_window(result, background: str) -> tuple[float, float] | None:
    """The hours the operation runs in `result` (to the horizon if it does not finish)."""
    try:
        op = result.operation(background)
    except KeyError:
        return None
    return op.start_h, (op.end_h if op.end_h is not None else result.horizon_h)


def measure(result, project: Project, factor: float, background: str | None,
            window: tuple[float, float] | None = None) -> SweepStep:
    """One sweep step from an engine Result, measured over `window` (hours) when given, else
    the second half of the plan (the steady curve) or the time the background operation runs
    (to the horizon if it does not finish)."""
    a, b = result.horizon_h / 2, result.horizon_h
    if window is not None:
        a, b = window
    elif background is not None:
        a, b = operation_window(result, background) or (a, b)
    offered, served, resp = {}, {}, {}
    for w in project.workloads:
        offered[w.id] = _window_mean(result.get("offered_iops", w.id), a, b)
        served[w.id] = _window_mean(result.get("iops", w.id), a, b)
        resp[w.id] = _window_mean(result.get("response_ms", w.id), a, b)
    util: dict[str, float] = {}
    for metric, label in UTILISATION_METRICS:
        for ent in result.entities(metric):
            s = result.get(metric, ent)
            util[label.format(ent)] = float(s.peak(a, b)) if s is not None else 0.0
    limiting = max(util, key=util.get) if util else ""
    adv = tuple(sorted({x.code for x in result.advisories if x.severity in ("warning", "error")}))
    # a background operation may fill the drives' idle time on purpose (a rebuild at High):
    # then only unserved demand says the host load saturates
    saturated = "host-overload" in adv or (background is None and bool(util) and util[limiting] >= SATURATED_PCT)
    clean = {k: (0.0 if math.isnan(v) else v) for k, v in offered.items()}
    return SweepStep(factor, clean, {k: (0.0 if math.isnan(v) else v) for k, v in served.items()}, resp,
                     util, limiting, adv, saturated)


def sweep_step(job: RunJob, catalog) -> SweepStep:
    """One step where the job lands (a pool worker, a dask worker): run, then measure, so only
    the small SweepStep travels back. The job's tag is (curve index, factor, background,
    window): window None measures over the run's own window (see `measure`)."""
    from app.engine.simulate import simulate

    _, factor, background, window = job.tag
    return measure(simulate(job.project, catalog, job.scenario), job.project, factor, background, window)


def background_step(job: RunJob, catalog) -> tuple[tuple[float, float] | None, SweepStep]:
    """The heaviest unsaturated step of a "during" curve (run where the job lands): the
    operation's run in it, the window every step of the curve is measured over, and the step
    measured over it."""
    from app.engine.simulate import simulate

    _, factor, background, _ = job.tag
    result = simulate(job.project, catalog, job.scenario)
    window = operation_window(result, background)
    return window, measure(result, job.project, factor, background, window)


def _saturated(project: Project, catalog, scenario: str, factor: float) -> bool:
    from app.engine.simulate import simulate

    p = scaled_project(project, scenario, factor)
    return measure(simulate(p, catalog, scenario), p, factor, None).saturated


def find_saturation(project: Project, catalog, scenario: str, counter: list[int]) -> float | None:
    """The smallest growth factor (to ~3%) at which demand is no longer served; None beyond
    MAX_FACTOR. Serial: each probe decides the next."""
    def probe(f: float) -> bool:
        counter[0] += 1
        return _saturated(project, catalog, scenario, f)
    lo, hi = 0.0, 1.0
    while not probe(hi):
        lo, hi = hi, hi * 2
        if hi > MAX_FACTOR:
            return None
    if lo == 0.0:  # saturated today: look below 1
        lo = 1.0 / 64
        while probe(lo) and lo > 1e-3:
            hi, lo = lo, lo / 2
    while hi / lo > 1.03:
        mid = math.sqrt(lo * hi)
        if probe(mid):
            hi = mid
        else:
            lo = mid
    return hi


def step_factors(spec: SweepSpec, saturation: float | None) -> list[float]:
    """`spec.steps` factors from min_factor to just past saturation (1.0 always among them)."""
    top = spec.max_factor or (saturation * 1.05 if saturation else 10.0)
    lo = min(spec.min_factor, top / 2)
    n = max(spec.steps, 2)
    fs = list(np.linspace(lo, top, n))
    if not any(abs(f - 1.0) < 1e-9 for f in fs) and lo < 1.0 < top:
        fs[int(np.argmin([abs(f - 1.0) for f in fs]))] = 1.0
    # Python floats: numpy scalars leak into the steps and the answers (np.bool_ is not JSON)
    return sorted(set(round(float(f), 6) for f in fs))


def sweep(project: Project, catalog, spec: SweepSpec = SweepSpec(), executor: Executor | None = None,
          progress: Callable[[int, int], None] | None = None,
          should_stop: Callable[[], bool] | None = None) -> SweepResult | None:
    """Run the sweep (None if `should_stop` turned true). `executor`: None runs a local process
    pool (app/service/runner.py); pass any concurrent.futures Executor to run elsewhere."""
    scenario = spec.scenario or project.current_scenario
    project.scenario(scenario)  # KeyError for an unknown scenario, before any run
    if not any((w.iops if w.mode == "open" else w.outstanding) > 0 for w in project.workloads):
        raise ValueError("the project has no host workload to scale: add one first")
    if spec.background is not None:
        project.scenario(scenario).event(spec.background)
    counter = [0]
    saturation = None if spec.max_factor else find_saturation(project, catalog, scenario, counter)
    factors = step_factors(spec, saturation)
    curves = [SweepCurve("steady", None)]
    if spec.background is not None:
        ev = project.scenario(scenario).event(spec.background)
        prio = f" at {ev.priority}" if getattr(ev, "priority", "") else ""
        curves.append(SweepCurve(f"during {ev.id} ({ev.label_text}{prio})", spec.background))
    # a "during" curve's window first: the operation's run at the heaviest step below saturation
    heavy = max((f for f in factors if saturation is None or f < saturation), default=factors[0])
    for i, c in enumerate(curves):
        if c.background is None:
            continue
        first = run_jobs([RunJob(scaled_project(project, scenario, heavy, [c.background]), scenario,
                                 (i, heavy, c.background, None))], catalog, executor,
                         work=background_step, should_stop=should_stop)
        if first is None:
            return None
        c.window_h, step = first[0]
        c.steps.append(step)
    jobs = []
    for i, c in enumerate(curves):
        for f in factors:
            if c.background is None:
                jobs.append(RunJob(scaled_project(project, scenario, f), scenario, (i, f, None, None)))
            elif f != heavy:
                p = scaled_project(project, scenario, f, [c.background])
                if c.window_h is not None:  # a lighter run ends sooner: simulate the whole window
                    p.horizon_h = max(p.horizon_h or 0.0, c.window_h[1])
                jobs.append(RunJob(p, scenario, (i, f, c.background, c.window_h)))
    done = run_jobs(jobs, catalog, executor, work=sweep_step, progress=progress, should_stop=should_stop)
    if done is None:
        return None
    for job, step in zip(jobs, done):
        curves[job.tag[0]].steps.append(step)
    for c in curves:
        c.steps.sort(key=lambda s: s.factor)
    runs = counter[0] + len(jobs) + len(curves) - 1
    advice = None
    if spec.advise:
        from .sweep_advice import advise_across_loads

        advice = advise_across_loads(project, catalog, scenario, factors, spec.window_h, executor,
                                     progress=progress, should_stop=should_stop)
        if advice is None:
            return None
        runs += advice.runs
    return SweepResult(scenario, {w.id: w.name or w.id for w in project.workloads}, saturation, curves,
                       runs, advice)
