"""Tab and Shift+Tab leave the item views of the docks (Messages, comparison, advisor, trees):
a QTableView's Tab moves from cell to cell by default, so the keyboard could never leave it."""
from __future__ import annotations

from configurator_support import EXAMPLES, isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QHeaderView

from app.store.project_file import load_project

pytestmark = pytest.mark.gui


def _window(qtbot):
    w = make_window(qtbot, load_project(EXAMPLES / "emc-cx4-960-oltp.json"))
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=5000)
    settle(qtbot, 100)
    return w


def test_no_dock_view_keeps_tab_for_itself(qtbot, isolated):
    from test_live_support import catalog, small_project, timeline_window

    w, _doc, parts = timeline_window(qtbot, small_project(catalog()))
    views = [v for v in w.findChildren(QAbstractItemView) if not isinstance(v, QHeaderView)]
    assert {w.messages, w.storage, parts.compare.table, parts.advisor.table, parts.charts.readout} <= set(views)
    trapping = [type(v).__name__ for v in views if v.tabKeyNavigation()]
    assert not trapping, trapping


@pytest.mark.parametrize("key", [Qt.Key_Tab, Qt.Key_Backtab])
def test_tab_leaves_the_messages(qtbot, isolated, key):
    w = _window(qtbot)
    w.messages.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is w.messages, timeout=3000)
    assert w.messages.model().rowCount() > 0  # cells to move between
    QTest.keyClick(w.messages, key)
    settle(qtbot)
    assert QApplication.focusWidget() is not w.messages
