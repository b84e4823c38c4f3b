"""EMC Unisphere / Navisphere Analyzer archive dumps (docs/measured-data.md "Unisphere Analyzer"):
the CSV that `naviseccli analyzer -archivedump -data ARCHIVE.nar -out dump.csv` writes, one row
per object per poll:

    Object Name,Poll Time,Utilization (%),Queue Length,Response Time (ms),Total Bandwidth (MB/s),
    Total Throughput (IO/s),Read Bandwidth (MB/s),Read Size (KB),Read Throughput (IO/s),
    Write Bandwidth (MB/s),Write Size (KB),Write Throughput (IO/s),...

(any subset and order: `-format on,pt,u,rt,tt,...` chooses them). Objects are told apart by
their names as Analyzer prints them: "SP A", "Port 0 [SP A]" (a host port), "RAID Group 3",
"Bus 0 Enclosure 1 Disk 4" (a drive), and every other name a LUN ("LUN 17", "Oracle_data [17;
RAID 5; ...]"; the part before the ';' is kept). An "Object Type" column, where the dump has one,
decides instead. Lines the CLI prefixes with dots (its progress marks) are read without them.
"""
from __future__ import annotations

import csv
import io
import re

from app.domain.measured import MeasuredInterval

from .common import BadCell, MeasuredImportError, Skips, derive, number, timestamp

_COLUMNS = {
    "object name": "object", "poll time": "timestamp", "object type": "type",
    "utilization (%)": "util_pct", "response time (ms)": "response_ms",
    "total throughput (io/s)": "iops", "total bandwidth (mb/s)": "mb_s",
    "read throughput (io/s)": "read_iops", "write throughput (io/s)": "write_iops",
    "read size (kb)": "read_kb", "write size (kb)": "write_kb",
    "read bandwidth (mb/s)": "read_mb_s", "write bandwidth (mb/s)": "write_mb_s",
}
_TYPE_WORDS = {"sp": "sp", "storage processor": "sp", "port": "port", "raid group": "group", "rg": "group",
               "disk": "drive", "lun": "lun", "host lun": "lun", "public raid group lun": "lun",
               "metalun": "lun", "pool lun": "lun"}
_SP = re.compile(r"^SP\s*[A-Z]$", re.I)
_PORT = re.compile(r"^(?:SP\s*[A-Z]\s+)?Port\b", re.I)
_GROUP = re.compile(r"^RAID\s*Group\s+\d+", re.I)
_DISK = re.compile(r"^Bus\s+\d+\s+Enclosure\s+\d+\s+Disk\s+\d+", re.I)


def looks_like(text: str) -> bool:
    first = next((l.lstrip(".") for l in text.splitlines() if l.strip()), "").lower()
    return "object name" in first and "poll time" in first


def object_kind(name: str) -> str:
    if _SP.match(name):
        return "sp"
    if _PORT.match(name):
        return "port"
    if _GROUP.match(name):
        return "group"
    if _DISK.match(name):
        return "drive"
    return "lun"


def short_name(name: str) -> str:
    """'Oracle_data [17; RAID 5; RG 3]' -> 'Oracle_data [17]' (the Analyzer LUN number kept)."""
    m = re.match(r"^(.*?\[\s*\d+)\s*;.*\]\s*$", name)
    return f"{m.group(1)}]" if m else name.strip()


def read(text: str, name: str) -> tuple[list[MeasuredInterval], Skips]:
    skips = Skips(name)
    clean = "\n".join(re.sub(r"^\.+", "", l) for l in text.splitlines())
    rows = csv.reader(io.StringIO(clean))
    header: list[str] | None = None
    cols: dict[str, int] = {}
    raw = []
    for row in rows:
        lineno = rows.line_num
        if not row or not "".join(row).strip():
            continue
        if header is None:
            header = [h.strip() for h in row]
            for i, h in enumerate(header):
                c = _COLUMNS.get(h.lower())
                if c and c not in cols:
                    cols[c] = i
            if "object" not in cols or "timestamp" not in cols:
                raise MeasuredImportError(f"{name}: line {lineno}: an Analyzer dump needs the columns "
                                          f"\"Object Name\" and \"Poll Time\" (naviseccli analyzer -archivedump -data)")
            continue

        def cell(c: str) -> str:
            i = cols.get(c)
            return row[i] if i is not None and i < len(row) else ""

        def num(c: str, high: float = float("inf")) -> float | None:
            return number(cell(c), header[cols[c]], 0.0, high) if c in cols else None

        try:
            obj = cell("object").strip()
            if not obj:
                raise BadCell(header[cols["object"]], "is empty")
            t = timestamp(cell("timestamp"), header[cols["timestamp"]])
            kind = _TYPE_WORDS.get(cell("type").strip().lower()) if "type" in cols else None
            kind = kind or object_kind(obj)
            util = num("util_pct", 100.0)
            resp = num("response_ms")
            r_io, w_io = num("read_iops"), num("write_iops")
            iops = num("iops")
            if iops is None and (r_io is not None or w_io is not None):
                iops = (r_io or 0.0) + (w_io or 0.0)
            mb_s = num("mb_s")
            if mb_s is None and ("read_mb_s" in cols or "write_mb_s" in cols):
                mb_s = (num("read_mb_s") or 0.0) + (num("write_mb_s") or 0.0)
            read_pct = 100.0 * r_io / (r_io + (w_io or 0.0)) if r_io is not None and r_io + (w_io or 0.0) > 0 else None
            io_kb = None
            rk, wk = num("read_kb"), num("write_kb")
            if rk is not None and wk is not None and r_io is not None and w_io is not None and r_io + w_io > 0:
                io_kb = (rk * r_io + wk * w_io) / (r_io + w_io)
            io_kb = derive(iops, mb_s, io_kb)
            if iops == 0:
                resp = None
            if all(v is None for v in (util, resp, iops, mb_s)):
                raise BadCell(None, "the row has no measured value")
        except BadCell as exc:
            skips.add(lineno, exc.column, str(exc))
            continue
        raw.append((t, kind, short_name(obj) if kind == "lun" else obj, iops, mb_s, read_pct, io_kb, resp, util))
    if header is None:
        raise MeasuredImportError(f"{name}: the file is empty")
    return _intervals(raw), skips


def _intervals(raw) -> list[MeasuredInterval]:
    polls = sorted({r[0] for r in raw})
    gaps = [b - a for a, b in zip(polls, polls[1:])]
    nxt = {a: b - a for a, b in zip(polls, polls[1:])}
    out = []
    for t, kind, obj, iops, mb_s, read_pct, io_kb, resp, util in raw:
        secs = nxt.get(t, gaps[-1] if gaps else 60.0)
        out.append(MeasuredInterval(t, float(secs), kind, obj, iops, mb_s, read_pct, io_kb, resp, util))
    out.sort(key=lambda iv: (iv.start, iv.kind, iv.name))
    return out
