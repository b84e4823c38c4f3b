"""The report's uncertainty ranges (issue 25): operation durations as "3.4 h (P10-P90 2.8-4.1 h)"
and P10-P90 bands shaded under the chart lines.

The bands are made by the caller (app.service.uncertainty.compute_bands: the CLI's
`report --bands N`, the GUI's report dialog, which passes the bands the window shows or samples
them itself) and handed to build_report as {scenario: Bands}; the report layer only reads them
(duck-typed: `operations[event_id].duration_h.p10/p90`, `series_band(metric, entity)`,
`samples`, `runs`, `parameters`). Qt-free.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from app.domain.formatting import format_count, format_duration, format_duration_band

# runs per scenario a report samples when its caller has no bands yet (the CLI's `report`
# default, the GUI's export for the scenarios the window has none for): modest, so a report
# stays quick on 2 cores; the quantiles of 64 Latin hypercube runs are steady to a few percent
REPORT_SAMPLES = 64
# ARRAYPLANNER_BANDS=off: the bands default to off, in the window (app/ui/bands.py) and in
# `arrayplanner report` (an explicit --bands N still samples). The test suite sets it, so that
# its many windows and reports do not each sample; the bands' own tests ask for them.
DEFAULT_ENV = "ARRAYPLANNER_BANDS"


def bands_by_default() -> bool:
    return os.environ.get(DEFAULT_ENV, "on").strip().lower() not in ("0", "off", "no", "false")


def bands_of(builder, scenario: str) -> Any:
    """The Bands of `scenario`, or None (no bands asked for, or none for it)."""
    return (builder.bands or {}).get(scenario)


def duration_text(builder, scenario: str, op) -> str:
    """An operation's duration, with its P10-P90 when the scenario has bands."""
    bands = bands_of(builder, scenario)
    band = bands.operations.get(op.event_id) if bands is not None else None
    if band is None:
        return format_duration(op.duration_h)
    return format_duration_band(op.duration_h, band.duration_h.p10, band.duration_h.p90)


def has_ranges(builder, names) -> bool:
    return any(bands_of(builder, n) is not None and bands_of(builder, n).parameters for n in names)


def method_note(builder, names) -> str:
    """What the ranges mean, once per section that prints them ("" when there are none)."""
    shown = [bands_of(builder, n) for n in names if bands_of(builder, n) is not None]
    if not shown:
        return ""
    ranged = max(len(b.parameters) for b in shown)
    if not ranged:
        return ("No preset value of this platform carries a range, so the durations are given without "
                "one (docs/presets.md \u201cRanges\u201d).")
    runs = max(b.runs for b in shown)
    text = (f"Ranges are P10-P90: {format_count(runs)} engine runs per scenario with the {ranged} preset "
            "values that carry a range (the documents' scatter or a fit's confidence) drawn by a Latin "
            "hypercube; a P90 of \u201cnot finished\u201d means more than 10% of the runs do not finish in the plan.")
    ops = [o for b in shown for o in b.operations.values()]
    if ops and all(o.duration_h.p10 == o.duration_h.p90 for o in ops):
        text += (" None of the ranged values moves these operations' durations (their rates come from "
                 "the priority tables, which carry no range), so the durations are printed without one.")
    return text


def attach(builder, scenario: str, metric: str, series: list, lines: list) -> bool:
    """Give each chart line (lines[i] drawn from series[i]) its P10-P90 band; True if any got one."""
    bands = bands_of(builder, scenario)
    if bands is None or not bands.parameters:
        return False
    any_band = False
    for s, line in zip(series, lines):
        band = bands.series_band(metric, s.entity)
        if band is None or not len(band.t):
            continue
        line.band = (np.asarray(band.t, float), np.asarray(band.p10, float), np.asarray(band.p90, float))
        any_band = True
    return any_band


BAND_CAPTION = "Shaded: P10-P90 of the sampled runs."
