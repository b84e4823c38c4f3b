"""Scenarios: switch, duplicate, rename, delete, pin a baseline, and compare with it.

`ScenarioBar` is a compact row of controls (for a toolbar or the timeline dock); every action is
an undoable op (SetCurrentScenario, DuplicateScenario, RenameScenario, RemoveScenario,
SetBaselineScenario), so the choices are saved in the project file. `CompareTable` lists, for
the current scenario against the pinned baseline, each operation's predicted duration and each
workload's peak response time, with the difference. Both read the engine's Results only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QHeaderView, QInputDialog, QLabel, QMessageBox, QTableWidget,
    QTableWidgetItem, QToolButton, QVBoxLayout, QWidget,
)

from app.domain import edits
from app.domain.formatting import DASH, format_duration, format_ms, format_response
from app.ui.accessibility import accessible
from app.ui.document import follow_document
from app.ui.i18n import QT_TR_NOOP, tr
from app.ui.theme import follow_palette, theme


@dataclass
class CompareRow:
    section: str  # "Operations", "Workloads", "Plan"
    key: str  # event id / workload id
    label: str
    baseline: float | None  # None: not in that Result; NaN: a workload that completed no I/O
    current: float | None
    unit: str  # "h" or "ms"
    note: str = ""  # e.g. "only in current", priorities
    # why baseline/current is None: "absent" (not in that scenario) or "not finished" (an
    # operation still running at the end of the plan)
    baseline_missing: str = "absent"
    current_missing: str = "absent"

    @property
    def delta(self) -> float | None:
        if self.baseline is None or self.current is None or math.isnan(self.baseline) or math.isnan(self.current):
            return None  # nothing to compare with (no I/O: no response time)
        return self.current - self.baseline

    @property
    def delta_pct(self) -> float | None:
        if self.delta is None or not self.baseline:
            return None
        return 100.0 * self.delta / self.baseline


def compare_results(current, baseline, project=None) -> list[CompareRow]:
    """Rows comparing two Results: operations by event id (duration), workloads by name (peak
    response time over the plan, the steps without I/O left out: NaN if it never completed I/O),
    and the plan length."""
    rows: list[CompareRow] = []
    cur_ops = {o.event_id: o for o in current.operations}
    base_ops = {o.event_id: o for o in baseline.operations}
    order = list(base_ops) + [k for k in cur_ops if k not in base_ops]
    for eid in order:
        c, b = cur_ops.get(eid), base_ops.get(eid)
        label = (c or b).label
        if c is not None and b is not None:
            note = f"{b.priority} -> {c.priority}" if c.priority != b.priority else c.priority
        else:
            note = QT_TR_NOOP("only in current") if c is not None else QT_TR_NOOP("only in baseline")
        rows.append(CompareRow("Operations", eid, label,
                               b.duration_h if b is not None else None,
                               c.duration_h if c is not None else None, "h", note,
                               ABSENT if b is None else NOT_FINISHED,
                               ABSENT if c is None else NOT_FINISHED))
    # the names the runs were computed with (Result.labels), the project's only for results
    # without them: the table never names an old result with a rename made since
    names = {w.id: (w.name or w.id) for w in project.workloads} if project is not None else {}
    for res in (baseline, current):
        labels = getattr(res, "labels", None)
        if labels is not None and labels.workloads:
            names.update(labels.workloads)
    wl = sorted(set(current.entities("response_ms")) | set(baseline.entities("response_ms")))
    for wid in wl:
        cs, bs = current.get("response_ms", wid), baseline.get("response_ms", wid)
        rows.append(CompareRow("Workloads", wid, names.get(wid, wid),
                               bs.peak() if bs is not None else None,
                               cs.peak() if cs is not None else None, "ms"))
    rows.append(CompareRow("Plan", "horizon", QT_TR_NOOP("Plan length"), baseline.horizon_h, current.horizon_h, "h"))
    return rows


NOT_FINISHED = QT_TR_NOOP("not finished")
ABSENT = QT_TR_NOOP("absent")


def _fmt(v: float | None, unit: str, missing: str = DASH) -> str:
    if v is None:
        return tr(missing)  # "absent", "not finished" (marked where the rows are made)
    return format_response(v) if unit == "ms" else format_duration(v)  # NaN ms: "no I/O"


def _fmt_delta(row: CompareRow, compact: bool = False) -> str:
    """'+57.9 ms (+486%)'; compact (a narrow table): '+486%' (the values are beside it)."""
    d = row.delta
    if d is None:
        return DASH
    if abs(d) < 1e-9:
        return tr("same")
    if compact and row.delta_pct is not None:
        return f"{row.delta_pct:+.0f}%"
    sign = "+" if d > 0 else "-"
    text = sign + (format_ms(abs(d)) if row.unit == "ms" else format_duration(abs(d)))
    if row.delta_pct is not None:
        text += f" ({row.delta_pct:+.0f}%)"
    return text


class ScenarioBar(QWidget):
    """[Scenario: v] [Duplicate] [...] Baseline: [v]"""

    def __init__(self, document=None, parent: QWidget | None = None, notify=None):
        super().__init__(parent)
        self.document = None
        self.notify = notify or (lambda text: None)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(2, 0, 2, 0)
        lay.addWidget(QLabel(tr("Scenario")))
        self.current_box = QComboBox()
        self.current_box.setMinimumContentsLength(14)
        self.current_box.setToolTip(tr("The scenario the timeline, the charts and the canvas show"))
        self.current_box.activated.connect(self._current_chosen)
        lay.addWidget(self.current_box)
        self.duplicate_button = QToolButton(text=tr("Duplicate"))
        self.duplicate_button.setToolTip(tr("Copy the current scenario (its events) and switch to the copy"))
        self.duplicate_button.clicked.connect(lambda: self.duplicate())
        lay.addWidget(self.duplicate_button)
        self.rename_button = QToolButton(text=tr("Rename..."))
        self.rename_button.clicked.connect(self._ask_rename)
        lay.addWidget(self.rename_button)
        self.delete_button = QToolButton(text=tr("Delete"))
        self.delete_button.clicked.connect(self._ask_delete)
        lay.addWidget(self.delete_button)
        lay.addSpacing(8)
        lay.addWidget(QLabel(tr("Baseline")))
        self.baseline_box = QComboBox()
        self.baseline_box.setMinimumContentsLength(14)
        self.baseline_box.setToolTip(tr("Pin a scenario to draw its curves dashed under the current one"))
        self.baseline_box.activated.connect(self._baseline_chosen)
        lay.addWidget(self.baseline_box)
        self.pin_button = QToolButton(text=tr("Pin current"))
        self.pin_button.setToolTip(tr("Make the current scenario the baseline"))
        self.pin_button.clicked.connect(lambda: self.set_baseline(self.document.project.current_scenario))
        lay.addWidget(self.pin_button)
        if document is not None:
            self.set_document(document)

    def set_document(self, document) -> None:
        follow_document(self.document, document, self.refresh)
        self.document = document
        self.refresh()

    def refresh(self, change=None) -> None:
        if change is not None and not change.affects(edits.SCENARIOS):
            return
        p = self.document.project
        names = [s.name for s in p.scenarios]
        for box in (self.current_box, self.baseline_box):
            box.blockSignals(True)
            box.clear()
        self.current_box.addItems(names)
        self.current_box.setCurrentText(p.current_scenario)
        self.baseline_box.addItem(tr("(none)"), None)
        for n in names:
            self.baseline_box.addItem(n, n)
        idx = self.baseline_box.findData(p.baseline_scenario) if p.baseline_scenario else 0
        self.baseline_box.setCurrentIndex(max(idx, 0))
        for box in (self.current_box, self.baseline_box):
            box.blockSignals(False)
        self.delete_button.setEnabled(len(names) > 1)

    # ---------------------------------------------------------------- actions (undoable)
    def _apply(self, op) -> bool:
        why = self.document.try_apply(op)
        if why:
            self.notify(why)
        return why is None

    def switch_to(self, name: str) -> bool:
        if name == self.document.project.current_scenario:
            return True
        return self._apply(edits.SetCurrentScenario(name))

    def duplicate(self, new_name: str | None = None) -> str | None:
        p = self.document.project
        op = edits.DuplicateScenario(p, p.current_scenario, new_name)
        return op.scenario.name if self._apply(op) else None

    def rename(self, new_name: str) -> bool:
        return self._apply(edits.RenameScenario(self.document.project.current_scenario, new_name))

    def remove_current(self) -> bool:
        return self._apply(edits.RemoveScenario(self.document.project.current_scenario))

    def set_baseline(self, name: str | None) -> bool:
        if name == self.document.project.baseline_scenario:
            return True
        return self._apply(edits.SetBaselineScenario(name))

    def _current_chosen(self, _i: int) -> None:
        self.switch_to(self.current_box.currentText())

    def _baseline_chosen(self, _i: int) -> None:
        self.set_baseline(self.baseline_box.currentData())

    def _ask_rename(self) -> None:
        cur = self.document.project.current_scenario
        text, ok = QInputDialog.getText(self, tr("Rename scenario"), tr("New name"), text=cur)
        if ok and text.strip() and text.strip() != cur:
            self.rename(text.strip())

    def _ask_delete(self) -> None:
        cur = self.document.project.current_scenario
        if QMessageBox.question(self, tr("Delete scenario"), tr("Delete scenario '{name}' and its events?").format(
                name=cur)) == QMessageBox.Yes:
            self.remove_current()


class CompareTable(QWidget):
    """Differences between the current scenario and the pinned baseline."""

    COLUMNS = ("", QT_TR_NOOP("Baseline"), QT_TR_NOOP("Current"), QT_TR_NOOP("Difference"), QT_TR_NOOP("Note"))
    LABEL_MIN_W = 110  # the names give way (elided, whole in the tooltip) before the numbers do

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[CompareRow] = []
        self._keys: list[tuple[str, str]] | None = None  # (section, key) of each table row shown
        self.stale_reason: str | None = None
        self._compact = False  # differences as percentages only: the table is too narrow
        self._full_delta_w = 0
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.header = QLabel(tr("Pin a baseline scenario to compare."))
        self.header.setWordWrap(True)
        lay.addWidget(self.header)
        # shown while the table is that of the last good prediction (set_stale)
        self.stale_banner = QLabel()
        self.stale_banner.setObjectName("compareStale")
        self.stale_banner.setWordWrap(True)
        self.stale_banner.hide()
        lay.addWidget(self.stale_banner)
        self.table = QTableWidget(0, len(self.COLUMNS))
        accessible(self.table, tr("Scenario comparison"))
        self.table.setHorizontalHeaderLabels([tr(c) if c else c for c in self.COLUMNS])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, not cell to cell
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.ElideMiddle)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.Interactive)
        head.setStretchLastSection(True)  # the note takes what is left, if anything
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.viewport().installEventFilter(self)
        lay.addWidget(self.table, 1)
        self._set_theme()
        follow_palette(self, self._set_theme)

    def _set_theme(self) -> None:
        """Worse in red, better in green, each in the shade that reads on the table's ground; the
        banner as the charts' (app.ui.theme)."""
        ink = theme()
        self._tones = {True: QBrush(ink.error), False: QBrush(ink.ok)}  # worse (longer, slower), better
        self.stale_banner.setStyleSheet(ink.banner_style())
        if self.rows:
            self._fill()

    def set_stale(self, reason: str | None) -> None:
        """With a reason: the table is that of the last good prediction and there is no new one;
        dim it and say why. None: restore."""
        from app.ui.charts import dim_view

        if reason == self.stale_reason:
            return
        self.stale_reason = reason
        if reason and not self.rows:
            self.stale_banner.setText(tr("No comparison: {why}").format(why=reason))
        elif reason:
            self.stale_banner.setText(tr("These differences are from the last good prediction; there is none "
                                         "for the plan as it is now: {why}").format(why=reason))
        self.stale_banner.setVisible(bool(reason))
        dim_view(self.table, bool(reason))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        # the table's viewport, not this widget: a scroll bar or the banner appearing narrows it too
        if obj is self.table.viewport() and event.type() == QEvent.Resize:
            self._fit_columns()
        return False

    def _fit_columns(self) -> None:
        """Baseline, Current and Difference as wide as their texts; the names the rest of the
        width (at least LABEL_MIN_W); the note after them."""
        t = self.table
        if self.rows and self._too_narrow() != self._compact:
            self._compact = not self._compact
            self._fill()  # the Difference texts for the new width (it fits the columns again)
            return
        numbers = sum(t.columnWidth(c) for c in (1, 2, 3))
        t.setColumnWidth(0, max(self.LABEL_MIN_W, t.viewport().width() - numbers - 2))

    def _too_narrow(self) -> bool:
        """No room for the names, the values and the full differences side by side."""
        t = self.table
        return t.viewport().width() < self.LABEL_MIN_W + t.columnWidth(1) + t.columnWidth(2) + self._full_delta_w

    def set_results(self, current, baseline, project=None) -> None:
        """Fill the table. After an edit the rows are usually the same ones: then only the texts
        that changed are set (rebuilding 300 rows took 30-90 ms of the GUI thread)."""
        self.set_stale(None)  # a new prediction
        if current is None or baseline is None:
            self.rows = []
            self._keys = None
            self.table.setRowCount(0)
            self.header.setText(tr("Pin a baseline scenario (other than the current one) to compare."))
            return
        self.rows = compare_results(current, baseline, project)
        self.header.setText(tr("'{current}' compared with baseline '{baseline}'").format(
            current=current.scenario, baseline=baseline.scenario))
        fm = self.table.fontMetrics()
        self._full_delta_w = max((fm.horizontalAdvance(_fmt_delta(r)) for r in self.rows), default=0) + 16
        self._compact = self._too_narrow()
        self._fill()

    def _fill(self) -> None:
        lines = _table_lines(self.rows, self._compact)
        keys = [key for key, _, _ in lines]
        if keys != self._keys:
            self._keys = keys
            self._rebuild(lines)
            return
        changed = False
        for r, ((_, key), texts, worse) in enumerate(lines):
            for c, text in enumerate(texts):
                item = self.table.item(r, c)
                if item is not None and item.text() != text:
                    item.setText(text)
                    changed = True
            if key is not None:
                self._tone(self.table.item(r, 3), worse)
        if changed:
            self._fit_numbers()

    def _rebuild(self, lines) -> None:
        self.table.setUpdatesEnabled(False)
        self.table.setRowCount(len(lines))
        self.table.clearSpans()
        bold = QFont()
        bold.setBold(True)
        for r, ((section, key), texts, worse) in enumerate(lines):
            for c, text in enumerate(texts):
                if key is None and c > 0:  # a section's title row: one cell over the row
                    self.table.takeItem(r, c)
                    continue
                item = QTableWidgetItem(text)
                if key is None:
                    item.setFont(bold)
                elif c == 0:
                    item.setToolTip(text.strip() + (f" ({texts[4]})" if texts[4] else ""))
                elif c in (1, 2, 3):
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                if c == 3:
                    self._tone(item, worse)
                self.table.setItem(r, c, item)
            if key is None:
                self.table.setSpan(r, 0, 1, len(self.COLUMNS))
        self._fit_numbers()
        self.table.setUpdatesEnabled(True)

    def _fit_numbers(self) -> None:
        for c in (1, 2, 3):
            self.table.resizeColumnToContents(c)
        self._fit_columns()

    def _tone(self, item: QTableWidgetItem, worse: bool | None) -> None:
        brush = None if worse is None else self._tones[worse]  # None: the table's own colour
        if item.data(Qt.ForegroundRole) != brush:
            item.setData(Qt.ForegroundRole, brush)


_SECTION_TITLES = {"Operations": QT_TR_NOOP("Operations (duration)"),
                   "Workloads": QT_TR_NOOP("Workloads (peak response time)"), "Plan": QT_TR_NOOP("Plan")}


def _table_lines(rows: list[CompareRow],
                 compact: bool = False) -> list[tuple[tuple[str, str | None], list[str], bool | None]]:
    """The table's lines: ((section, key or None for the section's title), five texts, whether the
    difference is worse, better (False) or neither (None))."""
    out = []
    section = None
    for row in rows:
        if row.section != section:
            section = row.section
            out.append(((section, None), [tr(_SECTION_TITLES.get(section, section)), "", "", "", ""], None))
        worse = (row.delta > 0) if row.delta else None  # longer or slower is worse for both
        out.append(((row.section, row.key),
                    ["  " + tr(row.label), _fmt(row.baseline, row.unit, row.baseline_missing),
                     _fmt(row.current, row.unit, row.current_missing), _fmt_delta(row, compact), tr(row.note)],
                    worse))
    return out
