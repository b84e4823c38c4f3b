"""The Gantt view of a scenario: one row per operation with its engine-predicted phases coloured,
lanes for host workloads (with their changes as markers), and markers for drive replacements
and feature enables. Items can be clicked (select), dragged sideways (move the start time) and
right-clicked (priority, edit, delete). The view only emits requests; the timeline panel turns
them into undoable operations.

Phase positions come from the engine's Result; an event the engine has not reported yet is drawn
as a marker at its start time (the only time the project itself knows).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget

from app.domain.formatting import format_duration, format_time
from app.domain.project import (
    Bind, DriveFailure, DriveReplacement, Event, FeatureEnable, LunMigration, Reallocate,
    VolumeMigration, WorkloadChange,
)
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
    "reallocate": "#ff9d9a",
    "migration": "#4e79a7",
}
_OTHER_PHASE = "#9c755f"
MARKER_COLORS = {
    "drive_failure": "#c0392b",
    "drive_replacement": "#27ae60",
    "feature_enable": "#8e44ad",
    "workload_change": "#2c3e50",
}
ROW_H = 0.62  # bar height in row units
LABEL_W = 240  # pixels for the row labels (longer labels are elided; the tooltip has them)


def phase_color(name: str) -> QColor:
    return QColor(PHASE_COLORS.get(name.lower(), _OTHER_PHASE))


def describe_event(ev: Event, project=None) -> str:
    """A short label for an event the engine has not reported yet (or a marker)."""
    if isinstance(ev, LunMigration):
        return f"Migrate LUN {ev.source_lun} -> LUN {ev.dest_lun}"
    if isinstance(ev, DriveFailure):
        return f"Drive {ev.drive} fails"
    if isinstance(ev, DriveReplacement):
        return f"Replace drive {ev.drive}"
    if isinstance(ev, Bind):
        return f"Bind LUN {ev.lun}"
    if isinstance(ev, VolumeMigration):
        pairs = ", ".join(f"{a}->{b}" for a, b in ev.moves[:3]) + (" ..." if len(ev.moves) > 3 else "")
        return f"Volume migration {pairs}"
    if isinstance(ev, Reallocate):
        return f"Reallocate LUN {ev.lun}" + (" (measure)" if ev.measure_only else "")
    if isinstance(ev, FeatureEnable):
        name = ev.feature
        return f"Enable {name}"
    if isinstance(ev, WorkloadChange):
        ch = ", ".join(f"{k}={v}" for k, v in ev.changes.items())
        return f"{ev.workload}: {ch}"
    return ev.label_text or ev.kind


@dataclass
class Row:
    key: str  # "op:<event id>", "wl:<workload id>"
    label: str
    kind: str  # "operation", "workload", "event"
    items: list = field(default_factory=list)


class EventItem(pg.GraphicsObject):
    """One event on its row: the engine's phases as coloured boxes, or a marker glyph."""

    def __init__(self, gantt: "GanttView", event: Event, y: float, phases=(), end_h=None,
                 marker: str | None = None, tooltip: str = ""):
        super().__init__()
        self.gantt = gantt
        self.event_id = event.id
        self.kind = event.kind
        self.start_h = float(event.start_h)
        self.y = y
        self.phases = list(phases)  # (name, start, end)
        self.end_h = end_h
        self.marker = marker
        self.selected = False
        self._drag_x0: float | None = None
        self.setToolTip(tooltip)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.SizeHorCursor)
        self.setZValue(20 if marker else 10)

    # geometry in data coordinates; markers are sized in pixels
    def _px(self) -> tuple[float, float]:
        pw = self.pixelWidth() or 0.0
        ph = abs(self.pixelHeight() or 0.0)
        return pw, ph

    def _extent(self) -> tuple[float, float]:
        x0 = self.start_h
        x1 = max([self.start_h] + [e for _, _, e in self.phases])
        if self.phases:
            x0 = min(x0, min(s for _, s, _ in self.phases))
        return x0, x1

    def boundingRect(self) -> QRectF:  # noqa: N802
        pw, _ = self._px()
        x0, x1 = self._extent()
        pad = 8 * pw
        return QRectF(x0 - pad, self.y - 0.45, (x1 - x0) + 2 * pad, 0.9)

    def viewTransformChanged(self) -> None:  # noqa: N802
        self.prepareGeometryChange()

    def paint(self, p, *args) -> None:
        pw, ph = self._px()
        h = ROW_H
        outline = QPen(QColor("#202020") if self.selected else QColor(60, 60, 60, 140))
        outline.setCosmetic(True)
        outline.setWidthF(2.2 if self.selected else 0.8)
        for name, s, e in self.phases:
            rect = QRectF(s, self.y - h / 2, max(e - s, pw), h)
            color = phase_color(name)
            if self.gantt.stale:
                color.setAlpha(120)
            brush = QBrush(color, Qt.BDiagPattern) if name.lower() == "wait" else QBrush(color)
            p.setPen(outline)
            p.setBrush(brush)
            p.drawRect(rect)
        if self.marker or not self.phases:
            self._paint_marker(p, pw, ph)

    def _paint_marker(self, p, pw: float, ph: float) -> None:
        x, y = self.start_h, self.y
        r_x, r_y = 7 * pw, 7 * ph
        color = QColor(MARKER_COLORS.get(self.kind, "#555555"))
        pen = QPen(QColor("#000000") if self.selected else color.darker(140))
        pen.setCosmetic(True)
        pen.setWidthF(2.0 if self.selected else 1.0)
        p.setPen(pen)
        p.setBrush(QBrush(color))
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
            if abs(new_start - self.start_h) > 1e-9:
                self.gantt.moveRequested.emit(self.event_id, new_start)


class WorkloadLane(pg.GraphicsObject):
    """A workload's lane: a thin band over the plan with its IOPS written on it."""

    def __init__(self, y: float, horizon: float, text: str):
        super().__init__()
        self.y, self.horizon = y, max(horizon, 1e-6)
        self.setToolTip(text)
        self.setZValue(1)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return QRectF(0, self.y - 0.2, self.horizon, 0.4)

    def paint(self, p, *args) -> None:
        pen = QPen(QColor("#7f8c8d"))
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(QBrush(QColor(200, 214, 229, 160)))
        p.drawRect(self.boundingRect())


class GanttView(QWidget):
    eventClicked = Signal(str)
    editRequested = Signal(str)
    contextRequested = Signal(str, object)  # event id, QPoint (global)
    moveRequested = Signal(str, float)  # event id, new start (hours)
    dragging = Signal(str, float)
    cursorMoved = Signal(float)
    backgroundContext = Signal(float, object)  # time under the mouse, QPoint

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.plot_widget = pg.PlotWidget(axisItems={"bottom": TimeAxisItem("bottom")})
        self.plot_widget.setBackground("w")
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
        self.plot.getViewBox().sigRangeChanged.connect(lambda *_: None)
        self.cursor = pg.InfiniteLine(pos=0.0, angle=90, movable=True, pen=pg.mkPen("#000000"),
                                      hoverPen=pg.mkPen("#d62728", width=2))
        self.cursor.setZValue(100)
        self.cursor.sigPositionChanged.connect(lambda line: self.cursorMoved.emit(max(0.0, float(line.value()))))
        self.plot.addItem(self.cursor, ignoreBounds=True)
        self.plot.scene().sigMouseClicked.connect(self._scene_clicked)
        self.rows: list[Row] = []
        self.items: dict[str, EventItem] = {}
        self._extra: list = []
        self.selected: str | None = None
        self.stale = False
        self.horizon_h = 0.0

    # ---------------------------------------------------------------- building
    def set_data(self, project, result, scenario_name: str | None = None) -> None:
        """Rebuild the rows from the project's current scenario and the engine's result."""
        for item in list(self.items.values()) + self._extra:
            self.plot.removeItem(item)
        self.items.clear()
        self._extra.clear()
        self.rows = []
        if project is None:
            self._set_ticks()
            return
        sc = project.scenario(scenario_name)
        ops = {}
        if result is not None and result.scenario == sc.name:
            ops = {o.event_id: o for o in result.operations}
        horizon = result.horizon_h if result is not None else max((e.start_h for e in sc.events), default=0.0)
        self.horizon_h = horizon

        wl_rows: dict[str, int] = {}
        for w in project.workloads:
            y = -len(self.rows)
            wl_rows[w.id] = len(self.rows)
            iops = f"{w.iops:,.0f} IOPS" if w.mode == "open" else f"{w.outstanding} outstanding"
            text = f"{w.name or w.id}: {iops}, {w.read_pct:g}% read, {w.io_kb:g} KB, LUNs {', '.join(map(str, w.luns))}"
            self.rows.append(Row(f"wl:{w.id}", f"{w.name or w.id} ({iops})", "workload"))
            lane = WorkloadLane(y, max(horizon, 1.0), text)
            self.plot.addItem(lane)
            self._extra.append(lane)

        failure_rows: dict[str, int] = {}
        events = sorted(sc.events, key=lambda e: (e.start_h, e.id))
        # operations and feature enables get their own rows; replacements join their failure's row
        for ev in events:
            if isinstance(ev, (WorkloadChange, DriveReplacement)):
                continue
            idx = len(self.rows)
            op = ops.get(ev.id)
            label = op.label if op is not None else describe_event(ev, project)
            self.rows.append(Row(f"op:{ev.id}", f"{ev.id}  {label}", "operation"))
            if isinstance(ev, DriveFailure):
                failure_rows.setdefault(ev.drive, idx)
        for ev in events:
            op = ops.get(ev.id)
            if isinstance(ev, WorkloadChange):
                idx = wl_rows.get(ev.workload)
                if idx is None:
                    idx = len(self.rows)
                    self.rows.append(Row(f"op:{ev.id}", f"{ev.id}  {describe_event(ev)}", "event"))
                self._add_item(ev, idx, op, "diamond", describe_event(ev))
            elif isinstance(ev, DriveReplacement):
                idx = failure_rows.get(ev.drive)
                if idx is None:
                    idx = len(self.rows)
                    self.rows.append(Row(f"op:{ev.id}", f"{ev.id}  {describe_event(ev)}", "event"))
                self._add_item(ev, idx, op, "triangle", describe_event(ev))
            else:
                idx = next(i for i, r in enumerate(self.rows) if r.key == f"op:{ev.id}")
                marker = "x" if isinstance(ev, DriveFailure) else ("diamond" if isinstance(ev, FeatureEnable) else None)
                self._add_item(ev, idx, op, marker, describe_event(ev, project))
        self._set_ticks()
        if self.selected in self.items:
            self.items[self.selected].selected = True

    def _add_item(self, ev: Event, idx: int, op, marker: str | None, text: str) -> None:
        y = -idx
        phases = []
        end_h = None
        tip = [f"{ev.id}: {text}", f"starts {format_time(ev.start_h)}"]
        if op is not None:
            for ph in op.phases:
                end = ph.end_h if ph.end_h is not None else self.horizon_h
                phases.append((ph.name, ph.start_h, end))
                rate = f", {ph.avg_mb_s:.1f} MB/s" if ph.avg_mb_s else ""
                tip.append(f"  {ph.name}: {format_time(ph.start_h)} - {format_time(ph.end_h) if ph.end_h is not None else 'beyond the plan'}"
                           f" ({format_duration(ph.duration_h)}{rate})")
            end_h = op.end_h
            tip.append(f"priority {op.priority}; duration {format_duration(op.duration_h)}")
            if op.touches_workloads:
                tip.append("affects workloads " + ", ".join(op.touches_workloads))
        elif ev.is_operation:
            tip.append("(waiting for the prediction)")
        item = EventItem(self, ev, y, phases, end_h, marker, "\n".join(tip))
        self.plot.addItem(item)
        self.items[ev.id] = item
        if op is not None and op.phases:
            right = max(e for _, _, e in phases)
            note = f"{op.priority} · {format_duration(op.duration_h)}"
            label = pg.TextItem(note, color="#303030", anchor=(0, 0.5))
            label.setFont(QFont("Sans", 8))
            label.setPos(right, y)
            self.plot.addItem(label, ignoreBounds=True)
            self._extra.append(label)

    def _set_ticks(self) -> None:
        metrics = QFontMetrics(self.plot.getAxis("left").style.get("tickFont") or QFont("Sans", 8))
        ticks = [(-i, metrics.elidedText(r.label, Qt.ElideRight, LABEL_W - 16)) for i, r in enumerate(self.rows)]
        self.plot.getAxis("left").setTicks([ticks, []])
        n = max(len(self.rows), 1)
        self.plot.setYRange(-(n - 1) - 0.6, 0.6, padding=0)
        self.plot.setLimits(yMin=-(n - 1) - 1.5, yMax=1.5)
        self.plot_widget.setMinimumHeight(0)

    # ---------------------------------------------------------------- state
    def set_stale(self, stale: bool) -> None:
        if stale != self.stale:
            self.stale = stale
            for item in self.items.values():
                item.update()

    def select(self, event_id: str | None) -> None:
        self.selected = event_id
        for eid, item in self.items.items():
            on = eid == event_id
            if item.selected != on:
                item.selected = on
                item.update()

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
