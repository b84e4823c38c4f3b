"""Drive and slot sizes (form_factor, inches): a 3.5" drive does not go into a 2.5" enclosure
(the MD3220's 24 x 2.5" slots took the 300 GB 15k 3.5" drive). A drop is refused with the reason,
a project file with one is a validation error, and a catalog that states no size checks nothing."""
from __future__ import annotations

import json

import pytest

from app.domain import edits
from app.domain.project import Drive, Enclosure, Project
from app.domain.validation import ERROR, validate
from app.store.presets import builtin_presets_dir, load_catalog
from app.store.project_file import load_project
from app.store.project_json import project_to_dict

DELL = "dell-md3200"
SMALL, LARGE, SSD = "sas-10k-300", "sas-15k-300", "ssd-149"  # 2.5", 3.5", no size stated


@pytest.fixture(scope="module")
def cat():
    return load_catalog(builtin_presets_dir(), user_dir=builtin_presets_dir() / "no-such-folder")


def dell(cat) -> Project:
    p = Project(DELL)
    p.cache = cat.platform(DELL).default_cache()
    p.enclosures = [Enclosure(0, 0, "md3220"), Enclosure(0, 1, "md1200")]  # 2.5", 3.5"
    return p


def test_the_dell_presets_state_the_sizes_their_names_give(cat):
    for d in cat.drives.values():
        if '2.5"' in d.name or '3.5"' in d.name:
            assert f'{d.form_factor}"' in d.name and "form_factor" in d.source, d.id
    assert cat.drive(SSD).form_factor == ""  # its name says no size: none is made up
    for pid in ("dell-md3200", "dell-md3200i"):
        for et in cat.platform(pid).enclosure_types.values():
            assert f'x {et.form_factor}"' in et.name and "form_factor" in et.source, et.id


def test_a_drop_of_a_drive_of_another_size_is_refused(cat):
    p = dell(cat)
    assert edits.PlaceDrive("0_0_0", LARGE).check(p, cat) == 'MD3220 RAID enclosure, 24 x 2.5" takes 2.5" drives, not 3.5"'
    assert edits.PlaceDrive("0_1_0", SMALL).check(p, cat) == 'MD1200 expansion, 12 x 3.5" takes 3.5" drives, not 2.5"'
    assert edits.fill_enclosure(p, cat, "0_0", LARGE).check(p, cat) == edits.PlaceDrive("0_0_0", LARGE).check(p, cat)
    for loc, t in (("0_0_0", SMALL), ("0_1_0", LARGE), ("0_0_1", SSD), ("0_1_1", SSD)):
        assert edits.PlaceDrive(loc, t).check(p, cat) is None, (loc, t)
        edits.PlaceDrive(loc, t).do(p)
    assert edits.MoveDrive("0_1_0", "0_0_5").check(p, cat) == 'MD3220 RAID enclosure, 24 x 2.5" takes 2.5" drives, not 3.5"'
    assert edits.MoveDrive("0_0_1", "0_1_5").check(p, cat) is None


def test_a_project_file_with_one_is_an_error(cat, tmp_path):
    p = dell(cat)
    p.drives["0_0_3"] = Drive("0_0_3", LARGE)
    p.drives["0_1_0"] = Drive("0_1_0", LARGE)
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(project_to_dict(p)))
    errors = [i for i in validate(load_project(path), cat) if i.severity == ERROR]
    assert [(i.where, i.text) for i in errors] == [(
        "drive 0_0_3",
        'drive 0_0_3 (300 GB 15k rpm 6Gb SAS 3.5") does not fit enclosure 0_0: '
        'MD3220 RAID enclosure, 24 x 2.5" takes 2.5" drives, not 3.5"')]


def test_a_catalog_without_sizes_checks_none(tmp_path):
    # a user's copy of the 3.5" drive (same id: it replaces the built-in one) that states no size
    (tmp_path / "drives.toml").write_text(
        f'[[drive]]\nid = "{LARGE}"\nname = "300 GB 15k SAS"\ninterface = "SAS"\nrpm = 15000\n'
        'capacity_gb = 300\nseq_mb_s = 150\nrandom_ms = 5.4\nmttf_h = 1600000\nsource = "vendor datasheet"\n')
    mine = load_catalog(builtin_presets_dir(), user_dir=tmp_path)
    assert mine.problems == () and mine.drive(LARGE).form_factor == ""
    p = dell(mine)
    assert edits.PlaceDrive("0_0_0", LARGE).check(p, mine) is None
    p.drives["0_0_0"] = Drive("0_0_0", LARGE)
    assert not [i for i in validate(p, mine) if i.severity == ERROR]
    # and enclosures that state no size take any drive (the CX4's DAE)
    assert all(et.form_factor == "" for et in mine.platform("emc-cx4-960-r28").enclosure_types.values())


@pytest.mark.parametrize("value,ok", [('"2.5"', "2.5"), ("3.5", "3.5"), ('"3.5\\""', "3.5"),
                                      ('"big"', None), ("true", None), ("0", None)])
def test_a_user_drive_size_is_read_or_reported(tmp_path, value, ok):
    (tmp_path / "drives.toml").write_text(
        '[[drive]]\nid = "d1"\nname = "D1"\ninterface = "SAS"\nrpm = 15000\ncapacity_gb = 600\n'
        f'seq_mb_s = 150\nrandom_ms = 5.3\nform_factor = {value}\nsource = "vendor datasheet"\n')
    mine = load_catalog(builtin_presets_dir(), user_dir=tmp_path)
    if ok:
        assert mine.problems == () and mine.drive("d1").form_factor == ok
    else:
        assert "d1" not in mine.drives and any("form_factor" in pr for pr in mine.problems), mine.problems
