"""What an edit touched: the aspects of a project and the Change an edit returns."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable



LAYOUT = "layout"        # enclosures, drives, hot spares


GROUPS = "groups"        # RAID groups


LUNS = "luns"


CACHE = "cache"


FEATURES = "features"


WORKLOADS = "workloads"


EVENTS = "events"        # events of a scenario


SCENARIOS = "scenarios"  # scenario list, current / baseline scenario


INFO = "info"            # title, customer, notes: nothing the engine reads


# what a scenario's overlay can differ in (app.domain.overlay)
CONFIG_ASPECTS = (LAYOUT, GROUPS, LUNS, CACHE, FEATURES, WORKLOADS)


ALL_ASPECTS = frozenset({LAYOUT, GROUPS, LUNS, CACHE, FEATURES, WORKLOADS, EVENTS, SCENARIOS, INFO})


@dataclass(frozen=True)
class Change:
    """What an operation touched. `aspects` are the constants above; `refs` the objects."""

    aspects: frozenset[str] = frozenset()
    refs: frozenset[str] = frozenset()
    scenario: str | None = None  # the scenario whose events changed (EVENTS)
    replaced: bool = False       # a whole new project (open / new / recover)

    @staticmethod
    def of(*aspects: str, refs: Iterable[str] = (), scenario: str | None = None) -> "Change":
        return Change(frozenset(aspects), frozenset(refs), scenario)

    @staticmethod
    def everything() -> "Change":
        return Change(ALL_ASPECTS, frozenset(), None, True)

    def __or__(self, other: "Change") -> "Change":
        return Change(self.aspects | other.aspects, self.refs | other.refs,
                      self.scenario or other.scenario, self.replaced or other.replaced)

    def affects(self, *aspects: str) -> bool:
        return self.replaced or bool(self.aspects.intersection(aspects))

    @property
    def needs_simulation(self) -> bool:
        """Anything but the project info changes what the engine predicts."""
        return self.replaced or bool(self.aspects - {INFO})


class EditError(ValueError):
    """The operation breaks a rule; the message is a sentence for the user."""
