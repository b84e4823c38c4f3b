"""Start-up time of the frozen GUI: process start to first window shown, median of N launches.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python benchmarks/startup.py      # X11 (xcb)
    .venv/bin/python benchmarks/startup.py --platform offscreen                        # no display
    .venv/bin/python benchmarks/startup.py --source       # the same from the source tree, to compare

Each launch runs the GUI executable (default dist/ArrayPlanner/ArrayPlanner, as a user would:
no arguments, so the built-in example opens) with ARRAYPLANNER_EXIT_AFTER_SHOWN=1; the app prints
`ARRAYPLANNER_SHOWN <epoch seconds> [<seconds since process start>]` once its first window has
been shown and painted, and closes it a second later (app/ui/launch.py). The time counted here is from just before
the process is created to that printed time stamp, so it includes the bootloader, unpacking
nothing (one-folder bundle), Python start, imports, loading the project and the first simulation.
One untimed warm-up launch first (file cache); target: median <= 1.5 s (docs/performance.md).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def launch_once(cmd: list[str], env: dict, timeout: float) -> tuple[float, float | None]:
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise SystemExit(f"{cmd[0]} did not quit within {timeout:.0f} s "
                         "(does app/ui/launch.py handle ARRAYPLANNER_EXIT_AFTER_SHOWN?)")
    for line in out.splitlines():
        if line.startswith("ARRAYPLANNER_SHOWN"):
            parts = line.split()
            shown = float(parts[1]) - t0
            in_app = float(parts[2]) if len(parts) > 2 else None
            return shown, in_app
    raise SystemExit(f"no ARRAYPLANNER_SHOWN line from {' '.join(cmd)} (exit {proc.returncode}):\n"
                     f"{out[-1000:]}\n{err[-2000:]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--runs", type=int, default=10)
    ap.add_argument("--bundle", type=Path, default=ROOT / "dist" / "ArrayPlanner",
                    help="the one-folder bundle (default dist/ArrayPlanner)")
    ap.add_argument("--source", action="store_true", help="time `python -m app` instead of the bundle")
    ap.add_argument("--platform", default=None,
                    help="QT_QPA_PLATFORM (default: xcb when DISPLAY is set, else offscreen)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("file", nargs="?", help="project to open (default: none, the built-in example)")
    args = ap.parse_args(argv)

    platform = args.platform or ("xcb" if os.environ.get("DISPLAY") else "offscreen")
    if platform == "xcb" and not os.environ.get("DISPLAY"):
        raise SystemExit("no DISPLAY: run under xvfb-run, or use --platform offscreen")
    if args.source:
        cmd = [sys.executable, "-m", "app"]
        what = f"source tree ({sys.executable} -m app)"
    else:
        exe = args.bundle / ("ArrayPlanner.exe" if sys.platform.startswith("win") else "ArrayPlanner")
        if args.bundle.suffix == ".app":
            exe = args.bundle / "Contents" / "MacOS" / "ArrayPlanner"
        if not exe.is_file():
            raise SystemExit(f"{exe} not found: build the bundle first (./packaging/build.sh)")
        cmd = [str(exe)]
        what = f"frozen bundle ({exe})"
    if args.file:
        cmd.append(args.file)
    env = dict(os.environ, QT_QPA_PLATFORM=platform, ARRAYPLANNER_EXIT_AFTER_SHOWN="1",
               ARRAYPLANNER_PRESETS=tempfile.mkdtemp(prefix="ap-bench-presets-"),
               XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="ap-bench-config-"),
               XDG_DATA_HOME=tempfile.mkdtemp(prefix="ap-bench-data-"))
    if args.source:
        env.setdefault("PYTHONPATH", str(ROOT))

    print(f"start-up of the {what}, QT_QPA_PLATFORM={platform}, {args.runs} runs after 1 warm-up")
    launch_once(cmd, env, args.timeout)
    shown, in_app = [], []
    for i in range(args.runs):
        s, a = launch_once(cmd, env, args.timeout)
        shown.append(s)
        if a is not None:
            in_app.append(a)
        print(f"  run {i + 1:2d}: {s:.3f} s" + (f"  (in-app, since process start: {a:.2f} s)" if a is not None else ""))
    print(f"start to first window: median {statistics.median(shown):.3f} s "
          f"(min {min(shown):.3f}, max {max(shown):.3f}, n={len(shown)})")
    if in_app:
        print(f"in-app measure (/proc start time, 10 ms ticks): median {statistics.median(in_app):.2f} s")
    if not args.source and args.bundle.is_dir():
        size = sum(p.stat().st_size for p in args.bundle.rglob("*") if p.is_file() and not p.is_symlink())
        print(f"bundle size: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
