"""Fixtures shared by the GUI tests (the root tests/conftest.py sets Qt up)."""
from __future__ import annotations

import pytest


@pytest.fixture
def panel(qtbot):
    """A ChartsPanel of its own, 1200x900, shown (a module may define its own `panel`)."""
    from app.ui.charts import ChartsPanel

    p = ChartsPanel()
    qtbot.addWidget(p)
    p.resize(1200, 900)
    p.show()
    qtbot.waitExposed(p)
    return p
