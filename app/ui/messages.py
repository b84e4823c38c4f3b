"""The Messages dock: validation errors and warnings (and, from plug-ins, advisories). Clicking a
message selects the object it names (its `where` reference).

An issue of a scenario that is not the current one names its scenario in its text; clicking it
selects nothing (its event id may name another event of the current scenario). The advisories
of the prediction ("prediction" source) are kept while validation errors stop the prediction,
marked as from the last good prediction and not counted: they describe a plan that is no longer
the one on screen.
"""
from __future__ import annotations

from typing import Any, Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
SEVERITY_COLOR = {"error": "#c62828", "warning": "#b26a00", "info": "#1565c0"}
STALE_COLOR = "#9e9e9e"
PREDICTION = "prediction"  # the source the timeline plug-in gives its advisories
STALE_SOURCE = "last good prediction"


class MessagesView(QTreeWidget):
    refActivated = Signal(str)
    countsChanged = Signal()  # the rows (and so counts()) changed

    def __init__(self, document: Any, parent=None):
        super().__init__(parent)
        self.document = document
        self.setColumnCount(4)
        self.setHeaderLabels(["Severity", "Object", "Message", "From"])
        self.setRootIsDecorated(False)
        self.setAlternatingRowColors(True)
        self.setUniformRowHeights(True)
        h = self.header()
        h.setSectionResizeMode(0, QHeaderView.ResizeToContents)
        h.setSectionResizeMode(1, QHeaderView.ResizeToContents)
        h.setSectionResizeMode(2, QHeaderView.Stretch)
        h.setSectionResizeMode(3, QHeaderView.ResizeToContents)
        self._extra: dict[str, list] = {}
        self.itemClicked.connect(self._clicked)
        self.itemActivated.connect(self._clicked)
        # the issues are validated off the GUI thread and published to the document
        document.issuesChanged.connect(self._issues_changed)
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
        current = self.document.project.current_scenario
        key = [(i.severity, getattr(i, "where", "") or "", i.text, src) for i, src in rows] + [current]
        if key == getattr(self, "_shown", None):
            return  # most edits leave the messages as they were
        self._shown = key
        self.setUpdatesEnabled(False)
        self.clear()
        items = []
        for issue, src in rows:
            it = QTreeWidgetItem([issue.severity, getattr(issue, "where", "") or "", issue.text, src])
            color = STALE_COLOR if src == STALE_SOURCE else SEVERITY_COLOR.get(issue.severity, "#333")
            it.setForeground(0, QColor(color))
            if src == STALE_SOURCE:
                for col in (1, 2, 3):
                    it.setForeground(col, QColor(STALE_COLOR))
                it.setToolTip(3, "The prediction stopped at an error: this advisory is from the last "
                                 "prediction that ran, before the latest edits")
            ref = self._ref(issue)
            it.setData(0, Qt.UserRole, ref)
            tip = issue.text
            if getattr(issue, "where", "") and not ref:
                tip += f"\n(in scenario '{issue.scenario}': switch to it to select {issue.where})"
            it.setToolTip(2, tip)
            items.append(it)
        if not items:
            it = QTreeWidgetItem(["", "", "No problems found.", ""])
            it.setFlags(Qt.ItemIsEnabled)
            it.setData(0, Qt.UserRole, "")
            items.append(it)
        self.addTopLevelItems(items)
        self.setUpdatesEnabled(True)
        self.countsChanged.emit()

    def _clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        ref = item.data(0, Qt.UserRole)
        if ref:
            self.refActivated.emit(ref)
