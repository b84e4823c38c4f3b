"""Schema step 4 -> 5 (frozen; written for ArrayPlanner 0.2): a scenario's own configuration.

Version 5 lets a scenario carry an overlay, the configuration differences it makes
(scenario.overlay_json, in the JSON form's "overlay" shape). Every scenario of a version 4 file
runs on the project's configuration: NULL.
"""
from __future__ import annotations

import sqlite3

FROM_VERSION, TO_VERSION = 4, 5

SQL = "ALTER TABLE scenario ADD COLUMN overlay_json TEXT;"


def upgrade(con: sqlite3.Connection) -> None:
    con.executescript(SQL)
    con.execute("INSERT OR IGNORE INTO meta VALUES ('upgraded_from', '4')")  # (an earlier one stays)
