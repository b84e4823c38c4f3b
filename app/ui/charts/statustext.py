"""A line of text that changes often (a status, the cursor time) and never re-lays out its window.

A QLabel's setText asks its layout, the dock's and the main window's to lay out again (unless the
label's size is fixed both ways): ~1 ms on the main window, after every prediction and at every
step of the play cursor. StatusText only repaints itself; its text is elided to the width the
layout gave it.
"""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.theme import mix


class StatusText(QWidget):
    def __init__(self, text: str = "", parent: QWidget | None = None, color: str | None = None,
                 muted: bool = False):
        """`color`: a fixed colour; `muted`: a grey between the palette's text and ground (light
        or dark mode); neither: the palette's text colour."""
        super().__init__(parent)
        self._text = text
        self._color = QColor(color) if color else None
        self._muted = muted
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.setFixedHeight(self.fontMetrics().height() + 4)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:  # noqa: N802 (QLabel's name)
        if text != self._text:
            self._text = text
            self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.fontMetrics().horizontalAdvance(self._text) + 4, self.height())

    def paintEvent(self, _event) -> None:  # noqa: N802
        p = QPainter(self)
        pal = self.palette()
        if self._color is not None:
            p.setPen(self._color)
        elif self._muted:
            p.setPen(mix(pal.window().color(), pal.windowText().color(), 0.7))
        else:
            p.setPen(pal.windowText().color())
        rect = self.rect().adjusted(2, 0, -2, 0)
        p.drawText(rect, Qt.AlignLeft | Qt.AlignVCenter, self.fontMetrics().elidedText(self._text, Qt.ElideRight, rect.width()))
