"""Schema step 3 -> 4 (frozen; written for ArrayPlanner 0.2): tables for measured data.

Version 4 adds two one-row tables, both empty after the upgrade (a version 3 file has imported
no measured data): measured_data(id = 1, doc_json), the imported intervals and their mapping to
the project's objects, and calibration(id = 1, doc_json), the provenance of a calibrated
platform (docs/measured-data.md).
"""
from __future__ import annotations

import sqlite3

FROM_VERSION, TO_VERSION = 3, 4

SQL = """
CREATE TABLE measured_data(id INTEGER PRIMARY KEY CHECK (id = 1), doc_json TEXT NOT NULL);
CREATE TABLE calibration(id INTEGER PRIMARY KEY CHECK (id = 1), doc_json TEXT NOT NULL);
"""


def upgrade(con: sqlite3.Connection) -> None:
    con.executescript(SQL)
    con.execute("INSERT OR IGNORE INTO meta VALUES ('upgraded_from', '3')")  # (an earlier one stays)
