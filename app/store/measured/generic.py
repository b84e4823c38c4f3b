"""The generic measured-data CSV (docs/measured-data.md "Generic CSV"):

    timestamp,object_type,object,seconds,iops,mb_s,read_pct,io_kb,response_ms,util_pct
    2026-12-06T10:00:00,lun,LUN 17,300,1850,14.5,67,8,9.8,

Required: timestamp, object_type, object. Every other column is optional and may be empty in a
row; `seconds` defaults to the gap to the object's next row (the last row: the previous gap).
Header names are matched without case, spaces or units in brackets ("Response (ms)" is
response_ms), with a few synonyms.
"""
from __future__ import annotations

import csv
import io
import re

from app.domain.measured import METRICS, OBJECT_KINDS, MeasuredInterval

from .common import BadCell, MeasuredImportError, Skips, derive, number, timestamp

KIND_WORDS = {
    "lun": "lun", "volume": "lun", "hostlun": "lun", "hl": "lun", "device": "lun", "disk_device": "lun",
    "raidgroup": "group", "rg": "group", "group": "group", "raid_group": "group",
    "drive": "drive", "disk": "drive", "pd": "drive",
    "sp": "sp", "controller": "sp", "storageprocessor": "sp",
    "port": "port", "hostport": "port",
}

_SYNONYMS = {
    "timestamp": "timestamp", "time": "timestamp", "polltime": "timestamp", "datetime": "timestamp",
    "objecttype": "object_type", "type": "object_type", "kind": "object_type",
    "object": "object", "objectname": "object", "name": "object",
    "seconds": "seconds", "interval": "seconds", "intervals": "seconds", "duration": "seconds",
    "iops": "iops", "ios": "iops", "throughput": "iops",
    "mbs": "mb_s", "mb_s": "mb_s", "bandwidth": "mb_s",
    "readpct": "read_pct", "read": "read_pct", "read_pct": "read_pct",
    "iokb": "io_kb", "io_kb": "io_kb", "iosize": "io_kb", "iosizekb": "io_kb", "size": "io_kb",
    "responsems": "response_ms", "response_ms": "response_ms", "response": "response_ms", "responsetime": "response_ms",
    "latency": "response_ms",
    "utilpct": "util_pct", "util_pct": "util_pct", "util": "util_pct", "utilization": "util_pct", "utilisation": "util_pct",
    "busy": "util_pct",
}
REQUIRED = ("timestamp", "object_type", "object")
_HIGH = {"read_pct": 100.0, "util_pct": 100.0}


def column_name(header: str) -> str | None:
    """The generic column a header cell names, or None."""
    h = re.sub(r"\(.*?\)|\[.*?\]", "", header).strip().lower()
    h = h.replace("%", "pct").replace("/", "")
    flat = re.sub(r"[\s\-]+", "", h)
    return _SYNONYMS.get(flat) or _SYNONYMS.get(flat.replace("_", ""))


def looks_like(text: str) -> bool:
    first = next((l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")), "")
    cols = {column_name(c) for c in next(csv.reader([first]), [])}
    return {"timestamp", "object_type", "object"} <= cols


def read(text: str, name: str) -> tuple[list[MeasuredInterval], Skips]:
    skips = Skips(name)
    lines = text.splitlines()
    rows = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    cols: dict[str, int] = {}
    raw: list[tuple[int, float, float | None, str, str, dict[str, float | None]]] = []
    for row in rows:
        lineno = rows.line_num
        if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
            continue
        if header is None:
            header = row
            for i, h in enumerate(row):
                c = column_name(h)
                if c and c not in cols:
                    cols[c] = i
            missing = [c for c in REQUIRED if c not in cols]
            if missing:
                raise MeasuredImportError(f"{name}: line {lineno}: the header has no {', '.join(missing)} column "
                                          f"(a generic measured-data CSV starts with timestamp,object_type,object,...)")
            continue
        try:
            def cell(c: str) -> str:
                i = cols.get(c)
                return row[i] if i is not None and i < len(row) else ""

            t = timestamp(cell("timestamp"), header[cols["timestamp"]])
            kind_text = cell("object_type").strip().lower().replace(" ", "")
            kind = KIND_WORDS.get(kind_text)
            if kind is None:
                raise BadCell(header[cols["object_type"]], f"{cell('object_type').strip()!r} is not an object type "
                                                           f"({', '.join(OBJECT_KINDS)})")
            obj = cell("object").strip()
            if not obj:
                raise BadCell(header[cols["object"]], "is empty")
            vals = {m: number(cell(m), header[cols[m]], 0.0, _HIGH.get(m, float("inf"))) if m in cols else None
                    for m in METRICS}
            secs = number(cell("seconds"), header[cols["seconds"]], 0.0) if "seconds" in cols else None
            if secs == 0:
                raise BadCell(header[cols["seconds"]], "an interval of 0 seconds")
            if all(v is None for v in vals.values()):
                raise BadCell(None, "the row has no measured value")
        except BadCell as exc:
            skips.add(lineno, exc.column, str(exc))
            continue
        except IndexError:  # pragma: no cover - csv rows are lists; cell() guards the index
            skips.add(lineno, None, "too few columns")
            continue
        raw.append((lineno, t, secs, kind, obj, vals))
    if header is None:
        raise MeasuredImportError(f"{name}: the file is empty")
    del lines
    return _intervals(raw), skips


def _intervals(raw) -> list[MeasuredInterval]:
    """Fill in each row's length from the gap to the same object's next row."""
    by_obj: dict[tuple[str, str], list] = {}
    for r in raw:
        by_obj.setdefault((r[3], r[4]), []).append(r)
    out = []
    for rows in by_obj.values():
        rows.sort(key=lambda r: r[1])
        gaps = [b[1] - a[1] for a, b in zip(rows, rows[1:]) if b[1] > a[1]]
        for i, (_, t, secs, kind, obj, vals) in enumerate(rows):
            if secs is None:
                nxt = rows[i + 1][1] - t if i + 1 < len(rows) and rows[i + 1][1] > t else (gaps[-1] if gaps else 60.0)
                secs = nxt
            vals = dict(vals)
            vals["io_kb"] = derive(vals["iops"], vals["mb_s"], vals["io_kb"])
            out.append(MeasuredInterval(t, float(secs), kind, obj, **vals))
    out.sort(key=lambda iv: (iv.start, iv.kind, iv.name))
    return out
