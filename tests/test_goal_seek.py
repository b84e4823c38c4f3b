"""Goal seek (app/service/goal_seek.py, `arrayplanner size`): the model property the search
relies on, designs that meet the goals by the engine's own runs and are the smallest that do,
the price list, the undoable apply, and the command."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.domain import edits
from app.domain.prices import PriceList
from app.domain.raid import RaidType
from app.domain.validation import ERROR, validate
from app.service.goal_seek import Family, SizingGoal, build_design, evaluate, goal_seek, pareto
from app.service.runner import InProcessExecutor
from app.store.presets import PresetError, load_catalog
from app.store.prices import parse_prices
from app.store.project_file import load_project

ROOT = Path(__file__).resolve().parents[1]
OLTP = ROOT / "presets/examples/emc-cx4-960-oltp.json"
GOAL = SizingGoal(response_ms=10.0, growth_pct=30.0, rebuild_hours=8.0, rebuild_priority="High",
                  drive_types=("fc-15k-146", "fc-15k-300"), raid_types=(RaidType.R5, RaidType.R10))


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture(scope="module")
def project():
    return load_project(OLTP)


@pytest.fixture(scope="module")
def sized(project, catalog):
    return goal_seek(project, catalog, GOAL, executor=InProcessExecutor())


@pytest.mark.parametrize("fam", [Family("fc-15k-146", RaidType.R5, 5), Family("fc-15k-146", RaidType.R10, 8)])
def test_more_groups_for_the_same_load_are_never_slower(project, catalog, fam):
    """The property the bisection relies on: spreading the same load over more drives never
    raises the response nor lengthens the rebuild."""
    seen = [evaluate(project, catalog, fam, n, GOAL, 0.0) for n in (6, 12, 24, 48)]
    saturated = [any(w.startswith("saturated") for w in c.why_not) for c in seen]
    assert saturated == sorted(saturated, reverse=True), saturated  # once served, always served
    resp = [c.response_ms for c, sat in zip(seen, saturated) if not sat]
    rebuild = [c.rebuild_h if c.rebuild_h is not None else float("inf") for c in seen]  # None: never ends
    assert len(resp) >= 2 and all(b <= a + 1e-6 for a, b in zip(resp, resp[1:])), resp
    assert all(b <= a + 1e-6 for a, b in zip(rebuild, rebuild[1:])), rebuild
    meets = [c.meets for c in seen]
    assert meets == sorted(meets), meets  # the search's bisection needs "meets" upward-closed


def test_the_chosen_design_meets_the_goals_and_is_the_smallest_of_its_family(sized, project, catalog):
    c = sized.chosen
    assert c is not None and c.meets and not c.why_not
    assert c.response_ms <= GOAL.response_ms and c.rebuild_h <= GOAL.rebuild_hours
    assert c.usable_gb >= sum(l.capacity_gb for l in project.luns)
    fewer = evaluate(project, catalog, c.family, c.groups - 1, GOAL, sum(l.capacity_gb for l in project.luns))
    assert not fewer.meets, "one group fewer should miss a goal"
    assert sized.cost_unit == "drives" and c.cost == c.drives + c.spares
    assert c in sized.front and all(x.meets for x in sized.front)
    assert sized.runs == sum(x.runs for x in sized.candidates) and sized.runs < 40 * len(sized.candidates)
    design = build_design(project, catalog, c.family, c.groups, GOAL.spares_per)
    assert not [i for i in validate(design, catalog) if i.severity == ERROR]


def test_a_stricter_goal_never_costs_less(sized, project, catalog):
    strict = goal_seek(project, catalog, SizingGoal(**{**GOAL.__dict__, "response_ms": 7.0}),
                       executor=InProcessExecutor())
    assert strict.chosen is not None and strict.chosen.cost >= sized.chosen.cost


def test_each_design_on_the_front_says_why_it_is_not_chosen(sized, project, catalog):
    from app.engine.simulate import simulate
    from app.report.content import ReportOptions, build_report

    c = sized.chosen
    assert sized.verdict(c) == "chosen" and len(sized.front) > 1
    ties = [o for o in sized.front if o is not c and o.cost == c.cost]
    for o in sized.front:
        if o is c:
            continue
        text = sized.verdict(o)
        if o.cost > c.cost:
            assert text.startswith(f"costs {o.cost - c.cost:,.0f} more"), text
        else:  # the same cost: the chosen one has the faster response
            assert o.cost == c.cost and o.response_ms >= c.response_ms and text.startswith("same cost"), text
        if o.response_ms < c.response_ms:
            assert "a faster response" in text
    assert ("cost as much" in sized.chosen_reason) == bool(ties)
    name = project.current_scenario
    report = build_report(project, catalog, {name: simulate(project, catalog, name)},
                          ReportOptions(charts=[], scenarios=[name]), sizing=sized)
    text = report.text()
    assert sized.chosen_reason in text
    assert all(sized.verdict(o) in text for o in sized.front)


def test_an_impossible_goal_says_why(project, catalog):
    res = goal_seek(project, catalog, SizingGoal(**{**GOAL.__dict__, "rebuild_hours": 0.01}),
                    executor=InProcessExecutor())
    assert res.chosen is None and not res.front
    assert all(c.why_not for c in res.candidates)
    assert any("even with no host load the rebuild" in c.why_not[0] for c in res.candidates)


def test_an_mttdl_floor_rules_out_the_designs_below_it(sized, project, catalog):
    """Reliability as a floor (issue 24): a floor between the cheapest design's MTTDL and the
    best family's turns the cheapest away, and the design chosen instead keeps it."""
    cheapest = sized.chosen
    best = max(c.mttdl_h for c in sized.candidates if c.mttdl_h)
    assert cheapest.mttdl_h < best  # else this project cannot show a floor at work
    floor_years = (cheapest.mttdl_h + best) / 2 / 8766.0
    res = goal_seek(project, catalog, SizingGoal(**{**GOAL.__dict__, "mttdl_years": floor_years}),
                    executor=InProcessExecutor())
    assert res.chosen is not None and res.chosen.mttdl_h >= floor_years * 8766.0
    assert res.chosen.family != cheapest.family and res.chosen.cost >= cheapest.cost
    assert all(c.mttdl_h >= floor_years * 8766.0 for c in res.front)
    turned_away = [c for c in res.candidates if not c.meets]
    assert turned_away and all(any(w.startswith("MTTDL below") for w in c.why_not) for c in turned_away)
    same = evaluate(project, catalog, cheapest.family, cheapest.groups,
                    SizingGoal(**{**GOAL.__dict__, "mttdl_years": floor_years}), sum(l.capacity_gb for l in project.luns))
    assert not same.meets and same.why_not == [f"MTTDL below {floor_years:g} years"]


def test_the_mttdl_floor_judges_a_pool_by_the_figure_the_gui_shows(catalog):
    """A Dynamic Disk Pool rebuilds the stripes a second failure makes critical first, so the
    window for a third failure is that short phase (Result.reliability, the inspector and the
    report); the floor must judge the pool by that figure, not by the plain MTTDL."""
    from app.domain.project import DriveFailure
    from app.engine import simulate

    base = load_project(ROOT / "presets/examples/netapp-e5700-ddp.json")
    fam = Family("nlsas-7k2-24000", RaidType.DDP, 24)
    goal = SizingGoal(response_ms=1e3, rebuild_hours=1e4, rebuild_priority="High", mttdl_years=1.0)
    c = evaluate(base, catalog, fam, 1, goal, 0.0)
    p = build_design(base, catalog, fam, 1, goal.spares_per)
    p.horizon_h = None
    sc = p.current_scenario
    p.scenario(sc).events = [DriveFailure("rebuild", 0.0, p.groups[0].drives[0], "High")]
    r = simulate(p, catalog, sc)
    rel = r.reliability[p.groups[0].id]
    assert rel.critical_h is not None and rel.critical_h < rel.mttr_h
    assert c.mttdl_h == pytest.approx(rel.mttdl_h, rel=0.05)
    assert c.mttdl_h > 2 * r.mttdl_h[p.groups[0].id]


def test_prices_change_the_choice(project, catalog, sized):
    c = sized.chosen
    other = "fc-15k-300" if c.family.drive_type == "fc-15k-146" else "fc-15k-146"
    prices = PriceList(drives={c.family.drive_type: 1000.0, other: 1.0})
    res = goal_seek(project, catalog, GOAL, prices, executor=InProcessExecutor())
    assert res.cost_unit == "price" and res.chosen.family.drive_type == other


def test_the_price_file_names_its_bad_entries():
    assert parse_prices('[drives]\n"fc-15k-146" = 450\n', "p.toml").drives == {"fc-15k-146": 450.0}
    with pytest.raises(PresetError, match=r"p.toml: \[drives\] x: a price"):
        parse_prices('[drives]\nx = -1\n', "p.toml")
    with pytest.raises(PresetError, match="p.toml: unknown table or key 'disks'"):
        parse_prices('[disks]\nx = 1\n', "p.toml")
    shipped = (ROOT / "presets/prices.toml").read_text()
    assert parse_prices(shipped, "presets/prices.toml").drives == {}  # no list prices ship


def test_pareto_keeps_only_undominated():
    from app.service.goal_seek import Candidate
    fam = Family("d", RaidType.R5, 5)
    a = Candidate(fam, 1, cost=10, response_ms=5, rebuild_h=2, mttdl_h=100)
    b = Candidate(fam, 2, cost=12, response_ms=6, rebuild_h=3, mttdl_h=90)  # worse on every axis
    c = Candidate(fam, 3, cost=12, response_ms=4, rebuild_h=3, mttdl_h=90)  # faster response
    assert pareto([a, b, c]) == [a, c]


def test_apply_design_is_one_undoable_edit(sized, project, catalog):
    p = project.clone()
    before = p.clone()
    c = sized.chosen
    design = build_design(p, catalog, c.family, c.groups, GOAL.spares_per)
    edit = edits.ApplyDesign(design, c.label)
    change = edit.do(p)
    assert len(p.groups) == c.groups and all(g.raid is c.family.raid for g in p.groups)
    assert all(set(w.luns) == {lun.id for lun in p.luns} for w in p.workloads)
    assert "timeline event" in edit.note  # the migrations named LUNs the design does not have
    assert change.needs_simulation and not [i for i in validate(p, catalog) if i.severity == ERROR]
    edit.undo(p)
    assert p == before


def test_the_size_command(tmp_path):
    out = tmp_path / "sized.json"
    env = {**os.environ, "ARRAYPLANNER_ENGINE": "python"}
    r = subprocess.run([sys.executable, "-m", "app", "size", str(OLTP), "--target", "10", "--growth", "30",
                        "--rebuild-hours", "8", "--priority", "High", "--drive-type", "fc-15k-146", "--raid", "R5",
                        "--json", "--in-process", "--apply", str(out)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["chosen"]["meets"] and d["chosen"]["raid"] == "R5" and d["engine_runs"] > 0
    check = subprocess.run([sys.executable, "-m", "app", "check", str(out)], capture_output=True, text=True,
                           cwd=ROOT, timeout=300, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    bad = subprocess.run([sys.executable, "-m", "app", "size", str(OLTP), "--target", "10", "--raid", "R7"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert bad.returncode == 2 and "R7" in bad.stderr


def test_a_candidate_as_a_scenario_runs_the_design_beside_todays_array(sized, project, catalog):
    from app.domain.overlay import effective_project
    from app.engine.compare import compare
    from app.engine.simulate import simulate

    p = project.clone()
    before = p.clone()
    today = p.current_scenario
    c = sized.chosen
    design = build_design(p, catalog, c.family, c.groups, GOAL.spares_per)
    edit = edits.DesignAsScenario(p, design, "Proposed", c.label)
    assert edit.check(p, catalog) is None
    edit.do(p)
    assert p.current_scenario == "Proposed" and p.groups == before.groups  # the base keeps today's array
    eff = effective_project(p, "Proposed")
    assert len(eff.groups) == c.groups and all(g.raid is c.family.raid for g in eff.groups)
    assert eff.drives == design.drives and eff.luns == design.luns and eff.features == design.features
    # the comparison serves it: a drive-count row with the design's drives against today's
    rows = compare(simulate(p, catalog, "Proposed"), simulate(p, catalog, today), eff,
                   effective_project(p, today), catalog)
    assert rows
    assert edits.DesignAsScenario(p, design, "Proposed").check(p, catalog)  # the name is taken
    edit.undo(p)
    assert p == before


def test_the_scenario_comparison_serves_a_candidate_end_to_end(sized, project, catalog):
    """A candidate added as a scenario goes through the comparison the GUI table, its CSV
    export and the report share: KPI deltas against today's array, today's broken target."""
    from app.domain.overlay import effective_project
    from app.engine.compare import compare, csv_rows
    from app.engine.simulate import simulate
    from app.report.comparison import reference_scenario
    from app.report.content import ReportOptions, build_report

    p = project.clone()
    today = p.current_scenario
    c = sized.chosen
    edits.DesignAsScenario(p, build_design(p, catalog, c.family, c.groups, GOAL.spares_per), "Proposed",
                           c.label).do(p)
    results = {n: simulate(p, catalog, n) for n in (today, "Proposed")}
    rows = compare(results["Proposed"], results[today], effective_project(p, "Proposed"),
                   effective_project(p, today), catalog)
    table = {(row[0], row[1]): row for row in csv_rows(rows, today, "Proposed")[1:]}
    today_drives = len(effective_project(p, today).drives)
    assert table["Array", "Drives"][3:6] == [today_drives, c.drives + c.spares, c.drives + c.spares - today_drives]
    assert table["Array", "Usable capacity"][4] == pytest.approx(c.usable_gb)
    # today's migration breaks the workloads' 20 ms target; the candidate, sized for 10 ms, does not
    broken = [row for row in table.values() if row[0] == "Workloads"]
    assert broken and all("target broken in baseline" in row[7] for row in broken)
    assert any(row[0] == "Configuration" and row[4] == c.family.drive_type for row in table.values())
    report = build_report(p, catalog, results, ReportOptions(charts=[], scenarios=[today, "Proposed"]))
    ref = reference_scenario(p, [today, "Proposed"])
    other = "Proposed" if ref == today else today
    assert f"\u201c{other}\u201d against \u201c{ref}\u201d" in [h.text for h in report.headings()]
    assert f"Drives | {today_drives if ref == today else c.drives + c.spares}" in report.text()


def test_the_size_command_writes_a_candidate_scenario(tmp_path):
    from app.domain.overlay import effective_project

    out = tmp_path / "with-candidate.arrayplan"
    env = {**os.environ, "ARRAYPLANNER_ENGINE": "python"}
    r = subprocess.run([sys.executable, "-m", "app", "size", str(OLTP), "--target", "10", "--growth", "30",
                        "--drive-type", "fc-15k-146", "--raid", "R5", "--in-process",
                        "--as-scenario", "Proposed", str(out)],
                       capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert r.returncode == 0, r.stderr
    saved, base = load_project(out), load_project(OLTP)
    assert saved.groups == base.groups and saved.current_scenario == "Proposed"
    assert len(effective_project(saved, "Proposed").groups) != len(base.groups)
    again = subprocess.run([sys.executable, "-m", "app", "size", str(out), "--target", "10", "--growth", "30",
                            "--drive-type", "fc-15k-146", "--raid", "R5", "--in-process",
                            "--as-scenario", "Proposed", str(tmp_path / "x.arrayplan")],
                           capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert again.returncode == 2 and "Proposed" in again.stderr and not (tmp_path / "x.arrayplan").exists()


def cache_sized_catalog(catalog, sizes: str):
    """The CX4-960 preset with `sizes = [...]` on its write cache setting (no shipped preset
    sells cache in sizes: no document names the options)."""
    import dataclasses

    from app.store.presets import platform_from_text

    text = (ROOT / "presets/platforms/emc-cx4-960-r28.toml").read_text()
    text = text.replace("[cache.write_cache_mb]\n", f"[cache.write_cache_mb]\nsizes = {sizes}\n")
    platform = platform_from_text(text, catalog)
    return dataclasses.replace(catalog, platforms={**catalog.platforms, platform.id: platform})


def test_cache_sizes_the_platform_sells_are_searched_and_priced(project, catalog):
    from app.service.goal_seek import families

    sized_cat = cache_sized_catalog(catalog, "[1000, 4500]")
    goal = SizingGoal(10.0, 30.0, drive_types=("fc-15k-146",), raid_types=(RaidType.R5,), search_features=False)
    plain = families(project, catalog, goal)
    fams = families(project, sized_cat, goal)
    assert len(fams) == 2 * len(plain) and {f.cache for f in fams} == {(("write_cache_mb", 1000),),
                                                                        (("write_cache_mb", 4500),)}
    big = next(f for f in fams if f.cache == (("write_cache_mb", 4500),))
    assert "write_cache_mb 4500" in big.label
    design = build_design(project, sized_cat, big, 4, goal.spares_per)
    assert design.cache["write_cache_mb"] == 4500 and project.cache["write_cache_mb"] == 3000
    prices = PriceList(drives={"fc-15k-146": 100.0}, cache={"write_cache_mb:4500": 5000.0})
    res = goal_seek(project, sized_cat, goal, prices, executor=InProcessExecutor())
    assert res.cost_unit == "price"
    by_cache = {c.family.cache: c for c in res.candidates if c.family.width == big.width}
    small, large = by_cache[(("write_cache_mb", 1000),)], by_cache[(("write_cache_mb", 4500),)]
    assert large.cost == pytest.approx((large.drives + large.spares) * 100.0 + 5000.0)
    assert small.cost == pytest.approx((small.drives + small.spares) * 100.0)
    p = project.clone()
    c = res.chosen
    edits.ApplyDesign(build_design(p, sized_cat, c.family, c.groups, goal.spares_per), c.label).do(p)
    assert p.cache["write_cache_mb"] == dict(c.family.cache)["write_cache_mb"]


def test_cache_sizes_outside_the_setting_are_refused(catalog):
    with pytest.raises(PresetError, match=r"write_cache_mb: sizes: .*above the maximum"):
        cache_sized_catalog(catalog, "[1000, 99999]")
    with pytest.raises(PresetError, match=r"write_cache_mb: sizes must be a list of numbers"):
        cache_sized_catalog(catalog, '"big"')
