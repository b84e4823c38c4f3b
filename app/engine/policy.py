"""Priority policies as the engine reads them (app/domain/policies.py lists the kinds).

`policy_for(R, platform, op_kind, level, phase)` resolves an operation's level to a Policy:
the rates preset's `[policy.<op_kind>.<Level>]` table (or its `<phase>` sub-table), read through
the run's RateReader so every number is recorded with its source. A level the platform does not
offer, or one a policy table leaves out, raises UnknownLevel (no silent fallback to another
level). A platform whose rates have no `[policy.<op_kind>]` at all gets the generic policy:
duty_cycle with duty = rank / levels (slowest first), flagged `generic`.

Called at operation and phase starts only (not per step): plain Python, not in native.MODULES.
"""
from __future__ import annotations

from typing import Any

from app.domain.hardware import Tables
from app.domain.policies import OP_KINDS, POLICY_KINDS

from .errors import MissingRate


class UnknownLevel(MissingRate):
    """An operation's priority level has no policy on this platform."""


class Policy:
    """One level's policy for one phase: kind, parameters (floats), and where it came from."""

    __slots__ = ("kind", "level", "params", "generic", "path")

    def __init__(self, kind: str, level: str, params: dict[str, float], generic: bool, path: str):
        self.kind = kind
        self.level = level
        self.params = params
        self.generic = generic
        self.path = path

    def p(self, key: str, default: float) -> float:
        v = self.params.get(key)
        return default if v is None else v

    def has(self, key: str) -> bool:
        return key in self.params

    def __repr__(self) -> str:
        return f"Policy({self.path}: {self.kind} {self.params})"


def platform_levels(platform: Any, op_kind: str) -> tuple[str, ...]:
    spec = platform.operations.get(OP_KINDS.get(op_kind, op_kind))
    return tuple(spec.priorities) if spec is not None else ()


def canonical_level(platform: Any, op_kind: str, level: str) -> str:
    """The platform's spelling of a level (case-insensitive match); UnknownLevel if it has none."""
    levels = platform_levels(platform, op_kind)
    if not levels:
        return level
    for lv in levels:
        if lv.lower() == level.lower():
            return lv
    raise UnknownLevel(f"{level!r} is not a {OP_KINDS.get(op_kind, op_kind)} priority on "
                       f"{platform.name} (it offers {', '.join(levels)}, slowest first)")


def _params(R: Any, table: Tables, path: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for key in table:
        if key in ("kind", "source", "unit", "note") or isinstance(table[key], Tables):
            continue
        out[key] = R.v(f"{path}.{key}")
    return out


def policy_for(R: Any, platform: Any, op_kind: str, level: str, phase: str = "") -> Policy:
    level = canonical_level(platform, op_kind, level)
    tables = R.raw(f"policy.{op_kind}", None)
    if not isinstance(tables, Tables):
        levels = platform_levels(platform, op_kind)
        rank = levels.index(level) + 1 if level in levels else 1
        duty = rank / len(levels) if levels else 1.0
        return Policy("duty_cycle", level, {"duty": duty}, True, f"generic.{op_kind}.{level}")
    path = f"policy.{op_kind}.{level}"
    table = R.raw(path, None)
    if not isinstance(table, Tables):
        raise UnknownLevel(f"the rates have no [{path}] policy table (they define "
                           f"{', '.join(k for k in tables)})")
    sub = table.get(phase) if phase else None
    if isinstance(sub, Tables):
        table, path = sub, f"{path}.{phase}"
    kind = table.get("kind")
    if kind not in POLICY_KINDS:
        raise MissingRate(f"[{path}] kind = {kind!r} is not a policy kind ({', '.join(POLICY_KINDS)})")
    return Policy(str(kind), level, _params(R, table, path), False, path)


def generic_levels_note(platform: Any, op_kind: str) -> str:
    levels = platform_levels(platform, op_kind)
    if not levels:
        return "one level at full speed"
    n = len(levels)
    return ", ".join(f"{lv} {100 * (i + 1) / n:.0f}%" for i, lv in enumerate(levels))
