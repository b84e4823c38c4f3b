"""File handling for the main window: new, open, save, save as, recent files, the unsaved-changes
prompt; autosave and the offer to recover after a crash are app/ui/recovery.py's.

Open and save go through app.store (load_project / save_project; the store saves atomically, so a
failed save never overwrites the user's file); every failed save says why in a
message box (app/ui/save_errors.py words the errors the store does not). Before an
open or a save, self.guard (app/ui/file_guard.py) asks when the file is open in another window,
changed on disk since it was opened, or read-only; opening a folder also removes the temporary
files that killed saves left there (app/store/disk.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.domain.project import Project
from app.ui import recovery
from app.ui.document import UnknownPlatformError
from app.ui.file_guard import CANCEL, SAVE_AS, FileGuard
from app.ui.i18n import QT_TR_NOOP, tr
from app.ui.recovery import AUTOSAVE_MS, recovery_dir  # noqa: F401 - their old home
from app.ui.save_errors import save_error_text

MAX_RECENT = 8
FILE_FILTER = QT_TR_NOOP("ArrayPlanner projects (*.arrayplan *.json);;ArrayPlanner project (*.arrayplan);;"
                         "JSON (*.json);;All files (*)")


def examples_dir() -> Path:
    from app.store.presets import builtin_presets_dir
    return builtin_presets_dir() / "examples"


def load_example(name: str = "emc-cx4-960-oltp.json") -> Project | None:
    path = examples_dir() / name
    if not path.exists():
        return None
    from app.store.project_file import load_project
    return load_project(path)


class FileController(QObject):
    """Owned by the MainWindow; `window` gives it the document, status() and a parent for dialogs."""

    recentChanged = Signal(list)

    def __init__(self, window: Any):
        super().__init__(window)
        self.window = window
        self.document = window.document
        self.recovery = recovery.AutosaveSession(window, self.document)
        self.guard = FileGuard(self)

    # ---------------------------------------------------------------- recent files
    def recent_files(self) -> list[str]:
        # one string, newline-separated: an empty list would read back as an invalid QVariant
        v = QSettings().value("recentFilesText", "")
        return [p for p in str(v or "").split("\n") if p]

    def _add_recent(self, path: Path) -> None:
        p = str(Path(path).resolve())
        files = [p] + [f for f in self.recent_files() if f != p]
        QSettings().setValue("recentFilesText", "\n".join(files[:MAX_RECENT]))
        self.recentChanged.emit(files[:MAX_RECENT])

    def clear_recent(self) -> None:
        QSettings().setValue("recentFilesText", "")
        self.recentChanged.emit([])

    # ---------------------------------------------------------------- prompts
    def maybe_save(self) -> bool:
        """Before the project goes away: True to go on (saved or discarded), False to cancel."""
        if not self.document.dirty:
            return True
        answer = QMessageBox.question(
            self.window, tr("Unsaved changes"),
            tr("Save the changes to {title}?").format(title=self.document.title),
            QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save()
        return answer == QMessageBox.Discard

    def _error(self, title: str, text: str) -> None:
        QMessageBox.critical(self.window, title, text)
        self.window.status(text)

    # ---------------------------------------------------------------- open / new
    def open(self, path: str | Path | None = None) -> bool:
        if path is None:
            start = str(self.document.path.parent) if self.document.path else str(Path.home())
            path, _ = QFileDialog.getOpenFileName(self.window, tr("Open project"), start, tr(FILE_FILTER))
            if not path:
                return False
        if not self.maybe_save():
            return False
        return self.load(path)

    def load(self, path: str | Path) -> bool:
        """Open `path` without asking about the current project (that is open()'s job)."""
        from app.store.disk import clean_leftovers
        from app.store.project_file import ProjectFileError, load_project
        path = Path(path)
        opening = self.guard.before_open(path)  # asks when another window has it open
        if opening is None:
            return False
        try:
            project = load_project(path)  # its errors name the file
        except ProjectFileError as exc:
            self.guard.abandon(opening)
            self._error(tr("Cannot open the project"), str(exc))
            return False
        try:
            with self.guard.adopting():
                self.document.replace_project(project, path)
        except (ProjectFileError, UnknownPlatformError) as exc:  # the current project stays as it was
            # e.g. an embedded platform snapshot that cannot be read: name the file too
            self.guard.abandon(opening)
            self._error(tr("Cannot open the project"), f"{path}: {exc}")
            return False
        self.guard.opened(opening)
        clean_leftovers(opening.target.parent)
        self._add_recent(path)
        self.window.status((tr("Opened {path} read-only: save your changes under another name")
                            if opening.read_only else tr("Opened {path}")).format(path=path))
        self.discard_recovery()  # the work it replaced was saved or discarded (maybe_save)
        return True

    def new(self, project: Project) -> bool:
        """False (after a message) when the project is refused: its platform is unknown."""
        try:
            self.document.replace_project(project, None)
        except UnknownPlatformError as exc:
            self._error(tr("Cannot create the project"), str(exc))
            return False
        self.discard_recovery()
        return True

    # ---------------------------------------------------------------- save
    def save(self) -> bool:
        if self.document.path is None or self.guard.read_only:  # opened read-only: Save As
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as(self) -> bool:
        start = str(self.document.path) if self.document.path else str(
            Path.home() / f"{(self.document.project.info.title or 'project').replace('/', '-')}.arrayplan")
        path, _ = QFileDialog.getSaveFileName(self.window, tr("Save project as"), start, tr(FILE_FILTER))
        if not path:
            return False
        if not Path(path).suffix:
            path += ".arrayplan"
        return self.save_to(path)

    def save_to(self, path: str | Path) -> bool:
        from app.store.project_file import ProjectFileError, save_project
        path = Path(path)
        answer = self.guard.before_save(path)  # changed on disk, open elsewhere, read-only
        if answer == CANCEL:
            return False
        if answer == SAVE_AS:
            return self.save_as()
        try:
            save_project(self.document.project, path, self.document.catalog)
        except Exception as exc:  # noqa: BLE001 - any failure, e.g. a name the file cannot hold: say why
            text = save_error_text(exc, self.document.project)
            if not isinstance(exc, (ProjectFileError, OSError)):
                text = f"{path}: {text}"
            if path.exists() and "unchanged" not in text:  # a failed write says so itself
                text += "\n\n" + tr("Your file was not changed.")
            self._error(tr("Cannot save the project"), text)
            return False
        self.guard.saved(path)
        self.document.mark_saved(path)
        self._add_recent(path)
        self.window.status(tr("Saved {path}").format(path=path))
        self.discard_recovery()
        return True

    # ---------------------------------------------------------------- autosave and recovery
    # (app/ui/recovery.py; these keep the window's and the tests' calls short)
    @property
    def timer(self) -> QTimer:
        return self.recovery.timer

    def recovery_paths(self) -> tuple[Path, Path]:
        return self.recovery.paths()

    def autosave(self, wait: bool = True) -> bool:
        return self.recovery.autosave(wait)

    def discard_recovery(self) -> None:
        self.recovery.discard()

    def offer_recovery(self) -> bool:
        """At start-up: offer the work of every session that died; True if any was restored."""
        return recovery.offer(self)
