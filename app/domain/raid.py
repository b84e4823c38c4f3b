"""RAID types and their arithmetic.

Everything here is pure math on drive counts; which widths a platform actually allows is
platform data (see Platform.raid_rules) and is checked in validation.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class RaidType(str, Enum):
    R0 = "R0"
    R1 = "R1"
    R10 = "R1/0"
    R3 = "R3"
    R5 = "R5"
    R6 = "R6"
    RAID_DP = "RAID-DP"
    R50 = "R5/0"  # RAID 5 spans striped together
    R60 = "R6/0"  # RAID 6 spans striped together
    DRAID6 = "dRAID6"  # distributed (declustered) RAID 6: ADAPT, IBM DRAID 6, HPE MSA-DP+
    DDP = "DDP"  # NetApp E-Series Dynamic Disk Pool (a distributed RAID 6 of 8+2 D-stripes)

    @property
    def label(self) -> str:
        return {
            "R0": "RAID 0", "R1": "RAID 1", "R1/0": "RAID 1/0", "R3": "RAID 3",
            "R5": "RAID 5", "R6": "RAID 6", "RAID-DP": "RAID-DP", "R5/0": "RAID 50", "R6/0": "RAID 60",
            "dRAID6": "distributed RAID 6", "DDP": "Dynamic Disk Pool",
        }[self.value]

    @property
    def distributed(self) -> bool:
        """Stripes narrower than the group, spread over all its drives, with spare capacity on
        every drive instead of hot spares."""
        return self in (RaidType.DRAID6, RaidType.DDP)

    @property
    def spanned(self) -> bool:
        return self in (RaidType.R50, RaidType.R60)

    @classmethod
    def parse(cls, text: str) -> "RaidType":
        """Accept the spellings the documents use: R5, RAID5, RAID 5, R10, RAID 1+0, R1/0 ..."""
        key = text.strip().upper().replace("RAID", "R").replace(" ", "").replace("-", "")
        aliases = {
            "R0": cls.R0, "R1": cls.R1, "R10": cls.R10, "R1/0": cls.R10, "R1+0": cls.R10,
            "R3": cls.R3, "R5": cls.R5, "R6": cls.R6, "RDP": cls.RAID_DP,
            "R50": cls.R50, "R5/0": cls.R50, "R5+0": cls.R50, "R60": cls.R60, "R6/0": cls.R60, "R6+0": cls.R60,
            "DR6": cls.DRAID6, "DR": cls.DRAID6, "ADAPT": cls.DRAID6, "MSADP+": cls.DRAID6, "DDP": cls.DDP,
        }
        if key not in aliases:
            raise ValueError(f"unknown RAID type {text!r} (valid: {', '.join(t.value for t in cls)})")
        return aliases[key]


# spare capacity of a distributed group, in drives, when the group does not set it
# (ADAPT: "a target spare capacity that is the sum of the largest two disks", Dell PowerVault
# ME4 Administrator's Guide 'About ADAPT'; DDP: the preservation capacity SANtricity reserves by
# pool size: see ddp_preservation_drives)
DRAID_DEFAULT_SPARE = 2
# stripe width (data + parity) of a distributed group when the group does not set it: 8+2
# (DDP D-stripes are 8+2, TR-4652 'Data Layout'; ADAPT on ME4 8+2, ME5 also 16+2 for wide groups)
DRAID_DEFAULT_STRIPE = 10


# the most preservation capacity a pool can hold, in drives (SANtricity System Manager 'How pools
# and volume groups work': "The maximum amount of capacity that can be preserved (expressed as a
# number of drives) is 10")
DDP_MAX_PRESERVATION_DRIVES = 10
# drives per drive of preservation capacity SANtricity reserves by default (System Manager 'Create
# a pool manually': "for every six drives in a pool, System Manager reserves one drive for
# preservation capacity"; presets/sources.toml ["sm create pool"])
DDP_DRIVES_PER_PRESERVATION_DRIVE = 6


def ddp_preservation_drives(width: int) -> int:
    """SANtricity's default preservation capacity, in drives, for a pool of `width` drives: one
    drive per six in the pool, at most ten. The documentation gives the rule, not a table; it
    agrees with the minimum pool ('How pools and volume groups work': "Pools have a minimum
    capacity of 11 drives; however, one drive's worth of capacity is reserved"). It replaces a
    table recalled from TR-4652 (2 drives up to 31, 3 up to 63) that no stored text confirms."""
    return min(width // DDP_DRIVES_PER_PRESERVATION_DRIVE, DDP_MAX_PRESERVATION_DRIVES)


@dataclass(frozen=True)
class RaidMath:
    """Derived figures for one RAID group of `width` drives of one capacity.

    stripe: RAID 50/60 the drives per span (0: two spans); a distributed group (dRAID6, DDP) the
    drives per stripe, data + parity (0: 8+2). spare: a distributed group's spare capacity in
    drives (0: the default of its kind)."""

    raid: RaidType
    width: int
    stripe: int = 0
    spare: int = 0

    @property
    def span_width(self) -> int:
        """Drives of one span (RAID 50/60), of one stripe (distributed), else the group."""
        if self.raid.spanned:
            return self.stripe or max(self.width // 2, 1)
        if self.raid.distributed:
            return min(self.stripe or DRAID_DEFAULT_STRIPE, self.width)
        return self.width

    @property
    def spans(self) -> int:
        return max(self.width // self.span_width, 1) if self.raid.spanned else 1

    @property
    def spare_drives(self) -> int:
        """A distributed group's spare capacity, in drives (0 for the others)."""
        if not self.raid.distributed:
            return 0
        if self.spare:
            return self.spare
        return ddp_preservation_drives(self.width) if self.raid is RaidType.DDP else DRAID_DEFAULT_SPARE

    @property
    def is_mirror(self) -> bool:
        return self.raid in (RaidType.R1, RaidType.R10)

    @property
    def is_parity(self) -> bool:
        return self.raid in (RaidType.R3, RaidType.R5, RaidType.R6, RaidType.RAID_DP, RaidType.R50,
                             RaidType.R60, RaidType.DRAID6, RaidType.DDP)

    @property
    def parity_per_stripe(self) -> int:
        return 2 if self.raid in (RaidType.R6, RaidType.RAID_DP, RaidType.R60) or self.raid.distributed else 1

    @property
    def parity_disks(self) -> float:
        """Drives' worth of capacity given to protection (a distributed group: parity and spare)."""
        if self.raid is RaidType.R0:
            return 0
        if self.is_mirror:
            return self.width // 2
        if self.raid.spanned:
            return self.spans * self.parity_per_stripe
        if self.raid.distributed:
            return self.width - self.data_disks
        if self.raid in (RaidType.R6, RaidType.RAID_DP):
            return 2
        return 1

    @property
    def data_disks(self) -> float:
        """Drives' worth of data. A distributed group: the drives less the spare capacity, times
        the data share of a stripe ((k - 2) / k): a fraction."""
        if self.raid.distributed:
            k = self.span_width
            return max(self.width - self.spare_drives, 0) * (k - 2) / k
        return self.width - self.parity_disks

    @property
    def failures_tolerated(self) -> int:
        """Drive failures survived in the worst case (a mirror survives one per pair, at worst one;
        RAID 50 one, RAID 60 two: both in one span)."""
        if self.raid is RaidType.R0:
            return 0
        if self.raid in (RaidType.R6, RaidType.RAID_DP, RaidType.R60) or self.raid.distributed:
            return 2
        return 1

    @property
    def failures_tolerated_best(self) -> int:
        """Drive failures survived in the best case: a RAID 1/0 group survives one failure in
        each mirror pair (width // 2), RAID 50/60 one or two in each span, the others as
        failures_tolerated."""
        if self.is_mirror:
            return self.width // 2
        if self.raid.spanned:
            return self.spans * self.failures_tolerated
        return self.failures_tolerated

    @property
    def reconstruct_reads(self) -> int:
        """Drive reads that rebuild one small host read of a lost member's data: the other data
        chunks of its stripe and one parity chunk, i.e. the stripe's data chunks. RAID 5 of N:
        N - 1; RAID 6 and RAID-DP of N: N - 2 (the second parity is not read); RAID 50/60: the
        span's; a distributed group: its stripe's (8 for DDP's 8+2 D-stripe, however wide the
        pool). Mirrors read the partner (1); RAID 0 has nothing to read it from (0)."""
        if self.raid is RaidType.R0:
            return 0
        if self.is_mirror:
            return 1
        return max(self.span_width - self.parity_per_stripe, 1)

    @property
    def degraded_read_multiplier(self) -> float:
        """Mean drive reads per small random host read with one member down: the 1/N of the
        reads that fall on the lost member's data cost reconstruct_reads each, the rest one
        (RAID 5 of N: 1 + (N - 2)/N; RAID 6: 1 + (N - 3)/N; a 12-drive DDP of 8+2 stripes:
        1 + 7/12). 1 for mirrors (the partner serves the read) and RAID 0."""
        if not self.is_parity or self.width < 2:
            return 1.0
        return 1.0 + (self.reconstruct_reads - 1) / self.width

    def span_of(self, k: int) -> int:
        """The span (RAID 50/60) of member position k: spans are consecutive in member order."""
        return min(k // self.span_width, self.spans - 1) if self.raid.spanned else 0

    def mirror_partner(self, k: int) -> int:
        """The member position that mirrors position k in a RAID 1 or 1/0 group: members pair up
        in the group's member order, 0-1, 2-3, ... (emc 'Rebuild overview': a mirror is rebuilt
        by copying its mirroring drive; the pairing by bind order is an assumption: CLARiiON
        pairs the disks in the order they are selected). An odd last member pairs with the one
        before it."""
        j = k ^ 1
        return j if j < self.width else k - 1

    def loses_data(self, failed: "set[int] | list[int] | tuple[int, ...]") -> bool:
        """Whether the group's data is lost when the members at positions `failed` (0-based, in
        member order) hold no valid data (failed, or being rebuilt). RAID 0: any one; RAID 1 and
        1/0: both members of one mirror pair; RAID 3/5: two; RAID 6 and RAID-DP: three (hp
        'Overview of the RAID 5 rebuild process': "If more than one drive fails at any given time,
        or any other drive fails during the rebuild process, the array becomes inaccessible")."""
        down = set(failed)
        if not down:
            return False
        if self.is_mirror:
            return any(self.mirror_partner(k) in down and self.mirror_partner(k) != k for k in down)
        if self.raid.spanned:  # RAID 50/60: a span that lost more than its parity
            per: dict[int, int] = {}
            for k in down:
                per[self.span_of(k)] = per.get(self.span_of(k), 0) + 1
            return max(per.values()) > self.failures_tolerated
        # a distributed group: three drives down lose the stripes that had a piece on each (with
        # thousands of stripes over the pool, some always do); the engine counts a drive whose
        # critical stripes were rebuilt first (DDP) as restored (op_rebuild_distributed.py)
        return len(down) > self.failures_tolerated

    @property
    def write_penalty(self) -> int:
        """Back-end I/Os per small random host write (read-modify-write)."""
        return {
            RaidType.R0: 1, RaidType.R1: 2, RaidType.R10: 2, RaidType.R3: 4,
            RaidType.R5: 4, RaidType.R6: 6, RaidType.RAID_DP: 6, RaidType.R50: 4, RaidType.R60: 6,
            RaidType.DRAID6: 6, RaidType.DDP: 6,
        }[self.raid]

    @property
    def write_service_times(self) -> int:
        """Drive service times in a row for one small random write that the back end must
        complete before the host sees it (no write-back cache, or forced flush): RAID 0 one
        write; mirrors two writes in parallel (one service time); parity read-modify-write
        (old data and parity read in parallel, then the new ones written in parallel: two;
        RAID 6 reads and writes three at a time, still two)."""
        if self.raid is RaidType.R0 or self.is_mirror:
            return 1
        return 2

    @property
    def rebuild_read_fanout(self) -> int:
        """Drives read to rebuild one lost drive: the mirror partner, or all N-1 survivors
        (HP brief: "(N-1) reads ... and a single write"); RAID 50/60 the span's survivors; a
        distributed group all N-1 survivors (each stripe reads k-1 of them)."""
        if self.raid is RaidType.R0:
            return 0
        if self.is_mirror:
            return 1
        if self.raid.spanned:
            return self.span_width - 1
        return self.width - 1

    @property
    def rebuild_mb_per_survivor(self) -> tuple[float, float]:
        """(MB read, MB written) on each drive that takes part, per MB restored. A classic group
        reads 1 MB on each of its fan-out drives and writes 1 MB on the target. A distributed
        group reads k-1 pieces per restored piece and writes it into the spare capacity, both
        spread evenly over the N-1 survivors: (k-1)/(N-1) and 1/(N-1) on each. So its rebuild
        rate grows with the pool (NetApp TR-4652, Dell ME5 ADAPT white paper: "data will be
        moved to many disks in the disk group, allowing for quick rebuilds")."""
        if self.raid.distributed:
            n = max(self.width - 1, 1)
            return (self.span_width - 1) / n, 1.0 / n
        return 1.0, 1.0

    def usable_gb(self, drive_capacity_gb: float) -> float:
        return self.data_disks * drive_capacity_gb

    def raw_gb(self, drive_capacity_gb: float) -> float:
        return self.width * drive_capacity_gb

    @property
    def label(self) -> str:
        """The documents' notation: 4+1 R5, 3+3 R1/0, 6+2 R6."""
        if self.raid is RaidType.R0:
            return f"{self.width} R0"
        if self.raid is RaidType.R1:
            return "1+1 R1"
        if self.raid.spanned:
            p = self.parity_per_stripe
            return f"{self.spans}x({self.span_width - p}+{p}) {self.raid.value}"
        if self.raid.distributed:
            k = self.span_width
            return f"{k - 2}+2 {self.raid.value} over {self.width} (spare {self.spare_drives})"
        return f"{self.data_disks}+{self.parity_disks} {self.raid.value}"


def mttdl_hours(raid: RaidType, width: int, groups: int, mttf_disk_h: float, mttr_h: float,
                span_width: int = 0, mttr2_h: float | None = None) -> float:
    """Mean time to data loss for `groups` RAID groups of `width` drives.

    Patterson, Gibson & Katz (1988), as quoted in the HP brief:
      single parity:  MTTF^2 / (N * (G-1) * MTTR)
      double parity:  MTTF^3 / (N * (G-1) * (G-2) * MTTR^2)
      mirror pairs:   MTTF^2 / (N * MTTR)      (G = 2: only the partner's loss is fatal)
    where N is the total number of drives and G the group width. RAID 0 has no redundancy:
    MTTF_disk / N. RAID 50/60 are `width / span_width` independent RAID 5/6 spans of span_width
    drives. A distributed group (dRAID6, DDP) is double parity over the whole pool (any drive's
    failure opens the window, G = the pool) with the second window mttr2_h: the time until a
    second concurrent failure no longer exposes data (the critical stripes rebuilt first, DDP),
    default mttr_h.
    """
    if mttr_h <= 0 or mttf_disk_h <= 0:
        raise ValueError("MTTF and MTTR must be positive")
    if raid.spanned:
        span = span_width or max(width // 2, 1)
        base = RaidType.R5 if raid is RaidType.R50 else RaidType.R6
        return mttdl_hours(base, span, groups * max(width // span, 1), mttf_disk_h, mttr_h)
    n = width * groups
    math = RaidMath(raid, width)
    if raid is RaidType.R0:
        return mttf_disk_h / n
    if math.is_mirror:
        return mttf_disk_h ** 2 / (n * mttr_h)
    if math.failures_tolerated == 2:
        second = mttr_h if mttr2_h is None or mttr2_h <= 0 else mttr2_h
        return mttf_disk_h ** 3 / (n * (width - 1) * (width - 2) * mttr_h * second)
    return mttf_disk_h ** 2 / (n * (width - 1) * mttr_h)


def ure_probability(bits_read: float, ure_bits: float) -> float:
    """Probability of at least one unrecoverable read error while reading `bits_read` bits from
    drives rated at one error per `ure_bits` bits read: 1 - (1 - 1/ure_bits)^bits, computed as
    -expm1(bits * log1p(-1/ure_bits)) so it stays exact for 1e15-1e17 (0 when not rated)."""
    import math as _m

    if ure_bits <= 0 or bits_read <= 0:
        return 0.0
    return -_m.expm1(bits_read * _m.log1p(-1.0 / ure_bits))
