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

    @property
    def label(self) -> str:
        return {
            "R0": "RAID 0", "R1": "RAID 1", "R1/0": "RAID 1/0", "R3": "RAID 3",
            "R5": "RAID 5", "R6": "RAID 6", "RAID-DP": "RAID-DP",
        }[self.value]

    @classmethod
    def parse(cls, text: str) -> "RaidType":
        """Accept the spellings the documents use: R5, RAID5, RAID 5, R10, RAID 1+0, R1/0 ..."""
        key = text.strip().upper().replace("RAID", "R").replace(" ", "").replace("-", "")
        aliases = {
            "R0": cls.R0, "R1": cls.R1, "R10": cls.R10, "R1/0": cls.R10, "R1+0": cls.R10,
            "R3": cls.R3, "R5": cls.R5, "R6": cls.R6, "RDP": cls.RAID_DP,
        }
        if key not in aliases:
            raise ValueError(f"unknown RAID type {text!r} (valid: {', '.join(t.value for t in cls)})")
        return aliases[key]


@dataclass(frozen=True)
class RaidMath:
    """Derived figures for one RAID group of `width` drives of one capacity."""

    raid: RaidType
    width: int

    @property
    def is_mirror(self) -> bool:
        return self.raid in (RaidType.R1, RaidType.R10)

    @property
    def is_parity(self) -> bool:
        return self.raid in (RaidType.R3, RaidType.R5, RaidType.R6, RaidType.RAID_DP)

    @property
    def parity_disks(self) -> int:
        """Drives' worth of capacity given to protection."""
        if self.raid is RaidType.R0:
            return 0
        if self.is_mirror:
            return self.width // 2
        if self.raid in (RaidType.R6, RaidType.RAID_DP):
            return 2
        return 1

    @property
    def data_disks(self) -> int:
        return self.width - self.parity_disks

    @property
    def failures_tolerated(self) -> int:
        """Drive failures survived in the worst case (a mirror survives one per pair, at worst one)."""
        if self.raid is RaidType.R0:
            return 0
        if self.raid in (RaidType.R6, RaidType.RAID_DP):
            return 2
        return 1

    @property
    def failures_tolerated_best(self) -> int:
        """Drive failures survived in the best case: a RAID 1/0 group survives one failure in
        each mirror pair (width // 2), the others as failures_tolerated."""
        if self.is_mirror:
            return self.width // 2
        return self.failures_tolerated

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
        return len(down) > self.failures_tolerated

    @property
    def write_penalty(self) -> int:
        """Back-end I/Os per small random host write (read-modify-write)."""
        return {
            RaidType.R0: 1, RaidType.R1: 2, RaidType.R10: 2, RaidType.R3: 4,
            RaidType.R5: 4, RaidType.R6: 6, RaidType.RAID_DP: 6,
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
        (HP brief: "(N-1) reads ... and a single write")."""
        if self.raid is RaidType.R0:
            return 0
        if self.is_mirror:
            return 1
        return self.width - 1

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
        return f"{self.data_disks}+{self.parity_disks} {self.raid.value}"


def mttdl_hours(raid: RaidType, width: int, groups: int, mttf_disk_h: float, mttr_h: float) -> float:
    """Mean time to data loss for `groups` RAID groups of `width` drives.

    Patterson, Gibson & Katz (1988), as quoted in the HP brief:
      single parity:  MTTF^2 / (N * (G-1) * MTTR)
      double parity:  MTTF^3 / (N * (G-1) * (G-2) * MTTR^2)
      mirror pairs:   MTTF^2 / (N * MTTR)      (G = 2: only the partner's loss is fatal)
    where N is the total number of drives and G the group width. RAID 0 has no redundancy:
    MTTF_disk / N.
    """
    if mttr_h <= 0 or mttf_disk_h <= 0:
        raise ValueError("MTTF and MTTR must be positive")
    n = width * groups
    math = RaidMath(raid, width)
    if raid is RaidType.R0:
        return mttf_disk_h / n
    if math.is_mirror:
        return mttf_disk_h ** 2 / (n * mttr_h)
    if math.failures_tolerated == 2:
        return mttf_disk_h ** 3 / (n * (width - 1) * (width - 2) * mttr_h ** 2)
    return mttf_disk_h ** 2 / (n * (width - 1) * mttr_h)
