"""Lay the report's blocks out on pages and paint them into a PDF with QPdfWriter + QPainter.

Two passes: `paginate` measures every block with the PDF device's font metrics and decides what
goes on which page (headings keep with what follows, tables break between rows and repeat their
header row, charts and diagrams are never split); then `paint` draws page by page, which is when
the table of contents knows its page numbers. Running header, page numbers "Page n of N".

Coordinates: layout works in points (1/72 in); `u` = device dpi / 72 turns them into device units.
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import QIODevice, QMarginsF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor, QFont, QFontMetricsF, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen, QPicture, QTextLayout,
    QTextOption,
)

from .charts import ChartPainter
from .content import Chart, Diagram, Heading, PageBreak, PageRef, Para, Report, Row, Table, clip_text
from .diagram import LayoutPainter, draw_picture
from .fonts import FONT_FAMILIES, make_font

DPI = 600

MARGIN_L = 54.0
MARGIN_R = 54.0
MARGIN_T = 62.0
MARGIN_B = 54.0
CELL_PAD_X = 4.0
CELL_PAD_Y = 2.6
# Keep-together rules (paginate): a table split between pages leaves at least this many rows
# for the next page; a layout picture may shrink to this share of its size to finish a page
# rather than leave it nearly empty; a page whose only content is the short tail of a block from
# the page before (less than this share of the page) takes the next chapter too.
MIN_TAIL_ROWS = 3
MIN_PICTURE_SCALE = 0.6
SHORT_TAIL_SHARE = 0.3
ACCENT = QColor("#1d4f8c")


class ReportCancelled(Exception):
    """The user cancelled the export; no file was written."""


@dataclass
class _Cell:
    text: str
    layout: QTextLayout | None  # wrapped text; None: a single line
    width: float  # device units, single-line advance


@dataclass
class _Place:
    block: object
    y: float  # points from the top of the page
    h: float
    rows: tuple[int, int] = (0, 0)  # tables: the rows placed here
    with_header: bool = False


@dataclass
class _Page:
    places: list[_Place] = field(default_factory=list)


class _Fonts:
    def __init__(self, device):
        f = make_font
        self.body = f(9.0)
        self.note = f(7.8, italic=True)
        self.lead = f(11.0)
        self.cell = f(8.0)
        self.cell_bold = f(8.0, bold=True)
        self.h1 = f(16.0, bold=True)
        self.h2 = f(11.5, bold=True)
        self.h3 = f(9.5, bold=True)
        self.header = f(7.5)
        self.title = f(26.0, bold=True)
        self.subtitle = f(14.0)
        self.fm = {}
        self.device = device

    def metrics(self, font: QFont) -> QFontMetricsF:
        key = (font.pointSizeF(), font.bold(), font.italic())
        m = self.fm.get(key)
        if m is None:
            m = self.fm[key] = QFontMetricsF(font, self.device)
        return m


class PdfRenderer:
    def __init__(self, report: Report, output: "str | QIODevice", page_size: str = "A4",
                 scene_picture: "tuple[QPicture, QRectF] | list[tuple[QPicture, QRectF]] | None" = None,
                 name: str = ""):
        """`output`: a file name, or an open QIODevice (app.report.output.PdfOutput.device, which
        checks what reached the disk); `name` names the report in errors."""
        self.report = report
        self.name = name or (output if isinstance(output, str) else "the report")
        self.writer = QPdfWriter(output)
        self.writer.setResolution(DPI)
        size = QPageSize(QPageSize.Letter if page_size.lower() == "letter" else QPageSize.A4)
        self.writer.setPageLayout(QPageLayout(size, QPageLayout.Portrait, QMarginsF(0, 0, 0, 0)))
        self.writer.setTitle(f"{report.cover.title} \u2013 {report.cover.subtitle}")
        self.writer.setCreator(report.cover.version)
        if report.cover.author:
            self.writer.setAuthor(report.cover.author)
        self.u = DPI / 72.0
        pts = size.size(QPageSize.Point)
        self.page_w, self.page_h = pts.width(), pts.height()
        self.content_w = self.page_w - MARGIN_L - MARGIN_R
        self.bottom = self.page_h - MARGIN_B
        self.fonts = _Fonts(self.writer)
        self.charts = ChartPainter(self.writer, self.u, FONT_FAMILIES)
        self.layout_painter = LayoutPainter(report.project, report.catalog, self.writer, self.u, FONT_FAMILIES)
        self._scenario_painters: dict[int, LayoutPainter] = {}  # per Diagram.project (a scenario's own)
        # the GUI canvas (recorded in parts, each for one page) is used when its width prints at
        # 45 % or more; otherwise the report draws the layout itself, a few buses per page
        self.scene_pictures: list[tuple[QPicture, QRectF]] = []
        if scene_picture is not None:
            parts = [scene_picture] if isinstance(scene_picture, tuple) else list(scene_picture)
            parts = [(pic, b) for pic, b in parts if b.width() > 0 and b.height() > 0]
            if parts and all(self.content_w / b.width() >= 0.45 for _, b in parts):
                self.scene_pictures = parts
        self.pages: list[_Page] = []
        self.heading_page: dict[str, int] = {}
        self._cells: dict[int, list[list[_Cell]]] = {}  # per table id: measured cells
        self._row_h: dict[int, list[float]] = {}
        self._header_h: dict[int, float] = {}
        self._widths: dict[int, list[float]] = {}
        # per Para id: its laid-out lines and height. Laid out once: a long paragraph split over
        # k pages was laid out again for each page part, which made time grow with its length
        # squared (issue 21.9)
        self._paras: dict[int, tuple[QTextLayout, float]] = {}

    def close(self) -> None:
        """Release the QPdfWriter, which closes the file (before it is renamed or removed)."""
        self._cells.clear()
        self._paras.clear()
        self.fonts.device = None
        self.charts.device = None
        self.layout_painter = None
        self._scenario_painters.clear()
        self.writer = None

    # ------------------------------------------------------------ measuring
    def _text_layout(self, text: str, font: QFont, width_dev: float, align=Qt.AlignLeft) -> tuple[QTextLayout, float]:
        # QTextLayout drops "\n" (lines of notes ran together); U+2028 is its forced line break
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\u2028")
        lay = QTextLayout(text, font, self.writer)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapAtWordBoundaryOrAnywhere)
        opt.setAlignment(align)
        lay.setTextOption(opt)
        lay.beginLayout()
        h = 0.0
        while True:
            line = lay.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width_dev)
            line.setPosition(QPointF(0, h))
            h += line.height()
        lay.endLayout()
        return lay, h / self.u

    def _para_font(self, style: str) -> QFont:
        return {"note": self.fonts.note, "lead": self.fonts.lead}.get(style, self.fonts.body)

    def _heading_font(self, level: int) -> QFont:
        return {1: self.fonts.h1, 2: self.fonts.h2}.get(level, self.fonts.h3)

    def heading_height(self, h: Heading) -> float:
        fm = self.fonts.metrics(self._heading_font(h.level))
        above = {1: 16.0, 2: 12.0}.get(h.level, 8.0)
        below = {1: 10.0, 2: 5.0}.get(h.level, 3.0)
        return above + fm.height() / self.u + below

    def para_layout(self, para: Para) -> tuple[QTextLayout, float]:
        """The paragraph laid out over the content width, and its height in points (cached)."""
        hit = self._paras.get(id(para))
        if hit is None:
            hit = self._paras[id(para)] = self._text_layout(para.text, self._para_font(para.style), self.content_w * self.u)
        return hit

    def para_height(self, para: Para) -> float:
        return self.para_layout(para)[1] + 6.0

    def col_widths(self, t: Table) -> list[float]:
        """Column widths in points: numeric (right-aligned) columns and the table-of-contents get
        their natural single-line width; text columns share the rest by weight, but never get less
        than their longest word (so headers and words do not break mid-word)."""
        cached = self._widths.get(id(t))
        if cached is not None:
            return cached
        u, W = self.u, self.content_w
        n = len(t.columns)
        total_w = sum(c.weight for c in t.columns) or 1.0
        if t.kind in ("toc", "kv") or not t.rows:
            widths = [W * c.weight / total_w for c in t.columns]
            self._widths[id(t)] = widths
            return widths
        natural = [0.0] * n
        word = [0.0] * n
        cell_nat = [0.0] * n  # widest cell, header left out (a header may wrap)
        fm_b = self.fonts.metrics(self.fonts.cell_bold)
        for j, c in enumerate(t.columns):
            if t.header and c.title:
                natural[j] = fm_b.horizontalAdvance(c.title) / u
                word[j] = max(fm_b.horizontalAdvance(w) for w in c.title.split()) / u
        header_word = list(word)
        for row in t.rows:
            for j, text in enumerate(row.cells):
                if isinstance(text, PageRef):
                    continue
                fm = self.fonts.metrics(self._cell_font(row, j, t))
                adv = fm.horizontalAdvance(str(text)) / u + (10.0 if row.style == "sub" and j == row.indent_col else 0.0)
                if adv > natural[j]:
                    natural[j] = adv
                if adv > cell_nat[j]:
                    cell_nat[j] = adv
                if adv > word[j]:
                    if t.columns[j].align == "right":
                        word[j] = adv  # numbers never wrap
                    else:  # the longest word (only a cell wider than the longest so far can hold one)
                        for w_ in _unbreakable_words(str(text)):
                            wa = fm.horizontalAdvance(w_) / u
                            if wa > word[j]:
                                word[j] = wa
        pad = 2 * CELL_PAD_X + 0.5
        natural = [x + pad for x in natural]
        minimum = [min(w + pad, W * 0.45) for w in word]
        if sum(natural) <= W:
            extra = W - sum(natural)
            widths = [natural[j] + extra * t.columns[j].weight / total_w for j in range(n)]
        else:
            fixed = [j for j in range(n) if t.columns[j].align == "right" or natural[j] <= minimum[j] + 0.1]
            widths = [0.0] * n
            for j in fixed:
                widths[j] = max(cell_nat[j], header_word[j]) + pad if t.columns[j].align == "right" else natural[j]
            flex = [j for j in range(n) if j not in fixed]
            # water-filling: every text column gets its longest word, then the rest of the width
            # goes out by weight, no column taking more than its natural (one-line) width
            for j in flex:
                widths[j] = minimum[j]
            open_ = [j for j in flex if widths[j] < natural[j]]
            rest = W - sum(widths)
            while open_ and rest > 0.5:
                fw = sum(t.columns[j].weight for j in open_) or 1.0
                share = {j: rest * t.columns[j].weight / fw for j in open_}
                rest = 0.0
                still = []
                for j in open_:
                    give = min(share[j], natural[j] - widths[j])
                    widths[j] += give
                    rest += share[j] - give
                    if widths[j] < natural[j] - 0.01:
                        still.append(j)
                open_ = still
            if sum(widths) < W - 0.5:  # every text column fits on one line: share out what is left
                left = W - sum(widths)
                widths = [w + left * t.columns[j].weight / total_w for j, w in enumerate(widths)]
            over = sum(widths) - W
            if over > 0:  # squeeze every column proportionally
                widths = [w * W / sum(widths) for w in widths]
        self._widths[id(t)] = widths
        return widths

    def _cell_font(self, row: Row, col: int, t: Table) -> QFont:
        if row.style in ("bold", "total") or (t.kind == "kv" and col == 0):
            return self.fonts.cell_bold
        if t.kind == "toc" and row.style == "bold":
            return self.fonts.cell_bold
        return self.fonts.cell

    def measure_table(self, t: Table) -> None:
        if id(t) in self._row_h:
            return
        widths = self.col_widths(t)
        u = self.u
        cells: list[list[_Cell]] = []
        heights: list[float] = []
        fm = self.fonts.metrics(self.fonts.cell)
        line_h = fm.height() / u
        for row in t.rows:
            rc: list[_Cell] = []
            h = line_h
            for j, text in enumerate(row.cells):
                if isinstance(text, PageRef):
                    rc.append(_Cell("", None, 0.0))
                    continue
                text = str(text)
                font = self._cell_font(row, j, t)
                indent = 10.0 if (row.style == "sub" and j == row.indent_col) else 0.0
                avail = (widths[j] - 2 * CELL_PAD_X - indent) * u
                adv = self.fonts.metrics(font).horizontalAdvance(text)
                if adv <= avail and "\n" not in text:
                    rc.append(_Cell(text, None, adv))
                else:
                    align = Qt.AlignRight if t.columns[j].align == "right" else Qt.AlignLeft
                    lay, lh = self._text_layout(text, font, avail, align)
                    rc.append(_Cell(text, lay, adv))
                    h = max(h, lh)
            cells.append(rc)
            heights.append(h + 2 * CELL_PAD_Y + (2.0 if t.kind == "toc" and row.style == "bold" else 0.0))
        self._cells[id(t)] = cells
        self._row_h[id(t)] = heights
        hh = 0.0
        if t.header:
            for j, c in enumerate(t.columns):
                avail = (widths[j] - 2 * CELL_PAD_X) * u
                _, lh = self._text_layout(c.title, self.fonts.cell_bold, avail)
                hh = max(hh, lh)
            hh += 2 * CELL_PAD_Y + 1
        self._header_h[id(t)] = hh

    def block_height(self, b) -> float:
        if isinstance(b, Heading):
            return self.heading_height(b)
        if isinstance(b, Para):
            return self.para_height(b)
        if isinstance(b, Chart):
            return self.charts.height_pt(b, self.content_w) + 10
        if isinstance(b, Diagram):
            if self._from_scene(b):
                return 0.0  # placed part by part in paginate
            return min(self._painter(b).height_pt(b, self.content_w), self.bottom - MARGIN_T - 30) + 8
        return 0.0

    def _first_chunk(self, b) -> float:
        """Height of the smallest part of `b` that must follow a heading on its page."""
        if isinstance(b, Table):
            self.measure_table(b)
            rows = self._row_h[id(b)]
            return self._header_h[id(b)] + sum(rows[:2]) + (12 if b.caption else 0)
        if isinstance(b, (Heading, PageBreak)) or b is None:
            return 0.0
        if isinstance(b, Diagram) and self._from_scene(b):
            return self._picture_height(0) * MIN_PICTURE_SCALE + 10
        return self.block_height(b)

    def _from_scene(self, d: Diagram) -> bool:
        """Is `d` drawn from the GUI canvas? The canvas shows the base array; a scenario's own
        configuration (Diagram.project) is always drawn by LayoutPainter."""
        return bool(self.scene_pictures) and d.project is None

    def _painter(self, d: Diagram) -> LayoutPainter:
        if d.project is None:
            return self.layout_painter
        painter = self._scenario_painters.get(id(d.project))
        if painter is None:
            painter = LayoutPainter(d.project, self.report.catalog, self.writer, self.u, FONT_FAMILIES)
            self._scenario_painters[id(d.project)] = painter
        return painter

    def _picture_height(self, k: int) -> float:
        """The height of layout part k at full width (at most a page)."""
        _, bounds = self.scene_pictures[k]
        return bounds.height() * min(self.content_w / bounds.width(), (self.bottom - MARGIN_T) / bounds.height())

    def _tighten_contents(self, t: Table, room: float) -> None:
        """The contents fit one page when they overflow it by a little: their rows lose some of
        their padding (a page of two stray contents lines was the result)."""
        rows = self._row_h[id(t)]
        total = self._header_h[id(t)] + sum(rows)
        slack = 2 * CELL_PAD_Y - 0.6  # the most a row can give: its text never overlaps the next
        if total <= room or total - slack * len(rows) > room:
            return
        cut = (total - room) / len(rows) + 0.01
        self._row_h[id(t)] = [h - cut for h in rows]

    def _short_tail_page(self, page: "_Page", y: float, top: float) -> bool:
        """The page holds only the short end of a table or paragraph begun on the page before."""
        if not page.places or (y - top) > SHORT_TAIL_SHARE * (self.bottom - top):
            return False
        first = page.places[0]
        return all(pl.block is first.block for pl in page.places) and first.rows not in ((0, 0),) \
            and first.rows[0] > 0

    # ------------------------------------------------------------ pagination
    def paginate(self) -> None:
        blocks = self.report.blocks
        self.pages = [_Page(), _Page()]  # page 1: the cover
        self._first_diagram = next((x for x in blocks if isinstance(x, Diagram) and x.project is None), None)
        self._level1_seen = 0
        self._appendix_seen = False
        y = MARGIN_T
        top = MARGIN_T

        def new_page():
            nonlocal y
            self.pages.append(_Page())
            y = top

        for i, b in enumerate(blocks):
            page = self.pages[-1]
            if isinstance(b, PageBreak):
                if page.places:
                    new_page()
                continue
            if isinstance(b, Heading):
                if b.level == 1 and page.places:
                    # chapters start on a new page, unless this one still has more than half free;
                    # the contents and the appendices always do, except after the short end of a
                    # table from the page before: that is not left alone on a page
                    free = (self.bottom - y) / (self.bottom - top)
                    # (the first appendix opens the back matter on a page of its own; the later
                    # ones, e.g. the short References, follow like chapters)
                    forced = (b.key in ("contents",) or self._level1_seen < 2
                              or (b.key.startswith("appendix") and not self._appendix_seen))
                    if free < 0.5 or (forced and not (self._level1_seen >= 2 and self._short_tail_page(page, y, top))):
                        new_page()
                if b.level == 1:
                    self._level1_seen += 1
                    self._appendix_seen = self._appendix_seen or b.key.startswith("appendix")
                h = self.heading_height(b)
                if self.pages[-1].places:
                    # a heading never ends a page: keep it with its introduction and the start of
                    # what follows
                    need = h
                    j = i + 1
                    # (a subheading right after it goes along: "2.4 ..." then "“ASAP”" then its table)
                    while j < len(blocks) and (isinstance(blocks[j], Para) or (
                            isinstance(blocks[j], Heading) and blocks[j].level > b.level)):
                        nb = blocks[j]
                        need += self.para_height(nb) if isinstance(nb, Para) else self.heading_height(nb)
                        j += 1
                    nxt = blocks[j] if j < len(blocks) else None
                    if y + need + self._first_chunk(nxt) > self.bottom:
                        new_page()
                if not self.pages[-1].places:
                    h -= {1: 16.0, 2: 12.0}.get(b.level, 8.0)  # no space above at the top of a page
                self.pages[-1].places.append(_Place(b, y, h))
                self.heading_page[b.key] = len(self.pages)
                y += h
                continue
            if isinstance(b, Table):
                self.measure_table(b)
                rows = self._row_h[id(b)]
                hh = self._header_h[id(b)]
                cap = 12.0 if b.caption else 0.0
                if b.kind == "toc":
                    self._tighten_contents(b, self.bottom - y)
                    rows = self._row_h[id(b)]
                if rows and y + hh + rows[0] + cap > self.bottom and self.pages[-1].places:
                    new_page()
                start = 0
                while start < len(rows) or (start == 0 and not rows):
                    yy = y + hh
                    end = start
                    while end < len(rows) and (yy + rows[end] <= self.bottom or end == start):
                        yy += rows[end]
                        end += 1
                    # the next page gets at least MIN_TAIL_ROWS rows (when this one keeps as many)
                    while len(rows) - MIN_TAIL_ROWS < end < len(rows) and end - start > MIN_TAIL_ROWS:
                        end -= 1
                        yy -= rows[end]
                    last = end >= len(rows)
                    if last:
                        yy += cap
                    self.pages[-1].places.append(_Place(b, y, yy - y, (start, end), b.header))
                    y = yy + 8.0
                    start = end
                    if not last:
                        new_page()
                    if not rows:
                        break
                continue
            if isinstance(b, Para) and self.para_height(b) > (self.bottom - top) / 3:
                # a long paragraph flows on: split it between lines
                lay, _ = self.para_layout(b)
                lines = [(lay.lineAt(k).y() / self.u, lay.lineAt(k).height() / self.u) for k in range(lay.lineCount())]
                k = 0
                while k < len(lines):
                    start = k
                    y0 = lines[k][0]
                    while k < len(lines) and y + (lines[k][0] + lines[k][1] - y0) <= self.bottom:
                        k += 1
                    if k == start:
                        if self.pages[-1].places:
                            new_page()
                            continue
                        k += 1  # a line taller than a page: place it anyway
                    y1 = lines[k - 1][0] + lines[k - 1][1]
                    self.pages[-1].places.append(_Place(b, y, y1 - y0, (start, k)))
                    y += y1 - y0
                    if k < len(lines):
                        new_page()
                y += 6.0
                continue
            if isinstance(b, Diagram) and self._from_scene(b):
                if b is not self._first_diagram:
                    continue  # the canvas shows every bus
                for k in range(len(self.scene_pictures)):
                    h = self._picture_height(k) + 10
                    if y + h > self.bottom and self.pages[-1].places:
                        if k == 0 and y + (h - 10) * MIN_PICTURE_SCALE + 10 <= self.bottom:
                            h = self.bottom - y  # shrunk to finish this page (draw_picture keeps the aspect)
                        else:
                            new_page()
                    self.pages[-1].places.append(_Place(b, y, h, (k, k + 1)))
                    y += h
                continue
            h = self.block_height(b)
            if y + h > self.bottom and self.pages[-1].places:
                new_page()
            self.pages[-1].places.append(_Place(b, y, h))
            y += h

    # ------------------------------------------------------------ painting
    def paint(self, progress: Callable[[int, int], None] | None = None,
              cancelled: Callable[[], bool] | None = None) -> int:
        p = QPainter()
        if not p.begin(self.writer):
            raise OSError(f"cannot write {self.name}: the PDF painter did not start")
        n = len(self.pages)
        try:
            for k, page in enumerate(self.pages):
                if cancelled is not None and cancelled():
                    raise ReportCancelled()
                if k and not self.writer.newPage():
                    raise OSError(f"cannot write {self.name}: the PDF writer refused a new page")
                if k == 0:
                    self.paint_cover(p)
                else:
                    self.paint_frame(p, k + 1, n)
                    for pl in page.places:
                        self.paint_place(p, pl)
                if progress is not None:
                    progress(k + 1, n)
        finally:
            p.end()
        return n

    def _pt(self, x: float, y: float) -> QPointF:
        return QPointF(x * self.u, y * self.u)

    def _rect(self, x: float, y: float, w: float, h: float) -> QRectF:
        u = self.u
        return QRectF(x * u, y * u, w * u, h * u)

    def paint_cover(self, p: QPainter) -> None:
        c = self.report.cover
        u = self.u
        p.fillRect(self._rect(0, 0, self.page_w, 170), ACCENT)
        p.setPen(QColor("#ffffff"))
        p.setFont(self.fonts.subtitle)
        p.drawText(self._pt(MARGIN_L, 70), "Storage array planning report")
        p.setPen(QColor("#222222"))
        y = 230.0
        lay, h = self._text_layout(c.title, self.fonts.title, self.content_w * u)
        lay.draw(p, self._pt(MARGIN_L, y))
        y += h + 6
        p.setFont(self.fonts.subtitle)
        p.setPen(QColor("#444444"))
        p.drawText(self._pt(MARGIN_L, y + 14), c.subtitle)
        y += 50
        pen = QPen(ACCENT)
        pen.setWidthF(1.2 * u)
        p.setPen(pen)
        p.drawLine(self._pt(MARGIN_L, y), self._pt(MARGIN_L + 120, y))
        y += 24
        rows = [("Customer", c.customer or "\u2013"), ("Prepared by", c.author or "\u2013"), ("Date", c.date),
                ("Array", c.platform), ("Scenarios", clip_text(", ".join(c.scenarios), 600) or "\u2013"),
                ("Produced with", c.version)]
        for label, value in rows:
            p.setFont(self.fonts.cell_bold)
            p.setPen(QColor("#555555"))
            p.drawText(self._pt(MARGIN_L, y + 10), label)
            lay, h = self._text_layout(value, self.fonts.body, (self.content_w - 110) * u)
            p.setPen(QColor("#222222"))
            lay.draw(p, self._pt(MARGIN_L + 110, y + 1))
            y += max(h, 12) + 8
        if c.notes:
            y += 16
            lay, h = self._text_layout(c.notes, self.fonts.body, self.content_w * u)
            lay.draw(p, self._pt(MARGIN_L, y))
        p.setFont(self.fonts.note)
        p.setPen(QColor("#666666"))
        note = ("The durations and response times in this report are predictions of a model calibrated on "
                "the vendors' published figures (listed in the appendix), not measurements of the customer's "
                "array.")
        lay, h = self._text_layout(note, self.fonts.note, self.content_w * u)
        lay.draw(p, self._pt(MARGIN_L, self.bottom - h))

    def paint_frame(self, p: QPainter, number: int, total: int) -> None:
        u = self.u
        fm = self.fonts.metrics(self.fonts.header)
        p.setFont(self.fonts.header)
        p.setPen(QColor("#666666"))
        y = MARGIN_T - 26
        p.drawText(self._pt(MARGIN_L, y), _elide(self.report.header_left, fm, self.content_w * u * 0.6))
        right = self.report.header_right
        p.drawText(QPointF((self.page_w - MARGIN_R) * u - fm.horizontalAdvance(right), y * u), right)
        pen = QPen(QColor("#bbbbbb"))
        pen.setWidthF(0.5 * u)
        p.setPen(pen)
        p.drawLine(self._pt(MARGIN_L, y + 6), self._pt(self.page_w - MARGIN_R, y + 6))
        fy = self.page_h - MARGIN_B + 28
        p.drawLine(self._pt(MARGIN_L, fy - 12), self._pt(self.page_w - MARGIN_R, fy - 12))
        p.setPen(QColor("#666666"))
        p.drawText(self._pt(MARGIN_L, fy), self.report.cover.version)
        text = f"Page {number} of {total}"
        p.drawText(QPointF((self.page_w - MARGIN_R) * u - fm.horizontalAdvance(text), fy * u), text)

    def paint_place(self, p: QPainter, pl: _Place) -> None:
        b = pl.block
        u = self.u
        if isinstance(b, Heading):
            font = self._heading_font(b.level)
            fm = self.fonts.metrics(font)
            below = {1: 10.0, 2: 5.0}.get(b.level, 3.0)
            base = pl.y + pl.h - below - fm.descent() / u
            p.setFont(font)
            p.setPen(ACCENT if b.level <= 2 else QColor("#222222"))
            p.drawText(self._pt(MARGIN_L, base), b.full)
            if b.level == 1:
                pen = QPen(ACCENT)
                pen.setWidthF(0.8 * u)
                p.setPen(pen)
                p.drawLine(self._pt(MARGIN_L, base + 5), self._pt(self.page_w - MARGIN_R, base + 5))
        elif isinstance(b, Para):
            lay, _ = self.para_layout(b)
            p.setPen(QColor("#555555") if b.style == "note" else QColor("#222222"))
            if pl.rows != (0, 0):  # a part of a long paragraph: its lines only (no hidden text)
                y0 = lay.lineAt(pl.rows[0]).y() / u
                p.setFont(self._para_font(b.style))
                for k in range(*pl.rows):
                    lay.lineAt(k).draw(p, self._pt(MARGIN_L, pl.y - y0))
            else:
                lay.draw(p, self._pt(MARGIN_L, pl.y))
        elif isinstance(b, Table):
            p.save()
            p.setClipRect(self._rect(0, MARGIN_T - 4, self.page_w, self.bottom - MARGIN_T + 8))
            self.paint_table(p, b, pl)
            p.restore()
        elif isinstance(b, Chart):
            self.charts.draw(p, b, MARGIN_L, pl.y + 2, self.content_w)
        elif isinstance(b, Diagram):
            if self._from_scene(b):
                pic, bounds = self.scene_pictures[pl.rows[0]]
                draw_picture(p, pic, bounds, self._rect(MARGIN_L, pl.y, self.content_w, pl.h - 10))
            else:
                self._painter(b).draw(p, b, MARGIN_L, pl.y, self.content_w)

    def paint_table(self, p: QPainter, t: Table, pl: _Place) -> None:
        u = self.u
        widths = self.col_widths(t)
        xs = [MARGIN_L]
        for w in widths:
            xs.append(xs[-1] + w)
        y = pl.y
        grid = QPen(QColor("#d0d0d0"))
        grid.setWidthF(0.4 * u)
        strong = QPen(QColor("#555555"))
        strong.setWidthF(0.7 * u)
        if t.header and pl.with_header:
            hh = self._header_h[id(t)]
            p.fillRect(self._rect(MARGIN_L, y, self.content_w, hh), QColor("#e9eef5"))
            p.setFont(self.fonts.cell_bold)
            p.setPen(QColor("#1a1a1a"))
            for j, c in enumerate(t.columns):
                avail = (widths[j] - 2 * CELL_PAD_X) * u
                align = Qt.AlignRight if c.align == "right" else Qt.AlignLeft
                lay, _ = self._text_layout(c.title, self.fonts.cell_bold, avail, align)
                lay.draw(p, self._pt(xs[j] + CELL_PAD_X, y + CELL_PAD_Y))
            p.setPen(strong)
            p.drawLine(self._pt(MARGIN_L, y + hh), self._pt(MARGIN_L + self.content_w, y + hh))
            y += hh
        cells = self._cells[id(t)]
        heights = self._row_h[id(t)]
        fm_cell = self.fonts.metrics(self.fonts.cell)
        ascent = fm_cell.ascent()
        for i in range(*pl.rows):
            row = t.rows[i]
            rh = heights[i]
            if row.style == "warning":
                p.fillRect(self._rect(MARGIN_L, y, self.content_w, rh), QColor("#fff1e6"))
            elif row.style == "bold" and t.kind not in ("toc", "kv"):
                p.fillRect(self._rect(MARGIN_L, y, self.content_w, rh), QColor("#f5f5f5"))
            if row.style == "total":
                p.setPen(strong)
                p.drawLine(self._pt(MARGIN_L, y), self._pt(MARGIN_L + self.content_w, y))
            for j, cell in enumerate(cells[i]):
                raw = row.cells[j]
                font = self._cell_font(row, j, t)
                p.setFont(font)
                p.setPen(QColor("#444444") if (t.kind == "kv" and j == 0) else QColor("#1a1a1a"))
                indent = 10.0 if (row.style == "sub" and j == row.indent_col) else 0.0
                x_left = xs[j] + CELL_PAD_X + indent
                x_right = xs[j + 1] - CELL_PAD_X
                if isinstance(raw, PageRef):
                    text = str(self.heading_page.get(raw.key, ""))
                    adv = self.fonts.metrics(font).horizontalAdvance(text)
                    p.drawText(QPointF(x_right * u - adv, (y + CELL_PAD_Y) * u + ascent), text)
                elif cell.layout is None:
                    x = x_right * u - cell.width if t.columns[j].align == "right" else x_left * u
                    p.drawText(QPointF(x, (y + CELL_PAD_Y) * u + ascent), cell.text)
                    if t.kind == "toc" and j == 1 and cell.text:  # dot leader to the page number
                        page_text = str(self.heading_page.get(row.cells[2].key, "")) if isinstance(
                            row.cells[2], PageRef) else ""
                        x_end = xs[3] * u - CELL_PAD_X * u - self.fonts.metrics(font).horizontalAdvance(page_text) - 4 * u
                        x_dots = x + cell.width + 4 * u
                        if x_end > x_dots:
                            dots = QPen(QColor("#9a9a9a"))
                            dots.setWidthF(0.6 * u)
                            dots.setStyle(Qt.DotLine)
                            p.save()
                            p.setPen(dots)
                            base = (y + CELL_PAD_Y) * u + ascent
                            p.drawLine(QPointF(x_dots, base), QPointF(x_end, base))
                            p.restore()
                else:
                    cell.layout.draw(p, self._pt(x_left, y + CELL_PAD_Y))
            if t.kind != "toc":
                p.setPen(grid)
                p.drawLine(self._pt(MARGIN_L, y + rh), self._pt(MARGIN_L + self.content_w, y + rh))
            y += rh
        if t.caption and pl.rows[1] >= len(t.rows):
            p.setFont(self.fonts.note)
            p.setPen(QColor("#555555"))
            p.drawText(self._pt(MARGIN_L, y + 10), t.caption)


def _unbreakable_words(text: str) -> list[str]:
    """The pieces of `text` a line never breaks inside: its words, and an address ("https://...")
    in its parts after each "/", where the line breaks it (a References table's address was
    measured as one word, took 45% of the page and squeezed the titles to broken words)."""
    out: list[str] = []
    for word in text.split():
        if word.startswith(("http://", "https://")):
            out += [part for part in re.split(r"(?<=/)", word) if part]
        else:
            out.append(word)
    return out


def _elide(text: str, fm: QFontMetricsF, width: float) -> str:
    return fm.elidedText(text, Qt.ElideRight, width)
