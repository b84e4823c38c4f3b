"""Shared test set-up: Qt runs offscreen, user presets are isolated, and common fixtures.

Set before anything imports Qt: QT_QPA_PLATFORM=offscreen (GUI tests need no display) and
ARRAYPLANNER_PRESETS pointing at an empty folder (a developer's own user presets must not change
test results; tests that need user presets pass their own folder).
"""
from __future__ import annotations

import importlib
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ARRAYPLANNER_PRESETS"] = tempfile.mkdtemp(prefix="arrayplanner-no-user-presets-")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.store.examples import example_paths as _example_paths  # noqa: E402

EXAMPLE_PATHS = _example_paths()
EXAMPLE_IDS = [p.stem for p in EXAMPLE_PATHS]


def check_after_each_call(monkeypatch, name: str, check) -> list:
    """Make the engine call check(sim, what Sim.<name> returned) after each call of that method
    (the engine's CHECKS registry: the compiled engine's methods cannot be wrapped). Returns the
    list each checked call appends its Sim to, for a test to see that the check ran."""
    engine = importlib.import_module("app.engine.simulate")  # (the package's `simulate` is the function)
    checked = []

    def counted(sim, out):
        check(sim, out)
        checked.append(sim)

    monkeypatch.setitem(engine.CHECKS, name, counted)
    return checked


def every_plan():
    """pytest params (project, scenario name) for each scenario of each example project, then
    benchmarks/engine.py's generated 960-drive plan (its one scenario: None): the engine's
    incremental bookkeeping is checked against a computation from scratch over all of them."""
    from app.store.project_file import load_project

    for path in EXAMPLE_PATHS:
        project = load_project(path)
        for sc in project.scenarios:
            yield pytest.param(project, sc.name, id=f"{path.stem}/{sc.name}")
    if str(ROOT / "benchmarks") not in sys.path:
        sys.path.insert(0, str(ROOT / "benchmarks"))
    from engine import large_project

    yield pytest.param(large_project(30.0), None, id="generated")


@pytest.fixture(scope="session")
def qapp(qapp):
    """pytest-qt's QApplication, with garbage collection on the GUI thread as the app has it
    (app.ui.gc_policy: a collection in a worker thread destroyed Qt objects there)."""
    from app.ui.gc_policy import collect_on_gui_thread

    collect_on_gui_thread(qapp)
    return qapp


@pytest.fixture(scope="session")
def catalog():
    """The built-in catalog (no user presets)."""
    from app.store.presets import builtin_presets_dir, load_catalog

    return load_catalog(builtin_presets_dir(), user_dir=Path(os.environ["ARRAYPLANNER_PRESETS"]))


@pytest.fixture(scope="session")
def example_paths() -> list[Path]:
    """Every built-in example project (presets/examples/*.json)."""
    assert EXAMPLE_PATHS, "no example projects found in presets/examples"
    return list(EXAMPLE_PATHS)


@pytest.fixture(params=EXAMPLE_PATHS, ids=EXAMPLE_IDS)
def example_path(request) -> Path:
    """Parametrized: one test per built-in example project."""
    return request.param


@pytest.fixture
def load_example():
    """load_example("emc-cx4-960-oltp") -> a fresh Project read from the example file."""
    from app.store.examples import example_path
    from app.store.project_file import load_project

    return lambda name: load_project(example_path(name))


@pytest.fixture
def panel(qtbot):
    """A ChartsPanel of its own, 1200x900, shown (the chart tests'; a module may define its own)."""
    from app.ui.charts import ChartsPanel

    p = ChartsPanel()
    qtbot.addWidget(p)
    p.resize(1200, 900)
    p.show()
    qtbot.waitExposed(p)
    return p
