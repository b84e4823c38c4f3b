"""The user's project: physical layout, RAID groups, LUNs, cache, features, workloads, and the
scenarios of timeline events. Plain mutable dataclasses; the GUI changes them only through
operations (app.domain.edits) so every change is undoable and reports what it touched.

Identifiers follow the CLARiiON convention the documents use:
  enclosure "B_E" (bus, enclosure on that bus), drive slot "B_E_S" (bus, enclosure, slot).
RAID groups and LUNs are numbered (ints); workloads and events have short string ids.
Times are hours from the start of the plan; capacities are GB with 1 GB = 1024 MB (the EMC
paper's convention, used throughout).
"""
from __future__ import annotations

import functools

import copy
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

from .measured import Calibration, MeasuredData
from .raid import RaidMath, RaidType

if TYPE_CHECKING:
    from .overlay import Overlay


def slot_id(bus: int, enclosure: int, slot: int) -> str:
    return f"{bus}_{enclosure}_{slot}"


def enclosure_id(bus: int, enclosure: int) -> str:
    return f"{bus}_{enclosure}"


@functools.lru_cache(maxsize=1 << 14)  # Drive.bus/enclosure ask it per read; the engine per run
def parse_slot_id(text: str) -> tuple[int, int, int]:
    try:
        b, e, s = (int(p) for p in text.split("_"))
    except ValueError:
        raise ValueError(f"{text!r} is not a drive location of the form bus_enclosure_slot") from None
    return b, e, s


@dataclass
class Enclosure:
    bus: int
    position: int  # 0 = first enclosure on the bus
    type_id: str

    @property
    def id(self) -> str:
        return enclosure_id(self.bus, self.position)


@dataclass
class Drive:
    location: str  # "B_E_S"
    type_id: str
    hot_spare: bool = False

    @property
    def bus(self) -> int:
        return parse_slot_id(self.location)[0]

    @property
    def enclosure(self) -> str:
        b, e, _ = parse_slot_id(self.location)
        return enclosure_id(b, e)


@dataclass
class RaidGroup:
    id: int
    raid: RaidType
    drives: list[str]  # drive locations, in member order
    name: str = ""
    # geometry beyond the width (RaidMath): RAID 50/60 drives per span, a distributed group's
    # drives per stripe (data + parity); its spare capacity in drives. 0: the level's default
    stripe: int = 0
    spare: int = 0

    @property
    def width(self) -> int:
        return len(self.drives)

    @property
    def math(self) -> RaidMath:
        return RaidMath(self.raid, self.width, self.stripe, self.spare)

    @property
    def label(self) -> str:
        return self.name or f"RG {self.id}"


@dataclass
class Lun:
    id: int
    group_id: int
    capacity_gb: float
    owner: str  # controller name, e.g. "SP A"
    name: str = ""
    # per-LUN settings in the platform's own terms (write cache, write-aside, prefetch, ...);
    # keys come from Platform.lun_settings
    settings: dict[str, Any] = field(default_factory=dict)
    # WAFL: the layout measurement ("reallocate measure" optimization level, 1 = optimal)
    optimization: float = 1.0

    @property
    def label(self) -> str:
        return self.name or f"LUN {self.id}"


@dataclass
class Workload:
    """Host load on one or more LUNs, spread evenly over them.

    mode "open": a fixed arrival rate `iops` (the EMC OLTP load);
    mode "closed": `outstanding` I/Os always in flight, as Iometer/Orion run (HP: one outstanding
    I/O, so IOPS = 1 / response time); each of them waits `think_ms` after its I/O completes
    before issuing the next (the interactive response time law, IOPS = N / (R + Z); 0: at once).
    """

    id: str
    name: str
    luns: list[int]
    mode: str = "open"
    iops: float = 0.0
    outstanding: int = 1
    think_ms: float = 0.0  # closed mode only: think time Z between an I/O's completion and the next
    read_pct: float = 67.0
    io_kb: float = 8.0
    random_pct: float = 100.0
    read_hit_pct: float | None = None  # None: the platform's default cache hit ratio
    response_target_ms: float | None = None  # SLA used by the priority advisor


# ---------------------------------------------------------------- timeline events

@dataclass
class Event:
    """Something that happens at `start_h`. Subclasses register a `kind` for files and the UI."""

    id: str
    start_h: float

    kind: ClassVar[str] = ""
    label_text: ClassVar[str] = ""
    registry: ClassVar[dict[str, type["Event"]]] = {}

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.kind:
            Event.registry[cls.kind] = cls

    @property
    def is_operation(self) -> bool:
        """Operations have a priority and a duration the engine predicts."""
        return hasattr(self, "priority")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            d[f.name] = copy.deepcopy(getattr(self, f.name))
        return d

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Event":
        d = dict(d)
        kind = d.pop("kind", None)
        cls = Event.registry.get(kind or "")
        if cls is None:
            raise ValueError(f"unknown event kind {kind!r}")
        names = {f.name for f in fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise ValueError(f"event {d.get('id', '?')} ({kind}) has unknown fields: {', '.join(sorted(unknown))}")
        return cls(**d)


@dataclass
class LunMigration(Event):
    source_lun: int = 0
    dest_lun: int = 0
    priority: str = "High"
    kind: ClassVar[str] = "lun_migration"
    label_text: ClassVar[str] = "LUN migration"


@dataclass
class DriveFailure(Event):
    """A drive fails; the array rebuilds it to a hot spare (or to the replacement when there is
    none), at `priority`. Equalization follows a DriveReplacement of the same drive."""

    drive: str = ""
    priority: str = "High"
    kind: ClassVar[str] = "drive_failure"
    label_text: ClassVar[str] = "Drive failure"


@dataclass
class DriveReplacement(Event):
    drive: str = ""
    kind: ClassVar[str] = "drive_replacement"
    label_text: ClassVar[str] = "Drive replacement"


@dataclass
class Bind(Event):
    """Bind `lun`: zeroing (preparation), then background verify unless no_initial_verify."""

    lun: int = 0
    priority: str = "Medium"  # the verify priority (EMC release 28 default: Medium)
    no_initial_verify: bool = False
    kind: ClassVar[str] = "bind"
    label_text: ClassVar[str] = "Bind"


@dataclass
class VolumeMigration(Event):
    """Hitachi Tiered Storage Manager: move volumes (source LUN -> target LUN pairs).
    `parallel` runs them as one migration group; otherwise one after another."""

    moves: list[list[int]] = field(default_factory=list)  # [[source_lun, target_lun], ...]
    parallel: bool = True
    priority: str = "Normal"
    kind: ClassVar[str] = "volume_migration"
    label_text: ClassVar[str] = "Volume migration"


@dataclass
class Reallocate(Event):
    """NetApp WAFL: `reallocate measure`, then (unless measure_only) `reallocate start -f -p`."""

    lun: int = 0
    threshold: float = 4.0
    measure_only: bool = False
    priority: str = "Normal"
    kind: ClassVar[str] = "reallocate"
    label_text: ClassVar[str] = "WAFL reallocate"


@dataclass
class FeatureEnable(Event):
    feature: str = ""
    kind: ClassVar[str] = "feature_enable"
    label_text: ClassVar[str] = "Feature enable"


@dataclass
class WorkloadChange(Event):
    """From start_h on, the workload's fields take these values (e.g. {"iops": 0} = host idle)."""

    workload: str = ""
    changes: dict[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "workload_change"
    label_text: ClassVar[str] = "Workload change"


def describe_event(ev: Event, platform=None) -> str:
    """A short label for an event the engine has not reported yet (or a marker); a feature by
    its name on `platform`."""
    if isinstance(ev, LunMigration):
        return f"Migrate LUN {ev.source_lun} -> LUN {ev.dest_lun}"
    if isinstance(ev, DriveFailure):
        return f"Drive {ev.drive} fails"
    if isinstance(ev, DriveReplacement):
        return f"Replace drive {ev.drive}"
    if isinstance(ev, Bind):
        return f"Bind LUN {ev.lun}"
    if isinstance(ev, VolumeMigration):
        pairs = ", ".join(f"{a}->{b}" for a, b in ev.moves[:3]) + (" ..." if len(ev.moves) > 3 else "")
        return f"Volume migration {pairs}"
    if isinstance(ev, Reallocate):
        return f"Reallocate LUN {ev.lun}" + (" (measure)" if ev.measure_only else "")
    if isinstance(ev, FeatureEnable):
        spec = platform.features.get(ev.feature) if platform is not None else None
        return f"Enable {spec.name if spec else ev.feature}"
    if isinstance(ev, WorkloadChange):
        ch = ", ".join(f"{k}={v}" for k, v in ev.changes.items())
        return f"{ev.workload}: {ch}"
    return ev.label_text or ev.kind


@dataclass
class Scenario:
    """A plan: timeline events, and optionally a configuration of its own (`overlay`, an
    app.domain.overlay.Overlay of differences from the project's configuration; None: the
    scenario runs on the project's configuration)."""

    name: str
    events: list[Event] = field(default_factory=list)
    notes: str = ""
    overlay: "Overlay | None" = None

    def event(self, event_id: str) -> Event:
        for e in self.events:
            if e.id == event_id:
                return e
        raise KeyError(f"no event {event_id!r} in scenario {self.name!r}")

    def new_event_id(self, prefix: str = "op") -> str:
        used = {e.id for e in self.events}
        n = 1
        while f"{prefix}{n}" in used:
            n += 1
        return f"{prefix}{n}"


@dataclass
class ProjectInfo:
    title: str = "Untitled"
    customer: str = ""
    author: str = ""
    notes: str = ""


@dataclass
class Project:
    platform_id: str
    info: ProjectInfo = field(default_factory=ProjectInfo)
    enclosures: list[Enclosure] = field(default_factory=list)
    drives: dict[str, Drive] = field(default_factory=dict)  # by location
    groups: list[RaidGroup] = field(default_factory=list)
    luns: list[Lun] = field(default_factory=list)
    cache: dict[str, Any] = field(default_factory=dict)  # keys from Platform.cache_settings
    features: dict[str, bool] = field(default_factory=dict)  # enabled at the start of the plan
    workloads: list[Workload] = field(default_factory=list)
    scenarios: list[Scenario] = field(default_factory=lambda: [Scenario("Baseline")])
    current_scenario: str = "Baseline"
    baseline_scenario: str | None = None
    horizon_h: float | None = None  # simulate at least this long (None: until the last operation ends)
    # a copy of a non-built-in platform's TOML, so the file opens where that preset is missing
    platform_snapshot: str | None = None
    # measured interval data imported for calibration, with its object mapping (docs/measured-data.md)
    measured: MeasuredData | None = None
    # where the project's calibrated platform came from (None: the platform is not calibrated here)
    calibration: Calibration | None = None

    # ---- look-ups (raise KeyError with the object named, for validation and the CLI)
    def group(self, group_id: int) -> RaidGroup:
        for g in self.groups:
            if g.id == group_id:
                return g
        raise KeyError(f"RAID group {group_id} does not exist")

    def lun(self, lun_id: int) -> Lun:
        for l in self.luns:
            if l.id == lun_id:
                return l
        raise KeyError(f"LUN {lun_id} does not exist")

    def enclosure(self, enc_id: str) -> Enclosure:
        for e in self.enclosures:
            if e.id == enc_id:
                return e
        raise KeyError(f"enclosure {enc_id} does not exist")

    def workload(self, workload_id: str) -> Workload:
        for w in self.workloads:
            if w.id == workload_id:
                return w
        raise KeyError(f"workload {workload_id!r} does not exist")

    def scenario(self, name: str | None = None) -> Scenario:
        name = name or self.current_scenario
        for s in self.scenarios:
            if s.name == name:
                return s
        raise KeyError(f"scenario {name!r} does not exist")

    def luns_in_group(self, group_id: int) -> list[Lun]:
        return [l for l in self.luns if l.group_id == group_id]

    def group_of_drive(self, location: str) -> RaidGroup | None:
        for g in self.groups:
            if location in g.drives:
                return g
        return None

    def hot_spares(self) -> list[Drive]:
        return [d for d in self.drives.values() if d.hot_spare]

    def next_group_id(self) -> int:
        return max((g.id for g in self.groups), default=-1) + 1

    def next_lun_id(self) -> int:
        return max((l.id for l in self.luns), default=-1) + 1

    def clone(self) -> "Project":
        return copy.deepcopy(self)
