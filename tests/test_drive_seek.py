"""Short-seek: a spinning drive whose random I/Os fall on part of its stroke seeks shorter
(app/domain/hardware.py short_seek_ms, the Layout's group service time; docs/model.md 2.1)."""
from __future__ import annotations

import pytest

from app.domain.hardware import short_seek_ms


def test_seek_curve_gives_the_average_over_the_whole_stroke_and_less_on_part_of_it():
    assert short_seek_ms(8.0, 1.0) == pytest.approx(8.0)
    spans = [1.0, 0.5, 0.2, 0.05, 0.01]
    seeks = [short_seek_ms(8.0, f) for f in spans]
    assert seeks == sorted(seeks, reverse=True) and len(set(seeks)) == len(seeks)  # shorter span, shorter seek
    # Ruemmler & Wilkes' HP 97560 curve: over short seeks (below 383 of 1962 cylinders) the mean
    # over random pairs within a span f is 3.24 + 0.4 sqrt(1962 f) x 8/15 ms; over the whole
    # stroke the long seeks' 8.00 + 0.008 d weigh in (about 13 ms): the ratio of the two scales
    # a drive's own average seek
    f = 0.1
    hp_short_mean = 3.24 + 0.4 * (1962 * f) ** 0.5 * 8 / 15
    assert short_seek_ms(13.0, f) == pytest.approx(hp_short_mean, rel=0.03)
    assert short_seek_ms(0.0, 0.1) == 0.0  # an SSD has no seek


def _run(catalog, lun_gb, outstanding=5, idle_gb=4000):
    from app.engine import simulate
    from app.engine.cases import build_project

    spec = {"platform": "linux-md",
            "groups": [{"id": 0, "raid": "R5", "drives": 5, "drive_type": "sas-10k-2400", "buses": [0]}],
            "luns": [{"id": 0, "group": 0, "gb": lun_gb}] + ([{"id": 1, "group": 0, "gb": idle_gb}] if idle_gb else []),
            "workloads": [{"id": "db", "name": "db", "luns": [0], "mode": "closed", "outstanding": outstanding,
                           "read_pct": 100, "io_kb": 8, "random_pct": 100}],
            "horizon_h": 1.0}
    return simulate(build_project(spec, catalog), catalog).get("iops", "db").at(0.5)


def test_a_small_lun_serves_more_random_iops_than_a_large_one(catalog):
    """Five 2.4 TB 10k SAS drives (4.3 ms average seek): random reads on a 200 GB LUN (a 2%
    span of each drive) against ones on 8 TB (83%). The idle 4 TB LUN beside them does not
    widen the span: only the LUNs a workload addresses count."""
    from app.domain.hardware import seek_span_ratio

    small, large = _run(catalog, 200), _run(catalog, 8000)
    drive = catalog.drive("sas-10k-2400")
    rotation_ms = 30000.0 / drive.rpm
    rest = drive.random_ms - drive.seek_ms  # rotation and transfer do not shorten
    expect = (rest + drive.seek_ms * seek_span_ratio(8000 / 9600)) / (rest + drive.seek_ms * seek_span_ratio(200 / 9600))
    assert rest > rotation_ms
    assert small / large == pytest.approx(expect, rel=0.03)
    assert small / large > 1.25


def test_elevator_shortens_the_seek_as_the_queue_grows():
    from app.domain.hardware import reordered_seek_share

    shares = [reordered_seek_share(1.0, q) for q in (1.0, 2.0, 6.0, 16.0)]
    assert shares[0] == 1.0 and reordered_seek_share(1.0, 0.3) == 1.0  # nothing waits: no reordering
    assert shares == sorted(shares, reverse=True) and len(set(shares)) == 4
    assert 0.6 < shares[2] < 0.8  # six waiting: the gaps between 7 random positions, ~1/8 of the stroke
    assert reordered_seek_share(0.05, 6.0) < 1.0


def test_a_deep_closed_queue_is_served_faster_than_one_at_a_time(catalog):
    """40 outstanding random reads on five drives (8 waiting at each) over the whole group: they
    serve them in order of position, so the group delivers more than with the same drive whose
    catalog gives no seek (the same random_ms, nothing to reorder: served one at a time). One
    outstanding I/O per drive is not reordered: those runs are the same. (A catalog copy, not a
    patched function: the compiled engine calls its own.)"""
    import dataclasses

    drive = catalog.drive("sas-10k-2400")
    no_seek = dataclasses.replace(catalog, drives={**catalog.drives, drive.id: dataclasses.replace(drive, seek_ms=0.0)})
    whole = 4 * drive.capacity_gb  # the group's usable capacity: span 1, no short-seek
    deep, shallow = _run(catalog, whole, 40, idle_gb=0), _run(catalog, whole, 5, idle_gb=0)
    deep_fcfs, shallow_fcfs = _run(no_seek, whole, 40, idle_gb=0), _run(no_seek, whole, 5, idle_gb=0)
    assert deep > 1.1 * deep_fcfs
    assert shallow == pytest.approx(shallow_fcfs, rel=1e-9)
    assert deep > shallow  # more outstanding I/Os: more throughput, never less


@pytest.fixture(scope="module")
def catalog():
    from app.store.presets import load_catalog
    return load_catalog()
