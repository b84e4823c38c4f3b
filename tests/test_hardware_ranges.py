"""Ranges on drive and platform numbers (presets/drives.toml, presets/platforms/*.toml): loaded,
checked with file, table and key in the message, and sampled by the uncertainty bands."""
from __future__ import annotations

import dataclasses
import tomllib

import pytest

from app.service.runner import InProcessExecutor
from app.service.uncertainty import catalog_with, compute_bands, hardware_parameters, with_ranges
from app.store.examples import example_paths
from app.store.presets import builtin_presets_dir, load_catalog
from app.store.project_file import load_project

PRESETS = builtin_presets_dir()
DRIVE = ('[[drive]]\nid = "fc-15k-600"\nname = "600 GB 15k FC"\ninterface = "FC"\nrpm = 15000\n'
         'capacity_gb = 600\nseq_mb_s = 150\nmttf_h = 1600000\nsource = "vendor datasheet"\n')


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_a_ranged_drive_number_loads_as_its_value_and_keeps_its_range(tmp_path):
    (tmp_path / "drives.toml").write_text(
        DRIVE + 'random_ms = { value = 5.3, low = 5.0, high = 5.8, range_source = "datasheet +/- 0.3 ms" }\n')
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.problems == ()
    d = cat.drive("fc-15k-600")
    assert d.random_ms == 5.3 and d.value_ranges == (("random_ms", 5.0, 5.8, "datasheet +/- 0.3 ms"),)


@pytest.mark.parametrize("line, words", [
    ('random_ms = { value = 5.3, low = 5.5, high = 5.8 }', "range low = 5.5, high = 5.8 must hold the value 5.3"),
    ('random_ms = { value = 5.3, low = 5.0 }', "a range needs both low and high (high missing)"),
    ('random_ms = { value = 5.3, low = -1, high = 5.8 }', "random_ms: range low = -1"),
    ('random_ms = { value = 5.3, low = "a", high = 5.8 }', "range low must be a number"),
    ('random_ms = { low = 5.0, high = 5.8 }', "random_ms must be a number or { value"),
    ('random_ms = { value = 5.3, low = 5.0, high = 5.8, spread = 1 }', "random_ms has 'spread'"),
    ('random_ms = 5.3\nrpm = { value = 15000, low = 14000, high = 16000 }', "rpm cannot carry a range"),
])
def test_a_bad_drive_range_is_refused_naming_file_drive_and_key(tmp_path, line, words):
    (tmp_path / "drives.toml").write_text(DRIVE.replace("rpm = 15000\n", "") + line + "\n"
                                          + ("" if "rpm" in line else "rpm = 15000\n"))
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert "fc-15k-600" not in cat.drives
    text = " ".join(cat.problems)
    assert "drives.toml" in text and "[[drive]] 'fc-15k-600'" in text and words in text, text


def test_a_platform_bus_rate_may_carry_a_range(tmp_path):
    text = (PRESETS / "platforms" / "hp-sa6402-msa30.toml").read_text()
    text = text.replace('id = "hp-sa6402-msa30"', 'id = "my-cx4"').replace(
        "bus_mb_s = 320\n", 'bus_mb_s = { value = 400, low = 360, high = 420, range_source = "test" }\n')
    (tmp_path / "mine.toml").write_text(text)
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.problems == ()
    pf = cat.platform("my-cx4")
    assert pf.bus_mb_s == 400 and pf.value_ranges == (("back_end.bus_mb_s", 360.0, 420.0, "test"),)
    params = hardware_parameters(cat, "my-cx4", ())
    assert [(p.path, p.value, p.low, p.high) for p in params] == [("platform:back_end.bus_mb_s", 400, 360, 420)]
    assert catalog_with(cat, "my-cx4", {"platform:back_end.bus_mb_s": 380.0}).platform("my-cx4").bus_mb_s == 380.0
    (tmp_path / "mine.toml").write_text(text.replace("low = 360", "low = 0"))
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert "my-cx4" not in cat.platforms and "[back_end] bus_mb_s: range low = 0" in " ".join(cat.problems)


def test_every_shipped_drive_range_says_where_it_comes_from(catalog):
    doc = tomllib.loads((PRESETS / "drives.toml").read_text())
    ranged = [(d["id"], k) for d in doc["drive"] for k, v in d.items() if isinstance(v, dict)]
    assert ranged  # the class figures of the older drives carry a stated +/-
    for tid, key in ranged:
        lo, hi, src = next((lo, hi, s) for k, lo, hi, s in catalog.drive(tid).value_ranges if k == key)
        assert lo < getattr(catalog.drive(tid), key) < hi and src.startswith("assumption +/-"), (tid, key)


def test_the_bands_sample_the_drives_the_project_uses(catalog):
    path = next(p for p in example_paths() if p.name == "emc-cx4-960-oltp.json")
    project = load_project(path)
    used = sorted({d.type_id for d in project.drives.values()})
    bare = with_ranges(catalog, project.platform_id, {}, keep_others=False)  # no range at all
    assert not hardware_parameters(bare, project.platform_id, used)
    bare = dataclasses.replace(bare, drives={**bare.drives, **{tid: catalog.drive(tid) for tid in used}})
    bands = compute_bands(project, bare, samples=12, seed=3, executor=InProcessExecutor(), chunk=4)
    assert bands is not None and bands.parameters
    assert {p.path.split(".")[0] for p in bands.parameters} == {f"drive:{tid}" for tid in used
                                                                  if catalog.drive(tid).value_ranges}
    resp = bands.series_band("response_ms", project.workloads[0].id)
    assert (resp.p90 - resp.p10).max() > 0  # the drives' service time moves the host response
    fixed = dataclasses.replace(bare, drives={tid: dataclasses.replace(d, value_ranges=())
                                              for tid, d in bare.drives.items()})
    still = compute_bands(project, fixed, samples=12, seed=3, executor=InProcessExecutor(), chunk=4)
    assert not still.parameters
    flat = still.series_band("response_ms", project.workloads[0].id)
    assert (flat.p90 - flat.p10).max() == 0
