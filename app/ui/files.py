"""File handling for the main window: new, open, save, save as, recent files, the unsaved-changes
prompt, autosave to a recovery file and the offer to recover after a crash.

Open and save go through app.store (load_project / save_project; the store saves atomically, so a
failed save never overwrites the user's file); a ProjectFileError becomes a message box. Before an
open or a save, self.guard (app/ui/file_guard.py) asks when the file is open in another window,
changed on disk since it was opened, or read-only; opening a folder also removes the temporary
files that killed saves left there (app/store/disk.py).

Recovery: while the project is dirty, a QTimer writes it every `AUTOSAVE_MS` to
<AppDataLocation>/recovery/<session>.arrayplan with a <session>.json note (original path, title,
time). A clean exit (or a save) deletes them; files left behind at start-up were a crash, and the
user is offered to recover them.
"""
from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.domain.project import Project
from app.ui.document import UnknownPlatformError
from app.ui.file_guard import CANCEL, SAVE_AS, FileGuard

AUTOSAVE_MS = 60_000
MAX_RECENT = 8
FILE_FILTER = "ArrayPlanner projects (*.arrayplan *.json);;ArrayPlanner project (*.arrayplan);;JSON (*.json);;All files (*)"


def recovery_dir() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    d = Path(base or Path.home() / ".arrayplanner") / "recovery"
    d.mkdir(parents=True, exist_ok=True)
    return d


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
        self.session = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.timer = QTimer(self)
        self.timer.setInterval(AUTOSAVE_MS)
        self.timer.timeout.connect(lambda: self.autosave(wait=False))
        self._autosave_done.connect(self._on_autosave_done)
        self.timer.start()
        self._autosaved_revision = -1
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
            self.window, "Unsaved changes",
            f"Save the changes to {self.document.title}?",
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
            path, _ = QFileDialog.getOpenFileName(self.window, "Open project", start, FILE_FILTER)
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
            self._error("Cannot open the project", str(exc))
            return False
        try:
            with self.guard.adopting():
                self.document.replace_project(project, path)
        except (ProjectFileError, UnknownPlatformError) as exc:  # the current project stays as it was
            # e.g. an embedded platform snapshot that cannot be read: name the file too
            self.guard.abandon(opening)
            self._error("Cannot open the project", f"{path}: {exc}")
            return False
        self.guard.opened(opening)
        clean_leftovers(opening.target.parent)
        self._add_recent(path)
        self.window.status(f"Opened {path} read-only: save your changes under another name"
                           if opening.read_only else f"Opened {path}")
        return True

    def new(self, project: Project) -> bool:
        """False (after a message) when the project is refused: its platform is unknown."""
        try:
            self.document.replace_project(project, None)
        except UnknownPlatformError as exc:
            self._error("Cannot create the project", str(exc))
            return False
        return True

    # ---------------------------------------------------------------- save
    def save(self) -> bool:
        if self.document.path is None or self.guard.read_only:  # opened read-only: Save As
            return self.save_as()
        return self.save_to(self.document.path)

    def save_as(self) -> bool:
        start = str(self.document.path) if self.document.path else str(
            Path.home() / f"{(self.document.project.info.title or 'project').replace('/', '-')}.arrayplan")
        path, _ = QFileDialog.getSaveFileName(self.window, "Save project as", start, FILE_FILTER)
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
        except (ProjectFileError, OSError) as exc:
            text = str(exc)
            if path.exists() and "unchanged" not in text:  # a failed write says so itself
                text += "\n\nYour file was not changed."
            self._error("Cannot save the project", text)
            return False
        self.guard.saved(path)
        self.document.mark_saved(path)
        self._add_recent(path)
        self.window.status(f"Saved {path}")
        self.discard_recovery()
        return True

    # ---------------------------------------------------------------- autosave and recovery
    def recovery_paths(self) -> tuple[Path, Path]:
        d = recovery_dir()
        return d / f"{self.session}.arrayplan", d / f"{self.session}.json"

    def autosave(self, wait: bool = True) -> bool:
        """Write the recovery file if there are unsaved changes since the last autosave.

        The timer calls autosave(wait=False): the project is copied on the GUI thread and written
        by a worker thread (the store saves atomically, so a crash mid-write leaves the previous
        recovery file). Returns whether a save was made (or started)."""
        doc = self.document
        if not doc.dirty or doc.revision == self._autosaved_revision:
            return False
        if getattr(self, "_autosave_running", False):
            return False
        snapshot = doc.project.clone()
        meta_text = json.dumps({"original": str(doc.path) if doc.path else None, "title": doc.project.info.title,
                                "saved_at": time.time(), "pid": os.getpid()})
        paths = self.recovery_paths()
        self._autosaved_revision = doc.revision
        if wait:
            why = _write_recovery(snapshot, meta_text, paths)
            if why:
                self._autosave_failed(why)
            return why is None
        self._autosave_running = True
        from PySide6.QtCore import QThreadPool

        def work() -> None:
            why = _write_recovery(snapshot, meta_text, paths)
            self._autosave_done.emit(why or "")

        QThreadPool.globalInstance().start(work)
        return True

    _autosave_done = Signal(str)

    def _on_autosave_done(self, why: str) -> None:
        self._autosave_running = False
        if why:
            self._autosave_failed(why)

    def _autosave_failed(self, why: str) -> None:
        self._autosaved_revision = -1
        self.window.status(f"Autosave failed: {why}")

    def discard_recovery(self) -> None:
        for p in self.recovery_paths():
            try:
                p.unlink()
            except FileNotFoundError:
                pass
        self._autosaved_revision = -1

    @staticmethod
    def leftover_recovery() -> list[tuple[Path, dict]]:
        """Recovery files from sessions that did not end cleanly, newest first."""
        out = []
        for data in recovery_dir().glob("*.arrayplan"):
            meta_path = data.with_suffix(".json")
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                meta = {}
            pid = meta.get("pid")
            if pid and pid != os.getpid() and _alive(pid) and data.stat().st_mtime > time.time() - 2 * AUTOSAVE_MS / 1000:
                continue  # another running ArrayPlanner's live recovery file
            if pid == os.getpid():
                continue
            out.append((data, meta))
        out.sort(key=lambda dm: dm[0].stat().st_mtime, reverse=True)
        return out

    def offer_recovery(self) -> bool:
        """At start-up: offer to open a recovery file left by a crash. True if one was recovered."""
        leftovers = self.leftover_recovery()
        if not leftovers:
            return False
        data, meta = leftovers[0]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(meta.get("saved_at", data.stat().st_mtime)))
        original = meta.get("original") or "an unsaved project"
        answer = QMessageBox.question(
            self.window, "Recover unsaved work?",
            f"ArrayPlanner did not close properly. Recover the changes to {original} autosaved at {when}?",
            QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
        recovered = False
        if answer == QMessageBox.Yes:
            from app.store.project_file import ProjectFileError, load_project
            try:
                project = load_project(data)  # its errors name the file
            except ProjectFileError as exc:
                self._error("Cannot recover", str(exc))
                return False
            try:
                self.document.replace_project(project, meta.get("original"), dirty=True)
            except (ProjectFileError, UnknownPlatformError) as exc:  # e.g. its user preset was deleted since the crash
                self._error("Cannot recover", f"{data}: {exc}")
                return False
            self.window.status(f"Recovered unsaved changes from {when}; save them to keep them")
            recovered = True
        for d, _m in leftovers:  # offered once; the recovered project is dirty and autosaves again
            for p in (d, d.with_suffix(".json")):
                try:
                    p.unlink()
                except FileNotFoundError:
                    pass
        return recovered


def _write_recovery(project: Project, meta_text: str, paths: tuple[Path, Path]) -> str | None:
    """Write a recovery file and its note; None on success, else the reason (any thread)."""
    from app.store.project_file import ProjectFileError, save_project
    data, meta = paths
    try:
        save_project(project, data)
        meta.write_text(meta_text, encoding="utf-8")
    except (ProjectFileError, OSError) as exc:
        return str(exc)
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True
