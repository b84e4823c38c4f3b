"""Issue 21, items 7-9: the report PDF never replaces a good file with a broken one, never follows
a planted link, and its cost stays bounded for huge notes and plans.

A full disk is simulated without root tricks: RLIMIT_FSIZE in a subprocess (SIGXFSZ ignored), so
every write past the limit fails with EFBIG as it would with ENOSPC on a full disk.
"""
from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EXAMPLE = ROOT / "presets" / "examples" / "emc-cx4-960-oltp.json"

# run `arrayplanner ARGS` with a file size limit; stdout/stderr are pipes (not limited files)
_LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
from app.cli import main
sys.exit(main(sys.argv[2:]))
"""


def headless_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    return env


def report_with_limit(limit: int, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _LIMITED, str(limit), "report", str(EXAMPLE), "-o", str(out),
                           "--no-canvas", *extra], capture_output=True, text=True, env=headless_env(), cwd=ROOT,
                          timeout=300)


@pytest.fixture(scope="module")
def good_pdf(tmp_path_factory) -> bytes:
    out = tmp_path_factory.mktemp("good") / "good.pdf"
    res = report_with_limit(resource.RLIM_INFINITY if resource.RLIM_INFINITY > 0 else 2**62, out)
    assert res.returncode == 0, res.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and len(data) > 50_000
    return data


# ---------------------------------------------------------------- item 7: a full disk

@pytest.mark.parametrize("fraction", [0.0, 0.15, 0.97])
def test_a_full_disk_keeps_the_old_pdf_and_exits_non_zero(tmp_path, good_pdf, fraction):
    """The disk fills at the start, early, or just before the end of the PDF (the last case:
    only the trailer is missing): exit 2, one line naming the file and the reason, the old PDF
    byte for byte, and no temporary file left in the folder."""
    out = tmp_path / "plan.pdf"
    out.write_bytes(good_pdf)
    res = report_with_limit(int(len(good_pdf) * fraction), out)
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    assert res.stdout == ""  # no "wrote ..."
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0] == (f"arrayplanner: {out}: cannot write the report: File too large; "
                        "the existing file is unchanged"), lines[0]
    assert out.read_bytes() == good_pdf
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.pdf"]


def test_a_full_disk_leaves_no_new_file(tmp_path, good_pdf):
    out = tmp_path / "new.pdf"
    res = report_with_limit(len(good_pdf) // 2, out)
    assert res.returncode == 2 and "File too large" in res.stderr and "unchanged" not in res.stderr, res.stderr
    assert list(tmp_path.iterdir()) == []


def test_enough_room_writes_the_pdf(tmp_path, good_pdf):
    """The limit itself is not what fails: with room for the PDF, the report is written."""
    out = tmp_path / "plan.pdf"
    out.write_bytes(b"old")
    res = report_with_limit(len(good_pdf) * 3, out)
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:5] == b"%PDF-" and out.read_bytes().rstrip().endswith(b"%%EOF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.pdf"]


# ---------------------------------------------------------------- in-process: the output's checks

@pytest.fixture
def fsize_limit():
    """Set a file size limit for this process (soft; raised back afterwards), SIGXFSZ ignored."""
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    old = resource.getrlimit(resource.RLIMIT_FSIZE)

    def set_limit(n: int) -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (n, old[1]))

    try:
        yield set_limit
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old)
        signal.signal(signal.SIGXFSZ, old_handler)


def _example():
    from app.store.presets import default_catalog
    from app.store.project_file import catalog_for, load_project

    project = load_project(EXAMPLE)
    return project, catalog_for(project, default_catalog())


def test_generate_report_raises_naming_the_target(tmp_path, qapp, fsize_limit):
    from app.report import ReportOptions, generate_report

    project, catalog = _example()
    out = tmp_path / "r.pdf"
    out.write_bytes(b"the previous report")
    fsize_limit(30_000)
    with pytest.raises(OSError) as err:
        generate_report(project, catalog, out, ReportOptions(charts=[]))
    fsize_limit(resource.RLIM_INFINITY)
    assert err.value.filename == str(out) and err.value.strerror == "File too large", err.value
    assert out.read_bytes() == b"the previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.pdf"]


def test_a_pdf_without_its_trailer_is_refused(tmp_path, qapp):
    """Bytes lost without an error from Qt (the size on disk or the trailer disagree) are
    caught too: here the writer 'forgets' the PDF's end."""
    from PySide6.QtGui import QPainter, QPdfWriter

    from app.report.output import PdfOutput

    out = tmp_path / "r.pdf"
    out.write_bytes(b"old")
    with pytest.raises(OSError, match="incomplete") as err:
        with PdfOutput(out) as o:
            w = QPdfWriter(o.device)
            p = QPainter(w)
            p.drawText(100, 100, "hello")
            p.end()
            del p, w
            o.device.seek(o.device.pos() - 8)  # overwrite "%%EOF\n" with blanks
            o.device.write(b" " * 8)
            o.commit()
    assert err.value.filename == str(out)
    assert out.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["r.pdf"]


def test_the_gui_says_why(qtbot, qapp, tmp_path, monkeypatch, fsize_limit):
    """File > Export report on a full disk: a message with the file and the reason, the old PDF
    kept."""
    from PySide6.QtCore import QSettings, QStandardPaths
    from PySide6.QtWidgets import QMainWindow

    from app.ui import report_dialog
    from app.ui.document import Document

    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.NativeFormat, QSettings.IniFormat):
        QSettings.setPath(fmt, QSettings.UserScope, str(tmp_path / "settings"))
    project, catalog = _example()
    window = QMainWindow()
    window.document = Document(project, catalog)
    qtbot.addWidget(window)
    shown = []
    monkeypatch.setattr(report_dialog.QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    out = tmp_path / "r.pdf"
    out.write_bytes(b"the previous report")
    dlg = report_dialog.ReportDialog(window.document, window, canvas=False)
    dlg.path_edit.setText(str(out))
    dlg.open_box.setChecked(False)
    fsize_limit(40_000)
    dlg.start()
    qtbot.waitUntil(lambda: dlg.job is None, timeout=120000)
    fsize_limit(resource.RLIM_INFINITY)
    assert dlg.info is None
    assert dlg.error == f"{out}: File too large", dlg.error
    assert shown and str(out) in shown[-1] and "File too large" in shown[-1] and "unchanged" in shown[-1], shown
    assert out.read_bytes() == b"the previous report"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "settings") == ["r.pdf"]


# ---------------------------------------------------------------- item 8: planted links

def test_a_planted_part_link_is_not_followed(tmp_path, qapp):
    """The old temporary name OUT.pdf.part, planted as a link to a victim file: the victim is
    untouched and the link is left alone."""
    from app.report import ReportOptions, generate_report

    project, catalog = _example()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "r.pdf"
    (tmp_path / "r.pdf.part").symlink_to(victim)
    generate_report(project, catalog, out, ReportOptions(charts=[], diagram=False))
    assert victim.read_text() == "precious"
    assert (tmp_path / "r.pdf.part").is_symlink()
    assert out.read_bytes()[:5] == b"%PDF-"


def test_the_temporary_name_is_never_an_existing_file_or_link(tmp_path, qapp, monkeypatch):
    """Even a link planted under the exact random name that comes up is not opened (O_EXCL,
    O_NOFOLLOW): the next name is used."""
    from app.report import ReportOptions, generate_report, output

    names = iter(["aaaaaaaa", "bbbbbbbb"])
    monkeypatch.setattr(output.secrets, "token_hex", lambda n: next(names))
    project, catalog = _example()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    planted = tmp_path / f".r.pdf.aaaaaaaa{output.PART_SUFFIX}"
    planted.symlink_to(victim)
    out = tmp_path / "r.pdf"
    generate_report(project, catalog, out, ReportOptions(charts=[], diagram=False))
    assert victim.read_text() == "precious" and planted.is_symlink()
    assert out.read_bytes()[:5] == b"%PDF-"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([planted.name, "r.pdf", "victim.txt"])


def test_a_report_path_that_is_a_link_writes_the_links_target(tmp_path, qapp):
    from app.report import ReportOptions, generate_report

    project, catalog = _example()
    real = tmp_path / "shared" / "plan.pdf"
    real.parent.mkdir()
    real.write_bytes(b"old")
    real.chmod(0o640)
    link = tmp_path / "plan.pdf"
    link.symlink_to(os.path.relpath(real, tmp_path))
    info = generate_report(project, catalog, link, ReportOptions(charts=[], diagram=False))
    assert link.is_symlink() and info.path == link
    assert real.read_bytes()[:5] == b"%PDF-" and (real.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in real.parent.iterdir()) == ["plan.pdf"]
