"""Scenarios with a configuration of their own (issue 23): the overlay, its files, the engine
running the effective project, validation of each scenario's configuration, the comparison."""
from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest

from app.domain.overlay import (
    Overlay, apply_overlay, differences, editable_copy, effective_project, overlay_between,
)
from app.engine import simulate
from app.engine.compare import compare, csv_rows, delta_text, value_text
from app.store import project_file
from app.store.project_file import load_project, save_project
from app.store.project_json import project_from_dict, project_to_dict
from app.domain.validation import blocking, validate

HPT = "Enable High Performance Tier"


@pytest.fixture
def hpt(load_example):
    """The Dell example with its two scenarios; the HPT one turns HPT on in its own
    configuration instead of by an event at 0:15."""
    p = load_example("dell-md3200-hpt")
    sc = p.scenario(HPT)
    edited = editable_copy(p, HPT)
    edited.features["hpt"] = True
    sc.overlay = overlay_between(p, edited)
    sc.events = []
    return p


def test_overlay_leaves_the_base_untouched_and_is_idempotent(hpt):
    base_features = dict(hpt.features)
    eff = effective_project(hpt, HPT)
    assert eff.features["hpt"] is True and hpt.features == base_features
    assert effective_project(hpt, "Base mode") is hpt  # no overlay: the project itself
    # sections the overlay does not touch are the base's own containers (the layout cache hits)
    assert eff.luns is hpt.luns and eff.drives is hpt.drives
    again = apply_overlay(eff, hpt.scenario(HPT).overlay)
    assert again.features == eff.features and again.luns == eff.luns


def test_overlay_of_added_removed_and_changed_objects(load_example):
    p = load_example("dell-md3200-hpt")
    edited = editable_copy(p)
    first = next(iter(edited.drives))
    del edited.drives[first]
    edited.luns[0].capacity_gb += 10
    edited.workloads[0].read_pct = 50.0
    ov = overlay_between(p, edited)
    assert ov.removed == {"drives": [first]}
    assert set(ov.changed) == {"luns", "workloads"}
    eff = apply_overlay(p, ov)
    assert first not in eff.drives and first in p.drives
    assert eff.luns[0].capacity_gb == p.luns[0].capacity_gb + 10
    assert [l.id for l in eff.luns] == [l.id for l in p.luns]  # changed objects keep their place
    diffs = differences(p, eff)
    assert {d.section for d in diffs} == {"drives", "luns", "workloads"}
    assert any(d.what == f"drive {first}" and d.scenario == "-" for d in diffs)
    assert overlay_between(p, p).is_empty()


def test_engine_runs_the_scenarios_configuration(hpt, catalog):
    base = simulate(hpt, catalog, "Base mode")
    own = simulate(hpt, catalog, HPT)
    b, c = base.get("iops", "random"), own.get("iops", "random")
    # HPT from the start of the plan in the scenario only: more I/O served at once, the
    # baseline as without it (the example's published 8,889 vs 11,849 IOPS)
    assert b.at(0.5) == pytest.approx(8888.9, rel=1e-3)
    assert c.at(0.5) == pytest.approx(11848.9, rel=1e-3)
    assert hpt.features.get("hpt") is False


def test_json_round_trip_and_version(hpt, load_example):
    d = project_to_dict(hpt)
    assert d["version"] == 2
    (sc,) = [s for s in d["scenarios"] if s["name"] == HPT]
    assert sc["overlay"] == {"features": {"set": {"hpt": True}}}
    back = project_from_dict(d)
    assert back == hpt and back.scenario(HPT).overlay == hpt.scenario(HPT).overlay
    # a project without overlays stays version 1, readable by the ArrayPlanner before them
    assert project_to_dict(load_example("dell-md3200-hpt"))["version"] == 1
    sc["overlay"] = {"luns": {"removed": ["three"]}}
    with pytest.raises(ValueError, match=r"overlay\.luns\.removed\[0\]: expected a whole number"):
        project_from_dict(d)
    sc["overlay"] = {"disks": {}}
    with pytest.raises(ValueError, match=r"scenarios\[1\].*overlay.*unknown field 'disks'"):
        project_from_dict(d)


def test_arrayplan_round_trip_and_upgrade_from_v3(hpt, tmp_path):
    path = tmp_path / "p.arrayplan"
    save_project(hpt, path)
    assert load_project(path) == hpt
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == project_file.SCHEMA_VERSION
        rows = dict(con.execute("SELECT name, overlay_json FROM scenario"))
    assert rows["Base mode"] is None and "hpt" in rows[HPT]
    # a version 4 file (no overlay column, the committed fixture): every scenario runs on the
    # project's configuration
    import shutil

    old = tmp_path / "v4.arrayplan"
    shutil.copy(Path(__file__).parent / "fixtures/schema/project-v4.arrayplan", old)
    upgraded = load_project(old)
    assert upgraded.scenarios and all(s.overlay is None for s in upgraded.scenarios)


def test_validation_checks_each_scenarios_configuration(hpt, catalog):
    sc = hpt.scenario(HPT)
    edited = editable_copy(hpt, HPT)
    edited.luns[0].group_id = 99
    sc.overlay = overlay_between(hpt, edited)
    issues = validate(hpt, catalog)
    bad = [i for i in issues if "RG 99" in i.text]
    assert len(bad) == 1 and bad[0].scenario == HPT and bad[0].text.startswith(f"{HPT}: ")
    # it blocks that scenario's run only; the base configuration is fine
    assert blocking(issues, [HPT]) and not blocking(issues, ["Base mode"])


def test_comparison_sees_the_change_and_exports_csv(hpt, catalog):
    base, own = simulate(hpt, catalog, "Base mode"), simulate(hpt, catalog, HPT)
    rows = compare(own, base, effective_project(hpt, HPT), hpt, catalog, {"hpt": "High Performance Tier"})
    by = {(r.section, r.key): r for r in rows}
    iops = by[("IOPS", "random")]
    assert iops.current > iops.baseline * 1.3 and iops.worse is False  # more IOPS: better
    mean = by[("Mean response", "random")]
    assert mean.current < mean.baseline and mean.worse is False
    (feature,) = [r for r in rows if r.section == "Configuration"]
    assert feature.label == "feature High Performance Tier"
    assert (value_text(feature, "baseline"), value_text(feature, "current")) == ("off", "on")
    assert by[("Array", "drives")].delta == 0
    table = list(csv.reader(io.StringIO("\n".join(",".join(map(str, r)) for r in csv_rows(rows, "Base mode", HPT)))))
    assert table[0][3:5] == ["Base mode", HPT]
    assert any(r[0] == "IOPS" and r[7] == "better" for r in table[1:])


def test_a_plan_that_does_not_finish_is_never_an_improvement(load_example, host_first_catalog):
    """A drive failure without a replacement leaves the rebuild running at the end: the plan ends
    at its last event, earlier than the baseline's, and that must not read as shorter. (On the
    CX4 whose levels keep no share of the drive time, where the host starves the rebuild.)"""
    from app.domain.project import DriveFailure

    catalog = host_first_catalog
    p = load_example("emc-cx4-960-oltp")
    p.platform_id = "host-first"
    p.current_scenario = "Dependent ASAP migration"
    base = simulate(p, catalog)
    migration = base.operations[0]
    group = p.group(p.lun(p.scenario().events[0].source_lun).group_id)
    sc = p.scenario()
    sc.events.append(DriveFailure("fail", 0.1, drive=group.drives[1], priority="ASAP"))
    cur = simulate(p, catalog)
    assert any(o.end_h is None for o in cur.operations), "the case needs an unfinished operation"
    rows = compare(cur, base, p, p, catalog)
    plan = next(r for r in rows if r.key == "horizon")
    assert plan.worse is True and value_text(plan, "current") == "not finished"
    assert not delta_text(plan).startswith("-")
    assert not any(r.worse is False and r.section in ("Plan", "Operations") for r in rows)
    assert migration.end_h is not None


def test_a_broken_target_is_marked(load_example, catalog):
    p = load_example("dell-md3200-hpt")
    p.workloads[0].response_target_ms = 25.0
    base, cur = simulate(p, catalog, "Base mode"), simulate(p, catalog, HPT)
    peak = next(r for r in compare(cur, base, p, p, catalog) if r.section == "Workloads")
    assert peak.sla_broken == {"baseline", "current"} and "broken in baseline and current" in peak.note
