"""Uncertainty bands in the window (app/ui/bands.py): sampled off the GUI thread after the point
estimate is shown, drawn under the curves, durations with their P10-P90; an edit cancels and
restarts the sampling; View > Uncertainty Bands off means no sampling."""
from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QSettings, QStandardPaths

from app.domain import edits
from app.service.runner import InProcessExecutor
from app.service.uncertainty import with_ranges

try:
    from test_live_support import PLATFORM, catalog, small_project
except ImportError:
    from tests.gui.test_live_support import PLATFORM, catalog, small_project

pytestmark = pytest.mark.timeout(40)
SAMPLES = 6


def real_engine(project, cat, scenario_name=None):
    from app.engine import simulate

    return simulate(project, cat, scenario_name)


@pytest.fixture
def settings(tmp_path, qapp):
    QStandardPaths.setTestModeEnabled(True)
    for fmt in (QSettings.NativeFormat, QSettings.IniFormat):
        QSettings.setPath(fmt, QSettings.UserScope, str(tmp_path / "settings"))
    QSettings().clear()
    QSettings().setValue("view/uncertainty_bands", True)
    return tmp_path


@pytest.fixture
def calls(monkeypatch):
    """Each compute_bands call the GUI makes: (thread name, its cancel Event); `gate` holds a
    sampling back until set (so an edit can arrive while it runs)."""
    import app.ui.bands as bands_ui

    real = bands_ui.compute_bands
    record = {"calls": [], "gate": threading.Event()}
    record["gate"].set()

    def wrapped(*args, **kwargs):
        record["calls"].append((threading.current_thread().name, kwargs["cancel"]))
        record["gate"].wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(bands_ui, "compute_bands", wrapped)
    return record


def open_window(qtbot):
    from app.ui.document import Document
    from app.ui.main_window import MainWindow

    project = small_project(catalog())
    project.workloads[0].iops = 300  # light enough for the migration to finish in the plan
    project.scenario().events[0].priority = "High"
    # the shipped CX4 ranges move the host path, not the migration's rate: give the High rate
    # (emc Table 1: 3.4 MB/s) a range so that the duration has one
    cat = with_ranges(catalog(), PLATFORM, {"policy.migration.High.mb_s": (2.8, 4.1)})
    doc = Document(project, cat)
    window = MainWindow(doc, plugins=("app.ui.timeline", "app.ui.bands"))
    window.files.maybe_save = lambda: True
    qtbot.addWidget(window)
    parts = window.plugins["app.ui.timeline"]
    bands = window.plugins["app.ui.bands"]
    bands.sampler.samples = SAMPLES
    bands.sampler.executor = InProcessExecutor()  # the runs on the sampling thread, not a pool
    parts.live.simulate = real_engine
    window.resize(1400, 900)
    window.show()
    return window, doc, parts, bands


def shown(bands_parts):
    return bands_parts.sampler.bands is not None


def test_bands_appear_after_the_point_estimate(qtbot, settings, calls):
    window, doc, parts, bands = open_window(qtbot)
    parts.live.request()
    qtbot.waitUntil(lambda: shown(bands), timeout=30000)
    sampler = bands.sampler
    # sampled around the prediction on screen, on a thread of its own
    assert sampler.bands_of is parts.live.live
    assert calls["calls"] and all(name == "uncertainty-bands" for name, _ in calls["calls"])
    assert sampler.bands.parameters, "the CX4 rates carry ranges (presets/rates/clariion-flare28.toml)"
    assert sampler.bands.runs == SAMPLES
    # the charts draw a band under the response curve and the utilisation curves
    assert ("response_ms", "w1") in parts.charts.band_overlay.shown_pairs("response")
    assert parts.charts.band_overlay.shown_pairs("disk")
    item = parts.charts.band_overlay.items["response"][("response_ms", "w1")]
    assert item.fill.isVisible() and not item.fill.path().isEmpty()
    # the migration's duration with its range, on the bar and in its tooltip
    op_item = parts.timeline.gantt.items["op1"]
    assert "P10-P90" in op_item.note or "P90 not finished" in op_item.note
    assert "P10" in op_item.tooltip_text()
    # the inspector of the selected operation says the same
    window.selection.set(["op1"])
    qtbot.waitUntil(lambda: window.inspector.duration_label is not None
                    and "P10" in window.inspector.duration_label.text(), timeout=5000)
    # the Messages dock lists the range, and clicking it selects the operation
    listed = [(i, src) for i, src in window.messages._rows() if src == "uncertainty"]
    assert any(i.where == "op1" and "P10-P90" in i.text and i.severity == "info" for i, _ in listed)
    # the status bar says how the bands were made
    assert "runs" in window.statusBar().currentMessage()


def test_an_edit_cancels_the_sampling_and_restarts_it(qtbot, settings, calls):
    window, doc, parts, bands = open_window(qtbot)
    calls["gate"].clear()  # the first sampling waits until the edit has arrived
    ready = []
    bands.sampler.bandsReady.connect(lambda b, of: ready.append((b, of)))
    parts.live.request()
    qtbot.waitUntil(lambda: len(calls["calls"]) == 1, timeout=20000)
    first_live = parts.live.live
    first_cancel = calls["calls"][0][1]
    assert bands.sampler.busy
    assert bands.status.cancel_button.isVisibleTo(window)  # progress and Cancel in the status bar
    assert doc.try_apply(edits.SetEventPriority("op1", "Low")) is None
    assert first_cancel.is_set()  # the edit made it stale at once
    calls["gate"].set()
    qtbot.waitUntil(lambda: shown(bands) and bands.sampler.bands_of is parts.live.live
                    and parts.live.live is not first_live, timeout=30000)
    assert len(calls["calls"]) == 2
    # the stale sampling's bands never reached the screen
    assert all(of is not first_live for b, of in ready if b is not None)
    assert bands.sampler.bands_of.current.operations[0].priority == "Low"


def test_cancel_action_stops_the_sampling(qtbot, settings, calls):
    window, doc, parts, bands = open_window(qtbot)
    calls["gate"].clear()
    parts.live.request()
    qtbot.waitUntil(lambda: len(calls["calls"]) == 1, timeout=20000)
    assert bands.cancel_action.isEnabled()
    bands.cancel_action.trigger()
    assert calls["calls"][0][1].is_set() and not bands.sampler.busy
    assert not bands.cancel_action.isEnabled()
    calls["gate"].set()
    bands.sampler.wait(20)
    qtbot.wait(50)
    assert not shown(bands) and parts.charts.bands is None


def test_toggle_off_means_no_sampling_and_is_remembered(qtbot, settings, calls):
    window, doc, parts, bands = open_window(qtbot)
    bands.toggle.setChecked(False)
    assert QSettings().value("view/uncertainty_bands", type=bool) is False
    parts.live.request()
    qtbot.waitUntil(lambda: parts.live.live is not None and not parts.redrawing, timeout=20000)
    assert doc.try_apply(edits.SetEventPriority("op1", "Low")) is None
    qtbot.waitUntil(lambda: not parts.live.busy and parts.live.live.current.operations[0].priority == "Low",
                    timeout=20000)
    qtbot.wait(100)
    assert calls["calls"] == [] and bands.sampler.runs_started == 0
    assert parts.charts.bands is None
    assert "P10" not in parts.timeline.gantt.items["op1"].note
    # a new window starts with the bands off, as left
    window2, _doc2, _parts2, bands2 = open_window(qtbot)
    assert not bands2.toggle.isChecked() and not bands2.sampler.enabled
    # on again: the prediction on screen gets its bands
    bands.toggle.setChecked(True)
    qtbot.waitUntil(lambda: shown(bands), timeout=30000)
    assert bands.sampler.bands_of is parts.live.live


def test_the_report_prints_the_ranges_the_window_shows(qtbot, settings, calls, tmp_path, monkeypatch):
    import shutil
    import subprocess

    from app.ui import report_dialog

    window, doc, parts, bands = open_window(qtbot)
    parts.live.request()
    qtbot.waitUntil(lambda: shown(bands), timeout=30000)
    sampled = len(calls["calls"])
    monkeypatch.setattr(report_dialog.QDesktopServices, "openUrl", lambda url: None)
    QSettings().setValue("report/bands", "true")  # (the test suite's default is off: conftest)
    dlg = report_dialog.ReportDialog(doc, window, canvas=False)
    assert dlg.bands_box.isChecked()
    results, given = dlg._window_bands()
    assert given == {doc.project.current_scenario: bands.sampler.bands}
    for i in range(dlg.scenarios.count()):  # the scenario on screen only: its bands are the window's
        item = dlg.scenarios.item(i)
        item.setCheckState(report_dialog.Qt.Checked if item.text() == doc.project.current_scenario
                           else report_dialog.Qt.Unchecked)
    out = tmp_path / "bands.pdf"
    dlg.path_edit.setText(str(out))
    dlg.start()
    qtbot.waitUntil(lambda: dlg.info is not None or dlg.error is not None, timeout=30000)
    assert dlg.error is None and out.exists()
    assert len(calls["calls"]) == sampled  # the window's bands, not sampled again
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
        assert "(P10-P90" in text and f"{SAMPLES} engine runs" in text
