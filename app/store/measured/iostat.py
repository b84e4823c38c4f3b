"""Linux `iostat -x -t` output (sysstat), the column sets of several versions
(docs/measured-data.md "iostat"):

* sysstat 9.x-11.x (`-k`):  Device: rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz avgqu-sz await
  [r_await w_await] svctm %util  (rsec/s wsec/s without -k, rMB/s wMB/s with -m; avgrq-sz in
  512-byte sectors);
* sysstat 12.0-12.3:  Device r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm r_await w_await
  aqu-sz rareq-sz wareq-sz svctm %util;
* sysstat 12.4 and later:  Device r/s rkB/s rrqm/s %rrqm r_await rareq-sz w/s wkB/s wrqm/s %wrqm
  w_await wareq-sz d/s dkB/s drqm/s %drqm d_await dareq-sz [f/s f_await] aqu-sz %util.

Columns are found by name, so any order and extra columns are read. `-t` prints a time line
before each report ("12/06/2026 10:00:00 AM", "12/06/26 10:00:00", or ISO 8601 with
S_TIME_FORMAT=ISO); without it there are no intervals to place, and the file is refused. The
first report is the average since boot, not an interval: it is skipped (and said so) unless it
is the only one. avg-cpu blocks are ignored. Each device becomes a LUN-type object (a host block
device is a LUN as the host sees it); IOPS = r/s + w/s, read % = r/s over that, MB/s from the kB
(or sector, MB) columns, response = the r/s-, w/s-weighted r_await and w_await (or await), util
= %util.
"""
from __future__ import annotations

import re

from app.domain.measured import MeasuredInterval

from .common import BadCell, MeasuredImportError, Skips, number, timestamp

_TIME_LINE = re.compile(
    r"^\s*(\d{1,2}/\d{1,2}/\d{2,4}\s+\d{1,2}:\d{2}:\d{2}(\s*[AP]M)?|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[+-]\d{4}|Z)?)\s*$")
_BANNER = re.compile(r"^Linux\s+\S+\s+\(")


def looks_like(text: str) -> bool:
    head = text[:20000]
    return bool(re.search(r"^Device:?\s", head, re.M)) and ("%util" in head) and (
        bool(_BANNER.search(head)) or bool(re.search(r"r/s", head)))


def _size_factor(col: str) -> float:
    """KB per unit of a throughput column (rkB/s, rMB/s, rsec/s)."""
    return {"kB": 1.0, "MB": 1024.0, "sec": 0.5}[col]


def read(text: str, name: str) -> tuple[list[MeasuredInterval], Skips]:
    skips = Skips(name)
    reports: list[tuple[int, float, list[tuple[int, str, dict[str, str], list[str]]]]] = []
    now: tuple[int, float] | None = None
    header: list[str] | None = None
    in_cpu = False
    saw_device_header = False
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            header, in_cpu = None, False
            continue
        if _BANNER.match(s):
            continue
        if _TIME_LINE.match(s):
            try:
                now = (lineno, timestamp(s, "time"))
            except BadCell as exc:
                skips.add(lineno, None, str(exc))
                now = None
                continue
            reports.append((lineno, now[1], []))
            continue
        if s.startswith("avg-cpu:"):
            in_cpu = True
            continue
        if in_cpu:
            continue
        if re.match(r"^Device:?\s", s):
            header = s.split()
            header[0] = "Device"
            saw_device_header = True
            if not any(h in header for h in ("r/s", "w/s")) or "%util" not in header:
                raise MeasuredImportError(f"{name}: line {lineno}: an iostat device header without r/s, w/s and "
                                          f"%util: run iostat with -x")
            continue
        if header is None:
            continue
        if now is None:
            raise MeasuredImportError(f"{name}: line {lineno}: a device line before any time stamp: run iostat "
                                      f"with -t so each report says when it was taken")
        cells = s.split()
        if len(cells) != len(header):
            skips.add(lineno, None, f"{len(cells)} fields where the header at this report has {len(header)}")
            continue
        reports[-1][2].append((lineno, cells[0], dict(zip(header[1:], cells[1:])), header))
    if not saw_device_header:
        raise MeasuredImportError(f"{name}: no iostat device report (a line starting 'Device' with r/s ... %util)")
    reports = [r for r in reports if r[2]]
    if not reports:
        raise MeasuredImportError(f"{name}: no device lines under a time stamp: run iostat with -x -t")
    if len(reports) > 1:
        first = reports.pop(0)
        skips.add(first[0], None, "the first report is the average since boot, not an interval (iostat -y omits it)")
    out: list[MeasuredInterval] = []
    gaps = [b[1] - a[1] for a, b in zip(reports, reports[1:]) if b[1] > a[1]]
    for i, (_, t, rows) in enumerate(reports):
        if i + 1 < len(reports) and reports[i + 1][1] > t:
            secs = reports[i + 1][1] - t
        else:
            secs = gaps[-1] if gaps else 1.0
        for lineno, dev, cells, _hdr in rows:
            try:
                out.append(_interval(t, secs, dev, cells))
            except BadCell as exc:
                skips.add(lineno, exc.column, str(exc))
    if not out:
        raise MeasuredImportError(f"{name}: no valid interval (skipped: {skips.count})")
    return out, skips


def _interval(t: float, secs: float, dev: str, c: dict[str, str]) -> MeasuredInterval:
    def num(col: str, high: float = float("inf")) -> float | None:
        return number(c[col], col, 0.0, high) if col in c else None

    r, w = num("r/s") or 0.0, num("w/s") or 0.0
    iops = r + w
    kb = None
    for unit in ("kB", "MB", "sec"):
        rc, wc = f"r{unit}/s", f"w{unit}/s"
        if rc in c or wc in c:
            kb = ((num(rc) or 0.0) + (num(wc) or 0.0)) * _size_factor(unit)
            break
    mb_s = kb / 1024.0 if kb is not None else None
    io_kb = None
    if iops > 0 and kb is not None:
        io_kb = kb / iops
    elif "avgrq-sz" in c:
        io_kb = (num("avgrq-sz") or 0.0) * 0.5
    elif iops > 0 and ("rareq-sz" in c or "wareq-sz" in c):
        io_kb = (r * (num("rareq-sz") or 0.0) + w * (num("wareq-sz") or 0.0)) / iops
    if "r_await" in c and "w_await" in c and iops > 0:
        resp = (r * (num("r_await") or 0.0) + w * (num("w_await") or 0.0)) / iops
    elif "await" in c:
        resp = num("await")
    else:
        resp = None
    if iops == 0:
        resp = None  # no I/O completed: the response is undefined (iostat prints 0.00)
    util = num("%util", 100.0 + 1e-9)  # sysstat caps at 100.00
    return MeasuredInterval(t, float(secs), "lun", dev, iops=iops, mb_s=mb_s,
                            read_pct=100.0 * r / iops if iops > 0 else None, io_kb=io_kb,
                            response_ms=resp, util_pct=min(util, 100.0) if util is not None else None)
