"""Shared helpers for the timeline/charts/live/advisor/scenario GUI tests (no tests here).

`small_project(catalog)` builds a two-group CX4-960 project with an OLTP workload; `FakeEngine`
is a stand-in simulate() whose numbers are simple functions of the events (so the widget logic
can be tested without the real engine; the tests that check the engine's own numbers use
app.engine.simulate and `arrayplanner simulate --json`).
"""
from __future__ import annotations

import threading
import time

import numpy as np

from app.domain import edits
from app.domain.project import LunMigration, Project, Workload
from app.engine.result import Advisory, OperationResult, Phase, Result, Series

PLATFORM = "emc-cx4-960-r28"
RATE_GB_H = {"Low": 1.0, "Medium": 2.0, "High": 4.0, "ASAP": 40.0}
EXTRA_MS = {"Low": 0.5, "Medium": 1.5, "High": 4.0, "ASAP": 46.0}


def catalog():
    from app.store.presets import default_catalog

    return default_catalog()


def timeline_window(qtbot, project, cat=None):
    """The main window with the timeline plug-in on `project`, predicting with FakeEngine, shown
    at 1400x900 once its first result is drawn: (window, document, plug-in parts)."""
    from app.ui.document import Document
    from app.ui.main_window import MainWindow

    doc = Document(project, cat or catalog())
    window = MainWindow(doc, plugins=("app.ui.timeline",))
    window.files.maybe_save = lambda: True  # closing at teardown must not ask to save
    qtbot.addWidget(window)
    parts = window.plugins["app.ui.timeline"]
    parts.live.simulate = FakeEngine()
    parts.live.request()
    window.resize(1400, 900)
    window.show()
    qtbot.waitUntil(lambda: parts.live.result is not None and not parts.redrawing, timeout=10000)
    return window, doc, parts


def small_project(cat) -> Project:
    p = Project(PLATFORM)
    plat = cat.platform(PLATFORM)
    p.cache = plat.default_cache()
    enc = next(iter(plat.enclosure_types))
    drive = "fc-15k-73" if "fc-15k-73" in cat.drives else next(iter(plat.drive_types))
    steps = [edits.AddEnclosure(0, 0, enc), edits.AddEnclosure(1, 0, enc)]
    steps += [edits.PlaceDrive(f"{b}_0_{s}", drive) for b in (0, 1) for s in range(5)]
    steps += [edits.CreateRaidGroup("R5", [f"0_0_{s}" for s in range(5)]),
              edits.CreateRaidGroup("R5", [f"1_0_{s}" for s in range(5)]),
              edits.CreateLun(0, 20, "SP A"), edits.CreateLun(0, 50, "SP A"),
              edits.CreateLun(1, 40, "SP A"), edits.CreateLun(1, 50, "SP A")]
    for op in steps:
        why = op.check(p, cat)
        assert why is None, why
        op.do(p)
    p.workloads.append(Workload("w1", "OLTP", [0, 1], iops=1500, response_target_ms=20.0))
    p.scenario().events.append(LunMigration("op1", 2.0, source_lun=0, dest_lun=2, priority="ASAP"))
    return p


class FakeEngine:
    """simulate(project, catalog, scenario_name) -> Result; counts calls, can be slowed down."""

    def __init__(self, delay_s: float = 0.0):
        self.delay_s = delay_s
        self.calls = 0
        self.threads: set[int] = set()
        self.lock = threading.Lock()

    def __call__(self, project, catalog, scenario_name=None):
        with self.lock:
            self.calls += 1
            self.threads.add(threading.get_ident())
        if self.delay_s:
            time.sleep(self.delay_s)
        sc = project.scenario(scenario_name)
        ops_out = []
        horizon = 1.0
        spans = []
        for ev in sorted(sc.events, key=lambda e: e.start_h):
            prio = getattr(ev, "priority", "High")
            dur = 20.0 / RATE_GB_H.get(prio, 4.0)
            end = ev.start_h + dur
            phases = [Phase("copy", ev.start_h, ev.start_h + dur / 2, 10240, 1.0),
                      Phase("expansion", ev.start_h + dur / 2, end, 10240, 1.0)]
            ops_out.append(OperationResult(ev.id, ev.kind, f"{ev.label_text} {ev.id} ({prio})", prio,
                                           ev.start_h, end, phases, [w.id for w in project.workloads]))
            spans.append((ev.start_h, end, EXTRA_MS.get(prio, 4.0)))
            horizon = max(horizon, end * 1.1)
        times = sorted({0.0} | {t for s, e, _ in spans for t in (s, e)})
        series = {}
        for w in project.workloads:
            v = [12.0 + sum(x for s, e, x in spans if s <= t < e) for t in times]
            series[("response_ms", w.id)] = Series("response_ms", w.id, "ms", np.array(times), np.array(v))
            series[("iops", w.id)] = Series("iops", w.id, "IOPS", np.array([0.0]), np.array([w.iops]))
        busy = [40.0 + 50.0 * min(1, sum(1 for s, e, _ in spans if s <= t < e)) for t in times]
        for g in project.groups:
            series[("group_pct", str(g.id))] = Series("group_pct", str(g.id), "%", np.array(times), np.array(busy))
        cpu = [12.0 + 18.0 * sum(1 for s, e, _ in spans if s <= t < e) for t in times]
        series[("cpu_pct", "SP A/0")] = Series("cpu_pct", "SP A/0", "%", np.array(times), np.array(cpu))
        for op in ops_out:
            t = np.array([0.0, op.start_h, op.end_h])
            series[("progress_pct", op.event_id)] = Series("progress_pct", op.event_id, "%", t, np.array([0.0, 50.0, 100.0]))
        advisories = [Advisory("warning", "asap-under-load", f"{o.event_id}: ASAP under host load", o.event_id)
                      for o in ops_out if o.priority == "ASAP"]
        return Result(sc.name, horizon, ops_out, series, advisories)
