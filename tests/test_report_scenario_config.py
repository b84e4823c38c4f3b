"""The report's configuration pages show a scenario's own configuration (its overlay) where it
differs from the base, not the base only (issue 23)."""
from __future__ import annotations

from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity
from app.domain.overlay import editable_copy, effective_project, overlay_between
from app.domain.project import Drive, RaidGroup
from app.domain.raid import RaidType
from app.report.content import ReportOptions, Table, build_report
from app.store.presets import default_catalog

from report_fixtures import small_project, small_results


def proposed_project():
    """small_project whose "ASAP" scenario adds five drives in a new RAID 5 group."""
    p = small_project()
    edited = editable_copy(p, "ASAP")
    for s in range(10, 15):
        edited.drives[f"0_1_{s}"] = Drive(f"0_1_{s}", "fc-10k-400")
    edited.groups.append(RaidGroup(4, RaidType.R5, [f"0_1_{s}" for s in range(10, 15)], name="Proposed"))
    p.scenario("ASAP").overlay = overlay_between(p, edited)
    return p


def _section(rep, key):
    heads = rep.headings()
    start = rep.blocks.index(next(h for h in heads if h.key == key))
    return rep.blocks[start:]


def test_a_scenario_with_its_own_configuration_gets_its_figures_and_differences():
    p = proposed_project()
    cat = default_catalog()
    rep = build_report(p, cat, small_results(), ReportOptions())
    head = next(h for h in rep.headings() if h.key == "scenario-configurations")
    assert head.level == 2 and head.number.startswith("2.")  # in the configuration chapter
    assert [h.text for h in rep.headings() if h.key.startswith("config-")] == ["\u201cASAP\u201d"]
    table = next(b for b in _section(rep, "config-ASAP") if isinstance(b, Table))
    assert [c.title for c in table.columns] == ["", "Base", "ASAP"]
    cells = {r.cells[0]: r.cells[1:] for r in table.rows}
    assert cells["Drives"] == ["32 (2 hot spares)", "37 (2 hot spares)"]
    assert cells["RAID groups"] == ["4", "5"]
    _, base_total = capacity_summary(p, cat)
    _, eff_total = capacity_summary(effective_project(p, "ASAP"), cat)
    assert cells["Usable capacity"] == [format_capacity(base_total.usable_gb), format_capacity(eff_total.usable_gb)]
    assert eff_total.usable_gb > base_total.usable_gb
    assert cells["drive 0_1_10"] == ["-", cat.drives["fc-10k-400"].name]
    assert cells["Proposed"] == ["-", "R5, 5 drives"]
    # rows that change are set in bold, the others not
    styles = {r.cells[0]: r.style for r in table.rows}
    assert styles["Drives"] == "bold" and styles["Workloads"] == ""


def test_no_section_when_every_scenario_runs_on_the_base():
    rep = build_report(small_project(), default_catalog(), small_results(), ReportOptions())
    assert not any(h.key == "scenario-configurations" for h in rep.headings())
    # nor when the scenario with its own configuration is left out of the report
    rep = build_report(proposed_project(), default_catalog(), small_results(), ReportOptions(scenarios=["Baseline"]))
    assert not any(h.key == "scenario-configurations" for h in rep.headings())
