"""Issue 21 items 1-4: no work is lost through recovery and autosave.

1. A restored session's recovery files stay until the project is saved or autosaved anew.
2. Every crashed session is offered (time, title, file); nothing is deleted without a Discard.
3. A running instance's recovery files (its lock is held, however idle) are never offered.
4. Autosave survives an exception, says why and tries again; every failed save says why.

Two "instances" are two windows in this process, or a subprocess holding a session's lock. A
crash is simulated by freeing a window's lock and leaving its files (simulate_crash), or for
real by killing the subprocess that holds the lock.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gui"))

from configurator_support import (  # noqa: E402,F401  (fixtures)
    config_dict, drop_drive, isolated, make_window, simulate_crash,
)

import pytest  # noqa: E402
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox  # noqa: E402

from app.store.project_file import load_project  # noqa: E402
from app.ui import recovery  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def never_block(monkeypatch):
    """No modal question may wait for an answer (a test would hang, not fail), and windows a
    restore opened are closed without a prompt and without leaving recovery files."""
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Cancel)
    yield
    for w in list(recovery._EXTRA_WINDOWS):
        w.document.mark_saved()
        w.files.discard_recovery()
        w.close()


def restore_all(_parent, leftovers):
    return recovery.Choice(restore=list(leftovers))


def crashed_window(qtbot, location="0_0_12", title=None):
    """A window that made an edit, autosaved it, and then 'died': (its edited config, data file)."""
    w = make_window(qtbot)
    if title:
        w.document.project.info.title = title
    assert drop_drive(w, "fc-15k-73", location)
    assert w.files.autosave()
    data, _meta = w.files.recovery_paths()
    edited = config_dict(w.document.project)
    simulate_crash(w)
    return edited, data


def status_text(w) -> str:
    return w.statusBar().currentMessage()


# ---------------------------------------------------------------- 1. kept until saved or autosaved

def test_restored_work_survives_a_second_crash_before_the_next_autosave(qtbot, isolated, monkeypatch):
    edited, data = crashed_window(qtbot)
    w2 = make_window(qtbot)
    monkeypatch.setattr(recovery, "ask", restore_all)
    assert w2.files.offer_recovery()
    assert config_dict(w2.document.project) == edited and w2.document.dirty
    assert data.exists() and config_dict(load_project(data)) == edited  # not deleted on loading
    assert w2.files.recovery_paths()[0] == data  # w2 carries on that session
    simulate_crash(w2)  # dies again before its first autosave: the same work is offered again
    w3 = make_window(qtbot)
    offered = []
    monkeypatch.setattr(recovery, "ask", lambda p, los: offered.extend(los) or restore_all(p, los))
    assert w3.files.offer_recovery()
    assert [lo.data for lo in offered] == [data]
    assert config_dict(w3.document.project) == edited


def test_restored_files_go_once_the_project_is_saved(qtbot, isolated, monkeypatch):
    edited, data = crashed_window(qtbot)
    w2 = make_window(qtbot)
    monkeypatch.setattr(recovery, "ask", restore_all)
    assert w2.files.offer_recovery()
    assert w2.files.save_to(isolated / "saved.arrayplan")
    assert not data.exists() and not data.with_suffix(".json").exists()
    assert not data.with_suffix(".lock").exists()
    assert config_dict(load_project(isolated / "saved.arrayplan")) == edited
    assert recovery.find_leftovers() == []


def test_restored_files_are_replaced_by_the_next_autosave(qtbot, isolated, monkeypatch):
    _edited, data = crashed_window(qtbot)
    w2 = make_window(qtbot)
    monkeypatch.setattr(recovery, "ask", restore_all)
    assert w2.files.offer_recovery()
    assert not w2.files.autosave()  # the recovery file already holds this state
    assert drop_drive(w2, "fc-15k-73", "0_0_13")
    assert w2.files.autosave()
    newer = config_dict(w2.document.project)
    assert sorted(p.name for p in recovery.recovery_dir().glob("*.arrayplan")) == [data.name]
    assert config_dict(load_project(data)) == newer  # autosaved anew, over the restored file
    simulate_crash(w2)
    found = recovery.find_leftovers()
    assert [lo.data for lo in found] == [data]
    found[0].release()


# ---------------------------------------------------------------- 2. every crashed session offered

def test_two_crashed_sessions_are_both_listed_with_time_title_and_file(qtbot, isolated):
    edited_a, data_a = crashed_window(qtbot, "0_0_12", title="Alpha plan")
    edited_b, data_b = crashed_window(qtbot, "0_0_13", title="Beta plan")
    leftovers = recovery.find_leftovers()
    assert [lo.data for lo in leftovers] == [data_b, data_a]
    dialog = recovery.RecoveryDialog(leftovers)
    qtbot.addWidget(dialog)
    rows = [[dialog.tree.topLevelItem(i).text(c) for c in range(3)] for i in range(2)]
    assert [r[1] for r in rows] == ["Beta plan", "Alpha plan"]
    assert rows[0][0] == leftovers[0].when and rows[0][0].startswith(time.strftime("%Y-"))
    assert rows[0][2] == "never saved"
    for lo in leftovers:
        lo.release()


def test_restoring_one_of_two_keeps_the_other_for_next_time(qtbot, isolated, monkeypatch):
    edited_a, data_a = crashed_window(qtbot, "0_0_12", title="Alpha plan")
    edited_b, data_b = crashed_window(qtbot, "0_0_13", title="Beta plan")
    w = make_window(qtbot)

    def pick_alpha(parent, leftovers):
        dialog = recovery.RecoveryDialog(leftovers, parent)
        dialog.set_checked([data_a.stem])
        dialog.restore_button.click()
        assert dialog.result() == QDialog.Accepted
        return dialog.choice()

    monkeypatch.setattr(recovery, "ask", pick_alpha)
    assert w.files.offer_recovery()
    assert config_dict(w.document.project) == edited_a
    assert data_a.exists() and data_b.exists()  # the other one was not asked to go
    found = recovery.find_leftovers()  # another start: Beta is offered (Alpha is this window's)
    assert [lo.data for lo in found] == [data_b]
    assert config_dict(load_project(found[0].data)) == edited_b
    found[0].release()


def test_a_session_that_cannot_be_restored_is_kept_and_the_next_one_is(qtbot, isolated, monkeypatch):
    import json

    edited_a, data_a = crashed_window(qtbot, "0_0_12", title="Alpha plan")
    _eb, data_b = crashed_window(qtbot, "0_0_13", title="Beta plan")
    for data, saved_at in ((data_a, 1_000_000_000), (data_b, 1_500_000_000)):  # Beta is newer
        meta = json.loads(data.with_suffix(".json").read_text())
        data.with_suffix(".json").write_text(json.dumps(dict(meta, saved_at=saved_at)))
    broken = data_b.read_bytes()
    data_b.write_bytes(b"not a project")
    w = make_window(qtbot)
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    monkeypatch.setattr(recovery, "ask", restore_all)
    assert w.files.offer_recovery()
    assert len(shown) == 1 and str(data_b) in shown[0]  # says which file and why
    assert config_dict(w.document.project) == edited_a  # the next one went into this window
    when_a = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(1_000_000_000))
    when_b = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(1_500_000_000))
    assert when_a in status_text(w) and when_b not in status_text(w)  # only what was restored
    assert data_b.exists()  # kept for a later try
    assert [lo.data for lo in recovery.find_leftovers()] == [data_b]
    data_b.write_bytes(broken)


def test_restoring_both_opens_the_second_in_a_window_of_its_own(qtbot, isolated, monkeypatch):
    edited_a, data_a = crashed_window(qtbot, "0_0_12", title="Alpha plan")
    edited_b, data_b = crashed_window(qtbot, "0_0_13", title="Beta plan")
    w = make_window(qtbot)
    before = list(recovery._EXTRA_WINDOWS)
    monkeypatch.setattr(recovery, "ask", restore_all)
    assert w.files.offer_recovery()
    extra = [x for x in recovery._EXTRA_WINDOWS if x not in before]
    assert len(extra) == 1
    w2 = extra[0]
    # the newest into this window, the other into the new one
    assert [config_dict(x.document.project) for x in (w, w2)] == [edited_b, edited_a]
    assert w2.document.dirty and w2.isVisible()
    assert {w.files.recovery_paths()[0], w2.files.recovery_paths()[0]} == {data_a, data_b}
    assert recovery.find_leftovers() == []  # both are live sessions of this process now


@pytest.mark.parametrize("confirm", [QMessageBox.Discard, QMessageBox.Cancel], ids=["confirmed", "cancelled"])
def test_discard_deletes_only_after_it_is_confirmed(qtbot, isolated, monkeypatch, confirm):
    _ea, data_a = crashed_window(qtbot, "0_0_12", title="Alpha plan")
    _eb, data_b = crashed_window(qtbot, "0_0_13", title="Beta plan")
    w = make_window(qtbot)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or confirm)

    def discard_alpha_then_decide_later(parent, leftovers):
        dialog = recovery.RecoveryDialog(leftovers, parent)
        dialog.set_checked([data_a.stem])
        dialog.discard_button.click()
        dialog.later_button.click()
        return dialog.choice()

    monkeypatch.setattr(recovery, "ask", discard_alpha_then_decide_later)
    assert not w.files.offer_recovery()
    assert asked and "cannot be recovered" in asked[0]
    assert data_a.exists() is (confirm != QMessageBox.Discard)
    assert data_b.exists()  # decided later: kept
    assert {lo.data for lo in recovery.find_leftovers()} == ({data_b} if confirm == QMessageBox.Discard
                                                             else {data_a, data_b})


def test_decide_later_keeps_everything(qtbot, isolated, monkeypatch):
    _e, data = crashed_window(qtbot)
    w = make_window(qtbot)

    def later(parent, leftovers):
        dialog = recovery.RecoveryDialog(leftovers, parent)
        dialog.later_button.click()
        return dialog.choice()

    monkeypatch.setattr(recovery, "ask", later)
    assert not w.files.offer_recovery()
    assert data.exists() and data.with_suffix(".json").exists()
    assert [lo.data for lo in recovery.find_leftovers()] == [data]


# ---------------------------------------------------------------- 3. live sessions are not crashes

HOLDER = r"""
import sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication
app = QCoreApplication([])
from app.ui.recovery import take_lock
lock = take_lock(Path(sys.argv[1]))
print("locked" if lock else "busy", flush=True)
sys.stdin.read()   # until the test closes stdin (or kills us)
"""


def hold_lock(lock_path: Path) -> subprocess.Popen:
    """Another 'instance': a process holding the lock of a session."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock_path)], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_running_instances_idle_recovery_file_is_not_offered(qtbot, isolated, monkeypatch):
    _e, data = crashed_window(qtbot)
    proc = hold_lock(data.with_suffix(".lock"))  # that session is alive in another process
    try:
        hour_ago = time.time() - 3600  # idle far beyond any autosave period
        for p in (data, data.with_suffix(".json"), data.with_suffix(".lock")):
            os.utime(p, (hour_ago, hour_ago))
        w = make_window(qtbot)
        monkeypatch.setattr(recovery, "ask", lambda *a: pytest.fail("a live session was offered"))
        assert not w.files.offer_recovery()
        assert recovery.find_leftovers() == []
        assert data.exists() and data.with_suffix(".json").exists()
    finally:
        proc.kill()  # that instance dies now, without cleaning up
        proc.wait()
    assert data.with_suffix(".lock").exists()  # a stale lock: its pid is gone
    offered = []
    monkeypatch.setattr(recovery, "ask", lambda p, los: offered.extend(los) or restore_all(p, los))
    assert w.files.offer_recovery()  # now its work is offered, and not lost
    assert [lo.data for lo in offered] == [data]


def test_only_one_of_two_starting_instances_claims_a_crashed_session(qtbot, isolated):
    _e, data = crashed_window(qtbot)
    proc = hold_lock(data.with_suffix(".lock"))  # the other instance found it first
    try:
        assert recovery.find_leftovers() == []
    finally:
        proc.stdin.close()  # it ends without restoring: the lock is freed, the files stay
        proc.wait(timeout=30)
    assert [lo.data for lo in recovery.find_leftovers()] == [data]


def test_an_unreadable_lock_counts_as_dead_only_once_it_is_old(qtbot, isolated):
    _e, data = crashed_window(qtbot)
    lock = data.with_suffix(".lock")
    lock.write_bytes(b"")  # its writer died between creating and filling it
    assert recovery.find_leftovers() == []  # could be a writer at work
    old = time.time() - 2 * recovery.UNREADABLE_LOCK_S
    os.utime(lock, (old, old))
    found = recovery.find_leftovers()
    assert [lo.data for lo in found] == [data]
    found[0].release()


# ---------------------------------------------------------------- 4. autosave failures and save errors

def test_autosave_survives_an_exception_says_why_and_retries(qtbot, isolated, monkeypatch):
    import app.store.project_file as project_file

    w = make_window(qtbot)
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    real = project_file.save_project
    calls = []

    def broken_once(project, path, catalog=None):
        calls.append(path)
        if len(calls) == 1:
            raise RuntimeError("disk controller on fire")
        return real(project, path, catalog)

    monkeypatch.setattr(project_file, "save_project", broken_once)
    with qtbot.waitSignal(w.files.recovery.finished, timeout=10000) as blocker:
        w.files.timer.timeout.emit()  # the autosave period, in the background
    assert "disk controller on fire" in blocker.args[0]
    assert "Autosave failed" in status_text(w) and "disk controller on fire" in status_text(w)
    indicator = w.files.recovery._indicator
    assert indicator is not None and indicator.isVisibleTo(w) and "on fire" in indicator.toolTip()
    data, _meta = w.files.recovery_paths()
    assert not data.exists()
    with qtbot.waitSignal(w.files.recovery.finished, timeout=10000) as blocker:
        w.files.timer.timeout.emit()  # the next period tries again, with no new edit
    assert blocker.args[0] == ""
    assert data.exists() and "0_0_12" in load_project(data).drives
    assert not indicator.isVisibleTo(w) and "works again" in status_text(w)


def test_autosave_of_a_name_it_cannot_store_says_which(qtbot, isolated):
    w = make_window(qtbot)
    w.document.project.luns[0].name = "bad \udc80 name"
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    with qtbot.waitSignal(w.files.recovery.finished, timeout=10000) as blocker:
        w.files.timer.timeout.emit()
    assert "luns[0].name" in blocker.args[0] and "cannot be saved" in blocker.args[0]
    assert "luns[0].name" in status_text(w)
    assert w.files.recovery.failure
    w.document.project.luns[0].name = "fixed"
    assert w.files.autosave()  # retried (no new edit needed) and working
    assert w.files.recovery.failure is None


def _unsavable(project, kind: str) -> str:
    """Make `project` hold a value no file can store; the field the message must name."""
    if kind == "surrogate":
        project.luns[1].name = "LUN \ud800"
        return "luns[1].name"
    project.luns[1].id = 2**63
    return "luns[1].id"


@pytest.mark.parametrize("kind,suffix", [("surrogate", ".arrayplan"), ("surrogate", ".json"),
                                         ("overflow", ".arrayplan")])
def test_a_save_that_raises_says_why_and_keeps_the_file(qtbot, isolated, monkeypatch, kind, suffix):
    path = isolated / f"plan{suffix}"
    w = make_window(qtbot)
    assert w.files.save_to(path)
    before = path.read_bytes()
    field = _unsavable(w.document.project, kind)
    assert drop_drive(w, "fc-15k-73", "0_0_12")
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    assert not w.files.save()  # File > Save
    assert len(shown) == 1, shown
    assert shown[0].startswith(f"{path}: ") and field in shown[0]
    assert ("64 bits" if kind == "overflow" else "cannot be saved") in shown[0]
    assert "not changed" in shown[0]
    assert path.read_bytes() == before and w.document.dirty
    # Save As to a new file: the same reason, and no file is left there
    other = isolated / f"other{suffix}"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(other), ""))
    assert not w.files.save_as()
    assert len(shown) == 2 and field in shown[1] and not other.exists()
    # the project and the window's lock on it (app/ui/file_guard.py), no temporary file
    assert sorted(p.name for p in isolated.iterdir() if p.is_file()) == sorted([path.name, f".{path.name}.lock"])
