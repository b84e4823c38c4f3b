"""Page breaks (issue 23: a nearly empty page in the example report): a heading never ends a
page, a table split leaves more than a row or two for the next page, a short tail of a table
is not left alone on a page before a chapter, the contents fit one page when they overflow it by
a little, and the layout picture shrinks a little rather than leave a page nearly empty."""
from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QPicture

from app.report.content import Col, Diagram, Heading, Para, ReportOptions, Row, Table, build_report
from app.report.render import MIN_TAIL_ROWS, SHORT_TAIL_SHARE, PdfRenderer
from app.store.presets import default_catalog

from report_fixtures import small_project, small_results


@pytest.fixture(scope="module")
def base_report(qapp):
    return build_report(small_project(), default_catalog(), small_results(), ReportOptions())


def paginate(report, blocks, tmp_path, scene=None) -> PdfRenderer:
    r = PdfRenderer(dataclasses.replace(report, blocks=blocks), str(tmp_path / "x.pdf"), scene_picture=scene)
    r.paginate()
    return r


def rows(n, text="row"):
    return Table([Col("A", 1.0), Col("B", 1.0)], [Row([f"{text} {i}", str(i)]) for i in range(n)])


def table_places(r, table):
    return [(k, pl.rows) for k, page in enumerate(r.pages) for pl in page.places if pl.block is table]


def rows_per_page(r, height_rows=400):
    """How many plain rows fit on an empty page (measured, not assumed)."""
    probe = rows(height_rows)
    r2 = PdfRenderer(dataclasses.replace(r.report, blocks=[Heading("P", 1, key="p"), probe]), r.name)
    r2.paginate()
    return table_places(r2, probe)[0][1][1]


def test_a_split_table_leaves_at_least_three_rows_for_the_next_page(base_report, tmp_path):
    r = paginate(base_report, [Heading("Probe", 1, key="probe")], tmp_path)
    fit = rows_per_page(r)
    t = rows(fit + 1)  # one row too many: the next page would get it alone
    r = paginate(base_report, [Heading("One", 1, key="one"), t], tmp_path)
    parts = table_places(r, t)
    assert len(parts) == 2
    first, second = parts[0][1], parts[1][1]
    assert second[1] - second[0] >= MIN_TAIL_ROWS and first[1] == second[0] and second[1] == fit + 1


def test_a_short_tail_is_not_left_alone_before_an_appendix(base_report, tmp_path):
    r = paginate(base_report, [Heading("Probe", 1, key="probe")], tmp_path)
    fit = rows_per_page(r)
    t = rows(fit + 4)
    front = [Heading("Contents", 1, key="contents"), Para("(contents)")]  # the contents and summary always open a page
    blocks = front + [Heading("One", 1, key="one"), t, Heading("Assumptions", 1, key="appendix-assumptions"),
                      Para("The appendix.")]
    r = paginate(base_report, blocks, tmp_path)
    tail_page = table_places(r, t)[-1][0]
    assert r.heading_page["appendix-assumptions"] == tail_page + 1  # heading_page counts from 1
    # a real chapter's worth before it still opens the appendix on a new page
    r = paginate(base_report, front + [Heading("One", 1, key="one"), rows(fit // 2),
                               Heading("Assumptions", 1, key="appendix-assumptions"), Para("x")], tmp_path)
    assert r.heading_page["appendix-assumptions"] == r.heading_page["one"] + 1
    assert SHORT_TAIL_SHARE < 0.5


def test_the_contents_fit_one_page_when_they_overflow_it_by_a_little(base_report, tmp_path):
    r = paginate(base_report, [Heading("Probe", 1, key="probe")], tmp_path)
    fit = rows_per_page(r)
    toc = Table([Col("", 0.7), Col("", 8), Col("", 0.8, "right")],
                [Row(["1", f"Section {i}", ""], "sub") for i in range(fit + 2)], header=False, kind="toc")
    r = paginate(base_report, [Heading("Contents", 1, key="contents"), toc, Heading("Summary", 1, key="s")],
                 tmp_path)
    assert len(table_places(r, toc)) == 1
    # far too long for one page: it breaks as any table
    toc2 = dataclasses.replace(toc, rows=toc.rows * 3)
    r = paginate(base_report, [Heading("Contents", 1, key="contents"), toc2], tmp_path)
    assert len(table_places(r, toc2)) >= 3


def _page_picture(height: float) -> tuple[QPicture, QRectF]:
    pic = QPicture()
    p = QPainter(pic)
    p.drawRect(QRectF(0, 0, 400, height))
    p.end()
    return pic, QRectF(0, 0, 400, height)


def test_a_chapter_heading_never_ends_a_page_and_a_picture_shrinks_a_little(base_report, tmp_path):
    r = paginate(base_report, [Heading("Probe", 1, key="probe")], tmp_path)
    fit = rows_per_page(r)
    scene = [_page_picture(10000)]  # as tall as a page at full width (scaled to the page)

    def layout_after(n_rows):
        t = rows(n_rows)
        blocks = [Heading("Contents", 1, key="contents"), Para("(contents)"),
                  Heading("Config", 1, key="config"), t, Heading("Layout", 1, key="layout"),
                  Para("Controllers and buses."), Diagram([0])]
        r = paginate(base_report, blocks, tmp_path, scene)
        diagram_page = next(k for k, page in enumerate(r.pages) for pl in page.places if isinstance(pl.block, Diagram))
        return r, diagram_page

    # a third of a page used: the heading stays and the picture shrinks to finish the page
    r, page = layout_after(fit // 5)
    assert r.heading_page["layout"] == r.heading_page["config"] == page + 1
    # half a page used: too little room even shrunk; the heading goes with its picture
    r, page = layout_after(fit // 2 + 2)
    assert r.heading_page["layout"] == page + 1 == r.heading_page["config"] + 1
    for pg in r.pages[1:]:
        assert not pg.places or not isinstance(pg.places[-1].block, Heading)


@pytest.mark.parametrize("example", ["emc-cx4-960-oltp", "hp-sa6402-raid5"])
def test_examples_have_no_heading_at_a_page_end_and_no_page_of_a_stray_tail(example, load_example, catalog,
                                                                              tmp_path, qapp):
    from app.report import simulate_scenarios

    project = load_example(example)
    results = simulate_scenarios(project, catalog, [s.name for s in project.scenarios])
    report = build_report(project, catalog, results, ReportOptions())
    r = PdfRenderer(report, str(tmp_path / "x.pdf"))
    r.paginate()
    usable = r.bottom - 62.0
    for k, page in enumerate(r.pages[1:-1], start=2):  # the last page may be short
        assert page.places, f"page {k} is empty"
        assert not isinstance(page.places[-1].block, Heading), f"page {k} ends with a heading"
        end = max(pl.y + pl.h for pl in page.places)
        assert not r._short_tail_page(page, end, 62.0) or (end - 62.0) > SHORT_TAIL_SHARE * usable, \
            f"page {k} holds only the short end of a block"
