"""The registry of every preset key the engine reads: rate-table keys and platform/drive fields.

One entry per key (or per family of keys: a path segment written `<A|B>` stands for each of the
alternatives, `<raid>` in a keyed table's members for each RAID level). Each entry says what the value
is (type, unit, valid range), which model or operation reads it, and when it is required; the
preset loader (app.store.presets) refuses values outside the range, `check_rates` tells a
platform which required keys its rate tables lack, and docs/presets.md lists every entry
(tests/test_custom_platforms.py keeps the two in step).

Other parts of the model register their own keys with one call each, e.g.

    register(RateKey("rebuild.engine_mb_s", unit="MB/s", lo=0, hi=1e5, lo_open=True,
                     used_by="drive_failure", default="no engine cap", doc="..."))

Top-level tables owned elsewhere (`policy` - app.domain.policies, `envelope` - app.domain.envelope,
`fit` - app.cli.calibration) are left to their owners: `check_values` reads nothing in them. Only
what the engine needs of the policies beyond their owner's checks is `check_rates`' (an offered
operation's [policy.<op>] table, a table per level, a kind the operation models, the bind rates
below zeroing, a higher level never capped below a lower one).

Pure: no I/O, no Qt, no engine import (the engine's reads are listed here by hand; the test
compares this list with the engine's source).
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping

from .value_ranges import range_problems

# Top-level tables of a rates preset that other parts of the program own and check.
RESERVED_TABLES = ("policy", "envelope", "fit")
# Keys of a table that describe it rather than hold a value (app.store.presets._sourced).
META_KEYS = ("source", "unit", "note")
# The operation kinds a platform's [operations.<kind>] may offer (app.domain.project's events).
OPERATION_KINDS = ("lun_migration", "drive_failure", "bind", "volume_migration", "reallocate")
MIRROR_RAID = ("R1", "R1/0")


# ---------------------------------------------------------------- what a platform needs

@dataclass(frozen=True)
class PlatformFacts:
    """What decides which rate keys a platform needs: its operations and priorities, RAID levels,
    drive interfaces, the family the rates were calibrated on (their `family`), and which
    optional models the tables switch on."""

    rates_family: str = ""
    family: str = ""
    operations: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # kind -> priorities
    raid: frozenset[str] = frozenset()  # RaidType values the platform allows
    interfaces: frozenset[str] = frozenset()  # of its (known) drive types
    features: frozenset[str] = frozenset()
    present: Callable[[str], bool] = lambda path: False  # is there a value at this rates path

    def offers(self, kind: str) -> bool:
        return kind in self.operations

    @property
    def mirror(self) -> bool:
        return any(r in MIRROR_RAID for r in self.raid)

    def bind_key(self, key: str) -> bool:
        """The engine's bind rows: SATA drives read the SATA row, every other interface the FC one."""
        if key == "SATA":
            return "SATA" in self.interfaces
        return any(i != "SATA" for i in self.interfaces)


@dataclass(frozen=True)
class Need:
    """When a key is required: `text` for the documentation, `fn(facts, concrete_path)`."""

    text: str
    fn: Callable[[PlatformFacts, str], bool]

    def __call__(self, facts: PlatformFacts, path: str) -> bool:
        return self.fn(facts, path)


ALWAYS = Need("in every simulation", lambda f, p: True)
OPTIONAL = Need("optional", lambda f, p: False)
UNUSED = Need("not read by the engine (kept for reference)", lambda f, p: False)


def when_offered(kind: str, extra: str = "", test: Callable[[PlatformFacts, str], bool] | None = None) -> Need:
    text = f"when the platform offers {kind}" + (f" {extra}" if extra else "")
    return Need(text, lambda f, p: f.offers(kind) and (test is None or test(f, p)))


# [policy.<op kind>] tables (app.domain.policies checks them; app.engine.policy reads them) hold
# each priority level's throttle policy. Which operations the engine can still predict without
# one: a rebuild runs on the generic model (each level a duty cycle of the full-speed rate, the
# `generic-model` advisory); the others need their table when their rates calibrate them (check
# says so), and without any of their keys run on the generic model (app/engine/op_generic.py,
# `calibrated`), though every operation takes every policy kind (app/engine/op_policy.py).
POLICY_KIND = {"lun_migration": "migration", "drive_failure": "rebuild", "bind": "bind",
               "volume_migration": "volume_migration", "reallocate": "reallocate"}
GENERIC_POLICY = frozenset({"drive_failure"})  # the operations the generic duty-cycle policy serves


def with_key(other: str) -> Need:
    return Need(f"when {other} is given", lambda f, p: f.present(other))


def with_keys(*others: str) -> Need:
    return Need(f"when {' or '.join(others)} is given", lambda f, p: any(f.present(o) for o in others))


def _seg(path: str, i: int) -> str:
    parts = path.split(".")
    return parts[i] if i < len(parts) else ""


# ---------------------------------------------------------------- the registry

@dataclass(frozen=True)
class RateKey:
    """One key (or family of keys) of a rate table.

    kind: "number"; "bool"; "text" (with `choices`); "keyed" (a table of numbers by
    RAID level or tier, read with a fallback to the nearest member: `members` names them, and
    "<raid>" means the RAID levels); "rows" (an array of tables: `columns`).
    lo/hi: the valid range (inclusive; lo_open: lo itself is refused)."""

    path: str
    kind: str = "number"
    unit: str = ""
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    used_by: str = "host"
    need: Need = OPTIONAL
    default: str = ""  # what the engine does without it (optional keys)
    doc: str = ""
    choices: tuple[str, ...] = ()
    members: tuple[str, ...] = ()  # keyed: the members the engine asks for
    columns: tuple[tuple[str, Need], ...] = ()  # rows: each column and when it is needed

    def concrete(self) -> list[str]:
        """The paths this entry stands for (`<A|B>` expanded; a wildcard segment stays `<...>`)."""
        out = [""]
        for part in self.path.split("."):
            if part.startswith("<") and part.endswith(">") and "|" in part:
                alts = part[1:-1].split("|")
                out = [f"{o}.{a}" if o else a for o in out for a in alts]
            else:
                out = [f"{o}.{part}" if o else part for o in out]
        return out

    def matches(self, path: str) -> bool:
        want, have = self.path.split("."), path.split(".")
        if len(want) != len(have):
            return False
        for w, h in zip(want, have):
            if w.startswith("<") and w.endswith(">"):
                alts = w[1:-1].split("|")
                if "|" in w and h not in alts:
                    return False
            elif w != h:
                return False
        return True

    def range_text(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "text":
            return " | ".join(self.choices) if self.choices else "text"
        lo, hi = self.lo, self.hi
        unit = f" {self.unit}" if self.unit else ""
        if lo is None and hi is None:
            return "any number"
        if hi is None:
            return f"{'>' if self.lo_open else '>='} {_g(lo)}{unit}"
        if lo is None:
            return f"<= {_g(hi)}{unit}"
        left = f"more than {_g(lo)}" if self.lo_open else _g(lo)
        return f"{left} to {_g(hi)}{unit}"

    def check_value(self, value: Any) -> str | None:
        """None when `value` is acceptable here, else why not (with the valid range)."""
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
        if self.kind == "text":
            if not isinstance(value, str):
                return f"must be text, not {value!r}"
            if self.choices and value not in self.choices:
                return f"{value!r} is not one of {', '.join(self.choices)}"
            return None
        return check_number(value, self.lo, self.hi, self.lo_open, self.unit)


def _g(x: float | None) -> str:
    if x is None:
        return ""
    return f"{x:,.0f}" if x == int(x) and abs(x) >= 10000 else f"{x:g}"


def check_number(value: Any, lo: float | None, hi: float | None, lo_open: bool = False, unit: str = "",
                 integer: bool = False) -> str | None:
    """None when value is a finite number in range, else a sentence with the valid range."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"must be a number, not {value!r}"
    if not _finite(value):
        return f"must be a finite number, not {value!r}" if isinstance(value, float) else "is too large"
    if integer and int(value) != value:
        return f"must be a whole number, not {value!r}"
    low_bad = lo is not None and (value <= lo if lo_open else value < lo)
    if low_bad or (hi is not None and value > hi):
        span = RateKey("", lo=lo, hi=hi, lo_open=lo_open, unit=unit).range_text()
        return f"{_g(value)} is out of range (valid: {span})"
    return None


RATE_KEYS: list[RateKey] = []


def register(*keys: RateKey) -> None:
    """Add entries (another part of the model registering the keys it reads)."""
    for k in keys:
        if any(k.path == old.path for old in RATE_KEYS):
            raise ValueError(f"rate key {k.path!r} is registered twice")
        RATE_KEYS.append(k)


def lookup(path: str) -> RateKey | None:
    """The entry a concrete path (e.g. "bind.rate.FC.High", "rebuild.asap_by_group") falls under."""
    for k in RATE_KEYS:
        if k.matches(path):
            return k
    for k in RATE_KEYS:  # a member of a keyed table
        if k.kind == "keyed" and k.matches(path.rsplit(".", 1)[0]):
            return k
    return None


MBS = "MB/s"
PCT = "%"
PCT_PER_MBS = "% per MB/s"
_FAST = 100_000.0  # MB/s: beyond any array of the era by two orders of magnitude (absurd = a typo)

# ---- host I/O path (app/engine/sim_state.py and the host model, host_*.py; docs/model.md 2-3)
_PEN_LEVELS = "<R0|R1|R1/0|R3|R5|R6|RAID-DP>"
register(
    RateKey("host.max_util", lo=0.0, hi=1.0, lo_open=True, need=ALWAYS,
            doc="busiest a drive may get under ASAP-class operations; the queueing stretch is capped there"),
    RateKey("host.cpu_us_per_io", unit="us", lo=0.0, hi=100_000.0, need=ALWAYS,
            doc="controller CPU time per host I/O"),
    RateKey("host.sp_latency_ms", unit="ms", lo=0.0, hi=10_000.0, need=ALWAYS,
            doc="controller path time, stretched by the owning controller's CPU utilization"),
    RateKey("host.read_hit_pct", unit=PCT, lo=0.0, hi=100.0, need=ALWAYS,
            doc="read cache hit ratio for workloads that do not give their own, where no cache size and "
                "hit curve give one"),
    RateKey("host.working_set_pct", unit=PCT, lo=0.0, hi=100.0, lo_open=True,
            need=with_key("host.read_hit_exponent"),
            default="the hit ratio is host.read_hit_pct whatever the cache size",
            doc="working set as a share of a workload's LUN capacity: read hit = min(1, read cache / working "
                "set) ^ read_hit_exponent (used with read_hit_exponent, and only where a read cache size is known)"),
    RateKey("host.read_hit_exponent", lo=0.0, hi=10.0, lo_open=True, need=with_key("host.working_set_pct"),
            default="the hit ratio is host.read_hit_pct whatever the cache size",
            doc="exponent of the read hit curve (1: uniform random access; below 1: access skewed to a hot part)"),
    RateKey("host.cache_hit_ms", unit="ms", lo=0.0, hi=1000.0, need=ALWAYS,
            doc="service time of a read hit or a cached write"),
    RateKey("host.degraded_read_factor", lo=1.0, hi=100.0, need=ALWAYS,
            doc="a read of a failed drive's data costs this many reads of the survivors"),
    RateKey("host.random_overhead_ms", unit="ms", lo=0.0, hi=10_000.0, default="0 ms",
            doc="time per random I/O beyond the drive (controller, bus, host round trip)"),
    RateKey("host.seq_read_ms_per_64k", unit="ms", lo=0.0, hi=10_000.0,
            default="sequential reads cost drive streaming time only",
            doc="controller and bus time per 64 KB sequential read"),
    RateKey("host.degraded_seq_factor", lo=0.0, hi=1.0, lo_open=True,
            default="degraded sequential reads are costed like random ones",
            doc="degraded / normal sequential read throughput"),
    RateKey(f"host.write_penalty.{_PEN_LEVELS}", lo=1.0, hi=20.0, unit="back-end I/Os per write",
            default="app/domain/raid.py: R0 1, R1 and R1/0 2, R3 and R5 4, R6 and RAID-DP 6",
            doc="back-end I/Os per small random host write on a group of that RAID level; the host model "
                "and a LUN migration's partial-stripe writes onto such a group read it (app/engine/write_cost.py; "
                "full-stripe writes cost width/data whatever it is)"),
    RateKey("fragmentation.k", lo=0.0, hi=10.0, default="layout does not slow sequential reads",
            doc="sequential read slow-down per step of the WAFL optimization level above 1"),
    RateKey("fragmentation.random_sensitivity", lo=0.0, hi=10.0, need=UNUSED,
            doc="random read slow-down per optimization step (netapp: none)"),
    RateKey("family", kind="text", used_by="check",
            default="no borrowed-rates check",
            doc="the array family the tables were calibrated on; `check` warns `borrowed-rates` when a platform "
                "of another family uses them (the engine does not read it)"),
)

# ---- cache sizes and forced flushes (app/engine/sim_state.py _cache_sizes; op_migration.py Migration)
register(
    RateKey("cache.read_cache_mb", unit="MB", lo=0.0, hi=10_000_000.0, used_by="host",
            default="no size: the read hit ratio is host.read_hit_pct",
            doc="read cache per controller, where the platform's cache settings give no size"),
    RateKey("cache.write_cache_mb", unit="MB", lo=0.0, hi=10_000_000.0, used_by="write cache",
            default="no size: writes are cached without a fill model",
            doc="write cache per controller, where the platform's cache settings give no size (0: write-through)"),
    RateKey("cache.total_mb", unit="MB", lo=0.0, hi=10_000_000.0, lo_open=True, used_by="host",
            default="the accelerator has no size (as without read_cache_mb / write_cache_mb)",
            doc="array accelerator size, split into read and write cache by the platform's accelerator_read_pct "
                "cache setting (Smart Array)"),
    RateKey("cache.forced_flush_write_ms", unit="ms", lo=0.0, hi=100_000.0, used_by="write cache",
            default="no forced-flush model",
            doc="write response time while the controller is in forced flush"),
    RateKey("cache.forced_flush_at_pct", unit=PCT, lo=0.0, hi=100.0, lo_open=True, used_by="write cache",
            need=with_key("cache.forced_flush_write_ms"), doc="write cache fill that starts forced flushes"),
    RateKey("cache.forced_flush_cpu_pct", unit=PCT, lo=0.0, hi=100.0, used_by="write cache",
            need=with_key("cache.forced_flush_write_ms"), doc="CPU added on the owning core during forced flushes"),
)

# ---- LUN migration (app/engine/op_migration.py Migration; the copy's rate is [policy.migration])
_MIG = "lun_migration"
register(
    RateKey("migration.expansion.parity", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_MIG,
            need=when_offered(_MIG), doc="ASAP expansion (initialization) rate of a parity destination; with "
                                         "parity_write_aside_511 it also prices the throttled expansion"),
    RateKey("migration.expansion.mirror", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_MIG,
            need=when_offered(_MIG, "with mirrored RAID", lambda f, p: f.mirror),
            doc="ASAP expansion rate of a mirrored destination"),
    RateKey("migration.expansion.parity_write_aside_511", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_MIG,
            need=when_offered(_MIG), doc="expansion rate when the writes bypass the write cache (write-aside 511, "
                                         "no write cache, or a throttled expansion)"),
    RateKey("migration.expansion.economical_overlaps_copy", kind="bool", used_by=_MIG,
            default="false: the expansion follows the copy",
            doc="below ASAP the expansion runs alongside the throttled copy"),
    RateKey("migration.cpu.copy", unit=PCT_PER_MBS, lo=0.0, hi=100.0, used_by=_MIG, need=when_offered(_MIG),
            doc="CPU of the owner's core 0 per MB/s copied"),
    RateKey("migration.cpu.expansion", unit=PCT_PER_MBS, lo=0.0, hi=100.0, used_by=_MIG, need=when_offered(_MIG),
            doc="CPU per MB/s of expansion"),
    RateKey("migration.disk.copy_read", lo=0.0, hi=100.0, lo_open=True, used_by=_MIG, need=when_offered(_MIG),
            doc="source drive time per MB copied, in multiples of the drive's streaming time"),
    RateKey("migration.disk.copy_write", lo=0.0, hi=100.0, lo_open=True, used_by=_MIG, need=when_offered(_MIG),
            doc="destination drive time per MB copied, in multiples of the streaming time"),
    RateKey("migration.disk.expansion_util_at_asap", lo=0.0, hi=1.0, lo_open=True, used_by=_MIG,
            need=when_offered(_MIG), doc="destination drive utilization during the ASAP expansion"),
)

# ---- rebuild and equalization (app/engine/op_rebuild.py Rebuild, op_rebuild_plan.py; rebuild_model.py): the
# work follows from the geometry, the rate from [policy.rebuild] (or the generic duty cycle); every
# key here is optional
_RB = "drive_failure"
register(
    RateKey("rebuild.io.kb", unit="KB", lo=0.0, hi=1_048_576.0, lo_open=True, used_by=_RB,
            default="1024 KB",
            doc="size of one rebuild read per drive: each stripe row waits for the slowest of the k survivors' "
                "rotations, k/(k+1) of a revolution (a single streaming drive waits for none)"),
    RateKey("rebuild.io.idle_streaming", kind="bool", used_by=_RB, default="false (rows in lockstep always)",
            doc="true: while its drives carry no other I/O the rebuild keeps many reads outstanding on each "
                "member, so each survivor streams on its own (no row wait); with other I/O on them it reads "
                "the rows in lockstep (Linux md: resync throttles to one I/O at a time then)"),
    RateKey("rebuild.scope", kind="text", choices=("allocated", "whole_drive"), used_by=_RB,
            default="allocated (the LUNs' share of each member)",
            doc="what a rebuild restores: allocated = the group's allocated fraction of a member; "
                "whole_drive = the whole member device (Linux md without a write-intent bitmap)"),
    RateKey("rebuild.engine_mb_s", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_RB,
            default="no engine cap (drives, buses and CPU limit the rebuild)",
            doc="the controller's rebuild-engine cap per rebuild"),
    RateKey("rebuild.distributed.critical_first", lo=0.0, hi=1.0, used_by=_RB, default="0 (no)",
            doc="1: a distributed group (DDP) with two drives down rebuilds the stripes that lost a piece on both "
                "first, at the highest priority; a third failure after that loses no data"),
    RateKey("rebuild.disk.survivor_read", lo=0.0, hi=100.0, lo_open=True, used_by=_RB, default="1",
            doc="survivor drive time per MB rebuilt, in multiples of the read cost from the geometry"),
    RateKey("rebuild.disk.spare_write", lo=0.0, hi=100.0, lo_open=True, used_by=_RB, default="1",
            doc="target drive time per MB rebuilt, in multiples of the write cost from the geometry"),
    RateKey("rebuild.cpu.parity", unit=PCT_PER_MBS, lo=0.0, hi=100.0, used_by=_RB, default="no CPU charged",
            doc="controller CPU per MB/s of parity rebuild (the XOR)"),
    RateKey("rebuild.cpu.mirror", unit=PCT_PER_MBS, lo=0.0, hi=100.0, used_by=_RB, default="no CPU charged",
            doc="CPU per MB/s of mirror rebuild"),
    RateKey("rebuild.cpu.equalization", unit=PCT_PER_MBS, lo=0.0, hi=100.0, used_by=_RB, default="no CPU charged",
            doc="CPU per MB/s of equalization (spare -> replacement copy)"),
    # a platform's measured full-speed (idle-array) rates: they cap a rebuild whose policy is `asap`
    RateKey("rebuild.asap.equalization", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_RB,
            default="the equalization's full speed comes from the geometry alone",
            doc="measured full-speed equalization rate (caps an asap equalization)"),
    RateKey("rebuild.asap.mirror", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_RB,
            default="a mirror rebuild's full speed comes from the geometry alone",
            doc="measured full-speed mirror rebuild rate (caps an asap mirror rebuild)"),
    RateKey("rebuild.asap.parity", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_RB, need=UNUSED,
            doc="full-speed parity rebuild rate of the smallest group (the engine reads rebuild.asap_by_group)"),
    RateKey("rebuild.asap_by_group", kind="rows", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_RB,
            need=with_key("rebuild.asap_by_group"),
            default="a parity rebuild's full speed comes from the geometry alone",
            columns=(("data_disks", ALWAYS),
                     ("r5_low", OPTIONAL), ("r5_high", OPTIONAL), ("r6_low", OPTIONAL), ("r6_high", OPTIONAL)),
            doc="measured full-speed parity rebuild rate by data disks (caps an asap parity rebuild; interpolated "
                "by width as MB/s x drives; _low: the group on one bus, _high: on several; r6 never above r5; "
                "data_disks in every row, a missing column is not used)"),
    RateKey("rebuild.drive_time_factor.<SATA|fc10k|SAS>", lo=0.0, hi=100.0, lo_open=True, used_by=_RB,
            default="1 (rebuilds like 15k FC)", doc="measured full-speed rebuild time multiplier for slower drive classes"),
    RateKey("rebuild.equalization_divisor.<SATA|fc10k|SAS>", lo=0.0, hi=100.0, lo_open=True, used_by=_RB,
            default="1", doc="measured full-speed equalization rate divisor for slower drive classes"),
)

# ---- bind: zeroing + background verify (app/engine/op_bind.py BindOp; the bind's average rate per
# level is [policy.bind.<Level>] mb_s / sata_mb_s)
_BD = "bind"
_bind_iface = when_offered(_BD, "with drives that use the row (SATA: SATA drives; FC: every other interface)",
                           lambda f, p: f.bind_key(_seg(p, 2)))
register(
    RateKey("bind.zeroing.<FC|SATA>", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_BD,
            need=Need(_bind_iface.text, lambda f, p: f.offers(_BD) and f.bind_key(_seg(p, 2))),
            doc="zeroing (preparation) rate; every level's bind rate must be below it"),
    RateKey("bind.cpu.verify_pct_at_asap", unit=PCT, lo=0.0, hi=100.0, used_by=_BD, need=when_offered(_BD),
            doc="CPU during the verify at the platform's fastest level"),
    RateKey("bind.cpu.zeroing_pct", unit=PCT, lo=0.0, hi=100.0, used_by=_BD, need=when_offered(_BD),
            doc="CPU during zeroing"),
    RateKey("bind.disk.zeroing_util", lo=0.0, hi=1.0, lo_open=True, used_by=_BD, need=when_offered(_BD),
            doc="drive utilization during zeroing"),
    RateKey("bind.disk.verify_util_at_asap", lo=0.0, hi=1.0, lo_open=True, used_by=_BD, need=when_offered(_BD),
            doc="drive utilization during the verify at the platform's fastest level"),
)

# ---- volume migration (Hitachi: app/engine/op_volume_mig.py VolumeMig; its pace is [policy.volume_migration])
_VM = "volume_migration"
register(
    RateKey("migration.setup_s", unit="s", lo=0.0, hi=86_400.0, used_by=_VM, need=when_offered(_VM),
            doc="fixed set-up time per volume"),
    RateKey("migration.write_pending_threshold_pct", unit=PCT, lo=0.0, hi=100.0, used_by=_VM,
            need=when_offered(_VM), doc="write pending above which copies slow down"),
    RateKey("migration.write_pending_slowdown", lo=1.0, hi=10_000.0, used_by=_VM, need=when_offered(_VM),
            doc="slow-down factor above the write pending threshold"),
    RateKey("migration.sata_verify_factor", lo=1.0, hi=10.0, used_by=_VM, need=when_offered(_VM),
            doc="drive operations per block written to SATA (verify after write)"),
    RateKey("migration.external.link_mb_s", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_VM,
            need=when_offered(_VM), doc="path to one external array"),
    RateKey("migration.write_interference", lo=0.0, hi=100.0, used_by=_VM, need=when_offered(_VM),
            doc="capacity loss per extra concurrent copy writing one array group"),
    RateKey("migration.read_interference", lo=0.0, hi=100.0, used_by=_VM, need=when_offered(_VM),
            doc="capacity loss per extra concurrent copy reading one array group"),
    RateKey("migration.rewarm_min", unit="min", lo=0.0, hi=1440.0, used_by=_VM, need=when_offered(_VM),
            doc="time for cache hits to recover after the pointer swap"),
    RateKey("migration.<read_eff|write_eff>", kind="keyed", lo=0.0, hi=10.0, lo_open=True, used_by=_VM,
            members=("<raid>",), need=when_offered(_VM),
            doc="copy streaming efficiency per member drive by RAID level (R1/0, R5, R6 nearest by that order; "
                "another level takes the table's first member, with a note)"),
    RateKey("migration.<tier_read|tier_write>", kind="keyed", lo=0.0, hi=10.0, lo_open=True, used_by=_VM,
            members=("internal", "ext_FC", "ext_SATA"), need=when_offered(_VM),
            doc="tier factor: internal groups, external FC, external SATA"),
    RateKey("migration.mirror_read_sides.<internal|ext_FC|ext_SATA>", lo=1.0, hi=2.0, used_by=_VM,
            default="2 (both sides of a mirror are read)", doc="sides of a mirrored source a copy reads"),
)

# ---- WAFL reallocate (NetApp: app/engine/op_reallocate.py ReallocateOp; its pace is [policy.reallocate])
_RA = "reallocate"
register(
    RateKey("reallocate.measure_s", unit="s", lo=0.0, hi=86_400.0, used_by=_RA, need=when_offered(_RA),
            doc="duration of 'reallocate measure'"),
    RateKey("reallocate.disk_util", lo=0.0, hi=1.0, lo_open=True, used_by=_RA, need=when_offered(_RA),
            doc="drive utilization the read rate was measured at"),
    RateKey("reallocate.read_mb_s_at_util", unit=MBS, lo=0.0, hi=_FAST, lo_open=True, used_by=_RA,
            need=when_offered(_RA), doc="read rate at that utilization"),
    RateKey("reallocate.cpu_pct", unit=PCT, lo=0.0, hi=100.0, used_by=_RA, need=when_offered(_RA),
            doc="CPU while reallocating at that utilization"),
    RateKey("reallocate.optimized_level", lo=1.0, hi=10.0, used_by=_RA, need=when_offered(_RA),
            doc="optimization level after a reallocate (1 = optimal)"),
    RateKey("reallocate.write_fraction", lo=0.0, hi=1.0, used_by=_RA, need=UNUSED,
            doc="blocks rewritten per block read"),
)

# ---- Dell High Performance Tier (app/engine/sim_state.py controller limits, results.py advisories)
_HPT = "feature hpt"
_hpt = with_key("hpt.bandwidth_factor")
register(
    RateKey("hpt.bandwidth_factor", lo=1.0, hi=100.0, used_by=_HPT, default="no controller limits modelled",
            doc="bandwidth limit multiplier with HPT on (switches the controller-limit model on)"),
    RateKey("hpt.iops_factor", lo=1.0, hi=100.0, used_by=_HPT, need=_hpt, doc="IOPS limit multiplier with HPT on"),
    RateKey("hpt.base_seq_drives_dual", lo=0.0, hi=10_000.0, lo_open=True, used_by=_HPT, need=_hpt,
            doc="base bandwidth limit in drives' streaming rates (dual controller)"),
    RateKey("hpt.base_random_drives_dual", lo=0.0, hi=10_000.0, lo_open=True, used_by=_HPT, need=_hpt,
            doc="base IOPS limit in drives' random IOPS (dual controller)"),
    RateKey("hpt.host_mb_s_per_controller_needed", unit=MBS, lo=0.0, hi=_FAST, used_by=_HPT, need=_hpt,
            doc="host bandwidth per controller below which HPT cannot add bandwidth (advisory)"),
    RateKey("hpt.ssd_min_sequential", lo=0.0, hi=10_000.0, used_by=_HPT, need=_hpt,
            doc="fewest SSDs for HPT to help sequential loads (advisory)"),
    RateKey("hpt.ssd_min_random", lo=0.0, hi=10_000.0, used_by=_HPT, need=_hpt,
            doc="fewest SSDs for HPT to help random loads (advisory)"),
    RateKey("hpt.hpt_seq_drives_dual", lo=0.0, hi=10_000.0, used_by=_HPT, need=UNUSED,
            doc="drives that saturate a dual controller with HPT"),
    RateKey("hpt.hpt_random_drives_dual", lo=0.0, hi=10_000.0, used_by=_HPT, need=UNUSED,
            doc="drives HPT can use fully for IOPS"),
)

# Which tables hold an operation's calibration: none of them present = the engine's generic
# model only (check_rates warns `generic-model`).
def op_keys(kind: str) -> list[RateKey]:
    return [k for k in RATE_KEYS if k.used_by == kind]


def calibrated(kind: str, has: Callable[[str], bool]) -> bool:
    """Whether rates (`has(path)`: a value or table at the dotted path) give any of the keys an
    operation kind's own model needs; none: the engine's generic model predicts it
    (app/engine/op_generic.py) and check_rates warns `generic-model`. The same test both use."""
    for k in RATE_KEYS:
        if k.used_by != kind or k.need in (OPTIONAL, UNUSED):
            continue
        for path in k.concrete():
            if has(path.split(".<")[0] if "<" in path else path):
                return True
    return False


# ---------------------------------------------------------------- checking a rates document

@dataclass(frozen=True)
class PresetIssue:
    severity: str  # "error" | "warning"
    code: str  # missing-rate, bad-rate, generic-model, borrowed-rates, unknown-rate-key, nearest-rate ...
    text: str


def leaves(node: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted path, value) of every leaf of a parsed rates document; a `{value = ...}` table is
    one leaf (its value), a list of tables is one leaf (the rows), meta keys are skipped."""
    for key, val in node.items():
        if key in META_KEYS:
            continue
        sub = f"{path}.{key}" if path else key
        if isinstance(val, dict) and "value" in val:
            yield sub, val["value"]
        elif isinstance(val, dict):
            yield from leaves(val, sub)
        else:
            yield sub, val


def _get(doc: Mapping[str, Any], path: str) -> Any:
    node: Any = doc
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    if isinstance(node, dict) and "value" in node:
        return node["value"]
    return node


def _numbers(table: Any) -> dict[str, Any]:
    if not isinstance(table, dict):
        return {}
    out = {}
    for k, v in table.items():
        if k in META_KEYS:
            continue
        out[k] = v["value"] if isinstance(v, dict) and "value" in v else v
    return out


def nearest(word: str, known: Iterable[str], n: int = 3) -> list[str]:
    known = list(known)
    close = difflib.get_close_matches(word, known, n=n, cutoff=0.5)
    if not close:
        low = {k.lower(): k for k in known}
        close = [low[word.lower()]] if word.lower() in low else []
    return close


def check_values(doc: Mapping[str, Any], where: str) -> list[PresetIssue]:
    """The values a rates document holds: a key the engine reads, of the right type, in range
    (what a rates file is refused for on its own, before any platform uses it)."""
    out: list[PresetIssue] = []

    def err(code: str, text: str) -> None:
        out.append(PresetIssue("error", code, f"{where}: {text}"))

    def warn(code: str, text: str) -> None:
        out.append(PresetIssue("warning", code, f"{where}: {text}"))

    unknown_tables: set[str] = set()
    _TOPS = sorted({k.path.split(".")[0] for k in RATE_KEYS})
    for path, value in leaves(doc):
        if path.split(".")[0] in RESERVED_TABLES:
            continue
        key = lookup(path)
        top = path.split(".")[0]
        if key is None and "." in path and top not in _TOPS:
            if top not in unknown_tables:
                unknown_tables.add(top)
                close = nearest(top, _TOPS)
                warn("unknown-rate-key", f"[{top}] is not a table the engine reads"
                     + (f" (did you mean {', '.join('[' + c + ']' for c in close)}?)" if close else "")
                     + "; it is ignored")
            continue
        if key is None:
            parent, _, leaf = path.rpartition(".")
            siblings = [k.rsplit(".", 1)[-1] for kk in RATE_KEYS for k in kk.concrete()
                        if k.rsplit(".", 1)[0] == parent]
            hint = nearest(leaf, siblings) if siblings else nearest(path, [c for k in RATE_KEYS for c in k.concrete()])
            table = f"[{parent}] " if parent else ""
            warn("unknown-rate-key", f"{table}{leaf!r} is not a key the engine reads"
                 + (f" (did you mean {', '.join(map(repr, hint))}?)" if hint else "")
                 + "; it is ignored")
            continue
        if key.kind == "rows":
            if not isinstance(value, list) or not all(isinstance(r, dict) for r in value):
                err("bad-rate", f"{path} must be an array of tables ([[{path}]]), not {value!r}")
                continue
            for i, row in enumerate(value):
                for col, v in _numbers(row).items():
                    problem = (check_number(v, 1, 1000, unit="data disks") if col == "data_disks"
                               else check_number(v, key.lo, key.hi, key.lo_open, key.unit))
                    if problem:
                        err("bad-rate", f"[[{path}]] row {i + 1}: {col} {problem}")
            continue
        problem = key.check_value(value)
        if problem:
            table, _, leaf = path.rpartition(".")
            err("bad-rate", f"[{table}] {leaf} {problem}" if table else f"{leaf} {problem}")
    for text in range_problems(doc, _range_end_problem):
        err("bad-range", text)
    return out


def _range_end_problem(path: str, x: float) -> str | None:
    """Why one end of a value's range is not a valid value of its key (None: it is, or the key
    is not one this registry checks: a policy's numbers are checked with their policy)."""
    key = lookup(path)
    if key is None or key.kind in ("bool", "text", "rows"):
        return None
    return key.check_value(x)


def check_rates(doc: Mapping[str, Any], facts: PlatformFacts, where: str) -> list[PresetIssue]:
    """What a platform's merged rate tables (`doc`: the parsed TOML, overrides applied) lack or
    hold wrongly, for the platform described by `facts`. `where` names the files for messages."""
    out: list[PresetIssue] = []

    def err(code: str, text: str) -> None:
        out.append(PresetIssue("error", code, f"{where}: {text}"))

    def warn(code: str, text: str) -> None:
        out.append(PresetIssue("warning", code, f"{where}: {text}"))

    out += check_values(doc, where)

    def present(path: str) -> bool:
        return _get(doc, path) is not None

    # 2. each operation the platform offers: its [policy.*] table (which the engine needs, except for
    # a rebuild: the generic model) and the keys it reads
    generic: set[str] = set()  # operations only the generic model covers (one warning, no key-by-key errors)
    for kind, levels in facts.operations.items():
        pk = POLICY_KIND.get(kind, kind)
        has_policy = present(f"policy.{pk}")
        keys = [k for k in RATE_KEYS if k.used_by == kind and k.need is not UNUSED]
        required = [k for k in keys if k.need is not OPTIONAL]
        if kind in GENERIC_POLICY:
            if not has_policy:
                n = len(levels)
                duty = ", ".join(f"{lv} {100 * (i + 1) / n:.0f}%" for i, lv in enumerate(levels)) or "full speed"
                warn("generic-model", f"the platform offers {kind} but its rates have no [policy.{pk}]: the "
                     f"engine's generic model predicts it from the drives, buses and controller, each priority "
                     f"a duty cycle of the full-speed rate ({duty}); no document calibrates these priorities")
            else:
                _check_levels(kind, pk, levels, doc, facts, err, warn)
            continue
        if not any(_entry_present(k, doc) for k in required):
            # the engine's generic model (app/engine/op_generic.py; the same test: calibrated())
            generic.add(kind)
            tables = sorted({k.path.split(".")[0] for k in required})
            how = (f"its [policy.{pk}] levels" if has_policy else
                   "each priority a duty cycle of the full-speed rate (" + (", ".join(
                       f"{lv} {100 * (i + 1) / len(levels):.0f}%" for i, lv in enumerate(levels)) or "full speed") + ")")
            warn("generic-model", f"the platform offers {kind} but its rates have no {kind} keys "
                 f"({', '.join('[' + t + '.*]' for t in tables)}): only the engine's generic model covers it, "
                 f"from the RAID geometry, bounded by the drives, buses and controller, paced by {how}; "
                 "the result is labelled generic (advisory) and no document calibrates it")
            if has_policy:
                _check_levels(kind, pk, levels, doc, facts, err, warn)
            continue
        if not has_policy:
            err("missing-rate", f"[policy.{pk}] is missing: the engine reads each {kind} priority's policy "
                "from it (docs/presets.md, 'Priority policies and operation keys'); without it a "
                f"{kind} is not predicted")
            continue
        _check_levels(kind, pk, levels, doc, facts, err, warn)
    absent: dict[tuple[str, str], list[str]] = {}
    for k in RATE_KEYS:
        if k.used_by in generic or k.need in (OPTIONAL, UNUSED):
            continue
        for path in k.concrete():
            if ("<" in path and k.kind != "keyed") or not k.need(facts, path):
                continue
            if k.kind == "keyed":
                _check_keyed(k, path, doc, facts, err, warn)
            elif k.kind == "rows":
                rows = _get(doc, path)
                if not isinstance(rows, list) or not rows:
                    err("missing-rate", f"[[{path}]] rows are missing; the engine needs them {k.need.text} ({k.doc})")
                    continue
                for i, row in enumerate(rows):
                    cols = _numbers(row)
                    for col, need in k.columns:
                        if need(facts, path) and col not in cols:
                            err("missing-rate", f"[[{path}]] row {i + 1} has no {col!r} (needed {need.text})")
            elif not present(path):
                table, _, leaf = path.rpartition(".")
                if table and _get(doc, table) is None:
                    absent.setdefault((table, k.need.text), []).append(leaf)
                    continue
                err("missing-rate", f"[{table}] has no {leaf!r}; the engine reads it {k.need.text} ({k.doc})"
                    if table else f"no {leaf!r} at the top; the engine reads it {k.need.text}")
    for (table, need), keys in absent.items():  # a whole table missing: one message
        err("missing-rate", f"[{table}] is missing; the engine reads {', '.join(keys)} from it {need}")
    # 3. members of keyed tables the engine never asks for (a RAID level or tier spelt another way)
    for k in RATE_KEYS:
        if k.kind != "keyed":
            continue
        for path in k.concrete():
            table = _numbers(_get(doc, path)) if "<" not in path else {}
            if not table:
                continue
            valid: list[str] = []
            for m in k.members:
                valid += list(RAID_KEYS) if m == "<raid>" else [m]
            for name in table:
                if name not in valid:
                    close = nearest(name, valid)
                    warn("unknown-rate-key", f"[{path}] {name!r} is not a member the engine asks for on this "
                         f"platform (it asks for {', '.join(valid)})"
                         + (f"; did you mean {', '.join(map(repr, close))}?" if close else "") + "; it is ignored")
    # 4. (the priorities' physics is in the policy tables: _check_levels)
    # 5. family
    if facts.rates_family and facts.family and facts.rates_family != facts.family:
        warn("borrowed-rates", f"the platform's family is {facts.family!r} but its rate tables are "
             f"calibrated for {facts.rates_family!r}: predictions use another array family's figures")
    if "hpt" in facts.features and not present("hpt.bandwidth_factor"):
        warn("generic-model", "the platform offers feature 'hpt' but its rate tables have no [hpt]: "
             "enabling it reboots the controllers and changes no performance limit")
    return out


# the policy kinds an operation models when not all (app/engine/op_base.py: Op.policy(..., kinds));
# none today: rebuild, LUN migration, bind, volume migration and reallocate take every kind
# (app/engine/op_policy.py). An operation added with fewer kinds lists them here, so check says so.
MODELLED_KINDS: dict[str, tuple[str, ...]] = {}
# the phase whose policy the engine asks for (op_*.py); another phase's sub-table is not read
READ_PHASE = {"lun_migration": "copy", "bind": "verify", "volume_migration": "copy", "reallocate": "reallocate"}


def _phase_policy(table: Mapping[str, Any], phase: str) -> Mapping[str, Any]:
    sub = table.get(phase)
    return sub if isinstance(sub, dict) and "value" not in sub else table


def _check_levels(kind: str, pk: str, levels: tuple[str, ...], doc: Mapping[str, Any], facts: PlatformFacts,
                  err: Callable[[str, str], None], warn: Callable[[str, str], None]) -> None:
    """What the engine needs of [policy.<pk>] beyond its own checks (app.domain.policies): a table for
    every level the platform offers, of a kind the operation models; a bind rate at each level, below
    zeroing; a higher level never capped below a lower one."""
    tables = _get(doc, f"policy.{pk}")
    if not isinstance(tables, dict):
        return
    phase = READ_PHASE.get(kind, "")
    read: list[tuple[str, Mapping[str, Any]]] = []
    for lv in levels:
        table = tables.get(lv)
        if not isinstance(table, dict):
            err("missing-rate", f"[policy.{pk}] has no {lv!r} table: a {kind} at {lv} is not predicted "
                f"(the engine reports unknown-priority; it defines {', '.join(k for k in tables if k not in META_KEYS)})")
            continue
        pol = _phase_policy(table, phase) if phase else table
        name = f"policy.{pk}.{lv}" + (f".{phase}" if pol is not table else "")
        pkind = pol.get("kind")
        if kind in MODELLED_KINDS and isinstance(pkind, str) and pkind not in MODELLED_KINDS[kind]:
            err("bad-rate", f"[{name}] kind = {pkind!r}: {kind} models only "
                f"{', '.join(MODELLED_KINDS[kind])} (another kind is reported as not predicted)")
            continue
        read.append((lv, pol))
        if kind == "bind" and (pkind in ("cap", "asap") or lv == levels[-1]):
            # cap / asap: mb_s is the level's average bind rate; the fastest level's calibrates the
            # verify's drive and CPU cost whatever its kind (op_bind.py)
            _check_bind_level(name, pol, doc, facts, err)
    # a higher priority is never capped slower (levels are listed slowest first)
    capped = [(lv, _num_of(pol.get("mb_s"))) for lv, pol in read]
    capped = [(lv, v) for lv, v in capped if v is not None]
    for (lo_lv, lo_v), (hi_lv, hi_v) in zip(capped, capped[1:]):
        if hi_v < lo_v:
            warn("priority-order", f"[policy.{pk}] {hi_lv} mb_s = {hi_v:g} is below {lo_lv} mb_s = {lo_v:g}: a "
                 f"higher priority would run slower (priorities are listed slowest first: {', '.join(levels)})")


def _check_bind_level(name: str, pol: Mapping[str, Any], doc: Mapping[str, Any], facts: PlatformFacts,
                      err: Callable[[str, str], None]) -> None:
    """A bind level's average rate (zeroing + verify) must be given and below the zeroing rate."""
    rows = [("FC", "mb_s")] if facts.bind_key("FC") else []
    if facts.bind_key("SATA"):
        rows.append(("SATA", "sata_mb_s" if _num_of(pol.get("sata_mb_s")) is not None else "mb_s"))
    for row, key in rows:
        v = _num_of(pol.get(key))
        if v is None:
            err("missing-rate", f"[{name}] has no {key}: the bind's average rate on {row} drives (emc Table 8)")
            continue
        zero = _get(doc, f"bind.zeroing.{row}")
        if _num(zero) and v >= zero:
            err("bad-rate", f"[{name}] {key} = {v:g} MB/s is not below [bind.zeroing] {row} = {zero:g} MB/s: "
                "the bind rate averages zeroing and verify, so it must be slower than zeroing alone")


def _num_of(x: Any) -> float | None:
    if isinstance(x, dict):
        x = x.get("value")
    return float(x) if _num(x) else None


def _entry_present(k: RateKey, doc: Mapping[str, Any]) -> bool:
    """Any value of entry k in doc (a wildcard segment: any member of its parent table)."""
    for path in k.concrete():
        if "<" in path:
            if _numbers(_get(doc, path.split(".<")[0])):
                return True
        elif _get(doc, path) is not None:
            return True
    return False


_KEYED_ORDER = {"<raid>": ["R1/0", "R5", "R6"]}  # app/engine/op_volume_mig.py VolumeMig._capacity


def _check_keyed(k: RateKey, path: str, doc: Mapping[str, Any], facts: PlatformFacts,
                 err: Callable[[str, str], None], warn: Callable[[str, str], None]) -> None:
    """A table read by RateReader.keyed: it must hold a number; a member the engine will ask
    for and does not find falls back on another (a warning says which)."""
    table = _numbers(_get(doc, path))
    if not table:
        err("missing-rate", f"[{path}] is missing or empty; the engine needs it {k.need.text} ({k.doc})")
        return
    for member in k.members:
        if member == "<raid>":
            wanted, order = sorted(facts.raid), _KEYED_ORDER[member]
        else:
            wanted, order = [member], [m for m in k.members if not m.startswith("<")]
        uses: dict[str, list[str]] = {}
        for m in wanted:
            if m in table:
                continue
            uses.setdefault(_fallback(m, list(table), order), []).append(m)
        for use, ms in uses.items():  # one message per member used instead
            warn("nearest-rate", f"[{path}] has no {', '.join(map(repr, ms))}: the engine uses {use!r} instead")


def _num(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and _finite(x)


def _finite(x: int | float) -> bool:
    """math.isfinite, False (not OverflowError) for an int too large for a float (TOML's 1e400
    written out in digits)."""
    try:
        return math.isfinite(x)
    except OverflowError:
        return False


def _fallback(key: str, keys: list[str], order: list[str] | None) -> str:
    """The member app.engine.rates.RateReader.keyed uses for a missing key."""
    if order and key in order:
        idx = order.index(key)
        ranked = sorted((k for k in keys if k in order), key=lambda k: abs(order.index(k) - idx))
        if ranked:
            return ranked[0]
    return keys[0]


# ---------------------------------------------------------------- platform and drive fields

@dataclass(frozen=True)
class Field:
    """One key of a platform or drive preset table: type, unit, range, required or default."""

    table: str  # "" (top level), "back_end", "[[controllers]]", "[[drive]]" ...
    key: str
    kind: str  # "int" | "float" | "text" | "bool" | "list" | "table" | "choice"
    required: bool = False
    default: Any = None
    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    unit: str = ""
    choices: tuple[str, ...] = ()
    doc: str = ""

    def range_text(self) -> str:
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind in ("int", "float"):
            return RateKey("", lo=self.lo, hi=self.hi, lo_open=self.lo_open, unit=self.unit).range_text()
        return self.kind

    def check(self, value: Any) -> str | None:
        if self.kind in ("int", "float"):
            return check_number(value, self.lo, self.hi, self.lo_open, self.unit, integer=self.kind == "int")
        if self.kind == "text":
            return None if isinstance(value, str) else f"must be text (in quotes), not {value!r}"
        if self.kind == "bool":
            return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
        if self.kind == "choice":
            return None if value in self.choices else f"{value!r} is not one of {', '.join(self.choices)}"
        if self.kind == "list":
            return None if isinstance(value, list) else f"must be a list [...], not {value!r}"
        if self.kind == "table":
            return None if isinstance(value, dict) else f"must be a table, not {value!r}"
        return None


INTERFACES = ("FC", "SAS", "SATA", "SSD", "SCSI", "NVMe")  # app.domain.hardware.Interface
RAID_KEYS = ("R0", "R1", "R1/0", "R3", "R5", "R6", "RAID-DP", "R5/0", "R6/0", "dRAID6", "DDP")  # app.domain.raid.RaidType
SETTING_KINDS = ("int", "float", "bool", "choice")

FIELDS: tuple[Field, ...] = (
    # platform file, top level (before the first [table] header)
    Field("", "id", "text", required=True, doc="unique id, used in project files"),
    Field("", "name", "text", required=True, doc="shown in the GUI and reports"),
    Field("", "source", "text", required=True, doc="the document the platform describes"),
    Field("", "rates", "text", required=True, doc="rates_id of the rate tables the engine uses"),
    Field("", "drive_types", "list", required=True, doc="drive ids from drives.toml or a user drive file"),
    Field("", "vendor", "text", default=""),
    Field("", "family", "text", default="custom", doc="compared with the rate tables' model"),
    Field("", "firmware", "text", default=""),
    Field("", "description", "text", default=""),
    Field("", "group_noun", "text", default="RAID group",
          doc='what the vendor calls a RAID group, as in its documents ("Disk Group", "Aggregate"): '
              "the GUI names groups with it; letters, spaces and hyphens, 2 to 24 characters"),
    Field("[[controllers]]", "name", "text", required=True, doc="LUN owners must be one of these"),
    Field("[[controllers]]", "cores", "int", default=1, lo=1, hi=256),
    Field("back_end", "buses", "int", required=True, lo=1, hi=256, doc="back-end buses / loops / channels"),
    Field("back_end", "bus_mb_s", "float", required=True, lo=0, hi=_FAST, lo_open=True, unit=MBS,
          doc="usable bandwidth of one bus"),
    Field("back_end", "max_enclosures_per_bus", "int", required=True, lo=1, hi=1000),
    Field("back_end", "max_drives", "int", default=0, lo=0, hi=1_000_000, doc="0 = no limit beyond the slots"),
    Field("host_ports", "per_controller", "int", default=4, lo=0, hi=1024),
    Field("host_ports", "mb_s", "float", default=400.0, lo=0, hi=_FAST, lo_open=True, unit=MBS, doc="per port"),
    Field("[[enclosure_types]]", "id", "text", required=True),
    Field("[[enclosure_types]]", "name", "text", required=True),
    Field("[[enclosure_types]]", "slots", "int", required=True, lo=1, hi=1000),
    Field("[[enclosure_types]]", "interfaces", "list", default=[], doc=" | ".join(INTERFACES)),
    Field("[[enclosure_types]]", "form_factor", "text", default="", doc='slot size in inches ("2.5", "3.5")'),
    Field("raid.<level>", "min", "int", default=2, lo=1, hi=1000),
    Field("raid.<level>", "max", "int", default=16, lo=1, hi=1000),
    Field("raid.<level>", "even", "bool", default=False),
    Field("raid.<level>", "widths", "list", default=[], doc="exact widths allowed"),
    Field("raid.<level>", "interfaces", "list", default=[], doc=" | ".join(INTERFACES)),
    Field("raid.<level>", "default_stripe", "int", default=0, lo=0, hi=1000,
          doc="RAID 50/60: drives per span, distributed: drives per stripe (data + parity) a group made "
              "in the GUI starts from (0: the level's default, two spans / 8+2); cite it in source"),
    Field("raid.<level>", "stripes", "list", default=[],
          doc="the only stripe widths the product offers (e.g. [10, 18]); empty: any that fits"),
    Field("cache.<key> / lun_settings.<key>", "kind", "choice", default="int", choices=SETTING_KINDS),
    Field("cache.<key> / lun_settings.<key>", "default", "any", required=True),
    Field("cache.<key>", "sizes", "list", default=[],
          doc="the sizes the array is sold with: goal seeking tries each (prices.toml [cache])"),
    Field("features.<id>", "reboot_minutes", "float", default=0.0, lo=0, hi=1440, unit="min"),
    Field("capacity", "formatted_factor", "float", default=1.0, lo=0, hi=1, lo_open=True,
          doc="formatted / nominal drive capacity, as the array's tools report it (1 = nominal)"),
    Field("capacity", "vault_drives", "list", default=[], doc='drive locations holding the system area ("0_0_0", ...)'),
    Field("capacity", "vault_reserved_gb", "float", default=0.0, lo=0, hi=1_000_000, unit="GB",
          doc="formatted GB the system area takes on each vault drive"),
    Field("capacity", "cache_memory_mb", "float", default=0.0, lo=0, hi=1e9, unit="MB",
          doc="memory for read + write cache per controller (0 = not checked)"),
    Field("capacity", "enclosure_rack_units", "float", default=0.0, lo=0, hi=100, unit="U"),
    Field("capacity", "controller_rack_units", "float", default=0.0, lo=0, hi=100, unit="U",
          doc="the controller enclosure(s) and their power"),
    Field("operations.<kind>", "priorities", "list", required=True, doc="priority names, e.g. Low, Medium, High, ASAP"),
    Field("operations.<kind>", "default", "text", doc="one of the priorities (default: the first)"),
    # drive catalog
    Field("[[drive]]", "id", "text", required=True),
    Field("[[drive]]", "name", "text", required=True),
    Field("[[drive]]", "interface", "choice", required=True, choices=INTERFACES),
    Field("[[drive]]", "rpm", "int", default=0, lo=0, hi=30_000,
          doc="0 for an SSD (SAS, SATA, NVMe or the legacy SSD interface); spinning drives 3,600 to 30,000"),
    Field("[[drive]]", "capacity_gb", "float", required=True, lo=0, hi=1_000_000, lo_open=True, unit="GB"),
    Field("[[drive]]", "seq_mb_s", "float", required=True, lo=0, hi=_FAST, lo_open=True, unit=MBS,
          doc="sustained streaming rate; default the mean of seq_outer_mb_s and seq_inner_mb_s"),
    Field("[[drive]]", "random_ms", "float", required=True, lo=0, hi=1000, lo_open=True, unit="ms",
          doc="busy time per small random I/O; default from seek_ms (seek + half a revolution + "
              "8 KB transfer) or, for an SSD, from read_iops/write_iops (1/IOPS at a 70/30 mix)"),
    Field("[[drive]]", "mttf_h", "float", default=1_000_000, lo=0, hi=1e9, lo_open=True, unit="h",
          doc="default 8766 / (afr_pct / 100) when afr_pct is given"),
    Field("[[drive]]", "seek_ms", "float", default=0.0, lo=0, hi=100, unit="ms", doc="average read seek"),
    Field("[[drive]]", "seq_outer_mb_s", "float", default=0.0, lo=0, hi=_FAST, unit=MBS, doc="outer-zone transfer"),
    Field("[[drive]]", "seq_inner_mb_s", "float", default=0.0, lo=0, hi=_FAST, unit=MBS, doc="inner-zone transfer"),
    Field("[[drive]]", "read_iops", "float", default=0.0, lo=0, hi=1e8, unit="IOPS", doc="SSD random 4 KB read"),
    Field("[[drive]]", "write_iops", "float", default=0.0, lo=0, hi=1e8, unit="IOPS", doc="SSD random 4 KB write"),
    Field("[[drive]]", "read_latency_ms", "float", default=0.0, lo=0, hi=100, unit="ms",
          doc="SSD 4 KB read latency at queue depth 1: an I/O's response at light load"),
    Field("[[drive]]", "ure_bits", "float", default=0.0, lo=0, hi=1e30, unit="bits",
          doc="bits read per unrecoverable read error (1e15 = '1 in 10^15'); 0: not published"),
    Field("[[drive]]", "afr_pct", "float", default=0.0, lo=0, hi=100, unit="%", doc="annualized failure rate"),
    Field("[[drive]]", "dwpd", "float", default=0.0, lo=0, hi=1000, doc="SSD endurance, drive writes per day"),
    Field("[[drive]]", "form_factor", "text", default="", doc='"2.5" or "3.5"'),
    Field("[[drive]]", "source", "text", required=True),
)

MIN_SPINNING_RPM = 3600


def field_spec(table: str, key: str) -> Field:
    for f in FIELDS:
        if f.table == table and f.key == key:
            return f
    raise KeyError(f"no field {table}.{key}")


def known_fields(table: str) -> list[str]:
    return [f.key for f in FIELDS if f.table == table]


# ---------------------------------------------------------------- documentation

def markdown_table() -> str:
    """The rate-key reference of docs/presets.md (between its generated-table markers)."""
    lines = ["| key | type | valid | used by | required | without it / meaning |", "|---|---|---|---|---|---|"]
    for k in RATE_KEYS:
        kind = {"keyed": "table of numbers", "rows": "array of tables"}.get(k.kind, k.kind)
        if k.kind == "keyed" and k.members:
            kind += " (" + ", ".join(f"`{m}`" for m in k.members) + ")"
        if k.kind == "rows":
            kind += " (" + ", ".join(c for c, _ in k.columns) + ")"
        need = "no" if k.need is OPTIONAL else k.need.text
        meaning = k.doc + (f"; default: {k.default}" if k.default else "")
        lines.append(_row(f"`{k.path}`", kind, k.range_text(), k.used_by, need, meaning))
    return "\n".join(lines)


def _row(*cells: str) -> str:
    """A markdown table row; a | inside a cell (even in code) would end the cell, so it is escaped."""
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def markdown_fields() -> str:
    lines = ["| table | key | type | valid | required / default |", "|---|---|---|---|---|"]
    for f in FIELDS:
        req = "required" if f.required else (f"default {f.default!r}" if f.default is not None else "optional")
        valid = f.range_text() + (f"; {f.doc}" if f.doc else "")
        lines.append(_row(f.table or "(top level)", f"`{f.key}`", f.kind, valid, req))
    return "\n".join(lines)
