"""The colours follow the application's palette (the system's light or dark mode): the canvas,
the charts, the timeline, the messages and the toolbar icons are drawn on the palette's ground
in colours that read there, and change when the palette does. The report's drawing stays on
white paper."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtGui import QColor, QPalette  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

try:
    from configurator_support import isolated  # noqa: F401 - a fixture
    from test_accessibility import example_window
except ImportError:
    from tests.gui.configurator_support import isolated  # noqa: F401
    from tests.gui.test_accessibility import example_window

from app.ui.theme import contrast, dark_palette, light_palette  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture
def palette_restored(qapp):
    """The application's palette put back after the test (the QApplication is shared)."""
    before = QPalette(qapp.palette())
    yield qapp
    qapp.setPalette(before)
    qapp.processEvents()


def switch(qtbot, palette: QPalette) -> None:
    QApplication.setPalette(palette)
    qtbot.wait(30)  # the palette-change events, then the Inspector's zero timers


def colour(brush_or_pen) -> QColor:
    return brush_or_pen.color()


def icon_is_light(action) -> bool:
    image = action.icon().pixmap(20, 20).toImage()
    return max(QColor(image.pixel(x, y)).lightnessF() for x in range(20) for y in range(20)
               if QColor.fromRgba(image.pixel(x, y)).alpha() > 128) > 0.6


def grounds(window):
    parts = window.plugins["app.ui.timeline"]
    return {"canvas": window.canvas.layout_scene.backgroundBrush().color(),
            "charts": parts.charts.glw.backgroundBrush().color(),
            "timeline": parts.timeline.gantt.plot_widget.backgroundBrush().color()}


def test_a_dark_palette_darkens_canvas_charts_and_timeline_and_back(qtbot, isolated, palette_restored):  # noqa: F811
    switch(qtbot, light_palette())
    window = example_window(qtbot)
    assert all(c.lightnessF() > 0.9 for c in grounds(window).values()), grounds(window)
    assert not icon_is_light(window.act_new)

    dark = dark_palette()
    switch(qtbot, dark)
    base, text = dark.color(QPalette.Base), dark.color(QPalette.Text)
    assert {k: c.name() for k, c in grounds(window).items()} == dict.fromkeys(grounds(window), base.name())

    # canvas: the bus label, the enclosure's title and an empty slot on the dark ground
    scene = window.canvas.layout_scene
    lane = next(iter(scene.lanes.values()))
    label = next(c for c in lane.childItems() if hasattr(c, "text") and c.text().startswith("Bus"))
    assert colour(label.brush()) == text
    assert scene.slot_ink.empty_fill.lightnessF() < 0.3
    assert contrast(scene.slot_ink.selected_pen.color(), base) >= 3
    # ... and a selected drive stands out from its own (light) fill too
    from app.ui.canvas import group_color
    inner = scene.slot_ink.selected_inner_pen.color()
    assert min(contrast(inner, group_color(g)) for g in range(60)) >= 3

    # charts: axis text, cursor, and every curve readable on the ground
    charts = window.plugins["app.ui.timeline"].charts
    for key, plot in charts.plots.items():
        assert contrast(plot.getAxis("left").textPen().color(), base) >= 4.5, key
        assert charts.cursor_lines[key].pen.color() == text
        for (metric, ent, _b), item in charts.curves[key].items():
            pen = item.opts["pen"]
            assert contrast(QColor(pen.color().rgb()), base) >= 4.5, (metric, ent, pen.color().name())
    # timeline: the cursor, and the bars' notes
    gantt = window.plugins["app.ui.timeline"].timeline.gantt
    assert gantt.cursor.pen.color() == text and gantt.ink.note == text

    # the messages' severities and the toolbar's icons
    model = window.messages.model_
    for severity in ("error", "warning", "info"):
        assert contrast(model._colors[severity], base) >= 4.5, severity
    assert contrast(model._other, base) >= 4.5
    assert icon_is_light(window.act_new)

    switch(qtbot, light_palette())
    assert all(c.lightnessF() > 0.9 for c in grounds(window).values()), grounds(window)
    assert not icon_is_light(window.act_new)


def test_the_reports_layout_drawing_stays_on_white_paper(qtbot, isolated, palette_restored, catalog):  # noqa: F811
    from types import SimpleNamespace

    from app.ui.canvas import LayoutScene
    from app.ui.sample import sample_project
    from app.ui.theme import paper

    switch(qtbot, dark_palette())
    project = sample_project(catalog)
    doc = SimpleNamespace(project=project, view=project, catalog=catalog, platform=catalog.platform(project.platform_id))
    on_screen, on_paper = LayoutScene(doc), LayoutScene(doc, ink=paper())
    assert on_screen.backgroundBrush().color().lightnessF() < 0.3
    assert on_paper.backgroundBrush().color() == QColor("white")
    assert on_paper.slot_ink.empty_fill.lightnessF() > 0.9
