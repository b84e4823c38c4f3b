"""The Inspector shows a selected RAID group's reliability from the newest prediction: rebuild
under the planned load, MTTDL, the DDP critical window, the URE chance (issue 24)."""
from __future__ import annotations

from configurator_support import EXAMPLES, isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest
from PySide6.QtWidgets import QLabel

from app.domain import edits
from app.engine import simulate
from app.store.project_file import load_project

pytestmark = pytest.mark.gui


def test_group_shows_reliability_of_the_prediction(qtbot, isolated):
    w = make_window(qtbot, load_project(EXAMPLES / "netapp-e5700-ddp.json"))
    doc = w.document
    w.selection.set([edits.ref_group(0)])
    settle(qtbot)
    assert w.inspector.reliability_form is None  # no prediction given to it yet
    result = simulate(doc.project, doc.catalog, doc.project.scenarios[0].name)
    w.inspector.set_result(result)
    settle(qtbot)
    form = w.inspector.reliability_form
    assert form is not None
    texts = [lab.text() for lab in form.findChildren(QLabel)]
    rel = result.reliability[0]
    assert any("years" in t for t in texts)  # the MTTDL
    assert any("exposed to a 3rd failure" in t for t in texts) and rel.critical_h is not None
    assert any("corrected by the 2nd parity" in t for t in texts)
