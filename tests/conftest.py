"""Shared test set-up: Qt runs offscreen, user presets are isolated, and common fixtures.

Set before anything imports Qt: QT_QPA_PLATFORM=offscreen (GUI tests need no display),
ARRAYPLANNER_PRESETS pointing at an empty folder (a developer's own user presets must not change
test results; tests that need user presets pass their own folder) and ARRAYPLANNER_DATA at
another (recovery files of the tests' windows, never the developer's).
"""
from __future__ import annotations

import importlib
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["ARRAYPLANNER_PRESETS"] = tempfile.mkdtemp(prefix="arrayplanner-no-user-presets-")
# the per-user data folder (autosave recovery files: app/store/user_dirs.py), never the developer's
os.environ["ARRAYPLANNER_DATA"] = tempfile.mkdtemp(prefix="arrayplanner-user-data-")
# the uncertainty bands start off (app/report/uncertainty.py bands_by_default): each test window
# and `report` would sample in the background; the bands' own tests ask for them
os.environ.setdefault("ARRAYPLANNER_BANDS", "off")

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
def host_first_catalog(tmp_path_factory):
    """The built-in catalog plus `host-first`: the CX4-960 whose rebuild and LUN migration levels
    keep no share of the drive time (min_share 0), so host I/O comes first up to max_util, as
    before the kept share (docs/model.md 4.7): the case where no priority helps."""
    from app.store.presets import builtin_presets_dir, load_catalog

    folder = tmp_path_factory.mktemp("host_first")
    text = (builtin_presets_dir() / "platforms" / "emc-cx4-960-r28.toml").read_text()
    text = text.replace('id = "emc-cx4-960-r28"', 'id = "host-first"')
    for kind in ("rebuild", "migration"):
        for level in ("Low", "Medium", "High", "ASAP"):
            text += (f"\n[rates_override.policy.{kind}.{level}]\n"
                     'min_share = { value = 0.0, source = "test: the host first" }\n')
    (folder / "host-first.toml").write_text(text)
    cat = load_catalog(builtin_presets_dir(), user_dir=folder)
    assert "host-first" in cat.platforms, cat.problems
    return cat


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



@pytest.fixture
def small_timeline(qtbot):
    """The main window with the timeline plug-in on the live tests' small project, predicting with
    their FakeEngine: (window, document, plug-in parts) (tests/gui/test_live_support.py)."""
    try:
        from test_live_support import catalog, small_project, timeline_window
    except ImportError:
        from tests.gui.test_live_support import catalog, small_project, timeline_window

    window, doc, parts = timeline_window(qtbot, small_project(catalog()))
    qtbot.wait(20)
    return window, doc, parts

# ---------------------------------------------------------------- tests that need the Python engine
# A test marked `python_engine` changes the engine's internals (monkeypatches Sim or ops methods,
# wraps them to check each call). Compiled by mypyc (app/engine/native.py), those classes take no
# monkeypatching and call each other directly, so in a session that runs the compiled engine such
# tests run in one pytest subprocess with ARRAYPLANNER_ENGINE=python instead, and each reports
# what it did there. The same tests, the same assertions: only the engine build differs.

def pytest_configure(config):
    config.addinivalue_line("markers", "python_engine: runs against the pure-Python engine (in a subprocess "
                                       "when this session runs the compiled one)")


_python_engine_runs: dict = {}


def _python_engine_outcome(item) -> tuple[bool, str]:
    """(passed, output) of `item` in the one subprocess that runs every python_engine test."""
    if not _python_engine_runs:
        import subprocess

        ids = [i.nodeid for i in item.session.items if i.get_closest_marker("python_engine")]
        env = {**os.environ, "ARRAYPLANNER_ENGINE": "python"}
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *ids],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
        _python_engine_runs["lines"] = set(proc.stdout.splitlines())
        _python_engine_runs["output"] = proc.stdout[-8000:] + proc.stderr[-2000:]
    return f"PASSED {item.nodeid}" in _python_engine_runs["lines"], _python_engine_runs["output"]


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    from app.engine import ENGINE_BUILD

    if pyfuncitem.get_closest_marker("python_engine") is None or ENGINE_BUILD != "mypyc":
        return None  # run here, as usual
    passed, output = _python_engine_outcome(pyfuncitem)
    if not passed:
        pytest.fail(f"failed with ARRAYPLANNER_ENGINE=python (in a subprocess):\n{output}", pytrace=False)
    return True
