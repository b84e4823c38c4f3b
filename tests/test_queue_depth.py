"""Operations that keep a queue on their drives (a policy's queue_depth, docs/model.md 3.1): the
host's response sees them as a closed class, their rate follows Little's law. Issue 20 point 10
(the response during an EMC ASAP rebuild fell as the host load rose) and the missing per-drive
queue-depth policy."""
from __future__ import annotations

from dataclasses import replace
import numpy as np
import pytest

from app.domain.project import DriveFailure
from app.engine import simulate
from app.engine.cases import build_project
from app.engine.recorded import queue_stretch
from app.store.presets import builtin_presets_dir, load_catalog, with_rates_values
from app.store.project_file import load_project

from conftest import EXAMPLE_PATHS

EX = {p.stem: p for p in EXAMPLE_PATHS}
PRESETS = builtin_presets_dir()


def oltp(iops):
    p = load_project(EX["emc-cx4-960-oltp"])
    p.workloads = [replace(w, iops=iops) if w.id == "oltp" else w for w in p.workloads]
    return p


def rebuild_group(catalog, iops, *, mode="open", outstanding=1, horizon=30.0, spare=True):
    """One R5 5+1 group of 146 GB 15k FC drives with a hot spare on the CX4-960, one 200 GB LUN,
    8 KB random host I/O (67% reads, no read hits); an ASAP rebuild of one member at 0.1 h."""
    spec = {"platform": "emc-cx4-960-r28",
            "groups": [{"id": 0, "raid": "R5", "drives": 6, "drive_type": "fc-15k-146", "buses": [0]}],
            "spares": [{"drive_type": "fc-15k-146", "bus": 0, "count": 1}] if spare else [],
            "luns": [{"id": 0, "group": 0, "gb": 200}],
            "workloads": [dict(id="w", name="w", luns=[0], mode=mode, iops=iops, outstanding=outstanding,
                               read_pct=67, io_kb=8, random_pct=100, read_hit_pct=0)]}
    p = build_project(spec, catalog)
    p.horizon_h = horizon
    p.scenarios[0].events = [DriveFailure(id="rb", start_h=0.1, drive=p.groups[0].drives[0], priority="ASAP")]
    return p


def rebuild_hours(r):
    """The rebuild phase's duration (the spare then waits for the failed drive's replacement)."""
    ph = r.operations[0].phases[0]
    assert ph.name == "rebuild" and ph.end_h is not None, ph
    return ph.end_h - ph.start_h


def test_the_stretch_is_mixed_mva_and_the_open_one_without_a_queue():
    """N = 0: 1/(1-U); a closed class at the centre: (1 + r Q_o)/(1 - U_h), Q_o at most N; it
    rises with the host's part of U, with N and with r; with r = 1 it tends to the open
    stretch as N grows."""
    U = np.array([0.9, 0.9, 0.9])
    assert queue_stretch(U, np.array([0.5, 0.5, 0.5]), np.zeros(3)) == pytest.approx(1 / (1 - U))
    a = 0.5 / 0.6
    assert queue_stretch(np.array([0.9]), np.array([0.5]), np.array([1.0]))[0] == pytest.approx((1 + a) / 0.6)
    by_n = [queue_stretch(np.array([0.9]), np.array([0.5]), np.array([n]))[0] for n in (1, 2, 4, 16, 1e6)]
    assert by_n == sorted(by_n) and by_n[-1] == pytest.approx(1 / (1 - 0.9), rel=1e-4)
    # the same total busy: more of it the host's, a longer wait
    by_host = [queue_stretch(np.array([0.9]), np.array([0.9 - h]), np.array([1.0]), 7.0)[0] for h in (0.1, 0.4, 0.7)]
    assert by_host == sorted(by_host)
    assert queue_stretch(np.array([0.9]), np.array([0.5]), np.array([1.0]), 7.0)[0] > by_n[0]


def test_response_during_an_emc_asap_migration_does_not_fall_as_load_rises(catalog):
    prev = 0.0
    for iops in (1000, 3000, 5000, 7490):
        r = simulate(oltp(iops), catalog, "Independent ASAP migration")
        resp = r.get("response_ms", "oltp").at(0.27)
        assert resp >= prev - 1e-9, (iops, resp, prev)
        prev = resp


def test_rebuild_time_does_not_fall_as_host_load_rises(catalog):
    prev = 0.0
    for iops in (0, 50, 150, 200, 250, 300):
        h = rebuild_hours(simulate(rebuild_group(catalog, iops), catalog))
        assert h >= prev - 1e-9, (iops, h, prev)
        prev = h
    assert prev > 1.5 * rebuild_hours(simulate(rebuild_group(catalog, 0), catalog))


def test_a_deeper_host_queue_never_speeds_the_rebuild(catalog):
    """Closed host loads of 1..16 outstanding I/Os: the rebuild takes no less time with more."""
    prev = 0.0
    for n in (1, 2, 4, 8, 16):
        h = rebuild_hours(simulate(rebuild_group(catalog, 0, mode="closed", outstanding=n), catalog))
        assert h >= prev - 1e-9, (n, h, prev)
        prev = h


def small_io(catalog, q):
    """EMC with 64 KB rebuild reads (where the host queue ahead of each one matters: Little's law
    binds) at queue depth q."""
    return with_rates_values(catalog, "clariion-flare28", {"rebuild.io.kb": 64, "policy.rebuild.ASAP.queue_depth": q})


def test_a_deeper_operation_queue_speeds_it_and_raises_host_response(catalog):
    rates, resp = [], []
    for q in (1, 2, 4):
        cat = small_io(catalog, q)
        r = simulate(rebuild_group(cat, 150), cat)
        rates.append(r.get("rate_mb_s", "rb").at(0.12))
        resp.append(r.get("response_read_ms", "w").at(0.12))
        if q == 1:
            assert r.operations[0].phases[0].limited_by.startswith("queue depth"), r.operations[0].phases
    assert rates[0] < rates[1] <= rates[2], rates  # (at q >= 2 the free drive time is the limit)
    assert resp[0] < resp[1] < resp[2], resp
    # with the host idle the queue depth changes nothing: no host queue ahead of its I/Os
    idle = [rebuild_hours(simulate(rebuild_group(small_io(catalog, q), 0), small_io(catalog, q))) for q in (1, 4)]
    assert idle[0] == pytest.approx(idle[1])


def test_the_rebuild_rate_follows_littles_law(catalog):
    """Little's law at a survivor: rate = q x io / (q s + N_h S_h), s = one read's drive time,
    N_h = U/(1-U) host I/Os ahead of it at the drive's positioning time S_h."""
    cat = small_io(catalog, 1)
    r = simulate(rebuild_group(cat, 150), cat)
    assert r.operations[0].phases[0].limited_by.startswith("queue depth")
    rate = r.get("rate_mb_s", "rb").at(0.12)
    # the host's busy on the degraded group alone: the same plan without a spare (no rebuild)
    r_host = simulate(rebuild_group(cat, 150, spare=False), cat)
    assert r_host.get("rate_mb_s", "rb").at(0.12) == 0.0
    u = r_host.get("group_pct", "0").at(0.12) / 100.0
    cost = (r.get("group_pct", "0").at(0.12) / 100.0 - u) / rate  # survivor busy per MB/s
    io = 64 / 1024.0
    expected = io / (cost * io + u / (1 - u) * cat.drive("fc-15k-146").random_ms / 1000.0)
    assert 0.0 < u < 0.9
    assert rate == pytest.approx(expected, rel=1e-6)


def test_check_names_a_bad_queue_depth(tmp_path):
    emc = (PRESETS / "platforms" / "emc-cx4-960-r28.toml").read_text().replace('id = "emc-cx4-960-r28"', 'id = "my-cx4"')
    over = '\n[rates_override.policy.rebuild.ASAP]\nkind = "asap"\nqueue_depth = { value = -2, source = "lab" }\n'
    (tmp_path / "mine.toml").write_text(emc + over)
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    text = " ".join(str(p) for p in cat.problems)
    assert "mine.toml" in text and "[policy.rebuild.ASAP] queue_depth = -2 is out of range (0 to 1024)" in text, text


def test_a_closed_host_load_waits_behind_the_operation_queue_too(catalog):
    """A closed host load (4 outstanding I/Os) during the rebuild: a deeper operation queue
    lengthens its response and so lowers its IOPS (X = N / R)."""
    resp, iops = [], []
    for q in (2, 8):  # (the rebuild at the same rate, the free drive time, at both)
        cat = small_io(catalog, q)
        r = simulate(rebuild_group(cat, 0, mode="closed", outstanding=4), cat)
        resp.append(r.get("response_ms", "w").at(0.12))
        iops.append(r.get("iops", "w").at(0.12))
    assert resp[0] < resp[1] and iops[0] > iops[1], (resp, iops)
    assert r.operations[0].phases[0].limited_by == "drives RG 0"


def test_check_rejects_a_queue_depth_an_operation_does_not_read(tmp_path):
    """Volume migration paces itself by max_util and never reads queue_depth: check says so."""
    hit = (PRESETS / "platforms" / "hitachi-usp600-ams500.toml")
    text = hit.read_text()
    pid = text.split('id = "', 1)[1].split('"', 1)[0]
    over = '\n[rates_override.policy.volume_migration.Normal]\nkind = "asap"\nmax_util = 0.75\nqueue_depth = 2\nsource = "lab"\n'
    (tmp_path / "mine.toml").write_text(text.replace(f'id = "{pid}"', 'id = "my-usp"', 1) + over)
    text = " ".join(str(p) for p in load_catalog(PRESETS, user_dir=tmp_path).problems)
    assert "[policy.volume_migration.Normal] queue_depth: not read for volume_migration" in text, text


def test_the_queued_io_time_follows_the_phase_on_an_unchanged_group_total(load_example, catalog):
    """The CX4 dependent ASAP migration's copy and then its expansion both take the destination
    group's free drive time: the group's total stays as it was, but one queued I/O's drive time
    (queue_s, which the closed-class response reads) is the expansion's now, not the copy's.
    With one queued operation on the group, queue_s = its busy there / its rate x its I/O size."""
    import numpy as np

    from app.engine.simulate import Sim

    p = load_example("emc-cx4-960-oltp")
    sim = Sim(p, catalog, "Dependent ASAP migration")
    result = sim.run()
    rows = np.concatenate([c[:, sim.rec_cols["queue_s"]] for c in sim.rec_chunks])[:len(result.get("rate_mb_s", "op1").v)]
    busy = np.concatenate([c[:, sim.rec_cols["queue_u"]] for c in sim.rec_chunks])[:len(rows)]
    rate = result.get("rate_mb_s", "op1").v
    migration = sim.ops[0]
    gd = migration.gd
    running = rate > 0
    assert running.sum() >= 3, "the case needs the copy and the expansion's steps"
    expected = busy[running, gd] / rate[running] * migration.queue_io_mb
    assert np.allclose(rows[running, gd], expected, rtol=1e-9), (rows[running, gd], expected)
