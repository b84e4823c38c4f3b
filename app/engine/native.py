"""Which engine runs: the mypyc build of the engine's hot modules, or their Python sources.

scripts/build_native.py compiles MODULES out of tree into build/native/ (never next to the .py
files: a stale extension module beside an edited source would shadow it) and writes
build/native/stamp.json last. app/engine/__init__.py calls `activate()` before importing
anything else of the package; it puts build/native/app/engine first on the package's __path__
when the stamp matches the sources and this interpreter, and imports the compiled modules there
and then, so that a broken build falls back at once instead of failing later.

    ARRAYPLANNER_ENGINE=python   always the Python sources
    ARRAYPLANNER_ENGINE=mypyc    the compiled modules; a missing or unusable build is an error
    ARRAYPLANNER_NATIVE_DIR=DIR  another build directory than build/native (tests)

ENGINE_BUILD says which: "mypyc", or "python" plus the reason ("python (no native build)").
A stale or broken build falls back with one warning saying how to rebuild.

Stdlib only, and loadable on its own (the build script and the packaging read it by path): no
import of app.*, numpy or Qt.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
import sysconfig
import warnings
from pathlib import Path

# The engine modules compiled by mypyc (app/engine/<name>.py): the one list of them.
MODULES = ("simulate", "sim_state", "host_terms", "host_model", "host_solve", "placement_ctx", "placement", "results",
           "ops", "op_streams", "run_index", "op_base", "op_migration", "op_rebuild_plan", "op_rebuild",
           "op_bind", "op_volume_mig", "op_reallocate", "op_feature", "op_generic", "op_policy", "state", "rates")
# mypyc's group name: its shared library (the compiled code of all MODULES; each module's own
# extension is a shim that imports it) is the module GROUP + "__mypyc", i.e.
# app.engine._native__mypyc, found on the package's __path__ like the shims, not a top-level name.
GROUP = "app.engine._native"
ENV = "ARRAYPLANNER_ENGINE"
DIR_ENV = "ARRAYPLANNER_NATIVE_DIR"
REBUILD = "./scripts/dev setup"

ENGINE_DIR = Path(__file__).resolve().parent
ROOT = ENGINE_DIR.parent.parent
STAMP_NAME = "stamp.json"
STAMP_FORMAT = 1


def default_build_dir() -> Path:
    """build/native of the checkout; in a PyInstaller bundle, the copy packaging/spec_common.py
    puts at <bundle>/_internal/native (sys._MEIPASS); $ARRAYPLANNER_NATIVE_DIR when set."""
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV]).resolve()
    if getattr(sys, "frozen", False):
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent)) / "native"
    return ROOT / "build" / "native"


def interpreter_tag() -> dict[str, str]:
    """What a compiled module is bound to: the extension suffix carries the ABI and platform."""
    return {"ext_suffix": sysconfig.get_config_var("EXT_SUFFIX") or "",
            "cache_tag": sys.implementation.cache_tag or ""}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stamp_problem(build_dir: Path, root: Path = ROOT, check_sources: bool = True) -> str | None:
    """Why the build in build_dir cannot be used (None when it can). The stamp lists the compiled
    sources and the app modules they import, each with its sha256: an edit to any of them makes the
    build stale (mypyc compiled against their types). A frozen app has no sources to hash
    (check_sources=False): its build was checked when the bundle was made."""
    try:
        stamp = json.loads((build_dir / STAMP_NAME).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return f"no {STAMP_NAME} in {build_dir} (an unfinished build)"
    except (OSError, ValueError) as exc:
        return f"unreadable {STAMP_NAME}: {exc}"
    if stamp.get("format") != STAMP_FORMAT or stamp.get("modules") != list(MODULES) or stamp.get("group") != GROUP:
        return "built by another version of the build script"
    if stamp.get("interpreter") != interpreter_tag():
        return f"built for another Python ({stamp.get('interpreter', {}).get('ext_suffix')})"
    if check_sources:
        for rel, digest in {**stamp.get("sources", {}), **stamp.get("deps", {})}.items():
            path = root / rel
            if not path.is_file():
                return f"{rel} is gone"
            if sha256(path) != digest:
                return f"{rel} changed since the build"
    return None


# Which engine this process runs; set by activate().
ENGINE_BUILD = "python (not activated)"


def _fall_back(package_path: list[str], where: str, reason: str, warn: bool) -> str:
    """Undo a half-done activation: the Python sources again, and one warning when asked."""
    while where in package_path:
        package_path.remove(where)
    for name in (*MODULES, GROUP.rpartition(".")[2] + "__mypyc"):
        sys.modules.pop(f"app.engine.{name}", None)
    if warn:
        fix = ("the installation is damaged: reinstall ArrayPlanner" if getattr(sys, "frozen", False)
               else f"rebuild it with `{REBUILD}` (or force Python with {ENV}=python)")
        warnings.warn(f"ArrayPlanner: the compiled engine is not used ({reason}); the engine runs as "
                      f"pure Python, slower: {fix}.", RuntimeWarning, stacklevel=4)
    return f"python ({reason})"


def activate(package_path: list[str], build_dir: Path | None = None) -> str:
    """Put the compiled modules first on package_path (app.engine.__path__) when the build is
    usable, import them, and return the ENGINE_BUILD string (also stored in this module)."""
    global ENGINE_BUILD
    ENGINE_BUILD = _activate(package_path, default_build_dir() if build_dir is None else build_dir)
    return ENGINE_BUILD


def _activate(package_path: list[str], build_dir: Path) -> str:
    choice = os.environ.get(ENV, "").strip().lower()
    if choice == "python":
        return f"python ({ENV}=python)"
    if choice not in ("", "mypyc"):
        warnings.warn(f"ArrayPlanner: {ENV}={choice!r} is neither 'python' nor 'mypyc'; ignored",
                      RuntimeWarning, stacklevel=3)
    required = choice == "mypyc"
    if not build_dir.is_dir():
        if required:
            raise ImportError(f"{ENV}=mypyc but there is no native build in {build_dir}: run {REBUILD}")
        return "python (no native build)"
    where = str(build_dir / "app" / "engine")
    problem = stamp_problem(build_dir, check_sources=not getattr(sys, "frozen", False))
    if problem is None:
        package_path.insert(0, where)
        try:
            for name in MODULES:
                module = importlib.import_module(f"app.engine.{name}")
                # a build for another interpreter has no file this one can load: the import
                # would silently find the .py next in __path__
                if not str(getattr(module, "__file__", "")).startswith(where):
                    raise ImportError(f"app.engine.{name} came from {getattr(module, '__file__', '?')}")
        except Exception as exc:  # noqa: BLE001 - any failure of a broken build means Python
            problem = f"it does not load: {type(exc).__name__}: {exc}"
    if problem is not None:
        if required:
            raise ImportError(f"{ENV}=mypyc but the native build is unusable: {problem}")
        return _fall_back(package_path, where, problem, warn=True)
    return "mypyc"


def describe() -> str:
    """One line for --version and the benchmarks' headers."""
    return f"engine: {ENGINE_BUILD}"
