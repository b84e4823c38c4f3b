"""Collect the GUI's translatable strings (tr(...), QT_TR_NOOP(...)) into
resources/i18n/arrayplanner_en.ts with pyside6-lupdate; `--release` compiles every
arrayplanner_<lang>.ts there to the .qm the app loads (pyside6-lrelease).

    python scripts/update_translations.py            # after changing strings in app/ui
    python scripts/update_translations.py --release  # after translating a .ts

No line numbers are written (-locations none): the file changes only when a string does.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "app" / "ui"
TS = ROOT / "resources" / "i18n" / "arrayplanner_en.ts"


def tool(name: str) -> str:
    """pyside6-lupdate / -lrelease beside this Python (the venv's), else on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found (it comes with PySide6)")
    return found


def sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in SOURCES.rglob("*.py"))


def update(ts: Path = TS) -> None:
    ts.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([tool("pyside6-lupdate"), *sources(), "-locations", "none", "-no-obsolete",
                    "-source-language", "en", "-target-language", "en", "-ts", str(ts)],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def release() -> None:
    for ts in sorted(TS.parent.glob("arrayplanner_*.ts")):
        if ts != TS:  # English is the source: no .qm needed
            subprocess.run([tool("pyside6-lrelease"), str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--release", action="store_true", help="compile the translated .ts files to .qm")
    args = ap.parse_args(argv)
    release() if args.release else update()
    return 0


if __name__ == "__main__":
    sys.exit(main())
