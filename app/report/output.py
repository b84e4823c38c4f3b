"""Writing the report PDF without ever losing the previous one.

    with PdfOutput(target) as out:        # a new hidden temporary file in the target's folder
        writer = QPdfWriter(out.device)   # QPdfWriter writes into it (a QFile on our descriptor)
        ...paint...
        out.commit()                      # checks, fsync, then os.replace over the target

QPdfWriter and QPainter report no write errors (QPainter.end() is True on a full disk), so a
failed write is found here: the QFile's error flag (sticky: set by any failed write or flush),
the file's size on disk against the bytes Qt wrote, and the PDF trailer ("%%EOF") at its end.
Until `commit` succeeds the target is not touched; on any failure (or leaving the `with` block
without a commit) the temporary file is removed. Every OSError raised names the target, not the
temporary file. A process killed while exporting leaves its hidden temporary file; the next export
of the same report removes those untouched for an hour (`remove_stale_parts`).

The temporary file is created with O_CREAT | O_EXCL | O_NOFOLLOW under a random name, so a file
or symbolic link planted under a predictable name (the old `OUT.pdf.part`) is never opened or
followed. A target that is itself a symbolic link is written through: the link's final target is
replaced (the rename happens in that file's folder) and the link stays a link.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path

from PySide6.QtCore import QFile, QFileDevice, QIODevice

from app.store import disk

#: Qt gives a failed write as text only (qt_error_string, i.e. strerror); back to an errno
_ERRNO_BY_TEXT = {os.strerror(n): n for n in errno.errorcode}

PART_SUFFIX = ".part"  # not ".tmp": the project store's clean-up of its own stale files leaves these alone
STALE_PART_S = 3600.0  # a temporary report untouched this long is left over from a killed export


def real_target(path: Path) -> Path:
    """`path`, or the file a symbolic link at `path` finally points to (relative links are
    resolved against the link's folder)."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _new_part(folder: Path, name: str) -> tuple[int, Path]:
    """A new, empty, hidden file next to the report: mode 0o666 less the umask, as any program
    makes a file (mkstemp's 0o600 would make a new report private in a shared folder)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        part = folder / f".{name}.{secrets.token_hex(4)}{PART_SUFFIX}"
        try:
            return os.open(part, flags, 0o666), part
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(folder))


def remove_stale_parts(folder: Path, name: str, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed export of report `name` left in `folder`: exactly our
    names (".NAME.<8 hex>.part"), regular files (never a link), untouched for STALE_PART_S (a
    running export writes its file as it paints). The ones removed."""
    pattern = re.compile(re.escape(f".{name}.") + r"[0-9a-f]{8}" + re.escape(PART_SUFFIX))
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        with contextlib.suppress(OSError):
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > STALE_PART_S:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return removed


class PdfOutput:
    """A temporary file for the PDF in the target's folder, checked and renamed over the target
    by `commit`. A context manager: leaving it without a commit removes the temporary file."""

    def __init__(self, target: str | os.PathLike):
        self.requested = Path(target)  # what the user asked for (named in messages)
        self.target = real_target(self.requested)
        self.part: Path | None = None
        self.device: QFile | None = None
        self._fd = -1

    # -------------------------------------------------------------- errors
    def _error(self, code: int, text: str) -> OSError:
        return OSError(code, text, str(self.requested))

    def named(self, exc: OSError) -> OSError:
        """`exc` re-raised about the report, not the temporary file or the folder."""
        return self._error(exc.errno or errno.EIO, exc.strerror or str(exc))

    # -------------------------------------------------------------- life cycle
    def __enter__(self) -> "PdfOutput":
        folder = self.target.parent
        try:
            if folder.exists() and not folder.is_dir():  # mkdir would say "File exists"
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
            folder.mkdir(parents=True, exist_ok=True)
            if self.target.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
            self._fd, self.part = _new_part(folder, self.target.name)
        except OSError as exc:
            raise self.named(exc) from None
        try:  # from here on, whatever happens (Ctrl+C too), the new file goes
            remove_stale_parts(self.target.parent, self.target.name)
            self.device = QFile()
            if not self.device.open(self._fd, QIODevice.WriteOnly, QFileDevice.DontCloseHandle):
                text = self.device.errorString()
                raise self._error(_ERRNO_BY_TEXT.get(text, errno.EIO), text or "cannot open the temporary file")
        except BaseException:
            self._discard()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        self._discard()  # a no-op after a successful commit

    def commit(self) -> None:
        """Check that every byte reached the file, make it durable and rename it over the
        target. OSError naming the target when anything failed (the target is then unchanged)."""
        try:
            self._check_and_close()
            with contextlib.suppress(OSError):  # keep an existing report's mode (a 0600 file stays 0600)
                os.chmod(self.part, self.target.stat().st_mode & 0o7777)
            os.replace(self.part, self.target)
        except OSError as exc:
            self._discard()
            raise self.named(exc) from None
        self.part = None
        disk.fsync_dir(self.target.parent)

    def device_error(self) -> OSError | None:
        """Why writing to the temporary file failed (naming the target), or None when it has
        not. Qt keeps only the text of the first error, and a short write leaves it
        "Unknown error": then a retried flush, or a one-byte probe at the end of the file,
        brings out the system's reason (a full disk, the file size limit)."""
        dev = self.device
        if dev is None or dev.error() == QFileDevice.NoError:
            return None
        for _ in range(3):
            text = dev.errorString()
            if text in _ERRNO_BY_TEXT:
                return self._error(_ERRNO_BY_TEXT[text], text)
            dev.unsetError()
            if dev.flush():
                break
        try:
            end = os.fstat(self._fd).st_size  # (os.pwrite/pread: not on Windows)
            os.lseek(self._fd, end, os.SEEK_SET)
            os.write(self._fd, b"\0")
            os.ftruncate(self._fd, end)
        except OSError as exc:
            return self.named(exc)
        return self._error(errno.EIO, "the PDF could not be written completely")

    def _check_and_close(self) -> None:
        dev = self.device
        written = dev.pos()  # bytes QPdfWriter handed to the file
        if not dev.flush() and dev.error() == QFileDevice.NoError:
            raise self._error(errno.EIO, "the PDF could not be flushed to the file")
        failure = self.device_error()
        if failure is not None:
            raise failure
        dev.close()  # DontCloseHandle: our descriptor stays open
        self.device = None
        size = os.fstat(self._fd).st_size
        if size != written or size == 0:
            raise self._error(errno.EIO, f"only {size:,} of {written:,} bytes reached the file")
        os.lseek(self._fd, max(0, size - 64), os.SEEK_SET)
        if b"%%EOF" not in os.read(self._fd, 64):
            raise self._error(errno.EIO, "the PDF is incomplete (no end-of-file marker)")
        os.fsync(self._fd)  # a full disk can show only now (delayed allocation, NFS)
        fd, self._fd = self._fd, -1
        os.close(fd)  # ... or even now (NFS reports write errors at close)

    def _discard(self) -> None:
        if self.device is not None:
            self.device.close()
            self.device = None
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1
        if self.part is not None:
            with contextlib.suppress(OSError):
                self.part.unlink()
            self.part = None
