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


class StatusText(QWidget):
    def __init__(self, text: str = "", parent: QWidget | None = None, color: str | None = None):
        super().__init__(parent)
        self._text = text
        self._color = QColor(color) if color else None
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
        p.setPen(self._color if self._color is not None else self.palette().windowText().color())
        rect = self.rect().adjusted(2, 0, -2, 0)
        p.drawText(rect, Qt.AlignLeft | Qt.AlignVCenter, self.fontMetrics().elidedText(self._text, Qt.ElideRight, rect.width()))
