"""The Messages dock: validation errors and warnings (and, from plug-ins, advisories). Clicking a
message selects the object it names (its `where` reference)."""
from __future__ import annotations

from typing import Any, Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem

SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
SEVERITY_COLOR = {"error": "#c62828", "warning": "#b26a00", "info": "#1565c0"}


class MessagesView(QTreeWidget):
    refActivated = Signal(str)

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

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "info": 0}
        for i in self.document.shown_issues:
            out[i.severity] = out.get(i.severity, 0) + 1
        return out

    def refresh(self) -> None:
        rows = [(i, "validation") for i in self.document.shown_issues]
        for src, items in self._extra.items():
            rows += [(i, src) for i in items]
        rows.sort(key=lambda r: SEVERITY_ORDER.get(r[0].severity, 3))
        key = [(i.severity, getattr(i, "where", "") or "", i.text, src) for i, src in rows]
        if key == getattr(self, "_shown", None):
            return  # most edits leave the messages as they were
        self._shown = key
        self.setUpdatesEnabled(False)
        self.clear()
        items = []
        for issue, src in rows:
            it = QTreeWidgetItem([issue.severity, getattr(issue, "where", "") or "", issue.text, src])
            it.setForeground(0, QColor(SEVERITY_COLOR.get(issue.severity, "#333")))
            it.setData(0, Qt.UserRole, getattr(issue, "where", "") or "")
            it.setToolTip(2, issue.text)
            items.append(it)
        if not items:
            it = QTreeWidgetItem(["", "", "No problems found.", ""])
            it.setFlags(Qt.ItemIsEnabled)
            it.setData(0, Qt.UserRole, "")
            items.append(it)
        self.addTopLevelItems(items)
        self.setUpdatesEnabled(True)

    def _clicked(self, item: QTreeWidgetItem, _col: int = 0) -> None:
        ref = item.data(0, Qt.UserRole)
        if ref:
            self.refActivated.emit(ref)
