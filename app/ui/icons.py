"""Small toolbar icons drawn with QPainter (no image files to ship), in the palette's button-text
colour: the main window draws them again when the palette changes (light <-> dark)."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication

INK = QColor("#2f3b4c")  # on a light toolbar: a softer black


def ink() -> QColor:
    """The icons' colour: INK on a light toolbar, the palette's button text on a dark one."""
    app = QApplication.instance()
    text = app.palette().color(QPalette.ButtonText) if app is not None else INK
    return text if text.lightnessF() > 0.5 else INK


def _canvas(size: int = 32) -> tuple[QPixmap, QPainter]:
    pm = QPixmap(size, size)
    pm.fill(Qt.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(ink(), 2.4, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
    return pm, p


def magnifier(sign: str) -> QIcon:
    pm, p = _canvas()
    p.drawEllipse(QRectF(4, 4, 18, 18))
    p.drawLine(QPointF(19.5, 19.5), QPointF(28, 28))
    p.drawLine(QPointF(8.5, 13), QPointF(17.5, 13))
    if sign == "+":
        p.drawLine(QPointF(13, 8.5), QPointF(13, 17.5))
    p.end()
    return QIcon(pm)


def fit() -> QIcon:
    pm, p = _canvas()
    for x, y, dx, dy in ((4, 4, 1, 1), (28, 4, -1, 1), (4, 28, 1, -1), (28, 28, -1, -1)):
        p.drawLine(QPointF(x, y), QPointF(x + 7 * dx, y))
        p.drawLine(QPointF(x, y), QPointF(x, y + 7 * dy))
    p.drawRect(QRectF(11, 11, 10, 10))
    p.end()
    return QIcon(pm)


def arrow(direction: str) -> QIcon:
    """Undo (curving back to the left) or redo (to the right)."""
    pm, p = _canvas()
    if direction == "redo":
        p.translate(32, 0)
        p.scale(-1, 1)
    path = QPainterPath(QPointF(26, 24))
    path.cubicTo(QPointF(26, 12), QPointF(18, 9), QPointF(8, 12))
    p.drawPath(path)
    p.drawLine(QPointF(8, 12), QPointF(14, 6))
    p.drawLine(QPointF(8, 12), QPointF(14, 17))
    p.end()
    return QIcon(pm)


def document(kind: str) -> QIcon:
    """new (a page with a plus), open (a folder), save (a disk)."""
    pm, p = _canvas()
    if kind == "new":
        p.drawPolygon([QPointF(7, 3), QPointF(20, 3), QPointF(26, 9), QPointF(26, 29), QPointF(7, 29)])
        p.drawLine(QPointF(20, 3), QPointF(20, 9))
        p.drawLine(QPointF(20, 9), QPointF(26, 9))
        p.drawLine(QPointF(12, 19), QPointF(21, 19))
        p.drawLine(QPointF(16.5, 14.5), QPointF(16.5, 23.5))
    elif kind == "open":
        p.drawPolygon([QPointF(3, 8), QPointF(11, 8), QPointF(14, 11), QPointF(26, 11), QPointF(26, 26), QPointF(3, 26)])
        p.drawLine(QPointF(3, 16), QPointF(26, 16))
    else:
        p.drawRoundedRect(QRectF(4, 4, 24, 24), 2, 2)
        p.drawRect(QRectF(10, 4, 12, 8))
        p.drawRect(QRectF(9, 18, 14, 10))
    p.end()
    return QIcon(pm)
