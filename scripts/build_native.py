#!/usr/bin/env python3
"""Compile the engine's hot modules with mypyc, out of tree, into build/native/.

    .venv/bin/python scripts/build_native.py           # build (or rebuild) build/native/
    .venv/bin/python scripts/build_native.py --check   # exit 0 when build/native is fresh, else 1
    .venv/bin/python scripts/build_native.py --if-stale  # build only when --check would fail

The modules are app/engine/native.py's MODULES (the one list). Layout of the result:

    build/native/app/engine/<module><EXT_SUFFIX>        one shim per module
    build/native/app/engine/_native__mypyc<EXT_SUFFIX>  mypyc's shared library: all the code
    build/native/stamp.json                             written last: sha256 of every compiled
        source and of the app modules they import, the interpreter's ABI tag, the mypy version

build/native is replaced as a whole (built in build/native.new, then renamed) and never sits next
to the sources: a stale extension module beside an edited .py would shadow it. The generated C and
the object files stay in build/native-work/. app/engine/native.py loads the result.

Needs mypy (the "native" extra of pyproject.toml, pinned), setuptools and a C compiler (gcc/clang;
MSVC on Windows). When one is missing, or mypyc refuses the sources, exits 1 with a one-line reason
on stderr and removes a stale build/native, so the engine runs as pure Python without warnings.
Prints the build time.
"""
from __future__ import annotations

import argparse
import ast
import importlib.util
import io
import json
import os
import shutil
import sys
import sysconfig
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load_native():
    """app/engine/native.py by path: importing app.engine would load the build being replaced."""
    spec = importlib.util.spec_from_file_location("_arrayplanner_native", ROOT / "app" / "engine" / "native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


native = _load_native()


# mypy's options for the build: the modules the compiled ones import are analysed for their types
# but not compiled, and their own type errors are not the build's business
MYPY_OPTIONS = ["--follow-imports=silent"]


class CannotBuild(Exception):
    """A reason, one line, to print instead of a traceback."""


def sources() -> list[Path]:
    return [ROOT / "app" / "engine" / f"{name}.py" for name in native.MODULES]


def app_imports(path: Path) -> set[Path]:
    """The app modules `path` imports (absolute or relative), as files: mypyc compiled the module
    against their types, so an edit to one of them makes the build stale too."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            names = [base + (node.module.split(".") if node.module else [])]
            names += [names[0] + [alias.name] for alias in node.names]  # `from . import x`
        elif isinstance(node, ast.Import):
            names = [alias.name.split(".") for alias in node.names]
        else:
            continue
        for parts in names:
            if parts and parts[0] == "app":
                for candidate in (ROOT.joinpath(*parts).with_suffix(".py"), ROOT.joinpath(*parts, "__init__.py")):
                    if candidate.is_file():
                        found.add(candidate)
    return found


def dependencies() -> list[Path]:
    """The app modules the compiled sources import (not themselves), sorted: the stamp's deps."""
    return sorted(set().union(*(app_imports(p) for p in sources())) - set(sources()))


def c_compiler() -> str:
    """The compiler setuptools will call (Unix: $CC, else the one Python was built with)."""
    return (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]


def check_prerequisites() -> str:
    """The mypy version, or CannotBuild."""
    try:
        import mypy.version
        import mypyc.build  # noqa: F401
    except ImportError:
        raise CannotBuild("mypy is not installed (pip install -e '.[native]')") from None
    try:
        import setuptools  # noqa: F401
    except ImportError:
        raise CannotBuild("setuptools is not installed (pip install -e '.[native]')") from None
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        raise CannotBuild(f"no Python headers (Python.h) for {sys.executable} (Debian: python3-dev)")
    if os.name != "nt":  # MSVC is found by setuptools itself, and fails the build below if absent
        cc = c_compiler()
        if not shutil.which(cc):
            raise CannotBuild(f"no C compiler ({cc} not found; Debian: apt-get install gcc)")
    return mypy.version.__version__


def build(out: Path, work: Path) -> dict:
    mypy_version = check_prerequisites()
    from mypyc.build import mypycify
    from setuptools import Distribution

    new = out.with_name(out.name + ".new")
    shutil.rmtree(new, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    rel = [str(p.relative_to(ROOT)) for p in sources()]
    log = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)  # mypy maps the paths to module names (app.engine.x) from here
    try:
        with redirect_stdout(log), redirect_stderr(log):
            extensions = mypycify([*MYPY_OPTIONS, "--cache-dir", str(work / "mypy_cache"), *rel],
                                  target_dir=str(work / "c"), group_name=native.GROUP)
            dist = Distribution({"name": "arrayplanner-native", "ext_modules": extensions})
            cmd = dist.get_command_obj("build_ext")
            cmd.build_lib, cmd.build_temp = str(new), str(work / "obj")
            dist.run_command("build_ext")
    except (Exception, SystemExit) as exc:  # mypy errors end in SystemExit, compiler ones in CompileError
        shutil.rmtree(new, ignore_errors=True)
        tail = [line for line in log.getvalue().splitlines() if line.strip()][-15:]
        sys.stderr.write("\n".join(tail) + "\n" if tail else "")
        reason = str(exc) if not isinstance(exc, SystemExit) else f"mypy/mypyc refused the sources (exit {exc.code})"
        raise CannotBuild(f"mypyc build failed: {reason.splitlines()[0] if reason else type(exc).__name__}") from None
    finally:
        os.chdir(cwd)

    stamp = {
        "format": native.STAMP_FORMAT,
        "modules": list(native.MODULES),
        "group": native.GROUP,
        "sources": {str(p.relative_to(ROOT).as_posix()): native.sha256(p) for p in sources()},
        "deps": {str(p.relative_to(ROOT).as_posix()): native.sha256(p) for p in dependencies()},
        "interpreter": native.interpreter_tag(),
        "python": sys.version.split()[0],
        "mypy": mypy_version,
    }
    # the stamp last, then one rename: a build/native that exists is complete
    (new / native.STAMP_NAME).write_text(json.dumps(stamp, indent=1) + "\n", encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    new.rename(out)
    return stamp


def installed_mypy() -> str | None:
    try:
        import mypy.version
    except ImportError:
        return None
    return mypy.version.__version__


def problem(out: Path) -> str | None:
    """Why build/native needs a rebuild: the loader's checks, plus another mypy than the one
    installed (a new pin in pyproject.toml)."""
    if not out.is_dir():
        return "no native build"
    found = native.stamp_problem(out)
    if found is None:
        built_with = json.loads((out / native.STAMP_NAME).read_text(encoding="utf-8")).get("mypy")
        mypy = installed_mypy()
        if mypy is not None and built_with != mypy:
            found = f"built with mypy {built_with}, {mypy} is installed"
    return found


def inputs() -> dict:
    """What a build depends on. A failed build is remembered with it, so that the set-up does not
    try again (for a minute) until one of these changes: a source, mypy, the compiler found."""
    files = sorted(sources() + dependencies())
    cc = None if os.name == "nt" else shutil.which(c_compiler())
    return {"files": {str(p.relative_to(ROOT).as_posix()): native.sha256(p) for p in files},
            "interpreter": native.interpreter_tag(), "mypy": installed_mypy(), "cc": cc}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "native", help="default build/native")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 0 when the build is fresh, else 1")
    mode.add_argument("--if-stale", action="store_true",
                      help="build only when the build is not fresh and the last failure (if any) was for other inputs")
    ap.add_argument("--quiet", action="store_true", help="print nothing when the build is up to date")
    args = ap.parse_args(argv)
    out = args.out.resolve()
    failed = out.with_name(out.name + "-failed.json")  # the last failure: its inputs and reason

    if args.check or args.if_stale:
        why = problem(out)
        if why is None:
            if not args.quiet:
                print(f"native engine: up to date ({out})")
            return 0
        if args.check:
            print(f"native engine: needs a build: {why}")
            return 1
        try:
            last = json.loads(failed.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            last = None
        if last is not None and last.get("inputs") == inputs():
            print(f"native engine: not built: {last.get('reason')} (as the last time: nothing changed since; "
                  f"{Path(__file__).name} without options tries again)", file=sys.stderr)
            return 1
    t0 = time.perf_counter()
    try:
        stamp = build(out, out.with_name(out.name + "-work"))
    except CannotBuild as exc:
        if out.is_dir() and native.stamp_problem(out) is not None:
            shutil.rmtree(out)  # stale and not rebuilt: unused anyway, and it would warn every run
        failed.parent.mkdir(parents=True, exist_ok=True)
        failed.write_text(json.dumps({"inputs": inputs(), "reason": str(exc)}, indent=1) + "\n", encoding="utf-8")
        print(f"native engine: not built: {exc}", file=sys.stderr)
        return 1
    failed.unlink(missing_ok=True)
    print(f"native engine: built {', '.join(stamp['sources'])} with mypyc {stamp['mypy']} "
          f"in {time.perf_counter() - t0:.0f} s -> {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
