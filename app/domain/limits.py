"""How large a plan the engine runs: a scenario of more events is refused up front (by `check`,
`simulate`, `report`, the GUI's validation and the engine itself) with one line naming the limit
and the count, instead of a run that exhausts memory or takes an hour (docs/model.md, "Plan size").

Memory and time grow about linearly with the events (one or more engine steps each, a recorded
row per step; benchmarks/many_operations.py): on the 960-drive CX4-960 configuration 10^5 events
take ~10-22 s and 3-5.3 GB with the compiled engine, so 10^6 would need ~30-50 GB.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .project import Project

MAX_EVENTS = 100_000  # per scenario


def too_many_events(project: Project, scenario: str | None = None) -> str | None:
    """Why the scenario (the current one when None) is too large to simulate, or None; cheap (a
    length), so callers run it before validating (validation of 10^6 events is slow too)."""
    name = scenario or project.current_scenario
    for s in project.scenarios:
        if s.name == name and len(s.events) > MAX_EVENTS:
            return (f"scenario {name!r} has {len(s.events):,} events, more than the {MAX_EVENTS:,} "
                    "the engine simulates in one plan (docs/model.md, \"Plan size\"); split it into "
                    "scenarios")
    return None
