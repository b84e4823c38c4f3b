"""Questions before a project file is opened or saved over, so that no one's work is lost without
a word (issue 21: two windows on one file, read-only files). The file work is app.store.disk's;
this module asks, and holds the lock that tells other windows the file is open.

* A lock file beside the project (`.NAME.lock`, a QLockFile: process id, host and application,
  and found stale when that process is gone) marks it open in a window. A second window or
  instance that opens it is warned: open read-only (Save becomes Save As), open anyway, cancel.
* The file's DiskStamp (size, mtime, inode, SHA-256) is taken when it is opened and saved. A save
  over a file that changed on disk since (another window, instance or program saved it) asks:
  overwrite, save as, cancel. So does a save over a file another window has open.
* A save over a file whose mode says read-only (0444) asks first, as editors do: the atomic
  rename would replace it without a word (it needs only the folder's permission, and root
  writes anything).

A symbolic link is followed: the lock, the stamp and the save are the target's.

    guard = FileGuard(controller)          # owned by FileController
    opening = guard.before_open(path)      # None: the user cancelled
    guard.opened(opening) | guard.abandon(opening)
    answer = guard.before_save(path)       # "save", "save as" or "cancel"
    guard.saved(path)
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QObject, Signal
from PySide6.QtWidgets import QMessageBox

from app.store import disk
from app.ui.i18n import tr

OPEN_READ_ONLY, OPEN_ANYWAY, CANCEL = "read-only", "anyway", "cancel"
OVERWRITE, SAVE_AS, SAVE = "overwrite", "save as", "save"


def lock_path(target: Path) -> Path:
    """The lock file of the project file `target` (a save target: links already followed)."""
    return target.parent / f".{target.name}.lock"


def ask(parent: Any, title: str, text: str, choices: list[tuple[str, str]], default: str) -> str:
    """A question with one button per (key, label); the key of the one clicked (Esc: the last,
    which is always the cancelling one). Tests replace this function to answer."""
    box = QMessageBox(QMessageBox.Warning, title, text, QMessageBox.NoButton, parent)
    buttons = {}
    for i, (key, label) in enumerate(choices):
        role = QMessageBox.RejectRole if i == len(choices) - 1 else QMessageBox.AcceptRole
        buttons[box.addButton(label, role)] = key
        if key == default:
            box.setDefaultButton(list(buttons)[-1])
    box.setEscapeButton(list(buttons)[-1])
    box.exec()
    return buttons.get(box.clickedButton(), choices[-1][0])


def _target(path: str | Path) -> Path:
    try:
        return disk.save_target(path)
    except OSError:  # a link loop: the open or save itself says so
        return Path(path)


def _holder(lock: QLockFile) -> str:
    """Who holds `lock`, for a message: 'process 123 on host'."""
    info = lock.getLockInfo()
    # PySide6 returns (pid, hostname, appname); a lock file it cannot read gives zeros
    if isinstance(info, tuple) and len(info) >= 2 and info[0]:
        pid, host = info[0], info[1]
        if pid == os.getpid():
            return tr("another window of this ArrayPlanner")
        return tr("ArrayPlanner process {pid} on {host}").format(pid=pid, host=host or tr("another computer"))
    return tr("another ArrayPlanner")


def try_lock(target: Path) -> tuple[QLockFile | None, str | None]:
    """(the lock, None) when taken; (None, who holds it) when another live window has it; (None,
    None) when no lock can be made here (a read-only folder): nobody else can lock it either."""
    lock = QLockFile(str(lock_path(target)))
    lock.setStaleLockTime(0)  # stale only when its process is gone, however long it is open
    if lock.tryLock(0):
        return lock, None
    if lock.error() == QLockFile.LockFailedError:
        return None, _holder(lock)
    return None, None


@dataclasses.dataclass
class Opening:
    """A file about to be opened: its lock (when taken) and its stamp before it was read."""
    path: Path
    target: Path
    lock: QLockFile | None
    read_only: bool  # opened read-only: Save is Save As
    shared: bool     # open in another window too, and the user chose to open it anyway
    stamp: disk.DiskStamp | None = None


class FileGuard(QObject):
    """The lock and the stamp of the document's file, and the questions around them."""

    readOnlyChanged = Signal(bool)

    def __init__(self, controller: Any):
        super().__init__(controller)
        self.window = controller.window
        self.document = controller.document
        self.path: Path | None = None      # the document path the state below is about
        self.target: Path | None = None
        self.lock: QLockFile | None = None
        self.stamp: disk.DiskStamp | None = None
        self.read_only = False
        self.shared = False
        self.overwrite_read_only: Path | None = None  # the read-only file the user said to overwrite
        self.document.replaced.connect(self._replaced)
        self._adopting = False

    # ---------------------------------------------------------------- state
    def _replaced(self) -> None:
        """Another project in the window (new, recovered): its file, if any, is not ours."""
        if not self._adopting:
            self.release()

    def release(self) -> None:
        """Forget the file (a new project, the window closes): its lock goes."""
        if self.lock is not None:
            self.lock.unlock()
        self.path = self.target = self.lock = self.stamp = self.overwrite_read_only = None
        self.shared = False
        self._set_read_only(False)

    def _set_read_only(self, value: bool) -> None:
        if value != self.read_only:
            self.read_only = value
            self.readOnlyChanged.emit(value)

    def _mine(self, target: Path) -> bool:
        return self.target is not None and disk.same_file(self.target, target)

    # ---------------------------------------------------------------- open
    def before_open(self, path: str | Path) -> Opening | None:
        """Lock the file, or ask when another window has it open. None: the user cancelled."""
        path = Path(path)
        target = _target(path)
        if self._mine(target):  # opened again in the same window: keep what it has
            return Opening(path, target, self.lock, self.read_only, self.shared, disk.DiskStamp.of(target))
        lock, holder = try_lock(target)
        read_only = shared = False
        if holder is not None:
            answer = ask(self.window, tr("The project is open elsewhere"),
                         tr("{path} is open in {holder}.\n\nIf both save it, the changes saved first are lost. "
                            "Open it read-only (save your changes under another name), or open it anyway?").format(
                             path=path, holder=holder),
                         [(OPEN_READ_ONLY, tr("Open Read-Only")), (OPEN_ANYWAY, tr("Open Anyway")), (CANCEL, tr("Cancel"))],
                         OPEN_READ_ONLY)
            if answer == CANCEL:
                return None
            read_only, shared = answer == OPEN_READ_ONLY, answer == OPEN_ANYWAY
        # taken before the file is read: a change made while it is read shows at the next save
        return Opening(path, target, lock, read_only, shared, disk.DiskStamp.of(target))

    def abandon(self, opening: Opening) -> None:
        """The open failed or was refused: the lock taken for it goes (the current file keeps its)."""
        if opening.lock is not None and opening.lock is not self.lock:
            opening.lock.unlock()

    def adopting(self) -> "_Adopting":
        """Around document.replace_project in an open: the replaced signal must not drop the lock
        about to be adopted (or kept, when the same file is opened again)."""
        return _Adopting(self)

    def opened(self, opening: Opening) -> None:
        if self.lock is not None and self.lock is not opening.lock:
            self.lock.unlock()
        if not self._mine(opening.target):
            self.overwrite_read_only = None
        self.path, self.target, self.lock = opening.path, opening.target, opening.lock
        self.stamp, self.shared = opening.stamp, opening.shared
        self._set_read_only(opening.read_only)

    # ---------------------------------------------------------------- save
    def before_save(self, path: str | Path) -> str:
        """Ask what has to be asked before `path` is saved over: SAVE, SAVE_AS or CANCEL."""
        path = Path(path)
        target = _target(path)
        if not target.exists():
            return SAVE  # nothing there to lose (a file deleted since it was opened is saved anew)
        mine = self._mine(target)
        if mine and self.stamp is not None and not self.stamp.unchanged(target):
            answer = ask(self.window, tr("The file changed on disk"),
                         tr("{path} has changed on disk since it was opened or saved here "
                            "(another window or program saved it).\n\nOverwrite it with this project, "
                            "losing those changes, or save this project under another name?").format(path=path),
                         [(OVERWRITE, tr("Overwrite")), (SAVE_AS, tr("Save As…")), (CANCEL, tr("Cancel"))], SAVE_AS)
            if answer != OVERWRITE:
                return answer
        elif not (mine and (self.lock is not None or self.shared)):
            lock, holder = try_lock(target)
            if lock is not None:
                lock.unlock()
            if holder is not None:
                answer = ask(self.window, tr("The project is open elsewhere"),
                             tr("{path} is open in {holder}.\n\nOverwrite it? The changes saved there "
                                "are lost, and a save there later overwrites this one.").format(path=path, holder=holder),
                             [(OVERWRITE, tr("Overwrite")), (SAVE_AS, tr("Save As…")), (CANCEL, tr("Cancel"))], SAVE_AS)
                if answer != OVERWRITE:
                    return answer
        if disk.is_read_only(target) and not (self.overwrite_read_only is not None
                                              and disk.same_file(self.overwrite_read_only, target)):
            answer = ask(self.window, tr("The file is read-only"),
                         tr("{path} is read-only.\n\nReplace it anyway (it stays read-only), or save "
                            "this project under another name?").format(path=path),
                         [(OVERWRITE, tr("Replace")), (SAVE_AS, tr("Save As…")), (CANCEL, tr("Cancel"))], SAVE_AS)
            if answer != OVERWRITE:
                return answer
            self.overwrite_read_only = target
        return SAVE

    def saved(self, path: str | Path) -> None:
        """After a save to `path` (now the document's file): its new stamp, and its lock."""
        path = Path(path)
        target = _target(path)
        if not self._mine(target):
            if self.lock is not None:
                self.lock.unlock()
            self.lock, holder = try_lock(target)
            self.shared = holder is not None  # the user overwrote a file open elsewhere
            if self.overwrite_read_only is not None and not disk.same_file(self.overwrite_read_only, target):
                self.overwrite_read_only = None
        elif self.read_only:  # saved over the file opened read-only, after the questions
            self.shared = True
        self.path, self.target = path, target
        self.stamp = disk.DiskStamp.of(target)
        self._set_read_only(False)


class _Adopting:
    def __init__(self, guard: FileGuard):
        self.guard = guard

    def __enter__(self) -> None:
        self.guard._adopting = True

    def __exit__(self, *exc) -> None:
        self.guard._adopting = False
