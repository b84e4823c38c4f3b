"""What the report says: a Qt-free document model built from the project, the catalog and the
engine's Results. Every figure is taken from a Result or from domain arithmetic
(app.domain.capacity, RaidMath) and formatted with app.domain.formatting, the same functions
the GUI uses. app.report.render lays this model out on pages with Qt.
"""
from __future__ import annotations

import datetime as _dt
import heapq
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from app.domain.capacity import array_space, capacity_summary
from app.domain.formatting import (
    DASH, OUTAGE_TEXT, format_capacity, format_count, format_duration, format_iops, format_mb, format_ms,
    format_mttdl, format_response, format_pct, format_rate, format_setting, format_sig, format_time, format_value,
    series_label,
)
from app.domain.hardware import Catalog, Platform
from app.domain.project import Project, parse_slot_id
from app.engine.result import Result

from . import uncertainty

# ---------------------------------------------------------------- document model


@dataclass
class Heading:
    text: str
    level: int = 1  # 1 = section (starts a new page), 2 = subsection, 3 = minor heading
    number: str = ""  # "3", "3.2", "A"; filled by Report.number_headings
    key: str = ""  # unique id, for the table of contents

    @property
    def full(self) -> str:
        return f"{self.number}  {self.text}" if self.number else self.text


@dataclass
class Para:
    text: str
    style: str = "body"  # "body", "note" (small, grey), "lead" (larger)


@dataclass
class Col:
    title: str
    weight: float = 1.0  # share of the table width
    align: str = "left"  # "left" or "right"


@dataclass
class Row:
    cells: list
    style: str = ""  # "", "bold", "sub" (indented, detail row), "warning", "total"
    indent_col: int = 0  # the column a "sub" row indents


@dataclass
class PageRef:
    """A table cell that shows the page a heading landed on (table of contents)."""

    key: str


@dataclass
class Table:
    columns: list[Col]
    rows: list[Row]
    header: bool = True  # header row, repeated on every page the table spans
    caption: str = ""
    kind: str = ""  # "toc", "kv" (key/value, no header)


@dataclass
class ChartSeries:
    label: str
    t: np.ndarray
    v: np.ndarray
    color: int = -1  # palette index; -1: the series' own position
    dashed: bool = False  # the baseline scenario's line for the same entity
    linear: bool = False  # straight lines between the points (Series.linear: progress), not steps
    end_h: float | None = None  # where its own plan ends (a pinned baseline's); None: the chart's horizon
    markers: bool = False  # measured values: a dot at each (t, v), no line (docs/measured-data.md)
    # (t, P10, P90) steps shaded under the line: its uncertainty band (app/report/uncertainty.py)
    band: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None


@dataclass
class Chart:
    title: str
    unit: str  # "%", "ms", ...
    series: list[ChartSeries]
    horizon_h: float
    y_max: float | None = None  # fixed top of the axis (100 for utilizations)
    caption: str = ""
    marks: list[tuple[float, str]] = field(default_factory=list)  # vertical markers (time, label)
    targets: list[tuple[float, str]] = field(default_factory=list)  # horizontal lines (value, label)
    bands: list[tuple[float, float, str]] = field(default_factory=list)  # shaded intervals (start, end, label)
    x_title: str = ""  # the time axis' title ("" = time from the start of the plan)
    # "": the x axis is plan time in hours (horizon_h its end); else a value axis in this unit
    # ("IOPS": the load sweep's response against offered load, horizon_h its largest value)
    x_unit: str = ""


@dataclass
class Diagram:
    """The array's layout (controllers, buses, enclosures, slots coloured by RAID group).
    `buses` limits the drawing to those buses (a large array is drawn a few buses per page)."""

    buses: list[int]
    caption: str = ""
    legend: bool = True
    project: Any = None  # a scenario's own configuration (its effective Project); None: the report's


@dataclass
class PageBreak:
    pass


Block = Heading | Para | Table | Chart | Diagram | PageBreak


@dataclass
class Cover:
    title: str
    subtitle: str
    customer: str
    author: str
    date: str
    version: str
    platform: str
    scenarios: list[str]
    notes: str = ""


@dataclass
class Report:
    cover: Cover
    blocks: list[Block]
    header_left: str
    header_right: str
    project: Project
    catalog: Catalog

    def headings(self) -> list[Heading]:
        return [b for b in self.blocks if isinstance(b, Heading)]

    def text(self) -> str:
        """Plain text of the report body (for tests and debugging)."""
        out: list[str] = []
        for b in self.blocks:
            if isinstance(b, Heading):
                out.append(b.full)
            elif isinstance(b, Para):
                out.append(b.text)
            elif isinstance(b, Table):
                if b.header:
                    out.append(" | ".join(c.title for c in b.columns))
                for r in b.rows:
                    out.append(" | ".join(c if isinstance(c, str) else "" for c in r.cells))
            elif isinstance(b, Chart):
                out.append(f"[chart] {b.title}: " + ", ".join(s.label for s in b.series))
        return "\n".join(out)


# ---------------------------------------------------------------- options

#: Chart kinds the report offers: key -> (title, metric, unit, default on)
CHART_KINDS: dict[str, tuple[str, str, str, bool]] = {
    "response": ("Host response time", "response_ms", "ms", True),
    "cpu": ("Controller CPU utilization", "cpu_pct", "%", True),
    "bus": ("Back-end bus utilization", "bus_pct", "%", True),
    "groups": ("RAID group disk utilization", "group_pct", "%", True),
    "progress": ("Operation progress", "progress_pct", "%", True),
    "cache": ("Write cache fill", "write_cache_pct", "%", False),
    "iops": ("Host IOPS", "iops", "IOPS", False),
}

MAX_LINES_PER_CHART = 8
COVER_NOTES_MAX = 900  # characters of project notes the cover holds; longer notes open the summary
COVER_NOTES_LINES = 12  # ... and lines
MAX_ADVISORIES_PER_KIND = 5  # rows per advisory code in one scenario; the rest are summed up

# What a report prints is bounded, so its time and size stay near linear in the project and a
# hostile or huge project still makes a readable report: longer texts are cut with "... N more
# characters", longer tables end in one row that counts the rest and says where to find them.
# (Text layout of one paragraph is linear in its length; the bounds keep the whole PDF small.)
MAX_NOTES_CHARS = 20_000  # a paragraph (project or scenario notes): about six pages
MAX_NOTES_LINES = 300  # ... and its lines (a line break per character would make 20,000 lines)
MAX_CELL_CHARS = 1_000  # a table cell
MAX_CELL_LINES = 12
MAX_TITLE_CHARS = 300  # a heading, a cover line
MAX_OPERATIONS_LISTED = 200  # operations (with their phases) per scenario, and in "Scenarios compared"
MAX_TABLE_ROWS = 2_000  # any other table (LUNs, RAID groups, enclosures, events...)
FULL_LIST = "`arrayplanner simulate FILE --scenario NAME --json` lists every operation with its phases"
FULL_PROJECT = "`arrayplanner export-json FILE` writes the whole project"


@dataclass
class ReportOptions:
    scenarios: list[str] | None = None  # None: every scenario of the project
    charts: list[str] = field(default_factory=lambda: [k for k, v in CHART_KINDS.items() if v[3]])
    diagram: bool = True
    lun_table: bool = True
    assumptions: bool = True
    page_size: str = "A4"  # or "Letter"
    date: _dt.date | None = None  # None: today
    version: str = ""  # product version; "" = app.__version__
    sweep_target_ms: float = 20.0  # the response target the load-sweep section answers for
    sweep_growth_pct: float = 30.0  # ... and the planned growth

    def scenario_names(self, project: Project) -> list[str]:
        names = [s.name for s in project.scenarios]
        if self.scenarios is None:
            return names
        unknown = [n for n in self.scenarios if n not in names]
        if unknown:
            raise KeyError(f"scenario {unknown[0]!r} does not exist (the project has: {', '.join(names)})")
        return [n for n in names if n in self.scenarios]


# ---------------------------------------------------------------- helpers

def first_operations(ops: Sequence, limit: int) -> list:
    """The first `limit` operations by (start, natural id), without sorting them all: only those
    starting no later than the limit-th start take part in the sort (linear in len(ops))."""
    key = lambda o: (o.start_h, natural_key(o.event_id))  # noqa: E731
    if len(ops) <= limit:
        return sorted(ops, key=key)
    starts = np.fromiter((o.start_h for o in ops), float, len(ops))
    kth = np.partition(starts, limit - 1)[limit - 1]
    return sorted((ops[i] for i in np.flatnonzero(starts <= kth)), key=key)[:limit]


def natural_key(text: str) -> list:
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", str(text))]


def compress_locations(locations: Sequence[str]) -> str:
    """'0_0_0, 0_0_1, 0_0_2, 1_0_4' -> '0_0_0–0_0_2, 1_0_4' (runs of slots in one enclosure)."""
    parsed = []
    for loc in locations:
        try:
            parsed.append(parse_slot_id(loc))
        except ValueError:
            parsed.append(None)
    out: list[str] = []
    i = 0
    while i < len(locations):
        if parsed[i] is None:
            out.append(locations[i])
            i += 1
            continue
        j = i
        while (j + 1 < len(locations) and parsed[j + 1] is not None
               and parsed[j + 1][:2] == parsed[i][:2] and parsed[j + 1][2] == parsed[j][2] + 1):
            j += 1
        out.append(locations[i] if j == i else (
            f"{locations[i]}, {locations[j]}" if j == i + 1 else f"{locations[i]}\u2013{locations[j]}"))
        i = j + 1
    return ", ".join(out)


def compress_numbers(numbers: Iterable[int]) -> str:
    """[0, 1, 2, 3, 7, 9, 10] -> '0\u20133, 7, 9, 10' (runs of three or more as ranges)."""
    nums = sorted(set(numbers))
    out: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        if j - i >= 2:
            out.append(f"{nums[i]}\u2013{nums[j]}")
        else:
            out.extend(str(n) for n in nums[i:j + 1])
        i = j + 1
    return ", ".join(out)


def _fits_cover(notes: str) -> bool:
    return len(notes) <= COVER_NOTES_MAX and notes.count("\n") < COVER_NOTES_LINES


def clip_text(text: str, limit: int, max_lines: int | None = None) -> str:
    """`text`, or its first `limit` characters (cut at a space near the limit when there is one)
    and at most `max_lines` lines, followed by "... (N more characters)"."""
    if len(text) <= limit and (max_lines is None or text.count("\n", 0, limit) < max_lines):
        return text
    cut = min(len(text), limit)
    if max_lines is not None:
        nl = -1
        for _ in range(max_lines):
            nl = text.find("\n", nl + 1, cut)
            if nl < 0:
                break
        if nl >= 0:
            cut = nl
    if cut == limit:
        space = text.rfind(" ", max(0, limit - 200), limit)
        if space > 0:
            cut = space
    return f"{text[:cut].rstrip()} \u2026 ({format_count(len(text) - cut)} more characters)"


def _longest_text(op) -> str:
    """The summary's longest operation: its working time, and the replacement wait apart."""
    text = f"{op.label}: {format_duration(op.working_h)}"
    wait = op.replacement_wait_h
    if wait > 1e-9:
        text += f" (+{format_duration(wait)} waiting for the new drive)"
    return text


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{format_count(n)} {word if n == 1 else (plural or word + 's')}"


class _Numberer:
    def __init__(self) -> None:
        self.counts = [0, 0, 0]
        self.appendix = 0
        self.in_appendix = False

    def __call__(self, h: Heading) -> None:
        if h.level == 1:
            if h.key.startswith("appendix"):
                self.in_appendix = True
                self.appendix += 1
                self.counts = [0, 0, 0]
                h.number = chr(ord("A") + self.appendix - 1)
                return
            self.counts = [self.counts[0] + 1, 0, 0]
            h.number = str(self.counts[0])
        elif h.level == 2:
            self.counts[1] += 1
            self.counts[2] = 0
            top = chr(ord("A") + self.appendix - 1) if self.in_appendix else str(self.counts[0])
            h.number = f"{top}.{self.counts[1]}"


# ---------------------------------------------------------------- builder

class ReportBuilder:
    """Builds the Report for `project` from one Result per included scenario."""

    def __init__(self, project: Project, catalog: Catalog, results: dict[str, Result],
                 options: ReportOptions | None = None, warnings: Iterable[str] = (),
                 sweeps: Sequence[tuple[str, Any]] = (), sizing: Any = None, bands: dict[str, Any] | None = None):
        self.project = project
        # {scenario: app.service.uncertainty.Bands}: made by the caller, as the sweeps; the
        # durations print their P10-P90 and the charts shade their bands (report/uncertainty.py)
        self.bands = dict(bands or {})
        # (scenario, app.service.sweep.SweepResult): made by the caller (the report layer does
        # not import the service layer), printed by section_sweep
        self.sweeps = list(sweeps)
        self.sizing = sizing  # an app.service.goal_seek.SizingResult, printed by section_sizing
        self.catalog = catalog
        self.results = results
        self.options = options or ReportOptions()
        self.warnings = list(warnings)
        self.platform: Platform | None = catalog.platforms.get(project.platform_id)
        from app.domain.user_names import ObjectNames

        # "Disk Group 3", "Migrate LUN 0 -> LUN 2" where validation and the engine wrote ids
        self.names = ObjectNames(project, self.platform)
        self.warnings = [self.names.text(w) for w in self.warnings]
        self.blocks: list[Block] = []
        self._keys: set[str] = set()
        from app.store.sources import default_bibliography

        self.bibliography = default_bibliography()
        self.cited: list[str] = []  # the documents the report cites, in order: its References

    def cite(self, text: str) -> str:
        """`text` with its citation keys expanded to document titles and numbers, remembered for
        the References section."""
        for key in self.bibliography.keys_in(text):
            if key not in self.cited:
                self.cited.append(key)
        return self.bibliography.cite(text)

    # -- block helpers
    def heading(self, text: str, level: int = 1, key: str = "") -> Heading:
        key = key or re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
        base, n = key, 2
        while key in self._keys:
            key, n = f"{base}-{n}", n + 1
        self._keys.add(key)
        h = Heading(clip_text(text, MAX_TITLE_CHARS), level, key=key)
        self.blocks.append(h)
        return h

    def para(self, text: str, style: str = "body") -> None:
        self.blocks.append(Para(clip_text(text, MAX_NOTES_CHARS, MAX_NOTES_LINES), style))

    def table(self, columns: list[Col], rows: list[Row], caption: str = "", header: bool = True,
              kind: str = "", empty: str = "") -> None:
        """A table; with no rows, the sentence `empty` instead (when given)."""
        if not rows and empty:
            self.para(empty)
            return
        if len(rows) > MAX_TABLE_ROWS + 1:  # a safety net: the long tables are cut where built
            rows = rows[:MAX_TABLE_ROWS] + [self.more_row(len(columns), len(rows) - MAX_TABLE_ROWS, "rows",
                                                          FULL_PROJECT)]
        for row in rows:
            row.cells = [clip_text(c, MAX_CELL_CHARS, MAX_CELL_LINES) if isinstance(c, str) else c for c in row.cells]
        self.blocks.append(Table(columns, rows, header, caption, kind))

    @staticmethod
    def more_row(n_cols: int, count: int, what: str, where: str) -> Row:
        """The last row of a cut table: how many rows are left out and where to find them."""
        cells = [""] * n_cols
        cells[min(1, n_cols - 1)] = f"\u2026 and {format_count(count)} more {what}, not listed here: {where}."
        return Row(cells, "bold")

    def kv(self, pairs: list[tuple[str, str]]) -> None:
        self.table([Col("", 1.0), Col("", 2.4)], [Row([k, v]) for k, v in pairs], header=False, kind="kv")

    # -- names
    def drive_label(self, type_id: str) -> str:
        dt = self.catalog.drives.get(type_id)
        return dt.name if dt else type_id

    def group_label(self, gid: int) -> str:
        return self.names.group(gid)

    def entity_label(self, metric: str, entity: str, result: Result) -> str:
        return series_label(metric, entity, self.project, result)

    # -- the document
    def build(self) -> Report:
        p, info = self.project, self.project.info
        names = self.options.scenario_names(p)
        missing = [n for n in names if n not in self.results]
        if missing:
            raise KeyError(f"no result for scenario {missing[0]!r}")
        from app import __version__

        version = self.options.version or __version__
        date = (self.options.date or _dt.date.today()).strftime("%d %B %Y").lstrip("0")
        platform_name = self.platform.name if self.platform else p.platform_id
        cover = Cover(
            title=clip_text(info.title or "Untitled", MAX_TITLE_CHARS), subtitle="Storage array operations plan",
            customer=clip_text(info.customer, MAX_TITLE_CHARS), author=clip_text(info.author, MAX_TITLE_CHARS),
            date=date,
            version=f"ArrayPlanner {version}", platform=platform_name, scenarios=names,
            notes=info.notes if _fits_cover(info.notes) else "",
        )
        self.blocks = []
        self.heading("Contents", 1, key="contents")
        toc_index = len(self.blocks)
        self.section_summary(names)
        self.section_configuration()
        from .scenario_config import section_scenario_configurations

        if self.options.diagram:
            self.section_layout()
        self.section_groups_luns()
        self.section_cache_features()
        self.section_workloads()
        section_scenario_configurations(self, names)
        self.section_operations(names)
        from .comparison import section_comparison

        section_comparison(self, names)
        if self.options.charts:
            self.section_charts(names)
        if p.measured is not None:
            from .measured import section_measured  # (it builds on this module's blocks)

            section_measured(self)
        self.section_advisories(names)
        self.section_mttdl(names)
        if self.sweeps:
            self.section_sweep()
        if self.sizing is not None:
            self.section_sizing()
        if self.options.assumptions:
            self.section_assumptions(names)
        from .references import section_references

        section_references(self)

        self._name_groups_in_blocks()
        numberer = _Numberer()
        for b in self.blocks:
            if isinstance(b, Heading) and b.key != "contents":
                numberer(b)
        toc_rows = [
            Row([h.number, h.text, PageRef(h.key)], "bold" if h.level == 1 else "sub")
            for h in self.blocks if isinstance(h, Heading) and h.level <= 2 and h.key != "contents"
        ]
        # the number column holds "12.3" on one line (a twelfth chapter wrapped "10.1" onto two)
        self.blocks.insert(toc_index, Table([Col("", 0.95), Col("", 8), Col("", 0.8, "right")], toc_rows,
                                            header=False, kind="toc"))
        header_left = " \u2013 ".join(clip_text(x, MAX_TITLE_CHARS) for x in (info.title, info.customer) if x) \
            or "ArrayPlanner report"
        return Report(cover, self.blocks, header_left, f"{platform_name} \u00b7 {date}", p, self.catalog)

    def _name_groups_in_blocks(self) -> None:
        """Every "RG 3" the sections wrote (a group's label, an engine series' name) in the
        platform's word ("Disk Group 3"); the user's own texts (notes, names) print as typed."""
        p = self.project
        typed = {p.info.notes, p.info.title, *(sc.notes for sc in p.scenarios), *(sc.name for sc in p.scenarios),
                 *(g.name for g in p.groups), *(lun.name for lun in p.luns), *(w.name for w in p.workloads)}

        def named(x):
            return self.names.groups_in(x) if isinstance(x, str) and x not in typed else x

        for b in self.blocks:
            if isinstance(b, (Heading, Para)):
                b.text = named(b.text)
            elif isinstance(b, Table):
                for c in b.columns:
                    c.title = named(c.title)
                for r in b.rows:
                    r.cells = [named(c) for c in r.cells]
                b.caption = named(b.caption)
            elif isinstance(b, Chart):
                b.title, b.caption = named(b.title), named(b.caption)
                for series in b.series:
                    series.label = named(series.label)
                b.marks = [(t, named(m)) for t, m in b.marks]

    # ---------------------------------------------------------- sections

    def section_summary(self, names: list[str]) -> None:
        self.heading("Summary", 1)
        p = self.project
        if not _fits_cover(p.info.notes):  # too long for the cover
            self.para(p.info.notes)
        _, total = capacity_summary(p, self.catalog)
        platform = self.platform.name if self.platform else p.platform_id
        self.para(
            f"This report predicts how long the planned storage operations take on the {platform} "
            f"described below and what they do to host response time. It covers "
            f"{_plural(len(names), 'scenario')}: {', '.join(names)}. The array has "
            f"{_plural(len(p.drives), 'drive')} ({format_capacity(total.raw_gb)} raw) in "
            f"{_plural(len(p.groups), 'RAID group')} with {format_capacity(total.usable_gb)} usable, "
            f"of which {format_capacity(total.allocated_gb)} is bound to {_plural(len(p.luns), 'LUN')}.")
        rows = []
        for name in names:
            r = self.results[name]
            ops = r.operations
            ends = [o.end_h for o in ops if o.end_h is not None]
            unfinished = sum(1 for o in ops if o.end_h is None)
            # the array's work: a rebuild's wait for the replacement drive is the scenario's
            # choice of when the drive comes, said apart
            longest = max((o for o in ops if o.working_h is not None), key=lambda o: o.working_h, default=None)
            peak_ms, peak_wl = None, ""
            for ent in r.entities("response_ms"):
                s = r.get("response_ms", ent)
                pk = s.peak()  # NaN: a workload that never completed I/O
                if not math.isnan(pk) and (peak_ms is None or pk > peak_ms):
                    peak_ms, peak_wl = pk, self.entity_label("response_ms", ent, r)
            warnings = sum(1 for a in r.advisories if a.severity == "warning")
            plan_end = format_time(max(ends)) if ends else ""
            if unfinished:
                plan_end = (plan_end + "; " if plan_end else "") + (
                    f"{unfinished} still running at {format_time(r.horizon_h)}")
            plan_end = plan_end or DASH
            rows.append(Row([
                name, format_count(len(ops)), plan_end,
                _longest_text(longest) if longest else DASH,
                f"{format_ms(peak_ms)} ({peak_wl})" if peak_ms is not None else DASH,
                format_count(warnings),
            ]))
        self.table([Col("Scenario", 1.4), Col("Operations", 0.9, "right"), Col("Plan ends", 1.1, "right"),
                    Col("Longest operation", 3.0), Col("Peak host response", 1.8), Col("Warnings", 0.8, "right")],
                   rows)
        waits = any(o.replacement_wait_h > 1e-9 for n in names for o in self.results[n].operations)
        self.para("Times are given from the start of the plan (0:00), durations in hours and minutes. "
                  + ("The longest operation is the array's working time; the wait for a replacement drive "
                     "(set by when the scenario brings it) is given apart. " if waits else "")
                  + "Capacities use 1 GB = 1024 MB. Every rate and factor behind the predictions is listed "
                  "with its source in the appendix.", "note")
        if self.warnings:
            self.heading("Configuration warnings", 3)
            self.table([Col("Warning", 1.0)], [Row([w], "warning") for w in self.warnings])

    def section_configuration(self) -> None:
        p, cat, pf = self.project, self.catalog, self.platform
        self.heading("Configuration", 1)
        rows, total = capacity_summary(p, cat)
        encl_by_bus: dict[int, list] = {}
        for e in p.enclosures:
            encl_by_bus.setdefault(e.bus, []).append(e)
        spares = len(p.hot_spares())
        pairs: list[tuple[str, str]] = []
        if pf:
            pairs += [
                ("Platform", f"{pf.name}" + (f" ({pf.vendor})" if pf.vendor and pf.vendor not in pf.name else "")),
                ("Firmware", pf.firmware or DASH),
                ("Controllers", ", ".join(f"{c.name} ({_plural(c.cores, 'core')})" for c in pf.controllers)),
                ("Back-end buses", f"{len(encl_by_bus)} of {pf.buses} in use, {format_rate(pf.bus_mb_s)} each"),
            ]
        else:
            pairs.append(("Platform", p.platform_id))
        pairs.append(("Enclosures per bus", "; ".join(
            f"bus {b}: {len(es)}" for b, es in sorted(encl_by_bus.items())) or "none"))
        pairs += [
            ("Drives", f"{format_count(len(p.drives))}, of which {format_count(spares)} hot "
                       f"{'spare' if spares == 1 else 'spares'}"),
            ("Raw capacity", f"{format_capacity(total.raw_gb)} (every drive, hot spares included)"),
            ("Usable capacity", f"{format_capacity(total.usable_gb)} in {_plural(len(p.groups), 'RAID group')}"),
            ("Bound to LUNs", f"{format_capacity(total.allocated_gb)} in {_plural(len(p.luns), 'LUN')}"),
            ("Free in RAID groups", format_capacity(total.free_gb)),
        ]
        self.heading("Array", 2)
        self.kv(pairs)

        self.heading("Drives by type", 2)
        by_type: dict[str, list] = {}
        for d in p.drives.values():
            by_type.setdefault(d.type_id, []).append(d)
        drows = []
        for tid in sorted(by_type, key=natural_key):
            ds = by_type[tid]
            dt = cat.drives.get(tid)
            cap = dt.capacity_gb if dt else 0.0
            drows.append(Row([
                self.drive_label(tid), dt.speed_class if dt else DASH, format_capacity(cap) if dt else DASH,
                format_count(len(ds)), format_count(sum(1 for d in ds if d.hot_spare)),
                format_capacity(cap * len(ds)) if dt else DASH,
            ]))
        drows.append(Row(["Total", "", "", format_count(len(p.drives)), format_count(spares),
                          format_capacity(total.raw_gb)], "total"))
        self.table([Col("Drive type", 2.6), Col("Class", 1.1), Col("Capacity", 1.1, "right"),
                    Col("Drives", 0.8, "right"), Col("Hot spares", 0.9, "right"), Col("Raw", 1.1, "right")], drows)

        self.heading("Enclosures", 2)
        erows = []
        per_enc: dict[str, int] = {}
        for d in p.drives.values():
            enc = d.location.rsplit("_", 1)[0]
            per_enc[enc] = per_enc.get(enc, 0) + 1
        for e in sorted(p.enclosures, key=lambda e: (e.bus, e.position)):
            et = pf.enclosure_types.get(e.type_id) if pf else None
            n_in = per_enc.get(e.id, 0)
            erows.append(Row([f"Encl {e.id}", str(e.bus), et.name if et else e.type_id,
                              f"{n_in} of {et.slots}" if et else format_count(n_in)]))
        self.table([Col("Enclosure", 1.0), Col("Bus", 0.6, "right"), Col("Type", 3.0),
                    Col("Drives in slots", 1.3, "right")], erows, empty="The project has no enclosures yet.")

    def section_layout(self) -> None:
        self.heading("Layout", 1)
        self.para("Controllers, back-end buses and disk enclosures with every slot; a drive's colour shows "
                  "its RAID group, HS marks a hot spare and an empty slot is left blank.", "note")
        self.layout_diagrams(self.project)

    def layout_diagrams(self, p: Project, buses: list[int] | None = None, own: bool = False) -> None:
        """The layout of `p` (of `buses` only, when given), a few buses per page; `own`: a
        scenario's own configuration (drawn from `p`, never from the GUI canvas: it shows the base)."""
        buses = buses if buses is not None else sorted({e.bus for e in p.enclosures})
        if not buses:
            self.para("The project has no enclosures yet.")
            return
        # a page holds about 24 enclosures; keep a bus on one page
        chunk: list[int] = []
        count = 0
        per_bus = {b: sum(1 for e in p.enclosures if e.bus == b) for b in buses}
        mine = p if own else None
        for b in buses:
            if chunk and count + per_bus[b] > 24:
                self.blocks.append(Diagram(chunk, legend=False, project=mine))
                chunk, count = [], 0
            chunk.append(b)
            count += per_bus[b]
        self.blocks.append(Diagram(chunk, legend=True, project=mine))

    def section_formatted_capacity(self, p: Project | None = None, level: int = 2, key: str = "") -> None:
        """Raw, formatted and usable per RAID group and in total, with the vault, the hot-spare
        ratio and the rack space (app.domain.capacity.array_space), of `p` (the report's project
        unless a scenario's own configuration)."""
        if self.platform is None:
            return
        space = array_space(p if p is not None else self.project, self.catalog)
        self.heading("Capacity summary", level, key=key)
        rows = [Row([g.label, g.layout, format_capacity(g.raw_gb), format_capacity(g.formatted_gb),
                     format_capacity(g.usable_gb), format_capacity(g.allocated_gb)],
                    "warning" if g.allocated_gb > g.usable_gb + 1e-6 else "") for g in space.groups]
        rows.append(Row(["Total", f"{format_count(space.drives)} drives", format_capacity(space.raw_gb),
                         format_capacity(space.formatted_gb), format_capacity(space.usable_gb),
                         format_capacity(space.allocated_gb)], "total"))
        self.table([Col("RAID group", 1.2), Col("RAID", 1.0), Col("Raw (nominal)", 1.1, "right"),
                    Col("Formatted", 1.1, "right"), Col("Usable formatted", 1.2, "right"),
                    Col("In LUNs", 1.0, "right")], rows)
        pairs = [("Formatted capacity", f"nominal x {space.formatted_factor:g}" if space.formatted_factor < 1
                  else "not given by the platform preset (nominal)"),
                 ("Vault", f"{space.vault_drives} drives, {format_capacity(space.vault_gb)} reserved for the system"
                  if space.vault_drives else "none"),
                 ("Hot spares", f"{format_count(space.hot_spares)} ({space.spare_ratio})"),
                 ("Enclosures", f"{format_count(space.enclosures)}" + (f", {space.rack_units:g} U of rack"
                                                                        if space.rack_units else ""))]
        self.kv(pairs)
        if space.source:
            self.para(f"Source: {self.cite(space.source)}", "note")

    def section_groups_luns(self) -> None:
        self.heading("RAID groups and LUNs", 1)
        self.heading("RAID groups", 2)
        self.groups_table(self.project)
        self.para("Raw capacity counts every member drive; usable capacity is what the RAID type leaves for "
                  "data (the smallest member's capacity times the data drives).", "note")
        self.section_formatted_capacity()
        self._lun_table()

    def groups_table(self, p: Project) -> None:
        """The RAID groups of `p`: level, drive type, drives, capacities, LUNs (a total row)."""
        cat = self.catalog
        rows, total = capacity_summary(p, cat)
        cap_by_id = {r.group_id: r for r in rows}
        grows = []
        for g in sorted(p.groups, key=lambda g: g.id):
            c = cap_by_id[g.id]
            types = sorted({self.drive_label(p.drives[l].type_id) for l in g.drives if l in p.drives})
            grows.append(Row([
                g.label, g.math.label, ", ".join(types) or DASH, compress_locations(g.drives),
                format_capacity(c.raw_gb), format_capacity(c.usable_gb), format_capacity(c.allocated_gb),
                format_capacity(c.free_gb), format_count(len(p.luns_in_group(g.id))),
            ]))
        if grows:
            grows.append(Row(["Total", "", "", "", format_capacity(sum(r.raw_gb for r in rows)),
                              format_capacity(total.usable_gb), format_capacity(total.allocated_gb),
                              format_capacity(total.free_gb), format_count(len(p.luns))], "total"))
        self.table([Col("RAID group", 1.0), Col("RAID", 0.9), Col("Drive type", 1.8), Col("Drives", 2.2),
                    Col("Raw", 0.95, "right"), Col("Usable", 0.95, "right"), Col("In LUNs", 0.95, "right"),
                    Col("Free", 0.95, "right"), Col("LUNs", 0.6, "right")], grows,
                   empty="The project has no RAID groups yet.")

    def _lun_table(self) -> None:
        p = self.project
        if not self.options.lun_table:
            return
        self.heading("LUNs", 2)
        specs = self.platform.lun_settings if self.platform else {}
        lrows = []
        luns = heapq.nsmallest(MAX_TABLE_ROWS, p.luns, key=lambda l: l.id)
        for lun in luns:
            changed = []
            for k, v in lun.settings.items():
                spec = specs.get(k)
                if spec is not None and v == spec.default:
                    continue
                label = spec.label if spec else k
                changed.append(f"{label} {format_setting(v, spec.unit if spec else '')}")
            lrows.append(Row([str(lun.id), lun.name or DASH, self.group_label(lun.group_id),
                              format_capacity(lun.capacity_gb), lun.owner, "; ".join(changed) or "defaults"]))
        if len(luns) < len(p.luns):
            lrows.append(self.more_row(6, len(p.luns) - len(luns), "LUNs", FULL_PROJECT))
        self.table([Col("LUN", 0.6, "right"), Col("Name", 1.6), Col("RAID group", 1.1),
                    Col("Capacity", 1.0, "right"), Col("Owner", 0.8), Col("Settings", 2.6)], lrows,
                   empty="No LUNs are bound yet.")

    def section_cache_features(self) -> None:
        p, pf = self.project, self.platform
        self.heading("Cache and premium features", 1)
        self.heading("Cache settings", 2)
        crows = []
        specs = pf.cache_settings if pf else {}
        for key, spec in specs.items():
            value = p.cache.get(key, spec.default)
            crows.append(Row([spec.label, format_setting(value, spec.unit), format_setting(spec.default, spec.unit)],
                             "" if value == spec.default else "bold"))
        for key, value in p.cache.items():
            if key not in specs:
                crows.append(Row([key, format_setting(value), DASH]))
        if crows:
            self.table([Col("Setting", 2.0), Col("Value", 1.2, "right"), Col("Platform default", 1.2, "right")], crows)
        else:
            self.para("The platform has no cache settings.")
        self.heading("Premium features", 2)
        feats = pf.features if pf else {}
        enabled_later: dict[str, list[str]] = {}
        for s in p.scenarios:
            for e in s.events:
                if e.kind == "feature_enable":
                    enabled_later.setdefault(getattr(e, "feature", ""), []).append(
                        f"{s.name} at {format_time(e.start_h)}")
        frows = []
        for fid, spec in feats.items():
            on = p.features.get(fid, False)
            frows.append(Row([spec.name, "enabled" if on else "off",
                              "; ".join(enabled_later.get(fid, [])) or DASH, spec.description or DASH]))
        for fid, on in p.features.items():
            if fid not in feats:
                frows.append(Row([fid, "enabled" if on else "off", DASH, DASH]))
        if frows:
            self.table([Col("Feature", 1.6), Col("At plan start", 1.0), Col("Enabled in plan", 1.6),
                        Col("Description", 3.2)], frows)
        else:
            self.para("The platform offers no premium features.")

    def section_workloads(self) -> None:
        p = self.project
        self.heading("Host workloads", 1)
        if not p.workloads:
            self.para("No host workload is attached: operations run on an idle array.")
            return
        rows = []
        for w in p.workloads:
            load = (format_iops(w.iops) if w.mode == "open"
                    else f"{format_count(w.outstanding)} outstanding I/O{'s' if w.outstanding != 1 else ''}")
            if w.mode == "closed" and w.think_ms:
                load += f", {format_ms(w.think_ms)} think"
            luns = compress_numbers(w.luns)
            rows.append(Row([
                w.name or w.id, luns or DASH, load, format_pct(w.read_pct), f"{format_sig(w.io_kb)} KB",
                format_pct(w.random_pct), format_pct(w.read_hit_pct) if w.read_hit_pct is not None else "platform",
                format_ms(w.response_target_ms) if w.response_target_ms is not None else DASH,
            ]))
        self.table([Col("Workload", 1.6), Col("LUNs", 1.3), Col("Load", 1.3, "right"), Col("Reads", 0.7, "right"),
                    Col("I/O size", 0.8, "right"), Col("Random", 0.8, "right"), Col("Read hits", 0.9, "right"),
                    Col("Target", 0.8, "right")], rows)
        self.para("Open workloads arrive at a fixed rate (IOPS); closed workloads keep a fixed number of I/Os "
                  "outstanding, as benchmark tools do, each I/O issued again after its think time (if any). Read hits: share of reads the cache serves "
                  "(\u201cplatform\u201d: the platform's default). Target: the response time the host needs.", "note")

    def _event_text(self, e) -> str:
        kind = e.kind
        if kind == "drive_replacement":
            return f"Drive {e.drive} replaced"
        if kind == "workload_change":
            try:
                name = self.project.workload(e.workload).name
            except KeyError:
                name = e.workload
            ch = ", ".join(f"{k} = {v}" for k, v in e.changes.items())
            return f"Workload {name}: {ch}"
        if kind == "feature_enable":
            spec = self.platform.features.get(e.feature) if self.platform else None
            return f"Enable {spec.name if spec else e.feature}"
        return f"{e.label_text} ({e.id})"

    def section_operations(self, names: list[str]) -> None:
        self.heading("Operations plan", 1)
        self.para("For each operation (ID: the name advisories use): its phases with the predicted start, end "
                  "and duration, the data each phase moves and its average rate. Times are from the start of "
                  "the plan.", "note")
        ranges = uncertainty.has_ranges(self, names)
        note = uncertainty.method_note(self, names)
        if note:
            self.para(note, "note")
        if len(names) > 1:
            self.heading("Scenarios compared", 2)
            ids: list[tuple[str, str]] = []
            seen = set()
            for n in names:
                for o in self.results[n].operations:
                    if o.event_id not in seen:
                        seen.add(o.event_id)
                        ids.append((o.event_id, o.label))
            more_ids = max(0, len(ids) - MAX_OPERATIONS_LISTED)
            ids = ids[:MAX_OPERATIONS_LISTED]
            wanted = {eid for eid, _ in ids}
            by_id = {n: {o.event_id: o for o in self.results[n].operations if o.event_id in wanted} for n in names}

            def cell(n, eid):
                o = by_id[n].get(eid)
                return None if o is None else f"{uncertainty.duration_text(self, n, o)} ({o.priority})"

            if len(names) <= 4:  # one column per scenario
                rows = [Row([label] + [cell(n, eid) or DASH for n in names]) for eid, label in ids]
                if more_ids:
                    rows.append(self.more_row(1 + len(names), more_ids, "operations", FULL_LIST))
                w = max(1.0, 4.0 / len(names))
                self.table([Col("Operation", 3.0)] + [Col(n, w, "right") for n in names], rows,
                           caption="Duration of each operation (priority) in each scenario.")
            else:  # many scenarios: one row per operation and scenario
                rows = []
                for eid, label in ids:
                    k = 0
                    for n in names:
                        text = cell(n, eid)
                        if text is None:
                            continue
                        rows.append(Row([label if k == 0 else "", n, text], "" if k == 0 else "sub"))
                        k += 1
                if more_ids:
                    rows.append(self.more_row(3, more_ids, "operations", FULL_LIST))
                self.table([Col("Operation", 3.0), Col("Scenario", 2.0), Col("Duration (priority)", 1.6, "right")],
                           rows, caption="Duration of each operation (priority) in the scenarios that plan it.")
        for n in names:
            r = self.results[n]
            scen = self.project.scenario(n)
            self.heading(f"Scenario \u201c{n}\u201d", 2, key=f"ops-{n}")
            if scen.notes:
                self.para(scen.notes)  # the user's words as written: "hp" there may be anything
            if not r.operations:
                self.para("This scenario schedules no operations.")
            else:
                listed = first_operations(r.operations, MAX_OPERATIONS_LISTED)
                if len(listed) < len(r.operations):
                    self.para(f"The first {format_count(len(listed))} of {format_count(len(r.operations))} "
                              f"operations, by start time, are listed; {FULL_LIST}.", "note")
                rows = []
                for o in listed:
                    rows.append(Row([o.event_id, o.label, o.priority, format_time(o.start_h), format_time(o.end_h),
                                     uncertainty.duration_text(self, n, o), format_mb(sum(ph.mb for ph in o.phases)),
                                     DASH], "bold"))
                    for ph in o.phases:
                        rows.append(Row(["", ph.name, "", format_time(ph.start_h), format_time(ph.end_h),
                                         format_duration(ph.duration_h), format_mb(ph.mb) if ph.mb else DASH,
                                         format_rate(ph.avg_mb_s) if ph.avg_mb_s else DASH], "sub", 1))
                if len(listed) < len(r.operations):
                    rows.append(self.more_row(8, len(r.operations) - len(listed), "operations", FULL_LIST))
                self.table([Col("ID", 0.5), Col("Operation / phase", 3.2), Col("Priority", 0.9), Col("Start", 0.95, "right"),
                            Col("End", 0.95, "right"), Col("Duration", 2.2 if ranges else 1.2, "right"),
                            Col("Data", 1.0, "right"),
                            Col("Avg rate", 1.0, "right")], rows)
            others = [e for e in scen.events if not e.is_operation]
            if others:
                self.heading("Other events", 3)
                shown = heapq.nsmallest(MAX_TABLE_ROWS, others, key=lambda e: e.start_h)  # stable, as sorted()
                rows = [Row([format_time(e.start_h), self._event_text(e)]) for e in shown]
                if len(shown) < len(others):
                    rows.append(self.more_row(2, len(others) - len(shown), "events", FULL_PROJECT))
                self.table([Col("Time", 0.8, "right"), Col("Event", 5.0)], rows)
            impact = []
            for ent in sorted(r.entities("response_ms"), key=natural_key):
                s = r.get("response_ms", ent)
                if s is None or not len(s.v):
                    continue
                peak = s.peak()  # the steps without I/O (NaN) left out; NaN if it never has I/O
                peak_at = DASH if math.isnan(peak) else format_time(float(s.t[int(np.nanargmax(s.v))]))
                target = None
                try:
                    target = self.project.workload(ent).response_target_ms
                except KeyError:
                    pass
                impact.append(Row([self.entity_label("response_ms", ent, r), format_response(s.at(0.0)),
                                   format_response(peak), peak_at, format_ms(target) if target is not None else DASH],
                                  "warning" if target is not None and peak > target else ""))
            if impact:
                self.heading("Host response time", 3)
                self.table([Col("Workload", 2.4), Col("At plan start", 1.1, "right"), Col("Peak", 1.0, "right"),
                            Col("Peak at", 1.0, "right"), Col("Target", 1.0, "right")], impact)
                outages = r.host_outages()
                if outages:
                    spans = ", ".join(f"{format_time(a)}\u2013{format_time(b)}" for a, b in outages)
                    self.para(f"The controllers reboot ({spans}): no host I/O completes then, so there is no response "
                              "time (a gap in the chart, \u201cno I/O\u201d); the peaks leave it out.", "note")

    def chart_for(self, kind: str, r: Result, scenario: str = "") -> Chart | None:
        title, metric, unit, _ = CHART_KINDS[kind]
        caption = ""
        if metric == "progress_pct" and len(r.operations) > MAX_LINES_PER_CHART:
            # every operation ends at 100 %: show the longest ones, chosen from the operations
            # before any curve is read (10^6 operations: 8 series built, not 10^6)
            series = self._longest_progress(r)
            caption = f"The {len(series)} of {format_count(len(r.operations))} longest operations are shown."
        else:
            series = [s for s in (r.get(metric, e) for e in r.entities(metric)) if s is not None]
        if not series:
            return None
        if len(series) > MAX_LINES_PER_CHART:
            series.sort(key=lambda s: -np.nan_to_num(s.peak(), nan=-np.inf))  # no I/O at all: last
            caption = f"The {MAX_LINES_PER_CHART} of {format_count(len(series))} with the highest peak are shown."
            series = series[:MAX_LINES_PER_CHART]
        series.sort(key=lambda s: natural_key(s.entity))
        unit = series[0].unit or unit
        y_max = 100.0 if unit == "%" else None
        marks = [(o.start_h, o.label) for o in r.operations] if kind != "progress" and len(r.operations) <= 6 else []
        targets: list[tuple[float, str]] = []
        if metric == "response_ms":  # the workloads' response-time targets
            for value in sorted({w.response_target_ms for w in self.project.workloads
                                 if w.id in {s.entity for s in series} and w.response_target_ms}):
                targets.append((value, f"target {format_ms(value)}"))
        lines = [ChartSeries(self.entity_label(metric, s.entity, r), s.t, s.v, linear=s.linear) for s in series]
        if uncertainty.attach(self, scenario, metric, series, lines):
            caption = (caption + " " if caption else "") + uncertainty.BAND_CAPTION
        base_name = self.project.baseline_scenario
        base = self.results.get(base_name) if base_name and base_name != scenario else None
        # with a pinned baseline every chart's time axis runs to the longer plan's end, as the GUI's
        # (linked) axes do, so the charts line up; this plan's lines still stop at its own end
        horizon = max(r.horizon_h, base.horizon_h) if base is not None else r.horizon_h
        if horizon > r.horizon_h:
            for line in lines:
                line.end_h = r.horizon_h
        if kind == "response" and base is not None:  # the GUI's dashed baseline: what the hosts see without the plan
            for i, s in enumerate(series):
                b = base.get(metric, s.entity)
                if b is not None and len(b.t):
                    # it stops where the baseline plan ends, as in the GUI (not held to this plan's end)
                    lines.append(ChartSeries(f"{lines[i].label} (baseline)", b.t, b.v, color=i, dashed=True,
                                             linear=b.linear, end_h=base.horizon_h))
            if len(lines) > len(series):
                caption = (caption + " " if caption else "") + (
                    f"Dashed: the same workloads in the baseline scenario \u201c{base_name}\u201d.")
        # host charts: a band over each controller reboot (no host I/O: the response lines break)
        bands = ([(a, b, OUTAGE_TEXT) for a, b in r.host_outages()]
                 if metric in ("response_ms", "iops") else [])
        return Chart(title, unit, lines, horizon, y_max, caption, marks, targets, bands)

    @staticmethod
    def _longest_progress(r: Result) -> list:
        """The progress series of the MAX_LINES_PER_CHART longest operations (one still running:
        until the horizon), ties broken by id; linear in the number of operations."""
        ops = r.operations
        length = np.fromiter(((o.duration_h if o.duration_h is not None else r.horizon_h - o.start_h) for o in ops),
                             float, len(ops))
        k = MAX_LINES_PER_CHART
        kth = np.partition(length, len(ops) - k)[len(ops) - k]  # the k-th longest
        candidates = sorted(np.flatnonzero(length >= kth).tolist(), key=lambda i: (-length[i], ops[i].event_id))
        series = [r.get("progress_pct", ops[i].event_id) for i in candidates]
        return [x for x in series if x is not None][:k]

    def section_charts(self, names: list[str]) -> None:
        self.heading("Charts", 1)
        self.para("Predicted utilizations and host response time over the plan. Values hold until the next "
                  "change (step lines); dotted vertical lines mark the start of each operation.", "note")
        for n in names:
            r = self.results[n]
            self.heading(f"Scenario \u201c{n}\u201d", 2, key=f"charts-{n}")
            count = 0
            for kind in self.options.charts:
                if kind not in CHART_KINDS:
                    continue
                ch = self.chart_for(kind, r, n)
                if ch is not None:
                    self.blocks.append(ch)
                    count += 1
            if not count:
                self.para("The prediction has no series for the chosen charts.")

    def section_advisories(self, names: list[str]) -> None:
        self.heading("Advisories", 1)
        self.para("Best practices from the vendors' documents that this plan runs into, with the reason and "
                  "the document the advice comes from.", "note")
        quiet = [n for n in names if not self.results[n].advisories]
        if quiet:
            which = "this plan" if len(names) == 1 else (
                "any scenario" if len(quiet) == len(names) else "the scenarios " + ", ".join(
                    f"\u201c{n}\u201d" for n in quiet))
            self.para(f"No advisories for {which}: the plan follows the documented best practices.")
        for n in names:
            r = self.results[n]
            if not r.advisories:
                continue
            self.heading(f"Scenario \u201c{n}\u201d", 2, key=f"adv-{n}")
            order = {"error": -1, "warning": 0, "info": 1}
            about = {a.where for a in r.advisories}
            op_labels = {o.event_id: o.label for o in r.operations if o.event_id in about}
            advs = sorted(r.advisories, key=lambda a: (order.get(a.severity, 2), a.code, natural_key(a.where)))
            by_code: dict[str, list] = {}
            for a in advs:
                by_code.setdefault(a.code, []).append(a)
            rows = []
            for code, items in by_code.items():  # recurring advice: a few rows, then one summing up
                for a in items[:MAX_ADVISORIES_PER_KIND]:
                    about_text = self.names.text(op_labels.get(a.where, a.where), n)
                    rows.append(Row([a.severity, about_text or DASH, self.names.text(a.text, n),
                                     self.cite(a.source) or DASH],
                                    "warning" if a.severity in ("error", "warning") else ""))
                more = items[MAX_ADVISORIES_PER_KIND:]
                if more:
                    about = [a.where for a in more if a.where]
                    listed = ", ".join(self.names.text(x, n) for x in about[:30]) + (", \u2026" if len(about) > 30 else "")
                    rows.append(Row([more[0].severity, f"{len(more)} more",
                                     f"The same advice ({code}) applies to {len(more)} more: {listed}.",
                                     self.cite(more[0].source) or DASH], "warning" if more[0].severity == "warning" else ""))
            self.table([Col("Severity", 0.8), Col("About", 1.4), Col("Advice and reason", 4.0), Col("Source", 1.8)],
                       rows)

    def section_mttdl(self, names: list[str]) -> None:
        p = self.project
        self.heading("Data protection (MTTDL)", 1)
        self.para("Mean time to data loss of each RAID group (Patterson, Gibson & Katz), from the drives' MTTF "
                  "and the rebuild time the scenario predicts (an idle-array rebuild when the scenario has none). "
                  "Longer is better; the figure falls when rebuilds run at a lower priority or under heavy host "
                  "load.", "note")
        if not p.groups:
            self.para("The project has no RAID groups.")
            return
        groups = sorted(p.groups, key=lambda g: g.id)

        def mttdl(n, gid):
            h = self.results[n].mttdl_h.get(gid)
            return format_mttdl(h) if h is not None else DASH

        if any(rel.critical_h is not None for n in names for rel in self.results[n].reliability.values()):
            # the two tables differ by the third failure's window: say which is which
            self.para("For a pool that rebuilds its critical stripes first this table counts the whole rebuild "
                      "as the window for a further failure; the next table counts only the critical phase, as "
                      "the product does, and goal seeking uses that figure.", "note")
        if any(g.id not in self.results[n].mttdl_h for g in groups for n in names):
            self.para("A dash: no rebuild time could be predicted for that group (the platform's presets have no "
                      "rebuild rates for it), so there is no MTTDL.", "note")
        if len(names) <= 3:  # one column per scenario
            rows = [Row([g.label, g.math.label, format_count(g.width)] + [mttdl(n, g.id) for n in names])
                    for g in groups]
            w = max(1.2, 4.5 / len(names))
            self.table([Col("RAID group", 1.1), Col("RAID", 0.9), Col("Drives", 0.7, "right")]
                       + [Col(f"MTTDL: {n}" if len(names) > 1 else "MTTDL", w, "right") for n in names], rows)
        else:  # many scenarios: one row per group and scenario
            rows = []
            for g in groups:
                for k, n in enumerate(names):
                    rows.append(Row([g.label if k == 0 else "", g.math.label if k == 0 else "",
                                     format_count(g.width) if k == 0 else "", n, mttdl(n, g.id)],
                                    "" if k == 0 else "sub"))
            self.table([Col("RAID group", 1.2), Col("RAID", 0.8), Col("Drives", 0.6, "right"), Col("Scenario", 2.4),
                        Col("MTTDL", 1.4, "right")], rows)
        from .reliability import section_reliability  # (its own module: this one is long)
        section_reliability(self, names)

    def section_sweep(self) -> None:
        """Response against host load (the load sweep): per scenario and curve, the answers for
        the target and growth of the options, and the steps."""
        target, growth = self.options.sweep_target_ms, self.options.sweep_growth_pct
        self.heading("Load sweep", 1)
        self.para("Every host workload scaled from 10% of today's load to just past saturation (open loads: "
                  "offered IOPS; closed loads: outstanding I/Os). \u201cSteady\u201d is the host load alone; "
                  "\u201cduring\u201d keeps that operation and measures every step over one window: from its start "
                  "to its end at the heaviest load below saturation. The knee is where the response starts to "
                  "climb steeply; saturation, where demand is no longer served.", "note")
        for scenario, res in self.sweeps:
            for c in res.curves:
                self.heading(f"\u201c{scenario}\u201d, {self.names.text(c.label, scenario)}", 2,
                             key=f"sweep-{scenario}-{c.label}")  # "during op1": the operation named
                knee, sat = c.knee, c.saturation()
                mx, head = c.max_iops_at(target), c.headroom_pct(target)
                if mx is None:
                    answer = f"A response of {format_ms(target)} is not met even at 10% of today's load."
                else:
                    fits = "fits" if head >= growth else "does not fit"
                    answer = (f"At most {mx:,.0f} IOPS within {format_ms(target)} (headroom {head:+.0f}% on "
                              f"today's load; {growth:g}% growth {fits}).")
                if knee is not None:
                    answer += f" Knee at {knee.factor:.2f}x ({knee.total_offered:,.0f} IOPS), limited by {knee.limiting}."
                if sat is not None:
                    answer += f" Saturated from {sat.factor:.2f}x ({sat.total_offered:,.0f} IOPS)."
                if c.window_h is not None:
                    answer += f" Measured from {c.window_h[0]:.2f} h to {c.window_h[1]:.2f} h at every load."
                self.para(answer)
                chart = sweep_chart(c, target)
                if chart is not None:
                    self.blocks.append(chart)
                rows = []
                for st in c.steps:
                    note = "knee" if st is knee else ("saturated" if st is sat else ("overloaded" if st.saturated else ""))
                    resp = st.worst_response_ms
                    rows.append(Row([f"{st.factor:.2f}x", f"{st.total_offered:,.0f}", f"{st.total_served:,.0f}",
                                     "no I/O" if resp != resp else format_ms(resp),
                                     f"{st.limiting} {st.utilisation_pct.get(st.limiting, 0.0):.0f}%", note],
                                    "bold" if note in ("knee", "saturated") else ""))
                self.table([Col("Load", 0.8, "right"), Col("Offered IOPS", 1.2, "right"),
                            Col("Served IOPS", 1.2, "right"), Col("Worst response", 1.2, "right"),
                            Col("Limiting component", 2.2), Col("Note", 1.0)], rows)
            if res.advice is not None:
                self._sweep_advice(scenario, res.advice)

    def _sweep_advice(self, scenario: str, advice) -> None:
        """The priority advisor across the sweep's load levels: a column per operation."""
        self.heading(f"\u201c{scenario}\u201d, priorities across the load levels", 2,
                     key=f"sweep-advice-{scenario}")
        self.para("Per operation (run alone under the scaled host load), the lowest-impact priority that "
                  "still finishes inside its window at each load level; the duration where it was run.", "note")
        for line in advice.skipped:
            self.para(line, "note")
        ops = advice.operations
        if not ops:
            if not advice.skipped:
                self.para("No operation of this scenario has a priority to advise on.")
            return
        for op in ops:
            self.para(f"{op.label}: now at {op.current_priority}; window {op.window_h:g} h "
                      f"({'given' if op.window_source == 'given' else 'the plan after its start'}).")
        rows = []
        for k, level in enumerate(ops[0].levels):
            cells = [f"{level.factor:.2f}x"]
            for op in ops:
                lv = op.levels[k]
                if lv.priority is None:
                    cells.append("none in time")
                else:
                    cells.append(lv.priority + (f" ({format_duration(lv.duration_h)})" if lv.duration_h else ""))
            rows.append(Row(cells))
        width = max(1.2, 6.0 / len(ops))
        self.table([Col("Load", 0.8, "right")] + [Col(op.label, width) for op in ops], rows)

    def section_sizing(self) -> None:
        """Goal seeking: the goals, the designs that meet them (the Pareto front), the closest
        misses with why, and why the chosen design wins."""
        res = self.sizing
        g = res.goal
        self.heading("Sizing: candidate designs", 1)
        goals = [f"worst workload response at most {format_ms(g.response_ms)} at today's load + {g.growth_pct:g}%"]
        if g.rebuild_hours is not None:
            goals.append(f"a drive rebuild under that load within {g.rebuild_hours:g} h at "
                         f"{g.rebuild_priority or 'the default priority'}")
        if g.usable_gb is not None:
            goals.append(f"usable capacity at least {g.usable_gb:,.0f} GB")
        if g.mttdl_years is not None:
            goals.append(f"every group's MTTDL at least {g.mttdl_years:g} years")
        unit = "the price list" if res.cost_unit == "price" else "the drive count, spares included (no complete price list)"
        self.para("Goals: " + "; ".join(goals) + f". Cost: {unit}. {res.families} design families were searched "
                  f"with {res.runs} engine runs (capacity bounds first, then bisection on the group count).")
        if res.chosen is None:
            self.para("No design of this platform meets the goals. The closest tries and why they miss:")
        else:
            c = res.chosen
            rb = f", rebuild {c.rebuild_h:.1f} h" if c.rebuild_h is not None else ""
            self.para(f"Chosen: {c.label} ({format_ms(c.response_ms)}{rb}): {res.chosen_reason}. The verdict of "
                      "each other design on the front says what more it costs and what it buys with it.")
        rows = []
        shown = list(res.front) + [c for c in res.candidates if not c.meets][:10]
        for c in shown:
            rows.append(Row([c.label, f"{c.cost:,.0f}", "-" if c.response_ms != c.response_ms else format_ms(c.response_ms),
                             "-" if c.rebuild_h is None else f"{c.rebuild_h:.1f} h",
                             "-" if not c.mttdl_h else f"{c.mttdl_h / 8766:,.0f} y",
                             res.verdict(c)],
                            "bold" if c is res.chosen else ""))
        self.table([Col("Design", 3.2), Col("Cost", 0.7, "right"), Col("Response", 0.9, "right"),
                    Col("Rebuild", 0.8, "right"), Col("MTTDL", 1.1, "right"), Col("Verdict", 2.6)], rows)

    def section_assumptions(self, names: list[str]) -> None:
        self.heading("Assumptions", 1, key="appendix-assumptions")
        self.para("Every rate and factor the predictions used, with the document and table it came from "
                  "(\u201cassumption:\u201d marks a value the documents do not give, with the reasoning).", "note")
        seen: dict[tuple, set[str]] = {}
        for n in names:
            for a in self.results[n].assumptions:
                seen.setdefault((a.path, a.value, a.unit, a.source), set()).add(n)
        rows = []
        for (path, value, unit, source), used in sorted(seen.items(), key=lambda kv: natural_key(kv[0][0])):
            text = self.cite(source)
            if len(names) > 1 and len(used) < len(names):
                text += f" (scenarios: {', '.join(n for n in names if n in used)})"
            rows.append(Row([path, format_value(value, unit), text]))
        self.heading("Rates and factors", 2)
        if rows:
            self.table([Col("Parameter", 2.4), Col("Value", 1.1, "right"), Col("Source", 3.5)], rows)
        else:
            self.para("The predictions report no rates or factors.")
        used_types = sorted({d.type_id for d in self.project.drives.values()}, key=natural_key)
        drows = []
        for tid in used_types:
            dt = self.catalog.drives.get(tid)
            if dt:
                drows.append(Row([dt.name, format_rate(dt.seq_mb_s), format_ms(dt.random_ms),
                                  f"{format_count(dt.mttf_h)} h", self.cite(dt.source) or DASH]))
        if drows:
            self.heading("Drive characteristics", 2)
            self.table([Col("Drive type", 1.8), Col("Streaming", 1.0, "right"), Col("Random I/O", 0.9, "right"),
                        Col("MTTF", 1.0, "right"), Col("Source", 3.0)], drows)


def build_report(project: Project, catalog: Catalog, results: dict[str, Result],
                 options: ReportOptions | None = None, warnings: Iterable[str] = (),
                 sweeps: Sequence[tuple[str, Any]] = (), sizing: Any = None,
                 bands: dict[str, Any] | None = None) -> Report:
    return ReportBuilder(project, catalog, results, options, warnings, sweeps, sizing, bands).build()


def sweep_chart(curve, target_ms: float) -> Chart | None:
    """The sweep's response against offered IOPS, as the GUI's sweep dialog draws it: the worst
    workload's response per unsaturated step joined by a line, the knee and the first saturated
    step as dots, the target as a dashed line."""
    pts = [(s.total_offered, s.worst_response_ms) for s in curve.steps
           if not math.isnan(s.worst_response_ms)]
    if len(pts) < 2:
        return None
    x_max = max(x for x, _ in pts)
    xs, ys = np.array([x for x, _ in pts]), np.array([y for _, y in pts])
    series = [ChartSeries("worst workload response", xs, ys, color=0, linear=True, end_h=float(xs[-1]))]
    for step, label, colour in ((curve.knee, "knee", 2), (curve.saturation(), "saturation", 1)):
        if step is not None and not math.isnan(step.worst_response_ms):
            series.append(ChartSeries(label, np.array([step.total_offered]), np.array([step.worst_response_ms]),
                                      color=colour, markers=True))
    return Chart("Worst workload response against load", "ms", series, x_max * 1.02,
                 targets=[(target_ms, f"target {format_ms(target_ms)}")], x_title="offered load", x_unit="IOPS")

