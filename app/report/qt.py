"""Qt set-up for making reports without a window system (CLI, tests, benchmarks)."""
from __future__ import annotations

import os
import sys


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def ensure_gui_app(widgets: bool = False):
    """Return the running Q(Gui)Application, or start one: a QGuiApplication is enough for
    QPdfWriter, QPainter and fonts; `widgets=True` starts a QApplication (needed to build the
    GUI's canvas scene). Without a display, the offscreen platform plugin is used."""
    if not has_display():
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        argv = [sys.argv[0] if sys.argv else "arrayplanner"]
        if widgets:
            from PySide6.QtWidgets import QApplication

            app = QApplication(argv)
        else:
            app = QGuiApplication(argv)
    return app
