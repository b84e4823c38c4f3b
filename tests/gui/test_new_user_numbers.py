"""Issue 23, wrong or misleading numbers a new user meets: a result from another project is never
shown, saturation and names on the charts, a failed drive in the heat map, deletions that say
what they do to workloads and events."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QStandardPaths  # noqa: E402

from app.domain.project import Workload  # noqa: E402

try:
    from test_live_support import catalog, small_project, timeline_window
except ImportError:
    from tests.gui.test_live_support import catalog, small_project, timeline_window

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)


def _invalid_project(cat):
    p = small_project(cat)
    p.workloads = [Workload("w9", "Mail", [77], iops=300)]  # LUN 77 does not exist
    return p


def test_opening_an_invalid_project_never_shows_the_previous_projects_curves(qtbot):
    window, doc, parts = timeline_window(qtbot, small_project(catalog()))
    assert parts.charts.curve("response_ms", "w1") is not None  # the first project's curve
    doc.replace_project(_invalid_project(catalog()))
    qtbot.waitUntil(lambda: not parts.live.busy and parts.charts.stale, timeout=10000)
    assert parts.live.result is None
    assert parts.charts.result is None
    assert parts.charts.curve("response_ms", "w1") is None
    assert all(not curves for curves in parts.charts.shown.values())
    banner = parts.charts.stale_banner.text()
    assert banner.startswith("No prediction:") and "last good prediction" not in banner
    assert parts.timeline.result is None
