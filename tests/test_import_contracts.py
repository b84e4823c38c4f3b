"""The layer contracts of pyproject.toml ([tool.importlinter]) hold, checked by import-linter's
`lint-imports` on the source (static: every import, also the ones inside functions), and each
contract fails on a planted import that breaks it (a copy of app/ with one line added).

tests/test_layering.py checks the run-time side: importing the Qt-free layers loads no Qt."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the `app` package and pyproject.toml found in `root`."""
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "lint-imports is not installed (the test extra of pyproject.toml has import-linter)"
    # the package is found through sys.path: root first, and nothing else that holds an `app`
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONUTF8="1")
    return subprocess.run([exe, "--no-cache", "--config", str(root / "pyproject.toml")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_source_keeps_every_contract():
    r = lint_imports(ROOT)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout, r.stdout


@pytest.fixture(scope="module")
def copy_of_the_source(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("layers")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    shutil.copytree(ROOT / "app", root / "app", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    return root


# (module file, the line planted in it, the contract it breaks)
PLANTED = [
    ("app/domain/edits/base.py", "import app.engine.simulate", "Layers"),                # domain above engine
    ("app/engine/rates.py", "from app.store import disk", "Layers"),              # engine | store are siblings
    ("app/store/disk.py", "from app.service import wire", "Layers"),              # store above service
    ("app/service/predict.py", "from app.report import content", "Layers"),       # service | report siblings
    ("app/report/content.py", "import app.ui.palette", "Layers"),                 # report above ui
    ("app/ui/icons.py", "from app.cli import common", "Layers"),                  # ui above cli
    ("app/engine/policy.py", "from PySide6 import QtCore", "never load it"),      # Qt in the engine
    ("app/service/engine_worker/heap.py", "import pyqtgraph", "never load it"),
    ("app/cli/common.py", "from PySide6.QtCore import QObject", "the CLI reaches Qt only through them"),
    ("app/cli/common.py", "from app.cli import main", "app.cli's modules do not import app.cli"),
    ("app/ui/icons.py", "import app.ui", "app.ui's modules do not import app.ui"),
    ("app/engine/policy.py", "from app.engine import ENGINE_BUILD", "app.engine's modules do not import app.engine"),
    ("app/store/upgrades/to_v3.py", "from app.store.project_file import _write_rows", "Frozen schema upgrades"),
]


@pytest.mark.parametrize("module, line, contract", PLANTED, ids=[f"{m}:{line}" for m, line, _ in PLANTED])
def test_a_planted_import_breaks_its_contract(copy_of_the_source, module, line, contract):
    path = copy_of_the_source / module
    original = path.read_text(encoding="utf-8")
    # inside a function: the import-linter sees it even where no test would ever run it
    path.write_text(original + f"\n\ndef _planted():\n    {line}  # noqa\n", encoding="utf-8")
    try:
        r = lint_imports(copy_of_the_source)
    finally:
        path.write_text(original, encoding="utf-8")
    assert r.returncode == 1, r.stdout[-3000:] + r.stderr[-2000:]
    broken = [ln for ln in r.stdout.splitlines() if ln.endswith(" BROKEN")]
    assert len(broken) == 1 and contract in broken[0], broken
