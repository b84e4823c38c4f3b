"""What the engine worker process costs and saves (app/service/engine_worker/main.py, app/ui/engine_process.py).

    python benchmarks/engine_worker.py [--edits 20] [--project large|example]

Headless (offscreen QApplication, no window): a Document and a LiveSimulator, as the timeline
plug-in has them, on the large generated plan (benchmarks/engine.py large_project: 960 drives,
1,000 LUNs, 297 events) or the largest example. Prints medians of:
- start: the time start() takes on the GUI thread, start() to "ready", the worker's resident
  memory (VmRSS) once ready and its peak (VmHWM) after the edits, for both workers (live, advisor);
- per edit, by kind (an operation's priority or start, a workload, a LUN, a drive, a new
  project): the bytes sent to the replica and the GUI-thread time to pickle them;
- per reply: its size, pickling in the worker, unpickling in the reader thread (the two overlap:
  app/service/engine_worker/wire.py), the transfer from the job's end in the worker to the payload in the
  reader thread, and edit -> LiveSimulator.resultReady;
- the longest gap of a 5 ms heartbeat on the GUI thread (what it could not run for) while the
  predictions run: in the worker process, and for comparison in a thread of this process.
Linux (reads /proc for the memory figures). Record the figures in docs/performance.md, "Live
predictions".
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def memory_mb(pid: int) -> dict[str, float]:
    out = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024.0
    return out


def load(which: str):
    from app.store.presets import default_catalog

    catalog = default_catalog()
    if which == "large":
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from engine import large_project

        return large_project(), catalog, "large generated plan (benchmarks/engine.py large_project)"
    from app.store.examples import example_paths
    from app.store.project_file import load_project

    best = max(example_paths(), key=lambda p: len(load_project(p).drives))
    return load_project(best), catalog, f"largest example ({best.name})"


class Heartbeat:
    """A 5 ms QTimer on the GUI thread; the longest gap beyond the interval."""

    def __init__(self):
        from PySide6.QtCore import QTimer

        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.last = None
        self.gaps: list[float] = []

    def _tick(self):
        now = time.perf_counter()
        if self.last is not None:
            self.gaps.append((now - self.last - 0.005) * 1000.0)
        self.last = now

    def start(self):
        self.last = None
        self.gaps = []
        self.timer.start()

    def stop(self):
        self.timer.stop()


def edits(project, rounds: int):
    """(kind, op) pairs: every kind of Change the replica has to follow, `rounds` times over
    (each round puts back what the previous one changed)."""
    from app.domain import edits

    events = [e for e in project.scenario().events if hasattr(e, "priority")][:6]
    w = project.workloads[0] if project.workloads else None
    lun = project.luns[-1] if project.luns else None
    spare = next((d for d in project.drives.values() if d.hot_spare), None)
    out = []
    for r in range(rounds):
        for i, ev in enumerate(events):  # half an hour later, then back
            out.append(("operation start", edits.MoveEvent(ev.id, ev.start_h + 0.5 if r % 2 == 0 else ev.start_h)))
            if w is not None:
                out.append(("workload", edits.EditWorkload(w.id, iops=w.iops * (1.0 + 0.01 * (i + 1)))))
            if lun is not None:
                out.append(("LUN", edits.SetLunFields(lun.id, name=f"bench {r} {i}")))
            if spare is not None:
                out.append(("drive", edits.SetHotSpare(spare.location, i % 2 == 1)))
    return out


def run(doc, live, pairs, beat, app) -> dict:
    from app.ui.engine_process import wait_until

    last = {"n": 0, "result": None}  # the newest only: keeping them all would grow the heap

    def arrived(res):
        last["n"] += 1
        last["result"] = res

    live.resultReady.connect(arrived)
    live.failed.connect(arrived)
    rows = []
    beat.start()
    for kind, op in pairs:
        n = last["n"]
        t0 = time.perf_counter()
        doc.apply(op)
        applied = time.perf_counter()
        sent = live.process.last_request_bytes if live.uses_process else None
        if not wait_until(lambda: last["n"] > n, 120000):
            raise SystemExit("no result within 120 s")
        res = last["result"]
        if isinstance(res, str):
            raise SystemExit(f"the prediction failed after '{kind}': {res}")
        rows.append({"kind": kind, "apply_ms": (applied - t0) * 1000,
                     "total_ms": (time.perf_counter() - t0) * 1000,
                     "engine_ms": res.engine_s * 1000, "sent": sent,
                     "reply": dict(live.process.last_reply) if live.uses_process else None})
        end = time.perf_counter() + 0.05  # a person's pause between edits
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)
    beat.stop()
    live.resultReady.disconnect(arrived)
    live.failed.disconnect(arrived)
    return {"rows": rows, "max_gap": max(beat.gaps, default=0.0), "p99_gap": pct(beat.gaps, 0.99)}


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))] if v else float("nan")


def med(rows, fn):
    vals = [fn(r) for r in rows]
    vals = [x for x in vals if x is not None]
    return statistics.median(vals) if vals else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", choices=("large", "example"), default="large")
    ap.add_argument("--rounds", type=int, default=2, help="passes over the edits (each ~20 edits)")
    args = ap.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from app.service.engine_worker.replica import snapshot_project
    from app.ui.document import Document
    from app.ui.engine_process import engine_process, wait_until
    from app.ui.live import LiveSimulator

    project, catalog, label = load(args.project)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {label}: {len(project.drives)} drives, "
          f"{len(project.luns)} LUNs, {sum(len(s.events) for s in project.scenarios)} events")
    pristine = snapshot_project(project)
    doc = Document(project, catalog)
    pairs = edits(doc.project, args.rounds)
    beat = Heartbeat()

    # 1. in a thread of this process (the worker process not started yet)
    live = LiveSimulator(doc)
    live.auto_start_process = False
    wait_until(lambda: live.result is not None or live.error is not None, 120000)
    thread = run(doc, live, pairs, beat, app)

    # 2. in the worker process
    proc = engine_process("live")
    t0 = time.perf_counter()
    proc.start()
    start_call = time.perf_counter() - t0
    wait_until(lambda: proc.ready, 60000)
    mem_ready = memory_mb(proc.pid)
    live.request()  # the first request brings the whole project and the catalog: not an edit's
    first_bytes = proc.last_request_bytes
    wait_until(lambda: not live.busy, 120000)
    n = len(pairs)
    with_process = run(doc, live, pairs, beat, app)
    mem_after = memory_mb(proc.pid)
    # a new project: everything crosses
    got = []
    live.resultReady.connect(got.append)
    t0 = time.perf_counter()
    doc.replace_project(snapshot_project(pristine))
    full_bytes = proc.last_request_bytes
    pickle_full = time.perf_counter() - t0
    wait_until(lambda: bool(got), 120000)

    # the advisor's worker: its memory once ready, and after one evaluation (an engine run per priority)
    adv = engine_process("advisor")
    adv.start()
    wait_until(lambda: adv.ready, 60000)
    adv_mem = memory_mb(adv.pid)
    advised = []
    adv.replied.connect(lambda *reply: advised.append(reply))
    event = next(e for e in doc.project.scenario().events if hasattr(e, "priority"))
    t0 = time.perf_counter()
    adv.submit("advise", doc.project, doc.catalog, None, (event.id, None, None))
    wait_until(lambda: bool(advised), 300000)
    advise_s = time.perf_counter() - t0
    adv_after = memory_mb(adv.pid)

    print(f"\nworker start: start() {start_call * 1000:.1f} ms on the GUI thread, ready after "
          f"{proc.start_s:.2f} s; memory once ready {mem_ready['VmRSS']:.0f} MB, after {n} edits "
          f"{mem_after['VmRSS']:.0f} MB (peak {mem_after['VmHWM']:.0f} MB)")
    print(f"advisor's worker: {adv_mem['VmRSS']:.0f} MB once ready; one evaluation ({len(advised[0][2].outcomes)} "
          f"priorities) {advise_s:.2f} s, then {adv_after['VmRSS']:.0f} MB (peak {adv_after['VmHWM']:.0f} MB)")
    print(f"the worker's first request (the project and the catalog): {first_bytes / 1024:.0f} KB")
    print(f"a new project (Document.replace_project): {full_bytes / 1024:.0f} KB sent, "
          f"{pickle_full * 1000:.1f} ms on the GUI thread for the change (all handlers)")
    rows = with_process["rows"]
    print("per edit, bytes sent to the replica (median by kind):")
    for kind in dict.fromkeys(r["kind"] for r in rows):
        mine = [r for r in rows if r["kind"] == kind]
        print(f"  {kind:16s} {med(mine, lambda r: r['sent']) / 1024:7.1f} KB, "
              f"Document.apply + handlers {med(mine, lambda r: r['apply_ms']):.1f} ms")
    transfer = [r["reply"]["transfer_s"] * 1000 for r in rows]
    print(f"per reply (median of {len(rows)}): {med(rows, lambda r: r['reply']['bytes']) / 1e6:.1f} MB in "
          f"{med(rows, lambda r: r['reply']['pieces']):.0f} pieces, "
          f"{med(rows, lambda r: r['reply']['pickled_bytes']) / 1024:.0f} KB of it pickled, the rest arrays; "
          f"pickling in the worker {med(rows, lambda r: r['reply']['dumps_s'] * 1000):.1f} ms, "
          f"unpickling in the reader thread {med(rows, lambda r: r['reply']['loads_s'] * 1000):.1f} ms; "
          f"job end in the worker -> payload in the reader thread: median "
          f"{statistics.median(transfer):.1f} ms, p95 {pct(transfer, 0.95):.1f} ms")
    for name, res in (("thread of the GUI process", thread), ("worker process", with_process)):
        r = res["rows"]
        p95 = pct([x["total_ms"] for x in r], 0.95)
        print(f"{name:26s}: edit -> result median {med(r, lambda x: x['total_ms']):.0f} ms "
              f"(engine {med(r, lambda x: x['engine_ms']):.0f} ms), p95 {p95:.0f} ms; "
              f"longest GUI-thread gap {res['max_gap']:.1f} ms, p99 {res['p99_gap']:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
