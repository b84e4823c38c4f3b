"""The canvas refuses a 3.5" drive over a 2.5" enclosure during the drag, saying why (it used to
fill the MD3220's 2.5" slots with it)."""
from __future__ import annotations

from configurator_support import drag_drop, isolated, make_window, palette_mime, settle, slot_center  # noqa: F401

import pytest
from PySide6.QtCore import QPointF

from app.domain import edits
from app.store.presets import default_catalog
from app.ui.canvas import EnclosureItem
from app.ui.new_dialog import empty_project

pytestmark = pytest.mark.gui
WHY = 'MD3220 RAID enclosure, 24 x 2.5" takes 2.5" drives, not 3.5"'


def test_a_drive_of_another_size_is_refused_during_the_drag(qtbot, isolated):
    cat = default_catalog()
    p = empty_project(cat, "dell-md3200")
    edits.AddEnclosure(0, 0, "md3220").do(p)
    w = make_window(qtbot, p)
    refused = []
    w.canvas.layout_scene.dropRefused.connect(lambda why, _pos: refused.append(why))
    item = next(it for it in w.canvas.layout_scene.items() if isinstance(it, EnclosureItem) and it.enc_id == "0_0")
    label = QPointF(item.sceneBoundingRect().left() + 20, item.sceneBoundingRect().top() + 15)
    assert not drag_drop(w.canvas, palette_mime(w, "drive", "sas-15k-300"), label)
    assert refused[-1] == WHY
    assert not drag_drop(w.canvas, palette_mime(w, "drive", "sas-15k-300"), slot_center(w, "0_0_3"))
    assert refused[-1] == WHY
    settle(qtbot)
    assert w.document.project.drives == {}
    assert w.statusBar().currentMessage() == f"Refused: {WHY}"
    assert drag_drop(w.canvas, palette_mime(w, "drive", "sas-10k-300"), slot_center(w, "0_0_3"))
    assert list(w.document.project.drives) == ["0_0_3"]


def test_the_palette_names_a_drive_s_size_where_the_catalog_states_it(qtbot, isolated):
    """Two 300 GB SAS drives of the MD3200 differ in size: the palette says which is which."""
    cat = default_catalog()
    w = make_window(qtbot, empty_project(cat, "dell-md3200"))
    text = {w.palette.item_for("drive", t).text(0) for t in ("sas-15k-300", "sas-10k-300")}
    assert text == {'15k SAS  300 GB  3.5"', '10k SAS  300 GB  2.5"'}
