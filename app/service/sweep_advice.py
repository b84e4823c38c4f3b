"""The priority advisor across a sweep's load levels: per operation, the lowest-impact priority
that still finishes inside its window at each load level.

    advice = advise_across_loads(project, catalog, scenario, factors, window_h=8.0)
    advice[0].levels[k].priority   # at factors[k]: the slowest level that finishes in time

The window is `window_h` when given (the dialog's field, `--window HOURS`), else the plan's: its
horizon, counted from the operation's start (a project has no per-operation deadline; the
horizon is the plan's length). An operation with neither is left out, and said so (`skipped`).

Each run keeps the operation alone (as the sweep's "during" curve does), with the host load
scaled by the level's factor. Two properties of the model (docs/sizing.md) make this a search,
not a grid: more load never speeds an operation up, so a priority that finishes in time at a load
does at every lighter one; and the levels come slowest (least host impact) first, so the answer
at a level is the first priority whose heaviest load in time reaches it. Per priority, a
bisection over the load levels finds that heaviest load: about log2(steps) + 2 runs, the
priorities in parallel on the executor (app/service/runner.py). No Qt here.
"""
from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Callable, Sequence

from app.domain.priorities import offered_priorities
from app.domain.project import Project

from .runner import RunJob, run_jobs
from .sweep import scaled_project


@dataclass(frozen=True)
class LevelPriority:
    factor: float
    priority: str | None      # the lowest-impact priority that finishes in the window; None: none
    duration_h: float | None  # its duration at this load, where a probe ran it (else None)


@dataclass
class OperationAdvice:
    event_id: str
    label: str                # "op1: LUN migration"
    current_priority: str
    window_h: float
    window_source: str        # "plan" (the plan's horizon after its start) or "given"
    priorities: tuple[str, ...]  # the platform's levels, slowest first
    # per priority: the heaviest load level (factor) at which it finishes in time (None: not even
    # the lightest)
    heaviest_in_time: dict[str, float | None] = field(default_factory=dict)
    levels: list[LevelPriority] = field(default_factory=list)
    runs: int = 0


@dataclass
class LoadAdvice:
    operations: list[OperationAdvice]
    skipped: list[str]        # "op2: no window (the plan has no horizon and none was given)"
    runs: int


@dataclass
class _PriorityJob:
    factors: tuple[float, ...]
    event_id: str
    priority: str
    window_h: float


def operation_window(project: Project, event, given_h: float | None) -> tuple[float, str] | None:
    """(hours, "given" | "plan"): the given hours, else the plan's horizon after the
    operation's start; None when there is neither."""
    if given_h is not None and given_h > 0:
        return float(given_h), "given"
    if project.horizon_h and project.horizon_h > event.start_h:
        return float(project.horizon_h) - event.start_h, "plan"
    return None


def search_priority(job: RunJob, catalog) -> tuple[int, dict[float, float | None], int]:
    """Where the job lands (a pool worker): the index of the heaviest load level at which the
    operation at this priority finishes within the window (-1: none), the durations probed
    (factor -> hours, None: not finished) and the engine runs used. Finishing in time is
    monotone in load (more load never speeds an operation up): a bisection."""
    from app.engine.simulate import simulate

    pj: _PriorityJob = job.tag
    probed: dict[float, float | None] = {}

    def in_time(k: int) -> bool:
        f = pj.factors[k]
        if f not in probed:
            p = scaled_project(job.project, job.scenario, f, [pj.event_id])
            p.scenario(job.scenario).event(pj.event_id).priority = pj.priority  # a copy, never the document
            probed[f] = simulate(p, catalog, job.scenario).operation(pj.event_id).duration_h
        d = probed[f]
        return d is not None and d <= pj.window_h

    last = len(pj.factors) - 1
    if not in_time(0):
        return -1, probed, len(probed)
    if in_time(last):
        return last, probed, len(probed)
    good, bad = 0, last
    while bad - good > 1:
        mid = (good + bad) // 2
        if in_time(mid):
            good = mid
        else:
            bad = mid
    return good, probed, len(probed)


def advise_across_loads(project: Project, catalog, scenario: str, factors: Sequence[float],
                        window_h: float | None = None, executor: Executor | None = None,
                        progress: Callable[[int, int], None] | None = None,
                        should_stop: Callable[[], bool] | None = None) -> LoadAdvice | None:
    """Per operation of `scenario` that offers priorities, the lowest-impact priority in time at
    each of `factors` (None if `should_stop` turned true)."""
    factors = tuple(sorted(float(f) for f in factors))
    platform = catalog.platform(project.platform_id)
    ops: list[OperationAdvice] = []
    skipped: list[str] = []
    jobs: list[RunJob] = []
    for ev in project.scenario(scenario).events:
        levels = tuple(offered_priorities(platform, ev.kind)) if ev.is_operation else ()
        if not levels:
            continue
        label = f"{ev.id}: {ev.label_text}"
        window = operation_window(project, ev, window_h)
        if window is None:
            skipped.append(f"{label}: no window (the plan has no horizon and none was given)")
            continue
        ops.append(OperationAdvice(ev.id, label, ev.priority, window[0], window[1], levels))
        jobs += [RunJob(project, scenario, _PriorityJob(factors, ev.id, prio, window[0])) for prio in levels]
    done = run_jobs(jobs, catalog, executor, work=search_priority, progress=progress, should_stop=should_stop)
    if done is None:
        return None
    answers = {(j.tag.event_id, j.tag.priority): d for j, d in zip(jobs, done)}
    for op in ops:
        for prio in op.priorities:
            last, _, runs = answers[(op.event_id, prio)]
            op.heaviest_in_time[prio] = factors[last] if last >= 0 else None
            op.runs += runs
        for k, f in enumerate(factors):
            # slowest first: the first level in time at this load has the least host impact
            prio = next((p for p in op.priorities if answers[(op.event_id, p)][0] >= k), None)
            dur = answers[(op.event_id, prio)][1].get(f) if prio is not None else None
            op.levels.append(LevelPriority(f, prio, dur))
    return LoadAdvice(ops, skipped, sum(o.runs for o in ops))


def level_text(level: LevelPriority) -> str:
    """One cell of the advisor's table: "Medium (3.2 h)", "Medium", or "none in time"."""
    if level.priority is None:
        return "none in time"
    if level.duration_h is None or math.isnan(level.duration_h):
        return level.priority
    return f"{level.priority} ({level.duration_h:.1f} h)"
