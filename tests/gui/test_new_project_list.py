"""Issue 23: File > New lists the examples by their titles, not file-name slugs, and no entry is
cut off."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QRect, Qt  # noqa: E402
from PySide6.QtGui import QScreen  # noqa: E402

from app.store.presets import default_catalog  # noqa: E402
from app.ui.new_dialog import NewProjectDialog  # noqa: E402

pytestmark = pytest.mark.gui


def test_examples_by_title_and_nothing_elided(qtbot, monkeypatch):
    monkeypatch.setattr(QScreen, "availableGeometry", lambda self: QRect(0, 0, 1366, 768))
    dialog = NewProjectDialog(default_catalog())
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    items = [dialog.list.item(i) for i in range(dialog.list.count())]
    examples = [it for it in items if it.data(Qt.UserRole)[0] == "example"]
    texts = [it.text() for it in examples]
    assert "Example: CX4-960: ASAP migration under an OLTP load" in texts
    assert not any("emc-cx4-960-oltp" in t for t in texts)  # the slug is the tooltip only
    assert "FLARE release" not in " ".join(it.text() for it in items)  # firmware: the tooltip
    fm = dialog.list.fontMetrics()
    room = dialog.list.viewport().width()
    assert all(fm.horizontalAdvance(it.text()) + 8 <= room for it in items), room
    assert dialog.list.textElideMode() == Qt.ElideNone
