"""File > Import measured data / Calibrate to measured data (issue 25): the file is read off the
GUI thread, the mapping dialog changes nothing until accepted, the import and the calibration
are one undoable edit each, and the document's catalog follows the calibrated platform."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QSettings, QStandardPaths  # noqa: E402
from PySide6.QtWidgets import QMainWindow  # noqa: E402

from app.store.presets import default_catalog  # noqa: E402

pytestmark = pytest.mark.gui
FIX = Path(__file__).resolve().parents[1] / "fixtures" / "measured"


class FakeWindow(QMainWindow):
    def __init__(self, document):
        super().__init__()
        self.document = document
        self._menus = {}
        self.messages = []
        f = self.menu("File")
        self._file_tail = f.addSeparator()

    def menu(self, name):
        if name not in self._menus:
            self._menus[name] = self.menuBar().addMenu(name)
        return self._menus[name]

    def status(self, text, timeout_ms=0):
        self.messages.append(text)


@pytest.fixture
def window(tmp_path, qapp):
    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.NativeFormat, QSettings.IniFormat):
        QSettings.setPath(fmt, QSettings.UserScope, str(tmp_path / "settings"))
    from app.store.examples import example_path
    from app.store.project_file import load_project
    from app.ui.document import Document

    w = FakeWindow(Document(load_project(example_path("emc-cx4-960-oltp")), default_catalog()))
    yield w
    w.close()


def test_import_map_calibrate_and_undo(window, qtbot):
    from app.ui.measured_dialogs import CalibrateDialog, ImportMeasuredDialog, install

    plugin = install(window)
    doc = window.document
    assert not plugin.act_calibrate.isEnabled()
    plugin.import_file(FIX / "analyzer-archivedump.csv")
    qtbot.waitUntil(lambda: isinstance(plugin.dialog, ImportMeasuredDialog), timeout=20000)
    dlg = plugin.dialog
    assert doc.project.measured is None  # nothing changes before the user accepts
    assert dlg.combos["lun:OLTP 0 [0]"].currentData() == "lun:0"
    dlg.combos["sp:SP B"].setCurrentIndex(0)  # the user leaves SP B out
    dlg.accept()
    assert doc.project.measured.mapping["sp:SP B"] == "" and doc.project.measured.mapping["sp:SP A"] == "sp:SP A"
    assert plugin.act_calibrate.isEnabled()

    cal = CalibrateDialog(doc, window)
    qtbot.waitUntil(lambda: cal.result is not None, timeout=120000)
    assert cal.apply_button.isEnabled() and cal.params.rowCount() == len(cal.result.calibration.parameters)
    assert set(cal.charts.plots) == {"response_ms", "util_pct"}
    base = doc.project.platform_id
    cal.accept()
    assert doc.project.platform_id == f"{base}-calibrated"
    assert doc.platform.id == f"{base}-calibrated" and not doc.platform.builtin  # the catalog followed
    # View > Measured vs predicted: calibrated against uncalibrated, and what the calibration moved
    from app.ui.measured_dialogs import CompareDialog

    cmp = CompareDialog(doc, window)
    qtbot.waitUntil(lambda: bool(cmp.charts.plots), timeout=60000)
    moved = doc.project.calibration.parameters
    assert cmp.params.rowCount() == len(moved)
    assert [cmp.params.item(r, 0).text() for r in range(len(moved))] == [p.path for p in moved]
    cpu = next(r for r, p in enumerate(moved) if p.path == "host.cpu_us_per_io")
    assert cmp.params.item(cpu, 3).text() == f"{moved[cpu].moved_pct:+.1f}%"
    assert "RMS response_ms" in cmp.label.text()
    cmp.reject()
    doc.undo_stack.undo()
    assert doc.project.platform_id == base and doc.platform.builtin and doc.project.calibration is None
    doc.undo_stack.undo()
    assert doc.project.measured is None


def test_unreadable_file_says_why(window, qtbot, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from app.ui.measured_dialogs import install

    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a: said.append(a[2]))
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    plugin = install(window)
    plugin.import_file(bad)
    qtbot.waitUntil(lambda: bool(said), timeout=20000)
    assert "bad.csv: not a measured-data file" in said[0] and window.document.project.measured is None


def _snapshot(doc):
    from app.store.project_json import project_to_dict

    return project_to_dict(doc.project), doc.project.platform_id, doc.undo_stack.count(), doc.dirty


def test_cancel_leaves_the_project_identical(window, qtbot):
    """Cancel in the import dialog (after changing its mapping), in the calibration dialog after the
    fit and during it: the project, its platform, the undo stack and the dirty flag stay as they were."""
    from app.ui.measured_dialogs import CalibrateDialog, ImportMeasuredDialog, install

    plugin = install(window)
    doc = window.document
    untouched = _snapshot(doc)
    plugin.import_file(FIX / "analyzer-archivedump.csv")
    qtbot.waitUntil(lambda: isinstance(plugin.dialog, ImportMeasuredDialog), timeout=20000)
    plugin.dialog.combos["lun:OLTP 0 [0]"].setCurrentIndex(0)
    plugin.dialog.reject()
    assert _snapshot(doc) == untouched and not untouched[3]

    plugin.dialog = None
    plugin.import_file(FIX / "analyzer-archivedump.csv")
    qtbot.waitUntil(lambda: isinstance(plugin.dialog, ImportMeasuredDialog), timeout=20000)
    assert plugin.dialog.combos["lun:OLTP 0 [0]"].currentData() == "lun:0"  # the cancelled change left no trace
    plugin.dialog.accept()
    imported = _snapshot(doc)
    assert imported[2] == 1 and imported[0] != untouched[0]

    cal = CalibrateDialog(doc, window)
    qtbot.waitUntil(lambda: cal.result is not None, timeout=120000)
    cal.reject()  # the fit is shown, not applied
    assert _snapshot(doc) == imported
    early = CalibrateDialog(doc, window)
    early.reject()  # cancelled while fitting: the worker stops, nothing is applied
    assert early.job.wait(1000) and early.result is None
    qtbot.wait(50)
    assert _snapshot(doc) == imported and doc.project.calibration is None


def test_reimport_starts_from_the_remembered_mapping(window, qtbot):
    """The project keeps the mapping the user chose; a later import of the same objects starts from it."""
    from app.ui.measured_dialogs import ImportMeasuredDialog, install

    plugin = install(window)
    doc = window.document
    plugin.import_file(FIX / "analyzer-archivedump.csv")
    qtbot.waitUntil(lambda: isinstance(plugin.dialog, ImportMeasuredDialog), timeout=20000)
    first = plugin.dialog
    first.combos["lun:OLTP 1 [1]"].setCurrentIndex(first.combos["lun:OLTP 1 [1]"].findData("lun:5"))
    first.combos["sp:SP B"].setCurrentIndex(0)
    first.accept()
    assert doc.project.measured.mapping["lun:OLTP 1 [1]"] == "lun:5"
    plugin.import_file(FIX / "analyzer-archivedump.csv")
    qtbot.waitUntil(lambda: plugin.dialog is not first and isinstance(plugin.dialog, ImportMeasuredDialog), timeout=20000)
    again = plugin.dialog
    assert again.combos["lun:OLTP 1 [1]"].currentData() == "lun:5"  # not the name rule's lun:1
    assert again.combos["sp:SP B"].currentData() == ""
    assert again.combos["lun:OLTP 0 [0]"].currentData() == "lun:0"
    again.reject()
