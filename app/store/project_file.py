"""Project files: one SQLite database per project (.arrayplan), plus JSON import/export.

    project = load_project(path)          # .arrayplan or .json; ProjectFileError with one clear line
    save_project(project, path)           # .arrayplan (atomic) or .json (atomic)
    catalog = catalog_for(project, catalog)  # adds the project's embedded platform when needed

The file format (docs/project-format.md):

* PRAGMA application_id = APPLICATION_ID marks the file as ours; PRAGMA user_version holds the
  schema version. Opening a file whose user_version is newer than SCHEMA_VERSION is refused with a
  message, never guessed at.
* Upgrades are numbered steps (as Anki does), frozen, one module each in app/store/upgrades/:
  to_vN turns a version N-1 database into version N (upgrades.STEPS[N - 2]), with its own copy
  of the SQL of its time, never this module's reader or writer. An old file is upgraded in
  memory when opened; it is rewritten only when saved.
* Files are opened read-only (a failed or refused open never changes a byte) and saved atomically:
  the new database is written to a temporary file in the same folder, fsynced, then moved over
  the old one with os.replace. A save that fails at any point leaves the old file as it was.
  Saving through a symbolic link writes its target (the link stays a link); each save removes
  the temporary files that killed saves left in that folder (app/store/disk.py).

Schema version 6 (current, SCHEMA below) stores the project in normalized tables, one row per
object, with the free-form parts (settings, workload and event fields) as JSON text, and two
one-row tables for what a calibration needs (docs/measured-data.md): measured_data, the imported
intervals and their mapping to the project's objects, and calibration, the provenance of the
calibrated platform (which itself is the platform_snapshot). No row: none.
A scenario row's overlay_json (NULL: the scenario runs on the project's configuration) holds
the configuration differences it makes, in the JSON form's "overlay" shape.
A RAID group row's stripe (RAID 50/60 drives per span, a distributed group's drives per stripe)
and spare (a distributed group's spare capacity in drives) are INTEGER, 0 = the level's default.

    meta(key PRIMARY KEY, value)                       app version, format, saved_at
    project(id = 1, platform_id, info_json, cache_json, features_json, current_scenario,
            baseline_scenario, horizon_h, platform_snapshot)
    enclosure(ord, bus, position, type_id)
    drive(ord, location, type_id, hot_spare)
    raid_group(ord, id, raid, name, drives_json)
    lun(ord, id, group_id, capacity_gb, owner, name, settings_json, optimization)
    workload(ord, id, doc_json, think_ms)
    scenario(ord, name, notes)
    event(scenario_ord, ord, id, kind, start_h, doc_json)

Version 5 had no raid_group.stripe and spare (app/store/upgrades/to_v6.py); version 4 had no
scenario.overlay_json (to_v5.py); version 3 had no
measured_data and calibration tables (to_v4.py); version 2
had no workload.think_ms (to_v3.py); version 1 (ArrayPlanner 0.0.x)
kept the whole project as one JSON document, project_doc(id = 1, json) (to_v2.py).
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable

from app.domain.hardware import Catalog
from app.domain.project import Project

from . import disk, upgrades
from .project_json import (
    FORMAT, FORMAT_VERSION, ProjectFormatError, parse_json, project_from_dict, project_to_dict,
)
from .safe_read import UnreadableFile, open_regular, read_regular

APPLICATION_ID = 0x41504C4E  # "APLN"
SCHEMA_VERSION = upgrades.LATEST  # the version the last step of app/store/upgrades/ gives
SUFFIX = ".arrayplan"
SQLITE_MAGIC = b"SQLite format 3\x00"
# The largest .json project read: a bigger "project" (a symlink to /dev/zero, a log renamed
# .json) is refused before it fills the memory. A project of 10^6 operations is ~250 MB of JSON
# and needs ~3 GB to load; a .arrayplan file has no such limit.
MAX_JSON_BYTES = 512 * 1024 * 1024


class ProjectFileError(Exception):
    """A project file cannot be read or written; the message is one line naming the file."""


# ---------------------------------------------------------------- the current schema

# The latest version as a new file gets it. The steps in app/store/upgrades/ bring an older file to the
# same tables (tests/test_store.py checks it); they keep their own copies of older schemas.
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
                        name TEXT NOT NULL DEFAULT '', drives_json TEXT NOT NULL,
                        stripe INTEGER NOT NULL DEFAULT 0, spare INTEGER NOT NULL DEFAULT 0);
CREATE TABLE lun(ord INTEGER PRIMARY KEY, id INTEGER NOT NULL, group_id INTEGER NOT NULL,
                 capacity_gb REAL NOT NULL, owner TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
                 settings_json TEXT NOT NULL DEFAULT '{}', optimization REAL NOT NULL DEFAULT 1.0);
CREATE TABLE workload(ord INTEGER PRIMARY KEY, id TEXT NOT NULL, doc_json TEXT NOT NULL,
                      think_ms REAL NOT NULL DEFAULT 0);
CREATE TABLE scenario(ord INTEGER PRIMARY KEY, name TEXT NOT NULL, notes TEXT NOT NULL DEFAULT '',
                      overlay_json TEXT);
CREATE TABLE event(scenario_ord INTEGER NOT NULL REFERENCES scenario(ord), ord INTEGER NOT NULL,
                   id TEXT NOT NULL, kind TEXT NOT NULL, start_h REAL NOT NULL, doc_json TEXT NOT NULL,
                   PRIMARY KEY (scenario_ord, ord));
CREATE TABLE measured_data(id INTEGER PRIMARY KEY CHECK (id = 1), doc_json TEXT NOT NULL);
CREATE TABLE calibration(id INTEGER PRIMARY KEY CHECK (id = 1), doc_json TEXT NOT NULL);
"""


def _dumps(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _write_rows(con: sqlite3.Connection, d: dict[str, Any]) -> None:
    """Insert a project (as a project_to_dict dict) into the empty tables of SCHEMA."""
    con.execute("INSERT INTO project VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)", (
        d["platform_id"], _dumps(d.get("info", {})), _dumps(d.get("cache", {})), _dumps(d.get("features", {})),
        d.get("current_scenario", "Baseline"), d.get("baseline_scenario"), d.get("horizon_h"),
        d.get("platform_snapshot")))
    con.executemany("INSERT INTO enclosure VALUES (?, ?, ?, ?)",
                    [(i, e["bus"], e["position"], e["type_id"]) for i, e in enumerate(d.get("enclosures", []))])
    con.executemany("INSERT INTO drive VALUES (?, ?, ?, ?)",
                    [(i, x["location"], x["type_id"], int(bool(x.get("hot_spare", False))))
                     for i, x in enumerate(d.get("drives", []))])
    con.executemany("INSERT INTO raid_group(ord, id, raid, name, drives_json, stripe, spare) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(i, g["id"], g["raid"], g.get("name", ""), _dumps(g["drives"]), int(g.get("stripe", 0)),
                      int(g.get("spare", 0))) for i, g in enumerate(d.get("groups", []))])
    con.executemany("INSERT INTO lun VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(i, l["id"], l["group_id"], l["capacity_gb"], l["owner"], l.get("name", ""),
                      _dumps(l.get("settings", {})), l.get("optimization", 1.0))
                     for i, l in enumerate(d.get("luns", []))])
    con.executemany("INSERT INTO workload(ord, id, doc_json, think_ms) VALUES (?, ?, ?, ?)",
                    [(i, w["id"], _dumps({k: v for k, v in w.items() if k != "think_ms"}),
                      float(w.get("think_ms", 0.0))) for i, w in enumerate(d.get("workloads", []))])
    for table, key in (("measured_data", "measured"), ("calibration", "calibration")):
        if d.get(key) is not None:
            con.execute(f"INSERT INTO {table} VALUES (1, ?)", (_dumps(d[key]),))
    for si, s in enumerate(d.get("scenarios", [])):
        overlay = s.get("overlay")
        con.execute("INSERT INTO scenario(ord, name, notes, overlay_json) VALUES (?, ?, ?, ?)",
                    (si, s["name"], s.get("notes", ""), None if overlay is None else _dumps(overlay)))
        con.executemany("INSERT INTO event VALUES (?, ?, ?, ?, ?, ?)",
                        [(si, ei, e["id"], e["kind"], e["start_h"], _dumps(e)) for ei, e in enumerate(s.get("events", []))])


def _with_think(doc: Any, think: Any) -> Any:
    """A workload's document with its think_ms column (schema 3); a document that is not an
    object is left for project_from_dict to refuse with its own message."""
    return doc | {"think_ms": think} if isinstance(doc, dict) else doc


def _read_rows(con: sqlite3.Connection) -> dict[str, Any]:
    """The inverse of _write_rows: a project_to_dict-shaped dict from the tables of SCHEMA."""
    row = con.execute("SELECT platform_id, info_json, cache_json, features_json, current_scenario, "
                      "baseline_scenario, horizon_h, platform_snapshot FROM project WHERE id = 1").fetchone()
    if row is None:
        raise ProjectFormatError("the project table is empty")
    d: dict[str, Any] = {
        "format": FORMAT, "version": FORMAT_VERSION,
        "platform_id": row[0], "info": parse_json(row[1], "project.info_json"),
        "cache": parse_json(row[2], "project.cache_json"), "features": parse_json(row[3], "project.features_json"),
        "current_scenario": row[4], "baseline_scenario": row[5],
        "horizon_h": row[6], "platform_snapshot": row[7],
    }
    d["enclosures"] = [{"bus": b, "position": p, "type_id": t}
                       for b, p, t in con.execute("SELECT bus, position, type_id FROM enclosure ORDER BY ord")]
    d["drives"] = [{"location": loc, "type_id": t, **({"hot_spare": True} if hs else {})}
                   for loc, t, hs in con.execute("SELECT location, type_id, hot_spare FROM drive ORDER BY ord")]
    d["groups"] = [{"id": i, "raid": r, "drives": parse_json(dj, f"raid_group {i}.drives_json"), **({"name": n} if n else {}),
                    **({"stripe": st} if st else {}), **({"spare": sp} if sp else {})}
                   for i, r, n, dj, st, sp in con.execute(
                       "SELECT id, raid, name, drives_json, stripe, spare FROM raid_group ORDER BY ord")]
    luns = []
    for i, g, cap, owner, name, sj, opt in con.execute(
            "SELECT id, group_id, capacity_gb, owner, name, settings_json, optimization FROM lun ORDER BY ord"):
        lun: dict[str, Any] = {"id": i, "group_id": g, "capacity_gb": cap, "owner": owner}
        if name:
            lun["name"] = name
        settings = parse_json(sj, f"lun {i}.settings_json")
        if settings:
            lun["settings"] = settings
        if opt != 1.0:
            lun["optimization"] = opt
        luns.append(lun)
    d["luns"] = luns
    d["workloads"] = [_with_think(parse_json(doc, f"workload {wid!r}.doc_json"), think) for wid, doc, think in
                      con.execute("SELECT id, doc_json, think_ms FROM workload ORDER BY ord")]
    scenarios = []
    for so, name, notes, overlay in con.execute(
            "SELECT ord, name, notes, overlay_json FROM scenario ORDER BY ord").fetchall():
        events = [parse_json(doc, f"event {eid!r}.doc_json") for eid, doc in con.execute(
            "SELECT id, doc_json FROM event WHERE scenario_ord = ? ORDER BY ord", (so,))]
        s: dict[str, Any] = {"name": name, "events": events}
        if notes:
            s["notes"] = notes
        if overlay is not None:
            s["overlay"] = parse_json(overlay, f"scenario {name!r}.overlay_json")
        scenarios.append(s)
    d["scenarios"] = scenarios
    for table, key in (("measured_data", "measured"), ("calibration", "calibration")):
        row = con.execute(f"SELECT doc_json FROM {table} WHERE id = 1").fetchone()
        if row is not None:
            d[key] = parse_json(row[0], f"{table}.doc_json")
    return d


# ---------------------------------------------------------------- reading

def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _sniff(path: Path) -> bytes:
    """The first 100 bytes of a regular file (ProjectFileError for a FIFO, a device, a folder)."""
    try:
        with open_regular(path, "project file") as fh:
            return fh.read(100)
    except UnreadableFile as exc:
        raise ProjectFileError(str(exc)) from None
    except OSError as exc:
        raise ProjectFileError(f"{path}: cannot be read ({_one_line(exc.strerror or exc)})") from None


def read_arrayplan(path: Path) -> Project:
    """Read a .arrayplan file without changing it (opened read-only; upgrades run in memory)."""
    path = Path(path)
    head = _sniff(path)
    if not head.startswith(SQLITE_MAGIC):
        if not head:
            raise ProjectFileError(f"{path}: the file is empty, not an ArrayPlanner project")
        raise ProjectFileError(f"{path}: not an ArrayPlanner project (not an SQLite database)")
    if len(head) < 100:
        raise ProjectFileError(f"{path}: the project file is truncated (damaged)")
    # Header fields (big-endian): application_id at offset 68, user_version at offset 60.
    app_id = int.from_bytes(head[68:72], "big")
    if app_id != APPLICATION_ID:
        raise ProjectFileError(f"{path}: not an ArrayPlanner project (an SQLite database of another application)")
    version = int.from_bytes(head[60:64], "big")
    if version > SCHEMA_VERSION:
        raise ProjectFileError(f"{path}: saved by a newer ArrayPlanner (project schema version {version}; "
                               f"this version reads up to {SCHEMA_VERSION}); please upgrade ArrayPlanner")
    uri = path.resolve().as_uri() + "?mode=ro"
    src = mem = None
    try:
        src = sqlite3.connect(uri, uri=True)
        mem = sqlite3.connect(":memory:")
        src.backup(mem)
        src.close()
        src = None
        check = mem.execute("PRAGMA integrity_check").fetchone()
        if not check or check[0] != "ok":
            raise ProjectFileError(f"{path}: the project file is damaged ({_one_line(check[0] if check else 'no answer')})")
        version = mem.execute("PRAGMA user_version").fetchone()[0]
        if version < 1:
            raise ProjectFileError(f"{path}: not a valid ArrayPlanner project (schema version {version})")
        if version < SCHEMA_VERSION:
            upgrades.upgrade(mem, version)
        data = _read_rows(mem)
        return project_from_dict(data)
    except ProjectFileError:
        raise
    except ProjectFormatError as exc:
        raise ProjectFileError(f"{path}: invalid project data: {_one_line(exc)}") from None
    except (sqlite3.DatabaseError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ProjectFileError(f"{path}: the project file is damaged or not readable ({_one_line(exc)})") from None
    except RecursionError:  # parse_json bounds the nesting of every JSON column; this is the backstop
        raise ProjectFileError(f"{path}: the project is nested too deeply to be read") from None
    finally:
        for con in (src, mem):
            if con is not None:
                con.close()


def read_json_project(path: Path) -> Project:
    path = Path(path)
    head = _sniff(path)
    if head.startswith(SQLITE_MAGIC):
        return read_arrayplan(path)
    try:
        raw = read_regular(path, "JSON project", MAX_JSON_BYTES, f"a large project is kept as a {SUFFIX} file")
    except UnreadableFile as exc:
        raise ProjectFileError(str(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProjectFileError(f"{path}: not a JSON project (the file is not text)") from None
    del raw
    try:
        return project_from_dict(parse_json(text))
    except ProjectFormatError as exc:
        raise ProjectFileError(f"{path}: {_one_line(exc)}") from None
    except RecursionError:  # parse_json bounds the nesting; this is the backstop
        raise ProjectFileError(f"{path}: the project is nested too deeply to be read") from None


def load_project(path: str | Path) -> Project:
    """Open a project: .json by its suffix, anything else by its content (an SQLite project file)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return read_json_project(path)
    head = _sniff(path)
    if head.lstrip()[:1] == b"{":
        return read_json_project(path)
    return read_arrayplan(path)


# ---------------------------------------------------------------- writing

def _new_temp_file(folder: Path, name: str) -> disk.TempFile:
    """A new empty `.NAME.xxxxxxxx.tmp` in `folder`, locked until its close() (disk.new_temp_file:
    mode 0o666 less the umask; O_EXCL, never an existing file or a link)."""
    return disk.new_temp_file(folder, name)


def replace_keeping_mode(tmp: Path, path: Path) -> None:
    """os.replace(tmp, path), tmp first given the mode of the file it replaces (a 0600 file
    stays 0600; a new one keeps tmp's). Also used for report PDFs."""
    if path.exists():
        with contextlib.suppress(OSError):
            os.chmod(tmp, path.stat().st_mode & 0o7777)
    os.replace(tmp, path)


def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Call write(tmp) for a temporary file next to `path`, fsync it, and move it over `path`.

    A symbolic link is saved through: the file written and replaced is the link's final target
    (in the target's folder), and the link stays. Afterwards the folder's leftovers of earlier
    saves that were killed are removed (disk.clean_leftovers)."""
    path = Path(path)
    try:
        target = disk.save_target(path)
    except OSError as exc:
        raise ProjectFileError(f"{path}: cannot be saved ({_one_line(exc.strerror or exc)})") from None
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        shown = path if target == path else f"{path} (a link to {target})"
        raise ProjectFileError(f"{shown}: the folder {folder} does not exist")
    try:
        tmp_file = _new_temp_file(folder, target.name)
    except OSError as exc:
        raise ProjectFileError(f"{path}: cannot write in {folder} ({_one_line(exc.strerror or exc)})") from None
    tmp = tmp_file.path
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        replace_keeping_mode(tmp, target)
        disk.fsync_dir(folder)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        with contextlib.suppress(OSError):
            Path(str(tmp) + "-journal").unlink()
        if isinstance(exc, ProjectFileError):
            raise
        if isinstance(exc, (OSError, sqlite3.Error)):
            raise ProjectFileError(f"{path}: could not be saved ({_one_line(exc)}); the previous file is unchanged") from None
        raise
    finally:
        tmp_file.close()  # the lock goes after the rename: until then the cleaner keeps off
    disk.clean_leftovers(folder)


def save_text(path: str | Path, text: str) -> None:
    """Write a text file (a CSV export) as a project is saved: atomically, so a failed write
    leaves the old file as it was; ProjectFileError with one line naming the file."""
    _atomic_write(Path(path), lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_arrayplan_db(path: Path, project: Project) -> None:
    """Write `project` as a new schema-version database at `path` (which must not exist or be empty)."""
    d = project_to_dict(project)
    con = sqlite3.connect(path)
    try:
        con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        con.execute("PRAGMA journal_mode = DELETE")
        with con:
            con.executescript(SCHEMA)
            from app import __version__
            con.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("format", "arrayplanner-project-db"), ("app_version", __version__),
                ("saved_at", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
            ])
            _write_rows(con, d)
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        con.commit()
    finally:
        con.close()


def save_project(project: Project, path: str | Path, catalog: Catalog | None = None) -> None:
    """Save atomically: .json as JSON, anything else as a .arrayplan SQLite file.

    When `catalog` is given and the project's platform is not a built-in one, the file carries a
    snapshot of the platform (so it opens on a machine without that user preset); the `project`
    object itself is not modified."""
    path = Path(path)
    if catalog is not None:
        project = dataclasses.replace(project)  # shallow copy: the caller's project is not changed
        embed_platform_snapshot(project, catalog)
    if path.suffix.lower() == ".json":
        from .project_json import project_to_json

        text = project_to_json(project)
        _atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    else:
        _atomic_write(path, lambda tmp: write_arrayplan_db(tmp, project))


# ---------------------------------------------------------------- platforms carried in a file

def embed_platform_snapshot(project: Project, catalog: Catalog) -> None:
    """Store a TOML copy of a non-built-in platform in project.platform_snapshot (built-in: clear it)."""
    platform = catalog.platforms.get(project.platform_id)
    if platform is None:
        return  # keep whatever snapshot the file came with
    if platform.builtin:
        project.platform_snapshot = None
        return
    from .toml_write import platform_snapshot_text

    project.platform_snapshot = platform_snapshot_text(platform)


def catalog_for(project: Project, catalog: Catalog) -> Catalog:
    """The catalog to use for `project`: `catalog`, plus the project's embedded platform when the
    platform is not in it. ProjectFileError if the embedded copy cannot be read."""
    if project.platform_id in catalog.platforms or not project.platform_snapshot:
        return catalog
    from .presets import PresetError, platform_from_text

    try:
        platform = platform_from_text(project.platform_snapshot, catalog)
    except (PresetError, ValueError, KeyError, TypeError) as exc:
        raise ProjectFileError(f"the project's embedded platform {project.platform_id!r} cannot be read: "
                               f"{_one_line(exc)}") from None
    if platform.id != project.platform_id:
        raise ProjectFileError(f"the project's embedded platform is {platform.id!r}, "
                               f"but the project uses {project.platform_id!r}")
    return dataclasses.replace(catalog, platforms={**catalog.platforms, platform.id: platform})
