"""RAID groups and their LUNs, with the capacity summary (raw, usable, allocated, free per group and
in total, from app.domain.capacity). Selecting a row selects the group or LUN.

Right-clicking a group or LUN opens its context menu: what plug-ins add for it (the timeline
plug-in: the operations to schedule on it; `context_menu_hooks`, each hook(menu, [ref]) as for
the canvas's menu), then Delete."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTreeWidget, QTreeWidgetItem

from app.domain import edits
from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity
from app.domain.edits import ref_group, ref_lun
from app.ui.accessibility import accessible
from app.ui.canvas import group_color
from app.ui.deletion import confirm_deletion
from app.ui.i18n import QT_TR_NOOP, tr, tr_count
from app.ui.terms import group_title
from app.ui.theme import follow_palette, theme

COLS = [QT_TR_NOOP("Group / LUN"), QT_TR_NOOP("Layout"), QT_TR_NOOP("Raw"), QT_TR_NOOP("Usable"), QT_TR_NOOP("Free")]
COL_TIPS = [QT_TR_NOOP("RAID groups and the LUNs bound in them"),
            QT_TR_NOOP("RAID layout of a group; owner (SP/controller) of a LUN"),
            QT_TR_NOOP("Raw capacity: all member drives"),
            QT_TR_NOOP("Usable capacity of a group (data drives); size of a LUN"),
            QT_TR_NOOP("Usable capacity not yet bound to LUNs")]


def _mark_free(item: QTreeWidgetItem, free_gb: float) -> None:
    """An over-allocated group's Free column in the palette's error colour; else the tree's
    own text colour (light or dark mode)."""
    item.setData(4, Qt.ForegroundRole, QBrush(theme().error) if free_gb < -1e-6 else None)


class StorageTree(QTreeWidget):
    refsSelected = Signal(list)

    def __init__(self, document: Any, parent=None):
        super().__init__(parent)
        self.document = document
        self.setColumnCount(len(COLS))
        self.setHeaderLabels([tr(c) for c in COLS])
        accessible(self, tr("RAID groups and LUNs"), tr("Each RAID group with its LUNs and capacity; select one to edit it"))
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        h = self.header()
        h.setStretchLastSection(False)
        for c in range(0, len(COLS)):
            h.setSectionResizeMode(c, QHeaderView.Interactive)
        for c in range(2, len(COLS)):
            self.headerItem().setTextAlignment(c, Qt.AlignRight | Qt.AlignVCenter)
        for c, tip in enumerate(COL_TIPS):
            self.headerItem().setToolTip(c, tr(tip))
        self._rows: dict[str, QTreeWidgetItem] = {}
        self._syncing = False
        self.context_menu_hooks: list = []  # hook(menu, [ref]) adds actions for the row's object
        self.itemSelectionChanged.connect(self._selection_changed)
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.refresh)
        document.changed.connect(self._changed)
        follow_palette(self, self._rebuild)  # the error colour for the new ground
        self.refresh()

    def _changed(self, change: edits.Change) -> None:
        if not change.affects(edits.LAYOUT, edits.GROUPS, edits.LUNS, edits.WORKLOADS):
            return
        self._pending_full = getattr(self, "_pending_full", False) or change.replaced
        self._pending_refs = getattr(self, "_pending_refs", set()) | set(change.refs)
        self._timer.start()

    def _structure_key(self) -> tuple:
        project = self.document.view
        luns: dict[int, list[int]] = {}
        for l in project.luns:
            luns.setdefault(l.group_id, []).append(l.id)
        return tuple((g.id, g.raid, tuple(g.drives), g.name, tuple(luns.get(g.id, ()))) for g in project.groups)

    def refresh(self) -> None:
        """Rebuild when groups or LUNs came or went; otherwise update the rows an edit touched."""
        full = getattr(self, "_pending_full", True)
        refs = getattr(self, "_pending_refs", set())
        self._pending_full, self._pending_refs = False, set()
        key = self._structure_key()
        if full or key != getattr(self, "_key", None) or not self._rows:
            self._key = key
            self._rebuild()
        else:
            self._update(refs)

    def _group_title(self, group_id: int) -> str:
        """"Disk Group 3", "Aggregate 3": the platform's own word for a RAID group."""
        return group_title(self.document, group_id)

    def _group_texts(self, g, cap) -> list[str]:
        return [self._group_title(g.id), g.math.label, format_capacity(cap.raw_gb), format_capacity(cap.usable_gb),
                format_capacity(cap.free_gb)]

    def _group_tip(self, g, cap) -> str:
        return tr("{group}: {layout} ({raid}) on {n} drives; raw {raw}, usable {usable}, allocated {allocated} "
                  "to LUNs, free {free}").format(
            group=self._group_title(g.id) + (f" ({g.name})" if g.name else ""), layout=g.math.label, raid=g.raid.label,
            n=len(g.drives), raw=format_capacity(cap.raw_gb), usable=format_capacity(cap.usable_gb),
            allocated=format_capacity(cap.allocated_gb), free=format_capacity(cap.free_gb))

    def _lun_texts(self, lun) -> list[str]:
        # its name too ("LUN 3 Oracle data"): the tree named every LUN only by its number
        return [f"LUN {lun.id}" + (f" {lun.name}" if lun.name else ""), lun.owner, "",
                format_capacity(lun.capacity_gb), ""]

    def _lun_tip(self, lun, wl: list[str]) -> str:
        text = tr("{lun}: {capacity} in {group}, owned by {owner}").format(
            lun=f"LUN {lun.id}" + (f" ({lun.name})" if lun.name else ""), capacity=format_capacity(lun.capacity_gb),
            group=self._group_title(lun.group_id), owner=lun.owner)
        return text + ("; " + tr("workloads: {names}").format(names=", ".join(wl)) if wl else "")

    def _total_texts(self, total) -> list[str]:
        project = self.document.view
        return [tr("Total"), tr_count(len(project.drives), "{n} drive", "{n} drives"), format_capacity(total.raw_gb),
                format_capacity(total.usable_gb), format_capacity(total.free_gb)]

    def _total_tip(self) -> str:
        project = self.document.view
        spares = project.hot_spares()
        return tr("{drives}, {spares}. Raw counts every drive, hot spares and drives not in a group included; "
                  "usable, allocated and free add up the RAID groups.").format(
            drives=tr_count(len(project.drives), "{n} drive", "{n} drives"),
            spares=tr_count(len(spares), "{n} hot spare", "{n} hot spares"))

    @staticmethod
    def _set_texts(it: QTreeWidgetItem, texts: list[str]) -> None:
        for c, t in enumerate(texts):
            if it.text(c) != t:
                it.setText(c, t)

    def _workload_names(self) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for w in self.document.view.workloads:
            for x in w.luns:
                out.setdefault(x, []).append(w.name or w.id)
        return out

    def _update(self, refs: set[str]) -> None:
        project, catalog = self.document.view, self.document.catalog
        rows, total = capacity_summary(project, catalog)
        by_id = {r.group_id: r for r in rows}
        wl = self._workload_names()
        for ref in refs:
            it = self._rows.get(ref)
            if it is None:
                continue
            kind, key = edits.parse_ref(ref)
            try:
                if kind == "group":
                    g = project.group(key)
                    self._set_texts(it, self._group_texts(g, by_id[g.id]))
                    it.setToolTip(0, self._group_tip(g, by_id[g.id]))
                    _mark_free(it, by_id[g.id].free_gb)
                elif kind == "lun":
                    lun = project.lun(key)
                    self._set_texts(it, self._lun_texts(lun))
                    it.setToolTip(0, self._lun_tip(lun, wl.get(lun.id, [])))
            except KeyError:
                continue
        if any(r.startswith("workload ") for r in refs):
            for lun in project.luns:
                it = self._rows.get(ref_lun(lun.id))
                if it is not None:
                    it.setToolTip(0, self._lun_tip(lun, wl.get(lun.id, [])))
        self._set_texts(self._total, self._total_texts(total))
        self._total.setToolTip(0, self._total_tip())

    def _rebuild(self) -> None:
        project, catalog = self.document.view, self.document.catalog
        selected = [it.data(0, Qt.UserRole) for it in self.selectedItems()]
        self._syncing = True
        self.setUpdatesEnabled(False)
        self.clear()
        self._rows.clear()
        rows, total = capacity_summary(project, catalog)
        by_id = {r.group_id: r for r in rows}
        luns: dict[int, list] = {}
        for l in project.luns:
            luns.setdefault(l.group_id, []).append(l)
        wl = self._workload_names()
        right = Qt.AlignRight | Qt.AlignVCenter
        top_items = []
        for g in project.groups:
            cap = by_id[g.id]
            it = QTreeWidgetItem(self._group_texts(g, cap))
            it.setData(0, Qt.UserRole, ref_group(g.id))
            it.setIcon(0, _swatch(group_color(g.id)))
            it.setToolTip(0, self._group_tip(g, cap))
            _mark_free(it, cap.free_gb)
            for c in (2, 3, 4):
                it.setTextAlignment(c, right)
            self._rows[ref_group(g.id)] = it
            for lun in luns.get(g.id, ()):
                child = QTreeWidgetItem(it, self._lun_texts(lun))
                child.setData(0, Qt.UserRole, ref_lun(lun.id))
                child.setToolTip(0, self._lun_tip(lun, wl.get(lun.id, [])))
                child.setTextAlignment(3, right)
                self._rows[ref_lun(lun.id)] = child
            top_items.append(it)
        tot = QTreeWidgetItem(self._total_texts(total))
        tot.setToolTip(0, self._total_tip())
        f = QFont(tot.font(0))
        f.setBold(True)
        for c in range(len(COLS)):
            tot.setFont(c, f)
        for c in (2, 3, 4):
            tot.setTextAlignment(c, right)
        tot.setFlags(Qt.ItemIsEnabled)
        tot.setData(0, Qt.UserRole, "")  # never read an empty QVariant: PySide6 6.12 drops a ref to None
        top_items.append(tot)
        self._total = tot
        self.addTopLevelItems(top_items)
        for it in top_items[:-1]:
            it.setExpanded(True)
        for ref in selected:
            if ref in self._rows:
                self._rows[ref].setSelected(True)
        for c in range(len(COLS)):
            self.resizeColumnToContents(c)
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

    # ---------------------------------------------------------------- context menu
    def build_context_menu(self, ref: str) -> QMenu | None:
        """The menu for the group or LUN `ref` (None for other rows)."""
        project = self.document.view
        kind, key = edits.parse_ref(ref)
        if kind == "group" and any(g.id == key for g in project.groups):
            luns = project.luns_in_group(key)
            text = (tr("Delete {group} and its LUNs") if luns else tr("Delete {group}")).format(group=self._group_title(key))
            op, then = edits.DeleteRaidGroup(key), []
        elif kind == "lun" and any(l.id == key for l in project.luns):
            text, op, then = f"Delete LUN {key}", edits.DeleteLun(key), [ref_group(project.lun(key).group_id)]
        else:
            return None
        menu = QMenu(self)
        for hook in self.context_menu_hooks:
            hook(menu, [ref])
        menu.addSeparator()
        # as the inspector's Delete button: undoable, then the group (or nothing) is selected
        menu.addAction(text, lambda: self._delete(op, then))
        return menu

    def _delete(self, op: edits.Edit, then: list[str]) -> None:
        op = confirm_deletion(self, self.document, op)  # events that use what it deletes: asked
        if op is not None and self.document.try_apply(op) is None:
            self.refsSelected.emit(then)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        item = self.itemAt(event.pos())
        ref = item.data(0, Qt.UserRole) if item is not None else ""
        menu = self.build_context_menu(ref) if ref else None
        if menu is None:
            return
        if not item.isSelected():  # the menu is about this row: select it, as a click does
            self.setCurrentItem(item)
        menu.exec(event.globalPos())
        menu.deleteLater()

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
