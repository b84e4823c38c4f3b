"""The Add menu's forms for every kind of event each example's platform offers: the form builds,
its defaults are valid choices from the project, and the event it makes can be added (undoably)."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.domain import edits  # noqa: E402
from app.domain.project import Event  # noqa: E402
from app.ui.timeline.dialogs import EventForm, available_kinds, default_event  # noqa: E402

pytestmark = pytest.mark.gui


def test_forms_for_every_offered_kind(qtbot, example_path, catalog):
    from app.store.project_file import load_project

    project = load_project(example_path)
    platform = catalog.platform(project.platform_id)
    kinds = available_kinds(project, platform)
    assert kinds, f"{example_path.name}: nothing can be scheduled"
    for kind in kinds:
        ev = default_event(kind, project, platform, 1.5)
        form = EventForm(ev, project, platform)
        qtbot.addWidget(form)
        made = form.make_event()
        assert isinstance(made, Event.registry[kind]) and made.start_h == 1.5
        if hasattr(made, "priority") and platform.priorities(kind):
            assert made.priority in platform.priorities(kind)
        op = edits.AddEvent(made)
        assert op.check(project, catalog) is None
        op.do(project)
        assert any(e.kind == kind for e in project.scenario().events)
        op.undo(project)
