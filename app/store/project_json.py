"""Projects as JSON: the interchange format (export/import, examples, tests).

    d = project_to_dict(project)        # plain JSON-ready dict with a format/version header
    project = project_from_dict(d)      # ProjectFormatError naming the bad field on malformed input

The format is documented in docs/project-format.md. Structural problems (wrong types, missing
required fields, unknown event kinds) raise ProjectFormatError here; semantic problems (a LUN on a
RAID group that does not exist, a drive type the platform does not accept ...) are left to
app.domain.validation so that `arrayplanner check` can list them all.
"""
from __future__ import annotations

import json
import math
from dataclasses import fields
from itertools import accumulate
from pathlib import Path
from typing import Any

from app.domain.measured import Calibration, MeasuredData
from app.domain.project import (
    Drive, Enclosure, Event, Lun, Project, ProjectInfo, RaidGroup, Scenario, Workload,
)
from app.domain.overlay import SECTIONS as OVERLAY_SECTIONS, Overlay
from app.domain.raid import RaidType

FORMAT = "arrayplanner-project"
# 2: a scenario may carry an overlay (a configuration of its own); a project without one is
# still written as version 1, which older readers open
FORMAT_VERSION = 2


class ProjectFormatError(ValueError):
    """Malformed project data; the message names the field and its object ("luns[3] (LUN 12).capacity_gb")."""


# ---------------------------------------------------------------- parsing JSON text safely

# The deepest nesting of lists/objects accepted. A project needs 6 (scenarios > events > changes >
# luns); json.loads and the reader below recurse once per level and die of RecursionError near
# 1,000, so a hostile file is refused well before, with one line.
MAX_JSON_DEPTH = 64

# Every byte but the JSON brackets and the quote (bytes.translate deletes them), and each bracket's step.
_NOT_A_MARK = bytes(c for c in range(256) if c not in b'[]{}"')
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(text: str | bytes) -> int:
    """How deeply lists and objects nest in JSON `text`, found without parsing it (so without
    recursion) and in C loops (~1.5 s for a 250 MB project of 10^6 operations, half of what
    json.loads takes): escaped backslashes and quotes are dropped, then everything but brackets
    and quotes; what lies between quotes is inside strings. Unclosed brackets count as open, as
    the parser takes them."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    outside_strings = b"".join(raw.translate(None, _NOT_A_MARK).split(b'"')[::2])
    return max(accumulate(map(_DEPTH_STEP.__getitem__, outside_strings)), default=0)


def parse_json(text: str | bytes, what: str = "") -> Any:
    """json.loads for text from a file: ProjectFormatError (prefixed with `what`) for invalid
    JSON, nesting deeper than MAX_JSON_DEPTH, or a number the parser refuses (an integer of more
    than 4,300 digits), never a RecursionError or a bare ValueError."""
    prefix = f"{what}: " if what else ""
    if not isinstance(text, (str, bytes)):  # a column of a damaged database holding a number
        raise ProjectFormatError(f"{prefix}expected JSON text, got {_kind(text)}")
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise ProjectFormatError(f"{prefix}lists and objects nest {depth:,} levels deep; a project file "
                                 f"has at most {MAX_JSON_DEPTH} (the file is damaged or not a project)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # some of Python's messages end in "at" ("Unterminated string starting at"): no second one
        where = "" if exc.msg.endswith(" at") else " at"
        raise ProjectFormatError(f"{prefix}not valid JSON ({exc.msg}{where} line {exc.lineno}, "
                                 f"column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        why = " ".join(str(exc).split())
        if "4300 digits" in why:  # Python's guard against slow int parsing; its text names sys calls
            why = "a number has more than 4,300 digits"
        raise ProjectFormatError(f"{prefix}not valid JSON ({why})") from None


# ---------------------------------------------------------------- to dict

def _event_to_dict(e: Event) -> dict[str, Any]:
    return e.to_dict()


def _enclosure_dict(e: Enclosure) -> dict[str, Any]:
    return {"bus": e.bus, "position": e.position, "type_id": e.type_id}


def _drive_dict(d: Drive) -> dict[str, Any]:
    return {"location": d.location, "type_id": d.type_id, **({"hot_spare": True} if d.hot_spare else {})}


def _group_dict(g: RaidGroup) -> dict[str, Any]:
    return {"id": g.id, "raid": g.raid.value if isinstance(g.raid, RaidType) else str(g.raid),
            "drives": list(g.drives), **({"name": g.name} if g.name else {}),
            **({"stripe": g.stripe} if g.stripe else {}), **({"spare": g.spare} if g.spare else {})}


def _lun_dict(l: Lun) -> dict[str, Any]:
    return {"id": l.id, "group_id": l.group_id, "capacity_gb": l.capacity_gb, "owner": l.owner,
            **({"name": l.name} if l.name else {}),
            **({"settings": dict(l.settings)} if l.settings else {}),
            **({"optimization": l.optimization} if l.optimization != 1.0 else {})}


def _workload_dict(w: Workload) -> dict[str, Any]:
    return {f.name: getattr(w, f.name) for f in fields(Workload)}


# the object sections of a project and of an overlay: how each object is written
_OBJECT_DICTS = {"enclosures": _enclosure_dict, "drives": _drive_dict, "groups": _group_dict,
                 "luns": _lun_dict, "workloads": _workload_dict}


def overlay_to_dict(ov: Overlay) -> dict[str, Any]:
    """{section: {"set": [...], "removed": [...]}}: objects as in the project's own lists, cache
    and features as {key: value} (docs/project-format.md, "Scenarios with a configuration")."""
    out: dict[str, Any] = {}
    for section in ov.sections():
        changed, removed = ov.changed.get(section, {}), ov.removed.get(section, [])
        to_dict = _OBJECT_DICTS.get(section)
        part: dict[str, Any] = {}
        if changed:
            part["set"] = [to_dict(v) for v in changed.values()] if to_dict else dict(changed)
        if removed:
            part["removed"] = list(removed)
        out[section] = part
    return out


def _scenario_dict(s: Scenario) -> dict[str, Any]:
    return {"name": s.name, **({"notes": s.notes} if s.notes else {}),
            "events": [_event_to_dict(e) for e in s.events],
            **({"overlay": overlay_to_dict(s.overlay)} if s.overlay is not None else {})}


def project_to_dict(project: Project) -> dict[str, Any]:
    p = project
    return {
        "format": FORMAT,
        # version 2 only when a reader of version 1 would miss something: a scenario's overlay
        "version": FORMAT_VERSION if any(s.overlay is not None for s in p.scenarios) else 1,
        "platform_id": p.platform_id,
        "info": {"title": p.info.title, "customer": p.info.customer, "author": p.info.author, "notes": p.info.notes},
        "enclosures": [_enclosure_dict(e) for e in p.enclosures],
        "drives": [_drive_dict(d) for d in p.drives.values()],
        "groups": [_group_dict(g) for g in p.groups],
        "luns": [_lun_dict(l) for l in p.luns],
        "cache": dict(p.cache),
        "features": dict(p.features),
        "workloads": [_workload_dict(w) for w in p.workloads],
        "scenarios": [_scenario_dict(s) for s in p.scenarios],
        "current_scenario": p.current_scenario,
        "baseline_scenario": p.baseline_scenario,
        "horizon_h": p.horizon_h,
        "platform_snapshot": p.platform_snapshot,
        # (only when present: a project without measured data reads as before)
        **({"measured": p.measured.to_dict()} if p.measured is not None else {}),
        **({"calibration": p.calibration.to_dict()} if p.calibration is not None else {}),
    }


def project_to_json(project: Project) -> str:
    return json.dumps(project_to_dict(project), indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- from dict

_MISSING = object()


class _Reader:
    """Typed access to one JSON object, with the field path in every message."""

    def __init__(self, data: Any, path: str):
        if not isinstance(data, dict):
            raise ProjectFormatError(f"{path or 'the file'}: expected an object {{...}}, got {_kind(data)}")
        self.d = data
        self.path = path

    def _p(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, default: Any = _MISSING) -> Any:
        if key not in self.d:
            if default is _MISSING:
                raise ProjectFormatError(f"{self._p(key)}: missing")
            return default
        return self.d[key]

    def str(self, key: str, default: Any = _MISSING, allow_none: bool = False) -> Any:
        v = self.get(key, default)
        if v is None and allow_none:
            return None
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, str):
            raise ProjectFormatError(f"{self._p(key)}: expected text, got {_kind(v)}")
        return v

    def int(self, key: str, default: Any = _MISSING) -> Any:
        v = self.get(key, default)
        if v is default and default is not _MISSING:
            return v
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise ProjectFormatError(f"{self._p(key)}: expected a whole number, got {_kind(v)}")
        return v

    def num(self, key: str, default: Any = _MISSING, allow_none: bool = False) -> Any:
        v = self.get(key, default)
        if v is None and allow_none:
            return None
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise ProjectFormatError(f"{self._p(key)}: expected a number, got {_kind(v)}")
        try:
            v = float(v)  # OverflowError: an integer beyond any float (1e309 written out in digits)
        except OverflowError:
            raise ProjectFormatError(f"{self._p(key)}: the number {_short(v)} is too large") from None
        if not math.isfinite(v):
            raise ProjectFormatError(f"{self._p(key)}: expected a finite number, got {v}")
        return v

    def bool(self, key: str, default: Any = _MISSING) -> Any:
        v = self.get(key, default)
        if not isinstance(v, bool):
            raise ProjectFormatError(f"{self._p(key)}: expected true or false, got {_kind(v)}")
        return v

    def list(self, key: str, default: Any = _MISSING) -> list[Any]:
        v = self.get(key, default)
        if v is default and default is not _MISSING:
            return list(v)
        if not isinstance(v, list):
            raise ProjectFormatError(f"{self._p(key)}: expected a list [...], got {_kind(v)}")
        return v

    def obj(self, key: str, default: Any = _MISSING) -> dict[str, Any]:
        v = self.get(key, default)
        if v is default and default is not _MISSING:
            return dict(v)
        if not isinstance(v, dict):
            raise ProjectFormatError(f"{self._p(key)}: expected an object {{...}}, got {_kind(v)}")
        return v

    def items(self, key: str, default: Any = _MISSING) -> list["_Reader"]:
        """The objects of a list, each with a path that also names the object when it can
        ("luns[3] (LUN 12)", "scenarios[1] (scenario 'Ops').events[0] (op1)")."""
        return [_Reader(v, f"{self._p(key)}[{i}]{_label(key, v)}") for i, v in enumerate(self.list(key, default))]

    def unknown(self, known: set[str]) -> None:
        extra = sorted(set(self.d) - known)
        if extra:
            raise ProjectFormatError(f"{self.path or 'the file'}: unknown field{'s' if len(extra) > 1 else ''} "
                                     f"{', '.join(map(repr, extra))}")


_LABELS = {"groups": ("id", "RG {}"), "luns": ("id", "LUN {}"), "drives": ("location", "drive {}"),
           "workloads": ("id", "workload {}"), "scenarios": ("name", "scenario {!r}"), "events": ("id", "{}")}


def _label(key: str, v: Any) -> str:
    if key == "enclosures" and isinstance(v, dict) and isinstance(v.get("bus"), int) and isinstance(v.get("position"), int):
        return f" (enclosure {v['bus']}_{v['position']})"
    field, fmt = _LABELS.get(key, (None, ""))
    if field and isinstance(v, dict) and isinstance(v.get(field), (str, int)) and not isinstance(v.get(field), bool):
        return f" ({fmt.format(v[field])})"
    return ""


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, (int, float)):
        return f"the number {_short(v)}"
    if isinstance(v, str):
        return f"the text {v[:40]!r}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _short(v: int | float) -> str:
    """A number for a message: a 400-digit integer as its first digits and its length."""
    text = repr(v) if isinstance(v, float) else str(v) if abs(v) < 10**30 else None
    if text is None:
        digits = len(str(abs(v)))  # at most 4,300 digits: json.loads refuses longer ones
        text = f"{str(v)[:8]}... ({digits} digits)"
    return text


def _json_value(v: Any, path: str) -> Any:
    """Settings/changes values must be plain JSON scalars (or lists of them)."""
    if v is None or isinstance(v, (str, bool, int, float)):
        return v
    if isinstance(v, list):
        return [_json_value(x, f"{path}[{i}]") for i, x in enumerate(v)]
    raise ProjectFormatError(f"{path}: unexpected {_kind(v)}")


def _int_list(r: _Reader, key: str) -> list[int]:
    out = []
    for i, v in enumerate(r.list(key)):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool):
            raise ProjectFormatError(f"{r._p(key)}[{i}]: expected a whole number, got {_kind(v)}")
        out.append(v)
    return out


def _workload(r: _Reader) -> Workload:
    r.unknown({f.name for f in fields(Workload)})
    return Workload(
        id=r.str("id"), name=r.str("name", ""), luns=_int_list(r, "luns"),
        mode=r.str("mode", "open"), iops=r.num("iops", 0.0), outstanding=r.int("outstanding", 1),
        think_ms=r.num("think_ms", 0.0),
        read_pct=r.num("read_pct", 67.0), io_kb=r.num("io_kb", 8.0), random_pct=r.num("random_pct", 100.0),
        read_hit_pct=r.num("read_hit_pct", None, allow_none=True),
        response_target_ms=r.num("response_target_ms", None, allow_none=True),
    )


_EVENT_FIELD_TYPES = {float: "num", int: "int", bool: "bool", str: "str"}


def _event(r: _Reader) -> Event:
    kind = r.str("kind")
    cls = Event.registry.get(kind)
    if cls is None:
        known = ", ".join(sorted(Event.registry))
        raise ProjectFormatError(f"{r._p('kind')}: unknown event kind {kind!r} (known: {known})")
    flds = {f.name: f for f in fields(cls)}
    r.unknown(set(flds) | {"kind"})
    kwargs: dict[str, Any] = {}
    for name, f in flds.items():
        if name not in r.d:
            if name in ("id", "start_h"):
                r.get(name)  # raises "missing"
            continue
        t = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        if t == "float":
            kwargs[name] = r.num(name)
        elif t == "int":
            kwargs[name] = r.int(name)
        elif t == "bool":
            kwargs[name] = r.bool(name)
        elif t == "str":
            kwargs[name] = r.str(name)
        elif name == "moves":
            moves = []
            for i, pair in enumerate(r.list(name)):
                if not isinstance(pair, list) or len(pair) != 2 or not all(
                        isinstance(x, int) and not isinstance(x, bool) for x in pair):
                    raise ProjectFormatError(f"{r._p(name)}[{i}]: expected a pair [source LUN, target LUN]")
                moves.append(list(pair))
            kwargs[name] = moves
        elif name == "changes":
            kwargs[name] = {str(k): _json_value(v, f"{r._p(name)}.{k}") for k, v in r.obj(name).items()}
        else:
            kwargs[name] = _json_value(r.get(name), r._p(name))
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ProjectFormatError(f"{r.path}: {exc}") from None


def _enclosure(er: _Reader) -> Enclosure:
    er.unknown({"bus", "position", "type_id"})
    return Enclosure(bus=er.int("bus"), position=er.int("position"), type_id=er.str("type_id"))


def _drive(dr: _Reader) -> Drive:
    dr.unknown({"location", "type_id", "hot_spare"})
    return Drive(location=dr.str("location"), type_id=dr.str("type_id"), hot_spare=dr.bool("hot_spare", False))


def _group(gr: _Reader) -> RaidGroup:
    gr.unknown({"id", "raid", "drives", "name", "stripe", "spare"})
    raid_text = gr.str("raid")
    try:
        raid = RaidType.parse(raid_text)
    except ValueError:
        raise ProjectFormatError(f"{gr._p('raid')}: unknown RAID type {raid_text!r} "
                                 f"(known: {', '.join(t.value for t in RaidType)})") from None
    locs = gr.list("drives")
    for i, loc in enumerate(locs):
        if not isinstance(loc, str):
            raise ProjectFormatError(f"{gr._p('drives')}[{i}]: expected a drive location like \"0_0_4\", got {_kind(loc)}")
    return RaidGroup(id=gr.int("id"), raid=raid, drives=list(locs), name=gr.str("name", ""),
                     stripe=gr.int("stripe", 0), spare=gr.int("spare", 0))


def _lun(lr: _Reader) -> Lun:
    lr.unknown({"id", "group_id", "capacity_gb", "owner", "name", "settings", "optimization"})
    settings = {str(k): _json_value(v, f"{lr._p('settings')}.{k}") for k, v in lr.obj("settings", {}).items()}
    return Lun(id=lr.int("id"), group_id=lr.int("group_id"), capacity_gb=lr.num("capacity_gb"),
               owner=lr.str("owner"), name=lr.str("name", ""), settings=settings,
               optimization=lr.num("optimization", 1.0))


def _settings(r: _Reader, key: str) -> dict[str, Any]:
    return {str(k): _json_value(v, f"{r._p(key)}.{k}") for k, v in r.obj(key, {}).items()}


def _features(r: _Reader, key: str) -> dict[str, bool]:
    features = {}
    for k, v in r.obj(key, {}).items():
        if not isinstance(v, bool):
            raise ProjectFormatError(f"{r._p(key)}.{k}: expected true or false, got {_kind(v)}")
        features[str(k)] = v
    return features


_OBJECT_READERS = {"enclosures": (_enclosure, lambda e: e.id), "drives": (_drive, lambda d: d.location),
                   "groups": (_group, lambda g: g.id), "luns": (_lun, lambda l: l.id),
                   "workloads": (_workload, lambda w: w.id)}


def _overlay(r: _Reader) -> Overlay:
    """A scenario's overlay (overlay_to_dict's form); the keys of `removed` are checked by type
    here, whether they exist by validation."""
    r.unknown(set(OVERLAY_SECTIONS))
    ov = Overlay()
    for section in OVERLAY_SECTIONS:
        if section not in r.d:
            continue
        part = _Reader(r.obj(section), r._p(section))
        part.unknown({"set", "removed"})
        if section in _OBJECT_READERS:
            read, key = _OBJECT_READERS[section]
            changed = {}
            for item in part.items("set", []):
                obj = read(item)
                changed[key(obj)] = obj
        elif section == "cache":
            changed = _settings(part, "set")
        else:
            changed = _features(part, "set")
        removed = part.list("removed", [])
        want = int if section in ("groups", "luns") else str
        for i, k in enumerate(removed):
            if not isinstance(k, want) or isinstance(k, bool):
                raise ProjectFormatError(f"{part._p('removed')}[{i}]: expected "
                                         f"{'a whole number' if want is int else 'text'}, got {_kind(k)}")
        if changed:
            ov.changed[section] = changed
        if removed:
            ov.removed[section] = list(removed)
    return ov


def project_from_dict(data: Any) -> Project:
    """Build a Project from JSON data; ProjectFormatError names the first malformed field."""
    r = _Reader(data, "")
    fmt = r.get("format", None)
    if fmt != FORMAT:
        raise ProjectFormatError(f"not an ArrayPlanner project (format is {fmt!r}, expected {FORMAT!r})")
    version = r.int("version")
    if version > FORMAT_VERSION:
        raise ProjectFormatError(f"the project was written by a newer ArrayPlanner (format version {version}; "
                                 f"this version reads up to {FORMAT_VERSION})")
    if version < 1:
        raise ProjectFormatError(f"version: {version} is not a valid format version")
    r.unknown({"format", "version", "platform_id", "info", "enclosures", "drives", "groups", "luns", "cache",
               "features", "workloads", "scenarios", "current_scenario", "baseline_scenario", "horizon_h",
               "platform_snapshot", "measured", "calibration"})

    info_r = _Reader(r.obj("info", {}), "info")
    info_r.unknown({"title", "customer", "author", "notes"})
    info = ProjectInfo(title=info_r.str("title", "Untitled"), customer=info_r.str("customer", ""),
                       author=info_r.str("author", ""), notes=info_r.str("notes", ""))

    enclosures = [_enclosure(er) for er in r.items("enclosures", [])]
    drives: dict[str, Drive] = {}
    for dr in r.items("drives", []):
        d = _drive(dr)
        key = d.location
        n = 2
        while key in drives:  # a slot listed twice: keep both so validation can name the slot
            key = f"{d.location}#{n}"
            n += 1
        drives[key] = d
    groups = [_group(gr) for gr in r.items("groups", [])]
    luns = [_lun(lr) for lr in r.items("luns", [])]
    cache = _settings(r, "cache")
    features = _features(r, "features")
    workloads = [_workload(wr) for wr in r.items("workloads", [])]

    scenarios = []
    for sr in r.items("scenarios", [{"name": "Baseline", "events": []}]):
        sr.unknown({"name", "notes", "events", "overlay"})
        overlay = _overlay(_Reader(sr.obj("overlay"), sr._p("overlay"))) if sr.get("overlay", None) is not None else None
        scenarios.append(Scenario(name=sr.str("name"), notes=sr.str("notes", ""),
                                  events=[_event(er) for er in sr.items("events", [])], overlay=overlay))

    current = r.str("current_scenario", scenarios[0].name if scenarios else "Baseline")
    return Project(
        platform_id=r.str("platform_id"), info=info, enclosures=enclosures, drives=drives, groups=groups,
        luns=luns, cache=cache, features=features, workloads=workloads, scenarios=scenarios,
        current_scenario=current, baseline_scenario=r.str("baseline_scenario", None, allow_none=True),
        horizon_h=r.num("horizon_h", None, allow_none=True),
        platform_snapshot=r.str("platform_snapshot", None, allow_none=True),
        measured=_attached(r, "measured", MeasuredData.from_dict),
        calibration=_attached(r, "calibration", Calibration.from_dict),
    )


def _attached(r: _Reader, key: str, build) -> Any:
    """The measured data or calibration record of a project (None when absent)."""
    d = r.get(key, None)
    if d is None:
        return None
    try:
        return build(d)
    except (TypeError, ValueError) as exc:
        raise ProjectFormatError(f"{key}: {exc}") from None


def project_from_json(text: str, name: str = "JSON") -> Project:
    return project_from_dict(parse_json(text))


def read_json_file(path: Path) -> Project:
    """Read a .json project; ProjectFormatError for malformed content, OSError for I/O problems."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProjectFormatError("not a text (UTF-8) JSON file") from None
    return project_from_json(text)
