"""The measured load as a plan the engine can run, and what of its prediction to compare with
the measurements (docs/measured-data.md "Measured against predicted").

    rp = build_replay(project, data)            # a copy of the project + the points to compare
    result = simulate(rp.project, catalog, rp.scenario)
    predicted = rp.predicted(result)            # one value per rp.points, NaN where undefined

The replay keeps the project's configuration and replaces the load on every LUN a measured
object maps to by the measured load: one open workload per such LUN, whose IOPS, read % and I/O
size follow the intervals (a workload change at each interval's start; the random % and a fixed
read hit ratio come from the project's workload on that LUN). The project's workloads keep their
load on the LUNs nobody measured. With no LUN mapped (only groups, drives or SPs measured) the
project's own workloads are the load.

Compared (the load is the input, these are the outputs): a LUN's response time against
`lun_response_ms`, a RAID group's utilization against `group_pct`, a drive's against `drive_pct`,
an SP's against the mean `cpu_pct` of its cores. Each interval is compared with the
prediction's time-weighted mean over the interval (a measurement is an interval's mean).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .measured import MeasuredData, MeasuredInterval
from .project import Project, Scenario, Workload, WorkloadChange

REPLAY_SCENARIO = "Measured load"
READ_HIT = "workload.read_hit_pct"  # a calibration's workload unknown when the project fixes a hit ratio
WORKLOAD_PREFIX = "measured-lun-"

# (measured object kind, measured metric) -> the Result metric it is compared with
COMPARE = {("lun", "response_ms"): "lun_response_ms", ("group", "util_pct"): "group_pct",
           ("drive", "util_pct"): "drive_pct", ("sp", "util_pct"): "cpu_pct"}


@dataclass(frozen=True)
class Point:
    """One measured value and where the prediction for it is read."""

    key: str  # measured object key
    metric: str  # measured metric (response_ms, util_pct)
    hour: float  # the interval's middle (charts place the measured point there)
    start_h: float  # the interval in plan hours
    end_h: float
    measured: float
    result_metric: str
    entities: tuple[str, ...]  # averaged (an SP's cores), else one


@dataclass
class Replay:
    project: Project
    scenario: str
    points: list[Point]
    measured_luns: dict[int, str] = field(default_factory=dict)  # LUN id -> replay workload id
    source_workloads: dict[int, str] = field(default_factory=dict)  # LUN id -> project workload id

    def predicted(self, result: Any) -> list[float]:
        """The prediction at each point: the series' time-weighted mean over the point's
        interval (NaN where the Result has no value there). A value read at the interval's
        middle jumps when a change inside the interval (the write cache filling) crosses the
        middle, which stalls the calibration's least squares; the mean moves continuously.
        Each series is read once (Result.get builds it)."""
        cache: dict[tuple[str, str], Any] = {}
        out = []
        for p in self.points:
            vals = []
            for e in p.entities:
                key = (p.result_metric, e)
                if key not in cache:
                    try:
                        cache[key] = result.get(*key)
                    except KeyError:
                        cache[key] = None
                s = cache[key]
                if s is None:
                    vals.append(math.nan)
                elif hasattr(s, "mean"):  # a measurement is the interval's mean: so is its prediction
                    vals.append(float(s.mean(p.start_h, p.end_h)))
                else:
                    vals.append(float(s.at(p.hour)))
            good = [v for v in vals if math.isfinite(v)]
            out.append(sum(good) / len(good) if good else math.nan)
        return out


def build_replay(project: Project, data: MeasuredData, cores: dict[str, int] | None = None,
                 read_hit_pct: float | None = None) -> Replay:
    """The replay of `data` on a copy of `project`. `cores`: controller name -> core count (the
    platform's; an SP's utilization is the mean of its cores). `read_hit_pct` overrides the read
    hit ratio of the measured workloads (a calibration's unknown)."""
    p = project.clone()
    mapped = data.mapped()
    origin = data.start  # once: MeasuredData.start scans every interval

    def hour_of(iv: MeasuredInterval) -> float:
        return (iv.start - origin) / 3600.0

    lun_of: dict[str, int] = {k: int(t[1]) for k, t in mapped.items() if t[0] == "lun" and k.startswith("lun:")}
    by_lun: dict[int, list[MeasuredInterval]] = {}
    for iv in data.intervals:
        if iv.key in lun_of and iv.iops is not None:
            by_lun.setdefault(lun_of[iv.key], []).append(iv)
    for ivs in by_lun.values():
        ivs.sort(key=lambda iv: iv.start)

    events = []
    measured_luns: dict[int, str] = {}
    source: dict[int, str] = {}
    if by_lun:
        # the project's load leaves the measured LUNs (a workload spreads evenly: its IOPS shrink
        # with its LUN list)
        kept = []
        for w in p.workloads:
            for l in w.luns:
                if l in by_lun:
                    source.setdefault(l, w.id)
            rest = [l for l in w.luns if l not in by_lun]
            if not rest:
                continue
            if len(rest) < len(w.luns) and w.mode == "open":
                w.iops = w.iops * len(rest) / len(w.luns)
            w.luns = rest
            kept.append(w)
        templates = {w.id: w for w in project.workloads}
        for lun_id, ivs in sorted(by_lun.items()):
            tpl = templates.get(source.get(lun_id, ""))
            wid = f"{WORKLOAD_PREFIX}{lun_id}"
            first = ivs[0]
            w = Workload(
                id=wid, name=f"Measured LUN {lun_id}", luns=[lun_id], mode="open", iops=float(first.iops or 0.0),
                read_pct=first.read_pct if first.read_pct is not None else (tpl.read_pct if tpl else 67.0),
                io_kb=first.io_kb if first.io_kb else (tpl.io_kb if tpl else 8.0),
                random_pct=tpl.random_pct if tpl else 100.0,
                read_hit_pct=read_hit_pct if read_hit_pct is not None else (tpl.read_hit_pct if tpl else None))
            kept.append(w)
            measured_luns[lun_id] = wid
            last = {"iops": w.iops, "read_pct": w.read_pct, "io_kb": w.io_kb}
            for n, iv in enumerate(ivs[1:], 1):
                ch = {}
                for k, v in (("iops", iv.iops), ("read_pct", iv.read_pct), ("io_kb", iv.io_kb or None)):
                    if v is not None and abs(v - last[k]) > 1e-9 * max(1.0, abs(v)):
                        ch[k] = float(v)
                        last[k] = float(v)
                if ch:
                    events.append(WorkloadChange(id=f"m{lun_id}-{n}", start_h=hour_of(iv), workload=wid, changes=ch))
        p.workloads = kept
    elif read_hit_pct is not None:
        for w in p.workloads:
            w.read_hit_pct = read_hit_pct
    ends = [hour_of(iv) + iv.seconds / 3600.0 for iv in data.intervals]
    p.scenarios = [Scenario(REPLAY_SCENARIO, sorted(events, key=lambda e: (e.start_h, e.id)))]
    p.current_scenario = REPLAY_SCENARIO
    p.baseline_scenario = None
    p.horizon_h = max(ends, default=1.0)

    points = []
    for iv in data.intervals:
        t = mapped.get(iv.key)
        if t is None:
            continue
        kind, ident = t
        for metric in ("response_ms", "util_pct"):
            rm = COMPARE.get((kind, metric))
            v = iv.value(metric)
            if rm is None or v is None or kind != iv.kind:
                continue
            ents = tuple(f"{ident}/{c}" for c in range((cores or {}).get(ident, 1))) if kind == "sp" else (ident,)
            h0 = hour_of(iv)
            h1 = h0 + iv.seconds / 3600.0
            points.append(Point(iv.key, metric, (h0 + h1) / 2, h0, h1, float(v), rm, ents))
    return Replay(p, REPLAY_SCENARIO, points, measured_luns, source)


# ---------------------------------------------------------------- measured against predicted

@dataclass
class Comparison:
    """The measured values and the predictions for them: with the project's platform (`now`)
    and, for a calibrated project, with the platform it was calibrated from (`uncalibrated`)."""

    replay: Replay
    now: list[float]
    uncalibrated: list[float] | None = None
    labels: dict[str, str] = field(default_factory=dict)  # measured object key -> its project object's label


def target_label(target: str, project: Project | None = None, platform: Any = None) -> str:
    """How a chart names a mapped project object; a RAID group as the GUI does ("Disk Group 3",
    or its own name when `project` has one), never the engine's "RG 3"."""
    kind, _, ident = target.partition(":")
    if kind == "group":
        from app.domain.hardware import group_title

        try:
            gid = int(ident)
        except ValueError:
            return target
        name = next((g.name for g in project.groups if g.id == gid), "") if project is not None else ""
        return group_title(platform, gid, name)
    return {"lun": f"LUN {ident}", "drive": f"drive {ident}",
            "sp": ident, "port": f"{ident} ports"}.get(kind, target)


def compare(project: Project, catalog: Any, simulate: Any, data: MeasuredData | None = None) -> Comparison:
    """Run the replay of the project's measured data (or `data`) with `simulate` (the engine's,
    passed in: the domain does not import it) on the project's platform and, when the project
    is calibrated, on the platform it came from (with the read hit ratio the fit started at)."""
    import dataclasses

    data = data if data is not None else project.measured
    if data is None:
        raise ValueError("the project has no measured data (File > Import measured data)")
    pf = catalog.platform(project.platform_id)
    cores = {c.name: c.cores for c in pf.controllers}
    rp = build_replay(project, data, cores)
    now = rp.predicted(simulate(rp.project, catalog, rp.scenario)) if rp.points else []
    before = None
    cal = project.calibration
    if cal is not None and cal.base_platform_id in catalog.platforms and cal.platform_id == project.platform_id:
        hit = next((p.before for p in cal.parameters if p.path == READ_HIT), None)
        base = dataclasses.replace(project, platform_id=cal.base_platform_id, platform_snapshot=None)
        base_cores = {c.name: c.cores for c in catalog.platform(cal.base_platform_id).controllers}
        rb = build_replay(base, data, base_cores, hit)
        before = rb.predicted(simulate(rb.project, catalog, rb.scenario)) if rb.points else []
    labels = {k: target_label(t, project, pf) for k, t in data.mapping.items() if t}
    return Comparison(rp, now, before, labels)
