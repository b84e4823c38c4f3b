"""app/service/engine_worker/heap.py: collect_due runs the collection Python's collector has due, now."""
from __future__ import annotations

import gc
import weakref

from app.service.engine_worker.heap import collect_due


class Node:
    pass


def test_collect_due_collects_what_is_due_and_nothing_else():
    enabled = gc.isenabled()
    gc.disable()  # only the calls under test may collect
    try:
        gc.collect()
        assert collect_due() is None  # nothing allocated since: nothing due
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        assert collect_due(threshold=(10**9, 10, 10)) is None and gone() is not None  # not due yet
        alive = [[Node()] for _ in range(gc.get_threshold()[0] * 2)]
        assert collect_due() == 0  # the young generation, as the collector would
        assert gone() is None and gc.get_count()[0] < gc.get_threshold()[0]
        del alive
    finally:
        if enabled:
            gc.enable()
