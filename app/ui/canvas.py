"""The layout canvas: controllers, back-end buses as lanes, enclosures with their real slot counts,
drives in slots.

`LayoutScene(document)` builds from a Document and needs no view (the report renders it with
scene.render(painter)). Drops emit signals; `LayoutView` (the controller) turns them into domain
operations on the document. Rules for refusing a drop are the operations' own `check`.

Colours: drives by RAID group (hot spares hatched and marked HS), or by a value per drive
(`set_drive_values({location: 0..100 or None})`, e.g. utilization at the timeline cursor).
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QMimeData, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush, QColor, QDrag, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPixmap,
)
from PySide6.QtWidgets import (
    QApplication, QGraphicsItem, QGraphicsRectItem, QGraphicsScene,
    QGraphicsSimpleTextItem, QGraphicsView, QStyleOptionGraphicsItem, QWidget,
)

from app.domain import edits
from app.domain.edits import Change, parse_ref, ref_drive, ref_enclosure, ref_group
from app.domain.project import enclosure_id, parse_slot_id, slot_id
from app.ui.accessibility import announce, plain_text
from app.ui.i18n import tr, tr_count
from app.ui.terms import group_noun, group_title
from app.ui.theme import Theme, follow_palette, theme
from app.ui.tooltips import follow_pointer

MIME_DRIVE_TYPE = "application/x-arrayplanner-drive-type"
MIME_ENCLOSURE_TYPE = "application/x-arrayplanner-enclosure-type"
MIME_DRIVE_MOVE = "application/x-arrayplanner-drive-move"

SLOT_W, SLOT_H, SLOT_GAP = 34.0, 58.0, 3.0
ENC_LABEL_W, ENC_PAD, ENC_GAP = 92.0, 6.0, 8.0
ENC_H = SLOT_H + 2 * ENC_PAD
PLACEHOLDER_H = 26.0
LANE_HEADER_W, LANE_PAD = 78.0, 8.0
TOP = 8.0
CTRL_H = 44.0

FONT = QFont("Sans Serif", 8)
FONT_SMALL = QFont("Sans Serif", 7)
FONT_BOLD = QFont("Sans Serif", 9, QFont.Bold)

EMPTY_FILL = QColor("#f4f5f7")
# a slot's pens, brushes and text flags, made once: paint() runs for every slot on screen at each
# repaint, and building a QColor from a name or looking up an unscoped Qt enum (Qt.AlignTop:
# ~2 us in PySide6) there costs more than the drawing. A drive's fill is a light colour in light
# and dark mode alike, so its text and frame stay dark; the rest follows the palette (SlotInk).
_SLOT_RECT = QRectF(0, 0, SLOT_W, SLOT_H)
_SLOT_PEN = QPen(QColor("#4a5260"), 1)
_SPARE_BRUSH = QBrush(QColor("#8a94a6"), Qt.BrushStyle.BDiagPattern)
_TEXT_PEN = QPen(QColor("#1d232c"))
_HANDLE_PEN = QPen(QColor(0, 0, 0, 60), 1)
_NO_BRUSH = QBrush(Qt.BrushStyle.NoBrush)
_TOP_TEXT = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
_BOTTOM_TEXT = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom
_TOP_RECT = QRectF(0, 3, SLOT_W, 14)
_BOTTOM_RECT = QRectF(0, SLOT_H - 20, SLOT_W, 17)
_HANDLE = (QPointF(6, SLOT_H / 2), QPointF(SLOT_W - 6, SLOT_H / 2))
UNGROUPED_FILL = QColor("#c9ced6")
SPARE_FILL = QColor("#ffffff")
NO_VALUE_FILL = QColor("#d9d9d9")
FAILED_FILL = QColor("#4a4a4a")  # a failed drive while drives show values: no value, not 0
FAILED_TEXT = "FAIL"


class SlotInk:
    """The palette-dependent pens of a slot, made once per palette (see above)."""

    def __init__(self, ink: Theme):
        self.empty_fill = ink.shade(0.045)
        self.empty_pen = QPen(ink.shade(0.3), 1, Qt.PenStyle.DashLine)
        self.selected_pen = QPen(ink.highlight, 3)
        # on a dark ground the light highlight ring stands out from the ground but not from every
        # (light) drive fill: a dark inner line marks the selected drive against its own fill
        self.selected_inner_pen = QPen(QColor("#000000"), 1.5) if ink.dark else None
        self.highlight_pens = {"ok": QPen(ink.ok, 3), "bad": QPen(ink.error, 3)}


def group_color(group_id: int) -> QColor:
    """A distinct, readable colour per RAID group (golden-angle hues)."""
    hue = int((group_id * 137.508 + 200) % 360)
    return QColor.fromHsv(hue, 120 + (group_id % 3) * 30, 235 - (group_id % 2) * 25)


def _value_hue(value: float) -> int:
    return int(120 - 1.2 * max(0.0, min(100.0, float(value))))


def value_color(value: float) -> QColor:
    """0 green -> 50 yellow -> 100 red."""
    return QColor.fromHsv(_value_hue(value), 200, 235)


def _shown(value: float | None) -> tuple | None:
    """What a slot shows of a value: its colour (hue) and its number."""
    return None if value is None else (_value_hue(value), f"{value:.0f}")


def short_capacity(gb: float) -> str:
    return f"{gb / 1000:g}T" if gb >= 1000 else f"{gb:g}"


# ---------------------------------------------------------------- items

class SlotItem(QGraphicsItem):
    """One slot of an enclosure, with or without a drive. Selectable when it holds a drive."""

    def __init__(self, scene: "LayoutScene", location: str, parent: QGraphicsItem | None = None):
        super().__init__(parent)
        self.layout_scene = scene
        self.location = location
        self.ref = ref_drive(location)
        self.occupied = False
        self.fill = EMPTY_FILL
        self.top_text = ""
        self.bottom_text = ""
        self.spare = False
        self.highlight: str | None = None  # "ok" / "bad" while a drag hovers
        self._press: QPointF | None = None
        self.setAcceptHoverEvents(False)
        # repaint from a pixmap unless this slot changed (a 960-drive layout scrolls smoothly)
        self.setCacheMode(QGraphicsItem.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return QRectF(-1, -1, SLOT_W + 2, SLOT_H + 2)

    def accessible_text(self) -> str:
        return plain_text(self.toolTip())

    def set_state(self, occupied: bool, fill: QColor, top: str, bottom: str, spare: bool, tooltip: str) -> None:
        changed = (occupied, fill.rgba(), top, bottom, spare) != (
            self.occupied, self.fill.rgba(), self.top_text, self.bottom_text, self.spare)
        self.occupied, self.fill, self.top_text, self.bottom_text, self.spare = occupied, fill, top, bottom, spare
        self.setFlag(QGraphicsItem.ItemIsSelectable, occupied)
        if not occupied and self.isSelected():
            self.setSelected(False)
        self.setToolTip(tooltip)
        if changed:
            self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        r = _SLOT_RECT
        ink = self.layout_scene.slot_ink
        if self.occupied:
            painter.setPen(_SLOT_PEN)
            painter.setBrush(self.fill)
            painter.drawRoundedRect(r, 3, 3)
            if self.spare:
                painter.setBrush(_SPARE_BRUSH)
                painter.drawRoundedRect(r, 3, 3)
            painter.setPen(_TEXT_PEN)
            painter.setFont(FONT_SMALL)
            painter.drawText(_TOP_RECT, _TOP_TEXT, self.top_text)
            painter.setFont(FONT_BOLD if self.spare else FONT)
            painter.drawText(_BOTTOM_RECT, _BOTTOM_TEXT, self.bottom_text)
            # a drive carrier's handle
            painter.setPen(_HANDLE_PEN)
            painter.drawLine(*_HANDLE)
        else:
            painter.setPen(ink.empty_pen)
            painter.setBrush(ink.empty_fill)
            painter.drawRoundedRect(r, 3, 3)
        if self.isSelected():
            painter.setPen(ink.selected_pen)
            painter.setBrush(_NO_BRUSH)
            painter.drawRoundedRect(r.adjusted(-1, -1, 1, 1), 4, 4)
            if ink.selected_inner_pen is not None:
                painter.setPen(ink.selected_inner_pen)
                painter.drawRoundedRect(r.adjusted(1.5, 1.5, -1.5, -1.5), 2, 2)
        if self.highlight:
            painter.setPen(ink.highlight_pens["ok" if self.highlight == "ok" else "bad"])
            painter.setBrush(_NO_BRUSH)
            painter.drawRoundedRect(r, 3, 3)

    # dragging a drive to another slot
    def mousePressEvent(self, event) -> None:  # noqa: N802
        if self.occupied and event.button() == Qt.LeftButton:
            self._press = event.screenPos()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._press is None or not self.occupied or not (event.buttons() & Qt.LeftButton):
            return super().mouseMoveEvent(event)
        if (event.screenPos() - self._press).manhattanLength() < QApplication.startDragDistance():
            return
        self._press = None
        widget = event.widget()
        drag = QDrag(widget)
        mime = QMimeData()
        mime.setData(MIME_DRIVE_MOVE, QByteArray(self.location.encode()))
        mime.setText(self.location)
        drag.setMimeData(mime)
        pix = QPixmap(int(SLOT_W), int(SLOT_H))
        pix.fill(self.fill)
        drag.setPixmap(pix)
        drag.exec(Qt.MoveAction)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        self._press = None
        super().mouseReleaseEvent(event)


class EnclosureItem(QGraphicsRectItem):
    """An enclosure: a frame with its id and type on the left and its slots."""

    def __init__(self, scene: "LayoutScene", enc_id: str, title: str, type_name: str, slots: int):
        width = ENC_LABEL_W + slots * (SLOT_W + SLOT_GAP) + ENC_PAD - SLOT_GAP + ENC_PAD
        super().__init__(0, 0, width, ENC_H)
        self.layout_scene = scene
        self.enc_id = enc_id
        self.ref = ref_enclosure(enc_id)
        ink = scene.ink
        self.setBrush(ink.shade(0.11))
        self.setPen(QPen(ink.shade(0.62), 1.2))
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setToolTip(tr("Enclosure {id}: {type}").format(id=enc_id, type=type_name))
        t = QGraphicsSimpleTextItem(title, self)
        t.setFont(FONT_BOLD)
        t.setBrush(ink.text)
        t.setPos(8, 8)
        sub = QGraphicsSimpleTextItem(_wrap(type_name, 13), self)
        sub.setFont(FONT_SMALL)
        sub.setBrush(ink.shade(0.8))
        sub.setPos(8, 26)

    def accessible_text(self) -> str:
        return plain_text(self.toolTip())

    def shape(self) -> QPainterPath:
        """Only the label area is the enclosure itself (for clicks and rubber bands): a band over
        the slots selects drives, not the enclosure."""
        path = QPainterPath()
        path.addRect(QRectF(0, 0, ENC_LABEL_W, ENC_H))
        return path

    def mousePressEvent(self, event) -> None:  # noqa: N802
        # only the label area selects the enclosure; elsewhere a press starts a rubber band
        if event.pos().x() > ENC_LABEL_W:
            event.ignore()
            return
        super().mousePressEvent(event)

    def paint(self, painter, option, widget=None) -> None:
        super().paint(painter, _no_focus(option), widget)
        if self.isSelected():
            painter.setPen(QPen(self.layout_scene.ink.highlight, 3))
            painter.setBrush(Qt.NoBrush)
            painter.drawRect(self.rect())


def _no_focus(option: QStyleOptionGraphicsItem) -> QStyleOptionGraphicsItem:
    from PySide6.QtWidgets import QStyle
    o = QStyleOptionGraphicsItem(option)
    o.state &= ~QStyle.State_Selected
    return o


def _wrap(text: str, width: int, max_lines: int = 3) -> str:
    """`text` in lines of about `width` characters; past `max_lines` the last one ends in an
    ellipsis (the item's tooltip has the whole text)."""
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][:width - 1].rstrip() + "\u2026"
    return "\n".join(lines)


class PlaceholderItem(QGraphicsRectItem):
    """Where the next enclosure on a bus goes (drop an enclosure type here)."""

    def __init__(self, bus: int, position: int, width: float, ink: Theme):
        super().__init__(0, 0, width, PLACEHOLDER_H)
        self.bus, self.position = bus, position
        self.ink = ink
        self.setPen(QPen(ink.shade(0.4), 1, Qt.DashLine))
        self.setBrush(Qt.NoBrush)
        self.highlight: str | None = None
        t = QGraphicsSimpleTextItem(tr("drop an enclosure here (enclosure {id})").format(id=enclosure_id(bus, position)),
                                    self)
        t.setFont(FONT)
        t.setBrush(ink.muted)
        t.setPos(12, PLACEHOLDER_H / 2 - 8)

    def set_highlight(self, state: str | None) -> None:
        self.highlight = state
        color = {"ok": self.ink.ok, "bad": self.ink.error}.get(state or "", self.ink.shade(0.4))
        self.setPen(QPen(color, 3 if state else 1, Qt.SolidLine if state else Qt.DashLine))


class LaneItem(QGraphicsRectItem):
    def __init__(self, bus: int, width: float, height: float, bus_mb_s: float, ink: Theme):
        super().__init__(0, 0, width, height)
        self.bus = bus
        self.ref = f"bus {bus}"
        self.setBrush(ink.shade(0.03) if bus % 2 else ink.shade(0.065))
        self.setPen(QPen(ink.shade(0.22), 1))
        self.setToolTip(tr("Back-end bus {bus} ({speed} MB/s)").format(bus=bus, speed=f"{bus_mb_s:g}"))
        t = QGraphicsSimpleTextItem(tr("Bus {bus}").format(bus=bus), self)
        t.setFont(FONT_BOLD)
        t.setBrush(ink.text)
        t.setPos(10, 10)
        s = QGraphicsSimpleTextItem(f"{bus_mb_s:g} MB/s", self)
        s.setFont(FONT_SMALL)
        s.setBrush(ink.muted)
        s.setPos(10, 28)
        # the loop itself: a thick line the enclosures hang off
        self.wire = QGraphicsRectItem(LANE_HEADER_W - 14, LANE_PAD, 4, height - 2 * LANE_PAD, self)
        self.wire.setBrush(ink.shade(0.62))
        self.wire.setPen(Qt.NoPen)

    def accessible_text(self) -> str:
        return self.toolTip()


class ControllerItem(QGraphicsRectItem):
    def __init__(self, name: str, cores: int, width: float):
        super().__init__(0, 0, width, CTRL_H)
        self.ref = name
        self.setBrush(QColor("#2f3b4c"))
        self.setPen(QPen(QColor("#1d2530"), 1))
        cores_text = tr_count(cores, "{n} core", "{n} cores")
        self.setToolTip(f"{name}: {cores_text}")
        t = QGraphicsSimpleTextItem(name, self)
        t.setFont(FONT_BOLD)
        t.setBrush(QColor("white"))
        t.setPos(10, 6)
        s = QGraphicsSimpleTextItem(cores_text, self)
        s.setFont(FONT_SMALL)
        s.setBrush(QColor("#c9d3e0"))
        s.setPos(10, 24)

    def accessible_text(self) -> str:
        return self.toolTip()


class DropNote(QGraphicsItem):
    """Why a drop here is refused, drawn in the scene beside the pointer during a drag. It is a
    scene item, not a tooltip window: a window under the pointer would take the drag away from
    the view (the next slot would never light up and the release would place nothing)."""

    PAD, OFFSET = 4.0, 14.0

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)  # readable at any zoom
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptDrops(False)
        self.setZValue(1000)
        self.text = ""
        self._rect = QRectF()

    def show_at(self, text: str, pos: QPointF, in_view: QPointF | None = None, view_w: float = 0.0) -> None:
        """Above and to the right of the pointer (off the target under it), flipped where that
        would leave the view (in_view: the pointer in the view's pixels, view_w its width)."""
        self.prepareGeometryChange()
        self.text = text
        fm = QFontMetricsF(FONT)
        w, h = fm.horizontalAdvance(text) + 2 * self.PAD, fm.height() + 2 * self.PAD
        below = left = False
        if in_view is not None:
            below = in_view.y() < h + self.OFFSET
            left = in_view.x() + w + self.OFFSET > view_w and in_view.x() > w + self.OFFSET
        x = -self.OFFSET - w if left else self.OFFSET
        y = self.OFFSET if below else -self.OFFSET - h
        self._rect = QRectF(x, y, w, h)
        self.setPos(pos)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(QPen(QColor("#c62828"), 1))
        painter.setBrush(QColor("#fff4f4"))
        painter.drawRoundedRect(self._rect, 3, 3)
        painter.setFont(FONT)
        painter.setPen(QColor("#8e1b1b"))
        painter.drawText(self._rect, Qt.AlignCenter, self.text)


# ---------------------------------------------------------------- the scene

class LayoutScene(QGraphicsScene):
    """The array's physical layout, built from a Document (or anything with .project/.catalog/
    .platform and a `changed` signal)."""

    driveTypeDropped = Signal(str, str)        # location, drive type id
    enclosureFilled = Signal(str, str)         # enclosure id, drive type id (dropped on its label)
    driveMoved = Signal(str, str)              # from location, to location
    enclosureDropped = Signal(int, int, str)   # bus, position, enclosure type id
    dropRefused = Signal(str, QPointF)         # reason, scene position
    dropRefusalCleared = Signal()              # the pointer is over a valid target, or the drag is over
    refsSelected = Signal()                    # select_refs() changed the selection (without selectionChanged)

    def __init__(self, document: Any, parent=None, ink: Theme | None = None):
        """`ink`: fixed colours (the report's paper); None follows the application's palette
        (the view calls set_theme when it changes)."""
        super().__init__(parent)
        self.document = document
        self.ink = ink if ink is not None else theme()
        self.slot_ink = SlotInk(self.ink)
        self.slots: dict[str, SlotItem] = {}
        self.enclosure_items: dict[str, EnclosureItem] = {}
        self.placeholders: list[PlaceholderItem] = []
        self.lanes: dict[int, LaneItem] = {}
        self._values: dict[str, float | None] | None = None
        self._shown: dict[str, tuple | None] | None = None  # what each slot shows of its value
        self._failed: set[str] = set()  # drives failed at the values' time (set_drive_values)
        self._structure: Any = None
        self._hover: Any = None
        self._note: DropNote | None = None  # in the scene only while a drag is refused
        self._last_why: str | None = None
        self.legend_items: list[QGraphicsItem] = []
        self.setBackgroundBrush(self.ink.background)
        self.rebuild()
        if hasattr(document, "changed"):
            document.changed.connect(self.on_changed)

    def set_theme(self, ink: Theme) -> None:
        """New colours (light <-> dark): every item is made again with them."""
        self.ink, self.slot_ink = ink, SlotInk(ink)
        self.setBackgroundBrush(ink.background)
        self.rebuild()

    # ---------------------------------------------------------------- building
    def _structure_key(self) -> Any:
        p = self.document.view
        return (p.platform_id, tuple((e.id, e.type_id) for e in p.enclosures))

    def rebuild(self) -> None:
        selected = {it.ref for it in self.selectedItems() if hasattr(it, "ref")}
        self.clear()
        self._note = None  # clear() deleted it
        self.slots.clear()
        self.enclosure_items.clear()
        self.placeholders.clear()
        self.lanes.clear()
        self.legend_items = []
        project, platform = self.document.view, self.document.platform
        self._structure = self._structure_key()
        etypes = platform.enclosure_types
        # lanes as wide as the widest enclosure in use (any type when there is none yet); a wider
        # one dropped later changes the structure and rebuilds the scene
        used = {e.type_id for e in project.enclosures if e.type_id in etypes}
        max_slots = max((etypes[t].slots for t in used), default=max((t.slots for t in etypes.values()), default=12))
        enc_w = ENC_LABEL_W + max_slots * (SLOT_W + SLOT_GAP) + 2 * ENC_PAD
        lane_w = LANE_HEADER_W + enc_w + LANE_PAD
        # title
        title = QGraphicsSimpleTextItem(platform.name)
        title.setFont(QFont("Sans Serif", 11, QFont.Bold))
        title.setBrush(self.ink.text)
        title.setPos(0, TOP)
        self.addItem(title)
        y = TOP + 26
        # controllers, side by side
        n = max(len(platform.controllers), 1)
        cw = (lane_w - (n - 1) * 12) / n
        for i, c in enumerate(platform.controllers):
            item = ControllerItem(c.name, c.cores, cw)
            item.setPos(i * (cw + 12), y)
            self.addItem(item)
        y += CTRL_H + 14
        by_bus: dict[int, list] = {}
        for e in project.enclosures:
            by_bus.setdefault(e.bus, []).append(e)
        for bus in range(platform.buses):
            encs = sorted(by_bus.get(bus, []), key=lambda e: e.position)
            used = {e.position for e in encs}
            free = [p for p in range(platform.max_enclosures_per_bus) if p not in used]
            height = len(encs) * (ENC_H + ENC_GAP) + (PLACEHOLDER_H if free else -ENC_GAP) + 2 * LANE_PAD
            height = max(height, 44.0)
            lane = LaneItem(bus, lane_w, height, platform.bus_mb_s, self.ink)
            lane.setPos(0, y)
            self.addItem(lane)
            self.lanes[bus] = lane
            ey = y + LANE_PAD
            for e in encs:
                et = etypes.get(e.type_id)
                slots = et.slots if et else 0
                item = EnclosureItem(self, e.id, tr("Encl {id}").format(id=e.id),
                                     et.name if et else tr("unknown type {type}").format(type=e.type_id), slots)
                item.setPos(LANE_HEADER_W, ey)
                self.addItem(item)
                self.enclosure_items[e.id] = item
                for s in range(slots):
                    loc = slot_id(e.bus, e.position, s)
                    si = SlotItem(self, loc, item)
                    si.setPos(ENC_LABEL_W + s * (SLOT_W + SLOT_GAP), ENC_PAD)
                    self.slots[loc] = si
                ey += ENC_H + ENC_GAP
            if free:
                ph = PlaceholderItem(bus, free[0], enc_w, self.ink)
                ph.setPos(LANE_HEADER_W, ey)
                self.addItem(ph)
                self.placeholders.append(ph)
            y += height + 4
        self._legend_y = y + 8
        self.refresh_drives()
        for ref in selected:
            for it in self._items_for_ref(ref):
                it.setSelected(True)
        self.setSceneRect(self.itemsBoundingRect().adjusted(-10, -10, 10, 10))

    def refresh_drives(self, locations: list[str] | None = None) -> None:
        """Colours, labels and tooltips of every slot (or of `locations` only) from the project
        (no geometry change)."""
        project, catalog = self.document.view, self.document.catalog
        member: dict[str, Any] = {}
        for g in project.groups:
            for loc in g.drives:
                member[loc] = g
        values = self._values
        slots = self.slots if locations is None else {loc: self.slots[loc] for loc in locations if loc in self.slots}
        for loc, item in slots.items():
            d = project.drives.get(loc)
            if d is None:
                item.set_state(False, EMPTY_FILL, "", "", False, tr("Empty slot {slot}").format(slot=loc))
                continue
            dt = catalog.drives.get(d.type_id)
            g = member.get(loc)
            failed = values is not None and loc in self._failed
            if failed:
                fill = FAILED_FILL
            elif values is not None:
                v = values.get(loc)
                fill = NO_VALUE_FILL if v is None else value_color(v)
            elif d.hot_spare:
                fill = SPARE_FILL
            elif g is not None:
                fill = group_color(g.id)
            else:
                fill = UNGROUPED_FILL
            top = short_capacity(dt.capacity_gb) if dt else "?"
            if failed:
                bottom = FAILED_TEXT
            elif values is not None and values.get(loc) is not None:
                bottom = f"{values[loc]:.0f}"
            else:
                bottom = "HS" if d.hot_spare else (str(g.id) if g is not None else "")
            lines = ["<b>" + tr("Drive {location}").format(location=loc) + "</b>",
                     dt.name if dt else tr("unknown drive type {type}").format(type=d.type_id)]
            if dt:
                lines.append(f"{dt.speed_class}, {dt.capacity_gb:g} GB")
            if d.hot_spare:
                lines.append(tr("Hot spare"))
            elif g is not None:
                lines.append(f"{group_title(self.document, g.id, g.name)}: {g.math.label} ({g.raid.label})")
            else:
                lines.append(tr("Not in a {group}").format(group=group_noun(self.document, in_sentence=True)))
            if failed:
                lines.append(tr("Failed at this time (not replaced yet): no I/O"))
            elif values is not None:
                v = values.get(loc)
                lines.append(tr("Value: —") if v is None else tr("Utilization: {pct}%").format(pct=f"{v:.0f}"))
            item.set_state(True, fill, top, bottom, d.hot_spare, "<br>".join(lines))
        if locations is None:
            self._draw_legend()

    def _draw_legend(self) -> None:
        for it in self.legend_items:
            self.removeItem(it)
        self.legend_items = []
        project = self.document.view
        x, y = 0.0, getattr(self, "_legend_y", 0.0)
        entries: list[tuple[QColor, str, bool]] = []
        if self._values is not None:
            entries = [(value_color(0), "0%", False), (value_color(50), "50%", False),
                       (value_color(100), "100%", False), (NO_VALUE_FILL, tr("no value"), False)]
            if self._failed:
                entries.append((FAILED_FILL, tr("{fail} failed drive").format(fail=FAILED_TEXT), False))
        else:
            for g in project.groups:
                entries.append((group_color(g.id), f"{group_title(self.document, g.id, g.name)}: {g.math.label}", False))
            if project.hot_spares():
                entries.append((SPARE_FILL, tr("HS hot spare"), True))
            if any(project.group_of_drive(l) is None and not d.hot_spare for l, d in project.drives.items()):
                entries.append((UNGROUPED_FILL, tr("not in a group"), False))
        for color, text, spare in entries:
            sw = QGraphicsRectItem(x, y, 14, 14)
            sw.setBrush(QBrush(QColor("#8a94a6"), Qt.BDiagPattern) if spare else color)
            sw.setPen(QPen(self.ink.shade(0.6)))
            t = QGraphicsSimpleTextItem(text)
            t.setFont(FONT)
            t.setBrush(self.ink.text)
            t.setPos(x + 19, y)
            self.addItem(sw)
            self.addItem(t)
            self.legend_items += [sw, t]
            x += 19 + t.boundingRect().width() + 16
            if x > 620:
                x, y = 0.0, y + 20

    def on_changed(self, change: Change) -> None:
        if change.replaced or self._structure_key() != self._structure:
            self.rebuild()
        elif change.affects(edits.LAYOUT, edits.GROUPS):
            self.refresh_drives()

    # ---------------------------------------------------------------- values mode
    def set_drive_values(self, values: dict[str, float | None] | None, failed: set[str] = frozenset()) -> None:
        """Colour drives by a 0..100 value per location (None: back to RAID-group colours);
        the `failed` drives show as failed instead of by their value. While values are shown,
        new ones repaint only the slots whose colour or number they change (the timeline
        cursor moving through a 960-drive plan)."""
        shown_before = self._shown
        failed = set(failed)
        legend_changed = bool(failed) != bool(self._failed)
        self._failed = failed
        self._values = None if values is None else dict(values)
        self._shown = None if values is None else {
            loc: ("failed",) if loc in failed else _shown(v) for loc, v in values.items()}
        if shown_before is None or self._shown is None or legend_changed:
            self.refresh_drives()
            return
        changed = [loc for loc in shown_before.keys() | self._shown.keys()
                   if shown_before.get(loc) != self._shown.get(loc)]
        if changed:
            self.refresh_drives(changed)

    # ---------------------------------------------------------------- selection helpers
    def _items_for_ref(self, ref: str) -> list[QGraphicsItem]:
        kind, key = parse_ref(ref)
        if kind == "drive" and key in self.slots and self.slots[key].occupied:
            return [self.slots[key]]
        if kind == "enclosure" and key in self.enclosure_items:
            return [self.enclosure_items[key]]
        if kind == "bus" and key in self.lanes:
            return [self.lanes[key]]  # not selectable: brought into view only
        if kind == "group":
            try:
                g = self.document.view.group(key)
            except KeyError:
                return []
            return [self.slots[l] for l in g.drives if l in self.slots and self.slots[l].occupied]
        if kind == "lun":
            try:
                lun = self.document.view.lun(key)
            except KeyError:
                return []
            return self._items_for_ref(ref_group(lun.group_id))
        return []

    def select_refs(self, refs: list[str]) -> None:
        want = set()
        for r in refs:
            want.update(id(it) for it in self._items_for_ref(r))
        self.blockSignals(True)
        try:
            for it in self.selectedItems():
                if id(it) not in want:
                    it.setSelected(False)
            for r in refs:
                for it in self._items_for_ref(r):
                    it.setSelected(True)
        finally:
            self.blockSignals(False)
        self.refsSelected.emit()

    def selected_refs(self) -> list[str]:
        out = [it.ref for it in self.selectedItems() if isinstance(it, EnclosureItem)]
        out += sorted((it.ref for it in self.selectedItems() if isinstance(it, SlotItem)),
                      key=lambda r: parse_slot_id(r.split()[1]))
        return out

    def slot_at(self, pos: QPointF) -> SlotItem | None:
        for it in self.items(pos):
            if isinstance(it, SlotItem):
                return it
        return None

    def enclosure_target_at(self, pos: QPointF) -> tuple[int, int] | None:
        """(bus, position) for an enclosure dropped at `pos`: the placeholder, or the next free
        position of the bus lane under the pointer."""
        for it in self.items(pos):
            if isinstance(it, PlaceholderItem):
                return it.bus, it.position
        for it in self.items(pos):
            if isinstance(it, LaneItem):
                for ph in self.placeholders:
                    if ph.bus == it.bus:
                        return ph.bus, ph.position
                return it.bus, self.document.platform.max_enclosures_per_bus  # full: check() says why
        return None

    # ---------------------------------------------------------------- drops
    def _drop_op(self, mime: QMimeData, pos: QPointF) -> tuple[edits.Edit | None, Any, str | None]:
        """The operation a drop at `pos` would apply, its target item, and why it is refused."""
        if mime.hasFormat(MIME_DRIVE_TYPE) or mime.hasFormat(MIME_DRIVE_MOVE):
            slot = self.slot_at(pos)
            if slot is None and mime.hasFormat(MIME_DRIVE_TYPE):
                enc = next((it for it in self.items(pos) if isinstance(it, EnclosureItem)), None)
                if enc is not None:  # on the enclosure's label: fill its empty slots
                    op = edits.fill_enclosure(self.document.view, self.document.catalog, enc.enc_id,
                                            bytes(mime.data(MIME_DRIVE_TYPE)).decode())
                    return op, enc, self.document.check(op)
            if slot is None:
                return None, None, tr("drop the drive into a slot of an enclosure (or on its label to fill it)")
            if mime.hasFormat(MIME_DRIVE_TYPE):
                op: edits.Edit = edits.PlaceDrive(slot.location, bytes(mime.data(MIME_DRIVE_TYPE)).decode())
            else:
                op = edits.MoveDrive(bytes(mime.data(MIME_DRIVE_MOVE)).decode(), slot.location)
            return op, slot, self.document.check(op)
        if mime.hasFormat(MIME_ENCLOSURE_TYPE):
            target = self.enclosure_target_at(pos)
            if target is None:
                return None, None, tr("drop the enclosure onto a bus")
            op = edits.AddEnclosure(target[0], target[1], bytes(mime.data(MIME_ENCLOSURE_TYPE)).decode())
            ph = next((p for p in self.placeholders if (p.bus, p.position) == target), None)
            return op, ph, self.document.check(op)
        return None, None, None

    @staticmethod
    def _ours(mime: QMimeData) -> bool:
        return any(mime.hasFormat(f) for f in (MIME_DRIVE_TYPE, MIME_ENCLOSURE_TYPE, MIME_DRIVE_MOVE))

    def _set_hover(self, target: Any, state: str | None) -> None:
        if self._hover is not None and self._hover is not target:
            self._apply_hover(self._hover, None)
        self._hover = target
        if target is not None:
            self._apply_hover(target, state)

    @staticmethod
    def _apply_hover(item: Any, state: str | None) -> None:
        try:
            if isinstance(item, SlotItem):
                item.highlight = state
                item.update()
            elif isinstance(item, PlaceholderItem):
                item.set_highlight(state)
        except RuntimeError:  # deleted by a rebuild
            pass

    def _show_refusal(self, why: str, pos: QPointF) -> None:
        if self._note is None:
            self._note = DropNote()
            self.addItem(self._note)
        view = self.views()[0] if self.views() else None
        if view is None:
            self._note.show_at(why, pos)
        else:  # kept inside the visible part of the view
            self._note.show_at(why, pos, QPointF(view.mapFromScene(pos)), view.viewport().width())
        if why != self._last_why:
            self.dropRefused.emit(why, pos)
        self._last_why = why

    def _clear_refusal(self) -> None:
        # removed, not hidden: a hidden item still counts in itemsBoundingRect (fit, report)
        if self._note is not None:
            self.removeItem(self._note)
            self._note = None
        if self._last_why is not None:
            self._last_why = None
            self.dropRefusalCleared.emit()

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        event.setAccepted(self._ours(event.mimeData()))

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        mime = event.mimeData()
        if not self._ours(mime):
            event.ignore()
            return
        op, target, why = self._drop_op(mime, event.scenePos())
        self._set_hover(target, None if target is None else ("bad" if why else "ok"))
        if op is not None and not why:
            event.setDropAction(Qt.MoveAction if mime.hasFormat(MIME_DRIVE_MOVE) else Qt.CopyAction)
            event.accept()
            self._clear_refusal()
        else:
            # keep receiving moves (so the reason follows the pointer) but show "no drop"
            event.setDropAction(Qt.IgnoreAction)
            event.accept()
            if why:
                self._show_refusal(why, event.scenePos())
            else:
                self._clear_refusal()

    def dragLeaveEvent(self, event) -> None:  # noqa: N802
        self._set_hover(None, None)
        self._clear_refusal()

    def dropEvent(self, event) -> None:  # noqa: N802
        self._set_hover(None, None)
        self._clear_refusal()
        mime = event.mimeData()
        op, _target, why = self._drop_op(mime, event.scenePos())
        if op is None or why:
            event.setDropAction(Qt.IgnoreAction)
            event.ignore()
            if why:  # the drag is over: the status bar keeps the reason, the scene does not
                self.dropRefused.emit(why, event.scenePos())
            return
        event.setDropAction(Qt.MoveAction if mime.hasFormat(MIME_DRIVE_MOVE) else Qt.CopyAction)
        event.accept()
        if isinstance(op, edits.PlaceDrive):
            self.driveTypeDropped.emit(op.location, op.type_id)
        elif isinstance(op, edits.Batch) and isinstance(_target, EnclosureItem):
            self.enclosureFilled.emit(_target.enc_id, bytes(mime.data(MIME_DRIVE_TYPE)).decode())
        elif isinstance(op, edits.MoveDrive):
            self.driveMoved.emit(op.source, op.dest)
        elif isinstance(op, edits.AddEnclosure):
            self.enclosureDropped.emit(op.bus, op.position, op.type_id)


# ---------------------------------------------------------------- the view (and controller)

def describe_items(items: list) -> str:
    """What a screen reader says for the canvas's selection: the item itself when there is one,
    else how many and which (a RAID group's drives are many)."""
    if not items:
        return tr("Nothing selected")
    if len(items) == 1:
        return tr("Selected: {item}").format(item=items[0].accessible_text())
    refs = [it.ref for it in items]
    shown = ", ".join(refs[:6]) + (", …" if len(refs) > 6 else "")
    return tr("{n} selected: {refs}. First: {item}").format(n=len(items), refs=shown, item=items[0].accessible_text())


class LayoutView(QGraphicsView):
    """Shows a LayoutScene; zoom (Ctrl+wheel, View menu), pan (middle button or Space+drag),
    rubber-band selection; applies drops to the document as operations."""

    message = Signal(str)  # for the status bar
    contextRequested = Signal(object, object)  # global QPoint, the selected refs (the one right-clicked first)

    def __init__(self, document: Any, parent: QWidget | None = None):
        self.layout_scene = LayoutScene(document)
        super().__init__(self.layout_scene, parent)
        self.document = document
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setDragMode(QGraphicsView.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.IntersectsItemShape)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setAcceptDrops(True)
        self.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        follow_pointer(self)  # a drive's tooltip goes when the pointer leaves the drive
        # Fitting to the width must not change the width: with a scroll bar that comes and goes,
        # fit -> scroll bar toggles -> resize -> fit loops for ever. Keep it, and fit once per resize.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        self._fitting = False
        self._pan: QPointF | None = None
        self._space = False
        self._auto_fit = True
        s = self.layout_scene
        s.driveTypeDropped.connect(lambda loc, t: self._apply(edits.PlaceDrive(loc, t)))
        s.enclosureFilled.connect(lambda e, t: self._apply(
            edits.fill_enclosure(self.document.view, self.document.catalog, e, t)))
        s.driveMoved.connect(lambda a, b: self._apply(edits.MoveDrive(a, b)))
        s.enclosureDropped.connect(lambda b, p, t: self._apply(edits.AddEnclosure(b, p, t)))
        self.setAccessibleName(tr("Array layout"))
        follow_palette(self, lambda: self.layout_scene.set_theme(theme()))
        s.selectionChanged.connect(self._describe_selection)
        s.refsSelected.connect(self._describe_selection)
        self._describe_selection()
        s.dropRefused.connect(self._refused)
        s.dropRefusalCleared.connect(self._refusal_cleared)
        self._refusal_in_status = False

    @property
    def scene_(self) -> LayoutScene:
        return self.layout_scene

    def set_drive_values(self, values: dict[str, float | None] | None, failed: set[str] = frozenset()) -> None:
        self.layout_scene.set_drive_values(values, failed)

    def _apply(self, op: edits.Edit) -> None:
        self._refusal_in_status = False
        why = self.document.try_apply(op)
        self.message.emit(tr("Cannot {what}: {why}").format(what=op.text.lower(), why=why) if why else
                          f"{op.text} ({op.note})" if op.note else op.text)

    # ---------------------------------------------------------------- accessibility
    # The items of a scene are not accessible objects: the view's accessible description says
    # what is selected, or what the pointer is over, as a screen reader should read it.
    def _describe_selection(self) -> None:
        try:
            by_ref = {it.ref: it for it in self.layout_scene.selectedItems() if hasattr(it, "accessible_text")}
            items = [by_ref[r] for r in self.layout_scene.selected_refs() if r in by_ref]  # in slot order
        except RuntimeError:  # the scene is being destroyed with the window
            return
        announce(self, describe_items(items))

    def _describe_hover(self, pos) -> None:
        item = self.itemAt(pos)
        while item is not None and not hasattr(item, "accessible_text"):
            item = item.parentItem()
        if item is None:
            self._describe_selection()
        else:
            announce(self, item.accessible_text())

    def _refused(self, why: str, scene_pos: QPointF) -> None:
        # the status bar, not a tooltip: a tooltip window under the pointer swallows the drag
        # (the scene draws the reason beside the pointer itself)
        self._refusal_in_status = True
        self.message.emit(tr("Refused: {why}").format(why=why))

    def _refusal_cleared(self) -> None:
        if self._refusal_in_status:
            self._refusal_in_status = False
            self.message.emit("")

    # zoom
    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self._auto_fit and not self._fitting:
            self._fitting = True
            try:
                self.fit()
            finally:
                self._fitting = False

    def zoom(self, factor: float) -> None:
        self._auto_fit = False
        cur = self.transform().m11()
        factor = max(0.2 / cur, min(5.0 / cur, factor))
        self.scale(factor, factor)

    def fit(self) -> None:
        """Fit the layout's width to the view (text stays readable; scroll for more buses)."""
        self._auto_fit = True
        r = self.layout_scene.itemsBoundingRect().adjusted(-10, -10, 10, 10)
        vw = max(self.viewport().width() - 4, 50)
        s = max(0.55, min(vw / r.width(), 1.3))  # the viewport already excludes the scroll bar
        self.resetTransform()
        self.scale(s, s)
        self.ensureVisible(QRectF(r.left(), r.top(), 10, 10), 0, 0)

    def fit_all(self) -> None:
        """The whole layout in the view."""
        self._auto_fit = False
        r = self.layout_scene.itemsBoundingRect().adjusted(-10, -10, 10, 10)
        self.fitInView(r, Qt.KeepAspectRatio)

    def wheelEvent(self, event) -> None:  # noqa: N802
        if event.modifiers() & Qt.ControlModifier:
            self.zoom(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
            event.accept()
        else:
            super().wheelEvent(event)

    # pan
    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.OpenHandCursor)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            return
        super().keyReleaseEvent(event)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.MiddleButton or (self._space and event.button() == Qt.LeftButton):
            self._pan = event.position()
            self.viewport().setCursor(Qt.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._pan is not None:
            d = event.position() - self._pan
            self._pan = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(d.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(d.y()))
            event.accept()
            return
        if not event.buttons():
            self._describe_hover(event.position().toPoint())
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._pan is not None:
            self._pan = None
            self.viewport().unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        item = self.itemAt(event.pos())
        while item is not None and not hasattr(item, "ref"):
            item = item.parentItem()
        if item is not None and not item.isSelected() and item.flags() & QGraphicsItem.ItemIsSelectable:
            self.layout_scene.clearSelection()
            item.setSelected(True)
        refs = self.layout_scene.selected_refs()
        if item is not None and item.ref in refs:  # the menu is about what was clicked: it comes first
            refs.remove(item.ref)
            refs.insert(0, item.ref)
        self.contextRequested.emit(event.globalPos(), refs)
