"""The Messages dock: validation errors and warnings (and, from plug-ins, advisories). Clicking a
message selects the object it names (its `where` reference).

An issue of a scenario that is not the current one names its scenario in its text; clicking it
selects nothing (its event id may name another event of the current scenario). The advisories
of the prediction ("prediction" source) are kept while validation errors stop the prediction,
marked as from the last good prediction and not counted: they describe a plan that is no longer
the one on screen.

A view on a list-backed model, not a QTreeWidget: a large plan lists a few hundred messages and
the prediction's advisories change with many edits (a priority, say). Refilling the list is then
a model reset (the view asks only the rows on screen for their text), and the narrow columns are
sized from the font's metrics in Python. The QTreeWidget it replaces made an item per row and
sized its columns to their contents over every row: ~5 ms to refill 300 rows and ~10 ms more in
the next paint, on the GUI thread, for every such edit (benchmarks/gui_latency.py --trace).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from app.domain import edits
from app.ui.accessibility import accessible
from app.ui.i18n import QT_TR_NOOP, tr
from app.ui.message_names import MessageNames
from app.ui.theme import Theme, follow_palette, theme

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
PREDICTION = "prediction"  # the source the timeline plug-in gives its advisories
STALE_SOURCE = "last good prediction"
UNCERTAINTY = "uncertainty"  # the source of the uncertainty bands' duration ranges (app/ui/bands.py)
STALE_TIP = QT_TR_NOOP("The prediction stopped at an error: this advisory is from the last prediction that ran, "
                       "before the latest edits")
HEADERS = (QT_TR_NOOP("Severity"), QT_TR_NOOP("Object"), QT_TR_NOOP("Message"), QT_TR_NOOP("From"))
# the severity and source columns hold keys (the colours, the counts look them up): shown translated
SHOWN_KEYS = {"error": QT_TR_NOOP("error"), "warning": QT_TR_NOOP("warning"), "info": QT_TR_NOOP("info"),
              "validation": QT_TR_NOOP("validation"), PREDICTION: QT_TR_NOOP("prediction"),
              STALE_SOURCE: QT_TR_NOOP("last good prediction"), UNCERTAINTY: QT_TR_NOOP("uncertainty")}
MESSAGE = 2  # the column that stretches; the others are as wide as their widest text
NARROW = (0, 1, 3)

# The roles as ints and the flags as constants, looked up once: the view asks data() ~10 roles
# per visible cell at every paint, and each `Qt.SomeRole` lookup in PySide6 costs ~3 us (the
# Qt namespace's attribute access), more than the rest of data(). Qt passes the role as an int.
_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole.value)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
_USER = int(Qt.ItemDataRole.UserRole.value)
_HORIZONTAL = Qt.Orientation.Horizontal
_FLAGS_ROW = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_FLAGS_PLACEHOLDER = Qt.ItemFlag.ItemIsEnabled


@dataclass(frozen=True)
class MessageRow:
    cells: tuple[str, str, str, str]  # severity, object, message, from
    ref: str  # what clicking it selects ("" for nothing)
    tip: str  # the message column's tool tip
    stale: bool = False  # an advisory of the last good prediction
    placeholder: bool = False  # "No problems found."


class MessagesModel(QAbstractTableModel):
    """The rows of the Messages dock, replaced as a whole (set_rows)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[MessageRow] = []
        self.set_theme(theme())

    def set_theme(self, ink: Theme) -> None:
        """The severity colours that read on the view's ground (light or dark)."""
        self._colors = {"error": ink.error, "warning": ink.warning, "info": ink.info}
        self._stale = ink.stale
        self._other = ink.text
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(HEADERS) - 1))

    def set_rows(self, rows: list[MessageRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    # ---- QAbstractTableModel
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section, orientation, role=_DISPLAY):  # noqa: N802
        if role == _DISPLAY and orientation == _HORIZONTAL:
            return tr(HEADERS[section])
        return None

    def flags(self, index):
        if index.isValid() and self.rows[index.row()].placeholder:
            return _FLAGS_PLACEHOLDER
        return _FLAGS_ROW

    def data(self, index, role=_DISPLAY):
        if role == _DISPLAY:
            text = self.rows[index.row()].cells[index.column()]
            return tr(SHOWN_KEYS[text]) if text in SHOWN_KEYS and index.column() in (0, 3) else text
        if role == _FOREGROUND:
            row = self.rows[index.row()]
            if row.stale:
                return self._stale
            if index.column() == 0:
                return self._colors.get(row.cells[0], self._other)
            return None
        if role == _TOOLTIP:
            row, col = self.rows[index.row()], index.column()
            if col == MESSAGE:
                return row.tip
            if col == 3 and row.stale:
                return tr(STALE_TIP)
            return None
        if role == _USER:
            return self.rows[index.row()].ref
        return None


class MessagesView(QTableView):
    """A table without a grid or row numbers, so it reads as a list. (A QTreeView lays out
    every row when the model resets, asking the Python model about each: ~5 ms for 300 rows.)"""

    refActivated = Signal(str)
    countsChanged = Signal()  # the rows (and so counts()) changed

    def __init__(self, document: Any, parent=None):
        super().__init__(parent)
        self.document = document
        self.model_ = MessagesModel(self)
        follow_palette(self, lambda: self.model_.set_theme(theme()))
        accessible(self, tr("Messages"), tr("Validation errors, warnings and the prediction's advisories; "
                                            "activate one to select its object"))
        self.setModel(self.model_)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setTabKeyNavigation(False)  # Tab leaves the dock (a QTableView's Tab moves between cells)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollPerPixel)
        rows = self.verticalHeader()
        rows.hide()
        rows.setSectionResizeMode(QHeaderView.Fixed)
        rows.setDefaultSectionSize(QFontMetrics(self.font()).height() + 4)
        h = self.horizontalHeader()
        h.setDefaultAlignment(Qt.AlignLeft | Qt.AlignVCenter)
        h.setHighlightSections(False)
        h.setStretchLastSection(False)
        for col in NARROW:
            h.setSectionResizeMode(col, QHeaderView.Interactive)
        h.setSectionResizeMode(MESSAGE, QHeaderView.Stretch)
        h.sectionResized.connect(self._section_resized)
        self._sizing = False  # the widths being set here, not by the user
        self._user_sized: set[int] = set()  # columns the user dragged: left as they are
        self._text_px: dict[str, int] = {}
        self._extra: dict[str, list] = {}
        self._shown = None
        self.clicked.connect(self._activated)
        self.activated.connect(self._activated)
        # the issues are validated off the GUI thread and published to the document
        document.issuesChanged.connect(self._issues_changed)
        # a renamed workload or a moved operation: the names in the texts change with no new issue
        document.changed.connect(self._doc_changed)
        self.refresh()

    def _doc_changed(self, change) -> None:
        if change.replaced or change.affects(edits.WORKLOADS, edits.EVENTS, edits.GROUPS):
            self.refresh()

    def _issues_changed(self, _issues: list) -> None:
        self.refresh()

    def set_extra(self, source: str, items: Iterable[Any]) -> None:
        """Messages from another part (e.g. the advisor): objects with severity, where, text."""
        self._extra[source] = list(items)
        self.refresh()

    def prediction_blocked(self) -> bool:
        """The newest issues stop the prediction (an error of the layout or of a scenario that
        is simulated): the prediction's advisories are from an earlier project."""
        from app.domain.validation import blocking
        from app.service.predict import baseline_to_run

        p = self.document.project
        try:
            run = [p.current_scenario, baseline_to_run(p)]
        except Exception:  # noqa: BLE001 - a project too broken to say: every error blocks
            run = [getattr(p, "current_scenario", None)]
        issues = [i for i in self.document.shown_issues if hasattr(i, "scenario")]
        plain = [i for i in self.document.shown_issues if not hasattr(i, "scenario")]
        return bool(blocking(issues, run)) or any(i.severity == "error" for i in plain)

    def _rows(self) -> list[tuple[Any, str]]:
        """(message, source) of every row, most severe first."""
        rows = [(i, "validation") for i in self.document.shown_issues]
        stale = bool(self._extra.get(PREDICTION)) and self.prediction_blocked()
        for src, items in self._extra.items():
            label = STALE_SOURCE if stale and src == PREDICTION else src
            rows += [(i, label) for i in items]
        rows.sort(key=lambda r: SEVERITY_ORDER.get(r[0].severity, 3))
        return rows

    def counts(self) -> dict[str, int]:
        """Messages per severity as listed, advisories of the last good prediction left out."""
        out = {"error": 0, "warning": 0, "info": 0}
        for i, src in self._rows():
            if src != STALE_SOURCE:
                out[i.severity] = out.get(i.severity, 0) + 1
        return out

    def _ref(self, issue: Any) -> str:
        """What clicking the message selects: nothing for an event of another scenario."""
        where = getattr(issue, "where", "") or ""
        scenario = getattr(issue, "scenario", None)
        if scenario is not None and scenario != self.document.project.current_scenario:
            return ""
        return where

    def refresh(self) -> None:
        rows = self._rows()
        names = MessageNames(self.document)  # operations and workloads by name, not "op1", "w1"
        out = []
        for issue, src in rows:
            where = getattr(issue, "where", "") or ""
            ref = self._ref(issue)
            scenario = getattr(issue, "scenario", None)
            text = names.message_text(issue.text, scenario)
            shown_where = names.object_text(where, scenario) if where else ""
            tip = text
            if where and not ref:
                tip += "\n" + tr("(in scenario '{scenario}': switch to it to select {where})").format(
                    scenario=issue.scenario, where=shown_where)
            out.append(MessageRow((issue.severity, shown_where, text, src), ref, tip, src == STALE_SOURCE))
        if not out:
            out.append(MessageRow(("", "", tr("No problems found."), ""), "", "", placeholder=True))
        key = [(r.cells, r.ref, r.tip) for r in out]
        if key == self._shown:
            return  # most edits leave the messages as they were
        self._shown = key
        self.model_.set_rows(out)
        self._fit_columns()
        self.countsChanged.emit()

    # ---- the rows as listed (tests read them)
    def row_count(self) -> int:
        return self.model_.rowCount()

    def cell(self, row: int, column: int) -> str:
        return self.model_.rows[row].cells[column]

    def ref(self, row: int) -> str:
        return self.model_.rows[row].ref

    # ---- columns
    def _fit_columns(self) -> None:
        """The narrow columns as wide as their widest text (the header's too), unless the user
        sized one by hand. Text widths are remembered: the same objects come back edit after
        edit."""
        fm = QFontMetrics(self.font())
        header_fm = QFontMetrics(self.horizontalHeader().font())
        margin = 2 * self.style().pixelMetric(self.style().PixelMetric.PM_FocusFrameHMargin, None, self) + 12
        if len(self._text_px) > 5000:  # (a long session of renames)
            self._text_px.clear()
        px = self._text_px
        rows = self.model_.rows
        self._sizing = True
        try:
            for col in NARROW:
                if col in self._user_sized:
                    continue
                texts = {r.cells[col] for r in rows}
                widest = 0
                for text in texts:
                    w = px.get(text)
                    if w is None:
                        w = px[text] = fm.horizontalAdvance(text)
                    widest = max(widest, w)
                widest = max(widest, header_fm.horizontalAdvance(HEADERS[col]) + 8)
                self.horizontalHeader().resizeSection(col, widest + margin)
        finally:
            self._sizing = False

    def _section_resized(self, col: int, _old: int, _new: int) -> None:
        if not self._sizing and col in NARROW:
            self._user_sized.add(col)

    def _activated(self, index) -> None:
        if not index.isValid():
            return
        ref = self.model_.rows[index.row()].ref
        if ref:
            self.refActivated.emit(ref)
