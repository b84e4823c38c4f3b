"""The per-user folders (app/store/user_dirs.py): presets and autosave recovery under one base
folder from platformdirs, the overrides, and an old (ArrayPlanner 0.1, Linux) preset folder that
keeps working until it is moved, with a message."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from app.store import user_dirs
from app.store.presets import load_catalog, user_presets_dir

POSIX_HOME = not sys.platform.startswith(("win", "darwin"))  # where $HOME and XDG decide
USER_PLATFORM = """
id = "my-hp"
name = "My Smart Array"
"""


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fresh home folder, with none of the overrides."""
    for name in ("ARRAYPLANNER_DATA", "ARRAYPLANNER_PRESETS", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    monkeypatch.setenv("APPDATA", str(tmp_path / "AppData" / "Roaming"))
    return tmp_path


def test_presets_and_recovery_share_one_base_folder(home):
    base = user_dirs.data_dir()
    assert base.name == "ArrayPlanner"
    if not sys.platform.startswith("win"):  # (Windows asks the shell for %APPDATA%, not $HOME)
        assert str(base).startswith(str(home))
    if POSIX_HOME:
        assert base == home / ".local" / "share" / "ArrayPlanner"
    assert user_presets_dir() == base / "presets"
    assert not base.exists(), "finding the folder creates nothing"
    recovery = user_dirs.recovery_dir()
    assert recovery == base / "recovery" and recovery.is_dir()


def test_the_overrides(home, tmp_path, monkeypatch):
    monkeypatch.setenv("ARRAYPLANNER_DATA", str(tmp_path / "portable"))
    assert user_presets_dir() == tmp_path / "portable" / "presets"
    assert user_dirs.recovery_dir() == tmp_path / "portable" / "recovery"
    monkeypatch.setenv("ARRAYPLANNER_PRESETS", str(tmp_path / "mine"))
    assert user_presets_dir() == tmp_path / "mine"
    assert user_dirs.recovery_dir() == tmp_path / "portable" / "recovery"
    assert user_dirs.move_legacy_presets() is None


def test_xdg_data_home_is_followed(home, monkeypatch):
    if not POSIX_HOME:
        pytest.skip("XDG folders are for Linux and the other Unixes")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert user_presets_dir() == home / "data" / "ArrayPlanner" / "presets"


def old_folder(home: Path) -> Path:
    old = home / ".config" / "ArrayPlanner" / "presets"
    old.mkdir(parents=True)
    (old / "my-hp.toml").write_text(USER_PLATFORM, encoding="utf-8")
    return old


@pytest.mark.skipif(not POSIX_HOME, reason="the old preset folder differed on Linux only")
def test_an_old_preset_folder_is_read_then_moved_with_a_message(home):
    old = old_folder(home)
    new = home / ".local" / "share" / "ArrayPlanner" / "presets"
    assert user_presets_dir() == old  # an existing user's presets still load
    assert any(str(old / "my-hp.toml") in p for p in load_catalog().problems)  # read (and refused: no buses)
    message = user_dirs.move_legacy_presets()
    assert message == f"Your presets moved from {old} to {new}"
    assert (new / "my-hp.toml").read_text(encoding="utf-8") == USER_PLATFORM and not old.exists()
    assert user_presets_dir() == new
    assert user_dirs.move_legacy_presets() is None  # once


@pytest.mark.skipif(not POSIX_HOME, reason="the old preset folder differed on Linux only")
def test_a_failed_move_keeps_reading_the_old_folder(home, monkeypatch):
    old = old_folder(home)

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(user_dirs.os, "rename", refuse)
    message = user_dirs.move_legacy_presets()
    assert message is not None and message.startswith(f"Your presets stay in {old}") and "Permission denied" in message
    assert user_presets_dir() == old and (old / "my-hp.toml").exists()


@pytest.mark.skipif(not POSIX_HOME, reason="the old preset folder differed on Linux only")
def test_the_new_folder_wins_once_it_exists(home):
    old = old_folder(home)
    new = home / ".local" / "share" / "ArrayPlanner" / "presets"
    new.mkdir(parents=True)
    assert user_presets_dir() == new
    assert user_dirs.move_legacy_presets() is None and old.exists()  # never merged or overwritten


def test_the_gui_autosaves_beside_the_presets(home, tmp_path, monkeypatch):
    """app/ui/recovery.py writes where user_dirs says; the old Qt folder's dead sessions move in."""
    pytest.importorskip("PySide6")
    from app.ui import recovery

    assert recovery.recovery_dir() == user_dirs.data_dir() / "recovery"
    old = tmp_path / "qt-app-data" / "recovery"
    old.mkdir(parents=True)
    (old / "123-abcd.arrayplan").write_bytes(b"data")
    (old / "123-abcd.json").write_text('{"title": "Before the upgrade"}', encoding="utf-8")
    monkeypatch.setattr(recovery, "legacy_recovery_dir", lambda: old)
    leftovers = recovery.find_leftovers()
    try:
        assert [lo.title for lo in leftovers] == ["Before the upgrade"]
        assert leftovers[0].data == user_dirs.data_dir() / "recovery" / "123-abcd.arrayplan"
        assert sorted(os.listdir(old)) == []
    finally:
        for lo in leftovers:
            lo.release()
