"""The report's "Scenario comparison" section: each scenario against the baseline, with the rows
the GUI's comparison table shows (app.engine.compare), so the PDF and the screen agree.

A scenario with a configuration of its own is compared on it (its effective project), and its
configuration differences are listed; a response-time target broken in a scenario, or a plan
that does not finish, is set in the table's warning style.
"""
from __future__ import annotations

from app.domain.overlay import effective_project
from app.engine.compare import SECTION_TITLES, compare, delta_text, value_text

# a scenario's comparison can run long (a row per operation and three per workload): the
# largest plans list the first rows and say where the rest is (the CSV export)
MAX_COMPARISON_ROWS = 120


def reference_scenario(project, names: list[str]) -> str:
    """The scenario the others are compared with: the pinned baseline when it is in the report,
    else the first scenario."""
    base = project.baseline_scenario
    return base if base in names else names[0]


def section_comparison(builder, names: list[str]) -> None:
    """One table per scenario but the reference one (nothing when the report has one scenario)."""
    if len(names) < 2:
        return
    from .content import Col, Row

    p, catalog = builder.project, builder.catalog
    ref = reference_scenario(p, names)
    builder.heading("Scenario comparison", 1)
    builder.para(f"Each scenario against \u201c{ref}\u201d: plan length, each operation's duration, each "
                 "workload's peak and mean response time and the IOPS it is served, the busiest component, "
                 "the worst RAID group's MTTDL, usable capacity, drive count, and the configuration "
                 "differences of a scenario that changes the array. A plan with an operation that does not "
                 "finish is never counted as shorter; rows in the warning colour are worse in a way that "
                 "matters: a broken response-time target, an operation that no longer finishes.", "note")
    features = ({k: f.name for k, f in builder.platform.features.items()} if builder.platform else {})
    ref_project = effective_project(p, ref)
    for n in names:
        if n == ref:
            continue
        rows = compare(builder.results[n], builder.results[ref], effective_project(p, n), ref_project,
                       catalog, features)
        builder.heading(f"\u201c{n}\u201d against \u201c{ref}\u201d", 2, key=f"compare-{n}")
        out: list = []
        section = None
        for r in rows[:MAX_COMPARISON_ROWS]:
            if r.section != section:
                section = r.section
                out.append(Row([SECTION_TITLES.get(section, section), "", "", "", ""], "bold"))
            verdict = {True: "worse", False: "better", None: ""}[r.worse]
            note = "; ".join(x for x in (verdict, r.note) if x)
            style = "warning" if (r.sla_broken and "current" in r.sla_broken) or r.forced_worse else "sub"
            out.append(Row([r.label, value_text(r, "baseline"), value_text(r, "current"), delta_text(r), note],
                           style, 0))
        if len(rows) > MAX_COMPARISON_ROWS:
            out.append(builder.more_row(5, len(rows) - MAX_COMPARISON_ROWS, "rows",
                                        "export the comparison as CSV from the Timeline's comparison"))
        builder.table([Col("", 2.6), Col(ref, 1.2, "right"), Col(n, 1.2, "right"), Col("Difference", 1.3, "right"),
                       Col("Note", 2.0)], out)
