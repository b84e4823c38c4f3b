"""Reading the files a user names (projects, presets): regular files only, never beyond a cap.

    with open_regular(path, "project file") as fh: ...     # UnreadableFile for a FIFO, device, folder
    data = read_regular(path, "preset file", limit=16 * 2**20)

A FIFO named like a project would block open() until some writer comes (`check` hung), a
symlink to /dev/zero never ends (it was read until MemoryError), and a folder cannot be read.
UnreadableFile carries one line naming the file; the callers turn it into their own error
(ProjectFileError, PresetError).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO


class UnreadableFile(Exception):
    """A file that cannot or must not be read; the message is one line naming it."""


_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISSOCK, "a socket"))


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def open_regular(path: str | Path, what: str = "file") -> BinaryIO:
    """`path` opened for reading in binary if it is a regular file (a symlink to one is fine).

    O_NONBLOCK lets open() of a FIFO return at once instead of waiting for a writer; the fstat
    of the open descriptor (not a stat of the name before opening it, which a swap could beat)
    decides what the file is."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise UnreadableFile(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UnreadableFile(f"{path}: is a folder, not a {what}") from None
    except PermissionError:
        raise UnreadableFile(f"{path}: permission denied") from None
    except OSError as exc:
        raise UnreadableFile(f"{path}: cannot be read ({_one_line(exc.strerror or exc)})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise UnreadableFile(f"{path}: is a folder, not a {what}")
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        raise UnreadableFile(f"{path}: is {kind}, not a {what}; only regular files are opened")
    return os.fdopen(fd, "rb")


def read_regular(path: str | Path, what: str, limit: int, advice: str = "") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; UnreadableFile otherwise (the
    message names the limit, then `advice`)."""
    with open_regular(path, what) as fh:
        try:
            too_big = os.fstat(fh.fileno()).st_size > limit
            # one byte more than the limit: a file that grows while it is read is caught too
            data = b"" if too_big else fh.read(limit + 1)
        except OSError as exc:
            raise UnreadableFile(f"{path}: cannot be read ({_one_line(exc.strerror or exc)})") from None
    if too_big or len(data) > limit:
        raise UnreadableFile(f"{path}: the file is larger than {_size(limit)}, the limit for a {what}"
                             + (f" ({advice})" if advice else ""))
    return data


def _size(n: int) -> str:
    return f"{n / 2**20:,.0f} MB" if n >= 2**20 else f"{n:,} bytes"
