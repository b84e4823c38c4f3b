"""Issue 23 cosmetics: LUN names in the RAID groups and LUNs tree; a refused maximum gets its unit."""
from __future__ import annotations

import pytest
from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)

from app.domain import edits

pytestmark = pytest.mark.gui


def test_the_tree_shows_a_luns_name(qtbot, isolated):
    w = make_window(qtbot)
    assert w.document.try_apply(edits.SetLunFields(0, name="Oracle data")) is None
    settle(qtbot, 20)
    texts = [it.text(0) for it in w.storage.findItems("LUN", __import__("PySide6.QtCore").QtCore.Qt.MatchStartsWith
                                                       | __import__("PySide6.QtCore").QtCore.Qt.MatchRecursive)]
    assert "LUN 0 Oracle data" in texts


def test_a_value_above_the_maximum_names_its_unit(qtbot, isolated):
    w = make_window(qtbot)
    spec = w.document.platform.cache_settings["read_cache_mb"]
    assert spec.check(20000).endswith("maximum 10764 MB")
