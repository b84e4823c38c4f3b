"""Helpers for the configurator's GUI tests: an isolated window, synthetic drag and drop."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, QStandardPaths, Qt  # noqa: E402
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.domain.project import Project  # noqa: E402
from app.store.presets import default_catalog  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "presets" / "examples"


def config_dict(project: Project) -> dict:
    """The configuration part of a project as data (what the configurator edits)."""
    from app.store.project_json import project_to_dict
    d = project_to_dict(project)
    keys = ("platform_id", "enclosures", "drives", "groups", "luns", "cache", "features", "workloads")
    return {k: d[k] for k in keys}


@pytest.fixture
def isolated(tmp_path, monkeypatch, qapp):
    """QSettings, recovery folder and app names confined to tmp_path."""
    from app.ui import recovery
    from app.ui.launch import make_app

    make_app()
    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.NativeFormat, QSettings.IniFormat):
        QSettings.setPath(fmt, QSettings.UserScope, str(tmp_path / "settings"))
    rec = tmp_path / "recovery"
    rec.mkdir()
    monkeypatch.setattr(recovery, "recovery_dir", lambda: rec)
    QSettings().clear()
    return tmp_path


def make_window(qtbot, project: Project | None = None, path=None):
    from app.ui.document import Document
    from app.ui.main_window import MainWindow

    catalog = default_catalog()
    if project is None:
        from app.ui.sample import sample_project
        project = sample_project(catalog)
    doc = Document(project, catalog, path)
    w = MainWindow(doc, plugins=())
    qtbot.addWidget(w, before_close_func=_forget_changes)
    w.resize(1600, 1000)
    w.show()
    qtbot.waitExposed(w)
    return w


def _forget_changes(w) -> None:
    """Teardown closes the window: no unsaved-changes prompt, no recovery file left behind."""
    w.document.mark_saved()
    w.files.discard_recovery()


def simulate_crash(w) -> None:
    """As if w's process died: its recovery files stay and their lock is free (as a dead holder's
    is); the window goes on as a new session, so its teardown deletes none of those files."""
    import uuid

    from app.ui import recovery

    s = w.files.recovery
    if s.lock is not None:
        s.lock.unlock()
        s.lock = None
    recovery._OWN_SESSIONS.discard(s.session)
    s.session = f"after-crash-{uuid.uuid4().hex[:8]}"


def settle(qtbot, ms: int = 0) -> None:
    """Let deferred refreshes (QTimer 0) run."""
    QApplication.processEvents()
    qtbot.wait(ms or 1)


def view_point(view, scene_pt: QPointF) -> QPoint:
    view.ensureVisible(scene_pt.x() - 5, scene_pt.y() - 5, 10, 10, 20, 20)
    QApplication.processEvents()
    return view.mapFromScene(scene_pt)


def drag_drop(view, mime: QMimeData, scene_pt: QPointF) -> bool:
    """A synthetic drag-enter, drag-move, drop at `scene_pt` on the view's viewport. Returns whether
    the last move was accepted with a real action (what the user sees as 'can drop here')."""
    vp = view.viewport()
    pos = view_point(view, scene_pt)
    actions = Qt.CopyAction | Qt.MoveAction
    enter = QDragEnterEvent(pos, actions, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(vp, enter)
    move = QDragMoveEvent(pos, actions, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(vp, move)
    ok = move.isAccepted() and move.dropAction() != Qt.IgnoreAction
    drop = QDropEvent(QPointF(pos), actions, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(vp, drop)
    QApplication.processEvents()
    return ok


def palette_mime(window, kind: str, type_id: str) -> QMimeData:
    item = window.palette.item_for(kind, type_id)
    assert item is not None, f"{kind} {type_id} not in the palette"
    return window.palette.mimeData([item])


def slot_center(window, location: str) -> QPointF:
    item = window.canvas.layout_scene.slots[location]
    return item.sceneBoundingRect().center()


def placeholder_center(window, bus: int) -> QPointF:
    for ph in window.canvas.layout_scene.placeholders:
        if ph.bus == bus:
            return ph.sceneBoundingRect().center()
    raise AssertionError(f"bus {bus} has no free position")


def drop_drive(window, type_id: str, location: str) -> bool:
    return drag_drop(window.canvas, palette_mime(window, "drive", type_id), slot_center(window, location))


def drop_enclosure(window, type_id: str, bus: int) -> bool:
    return drag_drop(window.canvas, palette_mime(window, "enclosure", type_id), placeholder_center(window, bus))


def select_drives(window, locations: list[str]) -> None:
    """Click the first drive, Ctrl+click the others (real mouse events on the viewport)."""
    from PySide6.QtTest import QTest

    view = window.canvas
    for i, loc in enumerate(locations):
        pt = view_point(view, slot_center(window, loc))
        QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.ControlModifier if i else Qt.NoModifier, pt)
    QApplication.processEvents()
