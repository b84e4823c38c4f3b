"""The engine's incremental placement (placement.place) against a placement from scratch at every step.

A step places again only the operations whose inputs changed; an input an operation reads but
does not declare (Op.resources) would leave a stale rate. Here every step of every example
scenario and of a generated plan is placed a second time from scratch (every running operation,
in order, on an empty Ctx) and every rate and resource total must agree.
"""
from __future__ import annotations

import numpy as np
import pytest

from app.engine.placement import place
from app.engine.placement_ctx import Ctx
from app.engine.simulate import Sim

from conftest import check_after_each_call, every_plan


def op_rates(sim):
    return {op.index: (op.rate, [s.rate for s in op.streams], getattr(op, "fill_rate", 0.0)) for op in sim.active}


def totals(ctx):
    return {k: v.copy() for k, v in ctx.totals.items()}, dict(ctx.extra), list(ctx.asap_g), dict(ctx.asap_x)


def assert_close(a, b, what):
    assert np.allclose(a, b, rtol=1e-9, atol=1e-12), f"{what}: incremental {a} != from scratch {b}"


def check_from_scratch(sim):
    """Place every running op again on a fresh Ctx and compare; then restore the incremental state."""
    inc_ctx, inc_dirty = sim.ctx, sim.dirty_ops
    inc_rates, inc_totals = op_rates(sim), totals(inc_ctx)
    kept = {op: (op.placed, op.reads, op.reads_key, op.counted, op.idle, op.fit_log, op.n_reads) for op in sim.active}
    sim.ctx = Ctx(sim)
    sim.dirty_ops = set(sim.active)
    for op in sim.active:
        op.placed, op.reads, op.reads_key, op.counted = {}, set(), None, {}
    place(sim, inc_ctx.U_src, inc_ctx.random_src)
    scratch_rates, scratch_totals = op_rates(sim), totals(sim.ctx)
    for op, (placed, reads, reads_key, counted, idle, fit_log, n_reads) in kept.items():
        op.placed, op.reads, op.reads_key, op.counted, op.idle = placed, reads, reads_key, counted, idle
        op.fit_log, op.n_reads = fit_log, n_reads
    sim.ctx, sim.dirty_ops = inc_ctx, inc_dirty
    assert inc_rates.keys() == scratch_rates.keys()
    for i, a in inc_rates.items():
        b = scratch_rates[i]
        assert_close(a[0], b[0], f"{sim.ops[i].event.id} rate")
        assert_close(a[1], b[1], f"{sim.ops[i].event.id} phase rates")
        assert_close(a[2], b[2], f"{sim.ops[i].event.id} cache fill rate")
    for k in inc_totals[0]:
        assert_close(inc_totals[0][k], scratch_totals[0][k], f"{k} totals")
    assert inc_totals[1].keys() == scratch_totals[1].keys(), "drives with operation load"
    assert_close([inc_totals[1][d] for d in inc_totals[1]], [scratch_totals[1][d] for d in inc_totals[1]],
                 "per-drive load")
    assert inc_totals[2:] == scratch_totals[2:], "ASAP counts"


@pytest.fixture
def checked(monkeypatch):
    return check_after_each_call(monkeypatch, "place", lambda sim, _none: check_from_scratch(sim))


@pytest.mark.parametrize("project,scenario", list(every_plan()))
def test_incremental_placement_matches_placement_from_scratch(checked, catalog, project, scenario):
    sim = Sim(project, catalog, scenario)
    sim.run()
    assert checked and all(c is sim for c in checked)


def test_cpu_and_bus_changes_place_again_only_the_operations_they_limit(monkeypatch, catalog):
    """Every operation reads its SP's core and buses, so an earlier operation's CPU or bus
    addition used to place every later one on that core again (2,485 placements in the
    generated plan). An operation whose CPU and bus reads still hold (Ctx.holds) keeps its
    placement: ~520. The bound leaves room for changes to the operations' models."""
    import app.engine.placement as placement
    from engine import large_project

    calls = []
    real = placement.place_op
    monkeypatch.setattr(placement, "place_op", lambda sim, op, ctx: calls.append(op) or real(sim, op, ctx))
    Sim(large_project(30.0), catalog, None).run()
    assert len(calls) < 1000, f"{len(calls)} placements"
