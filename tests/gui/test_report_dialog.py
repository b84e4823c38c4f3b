"""File > Export Report…: the dialog's options, the worker with progress and cancel, the refusal of
a project with errors, and opening the PDF in the system viewer."""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QSettings, QStandardPaths, Qt  # noqa: E402
from PySide6.QtWidgets import QMainWindow, QMessageBox, QPushButton  # noqa: E402

from app.store.presets import default_catalog  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture
def settings_in_tmp(tmp_path, qapp):
    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.NativeFormat, QSettings.IniFormat):
        QSettings.setPath(fmt, QSettings.UserScope, str(tmp_path / "settings"))
    QSettings().clear()
    return tmp_path


class FakeWindow(QMainWindow):
    """The part of the main window's plug-in API the report uses."""

    def __init__(self, document):
        super().__init__()
        self.document = document
        self._menus = {}
        self.messages = []
        f = self.menu("File")
        f.addAction("Save")
        self._file_tail = f.addSeparator()
        f.addAction("Quit")

    def menu(self, name):
        if name not in self._menus:
            self._menus[name] = self.menuBar().addMenu(name)
        return self._menus[name]

    def status(self, text, timeout_ms=0):
        self.messages.append(text)


def example_document(name="emc-cx4-960-oltp"):
    from app.store.examples import example_path
    from app.store.project_file import load_project
    from app.ui.document import Document

    return Document(load_project(example_path(name)), default_catalog())


@pytest.fixture
def window(qtbot, settings_in_tmp):
    w = FakeWindow(example_document())
    qtbot.addWidget(w)
    return w


def test_install_adds_the_menu_entries(window):
    from app.ui.report_dialog import install

    plugin = install(window)
    file_texts = [a.text() for a in window.menu("File").actions()]
    assert "Export &Report…" in file_texts
    assert file_texts.index("Export &Report…") < file_texts.index("Quit")  # before Quit
    assert plugin.action in window.menu("Report").actions()


def test_install_on_the_real_main_window(qtbot, settings_in_tmp):
    from app.ui.main_window import MainWindow

    w = MainWindow(example_document(), plugins=("app.ui.report_dialog",))
    qtbot.addWidget(w)
    assert "app.ui.report_dialog" in w.plugins
    assert any(a.text() == "Export &Report…" for a in w.menu("File").actions())


def test_options_follow_the_checkboxes(window, tmp_path):
    from app.ui.report_dialog import ReportDialog

    dlg = ReportDialog(window.document, window)
    names = [s.name for s in window.document.project.scenarios]
    for i in range(dlg.scenarios.count()):
        dlg.scenarios.item(i).setCheckState(Qt.Checked if i in (0, 2) else Qt.Unchecked)
    for key, cb in dlg.chart_boxes.items():
        cb.setChecked(key in ("response", "groups"))
    dlg.diagram_box.setChecked(False)
    dlg.page_size.setCurrentText("Letter")
    opts = dlg.options()
    assert opts.scenarios == [names[0], names[2]]
    dlg._check_all(Qt.Checked)
    assert dlg.chosen_scenarios() == names
    dlg._check_all(Qt.Unchecked)
    assert dlg.chosen_scenarios() == []
    assert opts.charts == ["response", "groups"]
    assert not opts.diagram and opts.page_size == "Letter"


def test_export_writes_the_pdf_with_progress_and_opens_it(window, tmp_path, qtbot, monkeypatch):
    from app.ui import report_dialog

    opened = []
    monkeypatch.setattr(report_dialog.QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    dlg = report_dialog.ReportDialog(window.document, window)
    out = tmp_path / "out" / "customer.pdf"
    dlg.path_edit.setText(str(out))
    dlg.open_box.setChecked(True)
    seen = []
    dlg.progress.valueChanged.connect(seen.append)
    dlg.start()
    assert dlg.job is not None and not dlg.export_button.isEnabled()
    qtbot.waitUntil(lambda: dlg.info is not None or dlg.error is not None, timeout=60000)
    assert dlg.error is None
    assert out.exists() and dlg.info.pages >= 5
    assert seen and seen[-1] == 1000 and seen == sorted(seen)
    assert opened == [str(out)]
    assert any("Report written" in m for m in window.messages)
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
        assert window.document.project.info.title.split(":")[0] in text
        assert "Layout" in text


def test_cancel_stops_the_worker_and_writes_nothing(window, tmp_path, qtbot, monkeypatch):
    import app.report as report_mod
    from app.ui import report_dialog

    gate = threading.Event()

    def slow_simulate(project, catalog, names, progress=None, cancelled=None, share=1.0):
        gate.set()
        while not cancelled():  # a long engine run that notices the cancel
            time.sleep(0.01)
        raise report_mod.ReportCancelled()

    monkeypatch.setattr(report_mod, "simulate_scenarios", slow_simulate)
    dlg = report_dialog.ReportDialog(window.document, window)
    out = tmp_path / "cancelled.pdf"
    dlg.path_edit.setText(str(out))
    dlg.start()
    qtbot.waitUntil(gate.is_set, timeout=10000)
    dlg.cancel_button.click()
    qtbot.waitUntil(lambda: dlg.job is None, timeout=10000)
    assert "Cancelled" in dlg.progress_label.text()
    assert dlg.export_button.isEnabled()
    assert not out.exists() and list(tmp_path.glob("*.part")) == []
    assert dlg.info is None and dlg.result() == 0  # the dialog stays open for another try


def test_a_project_with_errors_is_refused(window, tmp_path, qtbot, monkeypatch):
    from app.ui import report_dialog

    warned = []
    monkeypatch.setattr(report_dialog.QMessageBox, "warning",
                        lambda parent, title, text: warned.append(text) or QMessageBox.Ok)
    g = window.document.project.groups[0]
    g.drives = g.drives[:2]  # a RAID 5 of two drives
    dlg = report_dialog.ReportDialog(window.document, window)
    out = tmp_path / "bad.pdf"
    dlg.path_edit.setText(str(out))
    dlg.start()
    assert dlg.job is None and not out.exists()
    assert warned and "validation error" in warned[0] and "RAID Group 0" in warned[0]


def test_the_canvas_goes_into_the_pdf_in_page_sized_parts(qapp, tmp_path):
    """A full CX4-960 (8 buses x 8 enclosures) is recorded in parts, one or more bus lanes each,
    and printed as vectors (no raster image in the PDF)."""
    import importlib.util

    from app.report import ReportOptions, generate_report
    from app.ui.report_dialog import canvas_picture
    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "benchmarks" / "report.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    project = bench.large_project()
    project.scenarios[0].events = []  # the layout is what this test is about
    catalog = default_catalog()
    parts = canvas_picture(project, catalog)
    assert len(parts) >= 4
    assert all(bounds.height() <= 1000 for _, bounds in parts[:-1])  # the last one carries the legend
    path = tmp_path / "canvas.pdf"
    generate_report(project, catalog, path, ReportOptions(charts=[]), scene_picture=parts)
    if shutil.which("pdfimages"):
        out = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True).stdout
        assert len(out.strip().splitlines()) <= 2
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout
        for bus in range(8):
            assert f"Bus {bus}" in text  # every lane made it into the PDF
        assert "Encl 7_7" in text


def test_the_next_export_starts_in_the_last_folder(window, tmp_path, qtbot, monkeypatch):
    from app.ui import report_dialog

    monkeypatch.setattr(report_dialog.QDesktopServices, "openUrl", lambda url: True)
    dlg = report_dialog.ReportDialog(window.document, window)
    folder = tmp_path / "reports"
    dlg.path_edit.setText(str(folder / "first.pdf"))
    dlg.start()
    qtbot.waitUntil(lambda: dlg.info is not None or dlg.error is not None, timeout=60000)
    again = report_dialog.ReportDialog(window.document, window)
    assert Path(again.path_edit.text()).parent == folder
    assert Path(again.path_edit.text()).suffix == ".pdf"


def _unwritable(tmp_path) -> Path:
    """A report path that cannot be written, for root too: its folder is a regular file (as root,
    a read-only folder is writable)."""
    folder = tmp_path / "ro"
    folder.write_bytes(b"not a folder")
    return folder / "r.pdf"


def test_a_failed_write_names_the_report_and_is_not_remembered(window, tmp_path, qtbot, monkeypatch):
    from app.ui import report_dialog

    shown = []
    monkeypatch.setattr(report_dialog.QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    QSettings().setValue("report/last_dir", str(tmp_path))
    out = _unwritable(tmp_path)
    dlg = report_dialog.ReportDialog(window.document, window)
    dlg.path_edit.setText(str(out))
    dlg.start()
    qtbot.waitUntil(lambda: dlg.job is None, timeout=60000)
    assert dlg.info is None and dlg.error == f"{out}: Not a directory"
    assert ".part" not in shown[-1] and str(out) in shown[-1]
    assert QSettings().value("report/last_dir") == str(tmp_path)  # not the folder that failed
    good = tmp_path / "ok" / "r.pdf"
    dlg.path_edit.setText(str(good))
    dlg.open_box.setChecked(False)
    dlg.start()
    qtbot.waitUntil(lambda: dlg.job is None, timeout=60000)
    assert dlg.info is not None and good.exists()
    assert QSettings().value("report/last_dir") == str(good.parent)


def _report(path):
    from app.report import ReportOptions, generate_report

    doc = example_document()
    return generate_report(doc.project, doc.catalog, path, ReportOptions(charts=[], diagram=False))


def test_generate_report_names_the_target_not_the_part(qapp, tmp_path):
    out = _unwritable(tmp_path)
    with pytest.raises(OSError) as err:
        _report(out)
    assert err.value.filename == str(out) and ".part" not in str(err.value), err.value
    assert not out.exists()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="a read-only folder (root writes anyway)")
def test_a_read_only_folder(qapp, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(PermissionError) as err:
            _report(folder / "r.pdf")
        assert err.value.filename == str(folder / "r.pdf")
    finally:
        folder.chmod(0o755)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_overwriting_a_report_keeps_its_mode(qapp, tmp_path):
    out = tmp_path / "r.pdf"
    out.write_bytes(b"old")
    out.chmod(0o600)
    _report(out)
    assert out.read_bytes()[:5] == b"%PDF-" and (out.stat().st_mode & 0o777) == 0o600
    new = tmp_path / "new.pdf"
    old_umask = os.umask(0o022)
    try:
        _report(new)
    finally:
        os.umask(old_umask)
    assert new.stat().st_mode & 0o777 == 0o644  # a new file: as any program makes one


@pytest.mark.timeout(40)
@pytest.mark.parametrize("folder_opens", [False, True])
def test_no_pdf_viewer_is_said_and_the_folder_or_path_offered(window, tmp_path, qtbot, monkeypatch, folder_opens):
    """openUrl returns False when no viewer starts: the user is told where the report is, not left
    waiting for a window that never comes (issue 23)."""
    from types import SimpleNamespace

    from PySide6.QtGui import QGuiApplication

    from app.ui import report_dialog

    out = tmp_path / "reports" / "customer.pdf"
    out.parent.mkdir()
    out.write_bytes(b"%PDF-1.4\n")
    asked = []

    def open_url(url):
        asked.append(url.toLocalFile())
        return folder_opens and url.toLocalFile() == str(out.parent)

    monkeypatch.setattr(report_dialog.QDesktopServices, "openUrl", open_url)
    QGuiApplication.clipboard().setText("")
    dlg = report_dialog.ReportDialog(window.document, window)
    dlg.open_box.setChecked(True)
    dlg._finished(SimpleNamespace(path=out, pages=3))
    assert asked == [str(out)]
    box = window.findChild(QMessageBox, "noViewerBox")
    assert box is not None and box.isVisible()
    assert str(out) in box.text() and "no program to show PDF files" in box.text()
    box.findChild(QPushButton, "showFolder").click()
    assert asked == [str(out), str(out.parent)]
    # the folder shown: nothing else to do; not shown either: the path is on the clipboard
    assert QGuiApplication.clipboard().text() == ("" if folder_opens else str(out))
    qtbot.waitUntil(lambda: window.findChild(QMessageBox, "noViewerBox") is None, timeout=5000)


@pytest.mark.timeout(40)
def test_no_pdf_viewer_copy_path(window, tmp_path, monkeypatch):
    from PySide6.QtGui import QGuiApplication

    from app.ui import report_dialog

    out = tmp_path / "customer.pdf"
    monkeypatch.setattr(report_dialog.QDesktopServices, "openUrl", lambda url: False)
    QGuiApplication.clipboard().setText("")
    dlg = report_dialog.ReportDialog(window.document, window)
    dlg.open_in_viewer(out)
    window.findChild(QMessageBox, "noViewerBox").findChild(QPushButton, "copyPath").click()
    assert QGuiApplication.clipboard().text() == str(out)
    assert any(str(out) in m for m in window.messages)


def test_a_viewer_that_starts_shows_no_message(window, tmp_path, monkeypatch):
    from app.ui import report_dialog

    monkeypatch.setattr(report_dialog.QDesktopServices, "openUrl", lambda url: True)
    dlg = report_dialog.ReportDialog(window.document, window)
    dlg.open_in_viewer(tmp_path / "customer.pdf")
    assert window.findChild(QMessageBox, "noViewerBox") is None
