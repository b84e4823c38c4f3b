"""Engine results of recent runs, found again by the content of what the engine read.

The engine worker runs the same project over and over with small edits. Two cases repeat a run
exactly: undo/redo (and dragging an operation back where it was) returns the project to a state
the worker has simulated before, and a pinned baseline scenario is simulated again after every
edit of the current one although nothing it reads changed. `ResultCache` answers both from
memory.

The key of a run is a digest of everything `simulate(project, catalog, scenario_name)` reads:
every Project attribute but the scenarios, the current/baseline names and the project info
(title, customer, notes), plus the simulated scenario itself. It is content, not identity:
the pickled bytes of the values, hashed. Equal bytes mean equal content (pickle writes every
field and the sharing between objects), so a hit is exact; equal content pickled differently
is only a miss. Containers are digested again only when they are other objects, which in the
worker's replica means the GUI sent them again (its containers are replaced, never modified:
app.service.engine_worker.replica).

Qt-free: app/service is used by the worker process and by tests.
"""
from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict
from typing import Any, Callable

# Project attributes the engine does not read (the scenarios are keyed one by one)
_NOT_READ = frozenset({"scenarios", "current_scenario", "baseline_scenario", "info"})


def _digest(value: Any) -> bytes:
    return hashlib.blake2b(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), digest_size=20).digest()


class ResultCache:
    """The last `size` engine results by the digest of their inputs (least recently used out).

    Results are shared, not copied: callers must treat them as read-only (the worker only
    pickles them to the GUI). Call `clear()` when the catalog changes."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._results: OrderedDict[bytes, Any] = OrderedDict()
        # attribute -> (the object digested, its digest): the object is kept so that its
        # identity cannot be reused by a new object while the entry exists
        self._parts: dict[str, tuple[Any, bytes]] = {}
        self._scenarios: tuple[Any, dict[str, bytes]] | None = None
        self.hits = self.misses = 0

    def clear(self) -> None:
        self._results.clear()
        self._parts.clear()
        self._scenarios = None

    def _part(self, name: str, value: Any) -> bytes:
        known = self._parts.get(name)
        if known is not None and known[0] is value:
            return known[1]
        d = _digest(value)
        self._parts[name] = (value, d)
        return d

    def _scenario(self, project, name: str) -> bytes:
        scenarios = project.scenarios
        if self._scenarios is None or self._scenarios[0] is not scenarios:
            self._scenarios = (scenarios, {})
        known = self._scenarios[1]
        if name not in known:
            known[name] = _digest(project.scenario(name))
        return known[name]

    def key(self, project, scenario_name: str) -> bytes:
        h = hashlib.blake2b(digest_size=20)
        for attr in sorted(project.__dict__):
            if attr not in _NOT_READ:
                h.update(attr.encode())
                h.update(self._part(attr, project.__dict__[attr]))
        h.update(self._scenario(project, scenario_name))
        return h.digest()

    def run(self, simulate: Callable[..., Any], project, catalog, scenario_name: str):
        """simulate(project, catalog, scenario_name=scenario_name), or its remembered result."""
        key = self.key(project, scenario_name)
        result = self._results.get(key)
        if result is not None:
            self._results.move_to_end(key)
            self.hits += 1
            return result
        self.misses += 1
        result = simulate(project, catalog, scenario_name=scenario_name)
        self._results[key] = result
        while len(self._results) > self.size:
            self._results.popitem(last=False)
        return result
