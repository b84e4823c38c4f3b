"""The priority advisor's verdicts (app/service/advice.py): an operation that does not finish is
"not finished", not "exceeds", and the summary says why there is no recommendation."""
from __future__ import annotations

from app.service.advice import Advice, PriorityOutcome


def advice(*outcomes: PriorityOutcome, target: float = 20.0) -> Advice:
    return Advice("op1", "rebuild", "Low", target, list(outcomes))


def test_unfinished_within_target_is_not_finished_not_exceeds():
    low = PriorityOutcome("Low", None, {"oltp": 5.86})
    assert low.verdict(20.0) == "not finished" and not low.meets(20.0)
    assert PriorityOutcome("High", 2.0, {"oltp": 25.0}).verdict(20.0) == "exceeds"
    assert PriorityOutcome("ASAP", None, {"oltp": 25.0}).verdict(20.0) == "exceeds"
    assert PriorityOutcome("Medium", 3.0, {"oltp": 12.0}).verdict(20.0) == "keeps"
    assert PriorityOutcome("High", None, {}, error="KeyError: x").verdict(20.0) == "error"


def test_summary_says_why_nothing_is_recommended():
    only_errors = advice(PriorityOutcome("Low", None, {}, error="ProjectInvalid: LUN 21 does not exist"),
                         PriorityOutcome("High", None, {}, error="ProjectInvalid: LUN 21 does not exist"))
    assert only_errors.recommended is None
    assert "could not predict" in only_errors.summary() and "LUN 21" in only_errors.summary()
    never = advice(PriorityOutcome("Low", None, {"oltp": 5.0}), PriorityOutcome("High", None, {"oltp": 30.0}))
    assert "does not finish within the plan at any priority" in never.summary()
    split = advice(PriorityOutcome("Low", None, {"oltp": 5.0}), PriorityOutcome("High", 2.0, {"oltp": 30.0}))
    assert split.summary().startswith("Low keeps the workloads within 20") and "not finish" in split.summary()
    exceed = advice(PriorityOutcome("Low", 9.0, {"oltp": 25.0}), PriorityOutcome("High", 2.0, {"oltp": 30.0}))
    assert exceed.summary().startswith("No priority keeps the workloads within 20")
    ok = advice(PriorityOutcome("Low", 9.0, {"oltp": 5.0}), PriorityOutcome("High", 2.0, {"oltp": 30.0}))
    assert ok.recommended.priority == "Low"
