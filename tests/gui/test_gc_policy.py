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


def test_a_request_to_the_engine_worker_collects_while_the_gui_waits(qapp):
    """collect_while_waiting (called by LiveSimulator right after it sent a request) collects on the
    next turn of the event loop, not at once (the edit's handlers are still running) and not
    only when the 500 ms timer comes round."""
    from PySide6.QtCore import QCoreApplication

    from app.ui.gc_policy import collect_while_waiting

    collector = collect_on_gui_thread(qapp)
    collector.timer.stop()  # only the call under test may collect
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        alive = [[Node()] for _ in range(gc.get_threshold()[0] * 2)]
        collect_while_waiting()
        assert gone() is not None  # not inside the caller
        QCoreApplication.sendPostedEvents()
        QCoreApplication.processEvents()
        assert gone() is None
        del alive
    finally:
        collector.timer.start()
