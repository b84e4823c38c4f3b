"""The report's References appendix: every document the report cites (the rates, the advisories,
the drive types, the capacity rules, the scenario notes), with its title, number, publisher and
date, so a customer can look each one up. The citations in the text are expanded from the same
bibliography (presets/sources.toml, app.domain.sources) by ReportBuilder.cite."""
from __future__ import annotations

from app.domain.formatting import DASH


def section_references(builder) -> None:
    """Nothing when the report cites no catalogued document."""
    docs = builder.bibliography.references(builder.cited)
    if not docs:
        return
    from .content import Col, Row

    builder.heading("References", 1, key="appendix-references")
    builder.para("The documents the rates, factors and advice above are taken from. In the text a document "
                 "is named by its title and number at its first mention in a cell, by its short name after.",
                 "note")
    with_where = any(d.where for d in docs)  # the calibration documents have no address to give
    rows = []
    for d in docs:
        published = ", ".join(x for x in (d.kind, d.publisher, d.date) if x)
        cells = [d.title, d.number or DASH, published or DASH, d.short or DASH]
        rows.append(Row(cells + [d.where or DASH] if with_where else cells))
    cols = [Col("Document", 2.6), Col("Number", 1.0), Col("Published", 1.9), Col("Short name", 1.2)]
    builder.table(cols + [Col("Where", 1.6)] if with_where else cols, rows)
