"""The measured-data samples ship with the app (issue 23): the "import-measured" dialog a new
user meets (app/ui/new_user_dialogs.py, app.ui.screenshot --dialog) reads the sample under the
bundled presets/samples/measured/, not tests/fixtures, which an installed app does not have."""
from __future__ import annotations

import shutil
import sys

from configurator_support import isolated  # noqa: F401  (a fixture)
from test_live_support import FakeEngine, catalog, small_project

import pytest

pytestmark = pytest.mark.gui


def test_import_measured_opener_reads_the_bundled_sample(qtbot, monkeypatch, tmp_path, isolated):
    import app.store.measured as measured
    from app.store.presets import builtin_presets_dir
    from app.ui.document import Document
    from app.ui.main_window import MainWindow
    from app.ui.new_user_dialogs import open_dialog

    cat = catalog()
    window = MainWindow(Document(small_project(cat), cat), plugins=("app.ui.timeline",))
    window.files.maybe_save = lambda: True
    qtbot.addWidget(window)
    window.plugins["app.ui.timeline"].live.simulate = FakeEngine()

    # a frozen app: its data folder holds presets/ and nothing of the source tree
    bundle = tmp_path / "_internal"
    shutil.copytree(builtin_presets_dir() / "samples", bundle / "presets" / "samples")
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    read = []
    real = measured.read_measured
    monkeypatch.setattr(measured, "read_measured", lambda path, fmt=None: read.append(path) or real(path, fmt))

    dialog = open_dialog(window, "import-measured")
    qtbot.addWidget(dialog)
    assert read and all(str(p).startswith(str(bundle)) for p in read), read
    assert dialog.isVisible() and dialog.data.format == "unisphere-analyzer"
    assert dialog.data.skipped == []  # a sample, not the test fixture with its deliberate bad cell
    dialog.reject()
