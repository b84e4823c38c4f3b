"""Every validation case of presets/validation/*.toml passes (the same cases `arrayplanner
validate` replays): the documents' published figures against the model."""
from __future__ import annotations

import pytest

from app.cli.engine_cmds import load_cases, load_examples
from app.engine.cases import check_text, judge, rule_of, run_case

CASES = load_cases()


@pytest.fixture(scope="module")
def examples(catalog):
    return load_examples(catalog)


def test_cases_found_for_every_document():
    sources = {c["id"].split(".")[0] for c, _, _ in CASES}
    assert {"emc", "hp", "hitachi", "dell", "netapp"} <= sources
    ids = [c["id"] for c, _, _ in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"


@pytest.mark.parametrize("case,projects,fname", CASES, ids=[c["id"] for c, _, _ in CASES])
def test_case(case, projects, fname, catalog, examples):
    for key in ("id", "source", "published", "unit", "measure"):
        assert key in case, f"{fname}: case {case.get('id')} has no {key}"
    r = run_case(case, catalog, examples, projects)
    assert r.passed, (f"{case['id']} ({case['source']}): published {r.published} {r.unit}, "
                      f"predicted {r.predicted:.4g}, error {r.error_pct}%")


def test_judge_rules_can_fail():
    assert judge({"published": 10, "tolerance_pct": 5}, 10.4)[1]
    assert not judge({"published": 10, "tolerance_pct": 5}, 10.6)[1]
    assert judge({"published": 9, "tolerance": "ceil"}, 8.4)[1]
    assert not judge({"published": 9, "tolerance": "ceil"}, 9.2)[1]
    assert not judge({"published": 9, "tolerance": "ceil"}, 7.9)[1]
    assert judge({"published": [12, 40]}, 20)[1]
    assert not judge({"published": [12, 40]}, 41)[1]
    assert not judge({"published": 3, "tolerance": "greater"}, 2.9)[1]
    assert not judge({"published": 1, "tolerance": "less"}, 1.1)[1]


def test_directional_cases_have_no_error_percentage():
    # "at least 4x" is a condition, not a figure to be within some % of
    assert judge({"published": 4, "tolerance": "greater"}, 9.72) == (None, True)
    assert judge({"published": 1, "tolerance": "less"}, 0.0) == (None, True)
    err, ok = judge({"published": [12, 40]}, 44)  # a range: the distance outside it
    assert not ok and abs(err - 10.0) < 1e-9


def test_check_text_says_what_was_checked():
    assert check_text({"published": 4, "tolerance": "greater", "measure": {"what": "ratio"}}) == "> 4"
    assert check_text({"published": 1.1, "tolerance": "less", "measure": {"what": "series"}}) == "< 1.1"
    flag = {"published": 0.5, "tolerance": "greater", "measure": {"what": "advisory", "code": "x"}}
    assert rule_of(flag) == "flag" and check_text(flag) == "flag set"
    assert check_text({"published": [90, 97], "measure": {"what": "series"}}) == "range 90-97"
    assert check_text({"published": 2.53, "tolerance_pct": 5, "measure": {"what": "op_duration"}}) == "2.53 ±5%"
    assert check_text({"published": 9, "tolerance": "ceil", "measure": {"what": "op_duration"}}) == "9 (rounded up)"
