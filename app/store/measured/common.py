"""What the measured-data readers share: the error, the list of skipped cells, time stamps."""
from __future__ import annotations

import datetime as _dt
import math
import re

# skipped lines kept word for word; the rest are only counted (a file of bad lines stays readable)
MAX_SKIPPED_KEPT = 200


class MeasuredImportError(ValueError):
    """The file cannot be imported at all (no header, no valid interval); one line naming it."""


class Skips:
    """The lines a reader left out, each 'line N, column C: why'."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.kept: list[str] = []
        self.count = 0

    def add(self, line: int, column: str | None, why: str) -> None:
        self.count += 1
        if len(self.kept) < MAX_SKIPPED_KEPT:
            where = f"line {line}" + (f", column {column!r}" if column else "")
            self.kept.append(f"{self.name}: {where}: {why}")


class BadCell(ValueError):
    """A cell that cannot be read; `column` names it."""

    def __init__(self, column: str | None, why: str) -> None:
        super().__init__(why)
        self.column = column


def number(text: str, column: str, low: float = 0.0, high: float = math.inf, empty_ok: bool = True) -> float | None:
    """A non-negative number of a cell (None for an empty cell or "N/A", where `empty_ok`)."""
    t = text.strip().replace(",", "") if text.count(",") and "." in text else text.strip()
    if t in ("", "N/A", "n/a", "NA", "-"):
        if empty_ok:
            return None
        raise BadCell(column, "is empty")
    try:
        v = float(t)
    except ValueError:
        raise BadCell(column, f"{text.strip()!r} is not a number") from None
    if not math.isfinite(v):
        raise BadCell(column, f"{text.strip()!r} is not a finite number")
    if v < low or v > high:
        rng = f"{low:g} to {high:g}" if math.isfinite(high) else f"at least {low:g}"
        raise BadCell(column, f"{v:g} is out of range ({rng})")
    return v


_FORMATS = (
    "%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S%z", "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M%z", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M",
    "%m/%d/%Y %H:%M:%S", "%m/%d/%Y %I:%M:%S %p", "%m/%d/%y %H:%M:%S", "%m/%d/%y %I:%M:%S %p",
    "%m/%d/%Y %H:%M", "%d.%m.%Y %H:%M:%S",
)
_FRACTION = re.compile(r"(\d{2}:\d{2}:\d{2})\.\d+")


def timestamp(text: str, column: str = "timestamp") -> float:
    """Seconds since the epoch of an ISO 8601 time, "MM/DD/YYYY HH:MM:SS [AM|PM]" (Analyzer,
    iostat in the US locale) or epoch seconds. A time without a zone is read as UTC: only the
    differences between intervals matter."""
    t = _FRACTION.sub(r"\1", text.strip())
    if re.fullmatch(r"\d{9,11}(\.\d+)?", t):
        return float(t)
    if t.endswith("Z"):
        t = t[:-1] + "+0000"
    for fmt in _FORMATS:
        try:
            d = _dt.datetime.strptime(t, fmt)
        except ValueError:
            continue
        if d.tzinfo is None:
            d = d.replace(tzinfo=_dt.timezone.utc)
        return d.timestamp()
    raise BadCell(column, f"{text.strip()!r} is not a time (ISO 8601 such as 2026-12-06T10:15:00, "
                          f"MM/DD/YYYY HH:MM:SS or epoch seconds)")


def derive(iops: float | None, mb_s: float | None, io_kb: float | None) -> float | None:
    """The I/O size from IOPS and MB/s when the source gives no size (1 MB = 1024 KB)."""
    if io_kb is not None:
        return io_kb
    if iops and mb_s is not None and iops > 0:
        return mb_s * 1024.0 / iops
    return None
