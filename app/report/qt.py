"""Qt set-up for making reports without a window system (CLI, tests, benchmarks)."""
from __future__ import annotations

import os
import sys


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def ensure_gui_app():
    """Return the running Q(Gui)Application, or start a QGuiApplication (enough for QPdfWriter,
    QPainter and fonts). Without a display, the offscreen platform plugin is used."""
    if not has_display():
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        app = QGuiApplication([sys.argv[0] if sys.argv else "arrayplanner"])
    return app
