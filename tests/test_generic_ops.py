"""Issue 20 ('custom platforms must work by data alone'): a platform whose rates lack an
operation's tables gets it predicted by the generic model (app/engine/op_generic.py), labelled
generic, and `check` warns that only the generic model covers it. Tested with a custom platform
in a tmp user preset folder: the CX4 with rates that keep only the host, cache and rebuild
tables, offering LUN migration, bind, volume migration and reallocate."""
from __future__ import annotations

import pytest

from app.engine import simulate
from app.engine.cases import build_project
from app.store.presets import builtin_presets_dir, load_catalog

PRESETS = builtin_presets_dir()
EMC = (PRESETS / "platforms" / "emc-cx4-960-r28.toml").read_text()
FLARE28 = (PRESETS / "rates" / "clariion-flare28.toml").read_text()
STRIPPED = ("[migration.", "[bind.", "[policy.migration.", "[policy.bind.", "[envelope.migration", "[envelope.bind")


def _bare_rates() -> str:
    kept, skip = [], False
    for line in FLARE28.replace('rates_id = "clariion-flare28"', 'rates_id = "bare"').splitlines(keepends=True):
        if line.startswith("["):
            skip = line.startswith(STRIPPED)
        if not skip:
            kept.append(line)
    return "".join(kept)


@pytest.fixture(scope="module")
def custom(tmp_path_factory):
    folder = tmp_path_factory.mktemp("user_presets")
    platform = EMC.replace('id = "emc-cx4-960-r28"', 'id = "bare-cx4"').replace(
        'rates = "clariion-flare28"', 'rates = "bare"')
    assert 'rates = "bare"' in platform
    platform += ('\n[operations.volume_migration]\npriorities = ["Low", "High"]\ndefault = "High"\n'
                 'source = "assumption: test"\n[operations.reallocate]\npriorities = ["Normal"]\n'
                 'source = "assumption: test"\n')
    (folder / "bare-cx4.toml").write_text(platform)
    (folder / "bare.toml").write_text(_bare_rates())
    cat = load_catalog(PRESETS, user_dir=folder)
    assert "bare-cx4" in cat.platforms, cat.problems
    return cat


def _spec(events, width=5, raid="R5", iops=0.0, dest_width=None, dest_raid=None):
    groups = [{"id": 0, "raid": raid, "drives": width, "drive_type": "fc-15k-73", "buses": [0]},
              {"id": 1, "raid": dest_raid or raid, "drives": dest_width or width, "drive_type": "fc-15k-73",
               "buses": [1]}]
    spec = {"platform": "bare-cx4", "groups": groups,
            "luns": [{"id": 0, "group": 0, "gb": 50}, {"id": 1, "group": 1, "gb": 60},
                     {"id": 2, "group": 1, "gb": 40, "optimization": 6.0}],
            "events": events, "horizon_h": 1.0}
    if iops:
        spec["workloads"] = [{"id": "w", "name": "w", "luns": [0], "mode": "open", "iops": iops, "read_pct": 60,
                              "io_kb": 8, "random_pct": 100}]
    return spec


def _mig(prio="High"):
    return [{"kind": "lun_migration", "id": "m", "start_h": 0.0, "source_lun": 0, "dest_lun": 1, "priority": prio}]


def _hours(cat, spec, op="m"):
    r = simulate(build_project(spec, cat), cat)
    o = r.operation(op)
    assert o.end_h is not None, [a.text for a in r.advisories]
    return o.end_h - o.start_h, r


def _issues(platform, code):
    return [i.text for i in platform.preset_issues if i.code == code]


def test_check_warns_the_operations_only_the_generic_model_covers(custom):
    p = custom.platform("bare-cx4")
    warned = " ".join(_issues(p, "generic-model"))
    for kind in ("lun_migration", "bind", "volume_migration", "reallocate"):
        assert f"offers {kind}" in warned and "only the engine's generic model covers it" in warned, kind
    assert [i.text for i in p.preset_issues if i.severity == "error"] == []


@pytest.mark.parametrize("events,op", [
    (_mig(), "m"),
    ([{"kind": "bind", "id": "b", "start_h": 0.0, "lun": 2, "priority": "High"}], "b"),
    ([{"kind": "volume_migration", "id": "v", "start_h": 0.0, "moves": [[0, 1]], "priority": "High"}], "v"),
    ([{"kind": "reallocate", "id": "r", "start_h": 0.0, "lun": 2, "threshold": 4.0}], "r"),
])
def test_every_offered_operation_is_predicted_and_labelled_generic(custom, events, op):
    hours, r = _hours(custom, _spec(events), op)
    assert hours > 0
    assert "generic model" in r.operation(op).label
    assert any(a.code == "generic-model" and a.where == op for a in r.advisories)
    assert not [a for a in r.advisories if a.code == "no-rates"]


def test_migration_work_follows_the_geometry(custom):
    """A wider destination (more data drives) writes each MB faster; the higher level is never
    later; more host load on the source never speeds it up."""
    narrow, _ = _hours(custom, _spec(_mig("ASAP"), width=3))
    wide, _ = _hours(custom, _spec(_mig("ASAP"), width=9))
    assert wide < narrow
    levels = [_hours(custom, _spec(_mig(lv)))[0] for lv in ("Low", "Medium", "High", "ASAP")]
    assert all(b <= a * (1 + 1e-9) for a, b in zip(levels, levels[1:])), levels
    loads = [_hours(custom, _spec(_mig("High"), iops=x))[0] for x in (0.0, 60.0, 120.0)]
    assert all(b >= a * (1 - 1e-9) for a, b in zip(loads, loads[1:])), loads


def test_the_migration_moves_the_lun(custom):
    _, r = _hours(custom, _spec(_mig("ASAP")))
    names = [p.name for p in r.operation("m").phases]
    assert names == ["copy", "expansion"], names  # 50 GB onto 60 GB: the extra 10 GB expanded
