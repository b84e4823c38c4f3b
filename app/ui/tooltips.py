"""Tooltips of graphics items that go when the pointer leaves the item.

Qt shows a QGraphicsItem's tooltip with no area to keep it in: it stayed up while the pointer
moved on over the view's empty ground or other items, until a timeout. A view passed to
`follow_pointer` hides the shown tooltip as soon as the pointer is over something whose tooltip
is another (or none), and when it leaves the view."""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QGraphicsView, QToolTip


def tooltip_at(view: QGraphicsView, pos) -> str:
    """The tooltip Qt would show at viewport position `pos`: the topmost item's with one."""
    for item in view.items(pos):
        while item is not None:
            text = item.toolTip()
            if text:
                return text
            item = item.parentItem()
    return ""


class _HideOnLeave(QObject):
    def __init__(self, view: QGraphicsView):
        super().__init__(view)
        self.view = view

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        kind = event.type()
        if kind == QEvent.Leave:
            if QToolTip.isVisible():
                QToolTip.hideText()
        elif kind == QEvent.MouseMove and QToolTip.isVisible():
            if QToolTip.text() != tooltip_at(self.view, event.position().toPoint()):
                QToolTip.hideText()
        return False  # the view handles the event as before


def follow_pointer(view: QGraphicsView) -> QGraphicsView:
    """Tooltips shown in `view` close when the pointer leaves their item (or the view)."""
    view.viewport().setMouseTracking(True)
    view.viewport().installEventFilter(_HideOnLeave(view))
    return view
