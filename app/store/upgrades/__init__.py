"""The project file's schema upgrades, frozen: one module per step, as Anki does.

Module `to_vN` turns a version N-1 database into version N. Each step is fixed code with its
own copy of the SQL of its time: it never calls today's reader or writer (app/store/
project_file.py), so changing those can never change what an old file upgrades to. A step may
use only sqlite3, json and the bounded JSON decoder project_json.parse_json (no project model).

Adding version N+1 (docs/project-format.md, "Adding a schema version"):
  1. app/store/upgrades/to_vN+1.py with FROM_VERSION = N, TO_VERSION = N+1 and upgrade(con);
  2. its name appended to STEPS below;
  3. project_file's SCHEMA, _write_rows and _read_rows for the new version (a test checks that a
     version 1 file upgraded through every step has exactly the tables of a newly saved one);
  4. the fixture of version N+1 under tests/fixtures/schema/ (make_fixtures.py there); the
     fixture of version N is already there.
Never edit a step that has been released: write a new one.
"""
from __future__ import annotations

import sqlite3

from . import to_v2, to_v3, to_v4, to_v5, to_v6

# STEPS[i] turns version i + 1 into i + 2; the schema version the app writes is the last one's.
STEPS = (to_v2, to_v3, to_v4, to_v5, to_v6)
LATEST = STEPS[-1].TO_VERSION

for _number, _step in enumerate(STEPS, start=1):
    assert (_step.FROM_VERSION, _step.TO_VERSION) == (_number, _number + 1), _step.__name__


def upgrade(con: sqlite3.Connection, from_version: int) -> None:
    """Run the steps from `from_version` to LATEST on `con`, each followed by its user_version."""
    for step in STEPS[from_version - 1:]:
        step.upgrade(con)
        con.execute(f"PRAGMA user_version = {step.TO_VERSION}")
