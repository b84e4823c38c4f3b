"""Smoke-test a frozen bundle: the things a user does first, run on the built executables.

    python packaging/smoke_test.py dist/ArrayPlanner          # Linux, Windows
    python packaging/smoke_test.py dist/ArrayPlanner.app      # macOS

Checks, each printed as PASS/FAIL:
  1. `arrayplanner --version` prints "ArrayPlanner <version from pyproject.toml>", then the
     engine the bundle runs ("engine: mypyc" or "engine: python (<why>)"); with --engine mypyc,
     the compiled engine must be the one that runs (build.py asks for it when it bundled one)
  2. the built-in presets are inside the bundle, with the measured-data samples
  3. `arrayplanner check EXAMPLE` succeeds on each example project (presets/examples/)
  4. `arrayplanner simulate EXAMPLE` succeeds
  5. `arrayplanner report EXAMPLE -o OUT.pdf` headless (QT_QPA_PLATFORM=offscreen) writes a PDF:
     it starts with %PDF, and pdftotext (when installed) finds the project's name in it
  6. every module of the app package imports inside the bundle (ARRAYPLANNER_IMPORT_CHECK=1)
  7. with --gui: the GUI executable shows its first window, with no traceback, and quits
     (ARRAYPLANNER_EXIT_AFTER_SHOWN=1; offscreen unless QT_QPA_PLATFORM is set)

A command missing from the bundle's `--help` fails its check unless named in --skip-missing.
Standard library only: CI runs it with any Python. Exit status 0 when every check passed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import spec_common as common  # noqa: E402

ROOT = common.ROOT
EXAMPLE_SUFFIXES = (".arrayplan", ".json")


def executables(bundle: Path) -> tuple[Path, Path, Path]:
    """(cli, gui, folder holding the bundled data) for a bundle folder or .app."""
    if bundle.suffix == ".app":
        macos = bundle / "Contents" / "MacOS"
        return (macos / common.cli_executable("darwin"), macos / common.gui_executable("darwin"),
                bundle / "Contents" / "Resources")
    plat = "win32" if sys.platform.startswith("win") else "linux"
    return (bundle / common.cli_executable(plat), bundle / common.gui_executable(plat),
            bundle / "_internal")


class Smoke:
    def __init__(self, cli: Path, timeout: float):
        self.cli = cli
        self.timeout = timeout
        self.failures = 0
        self.env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        # never let a developer's own presets change what the bundle is tested with
        self.env["ARRAYPLANNER_PRESETS"] = tempfile.mkdtemp(prefix="ap-no-user-presets-")

    def run(self, *args: str, exe: Path | None = None, env: dict | None = None):
        cmd = [str(exe or self.cli), *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout,
                              env=env or self.env, encoding="utf-8", errors="replace")

    def result(self, ok: bool, what: str, detail: str = "") -> bool:
        print(f"{'PASS' if ok else 'FAIL'}  {what}" + (f"\n      {detail.strip()[:2000]}" if detail and not ok else ""))
        if not ok:
            self.failures += 1
        return ok

    def commands(self) -> set[str]:
        """Subcommands listed by `--help` (`arrayplanner NAME --help` is no test: an unknown
        first word is taken as a file name for the GUI)."""
        text = self.run("--help").stdout
        listing = text.split("positional arguments:", 1)[-1].split("options:", 1)[0]
        return set(re.findall(r"^ {4}([a-z][\w-]*)", listing, re.M))


def project_name(smoke: Smoke, example: Path) -> str | None:
    """The project's name, read through the frozen app's own `export-json`."""
    proc = smoke.run("export-json", str(example))
    if proc.returncode != 0:
        return None
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    for node in (doc.get("info"), doc, doc.get("project")):  # info.title in format version 1
        if isinstance(node, dict):
            for key in ("title", "name"):
                if isinstance(node.get(key), str) and node[key].strip():
                    return node[key]
    return None


def check_pdf(smoke: Smoke, pdf: Path, name: str | None, what: str) -> None:
    if not smoke.result(pdf.is_file() and pdf.stat().st_size > 1000, f"{what}: PDF written",
                        f"{pdf} missing or tiny"):
        return
    smoke.result(pdf.read_bytes()[:5] == b"%PDF-", f"{what}: file starts with %PDF-")
    pdftotext = shutil.which("pdftotext")
    if not pdftotext:
        print(f"note  {what}: pdftotext not installed; text of the PDF not checked")
        return
    text = subprocess.run([pdftotext, "-layout", str(pdf), "-"], capture_output=True, text=True,
                          encoding="utf-8", errors="replace").stdout
    if name:
        smoke.result(" ".join(name.split()) in " ".join(text.split()),
                     f"{what}: PDF text contains the project name {name!r}", text[:500])
    else:
        smoke.result(len(text.strip()) > 100, f"{what}: PDF has text", text[:500])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Smoke-test a frozen ArrayPlanner bundle.")
    ap.add_argument("bundle", type=Path, help="dist/ArrayPlanner (or dist/ArrayPlanner.app on macOS)")
    ap.add_argument("--examples", type=Path, default=ROOT / "presets" / "examples")
    ap.add_argument("--out", type=Path, help="folder for the reports (default: a temporary folder)")
    ap.add_argument("--gui", action="store_true", help="also start the GUI once (first window, then quit)")
    ap.add_argument("--skip-missing", default="", help="commands allowed to be absent, comma-separated")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--engine", choices=("mypyc", "python"),
                    help="the engine --version must report (default: either)")
    args = ap.parse_args(argv)

    cli, gui, data_dir = executables(args.bundle)
    if not cli.is_file():
        print(f"FAIL  no command line executable at {cli}")
        return 1
    smoke = Smoke(cli, args.timeout)
    skip = {s.strip() for s in args.skip_missing.split(",") if s.strip()}
    version = common.read_version()

    proc = smoke.run("--version")
    lines = proc.stdout.splitlines()
    smoke.result(proc.returncode == 0 and lines[:1] == [f"{common.APP_NAME} {version}"],
                 f"--version prints '{common.APP_NAME} {version}'", proc.stdout + proc.stderr)
    engine = lines[1] if len(lines) > 1 else ""
    smoke.result(engine.startswith(f"engine: {args.engine or ''}") and "Warning" not in proc.stderr,
                 f"--version names the engine{' ' + args.engine if args.engine else ''}: {engine!r}",
                 proc.stdout + proc.stderr)
    presets = data_dir / "presets"
    smoke.result((presets / "drives.toml").is_file() and any((presets / "platforms").glob("*.toml")),
                 f"built-in presets are in the bundle ({presets})")
    samples = sorted(p.name for p in (ROOT / "presets" / "samples" / "measured").glob("*"))
    smoke.result(bool(samples) and all((presets / "samples" / "measured" / n).is_file() for n in samples),
                 "the measured-data samples are in the bundle (presets/samples/measured)")

    proc = smoke.run(env=dict(smoke.env, ARRAYPLANNER_IMPORT_CHECK="1"))
    smoke.result(proc.returncode == 0 and "imported" in proc.stdout,
                 "every app module imports in the bundle: " + proc.stdout.strip(), proc.stderr)

    examples = sorted(p for p in args.examples.glob("*") if p.suffix in EXAMPLE_SUFFIXES)
    smoke.result(bool(examples), f"example projects found in {args.examples}")
    out_dir = args.out or Path(tempfile.mkdtemp(prefix="ap-smoke-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    available = smoke.commands()
    commands = {c: c in available for c in ("check", "simulate", "report")}
    for cmd, present in commands.items():
        if not present:
            if cmd in skip:
                print(f"skip  `{cmd}` is not in this build (allowed by --skip-missing)")
            else:
                smoke.result(False, f"`{cmd}` command is in the bundle")
    for ex in examples:
        if commands["check"]:
            proc = smoke.run("check", str(ex))
            smoke.result(proc.returncode == 0, f"check {ex.name}", proc.stdout + proc.stderr)
        if commands["simulate"]:
            proc = smoke.run("simulate", str(ex))
            smoke.result(proc.returncode == 0 and proc.stdout.strip() != "", f"simulate {ex.name}",
                         proc.stdout + proc.stderr)
        if commands["report"]:
            pdf = out_dir / (ex.stem + ".pdf")
            proc = smoke.run("report", str(ex), "-o", str(pdf))
            if smoke.result(proc.returncode == 0, f"report {ex.name} -o {pdf.name} (headless)",
                            proc.stdout + proc.stderr):
                check_pdf(smoke, pdf, project_name(smoke, ex), f"report {ex.name}")

    if args.gui:
        env = dict(smoke.env, ARRAYPLANNER_EXIT_AFTER_SHOWN="1")
        target = gui if gui.is_file() else cli
        args_gui = [str(examples[0])] if examples else []
        try:
            proc = smoke.run(*args_gui, exe=target, env=env)
            # (a windowed Windows executable has no stdout to print the marker to)
            shown = "ARRAYPLANNER_SHOWN" in proc.stdout or target.suffix == ".exe"
            smoke.result(proc.returncode == 0 and shown and "Traceback" not in proc.stderr,
                         f"GUI ({target.name}) shows its first window without errors and quits",
                         proc.stdout + proc.stderr)
        except subprocess.TimeoutExpired:
            smoke.result(False, f"GUI ({target.name}) quits after its first window",
                         f"still running after {args.timeout:.0f} s (is ARRAYPLANNER_EXIT_AFTER_SHOWN handled?)")

    print(f"smoke test: {'all passed' if not smoke.failures else f'{smoke.failures} FAILED'}")
    return 1 if smoke.failures else 0


if __name__ == "__main__":
    sys.exit(main())
