"""The Gantt view of a scenario: one row per operation with its engine-predicted phases coloured,
lanes for host workloads (with their changes as markers), and markers for drive replacements
and feature enables. Items can be clicked (select), dragged sideways (move the start time) and
right-clicked (priority, edit, delete). The view only emits requests; the timeline panel turns
them into undoable operations.

Phase positions come from the engine's Result; an event the engine has not reported yet is drawn
as a marker at its start time (the only time the project itself knows).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QFontMetricsF, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget

from app.domain.formatting import format_duration, format_duration_band, format_time
from app.domain.project import DriveFailure, DriveReplacement, Event, FeatureEnable, WorkloadChange, describe_event
from app.ui.accessibility import accessible, announce, plain_text
from app.ui.theme import Theme, follow_palette, mix, readable, style_plot, theme
from app.ui.tooltips import follow_pointer
from app.ui.charts.timeaxis import TimeAxisItem

PHASE_COLORS = {
    "copy": "#4e79a7",
    "expansion": "#a0cbe8",
    "rebuild": "#e15759",
    "wait": "#cfcfcf",
    "equalization": "#f28e2b",
    "equalize": "#f28e2b",
    "zeroing": "#8cd17d",
    "verify": "#59a14f",
    "reboot": "#b07aa1",
    "outage": "#b07aa1",
    "measure": "#edc948",
    "reallocate": "#76b7b2",  # teal: its former pink read as rebuild red
    "migration": "#4e79a7",
    "degraded": "#e15759",
    "set-up": "#bab0ac",
    "format": "#8cd17d",
}
_OTHER_PHASE = "#9c755f"
# the phases the engine reports (by phase_key), in the legend's order
LEGEND_PHASES = ("set-up", "copy", "expansion", "rebuild", "degraded", "wait", "equalization", "zeroing",
                 "verify", "measure", "reallocate", "reboot")
MARKER_COLORS = {
    "drive_failure": "#c0392b",
    "drive_replacement": "#27ae60",
    "feature_enable": "#8e44ad",
    "workload_change": "#2c3e50",
}
ROW_H = 0.62  # bar height in row units
NOTE_FONT = QFont("Sans", 8)
NOTE_METRICS = None  # QFontMetricsF of NOTE_FONT, made with the first GanttView (needs a QGuiApplication)
LABEL_W = 180  # pixels for the row labels (the charts' left axes are as wide) (longer labels are elided; the tooltip has them)


def _has_phases(op) -> bool:
    return op is not None and bool(op.phases)


def phase_key(name: str) -> str:
    """'copy LUN 0 -> LUN 20' -> 'copy', 'wait for replacement' -> 'wait', 'set-up LUN 3' -> 'set-up'."""
    return name.lower().split(" ", 1)[0] if name else ""


def phase_color(name: str) -> QColor:
    return QColor(PHASE_COLORS.get(phase_key(name), _OTHER_PHASE))


def is_waiting(name: str) -> bool:
    return phase_key(name) in ("wait", "degraded")


_BRUSHES: dict[tuple[str, bool], QBrush] = {}  # (phase key, stale) -> brush, made once each
STALE_ALPHA = 120  # how pale a stale drawing is: bars, markers and workload lanes alike


def _pale(color: QColor, stale: bool) -> QColor:
    """The colour as drawn while the prediction is stale (a failed one: GanttView.set_stale)."""
    if stale:
        color = QColor(color)
        color.setAlpha(color.alpha() * STALE_ALPHA // 255)
    return color


def phase_brush(name: str, stale: bool = False) -> QBrush:
    """How a phase is filled: its colour, hatched while it waits (pale while stale)."""
    key = (phase_key(name), stale)
    brush = _BRUSHES.get(key)
    if brush is None:
        color = _pale(phase_color(name), stale)
        brush = _BRUSHES[key] = (QBrush(color, Qt.BrushStyle.BDiagPattern) if is_waiting(name)
                                 else QBrush(color))
    return brush


def phase_lanes(phases) -> tuple[list[int], int]:
    """Sub-lanes for phases that overlap in time (a parallel migration group copies several LUNs
    at once): each phase gets the first lane free at its start."""
    ends: list[float] = []
    lanes = []
    for _, s, e in phases:
        for i, end in enumerate(ends):
            if end <= s + 1e-12:
                ends[i] = e
                lanes.append(i)
                break
        else:
            ends.append(e)
            lanes.append(len(ends) - 1)
    return lanes, max(len(ends), 1)


@dataclass
class Row:
    key: str  # "op:<event id>", "wl:<workload id>"
    label: str
    kind: str  # "operation", "workload", "event"
    items: list = field(default_factory=list)


def _outline(color: QColor, width: float) -> QPen:
    pen = QPen(color)
    pen.setCosmetic(True)
    pen.setWidthF(width)
    return pen


_OUTLINE = _outline(QColor(60, 60, 60, 140), 0.8)  # a bar's (the fills are mid colours on any ground)


class GanttInk:
    """What the timeline draws in the palette's colours, made once per palette."""

    def __init__(self, ink: Theme):
        self.theme = ink
        self.selected_outline = _outline(ink.text, 2.2)
        self.note = QColor(ink.text)
        self.marker_colors = {k: readable(QColor(v), ink.background) for k, v in MARKER_COLORS.items()}
        self.lane_pen = QColor(ink.shade(0.5))
        self.lane_fill = mix(ink.background, QColor(120, 160, 210), 0.35)


class EventItem(pg.GraphicsObject):
    """One event on its row: the engine's phases as coloured boxes, or a marker glyph."""

    def __init__(self, gantt: "GanttView", event: Event, y: float, phases=(), end_h=None,
                 marker: str | None = None, tooltip=None):
        super().__init__()
        self.gantt = gantt
        self.event_id = event.id
        self.kind = event.kind
        self.start_h = float(event.start_h)
        self.y = y
        self.phases = list(phases)  # (name, start, end)
        self.end_h = end_h
        self.marker = marker
        self.op = None  # the engine's OperationResult it was last drawn from
        self.selected = False
        self.painted_stale = False  # its cached pixmap was painted pale (GanttView.set_stale)
        self._drag_x0: float | None = None
        self._tip = tooltip  # a str, or a callable made into text when the pointer arrives
        self.note = ""  # "ASAP · 30 min", written after the bar
        self._br: QRectF | None = None  # bounding rect, until the geometry or the zoom changes
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.SizeHorCursor)
        self.setZValue(20 if marker else 10)
        # painted once into a pixmap until it changes: a window repaint then costs a blit per
        # row instead of a Python paint call (200 operations: ~35 ms -> a few ms)
        self.setCacheMode(QGraphicsItem.DeviceCoordinateCache)

    def set(self, event: Event, y: float, phases, end_h, marker: str | None, tooltip) -> None:
        """Update in place; repaint only when something visible changed."""
        new = (float(event.start_h), y, list(phases), end_h, marker)
        if new != (self.start_h, self.y, self.phases, self.end_h, self.marker):
            self.prepareGeometryChange()
            self.start_h, self.y, self.phases, self.end_h, self.marker = new
            self.update()
        self._tip = tooltip

    def tooltip_text(self) -> str:
        if callable(self._tip):
            self._tip = self._tip()
        return self._tip or ""

    def hoverEvent(self, ev) -> None:  # noqa: N802 - pyqtgraph API
        if not ev.isExit():
            text = self.tooltip_text()
            if self.toolTip() != text:
                self.setToolTip(text)

    # geometry in data coordinates; markers are sized in pixels
    def _px(self) -> tuple[float, float]:
        return self.gantt.pixel_size()

    def _extent(self) -> tuple[float, float]:
        x0 = self.start_h
        x1 = max([self.start_h] + [e for _, _, e in self.phases])
        if self.phases:
            x0 = min(x0, min(s for _, s, _ in self.phases))
        return x0, x1

    def boundingRect(self) -> QRectF:  # noqa: N802
        if self._br is None:
            self._br = self._bounds()
        return self._br

    def prepareGeometryChange(self) -> None:  # noqa: N802
        self._br = None
        super().prepareGeometryChange()

    def _bounds(self) -> QRectF:
        pw, _ = self._px()
        x0, x1 = self._extent()
        pad = 8 * pw
        text = (NOTE_METRICS.horizontalAdvance(self.note) + 8) * pw if self.note else 0.0
        return QRectF(x0 - pad, self.y - 0.45, (x1 - x0) + 2 * pad + text, 0.9)

    def viewTransformChanged(self) -> None:  # noqa: N802
        self.gantt._forget_px()
        self.prepareGeometryChange()

    def paint(self, p, *args) -> None:
        pw, ph = self._px()
        h = ROW_H
        ink = self.gantt.ink
        outline = ink.selected_outline if self.selected else _OUTLINE
        lanes, n = phase_lanes(self.phases)
        lane_h = h / n
        stale = self.painted_stale = self.gantt.stale
        for (name, s, e), lane in zip(self.phases, lanes):
            rect = QRectF(s, self.y - h / 2 + lane * lane_h, max(e - s, pw), lane_h)
            p.setPen(outline)
            p.setBrush(phase_brush(name, stale))
            p.drawRect(rect)
        if self.marker or not self.phases:
            self._paint_marker(p, pw, ph, stale)
        if self.note_fits():
            # text in device pixels (the item's own coordinates are hours x rows)
            _, x1 = self._extent()
            at = p.transform().map(QPointF(x1, self.y))
            p.save()
            p.resetTransform()
            p.setFont(NOTE_FONT)
            p.setPen(self.gantt.ink.note)
            p.drawText(QPointF(at.x() + 5, at.y() + NOTE_METRICS.ascent() / 2 - 1), self.note)
            p.restore()

    def note_fits(self) -> bool:
        """The note is written only when a row is as tall as its text (on thinner rows it would
        be written over the neighbours' notes)."""
        return bool(self.note) and self._px()[1] * NOTE_METRICS.height() <= 1.0

    def _paint_marker(self, p, pw: float, ph: float, stale: bool) -> None:
        x, y = self.start_h, self.y
        r_x, r_y = 7 * pw, 7 * ph
        ink = self.gantt.ink
        color = QColor(ink.marker_colors.get(self.kind, ink.theme.muted))
        pen = QPen(_pale(ink.theme.text if self.selected else color.darker(140), stale))
        pen.setCosmetic(True)
        pen.setWidthF(2.0 if self.selected else 1.0)
        p.setPen(pen)
        p.setBrush(QBrush(_pale(color, stale)))
        shape = self.marker or "pending"
        if shape == "x":
            path = QPainterPath()
            path.moveTo(x - r_x, y - r_y)
            path.lineTo(x + r_x, y + r_y)
            path.moveTo(x - r_x, y + r_y)
            path.lineTo(x + r_x, y - r_y)
            pen.setWidthF(3.0)
            p.setPen(pen)
            p.drawPath(path)
        elif shape == "triangle":
            p.drawPolygon(QPolygonF([QPointF(x, y - r_y), QPointF(x - r_x, y + r_y), QPointF(x + r_x, y + r_y)]))
        elif shape == "diamond":
            p.drawPolygon(QPolygonF([QPointF(x, y - r_y), QPointF(x + r_x, y), QPointF(x, y + r_y),
                                     QPointF(x - r_x, y)]))
        else:  # an operation the engine has not placed yet: an open bracket at its start
            pen.setStyle(Qt.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.NoBrush)
            p.drawRect(QRectF(x, y - ROW_H / 2, 14 * pw, ROW_H))

    # ---- interaction
    def mouseClickEvent(self, ev) -> None:  # noqa: N802
        if ev.button() == Qt.LeftButton:
            ev.accept()
            if ev.double():
                self.gantt.editRequested.emit(self.event_id)
            else:
                self.gantt.eventClicked.emit(self.event_id)
        elif ev.button() == Qt.RightButton:
            ev.accept()
            self.gantt.eventClicked.emit(self.event_id)
            self.gantt.contextRequested.emit(self.event_id, ev.screenPos().toPoint())

    def mouseDragEvent(self, ev) -> None:  # noqa: N802
        if ev.button() != Qt.LeftButton:
            ev.ignore()
            return
        ev.accept()
        parent = self.parentItem()
        if ev.isStart():
            self._drag_x0 = parent.mapFromScene(ev.buttonDownScenePos()).x()
            self.gantt.eventClicked.emit(self.event_id)
        if self._drag_x0 is None:
            return
        # in the parent's (data) coordinates: the item itself moves while dragged
        dx = parent.mapFromScene(ev.scenePos()).x() - self._drag_x0
        new_start = self.gantt.snap(max(0.0, self.start_h + dx))
        self.setPos(new_start - self.start_h, 0)
        self.gantt.dragging.emit(self.event_id, new_start)
        if ev.isFinish():
            self._drag_x0 = None
            self.setPos(0, 0)
            self.gantt.dragFinished.emit(self.event_id)  # before the move: its own message stands
            if abs(new_start - self.start_h) > 1e-9:
                self.gantt.moveRequested.emit(self.event_id, new_start)


class WorkloadLane(pg.GraphicsObject):
    """A workload's lane: a thin band over the plan with its IOPS written on it. A click selects
    the workload (the window's selection: the inspector shows it, Delete removes it)."""

    def __init__(self, gantt: "GanttView", workload_id: str, y: float, horizon: float, text: str):
        super().__init__()
        self.gantt = gantt
        self.workload_id = workload_id
        self.selected = False
        self.painted_stale = False  # it was last painted pale (GanttView.set_stale repaints it)
        self.y, self.horizon = y, max(horizon, 1e-6)
        self.setToolTip(text)
        self.setZValue(1)

    def mouseClickEvent(self, ev) -> None:  # noqa: N802 - pyqtgraph API
        if ev.button() in (Qt.LeftButton, Qt.RightButton):
            ev.accept()
            self.gantt.workloadClicked.emit(self.workload_id)

    def set(self, y: float, horizon: float, text: str) -> None:
        horizon = max(horizon, 1e-6)
        if (y, horizon) != (self.y, self.horizon):
            self.prepareGeometryChange()
            self.y, self.horizon = y, horizon
            self.update()
        if self.toolTip() != text:
            self.setToolTip(text)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(0, self.y - 0.2, self.horizon, 0.4)

    def paint(self, p, *args) -> None:
        stale = self.painted_stale = self.gantt.stale
        ink = self.gantt.ink
        pen = QPen(_pale(ink.theme.text if self.selected else ink.lane_pen, stale))
        pen.setCosmetic(True)
        pen.setWidthF(2.2 if self.selected else 1.0)
        p.setPen(pen)
        p.setBrush(QBrush(_pale(ink.lane_fill, stale)))
        p.drawRect(self.boundingRect())


class RowAxisItem(pg.AxisItem):
    """The row labels (row i at y = -i): only rows in view (whole labels), and only as many as fit
    one above the other. A plan of 300 operations in a short dock labels every n-th row; fixed ticks for every
    row were painted over each other, and laying out 300 texts took 10-30 ms a repaint."""

    def __init__(self):
        super().__init__("left")
        self.labels: list[str] = []
        self._elided: dict[int, str] = {}

    def set_labels(self, labels: list[str]) -> None:
        if labels != self.labels:
            self.labels = list(labels)
            self._elided = {}
            self.picture = None  # pyqtgraph redraws the axis from tickValues/tickStrings
            self.update()

    def _font_metrics(self) -> QFontMetrics:
        return QFontMetrics(self.style.get("tickFont") or QFont("Sans", 8))

    def tickValues(self, minVal, maxVal, size):  # noqa: N802 (pyqtgraph API)
        n = len(self.labels)
        if n == 0 or not maxVal > minVal or size <= 0:
            return []
        row_px = size / (maxVal - minVal)
        line = self._font_metrics().height()
        step = max(1, math.ceil(line / row_px))
        half = line / 2 / row_px  # a label reaches half a line (in rows) above and below its row
        first = max(0, math.ceil(-maxVal + half))
        last = min(n - 1, math.floor(-minVal - half))
        first = -(-first // step) * step  # multiples of step: the labelled rows stay put when panned
        return [(step, [-float(i) for i in range(first, last + 1, step)])]

    def tickStrings(self, values, scale, spacing):  # noqa: N802
        out = []
        for v in values:
            row = int(round(-v))
            text = self._elided.get(row)
            if text is None:
                text = self._elided[row] = self._font_metrics().elidedText(
                    self.labels[row], Qt.ElideRight, LABEL_W - 16)
            out.append(text)
        return out


class GanttView(QWidget):
    eventClicked = Signal(str)
    workloadClicked = Signal(str)  # workload id (its lane was clicked, or reached with the arrow keys)
    editRequested = Signal(str)
    contextRequested = Signal(str, object)  # event id, QPoint (global)
    moveRequested = Signal(str, float)  # event id, new start (hours)
    dragging = Signal(str, float)  # event id, the start it would get if dropped now
    dragFinished = Signal(str)  # event id: dropped (moved or not), or its item went mid-drag
    cursorMoved = Signal(float)
    backgroundContext = Signal(float, object)  # time under the mouse, QPoint

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.row_axis = RowAxisItem()
        self.plot_widget = pg.PlotWidget(axisItems={"bottom": TimeAxisItem("bottom"), "left": self.row_axis})
        accessible(self.plot_widget, "Timeline", "Nothing selected")
        follow_pointer(self.plot_widget)  # a bar's tooltip goes when the pointer leaves the bar
        lay.addWidget(self.plot_widget)
        self.plot: pg.PlotItem = self.plot_widget.getPlotItem()
        self.plot.setMouseEnabled(x=True, y=False)
        self.plot.hideButtons()
        self.plot.showGrid(x=True, y=False, alpha=0.25)
        left = self.plot.getAxis("left")
        left.setWidth(LABEL_W)
        left.setStyle(tickLength=0, autoReduceTextSpace=False, hideOverlappingLabels=False)
        left.setTickFont(QFont("Sans", 8))
        for axis in (left, self.plot.getAxis("bottom")):
            axis.setCacheMode(QGraphicsItem.DeviceCoordinateCache)  # text painting is slow
        self.plot.getAxis("bottom").setLabel("")
        self.plot.setMenuEnabled(False)
        self.cursor = pg.InfiniteLine(pos=0.0, angle=90, movable=True)
        self.cursor.setZValue(100)
        self.cursor.sigPositionChanged.connect(lambda line: self.cursorMoved.emit(max(0.0, float(line.value()))))
        self.plot.addItem(self.cursor, ignoreBounds=True)
        self.plot.scene().sigMouseClicked.connect(self._scene_clicked)
        self.rows: list[Row] = []
        self.items: dict[str, EventItem] = {}
        self.lanes: dict[str, WorkloadLane] = {}
        self._n_rows = -1
        self._px_cache: tuple[float, float] | None = None
        global NOTE_METRICS
        if NOTE_METRICS is None:
            NOTE_METRICS = QFontMetricsF(NOTE_FONT)
        vb = self.plot.getViewBox()
        vb.sigRangeChanged.connect(self._forget_px)
        vb.sigResized.connect(self._forget_px)
        self.selected: str | None = None
        self.selected_workload: str | None = None
        # clicked, or reached with Tab, the view takes the arrow keys: up and down select rows
        self.plot_widget.setFocusPolicy(Qt.StrongFocus)
        self.plot_widget.installEventFilter(self)
        self.stale = False
        self.horizon_h = 0.0
        self.platform = None
        self.result = None  # the prediction the bars show
        # the uncertainty bands (app.service.uncertainty.Bands) and the prediction they were
        # sampled around: the durations read with their P10-P90 only while that one is shown
        self.bands = None
        self.band_result = None
        self.workload_names: dict[str, str] = {}
        self.set_theme(theme())
        follow_palette(self, lambda: self.set_theme(theme()))

    def set_theme(self, ink: Theme) -> None:
        """The palette's colours (light or dark) for the ground, the axes, the cursor and what
        the items draw; the items' cached pixmaps are painted again."""
        self.ink = GanttInk(ink)
        self.plot_widget.setBackground(ink.background)
        style_plot(self.plot, ink)
        self.cursor.setPen(pg.mkPen(ink.text))
        self.cursor.setHoverPen(pg.mkPen(ink.error, width=2))
        for item in (*self.items.values(), *self.lanes.values()):
            item.update()

    # ---------------------------------------------------------------- building
    def set_data(self, project, result, scenario_name: str | None = None, platform=None) -> None:
        """Lay out the rows from the project's current scenario and the engine's result (features
        named as on `platform`). Items are kept and updated in place (adding and removing
        graphics items is what is slow)."""
        self.rows = []
        self.platform = platform
        self.result = result
        if project is None:
            self._sync({}, {}, False)
            self._set_ticks()
            return
        sc = project.scenario(scenario_name)
        self.workload_names = {w.id: w.name or w.id for w in project.workloads}  # the tooltips name them
        ops = {}
        if result is not None and result.scenario == sc.name:
            ops = {o.event_id: o for o in result.operations}
        horizon = result.horizon_h if result is not None else max((e.start_h for e in sc.events), default=0.0)
        same_horizon = horizon == self.horizon_h  # (phases still running end at the horizon)
        self.horizon_h = horizon

        lanes: dict[str, tuple] = {}
        wl_rows: dict[str, int] = {}
        for w in project.workloads:
            wl_rows[w.id] = len(self.rows)
            iops = f"{w.iops:,.0f} IOPS" if w.mode == "open" else f"{w.outstanding} outstanding"
            text = f"{w.name or w.id}: {iops}, {w.read_pct:g}% read, {w.io_kb:g} KB, LUNs {', '.join(map(str, w.luns))}"
            lanes[w.id] = (-len(self.rows), horizon if horizon > 0 else 1.0, text)  # as long as the plan
            self.rows.append(Row(f"wl:{w.id}", f"{w.name or w.id} ({iops})", "workload"))

        failure_rows: dict[str, int] = {}
        events = sorted(sc.events, key=lambda e: (e.start_h, e.id))
        # operations and feature enables get their own rows; replacements join their failure's row
        row_of: dict[str, int] = {}
        for ev in events:
            if isinstance(ev, (WorkloadChange, DriveReplacement)):
                continue
            op = ops.get(ev.id)
            label = op.label if op is not None else describe_event(ev, platform)
            row_of[ev.id] = len(self.rows)
            if isinstance(ev, DriveFailure):
                failure_rows.setdefault(ev.drive, len(self.rows))
            # named as the user knows it: the id ("op1") is the file's, not a word to read
            self.rows.append(Row(f"op:{ev.id}", label, "operation"))
        specs: dict[str, tuple] = {}
        for ev in events:
            op = ops.get(ev.id)
            if isinstance(ev, WorkloadChange):
                idx, marker = wl_rows.get(ev.workload), "diamond"
            elif isinstance(ev, DriveReplacement):
                idx, marker = failure_rows.get(ev.drive), "triangle"
            else:
                idx = row_of[ev.id]
                marker = "x" if isinstance(ev, DriveFailure) else ("diamond" if isinstance(ev, FeatureEnable) else None)
            if idx is None:
                idx = len(self.rows)
                self.rows.append(Row(f"op:{ev.id}", describe_event(ev, platform), "event"))
            specs[ev.id] = (ev, idx, op, marker)
        self._sync(lanes, specs, same_horizon)
        self._set_ticks()

    def _sync(self, lanes: dict[str, tuple], specs: dict[str, tuple], same_horizon: bool) -> None:
        for wid in [w for w in self.lanes if w not in lanes]:
            self.plot.removeItem(self.lanes.pop(wid))
        for wid, (y, horizon, text) in lanes.items():
            lane = self.lanes.get(wid)
            if lane is None:
                lane = self.lanes[wid] = WorkloadLane(self, wid, y, horizon, text)
                lane.selected = wid == self.selected_workload
                self.plot.addItem(lane)
            else:
                lane.set(y, horizon, text)
        for eid in [e for e in self.items if e not in specs]:
            item = self.items.pop(eid)
            self.plot.removeItem(item)
            if item._drag_x0 is not None:  # removed while dragged (an undo): the drag is over
                item._drag_x0 = None
                self.dragFinished.emit(eid)
        for eid, (ev, idx, op, marker) in specs.items():
            y = -idx
            tip = (lambda ev=ev, op=op: self._tooltip(ev, op, describe_event(ev, self.platform)))
            item = self.items.get(eid)
            if (item is not None and same_horizon and (item.op is op or item.op == op)
                    and (item.kind, item.y, item.start_h, item.marker) == (ev.kind, y, float(ev.start_h), marker)
                    and not isinstance(ev, WorkloadChange)):
                # the same prediction for an event that has not moved (after an edit of another
                # event, or a new result that changed other operations): what it shows stands,
                # only its words may not
                item.op, item._tip = op, tip
                item.selected = eid == self.selected
                self._set_note(item, ev, op)  # the bands may have come (or gone) since
                continue
            phases = self._phases(op)
            if item is None or item.kind != ev.kind:
                if item is not None:
                    self.plot.removeItem(item)
                item = self.items[eid] = EventItem(self, ev, y, phases, op.end_h if op else None, marker, tip)
                self.plot.addItem(item)
            else:
                item.set(ev, y, phases, op.end_h if op else None, marker, tip)
            item.op = op
            item.selected = eid == self.selected
            self._set_note(item, ev, op)

    def _set_note(self, item: "EventItem", ev: Event, op) -> None:
        if isinstance(ev, WorkloadChange):  # what changes, beside its marker on the lane
            note = ", ".join(f"{k} {v:g}" if isinstance(v, (int, float)) and not isinstance(v, bool)
                             else f"{k} {v}" for k, v in ev.changes.items())
        elif _has_phases(op):
            # a feature enable has no priority
            note = " · ".join(filter(None, (op.priority, self.duration_text(op))))
        else:
            note = ""
        if note != item.note:
            item.prepareGeometryChange()
            item.note = note
            item.update()

    def duration_text(self, op) -> str:
        """An operation's predicted duration, with its P10-P90 band once the sampling ran for the
        prediction shown: '3.4 h (P10-P90 2.8-4.1 h)'."""
        band = None
        if self.bands is not None and self.band_result is self.result and self.result is not None:
            band = self.bands.operations.get(op.event_id)
        if band is None:
            return format_duration(op.duration_h)
        return format_duration_band(op.duration_h, band.duration_h.p10, band.duration_h.p90)

    def set_bands(self, bands, result) -> None:
        """Bands sampled around `result` (None: no bands); the notes and tooltips follow."""
        self.bands, self.band_result = bands, result

    def _phases(self, op) -> list:
        if op is None:
            return []
        return [(ph.name, ph.start_h, ph.end_h if ph.end_h is not None else self.horizon_h) for ph in op.phases]

    def _tooltip(self, ev: Event, op, text: str) -> str:
        tip = [text, f"starts {format_time(ev.start_h)}"]
        if op is not None:
            for ph in op.phases:
                rate = f", {ph.avg_mb_s:.1f} MB/s" if ph.avg_mb_s else ""
                tip.append(f"  {ph.name}: {format_time(ph.start_h)} - {format_time(ph.end_h) if ph.end_h is not None else 'beyond the plan'}"
                           f" ({format_duration(ph.duration_h)}{rate})")
            prio = f"priority {op.priority}; " if op.priority else ""
            tip.append(f"{prio}duration {self.duration_text(op)}")
            if op.touches_workloads:
                names = self.workload_names
                tip.append("affects workloads " + ", ".join(names.get(w, w) for w in op.touches_workloads))
        elif ev.is_operation:
            tip.append("(waiting for the prediction)")
        return "\n".join(tip)

    def _set_ticks(self) -> None:
        self.row_axis.set_labels([r.label for r in self.rows])
        n = max(len(self.rows), 1)
        if n != self._n_rows:
            self._n_rows = n
            self.plot.setLimits(yMin=-(n - 1) - 1.5, yMax=1.5)
            self.plot.setYRange(-(n - 1) - 0.6, 0.6, padding=0)

    def pixel_size(self) -> tuple[float, float]:
        """One screen pixel in data units (x: hours, y: rows), shared by all items."""
        if self._px_cache is None:
            px = self.plot.getViewBox().viewPixelSize()
            self._px_cache = (abs(px[0]), abs(px[1]))
        return self._px_cache

    def _forget_px(self, *_args) -> None:
        self._px_cache = None

    # ---------------------------------------------------------------- state
    def set_stale(self, stale: bool, dim: bool = False) -> None:
        """Bars painted while a new prediction is running are pale (no repaint forced for it:
        the result follows within moments and redraws what moved). `dim`: the prediction failed,
        no result follows: every bar, marker and workload lane is repainted pale now (the event
        items cache their pixmaps). Not stale: only those painted pale are repainted in full colour."""
        self.stale = stale
        for item in (*self.items.values(), *self.lanes.values()):
            if item.painted_stale != stale and (dim or not stale):
                item.update()  # drops an event item's cached pixmap

    def select(self, event_id: str | None, workload_id: str | None = None) -> None:
        """Outline the selected operation's bar, or the selected workload's lane (one of them)."""
        self.selected = event_id
        self.selected_workload = workload_id if not event_id else None
        for eid, item in self.items.items():
            on = eid == event_id
            if item.selected != on:
                item.selected = on
                item.update()
        for wid, lane in self.lanes.items():
            on = wid == self.selected_workload
            if lane.selected != on:
                lane.selected = on
                lane.update()
        # the bars are not accessible objects: the view says which one is selected
        item = self.items.get(event_id) if event_id else None
        lane = self.lanes.get(self.selected_workload) if self.selected_workload else None
        announce(self.plot_widget, f"Selected: {plain_text(item.tooltip_text())}" if item is not None
                 else f"Selected: {lane.toolTip()}" if lane is not None else "Nothing selected")

    def step_selection(self, step: int) -> None:
        """The row above (step -1) or below (+1) the selected one becomes selected (the arrow
        keys): a workload lane or an operation's row, as a click on it would."""
        keys = [r.key for r in self.rows]
        if not keys:
            return
        here = (f"op:{self.selected}" if self.selected else
                f"wl:{self.selected_workload}" if self.selected_workload else None)
        at = keys.index(here) + step if here in keys else (0 if step > 0 else len(keys) - 1)
        kind, _, key = keys[max(0, min(len(keys) - 1, at))].partition(":")
        if kind == "wl":
            self.workloadClicked.emit(key)
        else:
            self.eventClicked.emit(key)

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802
        if obj is self.plot_widget and ev.type() == QEvent.KeyPress and ev.key() in (Qt.Key_Up, Qt.Key_Down):
            self.step_selection(-1 if ev.key() == Qt.Key_Up else 1)
            return True
        return super().eventFilter(obj, ev)

    def set_cursor(self, t: float) -> None:
        if abs(self.cursor.value() - t) > 1e-12:
            self.cursor.blockSignals(True)
            self.cursor.setValue(t)
            self.cursor.blockSignals(False)

    def snap(self, t: float) -> float:
        """Round a dragged time to a step that suits the zoom (about 5 px)."""
        (x0, x1), _ = self.plot.getViewBox().viewRange()
        width = max(self.plot.getViewBox().width(), 1.0)
        want = (x1 - x0) * 5 / width
        for step in (1 / 60, 5 / 60, 0.25, 0.5, 1.0, 6.0, 24.0):
            if step >= want:
                return round(t / step) * step
        return round(t / 24.0) * 24.0

    def row_of(self, event_id: str) -> int | None:
        item = self.items.get(event_id)
        return None if item is None else int(round(-item.y))

    def _scene_clicked(self, ev) -> None:
        if ev.isAccepted():
            return
        vb = self.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(ev.scenePos()):
            return
        t = max(0.0, vb.mapSceneToView(ev.scenePos()).x())
        if ev.button() == Qt.RightButton:
            ev.accept()
            self.backgroundContext.emit(t, ev.screenPos().toPoint())
        elif ev.button() == Qt.LeftButton:
            self.eventClicked.emit("")
