"""The end of a run's full-speed rebuild plans, shared between groups alike (RunIndex.plan_shape).

results.mttdl and reliability.group_reliability ask every group's full-speed rebuild rate at
the default priority (and a pool's at the highest); groups with the same plan_shape share one
plan. The shape must hold everything the plan reads: here every group of every example and of
the generated plan, at every priority level, is planned alone (a RunIndex of its own) after the
run and must give exactly what the shared plans give.
"""
from __future__ import annotations

import pytest

from app.domain.overlay import effective_project
from app.engine.run_index import RunIndex
from app.engine.simulate import Sim
from app.store.presets import load_catalog

from conftest import every_plan


def _alone(sim, gi, level):
    try:
        pol, idle, loaded = RunIndex(sim)._full_rates(sim, gi, level)
    except Exception as exc:  # noqa: BLE001 - a platform that cannot rebuild: the same failure
        return type(exc)
    return pol.kind, pol.params, idle, loaded


def _shared(ix, sim, gi, level):
    try:
        pol, idle = ix.full_rebuild_rate(sim, gi, level)
        _, loaded = ix.full_rebuild_rate(sim, gi, level, busy=True)
    except Exception as exc:  # noqa: BLE001
        return type(exc)
    return pol.kind, pol.params, idle, loaded


@pytest.mark.parametrize("project,scenario", list(every_plan()))
def test_shared_rebuild_plans_are_each_groups_own(project, scenario):
    sim = Sim(effective_project(project, scenario), load_catalog(), scenario, None)
    sim.run(None)
    spec = sim.platform.operations.get("drive_failure")
    if spec is None or not spec.priorities:
        pytest.skip("the platform has no drive-failure rebuild")
    ix = RunIndex(sim)
    ix.lost = set()
    groups = [gi for gi in range(sim.lay.G) if len(sim.lay.g_members[gi])]
    for level in spec.priorities:
        for gi in groups:
            assert _shared(ix, sim, gi, level) == _alone(sim, gi, level), (sim.lay.groups[gi].label, level)
    if scenario is None:  # 180 alike RAID 5 groups: a plan or two per level, not one per group
        assert len(ix.shared_rates) <= 4 * len(spec.priorities)


@pytest.mark.parametrize("change", [{"rpm": 7200}, {"interface": "SATA"}, {"seq_mb_s": 61.0}])
def test_a_group_on_other_drives_gets_its_own_plan(change):
    """One group of emc-cx4-960-oltp (its 20 groups share two plans) moved onto a copy of its
    drive type that differs in one field the plan reads: it must not take the others' plan."""
    from dataclasses import replace

    from app.domain.hardware import Interface
    from app.store.examples import example_paths
    from app.store.project_file import load_project

    catalog = load_catalog()
    path = next(p for p in example_paths() if p.stem == "emc-cx4-960-oltp")
    project = load_project(path)
    scenario = project.scenarios[0].name
    first = set(project.groups[0].drives)
    old = project.drives[project.groups[0].drives[0]].type_id
    values = {k: (Interface(v) if k == "interface" else v) for k, v in change.items()}
    other = replace(catalog.drives[old], id=old + "-variant", **values)
    catalog = replace(catalog, drives={**catalog.drives, other.id: other})
    project = replace(project, drives={loc: replace(d, type_id=other.id) if loc in first else d
                                       for loc, d in project.drives.items()})
    sim = Sim(effective_project(project, scenario), catalog, scenario, None)
    sim.run(None)
    ix = RunIndex(sim)
    for level in sim.platform.operations["drive_failure"].priorities:
        for gi in range(sim.lay.G):  # the changed group first, then those it resembled
            assert _shared(ix, sim, gi, level) == _alone(sim, gi, level), (sim.lay.groups[gi].label, level)


def test_the_identity_tests_know_every_distributed_and_spanned_level():
    """run_index.plan_shape and op_rebuild_plan.rebuild_mb test RAID types by identity (an Enum
    property is a Python call per group); a new distributed or spanned level must be added there."""
    from app.domain.raid import RaidType

    assert {r for r in RaidType if r.distributed} == {RaidType.DRAID6, RaidType.DDP}
    assert {r for r in RaidType if r.spanned} == {RaidType.R50, RaidType.R60}
