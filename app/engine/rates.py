"""Read the platform's rate tables, remembering every Param the prediction used.

The engine never reads a number that is not in a preset: `RateReader.v(path)` returns the value
and records the Param (path, value, unit, source) for Result.assumptions. `nearest_row` picks the
documented row nearest to a case the tables do not cover and reports that it did, so the engine
can say so in an advisory instead of extrapolating silently.
"""
from __future__ import annotations

from typing import Any, Final

from app.domain.hardware import Param, Tables

# (defined in errors.py: a compiled module cannot define a KeyError; imported from here too)
from .errors import MissingRate as MissingRate

_ABSENT: Final = object()  # RateReader._node: nothing at the path
_MISS: Final = object()  # not looked up yet


class RateReader:
    def __init__(self, tables: Tables, rates_name: str = ""):
        self.tables = tables
        self.name = rates_name
        self.used: dict[str, Param] = {}
        self._memo: dict[str, float] = {}
        self._nodes: dict[str, Any] = {}  # path -> its node or _ABSENT (the tables do not change during a run)
        self._keyed: dict[tuple[str, str], tuple[float, str | None]] = {}

    def _node(self, path: str) -> Any:
        """What is at path (_ABSENT when nothing), looked up once: operation starts and phase
        plans ask the same paths again and again, and Tables.get_path splits the path each time."""
        node = self._nodes.get(path, _MISS)
        if node is _MISS:
            node = self._nodes[path] = self.tables.get_path(path, _ABSENT)
        return node

    def has(self, path: str) -> bool:
        node = self._node(path)
        return node is not _ABSENT and node is not None

    def param(self, path: str) -> Param:
        try:
            p = self.tables.param(path)
        except KeyError as exc:
            raise MissingRate(f"rates {self.name!r} have no value at {path!r}") from exc
        self.used[p.path or path] = p
        return p

    def v(self, path: str, default: float | None = None) -> float:
        hit = self._memo.get(path)
        if hit is not None:
            return hit
        if default is not None and not self.has(path):
            return default
        val = float(self.param(path).value)
        self._memo[path] = val
        return val

    def opt(self, path: str) -> float | None:
        return self.v(path) if self.has(path) else None

    def raw(self, path: str, default: Any = None) -> Any:
        node = self._node(path)
        return default if node is _ABSENT else node

    def keyed(self, path: str, key: str, order: list[str] | None = None) -> tuple[float, str | None]:
        """Value at path.key; when the key is missing, the nearest key in `order` (or the first
        one) and a note saying which was used."""
        hit = self._keyed.get((path, key))
        if hit is not None:
            return hit
        out = self._keyed_lookup(path, key, order)
        self._keyed[(path, key)] = out
        return out

    def _keyed_lookup(self, path: str, key: str, order: list[str] | None) -> tuple[float, str | None]:
        table = self.tables.get_path(path, None)
        if not isinstance(table, Tables) or not len(table):
            raise MissingRate(f"rates {self.name!r} have no table {path!r}")
        if key in table and isinstance(table[key], Param):
            return self.v(f"{path}.{key}"), None
        keys = [k for k in table if isinstance(table[k], Param)]
        if order and key in order:
            idx = order.index(key)
            ranked = sorted((k for k in keys if k in order), key=lambda k: abs(order.index(k) - idx))
            use = ranked[0] if ranked else keys[0]
        else:
            use = keys[0]
        return self.v(f"{path}.{use}"), f"{path} has no {key!r}; used {use!r}"

    def nearest_row(self, path: str, key: str, target: float) -> tuple[Tables, bool]:
        """The row of a list table whose `key` is nearest to target; True when it is exact."""
        rows = self._node(path)
        if not isinstance(rows, list) or not rows:
            raise MissingRate(f"rates {self.name!r} have no rows at {path!r}")
        best = min(rows, key=lambda r: abs(float(r[key]) - target))
        exact = abs(float(best[key]) - target) < 1e-9
        return best, exact

    def row_value(self, row: Tables, key: str) -> float:
        p = row[key]
        self.used[p.path] = p
        return float(p.value)
