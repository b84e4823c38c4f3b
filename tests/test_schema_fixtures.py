"""Files of every schema version (tests/fixtures/schema/, written once by make_fixtures.py and
committed) open as the project they hold, and the frozen upgrade steps bring an old file to
exactly the tables a new save writes."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from app.store import project_file, project_json, upgrades
from app.store.project_file import SCHEMA_VERSION, load_project, save_project

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "schema"
SOURCE = FIXTURES / "hp-sa6402-raid5.json"  # what every fixture holds
VERSIONS = range(1, SCHEMA_VERSION + 1)


def fixture(version: int) -> Path:
    return FIXTURES / f"project-v{version}.arrayplan"


def tables(con: sqlite3.Connection) -> dict[str, list[tuple]]:
    """{table: its columns (name, type, not null, default, primary key) in order}."""
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {n: [tuple(c[1:]) for c in con.execute(f"PRAGMA table_info({n})")] for n in names}


def test_every_version_has_a_fixture():
    """Adding schema step N + 1 needs the file of version N (docs/project-format.md)."""
    for version in VERSIONS:
        assert fixture(version).is_file(), f"no fixture of schema version {version}: see make_fixtures.py"
        with sqlite3.connect(f"{fixture(version).as_uri()}?mode=ro", uri=True) as con:
            assert con.execute("PRAGMA user_version").fetchone()[0] == version


@pytest.mark.parametrize("version", VERSIONS)
def test_a_file_of_each_version_opens_as_its_project(version):
    path = fixture(version)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    # versions 1 and 2 have no think time: 0 for every workload, which the source has too
    assert load_project(path) == load_project(SOURCE)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before, "opening must not rewrite the file"


@pytest.mark.parametrize("version", VERSIONS[:-1])
def test_upgrading_gives_the_tables_of_a_new_file(tmp_path, version):
    new = tmp_path / "new.arrayplan"
    save_project(load_project(SOURCE), new)
    with sqlite3.connect(new) as con:
        expected = tables(con)
    mem = sqlite3.connect(":memory:")
    with sqlite3.connect(fixture(version)) as src:
        src.backup(mem)
    upgrades.upgrade(mem, version)
    assert mem.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert tables(mem) == expected
    mem.close()


@pytest.mark.parametrize("version", VERSIONS[:-1])
def test_the_steps_call_no_reader_or_writer_of_today(monkeypatch, version):
    """A step that called today's reader or writer would upgrade differently after they change."""
    def refuse(*args, **kwargs):
        raise AssertionError("an upgrade step called today's reader or writer")

    for module, name in ((project_file, "_write_rows"), (project_file, "_read_rows"),
                         (project_json, "project_from_dict"), (project_json, "project_to_dict")):
        monkeypatch.setattr(module, name, refuse)
    mem = sqlite3.connect(":memory:")
    with sqlite3.connect(fixture(version)) as src:
        src.backup(mem)
    upgrades.upgrade(mem, version)
    assert mem.execute("SELECT count(*) FROM lun").fetchone()[0] > 0
    mem.close()


def test_steps_are_numbered_by_the_version_they_give():
    assert [(s.FROM_VERSION, s.TO_VERSION) for s in upgrades.STEPS] == [(v, v + 1) for v in VERSIONS[:-1]]
    assert [s.__name__.rsplit(".", 1)[1] for s in upgrades.STEPS] == [f"to_v{v + 1}" for v in VERSIONS[:-1]]
