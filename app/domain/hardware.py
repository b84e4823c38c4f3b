"""Hardware catalog: platforms (arrays), drive types, enclosure types, and the values they carry.

These are read from presets/ by app.store.presets; nothing here knows about files. Every number
that the engine uses is a `Param`, which remembers the document and table it came from so that a
prediction can list its assumptions.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Iterator, Mapping

from .raid import RaidMath, RaidType


@dataclass(frozen=True)
class Param:
    """A number with its provenance ("emc Table 4", "assumption: ...")."""

    value: float
    source: str
    unit: str = ""
    path: str = ""  # dotted location in the preset, e.g. "rebuild.economical.High"

    def __float__(self) -> float:
        return float(self.value)


class Tables(Mapping[str, Any]):
    """A nested, read-only view of a preset's rate tables whose leaves are Params.

    `tables.param("rebuild.economical.High")` returns the Param; `tables.get_path(...)` returns
    the sub-table or leaf. Lists of tables (e.g. the rows of EMC Table 6) stay as lists of Tables.
    """

    def __init__(self, data: Mapping[str, Any], path: str = ""):
        self._data = dict(data)
        self._path = path

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"Tables({self._path or '<root>'}: {list(self._data)})"

    def get_path(self, dotted: str, default: Any = KeyError) -> Any:
        node: Any = self
        for part in dotted.split("."):
            if isinstance(node, Tables) and part in node._data:
                node = node._data[part]
            else:
                if default is KeyError:
                    where = f"{self._path}.{dotted}" if self._path else dotted
                    raise KeyError(f"preset has no value at {where!r}")
                return default
        return node

    def param(self, dotted: str) -> Param:
        leaf = self.get_path(dotted)
        if not isinstance(leaf, Param):
            raise KeyError(f"preset value at {dotted!r} is a table, not a number")
        return leaf

    def value(self, dotted: str, default: float | None = None) -> float:
        leaf = self.get_path(dotted, None)
        if leaf is None:
            if default is None:
                raise KeyError(f"preset has no value at {dotted!r}")
            return default
        return float(leaf.value) if isinstance(leaf, Param) else leaf

    def has(self, dotted: str) -> bool:
        return self.get_path(dotted, None) is not None

    def with_values(self, values: Mapping[str, float]) -> "Tables":
        """A copy with the Params at some dotted paths given new values (their source, unit and
        path kept); only the tables on those paths are copied. KeyError for a path that does not
        end at a Param (the uncertainty bands' samples: app/service/uncertainty.py)."""
        out = Tables(self._data, self._path)
        for dotted, value in values.items():
            parts = dotted.split(".")
            node = out
            for part in parts[:-1]:
                name, _, index = part.partition("[")  # "asap_by_group[0]": a row of a list of tables
                child = node._data.get(name)
                if index:
                    if not isinstance(child, list):
                        raise KeyError(f"preset has no list of tables at {dotted!r}")
                    rows = list(child)  # the list is copied too: the catalog's stays as it is
                    node._data[name] = rows
                    i = int(index.rstrip("]"))
                    if not (0 <= i < len(rows)) or not isinstance(rows[i], Tables):
                        raise KeyError(f"preset has no table at {dotted!r}")
                    rows[i] = Tables(rows[i]._data, rows[i]._path)
                    node = rows[i]
                    continue
                if not isinstance(child, Tables):
                    raise KeyError(f"preset has no table at {dotted!r}")
                child = Tables(child._data, child._path)
                node._data[name] = child
                node = child
            leaf = node._data.get(parts[-1])
            if not isinstance(leaf, Param):
                raise KeyError(f"preset value at {dotted!r} is not a number")
            node._data[parts[-1]] = replace(leaf, value=float(value))
        return out

    def walk(self) -> Iterator[Param]:
        """Every Param below this node (for the assumptions appendix)."""
        for v in self._data.values():
            if isinstance(v, Param):
                yield v
            elif isinstance(v, Tables):
                yield from v.walk()
            elif isinstance(v, list):
                for item in v:
                    if isinstance(item, Tables):
                        yield from item.walk()


class Interface(str, Enum):
    FC = "FC"
    SAS = "SAS"
    SATA = "SATA"
    SSD = "SSD"  # the 2010 presets' SAS-attached SSD (a current SSD names its bus: SAS, SATA, NVMe)
    SCSI = "SCSI"  # Ultra320, the HP Smart Array/MSA30 drives
    NVME = "NVMe"


# the share of reads in the mix an SSD's busy time per random I/O is taken at (its datasheet gives
# read and write IOPS separately; the engine has one service time per drive)
SSD_READ_MIX = 0.7


@dataclass(frozen=True)
class DriveType:
    id: str
    name: str
    interface: Interface
    rpm: int  # 0 for SSD
    capacity_gb: float
    seq_mb_s: float  # sustained streaming rate of one drive
    random_ms: float  # mean service time of one small random I/O (seek + rotation + transfer)
    mttf_h: float
    source: str = ""
    form_factor: str = ""  # bay size in inches ("2.5", "3.5"); "" = not stated (no check)
    # datasheet figures (0 = not published); the engine reads random_ms, seq_mb_s and, for an
    # SSD, the latency (response_ratio); the reliability figures read ure_bits and mttf_h
    seek_ms: float = 0.0  # average read seek (a spinning drive; random_ms is derived from it)
    seq_outer_mb_s: float = 0.0  # sustained transfer at the outer zone
    seq_inner_mb_s: float = 0.0  # ... and the inner zone (seq_mb_s: their mean when not given)
    read_iops: float = 0.0  # SSD random 4 KB read IOPS (steady state, high queue depth)
    write_iops: float = 0.0  # SSD random 4 KB write IOPS
    read_latency_ms: float = 0.0  # SSD typical 4 KB read latency at queue depth 1
    ure_bits: float = 0.0  # bits read per unrecoverable read error (1e15: "1 sector per 10^15 bits")
    afr_pct: float = 0.0  # annualized failure rate as published (mttf_h derived from it when absent)
    dwpd: float = 0.0  # SSD endurance: drive writes per day over the warranty
    # (key, P10, P90, range_source) of the numbers written with a range (app/domain/value_ranges.py
    # RANGED_FIELDS); the uncertainty bands sample them
    value_ranges: tuple[tuple[str, float, float, str], ...] = field(default=(), compare=False)

    @property
    def is_ssd(self) -> bool:
        """Flash media: no seek and no rotation (rpm 0); the interface is its bus."""
        return self.rpm == 0

    @property
    def response_ratio(self) -> float:
        """An I/O's response at light load over the drive's busy time per I/O. A spinning drive
        serves one I/O at a time (1). An SSD serves many at once: its busy time per I/O is
        1 / IOPS (its throughput), while one I/O still takes the published latency."""
        if self.is_ssd and self.read_latency_ms > 0 and self.random_ms > 0:
            return max(self.read_latency_ms / self.random_ms, 1.0)
        return 1.0

    @property
    def speed_class(self) -> str:
        """The documents' way of naming a drive: '15k FC', '7.2k SATA', 'SSD', 'NVMe SSD'."""
        if self.interface is Interface.SSD:
            return "SSD"
        if self.is_ssd:
            return f"{self.interface.value} SSD"
        rpm = f"{self.rpm / 1000:g}k"
        return f"{rpm} {self.interface.value}"


def hdd_random_ms(seek_ms: float, rpm: int, seq_mb_s: float, io_kb: float = 8.0) -> float:
    """A spinning drive's mean small random I/O: average seek, half a revolution, the transfer."""
    return seek_ms + 30000.0 / rpm + io_kb / 1024.0 / seq_mb_s * 1000.0


# Seek time against distance, Ruemmler & Wilkes, "An introduction to disk drive modeling" (IEEE
# Computer 27(3), 1994), HP 97560: 3.24 + 0.400 sqrt(d) ms below 383 cylinders, 8.00 + 0.008 d
# beyond, of 1962. As a fraction x of the full stroke: the short seeks' a + b sqrt(x) (arm
# acceleration, settle) and the long seeks' coast, c + e x. Only its shape is used: a drive's
# own average seek scales it (short_seek_ms).
_SEEK_SHORT_A, _SEEK_SHORT_B = 3.24, 0.400 * 1962 ** 0.5
_SEEK_LONG_C, _SEEK_LONG_E = 8.00, 0.008 * 1962
_SEEK_KNEE = 383 / 1962


def _seek_curve(x: float) -> float:
    return _SEEK_SHORT_A + _SEEK_SHORT_B * x ** 0.5 if x < _SEEK_KNEE else _SEEK_LONG_C + _SEEK_LONG_E * x


def _mean_seek_over_span(f: float, queue: float = 1.0, steps: int = 400) -> float:
    """The curve's mean seek over a span f of the stroke (midpoint rule). One I/O at a time
    (queue 1) seeks between two random positions: a distance x in [0, f] of density
    2 (f - x) / f^2. With `queue` I/Os waiting, an elevator (SCAN) serves them in order of
    position: each seek spans the gap to the next of queue + 1 random positions, density
    (queue + 1) (1 - x / f)^queue / f (the spacing of n uniform points is Beta(1, n); queue 1
    gives the pair's density again)."""
    h = f / steps
    n = queue + 1.0
    total = 0.0
    for i in range(steps):
        x = (i + 0.5) * h
        total += _seek_curve(x) * n * (1.0 - x / f) ** queue / f * h
    return total


_FULL_STROKE_MEAN = _mean_seek_over_span(1.0)


@functools.lru_cache(maxsize=4096)
def seek_span_ratio(span: float, queue: float = 1.0) -> float:
    """The seek curve's mean over random positions in the first `span` of the stroke, with
    `queue` I/Os waiting at the drive (1: none reordered), over its mean over the whole stroke
    one at a time (1 at span 1, queue 1; the layouts of a plan repeat a few spans)."""
    queue = max(queue, 1.0)
    if span >= 1.0 and queue == 1.0:
        return 1.0
    # a LUN of a few MB: the settle time, not zero
    return _mean_seek_over_span(min(max(span, 1e-4), 1.0), queue) / _FULL_STROKE_MEAN


def reordered_seek_share(span: float, queue: float) -> float:
    """The share of a drive's seek (at this span, one I/O at a time) left when `queue` I/Os wait
    and the drive serves them in order of position (elevator): 1 at a queue of 1 or less; at
    the whole stroke 0.69 with 6 waiting, 0.54 with 16."""
    if queue <= 1.0:
        return 1.0
    return seek_span_ratio(span, round(queue, 2)) / seek_span_ratio(span, 1.0)


def short_seek_ms(avg_seek_ms: float, span: float) -> float:
    """A drive's mean seek when its random I/Os fall on a fraction `span` (0-1] of its stroke:
    the catalog's average seek (random positions over the whole stroke) times the seek curve's
    mean over that span relative to its mean over the whole stroke. A 20 GB LUN spread over
    the data disks of 144 GB drives (span 0.035) seeks 0.40 x as long; span 1 gives the average."""
    if avg_seek_ms <= 0.0:
        return avg_seek_ms
    return avg_seek_ms * seek_span_ratio(span)


def ssd_random_ms(read_iops: float, write_iops: float, read_share: float = SSD_READ_MIX) -> float:
    """An SSD's busy time per small random I/O (ms) at a read/write mix: the time one I/O takes
    of its rated throughput, 1/IOPS, weighted by the mix (a 70/30 mix: SSD_READ_MIX)."""
    w = write_iops if write_iops > 0 else read_iops
    return 1000.0 * (read_share / read_iops + (1.0 - read_share) / w)


@dataclass(frozen=True)
class EnclosureType:
    id: str
    name: str
    slots: int
    interfaces: tuple[Interface, ...]  # drive interfaces it accepts
    source: str = ""
    form_factor: str = ""  # size of its slots in inches ("2.5", "3.5"); "" = not stated (no check)

    def size_problem(self, drive: DriveType) -> str | None:
        """Why `drive` does not fit the slots by size (None: it does, or a size is not stated)."""
        if self.form_factor and drive.form_factor and drive.form_factor != self.form_factor:
            return f'{self.name} takes {self.form_factor}" drives, not {drive.form_factor}"'
        return None


@dataclass(frozen=True)
class ControllerSpec:
    name: str  # "SP A", "Controller 0"
    cores: int


@dataclass(frozen=True)
class SettingSpec:
    """One cache/LUN setting in the platform's own terms; drives the GUI's property editors.

    kind: "int", "float", "bool" or "choice". Validation checks values against min/max/choices.
    """

    key: str
    label: str
    kind: str
    default: Any
    unit: str = ""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    help: str = ""
    source: str = ""
    # what the GUI shows for each choice, in step with `choices` (empty: the value and its unit)
    choice_labels: tuple[str, ...] = ()
    # a cache setting the platform is sold in sizes of (`sizes = [...]` in the preset): goal
    # seeking tries each (app/service/goal_seek.py), priced by the price list's [cache] table
    sizes: tuple[float, ...] = ()

    def check(self, value: Any) -> str | None:
        """None if `value` is acceptable, else a sentence saying why not."""
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"{self.label} must be on or off"
        if self.kind == "choice":
            return None if value in self.choices else (
                f"{self.label} must be one of {', '.join(map(str, self.choices))}")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return f"{self.label} must be a number"
        try:
            finite = math.isfinite(value)  # before int(): NaN/inf would raise; NaN passes < and >
        except OverflowError:  # an int too large for a float
            return f"{self.label}: the number is too large"
        if not finite:
            return f"{self.label}: expected a finite number, got {value}"
        if self.kind == "int" and int(value) != value:
            return f"{self.label} must be a whole number"
        if self.minimum is not None and value < self.minimum:
            return f"{self.label} {value:g} {self.unit} is below the minimum {self.minimum:g} {self.unit}".replace("  ", " ").rstrip()
        if self.maximum is not None and value > self.maximum:
            return f"{self.label} {value:g} {self.unit} is above the maximum {self.maximum:g} {self.unit}".replace("  ", " ").rstrip()
        return None


@dataclass(frozen=True)
class RaidRule:
    """Widths a platform allows for one RAID type."""

    raid: RaidType
    min_width: int
    max_width: int
    even_only: bool = False
    widths: tuple[int, ...] = ()  # when only specific widths are allowed (CLARiiON R3: 5 or 9)
    interfaces: tuple[Interface, ...] = ()  # empty = any
    # RAID 50/60 drives per span, distributed drives per stripe: what a new group starts from
    # (0: RaidMath's default) and the only values the product offers (empty: any that fits)
    default_stripe: int = 0
    stripes: tuple[int, ...] = ()

    def stripe_fits(self, stripe: int, width: int) -> bool:
        """A span that splits `width` drives into two or more; a distributed stripe that leaves
        room for the group's spare capacity."""
        if self.raid.spanned:
            return width % stripe == 0 and width // stripe >= 2
        return stripe + RaidMath(self.raid, width, stripe).spare_drives <= width

    def stripe_for(self, width: int) -> int:
        """The stripe a new group of `width` drives gets: the platform's default when it fits,
        else the widest other stripe the product offers that fits, else 0 (RaidMath's default
        geometry)."""
        if not self.default_stripe or not (self.raid.spanned or self.raid.distributed):
            return 0
        for s in (self.default_stripe, *sorted(self.stripes, reverse=True)):
            if self.stripe_fits(s, width):
                return s
        return 0

    def allows_width(self, width: int) -> bool:
        if self.widths:
            return width in self.widths
        if self.even_only and width % 2:
            return False
        return self.min_width <= width <= self.max_width

    def describe(self) -> str:
        if self.widths:
            return f"{self.raid.label} takes {' or '.join(map(str, self.widths))} drives"
        even = " (an even number)" if self.even_only else ""
        return f"{self.raid.label} takes {self.min_width} to {self.max_width} drives{even}"


@dataclass(frozen=True)
class FeatureSpec:
    id: str
    name: str
    description: str
    reboot_minutes: float = 0.0  # enabling reboots the controllers for this long
    source: str = ""


@dataclass(frozen=True)
class CapacitySpec:
    """What a platform's drives give after formatting, and the room the system takes
    (the preset's [capacity] table; every default means "not given": nominal, no vault)."""

    formatted_factor: float = 1.0  # formatted GB (as the array reports them) per nominal GB
    vault_drives: tuple[str, ...] = ()  # locations of the drives holding the system area
    vault_reserved_gb: float = 0.0  # formatted GB taken on each of them
    cache_memory_mb: float = 0.0  # read + write cache memory per controller; 0: not checked
    enclosure_rack_units: float = 0.0
    controller_rack_units: float = 0.0
    source: str = ""


@dataclass(frozen=True)
class OperationSpec:
    """Which priorities an operation kind offers on a platform, and its default."""

    kind: str
    priorities: tuple[str, ...]
    default: str
    source: str = ""


DEFAULT_GROUP_NOUN = "RAID group"  # a platform's group_noun when its preset names none


@dataclass(frozen=True)
class Platform:
    id: str
    name: str
    vendor: str
    family: str  # "clariion", "smartarray", "usp", "md32xx", "ontap", or a user's own
    firmware: str
    source: str
    controllers: tuple[ControllerSpec, ...]
    buses: int
    bus_mb_s: float
    max_enclosures_per_bus: int
    enclosure_types: Mapping[str, EnclosureType]
    drive_types: tuple[str, ...]  # catalog ids this platform accepts
    host_ports_per_controller: int
    host_port_mb_s: float
    cache_settings: Mapping[str, SettingSpec]
    lun_settings: Mapping[str, SettingSpec]
    raid_rules: Mapping[RaidType, RaidRule]
    features: Mapping[str, FeatureSpec]
    operations: Mapping[str, OperationSpec]
    rates: Tables  # the engine's tables (presets/rates/*.toml, merged with the platform's overrides)
    description: str = ""
    builtin: bool = True
    max_drives: int = 0  # drives the array can address in total (Dell: 96); 0 = no limit beyond the slots
    capacity: CapacitySpec = CapacitySpec()  # formatted capacity, vault, cache memory, rack units
    # what the vendor's tools and documents call a RAID group ("Disk Group" on a Dell MD, "Aggregate"
    # on a NetApp filer): the GUI names groups with it, so that it reads as the array's own manager
    group_noun: str = DEFAULT_GROUP_NOUN
    # the parsed preset documents this platform came from (for the snapshot a project file carries
    # when the platform is not built in); not part of equality
    document: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    rates_document: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # where the preset came from (file name, for messages) and what checking it found that does not
    # stop it loading (app.domain.rate_keys.PresetIssue: missing rates, unknown drive ids ...);
    # validation reports them
    origin: str = field(default="", compare=False)
    preset_issues: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    # ("back_end.bus_mb_s", P10, P90, range_source) of the hardware numbers written with a range
    # (app/domain/value_ranges.py RANGED_FIELDS); the uncertainty bands sample them
    value_ranges: tuple[tuple[str, float, float, str], ...] = field(default=(), compare=False)

    def controller_names(self) -> list[str]:
        return [c.name for c in self.controllers]

    def default_cache(self) -> dict[str, Any]:
        return {k: s.default for k, s in self.cache_settings.items()}

    def default_lun_settings(self) -> dict[str, Any]:
        return {k: s.default for k, s in self.lun_settings.items()}

    def priorities(self, kind: str) -> tuple[str, ...]:
        spec = self.operations.get(kind)
        return spec.priorities if spec else ()

    def group_title(self, group_id: int, name: str = "") -> str:
        """A group as the GUI names it: "Disk Group 3" (a named one: its name)."""
        return name or f"{self.group_noun} {group_id}"



def group_noun(platform: "Platform | None", *, plural: bool = False, in_sentence: bool = False) -> str:
    """The platform's word for a RAID group ("Disk Group", "Aggregate"; "RAID group" without a
    platform). `in_sentence`: lower case but for acronyms ("disk group", "RAID group");
    `plural`: with an s ("Disk Groups")."""
    noun = platform.group_noun if platform is not None else DEFAULT_GROUP_NOUN
    if in_sentence:
        noun = " ".join(w if w.isupper() else w.lower() for w in noun.split())
    return noun + "s" if plural else noun


def group_title(platform: "Platform | None", group_id: int, name: str = "") -> str:
    """A group as the GUI names it, with or without a platform: "Disk Group 3", "RAID group 3"."""
    return name or f"{group_noun(platform)} {group_id}"


@dataclass(frozen=True)
class Catalog:
    """Everything the presets offer: platforms and the drive catalog."""

    platforms: Mapping[str, Platform]
    drives: Mapping[str, DriveType]
    problems: tuple[str, ...] = field(default=())  # user preset files that failed to load
    # why a user preset entry was not loaded, by what it would have defined ("platform <id>",
    # "drive <id>"): validation names the reason where a project refers to it
    refused: Mapping[str, str] = field(default_factory=dict)

    def platform(self, platform_id: str) -> Platform:
        try:
            return self.platforms[platform_id]
        except KeyError:
            known = ", ".join(sorted(self.platforms))
            raise KeyError(f"unknown platform {platform_id!r} (known: {known})") from None

    def drive(self, drive_id: str) -> DriveType:
        try:
            return self.drives[drive_id]
        except KeyError:
            raise KeyError(f"unknown drive type {drive_id!r}") from None
