"""Fonts for the PDF: a sans-serif family found on every desktop, ligatures off (so the PDF's text
reads back as typed: "finished", not "ﬁnished", for search, copy and pdftotext)."""
from __future__ import annotations

from PySide6.QtGui import QFont

FONT_FAMILIES = ["DejaVu Sans", "Segoe UI", "Helvetica Neue", "Helvetica", "Arial", "Liberation Sans", "sans-serif"]


def make_font(size_pt: float, bold: bool = False, italic: bool = False) -> QFont:
    font = QFont()
    font.setFamilies(FONT_FAMILIES)
    font.setPointSizeF(size_pt)
    font.setBold(bold)
    font.setItalic(italic)
    for tag in ("liga", "clig", "dlig"):
        try:
            font.setFeature(QFont.Tag(tag), 0)
        except (AttributeError, TypeError):  # Qt < 6.7: no OpenType feature control
            break
    return font
