"""macOS opens a double-clicked project in the running app with a QFileOpenEvent."""
from __future__ import annotations

from configurator_support import config_dict, drop_drive, isolated, make_window  # noqa: F401  (fixture)
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QMessageBox

from app.store.project_file import save_project
from app.ui.launch import open_files_from_the_system


def test_a_file_open_event_opens_the_project(qtbot, isolated, monkeypatch):  # noqa: F811
    from app.store.examples import example_paths
    from app.store.project_file import load_project

    w = make_window(qtbot)
    open_files_from_the_system(QCoreApplication.instance(), w)
    other = load_project(next(p for p in example_paths() if p.stem == "dell-md3200-hpt"))
    path = isolated / "double-clicked.arrayplan"
    save_project(other, path)
    QCoreApplication.sendEvent(QCoreApplication.instance(), QFileOpenEvent(str(path)))
    qtbot.waitUntil(lambda: w.document.path == path, timeout=5000)
    assert config_dict(w.document.project) == config_dict(other)


def test_unsaved_changes_are_asked_about_first(qtbot, isolated, monkeypatch):  # noqa: F811
    from app.store.examples import example_paths
    from app.store.project_file import load_project

    w = make_window(qtbot)
    open_files_from_the_system(QCoreApplication.instance(), w)
    assert drop_drive(w, "fc-15k-73", "0_0_12")  # unsaved work
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append(a[2]) or QMessageBox.Cancel)
    path = isolated / "other.arrayplan"
    save_project(load_project(next(iter(example_paths()))), path)
    before = w.document.path
    QCoreApplication.sendEvent(QCoreApplication.instance(), QFileOpenEvent(str(path)))
    qtbot.waitUntil(lambda: bool(asked), timeout=5000)
    qtbot.wait(50)
    assert w.document.path == before  # cancelled: the user's work stays open
