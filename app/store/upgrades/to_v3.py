"""Schema step 2 -> 3 (frozen; written for ArrayPlanner 0.2): a workload's think time gets a column.

Version 2 kept every workload field in workload.doc_json and had no think time: each workload
gets 0 (a closed loop issued its next I/O at once), or, in a document written by a build that
had the field, the doc_json's think_ms, which then leaves the document (the column holds it once).
"""
from __future__ import annotations

import json
import sqlite3
from typing import Any

from app.store.project_json import parse_json

FROM_VERSION, TO_VERSION = 2, 3

SQL = "ALTER TABLE workload ADD COLUMN think_ms REAL NOT NULL DEFAULT 0;"


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def upgrade(con: sqlite3.Connection) -> None:
    con.executescript(SQL)
    for ord_, doc in con.execute("SELECT ord, doc_json FROM workload").fetchall():
        workload = parse_json(doc, f"workload {ord_}.doc_json")  # bounded nesting, as every read
        if isinstance(workload, dict) and "think_ms" in workload:
            think = workload.pop("think_ms")
            con.execute("UPDATE workload SET doc_json = ?, think_ms = ? WHERE ord = ?", (_dumps(workload), think, ord_))
    con.execute("INSERT OR IGNORE INTO meta VALUES ('upgraded_from', '2')")  # (a '1' stays)
