"""Issue 23, capacities: formatted (not nominal) drive capacity, the CX4 vault's reserved space,
read + write cache beyond the cache memory, and the capacity summary on the Array page."""
from __future__ import annotations

import pytest
from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)
from PySide6.QtWidgets import QLabel, QTableWidget

from app.domain import edits
from app.domain.capacity import array_space
from app.domain.validation import validate

pytestmark = pytest.mark.gui


def _table(w) -> QTableWidget:
    return w.inspector.array_page.findChild(QTableWidget, "capacityTable")


def test_the_array_page_shows_formatted_capacity_and_the_vault(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    space = array_space(doc.project, doc.catalog)
    rg3 = next(g for g in space.groups if g.group_id == 3)  # 8+2 R6 of 1 TB SATA, no vault drive
    assert rg3.formatted_gb == pytest.approx(rg3.raw_gb * 0.917)  # "1000 GB" is not 1000 GB formatted
    rg0 = next(g for g in space.groups if g.group_id == 0)  # on 0_0_0..0_0_4: the vault
    assert rg0.vault_gb == pytest.approx(5 * 62.0) and rg0.usable_gb < 0.917 * 4 * 73 - 4 * 62 + 1e-6
    table = _table(w)
    assert table is not None
    texts = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
    assert texts[-1][0] == "Total" and texts[0][0] == "RAID Group 0"
    notes = w.inspector.array_page.findChild(QLabel, "capacityNotes").text()
    assert "Vault: 5 drives" in notes and "Hot spares:" in notes and "U of rack" in notes
    # an edit of the layout refreshes the summary
    before = table.item(table.rowCount() - 1, 1).text()
    assert doc.try_apply(edits.PlaceDrive("0_0_12", "fc-15k-146")) is None
    settle(qtbot, 20)
    table = _table(w)
    assert table.item(table.rowCount() - 1, 1).text() != before


def test_read_and_write_cache_beyond_the_cache_memory_is_a_warning(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    assert doc.try_apply(edits.SetCacheSetting("read_cache_mb", 10764, "read cache")) is None
    texts = [i.text for i in validate(doc.project, doc.catalog) if i.severity == "warning"]
    assert any("more than the 10,764 MB of cache memory" in t for t in texts)


def test_luns_beyond_the_formatted_space_are_a_warning(qtbot, isolated):
    w = make_window(qtbot)
    doc = w.document
    warnings = [i for i in validate(doc.project, doc.catalog) if i.where == "RG 0"]
    assert any("vault drives" in i.text and "formatted" in i.text for i in warnings)
