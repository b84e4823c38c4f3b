"""Edit-to-curves-updated latency of the live predictions, and the longest GUI-thread stall.

    python benchmarks/gui_latency.py [--edits 40] [--only example|large] [--offscreen] [--trace] [--baseline]

For the largest built-in example and for a generated large configuration (CX4-960: 960 drives,
192 RAID 5 groups, 1,000 LUNs, 24 workloads, 200 operations; from benchmarks/engine.py when the
engine's benchmark offers a generator, otherwise the one below), the script opens the real main
window (all plug-ins, the canvas included), waits for the first prediction, then applies edits
through the Document as the timeline does (move an operation by half an hour, change its
priority; alternately) and measures, per edit, the time from `Document.apply` to the moment the
charts and the timeline have been redrawn from the new Result and painted (the event loop runs
until the plug-in's redraw steps are done, then Qt paints what they invalidated). GUI thread per
edit: `Document.apply` with every change handler (and when the engine request left); the redraw
steps (`parts.step_ms`); the repaint (the event loop's own work after the first step, the later
steps left out). A QTimer heartbeat every 5 ms on the GUI thread records the longest gap between
two ticks minus the interval: the longest time the GUI thread was blocked. A burst of edits 15 ms
apart (dragging) measures the time from the last edit to its curves. Undo and redo of the last
five edits measure the way back to states the engine worker has simulated before (it keeps its
last runs: app/service/engine_worker/result_cache.py).

Where a stall comes from: a watchdog thread samples the GUI thread's Python stack
(sys._current_frames()) every 2 ms while a heartbeat gap is open (no tick for 8 ms), and for
every stall over 30 ms the report lists the stacks it caught, innermost project frames first,
with how many samples each (a C++ paint or layout shows as the Python frame that entered it:
`repaint`/`loop.exec` in this script means Qt's own event processing), and the other threads
that used the CPU meanwhile with the frame each was seen in (a stall with the GUI thread off the
CPU is usually another thread holding the GIL). `--no-sampler` leaves it out (it takes the GIL
for a few microseconds per sample).

`--trace` follows each edit through both processes on one clock (time.perf_counter is the same
clock in the GUI and the worker process on Linux): the request pickled and written to the pipe,
read by the worker, the replica updated, validation, the engine, the reply pickled, read and
unpickled by the reader thread, delivered on the GUI thread, each redraw step, the paint; and
prints the median and p95 of each interval (the timestamps ride in the messages a run sends
anyway).

Before and after a configuration's edits, the engine alone runs its plan three times in this
process (`engine_reference`, CPU ms): the machine's speed in those minutes, so that a run in one
of the VM's slow spells (all work ~1.5x slower) is told apart from slower code.

Prints median and p95 per configuration. Targets: p95 latency <= 100 ms, longest stall <= 50 ms.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


# ---------------------------------------------------------------- the large configuration

def generate_large(catalog, seed: int = 7):
    """960 drives / 1,000 LUNs / 200 operations on a CX4-960 (a valid project)."""
    from app.domain.project import (
        Bind, Drive, DriveFailure, DriveReplacement, Enclosure, Lun, LunMigration, Project,
        ProjectInfo, RaidGroup, Scenario, Workload,
    )
    from app.domain.raid import RaidType

    rnd = random.Random(seed)
    pid = "emc-cx4-960-r28"
    plat = catalog.platform(pid)
    enc_type = next(iter(plat.enclosure_types))
    drive_type = "fc-15k-300" if "fc-15k-300" in plat.drive_types else plat.drive_types[0]
    p = Project(pid, ProjectInfo(title="Generated: 960 drives, 1,000 LUNs, 200 operations"))
    p.cache = plat.default_cache()
    for b in range(plat.buses):
        for e in range(plat.max_enclosures_per_bus):
            p.enclosures.append(Enclosure(b, e, enc_type))
            for s in range(15):
                loc = f"{b}_{e}_{s}"
                p.drives[loc] = Drive(loc, drive_type)
    # 192 RAID 5 (4+1) groups, three per enclosure
    locs = [f"{b}_{e}_{s}" for b in range(plat.buses) for e in range(plat.max_enclosures_per_bus) for s in range(15)]
    r5 = next(rt for rt in RaidType if rt.name.upper() in ("R5", "RAID5"))
    for g in range(len(locs) // 5):
        p.groups.append(RaidGroup(g, r5, locs[5 * g: 5 * g + 5]))
    owners = plat.controller_names()
    lun_id = 0
    for g in range(len(p.groups)):
        for _ in range(6 if g < 1000 - 5 * len(p.groups) else 5):
            p.luns.append(Lun(lun_id, g, 40.0, owners[lun_id % len(owners)], settings=plat.default_lun_settings()))
            lun_id += 1
    # workloads on the first 720 LUNs
    for w in range(24):
        luns = list(range(30 * w, 30 * w + 30))
        p.workloads.append(Workload(f"w{w}", f"App {w}", luns, iops=900.0, read_pct=67, io_kb=8,
                                    response_target_ms=20.0))
    prios = list(plat.priorities("lun_migration"))
    events = []
    n = 0

    def nid():
        nonlocal n
        n += 1
        return f"op{n}"

    # 100 migrations: workload LUN -> unused LUN (720..999) in another group
    sources = rnd.sample(range(720), 100)
    dests = rnd.sample(range(720, 1000), 120)
    for src, dst in zip(sources, dests):
        events.append(LunMigration(nid(), round(rnd.uniform(0, 300), 2), source_lun=src, dest_lun=dst,
                                   priority=rnd.choice(prios)))
    # 40 drive failures, each replaced 4-24 h later (distinct groups)
    groups = rnd.sample(range(len(p.groups)), 40)
    for g in groups:
        drive = p.groups[g].drives[rnd.randrange(5)]
        t = round(rnd.uniform(0, 280), 2)
        events.append(DriveFailure(nid(), t, drive=drive, priority=rnd.choice(list(plat.priorities("drive_failure")))))
        events.append(DriveReplacement(nid(), round(t + rnd.uniform(4, 24), 2), drive=drive))
    # 20 binds of unused LUNs that are no migration destination
    spare = [l for l in range(720, 1000) if l not in set(dests)]
    for lun in rnd.sample(spare, 20):
        events.append(Bind(nid(), round(rnd.uniform(0, 300), 2), lun=lun,
                           priority=rnd.choice(list(plat.priorities("bind")))))
    p.scenarios = [Scenario("Generated", events)]
    p.current_scenario = "Generated"
    return p


def large_project(catalog):
    """The engine engineer's generator when benchmarks/engine.py has one, else ours."""
    try:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import engine as engine_bench  # noqa: WPS433 - benchmarks/engine.py

        from app.domain.validation import validate

        for name in ("large_project", "generate_large", "make_large_project", "generate_project", "generate"):
            fn = getattr(engine_bench, name, None)
            if callable(fn):
                proj = fn()
                errors = [i for i in validate(proj, catalog) if i.severity == "error"]
                if not errors:
                    return proj, f"benchmarks/engine.py:{name}"
                print(f"note: benchmarks/engine.py:{name}() gives a project with {len(errors)} validation "
                      f"error(s) (first: {errors[0].where}: {errors[0].text}); the GUI shows no prediction "
                      f"for it, so this benchmark uses its own generator")
                break
    except ImportError:
        pass
    finally:
        if sys.path and sys.path[0] == str(ROOT / "benchmarks"):
            sys.path.pop(0)
    return generate_large(catalog), "gui_latency.generate_large"


def largest_example():
    from app.store.examples import example_paths
    from app.store.project_file import load_project

    best = None
    for path in example_paths():
        proj = load_project(path)
        size = (len(proj.drives), len(proj.luns), sum(len(s.events) for s in proj.scenarios))
        if best is None or size > best[0]:
            best = (size, path, proj)
    return best[2], best[1].name


# ---------------------------------------------------------------- measuring

def engine_reference(project, catalog, runs: int = 3) -> float:
    """The machine's speed in these minutes: median CPU ms of the engine on `project` in this
    process (no GUI, no worker, no pipe; the engine does not change the project). This VM has
    slow spells in which all work takes ~1.5x as long; the reference, taken before and after a
    configuration's edits, tells a slow minute from slow code (docs/performance.md)."""
    from engine import median_ms  # benchmarks/engine.py, beside this script

    from app.engine.simulate import simulate

    return median_ms(lambda: simulate(project, catalog), runs)


def pct(values, q):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


class Heartbeat:
    """A QTimer tick on the GUI thread; a gap between ticks longer than the interval is time the
    GUI thread could not run a timer. With `sampler`, each gap over `report_ms` keeps the stacks
    the sampler caught during it."""

    def __init__(self, interval_ms: int = 5, sampler: "StackSampler | None" = None, report_ms: float = 30.0):
        from PySide6.QtCore import QTimer

        self.interval = interval_ms / 1000.0
        self.last = None
        self.last_cpu = 0.0
        self.max_gap = self.max_gap_cpu = self.max_busy = 0.0
        self.gaps: list[tuple[float, float, str]] = []
        self.stalls: list[tuple] = []  # gap, GUI CPU, phase, GUI stacks, other threads' activity
        self.phase = ""  # what the benchmark is doing (set by measure())
        self._phase_at_last = ""
        self.sampler = sampler
        self.report_s = report_ms / 1000.0
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def start(self):
        self.last, self.last_cpu = time.perf_counter(), time.thread_time()
        self.max_gap = self.max_gap_cpu = self.max_busy = 0.0
        if self.sampler is not None:
            self.sampler.start(self)
        self.timer.start()

    def stop(self):
        self.timer.stop()
        if self.sampler is not None:
            self.sampler.stop()

    def _tick(self):
        now = time.perf_counter()
        cpu = time.thread_time()
        stacks, others = self.sampler.take() if self.sampler is not None else (Counter(), ThreadActivity())
        if self.last is not None:
            gap = now - self.last - self.interval
            busy = cpu - self.last_cpu  # CPU time the GUI thread itself used in that gap
            self.gaps.append((gap, busy, self.phase))
            if gap > self.max_gap:
                self.max_gap, self.max_gap_cpu = gap, busy
            self.max_busy = max(self.max_busy, busy)
            if gap > self.report_s:
                phase = self.phase if self.phase == self._phase_at_last else f"{self._phase_at_last} -> {self.phase}"
                self.stalls.append((gap, busy, phase, stacks, others))
        self.last, self.last_cpu = now, cpu
        self._phase_at_last = self.phase


def _frame_text(code, lineno: int) -> str:
    path = code.co_filename
    for base in ("site-packages" + os.sep, str(ROOT) + os.sep):  # the venv is inside ROOT
        if base in path:
            path = path.split(base, 1)[1]
            break
    return f"{path}:{lineno} {code.co_name}"


class ThreadActivity:
    """What the other threads did during one stall: CPU time each used (since the sampler's last
    look before the gap opened) and the frame each was seen in most. A stall with the GUI thread
    off the CPU is another thread holding the GIL (or other processes on the cores): the busy
    thread here says which."""

    def __init__(self, before: dict[str, float] | None = None):
        self.first_cpu: dict[str, float] = dict(before or {})
        self.last_cpu: dict[str, float] = {}
        self.frames: dict[str, Counter] = {}

    def add(self, name: str, cpu: float, frame: str) -> None:
        self.first_cpu.setdefault(name, cpu)
        self.last_cpu[name] = cpu
        self.frames.setdefault(name, Counter())[frame] += 1

    def busiest(self, min_ms: float = 2.0) -> list[tuple[str, float, str]]:
        out = [(name, (self.last_cpu[name] - self.first_cpu[name]) * 1000, self.frames[name].most_common(1)[0][0])
               for name in self.last_cpu]
        return sorted((o for o in out if o[1] >= min_ms), key=lambda o: -o[1])


def _thread_cpu(ident: int) -> float:
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(ident))
    except (AttributeError, OSError):  # not on Linux, or the thread has ended
        return float("nan")


class StackSampler:
    """A watchdog thread: while the heartbeat is overdue it samples the GUI thread's Python stack
    every `every_ms`, and the other threads' innermost frame and CPU time; `take()` (called by the
    heartbeat's tick, on the GUI thread) hands over the stacks of the gap that just closed,
    counted, and the other threads' activity."""

    def __init__(self, every_ms: float = 2.0, open_after_ms: float = 8.0, depth: int = 40):
        self.gui_thread = threading.get_ident()
        self.every = every_ms / 1000.0
        self.open_after = open_after_ms / 1000.0
        self.depth = depth
        self._samples: list[tuple[str, ...]] = []
        self._others = ThreadActivity()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._beat: Heartbeat | None = None

    def start(self, beat: Heartbeat) -> None:
        self._beat = beat
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="stall-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def take(self) -> tuple[Counter, ThreadActivity]:
        with self._lock:
            samples, self._samples = self._samples, []
            others, self._others = self._others, ThreadActivity(self._others.last_cpu)
        return Counter(samples), others

    def _run(self) -> None:
        me = threading.get_ident()
        while not self._stop.wait(self.every):
            last = self._beat.last
            if last is None or time.perf_counter() - last < self.open_after:
                # no gap open: the other threads' CPU times are the baseline of the next one (a
                # thread holding the GIL keeps this thread from sampling until it lets go)
                names = {t.ident: t.name for t in threading.enumerate() if t.ident != me}
                before = {name: _thread_cpu(ident) for ident, name in names.items() if ident != self.gui_thread}
                with self._lock:
                    self._others = ThreadActivity(before)
                continue
            frames = sys._current_frames()
            names = {t.ident: t.name for t in threading.enumerate()}
            frame = frames.pop(self.gui_thread, None)
            stack = []
            while frame is not None and len(stack) < self.depth:
                stack.append(_frame_text(frame.f_code, frame.f_lineno))
                frame = frame.f_back
            others = [(names.get(ident, f"thread {ident}"), _thread_cpu(ident), _frame_text(f.f_code, f.f_lineno))
                      for ident, f in frames.items() if ident != me]
            with self._lock:
                self._samples.append(tuple(stack))  # innermost first
                for name, cpu, where in others:
                    self._others.add(name, cpu, where)


def culprit(stack: tuple[str, ...], frames: int = 4) -> str:
    """The innermost frames of a sampled stack, starting at the innermost one in the project
    (the library frames below it say what it called), at most `frames` project frames."""
    own = [i for i, f in enumerate(stack) if f.startswith("app" + os.sep) or f.startswith("benchmarks" + os.sep)]
    if not own:
        return " < ".join(stack[:frames])
    first = own[0]
    lib = stack[max(0, first - 2):first]  # the two library frames it was in
    return " < ".join(list(lib) + [stack[i] for i in own[:frames]])


def wait_for_result(parts, app, timeout_s: float = 120.0) -> bool:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    got = []

    def done(*_):
        got.append(1)
        loop.quit()

    parts.live.resultReady.connect(done)
    parts.live.failed.connect(done)
    QTimer.singleShot(int(timeout_s * 1000), loop.quit)
    loop.exec()
    parts.live.resultReady.disconnect(done)
    parts.live.failed.disconnect(done)
    return bool(got)


def repaint(parts):
    """Run the event loop until the plug-in has redrawn everything from the result (it spreads the
    work over a few turns: `parts.redrawing`) and Qt has painted what that invalidated (only what
    is visible on screen is painted)."""
    from PySide6.QtCore import QCoreApplication

    QCoreApplication.sendPostedEvents()
    QCoreApplication.processEvents()
    while getattr(parts, "redrawing", False):
        QCoreApplication.processEvents()
    QCoreApplication.sendPostedEvents()
    QCoreApplication.processEvents()


def edit_trace(parts, edit_at: float, applied_at: float, painted_at: float) -> list[tuple[str, float]]:
    """One edit's way from Document.apply to the painted curves: (what happened, when), in order
    (without the worker process's marks when the run went to a thread)."""
    live = parts.live.live
    proc = parts.live.process
    request, reply = (proc.last_request, proc.last_reply) if parts.live.uses_process else ({}, {})
    marks = [("edit", edit_at), ("request pickled (GUI)", request.get("pickled_at")),
             ("request written to the pipe", request.get("written_at")),
             ("read by the worker", reply.get("read_at")), ("replica updated", reply.get("applied_at")),
             ("validation started", live.marks["validating"]), ("validation ended", live.marks["validated"]),
             ("engine ended", live.marks["simulated"]), ("job ended", reply.get("done_at")),
             ("reply pickled (worker)", reply.get("pickled_at")),
             ("reply received (reader thread)", reply.get("received_at")),
             ("reply unpickled", reply.get("unpickled_at")),
             ("reply delivered (GUI thread)", reply.get("delivered_at"))]
    for name, start, end in parts.step_marks:
        marks += [(f"{name.lstrip('_')} started", start), (f"{name.lstrip('_')} ended", end)]
    marks += [("painted", painted_at), ("apply returned (GUI, beside the above)", applied_at)]
    return [(name, at) for name, at in marks if at is not None]


def report_trace(traces: list[list[tuple[str, float]]]) -> None:
    """Median and p95 of each interval of the edits' traces (those with the marks of the first)."""
    names = [name for name, _ in traces[0]]
    same = [t for t in traces if [name for name, _ in t] == names]
    print(f"  trace of {len(same)} edits (ms): interval median and p95, from the edit median")
    for i in range(1, len(names)):
        prev = 0 if i == len(names) - 1 else i - 1  # the last mark is timed from the edit only
        step = [(t[i][1] - t[prev][1]) * 1000 for t in same]
        total = statistics.median((t[i][1] - t[0][1]) * 1000 for t in same)
        print(f"    {names[prev]:>40} -> {names[i]:<40} {statistics.median(step):7.1f} {pct(step, 0.95):7.1f} "
              f"{total:8.1f}")


def timeline_edit(i: int, op_events: list, platform, rnd: random.Random):
    """Edit i of the benchmark, as the timeline makes it: even edits move a random operation by
    half an hour, odd ones give it another priority (a move when it has no other)."""
    from app.domain import edits

    ev = rnd.choice(op_events)
    prios = [p for p in platform.priorities(ev.kind) if p != getattr(ev, "priority", None)]
    if i % 2 == 0 or not prios:
        return edits.MoveEvent(ev.id, max(0.0, ev.start_h + rnd.choice((-0.5, 0.5))))
    return edits.SetEventPriority(ev.id, rnd.choice(prios))


def minor_faults(pid: int | None = None) -> int:
    """Minor page faults of a process so far (this one by default); 0 where /proc is not there.
    A fault is the kernel mapping a fresh page: memory freed to the kernel and taken again."""
    if pid is None:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[7])  # field 10, minflt
    except (OSError, IndexError, ValueError):
        return 0


def measure(project, catalog, label: str, edits: int, app, sample: bool = True, trace: bool = False) -> dict:
    from app.domain import edits as domain_edits  # (not `edits`: the parameter, the edit count)
    from app.ui.document import Document
    from app.ui.main_window import MainWindow

    reference = [engine_reference(project, catalog)]
    doc = Document(project, catalog)
    window = MainWindow(doc)
    window.resize(1600, 1000)
    window.show()
    parts = window.plugins["app.ui.timeline"]
    t0 = time.perf_counter()
    wait_for_result(parts, app)
    first = time.perf_counter() - t0
    # let the window map, arrange its docks and settle before measuring
    from PySide6.QtTest import QTest

    QTest.qWaitForWindowExposed(window, 5000)
    settle = time.perf_counter() + 0.5
    while time.perf_counter() < settle:
        app.processEvents()
        time.sleep(0.005)
    if parts.live.error:
        raise SystemExit(f"{label}: the engine refused the project: {parts.live.error}")
    res = parts.live.result
    sc = doc.project.scenario()
    op_events = [e for e in sc.events if len(doc.platform.priorities(e.kind)) >= 2] or list(sc.events)
    if not op_events:
        raise SystemExit(f"{label}: the current scenario has no events to edit")
    rnd = random.Random(1)
    beat = Heartbeat(5, StackSampler() if sample else None)
    app.processEvents()
    beat.start()
    lat, engine, parts_ms, step_ms, request, traces = [], [], [], [], [], []
    from app.ui.engine_process import engine_process, wait_until

    worker = engine_process("live")
    worker_pid = worker.pid
    # (the worker names its engine in its "ready" message; without a worker a thread runs it)
    wait_until(lambda: worker.ready or not worker.usable, 30_000)
    print(f"engine worker (pid {worker_pid}): {worker.engine_build or 'none (a thread runs the engine)'}", flush=True)
    faults = []  # per edit: (worker, GUI process)
    for i in range(edits):
        op = timeline_edit(i, op_events, doc.platform, rnd)
        beat.phase = "apply"
        f_worker, f_gui = (minor_faults(worker_pid) if worker_pid else 0), minor_faults()
        start = time.perf_counter()
        doc.apply(op)
        applied = time.perf_counter()
        beat.phase = "wait for the result, redraw"
        wait_for_result(parts, app)
        got = time.perf_counter()
        beat.phase = "repaint"
        repaint(parts)
        end_t = time.perf_counter()
        beat.phase = "idle"

        lat.append((end_t - start) * 1000)
        faults.append(((minor_faults(worker_pid) if worker_pid else 0) - f_worker, minor_faults() - f_gui))
        # the steps that fit the result's turn run before wait_for_result returns, the others
        # during repaint(): the paint is what repaint() took beside the steps it ran
        steps = [ms for _, ms in parts.step_ms]
        step_ms.append(list(parts.step_ms))
        late = sum(end - max(t0, got) for _, t0, end in parts.step_marks if end > got) * 1000
        parts_ms.append(((applied - start) * 1000, sum(steps), (end_t - got) * 1000 - late))
        engine.append(parts.live.live.engine_s * 1000)
        request.append((parts.live.live.requested_at - start) * 1000)
        if trace:
            traces.append(edit_trace(parts, start, applied, end_t))
        # idle a little between edits, as a user does
        end = time.perf_counter() + 0.03
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)
    # undo the last five edits and redo them: states the worker has simulated before (moves of
    # one operation in a row merge into one undo step, so there may be fewer)
    undo_lat = []
    beat.phase = "undo/redo"
    stack = doc.undo_stack
    undos = min(5, stack.index())
    for action in ("undo",) * undos + ("redo",) * undos:
        start = time.perf_counter()
        getattr(stack, action)()
        if not parts.live.busy:
            raise SystemExit(f"{label}: {action} did not ask for a prediction")
        wait_for_result(parts, app)
        repaint(parts)
        undo_lat.append((time.perf_counter() - start) * 1000)
        end = time.perf_counter() + 0.03
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.002)
    # a drag: ten moves 15 ms apart, then the curves for the last one
    burst = []
    beat.phase = "drag"
    for _ in range(5):
        ev = rnd.choice(op_events)
        base = ev.start_h
        for k in range(10):
            doc.apply(domain_edits.MoveEvent(ev.id, base + 0.1 * (k + 1)))
            last = time.perf_counter()
            end = last + 0.015
            while time.perf_counter() < end:
                app.processEvents()
                time.sleep(0.001)
        while parts.live.busy:
            wait_for_result(parts, app)
        repaint(parts)
        burst.append((time.perf_counter() - last) * 1000)
    beat.stop()
    out = {
        "label": label, "drives": len(project.drives), "luns": len(project.luns),
        "events": len(sc.events), "series": len(res.series), "first_s": first,
        "lat": lat, "engine": engine, "burst": burst, "undo": undo_lat, "stall_ms": beat.max_gap * 1000,
        "stall_cpu_ms": beat.max_gap_cpu * 1000, "busy_ms": beat.max_busy * 1000,
        "gaps_ms": sorted((g * 1000 for g, _, _ in beat.gaps), reverse=True),
        "apply": [a for a, _, _ in parts_ms], "update": [u for _, u, _ in parts_ms],
        "paint": [p for _, _, p in parts_ms], "stalls": beat.stalls, "steps": step_ms,
        "request": request, "traces": traces, "faults": faults,
    }
    out["reference"] = reference + [engine_reference(project, catalog)]
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()
    app.processEvents()
    return out


def report(r: dict) -> None:
    print(f"\n== {r['label']}: {r['drives']} drives, {r['luns']} LUNs, {r['events']} events, "
          f"{r['series']} series; first prediction after {r['first_s']:.2f} s")
    print(f"  edit -> curves redrawn  ({len(r['lat'])} edits): median {statistics.median(r['lat']):.1f} ms, "
          f"p95 {pct(r['lat'], 0.95):.1f} ms, max {max(r['lat']):.1f} ms")
    print(f"  of which engine (worker): median {statistics.median(r['engine']):.1f} ms, "
          f"p95 {pct(r['engine'], 0.95):.1f} ms")
    print(f"  GUI thread per edit (medians): apply + change handlers {statistics.median(r['apply']):.1f} ms "
          f"(engine request sent after {statistics.median(r['request']):.1f} ms), "
          f"redraw from the result {statistics.median(r['update']):.1f} ms, repaint {statistics.median(r['paint']):.1f} ms")
    if r.get("faults"):
        fw, fg = zip(*r["faults"])
        print(f"  page faults per edit (medians; first 10 edits / the rest): engine worker "
              f"{statistics.median(fw[:10]):.0f} / {statistics.median(fw[10:] or fw):.0f}, "
              f"GUI process {statistics.median(fg[:10]):.0f} / {statistics.median(fg[10:] or fg):.0f}")
    n_steps = min(len(st) for st in r["steps"])
    if n_steps > 1:
        medians = ", ".join(f"{r['steps'][0][i][0].lstrip('_')} {statistics.median(st[i][1] for st in r['steps']):.1f}"
                            for i in range(n_steps))
        print(f"  redraw steps (medians, ms; they share turns of the event loop within a budget): {medians}")
    if r["undo"]:
        print(f"  undo/redo of the last {len(r['undo']) // 2} edits -> curves (the worker remembers its last runs): "
              f"median {statistics.median(r['undo']):.1f} ms, max {max(r['undo']):.1f} ms")
    print(f"  drag burst (10 moves, 15 ms apart) last move -> curves: median {statistics.median(r['burst']):.1f} ms, "
          f"p95 {pct(r['burst'], 0.95):.1f} ms")
    gaps = r["gaps_ms"]
    print(f"  longest GUI-thread stall (5 ms heartbeat): {r['stall_ms']:.1f} ms "
          f"(GUI thread on CPU for {r['stall_cpu_ms']:.1f} ms of it; longest on-CPU gap {r['busy_ms']:.1f} ms); "
          f"gaps over 50 ms: {sum(1 for g in gaps if g > 50)} of {len(gaps)}, p99 gap {pct(gaps, 0.99):.1f} ms")
    before, after = r["reference"]
    print(f"  machine speed in these minutes: the engine alone on this plan in this process, {before:.1f} ms CPU "
          f"before the edits, {after:.1f} ms after (median of 3)")
    ok = pct(r["lat"], 0.95) <= 100 and r["stall_ms"] <= 50
    print(f"  targets (p95 <= 100 ms, stall <= 50 ms): {'met' if ok else 'NOT met'}")
    if r["traces"]:
        report_trace(r["traces"])
    report_stalls(r["stalls"])


def report_stalls(stalls, show: int = 8, stacks: int = 3) -> None:
    """The longest stalls with the stacks sampled in them, then every stall's culprits added up."""
    sampled = [s for s in stalls if s[3]]
    if not sampled:
        if stalls:
            print(f"  {len(stalls)} stall(s) over 30 ms, no stack sampled (--no-sampler, or C++ with the GIL held)")
        return
    print(f"  stalls over 30 ms: {len(stalls)}; the {min(show, len(sampled))} longest, with the GUI thread's "
          f"stacks (samples every 2 ms, innermost first):")
    for gap, busy, phase, counts, others in sorted(sampled, key=lambda s: -s[0])[:show]:
        n = sum(counts.values())
        print(f"    {gap * 1000:.0f} ms (GUI on CPU {busy * 1000:.0f} ms) during '{phase}', {n} samples:")
        by_culprit = Counter()
        for stack, k in counts.items():
            by_culprit[culprit(stack)] += k
        for text, k in by_culprit.most_common(stacks):
            print(f"      {k:3d}x {text}")
        for name, ms, where in others.busiest()[:2]:
            print(f"      other thread '{name}' on CPU {ms:.0f} ms, mostly at {where}")
    total = Counter()
    for _, _, _, counts, _ in sampled:
        for stack, k in counts.items():
            total[culprit(stack, frames=2)] += k
    print("  culprits over all stalls over 30 ms (samples):")
    for text, k in total.most_common(6):
        print(f"    {k:4d}  {text}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=40)
    ap.add_argument("--only", choices=("example", "large"))
    ap.add_argument("--offscreen", action="store_true", help="QT_QPA_PLATFORM=offscreen")
    ap.add_argument("--no-sampler", action="store_true", help="no stack sampling during stalls")
    ap.add_argument("--trace", action="store_true", help="time each step of an edit in both processes")
    ap.add_argument("--baseline", action="store_true",
                    help="edit a copy of the scenario with the original pinned as the baseline (the comparison "
                         "view: each prediction has two scenarios)")
    args = ap.parse_args(argv)
    if args.offscreen:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ.setdefault("XDG_CONFIG_HOME", str(Path("/tmp") / "arrayplanner-bench-config"))  # no saved layout
    from app.engine import native

    print(f"{native.describe()} (this process; the engine worker's: below)", flush=True)
    from app.store.presets import default_catalog
    from app.ui.launch import make_app

    app = make_app()
    catalog = default_catalog()
    results = []
    def pin(proj):
        if args.baseline:
            from app.domain import edits

            base = proj.current_scenario
            edits.DuplicateScenario(proj, base).do(proj)  # the copy becomes current
            edits.SetBaselineScenario(base).do(proj)
        return proj

    if args.only in (None, "example"):
        proj, name = largest_example()
        pin(proj)
        results.append(measure(proj, catalog, f"largest example ({name})", args.edits, app,
                               not args.no_sampler, args.trace))
    if args.only in (None, "large"):
        proj, source = large_project(catalog)
        pin(proj)
        results.append(measure(proj, catalog, f"large generated configuration ({source})", args.edits, app,
                               not args.no_sampler, args.trace))
    from engine import machine  # benchmarks/engine.py, beside this script

    print(f"Python {sys.version.split()[0]}, Qt platform {app.platformName()}, {machine()}"
          + (", a copy of the scenario edited with the original pinned as the baseline" if args.baseline else ""))
    for r in results:
        report(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
