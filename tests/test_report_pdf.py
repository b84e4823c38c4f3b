"""The PDF itself: text (pdftotext), page furniture, tables breaking across pages with their
header repeated, vector charts, progress and cancel."""
import datetime as dt
import re
import shutil
import subprocess

import pytest

from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity, format_duration, format_time
from app.domain.project import Lun
from app.report import ReportCancelled, ReportOptions, generate_report
from app.store.presets import default_catalog

from report_fixtures import small_project, small_results

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")


def pdf_pages(path) -> list[str]:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1] if out.endswith("\f") else out.split("\f")


def squash(text: str) -> str:
    return re.sub(r"[ \t]+", " ", text)


@pytest.fixture(scope="module")
def small_pdf(tmp_path_factory, qapp_module):
    path = tmp_path_factory.mktemp("rep") / "small.pdf"
    info = generate_report(small_project(), default_catalog(), path,
                           ReportOptions(date=dt.date(2026, 11, 21)), small_results())
    return path, info


@pytest.fixture(scope="module")
def qapp_module(qapp):
    """pytest-qt's QApplication (a QGuiApplication would do, but the GUI tests in the same run
    need the QApplication)."""
    return qapp


def test_pdf_text_has_the_figures(small_pdf):
    path, info = small_pdf
    pages = pdf_pages(path)
    assert len(pages) == info.pages
    text = squash("\n".join(pages))
    for r in small_results().values():
        for op in r.operations:
            assert format_duration(op.duration_h) in text, op.label
            for ph in op.phases:
                assert format_duration(ph.duration_h) in text
                assert format_time(ph.start_h) in text
    rows, total = capacity_summary(small_project(), default_catalog())
    for r in rows:
        assert format_capacity(r.usable_gb) in text
    assert format_capacity(total.raw_gb) in text
    assert "Acme Bank" in text and "J. Presales" in text and "21 November 2026" in text
    for a in small_results()["Baseline"].assumptions:
        assert a.path in text


def test_page_furniture(small_pdf):
    path, info = small_pdf
    pages = pdf_pages(path)
    n = len(pages)
    assert "Page" not in pages[0]  # the cover has no header or footer
    for k, page in enumerate(pages[1:], start=2):
        assert f"Page {k} of {n}" in page
        assert "Exchange consolidation" in page  # running header
    contents = squash(pages[1])
    assert "Contents" in contents
    # the TOC's page numbers are right: each chapter's heading is on the page the TOC names
    for title in ("Summary", "Operations plan", "Advisories", "Assumptions"):
        m = re.search(rf"(?:\d+|A)\s+{re.escape(title)}\s+(\d+)", contents)
        assert m, title
        assert title in pages[int(m.group(1)) - 1]


def test_charts_are_vectors(small_pdf):
    path, _ = small_pdf
    if shutil.which("pdfimages") is None:
        pytest.skip("needs pdfimages")
    out = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    assert len(out.strip().splitlines()) <= 2  # header lines only: no raster images at all
    text = "\n".join(pdf_pages(path))
    assert "Controller CPU utilization (%)" in text
    assert "time from the start of the plan" in text
    assert "SP A CPU 0" in text  # legend


def test_long_tables_repeat_their_header(tmp_path, qapp_module):
    p = small_project()
    p.luns = [Lun(i, i % 4, 10.0, "SP A" if i % 2 else "SP B", f"vol{i:03d}") for i in range(160)]
    path = tmp_path / "long.pdf"
    generate_report(p, default_catalog(), path, ReportOptions(charts=[], diagram=False), small_results())
    pages = pdf_pages(path)
    with_luns = [pg for pg in pages if re.search(r"\bvol\d{3}\b", pg)]
    assert len(with_luns) >= 3
    for pg in with_luns:
        assert re.search(r"LUN\s+Name\s+RAID group\s+Capacity\s+Owner\s+Settings", pg), pg[:400]
    # rows are never split or lost: every LUN is there exactly once
    found = re.findall(r"\bvol(\d{3})\b", "\n".join(pages))
    assert sorted(set(found)) == [f"{i:03d}" for i in range(160)]


def test_progress_and_letter_size(tmp_path, qapp_module):
    seen = []
    path = tmp_path / "letter.pdf"
    generate_report(small_project(), default_catalog(), path, ReportOptions(page_size="Letter"), small_results(),
                    progress=lambda f, msg: seen.append(f))
    assert seen == sorted(seen) and seen[-1] == 1.0
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    assert "612 x 792" in info


def test_cancel_leaves_no_file(tmp_path, qapp_module):
    path = tmp_path / "cancelled.pdf"
    calls = {"n": 0}

    def cancelled():
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(ReportCancelled):
        generate_report(small_project(), default_catalog(), path, ReportOptions(), small_results(),
                        cancelled=cancelled)
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_long_text_flows_over_pages_without_loss(tmp_path, qapp_module):
    p = small_project()
    words = [f"w{i:04d}" for i in range(2400)]
    p.info.notes = " ".join(words)  # about three pages: too long for the cover, opens the summary
    path = tmp_path / "long-notes.pdf"
    generate_report(p, default_catalog(), path, ReportOptions(charts=[], diagram=False), small_results())
    pages = pdf_pages(path)
    assert not re.search(r"\bw\d{4}\b", pages[0])  # not on the cover
    found = re.findall(r"\bw(\d{4})\b", "\n".join(pages))
    assert found == [f"{i:04d}" for i in range(2400)]  # every word once, in order
    assert len([pg for pg in pages if re.search(r"\bw\d{4}\b", pg)]) >= 3
    for k, page in enumerate(pages[1:], start=2):
        assert f"Page {k} of {len(pages)}" in page  # the footer is never overwritten


def test_a_new_empty_project_on_every_platform(tmp_path, qapp_module):
    """A project with nothing in it yet still makes a sensible report (engine included)."""
    from app.domain.project import Project, ProjectInfo

    catalog = default_catalog()
    for pid in sorted(catalog.platforms):
        path = tmp_path / f"{pid}.pdf"
        info = generate_report(Project(pid, ProjectInfo("Empty \u2013 M\u00fcller GmbH", "Kunde \u03a9")), catalog,
                               path, ReportOptions())
        text = squash("\n".join(pdf_pages(path)))
        assert info.pages >= 5
        assert "M\u00fcller GmbH" in text and "Kunde \u03a9" in text
        assert "The project has no RAID groups yet." in text
        assert catalog.platforms[pid].name in text


def test_references_with_addresses_break_no_word(small_pdf):
    """The References table with its "Where" column: an address breaks after its "/"s, so it
    no longer takes the room of the titles and numbers, which broke mid-word ("Numbe r",
    "H4153. 2", "Manageme nt")."""
    path, _ = small_pdf
    page = next(p for p in pdf_pages(path) if "References" in p and "Where" in p)
    assert "Number" in page and "H4153.2" in page and "Management" in page
    assert "emcstorageinfo.com" in page and "clariion-disk-format-" in page
