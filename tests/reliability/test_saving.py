"""Saving without losing work, the store's part (issue 21, items 5, 6, 14, 15): saves through
symbolic links, the stamps that tell a file changed on disk, the read-only check, and the removal
of what killed saves left (and of nothing else)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from app.store import disk
from app.store.project_file import ProjectFileError, load_project, save_project

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "presets" / "examples"
posix = pytest.mark.skipif(os.name != "posix", reason="POSIX links, modes and flock")


@pytest.fixture
def project():
    return load_project(EXAMPLES / "emc-cx4-960-oltp.json")


def _titled(project, title):
    project.info.title = title
    return project


# ---------------------------------------------------------------- symbolic links (item 5)

@posix
@pytest.mark.parametrize("suffix", [".arrayplan", ".json"])
def test_a_save_through_a_link_writes_its_target_and_the_link_stays(tmp_path, project, suffix):
    real = tmp_path / "shared"
    real.mkdir()
    target = real / f"plan{suffix}"
    save_project(_titled(project, "old"), target)
    link = tmp_path / f"link{suffix}"
    link.symlink_to(Path("shared") / target.name)  # relative, as `ln -s` makes them
    save_project(_titled(project, "new"), link)
    assert link.is_symlink() and os.readlink(link) == str(Path("shared") / target.name)
    assert load_project(target).info.title == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link" + suffix, "shared"]
    assert sorted(p.name for p in real.iterdir()) == [target.name]  # the temporary file was there


@posix
def test_a_chain_of_links_and_a_link_to_a_file_not_made_yet(tmp_path, project):
    target = tmp_path / "a" / "plan.arrayplan"
    target.parent.mkdir()
    (tmp_path / "one.arrayplan").symlink_to(target)  # dangling: the save creates the target
    (tmp_path / "two.arrayplan").symlink_to(tmp_path / "one.arrayplan")
    save_project(_titled(project, "via two links"), tmp_path / "two.arrayplan")
    assert (tmp_path / "one.arrayplan").is_symlink() and (tmp_path / "two.arrayplan").is_symlink()
    assert target.is_file() and not target.is_symlink()
    assert load_project(tmp_path / "two.arrayplan").info.title == "via two links"


@posix
def test_a_link_loop_and_a_link_into_a_missing_folder_are_refused(tmp_path, project):
    loop = tmp_path / "loop.arrayplan"
    loop.symlink_to(loop.name)
    with pytest.raises(ProjectFileError, match=r"loop.arrayplan: cannot be saved \(.*leads back to itself\)"):
        save_project(project, loop)
    assert loop.is_symlink()
    gone = tmp_path / "gone.arrayplan"
    gone.symlink_to(tmp_path / "nowhere" / "plan.arrayplan")
    with pytest.raises(ProjectFileError, match=r"gone.arrayplan \(a link to .*nowhere/plan.arrayplan\): the folder"):
        save_project(project, gone)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gone.arrayplan", "loop.arrayplan"]


# ---------------------------------------------------------------- changed on disk (item 6)

def test_a_stamp_tells_another_save_from_a_touch(tmp_path, project):
    path = tmp_path / "p.arrayplan"
    save_project(project, path)
    stamp = disk.DiskStamp.of(path)
    assert stamp is not None and stamp.unchanged(path)
    os.utime(path, ns=(stamp.mtime_ns + 5_000_000_000,) * 2)  # touched: same bytes
    assert stamp.unchanged(path)
    save_project(_titled(project, "saved by another window"), path)
    assert not stamp.unchanged(path)
    copy = path.read_bytes()
    stamp2 = disk.DiskStamp.of(path)
    path.unlink()
    assert not stamp2.unchanged(path)  # gone
    path.write_bytes(copy)  # the same bytes put back (a new inode, a new time): the same file
    assert stamp2.unchanged(path)
    assert disk.DiskStamp.of(tmp_path / "none") is None and disk.DiskStamp.of(tmp_path) is None


# ---------------------------------------------------------------- read-only files (item 15)

@posix
def test_read_only_by_its_mode_bits_even_for_root(tmp_path, project):
    path = tmp_path / "p.arrayplan"
    save_project(project, path)
    assert not disk.is_read_only(path)
    path.chmod(0o444)
    assert disk.is_read_only(path)  # root could write it (os.access says yes): the mode says no
    assert not disk.is_read_only(tmp_path / "none") and not disk.is_read_only(tmp_path)
    path.chmod(0o644)


@posix
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to become another user")
def test_read_only_for_a_user_who_may_not_write_it(project):
    """As user `nobody` (a forked child that drops root): a 0644 file of root's is read-only for
    them, their own 0644 file is not."""
    folder = Path(tempfile.mkdtemp(prefix="arrayplanner-ro-"))  # not under pytest's 0700 folder
    try:
        folder.chmod(0o755)
        roots, theirs = folder / "roots.arrayplan", folder / "theirs.arrayplan"
        for p in (roots, theirs):
            save_project(project, p)
            p.chmod(0o644)
        nobody = 65534
        os.chown(theirs, nobody, nobody)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: no pytest, no exceptions out of here
            code = 1
            try:
                os.close(r)
                os.setgroups([])
                os.setgid(nobody)
                os.setuid(nobody)
                os.write(w, f"{disk.is_read_only(roots)} {disk.is_read_only(theirs)}".encode())
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        with os.fdopen(r) as fh:
            answer = fh.read()
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert answer.split() == ["True", "False"]
    finally:
        shutil.rmtree(folder)


# ---------------------------------------------------------------- what killed saves leave (item 14)

def _litter(folder: Path) -> dict[str, Path]:
    """Files as a killed save (and other programs) leave them."""
    sqlite_head = b"SQLite format 3\x00" + bytes(52) + disk.APPLICATION_ID.to_bytes(4, "big") + bytes(28)
    files = {
        "ours": folder / ".plan.arrayplan.0123abcd.tmp",
        "its journal": folder / ".plan.arrayplan.0123abcd.tmp-journal",
        "orphan journal": folder / ".other.json.89abcdef.tmp-journal",
        "json": folder / ".notes.json.00000000.tmp",
        "no suffix, our db": folder / ".plan.00ff00ff.tmp",
        "a pdf's": folder / ".report.pdf.0123abcd.tmp",
        "another app's": folder / ".plan.00ff00fe.tmp",
        "not our pattern": folder / ".plan.arrayplan.xyz.tmp",
        "user's file": folder / "plan.arrayplan.0123abcd.tmp",
    }
    contents = {"ours": sqlite_head + b"half a save", "its journal": disk.JOURNAL_MAGIC,
                "no suffix, our db": sqlite_head, "another app's": b"SQLite format 3\x00" + bytes(84)}
    for key, p in files.items():
        p.write_bytes(contents.get(key, b""))
    return files


def test_only_our_dead_leftovers_are_removed(tmp_path, project):
    files = _litter(tmp_path)
    removed = disk.clean_leftovers(tmp_path)
    gone = {"ours", "its journal", "orphan journal", "json", "no suffix, our db"}
    assert sorted(removed) == sorted(files[k] for k in gone)
    assert {k for k, p in files.items() if p.exists()} == set(files) - gone


def test_a_save_and_an_open_folder_clean_up(tmp_path, project):
    files = _litter(tmp_path)
    save_project(project, tmp_path / "p.arrayplan")
    assert not files["ours"].exists() and not files["its journal"].exists() and files["a pdf's"].exists()


def test_a_live_save_in_this_process_is_left_alone(tmp_path, project):
    live = disk.new_temp_file(tmp_path, "p.arrayplan")
    try:
        Path(str(live.path) + "-journal").write_bytes(disk.JOURNAL_MAGIC)
        assert disk.clean_leftovers(tmp_path) == []
        save_project(project, tmp_path / "p.arrayplan")  # another save in the same folder
        assert live.path.exists() and Path(str(live.path) + "-journal").exists()
    finally:
        live.close()
    assert set(disk.clean_leftovers(tmp_path)) == {live.path, Path(str(live.path) + "-journal")}


@posix
def test_a_live_save_in_another_process_is_left_until_it_dies(tmp_path):
    code = ("import sys, time; from pathlib import Path; from app.store.disk import new_temp_file; "
            "t = new_temp_file(Path(sys.argv[1]), 'p.arrayplan'); print(t.path, flush=True); time.sleep(60)")
    child = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        live = Path(child.stdout.readline().strip())
        assert live.exists()
        assert disk.clean_leftovers(tmp_path) == [] and live.exists()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    assert disk.clean_leftovers(tmp_path) == [live]  # the kernel dropped its lock: at once, no minute's wait


@posix
def test_a_fifo_or_a_link_with_our_name_neither_hangs_nor_goes(tmp_path):
    fifo = tmp_path / ".p.arrayplan.0123abcd.tmp"
    os.mkfifo(fifo)
    victim = tmp_path / "precious.arrayplan"
    victim.write_text("keep")
    link = tmp_path / ".q.arrayplan.0123abcd.tmp"
    link.symlink_to(victim)
    started = time.monotonic()
    assert disk.clean_leftovers(tmp_path) == []
    assert time.monotonic() - started < 10  # (a hang would be forever)
    assert fifo.exists() and link.is_symlink() and victim.read_text() == "keep"


def test_without_flock_a_leftover_must_be_a_minute_old(tmp_path, monkeypatch):
    monkeypatch.setattr(disk, "fcntl", None)
    young, old = tmp_path / ".a.arrayplan.00000001.tmp", tmp_path / ".b.arrayplan.00000002.tmp"
    young.write_bytes(b"")
    old.write_bytes(b"")
    t = time.time() - disk.STALE_AFTER_S - 5
    os.utime(old, (t, t))
    assert disk.clean_leftovers(tmp_path) == [old] and young.exists()


def test_a_read_only_folder_is_no_error(tmp_path, project, monkeypatch):
    def refuse(path):
        raise PermissionError(13, "Permission denied")

    _litter(tmp_path)
    monkeypatch.setattr(disk.os, "unlink", refuse)
    assert disk.clean_leftovers(tmp_path) == []
    assert disk.clean_leftovers(tmp_path / "no such folder") == []
