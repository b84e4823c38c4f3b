"""RAID groups and their LUNs, with the capacity summary (raw, usable, allocated, free per group and
in total, from app.domain.capacity). Selecting a row selects the group or LUN."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem

from app.domain import ops
from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity
from app.domain.ops import ref_group, ref_lun
from app.ui.canvas import group_color

COLS = ["Group / LUN", "Layout", "Raw", "Usable", "Free"]
COL_TIPS = ["RAID groups and the LUNs bound in them", "RAID layout of a group; owner (SP/controller) of a LUN",
            "Raw capacity: all member drives", "Usable capacity of a group (data drives); size of a LUN",
            "Usable capacity not yet bound to LUNs"]


class StorageTree(QTreeWidget):
    refsSelected = Signal(list)

    def __init__(self, document: Any, parent=None):
        super().__init__(parent)
        self.document = document
        self.setColumnCount(len(COLS))
        self.setHeaderLabels(COLS)
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        h = self.header()
        h.setStretchLastSection(False)
        for c in range(0, len(COLS)):
            h.setSectionResizeMode(c, QHeaderView.ResizeToContents)
        for c in range(2, len(COLS)):
            self.headerItem().setTextAlignment(c, Qt.AlignRight | Qt.AlignVCenter)
        for c, tip in enumerate(COL_TIPS):
            self.headerItem().setToolTip(c, tip)
        self._rows: dict[str, QTreeWidgetItem] = {}
        self._syncing = False
        self.itemSelectionChanged.connect(self._selection_changed)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.refresh)
        document.changed.connect(self._changed)
        self.refresh()

    def _changed(self, change: ops.Change) -> None:
        if change.affects(ops.LAYOUT, ops.GROUPS, ops.LUNS, ops.WORKLOADS):
            self._timer.start()

    def refresh(self) -> None:
        project, catalog = self.document.project, self.document.catalog
        selected = [it.data(0, Qt.UserRole) for it in self.selectedItems()]
        self._syncing = True
        self.setUpdatesEnabled(False)
        self.clear()
        self._rows.clear()
        rows, total = capacity_summary(project, catalog)
        by_id = {r.group_id: r for r in rows}
        for g in project.groups:
            cap = by_id.get(g.id)
            it = QTreeWidgetItem(self, [
                f"RG {g.id}", f"{g.math.label}",
                format_capacity(cap.raw_gb) if cap else "", format_capacity(cap.usable_gb) if cap else "",
                format_capacity(cap.free_gb) if cap else ""])
            if cap:
                it.setToolTip(0, f"RG {g.id}{' (' + g.name + ')' if g.name else ''}: {g.math.label} ({g.raid.label}) on {len(g.drives)} drives; raw "
                                 f"{format_capacity(cap.raw_gb)}, usable {format_capacity(cap.usable_gb)}, allocated "
                                 f"{format_capacity(cap.allocated_gb)} to LUNs, free {format_capacity(cap.free_gb)}")
            it.setData(0, Qt.UserRole, ref_group(g.id))
            it.setIcon(0, _swatch(group_color(g.id)))
            if cap and cap.free_gb < -1e-6:
                it.setForeground(4, QBrush(QColor("#c62828")))
            self._rows[ref_group(g.id)] = it
            for lun in project.luns_in_group(g.id):
                wl = [w.name or w.id for w in project.workloads if lun.id in w.luns]
                child = QTreeWidgetItem(it, [
                    f"LUN {lun.id}", lun.owner, "", format_capacity(lun.capacity_gb), ""])
                child.setData(0, Qt.UserRole, ref_lun(lun.id))
                child.setToolTip(0, f"LUN {lun.id}{' (' + lun.name + ')' if lun.name else ''}: {format_capacity(lun.capacity_gb)} in {g.label}, owned by {lun.owner}"
                                 + (f"; workloads: {', '.join(wl)}" if wl else ""))
                self._rows[ref_lun(lun.id)] = child
            it.setExpanded(True)
        spares = project.hot_spares()
        tot = QTreeWidgetItem(self, [
            "Total", f"{len(project.drives)} drives",
            format_capacity(total.raw_gb), format_capacity(total.usable_gb), format_capacity(total.free_gb)])
        tot.setToolTip(0, f"{len(project.drives)} drives, {len(spares)} hot spare{'s' if len(spares) != 1 else ''}. Raw counts every drive, hot spares and drives not in a group included; "
                          "usable, allocated and free add up the RAID groups.")
        f = QFont(tot.font(0))
        f.setBold(True)
        for c in range(len(COLS)):
            tot.setFont(c, f)
        tot.setFlags(Qt.ItemIsEnabled)
        tot.setData(0, Qt.UserRole, "")  # never read an empty QVariant: PySide6 6.12 drops a ref to None
        for it in [*self._rows.values(), tot]:
            for c in range(2, len(COLS)):
                it.setTextAlignment(c, Qt.AlignRight | Qt.AlignVCenter)
        for ref in selected:
            if ref in self._rows:
                self._rows[ref].setSelected(True)
        self.setUpdatesEnabled(True)
        self._syncing = False

    def select_refs(self, refs: list[str]) -> None:
        self._syncing = True
        self.clearSelection()
        for r in refs:
            if r in self._rows:
                self._rows[r].setSelected(True)
                self.scrollToItem(self._rows[r])
        self._syncing = False

    def _selection_changed(self) -> None:
        if self._syncing:
            return
        refs = [it.data(0, Qt.UserRole) for it in self.selectedItems() if it.data(0, Qt.UserRole)]
        if refs:
            self.refsSelected.emit(refs)


def _swatch(color: QColor):
    from PySide6.QtGui import QIcon, QPixmap
    pm = QPixmap(12, 12)
    pm.fill(color)
    return QIcon(pm)
