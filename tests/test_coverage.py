"""`validate --bands N`: the share of published figures inside the predicted P10-P90 (app/cli/coverage.py)."""
from __future__ import annotations

import json

import pytest

from app.cli import main
from app.cli.coverage import inside


@pytest.mark.parametrize("published, rule, lo, hi, decimals, expected", [
    (10.0, "pct", 9.0, 11.0, 0, True),
    (10.0, "pct", 10.5, 11.0, 0, False),
    (10.0, "pct", 10.0, 10.0, 0, True),          # a zero-wide band: inside only when exact
    ([12.0, 40.0], "range", 38.0, 45.0, 0, True),  # a published range overlaps the band
    ([12.0, 40.0], "range", 41.0, 45.0, 0, False),
    (18.0, "ceil", 17.2, 17.5, 0, True),          # printed rounded up: 17.2-17.5 h prints as 18
    (18.0, "ceil", 16.2, 16.9, 0, False),
    (2.5, "round", 2.46, 2.48, 1, True),
    (2.5, "round", 2.3, 2.4, 1, False),
    (10.0, "pct", float("nan"), 11.0, 0, False),
])
def test_inside(published, rule, lo, hi, decimals, expected):
    assert inside(published, rule, lo, hi, decimals) is expected


def test_validate_reports_coverage_per_class(capsys):
    args = ["validate", "--only", "hp.table", "--bands", "16", "--workers", "1", "--json"]
    main(args)
    out = json.loads(capsys.readouterr().out)
    cov = out["coverage"]
    assert cov["samples"] == 16 and cov["parameters"] > 0 and cov["engine_runs"] > 0
    cases = {c["id"]: c for c in cov["cases"]}
    assert cases and all(c["p10"] <= c["p50"] <= c["p90"] for c in cases.values())
    assert any(c["varied"] and c["p90"] > c["p10"] for c in cases.values())  # the HP fits carry ranges
    for cls in ("calibration", "prediction"):
        share = cov["share"][cls]
        assert share["inside"] == sum(c["inside"] for c in cases.values() if c["class"] == cls)
        assert share["cases"] == sum(1 for c in cases.values() if c["class"] == cls)
    main(args)
    again = json.loads(capsys.readouterr().out)["coverage"]
    assert again["cases"] == cov["cases"] and again["share"] == cov["share"]  # seeded: the same figures
