"""What the engine returns: the contract between the model and everything that shows it
(GUI timeline and charts, PDF report, `arrayplanner simulate --json`).

Series are piecewise constant: value v[i] holds on [t[i], t[i+1]) and the last value holds until
`Result.horizon_h`, except the metrics in LINEAR_METRICS (`Series.linear`): those change linearly
from v[i] at t[i] to v[i+1] at t[i+1] (then the last value holds). Times are hours from the start
of the plan.

Metric names (entity in brackets):
  cpu_pct [controller/core, e.g. "SP A/0"]   bus_pct [bus number, "0"]
  drive_pct [drive location "0_0_3"]       group_pct [RAID group id, "1"]
  response_ms, iops, mb_s [workload id]    progress_pct [event id]
  write_cache_pct [controller name]        port_pct [controller name]
  response_max_ms [workload id]            lun_response_ms [LUN id]
  rate_mb_s [event id]                     write_pending_pct [controller name]
  response_read_ms, response_write_ms [workload id]: the reads' and the writes' mean apart
  offered_iops, unserved_iops [workload id]: the IOPS asked for, and what no centre could serve
  ctrl_limit_pct [controller name]: host IOPS / MB/s over the controller's own limit (MD32xx)

Response times (response_ms, response_max_ms, lun_response_ms, response_read_ms,
response_write_ms) are NaN where the workload (LUN)
completed no I/O (not started, stopped, controllers rebooting): undefined, not 0 ms. Its iops and
mb_s are 0 there (a real zero). to_json() writes such a cell as null.

The engine stores series as matrices (one row per breakpoint, one column per entity, see
SeriesBlock); `Result.series` and `Result.get()` build a Series for one entity only when asked,
so a configuration of a thousand entities costs nothing until it is charted.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

RESULT_FORMAT_VERSION = 2  # 2: response times null (NaN) where no I/O completed

# Metrics that are exact straight lines between their recorded points: an operation's rate is
# constant between two engine steps, so its moved MB (and progress) grows linearly in between.
LINEAR_METRICS = frozenset({"progress_pct"})


@dataclass
class Phase:
    name: str  # "copy", "expansion", "rebuild", "wait", "equalization", "zeroing", "verify", ...
    start_h: float
    end_h: float | None  # None: still running at the horizon
    mb: float = 0.0  # data the phase moves (0 for waits)
    avg_mb_s: float = 0.0
    # the centre that held the rate down for most of the phase's MB: "policy" (the level's cap,
    # ceiling or share), "drives RG 3", "drive 0_0_14", "cpu SP A/0", "bus", "engine"; "" for a
    # wait or a timed phase (docs/result-format.md)
    limited_by: str = ""

    @property
    def duration_h(self) -> float | None:
        return None if self.end_h is None else self.end_h - self.start_h


@dataclass
class OperationResult:
    event_id: str
    kind: str
    label: str  # "Migrate LUN 5 -> LUN 12 (ASAP)"
    priority: str
    start_h: float
    end_h: float | None
    phases: list[Phase] = field(default_factory=list)
    touches_workloads: list[str] = field(default_factory=list)

    @property
    def duration_h(self) -> float | None:
        return None if self.end_h is None else self.end_h - self.start_h

    @property
    def replacement_wait_h(self) -> float:
        """The hours its phases wait for a replacement drive (a drive failure: the group degraded
        without a spare, or rebuilt onto a spare and waiting to copy back): time the array does
        no work for the operation, set by when the new drive comes, not by the array."""
        return sum(ph.duration_h or 0.0 for ph in self.phases if ph.name in REPLACEMENT_WAIT_PHASES)

    @property
    def working_h(self) -> float | None:
        """duration_h without the wait for a replacement drive (None: not finished)."""
        d = self.duration_h
        return None if d is None else max(d - self.replacement_wait_h, 0.0)


# op_rebuild's phases that wait for the replacement drive (app/engine/results.py names them too)
REPLACEMENT_WAIT_PHASES = frozenset({"degraded", "wait for replacement"})


def _json_number(x) -> float | None:
    """A value for JSON: NaN (a response time where nothing completed I/O) is null; json.dumps
    would write the token NaN, which is not JSON."""
    x = float(x)
    return None if math.isnan(x) else x


@dataclass
class Series:
    metric: str
    entity: str
    unit: str
    t: np.ndarray  # breakpoints, hours, increasing
    v: np.ndarray  # value from t[i] until t[i+1] (linear: value at t[i], straight to v[i+1])
    linear: bool = False  # straight lines between the points, not steps (LINEAR_METRICS)

    def at(self, time_h: float) -> float:
        """The value at time_h (a linear series: on the line between its points); NaN for a
        response time where nothing completed I/O."""
        if not len(self.v):
            return 0.0
        if self.linear:  # np.interp holds the first/last value outside the points
            return float(np.interp(time_h, self.t, self.v))
        i = int(self.t.searchsorted(time_h, side="right")) - 1
        return float(self.v[max(i, 0)])

    def mean(self, start_h: float, end_h: float) -> float:
        """The time-weighted mean over [start_h, end_h) (what an interval's measurement is), NaN
        stretches (no I/O) left out of the weights: NaN if the whole window is NaN. Unlike a
        point value it moves continuously when a change (a cache filling) shifts in time."""
        if not len(self.v):
            return 0.0
        if end_h <= start_h:
            return self.at(start_h)
        inner = self.t[(self.t > start_h) & (self.t < end_h)]
        edges = np.concatenate(([start_h], inner, [end_h]))
        width = np.diff(edges)
        if self.linear:  # trapezoids between the points (np.interp is exact on each piece)
            y = np.interp(edges, self.t, self.v)
            area, ok = (y[:-1] + y[1:]) / 2 * width, np.isfinite(y[:-1] + y[1:])
        else:  # steps: the value holding from each piece's start
            i = np.maximum(self.t.searchsorted(edges[:-1], side="right") - 1, 0)
            area, ok = self.v[i] * width, np.isfinite(self.v[i])
        w = float(width[ok].sum())
        return float(area[ok].sum() / w) if w > 0 else math.nan

    def peak(self, start_h: float | None = None, end_h: float | None = None) -> float:
        """The highest value in [start_h, end_h), NaN cells (no I/O) left out: NaN if every value
        in the window is NaN."""
        if not len(self.v):
            return 0.0
        lo = 0 if start_h is None else max(int(self.t.searchsorted(start_h, side="right")) - 1, 0)
        hi = len(self.v) if end_h is None else max(int(self.t.searchsorted(end_h, side="left")), lo + 1)
        if self.linear:  # a line's extremes are at its points or at the window's ends
            inner = self.v[lo + 1:hi] if start_h is not None else self.v[lo:hi]
            ends = [self.at(x) for x in (start_h, end_h) if x is not None]
            return float(max([*inner.tolist(), *ends]))
        return float(np.fmax.reduce(self.v[lo:hi]))  # fmax skips NaN; all NaN gives NaN


class SeriesBlock:
    """All entities of one metric on one time axis: V[i, j] holds for entity j from t[i].

    A block few callers read (per-drive load, per-LUN response times) can be given `compute`
    instead of V: a picklable zero-argument callable over compact arrays (not over the engine)
    that builds V on first use. Pickling such a block stores `compute`, not V, so a Result sent
    to another process stays small.

    `linear`: values change linearly between rows (default: whether the metric is in
    LINEAR_METRICS); otherwise each row holds until the next."""

    linear = False  # (a block pickled before the flag existed is stepwise)

    def __init__(self, metric: str, unit: str, entities: list[str], t: np.ndarray,
                 V: np.ndarray | None = None, compute: Callable[[], np.ndarray] | None = None,
                 linear: bool | None = None):
        if (V is None) == (compute is None):
            raise ValueError("a SeriesBlock needs V or compute, not both")
        self.metric = metric
        self.linear = metric in LINEAR_METRICS if linear is None else linear
        self.unit = unit
        self.entities = entities
        self.t = t  # (T,)
        self._V = V
        self.compute = compute
        self._columns: dict[str, int] | None = None  # entity -> column, built on first lookup

    @property
    def V(self) -> np.ndarray:
        """(T, len(entities))"""
        if self._V is None:
            self._V = self.compute()
        return self._V

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state["_columns"] = None
        if self.compute is not None:
            state["_V"] = None  # rebuilt on first use
        return state

    def column(self, entity: str) -> int | None:
        """The column of an entity (None: not in this block)."""
        if self._columns is None:
            self._columns = dict(zip(self.entities, range(len(self.entities))))
        return self._columns.get(entity)

    def series(self, j: int) -> Series:
        """Entity j's curve without the breakpoints where its value does not change (for a
        linear block: without the points inside a flat stretch, whose ends it keeps)."""
        if self._V is None and hasattr(self.compute, "column"):
            v = self.compute.column(j)  # one column, the matrix left unbuilt (Progress)
        else:
            v = self.V[:, j]
        keep = np.empty(len(v), dtype=bool)
        keep[:1] = True
        np.not_equal(v[1:], v[:-1], out=keep[1:])
        if keep.any() and np.isnan(v).any():  # NaN != NaN: a run of no-I/O cells is one piece too
            keep[1:] &= ~(np.isnan(v[1:]) & np.isnan(v[:-1]))
        if self.linear and len(v) > 1:
            keep[:-1] |= keep[1:]  # the last point of a flat stretch: where the slope starts
        return Series(self.metric, self.entities[j], self.unit, self.t[keep], v[keep], self.linear)

    @property
    def size(self) -> int:
        """The number of cells of V, without building it."""
        return len(self.t) * len(self.entities)

    def _row(self, i: int) -> np.ndarray:
        if self._V is None and hasattr(self.compute, "row"):
            return self.compute.row(i)  # one row of a sparse block (Cells), the matrix left unbuilt
        return self.V[i]

    def peaks(self) -> np.ndarray:
        """Every entity's largest value (NaN skipped; all NaN: NaN)."""
        if self._V is None and hasattr(self.compute, "peaks"):
            return self.compute.peaks()
        return np.fmax.reduce(self.V, axis=0)

    def row_values(self, time_h: float) -> np.ndarray:
        """Every entity's value at a time (as Series.at gives it), from the matrix."""
        i = int(np.searchsorted(self.t, time_h, side="right")) - 1
        if i < 0:
            return self._row(0)
        if not self.linear or i >= len(self.t) - 1:
            return self._row(i)
        t0, t1 = self.t[i], self.t[i + 1]
        f = (time_h - t0) / (t1 - t0) if t1 > t0 else 1.0
        a, b = self._row(i), self._row(i + 1)
        return a + (b - a) * f


class SeriesStore(dict):
    """A dict {(metric, entity): Series} whose entries come from SeriesBlocks on first use."""

    def __init__(self, initial: dict | None = None):
        super().__init__(initial or {})
        self.blocks: list[SeriesBlock] = []
        self._by_metric: dict[str, list[SeriesBlock]] = {}
        self._built: set[tuple[str, str]] = set()  # entries _materialize() made (rebuilt after unpickling)

    def __reduce__(self):
        # the blocks and the Series set directly; a dict subclass would otherwise be pickled
        # through items(), which builds every Series of every block
        own = {k: v for k, v in dict.items(self) if k not in self._built}
        return SeriesStore, (own,), self.blocks

    def __setstate__(self, blocks: list[SeriesBlock]) -> None:
        for block in blocks:
            self.add_block(block)

    def add_block(self, block: SeriesBlock) -> None:
        self.blocks.append(block)
        self._by_metric.setdefault(block.metric, []).append(block)

    def _find(self, key) -> tuple[SeriesBlock, int] | None:
        """The block holding key and its column (a later block wins, like a later dict entry)."""
        if not isinstance(key, tuple) or len(key) != 2:
            return None
        for block in reversed(self._by_metric.get(key[0], ())):
            j = block.column(key[1])
            if j is not None:
                return block, j
        return None

    def _materialize(self, key: tuple[str, str]) -> Series | None:
        hit = self._find(key)
        if hit is None:
            return None
        s = hit[0].series(hit[1])
        dict.__setitem__(self, key, s)
        self._built.add(key)
        return s

    def __missing__(self, key):
        s = self._materialize(key)
        if s is None:
            raise KeyError(key)
        return s

    def peek(self, key) -> Series | None:
        """The series of key without keeping it (get() keeps what it builds, in the order asked)."""
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        hit = self._find(key)
        return None if hit is None else hit[0].series(hit[1])

    def get(self, key, default=None):
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        s = self._materialize(key)
        return default if s is None else s

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or self._find(key) is not None

    def keys(self):
        return list(dict.fromkeys([*dict.keys(self), *((b.metric, e) for b in self.blocks for e in b.entities)]))

    def entities(self, metric: str) -> list[str]:
        """The entities of one metric, sorted (without listing every key)."""
        ents = {e for m, e in dict.keys(self) if m == metric}
        for block in self._by_metric.get(metric, ()):
            ents.update(block.entities)
        return sorted(ents)

    def __iter__(self):
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())

    def values(self):
        return [self[k] for k in self.keys()]

    def items(self):
        return [(k, self[k]) for k in self.keys()]


@dataclass
class Advisory:
    severity: str  # "info", "warning", "error" (data lost: docs/model.md 4.2)
    code: str  # stable identifier, e.g. "asap-under-load"
    text: str
    where: str = ""  # the object it is about: "LUN 5", "RG 2", "op3"
    source: str = ""  # the document and section the advice comes from


@dataclass
class Assumption:
    path: str  # dotted preset path, e.g. "rebuild.economical.High"
    value: float
    unit: str
    source: str


@dataclass
class RunLabels:
    """The names the project gave its objects when a run was made: a chart, the timeline or the
    report labels a Result with these, so an old result shown while the next one is computed
    keeps the names it was computed with (the user may have renamed a workload since)."""

    scenario: str = ""
    workloads: dict[str, str] = field(default_factory=dict)  # workload id -> its name (or id)
    luns: dict[int, str] = field(default_factory=dict)  # LUN id -> "LUN 5" or its name
    groups: dict[int, str] = field(default_factory=dict)  # RAID group id -> "RG 2" or its name

    @classmethod
    def of(cls, project, scenario_name: str) -> "RunLabels":
        """The labels of `project` (an app.domain.project.Project) now."""
        return cls(scenario_name, {w.id: w.name or w.id for w in project.workloads},
                   {lun.id: lun.label for lun in project.luns}, {g.id: g.label for g in project.groups})


@dataclass
class Result:
    scenario: str
    horizon_h: float
    operations: list[OperationResult] = field(default_factory=list)
    series: dict[tuple[str, str], Series] = field(default_factory=dict)
    advisories: list[Advisory] = field(default_factory=list)
    mttdl_h: dict[int, float] = field(default_factory=dict)  # per RAID group id
    assumptions: list[Assumption] = field(default_factory=list)
    event_count: int = 0  # engine steps (for the benchmark)
    platform_id: str = ""
    rates_id: str = ""
    # the names it was computed with (operations carry their own label); empty from a caller
    # that built a Result by hand: then the labels come from the project, or the raw ids
    labels: RunLabels = field(default_factory=RunLabels)
    # per RAID group id: rebuild under the planned load, MTTDL from it, URE risk (reliability.py)
    reliability: dict[int, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.series, SeriesStore):
            self.series = SeriesStore(dict(self.series))

    def add_block(self, block: SeriesBlock) -> None:
        self.series.add_block(block)

    def operation(self, event_id: str) -> OperationResult:
        for op in self.operations:
            if op.event_id == event_id:
                return op
        raise KeyError(f"no operation {event_id!r} in the result")

    def host_outages(self) -> list[tuple[float, float]]:
        """(start_h, end_h) of every controller reboot (a feature_enable operation's 'reboot'
        phase): no host I/O then, so the workloads' response times are NaN. Still rebooting at
        the horizon: until the horizon."""
        return [(p.start_h, self.horizon_h if p.end_h is None else p.end_h)
                for o in self.operations if o.kind == "feature_enable" for p in o.phases if p.name == "reboot"]

    def saturation(self, workload: str) -> list[tuple[float, float, float]]:
        """(start_h, end_h, served fraction) of each stretch where some of the workload's
        offered IOPS go unserved (a centre over the busy limit): its response time there is a
        lower bound of a queue that keeps growing, not a steady figure. Shares under 0.5% of the
        offered load are left out (rounding in the solver)."""
        unserved, offered = self.get("unserved_iops", workload), self.get("offered_iops", workload)
        if unserved is None or offered is None or not len(unserved.v):
            return []
        out: list[tuple[float, float, float]] = []
        ends = [*unserved.t[1:].tolist(), self.horizon_h]
        for start, end, miss in zip(unserved.t.tolist(), ends, unserved.v.tolist()):
            asked = offered.at(start)
            if end <= start or not asked or miss <= 0.005 * asked:
                continue
            served = max(0.0, 1.0 - miss / asked)
            if out and abs(out[-1][1] - start) < 1e-9:  # one stretch: its worst share served
                out[-1] = (out[-1][0], end, min(out[-1][2], served))
            else:
                out.append((start, end, served))
        return out

    def get(self, metric: str, entity: str) -> Series | None:
        return self.series.get((metric, entity))

    def metrics(self) -> list[str]:
        return sorted({m for m, _ in self.series.keys()})

    def entities(self, metric: str) -> list[str]:
        return self.series.entities(metric)

    def to_json(self) -> dict[str, Any]:
        """The documented, versioned format (docs/result-format.md)."""
        return {
            "format": "arrayplanner-result",
            "version": RESULT_FORMAT_VERSION,
            "scenario": self.scenario,
            "horizon_h": self.horizon_h,
            "operations": [
                {
                    "event_id": o.event_id, "kind": o.kind, "label": o.label, "priority": o.priority,
                    "start_h": o.start_h, "end_h": o.end_h, "duration_h": o.duration_h,
                    "touches_workloads": o.touches_workloads,
                    "phases": [
                        {"name": p.name, "start_h": p.start_h, "end_h": p.end_h, "duration_h": p.duration_h,
                         "mb": p.mb, "avg_mb_s": p.avg_mb_s, "limited_by": p.limited_by}
                        for p in o.phases
                    ],
                }
                for o in self.operations
            ],
            "series": [
                {"metric": s.metric, "entity": s.entity, "unit": s.unit, "linear": s.linear,
                 "t": [float(x) for x in s.t], "v": [_json_number(x) for x in s.v]}
                for s in self.series.values()
            ],
            "advisories": [a.__dict__ for a in self.advisories],
            "mttdl_h": {str(k): v for k, v in self.mttdl_h.items()},
            "reliability": {str(k): v.to_json() for k, v in self.reliability.items()},
            "assumptions": [a.__dict__ for a in self.assumptions],
            "platform_id": self.platform_id,
            "rates_id": self.rates_id,
            "event_count": self.event_count,
            "labels": {"scenario": self.labels.scenario, "workloads": dict(self.labels.workloads),
                       "luns": {str(k): v for k, v in self.labels.luns.items()},
                       "groups": {str(k): v for k, v in self.labels.groups.items()}},
        }
