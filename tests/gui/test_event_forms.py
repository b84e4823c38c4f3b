"""The add/edit-operation forms judge the would-be event by the domain's rules (errors inline,
the form stays open; warnings shown, not in the way), their number boxes take the domain's
ranges, and default_event prefills values the rules accept."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtWidgets import QDialogButtonBox  # noqa: E402

from app.domain.project import LunMigration  # noqa: E402
from app.domain.validation import ERROR, event_issues  # noqa: E402
from app.ui.timeline.dialogs import EventForm, available_kinds, default_event  # noqa: E402

pytestmark = pytest.mark.gui


def _form(qtbot, ev, project, catalog):
    form = EventForm(ev, project, catalog.platform(project.platform_id), catalog=catalog)
    qtbot.addWidget(form)
    form.show()
    return form


def _ok(form):
    form.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok).click()


def test_a_smaller_destination_is_refused_inline_and_the_form_stays_open(qtbot, load_example, catalog):
    p = load_example("emc-cx4-960-oltp")
    form = _form(qtbot, default_event("lun_migration", p, catalog.platform(p.platform_id), source_lun=0), p, catalog)
    cb = form.widgets["dest_lun"]
    cb.setCurrentIndex(cb.findData(20))  # 20 GB for a 50 GB source
    _ok(form)
    assert form.isVisible() and form.result() == 0
    assert form.error.isVisible()
    assert "Destination LUN 20 (20 GB) is smaller than source LUN 0 (50 GB)" in form.error.text()
    assert "Dependent ASAP migration" not in form.error.text()  # the form is the context


def test_a_missing_volume_and_a_bad_text_are_refused(qtbot, load_example, catalog):
    p = load_example("hitachi-usp600-tiers")
    form = _form(qtbot, default_event("volume_migration", p, catalog.platform(p.platform_id)), p, catalog)
    form.widgets["moves"].setText("0>999")
    _ok(form)
    assert form.isVisible() and "Target volume LUN 999 does not exist" in form.error.text()
    form.widgets["moves"].setText("0 to 20")
    _ok(form)
    assert form.isVisible() and "source>target" in form.error.text()


def test_warnings_are_shown_but_do_not_stop_the_event(qtbot, load_example, catalog):
    p = load_example("emc-cx4-960-oltp")
    ev = default_event("bind", p, catalog.platform(p.platform_id), lun=0)  # LUN 0 carries the OLTP load
    form = _form(qtbot, ev, p, catalog)
    assert form.check()
    assert form.warning.isVisible() and "in use by workload" in form.warning.text()
    assert not form.error.isVisible()
    _ok(form)
    assert form.result() == 1


def test_the_threshold_box_takes_the_domain_range(qtbot, load_example, catalog):
    p = load_example("netapp-fas-wafl")
    form = _form(qtbot, default_event("reallocate", p, catalog.platform(p.platform_id)), p, catalog)
    box = form.widgets["threshold"]
    assert (box.minimum(), box.maximum()) == (1.0, 10.0)
    box.setValue(-5)
    assert form.make_event().threshold == 1.0


def test_editing_an_event_shows_the_errors_it_already_has(qtbot, load_example, catalog):
    p = load_example("emc-cx4-960-oltp")
    bad = LunMigration("op1", 0.25, source_lun=18, dest_lun=0, priority="ASAP")  # 0 is in use
    p.scenario().events = [bad]
    form = _form(qtbot, bad, p, catalog)
    assert not form.check() and "in use by workload" in form.error.text()


def test_default_events_pass_the_rules(example_path, catalog):
    from app.store.project_file import load_project

    p = load_project(example_path)
    platform = catalog.platform(p.platform_id)
    for kind in available_kinds(p, platform):
        ev = default_event(kind, p, platform, 1.0)
        ev.id = p.scenario().new_event_id()
        errors = [i.text for i in event_issues(p, catalog, ev) if i.severity == ERROR]
        assert not errors, f"{example_path.name}, {kind}: {errors}"


def test_a_volume_migration_group_pairs_each_source_with_its_own_target(load_example, catalog):
    p = load_example("hitachi-usp600-tiers")
    platform = catalog.platform(p.platform_id)
    sources = [l.id for l in p.luns_in_group(p.groups[0].id)]
    # what the RG context menu asks for: every source onto the same LUN
    ev = default_event("volume_migration", p, platform, 0.0, moves=[[s, 10] for s in sources])
    targets = [b for _, b in ev.moves]
    assert ev.moves and len(set(targets)) == len(targets)
    assert {a for a, _ in ev.moves} <= set(sources)
    ev.id = "op9"
    assert not [i for i in event_issues(p, catalog, ev) if i.severity == ERROR]


def test_no_suitable_target_leaves_the_moves_empty_with_a_hint(qtbot, load_example, catalog):
    p = load_example("emc-cx4-960-oltp")  # every LUN of 50 GB or more carries the OLTP load
    platform = catalog.platform(p.platform_id)
    ev = default_event("volume_migration", p, platform, 0.0, moves=[[0, 20]])
    assert ev.moves == []
    form = EventForm(ev, p, platform, catalog=catalog)
    qtbot.addWidget(form)
    assert "create target LUNs" in form.widgets["moves"].placeholderText()


def test_a_workload_change_default_does_something(load_example, catalog):
    p = load_example("dell-md3200-hpt")
    ev = default_event("workload_change", p, catalog.platform(p.platform_id), 1.0)
    ev.id = "op9"
    assert not [i for i in event_issues(p, catalog, ev) if "no effect" in i.text]
