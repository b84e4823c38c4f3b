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


# ---------------------------------------------------------------- item 9: bounded, near-linear

def _scaling():
    import importlib.util

    spec = importlib.util.spec_from_file_location("report_scaling", ROOT / "benchmarks" / "report_scaling.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_clip_text():
    from app.report.content import clip_text

    assert clip_text("short", 10) == "short"
    text = "word " * 100  # 500 characters
    cut = clip_text(text, 52)
    assert cut.startswith("word word") and cut.endswith("more characters)")
    kept = cut.split(" \u2026 (")[0]
    assert len(kept) <= 52 and not kept.endswith(" ")
    n = int(cut.split("(")[-1].split()[0].replace(",", ""))
    assert len(kept) + n >= len(text) - 1 and text.startswith(kept)
    assert clip_text("x" * 5000, 1000) == "x" * 1000 + " \u2026 (4,000 more characters)"  # no space: a hard cut


def test_huge_notes_are_cut_with_a_count(tmp_path, qapp):
    import shutil

    from app.report import ReportOptions, build_report, generate_report
    from app.report.content import MAX_NOTES_CHARS, Para

    sc = _scaling()
    project = sc.notes_project(1_600_000)
    project.scenarios[0].notes = "scenario " * 100_000
    results = _plan_results(project)
    report = build_report(project, _catalog(project), results, ReportOptions())
    paras = [b.text for b in report.blocks if isinstance(b, Para) and "more characters)" in b.text]
    assert len(paras) == 2  # the project's notes and the scenario's
    for text in paras:
        assert len(text) < MAX_NOTES_CHARS + 40
    kept = paras[0].split(" \u2026 (")[0]
    assert project.info.notes.startswith(kept)
    assert paras[0].endswith(f"({len(project.info.notes) - len(kept):,} more characters)")
    out = tmp_path / "notes.pdf"
    info = generate_report(project, _catalog(project), out, ReportOptions(), results=results)
    assert info.pages < 30, info.pages  # 1.6 MB of notes printed whole: 243 pages
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
        assert "more characters)" in " ".join(text.split())


def test_a_long_paragraph_is_laid_out_once(tmp_path, qapp, monkeypatch):
    """A paragraph over several pages is laid out once, not again for each page it is on (that
    made the report's time grow with the notes' length squared)."""
    from app.report import ReportOptions, generate_report
    from app.report import render

    sc = _scaling()
    project = sc.notes_project(19_000)  # under the cut: printed whole, over about six pages
    layouts = []
    original = render.PdfRenderer._text_layout

    def counted(self, text, *args, **kw):
        if len(text) > 10_000:
            layouts.append(len(text))
        return original(self, text, *args, **kw)

    monkeypatch.setattr(render.PdfRenderer, "_text_layout", counted)
    info = generate_report(project, _catalog(project), tmp_path / "r.pdf", ReportOptions(charts=[], diagram=False),
                           results=_plan_results(project))
    assert info.pages >= 6
    assert layouts == [19_000]


def _catalog(project):
    from app.store.presets import default_catalog
    from app.store.project_file import catalog_for

    return catalog_for(project, default_catalog())


def _plan_results(project):
    from app.report import simulate_scenarios

    return simulate_scenarios(project, _catalog(project), [s.name for s in project.scenarios])


def test_a_plan_of_many_operations_lists_a_bounded_part(tmp_path, qapp):
    """20,000 operations: the plan table lists the first MAX_OPERATIONS_LISTED by start time
    and counts the rest, the progress chart reads 8 columns of the progress block, never the
    whole block, and the PDF stays a few dozen pages."""
    from app.engine.result import SeriesBlock
    from app.report import ReportOptions, build_report, generate_report
    from app.report.content import MAX_OPERATIONS_LISTED, Chart, ReportBuilder, Table

    sc = _scaling()
    project, result = sc.many_operations(20_000, points=200)
    block = next(b for b in result.series.blocks if b.metric == "progress_pct")
    whole = []

    class Watched:  # the engine's Progress, recording a read of the whole matrix
        def __init__(self, inner):
            self.inner = inner

        def __call__(self):
            whole.append(1)
            return self.inner()

        def column(self, j):
            return self.inner.column(j)

    block.compute = Watched(block.compute)
    report = build_report(project, _catalog(project), {result.scenario: result}, ReportOptions())
    assert whole == []
    plan = next(b for b in report.blocks if isinstance(b, Table) and b.columns[0].title == "ID")
    ids = [r.cells[0] for r in plan.rows if r.style == "bold" and r.cells[0]]
    first = sorted(result.operations, key=lambda o: o.start_h)[:MAX_OPERATIONS_LISTED]
    assert ids == [o.event_id for o in first]
    assert plan.rows[-1].cells[1].startswith(f"\u2026 and {20_000 - MAX_OPERATIONS_LISTED:,} more operations")
    assert "--json" in plan.rows[-1].cells[1]
    progress = next(b for b in report.blocks if isinstance(b, Chart) and b.title == "Operation progress")
    assert progress.caption == "The 8 of 20,000 longest operations are shown." and len(progress.series) == 8
    longest = sorted(result.operations, key=lambda o: (-o.duration_h, o.event_id))[:8]
    assert [s.entity for s in ReportBuilder._longest_progress(result)] == [o.event_id for o in longest]
    info = generate_report(project, _catalog(project), tmp_path / "ops.pdf", ReportOptions(),
                           results={result.scenario: result})
    assert whole == [] and info.pages < 80, info.pages


def test_the_lun_table_is_bounded(qapp):
    from app.domain.project import Lun
    from app.report import ReportOptions, build_report
    from app.report.content import MAX_TABLE_ROWS, Table

    sc = _scaling()
    project = sc.notes_project(10)
    project.luns = [Lun(i, 0, 0.01, "SP A", f"l{i}") for i in range(MAX_TABLE_ROWS + 500)]
    report = build_report(project, _catalog(project), _plan_results(project), ReportOptions(charts=[]))
    luns = next(b for b in report.blocks if isinstance(b, Table) and b.columns[0].title == "LUN")
    assert len(luns.rows) == MAX_TABLE_ROWS + 1
    assert luns.rows[-1].cells[1].startswith("\u2026 and 500 more LUNs") and "export-json" in luns.rows[-1].cells[1]


def test_a_progress_column_is_the_matrix_column():
    import numpy as np

    from app.engine.recorded import Progress

    rng = np.random.default_rng(3)
    T, n = 50, 7
    t = np.linspace(0, 10, T)
    ends = rng.uniform(1, 12, n)
    cells = np.sort(rng.choice(T * n, 120, replace=False))
    moved = rng.uniform(0, 3000, len(cells))
    totals = np.array([2000.0, 0.0, 1500, 2500, 1000, 3000, 2200])
    for final in (None, rng.uniform(0, 100, n)):
        prog = Progress(t, ends, cells, moved, totals, final)
        V = prog()
        for j in range(n):
            np.testing.assert_array_equal(prog.column(j), V[:, j])


def test_clip_text_bounds_lines_too():
    from app.report.content import clip_text

    assert clip_text("a\nb\nc", 100, 5) == "a\nb\nc"
    assert clip_text("a\nb\nc\nd", 100, 2) == "a\nb \u2026 (4 more characters)"
    cut = clip_text("x\n" * 25_000, 20_000, 300)
    assert cut.count("\n") == 299 and cut.endswith("x \u2026 (49,401 more characters)")


def test_line_breaks_in_notes_are_kept(tmp_path, qapp):
    """Lines of the notes ran together ("notes.Second line"): QTextLayout drops a bare newline."""
    import shutil

    from app.report import ReportOptions, generate_report

    if not shutil.which("pdftotext"):
        pytest.skip("needs poppler-utils")
    sc = _scaling()
    project = sc.notes_project(10)
    project.info.notes = "First line of the notes.\nSecond line.\r\nThird line. " + "filler " * 150
    out = tmp_path / "r.pdf"
    generate_report(project, _catalog(project), out, ReportOptions(charts=[], diagram=False),
                    results=_plan_results(project))
    lines = [ln.strip() for ln in subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True,
                                                 check=True).stdout.splitlines()]
    i = lines.index("First line of the notes.")
    assert lines[i + 1] == "Second line." and lines[i + 2].startswith("Third line. filler")


def test_a_killed_exports_temporary_file_is_removed_by_the_next(tmp_path, qapp):
    """Only this report's own leftovers, older than an hour, regular files: a running export's
    file, another report's, a look-alike name and a link stay."""
    import time as _time

    from app.report import ReportOptions, generate_report
    from app.report.output import STALE_PART_S

    project, catalog = _example()
    old = _time.time() - STALE_PART_S - 60
    stale = tmp_path / ".r.pdf.0123abcd.part"
    running = tmp_path / ".r.pdf.89abcdef.part"
    other = tmp_path / ".s.pdf.0123abcd.part"
    lookalike = tmp_path / ".r.pdf.part"
    link = tmp_path / ".r.pdf.deadbeef.part"
    for f in (stale, running, other, lookalike):
        f.write_bytes(b"%PDF-1.4 partial")
    link.symlink_to(other)
    for f in (stale, other, lookalike):
        os.utime(f, (old, old))
    os.utime(link, (old, old), follow_symlinks=False)
    generate_report(project, catalog, tmp_path / "r.pdf", ReportOptions(charts=[], diagram=False))
    assert not stale.exists()
    assert running.exists() and other.exists() and lookalike.exists() and link.is_symlink()


def test_sigterm_during_an_export_leaves_no_temporary_file(tmp_path):
    """`kill` while the PDF is being written (signalled the moment its temporary file appears):
    exit 143, the old PDF as it was, no hidden file left."""
    import time as _time

    from app.domain.project import Lun
    from app.store.project_json import project_to_json

    project = _scaling().notes_project(10)
    project.luns = [Lun(i, 0, 0.01, "SP A", f"l{i}") for i in range(2000)]  # ~50 pages: a while to paint
    src = tmp_path / "luns.json"
    src.write_text(project_to_json(project))
    folder = tmp_path / "out"
    folder.mkdir()
    out = folder / "luns.pdf"
    out.write_bytes(b"the previous report")
    proc = subprocess.Popen([sys.executable, "-m", "app", "report", str(src), "-o", str(out), "--no-canvas"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=headless_env(), cwd=ROOT)
    seen = False
    while proc.poll() is None:
        if any(p.name.endswith(".part") for p in folder.iterdir()):
            seen = True
            proc.send_signal(signal.SIGTERM)
            break
        _time.sleep(0.001)
    _, err = proc.communicate(timeout=120)
    assert seen, "the export ended before its temporary file was seen"
    assert proc.returncode == 143, (proc.returncode, err)
    assert err.decode().strip() == (f"arrayplanner: {out}: the report was not written: terminated (SIGTERM); "
                                    "the existing file is unchanged")
    assert out.read_bytes() == b"the previous report"
    assert sorted(p.name for p in folder.iterdir()) == ["luns.pdf"]
