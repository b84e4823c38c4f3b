"""Project files: JSON and SQLite round trips, schema upgrade, refusal of foreign/corrupt/too-new
files without touching them, atomic saves, embedded platforms."""
from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
from pathlib import Path

import pytest

from app.domain.validation import validate
from app.store import project_file
from app.store.upgrades import to_v2
from app.store.project_file import (
    APPLICATION_ID, SCHEMA_VERSION, ProjectFileError, catalog_for, load_project, save_project,
)
from app.store.project_json import ProjectFormatError, project_from_dict, project_to_dict


def digest(path: Path) -> tuple[str, float]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def folder_listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ---------------------------------------------------------------- round trips

def test_json_round_trip(example_path):
    project = load_project(example_path)
    d = project_to_dict(project)
    assert d["format"] == "arrayplanner-project" and d["version"] == 1
    again = project_from_dict(json.loads(json.dumps(d)))
    assert again == project
    assert project_to_dict(again) == d


def test_sqlite_round_trip(example_path, tmp_path):
    project = load_project(example_path)
    path = tmp_path / "p.arrayplan"
    save_project(project, path)
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        # the schema is real: one row per object
        assert con.execute("SELECT count(*) FROM lun").fetchone()[0] == len(project.luns)
        assert con.execute("SELECT count(*) FROM drive").fetchone()[0] == len(project.drives)
        assert con.execute("SELECT count(*) FROM event").fetchone()[0] == sum(len(s.events) for s in project.scenarios)
    assert load_project(path) == project
    # and back out as JSON
    out = tmp_path / "p.json"
    save_project(load_project(path), out)
    assert load_project(out) == project


def test_save_twice_replaces(tmp_path, load_example):
    p = load_example("hp-sa6402-raid5")
    path = tmp_path / "p.arrayplan"
    save_project(p, path)
    p.info.title = "Changed"
    p.luns[0].capacity_gb = 100
    save_project(p, path)
    q = load_project(path)
    assert q.info.title == "Changed" and q.luns[0].capacity_gb == 100
    assert folder_listing(tmp_path) == ["p.arrayplan"]


def test_arrayplan_without_suffix_is_recognised(tmp_path, load_example):
    path = tmp_path / "noext"
    save_project(load_example("netapp-fas-wafl"), path)
    assert load_project(path) == load_example("netapp-fas-wafl")


# ---------------------------------------------------------------- schema upgrade

def make_v1_file(path: Path, project, mutate=None) -> None:
    """A version 1 file as ArrayPlanner 0.0.x wrote it: one JSON document, no format header,
    the platform under "platform" (then changed by `mutate(doc)`, when given)."""
    doc = project_to_dict(project)
    doc.pop("format")
    doc.pop("version")
    doc["platform"] = doc.pop("platform_id")
    if mutate is not None:
        mutate(doc)
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute("CREATE TABLE project_doc(id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL)")
    con.execute("INSERT INTO project_doc VALUES (1, ?)", (json.dumps(doc),))
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()


def test_upgrade_from_v1(tmp_path, load_example):
    project = load_example("emc-cx4-960-oltp")
    path = tmp_path / "old.arrayplan"
    make_v1_file(path, project)
    before = digest(path)
    loaded = load_project(path)
    assert loaded == project
    assert digest(path) == before, "opening an old file must not rewrite it"
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    save_project(loaded, path)  # saving writes the current schema
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "project_doc" not in tables and {"lun", "raid_group", "event"} <= tables
    assert load_project(path) == project


def make_v2_file(path: Path, project) -> None:
    """A version 2 file as ArrayPlanner wrote it before think time: the v2 tables, each
    workload's fields in its doc_json, no think_ms anywhere."""
    d = project_to_dict(project)
    for w in d["workloads"]:
        w.pop("think_ms")
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.executescript(to_v2.SCHEMA)  # the frozen version 2 schema and rows
    to_v2.write_rows(con, d)
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()


def test_upgrade_from_v2_adds_think_time(tmp_path, load_example):
    project = load_example("hp-sa6402-raid5")
    assert all(w.think_ms == 0 for w in project.workloads)
    path = tmp_path / "v2.arrayplan"
    make_v2_file(path, project)
    with sqlite3.connect(path) as con:
        columns = [r[1] for r in con.execute("PRAGMA table_info(workload)")]
    assert "think_ms" not in columns
    before = digest(path)
    loaded = load_project(path)
    assert loaded == project  # think time 0: a closed load issues its next I/O at once, as before
    assert digest(path) == before, "opening an old file must not rewrite it"
    loaded.workloads[0].think_ms = 12.5
    save_project(loaded, path)
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        think, doc = con.execute("SELECT think_ms, doc_json FROM workload ORDER BY ord").fetchone()
    assert think == 12.5 and "think_ms" not in json.loads(doc)  # the column holds it, once
    assert load_project(path).workloads[0].think_ms == 12.5


def test_think_time_round_trips(tmp_path, load_example):
    project = load_example("hp-sa6402-raid5")
    project.workloads[0].mode, project.workloads[0].think_ms = "closed", 7.25
    for name in ("p.arrayplan", "p.json"):
        save_project(project, tmp_path / name)
        assert load_project(tmp_path / name) == project
    # a JSON file without the key (every file written before think time) reads as 0
    d = project_to_dict(project)
    del d["workloads"][0]["think_ms"]
    assert project_from_dict(d).workloads[0].think_ms == 0.0
    d["workloads"][0]["think_ms"] = "soon"
    with pytest.raises(ProjectFormatError, match=r"workloads\[0\]|think_ms"):
        project_from_dict(d)


def test_broken_v1_document_is_a_clear_error(tmp_path):
    path = tmp_path / "bad-v1.arrayplan"
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    con.execute("CREATE TABLE project_doc(id INTEGER PRIMARY KEY, json TEXT)")
    con.execute("INSERT INTO project_doc VALUES (1, ?)", (json.dumps({"platform": "emc-cx4-960-r28", "luns": 5}),))
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    before = digest(path)
    with pytest.raises(ProjectFileError, match=r"bad-v1.arrayplan: invalid project data: luns"):
        load_project(path)
    assert digest(path) == before


@pytest.mark.parametrize("mutate, pattern", [
    (lambda d: d["enclosures"][0].update(bus=[1]), r"enclosures\[0\]\.bus: expected text or a number, got a list"),
    (lambda d: d["luns"][0].update(id=10**30), r"luns\[0\]\.id: the whole number 1000+ is too large"),
    (lambda d: d["scenarios"][0].update(name={"a": 1}), r"scenarios\[0\]\.name: expected text or a number"),
    (lambda d: d["drives"][0].update(hot_spare="yes"), r"drives\[0\]\.hot_spare: expected true or false"),
    (lambda d: d["drives"][1].pop("location"), r"drives\[1\]: missing required field 'location'"),
    (lambda d: d["enclosures"][0].update(colour="red"), r"enclosures\[0\]: unknown field 'colour'"),
    (lambda d: d.update(platform_id="x"), r"both 'platform' and 'platform_id'"),
    (lambda d: d["luns"][0].update(capacity_gb="big"), r"capacity_gb: expected a number, got the text 'big'"),
])
def test_a_bad_v1_document_is_refused_naming_the_field(tmp_path, load_example, mutate, pattern):
    """The frozen 1 -> 2 step checks what its columns need; today's reader checks the values."""
    path = tmp_path / "bad-v1.arrayplan"
    make_v1_file(path, load_example("hp-sa6402-raid5"), mutate)
    before = digest(path)
    with pytest.raises(ProjectFileError, match=r"bad-v1.arrayplan: invalid project data: .*" + pattern):
        load_project(path)
    assert digest(path) == before


# ---------------------------------------------------------------- refusing files, untouched

def assert_refused(path: Path, pattern: str) -> str:
    before = digest(path)
    listing = folder_listing(path.parent)
    with pytest.raises(ProjectFileError) as info:
        load_project(path)
    msg = str(info.value)
    assert "\n" not in msg and str(path.name) in msg
    assert re.search(pattern, msg), msg
    assert digest(path) == before, "a refused file must not change"
    assert folder_listing(path.parent) == listing, "no journal or temp file may be left behind"
    return msg


def test_too_new_file(tmp_path, load_example):
    path = tmp_path / "future.arrayplan"
    save_project(load_example("hp-sa6402-raid5"), path)
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA user_version = 99")
    assert_refused(path, rf"newer ArrayPlanner \(project schema version 99; this version reads up to {SCHEMA_VERSION}\)")


def test_foreign_sqlite_file(tmp_path):
    path = tmp_path / "someone-else.arrayplan"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE t(x)")
        con.execute("INSERT INTO t VALUES (1)")
    assert_refused(path, r"not an ArrayPlanner project \(an SQLite database of another application\)")


def test_truncated_file(tmp_path, load_example):
    path = tmp_path / "cut.arrayplan"
    save_project(load_example("emc-cx4-960-oltp"), path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert_refused(path, r"damaged")


def test_truncated_header(tmp_path, load_example):
    path = tmp_path / "cut.arrayplan"
    save_project(load_example("hp-sa6402-raid5"), path)
    path.write_bytes(path.read_bytes()[:40])
    assert_refused(path, r"truncated")


def test_random_bytes(tmp_path):
    path = tmp_path / "noise.arrayplan"
    path.write_bytes(random.Random(7).randbytes(8192))
    assert_refused(path, r"not an ArrayPlanner project")


def test_garbage_inside_a_valid_header(tmp_path, load_example):
    path = tmp_path / "scribbled.arrayplan"
    save_project(load_example("emc-cx4-960-oltp"), path)
    data = bytearray(path.read_bytes())
    rng = random.Random(3)
    for i in range(4096, len(data)):  # keep page 1 (the header and schema), scribble over the rest
        data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))
    assert_refused(path, r"damaged|invalid project data")


def test_empty_and_text_files(tmp_path):
    empty = tmp_path / "empty.arrayplan"
    empty.write_bytes(b"")
    assert_refused(empty, r"empty")
    text = tmp_path / "notes.arrayplan"
    text.write_text("hello, this is not a project\n")
    assert_refused(text, r"not an ArrayPlanner project")


def test_bad_json_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "arrayplanner-project", "version": 1,')
    assert_refused(bad, r"not valid JSON")
    other = tmp_path / "other.json"
    other.write_text('{"name": "package.json"}')
    assert_refused(other, r"not an ArrayPlanner project")
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)))
    assert_refused(binary, r"not text|not valid JSON")
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"format": "arrayplanner-project", "version": 7, "platform_id": "x"}))
    assert_refused(newer, r"newer ArrayPlanner")


def test_a_json_error_says_where_once(tmp_path):
    # Python's "Unterminated string starting at" came out as "starting at at line 1"
    cut = tmp_path / "cut.json"
    cut.write_text('{"format": "arrayplanner-project", "name": "unfinished')
    msg = assert_refused(cut, r"Unterminated string starting at line 1, column 44\)")
    assert " at at " not in msg


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ProjectFileError, match="no such file"):
        load_project(tmp_path / "nothere.arrayplan")
    with pytest.raises(ProjectFileError, match="folder"):
        load_project(tmp_path)


# ---------------------------------------------------------------- malformed JSON content

@pytest.mark.parametrize("mutate,pattern", [
    (lambda d: d.pop("platform_id"), r"^platform_id: missing"),
    (lambda d: d["luns"][0].update(capacity_gb="big"), r"luns\[0\] \(LUN 0\)\.capacity_gb: expected a number, got the text 'big'"),
    (lambda d: d["luns"][0].update(id=1.5), r"luns\[0\]\.id: expected a whole number, got the number 1.5"),
    (lambda d: d["groups"][0].update(raid="RAID 9"), r"groups\[0\] \(RG 0\)\.raid: unknown RAID type 'RAID 9'"),
    (lambda d: d["groups"][0].update(drives="0_0_1"), r"groups\[0\] \(RG 0\)\.drives: expected a list"),
    (lambda d: d["drives"][0].update(hot_spare="no"), r"drives\[0\] \(drive 0_0_0\)\.hot_spare: expected true or false"),
    (lambda d: d["scenarios"][0]["events"].append({"kind": "teleport", "id": "x", "start_h": 0}),
     r"scenarios\[0\] \(scenario 'Baseline'\)\.events\[\d+\] \(x\)\.kind: unknown event kind 'teleport'"),
    (lambda d: d["scenarios"][0]["events"].append({"kind": "bind", "id": "x", "start_h": 0, "speed": 3}),
     r"unknown field 'speed'"),
    (lambda d: d["scenarios"][0]["events"].append({"kind": "bind", "id": "x"}), r"start_h: missing"),
    (lambda d: d.update(colour="blue"), r"unknown field 'colour'"),
    (lambda d: d.update(format="something"), r"not an ArrayPlanner project"),
    (lambda d: d.update(enclosures={}), r"enclosures: expected a list"),
    (lambda d: d["workloads"].append({"id": "w", "luns": ["a"]}), r"workloads\[\d+\] \(workload w\)\.luns\[0\]: expected a whole number"),
    (lambda d: d["luns"][0].update(capacity_gb=float("inf")), r"finite"),
])
def test_malformed_project_dicts(load_example, mutate, pattern):
    d = project_to_dict(load_example("emc-cx4-960-oltp"))
    mutate(d)
    with pytest.raises(ProjectFormatError, match=pattern):
        project_from_dict(d)


def test_not_an_object():
    with pytest.raises(ProjectFormatError, match="expected an object"):
        project_from_dict([1, 2, 3])


# ---------------------------------------------------------------- atomic saves

def test_failed_save_midway_leaves_old_file(tmp_path, load_example, monkeypatch):
    path = tmp_path / "keep.arrayplan"
    original = load_example("hp-sa6402-raid5")
    save_project(original, path)
    before = digest(path)

    real = project_file._write_rows

    def half_write(con, d):
        con.execute("INSERT INTO project VALUES (1, 'x', '{}', '{}', '{}', 'B', NULL, NULL, NULL)")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(project_file, "_write_rows", half_write)
    changed = load_example("emc-cx4-960-oltp")
    with pytest.raises(ProjectFileError, match=r"could not be saved .*No space left.*previous file is unchanged"):
        save_project(changed, path)
    assert digest(path) == before
    assert folder_listing(tmp_path) == ["keep.arrayplan"], "the temporary file is removed"
    monkeypatch.setattr(project_file, "_write_rows", real)
    assert load_project(path) == original


def test_failed_replace_leaves_old_file(tmp_path, load_example, monkeypatch):
    path = tmp_path / "keep.json"
    save_project(load_example("netapp-fas-wafl"), path)
    before = digest(path)

    def no_replace(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(project_file.os, "replace", no_replace)
    with pytest.raises(ProjectFileError, match="Permission denied"):
        save_project(load_example("emc-cx4-960-oltp"), path)
    assert digest(path) == before
    assert folder_listing(tmp_path) == ["keep.json"]


def test_interrupted_save_leaves_old_file(tmp_path, load_example, monkeypatch):
    """Even an exception that is not an I/O error (e.g. Ctrl+C) never leaves a half-written file."""
    path = tmp_path / "keep.arrayplan"
    save_project(load_example("hp-sa6402-raid5"), path)
    before = digest(path)

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(project_file, "_write_rows", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_project(load_example("emc-cx4-960-oltp"), path)
    assert digest(path) == before
    assert folder_listing(tmp_path) == ["keep.arrayplan"]


def test_save_into_missing_folder(tmp_path, load_example):
    with pytest.raises(ProjectFileError, match="does not exist"):
        save_project(load_example("hp-sa6402-raid5"), tmp_path / "no" / "such" / "p.arrayplan")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores folder permissions")
def test_save_into_read_only_folder(tmp_path, load_example):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(ProjectFileError, match="cannot write"):
            save_project(load_example("hp-sa6402-raid5"), ro / "p.arrayplan")
    finally:
        ro.chmod(0o700)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
@pytest.mark.parametrize("umask", [0o002, 0o022, 0o077])
@pytest.mark.parametrize("name", ["new.arrayplan", "new.json"])
def test_a_new_file_gets_the_mode_of_a_normally_created_file(tmp_path, load_example, umask, name):
    """Not mkstemp's 0o600: colleagues could not open a project saved to a shared folder."""
    old = os.umask(umask)
    try:
        save_project(load_example("hp-sa6402-raid5"), tmp_path / name)
        (tmp_path / "plain").write_text("")
    finally:
        os.umask(old)
    assert (tmp_path / name).stat().st_mode & 0o7777 == 0o666 & ~umask
    assert (tmp_path / name).stat().st_mode & 0o7777 == (tmp_path / "plain").stat().st_mode & 0o7777


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_overwriting_keeps_the_files_mode(tmp_path, load_example):
    path = tmp_path / "p.arrayplan"
    save_project(load_example("hp-sa6402-raid5"), path)
    for mode in (0o600, 0o664):
        path.chmod(mode)
        save_project(load_example("emc-cx4-960-oltp"), path)
        assert path.stat().st_mode & 0o7777 == mode
    assert folder_listing(tmp_path) == ["p.arrayplan"]


# ---------------------------------------------------------------- embedded platforms

def make_user_platform(folder: Path) -> None:
    src = (Path(__file__).resolve().parents[1] / "presets" / "platforms" / "emc-cx4-960-r28.toml").read_text()
    text = src.replace('id = "emc-cx4-960-r28"', 'id = "acme-cx4-lab"').replace(
        'name = "EMC CLARiiON CX4-960 (FLARE 28)"', 'name = "Lab CX4 with 4 buses"').replace(
        "buses = 8\n", "buses = 4\n")
    (folder / "acme.toml").write_text(text)


def test_custom_platform_travels_with_the_file(tmp_path, catalog, load_example):
    from app.store.presets import builtin_presets_dir, load_catalog

    user = tmp_path / "user-presets"
    user.mkdir()
    make_user_platform(user)
    with_user = load_catalog(builtin_presets_dir(), user_dir=user)
    assert with_user.platform("acme-cx4-lab").buses == 4 and not with_user.platform("acme-cx4-lab").builtin

    project = load_example("emc-cx4-960-worked-examples")
    project.platform_id = "acme-cx4-lab"
    path = tmp_path / "custom.arrayplan"
    save_project(project, path, with_user)
    assert project.platform_snapshot is None, "saving does not change the caller's project"

    # elsewhere: only the built-in presets
    loaded = load_project(path)
    assert loaded.platform_snapshot and 'id = "acme-cx4-lab"' in loaded.platform_snapshot
    assert "acme-cx4-lab" not in catalog.platforms
    assert any(i.where == "project" and i.severity == "error" for i in validate(loaded, catalog))
    cat2 = catalog_for(loaded, catalog)
    pf = cat2.platform("acme-cx4-lab")
    assert pf.buses == 4 and pf.name == "Lab CX4 with 4 buses"
    assert [i for i in validate(loaded, cat2) if i.severity == "error"] == []
    # rates come along too
    assert pf.rates.param("policy.migration.High.mb_s").value == with_user.platform("acme-cx4-lab").rates.param(
        "policy.migration.High.mb_s").value


def test_every_builtin_platform_snapshot_reads_back_as_its_documents(catalog):
    """platform_snapshot_text (tomli-w) writes what tomllib reads back unchanged: every built-in
    platform's preset and rate tables, and the platform rebuilt from it matches the original."""
    import tomllib

    from app.store.presets import platform_from_text
    from app.store.toml_write import platform_snapshot_text

    for pid, platform in catalog.platforms.items():
        text = platform_snapshot_text(platform)
        doc = tomllib.loads(text)
        assert doc.pop("rates_inline") == dict(platform.rates_document), pid
        assert doc == dict(platform.document), pid
        again = platform_from_text(text, catalog)
        assert (again.id, again.buses, again.name) == (platform.id, platform.buses, platform.name), pid


def test_toml_dumps_round_trips_awkward_values():
    import math
    import tomllib

    from app.store.toml_write import dumps

    doc = {"plain key": "caf\u00e9 \"quoted\"\n\\", "n": -3, "x": 1e-9, "big": 1e300, "yes": False,
           "empty": [], "mixed": [{"a": 1}, {"b": [1.5, 2]}], "t": {"inner": {"k.dot": "v"}},
           "aot": [{"name": "one"}, {"name": "two", "sub": {"z": 0}}], "inf": math.inf}
    back = tomllib.loads(dumps(doc))
    assert back == doc
    assert math.isnan(tomllib.loads(dumps({"v": math.nan}))["v"])
    with pytest.raises(TypeError):
        dumps({"none": None})


def test_builtin_platform_carries_no_snapshot(tmp_path, catalog, load_example):
    p = load_example("hp-sa6402-raid5")
    p.platform_snapshot = "stale"
    save_project(p, tmp_path / "p.arrayplan", catalog)
    assert load_project(tmp_path / "p.arrayplan").platform_snapshot is None


def test_broken_snapshot_is_a_clear_error(catalog, load_example):
    p = load_example("hp-sa6402-raid5")
    p.platform_id = "gone"
    p.platform_snapshot = "id = [unclosed"
    with pytest.raises(ProjectFileError, match="embedded platform 'gone' cannot be read"):
        catalog_for(p, catalog)


def test_upgrade_from_v5_keeps_default_geometry_and_saves_stripe(tmp_path, load_example):
    """Schema 6 adds raid_group.stripe / spare; a version 5 file (the committed fixture) opens
    with the defaults (0) and a distributed group's geometry round-trips through a save."""
    import shutil

    project = load_example("dell-me5-adapt")
    assert project.groups[0].stripe == 18
    old = tmp_path / "v5.arrayplan"
    shutil.copy(Path(__file__).parent / "fixtures/schema/project-v5.arrayplan", old)
    loaded = load_project(old)
    assert loaded.groups and all(g.stripe == 0 and g.spare == 0 for g in loaded.groups)  # v5 had no geometry
    path = tmp_path / "me5.arrayplan"
    save_project(project, path)
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == project_file.SCHEMA_VERSION
    assert load_project(path).groups[0].stripe == 18
