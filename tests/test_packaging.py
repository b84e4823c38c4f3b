"""The Linux (or this OS's) bundle builds from the checkout and the frozen app works headless.

Slow (about a minute: one PyInstaller build plus one run per example), so marked `slow`; .ci/run
runs it. Installs PyInstaller into the test environment when missing (packaging/build.py does).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
sys.path.insert(0, str(PACKAGING))
import spec_common  # noqa: E402
from workflow_commands import script_calls  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bundle")
    proc = subprocess.run(
        [sys.executable, str(PACKAGING / "build.py"), "--dist", str(out / "dist"),
         "--work", str(out / "work")],
        cwd=ROOT, capture_output=True, text=True, timeout=1800,
    )
    print(proc.stdout[-3000:])
    assert proc.returncode == 0, f"bundle build failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
    name = spec_common.APP_NAME + (".app" if sys.platform == "darwin" else "")
    path = out / "dist" / name
    assert path.exists()
    return path


def _cli(bundle: Path) -> Path:
    if bundle.suffix == ".app":
        return bundle / "Contents" / "MacOS" / spec_common.cli_executable("darwin")
    return bundle / spec_common.cli_executable("win32" if sys.platform.startswith("win") else "linux")


def test_frozen_report_is_a_pdf_with_the_project_name(bundle, tmp_path):
    example = ROOT / "presets" / "examples" / "emc-cx4-960-oltp.json"
    title = json.loads(example.read_text(encoding="utf-8"))["info"]["title"]
    pdf = tmp_path / "report.pdf"
    env = {**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("DISPLAY", None)  # headless: no X server needed
    proc = subprocess.run([str(_cli(bundle)), "report", str(example), "-o", str(pdf)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) not installed: PDF text not checked")
    text = subprocess.run([pdftotext, str(pdf), "-"], capture_output=True, text=True).stdout
    assert " ".join(title.split()) in " ".join(text.split())


def test_frozen_smoke_test_passes(bundle, tmp_path):
    """The smoke test exactly as CI's bundle job runs it (.github/workflows/ci.yml, its first
    packaging/smoke_test.py step, the bundle in place of ${{ matrix.bundle }}): --version,
    presets, every module importable, check/simulate/report on every example, the GUI starts
    (offscreen) and quits after its first window."""
    args = next(args for script, args in script_calls("ci.yml") if script == "packaging/smoke_test.py")
    args = [str(bundle) if a == "${{}}" else a for a in args]
    assert str(bundle) in args, args
    proc = subprocess.run([sys.executable, str(PACKAGING / "smoke_test.py"), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=1800)
    print(proc.stdout)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def test_frozen_app_runs_the_compiled_engine_when_one_was_built(bundle):
    """packaging/build.py builds the native engine and bundles it when it can; the frozen app
    loads it from sys._MEIPASS/native (app/engine/native.py)."""
    env = {k: v for k, v in os.environ.items() if k != "ARRAYPLANNER_ENGINE"}  # (the session's own choice)
    proc = subprocess.run([str(_cli(bundle)), "--version"], capture_output=True, text=True, timeout=120, env=env)
    engine = proc.stdout.splitlines()[1]
    if spec_common.native_problem() is None:
        assert engine == "engine: mypyc" and "Warning" not in proc.stderr, proc.stdout + proc.stderr
    else:
        assert engine.startswith("engine: python ("), proc.stdout + proc.stderr
