"""Schema step 5 -> 6 (frozen; written for ArrayPlanner 0.2): RAID group geometry beyond width.

Version 6 keeps a RAID group's stripe (RAID 50/60 drives per span, a distributed group's drives
per stripe) and spare (a distributed group's spare capacity in drives); a version 5 group had
neither: 0, the level's default geometry.
"""
from __future__ import annotations

import sqlite3

FROM_VERSION, TO_VERSION = 5, 6

SQL = """
ALTER TABLE raid_group ADD COLUMN stripe INTEGER NOT NULL DEFAULT 0;
ALTER TABLE raid_group ADD COLUMN spare INTEGER NOT NULL DEFAULT 0;
"""


def upgrade(con: sqlite3.Connection) -> None:
    con.executescript(SQL)
    con.execute("INSERT OR IGNORE INTO meta VALUES ('upgraded_from', '5')")  # (an earlier one stays)
