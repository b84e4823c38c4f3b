"""Measured performance data (interval statistics from an array or a host) and the provenance of
a calibration made from it (docs/measured-data.md).

A MeasuredInterval is one object's averages over one sampling interval, as the tools report
them: Unisphere/Navisphere Analyzer polls, `iostat -x` reports, a generic CSV's rows. Which
project object a measured object stands for is the MeasuredData's `mapping` (kept in the
project, so a second calibration does not ask again). Plain data: no I/O, no engine.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Iterable

# what a measured object can be, in the project's terms (iostat devices are host block devices:
# a LUN as the host sees it, so they map to LUNs)
OBJECT_KINDS = ("lun", "group", "drive", "sp", "port")
KIND_LABELS = {"lun": "LUN", "group": "RAID group", "drive": "drive", "sp": "SP", "port": "port"}

# the interval's numbers; None where the source does not report it
METRICS = ("iops", "mb_s", "read_pct", "io_kb", "response_ms", "util_pct")
METRIC_UNITS = {"iops": "IO/s", "mb_s": "MB/s", "read_pct": "%", "io_kb": "KB", "response_ms": "ms", "util_pct": "%"}
# the measured outputs a calibration compares with the model (the loads are its inputs)
COMPARED = ("response_ms", "util_pct")


@dataclass(frozen=True)
class MeasuredInterval:
    """One object's averages over [start, start + seconds) (start: seconds since the epoch, UTC
    or the source's own clock; only differences are used)."""

    start: float
    seconds: float
    kind: str  # one of OBJECT_KINDS
    name: str  # as the source names it ("sdb", "LUN 17", "SP A", "Bus 0 Enclosure 1 Disk 4")
    iops: float | None = None
    mb_s: float | None = None
    read_pct: float | None = None
    io_kb: float | None = None
    response_ms: float | None = None
    util_pct: float | None = None

    @property
    def key(self) -> str:
        return object_key(self.kind, self.name)

    def value(self, metric: str) -> float | None:
        return getattr(self, metric)

    def to_list(self) -> list[Any]:
        return [getattr(self, f.name) for f in fields(self)]

    @staticmethod
    def from_list(row: list[Any]) -> "MeasuredInterval":
        names = [f.name for f in fields(MeasuredInterval)]
        if not isinstance(row, list) or len(row) != len(names):
            raise ValueError(f"a measured interval is a list of {len(names)} values ({', '.join(names)})")
        d = dict(zip(names, row))
        if d["kind"] not in OBJECT_KINDS:
            raise ValueError(f"measured interval kind {d['kind']!r} is not one of {', '.join(OBJECT_KINDS)}")
        for k in ("start", "seconds", *METRICS):
            v = d[k]
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
                raise ValueError(f"measured interval {k} must be a number, not {v!r}")
        if d["start"] is None or d["seconds"] is None or not isinstance(d["name"], str):
            raise ValueError("a measured interval needs start, seconds and a name")
        return MeasuredInterval(**d)


def object_key(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def split_key(key: str) -> tuple[str, str]:
    kind, _, name = key.partition(":")
    return kind, name


# ---------------------------------------------------------------- mapping targets
# A measured object maps to a project object written as "lun:3", "group:1", "drive:0_0_4",
# "sp:SP A", "port:SP A" (a controller's host ports); "" = not used.

def target(kind: str, ident: Any) -> str:
    return f"{kind}:{ident}"


def parse_target(text: str) -> tuple[str, str]:
    kind, _, ident = text.partition(":")
    if kind not in OBJECT_KINDS or not ident:
        raise ValueError(f"{text!r} is not a project object (lun:N, group:N, drive:B_E_S, sp:NAME, port:NAME)")
    return kind, ident


@dataclass
class MeasuredData:
    """An imported file of intervals: where it came from, what was skipped, and how its objects
    map to the project's."""

    source: str  # the file name (no folder: the project may move)
    format: str  # "generic-csv", "iostat", "unisphere-analyzer"
    intervals: list[MeasuredInterval] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "line N, column C: why" (at most a few hundred)
    skipped_count: int = 0
    mapping: dict[str, str] = field(default_factory=dict)  # object key -> target ("" = unused)

    def objects(self) -> list[tuple[str, str]]:
        """(kind, name) of each measured object, in the order they first appear."""
        return [split_key(k) for k in dict.fromkeys(iv.key for iv in self.intervals)]

    @property
    def start(self) -> float:
        return min((iv.start for iv in self.intervals), default=0.0)

    def hour_of(self, iv: MeasuredInterval) -> float:
        """The interval's start in plan hours (0 = the first interval of the file)."""
        return (iv.start - self.start) / 3600.0

    def times(self) -> list[float]:
        """The distinct interval starts, sorted."""
        return sorted({iv.start for iv in self.intervals})

    def mapped(self) -> dict[str, tuple[str, str]]:
        """object key -> (target kind, target id) for the objects mapped to something."""
        out = {}
        for k, t in self.mapping.items():
            if t:
                out[k] = parse_target(t)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "format": self.format,
                "columns": [f.name for f in fields(MeasuredInterval)],
                "intervals": [iv.to_list() for iv in self.intervals],
                "skipped": list(self.skipped), "skipped_count": self.skipped_count,
                "mapping": dict(self.mapping)}

    @staticmethod
    def from_dict(d: Any) -> "MeasuredData":
        if not isinstance(d, dict):
            raise ValueError("measured data must be an object")
        cols = d.get("columns", [f.name for f in fields(MeasuredInterval)])
        if list(cols) != [f.name for f in fields(MeasuredInterval)]:
            raise ValueError(f"measured data columns {cols!r} are not the ones this version writes")
        rows = d.get("intervals", [])
        if not isinstance(rows, list):
            raise ValueError("measured data intervals must be a list")
        intervals = []
        for i, row in enumerate(rows):
            try:
                intervals.append(MeasuredInterval.from_list(row))
            except (TypeError, ValueError) as exc:
                raise ValueError(f"measured data intervals[{i}]: {exc}") from None
        mapping = d.get("mapping", {})
        if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
            raise ValueError("measured data mapping must map object keys to text")
        for v in mapping.values():
            if v:
                parse_target(v)
        skipped = d.get("skipped", [])
        if not isinstance(skipped, list) or not all(isinstance(s, str) for s in skipped):
            raise ValueError("measured data skipped must be a list of text")
        return MeasuredData(str(d.get("source", "")), str(d.get("format", "")), intervals, list(skipped),
                            int(d.get("skipped_count", len(skipped))), dict(mapping))


# ---------------------------------------------------------------- calibration provenance

@dataclass
class ParameterMove:
    """One fitted parameter: the rates path, its value before and after, and its bounds."""

    path: str
    before: float
    after: float
    low: float
    high: float
    about: str = ""
    identified: bool = True  # False: the measured data did not move the model through it
    stderr: float | None = None  # the fit's standard error (linearized at the fit; None: not estimable)

    @property
    def moved_pct(self) -> float:
        return 100.0 * (self.after - self.before) / self.before if self.before else math.nan

    @property
    def at_bound(self) -> bool:
        span = self.high - self.low
        return min(abs(self.after - self.low), abs(self.after - self.high)) <= 1e-6 * max(span, 1e-12)


@dataclass
class Calibration:
    """Where a calibrated platform came from: the file, the intervals, the parameters that moved
    and the error left (RMS per compared metric, in the metric's unit), before and after."""

    base_platform_id: str
    platform_id: str  # the calibrated copy (embedded in the project)
    source: str
    intervals_used: int
    objects_used: list[str]
    first_start: float
    last_start: float
    parameters: list[ParameterMove]
    rms_before: dict[str, float]
    rms_after: dict[str, float]
    points: dict[str, int]  # metric -> number of compared values
    created: str  # ISO 8601 UTC
    engine_runs: int = 0
    notes: list[str] = field(default_factory=list)  # what limits the fit (too few values, ...)

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["parameters"] = [{f.name: getattr(p, f.name) for f in fields(ParameterMove)} for p in self.parameters]
        return d

    @staticmethod
    def from_dict(d: Any) -> "Calibration":
        if not isinstance(d, dict):
            raise ValueError("calibration must be an object")
        names = {f.name for f in fields(Calibration)}
        unknown = set(d) - names
        if unknown:
            raise ValueError(f"calibration has unknown fields: {', '.join(sorted(unknown))}")
        kw = dict(d)
        kw["parameters"] = [ParameterMove(**p) for p in kw.get("parameters", [])]
        return Calibration(**kw)


def rms(values: Iterable[float]) -> float:
    v = [x * x for x in values if math.isfinite(x)]
    return math.sqrt(sum(v) / len(v)) if v else math.nan
