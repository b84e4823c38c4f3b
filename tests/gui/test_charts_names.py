"""Issue 23: the charts name what they draw as the rest of the application does: a RAID group in
the platform's word ("Disk Group 0" on a Dell, never the engine's "RG 0"), inside an operation's
label too, in the legend, the cursor read-out, the hover box and the CSV export."""
from __future__ import annotations

import copy
import csv
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QPointF  # noqa: E402

from app.domain.project import DriveFailure  # noqa: E402
from app.domain.user_names import RAW_ID  # noqa: E402
from app.engine.simulate import simulate  # noqa: E402
from app.store.examples import example_paths  # noqa: E402
from app.store.presets import default_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from app.ui.charts import ChartsPanel  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


@pytest.fixture(scope="module")
def failing(catalog):
    """The Dell example with its groups unnamed (it names them "Disk Group N" itself) and a
    member of the first group failing at 0:10: a rebuild whose label names the group."""
    project = copy.deepcopy(load_project(next(p for p in example_paths() if p.stem == "dell-md3200-hpt")))
    for g in project.groups:
        g.name = ""
    sc = project.scenario()
    group = next(g for g in project.groups if g.drives)
    sc.events.append(DriveFailure(id=sc.new_event_id(), start_h=1 / 6, drive=group.drives[0]))
    return project, simulate(project, catalog, sc.name), group.id


@pytest.fixture
def panel(qtbot, failing, catalog):
    p = ChartsPanel()
    qtbot.addWidget(p)
    p.resize(1200, 900)
    p.show()
    qtbot.waitExposed(p)
    project, result, _ = failing
    p.set_results(result, project=project, catalog=catalog)
    return p


def _readout_names(panel) -> list[str]:
    tree = panel.readout
    return [tree.topLevelItem(i).child(j).text(0) for i in range(tree.topLevelItemCount())
            for j in range(tree.topLevelItem(i).childCount())]


def test_the_engine_names_groups_by_id_so_the_charts_must_rename_them(failing):
    """Not vacuous: the result's own labels say "RG 0" (what the charts used to show)."""
    _, result, gid = failing
    assert result.labels.groups[gid] == f"RG {gid}"
    assert any(f"RG {gid}" in op.label for op in result.operations)


def test_legend_and_curves_name_the_group_in_the_platforms_word(panel, failing):
    _, result, gid = failing
    curve = panel.curve("group_pct", str(gid))
    assert curve is not None and curve.opts["name"] == f"Disk Group {gid}"
    rebuild = next(op for op in result.operations if op.kind == "drive_failure")
    progress = panel.curve("progress_pct", rebuild.event_id)
    assert progress is not None and f"of Disk Group {gid}" in progress.opts["name"]
    shown = [panel.curve(m, e).opts["name"] for key in panel.shown for m, e in panel.shown[key]
             if panel.curve(m, e) is not None]
    assert shown and not [n for n in shown if RAW_ID.search(n)]
    legend_labels = [label.text for key in panel.legends for _, label in panel.legends[key].items]
    assert not [n for n in legend_labels if RAW_ID.search(n)]
    assert any(f"Disk Group {gid}" in n for n in legend_labels)


def test_readout_hover_and_csv_name_the_group(panel, failing, qtbot, tmp_path):
    _, result, gid = failing
    rebuild = next(op for op in result.operations if op.kind == "drive_failure")
    t = rebuild.start_h + 0.1
    panel.set_cursor(t)
    names = _readout_names(panel)
    assert f"Disk Group {gid}" in names and not [n for n in names if RAW_ID.search(n)]

    qtbot.wait(50)
    plot = panel.plots["disk"]
    panel._mouse_moved((plot.getViewBox().mapViewToScene(QPointF(t, 10.0)),))
    hover = panel.hover_text_at("disk")
    assert f"Disk Group {gid}: " in hover and not RAW_ID.search(hover)

    rows = list(csv.DictReader(panel.export_csv(tmp_path / "all.csv").open()))
    group_rows = [r for r in rows if r["metric"] == "group_pct" and r["entity"] == str(gid)]
    assert group_rows and {r["label"] for r in group_rows} == {f"Disk Group {gid}"}
    assert not [r["label"] for r in rows if RAW_ID.search(r["label"])]
