"""Python's cyclic garbage collector runs on the GUI thread only.

Left automatic, a collection runs in whichever thread happens to allocate past the threshold:
the engine process's reader thread unpickling a reply, a worker-pool thread validating. A
collection that frees a cycle holding Qt objects (a closed panel, its QTimers) then runs their
C++ destructors in that thread - "QBasicTimer::stop: Failed. Possibly trying to stop from a
different thread" - and the GUI crashed later in its event loop (seen in the GUI tests: a
segmentation fault in about 1 run of 10). So automatic collection is switched off and a timer on
the GUI thread collects by the same thresholds (the pattern PyQt's own documentation of QObject
lifetimes suggests). Reference counting still frees everything that is not in a cycle at once.

While the user edits, the timer would fire at random moments, some of them while a prediction
is being drawn (a young-generation collection takes ~2 ms on the large plan, an older one up to
~15 ms). `collect_while_waiting()` runs the same check when the GUI thread has nothing to do
for a while: right after a request went to the engine worker, which then computes for tens of
milliseconds; the timer then mostly finds nothing due.
"""
from __future__ import annotations

import gc

from PySide6.QtCore import QObject, Qt, QTimer

from app.service.engine_worker.heap import collect_due

CHECK_MS = 500


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(CHECK_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        """Collect the generations Python itself would have collected by now."""
        collect_due(self.threshold)


def _installed(app) -> GuiThreadCollector | None:
    """The collector collect_on_gui_thread made (a direct child of the application)."""
    return app.findChild(GuiThreadCollector, options=Qt.FindChildOption.FindDirectChildrenOnly)


def collect_while_waiting() -> None:
    """Soon (once the current event's handlers have returned), collect what is due: the caller
    knows the GUI thread is idle for a while (the engine worker is computing)."""
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance()
    collector = _installed(app) if app is not None else None
    if collector is not None:
        QTimer.singleShot(0, collector.check)


def collect_on_gui_thread(app) -> GuiThreadCollector:
    """Install the collector on `app` (the QApplication; call on the GUI thread), once."""
    existing = _installed(app)
    return existing if existing is not None else GuiThreadCollector(app)
