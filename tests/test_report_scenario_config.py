"""The report's configuration pages show a scenario's own configuration (its overlay) where it
differs from the base, not the base only (issue 23)."""
from __future__ import annotations

import copy

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
    # a chapter of its own after the base array's (configuration ... host workloads)
    assert head.level == 1
    order = [h.key for h in rep.headings() if h.level == 1]
    assert order.index("host-workloads") < order.index("scenario-configurations") < order.index("operations-plan")
    assert [h.text for h in rep.headings() if h.key.startswith("config-") and h.level == 2] == ["\u201cASAP\u201d"]
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
    assert cells["Proposed"] == ["-", "RAID 5, 5 drives"]  # the level as the GUI writes it
    # rows that change are set in bold, the others not
    styles = {r.cells[0]: r.style for r in table.rows}
    assert styles["Drives"] == "bold" and styles["Workloads"] == ""


def test_no_section_when_every_scenario_runs_on_the_base():
    rep = build_report(small_project(), default_catalog(), small_results(), ReportOptions())
    assert not any(h.key == "scenario-configurations" for h in rep.headings())
    # nor when the scenario with its own configuration is left out of the report
    rep = build_report(proposed_project(), default_catalog(), small_results(), ReportOptions(scenarios=["Baseline"]))
    assert not any(h.key == "scenario-configurations" for h in rep.headings())


def _blocks_of(rep, key):
    """The blocks of the level-2 section `key`, up to the next level-1 or level-2 heading."""
    from app.report.content import Heading

    out = []
    for b in _section(rep, key)[1:]:
        if isinstance(b, Heading) and b.level <= 2:
            break
        out.append(b)
    return out


def test_a_scenario_that_changes_the_hardware_gets_its_layout_groups_and_capacity():
    from app.report.content import Diagram, Heading

    p = proposed_project()
    cat = default_catalog()
    rep = build_report(p, cat, small_results(), ReportOptions())
    blocks = _blocks_of(rep, "config-ASAP")
    subheads = [b.text for b in blocks if isinstance(b, Heading)]
    assert subheads == ["Layout", "RAID groups", "Capacity summary"]
    # the layout of the one bus the scenario changes, drawn from its effective project
    (diagram,) = [b for b in blocks if isinstance(b, Diagram)]
    assert diagram.buses == [0] and diagram.project is not None
    assert "0_1_10" in diagram.project.drives and "0_1_10" not in p.drives
    # its own RAID-group table: the new group with its level and width, drives and LUN count
    groups = next(b for b in blocks if isinstance(b, Table) and b.columns[0].title == "RAID group"
                  and any(c.title == "Drive type" for c in b.columns))
    rows = {r.cells[0]: r.cells for r in groups.rows}
    assert rows["Proposed"][1] == "4+1 R5" and rows["Proposed"][3] == "0_1_10\u20130_1_14" and rows["Proposed"][-1] == "0"
    assert rows["Total"][-1] == "4"
    _, eff_total = capacity_summary(effective_project(p, "ASAP"), cat)
    assert rows["Total"][5] == format_capacity(eff_total.usable_gb)
    # and its capacity summary, with the new group's formatted space
    summary = next(b for b in blocks if isinstance(b, Table) and any(c.title == "Formatted" for c in b.columns))
    assert "Proposed" in [r.cells[0] for r in summary.rows]
    # the base's tables do not have the scenario's group
    base_groups = next(b for b in _section(rep, "raid-groups") if isinstance(b, Table))
    assert "Proposed" not in [r.cells[0] for r in base_groups.rows]


def test_scenarios_that_change_no_hardware_or_the_same_hardware_are_not_repeated():
    from app.report.content import Diagram, Heading, Para

    p = proposed_project()
    sc = p.scenario("Baseline")
    edited = editable_copy(p, "Baseline")
    edited.workloads[0].iops = 3000  # a workload change only: no hardware of its own
    sc.overlay = overlay_between(p, edited)
    twin = copy.deepcopy(p.scenario("ASAP"))
    twin.name = "ASAP again"  # the same proposed hardware as "ASAP"
    p.scenarios.append(twin)
    results = small_results()
    results["ASAP again"] = results["ASAP"]
    rep = build_report(p, default_catalog(), results, ReportOptions())
    for key, expected in (("config-Baseline", "those of the base array"),
                          ("config-ASAP again", "those of \u201cASAP\u201d above")):
        blocks = _blocks_of(rep, key)
        assert not [b for b in blocks if isinstance(b, (Heading, Diagram))]
        assert any(isinstance(b, Para) and expected in b.text for b in blocks)
        assert len([b for b in blocks if isinstance(b, Table)]) == 1  # the figures and differences only


def test_the_pdf_draws_the_scenarios_layout(tmp_path, qapp):
    """Rendered: the scenario's own layout and tables reach the PDF (the renderer draws a
    scenario's Diagram from its own project, also when the base layout comes from the canvas)."""
    import shutil
    import subprocess

    import pytest

    from app.report import generate_report

    if shutil.which("pdftotext") is None:
        pytest.skip("needs poppler-utils")
    path = tmp_path / "own.pdf"
    generate_report(proposed_project(), default_catalog(), path, ReportOptions(), small_results())
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout
    pages = text.split("\f")
    page = next(pg for pg in pages if "Bus 0 as this scenario has it" in pg)
    assert "Encl 0_1" in page and "Proposed: 4+1 R5" in page  # the diagram and its legend


def test_the_comparison_chapter_names_groups_and_marks_a_broken_target():
    """The report's scenario comparison (issue 23): IOPS served, the busiest component named as
    the GUI names it ("Disk Group 3", never "RG 3"), the configuration differences in the
    platform's words, and a target broken only in the scenario set in the warning style."""
    from app.domain.overlay import Overlay
    from app.domain.user_names import RAW_ID
    from app.engine import simulate
    from app.store.project_file import load_project
    from app.store.presets import builtin_presets_dir

    cat = default_catalog()
    p = load_project(builtin_presets_dir() / "examples" / "dell-md3200-hpt.json")
    for g in p.groups:
        g.name = ""
    hpt = "Enable High Performance Tier"
    # HPT on from the start in the scenario's own configuration: its peak response is lower
    p.scenario(hpt).overlay = Overlay(changed={"cache": {"cache_block_kb": 16}, "features": {"hpt": True}})
    results = {s.name: simulate(p, cat, s.name) for s in p.scenarios}
    wid = p.workloads[0].id
    base_peak, hpt_peak = (results[n].get("response_ms", wid).peak() for n in ("Base mode", hpt))
    # a target between the two peaks, broken only in the scenario that is worse
    worse, better = (hpt, "Base mode") if hpt_peak > base_peak else ("Base mode", hpt)
    p.workloads[0].response_target_ms = (base_peak + hpt_peak) / 2
    p.baseline_scenario = better
    rep = build_report(p, cat, results, ReportOptions())
    table = next(b for b in _section(rep, f"compare-{worse}") if isinstance(b, Table))
    rows = {r.cells[0]: r for r in table.rows}
    assert "Workloads (IOPS served, mean)" in rows
    busiest = rows["Busiest component (peak)"]
    # the closed 256-I/O load sits at the MD3200's controller I/O limit in both scenarios: that
    # limit, not a disk group, is the busiest component (the groups are named in the MTTDL row)
    assert "(controller limit)" in busiest.cells[4] and not RAW_ID.search(busiest.cells[4]), busiest.cells
    assert "MTTDL (worst disk group)" in rows
    assert sorted(rows["cache: Cache block size"].cells[1:3]) == ["16 KB", "4 KB"]
    peak = next(r for r in table.rows if r.cells[0] == p.workloads[0].name and "target" in r.cells[4])
    assert base_peak != hpt_peak
    assert peak.style == "warning" and "broken in current" in peak.cells[4], peak.cells
    assert not any(RAW_ID.search(c) for r in table.rows for c in r.cells if isinstance(c, str))
