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


def test_mapping_names_groups_as_the_tree_does(qtbot, isolated):
    """The mapping's choices and the charts' legends name a RAID group as the tree does
    ("RAID Group 0" on the CX4, "Disk Group 0" on a Dell, or its own name), never "RG 0"."""
    from app.domain.hardware import group_noun, group_title
    from app.domain.measured_replay import target_label
    from app.domain.user_names import RAW_ID
    from app.store.measured import read_measured, sample_file
    from app.ui.document import Document
    from app.ui.measured_dialogs import ImportMeasuredDialog

    cat = catalog()
    doc = Document(small_project(cat), cat)
    doc.project.groups[0].name = "Logs"
    dialog = ImportMeasuredDialog(doc, read_measured(sample_file()))
    qtbot.addWidget(dialog)
    noun = group_noun(doc.platform, in_sentence=True)
    groups = [r for r in range(dialog.table.rowCount()) if dialog.table.item(r, 1).text() == noun]
    assert groups, [dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())]
    combo = dialog.table.cellWidget(groups[0], 3)
    choices = [combo.itemText(i) for i in range(combo.count())]
    expected = [group_title(doc.platform, g.id, g.name) for g in doc.project.groups]
    assert choices[1:] == expected and "Logs" in choices, choices
    assert not any(RAW_ID.search(c) for c in choices), choices
    for g in doc.project.groups:
        assert target_label(f"group:{g.id}", doc.project, doc.platform) == group_title(doc.platform, g.id, g.name)
