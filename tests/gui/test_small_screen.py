"""A 1024 x 600 screen (a presales laptop on a projector, issue 23): the main window and each
dialog a new user meets (app/ui/new_user_dialogs.py) fit inside the screen's available area, so
OK / Cancel / Close stay reachable. The screen is patched, not the offscreen platform's own."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QRect  # noqa: E402
from PySide6.QtGui import QScreen  # noqa: E402
from PySide6.QtWidgets import QAbstractButton, QApplication  # noqa: E402

try:
    from configurator_support import isolated  # noqa: F401 - a fixture
    from test_live_support import FakeEngine, catalog, small_project
except ImportError:
    from tests.gui.configurator_support import isolated  # noqa: F401
    from tests.gui.test_live_support import FakeEngine, catalog, small_project

pytestmark = pytest.mark.gui

SCREEN = (1024, 600)


@pytest.fixture
def small_window(qtbot, monkeypatch, isolated):  # noqa: F811 - the fixture
    from app.ui.document import Document
    from app.ui.main_window import MainWindow

    monkeypatch.setattr(QScreen, "availableGeometry", lambda self: QRect(0, 0, *SCREEN))
    window = MainWindow(Document(small_project(catalog()), catalog()),
                        plugins=("app.ui.timeline", "app.ui.sizing", "app.ui.report_dialog"))
    window.files.maybe_save = lambda: True
    qtbot.addWidget(window)
    window.plugins["app.ui.timeline"].live.simulate = FakeEngine()
    window.show()
    qtbot.wait(50)
    return window


def test_the_main_window_fits(small_window):
    hint = small_window.minimumSizeHint()
    assert hint.width() <= SCREEN[0] and hint.height() <= SCREEN[1], hint
    assert small_window.width() <= SCREEN[0] and small_window.height() <= SCREEN[1]


@pytest.mark.parametrize("name", ["new-project", "create-group", "add-lun", "add-drive-failure",
                                  "add-lun-migration", "plan-length", "goal-seek", "sweep", "report",
                                  "import-measured", "calibrate"])
def test_each_dialog_fits_with_its_buttons_on_the_screen(small_window, qtbot, name):
    from app.ui.new_user_dialogs import open_dialog

    dialog = open_dialog(small_window, name)
    qtbot.addWidget(dialog)
    qtbot.wait(20)
    QApplication.processEvents()
    hint = dialog.minimumSizeHint()
    assert hint.width() <= SCREEN[0] and hint.height() <= SCREEN[1] - 48, (name, hint)
    assert dialog.width() <= SCREEN[0] and dialog.height() <= SCREEN[1] - 48, (name, dialog.size())
    for button in dialog.findChildren(QAbstractButton):
        if button.isVisible():
            bottom = button.mapTo(dialog, button.rect().bottomRight())
            assert bottom.y() <= dialog.height() and bottom.x() <= dialog.width(), (name, button.text())
    dialog.reject()
