"""How numbers are shown to people: one set of rules for the GUI, the PDF report and the CLI.

Pure functions (no Qt, no locale): the same figure must read the same in the inspector, on the
timeline, in a chart tooltip and in the customer's PDF. Conventions:

* durations: "45 s", "32 min", "2 h 32 min", "4 d 3 h"          format_duration(hours)
* plan times (hours from the start of the plan): "0:00", "2:32", "1 d 02:32"   format_time(hours)
* decimal hours (axis ticks, tables of rates): "4.84 h"          format_hours(hours)
* capacities (1 GB = 1024 MB, 1 TB = 1024 GB): "512 MB", "100 GB", "133.7 GB", "1,072 GB",
  "12.5 TB"                                                        format_capacity(gb), format_mb(mb)
* rates: "3.4 MB/s", "12.2 MB/s", "144 MB/s", "1,200 MB/s"        format_rate(mb_s)
* percentages: "0%", "4.5%", "45%"                                 format_pct(pct)
* response times: "0.45 ms", "6.2 ms", "12.3 ms", "123 ms"        format_ms(ms)
* predicted response times: as format_ms, "no I/O" where the engine's series is NaN (the
  workload completed no I/O then: undefined, not 0 ms)             format_response(ms)
* IOPS, counts: "1,200 IOPS", "1,000"                              format_iops, format_count
* MTTDL: "4,200 years", "1.2 million years"                        format_mttdl(hours)
* a duration with its uncertainty band: "3.4 h (P10-P90 2.8-4.1 h)"  format_duration_band(h, p10, p90)

A value that is missing (None, NaN) formats as "–" (an en dash), except durations of operations
still running at the horizon, which read "not finished".
"""
from __future__ import annotations

import math
import re

DASH = "\u2013"
NO_IO = "no I/O"  # a response time where nothing completed I/O (NaN in the engine's series)
OUTAGE_TEXT = "controllers rebooting \u2013 no host I/O"  # the label of a reboot's band on host charts
HOURS_PER_YEAR = 8760.0  # 365 days; MTTDL figures in the documents use this


def _missing(x: float | None) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def format_sig(x: float, sig: int = 3) -> str:
    """`x` to `sig` significant digits, thousands separated, no trailing zeros:
    3.4, 0.25, 12.2, 144, 1,200 (numbers of 10^sig and more are rounded to whole units)."""
    if _missing(x):
        return DASH
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if x == 0:
        return "0"
    digits = sig - 1 - int(math.floor(math.log10(abs(x))))
    if digits <= 0:
        return f"{round(x):,}"
    text = f"{x:,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def format_count(n: float | None) -> str:
    """1000 -> '1,000'."""
    return DASH if _missing(n) else f"{round(n):,}"


def format_duration(hours: float | None) -> str:
    """A length of time: '45 s', '32 min', '2 h 32 min', '2 h', '4 d 3 h'.
    Under a minute in seconds; under an hour in minutes; under 48 h in hours and minutes;
    beyond that in days and hours. None (still running at the horizon): 'not finished'."""
    if hours is None:
        return "not finished"
    if _missing(hours):
        return DASH
    if hours < 0:
        return "-" + format_duration(-hours)
    seconds = hours * 3600.0
    if seconds < 59.5:
        return f"{round(seconds)} s"
    minutes = round(hours * 60.0)
    if minutes < 60:
        return f"{minutes} min"
    if minutes < 48 * 60:
        h, m = divmod(minutes, 60)
        return f"{h} h {m} min" if m else f"{h} h"
    whole_hours = round(hours)
    d, h = divmod(whole_hours, 24)
    return f"{d} d {h} h" if h else f"{d} d"


def _band_unit(hours: float) -> tuple[float, str]:
    """The unit a duration band reads in: minutes under an hour, hours under two days, else days."""
    if hours < 1.0:
        return 60.0, "min"
    if hours < 48.0:
        return 1.0, "h"
    return 1.0 / 24.0, "d"


def format_duration_band(hours: float | None, p10: float, p90: float) -> str:
    """A predicted duration with its P10-P90 band, all in one unit so that they compare at a
    glance: '3.4 h (P10-P90 2.8-4.1 h)', '52 min (P10-P90 41-60 min)'. `hours` None (the point
    estimate does not finish by the horizon) reads 'not finished'; an infinite P90 (more than
    10% of the samples do not finish) 'P90 not finished'. A band of zero width (no value had a
    range) is the point alone: format_duration."""
    finite = [x for x in (hours, p10, p90) if x is not None and math.isfinite(x)]
    if not finite or (_missing(p10) and _missing(p90)):
        return format_duration(hours)
    if hours is not None and math.isfinite(p10) and math.isfinite(p90) and p10 == p90 == hours:
        return format_duration(hours)
    scale, unit = _band_unit(max(finite))

    def num(x: float | None) -> str:
        return "not finished" if x is None or not math.isfinite(x) else format_sig(x * scale, 2)

    point = "not finished" if hours is None else f"{num(hours)} {unit}"
    if math.isfinite(p10) and math.isfinite(p90):
        band = f"P10-P90 {num(p10)}-{num(p90)} {unit}"
    elif math.isfinite(p10):
        band = f"P10 {num(p10)} {unit}, P90 not finished"
    else:
        band = "P10-P90 not finished"
    return f"{point} ({band})"


def format_time(hours: float | None) -> str:
    """A point on the plan's timeline (hours from its start), to the minute:
    '0:00', '2:32', '23:59', '1 d 02:32'. None: 'not finished'."""
    if hours is None:
        return "not finished"
    if _missing(hours):
        return DASH
    sign = "-" if hours < 0 else ""
    minutes = round(abs(hours) * 60.0)
    d, rest = divmod(minutes, 24 * 60)
    h, m = divmod(rest, 60)
    if d:
        return f"{sign}{d} d {h:02d}:{m:02d}"
    return f"{sign}{h}:{m:02d}"


_TIME = re.compile(r"^\s*(?:(\d+)\s*d\s*)?(\d+)\s*:\s*(\d{1,2})\s*$")


def parse_time(text: str) -> float | None:
    """The inverse of format_time, lenient: '2:32', '1 d 02:32', '1d 2:32', or decimal hours
    ('2.5', '2.5 h'); None if it is none of those (or negative, or minutes past 59)."""
    text = text.strip().lower()
    m = _TIME.match(text)
    if m:
        d, h, mins = int(m.group(1) or 0), int(m.group(2)), int(m.group(3))
        return None if mins > 59 else d * 24.0 + h + mins / 60.0
    text = text.removesuffix("h").strip()
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def format_hours(hours: float | None) -> str:
    """Decimal hours to 3 significant digits: '0.38 h', '4.84 h', '9 h', '126 h'."""
    return DASH if _missing(hours) else f"{format_sig(hours)} h"


def format_capacity(gb: float | None) -> str:
    """'512 MB' (under 1 GB), '100 GB', '133.7 GB', '1,072 GB', '12.5 TB' (10 TB and more).
    1 GB = 1024 MB and 1 TB = 1024 GB, the documents' convention."""
    if _missing(gb):
        return DASH
    a = abs(gb)
    if a == 0:
        return "0 GB"
    if a < 1:
        return f"{format_sig(gb * 1024)} MB"
    if a < 10 * 1024:
        if a >= 1000 or float(gb).is_integer():
            return f"{round(gb):,} GB"
        return f"{format_sig(gb, 4 if a >= 100 else 3)} GB"
    return f"{format_sig(gb / 1024)} TB"


def format_mb(mb: float | None) -> str:
    """An amount of data given in MB, shown as a capacity: 102400 -> '100 GB'."""
    return DASH if _missing(mb) else format_capacity(mb / 1024.0)


def format_rate(mb_s: float | None) -> str:
    """'3.4 MB/s', '12.2 MB/s', '144 MB/s', '1,200 MB/s'."""
    return DASH if _missing(mb_s) else f"{format_sig(mb_s)} MB/s"


def format_pct(pct: float | None) -> str:
    """'0%', '0.4%', '4.5%', '45%', '100%' (one decimal under 10%, whole numbers above)."""
    if _missing(pct):
        return DASH
    if abs(pct) < 10:
        text = f"{pct:.1f}".rstrip("0").rstrip(".")
        return ("0" if text in ("-0", "") else text) + "%"
    return f"{round(pct)}%"


def format_ms(ms: float | None) -> str:
    """Response time: '0.45 ms', '6.2 ms', '12.3 ms', '123 ms', '1,250 ms'."""
    return DASH if _missing(ms) else f"{format_sig(ms)} ms"


def format_response(ms: float | None) -> str:
    """A predicted response time: '6.2 ms'; NaN (the workload or LUN completed no I/O then, so it
    has no response time) 'no I/O'; None (no such series) '–'."""
    if ms is not None and math.isnan(ms):
        return NO_IO
    return format_ms(ms)


def format_iops(iops: float | None) -> str:
    """'1,200 IOPS', '85.5 IOPS'."""
    if _missing(iops):
        return DASH
    return f"{round(iops):,} IOPS" if abs(iops) >= 100 else f"{format_sig(iops)} IOPS"


def format_chance(p: float | None) -> str:
    """A probability as a percentage with sense at both ends: '0.03%', '12%', '82%', '>99.9%'."""
    if p is None:
        return DASH
    pct = 100.0 * p
    if pct >= 99.95:
        return ">99.9%"
    if pct < 0.01:
        return "<0.01%" if pct > 0 else "0%"
    return f"{pct:.2g}%" if pct < 10 else f"{pct:.0f}%"


def format_mttdl(hours: float | None) -> str:
    """Mean time to data loss: '3.5 years', '4,200 years', '1.2 million years', '1.5 billion years';
    under a year as a duration ('36 d 12 h'). Infinite: 'no data loss'."""
    if _missing(hours):
        return DASH
    if math.isinf(hours):
        return "no data loss"
    years = hours / HOURS_PER_YEAR
    if years < 1:
        return format_duration(hours)
    if years < 1e6:
        return f"{format_sig(years, 3) if years < 1000 else format_count(years)} years"
    if years < 1e9:
        return f"{format_sig(years / 1e6)} million years"
    if years < 1e12:
        return f"{format_sig(years / 1e9)} billion years"
    return f"{years:.2g} years".replace("e+", " × 10^")


def format_value(value: float | None, unit: str) -> str:
    """A number with a unit string from a preset or a Series ('MB/s', '%', 'ms', 'h', 'GB', ...),
    formatted by the rule for that unit; other units get 3 significant digits and the unit."""
    if _missing(value):
        return DASH
    u = (unit or "").strip()
    if u in ("%", "pct", "percent"):
        return format_pct(value)
    if u == "ms":
        return format_ms(value)
    if u in ("MB/s", "MBps"):
        return format_rate(value)
    if u == "GB":
        return format_capacity(value)
    if u == "MB":
        return format_mb(value)
    if u in ("h", "hours"):
        return format_hours(value)
    if u in ("IOPS", "iops"):
        return format_iops(value)
    text = format_sig(value)
    return f"{text} {u}" if u else text


def format_setting(value, unit: str = "") -> str:
    """A cache/LUN setting as the user entered it: booleans 'on'/'off', numbers with their unit."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, float)):
        text = f"{value:,}" if isinstance(value, int) or float(value).is_integer() else format_sig(value, 4)
        if isinstance(value, float) and value.is_integer():
            text = f"{int(value):,}"
        return f"{text} {unit}".strip() if unit not in ("%",) else f"{text}%"
    return f"{value} {unit}".strip() if value is not None else DASH


def series_label(metric: str, entity: str, project=None, result=None) -> str:
    """How a chart names one series, in the GUI and the report alike: "SP A CPU 0" (the EMC
    paper's words), "Bus 1", the RAID group's label, "Drive 0_0_3", the workload's name, the
    operation's label. `project` and `result` are optional; without them the raw id is used.
    The names come from the result when it carries them (Result.labels: the names it was
    computed with), so a result shown while the next one runs keeps its own names; from the
    project only for a result without them."""
    labels = getattr(result, "labels", None)
    if metric == "cpu_pct":
        ctrl, _, core = entity.rpartition("/")
        return f"{ctrl} CPU {core}" if ctrl else entity
    if metric == "write_cache_pct":
        return f"{entity} write cache"
    if metric == "ctrl_limit_pct":
        return f"{entity} I/O limit"
    if metric == "bus_pct":
        return f"Bus {entity}"
    if metric == "group_pct":
        if labels is not None and labels.groups:
            try:
                return labels.groups.get(int(entity)) or f"RG {entity}"
            except ValueError:
                return f"RG {entity}"
        if project is not None:
            try:
                return project.group(int(entity)).label
            except (KeyError, ValueError):
                pass
        return f"RG {entity}"
    if metric == "drive_pct":
        return f"Drive {entity}"
    if metric in ("response_read_ms", "response_write_ms"):
        side = "reads" if metric == "response_read_ms" else "writes"
        return f"{series_label('response_ms', entity, project, result)} {side}"
    if metric in ("response_ms", "iops", "mb_s"):
        if labels is not None and labels.workloads:
            return labels.workloads.get(entity) or entity
        if project is not None:
            try:
                return project.workload(entity).name or entity
            except KeyError:
                pass
        return entity
    if metric == "progress_pct":
        if result is not None:
            try:
                return result.operation(entity).label
            except KeyError:
                pass
        return entity
    return entity


def plural(n: float, word: str, many: str | None = None) -> str:
    """plural(1, 'LUN') -> '1 LUN', plural(3, 'RAID group') -> '3 RAID groups',
    plural(2, 'bus', 'buses') -> '2 buses'; counts with thousands separators."""
    return f"{format_count(n)} {word if n == 1 else (many or word + 's')}"


# an event's fields as the forms and the Inspector name them
EVENT_FIELD_LABELS = {
    "start_h": "Start (from plan start)", "source_lun": "Source LUN", "dest_lun": "Destination LUN",
    "lun": "LUN", "drive": "Drive", "priority": "Priority", "no_initial_verify": "No initial verify",
    "moves": "Moves (source>target, ...)", "parallel": "Run as one migration group",
    "threshold": "Threshold", "measure_only": "Measure only", "feature": "Feature",
    "workload": "Workload", "changes": "Changes (field=value, ...)",
}


def format_moves(moves) -> str:
    """A volume migration's moves as the form takes them: '0>20, 1>21'."""
    return ", ".join(f"{a}>{b}" for a, b in moves)


def format_changes(changes: dict) -> str:
    """A workload change's fields as the form takes them: 'iops=0, read_pct=70'."""
    return ", ".join(f"{k}={v}" for k, v in changes.items())


def format_event_field(name: str, value) -> str:
    """An event field's value for reading (the Inspector): moves and changes as the form writes
    them, yes/no, a dash for nothing."""
    if name == "moves":
        return format_moves(value) or DASH
    if name == "changes":
        return format_changes(value) or DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    return DASH if value is None or value == "" else str(value)
