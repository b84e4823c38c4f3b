"""Issue 23: the drive-failure form offers only RAID group members (it offered hot spares and
unbound drives, then refused them); the replacement form only drives that failed."""
from __future__ import annotations

import pytest
from configurator_support import isolated  # noqa: F401  (fixture)

from app.domain.project import DriveFailure, DriveReplacement
from app.store.presets import default_catalog
from app.ui.sample import sample_project
from app.ui.timeline.dialogs import EventForm

pytestmark = pytest.mark.gui


def _offered(form) -> list[str]:
    combo = form.widgets["drive"]
    return [combo.itemData(i) for i in range(combo.count())]


def test_a_drive_failure_offers_only_group_members(qtbot, isolated):
    cat = default_catalog()
    p = sample_project(cat)
    grouped = {loc for g in p.groups for loc in g.drives}
    outside = [loc for loc in p.drives if loc not in grouped]
    assert outside and any(p.drives[loc].hot_spare for loc in outside)  # the sample has both kinds
    member = next(iter(p.groups[0].drives))
    form = EventForm(DriveFailure("", 1.0, drive=member), p, cat.platform(p.platform_id))
    qtbot.addWidget(form)
    offered = _offered(form)
    assert set(offered) == grouped and not set(offered) & set(outside)


def test_a_replacement_offers_the_failed_drives(qtbot, isolated):
    cat = default_catalog()
    p = sample_project(cat)
    failed = p.groups[1].drives[0]
    p.scenario().events.append(DriveFailure("f1", 1.0, drive=failed))
    form = EventForm(DriveReplacement("", 3.0, drive=failed), p, cat.platform(p.platform_id))
    qtbot.addWidget(form)
    assert _offered(form) == [failed]
