"""The embedded model: an event-driven fluid simulation (docs/model.md has the equations).

Between two events every rate is constant, so the engine jumps from event to event: user events
(operations, failures, replacements, workload changes) and the engine's own (a phase ends, the
write cache reaches its watermark, a cache re-warm step). At each step it solves the host load
and the operations' rates together (a few fixed-point passes, numpy over all drives, groups,
LUNs and workload pairs), records one row per metric, and advances every running phase.

This module is the step loop: Sim (a SimState with run() and fire()) and simulate(). The rest
lives in modules of their own, as functions that take the run's state (issue 20; functions
rather than mixins: mypyc allows one base class, and sim.x in a function is the same direct
field read as self.x in a method):

  sim_state.py      SimState: the run's state, its settings from the presets, invalidate()
  host_terms.py     the host model's per-workload, per-group and per-pair terms; _host_load
  host_model.py     _host_static, port scaling, write cache fill by the host, centre scaling
  host_solve.py     the network solver of a step (solve, solve_open, _squeeze); CHECKS
  placement_ctx.py  Ctx, the operations' placement kept from step to step
  placement.py      placing the operations (place, demand, ...) and the step's loads
  results.py        recording, the Result and its series, MTTDL, the end-of-run advisories
  ops.py            the operations (one module per kind, op_*.py; registry OPS)

Imports point one way: those modules import sim_state.py, none imports this one.
"""
from __future__ import annotations

import gc
from typing import Any, Callable, Final

import numpy as np

from app.domain.hardware import Catalog
from app.domain.limits import too_many_events
from app.domain.overlay import effective_project
from app.domain.project import DriveReplacement, Project, WorkloadChange

from .errors import EngineStall, PlanTooLarge
from .host_model import host_fill_advance, host_fill_in
from .host_solve import CHECKS, solve  # (CHECKS: tests/conftest.py hooks it here)
from .host_terms import _wl_arrays
from .op_streams import INF
from .ops import Op, op_class
from .placement_ctx import Ctx
from .policy import UnknownLevel
from .rates import MissingRate
from .result import Result, RunLabels
from .results import bus_columns, finish, progress_cells, record
from .sim_state import SimState, _WL_FIELDS
from .state import LayoutCache


MAX_STEPS: Final = 200_000
STALL_STEPS: Final = 1_000  # steps in a row without the clock moving


class RunCancelled(Exception):
    """The caller's should_stop() said the run is no longer wanted (a newer edit came)."""


STOP_CHECK_STEPS: Final = 16  # how often a run asks should_stop() (a pipe poll: ~2 us)


class Sim(SimState):
    """A run: its state (SimState) and the step loop (run, fire)."""

    def __init__(self, project: Project, catalog: Catalog, scenario_name: str | None = None,
                 layouts: LayoutCache | None = None):
        super().__init__(project, catalog, scenario_name, layouts)
        _wl_arrays(self)  # the workloads' arrays and the host model's first version


    # ------------------------------------------------------------------ the loop
    def run(self, should_stop: Callable[[], bool] | None = None) -> Result:
        """Simulate the scenario; `should_stop()`, asked every STOP_CHECK_STEPS steps, ends
        the run with RunCancelled when it returns True."""
        ordered = sorted(enumerate(self.scenario.events), key=lambda ie: (ie[1].start_h, ie[0]))
        events: list[Any] = [e for _, e in ordered]
        starts: list[float] = [e.start_h for e in events]  # their times, as floats once (the loop reads them per step)
        n_events = len(events)
        ei = 0
        t = 0.0
        steps = 0
        stalled = 0
        lay = self.lay
        self.ctx = Ctx(self)
        self.dirty_ops = set()  # ops whose phases changed since they were placed (Op.changed)
        self.busy = []  # see set_busy
        self.lun_ops = {}  # per SP: the LUN operations running -> event id (Op.concurrent_advice)
        self.rebuild_of = {}  # per drive: the rebuilds of its failures (Rebuild.start)
        self.idle_now = 0.0
        self.no_host = (np.zeros(lay.G), np.ones(lay.G), np.zeros(lay.C), np.zeros(lay.G))  # no workloads
        while ei < n_events and starts[ei] <= 0.0:
            self.fire(events[ei], 0.0)
            ei += 1
        busy: list[Op] = []
        while True:
            solve(self)
            # idle ops (no rate, nothing due; see place) are left alone until placed again
            was_busy, busy = busy, self.busy.copy()
            record(self, t, busy, was_busy)
            steps += 1
            if should_stop is not None and steps % STOP_CHECK_STEPS == 0 and should_stop():
                raise RunCancelled(f"stopped at {t:.3f} h: a newer request came")
            t_next = starts[ei] if ei < n_events else INF
            ends: list[float] = []  # when each busy op's next phase ends; t_next: the first of all
            for op in busy:
                te = t + op.time_left()
                ends.append(te)
                if te < t_next:
                    t_next = te
            if self.timers:
                t_next = min(t_next, min(tt for tt, _ in self.timers))
            if self.host_fill is not None:
                # the write cache reaching its watermark is an event, within the plan: a run
                # with nothing else to come goes on to fill it only within the plan's horizon
                # (the project's, else the hour a plan without events shows)
                t_fill = t + host_fill_in(self)
                if t_fill < t_next and (t_next < INF or t_fill <= (float(self.project.horizon_h or 0.0) or 1.0)):
                    t_next = t_fill
            if t_next == INF:
                break
            if steps > MAX_STEPS:
                self.advise("warning", "step-limit",
                            f"the prediction stops at {t:.1f} h: the plan needs more than {MAX_STEPS:,} engine "
                            "steps; operations still running then are shown unfinished", "")
                break
            dt = max(t_next - t, 0.0)
            # an event-driven model must move the clock: many steps at one instant is a loop in
            # an operation's bookkeeping, reported rather than spun through to the step limit
            stalled = stalled + 1 if dt <= 0.0 else 0
            if stalled > STALL_STEPS:
                names = ", ".join(op.label for op in self.active) or "no operation"
                raise EngineStall(f"the model made no progress at {t:.3f} h ({names})")
            for op in busy:
                op.advance(dt, t)
            if self.host_fill is not None:
                host_fill_advance(self, dt, t)
            self.idle_now = t + dt  # the clock of an idle op (what advance() would set)
            t = t_next
            if self.timers:  # engine events due now
                due = [cb for tt, cb in self.timers if tt <= t + 1e-12]
                self.timers = [(tt, cb) for tt, cb in self.timers if tt > t + 1e-12]
                for cb in due:
                    cb(t)
            due_by = t + 1e-9 * max(1.0, t)
            for op, te in zip(busy, ends):  # only operations with a phase (or the cache) due now
                if te <= due_by:
                    op.maybe_finish_phase(t)
            while ei < n_events and starts[ei] <= t + 1e-12:
                self.fire(events[ei], t)
                ei += 1
        progress_cells(self)
        bus_columns(self)
        horizon = max(t, float(self.project.horizon_h or 0.0))
        if horizon <= 0:
            horizon = 1.0
        return finish(self, horizon, steps)

    def fire(self, ev, t: float) -> None:
        if isinstance(ev, WorkloadChange):
            wi = self.widx.get(ev.workload)
            if wi is None:
                return
            for k, v in ev.changes.items():
                if k in _WL_FIELDS:
                    self.workloads[wi][k] = v
            _wl_arrays(self, wi)
            return
        if isinstance(ev, DriveReplacement):
            for rb in self.rebuild_of.get(ev.drive, ()):  # the running rebuild of that drive
                if rb.running and rb.on_replacement(ev, t):
                    return
            # replacement of a drive with no running operation: the drive is back
            d = self.lay.didx.get(ev.drive)
            if d is not None:
                self.failed[d] = False
                # only its group's alive members changed (a drive of a group that lost its data:
                # its LUNs stay off the host path); a full invalidation recomputed every pair
                self.invalidate(topology=True, groups={self.lay.d_group.item(d)})
            return
        cls = op_class(self, ev)
        if cls is None:
            self.advise("info", "event-not-modelled", f"{ev.id}: {type(ev).__name__} is not modelled by the engine", ev.id)
            return
        op = cls(self, ev)
        op.index = len(self.ops)
        self.ops.append(op)
        try:
            started = op.start(t)
        except UnknownLevel as exc:
            self.advise("error", "unknown-priority", f"{ev.id}: {exc}; the operation is not predicted", ev.id,
                        "the platform's [operations] priorities and the rates' [policy] tables")
            op.streams = []
            op.end_h = None  # not predicted (a failure that starts no rebuild would end at once)
            started = False
        except MissingRate as exc:
            self.advise("warning", "no-rates", f"{ev.id}: {exc}; this operation is not predicted on "
                        f"{self.platform.name}", ev.id)
            op.streams = []
            started = False
        # placement order: economical phases first, then the ASAP class (start() sets it), in start order
        op.pos = op.index + (1 << 32) * op.asap_class
        if started:
            op.running = True
            op.rec_first, op.rec_end = self.rec_n, INF  # recorded from the next row until it finishes
            self.active.append(op)
            self.dirty_ops.add(op)
        elif op.on_sp is not None:  # it failed after Op.concurrent_advice: it does not run on that SP
            del op.on_sp[op]


def simulate(project: Project, catalog: Catalog, scenario_name: str | None = None,
             should_stop: Callable[[], bool] | None = None, layouts: LayoutCache | None = None) -> Result:
    """Project -> Result for one scenario (the caller validates the project first).
    should_stop: see Sim.run (the engine worker passes its pipe's poll).
    layouts: a LayoutCache kept by the caller between runs, only for a project whose containers
    are replaced, never modified in place (the worker's replica): runs on the same drives,
    groups and LUNs share their static arrays (the 960-drive plan: ~12 M instructions, ~1 ms a run)."""
    # a scenario with a configuration of its own runs on it (the base's untouched containers
    # are shared, so the layout cache still hits when the overlay leaves drives/groups/LUNs alone)
    project = effective_project(project, scenario_name)
    too_many = too_many_events(project, scenario_name)
    if too_many:  # refused before anything is built (docs/model.md, "Plan size")
        raise PlanTooLarge(too_many)
    # the run allocates many small short-lived objects and makes no reference cycles worth
    # collecting; a collection during the run would scan the caller's whole heap (the GUI's is
    # large), so the collector waits until the result is built
    paused = gc.isenabled()
    gc.disable()
    sim: Sim | None = None
    try:
        sim = Sim(project, catalog, scenario_name, layouts)
        result = sim.run(should_stop)
        result.labels = RunLabels.of(project, result.scenario)
        return result
    finally:
        # the operations refer back to the Sim (op.sim), a cycle that would keep the run's
        # recorded rows and caches (~5 MB on the large plan) alive until the cyclic collector
        # runs; freed now, the next run reuses that memory instead of faulting in new pages
        # (docs/performance.md, "Optimisation pass 3")
        if sim is not None:
            for _op in sim.ops:
                del _op.sim
        if paused:
            gc.enable()
