"""GUI responsiveness while the uncertainty bands sample (a script, not a timed test): medians.

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_bands.py [--large] [--samples N] [--repeat N]

Opens the main window on the emc-cx4-960-oltp example (--large: benchmarks/engine.py's
960-drive plan), waits for the point estimate, then asks for a new prediction N times; each time
the bands sample in the background (app/ui/bands.py: a thread that waits on the runner's process
pool). A 5 ms heartbeat QTimer on the GUI thread records the gaps between its ticks while the
sampling runs: the longest gap is the longest the window could not answer input. Prints, per
repeat, the sampling's wall time and the heartbeat's p50 / p99 / max gap, then the medians.
--off: the same with View > Uncertainty Bands off, the heartbeat measured over the 3 s after the
prediction arrives (what the window does without the sampling: its redraw, the idle loop).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--large", action="store_true")
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--off", action="store_true", help="bands off: the heartbeat without the sampling")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-bands-")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
    os.environ["XDG_DATA_HOME"] = os.path.join(tmp, "data")
    os.environ["ARRAYPLANNER_BANDS"] = "on"

    from PySide6.QtCore import QSettings, QTimer

    from app.store.examples import example_path
    from app.store.presets import default_catalog
    from app.store.project_file import load_project
    from app.ui.document import Document
    from app.ui.launch import make_app
    from app.ui.main_window import MainWindow

    app = make_app()
    QSettings().clear()
    catalog = default_catalog()
    if args.large:
        from engine import large_project

        project = large_project(30.0)
    else:
        project = load_project(example_path("emc-cx4-960-oltp"))
    window = MainWindow(Document(project, catalog))
    window.files.maybe_save = lambda: True
    parts, bands = window.plugins["app.ui.timeline"], window.plugins["app.ui.bands"]
    bands.sampler.samples = args.samples
    window.resize(1600, 1000)
    window.show()

    def spin_until(cond, timeout_s: float) -> bool:
        end = time.perf_counter() + timeout_s
        while not cond() and time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)
        return cond()

    ticks: list[float] = []
    beat = QTimer()
    beat.setInterval(5)
    beat.timeout.connect(lambda: ticks.append(time.perf_counter()))
    rows = []
    for k in range(args.repeat + 1):  # the first: the pool's start-up, left out
        done = []
        bands.sampler.bandsReady.connect(lambda b, _of, done=done: b is not None and done.append(time.perf_counter()))
        if args.off:
            bands.sampler.set_enabled(False)
            generation = parts.live.generation + 1
            parts.live.request()
            spin_until(lambda: parts.live.live is not None and parts.live.live.generation >= generation, 120)
            ticks.clear()
            beat.start()
            spin_until(lambda: False, 3.0)
            beat.stop()
            gaps = sorted((b - a) * 1000.0 for a, b in zip(ticks, ticks[1:]))
            row = (0.0, gaps[len(gaps) // 2], gaps[int(len(gaps) * 0.99)], gaps[-1])
            if k:
                rows.append(row)
            print(f"{'warm-up' if not k else f'run {k}'} (bands off): heartbeat gap p50 {row[1]:.1f} ms, "
                  f"p99 {row[2]:.1f} ms, max {row[3]:.1f} ms")
            continue
        parts.live.request()
        if not spin_until(lambda: bands.sampler.busy, 120):
            print("no sampling started", file=sys.stderr)
            return 1
        t0 = time.perf_counter()
        ticks.clear()
        beat.start()
        ok = spin_until(lambda: bool(done), 900)
        beat.stop()
        if not ok:
            print("the bands did not arrive", file=sys.stderr)
            return 1
        gaps = sorted((b - a) * 1000.0 for a, b in zip(ticks, ticks[1:]))
        row = (done[0] - t0, gaps[len(gaps) // 2], gaps[int(len(gaps) * 0.99)], gaps[-1])
        if k:
            rows.append(row)
        print(f"{'warm-up' if not k else f'run {k}'}: sampling {row[0]:.2f} s ({bands.sampler.bands.runs} runs), "
              f"heartbeat gap p50 {row[1]:.1f} ms, p99 {row[2]:.1f} ms, max {row[3]:.1f} ms")
    med = [statistics.median(r[i] for r in rows) for i in range(4)]
    print(f"median of {len(rows)}: sampling {med[0]:.2f} s, gap p50 {med[1]:.1f} ms, p99 {med[2]:.1f} ms, "
          f"max {med[3]:.1f} ms")
    window.document.mark_saved()
    window.files.discard_recovery()
    return 0


if __name__ == "__main__":
    sys.exit(main())
