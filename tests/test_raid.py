"""RAID arithmetic for every RAID type (app/domain/raid.py)."""
from __future__ import annotations

import math

import pytest

from app.domain.raid import RaidMath, RaidType, mttdl_hours

# raid, width -> data disks, parity disks, failures tolerated, write penalty, rebuild fan-out, label
CASES = [
    (RaidType.R0, 4, 4, 0, 0, 1, 0, "4 R0"),
    (RaidType.R1, 2, 1, 1, 1, 2, 1, "1+1 R1"),
    (RaidType.R10, 6, 3, 3, 1, 2, 1, "3+3 R1/0"),
    (RaidType.R10, 8, 4, 4, 1, 2, 1, "4+4 R1/0"),
    (RaidType.R3, 5, 4, 1, 1, 4, 4, "4+1 R3"),
    (RaidType.R5, 5, 4, 1, 1, 4, 4, "4+1 R5"),       # emc: five-disk (4+1) RAID 5
    (RaidType.R5, 6, 5, 1, 1, 4, 5, "5+1 R5"),       # hp: RAID 5 of six drives, N-1 = 5 reads
    (RaidType.R5, 15, 14, 1, 1, 4, 14, "14+1 R5"),   # hitachi: 14D+1P
    (RaidType.R6, 6, 4, 2, 2, 6, 5, "4+2 R6"),       # emc: six-disk (4+2) RAID 6
    (RaidType.R6, 8, 6, 2, 2, 6, 7, "6+2 R6"),
    (RaidType.R6, 7, 5, 2, 2, 6, 6, "5+2 R6"),       # hitachi AMS500 5D+2P
    (RaidType.RAID_DP, 6, 4, 2, 2, 6, 5, "4+2 RAID-DP"),
]


@pytest.mark.parametrize("raid,width,data,parity,tolerated,penalty,fanout,label", CASES,
                         ids=[f"{c[0].value}-{c[1]}" for c in CASES])
def test_raid_math(raid, width, data, parity, tolerated, penalty, fanout, label):
    m = RaidMath(raid, width)
    assert m.data_disks == data
    assert m.parity_disks == parity
    assert m.data_disks + m.parity_disks == width
    assert m.failures_tolerated == tolerated
    assert m.write_penalty == penalty
    assert m.rebuild_read_fanout == fanout
    assert m.label == label


@pytest.mark.parametrize("raid,width,drive_gb,usable", [
    (RaidType.R5, 5, 73, 292),          # 4 x 73
    (RaidType.R6, 6, 500, 2000),        # emc rebuild example: fully bound 4+2 of 500 GB
    (RaidType.R10, 8, 300, 1200),
    (RaidType.R1, 2, 146, 146),
    (RaidType.R0, 3, 100, 300),
    (RaidType.R5, 6, 36.4, 182.0),      # hp: six 36.4 GB drives
    (RaidType.RAID_DP, 6, 144, 576),
])
def test_capacity(raid, width, drive_gb, usable):
    m = RaidMath(raid, width)
    assert m.usable_gb(drive_gb) == pytest.approx(usable)
    assert m.raw_gb(drive_gb) == pytest.approx(width * drive_gb)


def test_mirror_and_parity_flags():
    assert RaidMath(RaidType.R10, 4).is_mirror and not RaidMath(RaidType.R10, 4).is_parity
    assert RaidMath(RaidType.R1, 2).is_mirror
    for t in (RaidType.R3, RaidType.R5, RaidType.R6, RaidType.RAID_DP):
        assert RaidMath(t, 6).is_parity and not RaidMath(t, 6).is_mirror
    assert not RaidMath(RaidType.R0, 4).is_mirror and not RaidMath(RaidType.R0, 4).is_parity


@pytest.mark.parametrize("text,expected", [
    ("R5", RaidType.R5), ("RAID5", RaidType.R5), ("raid 5", RaidType.R5), ("RAID-5", RaidType.R5),
    ("R1/0", RaidType.R10), ("RAID 1+0", RaidType.R10), ("R10", RaidType.R10), ("RAID-1+0", RaidType.R10),
    ("R6", RaidType.R6), ("RAID-DP", RaidType.RAID_DP), ("R0", RaidType.R0), ("R3", RaidType.R3), ("R1", RaidType.R1),
])
def test_parse_spellings(text, expected):
    assert RaidType.parse(text) is expected


def test_parse_unknown():
    with pytest.raises(ValueError, match="unknown RAID type 'RAID 7'"):
        RaidType.parse("RAID 7")


# ---------------------------------------------------------------- MTTDL (Patterson et al. 1988)

def test_mttdl_single_parity_is_the_hp_formula():
    # hp 'Estimating MTTF': MTTF^2 / (N x (G-1) x MTTR)
    mttf, mttr = 1_200_000.0, 24.0
    got = mttdl_hours(RaidType.R5, 6, 1, mttf, mttr)
    assert got == pytest.approx(mttf ** 2 / (6 * 5 * mttr))
    # twice as many groups: half the MTTDL
    assert mttdl_hours(RaidType.R5, 6, 2, mttf, mttr) == pytest.approx(got / 2)


def test_mttdl_double_parity():
    mttf, mttr = 1_000_000.0, 10.0
    got = mttdl_hours(RaidType.R6, 6, 1, mttf, mttr)
    assert got == pytest.approx(mttf ** 3 / (6 * 5 * 4 * mttr ** 2))
    assert mttdl_hours(RaidType.RAID_DP, 6, 1, mttf, mttr) == pytest.approx(got)
    assert got > mttdl_hours(RaidType.R5, 6, 1, mttf, mttr) * 1000


def test_mttdl_mirror_and_raid0():
    mttf, mttr = 1_000_000.0, 10.0
    assert mttdl_hours(RaidType.R10, 8, 1, mttf, mttr) == pytest.approx(mttf ** 2 / (8 * mttr))
    assert mttdl_hours(RaidType.R1, 2, 3, mttf, mttr) == pytest.approx(mttf ** 2 / (6 * mttr))
    assert mttdl_hours(RaidType.R0, 4, 1, mttf, mttr) == pytest.approx(mttf / 4)


def test_mttdl_falls_as_repair_time_grows():
    fast = mttdl_hours(RaidType.R5, 5, 1, 1e6, 2.5)
    slow = mttdl_hours(RaidType.R5, 5, 1, 1e6, 108)   # emc Table 7: a Low rebuild
    assert fast / slow == pytest.approx(108 / 2.5)
    r6_fast = mttdl_hours(RaidType.R6, 6, 1, 1e6, 5)
    r6_slow = mttdl_hours(RaidType.R6, 6, 1, 1e6, 108)
    assert r6_fast / r6_slow == pytest.approx((108 / 5) ** 2)


@pytest.mark.parametrize("mttf,mttr", [(0, 10), (1e6, 0), (-1, 5), (1e6, -2)])
def test_mttdl_rejects_non_positive(mttf, mttr):
    with pytest.raises(ValueError):
        mttdl_hours(RaidType.R5, 5, 1, mttf, mttr)


def test_mttdl_is_finite_for_all_types():
    for t, w in [(RaidType.R0, 4), (RaidType.R1, 2), (RaidType.R10, 4), (RaidType.R3, 5),
                 (RaidType.R5, 5), (RaidType.R6, 6), (RaidType.RAID_DP, 8)]:
        v = mttdl_hours(t, w, 1, 1e6, 12)
        assert math.isfinite(v) and v > 0
