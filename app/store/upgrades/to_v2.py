"""Schema step 1 -> 2 (frozen; written for ArrayPlanner 0.1): one JSON document becomes tables.

Version 1 (ArrayPlanner 0.0.x) kept the whole project as one JSON document in
project_doc(id = 1, json), without the format header and with the platform under "platform".
Version 2 keeps one row per object. This step moves the document's parts into the version 2
tables as they were then; it checks only what a column needs (a list where rows come from, the
keys of NOT NULL columns). The values are checked by today's reader after the last step, which
names the object and field of a wrong one.
"""
from __future__ import annotations

import json
import sqlite3
from typing import Any

from app.store.project_json import ProjectFormatError, parse_json

FROM_VERSION, TO_VERSION = 1, 2

# The version 2 schema exactly as ArrayPlanner 0.1 created it.
SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE project(
    id INTEGER PRIMARY KEY CHECK (id = 1),
    platform_id TEXT NOT NULL,
    info_json TEXT NOT NULL,
    cache_json TEXT NOT NULL,
    features_json TEXT NOT NULL,
    current_scenario TEXT NOT NULL,
    baseline_scenario TEXT,
    horizon_h REAL,
    platform_snapshot TEXT
);
CREATE TABLE enclosure(ord INTEGER PRIMARY KEY, bus INTEGER NOT NULL, position INTEGER NOT NULL,
                       type_id TEXT NOT NULL);
CREATE TABLE drive(ord INTEGER PRIMARY KEY, location TEXT NOT NULL, type_id TEXT NOT NULL,
                   hot_spare INTEGER NOT NULL DEFAULT 0);
CREATE TABLE raid_group(ord INTEGER PRIMARY KEY, id INTEGER NOT NULL, raid TEXT NOT NULL,
                        name TEXT NOT NULL DEFAULT '', drives_json TEXT NOT NULL);
CREATE TABLE lun(ord INTEGER PRIMARY KEY, id INTEGER NOT NULL, group_id INTEGER NOT NULL,
                 capacity_gb REAL NOT NULL, owner TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
                 settings_json TEXT NOT NULL DEFAULT '{}', optimization REAL NOT NULL DEFAULT 1.0);
CREATE TABLE workload(ord INTEGER PRIMARY KEY, id TEXT NOT NULL, doc_json TEXT NOT NULL);
CREATE TABLE scenario(ord INTEGER PRIMARY KEY, name TEXT NOT NULL, notes TEXT NOT NULL DEFAULT '');
CREATE TABLE event(scenario_ord INTEGER NOT NULL REFERENCES scenario(ord), ord INTEGER NOT NULL,
                   id TEXT NOT NULL, kind TEXT NOT NULL, start_h REAL NOT NULL, doc_json TEXT NOT NULL,
                   PRIMARY KEY (scenario_ord, ord));
"""

# The keys a version 1 document had (its JSON form: docs/project-format.md, format version 1).
DOCUMENT_KEYS = frozenset({
    "format", "version", "platform", "platform_id", "info", "cache", "features", "enclosures",
    "drives", "groups", "luns", "workloads", "scenarios", "current_scenario", "baseline_scenario",
    "horizon_h", "platform_snapshot",
})


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false",
            type(None): "null"}.get(type(value), "a number")


def _objects(doc: dict[str, Any], key: str, required: tuple[str, ...],
             allowed: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """doc[key] as a list of objects that each have the `required` keys and, when `allowed` is
    given, no key but those (a table of one column per key has nowhere to keep another; objects
    kept whole in a doc_json column are checked by today's reader)."""
    items = doc.get(key, [])
    if not isinstance(items, list):
        raise ProjectFormatError(f"{key}: expected a list, got {_kind(items)}")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ProjectFormatError(f"{key}[{i}]: expected an object, got {_kind(item)}")
        for name in required:
            if name not in item:
                raise ProjectFormatError(f"{key}[{i}]: missing required field {name!r}")
        if allowed is not None:
            for name in item:
                if name not in required and name not in allowed:
                    raise ProjectFormatError(f"{key}[{i}]: unknown field {name!r}")
    return items


def _cell(value: Any, where: str) -> Any:
    """`value` for an SQLite column: text, a number or null (a list, an object or a whole number
    beyond 64 bits has no column type; today's reader names the field of a wrong scalar)."""
    if isinstance(value, int) and not isinstance(value, bool) and not -2**63 <= value < 2**63:
        raise ProjectFormatError(f"{where}: the whole number {value} is too large for a project file")
    if value is not None and not isinstance(value, (str, int, float)):
        raise ProjectFormatError(f"{where}: expected text or a number, got {_kind(value)}")
    return value


def _cells(item: dict[str, Any], where: str, *keys: str, **defaults: Any) -> tuple[Any, ...]:
    """The column values of `keys` (required) and `defaults` (optional) of one object."""
    return (*(_cell(item[k], f"{where}.{k}") for k in keys),
            *(_cell(item.get(k, d), f"{where}.{k}") for k, d in defaults.items()))


def write_rows(con: sqlite3.Connection, doc: dict[str, Any]) -> None:
    """Insert a project document (format version 1, platform under "platform_id") into empty
    version 2 tables."""
    unknown = sorted(set(doc) - DOCUMENT_KEYS)
    if unknown:
        raise ProjectFormatError(f"unknown field {unknown[0]!r}")
    if "platform_id" not in doc:
        raise ProjectFormatError("missing required field 'platform_id'")
    con.execute("INSERT INTO project VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)", (
        _cell(doc["platform_id"], "platform_id"), _dumps(doc.get("info", {})), _dumps(doc.get("cache", {})),
        _dumps(doc.get("features", {})),
        *_cells(doc, "project", current_scenario="Baseline", baseline_scenario=None, horizon_h=None,
                platform_snapshot=None)))
    enclosures = _objects(doc, "enclosures", ("bus", "position", "type_id"), ())
    con.executemany("INSERT INTO enclosure VALUES (?, ?, ?, ?)",
                    [(i, *_cells(e, f"enclosures[{i}]", "bus", "position", "type_id")) for i, e in enumerate(enclosures)])
    drives = _objects(doc, "drives", ("location", "type_id"), ("hot_spare",))
    for i, d in enumerate(drives):
        if not isinstance(d.get("hot_spare", False), bool):
            raise ProjectFormatError(f"drives[{i}].hot_spare: expected true or false, got {_kind(d['hot_spare'])}")
    con.executemany("INSERT INTO drive VALUES (?, ?, ?, ?)",
                    [(i, *_cells(d, f"drives[{i}]", "location", "type_id"), int(d.get("hot_spare", False)))
                     for i, d in enumerate(drives)])
    groups = _objects(doc, "groups", ("id", "raid", "drives"), ("name",))
    con.executemany("INSERT INTO raid_group VALUES (?, ?, ?, ?, ?)",
                    [(i, *_cells(g, f"groups[{i}]", "id", "raid", name=""), _dumps(g["drives"]))
                     for i, g in enumerate(groups)])
    luns = _objects(doc, "luns", ("id", "group_id", "capacity_gb", "owner"), ("name", "settings", "optimization"))
    con.executemany("INSERT INTO lun VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(i, *_cells(u, f"luns[{i}]", "id", "group_id", "capacity_gb", "owner", name=""),
                      _dumps(u.get("settings", {})), _cell(u.get("optimization", 1.0), f"luns[{i}].optimization"))
                     for i, u in enumerate(luns)])
    workloads = _objects(doc, "workloads", ("id",))
    con.executemany("INSERT INTO workload VALUES (?, ?, ?)",
                    [(i, _cell(w["id"], f"workloads[{i}].id"), _dumps(w)) for i, w in enumerate(workloads)])
    for si, scenario in enumerate(_objects(doc, "scenarios", ("name",), ("notes", "events"))):
        con.execute("INSERT INTO scenario VALUES (?, ?, ?)",
                    (si, *_cells(scenario, f"scenarios[{si}]", "name", notes="")))
        events = _objects(scenario, "events", ("id", "kind", "start_h"))
        con.executemany("INSERT INTO event VALUES (?, ?, ?, ?, ?, ?)",
                        [(si, ei, *_cells(e, f"scenarios[{si}].events[{ei}]", "id", "kind", "start_h"), _dumps(e))
                         for ei, e in enumerate(events)])


def upgrade(con: sqlite3.Connection) -> None:
    row = con.execute("SELECT json FROM project_doc WHERE id = 1").fetchone()
    if row is None:
        raise ProjectFormatError("the version 1 project table is empty")
    doc = parse_json(row[0], "project_doc.json")
    if not isinstance(doc, dict):
        raise ProjectFormatError(f"project_doc.json: expected an object, got {_kind(doc)}")
    if doc.get("format", "arrayplanner-project") != "arrayplanner-project" or doc.get("version", 1) != 1:
        raise ProjectFormatError("project_doc.json: not an ArrayPlanner project document (format, version)")
    if "platform" in doc:  # version 1's name of the key
        if "platform_id" in doc:
            raise ProjectFormatError("project_doc.json: both 'platform' and 'platform_id'")
        doc["platform_id"] = doc.pop("platform")
    con.executescript(SCHEMA)
    write_rows(con, doc)
    con.execute("DROP TABLE project_doc")
    con.execute("INSERT OR REPLACE INTO meta VALUES ('upgraded_from', '1')")
