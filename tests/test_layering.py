"""app/domain, app/engine, app/store and app/service (what the engine worker process imports) never
import Qt (or pyqtgraph): checked at run time in a fresh interpreter and statically in the source."""
from __future__ import annotations

import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QT_FREE = ("app.domain", "app.engine", "app.store", "app.service")
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "PySide2", "shiboken6", "shiboken2", "pyqtgraph")


def qt_free_modules() -> list[str]:
    names = []
    for pkg in QT_FREE:
        path = ROOT / pkg.replace(".", "/")
        names.append(pkg)
        # subpackages too (app.service.engine_worker): walk_packages needs the prefix to import them
        names += [m.name for m in pkgutil.walk_packages([str(path)], f"{pkg}.")
                  if not m.name.rsplit(".", 1)[-1].startswith("_")]
    return sorted(set(names))


def test_there_is_something_to_check():
    mods = qt_free_modules()
    for expected in ("app.domain.validation", "app.domain.raid", "app.store.project_file", "app.store.presets",
                     "app.engine.result", "app.service.engine_worker.main"):
        assert expected in mods


def test_importing_the_model_layers_loads_no_qt():
    mods = qt_free_modules()
    code = (
        "import importlib, json, sys\n"
        f"for m in {mods!r}:\n"
        "    importlib.import_module(m)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r})\n"
        "print(json.dumps(bad))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]", f"Qt modules loaded by the model layers: {r.stdout}"


IMPORT_RE = re.compile(r"^\s*(?:from|import)\s+(" + "|".join(FORBIDDEN) + r")\b", re.M)
DYNAMIC_RE = re.compile(r"import_module\(\s*['\"](" + "|".join(FORBIDDEN) + r")")


def test_no_qt_import_in_the_source():
    offenders = []
    for pkg in QT_FREE:
        for path in sorted((ROOT / pkg.replace(".", "/")).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for rx in (IMPORT_RE, DYNAMIC_RE):
                for m in rx.finditer(text):
                    line = text.count("\n", 0, m.start()) + 1
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0).strip()}")
    assert offenders == []


def test_the_static_check_would_catch_an_import():
    assert IMPORT_RE.search("import numpy\nfrom PySide6.QtCore import QObject\n")
    assert IMPORT_RE.search("    import pyqtgraph as pg")
    assert not IMPORT_RE.search("# PySide6 is not used here\nimport numpy")
