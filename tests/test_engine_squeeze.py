"""host_solve._squeeze's rows against a computation from scratch.

_squeeze serves the open host load on a group an operation's fixed share pushes past max_util
at the fraction the operation leaves, and writes the step's iops, mb_s, port_pct and
offered_iops rows; a call whose input repeats the last one's (same host-load version, groups
and loads) copies the rows kept then. A kept row that outlived its version (the state dict
lives on across versions) would show another version's served IOPS: here, after every call on
the generated 960-drive plan (which squeezes at ~280 of its 664 steps) and the examples, the
rows must be the ones the served fractions give.
"""
from __future__ import annotations

import numpy as np
import pytest

from app.engine import simulate
from app.store.presets import load_catalog

from conftest import check_after_each_call, every_plan


def check_rows(sim, st):
    mu, busy, U = sim.max_util, sim.rv["drive_group"], st["host"][0]
    over = np.flatnonzero((busy > mu * (1.0 + 1e-9)) & (U > 1e-12))
    s_g = np.ones(len(U))
    s_g[over] = np.clip((mu - (busy[over] - U[over])) / U[over], 0.0, 1.0)
    X = st["X_open"] * s_g[st["gi"]]
    pw, W = st["pw"], len(sim.workloads)
    mb = X * st["kb"] / 1024.0
    port_cap = sim.platform.host_ports_per_controller * sim.platform.host_port_mb_s
    rv = sim.rv
    assert np.array_equal(rv["iops"], np.bincount(pw, weights=X, minlength=W)), "iops"
    assert np.array_equal(rv["mb_s"], np.bincount(pw, weights=mb, minlength=W)), "mb_s"
    assert np.array_equal(rv["port_pct"], np.bincount(st["ctrl"], weights=mb, minlength=len(sim.lay.ctrl_names))
                          / max(port_cap, 1e-9) * 100.0), "port_pct"
    assert np.array_equal(rv["offered_iops"], np.bincount(pw, weights=st["X_raw"], minlength=W)), "offered_iops"


@pytest.mark.parametrize("project,scenario", list(every_plan()))
def test_squeezed_rows_are_the_served_fractions(monkeypatch, project, scenario):
    checked = check_after_each_call(monkeypatch, "_squeeze", check_rows)
    simulate(project, load_catalog(), scenario)
    if scenario is None:  # the generated plan squeezes, and repeats, at many steps
        assert len(checked) > 100
