"""Colours from the application's palette, so the canvas, the charts, the timeline and the
status colours follow the system's light or dark mode (Windows 11, macOS, a dark Linux theme)
instead of assuming white.

    ink = theme()                    # the current QApplication palette, as named colours
    ink.background, ink.text, ink.muted, ink.error ...
    ink.shade(0.1)                   # 10% of the way from the background to the text
    readable(QColor("#393b79"), ink.background)   # a series colour lightened on a dark plot
    follow_palette(widget, callback)              # callback() after the palette changes

A printed report is on white paper whatever the screen shows: it uses paper().
`ARRAYPLANNER_COLOR_SCHEME=dark` (or `light`) forces one (Fusion style and dark_palette()) where
the system offers none, e.g. for screenshots (app.ui.screenshot --dark).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QWidget


def _luminance(c: QColor) -> float:
    """WCAG relative luminance, 0 (black) .. 1 (white)."""
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours, 1 .. 21 (text wants 4.5, a line or a curve 3)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: QColor, b: QColor, t: float) -> QColor:
    """`t` of the way from `a` to `b` (0: a, 1: b)."""
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t, a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t, a.alphaF() + (b.alphaF() - a.alphaF()) * t)


def readable(color: QColor, background: QColor, min_contrast: float = 3.0) -> QColor:
    """`color`, or (when it is too close to `background`) the nearest lighter or darker shade of
    its hue that stands out: the charts' dark navy and maroon curves on a dark plot."""
    if contrast(color, background) >= min_contrast:
        return QColor(color)
    toward = QColor("white") if _luminance(background) < 0.4 else QColor("black")
    for step in range(1, 11):
        c = mix(color, toward, step / 10)
        if contrast(c, background) >= min_contrast:
            return c
    return toward


# the P10-P90 band under a chart curve: its colour this opaque (a dark ground shows a
# translucent colour fainter, so it gets more)
BAND_ALPHA = {False: 0.22, True: 0.30}


def band_color(curve: QColor, ink: "Theme") -> QColor:
    """The fill of an uncertainty band under a curve drawn in `curve`: the same hue, see-through,
    so the curve and the grid stay visible through it and overlapping bands still read."""
    c = QColor(curve)
    c.setAlphaF(BAND_ALPHA[ink.dark])
    return c


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.Base).lightnessF() < 0.5


@dataclass(frozen=True)
class Theme:
    """Named colours for what the app draws itself (canvas, plots, status texts)."""

    dark: bool
    background: QColor   # the canvas's and the plots' ground (the palette's Base)
    text: QColor         # text and outlines on it
    muted: QColor        # secondary text: notes, units, placeholders
    highlight: QColor    # the selection's outline
    error: QColor
    warning: QColor
    info: QColor
    ok: QColor
    stale: QColor        # a result no longer current, greyed

    def shade(self, t: float) -> QColor:
        """`t` of the way from the background to the text: 0.03 a faint band, 0.6 a frame."""
        return mix(self.background, self.text, t)

    def banner_style(self) -> str:
        """The 'last good prediction' banner: a yellow note that reads on either ground."""
        if self.dark:
            return "background: #4a3b00; color: #ffe08a; border: 1px solid #8a6d00; padding: 3px;"
        return "background: #fff3cd; color: #5c4400; border: 1px solid #e0c060; padding: 3px;"

    def good_row(self) -> QColor:
        """The background of a recommended table row (the Priority advisor's)."""
        return mix(self.background, self.ok, 0.22)


# status colours per ground: the light ones as before; on a dark ground lighter shades of the
# same hues (the light ones there fall under a 3:1 contrast)
_STATUS = {
    False: dict(error="#c62828", warning="#b26a00", info="#1565c0", ok="#1e8449", highlight="#1565c0"),
    True: dict(error="#ef6f6c", warning="#f0b041", info="#64b5f6", ok="#66bb6a", highlight="#64b5f6"),
}


def theme(palette: QPalette | None = None) -> Theme:
    """The colours of `palette` (default: the application's, which follows the system)."""
    if palette is None:
        app = QApplication.instance()
        palette = app.palette() if app is not None else QPalette()
    dark = is_dark(palette)
    background, text = palette.color(QPalette.Base), palette.color(QPalette.Text)
    status = {k: QColor(v) for k, v in _STATUS[dark].items()}
    return Theme(dark=dark, background=background, text=text, muted=mix(background, text, 0.62),
                 stale=mix(background, text, 0.45), **status)


def light_palette() -> QPalette:
    """A plain light palette (white ground, black text) whatever the system's."""
    p = QPalette(QColor("#efefef"))
    for role, color in ((QPalette.Base, "#ffffff"), (QPalette.Text, "#000000"), (QPalette.WindowText, "#000000"),
                        (QPalette.AlternateBase, "#f7f7f7")):
        p.setColor(role, QColor(color))
    return p


def paper() -> Theme:
    """The light theme a printed page has (the PDF report's layout drawing)."""
    return theme(light_palette())


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style, as Windows 11's and macOS's dark modes look."""
    p = QPalette()
    roles = {
        QPalette.Window: "#2b2b2b", QPalette.WindowText: "#e6e6e6", QPalette.Base: "#1e1e1e",
        QPalette.AlternateBase: "#262626", QPalette.ToolTipBase: "#3a3a3a", QPalette.ToolTipText: "#f0f0f0",
        QPalette.Text: "#e6e6e6", QPalette.Button: "#353535", QPalette.ButtonText: "#e6e6e6",
        QPalette.BrightText: "#ff6b6b", QPalette.Link: "#64b5f6", QPalette.Highlight: "#2f6ea8",
        QPalette.HighlightedText: "#ffffff", QPalette.PlaceholderText: "#9a9a9a",
        QPalette.Light: "#4a4a4a", QPalette.Midlight: "#3c3c3c", QPalette.Mid: "#2f2f2f",
        QPalette.Dark: "#1a1a1a", QPalette.Shadow: "#000000",
    }
    for role, color in roles.items():
        p.setColor(role, QColor(color))
    for role, color in ((QPalette.WindowText, "#7a7a7a"), (QPalette.Text, "#7a7a7a"),
                        (QPalette.ButtonText, "#7a7a7a")):
        p.setColor(QPalette.Disabled, role, QColor(color))
    return p


def apply_forced_scheme(app: QApplication) -> None:
    """ARRAYPLANNER_COLOR_SCHEME=dark|light: the Fusion style with that palette (for systems
    without a dark mode Qt follows, and for screenshots); unset, the system decides."""
    scheme = os.environ.get("ARRAYPLANNER_COLOR_SCHEME", "").strip().lower()
    if scheme in ("dark", "light"):
        app.setStyle("Fusion")
        app.setPalette(dark_palette() if scheme == "dark" else light_palette())


def style_plot(plot, ink: Theme) -> None:
    """A pyqtgraph PlotItem's axes and title in `ink`'s colours (pyqtgraph's own default is a
    grey meant for a black ground)."""
    for name in ("left", "bottom", "right", "top"):
        axis = plot.getAxis(name)
        axis.setPen(ink.shade(0.55))
        axis.setTextPen(ink.muted)
    title = plot.titleLabel
    title.opts["color"] = ink.muted
    if title.text:
        title.setText(title.text)


class _PaletteFollower(QObject):
    _EVENTS = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange, QEvent.Type.StyleChange)

    def __init__(self, widget: QWidget, callback: Callable[[], None]):
        super().__init__(widget)
        self._callback = callback
        self._last: int | None = None  # the colours last applied: one change sends several events

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() in self._EVENTS:
            key = obj.palette().cacheKey()
            if key != self._last:
                self._last = key
                self._callback()
        return False


def follow_palette(widget: QWidget, callback: Callable[[], None]) -> None:
    """Call `callback()` whenever `widget`'s palette changes (the system switched between light
    and dark, or the application set a palette). Qt sends the widget the events itself."""
    follower = _PaletteFollower(widget, callback)
    follower._last = widget.palette().cacheKey()
    widget.installEventFilter(follower)
