"""The layout diagram in the PDF, as vectors.

Two sources:
* the GUI's canvas: `picture_from_scene(scene)` records a QGraphicsScene into a QPicture (on the
  GUI thread; a QPicture can then be played back into the PDF from a worker thread);
* the built-in drawing below (`LayoutPainter`), from the project alone, used headless and when no
  canvas is at hand: controllers, each back-end bus with its enclosures, every slot coloured by
  RAID group ("HS" for hot spares), drawn for print.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPen, QPicture

from app.domain.formatting import format_capacity
from app.domain.hardware import Catalog, group_title
from app.domain.project import Project

from .content import Diagram
from .fonts import make_font

GROUP_COLORS = ["#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5",
                "#bc80bd", "#ccebc5", "#ffed6f", "#a6cee3", "#b2df8a", "#fb9a99", "#cab2d6", "#e0c080"]

CTRL_H = 26.0
BUS_GAP = 10.0
ROW_H = 21.0
LABEL_W = 96.0
LEGEND_ROW_H = 12.0


def picture_from_scene(scene, source: QRectF | None = None) -> tuple[QPicture, QRectF]:
    """Record `scene` (a QGraphicsScene) as vector drawing commands. Call on the GUI thread."""
    rect = QRectF(source) if source is not None else scene.itemsBoundingRect().adjusted(-4, -4, 4, 4)
    pic = QPicture()
    hidden = [it for it in getattr(scene, "placeholders", []) if it.isVisible()]  # GUI drop targets
    for it in hidden:
        it.setVisible(False)
    # items cached for smooth scrolling would be painted from their pixmaps: record vectors instead
    from PySide6.QtWidgets import QGraphicsItem

    cached = [(it, it.cacheMode()) for it in scene.items() if it.cacheMode() != QGraphicsItem.NoCache]
    for it, _mode in cached:
        it.setCacheMode(QGraphicsItem.NoCache)
    p = QPainter(pic)
    scene.render(p, QRectF(0, 0, rect.width(), rect.height()), rect)
    p.end()
    for it, mode in cached:
        it.setCacheMode(mode)
    for it in hidden:
        it.setVisible(True)
    return pic, QRectF(0, 0, rect.width(), rect.height())


def pictures_from_scene(scene, max_height: float = 1000.0) -> list[tuple[QPicture, QRectF]]:
    """Record `scene` in parts a page can hold: the title and controllers with the first bus
    lanes, then more lanes, the legend with the last part. Each part is at most `max_height` scene
    units tall unless one lane alone is taller. A scene without `lanes` is recorded whole."""
    full = scene.itemsBoundingRect().adjusted(-4, -4, 4, 4)
    lanes = sorted((lane.sceneBoundingRect() for lane in getattr(scene, "lanes", {}).values()),
                   key=lambda r: r.top())
    if not lanes or full.height() <= max_height:
        return [picture_from_scene(scene, full)]
    cuts = [full.top()]  # part boundaries, between lanes
    top = full.top()
    for k, lane in enumerate(lanes):
        bottom = full.bottom() if k == len(lanes) - 1 else lane.bottom() + 2
        if bottom - top > max_height and lane.top() - 2 > top + 1:
            cuts.append(lane.top() - 2)
            top = lane.top() - 2
    cuts.append(full.bottom())
    return [picture_from_scene(scene, QRectF(full.left(), a, full.width(), b - a)) for a, b in zip(cuts, cuts[1:])]


def draw_picture(p: QPainter, pic: QPicture, bounds: QRectF, target: QRectF) -> None:
    """Play `pic` back scaled to fit `target` (aspect kept, top-left aligned, centred horizontally)."""
    if bounds.width() <= 0 or bounds.height() <= 0:
        return
    s = min(target.width() / bounds.width(), target.height() / bounds.height())
    # QPicture playback scales its coordinates by (device dpi / picture dpi); undo that
    dev = p.device()
    k = pic.logicalDpiX() / dev.logicalDpiX() if dev is not None and dev.logicalDpiX() else 1.0
    p.save()
    p.translate(target.left() + (target.width() - bounds.width() * s) / 2, target.top())
    p.scale(s * k, s * k)
    p.translate(-bounds.left(), -bounds.top())
    p.drawPicture(QPointF(0, 0), pic)
    p.restore()


class LayoutPainter:
    def __init__(self, project: Project, catalog: Catalog, device, u: float, font_family: list[str]):
        self.project = project
        self.catalog = catalog
        self.u = u
        self.font = make_font(7.0)
        self.small = make_font(5.5)
        self.bold = make_font(7.0, bold=True)
        self.fm = QFontMetricsF(self.font, device)
        self.fm_small = QFontMetricsF(self.small, device)
        self.group_index = {g.id: i for i, g in enumerate(sorted(project.groups, key=lambda g: g.id))}
        platform = catalog.platforms.get(project.platform_id)
        self.platform = platform
        self.slots = {}
        for e in project.enclosures:
            et = platform.enclosure_types.get(e.type_id) if platform else None
            self.slots[e.id] = et.slots if et else 15
        self.max_slots = max(self.slots.values(), default=15)
        self.types_by_enc: dict[str, set[str]] = {}
        for loc, drive in project.drives.items():
            self.types_by_enc.setdefault(loc.rsplit("_", 1)[0], set()).add(drive.type_id)
        self.group_of = {}
        for g in project.groups:
            for loc in g.drives:
                self.group_of[loc] = g

    def color(self, gid: int) -> QColor:
        return QColor(GROUP_COLORS[self.group_index.get(gid, 0) % len(GROUP_COLORS)])

    def enclosures(self, bus: int):
        return sorted((e for e in self.project.enclosures if e.bus == bus), key=lambda e: e.position)

    def legend_items(self) -> list[tuple[int, str]]:
        items = []
        for g in sorted(self.project.groups, key=lambda g: g.id):
            items.append((g.id, f"{group_title(self.platform, g.id, g.name)}: {g.math.label}"))
        return items

    def legend_rows(self, width_pt: float) -> list[list[tuple[int, str, float]]]:
        rows: list[list[tuple[int, str, float]]] = [[]]
        x = 0.0
        for gid, label in self.legend_items():
            w = 14 + self.fm.horizontalAdvance(label) / self.u + 12
            if rows[-1] and x + w > width_pt:
                rows.append([])
                x = 0.0
            rows[-1].append((gid, label, x))
            x += w
        return rows if rows[0] else []

    def height_pt(self, d: Diagram, width_pt: float) -> float:
        h = CTRL_H + 8
        for b in d.buses:
            h += BUS_GAP + ROW_H * max(1, len(self.enclosures(b)))
        if d.legend and len(self.project.groups) <= 48:
            h += 8 + LEGEND_ROW_H * len(self.legend_rows(width_pt))
        return h + 4

    def draw(self, p: QPainter, d: Diagram, x_pt: float, y_pt: float, width_pt: float) -> None:
        u = self.u
        p.save()
        p.setRenderHint(QPainter.Antialiasing, True)
        line = QPen(QColor("#444444"))
        line.setWidthF(0.6 * u)
        thin = QPen(QColor("#999999"))
        thin.setWidthF(0.4 * u)
        text = QPen(QColor("#222222"))
        # controllers
        ctrls = self.platform.controller_names() if self.platform else ["Controller"]
        cw = min(120.0, (width_pt - LABEL_W) / max(len(ctrls), 1) - 8)
        p.setFont(self.bold)
        for i, name in enumerate(ctrls):
            r = QRectF((x_pt + LABEL_W + i * (cw + 8)) * u, y_pt * u, cw * u, (CTRL_H - 6) * u)
            p.setPen(line)
            p.setBrush(QColor("#e8eef6"))
            p.drawRoundedRect(r, 2 * u, 2 * u)
            p.setPen(text)
            p.drawText(r, Qt.AlignCenter, name)
        y = y_pt + CTRL_H + 8
        slot_w = (width_pt - LABEL_W) / self.max_slots
        bus_x = x_pt + 40
        for b in d.buses:
            y += BUS_GAP
            encs = self.enclosures(b)
            top = y
            p.setFont(self.bold)
            p.setPen(text)
            p.drawText(QPointF(x_pt * u, (y + ROW_H / 2 + 3) * u), f"Bus {b}")
            for e in encs:
                p.setFont(self.font)
                p.setPen(text)
                p.drawText(QPointF((bus_x + 8) * u, (y + 9) * u), f"Encl {e.id}")
                tags = sorted({_short_type(self.catalog.drives[t]) for t in self.types_by_enc.get(e.id, ())
                               if t in self.catalog.drives})
                if tags:
                    p.setFont(self.small)
                    p.setPen(QColor("#555555"))
                    tag = tags[0] if len(tags) == 1 else "mixed drives"
                    p.drawText(QPointF((bus_x + 8) * u, (y + 17) * u), tag)
                p.setPen(line)
                p.drawLine(QPointF(bus_x * u, (y + ROW_H / 2) * u), QPointF((bus_x + 6) * u, (y + ROW_H / 2) * u))
                for s in range(self.slots.get(e.id, 15)):
                    loc = f"{e.id}_{s}"
                    r = QRectF((x_pt + LABEL_W + s * slot_w + 0.8) * u, (y + 1.5) * u,
                               (slot_w - 1.6) * u, (ROW_H - 3) * u)
                    drive = self.project.drives.get(loc)
                    label = ""
                    if drive is None:
                        p.setPen(thin)
                        p.setBrush(Qt.NoBrush)
                    elif drive.hot_spare:
                        p.setPen(line)
                        p.setBrush(QBrush(QColor("#ffffff")))
                        label = "HS"
                    else:
                        g = self.group_of.get(loc)
                        p.setPen(line)
                        p.setBrush(self.color(g.id) if g else QColor("#eeeeee"))
                        label = str(g.id) if g else "\u2013"
                    p.drawRect(r)
                    if drive is not None:
                        p.setPen(text)
                        p.setFont(self.font)
                        p.drawText(r, Qt.AlignCenter, label)
                y += ROW_H
            if not encs:
                y += ROW_H
            p.setPen(line)
            p.drawLine(QPointF(bus_x * u, (top + 2) * u), QPointF(bus_x * u, (y - 2) * u))
        if d.legend and len(self.project.groups) <= 48:
            y += 8
            p.setFont(self.font)
            for row in self.legend_rows(width_pt):
                for gid, label, lx in row:
                    r = QRectF((x_pt + lx) * u, (y + 2) * u, 10 * u, 8 * u)
                    p.setPen(line)
                    p.setBrush(self.color(gid))
                    p.drawRect(r)
                    p.setPen(text)
                    p.drawText(QPointF((x_pt + lx + 14) * u, (y + 9) * u), label)
                y += LEGEND_ROW_H
        p.restore()


def _short_type(dt) -> str:
    """'15k 146' style tag under the RAID group number in a slot."""
    cap = dt.capacity_gb
    cap_text = format_capacity(cap)
    if dt.rpm:
        return f"{dt.rpm / 1000:g}k {dt.interface.value} {cap_text}"
    return f"SSD {cap_text}"
