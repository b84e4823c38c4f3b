"""The engine's incremental host load (host_model._host_static) against one computed from scratch.

Each host-load version recomputes only the pairs an invalidation named (a failure's group, a
migrated LUN, a workload's change; an IOPS-only change only their offered IOPS). A change to a
pair's input that no invalidation names would leave stale terms. Here, after every version of
every example scenario and of a generated plan, every pair's terms and each group's sums must be
the ones a computation of all pairs gives.
"""
from __future__ import annotations

import numpy as np
import pytest

from app.engine.host_model import _centre_scale
from app.engine.host_terms import (
    PAIR_TERMS, _SCALAR_PAIRS, _host_load, _pair_arith, _pair_rows_few, _pair_terms, _workload_terms,
)
from app.engine.simulate import Sim

from conftest import check_after_each_call, every_plan


def check_from_scratch(sim, st):
    f, i, b = _pair_terms(sim, np.arange(sim.P))
    assert np.array_equal(sim._pair_f, f, equal_nan=True), "pair terms"
    assert np.array_equal(sim._pair_i, i), "pair groups and controllers"
    assert np.array_equal(sim._pair_b, b), "pair I/O paths and modes"
    assert sim._pair_i_rows == i.tolist() and sim._pair_b_rows == b.tolist(), "their lists (_update_few)"
    assert np.array_equal(sim._sum_rows, f[[PAIR_TERMS.index(t) for t in ("busy_per_io", "rnd", "be_mb_per_io")]],
                          equal_nan=True), "the per-group sums' terms (_host_load)"
    assert sim._group_pairs == [np.flatnonzero(i[0] == g).tolist() for g in range(sim.lay.G)], "each group's pairs"
    agg = st.get("agg")  # solve_open's per-version sums, kept while the served IOPS stay
    if agg is not None:
        X, pw, ctrl, W = st["X_open"], st["pw"], st["ctrl"], len(sim.workloads)
        mb = X * st["kb"] / 1024.0
        port_cap = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
        fresh = (np.bincount(pw, weights=X, minlength=W), np.bincount(pw, weights=mb, minlength=W),
                 np.bincount(ctrl, weights=mb, minlength=len(sim.lay.ctrl_names)) / max(port_cap, 1e-9) * 100.0,
                 np.bincount(pw, weights=st["X_raw"], minlength=W))
        for a, s, what in zip(agg, fresh, ("iops", "mb_s", "port_pct", "offered_iops")):
            assert np.array_equal(a, s), f"solve_open's {what} sums"
    if st["host"] is not None:
        scratch = _host_load(sim, dict(st), st["X_open"])
        for a, s, what in zip(st["host"], scratch, ("group load", "random share", "SP-core load", "back-end MB/s")):
            assert np.array_equal(a, s), what


@pytest.fixture
def checked(monkeypatch):
    return check_after_each_call(monkeypatch, "_host_static", check_from_scratch)


@pytest.mark.parametrize("project,scenario", list(every_plan()))
def test_incremental_host_load_matches_host_load_from_scratch(checked, catalog, project, scenario):
    sim = Sim(project, catalog, scenario)
    sim.run()
    if sim.P:
        assert checked and all(c is sim for c in checked)


def check_centre_from_scratch(sim, st):
    """The served load where a centre caps it: _centre_scale on every pair (a copy of st without
    the last call's memo) gives the served IOPS, cache fill, peak demands and unserved workloads
    that the few-groups path (_centre_scale_few) left."""
    if not sim._capped or st["host"] is None:
        return
    fill, sat_g, mask = sim.host_fill, sim.sat_g.copy(), sim.unserved_mask.copy()
    saturated = dict(sim.saturated)
    fresh = dict(st)
    fresh.pop("centre_memo", None)
    try:
        scale = _centre_scale(sim, fresh, st["X_port"], st["host_off"])
        assert scale is not None, "capped"
        assert np.array_equal(st["X_port"] * scale, st["X_open"]), "served IOPS"
        assert np.array_equal(sim.host_fill, fill), "host writes' cache fill per controller"
        assert np.array_equal(sim.sat_g, sat_g), "each group's peak demand"
        assert np.array_equal(sim.unserved_mask, mask), "unserved workloads"
    finally:
        sim.host_fill, sim.sat_g, sim.unserved_mask = fill, sat_g, mask
        sim.saturated.clear()
        sim.saturated.update(saturated)


@pytest.fixture
def centre_checked(monkeypatch):
    return check_after_each_call(monkeypatch, "_host_static", check_centre_from_scratch)


@pytest.mark.parametrize("project,scenario", list(every_plan()))
def test_centre_scale_of_few_groups_matches_centre_scale_from_scratch(centre_checked, catalog, project, scenario):
    sim = Sim(project, catalog, scenario)
    sim.run()
    if sim.P:
        assert centre_checked and all(c is sim for c in centre_checked)


def check_pair_rows_few(sim, st):
    """A small project's pair terms on Python floats (_pair_rows_few, what _pair_terms takes up
    to _SCALAR_PAIRS pairs) are the rows _pair_arith gives on numpy arrays, bit for bit."""
    lay = sim.lay
    pw, pl = sim.p_w, sim.p_l
    g = lay.l_group[pl]
    gi = np.maximum(g, 0)
    on = lay.l_live[pl] & (g >= 0) & ~sim.offline[lay.l_owner[pl]]
    hit_scale = lay.l_hit_scale[pl] * lay.l_rcache[pl]
    opt = lay.l_opt[pl] if sim.frag_k is not None else None
    rows = np.array(_pair_arith(_workload_terms(sim).take(pw, axis=1), sim._grp_terms.take(gi, axis=1),
                                hit_scale, opt, on, sim.seq64 is not None, sim.frag_k))
    few = _pair_rows_few(sim, pw, gi, hit_scale, opt, on)
    assert few is not None, "a small project's pairs divide by zero"
    assert few.shape == rows.shape and few.flags.c_contiguous
    assert few.tobytes() == rows.tobytes(), "the float path's terms differ from the rows'"


@pytest.fixture
def few_checked(monkeypatch):
    return check_after_each_call(monkeypatch, "_host_static", check_pair_rows_few)


@pytest.mark.parametrize("project,scenario", [p for p in every_plan() if len(p.values[0].workloads) < 10])
def test_pair_terms_on_floats_are_the_rows_terms(few_checked, catalog, project, scenario):
    sim = Sim(project, catalog, scenario)
    sim.run()
    if 0 < sim.P <= _SCALAR_PAIRS:
        assert few_checked and all(c is sim for c in few_checked)
