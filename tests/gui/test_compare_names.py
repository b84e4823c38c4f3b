"""The scenario comparison names RAID groups as the user knows them (issue 23, "RG" vs "Disk
Group"): the busiest component and the worst group's MTTDL read "Disk Group 3" on a Dell array
whose groups have no names of their own, the group's own name when it has one, never the
engine's "RG 3"; in the table, its CSV and the report's rows alike (one compare())."""
from __future__ import annotations

import csv

from configurator_support import EXAMPLES, isolated  # noqa: F401  (fixtures)

import pytest

from app.domain.user_names import RAW_ID

pytestmark = pytest.mark.gui

# the Dell ME5 example: a drive fails in the ADAPT group or in the RAID 6 group; the busiest
# component is a disk group (the MD3200 example's is its controller I/O limit)
ME5 = "dell-me5-adapt.json"
BASE, CUR = "RAID 6 drive fails (High)", "ADAPT drive fails (High)"


def _texts(table):
    t = table.table
    return [[t.item(r, c).text() if t.item(r, c) else "" for c in range(t.columnCount())]
            for r in range(t.rowCount())]


def test_busiest_and_mttdl_name_the_disk_group_not_rg(qtbot, isolated, catalog):
    from app.engine import simulate
    from app.store.project_file import load_project
    from app.ui.scenarios import CompareTable

    p = load_project(EXAMPLES / ME5)
    for g in p.groups:  # a project built from blank: the groups were never named
        g.name = ""
    base, cur = simulate(p, catalog, BASE), simulate(p, catalog, CUR)
    table = CompareTable()
    qtbot.addWidget(table)
    table.resize(800, 600)
    table.set_results(cur, base, p, catalog)
    texts = _texts(table)
    busiest = next(t for t in texts if t[0].strip() == "Busiest component (peak)")
    mttdl = next(t for t in texts if t[0].strip().startswith("MTTDL (worst"))
    assert "Disk Group " in " ".join(busiest), busiest
    assert mttdl[0].strip() == "MTTDL (worst disk group)"
    assert "Disk Group " in " ".join(mttdl), mttdl
    for row in texts:  # no engine id anywhere in the table
        assert not any(RAW_ID.search(cell) for cell in row), row

    path = isolated / "compare.csv"
    table.export_csv(path)
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    notes = [r[-1] for r in rows if r[1] in ("Busiest component (peak)", "MTTDL (worst disk group)")]
    assert len(notes) == 2 and all(n.startswith("Disk Group ") for n in notes), notes

    # a group the user named keeps its name, with the platform's noun saying what it is
    gid = int(next(e for e in cur.entities("group_pct")
                   if cur.get("group_pct", e).peak() == max(cur.get("group_pct", x).peak()
                                                            for x in cur.entities("group_pct"))))
    p.group(gid).name = "Tier 1"
    base, cur = simulate(p, catalog, BASE), simulate(p, catalog, CUR)
    table.set_results(cur, base, p, catalog)
    busiest = next(t for t in _texts(table) if t[0].strip() == "Busiest component (peak)")
    assert "Tier 1 (disk group)" in " ".join(busiest), busiest


def test_the_note_is_in_view_on_a_wide_dock(qtbot, isolated, catalog):
    """The names column takes no more than its widest name: on a wide dock the note ("Disk Group
    0", "target broken in current", "only in current") is in view, not scrolled off the right."""
    from app.engine import simulate
    from app.store.project_file import load_project
    from app.ui.scenarios import CompareTable

    p = load_project(EXAMPLES / ME5)
    for g in p.groups:
        g.name = ""
    table = CompareTable()
    qtbot.addWidget(table)
    table.resize(1000, 500)
    table.show()
    qtbot.waitExposed(table)
    table.set_results(simulate(p, catalog, CUR), simulate(p, catalog, BASE), p, catalog)
    t = table.table
    r = next(i for i in range(t.rowCount()) if t.item(i, 0) and t.item(i, 0).text().strip() == "Busiest component (peak)")
    note = t.item(r, 4).text()
    assert note.startswith("Disk Group")
    x = t.columnViewportPosition(4)
    assert 0 < x and x + t.fontMetrics().horizontalAdvance(note) <= t.viewport().width()
    assert t.columnWidth(0) >= CompareTable.LABEL_MIN_W
