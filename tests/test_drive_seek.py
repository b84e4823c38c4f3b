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


def _run(catalog, lun_gb):
    from app.engine import simulate
    from app.engine.cases import build_project

    spec = {"platform": "linux-md",
            "groups": [{"id": 0, "raid": "R5", "drives": 5, "drive_type": "sas-10k-2400", "buses": [0]}],
            "luns": [{"id": 0, "group": 0, "gb": lun_gb}, {"id": 1, "group": 0, "gb": 4000}],
            "workloads": [{"id": "db", "name": "db", "luns": [0], "mode": "closed", "outstanding": 5,
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


@pytest.fixture(scope="module")
def catalog():
    from app.store.presets import load_catalog
    return load_catalog()
