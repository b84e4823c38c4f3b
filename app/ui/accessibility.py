"""Accessible names and descriptions: what a screen reader (Narrator, VoiceOver, Orca) says for
a widget, kept next to the code that builds it.

    accessible(widget, "Storage tree", "RAID groups and their LUNs; select one to edit it")
    label_for(QLabel(tr("Response-time target")), spin_box)   # buddy: the label names the field
    announce(widget, "Selected: RG 0")                     # the description, and tell the reader

Items of a QGraphicsScene (the layout canvas, the timeline) are not accessible objects by
themselves: their views describe the selected or hovered item instead (LayoutView), and the
storage tree lists the same objects as accessible rows.
"""
from __future__ import annotations

import html
import re

from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import QAbstractSpinBox, QLabel, QWidget

_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<br\s*/?>|</p>|</tr>|</li>", re.IGNORECASE)


def accessible(widget: QWidget, text: str, description: str = "") -> QWidget:
    """Give `widget` an accessible name (and description); returns it, for chaining."""
    widget.setAccessibleName(text)
    if description:
        widget.setAccessibleDescription(description)
    return widget


def label_for(label: QLabel, field: QWidget, accessible_name: str | None = None) -> QLabel:
    """Make `label` the visible name of `field`: its buddy (Alt+mnemonic moves there, and Qt's
    accessibility reads the label for the field) and the field's accessible name."""
    label.setBuddy(field)
    if not field.accessibleName():
        field.setAccessibleName(accessible_name or plain_text(label.text()).rstrip(":").replace("&", ""))
    if isinstance(field, QAbstractSpinBox):  # its line edit takes the focus: it needs the name too
        field.lineEdit().setAccessibleName(field.accessibleName())
    return label


def plain_text(rich: str) -> str:
    """A tooltip's rich text as one line of plain text ('<b>Drive 0_0_1</b><br>73 GB' ->
    'Drive 0_0_1, 73 GB'), for an accessible description."""
    text = _BREAK.sub(", ", rich or "")
    text = html.unescape(_TAG.sub("", text))
    parts = [p.strip() for p in text.replace("\n", ", ").split(", ")]
    return ", ".join(p for p in parts if p)


def announce(widget: QWidget, description: str) -> None:
    """Set `widget`'s accessible description and tell an assistive tool it changed (only when it
    did: the canvas calls this on every hover move)."""
    if widget.accessibleDescription() == description:
        return
    widget.setAccessibleDescription(description)
    if QAccessible.isActive():
        QAccessible.updateAccessibility(QAccessibleEvent(widget, QAccessible.Event.DescriptionChanged))
