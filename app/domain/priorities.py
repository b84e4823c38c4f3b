"""The priorities an operation offers: the one place the inspector, the timeline's toolbar and
context menu, the event dialogs, the edits and the priority advisor ask.

The platform preset declares, per operation kind, its ordered levels and a default
(`OperationSpec`). An event may carry a level the platform does not offer (a project made for
another platform, or a preset edited since): it is kept and shown, marked, so nothing is
changed behind the user's back, but no edit may choose it anew.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .hardware import Platform


def offered_priorities(platform: Platform | None, kind: str) -> tuple[str, ...]:
    """The levels `kind` offers on `platform`, in the preset's order (empty: no priority)."""
    return platform.priorities(kind) if platform is not None else ()


def default_priority(platform: Platform | None, kind: str) -> str | None:
    spec = platform.operations.get(kind) if platform is not None else None
    return spec.default if spec is not None else None


def canonical_priority(offered: tuple[str, ...], level: str | None) -> str | None:
    """The platform's spelling of `level` (levels match without regard to case, as the engine
    reads them: app/engine/policy.py canonical_level, and `check` notes it); None if it lacks it."""
    if level is None:
        return None
    if level in offered:
        return level
    low = level.lower() if isinstance(level, str) else None
    return next((lv for lv in offered if lv.lower() == low), None)


@dataclass(frozen=True)
class PriorityChoice:
    """What a priority control offers for one event."""

    offered: tuple[str, ...]  # the platform's levels
    current: str | None       # the event's level (None: the event has no priority)

    @property
    def current_is_offered(self) -> bool:
        return self.current is None or canonical_priority(self.offered, self.current) is not None

    @property
    def selected(self) -> str | None:
        """The entry of `choices` the control shows: the platform's spelling of the event's level
        ("High" for a file's "high"), or the event's own level when the platform lacks it."""
        return canonical_priority(self.offered, self.current) or self.current

    @property
    def choices(self) -> tuple[str, ...]:
        """The offered levels, and the event's own after them when the platform lacks it."""
        if self.current_is_offered:
            return self.offered
        return self.offered + (self.current,)  # type: ignore[operator]

    def label(self, level: str) -> str:
        if canonical_priority(self.offered, level) is not None:
            return level
        return f"{level} (not offered by this platform)"


def priority_choice(platform: Platform | None, event: Any) -> PriorityChoice | None:
    """The priority control for `event` (None: the event has no priority)."""
    if not hasattr(event, "priority"):
        return None
    return PriorityChoice(offered_priorities(platform, event.kind), event.priority)


def priority_problem(platform: Platform | None, event: Any, level: str) -> str | None:
    """Why `event` cannot be given `level` (None: it can)."""
    offered = offered_priorities(platform, event.kind)
    if offered and level not in offered:
        name = getattr(event, "label_text", "") or event.kind
        return f"{name} priorities are {', '.join(offered)}"
    return None
