"""app/ui/gc_policy.py: automatic collection is off in the GUI process and the GUI thread's timer
collects cycles instead (a collection in the engine's reader thread or a pool thread destroyed Qt
objects outside the GUI thread)."""
from __future__ import annotations

import gc
import weakref

import pytest

from app.ui.gc_policy import GuiThreadCollector, collect_on_gui_thread

pytestmark = pytest.mark.gui


class Node:
    pass


def test_cycles_are_collected_by_the_gui_threads_timer_only(qapp):
    collector = collect_on_gui_thread(qapp)
    assert collect_on_gui_thread(qapp) is collector and len(qapp.findChildren(GuiThreadCollector)) == 1
    assert not gc.isenabled() and collector.timer.isActive()
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    alive = [[Node()] for _ in range(gc.get_threshold()[0] * 2)]  # allocations past the threshold
    assert gone() is not None  # nothing collected it on its own
    collector.check()
    assert gone() is None
    del alive
