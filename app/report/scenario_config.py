"""The report's chapter on scenarios with a configuration of their own (a scenario overlay,
app.domain.overlay): the chapters before it describe the base array; this one gives, per such
scenario, the figures that change and every object the overlay adds, removes or changes
(app.domain.overlay.differences, the rows the comparison lists too), and, when the scenario
changes the hardware (enclosures, drives, RAID groups, LUNs), its own layout of the buses it
changes, RAID-group table and capacity summary. Kept compact: a scenario that changes only
cache, features or workloads gets its differences alone, and one whose hardware is that of a
scenario described before refers to it instead of repeating it."""
from __future__ import annotations

from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity, format_count
from app.domain.overlay import differences, effective_project

# a scenario may change a whole array (a new configuration): its first rows, then where the rest is
MAX_DIFFERENCE_ROWS = 80
# the sections that make a scenario's layout, RAID groups and capacity its own
HARDWARE_SECTIONS = ("enclosures", "drives", "groups", "luns")


def scenarios_with_configuration(project, names: list[str]) -> list[str]:
    return [n for n in names if (ov := project.scenario(n).overlay) is not None and not ov.is_empty()]


def _hardware(p) -> tuple:
    """What the layout, RAID-group table and capacity summary are drawn from."""
    return (sorted((e.bus, e.position, e.type_id) for e in p.enclosures), p.drives, p.groups, p.luns)


def changed_buses(base, eff) -> list[int]:
    """The buses whose enclosures, drives or RAID-group members differ between the base and a
    scenario's effective project: the only ones its layout needs to show."""
    locations: set[str] = set()
    for loc in set(base.drives) | set(eff.drives):
        if base.drives.get(loc) != eff.drives.get(loc):
            locations.add(loc)
    base_groups, eff_groups = {g.id: g for g in base.groups}, {g.id: g for g in eff.groups}
    for gid in set(base_groups) | set(eff_groups):
        a, b = base_groups.get(gid), eff_groups.get(gid)
        if a != b:
            locations.update((a.drives if a else []) + (b.drives if b else []))
    base_encl = {e.id: e for e in base.enclosures}
    eff_encl = {e.id: e for e in eff.enclosures}
    buses = {e.bus for eid in set(base_encl) | set(eff_encl)
             if base_encl.get(eid) != eff_encl.get(eid) for e in [eff_encl.get(eid) or base_encl[eid]]}
    for loc in locations:
        bus = loc.split("_", 1)[0]
        if bus.isdigit():
            buses.add(int(bus))
    on_scenario = {e.bus for e in eff.enclosures}
    return sorted(b for b in buses if b in on_scenario)


def section_scenario_configurations(builder, names: list[str]) -> None:
    """One section per included scenario with its own configuration (nothing without one)."""
    own = scenarios_with_configuration(builder.project, names)
    if not own:
        return
    p = builder.project
    builder.heading("Scenario configurations", 1, key="scenario-configurations")
    builder.para("The chapters above describe the base array. These scenarios run on a configuration of "
                 "their own: the base with the differences listed here (everything not listed is as in the "
                 "base). A scenario that changes the hardware gets its own RAID groups and capacity summary, "
                 "and its layout where it differs.", "note")
    described: list[tuple[tuple, str]] = []  # (hardware, the scenario it was described for)
    for n in own:
        eff = effective_project(p, n)
        builder.heading(f"\u201c{n}\u201d", 2, key=f"config-{n}")
        _figures_and_differences(builder, n, eff)
        touched = [s for s in p.scenario(n).overlay.sections() if s in HARDWARE_SECTIONS]
        if not touched:
            builder.para("Its layout, RAID groups and capacity are those of the base array.", "note")
            continue
        hardware = _hardware(eff)
        same = next((m for h, m in described if h == hardware), None)
        if same is not None:
            builder.para(f"Its layout, RAID groups and capacity are those of \u201c{same}\u201d above.", "note")
            continue
        described.append((hardware, n))
        _own_hardware(builder, n, eff)


def _figures_and_differences(builder, n: str, eff) -> None:
    from .content import Col, Row

    p, catalog = builder.project, builder.catalog
    features = {k: f.name for k, f in builder.platform.features.items()} if builder.platform else {}
    _, base_total = capacity_summary(p, catalog)
    _, total = capacity_summary(eff, catalog)
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
    diffs = differences(p, eff, features, builder.platform)
    if diffs:
        rows.append(Row(["Differences", "", ""], "bold"))
    for d in diffs[:MAX_DIFFERENCE_ROWS]:
        rows.append(Row([d.what, _drive_names(builder, d, d.base), _drive_names(builder, d, d.scenario)], "sub"))
    if len(diffs) > MAX_DIFFERENCE_ROWS:
        rows.append(builder.more_row(3, len(diffs) - MAX_DIFFERENCE_ROWS, "differences",
                                     "the scenario comparison's CSV export"))
    builder.table([Col("", 2.2), Col("Base", 2.0), Col(n, 2.0)], rows)


def _own_hardware(builder, n: str, eff) -> None:
    """The scenario's layout (the buses it changes), RAID groups and capacity summary."""
    if builder.options.diagram:
        buses = changed_buses(builder.project, eff)
        if buses:
            builder.heading("Layout", 3, key=f"config-{n}-layout")
            which = ", ".join(str(b) for b in buses)
            builder.para(f"{'Bus' if len(buses) == 1 else 'Buses'} {which} as this scenario has "
                         f"{'it' if len(buses) == 1 else 'them'}; the other buses are as in the base layout.",
                         "note")
            builder.layout_diagrams(eff, buses, own=True)
    builder.heading("RAID groups", 3, key=f"config-{n}-groups")
    builder.groups_table(eff)
    builder.section_formatted_capacity(eff, level=3, key=f"config-{n}-capacity")


def _drive_names(builder, d, text: str) -> str:
    """A drive's type by its catalog name ("146 GB 15k rpm FC"), not its preset id."""
    if d.section != "drives" or text == "-":
        return text
    type_id, _, rest = text.partition(" ")
    return " ".join(x for x in (builder.drive_label(type_id), rest) if x)
