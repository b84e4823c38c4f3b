"""Validate, then simulate: the prediction the GUI shows after every edit.

    pred = predict(project, catalog)   # -> Prediction(issues, current, baseline, error, engine_s)

Runs wherever the GUI sends it (the engine worker process, or a worker thread of the GUI) and
never raises for a bad project: validation errors and engine failures come back as
`Prediction.error`, the message the GUI shows, with the validation issues beside it.
"""
from __future__ import annotations

import functools
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

SimulateFn = Callable[..., Any]  # simulate(project, catalog, scenario_name=None) -> Result


class ProjectInvalid(ValueError):
    """The project has validation errors, so the engine is not run."""


def refusal(issues, scenarios=None) -> str | None:
    """Why there is no prediction for a project with these issues (None: nothing blocks it), in
    a sentence the status bar can show; the Messages dock lists every issue.
    scenarios: the scenarios to be simulated: only errors of the layout and of these block
    (app.domain.validation.blocking); None: every error does."""
    from app.domain.formatting import plural
    from app.domain.validation import blocking

    errors = (blocking(issues, scenarios) if scenarios is not None
              else [i for i in issues if i.severity == "error"])
    if not errors:
        return None
    # a scenario issue's text starts with its scenario's name, a layout issue's names its object
    return f"{plural(len(errors), 'error')} to fix first (see Messages): {errors[0].text}"


def failure_message(exc: BaseException) -> str:
    """The text the GUI shows for an exception (call it in the `except` block): the project's
    own problems (ValueError, KeyError) in one line, anything else with its traceback."""
    msg = f"{type(exc).__name__}: {exc}"
    if not isinstance(exc, (ValueError, KeyError)):
        msg += "\n" + traceback.format_exc(limit=4)
    return msg


def default_simulate(project, catalog, scenario_name=None):
    """Validate, then run the engine; raises ProjectInvalid when the project has errors."""
    from app.domain.validation import validate
    from app.engine.simulate import simulate

    name = scenario_name or project.current_scenario
    why = refusal(validate(project, catalog, name), [name])
    if why:
        raise ProjectInvalid(why)
    return simulate(project, catalog, scenario_name=scenario_name)


def baseline_to_run(project) -> str | None:
    """The pinned baseline scenario when it exists and is not the current one."""
    base = project.baseline_scenario
    if base == project.current_scenario or not any(s.name == base for s in project.scenarios):
        return None
    return base


@dataclass
class Prediction:
    scenario: str
    baseline_scenario: str | None
    issues: list = field(default_factory=list)  # validation issues of every scenario
    current: Any = None  # Result of the current scenario
    baseline: Any = None  # Result of the baseline scenario (None when not pinned)
    error: str | None = None  # why there is no prediction (failure_message)
    engine_s: float = 0.0  # time in the engine (both runs)
    # time.perf_counter() when validation started and ended and when the engine ended (the same
    # clock in the worker process and the GUI on Linux: benchmarks trace an edit with it)
    marks: dict = field(default_factory=dict)


def predict(project, catalog, simulate: SimulateFn | None = None,
            layout_cache: dict | None = None, results=None,
            should_stop: Callable[[], bool] | None = None, layouts=None) -> Prediction:
    """Validate every scenario, then simulate the current one and the pinned baseline.
    `simulate` stands in for the engine (tests); errors of the layout and of those two scenarios
    stop the prediction, errors of other scenarios are only listed in `issues`.
    `layout_cache`: see app.domain.validation.validate (for a replica of the project).
    `results`: an app.service.engine_worker.result_cache.ResultCache kept between calls (the worker's): a run
    whose inputs were simulated before is not run again (undo/redo, the pinned baseline).
    `should_stop`: for the engine (app.engine.simulate.simulate): the run ends early, with
    `Prediction.error` set, once it returns True (a newer edit makes this one stale).
    `layouts`: an app.engine.state.LayoutCache kept between calls, only for a replica whose
    containers are replaced, never modified (the worker's): runs on the same hardware share
    the engine's static arrays."""
    from app.domain.validation import validate

    validating = time.perf_counter()
    out = Prediction(project.current_scenario, baseline_to_run(project),
                     validate(project, catalog, layout_cache=layout_cache))
    validated = time.perf_counter()
    out.marks.update(validating=validating, validated=validated)
    why = refusal(out.issues, [out.scenario, out.baseline_scenario])
    if why:
        out.error = why  # a sentence for the status bar, not an exception's name
        return out
    if simulate is None:
        from app.engine.simulate import simulate
        if should_stop is not None or layouts is not None:
            simulate = functools.partial(simulate, should_stop=should_stop, layouts=layouts)
    run = simulate if results is None else functools.partial(results.run, simulate)
    try:
        out.current = run(project, catalog, scenario_name=out.scenario)
        if out.baseline_scenario:
            out.baseline = run(project, catalog, scenario_name=out.baseline_scenario)
    except Exception as exc:  # the engine refused the project: show it, do not crash
        out.current = out.baseline = None
        out.error = failure_message(exc)
    out.marks["simulated"] = time.perf_counter()
    out.engine_s = out.marks["simulated"] - validated
    return out
