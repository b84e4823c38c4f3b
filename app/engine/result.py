"""What the engine returns: the contract between the model and everything that shows it
(GUI timeline and charts, PDF report, `arrayplanner simulate --json`).

Series are piecewise constant: value v[i] holds on [t[i], t[i+1]) and the last value holds until
`Result.horizon_h`. Times are hours from the start of the plan.

Metric names (entity in brackets):
  cpu_pct [controller/core, e.g. "SP A/0"]   bus_pct [bus number, "0"]
  drive_pct [drive location "0_0_3"]       group_pct [RAID group id, "1"]
  response_ms, iops, mb_s [workload id]    progress_pct [event id]
  write_cache_pct [controller name]        port_pct [controller name]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

RESULT_FORMAT_VERSION = 1


@dataclass
class Phase:
    name: str  # "copy", "expansion", "rebuild", "wait", "equalization", "zeroing", "verify", ...
    start_h: float
    end_h: float | None  # None: still running at the horizon
    mb: float = 0.0  # data the phase moves (0 for waits)
    avg_mb_s: float = 0.0

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


@dataclass
class Series:
    metric: str
    entity: str
    unit: str
    t: np.ndarray  # breakpoints, hours, increasing
    v: np.ndarray  # value from t[i] until t[i+1]

    def at(self, time_h: float) -> float:
        i = int(np.searchsorted(self.t, time_h, side="right")) - 1
        return float(self.v[max(i, 0)]) if len(self.v) else 0.0

    def peak(self, start_h: float | None = None, end_h: float | None = None) -> float:
        if not len(self.v):
            return 0.0
        lo = 0 if start_h is None else max(int(np.searchsorted(self.t, start_h, side="right")) - 1, 0)
        hi = len(self.v) if end_h is None else max(int(np.searchsorted(self.t, end_h, side="left")), lo + 1)
        return float(np.max(self.v[lo:hi]))


@dataclass
class Advisory:
    severity: str  # "info", "warning"
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
class Result:
    scenario: str
    horizon_h: float
    operations: list[OperationResult] = field(default_factory=list)
    series: dict[tuple[str, str], Series] = field(default_factory=dict)
    advisories: list[Advisory] = field(default_factory=list)
    mttdl_h: dict[int, float] = field(default_factory=dict)  # per RAID group id
    assumptions: list[Assumption] = field(default_factory=list)
    event_count: int = 0  # engine steps (for the benchmark)

    def operation(self, event_id: str) -> OperationResult:
        for op in self.operations:
            if op.event_id == event_id:
                return op
        raise KeyError(f"no operation {event_id!r} in the result")

    def get(self, metric: str, entity: str) -> Series | None:
        return self.series.get((metric, entity))

    def metrics(self) -> list[str]:
        return sorted({m for m, _ in self.series})

    def entities(self, metric: str) -> list[str]:
        return sorted(e for m, e in self.series if m == metric)

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
                         "mb": p.mb, "avg_mb_s": p.avg_mb_s}
                        for p in o.phases
                    ],
                }
                for o in self.operations
            ],
            "series": [
                {"metric": s.metric, "entity": s.entity, "unit": s.unit,
                 "t": [float(x) for x in s.t], "v": [float(x) for x in s.v]}
                for s in self.series.values()
            ],
            "advisories": [a.__dict__ for a in self.advisories],
            "mttdl_h": {str(k): v for k, v in self.mttdl_h.items()},
            "assumptions": [a.__dict__ for a in self.assumptions],
        }
