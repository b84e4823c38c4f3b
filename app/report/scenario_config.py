"""The report's configuration pages for scenarios with a configuration of their own (a scenario
overlay, app.domain.overlay): chapter 2 describes the base array, and this adds, per such
scenario, its effective configuration where it differs from the base: the capacity figures that
change and every object the overlay adds, removes or changes (app.domain.overlay.differences,
the rows the comparison lists too)."""
from __future__ import annotations

from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity, format_count
from app.domain.overlay import differences, effective_project

# a scenario may change a whole array (a new configuration): its first rows, then where the rest is
MAX_DIFFERENCE_ROWS = 80


def scenarios_with_configuration(project, names: list[str]) -> list[str]:
    return [n for n in names if (ov := project.scenario(n).overlay) is not None and not ov.is_empty()]


def section_scenario_configurations(builder, names: list[str]) -> None:
    """One subsection per included scenario with its own configuration (nothing without one)."""
    own = scenarios_with_configuration(builder.project, names)
    if not own:
        return
    from .content import Col, Row

    p, catalog = builder.project, builder.catalog
    features = {k: f.name for k, f in builder.platform.features.items()} if builder.platform else {}
    _, base_total = capacity_summary(p, catalog)
    builder.heading("Scenario configurations", 2, key="scenario-configurations")
    builder.para("The configuration above is the base array. These scenarios run on a configuration of their "
                 "own: the base with the differences listed here (everything not listed is as above).", "note")
    for n in own:
        eff = effective_project(p, n)
        _, total = capacity_summary(eff, catalog)
        builder.heading(f"\u201c{n}\u201d", 3, key=f"config-{n}")
        figures = [
            ("Drives", f"{format_count(len(p.drives))} ({format_count(len(p.hot_spares()))} hot spares)",
             f"{format_count(len(eff.drives))} ({format_count(len(eff.hot_spares()))} hot spares)"),
            ("RAID groups", format_count(len(p.groups)), format_count(len(eff.groups))),
            ("Raw capacity", format_capacity(base_total.raw_gb), format_capacity(total.raw_gb)),
            ("Usable capacity", format_capacity(base_total.usable_gb), format_capacity(total.usable_gb)),
            ("Bound to LUNs", f"{format_capacity(base_total.allocated_gb)} in {format_count(len(p.luns))} LUNs",
             f"{format_capacity(total.allocated_gb)} in {format_count(len(eff.luns))} LUNs"),
            ("Workloads", format_count(len(p.workloads)), format_count(len(eff.workloads))),
        ]
        rows = [Row([what, base, mine], "bold" if base != mine else "") for what, base, mine in figures]
        diffs = differences(p, eff, features)
        if diffs:
            rows.append(Row(["Differences", "", ""], "bold"))
        for d in diffs[:MAX_DIFFERENCE_ROWS]:
            rows.append(Row([d.what, _drive_names(builder, d, d.base), _drive_names(builder, d, d.scenario)], "sub"))
        if len(diffs) > MAX_DIFFERENCE_ROWS:
            rows.append(builder.more_row(3, len(diffs) - MAX_DIFFERENCE_ROWS, "differences",
                                         "the scenario comparison's CSV export"))
        builder.table([Col("", 2.2), Col("Base", 2.0), Col(n, 2.0)], rows)


def _drive_names(builder, d, text: str) -> str:
    """A drive's type by its catalog name ("146 GB 15k rpm FC"), not its preset id."""
    if d.section != "drives" or text == "-":
        return text
    type_id, _, rest = text.partition(" ")
    return " ".join(x for x in (builder.drive_label(type_id), rest) if x)
