"""Priority advisor: for one operation, what each priority would do.

The engine runs once per priority the platform offers for the operation's kind, each on a copy
of the project with only that operation's priority changed (in a worker thread). The table shows
each priority's predicted duration and the peak response time, while the operation runs, of the
workloads it touches (as the engine reports them); the advisor recommends the fastest priority
whose peaks stay within the user's target, and applies it as an undoable edit on request.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QDoubleSpinBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableWidget, QTableWidgetItem,
    QVBoxLayout, QWidget,
)

from app.domain import ops
from app.domain.formatting import format_duration, format_ms
from app.ui.document import follow_document

DEFAULT_TARGET_MS = 20.0


@dataclass
class PriorityOutcome:
    priority: str
    duration_h: float | None  # None: not finished within the plan
    peaks_ms: dict[str, float] = field(default_factory=dict)  # workload id -> peak while it runs
    error: str | None = None

    @property
    def worst_ms(self) -> float | None:
        return max(self.peaks_ms.values()) if self.peaks_ms else None

    def meets(self, target_ms: float) -> bool:
        if self.error or self.duration_h is None:
            return False
        worst = self.worst_ms
        return worst is None or worst <= target_ms


@dataclass
class Advice:
    event_id: str
    kind: str
    current_priority: str
    target_ms: float
    outcomes: list[PriorityOutcome]
    workload_names: dict[str, str] = field(default_factory=dict)

    @property
    def recommended(self) -> PriorityOutcome | None:
        """The fastest priority that keeps every touched workload within the target."""
        ok = [o for o in self.outcomes if o.meets(self.target_ms)]
        return min(ok, key=lambda o: o.duration_h) if ok else None

    def with_target(self, target_ms: float) -> "Advice":
        return Advice(self.event_id, self.kind, self.current_priority, target_ms, self.outcomes,
                      self.workload_names)

    def summary(self) -> str:
        rec = self.recommended
        if rec is None:
            if not self.outcomes:
                return "The platform offers no priorities for this operation."
            best = min((o for o in self.outcomes if o.worst_ms is not None and not o.error),
                       key=lambda o: o.worst_ms, default=None)
            tail = f" The lowest peak is at {best.priority} ({format_ms(best.worst_ms)})." if best else ""
            return f"No priority keeps the workloads within {format_ms(self.target_ms)}.{tail}"
        worst = f", peak response {format_ms(rec.worst_ms)}" if rec.worst_ms is not None else ", no workload affected"
        same = " (the current priority)" if rec.priority == self.current_priority else ""
        return (f"Recommended: {rec.priority}{same} - {format_duration(rec.duration_h)}{worst}, "
                f"within {format_ms(self.target_ms)}.")


def default_target(project, event_id: str | None = None) -> float:
    targets = [w.response_target_ms for w in project.workloads if w.response_target_ms]
    return float(min(targets)) if targets else DEFAULT_TARGET_MS


def evaluate_priorities(project, catalog, event_id: str, simulate: Callable[..., Any],
                        target_ms: float | None = None, scenario: str | None = None,
                        should_stop: Callable[[], bool] | None = None) -> Advice | None:
    """Run the engine once per offered priority (on copies of `project`). Call off the GUI thread
    with a snapshot of the project. Returns None when `should_stop()` turns true between runs
    (the project changed meanwhile: the answer would be stale)."""
    from app.ui.live import snapshot_project

    sc = project.scenario(scenario)
    ev = sc.event(event_id)
    platform = catalog.platform(project.platform_id)
    priorities = list(platform.priorities(ev.kind))
    target = float(target_ms) if target_ms else default_target(project, event_id)
    outcomes = []
    for prio in priorities:
        if should_stop is not None and should_stop():
            return None
        trial = snapshot_project(project)
        trial.scenario(sc.name).event(event_id).priority = prio  # a throwaway copy, never the document
        try:
            res = simulate(trial, catalog, scenario_name=sc.name)
            op = res.operation(event_id)
        except Exception as exc:  # noqa: BLE001 - one priority failing must not hide the others
            outcomes.append(PriorityOutcome(prio, None, {}, f"{type(exc).__name__}: {exc}"))
            continue
        peaks = {}
        for wid in op.touches_workloads:
            s = res.get("response_ms", wid)
            if s is not None:
                peaks[wid] = s.peak(op.start_h, op.end_h)
        outcomes.append(PriorityOutcome(prio, op.duration_h, peaks))
    names = {w.id: (w.name or w.id) for w in project.workloads}
    return Advice(event_id, ev.kind, getattr(ev, "priority", ""), target, outcomes, names)


class AdvisorPanel(QWidget):
    """Dock contents: the selected operation's priorities, a target, the recommendation."""

    adviceReady = Signal(object)  # Advice

    def __init__(self, document=None, simulate: Callable[..., Any] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        from app.ui.live import BackgroundRunner, default_simulate

        self.document = None
        self.simulate = simulate or default_simulate
        self.runner = BackgroundRunner(self)
        self.event_id: str | None = None
        self.advice: Advice | None = None
        self._user_target = False
        self.auto = True  # re-evaluate after edits while visible
        self._generation = 0  # bumped by every request; a run whose number is old stops early
        self._in_flight = False
        self._again = False

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel("Select an operation on the timeline.")
        self.title.setWordWrap(True)
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        lay.addWidget(self.title)
        row = QHBoxLayout()
        row.addWidget(QLabel("Response-time target"))
        self.target_box = QDoubleSpinBox()
        self.target_box.setRange(0.1, 10000.0)
        self.target_box.setDecimals(1)
        self.target_box.setSuffix(" ms")
        self.target_box.setValue(DEFAULT_TARGET_MS)
        self.target_box.valueChanged.connect(self._target_changed)
        row.addWidget(self.target_box)
        self.evaluate_button = QPushButton("Evaluate")
        self.evaluate_button.clicked.connect(self.evaluate)
        row.addWidget(self.evaluate_button)
        row.addStretch(1)
        lay.addLayout(row)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Priority", "Duration", "Peak response", "Target"])
        self.table.horizontalHeaderItem(2).setToolTip(
            "The highest response time, while the operation runs, of the workloads it touches "
            "(hover a row for each workload)")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setMinimumHeight(4 * 22 + 30)  # the four priorities without scrolling
        lay.addWidget(self.table, 1)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        lay.addWidget(self.summary)
        brow = QHBoxLayout()
        self.apply_button = QPushButton("Apply recommended priority")
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
            self._generation += 1  # a running evaluation stops at its next engine run
            self.advice = None
            self.title.setText("Select an operation on the timeline.")
            self.table.setRowCount(0)
            self.summary.setText("")
            self.apply_button.setEnabled(False)
            self.evaluate_button.setEnabled(False)
            return
        changed = event_id != self.event_id
        self.event_id = event_id
        self.evaluate_button.setEnabled(True)
        self.title.setText(f"{event_id}: {ev.label_text} (now {ev.priority})")
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
            self.summary.setText("The project changed: press Evaluate.")

    def _target_changed(self, value: float) -> None:
        self._user_target = True
        if self.advice is not None:
            self._show(self.advice.with_target(value))

    # ---------------------------------------------------------------- work
    def evaluate(self) -> None:
        """Predict every priority in the worker. One evaluation at a time: an edit during one
        makes it stop at its next engine run, and the newest state is evaluated after it."""
        from app.ui.live import snapshot_project

        if self.event_id is None or self.document is None:
            return
        self._generation += 1
        self.summary.setText("Predicting each priority...")
        self.apply_button.setEnabled(False)
        if self._in_flight:
            self._again = True
            return
        gen = self._generation
        project = snapshot_project(self.document.project)  # a copy for the worker, made here
        catalog = self.document.catalog
        event_id, target, simulate = self.event_id, self.target_box.value(), self.simulate
        self._in_flight, self._again = True, False
        self.runner.submit(
            lambda: evaluate_priorities(project, catalog, event_id, simulate, target,
                                        should_stop=lambda: self._generation != gen),
            lambda advice: self._done(advice, gen), lambda message: self._failed(message, gen))

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
        self.summary.setText(f"The engine could not predict this operation: {message.splitlines()[0]}")

    def _show(self, advice: Advice) -> None:
        self.advice = advice
        rec = advice.recommended
        self.table.setRowCount(len(advice.outcomes))
        bold = QFont()
        bold.setBold(True)
        for r, o in enumerate(advice.outcomes):
            peaks = "\n".join(f"{advice.workload_names.get(w, w)}: {format_ms(v)}" for w, v in o.peaks_ms.items())
            if o.error:
                cells = [o.priority, "-", o.error, "error"]
            else:
                worst = o.worst_ms
                cells = [o.priority + (" (current)" if o.priority == advice.current_priority else ""),
                         format_duration(o.duration_h),
                         format_ms(worst) if worst is not None else "no workload affected",
                         "keeps" if o.meets(advice.target_ms) else "exceeds"]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(peaks or o.error or "")
                if rec is not None and o.priority == rec.priority:
                    item.setFont(bold)
                    item.setBackground(QBrush(QColor("#dff0d8")))
                elif c == 3 and text == "exceeds":
                    item.setForeground(QBrush(QColor("#c0392b")))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.summary.setText(advice.summary())
        self.apply_button.setEnabled(rec is not None and rec.priority != advice.current_priority)
        if rec is not None:
            self.apply_button.setText(f"Apply {rec.priority}")
        else:
            self.apply_button.setText("Apply recommended priority")

    def apply_recommendation(self) -> bool:
        if self.advice is None or self.document is None:
            return False
        rec = self.advice.recommended
        if rec is None:
            return False
        why = self.document.try_apply(ops.SetEventPriority(self.advice.event_id, rec.priority))
        if why:
            self.summary.setText(why)
        return why is None

    def wait(self, timeout_ms: int = 60000) -> bool:
        return self.runner.wait(timeout_ms)
