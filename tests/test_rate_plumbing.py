"""Plumbing: published figures that are inputs of the model (the preset carries the document's
number, or the document's formula only recombines such inputs). They are not validation - a
model that reads its input back proves nothing about its physics - so `arrayplanner validate`
leaves them out; here each is a unit test that the preset carries the document's number and the
engine uses it (the case's run reads it and reproduces the figure). The classification is
derived (app/cli/calibration.py): a preset value the run used that equals the published number
and cites the same table, or PLUMBING_BY_HAND with its reason."""
from __future__ import annotations

import pytest

from app.cli.calibration import OVERRULED_INPUTS, PLUMBING_BY_HAND, Bench, classify, fit_params, load_rates_docs


def _plumbing():
    bench = Bench()  # the built-in presets (collection time: the parameters are the plumbing cases)
    results = bench.run(bench.order)
    cls = classify(bench, results, fit_params(load_rates_docs()))
    return {cid: (results[cid], cls.why[cid]) for cid in bench.order if cls.cls[cid] == "plumbing"}


PLUMBING = _plumbing()


@pytest.fixture(scope="module")
def plumbing():
    return PLUMBING


def test_the_plumbing_cases_are_found(plumbing):
    # the scan finds the verbatim copies (e.g. hp idle 33.07 = rebuild.idle.High) and the hand list
    # (hp.idle.High/Medium are fitted now: the rebuild's read size is fitted to them)
    assert "hp.idle.Low" in plumbing and "emc.rebuild.table6.r5_4data_onebus" in plumbing
    assert set(PLUMBING_BY_HAND) <= set(plumbing)
    assert 40 <= len(plumbing) <= 75, len(plumbing)


@pytest.mark.parametrize("cid", sorted(PLUMBING))
def test_plumbing(plumbing, cid):
    r, why = plumbing[cid]
    if cid in OVERRULED_INPUTS:  # an input the model overrules, with its reading (must still miss)
        assert not r.passed, f"{cid} passes now: take it off OVERRULED_INPUTS ({OVERRULED_INPUTS[cid]})"
        return
    assert r.passed, (f"{cid} ({r.source}): the model no longer reproduces its own input: published "
                      f"{r.published} {r.unit}, predicted {r.predicted:.4g}; {why}")
    if not why.startswith("preset "):
        return  # a document formula on inputs (PLUMBING_BY_HAND): reproducing it is the test
    path = why.split()[1]
    assert any(p == path for p, _, _ in r.used), f"{cid}: the engine did not read {path} ({why})"
