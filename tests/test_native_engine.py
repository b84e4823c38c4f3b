"""The mypyc build of the engine (app/engine/native.py, scripts/build_native.py): it is used only
when fresh, a stale or broken one falls back to the Python sources with one warning,
ARRAYPLANNER_ENGINE=python forces Python, the worker process runs the same engine as the GUI, and
the compiled engine predicts exactly what the Python one does.

Each loader test runs `import app.engine` in a fresh interpreter, pointed at a build directory of
its own with ARRAYPLANNER_NATIVE_DIR: the repository's build/native is never touched, and this
process's engine modules are never reloaded."""
from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine import ENGINE_BUILD, native

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "native"
EXT = native.interpreter_tag()["ext_suffix"]

PROBE = """
import sys, app.engine
print(app.engine.ENGINE_BUILD)
print(sys.modules["app.engine.simulate"].__file__)
"""


def probe(build_dir: Path | None = None, engine: str | None = None) -> tuple[str, str, str]:
    """(ENGINE_BUILD, app.engine.simulate's file, stderr) of a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k not in (native.ENV, native.DIR_ENV)}
    if build_dir is not None:
        env[native.DIR_ENV] = str(build_dir)
    if engine is not None:
        env[native.ENV] = engine
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    build, module_file = proc.stdout.splitlines()
    return build, module_file, proc.stderr


def fresh_stamp(**changes) -> dict:
    """A stamp that matches the sources and this interpreter (no deps), with `changes` applied."""
    sources = {f"app/engine/{m}.py": native.sha256(ROOT / "app" / "engine" / f"{m}.py") for m in native.MODULES}
    stamp = {"format": native.STAMP_FORMAT, "modules": list(native.MODULES), "group": native.GROUP,
             "sources": sources, "deps": {}, "interpreter": native.interpreter_tag(), "mypy": "test"}
    stamp.update(changes)
    return stamp


def fake_build(tmp_path: Path, stamp: dict | None, so_bytes: bytes = b"not a shared library") -> Path:
    """A build directory with unloadable extension modules and the given stamp (None: no stamp)."""
    engine = tmp_path / "native" / "app" / "engine"
    engine.mkdir(parents=True)
    for name in (*native.MODULES, "_native__mypyc"):
        (engine / f"{name}{EXT}").write_bytes(so_bytes)
    if stamp is not None:
        (tmp_path / "native" / native.STAMP_NAME).write_text(json.dumps(stamp))
    return tmp_path / "native"


def fell_back(build: str, module_file: str, stderr: str, reason: str) -> None:
    assert build.startswith("python (") and reason in build, build
    assert module_file.endswith("simulate.py"), module_file
    warnings = [line for line in stderr.splitlines() if "RuntimeWarning" in line]
    assert len(warnings) == 1 and reason in warnings[0] and native.REBUILD in warnings[0], stderr


def test_no_build_means_python_without_a_warning(tmp_path):
    build, module_file, stderr = probe(tmp_path / "nothing here")
    assert (build, "Warning" in stderr) == ("python (no native build)", False), stderr
    assert module_file.endswith("simulate.py")


def test_a_stale_build_falls_back_with_one_warning(tmp_path):
    stamp = fresh_stamp()
    stamp["sources"]["app/engine/simulate.py"] = "0" * 64  # built from another simulate.py
    fell_back(*probe(fake_build(tmp_path, stamp)), "app/engine/simulate.py changed since the build")


def test_a_build_stale_in_a_module_it_imports_falls_back(tmp_path):
    # mypyc compiled against the types of what the modules import: an edit there is stale too
    fell_back(*probe(fake_build(tmp_path, fresh_stamp(deps={"app/engine/result.py": "0" * 64}))),
              "app/engine/result.py changed since the build")


def test_a_build_for_another_python_falls_back(tmp_path):
    other = {"ext_suffix": ".cpython-399-x86_64-linux-gnu.so", "cache_tag": "cpython-399"}
    fell_back(*probe(fake_build(tmp_path, fresh_stamp(interpreter=other))), "built for another Python")


def test_an_unfinished_build_falls_back(tmp_path):
    fell_back(*probe(fake_build(tmp_path, None)), "unfinished build")


def test_a_broken_build_falls_back(tmp_path):
    # the stamp matches, the extension modules do not load
    fell_back(*probe(fake_build(tmp_path, fresh_stamp())), "does not load")


def test_engine_python_forces_the_python_sources(tmp_path):
    # even a build that would load (the repository's, when it is fresh)
    build, module_file, stderr = probe(BUILD, engine="python")
    assert build == "python (ARRAYPLANNER_ENGINE=python)" and module_file.endswith("simulate.py")
    assert "Warning" not in stderr, stderr


def fresh_build_or_skip() -> None:
    if not BUILD.is_dir():
        pytest.skip("no native build in build/native (./scripts/dev setup makes one when a C compiler is there)")
    problem = native.stamp_problem(BUILD)
    if problem is not None:
        pytest.skip(f"the native build in build/native is stale ({problem}): ./scripts/dev setup rebuilds it")


def test_a_fresh_build_is_loaded_from_build_native():
    fresh_build_or_skip()
    build, module_file, stderr = probe()
    assert build == "mypyc" and module_file == str(BUILD / "app" / "engine" / f"simulate{EXT}"), (build, module_file)
    assert "Warning" not in stderr, stderr
    assert ENGINE_BUILD == "mypyc" or os.environ.get(native.ENV) == "python"  # this test session too


@pytest.mark.parametrize("engine", [None, "python"])
def test_the_worker_process_runs_the_engine_of_the_gui_process(monkeypatch, engine):
    """app.service.engine_worker.main says which engine it loaded in its "ready" message; a spawned process
    inherits the environment, so it must find the same build as a fresh interpreter here."""
    from app.service.engine_worker.main import serve

    if engine is None:
        monkeypatch.delenv(native.ENV, raising=False)
    else:
        monkeypatch.setenv(native.ENV, engine)
    monkeypatch.delenv(native.DIR_ENV, raising=False)
    want, _, _ = probe(engine=engine)
    ctx = multiprocessing.get_context("spawn")  # as app/ui/engine_process.py starts it
    here, there = ctx.Pipe()
    proc = ctx.Process(target=serve, args=(there,), daemon=True)
    proc.start()
    try:
        assert here.poll(120), "the worker did not say ready"
        kind, pid, build = here.recv()
        assert (kind, pid, build) == ("ready", proc.pid, want)
        here.send(("quit",))
        proc.join(30)
    finally:
        if proc.is_alive():
            proc.kill()


def test_build_script_check_names_what_is_missing(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_native.py"), "--check", "--out",
                           str(tmp_path / "native")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "needs a build: no native build" in proc.stdout, proc.stdout + proc.stderr


def test_compiled_and_python_engines_predict_the_same(tmp_path):
    """Every plan of benchmarks/engine_fingerprint.py (the examples' scenarios and the large
    generated plans) at rtol 1e-9: saved by the Python engine, compared by the compiled one.
    A few seconds: not `slow`, so that CI's quick jobs on every OS run it too."""
    fresh_build_or_skip()
    script = str(ROOT / "benchmarks" / "engine_fingerprint.py")
    saved = tmp_path / "python.pkl"
    env = {k: v for k, v in os.environ.items() if k not in (native.ENV, native.DIR_ENV)}
    py = subprocess.run([sys.executable, script, "--save", str(saved)], env={**env, native.ENV: "python"},
                        capture_output=True, text=True, timeout=900)
    assert py.returncode == 0 and py.stdout.startswith("engine: python ("), py.stdout + py.stderr
    compiled = subprocess.run([sys.executable, script, "--compare", str(saved)], env=env,
                              capture_output=True, text=True, timeout=900)
    assert compiled.stdout.startswith("engine: mypyc\n"), compiled.stdout + compiled.stderr
    assert compiled.returncode == 0, compiled.stdout[-6000:] + compiled.stderr[-3000:]
