"""Issue 23: read and write response apart in the scenario comparison (and so in its CSV and the
report): each workload's mean read and mean write response, from the engine's
response_read_ms / response_write_ms series."""
from __future__ import annotations

import math

import pytest

from app.engine import simulate
from app.engine.compare import _time_mean, compare
from app.store.examples import example_path
from app.store.presets import default_catalog
from app.store.project_file import load_project


@pytest.fixture(scope="module")
def runs():
    cat = default_catalog()
    p = load_project(example_path("hp-sa6402-raid5"))
    return p, simulate(p, cat, "OLTP 2 KB, rebuild at High"), simulate(p, cat, "OLTP 2 KB, rebuild at Low")


def test_reads_and_writes_get_their_own_rows(runs):
    project, high, low = runs
    rows = compare(low, high, project, project)
    rw = {r.key: r for r in rows if r.section == "Read/write response"}
    wid = next(iter(high.entities("response_read_ms")))
    reads, writes = rw[f"{wid}:reads"], rw[f"{wid}:writes"]
    assert reads.baseline == pytest.approx(_time_mean(high.get("response_read_ms", wid), high.horizon_h))
    assert writes.current == pytest.approx(_time_mean(low.get("response_write_ms", wid), low.horizon_h))
    assert not math.isclose(reads.baseline, writes.baseline)  # two figures, not the mean twice
    assert reads.label.endswith(": reads") and reads.unit == "ms"
    # after the mean response rows, before the IOPS rows
    sections = [r.section for r in rows]
    assert sections.index("Mean response") < sections.index("Read/write response") < sections.index("IOPS")
