"""Autosave to recovery files, and the offer to restore them after a crash.

Each window's session writes, in recovery_dir() (app/store/user_dirs.py: the per-user data folder's
recovery/):

    <session>.arrayplan   the project as last autosaved (every AUTOSAVE_MS while it is dirty)
    <session>.json        a note: original path, title, time, pid
    <session>.lock        a QLockFile, held from the first autosave until the files are deleted

A session is live while its lock is held. QLockFile tells a held lock from one left by a dead
process (it checks the pid, the host and the process name, and a live holder's flock), and its
staleness by age is turned off: an idle window autosaves nothing for hours and is still alive
(on a file system without flock, e.g. some network mounts, age alone would call it dead). So another instance never
takes a running session's files for a crash's, and taking a dead session's lock claims it: two
instances starting together never both offer (or delete) the same files.

At start-up every dead session is offered (RecoveryDialog: time, title, file). Restoring one hands
its files and lock to the window that restored it, which keeps them until it has saved the project
or autosaved it anew: if the app dies again first, the same work is offered again. Several are
restored into windows of their own. Only an explicit Discard deletes recovery files; the sessions
neither restored nor discarded are offered again at the next start.

Autosave copies the project on the GUI thread and writes it in a worker thread. Any failure (an
exception of any kind) is reported in the status bar with its reason, and the next period tries
again.
"""
from __future__ import annotations

import json
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, Qt, QThreadPool, QTimer, Signal
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QHeaderView, QLabel, QMessageBox, QPushButton, QTreeWidget,
    QTreeWidgetItem, QVBoxLayout,
)

from app.domain.project import Project
from app.store import user_dirs
from app.ui.save_errors import printable, save_error_text
from app.ui.i18n import QT_TR_NOOP, tr
from app.ui.theme import theme

AUTOSAVE_MS = 60_000
# A lock file whose holder cannot be read (empty or garbled: the writer died between creating
# and filling it) is taken for a dead session's once it is this old.
UNREADABLE_LOCK_S = 30.0

# sessions whose locks this process holds (all its windows): never offered to itself
_OWN_SESSIONS: set[str] = set()
# windows opened to restore a second or later session: kept alive until they close
_EXTRA_WINDOWS: list[Any] = []


def recovery_dir() -> Path:
    """The recovery folder, beside the user presets (app/store/user_dirs.py), created if needed."""
    return user_dirs.recovery_dir()


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def take_lock(path: Path) -> QLockFile | None:
    """The lock at `path`, held, if no live process holds it; else None. A lock left by a dead
    process (or an unreadable one older than UNREADABLE_LOCK_S) is taken over."""
    lock = QLockFile(str(path))
    lock.setStaleLockTime(0)  # alive is alive, however long ago the lock was taken
    if lock.tryLock(0):
        return lock
    if lock.error() == QLockFile.LockError.LockFailedError:
        pid = lock.getLockInfo()[0]
        try:
            age = time.time() - path.stat().st_mtime
        except OSError:
            age = 0.0
        if not pid and age > UNREADABLE_LOCK_S and lock.removeStaleLockFile() and lock.tryLock(0):
            return lock
    return None


# ---------------------------------------------------------------- the sessions left behind

@dataclass
class Leftover:
    """A dead session's recovery files, claimed by this process (it holds their lock) until they
    are restored (adopted by a window), kept for a later start (release) or discarded."""

    data: Path
    lock: QLockFile
    meta: dict = field(default_factory=dict)

    @property
    def session(self) -> str:
        return self.data.stem

    @property
    def meta_path(self) -> Path:
        return self.data.with_suffix(".json")

    @property
    def saved_at(self) -> float:
        t = self.meta.get("saved_at")
        if isinstance(t, (int, float)) and t > 0:
            return float(t)
        try:
            return self.data.stat().st_mtime
        except OSError:
            return 0.0

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.saved_at))

    @property
    def title(self) -> str:
        return str(self.meta.get("title") or "Untitled")

    @property
    def original(self) -> str | None:
        o = self.meta.get("original")
        return str(o) if o else None

    def release(self) -> None:
        """Keep the files for a later start: only the lock goes."""
        self.lock.unlock()
        _OWN_SESSIONS.discard(self.session)

    def discard(self) -> None:
        """Delete the files, then the lock (so no one sees the files without a lock and a holder)."""
        for p in (self.data, self.meta_path):
            try:
                _unlink(p)
            except OSError:
                pass
        self.release()


def legacy_recovery_dir() -> Path | None:
    """Where ArrayPlanner 0.1 autosaved (Qt's AppDataLocation/recovery, e.g. on Linux
    ~/.local/share/ArrayPlanner/ArrayPlanner/recovery), when it exists and is not today's."""
    if os.environ.get("ARRAYPLANNER_DATA"):
        return None  # a chosen base folder (tests, a portable set-up): nothing of before
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    old = Path(base) / "recovery" if base else None
    return old if old is not None and old.is_dir() and old != recovery_dir() else None


def move_legacy_sessions() -> None:
    """Move the files of the dead sessions in the old recovery folder into today's, so that a
    crash just before an upgrade is still offered; a running old instance's are left alone."""
    old = legacy_recovery_dir()
    if old is None:
        return
    for data in old.glob("*.arrayplan"):
        lock = None if data.name.startswith(".") else take_lock(data.with_suffix(".lock"))
        if lock is None:
            continue  # a save's temporary file, or a running instance's session
        try:
            for path in (data.with_suffix(".json"), data):  # the note first: the data file announces it
                if path.exists():
                    os.replace(path, recovery_dir() / path.name)
        except OSError:
            pass  # left where it is (and offered by no one): the next start tries again
        finally:
            lock.unlock()


def find_leftovers() -> list[Leftover]:
    """The recovery files of every session that is not running (newest first), each claimed."""
    move_legacy_sessions()
    d = recovery_dir()
    out = []
    for data in d.glob("*.arrayplan"):
        if data.name.startswith(".") or data.stem in _OWN_SESSIONS:
            continue  # a save's temporary file, or one of this process's windows
        lock = take_lock(data.with_suffix(".lock"))
        if lock is None:
            continue  # a running instance's
        if not data.exists():  # that session ended cleanly while we looked
            lock.unlock()
            continue
        try:
            meta = json.loads(data.with_suffix(".json").read_text(encoding="utf-8"))
            meta = meta if isinstance(meta, dict) else {}
        except (OSError, ValueError):
            meta = {}  # died between the project and its note: the file's time will do
        _OWN_SESSIONS.add(data.stem)
        out.append(Leftover(data, lock, meta))
    out.sort(key=lambda lo: lo.saved_at, reverse=True)
    return out


# ---------------------------------------------------------------- one window's autosave

class AutosaveSession(QObject):
    """The recovery files of one window: autosave, adoption of a restored session, clean-up."""

    finished = Signal(str)  # after each background autosave: "" when it worked, else why

    def __init__(self, window: Any, document: Any):
        super().__init__(window)
        self.window = window
        self.document = document
        self.session = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.lock: QLockFile | None = None
        self._autosaved_revision = -1
        self._running = False
        self.failure: str | None = None  # why the newest autosave failed; None after one worked
        # Writes (worker) and deletes (GUI thread) of the files are serialised, and a delete
        # makes any write still queued skip: no file reappears after the session has ended.
        self._io = threading.Lock()
        self._generation = 0
        self._indicator: QLabel | None = None
        self.finished.connect(self._finished)
        self.timer = QTimer(self)
        self.timer.setInterval(AUTOSAVE_MS)
        self.timer.timeout.connect(lambda: self.autosave(wait=False))
        self.timer.start()

    def paths(self) -> tuple[Path, Path]:
        d = recovery_dir()
        return d / f"{self.session}.arrayplan", d / f"{self.session}.json"

    def _lock_path(self) -> Path:
        return recovery_dir() / f"{self.session}.lock"

    def _hold_lock(self) -> None:
        """Hold this session's lock before its first file is written (OSError if it cannot)."""
        if self.lock is not None and self.lock.isLocked():
            return
        path = self._lock_path()
        lock = take_lock(path)
        if lock is None:
            raise OSError(f"cannot lock {path} (is the recovery folder writable?)")
        self.lock = lock
        _OWN_SESSIONS.add(self.session)

    # ---- autosave
    def autosave(self, wait: bool = True) -> bool:
        """Write the recovery file if there are unsaved changes since the last autosave.

        wait=False (the timer): the project is copied here and written by a worker thread.
        Returns whether a save was made (or started); a failure is reported (report_failure)."""
        doc = self.document
        if not doc.dirty or doc.revision == self._autosaved_revision or self._running:
            return False
        self._autosaved_revision = doc.revision
        try:
            self._hold_lock()
            paths = self.paths()
            snapshot = doc.project.clone()
            meta_text = json.dumps({"original": str(doc.path) if doc.path else None,
                                    "title": printable(doc.project.info.title or doc.title),
                                    "saved_at": time.time(), "pid": os.getpid()})
        except Exception as exc:  # noqa: BLE001 - whatever it is, autosave must go on next time
            self._failed(save_error_text(exc, doc.project))
            return False
        generation = self._generation
        if wait:
            why = self._write(snapshot, meta_text, paths, generation)
            self._finished(why)
            return not why
        self._running = True

        def work() -> None:
            why = "autosave stopped unexpectedly"
            try:
                why = self._write(snapshot, meta_text, paths, generation)
            finally:  # always: a lost signal would leave autosave off for the session
                self.finished.emit(why)

        QThreadPool.globalInstance().start(work)
        return True

    def _write(self, project: Project, meta_text: str, paths: tuple[Path, Path], generation: int) -> str:
        """Write the recovery file and its note (any thread): "" when done, else why not."""
        from app.store.project_file import save_project
        data, meta = paths
        with self._io:
            if generation != self._generation:
                return ""  # the files were deleted since (a save, or the window closed)
            try:
                save_project(project, data)
                meta.write_text(meta_text, encoding="utf-8")
            except Exception as exc:  # noqa: BLE001 - reported, and tried again next period
                return save_error_text(exc, project)
        return ""

    def _finished(self, why: str) -> None:
        self._running = False
        if why:
            self._failed(why)
        elif self.failure is not None:
            self.failure = None
            self._show_indicator(None)
            self.window.status(tr("Autosave works again"))

    def _failed(self, why: str) -> None:
        self._autosaved_revision = -1  # try again at the next period
        self.failure = why
        self._show_indicator(why)
        self.window.status(tr("Autosave failed: {why}. Trying again in {s} s.").format(why=why, s=AUTOSAVE_MS // 1000),
                           30_000)

    def _show_indicator(self, why: str | None) -> None:
        """A lasting mark in the status bar while autosave fails (messages there time out)."""
        if self._indicator is None:
            if why is None or not hasattr(self.window, "statusBar"):
                return
            self._indicator = QLabel(tr("Autosave failed"))
            self._indicator.setStyleSheet(f"color: {theme().error.name()}; font-weight: bold;")
            self.window.statusBar().addPermanentWidget(self._indicator)
        self._indicator.setToolTip(tr("The newest autosave failed: {why}").format(why=why) if why else "")
        self._indicator.setVisible(why is not None)

    # ---- ending and adopting
    def discard(self) -> None:
        """Delete this session's files and lock (after a save, at a clean exit)."""
        with self._io:
            self._generation += 1
            for p in self.paths():
                try:
                    _unlink(p)
                except OSError:
                    pass
        if self.lock is not None:
            self.lock.unlock()
            self.lock = None
        _OWN_SESSIONS.discard(self.session)
        self._autosaved_revision = -1

    def adopt(self, leftover: Leftover) -> None:
        """Continue a restored session: its files stay until this window saves the project or
        autosaves it anew (over them). Its document must already hold the restored project."""
        self.discard()
        self.session = leftover.session
        self.lock = leftover.lock
        _OWN_SESSIONS.add(self.session)
        self._autosaved_revision = self.document.revision  # the recovery file holds this state


# ---------------------------------------------------------------- the offer

@dataclass
class Choice:
    restore: list[Leftover] = field(default_factory=list)
    discard: list[Leftover] = field(default_factory=list)


class RecoveryDialog(QDialog):
    """Lists the sessions that did not end properly; restore the checked ones, discard them (after
    a confirmation) or decide later (everything kept)."""

    COLUMNS = (QT_TR_NOOP("Autosaved"), QT_TR_NOOP("Title"), QT_TR_NOOP("File"))

    def __init__(self, leftovers: list[Leftover], parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("Recover unsaved work"))
        self.discarded: list[Leftover] = []
        text = tr("ArrayPlanner did not close properly. The unsaved work below was autosaved; "
                  "restore what you want to keep. Work you neither restore nor discard is offered "
                  "again next time.")
        if len(leftovers) > 1:
            text += " " + tr("Each restored project opens in a window of its own.")
        self.label = QLabel(text)
        self.label.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([tr(c) for c in self.COLUMNS])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.tree.header().setStretchLastSection(True)
        for lo in leftovers:
            item = QTreeWidgetItem([lo.when, printable(lo.title), printable(lo.original or tr("never saved"))])
            item.setData(0, Qt.UserRole, lo)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(0, Qt.Checked)
            item.setToolTip(2, printable(lo.original or tr("This project was never saved to a file")))
            self.tree.addTopLevelItem(item)
        self.tree.itemChanged.connect(lambda *_: self._update_buttons())
        buttons = QDialogButtonBox()
        self.restore_button = buttons.addButton(tr("Restore"), QDialogButtonBox.AcceptRole)
        self.discard_button = QPushButton(tr("Discard…"))
        buttons.addButton(self.discard_button, QDialogButtonBox.DestructiveRole)
        self.later_button = buttons.addButton(tr("Decide Later"), QDialogButtonBox.RejectRole)
        self.restore_button.setDefault(True)
        self.restore_button.clicked.connect(self.accept)
        self.discard_button.clicked.connect(self.discard_checked)
        self.later_button.clicked.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
        self.resize(760, 160 + 24 * min(len(leftovers), 10))
        self._update_buttons()

    def _items(self) -> list[QTreeWidgetItem]:
        return [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]

    def checked(self) -> list[Leftover]:
        return [it.data(0, Qt.UserRole) for it in self._items() if it.checkState(0) == Qt.Checked]

    def set_checked(self, sessions: list[str]) -> None:
        for it in self._items():
            it.setCheckState(0, Qt.Checked if it.data(0, Qt.UserRole).session in sessions else Qt.Unchecked)

    def _update_buttons(self) -> None:
        some = bool(self.checked())
        self.restore_button.setEnabled(some)
        self.discard_button.setEnabled(some)

    def discard_checked(self) -> None:
        gone = self.checked()
        if not gone:
            return
        question = (tr("Discard this autosaved work? It cannot be recovered afterwards.") if len(gone) == 1 else
                    tr("Discard the autosaved work of {n} sessions? It cannot be recovered afterwards.").format(n=len(gone)))
        answer = QMessageBox.question(
            self, tr("Discard autosaved work?"), question,
            QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Cancel)
        if answer != QMessageBox.Discard:
            return
        for it in self._items():
            if it.data(0, Qt.UserRole) in gone:
                self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(it))
        self.discarded += gone
        if not self._items():
            self.reject()  # nothing left to decide
        self._update_buttons()

    def choice(self) -> Choice:
        restore = self.checked() if self.result() == QDialog.Accepted else []
        return Choice(restore=restore, discard=list(self.discarded))


def ask(parent: Any, leftovers: list[Leftover]) -> Choice:
    """Show the dialog and return what the user chose (tests replace this function)."""
    dialog = RecoveryDialog(leftovers, parent)
    dialog.exec()
    return dialog.choice()


def offer(files: Any, ask_user: Callable[[Any, list[Leftover]], Choice] | None = None) -> bool:
    """At start-up: offer every dead session's work; restore what the user picks (the first in
    `files`' window, the others in new windows). True if anything was restored."""
    try:
        leftovers = find_leftovers()
    except OSError as exc:  # no recovery folder: nothing to offer, but say why
        files.window.status(tr("Cannot look for autosaved work: {why}").format(why=exc))
        return False
    if not leftovers:
        return False
    choice = (ask_user or ask)(files.window, leftovers)
    for lo in choice.discard:
        lo.discard()
    restored: list[Leftover] = []  # the first goes into this window; one that fails is skipped
    for lo in choice.restore:
        if lo in choice.discard:
            continue
        if _restore(files, lo, into_current=not restored):
            restored.append(lo)
    handled = {id(lo) for lo in choice.discard} | {id(lo) for lo in choice.restore}
    for lo in leftovers:
        if id(lo) not in handled:
            lo.release()  # neither restored nor discarded: offered again next time
    if restored:
        files.window.status(tr("Recovered unsaved changes from {when}; save them to keep them").format(
            when=", ".join(lo.when for lo in restored)))
    return bool(restored)


def _restore(files: Any, lo: Leftover, into_current: bool) -> bool:
    """Load `lo`'s project into the current window or a new one, which adopts its files; on
    failure say why and keep the files (release) for a later try."""
    from app.store.project_file import ProjectFileError, load_project
    from app.ui.document import Document, UnknownPlatformError

    try:
        project = load_project(lo.data)  # its errors name the file
        if into_current:
            files.document.replace_project(project, lo.original, dirty=True)
            files.recovery.adopt(lo)
            return True
        doc = Document(project, getattr(files.document, "_catalog_base", files.document.catalog))
        doc.replace_project(project, lo.original, dirty=True)  # refuses an unknown platform
    except ProjectFileError as exc:
        files._error(tr("Cannot recover"), printable(str(exc)))
    except (UnknownPlatformError, Exception) as exc:  # noqa: BLE001 - e.g. its user preset was deleted;
        # any other error as well: one bad recovery file must not stop the app from starting
        files._error(tr("Cannot recover"), printable(f"{lo.data}: {exc}"))
    else:
        window = _new_window(files.window, doc)
        window.files.recovery.adopt(lo)
        return True
    lo.release()
    return False


def _new_window(window: Any, document: Any) -> Any:
    """Another main window like `window` (same plug-ins) on `document`, shown, offset a little."""
    new = type(window)(document, plugins=tuple(getattr(window, "plugins", {}) or ()))
    new.setAttribute(Qt.WA_DeleteOnClose)
    _EXTRA_WINDOWS.append(new)
    new.destroyed.connect(lambda *_: _EXTRA_WINDOWS.remove(new) if new in _EXTRA_WINDOWS else None)
    offset = 40 * len(_EXTRA_WINDOWS)
    new.move(window.x() + offset, window.y() + offset)
    new.show()
    return new
