"""The priority advisor's question, without Qt: for one operation, what each priority would do.

`evaluate_priorities` runs the engine once per priority the platform offers for the operation's
kind, each on a copy of the project with only that operation's priority changed, and gathers each
priority's predicted duration and the peak response time, while the operation runs, of the
workloads it touches (as the engine reports them). `Advice.recommended` is the fastest priority
whose peaks stay within the target. app/ui/advisor.py shows it; the runs happen in the engine
worker process (app/service/engine_worker/main.py) or a worker thread.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from app.domain.formatting import format_duration, format_ms
from app.domain.priorities import offered_priorities

from .engine_worker.replica import snapshot_project

DEFAULT_TARGET_MS = 20.0


@dataclass
class PriorityOutcome:
    priority: str
    duration_h: float | None  # None: not finished within the plan
    peaks_ms: dict[str, float] = field(default_factory=dict)  # workload id -> peak while it runs (with I/O)
    error: str | None = None
    no_io: list[str] = field(default_factory=list)  # touched workloads that completed no I/O while it ran

    @property
    def worst_ms(self) -> float | None:
        return max(self.peaks_ms.values()) if self.peaks_ms else None

    def within(self, target_ms: float) -> bool:
        """The touched workloads' peaks stay within the target (finished or not)."""
        worst = self.worst_ms
        return worst is None or worst <= target_ms

    def meets(self, target_ms: float) -> bool:
        """A candidate for the recommendation: predicted, finished within the plan, within the target."""
        return not self.error and self.duration_h is not None and self.within(target_ms)

    def verdict(self, target_ms: float) -> str:
        """One word or two for the advisor's table: error, exceeds, not finished, keeps."""
        if self.error:
            return "error"
        if not self.within(target_ms):
            return "exceeds"
        return "not finished" if self.duration_h is None else "keeps"


@dataclass
class Advice:
    event_id: str
    kind: str
    current_priority: str
    target_ms: float
    outcomes: list[PriorityOutcome]
    workload_names: dict[str, str] = field(default_factory=dict)
    # why no priority can finish it, whatever the plan's length (the engine's advisory: e.g. the
    # rebuild waits for a replacement drive no event brings); "" when nothing blocks it
    blocked_by: str = ""

    @property
    def recommended(self) -> PriorityOutcome | None:
        """The fastest priority that keeps every touched workload within the target."""
        ok = [o for o in self.outcomes if o.meets(self.target_ms)]
        return min(ok, key=lambda o: o.duration_h) if ok else None

    def with_target(self, target_ms: float) -> "Advice":
        return Advice(self.event_id, self.kind, self.current_priority, target_ms, self.outcomes,
                      self.workload_names, self.blocked_by)

    def summary(self) -> str:
        rec = self.recommended
        if rec is None:
            if not self.outcomes:
                return "The platform offers no priorities for this operation."
            if all(o.error for o in self.outcomes):
                return f"The engine could not predict this operation: {self.outcomes[0].error.splitlines()[0]}"
            predicted = [o for o in self.outcomes if not o.error]
            if all(o.duration_h is None for o in predicted) and self.blocked_by:
                return f"The operation does not finish at any priority: {self.blocked_by}."
            if all(o.duration_h is None for o in predicted):
                return ("The operation does not finish within the plan at any priority: extend the plan, "
                        "or lighten the host load on its drives (see the utilization charts).")
            keeping = [o.priority for o in predicted if o.within(self.target_ms)]  # all unfinished
            if keeping:
                return (f"{', '.join(keeping)} keep{'s' if len(keeping) == 1 else ''} the workloads within "
                        f"{format_ms(self.target_ms)} but do{'es' if len(keeping) == 1 else ''} not finish "
                        "within the plan; the faster priorities exceed the target.")
            best = min((o for o in self.outcomes if o.worst_ms is not None and not o.error),
                       key=lambda o: o.worst_ms, default=None)
            tail = f" The lowest peak is at {best.priority} ({format_ms(best.worst_ms)})." if best else ""
            return f"No priority keeps the workloads within {format_ms(self.target_ms)}.{tail}"
        if rec.worst_ms is not None:
            worst = f", peak response {format_ms(rec.worst_ms)}"
        else:
            worst = ", no I/O of the touched workloads while it runs" if rec.no_io else ", no workload affected"
        same = " (the current priority)" if rec.priority == self.current_priority else ""
        return (f"Recommended: {rec.priority}{same} - {format_duration(rec.duration_h)}{worst}, "
                f"within {format_ms(self.target_ms)}.")


def default_target(project, event_id: str | None = None) -> float:
    targets = [w.response_target_ms for w in project.workloads if w.response_target_ms]
    return float(min(targets)) if targets else DEFAULT_TARGET_MS


def evaluate_priorities(project, catalog, event_id: str, simulate: Callable[..., Any],
                        target_ms: float | None = None, scenario: str | None = None,
                        should_stop: Callable[[], bool] | None = None) -> Advice | None:
    """Run the engine once per offered priority (on copies of `project`). Call off the GUI thread
    with a snapshot of the project. Returns None when `should_stop()` turns true between runs
    (the project changed meanwhile: the answer would be stale)."""
    sc = project.scenario(scenario)
    ev = sc.event(event_id)
    platform = catalog.platform(project.platform_id)
    priorities = list(offered_priorities(platform, ev.kind))
    target = float(target_ms) if target_ms else default_target(project, event_id)
    outcomes = []
    blocked = ""
    for prio in priorities:
        if should_stop is not None and should_stop():
            return None
        trial = snapshot_project(project)
        trial.scenario(sc.name).event(event_id).priority = prio  # a throwaway copy, never the document
        try:
            res = simulate(trial, catalog, scenario_name=sc.name)
            op = res.operation(event_id)
            blocked = blocked or next((BLOCKED_TEXT[a.code] for a in res.advisories
                                       if a.where == event_id and a.code in BLOCKED_TEXT), "")
        except Exception as exc:  # noqa: BLE001 - one priority failing must not hide the others
            outcomes.append(PriorityOutcome(prio, None, {}, f"{type(exc).__name__}: {exc}"))
            continue
        peaks, no_io = {}, []
        for wid in op.touches_workloads:
            s = res.get("response_ms", wid)
            if s is None:
                continue
            pk = s.peak(op.start_h, op.end_h)  # the steps without I/O (NaN) left out
            if math.isnan(pk):  # no I/O at all while the operation ran: no response time to limit
                no_io.append(wid)
            else:
                peaks[wid] = pk
        outcomes.append(PriorityOutcome(prio, op.duration_h, peaks, no_io=no_io))
    names = {w.id: (w.name or w.id) for w in project.workloads}
    return Advice(event_id, ev.kind, getattr(ev, "priority", ""), target, outcomes, names, blocked)


# engine advisories (their code) that say no priority and no plan length finishes the operation
BLOCKED_TEXT = {"no-replacement": "it waits for a replacement drive that no event of the scenario brings; "
                                  "add a drive replacement event"}
