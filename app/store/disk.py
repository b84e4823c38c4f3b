"""The project file on disk around a save: where a save must write, whether the file changed since
it was read, whether it is read-only, and the temporary files of saves that never finished.

    target = save_target(path)            # `path`, or a symbolic link's final target
    stamp = DiskStamp.of(path)            # size, mtime, inode and SHA-256; None: no such file
    stamp.unchanged(path)                 # still the file the stamp was taken of (same content)
    is_read_only(path)                    # an existing file its mode marks read-only (root too)
    tmp = new_temp_file(folder, name)     # .NAME.xxxxxxxx.tmp, locked while a save writes it
    removed = clean_leftovers(folder)     # such files (and their -journal) of killed saves

A save writes `.NAME.<8 hex>.tmp` in the target's folder and renames it over NAME
(project_file._atomic_write); SQLite adds `.NAME.<8 hex>.tmp-journal` while it writes. A save that
is killed (SIGKILL, SIGTERM, power loss) leaves both behind. The saver holds an exclusive flock()
on its temporary file from creation to rename, and the kernel drops it when the process dies, so
"not locked" tells a dead save's leftovers from a live one's, in this process or another, at once
(no waiting a minute). Where flock() does not exist (Windows) a leftover must be older than
STALE_AFTER_S instead. Only our names are touched: the pattern above, for a NAME ending in
.arrayplan or .json, or a temporary file that is one of our SQLite projects.
"""
from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import os
import re
import secrets
import stat
import threading
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

STALE_AFTER_S = 60.0  # without flock(): a leftover untouched this long is a dead save's
SUFFIXES = (".arrayplan", ".json")
SQLITE_MAGIC = b"SQLite format 3\x00"
APPLICATION_ID = 0x41504C4E  # project_file.APPLICATION_ID (that module imports this one)
JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")  # an SQLite rollback journal's header
TEMP_RE = re.compile(r"^\.(?P<name>.+)\.[0-9a-f]{8}\.tmp(?P<journal>-journal)?$")

# Temporary files this process is writing now. flock() would tell them apart too, but on NFS
# Linux emulates flock() with POSIX locks, which never conflict within one process.
_live: set[str] = set()
_live_guard = threading.Lock()


# ---------------------------------------------------------------- where a save writes

def save_target(path: str | Path) -> Path:
    """The file a save of `path` must replace: `path`, or when it is a symbolic link its final
    target, so that the atomic rename happens there and the link stays a link. A link whose
    target does not exist yet gives that target (the save creates it). OSError(ELOOP) for a
    link that leads back to itself."""
    path = Path(path)
    if not path.is_symlink():
        return path
    target = Path(os.path.realpath(path))
    if target.is_symlink():  # realpath gives up on a loop and returns a link
        raise OSError(errno.ELOOP, "the symbolic link leads back to itself", str(path))
    return target


def same_file(a: str | Path, b: str | Path) -> bool:
    """`a` and `b` name the same file (through links too); False when either does not exist."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


# ---------------------------------------------------------------- what is on disk

def _open_regular(path: str | Path, follow_links: bool) -> tuple[int, os.stat_result] | None:
    """A read-only descriptor of the regular file at `path` and its stat, or None (absent, not a
    regular file, a link when `follow_links` is False). O_NONBLOCK: a FIFO must not hang us."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        return None
    return fd, st


@dataclasses.dataclass(frozen=True)
class DiskStamp:
    """What a project file was when it was opened or saved. Compared with the file at the next
    save: another window, instance or program that saved it since changed it."""
    size: int
    mtime_ns: int
    dev: int
    ino: int
    sha256: str

    @classmethod
    def of(cls, path: str | Path) -> "DiskStamp | None":
        """The stamp of the regular file at `path` (links followed); None if there is none."""
        opened = _open_regular(path, follow_links=True)
        if opened is None:
            return None
        fd, st = opened
        try:
            h = hashlib.sha256()
            while chunk := os.read(fd, 1 << 20):
                h.update(chunk)
        except OSError:
            return None
        finally:
            os.close(fd)
        return cls(st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino, h.hexdigest())

    def unchanged(self, path: str | Path) -> bool:
        """`path` still holds what it held when this stamp was taken. Same size, mtime and inode
        is taken as unchanged without reading it; otherwise the content decides (a `touch` or a
        copy of the same bytes is not a change). False when the file is gone."""
        try:
            st = os.stat(path)
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns, st.st_dev, st.st_ino) == (self.size, self.mtime_ns, self.dev, self.ino):
            return True
        now = DiskStamp.of(path)
        return now is not None and now.sha256 == self.sha256


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (POSIX: the directory entry is data of its own)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def is_read_only(path: str | Path) -> bool:
    """An existing file whose mode says it must not be written: no write bit at all (0444, also
    for root, whom access() always lets write), or no write permission for this user. A save
    would still replace it (the rename needs only the folder's permission): ask first."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    return st.st_mode & 0o222 == 0 or not os.access(path, os.W_OK)


# ---------------------------------------------------------------- temporary files

def _try_lock(fd: int) -> bool:
    """Take the exclusive flock() on `fd` without waiting; True where flock() does not exist."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a file system without flock(): as without fcntl
        return True
    return True


class TempFile:
    """A new temporary file beside a save's target, flock()ed until close(): while it is open,
    clean_leftovers() in any process leaves it alone."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd: int | None = fd

    def close(self) -> None:
        """Release the lock (after the file has been renamed over the target, or removed)."""
        with _live_guard:
            _live.discard(str(self.path))
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> "TempFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def new_temp_file(folder: Path, name: str) -> TempFile:
    """A new empty `.NAME.xxxxxxxx.tmp` in `folder`, locked. Created as any program creates a
    file: mode 0o666 less the umask (mkstemp's 0o600 was kept by new projects, so colleagues
    could not open them in a shared folder). O_EXCL: never an existing file or a link."""
    for _ in range(100):
        tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except FileExistsError:
            continue
        # A cleaner may have taken it for a dead save's between our create and our lock: it
        # holds the lock to remove it, or has removed it. Then use another name.
        if not _try_lock(fd) or os.fstat(fd).st_nlink == 0:
            os.close(fd)
            continue
        with _live_guard:
            _live.add(str(tmp))
        return TempFile(tmp, fd)
    raise FileExistsError(errno.EEXIST, "no unused temporary file name")


def _head(fd: int) -> bytes:
    try:
        return os.pread(fd, 100, 0) if hasattr(os, "pread") else os.read(fd, 100)
    except OSError:
        return b""


def _ours(name: str, head: bytes, journal: bool) -> bool:
    """A leftover this app made: its project's name has our suffix, or its content is ours."""
    if name.lower().endswith(SUFFIXES):
        return True
    if journal:
        return head.startswith(JOURNAL_MAGIC)
    return head.startswith(SQLITE_MAGIC) and len(head) >= 72 and int.from_bytes(head[68:72], "big") == APPLICATION_ID


def _remove_if_dead(path: Path, journal: bool, now: float) -> bool:
    """Remove `path` if it is a leftover of a save that is no longer running. For a temporary
    file, its -journal goes with it (removed while its lock is held)."""
    name = str(path)
    with _live_guard:
        if name in _live or (journal and name[: -len("-journal")] in _live):
            return False
    opened = _open_regular(path, follow_links=False)
    if opened is None:
        return False
    fd, st = opened
    try:
        m = TEMP_RE.match(path.name)
        if m is None or not _ours(m["name"], _head(fd), journal):
            return False
        if journal:
            # a journal lives only while its database is open: with the database gone it is
            # an orphan; with it there, it goes when (and only when) the database does
            if Path(name[: -len("-journal")]).exists():
                return False
        elif fcntl is not None:
            if not _try_lock(fd):
                return False  # a live save holds it
        elif now - st.st_mtime < STALE_AFTER_S:
            return False
        try:  # the name may have been renamed over its target, or reused, since we opened it
            cur = os.stat(path, follow_symlinks=False)
        except OSError:
            return False
        if (cur.st_dev, cur.st_ino) != (st.st_dev, st.st_ino):
            return False
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        except OSError:
            return False
        if not journal:
            with contextlib.suppress(OSError):
                os.unlink(name + "-journal")
        return True
    finally:
        os.close(fd)


def leftovers(folder: str | Path) -> list[Path]:
    """The names in `folder` that look like our temporary files (live or dead), sorted."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(Path(folder) / n for n in names if TEMP_RE.match(n))


def clean_leftovers(folder: str | Path) -> list[Path]:
    """Remove the temporary and -journal files that killed saves of this app left in `folder`;
    never a live save's, never another program's. Returns what was removed; errors (a read-only
    folder, say) are ignored: cleaning is a courtesy, not part of the save."""
    now = time.time()
    removed: list[Path] = []
    found = leftovers(folder)
    gone: set[Path] = set()
    for p in found:  # temporary files first: each takes its journal along
        if not p.name.endswith("-journal") and _remove_if_dead(p, False, now):
            removed.append(p)
            gone.add(Path(str(p) + "-journal"))
    for p in found:
        if p.name.endswith("-journal"):
            if p in gone:
                if not p.exists():
                    removed.append(p)
            elif _remove_if_dead(p, True, now):
                removed.append(p)
    return removed
