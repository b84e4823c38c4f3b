"""app/engine/state.py's LayoutCache: the engine worker's runs share one Layout while the replica's
drives, groups and LUNs are the same objects, and never see a stale one.

The replica is played as the worker gets it: the containers an edit touched (app.service.engine_worker.replica's
ChangeLog), pickled and put into the previous replica. Every run with the cache must give what a
fresh run of a full copy gives, and use the Layout a fresh build gives."""
from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from app.domain import edits
from app.domain.project import Project
from app.domain.raid import RaidType
from app.engine.host_terms import _group_factors
from app.engine.simulate import Sim, simulate
from app.engine.state import Layout, LayoutCache
from app.service.engine_worker.replica import ChangeLog, apply_parts, project_parts, snapshot_project


def as_json(result) -> str:
    return json.dumps(result.to_json(), sort_keys=True)


def same_value(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, list) and a and isinstance(a[0], np.ndarray):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return a == b


def assert_fresh(lay: Layout, project: Project, catalog) -> None:
    """lay holds what a Layout built now from `project` holds (attribute by attribute)."""
    fresh = Layout(project, catalog, catalog.platform(project.platform_id))
    # (the attributes by dir(): the compiled Layout has no __dict__)
    names = {n for n in dir(fresh) if not n.startswith("__") and not callable(getattr(fresh, n))}
    stale = [n for n in sorted(names) if n not in ("project", "group_factors", "_group_maths")
             and not same_value(getattr(lay, n), getattr(fresh, n))]
    assert not stale, stale
    # the groups' RaidMath the runs made on it (Layout.group_math): the fresh groups' own
    assert len(lay._group_maths) == len(fresh.groups)
    assert all(m is None or m == g.math for m, g in zip(lay._group_maths, fresh.groups)), "group_math"
    # the group factors the runs cached on it (host_terms._group_factors): those a run on a fresh Layout computes
    if lay.group_factors:
        sim = Sim(project, catalog)
        _group_factors(sim)
        (factors, rows, ids, any_dp), = lay.group_factors.values()
        assert list(lay.group_factors) == [(sim.degr_seq, sim.degr_fac)]
        assert all(same_value(a, b) for a, b in zip(factors, sim._grp_factors))
        assert (rows, ids, any_dp) == (sim._grp_factor_rows, sim._grp_factor_ids, sim._any_dedicated_parity)
    assert lay.project is project


class Replica:
    """The worker's copy of a project edited in place (app.service.engine_worker.main, app.ui.engine_process)."""

    def __init__(self, project: Project) -> None:
        self.project, self.log, self.copy = project, ChangeLog(), None

    def edit(self, op: edits.Edit) -> None:
        self.log.note(op.do(self.project))

    def update(self) -> Project:
        changed = self.log.take("worker")
        parts = pickle.loads(pickle.dumps(project_parts(self.project, changed), pickle.HIGHEST_PROTOCOL))
        self.copy = apply_parts(None if changed is None else self.copy, parts)
        return self.copy


def test_an_edit_of_the_hardware_builds_the_layout_again_and_nothing_else_does(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    replica, layouts = Replica(project), LayoutCache()
    name = project.current_scenario
    platform = catalog.platform(project.platform_id)
    free = sorted(set(project.drives) - {loc for g in project.groups for loc in g.drives})
    assert free
    enclosure = project.enclosures[-1]
    new_slots = [f"{enclosure.bus}_{enclosure.position + 1}_{k}" for k in range(5)]
    drive_type = next(iter(project.drives.values())).type_id
    lun = project.luns[0]
    other_owner = next(c for c in platform.controller_names() if c != lun.owner)
    ev = next(e for e in project.scenario().events if e.kind == "lun_migration")
    steps = [  # (the edit, whether the Layout may be reused after it)
        (None, False),  # the first run
        (edits.SetCacheSetting("write_cache_mb", 123), True),
        (edits.MoveEvent(ev.id, ev.start_h + 0.5), True),
        (edits.SetHotSpare(free[0], not project.drives[free[0]].hot_spare), False),
        (edits.AddEnclosure(enclosure.bus, enclosure.position + 1, enclosure.type_id), False),
        (edits.Batch([edits.PlaceDrive(loc, drive_type) for loc in new_slots]), False),
        (edits.CreateRaidGroup(RaidType.R5, new_slots), False),
        (edits.SetGroupFields(project.groups[0].id, raid=RaidType.R6), False),
        (edits.SetLunFields(lun.id, owner=other_owner), False),
        (edits.SetLunFields(lun.id, capacity_gb=lun.capacity_gb / 2), False),
        (edits.SetLunFields(lun.id, settings={"write_cache": False}), False),
        (edits.RemoveDrive(free[-1]), False),
        (edits.SetFeature(next(iter(project.features), "x"), True), True),
    ]
    for op, reused in steps:
        if op is not None:
            replica.edit(op)
        copy = replica.update()
        hits = layouts.hits
        sim = Sim(copy, catalog, name, layouts)
        assert (layouts.hits == hits + 1) is reused, op
        assert_fresh(sim.lay, copy, catalog)
        ran = as_json(simulate(copy, catalog, name, layouts=layouts))
        assert ran == as_json(simulate(snapshot_project(project), catalog, name)), op


@pytest.mark.parametrize("example", ["emc-cx4-960-oltp", "emc-cx4-960-worked-examples",
                                     "hitachi-usp600-tiers", "netapp-fas-wafl"])
def test_a_run_that_moves_luns_or_swaps_drives_leaves_the_shared_layout_as_it_was(catalog, load_example, example):
    # these examples' scenarios migrate LUNs (l_group, l_cap, l_live), rebuild onto a spare
    # (g_members) and reallocate (l_opt): the next run on the same hardware starts from the plan
    project = load_example(example)
    layouts = LayoutCache()
    for sc in [*project.scenarios, *project.scenarios]:
        got = as_json(simulate(project, catalog, sc.name, layouts=layouts))
        assert got == as_json(simulate(project, catalog, sc.name)), sc.name
    assert layouts.misses == 1
    assert_fresh(layouts.layout(project, catalog, catalog.platform(project.platform_id)), project, catalog)


def test_the_shared_arrays_are_read_only_and_each_run_has_its_own_run_state(catalog, load_example):
    project = load_example("emc-cx4-960-worked-examples")
    layouts = LayoutCache()
    platform = catalog.platform(project.platform_id)
    a, b = layouts.layout(project, catalog, platform), layouts.layout(project, catalog, platform)
    with pytest.raises(ValueError):
        a.g_width[0] = 3.0  # shared: a run writing into it would change the next runs
    with pytest.raises(ValueError):
        a.g_members[0][0] = 1  # a drive swap replaces a group's array, never writes into it
    for n in Layout.RUN_STATE:
        assert getattr(a, n) is not getattr(b, n)
    a.l_group[0] = -1
    a.g_members[0] = a.g_members[0][:1]
    assert b.l_group[0] != -1 and len(b.g_members[0]) > 1


def test_the_key_holds_every_project_container_layout_reads(catalog, load_example):
    # Layout must read no container of the project but LayoutCache.READS (and the platform id)
    project = load_example("emc-cx4-960-oltp")
    read = set()

    class Recording:
        def __getattr__(self, name):
            read.add(name)
            return getattr(project, name)

    Layout(Recording(), catalog, catalog.platform(project.platform_id))
    assert read <= set(LayoutCache.READS) | {"platform_id"}, read


def test_another_catalog_or_platform_builds_the_layout_again(catalog, load_example):
    project = load_example("emc-cx4-960-oltp")
    layouts = LayoutCache()
    platform = catalog.platform(project.platform_id)
    layouts.layout(project, catalog, platform)
    layouts.layout(project, catalog, platform)
    assert (layouts.hits, layouts.misses) == (1, 1)
    layouts.layout(project, pickle.loads(pickle.dumps(catalog)), platform)  # the worker's new catalog
    assert layouts.misses == 2
    project.platform_id = project.platform_id + "-other"  # a plain attribute: compared by value
    layouts.layout(project, catalog, platform)
    assert layouts.misses == 3


def test_the_worker_s_predictions_share_the_layout_of_its_replica(catalog, load_example):
    """app.service.engine_worker.main passes its LayoutCache through predict(): a timeline edit reuses the
    Layout, a hardware edit does not, and the prediction is the one without the cache."""
    from app.service.predict import predict
    from app.service.engine_worker.main import _Server

    project = load_example("emc-cx4-960-oltp")
    no_stop = type("Pipe", (), {"poll": staticmethod(lambda: False)})()  # the worker's pipe: nothing waiting
    replica, server = Replica(project), _Server(no_stop)
    server.catalog = catalog
    ev = next(e for e in project.scenario().events if e.kind == "lun_migration")
    other = "SP B" if project.luns[0].owner != "SP B" else "SP A"
    # (the edit, how many Layouts the worker has built by then; a pinned baseline's run reuses one)
    for op, built in ((None, 1), (edits.MoveEvent(ev.id, ev.start_h + 0.5), 1),
                      (edits.SetLunFields(project.luns[0].id, owner=other), 2)):
        if op is not None:
            replica.edit(op)
        server.project = replica.update()
        pred = server.job_live()
        assert pred.error is None
        assert server.layouts.misses == built, op
        assert as_json(pred.current) == as_json(predict(snapshot_project(project), catalog).current)


def test_a_primed_worker_meets_the_first_edit_warm(catalog, load_example):
    """The "prime" job (sent by the GUI when the worker starts, app.ui.live) simulates the project
    on screen and sends nothing big back; the user's first edit then reuses its Layout and
    validation, and undoing that edit is a result-cache hit."""
    from app.service.engine_worker.main import _Server

    class Pipe:  # the worker's end: nothing waiting; what it sends is kept
        def __init__(self):
            self.sent = []

        def poll(self):
            return False

        def send(self, obj):
            self.sent.append(obj)

        def send_bytes(self, data):
            self.sent.append(bytes(data))

    project = load_example("emc-cx4-960-oltp")
    replica, pipe = Replica(project), Pipe()
    server = _Server(pipe)
    parts = pickle.loads(pickle.dumps(project_parts(project, None), pickle.HIGHEST_PROTOCOL))
    server.run(1, "prime", True, parts, catalog, (), read=0.0)
    assert pipe.sent[0][:3] == ("reply", 1, True)
    sizes = pipe.sent[1][0]  # wire.send's first piece: the payload None, no arrays
    assert len(sizes) == 1 and sizes[0] < 100
    runs = 2 if project.baseline_scenario else 1  # (this example pins a baseline)
    assert (server.results.misses, server.layouts.misses) == (runs, 1) and server.layout_cache
    ev = next(e for e in project.scenario().events if e.kind == "lun_migration")
    replica.log.take("worker")  # the prime had the whole project
    replica.copy = server.project
    # moved: only the current scenario is simulated anew; moved back: nothing is
    for op, new_runs in ((edits.MoveEvent(ev.id, ev.start_h + 0.5), 1), (edits.MoveEvent(ev.id, ev.start_h), 0)):
        replica.edit(op)
        server.project = replica.update()
        misses = server.results.misses
        assert server.job_live().error is None
        assert (server.results.misses - misses, server.layouts.misses) == (new_runs, 1)
