"""Charts dock: the engine's series drawn on one shared time axis: steps for the piecewise-constant
metrics, straight lines for the linear ones (`Series.linear`: operation progress).

Plots (top to bottom): SP CPU per core (and write cache), back-end buses, RAID group (and
selected drive) utilization, host response time and throughput per workload, and progress per
operation. A cursor line (shared with the timeline through a TimeCursor) shows every curve's
value at that time in the read-out; hovering a plot shows its values under the mouse. The mouse
wheel zooms the time axis (all plots follow); right-click or the Export menu saves a chart as PNG
or its series as CSV. When a baseline scenario is pinned its curves are drawn dashed underneath.
A response time is undefined (NaN) where the workload completed no I/O: its curve breaks there,
the read-out says "no I/O", the CSV cell is empty; a shaded band marks each controller reboot.
Once the uncertainty sampling has run (app/ui/bands.py) each curve has its P10-P90 band drawn
under it (charts/bands.py); a new result drops the bands of the old one. Time ticks are written
under the lowest visible chart. After a failed prediction the last good
curves stay, dimmed under a banner that says why (set_stale).

The panel never computes a prediction: it reads `Result.series` and `Result.horizon_h` only.
"""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QFont, QFontMetricsF, QPen
from PySide6.QtWidgets import (
    QFileDialog, QGraphicsItem, QGraphicsLinearLayout, QGraphicsOpacityEffect, QHBoxLayout, QHeaderView, QLabel,
    QMenu, QScrollArea, QSplitter, QToolButton, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from app.domain.formatting import OUTAGE_TEXT, format_response, format_time, format_value, series_label
from app.ui.accessibility import accessible
from app.ui.i18n import QT_TR_NOOP, tr
from app.ui.theme import Theme, follow_palette, readable, style_plot, theme
from app.ui.tooltips import follow_pointer

from .bands import BandOverlay
from .statustext import StatusText
from .timeaxis import TimeAxisItem

# pixels of each plot's data area (inside its axes) before the charts scroll: room for three
# readable value ticks (0, 50, 100 %) and the shape of a step; below that the plots are too flat
# to read and the panel scrolls instead
QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's largest widget size
PLOT_DATA_MIN_H = 100
TITLE_H = 16  # a plot's header row: its title (and its legend, when one line of it fits beside)
TICK_LABEL_LINES = 1.6  # value tick labels this many text lines apart at least (closer, they run together)
LEGEND_MAX = 5  # more curves than this: no legend (the read-out lists them)
MAX_CURVES = 12  # per plot; the busiest entities (by peak) plus the selected ones are shown
FOLLOW_SPARE = 0.1  # a plan that outgrows the time axis is shown with 10% of its length to spare
HOST_PLOTS = ("response", "throughput")
RW_RESPONSE = ("response_read_ms", "response_write_ms")  # a workload's reads and writes, drawn thinner  # the plots that show a controller reboot's outage band


@dataclass(frozen=True)
class PlotSpec:
    key: str
    title: str
    metrics: tuple[str, ...]
    unit: str
    percent: bool = False


PLOTS: tuple[PlotSpec, ...] = (
    PlotSpec("response", QT_TR_NOOP("Host response time"), ("response_ms", "response_read_ms", "response_write_ms"), "ms"),
    PlotSpec("cpu", QT_TR_NOOP("SP CPU per core / write cache"), ("cpu_pct", "write_cache_pct", "ctrl_limit_pct"), "%", True),
    PlotSpec("disk", QT_TR_NOOP("RAID group / drive utilization"), ("group_pct", "drive_pct"), "%", True),
    PlotSpec("progress", QT_TR_NOOP("Operation progress"), ("progress_pct",), "%", True),
    PlotSpec("bus", QT_TR_NOOP("Back-end bus"), ("bus_pct",), "%", True),
    PlotSpec("throughput", QT_TR_NOOP("Host throughput"), ("iops",), "IOPS"),
)
LEFT_AXIS_W = 180  # as wide as the timeline's row labels, so both read on one time axis
STALE_OPACITY = 0.3  # curves of the last good prediction while there is no new one

# which kind of thing a metric's entity is: a workload, an operation... has one colour in every chart
_ENTITY_KIND = {
    "response_ms": "workload", "response_read_ms": "workload", "response_write_ms": "workload",
    "response_max_ms": "workload", "iops": "workload", "mb_s": "workload",
    "progress_pct": "operation", "rate_mb_s": "operation",
    "cpu_pct": "core", "write_cache_pct": "controller", "port_pct": "controller", "write_pending_pct": "controller",
    "ctrl_limit_pct": "controller", "bus_pct": "bus", "group_pct": "group", "drive_pct": "drive", "lun_response_ms": "lun",
}
_KIND_FAMILY = {"core": "controller", "group": "drive"}  # kinds sharing a chart share the palette
# what a plot without any curve says instead of an empty axis
_EMPTY_NOTE = {"response": QT_TR_NOOP("no host workloads"), "throughput": QT_TR_NOOP("no host workloads"),
               "progress": QT_TR_NOOP("no operations")}
_NOTHING = QT_TR_NOOP("nothing to show")
QT_TR_NOOP("Controller CPU per core / write cache")  # the cpu title on platforms without "SP"s (_retitle)
# ... on platforms with a controller I/O limit (ctrl_limit_pct, the MD32xx base-mode limit: _retitle)
LIMIT_SUFFIX = " / I/O limit"
QT_TR_NOOP("SP CPU per core / write cache / I/O limit")
QT_TR_NOOP("Controller CPU per core / write cache / I/O limit")

_PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f", "#393b79", "#ad494a", "#637939", "#843c39", "#7b4173", "#3182bd",
)


def step_xy(series, horizon_h: float) -> tuple[np.ndarray, np.ndarray]:
    """x, y of a curve: the series' points, then the last value held until the horizon. Drawn
    with stepMode='right' (each value holds until the next breakpoint) unless the series is
    linear (straight lines between the points): see _step_mode."""
    t = np.asarray(series.t, dtype=float)
    v = np.asarray(series.v, dtype=float)
    if not len(t):
        return t, v
    if horizon_h > t[-1]:  # (two slice copies: np.append is ~3x slower on these short arrays)
        n = len(t)
        t2, v2 = np.empty(n + 1), np.empty(n + 1)
        t2[:n], t2[n] = t, horizon_h
        v2[:n], v2[n] = v, v[-1]
        return t2, v2
    return t, v


def dim_view(view, dim: bool) -> None:
    """Dim an item view's contents (the read-out, the comparison table) or restore them. The
    effect goes on the viewport: on the scroll area itself it paints stale pixels."""
    port = view.viewport()
    if dim:
        effect = QGraphicsOpacityEffect(port)
        effect.setOpacity(0.4)
        port.setGraphicsEffect(effect)
    else:
        port.setGraphicsEffect(None)


def _set_title(plot: pg.PlotItem, text: str) -> None:
    """A plot's title in a row just as tall as its text (pyqtgraph gives it 30 pixels; the
    header row grows with a legend of more lines: ChartsPanel._fit_header)."""
    height = max(TITLE_H, plot.layout.rowMinimumHeight(0))  # (before setTitle makes it 30)
    plot.setTitle(text, size="9pt")
    plot.layout.setRowFixedHeight(0, height)
    plot.titleLabel.setMaximumHeight(TITLE_H)


class _ValueAxis(pg.AxisItem):
    """A value axis whose labelled ticks keep TICK_LABEL_LINES text lines apart however short
    the plot: pyqtgraph asks for at least 2.25 intervals at any size, so a 0-100 % axis is
    labelled every 20 even 50 pixels tall (five labels stacked on each other). The major
    spacing is the smallest 1, 2 or 5 x 10^n that keeps the labels apart; the minor ticks (grid
    lines only, no text) split it in 2 or 5."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.style["maxTextLevel"] = 0  # text on the major ticks only: the minor ones would crowd
        self._line: float | None = None

    def _line_height(self) -> float:
        if self._line is None:  # the font is known once the axis is in a scene
            self._line = QFontMetricsF(self.style["tickFont"] or self.font()).height()
        return self._line

    def boundingRect(self):  # noqa: N802
        """Half a text line more above and below: the labels at the ends of the range (0 and
        100 %) sit on the data area's edges, half outside it, and pyqtgraph drops a label that
        is not wholly inside the axis' rectangle."""
        half = math.ceil(self._line_height() / 2)
        return super().boundingRect().adjusted(0, -half, 0, half)

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802,N803 (pyqtgraph API)
        dif = abs(maxVal - minVal)
        if dif == 0 or size <= 0:
            return []
        # the smallest spacing that keeps the labels apart
        widest = dif / max(size / (TICK_LABEL_LINES * self._line_height()), 1.0)
        p10 = 10.0 ** math.floor(math.log10(widest))
        factor = next(f for f in (1, 2, 5, 10) if f * p10 >= widest * (1 - 1e-9))
        major = factor * p10
        return [(major, 0), (major / (2 if factor == 5 else 5), 0)]


class _RowLegend(pg.LegendItem):
    """A legend laid out outside the curves (a legend inside the view box hides the curves under
    it): in the panel beside the plot's title, in an exported PNG in a row under it. Sized by
    the plot's layout: updateSize asks for the height the entries need instead of placing itself."""

    def updateSize(self):  # noqa: N802 (pyqtgraph API)
        height = 0.0
        for row in range(self.layout.rowCount()):
            height += max((self.layout.itemAt(row, c).height() for c in range(self.layout.columnCount())
                           if self.layout.itemAt(row, c) is not None), default=0.0)
        width = max((sum(self.layout.itemAt(r, c).width() + 12 for c in range(self.layout.columnCount())
                         if self.layout.itemAt(r, c) is not None) for r in range(self.layout.rowCount())),
                    default=0.0)
        self.setMinimumHeight(height)
        self.setMaximumHeight(height)
        self.setMinimumWidth(0)  # never widens the plot beyond the screen (ChartsPanel._fit_legend)
        self.setMaximumWidth(max(width, 1.0))  # entries side by side, not spread over the row
        self.updateGeometry()


def _controller_word(result) -> str:
    """What the platform calls its controllers: the first word all controller names share ("SP"
    for "SP A"/"SP B"), else "Controller" (Dell, NetApp, one-controller arrays)."""
    names = {e.rpartition("/")[0] or e for e in result.entities("cpu_pct")} if result is not None else set()
    words = {n.split()[0] for n in names if n.split()}
    return words.pop() if len(names) > 1 and len(words) == 1 else "Controller"


def _step_mode(series) -> str | None:
    return None if getattr(series, "linear", False) else "right"


class _SeriesIndex:
    """Entities per metric of one Result, their peaks and their values at a time. The engine
    keeps each metric's series as one matrix (SeriesBlock); peaks and values come from it without
    building a Series per entity (the generated 960-drive plan has 6,570 series: ranking them one
    by one took ~20 ms)."""

    def __init__(self, result):
        self.result = result
        self._entities: dict[str, list[str]] = {}
        self._peaks: dict[str, dict[str, float]] = {}

    def entities(self, metric: str) -> list[str]:
        """As Result.entities(metric), from the matrices' entity lists and the Series stored
        one by one (not the 10,000 keys of the generated plan)."""
        ents = self._entities.get(metric)
        if ents is None:
            store = self.result.series
            found = {e for b in getattr(store, "blocks", ()) if b.metric == metric for e in b.entities}
            found.update(e for m, e in dict.keys(store) if m == metric)
            ents = self._entities[metric] = sorted(found)
        return ents

    def _blocks(self, metric: str):
        return [b for b in getattr(self.result.series, "blocks", ()) if b.metric == metric and b.size]

    def peak(self, metric: str, ent: str) -> float:
        peaks = self._peaks.get(metric)
        if peaks is None:
            peaks = self._peaks[metric] = {}
            for block in self._blocks(metric):  # fmax: NaN cells (no I/O) left out, all NaN: NaN
                peaks.update(zip(block.entities, block.peaks().tolist()))
        p = peaks.get(ent)
        return p if p is not None else self.result.series[(metric, ent)].peak()

    def rank(self, metric: str, ent: str) -> float:
        """The peak to rank by: a series without any value (no I/O at all) last."""
        p = self.peak(metric, ent)  # a Python float: math.isnan is ~20x faster than np.isnan on it
        return -math.inf if math.isnan(p) else p

    def unit(self, metric: str, ent: str) -> str:
        """The series' unit, from its matrix when it has one (without building the Series)."""
        for block in reversed(getattr(self.result.series, "blocks", ())):
            if block.metric == metric and block.column(ent) is not None:
                return block.unit
        return self.result.series[(metric, ent)].unit

    def values_at(self, metric: str, t: float) -> dict[str, float]:
        out: dict[str, float] = {}
        for block in self._blocks(metric):  # one row of the matrix: every entity at t
            out.update(zip(block.entities, block.row_values(t).tolist()))
        for ent in self.entities(metric):
            if ent not in out:
                out[ent] = self.result.series[(metric, ent)].at(t)
        return out


# the indexes of the newest Results: the current scenario's (every plot ranks it) and the pinned
# baseline's (the read-out asks both at every cursor move)
_last_index: list[_SeriesIndex] = []


def _index(result) -> _SeriesIndex:
    for index in _last_index:
        if index.result is result:
            return index
    _last_index.insert(0, _SeriesIndex(result))
    del _last_index[2:]
    return _last_index[0]


def values_at(result, metric: str, t: float) -> dict[str, float]:
    """Every entity's value of `metric` at time `t` (hours), as `Series.at` gives it."""
    return _index(result).values_at(metric, t)


def choose_entities(result, spec: PlotSpec, focus: set[tuple[str, str]] = frozenset(),
                    limit: int = MAX_CURVES) -> tuple[list[tuple[str, str]], int]:
    """The (metric, entity) pairs a plot shows, and how many it could show.

    CPU, buses, workloads and operations are shown in full up to `limit`; drives only when
    focused (there can be hundreds) unless the result has no RAID group series. Beyond `limit`
    the busiest by peak are kept, focused ones always."""
    index = _index(result)
    pairs: list[tuple[str, str]] = []
    for metric in spec.metrics:
        ents = index.entities(metric)
        if metric == "drive_pct" and index.entities("group_pct"):
            ents = [e for e in ents if (metric, e) in focus]
        elif metric in RW_RESPONSE:
            # reads and writes apart for a selected workload, or for the only one (a curve per
            # side for every workload would triple the plot)
            alone = len(index.entities("response_ms")) == 1
            ents = [e for e in ents if alone or ("response_ms", e) in focus]
        pairs.extend((metric, e) for e in ents)
    total = len(pairs)
    if total <= limit:
        return pairs, total
    forced = [p for p in pairs if p in focus]
    rest = [p for p in pairs if p not in focus]
    rest.sort(key=lambda p: -index.rank(*p))
    keep = set(forced + rest[: max(limit - len(forced), 0)])
    return [p for p in pairs if p in keep], total


def _sort_key(pair: tuple[str, str]):
    metric, ent = pair
    parts = []
    for chunk in ent.replace("/", "_").split("_"):
        parts.append((0, int(chunk), "") if chunk.isdigit() else (1, 0, chunk))
    return (metric, parts)


class ChartsPanel(QWidget):
    """Stacked step plots of one Result (and optionally a baseline Result) with a cursor."""

    cursorMoved = Signal(float)  # the user dragged a cursor line (hours)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.project = None
        self.catalog = None  # for the platform's noun of a RAID group ("Disk Group 3")
        self._names = None  # app.domain.user_names.ObjectNames of self.project (series_name)
        self.result = None
        self.baseline = None
        self.focus: set[tuple[str, str]] = set()
        self.cursor_h = 0.0
        self.hidden_plots: set[str] = set()
        self._colors: dict[tuple[str, str], QColor] = {}  # (entity kind, entity): its palette colour
        self._shown_colors: dict[tuple[str, str], QColor] = {}  # the same, readable on the plots' ground
        self.ink: Theme = theme()
        self._family_counts: dict[str, int] = {}
        self.curves: dict[str, dict[tuple[str, str, bool], pg.PlotDataItem]] = {s.key: {} for s in PLOTS}
        self._pools: dict[str, list[pg.PlotDataItem]] = {}
        self._legend_entries: dict[str, list] = {}
        self._titles: dict[str, str] = {}
        self._fit_horizon: float | None = None
        self._pending: dict[str, tuple[list, list]] = {}  # plots out of view, drawn when scrolled to
        self._readout_header: list[str] | None = None
        self._readout_layout: list | None = None
        self._readout_items: dict[tuple, QTreeWidgetItem] = {}
        self.outages: list[tuple[float, float]] = []  # controller reboots shown as bands
        self._outage_items: list[tuple[pg.PlotItem, pg.GraphicsObject]] = []
        # workloads the engine could not serve in full: (start, end, served share) per workload id
        self.saturated: dict[str, list[tuple[float, float, float]]] = {}
        self._saturation_key: list | None = None
        self._saturation_items: list[pg.GraphicsObject] = []
        self.shown: dict[str, list[tuple[str, str]]] = {s.key: [] for s in PLOTS}
        self.band_overlay = BandOverlay(self)  # P10-P90 bands of the result shown (set_bands)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 0)
        self.status_label = StatusText(tr("No prediction yet"))  # changes at every prediction
        self.status_label.setObjectName("chartsStatus")
        bar.addWidget(self.status_label, 1)
        self.view_button = QToolButton(text=tr("Charts"))
        self.view_button.setPopupMode(QToolButton.InstantPopup)
        self.view_menu = QMenu(self.view_button)
        self.view_button.setMenu(self.view_menu)
        bar.addWidget(self.view_button)
        self.fit_button = QToolButton(text=tr("Fit"))
        self.fit_button.setToolTip(tr("Show the whole plan"))
        self.fit_button.clicked.connect(lambda: self.fit())
        bar.addWidget(self.fit_button)
        self.export_button = QToolButton(text=tr("Export"))
        self.export_button.setPopupMode(QToolButton.InstantPopup)
        self.export_menu = QMenu(self.export_button)
        self.export_button.setMenu(self.export_menu)
        bar.addWidget(self.export_button)
        lay.addLayout(bar)

        split = QSplitter(Qt.Horizontal, self)
        self.glw = follow_pointer(pg.GraphicsLayoutWidget())  # a band's tooltip goes with the pointer
        accessible(self.glw, tr("Charts"), tr("Host response time, controller CPU, utilization and rates over the "
                                              "plan; the readout beside them lists the values at the cursor"))
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        accessible(self.scroll, tr("Charts"))
        self.scroll.setFrameShape(QScrollArea.NoFrame)
        self.scroll.setWidget(self.glw)
        self.scroll.verticalScrollBar().valueChanged.connect(self._draw_pending)
        split.addWidget(self.scroll)
        self.readout = QTreeWidget()
        accessible(self.readout, tr("Values at the cursor"))
        self.readout.setHeaderLabels([tr("At cursor"), tr("Value"), tr("Baseline")])
        self.readout.setRootIsDecorated(True)
        self.readout.setMinimumWidth(260)
        # values keep a fixed width that fits "99,999 IOPS" (no relayout as the cursor moves);
        # the names take the rest, elided in the middle (the whole name is the tooltip)
        head = self.readout.header()
        head.setStretchLastSection(False)
        head.setSectionResizeMode(0, QHeaderView.Stretch)
        value_w = self.readout.fontMetrics().horizontalAdvance("99,999 IOPS") + 14
        for col in (1, 2):
            head.setSectionResizeMode(col, QHeaderView.Fixed)
            self.readout.setColumnWidth(col, value_w)
        self.readout.setTextElideMode(Qt.ElideMiddle)
        self.readout.setIndentation(12)
        split.addWidget(self.readout)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 0)
        split.setSizes([900, 330])
        # shown while the curves are those of the last good prediction (set_stale)
        self.stale_banner = QLabel()
        self.stale_banner.setObjectName("chartsStale")
        self.stale_banner.setWordWrap(True)
        self.stale_banner.hide()
        self.stale_reason: str | None = None
        lay.addWidget(self.stale_banner)
        lay.addWidget(split, 1)

        self.plots: dict[str, pg.PlotItem] = {}
        self.legends: dict[str, pg.LegendItem] = {}
        self.cursor_lines: dict[str, pg.InfiniteLine] = {}
        self.hover_text: dict[str, pg.TextItem] = {}
        self.empty_notes: dict[str, pg.LabelItem] = {}
        self._headers: dict[str, QGraphicsLinearLayout] = {}
        self._view_actions: dict[str, QAction] = {}
        self._png_actions: dict[str, QAction] = {}
        self._base_titles: dict[str, str] = {s.key: tr(s.title) for s in PLOTS}
        self._axis_plot: str | None = None  # the plot whose time axis shows its ticks
        first = None
        for row, spec in enumerate(PLOTS):
            axis = TimeAxisItem("bottom")
            p = self.glw.addPlot(row=row, col=0, axisItems={"bottom": axis, "left": _ValueAxis("left")})
            _set_title(p, tr(spec.title))
            p.titleLabel.opts["justify"] = "left"
            # a long title ("... (12 of 20: busiest and selected)") must not make the plot wider
            # than the dock: LabelItem sets its minimum width to its text's after every change
            p.titleLabel.updateMin = lambda: None
            p.titleLabel.setMinimumWidth(0)
            p.setLabel("left", spec.unit)
            p.showGrid(x=True, y=True, alpha=0.25)
            p.setMouseEnabled(x=True, y=False)
            p.enableAutoRange(axis="y")
            p.setAutoVisible(y=True)
            p.getAxis("left").setWidth(LEFT_AXIS_W)
            for name in ("left", "bottom"):
                # keep the painted axis (its text is the costliest part of a redraw) as a pixmap
                # until its range changes
                p.getAxis(name).setCacheMode(QGraphicsItem.DeviceCoordinateCache)
            if spec.percent:
                p.setYRange(0, 100, padding=0.02)
            p.getViewBox().setMinimumHeight(PLOT_DATA_MIN_H)  # _update_min_height sums these
            if first is None:
                first = p
            else:
                p.setXLink(first)
            leg = _RowLegend(labelTextSize="8pt", verSpacing=-6, horSpacing=12)
            p.layout.removeItem(p.getAxis("top"))  # never shown: its row stays empty
            # the header row over the data area: the title, then the legend right-aligned beside
            # it, clear of the curves (_fit_legend keeps it clear of the title's text too)
            header = QGraphicsLinearLayout(Qt.Horizontal)
            header.setContentsMargins(0, 0, 0, 0)
            header.setSpacing(0)
            p.layout.removeItem(p.titleLabel)
            header.addItem(p.titleLabel)
            header.setStretchFactor(p.titleLabel, 1)
            header.addItem(leg)
            header.setAlignment(leg, Qt.AlignRight | Qt.AlignVCenter)
            p.layout.addItem(header, 0, 1)
            self._headers[spec.key] = header
            note = pg.LabelItem("", size="9pt")
            note.setParentItem(p.getViewBox())
            note.anchor(itemPos=(0.5, 0.5), parentPos=(0.5, 0.5))
            note.hide()
            self.empty_notes[spec.key] = note
            p.getViewBox().sigResized.connect(lambda _vb, k=spec.key: self._fit_legend(k))
            line = pg.InfiniteLine(pos=0.0, angle=90, movable=True)
            line.setZValue(50)
            line.sigPositionChanged.connect(self._line_moved)
            p.addItem(line, ignoreBounds=True)
            text = pg.TextItem(anchor=(0, 0))
            text.setZValue(60)
            text.hide()
            p.addItem(text, ignoreBounds=True)
            self.plots[spec.key] = p
            self.legends[spec.key] = leg
            self.cursor_lines[spec.key] = line
            self.hover_text[spec.key] = text
            self._add_plot_menu(spec, p)
            act = QAction(tr(spec.title), self.view_menu, checkable=True, checked=True)
            act.toggled.connect(lambda on, k=spec.key: self.set_plot_visible(k, on))
            self.view_menu.addAction(act)
            self._view_actions[spec.key] = act
            self._png_actions[spec.key] = self.export_menu.addAction(
                tr("{chart} as PNG...").format(chart=tr(spec.title)), lambda k=spec.key: self._ask_png(k))
        self.export_menu.addSeparator()
        self.export_menu.addAction(tr("All series as CSV..."), lambda: self._ask_csv(None))
        self.master_plot = first
        self._update_time_axis()
        self._update_min_height()
        self._mouse_proxy = pg.SignalProxy(self.glw.scene().sigMouseMoved, rateLimit=30, slot=self._mouse_moved)
        self.set_theme(self.ink)
        follow_palette(self, lambda: self.set_theme(theme()))

    def set_theme(self, ink: Theme) -> None:
        """Draw in the palette's colours (light or dark): the ground, axes, titles, legends,
        cursor and notes, and every curve and read-out row in its colour made readable there."""
        self.ink = ink
        self._shown_colors.clear()
        self.glw.setBackground(ink.background)
        self.stale_banner.setStyleSheet(ink.banner_style())
        for key, plot in self.plots.items():
            style_plot(plot, ink)
            self.legends[key].setLabelTextColor(ink.text)
            self.cursor_lines[key].setPen(pg.mkPen(ink.text, width=1))
            self.cursor_lines[key].setHoverPen(pg.mkPen(ink.error, width=2))
            hover = self.hover_text[key]
            hover.setColor(ink.text)
            ground = ink.shade(0.06)
            ground.setAlpha(235)
            hover.fill = pg.mkBrush(ground)
            hover.border = pg.mkPen(ink.shade(0.4))
            hover.update()
            note = self.empty_notes[key]
            note.setText(note.text, color=ink.muted)
            for (metric, ent, is_base), item in self.curves[key].items():
                item.setPen(self._pen(metric, ent, is_base, (metric, ent) in self.focus))
        for (_key, metric, ent), item in self._readout_items.items():
            item.setForeground(0, self._color((metric, ent)))
        outages, self.outages = self.outages, None  # the bands again, their label in the new colour
        self._sync_outages(outages)
        self.band_overlay.set_theme()

    # ---------------------------------------------------------------- public
    def set_results(self, result, baseline=None, project=None, catalog=None) -> None:
        """Show `result` (and `baseline` dashed). Reuses curve items, so it is cheap to call.
        `catalog` names the RAID groups in the platform's word (without one: "RAID group 3")."""
        first = self.result is None and result is not None
        same = result is self.result  # a redraw (a new focus): the bands sampled around it stay
        self.project = project if project is not None else self.project
        self.catalog = catalog if catalog is not None else self.catalog
        self._names = None  # named again from the project as it is now
        self.result = result
        self.baseline = baseline
        self.set_stale(None)  # a new prediction: no longer the last good one
        if not same:
            self.band_overlay.clear()  # sampled around the previous result: not this one's
        if result is None:  # nothing of an earlier prediction stays (another project's)
            for key in self.curves:
                self._sync_plot(key, [], [])
                self.shown[key] = []
            self._pending.clear()
            self._sync_outages([])
            self._sync_saturation()
            self.status_label.setText(tr("No prediction yet"))
            self._update_readout()
            return
        self._sync_outages(result.host_outages())
        self._retitle(result)
        visible = self._plots_on_screen()
        for spec in PLOTS:
            pairs, total = choose_entities(result, spec, self.focus)
            pairs.sort(key=_sort_key)
            self.shown[spec.key] = pairs
            bpairs = []
            if baseline is not None:
                bpairs = [p for p in pairs if p in baseline.series]
            if visible is None or spec.key in visible:
                self._sync_plot(spec.key, pairs, bpairs)
                self._pending.pop(spec.key, None)
            else:  # scrolled out of view or hidden: drawn when it comes into view
                self._pending[spec.key] = (pairs, bpairs)
            title = self._base_titles[spec.key]
            if total > len(pairs):
                title = tr("{title}  ({shown} of {total}: busiest and selected)").format(
                    title=title, shown=len(pairs), total=total)
            if self._titles.get(spec.key) != title:  # setting a title is slow: only on change
                self._titles[spec.key] = title
                _set_title(self.plots[spec.key], title)
        self._sync_saturation()
        text = tr("Scenario '{scenario}', plan to {end}").format(scenario=result.scenario,
                                                                 end=format_time(result.horizon_h))
        if baseline is not None:
            text += "; " + tr("baseline '{scenario}' dashed").format(scenario=baseline.scenario)
        self.status_label.setText(text)
        horizon = max(result.horizon_h, baseline.horizon_h if baseline is not None else 0.0)
        if first:
            self.fit()
        elif self._showing_all() and self._fit_horizon is not None:
            # follow the plan's length until the user zooms in, not for small changes: refitting
            # moves every plot (and the timeline), the costliest redraw there is. A growing plan
            # gets room to spare, so that moving an operation later step by step refits seldom.
            if horizon > self._fit_horizon:
                self.fit(spare=FOLLOW_SPARE)
            elif horizon < 0.6 * self._fit_horizon:
                self.fit()
        if same:
            self.band_overlay.sync()  # the curves shown may be others now
        self._update_readout()

    def set_bands(self, bands) -> None:
        """The P10-P90 bands (app.service.uncertainty.Bands) of the result shown, or None."""
        if bands is not None and (self.result is None or bands.scenario != self.result.scenario):
            bands = None  # another scenario's (a stale sampling): never drawn under these curves
        self.band_overlay.set_bands(bands)

    @property
    def bands(self):
        return self.band_overlay.bands

    def _retitle(self, result) -> None:
        """Name the controllers as the platform does ("SP CPU per core", "Controller CPU ..."),
        and say so when the CPU chart also draws a controller I/O limit."""
        word = _controller_word(result)
        limit = result is not None and bool(result.entities("ctrl_limit_pct"))
        for spec in PLOTS:
            title = spec.title.replace("SP ", f"{word} ", 1) if spec.title.startswith("SP ") else spec.title
            if limit and "ctrl_limit_pct" in spec.metrics:
                title += LIMIT_SUFFIX
            title = tr(title)
            if self._base_titles[spec.key] != title:
                self._base_titles[spec.key] = title
                self._view_actions[spec.key].setText(title)
                self._png_actions[spec.key].setText(tr("{chart} as PNG...").format(chart=title))

    def set_stale(self, reason: str | None) -> None:
        """With a reason: the curves shown are those of the last good prediction and there is no
        new one (e.g. the plan is invalid): dim them and say why in a banner. None: restore."""
        if reason == self.stale_reason:
            return
        self.stale_reason = reason
        if reason and self.result is None:
            self.stale_banner.setText(tr("No prediction: {why}").format(why=reason))
        elif reason:
            self.stale_banner.setText(tr("These curves are from the last good prediction; there is none for the "
                                         "plan as it is now: {why}").format(why=reason))
        self.stale_banner.setVisible(bool(reason))
        opacity = STALE_OPACITY if reason else 1.0
        for plot in self.plots.values():
            plot.getViewBox().setOpacity(opacity)
        dim_view(self.readout, bool(reason))

    @property
    def stale(self) -> bool:
        return bool(self.stale_reason)

    def _plots_on_screen(self) -> set[str] | None:
        """Keys of the plots inside the scroll area's visible part; None when the panel is not
        on screen (then everything is drawn at once: exports and tests read the curves)."""
        if not self.isVisible():
            return None
        top = self.scroll.verticalScrollBar().value()
        bottom = top + self.scroll.viewport().height()
        out = set()
        for spec in PLOTS:
            if spec.key in self.hidden_plots:
                continue
            r = self.glw.mapFromScene(self.plots[spec.key].sceneBoundingRect()).boundingRect()
            if r.bottom() >= top and r.top() <= bottom:
                out.add(spec.key)
        return out

    def _draw_pending(self, *_args) -> None:
        if not self._pending or self.result is None:
            return
        visible = self._plots_on_screen()
        for key in list(self._pending):
            if visible is None or key in visible:
                pairs, bpairs = self._pending.pop(key)
                self._sync_plot(key, pairs, bpairs)

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        QTimer.singleShot(0, self._draw_pending)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        QTimer.singleShot(0, self._draw_pending)

    def _fit_legend(self, key: str) -> None:
        """As many legend entries side by side as the plot's width holds; the rest on more lines."""
        legend = self.legends[key]
        if not legend.items:
            return
        # the width the charts have on screen (the view box can be wider than that: a legend
        # asked for more room than there is), less the title's text it sits beside
        room = self.glw.width() - LEFT_AXIS_W - 40
        title = self.plots[key].titleLabel.item.boundingRect().width()
        # each entry: its sample, its text (not its label's cell: as wide as the column's widest)
        # and the spacing between entries
        widths = sorted((s.boundingRect().width() + l.item.boundingRect().width() + 12 for s, l in legend.items),
                        reverse=True)
        # beside the title while its widest entry fits there, else under it (a narrow dock)
        stacked = widths[0] > room - title
        header = self._headers[key]
        if stacked != (header.orientation() == Qt.Vertical):
            header.setOrientation(Qt.Vertical if stacked else Qt.Horizontal)
        if not stacked:
            room -= title
        cols = len(widths)
        while cols > 1 and sum(widths[:cols]) > room:
            cols -= 1
        legend.setColumnCount(cols)
        self._fit_header(key)  # one line more or less: the header row follows

    def set_focus(self, pairs: Iterable[tuple[str, str]]) -> None:
        focus = set(pairs)
        if focus != self.focus:
            self.focus = focus
            if self.result is not None:
                self.set_results(self.result, self.baseline)

    def set_status(self, text: str) -> None:
        self.status_label.setText(text)

    def set_cursor(self, t: float) -> None:
        self.cursor_h = float(t)
        for line in self.cursor_lines.values():
            if abs(line.value() - t) > 1e-12:
                line.blockSignals(True)
                line.setValue(t)
                line.blockSignals(False)
        self._update_readout()

    def fit(self, spare: float = 0.0) -> None:
        """Show the whole plan (and `spare` times its length beyond the end)."""
        horizon = max(self.result.horizon_h if self.result else 0.0,
                      self.baseline.horizon_h if self.baseline else 0.0)
        if horizon > 0:
            self.master_plot.setXRange(0, horizon * (1.0 + spare), padding=0.01)
            self._fit_range = tuple(self.master_plot.getViewBox().viewRange()[0])
            self._fit_horizon = horizon * (1.0 + spare)

    def _showing_all(self) -> bool:
        """True while the time axis is where fit() put it (the user has not zoomed or panned)."""
        fitted = getattr(self, "_fit_range", None)
        if fitted is None:
            return False
        now = self.master_plot.getViewBox().viewRange()[0]
        span = max(fitted[1] - fitted[0], 1e-9)
        return abs(now[0] - fitted[0]) < 1e-3 * span and abs(now[1] - fitted[1]) < 1e-3 * span

    def set_plot_visible(self, key: str, visible: bool) -> None:
        p = self.plots[key]
        if visible:
            self.hidden_plots.discard(key)
        else:
            self.hidden_plots.add(key)
        p.setVisible(visible)
        # a hidden plot asks for no data area: its row would keep that height (empty)
        p.getViewBox().setMinimumHeight(PLOT_DATA_MIN_H if visible else 0)
        # collapse the row so the visible plots share the height
        row = [s.key for s in PLOTS].index(key)
        self.glw.ci.layout.setRowMaximumHeight(row, 1e6 if visible else 0)
        self.glw.ci.layout.setRowMinimumHeight(row, 0)
        # the grid keeps a hidden item's own minimum (its axes' and header's, 26 px) and the
        # spacing after it: the hidden plot goes down to nothing, its spacing with it
        p.setMinimumHeight(-1 if visible else 0)
        p.setMaximumHeight(QWIDGETSIZE_MAX if visible else 0)
        self.glw.ci.layout.setRowSpacing(row, self.glw.ci.layout.verticalSpacing() if visible else 0)
        self._update_time_axis()
        self._update_min_height()
        self._update_readout()  # a hidden chart leaves the read-out
        # hiding a plot moves the ones below it up, perhaps into view: draw those still pending
        QTimer.singleShot(0, self._draw_pending)

    def _show_time_axis(self, key: str, show: bool) -> None:
        axis = self.plots[key].getAxis("bottom")
        axis.setStyle(showValues=show)
        axis.showLabel(show)
        axis.setHeight(None if show else 6)

    def _update_time_axis(self) -> None:
        """Times are written under the lowest visible chart only (and on the timeline above):
        painting axis text is the costliest part of a redraw."""
        shown = [s.key for s in PLOTS if s.key not in self.hidden_plots]
        lowest = shown[-1] if shown else None
        if lowest == self._axis_plot:
            return
        for spec in PLOTS:
            if spec.key in (lowest, self._axis_plot) or self._axis_plot is None:
                self._show_time_axis(spec.key, spec.key == lowest)
        self._axis_plot = lowest

    def _update_min_height(self) -> None:
        """Each visible plot's data area gets at least PLOT_DATA_MIN_H pixels; below that the
        panel scrolls. A plot's minimum is its header, data area and time axis (full height
        under the lowest plot only): summed here, since the grid layout's own minimum counts
        the hidden plots too."""
        shown = [p for key, p in self.plots.items() if key not in self.hidden_plots]
        height = sum(p.effectiveSizeHint(Qt.MinimumSize).height() for p in shown)
        height += self.glw.ci.layout.verticalSpacing() * max(len(shown) - 1, 0)
        height += sum(self.glw.ci.layout.getContentsMargins()[1::2])  # top and bottom
        height = math.ceil(height)
        if self.glw.minimumHeight() != height:
            self.glw.setMinimumHeight(height)

    def values_at(self, t: float) -> list[tuple[str, str, str, float | None, float | None]]:
        """(plot key, metric, entity, value, baseline value) for every shown curve at time t; a
        value is None past the end of its plan (its curve stops there)."""
        out = []
        if self.result is None:
            return out
        # one row of each metric's matrix (as Series.at gives it), not a Series per curve: the
        # curves of plots scrolled out of view are not built until they come into view
        index = _index(self.result)
        base_index = _index(self.baseline) if self.baseline is not None else None
        rows: dict[str, dict[str, float]] = {}
        base_rows: dict[str, dict[str, float]] = {}
        # past a plan's end (the cursor goes to the longer of the two): no value, as its curve stops
        ended, base_ended = _ended(self.result, t), _ended(self.baseline, t)
        for spec in PLOTS:
            for metric, ent in self.shown[spec.key]:
                if metric not in rows:
                    rows[metric] = index.values_at(metric, t)
                b = None
                if base_index is not None and not base_ended:
                    if metric not in base_rows:
                        base_rows[metric] = base_index.values_at(metric, t)
                    b = base_rows[metric].get(ent)
                out.append((spec.key, metric, ent, None if ended else rows[metric][ent], b))
        return out

    def curve(self, metric: str, entity: str, baseline: bool = False) -> pg.PlotDataItem | None:
        for key in list(self._pending):  # a caller asking for a curve gets the current one
            pairs, bpairs = self._pending.pop(key)
            self._sync_plot(key, pairs, bpairs)
        for spec in PLOTS:
            if metric in spec.metrics:
                return self.curves[spec.key].get((metric, entity, baseline))
        return None

    # ---------------------------------------------------------------- export
    def export_png(self, key: str, path: str | Path, width: int = 1400, height: int = 420) -> Path:
        """One chart as a PNG of its own: a copy of the chart at `width` x `height` with its time
        axis, its legend and a title naming the scenario (the chart on screen may be small, have
        no tick labels, or be hidden)."""
        from pyqtgraph.exporters import ImageExporter

        path = Path(path)
        view, plot = self._export_view(key, width, height)
        try:
            exp = ImageExporter(plot)
            exp.parameters()["width"] = width
            exp.export(str(path))
        finally:
            view.deleteLater()
        return path

    def _export_view(self, key: str, width: int, height: int) -> tuple[pg.GraphicsLayoutWidget, pg.PlotItem]:
        if key in self._pending:  # scrolled out of view: not drawn yet
            self._sync_plot(key, *self._pending.pop(key))
        spec = next(sp for sp in PLOTS if sp.key == key)
        src = self.plots[key]
        shown = list(self.curves[key].items())  # (a hidden chart's curves count: isVisible() says no)
        title = self._titles.get(key, self._base_titles[key])
        if self.result is not None:
            title += " - " + tr("scenario '{scenario}'").format(scenario=self.result.scenario)
            if self.baseline is not None and any(k[2] for k, _ in shown):
                title += " (" + tr("baseline '{scenario}' dashed").format(scenario=self.baseline.scenario) + ")"
        ink = self.ink  # as on screen: the curves' colours were made readable on its ground
        view = pg.GraphicsLayoutWidget()
        view.setBackground(ink.background)
        view.resize(width, height)
        plot = view.addPlot(axisItems={"bottom": TimeAxisItem("bottom")})
        style_plot(plot, ink)
        plot.setTitle(title, size="11pt", color=ink.text)
        plot.setLabel("left", spec.unit)
        plot.showGrid(x=True, y=True, alpha=0.25)
        legend = _RowLegend(labelTextSize="9pt", verSpacing=-6, horSpacing=12, labelTextColor=ink.text)
        plot.layout.removeItem(plot.getAxis("top"))
        plot.layout.addItem(legend, 1, 1)
        current = [k for k, _ in shown if not k[2]]
        legend.setColumnCount(max(min(len(current), 4), 1))
        for k, item in shown:
            x, y = item.getOriginalDataset()
            copy = pg.PlotDataItem(x, y, stepMode=item.opts["stepMode"], pen=item.opts["pen"], connect="finite")
            copy.setZValue(item.zValue())
            plot.addItem(copy)
            if not k[2] and len(current) <= LEGEND_MAX:
                legend.addItem(copy, item.opts["name"])
        plot.addItem(pg.InfiniteLine(pos=self.cursor_h, angle=90, pen=pg.mkPen(ink.text, width=1)))
        if key in HOST_PLOTS:
            for start, end in self.outages:
                _add_outage_band(plot, start, end, ink)
        plot.setXRange(*self.master_plot.getViewBox().viewRange()[0], padding=0)
        plot.setYRange(*src.getViewBox().viewRange()[1], padding=0)
        if not shown:
            note = pg.LabelItem(tr(_EMPTY_NOTE.get(key, _NOTHING)), size="11pt", color=ink.muted)
            note.setParentItem(plot.getViewBox())
            note.anchor(itemPos=(0.5, 0.5), parentPos=(0.5, 0.5))
        view.ci.resize(width, height)  # never shown: no resize event sizes it
        view.ci.layout.activate()
        return view, plot

    def export_csv(self, path: str | Path, key: str | None = None) -> Path:
        """Rows: scenario, metric, entity, label, unit, start_h, end_h, value, end_value - one per
        piece of every series (all series of the result, or those of one chart). A piece goes from
        `value` at start_h to `end_value` at end_h: flat (the two equal) for the stepwise metrics,
        a straight line for the linear ones (operation progress). No piece has zero length."""
        path = Path(path)
        rows = []
        for res in (self.result, self.baseline):
            if res is None:
                continue
            for (metric, ent), s in sorted(res.series.items(), key=lambda kv: _sort_key(kv[0])):
                if key is not None:
                    spec = next(sp for sp in PLOTS if sp.key == key)
                    if metric not in spec.metrics:
                        continue
                label = self.series_name(metric, ent, res)
                t = list(map(float, s.t))
                for i, v in enumerate(s.v):
                    end = t[i + 1] if i + 1 < len(t) else float(res.horizon_h)
                    if end <= t[i] and len(t) > 1:  # a point at the horizon: the previous piece's end
                        continue
                    ev = s.v[i + 1] if s.linear and i + 1 < len(t) else v
                    # NaN (a response time where nothing completed I/O): an empty cell, not "nan"
                    rows.append([res.scenario, metric, ent, label, s.unit, t[i], end, "" if np.isnan(v) else float(v),
                                 "" if np.isnan(ev) else float(ev)])
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["scenario", "metric", "entity", "label", "unit", "start_h", "end_h", "value", "end_value"])
            w.writerows(rows)
        return path

    def _ask_png(self, key: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("Export chart as PNG"), f"{key}.png", tr("PNG image (*.png)"))
        if path:
            self.export_png(key, path)

    def _ask_csv(self, key: str | None) -> None:
        name = f"{key or 'series'}.csv"
        path, _ = QFileDialog.getSaveFileName(self, tr("Export series as CSV"), name, tr("CSV (*.csv)"))
        if path:
            self.export_csv(path, key)

    def _add_plot_menu(self, spec: PlotSpec, plot: pg.PlotItem) -> None:
        menu = plot.getViewBox().menu
        menu.addSeparator()
        menu.addAction(tr("Export this chart as PNG..."), lambda k=spec.key: self._ask_png(k))
        menu.addAction(tr("Export this chart's series as CSV..."), lambda k=spec.key: self._ask_csv(k))
        menu.addAction(tr("Show the whole plan"), lambda: self.fit())

    # ---------------------------------------------------------------- drawing
    def _color(self, pair: tuple[str, str]) -> QColor:
        """One colour per thing (a workload is the same colour in response time and throughput).
        The kinds drawn in one chart (cores and controllers, groups and drives) take turns in
        the palette together, so a chart's first curves get its most distinct colours."""
        metric, ent = pair
        kind = _ENTITY_KIND.get(metric, metric)
        shown = self._shown_colors.get((kind, ent))
        if shown is not None:
            return shown
        c = self._colors.get((kind, ent))
        if c is None:
            family = _KIND_FAMILY.get(kind, kind)
            n = self._family_counts.get(family, 0)
            self._family_counts[family] = n + 1
            c = self._colors[(kind, ent)] = QColor(_PALETTE[n % len(_PALETTE)])
        # the palette's navy and maroon vanish on a dark ground: lightened there to the contrast
        # text wants (the read-out writes the names in these colours); on a light ground as is
        shown = readable(c, self.ink.background, 4.5) if self.ink.dark else QColor(c)
        self._shown_colors[(kind, ent)] = shown
        return shown

    def _pen(self, metric: str, ent: str, is_base: bool, selected: bool = False) -> QPen:
        color = self._color((metric, ent))
        pen = QPen(color)
        pen.setCosmetic(True)
        # one pixel wide: Qt draws such lines ~5x faster than wider ones (12 curves of 550 steps:
        # 16 -> 3 ms); the curves of what is selected stand out at two
        pen.setWidthF(2.0 if selected else 1.0)
        if is_base:
            pen.setStyle(Qt.DashLine)
            c2 = QColor(color)
            c2.setAlpha(150)
            pen.setColor(c2)
        elif metric in ("write_cache_pct", "drive_pct", "response_write_ms"):
            pen.setStyle(Qt.DotLine)
        elif metric == "response_read_ms":
            pen.setStyle(Qt.DashDotLine)
        return pen

    def _sync_plot(self, key: str, pairs: list[tuple[str, str]], bpairs: list[tuple[str, str]]) -> None:
        """Point the plot's curve items at the wanted series. Items are pooled: one that is no
        longer wanted is hidden and reused for the next new curve (adding and removing items,
        and legend entries, is what makes a redraw slow)."""
        plot = self.plots[key]
        existing = self.curves[key]
        pool = self._pools.setdefault(key, [])
        wanted = [(m, e, False) for m, e in pairs] + [(m, e, True) for m, e in bpairs]
        wanted_set = set(wanted)
        for k in [k for k in existing if k not in wanted_set]:
            item = existing.pop(k)
            item.setVisible(False)
            pool.append(item)
        for k in wanted:
            metric, ent, is_base = k
            res = self.baseline if is_base else self.result
            s = res.series[(metric, ent)]
            x, y = step_xy(s, res.horizon_h)
            selected = (metric, ent) in self.focus
            item = existing.get(k)
            if item is None:
                pen = self._pen(metric, ent, is_base, selected)
                # connect="finite": the curve breaks where a response time is NaN (no I/O), it
                # does not drop to 0
                if pool:
                    item = pool.pop()
                    item.setData(x, y, stepMode=_step_mode(s), pen=pen, connect="finite")
                    item.setVisible(True)
                else:
                    item = pg.PlotDataItem(x, y, stepMode=_step_mode(s), pen=pen, connect="finite")
                    plot.addItem(item)
                existing[k] = item
            else:
                if not _same(item, x, y):  # an unchanged prediction costs no redraw
                    item.setData(x, y, stepMode=_step_mode(s))
                if (item.opts["pen"].widthF() > 1.0) != selected:  # selected, or no longer
                    item.setPen(self._pen(metric, ent, is_base, selected))
            z = (5 if is_base else 10) + (1 if selected else 0)  # the selected on top
            if item.zValue() != z:  # (setZValue goes through pyqtgraph's Python itemChange)
                item.setZValue(z)
            item.opts["name"] = self.series_name(metric, ent, res)
        self._sync_legend(key, [existing[(m, e, False)] for m, e in pairs])
        self._sync_empty_note(key, bool(wanted))

    def _sync_empty_note(self, key: str, has_curves: bool) -> None:
        """A plot with nothing to draw says so (instead of an empty 0.2-0.8 axis)."""
        note = self.empty_notes[key]
        empty = not has_curves and self.result is not None
        if empty:
            note.setText(tr(_EMPTY_NOTE.get(key, _NOTHING)), size="9pt", color=self.ink.muted)
        if note.isVisible() != empty:
            note.setVisible(empty)
            self.plots[key].getAxis("left").setStyle(showValues=not empty)

    def _sync_outages(self, outages: list[tuple[float, float]]) -> None:
        """A light, labelled band over each controller reboot on the host plots: the response
        curves break there (no I/O, no response time) and the throughput drops to 0. Rebuilt
        only when the intervals change."""
        if outages == self.outages:
            return
        for plot, item in self._outage_items:
            plot.removeItem(item)
        self._outage_items = []
        self.outages = list(outages)
        for key in HOST_PLOTS:
            plot = self.plots[key]
            for start, end in outages:
                self._outage_items.append((plot, _add_outage_band(plot, start, end, self.ink)))

    def _sync_saturation(self) -> None:
        """A red band over each stretch where a shown workload is saturated (some of its offered
        IOPS unserved), on the response chart, labelled with its name and the share served: the
        response curve there is a lower bound of a growing queue, not a steady figure like the
        rest of the curve. Rebuilt only when the stretches change."""
        self.saturated = {}
        if self.result is not None:
            for metric, ent in self.shown["response"]:
                if metric == "response_ms":
                    stretches = self.result.saturation(ent)
                    if stretches:
                        self.saturated[ent] = stretches
        key = [(self._workload_name(w), tuple(v)) for w, v in sorted(self.saturated.items())]
        if key == self._saturation_key:
            return
        self._saturation_key = key
        plot = self.plots["response"]
        for item in self._saturation_items:
            plot.removeItem(item)
        self._saturation_items = []
        for name, stretches in key:
            for start, end, served in stretches:
                text = saturation_text(name, served)
                band = pg.LinearRegionItem((start, end), movable=False, brush=pg.mkBrush(214, 39, 40, 38),
                                           pen=pg.mkPen(214, 39, 40, 120))
                band.setZValue(-9)
                band.setToolTip(text + "; the response shown is a lower bound of a queue that keeps growing")
                plot.addItem(band, ignoreBounds=True)
                label = pg.InfLineLabel(band.lines[0], text, position=0.80, anchors=[(0, 0), (0, 0)],
                                        color="#a01010")
                label.setFont(QFont("Sans", 8))
                self._saturation_items.append(band)

    def series_name(self, metric: str, ent: str, result=None) -> str:
        """How the legend, the read-out, the hover box, the saturation band and the CSV name a
        series: series_label with the names the user reads everywhere else (issue 23), a RAID
        group in the platform's word ("Disk Group 3", never "RG 3"), inside an operation's
        label too ("Rebuild drive 0_0_3 of Disk Group 0")."""
        label = _label(metric, ent, self.project, result if result is not None else self.result)
        names = self._object_names()
        return names.groups_in(label) if names is not None else label

    def _object_names(self):
        """ObjectNames of the project shown, made once per set_results (a rename is an edit,
        and every edit brings a new prediction)."""
        if self._names is None and self.project is not None:
            from app.domain.user_names import ObjectNames

            platforms = getattr(self.catalog, "platforms", None) or {}
            self._names = ObjectNames(self.project, platforms.get(self.project.platform_id))
        return self._names

    def _workload_name(self, workload: str) -> str:
        return self.series_name("response_ms", workload)

    def is_saturated(self, workload: str, t: float) -> bool:
        return any(start <= t < end for start, end, _ in self.saturated.get(workload, ()))

    def _sync_legend(self, key: str, items: list[pg.PlotDataItem]) -> None:
        legend = self.legends[key]
        show = 0 < len(items) <= LEGEND_MAX
        entries = [(id(i), i.opts["name"]) for i in items] if show else []
        if entries != self._legend_entries.get(key):
            legend.clear()
            legend.setColumnCount(max(len(entries), 1))  # one line of entries
            for item in items if show else ():
                legend.addItem(item, item.opts["name"])
            self._legend_entries[key] = entries
        legend.setVisible(show)
        if not show:  # no empty row above the curves
            legend.setMinimumHeight(0)
            legend.setMaximumHeight(0)
        else:
            self._fit_legend(key)
            legend.updateSize()
        self._fit_header(key)

    def _fit_header(self, key: str) -> None:
        """The header row as tall as the title or the legend's lines (both, the legend under the
        title, in a dock too narrow for it beside the title); the panel's minimum height
        follows (each plot keeps PLOT_DATA_MIN_H for its curves). Only on change: setting a row
        height re-lays out the plot."""
        legend = self.legends[key]
        lines = math.ceil(legend.maximumHeight()) if legend.isVisible() else 0
        stacked = self._headers[key].orientation() == Qt.Vertical
        height = TITLE_H + lines if stacked else max(TITLE_H, lines)
        layout = self.plots[key].layout
        if layout.rowMinimumHeight(0) != height or layout.rowMaximumHeight(0) != height:
            layout.setRowFixedHeight(0, height)
            self._update_min_height()

    def _line_moved(self, line: pg.InfiniteLine) -> None:
        t = max(0.0, float(line.value()))
        self.cursor_h = t
        for other in self.cursor_lines.values():
            if other is not line:
                other.blockSignals(True)
                other.setValue(t)
                other.blockSignals(False)
        self._update_readout()
        self.cursorMoved.emit(t)

    def _update_readout(self) -> None:
        """Values at the cursor. The tree is rebuilt only when its rows change; otherwise only
        the texts that changed are set (a rebuild re-lays out and repaints the whole dock)."""
        tree = self.readout
        t = self.cursor_h
        header = [tr("At {time}").format(time=format_time(t)), tr("Value"), tr("Baseline") if self.baseline is not None else ""]
        if header != self._readout_header:
            self._readout_header = header
            tree.setHeaderLabels(header)
            tree.setColumnHidden(2, self.baseline is None)  # its width to the names
        rows: list[tuple] = []
        if self.result is not None:
            base_ended = _ended(self.baseline, t)
            for key, metric, ent, v, b in self.values_at(t):
                if key in self.hidden_plots:
                    continue
                unit = _index(self.result).unit(metric, ent) or next(sp.unit for sp in PLOTS if sp.key == key)
                base = ENDED if base_ended and (metric, ent) in self.baseline.series else _fmt(b, unit)
                value = ENDED if v is None else _fmt(v, unit)
                if metric == "response_ms" and v is not None and self.is_saturated(ent, t):
                    value = f"≥ {value}"  # a lower bound: the queue keeps growing (red, _mark_saturated)
                rows.append((key, metric, ent, self.series_name(metric, ent), value, base))
        layout = [(key, metric, ent) for key, metric, ent, *_ in rows]
        if layout != self._readout_layout:
            self._readout_layout = layout
            self._readout_items = {}
            tree.setUpdatesEnabled(False)
            tree.clear()
            tops: dict[str, QTreeWidgetItem] = {}
            for key, metric, ent, label, value, base in rows:
                top = tops.get(key)
                if top is None:
                    top = tops[key] = QTreeWidgetItem([self._base_titles[key]])
                    tree.addTopLevelItem(top)
                    top.setFirstColumnSpanned(True)  # a chart's title over all columns
                item = QTreeWidgetItem([label, value, base])
                item.setToolTip(0, label)
                item.setForeground(0, self._color((metric, ent)))
                _mark_saturated(item, value)
                top.addChild(item)
                self._readout_items[(key, metric, ent)] = item
            for top in tops.values():
                top.setExpanded(True)
            tree.setUpdatesEnabled(True)
            return
        for key, metric, ent, label, value, base in rows:
            item = self._readout_items[(key, metric, ent)]
            for col, text in ((0, label), (1, value), (2, base)):
                if item.text(col) != text:
                    item.setText(col, text)
                    if col == 1:
                        _mark_saturated(item, value)

    def _mouse_moved(self, evt) -> None:
        pos = evt[0]
        for key, plot in self.plots.items():
            text = self.hover_text[key]
            if self.result is None or not plot.isVisible() or not plot.sceneBoundingRect().contains(pos):
                text.hide()
                continue
            vb = plot.getViewBox()
            if not vb.sceneBoundingRect().contains(pos):
                text.hide()
                continue
            pt = vb.mapSceneToView(pos)
            t = pt.x()
            lines = [format_time(max(t, 0.0))]
            ended = _ended(self.result, t)
            for metric, ent in self.shown[key][:8]:
                s = self.result.series[(metric, ent)]
                value = ENDED if ended else _fmt(s.at(t), s.unit)
                if metric == "response_ms" and not ended and self.is_saturated(ent, t):
                    value = f"≥ {value} ({SATURATED}: a lower bound)"
                lines.append(f"{self.series_name(metric, ent)}: {value}")
            if len(self.shown[key]) > 8:
                lines.append(tr("... {n} more in the read-out").format(n=len(self.shown[key]) - 8))
            text.setText("\n".join(lines))
            text.setPos(pt.x(), pt.y())
            (xr, yr) = vb.viewRange()
            # keep the box inside the plot: flip the anchor on the right/top halves
            ax = 1 if pt.x() > (xr[0] + xr[1]) / 2 else 0
            ay = 0 if pt.y() > (yr[0] + yr[1]) / 2 else 1
            text.setAnchor((ax, ay))
            text.show()

    def hover_text_at(self, key: str) -> str:
        item = self.hover_text[key]
        return item.toPlainText() if item.isVisible() else ""


def _add_outage_band(plot: pg.PlotItem, start: float, end: float, ink: Theme) -> pg.LinearRegionItem:
    band = pg.LinearRegionItem((start, end), movable=False, brush=pg.mkBrush(255, 140, 0, 45),
                               pen=pg.mkPen(255, 140, 0, 110))
    band.setZValue(-10)  # under the curves and the grid's labels
    band.setToolTip(OUTAGE_TEXT)
    plot.addItem(band, ignoreBounds=True)
    label = pg.InfLineLabel(band.lines[0], OUTAGE_TEXT, position=0.92, anchors=[(0, 0), (0, 0)],
                            color=readable(QColor("#8a4b00"), ink.background, 4.5))
    label.setFont(QFont("Sans", 8))
    return band


def _label(metric: str, ent: str, project, result) -> str:
    """series_label, with the metrics no chart shows named too (the CSV has every series)."""
    if metric == "rate_mb_s":
        return series_label("progress_pct", ent, project, result)
    if metric == "response_max_ms":
        return series_label("response_ms", ent, project, result)
    if metric == "lun_response_ms":
        return f"LUN {ent}"
    if metric == "port_pct":
        return f"{ent} host ports"
    if metric == "write_pending_pct":
        return f"{ent} write pending"
    return series_label(metric, ent, project, result)


def _same(item: pg.PlotDataItem, x: np.ndarray, y: np.ndarray) -> bool:
    ox, oy = item.getOriginalDataset()
    return (ox is not None and oy is not None and len(ox) == len(x) and len(oy) == len(y)
            and np.array_equal(ox, x) and np.array_equal(oy, y, equal_nan=True))


ENDED = "ended"  # the read-out past the end of a plan (its curve stops there)
SATURATED = QT_TR_NOOP("saturated")  # a response time where some of the offered IOPS go unserved


def _mark_saturated(item: QTreeWidgetItem, value: str) -> None:
    """A saturated response in the read-out: red, with the reason as its tooltip."""
    saturated = value.startswith("≥")
    if saturated:
        item.setForeground(1, QColor("#c00000"))
    else:
        item.setData(1, Qt.ForegroundRole, None)  # the palette's
    item.setToolTip(1, tr("{saturated}: some of the offered IOPS are not served; the response time is a lower "
                          "bound of a queue that keeps growing").format(saturated=tr(SATURATED)) if saturated else "")


def saturation_text(name: str, served: float) -> str:
    """The label of a saturation band: which workload, and how much of its load is served."""
    return f"{name} saturated: {served * 100:.0f}% of its IOPS served"


def _ended(result, t: float) -> bool:
    """Is `t` past the end of `result`'s plan (its horizon), where its curves stop?"""
    return result is not None and t > result.horizon_h * (1 + 1e-9) + 1e-9


def _fmt(v: float | None, unit: str) -> str:
    if v is None:
        return ""
    return format_response(v) if unit == "ms" else format_value(v, unit)  # NaN ms: "no I/O"
