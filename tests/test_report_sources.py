"""Sources are cited by document title and number, in the report and in the GUI's tooltips
(issue 23: "emc Table 4" could not be looked up)."""
from __future__ import annotations

import re

import pytest

from app.domain.sources import Bibliography, Document
from app.report.content import ReportOptions, Table, build_report
from app.store.presets import builtin_presets_dir, default_catalog, parse_toml
from app.store.sources import default_bibliography, load_bibliography

from report_fixtures import small_project, small_results

EMC_TITLE = "EMC CLARiiON: The Effect of Priorities on LUN Management Operations"


def test_a_key_becomes_title_and_number_then_short_name():
    bib = default_bibliography()
    assert bib.cite("emc Table 4") == f"{EMC_TITLE}, H4153.2, Table 4, pp. 12-13"
    assert bib.cite("emc Figure 1 text (emc Table 2)") == \
        f"{EMC_TITLE}, H4153.2, Figure 1, pp. 9-10 text (EMC H4153.2, Table 2, pp. 7-8)"
    assert bib.cite("hp: 'the rebuild'") == "HP ProLiant: RAID 5 rebuild performance in ProLiant, TC050702TB: 'the rebuild'"
    assert bib.cite("netapp post, closing note").startswith("WAFL performance VS sequential reads")
    assert bib.keys_in("tr4652 (pools) and sgi is4000 ('x')") == ["tr4652", "sgi is4000"]


def test_a_citation_gives_the_pages_the_documents_contents_list():
    """The EMC paper's table of contents puts 'Rebuild priority' (Tables 4-6) on pp. 12-13 and
    'Bind duration' (Table 8) on pp. 18-19; a range of tables spans their pages; a locator the
    contents do not place keeps no page (never a guessed one)."""
    bib = default_bibliography()
    assert bib.cite("emc Table 8 (idle SP)") == f"{EMC_TITLE}, H4153.2, Table 8, pp. 18-19 (idle SP)"
    assert bib.cite("emc Tables 4-7") == f"{EMC_TITLE}, H4153.2, Tables 4-7, pp. 12-15"
    assert bib.cite("emc 'Rebuild priority': x") == f"{EMC_TITLE}, H4153.2, 'Rebuild priority', pp. 12-13: x"
    assert bib.cite("emc Table 12") == f"{EMC_TITLE}, H4153.2, Table 12"
    assert bib.cite("hp Table 2 (Medium)").endswith("TC050702TB, Table 2 (Medium)")


def test_a_bad_page_entry_is_refused_with_its_place():
    from app.domain.sources import bibliography_from_tables
    with pytest.raises(ValueError, match=r"\[x.pages\]: 'Table 1'"):
        bibliography_from_tables({"x": {"title": "T", "pages": {"Table 1": [9, 3]}}})


def test_figure_ids_file_names_and_words_are_left_alone():
    bib = default_bibliography()
    for text in ("fitted to emc.load.dependent.cpu (+0.0%)", "rates dell-md32xx", "assumption: no hpx figure",
                 "the emcee"):
        assert bib.cite(text) == text
        assert bib.keys_in(text) == []


def test_every_preset_citation_key_is_in_the_bibliography():
    """A source text that starts with a lower-case key ("emc ...", "me4 guide ...") must name a
    catalogued document: else the report prints the bare key again."""
    not_keys = {"assumption", "fitted", "formatted_factor", "common", "as", "dm"}  # dm-devel: a mail, cited in full
    bib = default_bibliography()
    unknown = set()
    for path in sorted(builtin_presets_dir().rglob("*.toml")):
        for text in re.findall(r'source\s*=\s*"([^"]*)"', path.read_text(encoding="utf-8")):
            first = re.match(r"[a-z][\w.]*", text)
            if first and first.group(0) not in not_keys and not bib.keys_in(text[:40]):
                unknown.add((path.name, first.group(0)))
    assert not unknown, f"source texts citing no catalogued document: {sorted(unknown)[:10]}"


def test_the_bibliography_file_names_every_document_with_title():
    tables = parse_toml((builtin_presets_dir() / "sources.toml").read_text(encoding="utf-8"), "sources.toml")
    assert {"emc", "hp", "hitachi", "dell", "netapp"} <= set(tables)
    seeds = {t.get("seed") for t in tables.values()} - {None}
    assert len(seeds) == 5  # the five calibration documents


def test_a_bibliography_without_title_is_refused(tmp_path):
    bad = tmp_path / "sources.toml"
    bad.write_text('[emc]\nnumber = "H1"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"sources.toml: \[emc\] has no title"):
        load_bibliography(bad)


def test_report_cites_titles_and_lists_references():
    rep = build_report(small_project(), default_catalog(), small_results(), ReportOptions())
    heads = {h.key: h for h in rep.headings()}
    assert "appendix-references" in heads and heads["appendix-references"].number == "B"
    rates = next(b for b in rep.blocks if isinstance(b, Table) and b.columns[-1].title == "Source"
                 and b.columns[0].title == "Parameter")
    sources = [r.cells[2] for r in rates.rows]
    assert any(s.startswith(f"{EMC_TITLE}, H4153.2, Table 1") for s in sources)
    assert not any(re.search(r"(^|\W)emc (Table|Figure)", s) for s in sources)
    refs = rep.blocks[rep.blocks.index(heads["appendix-references"]):]
    table = next(b for b in refs if isinstance(b, Table))
    emc = [r for r in table.rows if r.cells[1] == "H4153.2"]
    assert len(emc) == 1 and emc[0].cells[0] == EMC_TITLE
    # the capacity summary's public pages (the sector format, where the vault is), with their address
    pages = [r for r in table.rows if r is not emc[0]]
    assert {r.cells[0] for r in pages} == {
        "CLARiiON Disk Format Structure", "The VAULT Drives", "Vault drives on the new EMC VNX arrays"}
    assert all(r.cells[-1].startswith("http") for r in pages)


def test_no_references_section_without_a_catalogued_citation():
    empty = Bibliography({"x": Document("x", "X")})
    from app.report.content import ReportBuilder

    b = ReportBuilder(small_project(), default_catalog(), small_results(), ReportOptions(assumptions=False))
    b.bibliography = empty
    rep = b.build()
    assert "appendix-references" not in {h.key for h in rep.headings()}


def test_gui_tooltips_use_the_same_citation(qtbot):
    from app.ui.properties import editor_for

    spec = next(s for s in default_catalog().platforms["emc-cx4-960-r28"].lun_settings.values()
                if s.source.startswith("emc "))
    w = editor_for(spec, spec.default, lambda *a: None)
    qtbot.addWidget(w)
    assert f"{EMC_TITLE}, H4153.2" in w.toolTip()


# ---------------------------------------------------------------- the summary's longest operation

def _summary_longest(results) -> dict[str, str]:
    from app.report.content import ReportBuilder

    rep = ReportBuilder(small_project(), default_catalog(), results, ReportOptions(charts=[])).build()
    table = next(b for b in rep.blocks if isinstance(b, Table) and any(c.title == "Longest operation"
                                                                        for c in b.columns))
    col = [c.title for c in table.columns].index("Longest operation")
    return {r.cells[0]: r.cells[col] for r in table.rows}


def _with_ops(ops):
    results = small_results()
    for r in results.values():
        r.operations = list(ops)
    return results


def test_longest_operation_leaves_out_the_wait_for_the_replacement_drive():
    from app.engine.result import OperationResult, Phase

    failure = OperationResult("op2", "drive_failure", "Rebuild drive 0_0_3", "High", 0.0, 10.0, [
        Phase("rebuild", 0.0, 1.0, 1000.0, 1.0), Phase("wait for replacement", 1.0, 9.0),
        Phase("equalization", 9.0, 10.0, 1000.0, 1.0)])
    migration = OperationResult("op1", "lun_migration", "Migrate LUN 0 -> LUN 2", "High", 0.0, 3.0,
                                [Phase("copy", 0.0, 3.0, 1000.0, 1.0)])
    # 10 h on the clock but 2 h of work: the 3 h migration is the longest
    assert set(_summary_longest(_with_ops([failure, migration])).values()) == {"Migrate LUN 0 -> LUN 2: 3 h"}
    alone = _summary_longest(_with_ops([failure]))
    assert set(alone.values()) == {"Rebuild drive 0_0_3: 2 h (+8 h waiting for the new drive)"}
    degraded = OperationResult("op2", "drive_failure", "Rebuild drive 0_0_3", "High", 0.0, 6.0, [
        Phase("degraded", 0.0, 5.0), Phase("rebuild", 5.0, 6.0, 1000.0, 1.0)])
    assert set(_summary_longest(_with_ops([degraded])).values()) == {
        "Rebuild drive 0_0_3: 1 h (+5 h waiting for the new drive)"}


def test_the_capacity_tooltip_cites_the_document(qtbot):
    from PySide6.QtWidgets import QLabel

    from app.ui.capacity_view import capacity_box

    cat = default_catalog()
    box = capacity_box(small_project(), cat)
    qtbot.addWidget(box)
    tip = box.findChild(QLabel, "capacityNotes").toolTip()
    assert f"{EMC_TITLE}, H4153.2, 'Examples, tables, and figures'" in tip
    assert not re.search(r"(^|[\s(])emc ", tip)


def test_the_users_notes_are_printed_as_written():
    """Only the presets' source texts are expanded: a user's "hp" or "emc" is their own word."""
    from app.report.content import Para

    p = small_project()
    p.info.notes = "Replace the old hp box; emc Table 4 per the customer."
    p.scenarios[0].notes = "dell later"
    rep = build_report(p, default_catalog(), small_results(), ReportOptions())
    assert rep.cover.notes == p.info.notes
    assert any(isinstance(b, Para) and b.text == "dell later" for b in rep.blocks)
