"""The Inspector's priority control shows an operation's level as one of the platform's (issue
20 leftovers): a level spelled in another case ("high"), which the engine and `check` read as
the platform's "High" (app/engine/policy.py canonical_level), is that level, not "high (not
offered)"; and after switching scenario the control shows the new scenario's operation, not the
one of the same id in the scenario shown before."""
from __future__ import annotations

from configurator_support import isolated, make_window, settle  # noqa: F401  (fixtures)

import pytest

from app.domain.priorities import PriorityChoice
from app.store.examples import example_paths, example_path
from app.store.project_file import load_project

pytestmark = pytest.mark.gui


def _priority_box(w):
    form = w.inspector.event_form
    return None if form is None else form.editors.get("priority")


def _texts(box):
    return [box.itemText(i) for i in range(box.count())]


def test_every_example_operation_shows_its_own_level(qtbot, isolated):
    """Each scenario of each example, its operations selected in the Inspector: the control
    lists the platform's levels, nothing 'not offered', and shows the operation's own level
    (the selection kept across the scenario switch, as a user's is)."""
    checked = 0
    for path in example_paths():
        w = make_window(qtbot, load_project(path))
        doc = w.document
        for sc in list(doc.project.scenarios):
            doc.set_current_scenario(sc.name)
            settle(qtbot)
            for ev in doc.project.scenario().events:
                if not hasattr(ev, "priority"):
                    continue
                w.selection.set([ev.id])
                settle(qtbot)
                box = _priority_box(w)
                assert box is not None, (path.stem, sc.name, ev.id)
                where = f"{path.stem} / {sc.name} / {ev.id}"
                assert _texts(box) == list(doc.platform.priorities(ev.kind)), where
                assert box.currentText() == ev.priority, where
                checked += 1
        w.close()
    assert checked >= 30


def test_a_level_in_another_case_is_the_platforms_level(qtbot, isolated):
    project = load_project(example_path("emc-cx4-960-oltp"))
    project.current_scenario = "Dependent High migration"
    ev = project.scenario().events[0]
    ev.priority = "high"  # as a hand-edited file may spell it; check says it is read as High
    w = make_window(qtbot, project)
    w.selection.set([ev.id])
    settle(qtbot)
    box = _priority_box(w)
    assert _texts(box) == ["Low", "Medium", "High", "ASAP"]  # no "high", nor "high (not offered)"
    assert box.currentText() == "High", _texts(box)
    # the timeline's control too
    panel = w.timeline if hasattr(w, "timeline") else None
    if panel is not None and hasattr(panel, "priority_box"):
        assert panel.priority_box.currentText() == "High"


def test_priority_choice_matches_levels_without_regard_to_case():
    choice = PriorityChoice(("Low", "Medium", "High", "ASAP"), "asap")
    assert choice.current_is_offered and choice.choices == ("Low", "Medium", "High", "ASAP")
    assert choice.selected == "ASAP" and choice.label("asap") == "asap"
    lacking = PriorityChoice(("Low", "High"), "Urgent")
    assert not lacking.current_is_offered and lacking.choices == ("Low", "High", "Urgent")
    assert lacking.selected == "Urgent" and "not offered" in lacking.label("Urgent")
