"""The platform's drive limit (max_drives, Dell MD3200: 96) holds while drives are dropped: a
drive placed at the limit is refused during the drag with the reason, and a fill of an
enclosure's empty slots fills up to the limit and says how many slots it left empty (validation
used to be the only one to complain, after 120 drives were in)."""
from __future__ import annotations

from configurator_support import drag_drop, isolated, make_window, palette_mime, settle, slot_center  # noqa: F401

import pytest
from PySide6.QtCore import QPointF

from app.domain import edits
from app.domain.validation import validate
from app.store.presets import default_catalog
from app.ui.new_dialog import empty_project

PLATFORM, DRIVE, ENCL = "dell-md3200", "sas-10k-300", "md1220"  # 24 x 2.5" slots, 2.5" drives


def _dell(n_enclosures: int):
    cat = default_catalog()
    p = empty_project(cat, PLATFORM)
    for i in range(n_enclosures):
        op = edits.AddEnclosure(0, i, ENCL)
        assert op.check(p, cat) is None
        op.do(p)
    return p, cat


def _fill(p, cat, enc_id, drive=DRIVE):
    op = edits.fill_enclosure(p, cat, enc_id, drive)
    why = op.check(p, cat)
    if why is None:
        op.do(p)
    return op, why


def test_fill_stops_at_the_limit_and_says_so():
    p, cat = _dell(5)
    limit = cat.platform(PLATFORM).max_drives
    for e in ("0_0", "0_1", "0_2", "0_3"):
        _op, why = _fill(p, cat, e)
        assert why is None
    assert len(p.drives) == 96 == limit
    op, why = _fill(p, cat, "0_4")  # nothing fits any more: refused, with the reason
    assert why == "the Dell PowerVault MD3200 (6 Gb SAS) addresses at most 96 drives; the project has 96"
    assert len(p.drives) == 96

    p, cat = _dell(5)
    for loc in ("0_4_0", "0_4_1", "0_4_2"):  # 3 drives first: the fourth fill has room for 21
        edits.PlaceDrive(loc, DRIVE).do(p)
    for e in ("0_0", "0_1", "0_2"):
        _fill(p, cat, e)
    op, why = _fill(p, cat, "0_3")
    assert why is None and len(p.drives) == 96
    assert op.text == "Fill enclosure 0_3 with 21 drives"
    assert op.note == "3 slots left empty: the Dell PowerVault MD3200 (6 Gb SAS) addresses at most 96 drives"
    assert not [i for i in validate(p, cat) if i.severity == "error"]
    op.undo(p)
    assert len(p.drives) == 75


def test_place_at_the_limit_is_refused_but_a_move_is_not():
    p, cat = _dell(4)
    for e in ("0_0", "0_1", "0_2", "0_3"):
        _fill(p, cat, e)
    edits.RemoveDrive("0_3_23").do(p)
    assert edits.PlaceDrive("0_3_23", DRIVE).check(p, cat) is None  # the 96th
    edits.PlaceDrive("0_3_23", DRIVE).do(p)
    edits.AddEnclosure(0, 4, ENCL).do(p)
    assert edits.PlaceDrive("0_4_0", DRIVE).check(p, cat) == (
        "the Dell PowerVault MD3200 (6 Gb SAS) addresses at most 96 drives; the project has 96")
    assert edits.MoveDrive("0_3_23", "0_4_0").check(p, cat) is None  # the count stays 96


def test_no_limit_no_change():
    cat = default_catalog()
    p = empty_project(cat, "hp-sa6402-msa30")  # no max_drives
    assert cat.platform("hp-sa6402-msa30").max_drives == 0
    encl = next(iter(cat.platform("hp-sa6402-msa30").enclosure_types))
    edits.AddEnclosure(0, 0, encl).do(p)
    op, why = _fill(p, cat, "0_0", "scsi-15k-36")
    assert why is None and len(p.drives) == 14 and op.note == ""


@pytest.mark.gui
def test_canvas_refuses_a_drop_past_the_limit_during_the_drag(qtbot, isolated):
    p, cat = _dell(5)
    for e in ("0_0", "0_1", "0_2"):
        _fill(p, cat, e)
    edits.PlaceDrive("0_4_0", DRIVE).do(p)  # 73 drives: the fill of 0_3 has room for 23 of 24
    w = make_window(qtbot, p)
    doc = w.document
    refused = []
    w.canvas.layout_scene.dropRefused.connect(lambda why, _pos: refused.append(why))
    from app.ui.canvas import EnclosureItem

    def label(enc_id):
        item = next(it for it in w.canvas.layout_scene.items()
                    if isinstance(it, EnclosureItem) and it.enc_id == enc_id)
        r = item.sceneBoundingRect()
        return QPointF(r.left() + 20, r.top() + 15)

    assert drag_drop(w.canvas, palette_mime(w, "drive", DRIVE), label("0_3"))
    settle(qtbot)
    assert len(doc.project.drives) == 96
    assert w.statusBar().currentMessage() == (
        "Fill enclosure 0_3 with 23 drives (1 slot left empty: the Dell PowerVault MD3200 (6 Gb SAS) "
        "addresses at most 96 drives)")
    reason = "the Dell PowerVault MD3200 (6 Gb SAS) addresses at most 96 drives; the project has 96"
    assert not drag_drop(w.canvas, palette_mime(w, "drive", DRIVE), label("0_4"))
    assert refused[-1] == reason
    assert not drag_drop(w.canvas, palette_mime(w, "drive", DRIVE), slot_center(w, "0_4_5"))
    assert refused[-1] == reason
    settle(qtbot)
    assert len(doc.project.drives) == 96
    assert w.statusBar().currentMessage() == f"Refused: {reason}"
    w.grab().save(str(isolated / "dell_limit.png"))
