"""Saving without losing work, the window's part (issue 21, items 5, 6, 14, 15): a second window
or instance on an open file is warned, a save over a file that changed on disk or is read-only
asks first, a link is saved through, and opening a folder removes killed saves' leftovers."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gui"))
from configurator_support import isolated, make_window, settle  # noqa: E402,F401

from app.domain import edits  # noqa: E402
from app.store import disk  # noqa: E402
from app.store.project_file import load_project, save_project  # noqa: E402
from app.ui import file_guard  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "presets" / "examples" / "emc-cx4-960-oltp.json"
pytestmark = pytest.mark.gui


class Asked:
    """Stands in for file_guard.ask: records each question, answers from a list in turn."""

    def __init__(self, monkeypatch, *answers: str):
        self.answers = list(answers)
        self.questions: list[tuple[str, str, list[str]]] = []
        monkeypatch.setattr(file_guard, "ask", self)

    def __call__(self, parent, title, text, choices, default):
        self.questions.append((title, text, [k for k, _ in choices]))
        assert self.answers, f"not expected: {title}: {text}"
        return self.answers.pop(0)

    @property
    def titles(self) -> list[str]:
        return [q[0] for q in self.questions]


def _plan(folder: Path, title: str = "on disk", name: str = "plan.arrayplan") -> Path:
    project = load_project(EXAMPLE)
    project.info.title = title
    save_project(project, folder / name)
    return folder / name


def _edit(w, title: str) -> None:
    w.document.apply(edits.SetProjectInfo(title=title))


def _title_on_disk(path: Path) -> str:
    return load_project(path).info.title


# ---------------------------------------------------------------- two windows on one file (item 6)

def test_a_second_window_is_warned_and_can_cancel(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w1, w2 = make_window(qtbot), make_window(qtbot)
    asked = Asked(monkeypatch, file_guard.CANCEL)
    assert w1.files.load(path) and asked.questions == []
    before = w2.document.project
    assert not w2.files.load(path)
    assert asked.titles == ["The project is open elsewhere"]
    assert "another window of this ArrayPlanner" in asked.questions[0][1]
    assert w2.document.project is before and w2.document.path is None


def test_opened_read_only_saves_as_another_file(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w1, w2 = make_window(qtbot), make_window(qtbot)
    assert w1.files.load(path)
    Asked(monkeypatch, file_guard.OPEN_READ_ONLY)
    assert w2.files.load(path)
    assert "(read-only)" in w2.windowTitle() and w2.files.guard.read_only
    _edit(w2, "my copy")
    other = isolated / "copy.arrayplan"
    offered = []
    monkeypatch.setattr(file_guard.QMessageBox, "critical", lambda *a: pytest.fail(str(a)))
    from app.ui import files
    monkeypatch.setattr(files.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (offered.append(a[2]), (str(other), ""))[1])
    assert w2.files.save()  # Save is Save As
    assert offered == [str(path)]
    assert _title_on_disk(path) == "on disk" and _title_on_disk(other) == "my copy"
    assert "(read-only)" not in w2.windowTitle() and w2.document.path == other


def test_both_open_anyway_and_the_second_save_asks(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w1, w2 = make_window(qtbot), make_window(qtbot)
    assert w1.files.load(path)
    asked = Asked(monkeypatch, file_guard.OPEN_ANYWAY)
    assert w2.files.load(path)
    _edit(w1, "first window's change")
    assert w1.files.save()  # nothing changed on disk since w1 opened it: no question
    _edit(w2, "second window's change")
    asked.answers = [file_guard.CANCEL]
    assert not w2.files.save()
    assert asked.titles[-1] == "The file changed on disk" and w2.document.dirty
    assert _title_on_disk(path) == "first window's change"  # not lost without a word
    asked.answers = [file_guard.OVERWRITE]
    assert w2.files.save()
    assert _title_on_disk(path) == "second window's change"
    _edit(w2, "again")
    assert w2.files.save()  # its own save since: no question
    assert len(asked.questions) == 3


def test_a_change_by_another_program_asks_and_save_as_keeps_both(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w = make_window(qtbot)
    assert w.files.load(path)
    _plan(isolated, "saved by someone else")
    _edit(w, "mine")
    Asked(monkeypatch, file_guard.SAVE_AS)
    other = isolated / "mine.arrayplan"
    from app.ui import files
    monkeypatch.setattr(files.QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
    assert w.files.save()
    assert _title_on_disk(path) == "saved by someone else" and _title_on_disk(other) == "mine"


def test_a_touch_or_a_deleted_file_asks_nothing(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w = make_window(qtbot)
    assert w.files.load(path)
    Asked(monkeypatch)  # any question fails
    os.utime(path, (1, 1))
    _edit(w, "after a touch")
    assert w.files.save()
    path.unlink()
    _edit(w, "after a delete")
    assert w.files.save() and _title_on_disk(path) == "after a delete"


def test_a_closed_window_lets_the_file_go(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w1, w2 = make_window(qtbot), make_window(qtbot)
    assert w1.files.load(path)
    lock = file_guard.lock_path(path)
    assert lock.exists()
    w1.close()
    assert not lock.exists()
    Asked(monkeypatch)
    assert w2.files.load(path)
    assert w2.files.new(load_project(EXAMPLE))  # another project: its lock goes too
    assert not lock.exists()


def test_opening_the_same_file_again_in_its_window_asks_nothing(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w = make_window(qtbot)
    Asked(monkeypatch)
    assert w.files.load(path) and w.files.load(path)
    assert file_guard.lock_path(path).exists()


HOLDER = """
import sys, time
from PySide6.QtCore import QLockFile
lock = QLockFile(sys.argv[1])
print(lock.tryLock(0), flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_another_instance_is_named_and_its_lock_goes_when_it_dies(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(file_guard.lock_path(path))],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "True"
        w = make_window(qtbot)
        asked = Asked(monkeypatch, file_guard.CANCEL)
        assert not w.files.load(path)
        assert f"ArrayPlanner process {holder.pid} on " in asked.questions[0][1]
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        holder.stdout.close()
    asked.answers = []  # a crashed instance's lock is stale: no question
    assert w.files.load(path) and not w.files.guard.read_only


def test_save_as_onto_a_file_open_elsewhere_asks(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    w1, w2 = make_window(qtbot), make_window(qtbot)
    assert w1.files.load(path)
    asked = Asked(monkeypatch, file_guard.CANCEL, file_guard.OVERWRITE)
    _edit(w2, "w2")
    assert not w2.files.save_to(path)
    assert asked.titles == ["The project is open elsewhere"] and _title_on_disk(path) == "on disk"
    assert w2.files.save_to(path) and _title_on_disk(path) == "w2"


# ---------------------------------------------------------------- read-only files (item 15)

@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_a_read_only_file_asks_before_it_is_replaced(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    path.chmod(0o444)
    w = make_window(qtbot)
    assert w.files.load(path)
    _edit(w, "edited")
    asked = Asked(monkeypatch, file_guard.CANCEL)
    before = path.read_bytes()
    assert not w.files.save()
    assert asked.titles == ["The file is read-only"] and path.read_bytes() == before and w.document.dirty
    asked.answers = [file_guard.OVERWRITE]
    assert w.files.save()
    assert _title_on_disk(path) == "edited" and path.stat().st_mode & 0o777 == 0o444
    _edit(w, "edited again")
    assert w.files.save() and len(asked.questions) == 2  # asked once per file
    other = _plan(isolated, name="other.arrayplan")
    other.chmod(0o444)
    asked.answers = [file_guard.CANCEL]
    assert not w.files.save_to(other) and len(asked.questions) == 3  # another file: asked again


# ---------------------------------------------------------------- links and leftovers (items 5, 14)

@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_a_project_opened_through_a_link_is_saved_through_it(qtbot, isolated, monkeypatch):
    real = _plan(isolated, name="real.arrayplan")
    link = isolated / "link.arrayplan"
    link.symlink_to(real.name)
    w1, w2 = make_window(qtbot), make_window(qtbot)
    asked = Asked(monkeypatch, file_guard.CANCEL)
    assert w1.files.load(link)
    _edit(w1, "through the link")
    assert w1.files.save()
    assert link.is_symlink() and _title_on_disk(real) == "through the link"
    assert not w2.files.load(real)  # the lock is the target's: the real name is warned too
    assert len(asked.questions) == 1


def test_opening_a_folder_removes_killed_saves_leftovers(qtbot, isolated, monkeypatch):
    path = _plan(isolated)
    dead = isolated / f".{path.name}.0123abcd.tmp"
    dead.write_bytes(b"")
    Path(str(dead) + "-journal").write_bytes(disk.JOURNAL_MAGIC)
    w = make_window(qtbot)
    assert w.files.load(path)
    assert disk.leftovers(isolated) == []
