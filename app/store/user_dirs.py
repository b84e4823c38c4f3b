"""The per-user folders, all under one base folder that platformdirs gives for each OS:

    data_dir()       ~/.local/share/ArrayPlanner (Linux), ~/Library/Application Support/
                     ArrayPlanner (macOS), %APPDATA%\\ArrayPlanner (Windows)
    presets_dir()    data_dir()/presets   user presets (app/store/presets.py)
    recovery_dir()   data_dir()/recovery  autosave and crash recovery (app/ui/recovery.py)

$ARRAYPLANNER_DATA replaces the base folder (tests, a portable set-up); $ARRAYPLANNER_PRESETS
replaces the preset folder alone. On Windows the roaming folder is used, where the presets
always were; recovery files are small.

Before this module the Linux preset folder was $XDG_CONFIG_HOME/ArrayPlanner/presets (on
macOS and Windows it is the same as now). An existing old folder keeps working: it is read
until move_legacy_presets() (called when the GUI starts) moves it to presets_dir(), saying so.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "ArrayPlanner"


def data_dir() -> Path:
    """The base folder of everything ArrayPlanner keeps for the user (not created here)."""
    env = os.environ.get("ARRAYPLANNER_DATA")
    if env:
        return Path(env)
    return platformdirs.user_data_path(APP_NAME, appauthor=False, roaming=True)


def legacy_presets_dir() -> Path | None:
    """Where ArrayPlanner 0.1 looked for user presets, when that differs from today's folder."""
    if os.environ.get("ARRAYPLANNER_DATA") or sys.platform in ("win32", "darwin"):
        return None  # there the old folder is today's (or the user chose the base folder)
    old = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / APP_NAME / "presets"
    return None if old == data_dir() / "presets" else old


def presets_dir() -> Path:
    """The user preset folder: $ARRAYPLANNER_PRESETS, else data_dir()/presets, else (while only
    it exists) the old folder of ArrayPlanner 0.1. Not created here."""
    env = os.environ.get("ARRAYPLANNER_PRESETS")
    if env:
        return Path(env)
    new = data_dir() / "presets"
    old = legacy_presets_dir()
    if old is not None and not new.exists() and old.is_dir():
        return old
    return new


def move_legacy_presets() -> str | None:
    """Move the old preset folder to data_dir()/presets when only the old one exists. Returns a
    sentence for the user (moved, or why not: the old folder is then still read), or None when
    there was nothing to move."""
    if os.environ.get("ARRAYPLANNER_PRESETS"):
        return None
    old, new = legacy_presets_dir(), data_dir() / "presets"
    if old is None or new.exists() or not old.is_dir():
        return None
    try:
        new.parent.mkdir(parents=True, exist_ok=True)
        os.rename(old, new)  # one rename: never half the files in each folder
    except OSError as exc:
        return f"Your presets stay in {old}: they could not be moved to {new} ({exc.strerror or exc})"
    return f"Your presets moved from {old} to {new}"


def recovery_dir() -> Path:
    """The folder of autosave and recovery files, created if needed."""
    folder = data_dir() / "recovery"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
