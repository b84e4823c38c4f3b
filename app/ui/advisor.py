"""Priority advisor: for one operation, what each priority would do.

The engine runs once per priority the platform offers for the operation's kind, each on a copy
of the project with only that operation's priority changed (app.service.advice; in the advisor's
engine worker process, or a worker thread when that cannot be used or a test injects its own
engine). The table shows each priority's predicted duration and the peak response time, while
the operation runs, of the workloads it touches (as the engine reports them); the advisor
recommends the fastest priority whose peaks stay within the user's target, and applies it as an
undoable edit on request.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QDoubleSpinBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem,
    QVBoxLayout, QWidget,
)

from app.domain import edits
from app.domain.formatting import NO_IO, format_duration, format_ms
from app.service.advice import DEFAULT_TARGET_MS, Advice, default_target, evaluate_priorities
from app.service.predict import default_simulate
from app.service.engine_worker.replica import ChangeLog, snapshot_project
from app.ui.accessibility import accessible, label_for
from app.ui.document import follow_document
from app.ui.engine_process import engine_process, wait_until
from app.ui.i18n import tr
from app.ui.theme import theme

class AdvisorPanel(QWidget):
    """Dock contents: the selected operation's priorities, a target, the recommendation."""

    adviceReady = Signal(object)  # Advice

    def __init__(self, document=None, simulate: Callable[..., Any] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        from app.ui.live import BackgroundRunner

        self.document = None
        self.simulate = simulate or default_simulate
        self.runner = BackgroundRunner(self)
        self.process = engine_process("advisor")
        self.process.replied.connect(self._on_replied)
        self.process.lost.connect(self._on_lost)
        self._ticket: tuple[int, int] | None = None  # the evaluation in the worker process, its generation
        self._changes = ChangeLog()  # edits since the worker process's replica was updated
        self.event_id: str | None = None
        self.advice: Advice | None = None
        self._user_target = False
        self.auto = True  # re-evaluate after edits while visible
        self._generation = 0  # bumped by every request; a run whose number is old stops early
        self._stop_thread_run = threading.Event()  # set when the generation changes (a run in a thread)
        self._in_flight = False
        self._again = False

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel(tr("Select an operation on the timeline."))
        self.title.setWordWrap(True)
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        lay.addWidget(self.title)
        row = QHBoxLayout()
        target_label = QLabel(tr("Response-time target"))
        row.addWidget(target_label)
        self.target_box = QDoubleSpinBox()
        label_for(target_label, self.target_box)
        self.target_box.setRange(0.1, 10000.0)
        self.target_box.setDecimals(1)
        self.target_box.setSuffix(" ms")
        self.target_box.setValue(DEFAULT_TARGET_MS)
        self.target_box.valueChanged.connect(self._target_changed)
        row.addWidget(self.target_box)
        self.evaluate_button = QPushButton(tr("Evaluate"))
        self.evaluate_button.clicked.connect(self.evaluate)
        row.addWidget(self.evaluate_button)
        row.addStretch(1)
        lay.addLayout(row)
        self.table = QTableWidget(0, 4)
        accessible(self.table, tr("Priorities compared"), tr("Each priority's duration and peak response time"))
        self.table.setHorizontalHeaderLabels([tr("Priority"), tr("Duration"), tr("Peak response"), tr("Target")])
        self.table.horizontalHeaderItem(2).setToolTip(
            tr("The highest response time, while the operation runs, of the workloads it touches "
               "(hover a row for each workload)"))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, not cell to cell
        header = self.table.horizontalHeader()
        for c in (0, 1, 3):  # fit their header and cells, empty or not; the peaks take the rest
            header.setSectionResizeMode(c, QHeaderView.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setMinimumHeight(4 * 22 + 30)  # the four priorities without scrolling
        lay.addWidget(self.table, 1)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        brow = QHBoxLayout()
        self.apply_button = QPushButton(tr("Apply recommended priority"))
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_recommendation)
        brow.addWidget(self.apply_button)
        brow.addStretch(1)
        lay.addLayout(brow)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.evaluate)
        if document is not None:
            self.set_document(document)

    def set_document(self, document) -> None:
        follow_document(self.document, document, self._doc_changed)
        self.document = document
        self._changes.forget()
        self._user_target = False
        self.set_event(None)

    # ---------------------------------------------------------------- inputs
    def set_event(self, event_id: str | None, evaluate: bool = True) -> None:
        """Show the advisor for `event_id` (an operation with a priority), or nothing."""
        ev = None
        if event_id and self.document is not None:
            try:
                ev = self.document.project.scenario().event(event_id)
            except KeyError:
                ev = None
        if ev is None or not hasattr(ev, "priority"):
            self.event_id = None
            self._new_generation()
            self.advice = None
            self.title.setText(tr("Select an operation on the timeline.") if ev is None else
                               tr("{event}: {kind} has no priority to choose. Select a migration, rebuild, bind "
                                  "or other operation with a priority.").format(
                                   event=ev.id, kind=ev.label_text or type(ev).__name__))
            self.table.setRowCount(0)
            self.summary.setText("")
            self.apply_button.setEnabled(False)
            self.evaluate_button.setEnabled(False)
            return
        changed = event_id != self.event_id
        self.event_id = event_id
        self.evaluate_button.setEnabled(True)
        self.title.setText(tr("{event}: {kind} (now {priority})").format(event=event_id, kind=ev.label_text,
                                                                        priority=ev.priority))
        if not self._user_target:
            self.target_box.blockSignals(True)
            self.target_box.setValue(default_target(self.document.project, event_id))
            self.target_box.blockSignals(False)
        if changed:
            self.advice = None
            self.table.setRowCount(0)
            self.summary.setText("")
            self.apply_button.setEnabled(False)
        if evaluate:
            self.evaluate()

    def _doc_changed(self, change=None) -> None:
        self._changes.note(change)
        if change is not None and not getattr(change, "needs_simulation", True):
            return
        if self.event_id is None:
            return
        still = True
        try:
            self.document.project.scenario().event(self.event_id)
        except KeyError:
            still = False
        if not still:
            self.set_event(None)
            return
        self.set_event(self.event_id, evaluate=False)
        if self.auto and self.isVisible():
            self._timer.start()
        else:
            self.summary.setText(tr("The project changed: press Evaluate."))

    def _target_changed(self, value: float) -> None:
        self._user_target = True
        if self.advice is not None:
            self._show(self.advice.with_target(value))

    # ---------------------------------------------------------------- work
    def _new_generation(self) -> None:
        """A running evaluation is stale from now on: it stops at its next engine run."""
        self._generation += 1
        self._stop_thread_run.set()
        self._stop_thread_run = threading.Event()
        if self._ticket is not None:
            self.process.interrupt()

    def evaluate(self) -> None:
        """Predict every priority in the worker. One evaluation at a time: an edit during one
        makes it stop at its next engine run, and the newest state is evaluated after it."""
        if self.event_id is None or self.document is None:
            return
        self._new_generation()
        self.summary.setText(tr("Predicting each priority..."))
        self.apply_button.setEnabled(False)
        if self._in_flight:
            self._again = True
            return
        gen = self._generation
        doc = self.document
        event_id, target, simulate = self.event_id, self.target_box.value(), self.simulate
        self._in_flight, self._again = True, False
        if simulate is default_simulate and self.process.start():
            ticket = self.process.submit("advise", doc.project, doc.catalog, self._changes.take(self.process),
                                         (event_id, target, None))
            self._ticket = (ticket, gen)
            return
        project = snapshot_project(doc.project)  # a copy for the worker thread, made here
        catalog = doc.catalog
        # the job must not hold the panel: the pool thread would drop the last reference to a
        # closed panel and destroy its Qt objects there (a crash in the GUI's event loop)
        stop = self._stop_thread_run.is_set
        self.runner.submit(
            lambda: evaluate_priorities(project, catalog, event_id, simulate, target, should_stop=stop),
            lambda advice: self._done(advice, gen), lambda message: self._failed(message, gen))

    @Slot(int, bool, object, float)
    def _on_replied(self, ticket: int, ok: bool, payload: Any, _transfer_s: float) -> None:
        if self._ticket is not None and ticket == self._ticket[0]:
            gen, self._ticket = self._ticket[1], None
            self._done(payload, gen) if ok else self._failed(payload, gen)

    @Slot(int)
    def _on_lost(self, ticket: int) -> None:
        """The worker process died during the evaluation: evaluate again."""
        if self._ticket is not None and ticket == self._ticket[0]:
            self._ticket, self._in_flight = None, False
            self.evaluate()

    def _finished(self, gen: int) -> bool:
        """Bookkeeping when a run ends; True if its answer is current."""
        self._in_flight = False
        if gen != self._generation or self._again:
            self._again = False
            if self.event_id is not None:
                self.evaluate()  # the project or the selection changed meanwhile
            return False
        return True

    def _done(self, advice: Advice | None, gen: int = -1) -> None:
        if not self._finished(gen) or advice is None or advice.event_id != self.event_id:
            return
        self._show(advice.with_target(self.target_box.value()))
        self.adviceReady.emit(self.advice)

    def _failed(self, message: str, gen: int = -1) -> None:
        if not self._finished(gen):
            return
        self.summary.setText(tr("The engine could not predict this operation: {why}").format(why=message.splitlines()[0]))

    def _show(self, advice: Advice) -> None:
        self.advice = advice
        rec = advice.recommended
        self.table.setRowCount(len(advice.outcomes))
        bold = QFont()
        bold.setBold(True)
        ink = theme()  # (the table is filled again for each evaluation; its colours then are current)
        for r, o in enumerate(advice.outcomes):
            peaks = "\n".join([f"{advice.workload_names.get(w, w)}: {format_ms(v)}" for w, v in o.peaks_ms.items()]
                              + [f"{advice.workload_names.get(w, w)}: {NO_IO}" for w in o.no_io])
            if o.error:
                cells = [o.priority, "-", o.error, "error"]
            else:
                worst = o.worst_ms
                cells = [o.priority + (" (current)" if o.priority == advice.current_priority else ""),
                         format_duration(o.duration_h),
                         format_ms(worst) if worst is not None else (NO_IO if o.no_io else "no workload affected"),
                         o.verdict(advice.target_ms)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(peaks or o.error or "")
                if rec is not None and o.priority == rec.priority:
                    item.setFont(bold)
                    item.setBackground(QBrush(ink.good_row()))
                    item.setForeground(QBrush(ink.text))
                elif c == 3 and text in ("exceeds", "not finished"):
                    item.setForeground(QBrush(ink.error))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.summary.setText(advice.summary())
        self.apply_button.setEnabled(rec is not None and rec.priority != advice.current_priority)
        if rec is not None:
            self.apply_button.setText(tr("Apply {priority}").format(priority=rec.priority))
        else:
            self.apply_button.setText(tr("Apply recommended priority"))

    def apply_recommendation(self) -> bool:
        if self.advice is None or self.document is None:
            return False
        rec = self.advice.recommended
        if rec is None:
            return False
        why = self.document.try_apply(edits.SetEventPriority(self.advice.event_id, rec.priority))
        if why:
            self.summary.setText(why)
        return why is None

    def wait(self, timeout_ms: int = 60000) -> bool:
        """Block until the evaluation has been shown (tests only)."""
        return wait_until(lambda: not self._in_flight, timeout_ms)
