"""Small screens (1024 x 600, a presales laptop on a projector): a dialog no larger than the
screen's free area, and a tall form or panel in a scroll area so its minimum height stays small
(the buttons under it stay on the screen)."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QWidget

# what a window manager adds around a dialog (title bar, borders), kept free on the screen
FRAME_ROOM = QSize(16, 48)


def screen_room(widget: QWidget) -> QSize | None:
    """The largest size `widget` can have with its frame inside the screen's available area."""
    screen = widget.screen()
    if screen is None:
        return None
    avail = screen.availableGeometry()
    return QSize(max(200, avail.width() - FRAME_ROOM.width()), max(200, avail.height() - FRAME_ROOM.height()))


def fit_to_screen(dialog: QWidget, wanted: tuple[int, int] | None = None) -> None:
    """Resize `dialog` to `wanted` (else its size hint), no larger than the screen allows."""
    w, h = wanted if wanted is not None else (dialog.sizeHint().width(), dialog.sizeHint().height())
    room = screen_room(dialog)
    if room is not None:
        w, h = min(w, room.width()), min(h, room.height())
    dialog.resize(w, h)


def scrolled(widget: QWidget, name: str = "") -> QScrollArea:
    """`widget` in a frameless scroll area: shown whole when there is room, scrolled vertically
    when not (its minimum height no longer counts towards the window's)."""
    area = QScrollArea()
    area.setObjectName(name or f"{widget.objectName() or 'form'}_scroll")
    area.setFrameShape(QFrame.NoFrame)
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarAsNeeded)
    area.setWidget(widget)
    return area


class ElidedLabel(QLabel):
    """A one-line label that gives up width on a narrow window: drawn with the middle of its text
    elided (the start and the end stay readable), the whole text in text() and its tooltip."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(text, parent)
        self.setMinimumWidth(120)

    def setText(self, text: str) -> None:  # noqa: N802 - QLabel's name
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.minimumWidth(), super().minimumSizeHint().height())

    def paintEvent(self, _event) -> None:  # noqa: N802
        painter = QPainter(self)
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.ElideMiddle, rect.width())
        painter.drawText(rect, int(self.alignment()), shown)
