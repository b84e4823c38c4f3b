"""One source for the priorities an operation offers (app/domain/priorities.py): the timeline's
toolbar box, its context menu, the event dialog, the inspector and the edits offer the same
levels, and an event whose level the platform lacks keeps it, marked, without it being offered
to other events."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.domain import edits  # noqa: E402
from app.domain.priorities import priority_choice, priority_problem  # noqa: E402
from app.ui.document import Document  # noqa: E402
from app.ui.live import TimeCursor  # noqa: E402
from app.ui.timeline.dialogs import EventForm  # noqa: E402
from app.ui.timeline.panel import TimelinePanel  # noqa: E402

try:
    from test_live_support import catalog, small_project
except ImportError:  # tests/gui as a package
    from tests.gui.test_live_support import catalog, small_project

pytestmark = pytest.mark.gui


@pytest.fixture
def doc_with_foreign_level():
    cat = catalog()
    project = small_project(cat)
    ev = project.scenario().event("op1")
    ev.priority = "Highest"  # a level this platform does not offer (e.g. from another platform)
    return Document(project, cat)


def box_items(box):
    return [(box.itemText(i), box.itemData(i)) for i in range(box.count())]


def test_every_control_offers_the_platform_levels_and_keeps_a_foreign_one(qtbot, doc_with_foreign_level):
    doc = doc_with_foreign_level
    offered = doc.platform.priorities("lun_migration")
    assert "Highest" not in offered and len(offered) >= 2
    ev = doc.project.scenario().event("op1")
    choice = priority_choice(doc.platform, ev)
    assert choice.choices == offered + ("Highest",) and not choice.current_is_offered

    panel = TimelinePanel(doc, TimeCursor())
    qtbot.addWidget(panel)
    panel.select("op1")
    items = box_items(panel.priority_box)
    assert [data for _, data in items] == list(choice.choices)
    assert items[-1][0] == "Highest (not offered by this platform)"
    assert panel.priority_box.currentData() == "Highest"  # shown as it is, not silently replaced

    menu = panel.build_context_menu("op1")
    prio_menu = next(a.menu() for a in menu.actions() if a.text() == "Priority")
    assert [a.text() for a in prio_menu.actions()] == list(offered)  # a foreign level is not offered anew

    form = EventForm(ev, doc.project, doc.platform)
    qtbot.addWidget(form)
    combo = form.widgets["priority"]
    assert [data for _, data in box_items(combo)] == list(choice.choices)

    # the inspector marks it as the timeline does
    from app.ui.properties import PropertyForm
    from app.domain.hardware import SettingSpec
    spec = SettingSpec("priority", "Priority", "choice", offered[0], choices=choice.offered)
    inspector_form = PropertyForm()
    qtbot.addWidget(inspector_form)
    inspector_form.set_properties([(spec, choice.selected)])
    texts = [t for t, _ in box_items(inspector_form.editors["priority"])]
    assert texts == list(offered) + ["Highest (not offered)"]


def test_a_level_in_another_case_is_shown_as_the_platforms(qtbot):
    """A file's "high" is the platform's "High" (the engine and `check` read it so): every
    control shows "High", none offers "high" or marks it not offered."""
    cat = catalog()
    project = small_project(cat)
    ev = project.scenario().event("op1")
    offered = cat.platform(project.platform_id).priorities("lun_migration")
    ev.priority = offered[-1].lower()
    doc = Document(project, cat)
    choice = priority_choice(doc.platform, ev)
    assert choice.current_is_offered and choice.choices == offered and choice.selected == offered[-1]
    panel = TimelinePanel(doc, TimeCursor())
    qtbot.addWidget(panel)
    panel.select("op1")
    assert [d for _, d in box_items(panel.priority_box)] == list(offered)
    assert panel.priority_box.currentData() == offered[-1]
    form = EventForm(ev, doc.project, doc.platform)
    qtbot.addWidget(form)
    assert form.widgets["priority"].currentData() == offered[-1]
    assert [d for _, d in box_items(form.widgets["priority"])] == list(offered)


def test_the_edit_refuses_a_level_the_platform_does_not_offer(doc_with_foreign_level):
    doc = doc_with_foreign_level
    ev = doc.project.scenario().event("op1")
    why = doc.check(edits.SetEventPriority("op1", "Highest"))
    assert why == priority_problem(doc.platform, ev, "Highest") and "priorities are" in why
    offered = doc.platform.priorities("lun_migration")
    assert doc.check(edits.SetEventPriority("op1", offered[0])) is None
    assert priority_choice(doc.platform, object()) is None  # an event without a priority
