"""The report's reliability table (issue 24): per RAID group, the rebuild time under the planned
load, the MTTDL from it and the chance of an unrecoverable read error during a rebuild, from the
Result's `reliability` (app/engine/reliability.py). Apart from content.py, which is long already."""
from __future__ import annotations

from typing import Any

from app.domain.formatting import DASH, format_capacity, format_chance, format_duration, format_mttdl


def reliability_rows(project: Any, result: Any) -> list[list[str]]:
    """One row per group the result has a figure for: group, RAID, rebuild under load (and how it
    was found), idle rebuild, MTTDL under load, DDP's critical window, data read, URE chance."""
    rows = []
    for g in sorted(project.groups, key=lambda g: g.id):
        rel = result.reliability.get(g.id)
        if rel is None:
            continue
        ure = format_chance(rel.p_ure)
        if rel.p_ure is not None:
            ure += " (corrected: 2nd parity)" if rel.ure_covered else " (sector lost)"
        rows.append([g.label, g.math.label, f"{format_duration(rel.mttr_h)} ({rel.basis})",
                     format_duration(rel.mttr_idle_h), format_mttdl(rel.mttdl_h),
                     format_duration(rel.critical_h) if rel.critical_h is not None else DASH,
                     format_capacity(rel.read_gb), ure])
    return rows


def section_reliability(report: Any, names: list[str]) -> None:
    """Add the table to a report (content.Report: heading, para, table, Col, Row)."""
    from .content import Col, Row

    name = names[0]
    rows = reliability_rows(report.project, report.results[name])
    report.heading("Reliability under the planned load", 2)
    report.para(f"Scenario {name}. The rebuild time is this plan's rebuild of the group, or, without one, the "
                "rebuild at the platform's default priority with the host taking the group's mean busy share of "
                "the plan; the MTTDL follows from it and the drives' MTTF (a Dynamic Disk Pool that rebuilds its "
                "critical stripes first is exposed to a third failure only for the critical window). The URE chance "
                "is that of at least one unrecoverable read error in the data one rebuild reads (the drives' "
                "datasheet rate); double parity corrects it, single parity and mirrors lose the sector.", "note")
    if not rows:
        report.para("No group has a reliability figure (no rebuild could be predicted).")
        return
    report.table([Col("RAID group", 1.0), Col("RAID", 1.2), Col("Rebuild under load", 2.2), Col("Idle", 0.8, "right"),
                  Col("MTTDL", 1.1, "right"), Col("Critical", 0.7, "right"), Col("Read", 0.7, "right"),
                  Col("URE chance", 1.5)], [Row(r) for r in rows])
