"""Issue 23: no text the user reads holds a raw id ("RG 3", "op1", "w1"). Validation and the
engine write ids; app.domain.user_names names them (the platform's noun: "Disk Group 3" on a
Dell), and the Messages dock, the report and the CLI print the named text."""
from __future__ import annotations

import copy
import re

import pytest

from app.domain.project import DriveFailure
from app.domain.user_names import RAW_ID, ObjectNames, names_for
from app.domain.validation import validate
from app.engine import simulate
from app.store.examples import example_paths
from app.store.presets import default_catalog
from app.store.project_file import load_project


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


def _with_an_unreplaced_failure(project):
    """The example with a member of its first group failing at 0:10 and never replaced: the
    no-replacement and unfinished advisories name the group, the drive and the operation."""
    p = copy.deepcopy(project)
    groups = [g for g in p.groups if g.drives]
    if not groups:
        return None
    sc = p.scenario()
    sc.events.append(DriveFailure(id=sc.new_event_id(), start_h=1 / 6, drive=groups[0].drives[0]))
    return p


def _texts(project, catalog):
    """(raw, named) of every validation line and engine advisory, in every scenario."""
    names = names_for(project, catalog)
    out = []
    for sc in project.scenarios:
        out += [(i.line, names.issue_line(i)) for i in validate(project, catalog, sc.name)]
        if not any(i.is_error for i in validate(project, catalog, sc.name)):
            out += [(a.text, names.text(a.text, sc.name)) for a in simulate(project, catalog, sc.name).advisories]
    return out


@pytest.mark.parametrize("path", example_paths(), ids=lambda p: p.stem)
def test_every_example_message_is_written_with_names(path, catalog):
    project = load_project(path)
    texts = _texts(project, catalog)
    failed = _with_an_unreplaced_failure(project)
    if failed is not None:
        texts += _texts(failed, catalog)
    left = [named for _, named in texts if RAW_ID.search(named)]
    assert not left, left[:5]


def test_the_examples_do_write_ids_that_need_naming(catalog):
    """The test above is not vacuous: the raw texts of the examples hold ids."""
    raw = [r for path in example_paths() for r, _ in _texts(load_project(path), catalog) if RAW_ID.search(r)]
    assert len(raw) >= 10 and any(re.search(r"\bRG \d", r) for r in raw) and any(re.search(r"\bop\d", r) for r in raw)


def test_a_group_in_the_platforms_word_a_named_group_by_its_name(catalog):
    project = load_project(next(p for p in example_paths() if p.stem == "dell-md3200-hpt"))
    project.groups[0].name = ""  # the example names its groups "Disk Group 0" itself
    project.groups[1].name = "RG 9 old"  # a name the user typed is never rewritten
    names = names_for(project, catalog)
    g0, g1 = project.groups[0].id, project.groups[1].id
    assert names.text(f"RG {g0} is busy; RG {g1} too; RG 99 is gone") == \
        f"Disk Group {g0} is busy; RG 9 old too; Disk Group 99 is gone"
    assert names.text("RG 3.5 and ERG 3 stay") == "RG 3.5 and ERG 3 stay"
    assert ObjectNames(project, None).group(g0) == f"RAID group {g0}"


def test_the_cli_check_and_simulate_print_names(capsys, catalog):
    from app.cli import main

    path = next(p for p in example_paths() if p.stem == "dell-md3200-hpt")
    main(["check", str(path)])
    out = capsys.readouterr().out
    assert "Disk Group 0" in out and not RAW_ID.search(out), out
    main(["simulate", str(path)])
    out = capsys.readouterr().out
    summary_lines = [line for line in out.splitlines() if "MTTDL" in line or line.startswith("  [")]
    assert summary_lines and not any(RAW_ID.search(line) for line in summary_lines), summary_lines


def test_the_reports_advisories_and_warnings_are_named(catalog):
    from app.report.content import Heading, Para, Table, build_report

    path = next(p for p in example_paths() if p.stem == "emc-cx4-960-oltp")  # unnamed groups
    project = load_project(path)
    names = [s.name for s in project.scenarios]
    results = {n: simulate(project, catalog, n) for n in names}
    warnings = [i.line for i in validate(project, catalog) if i.severity != "error"]
    from app.report.content import ReportOptions
    report = build_report(project, catalog, results, ReportOptions(scenarios=names), warnings)
    texts = []
    for b in report.blocks:
        if isinstance(b, (Heading, Para)):
            texts.append(b.text)
        elif isinstance(b, Table) and not any(c.title == "ID" for c in b.columns):  # the id column, on purpose
            texts += [c for r in b.rows for c in r.cells if isinstance(c, str)]
    left = [t for t in texts if RAW_ID.search(t)]
    assert not left, left[:5]
    assert any("RAID Group 0" in t for t in texts)
    raw = [a.text for r in results.values() for a in r.advisories] + warnings
    assert any(RAW_ID.search(t) for t in raw)  # what was named
