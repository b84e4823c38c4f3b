"""The palette dock: the platform's drive catalog and enclosure types, dragged onto the canvas."""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QMimeData, Qt
from PySide6.QtWidgets import QAbstractItemView, QTreeWidget, QTreeWidgetItem

from app.ui.accessibility import accessible
from app.ui.canvas import MIME_DRIVE_TYPE, MIME_ENCLOSURE_TYPE
from app.ui.i18n import tr

ROLE_KIND = Qt.UserRole
ROLE_ID = Qt.UserRole + 1


class Palette(QTreeWidget):
    def __init__(self, document: Any, parent=None):
        super().__init__(parent)
        self.document = document
        self.setHeaderHidden(True)
        accessible(self, tr("Palette"), tr("Drive and enclosure types to drag onto the layout"))
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragOnly)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setRootIsDecorated(False)
        self.setIndentation(8)
        self.setToolTip(tr("Drag a drive into a slot, or an enclosure onto a bus"))
        self._platform_id = None
        self.populate()
        document.changed.connect(self._on_changed)

    def _on_changed(self, change) -> None:
        if change.replaced or self.document.view.platform_id != self._platform_id:
            self.populate()

    def populate(self) -> None:
        self.clear()
        platform, catalog = self.document.platform, self.document.catalog
        self._platform_id = platform.id
        drives = QTreeWidgetItem(self, [tr("Drives")])
        drives.setFlags(Qt.ItemIsEnabled)
        # headers carry empty strings: reading an unset role returns None, and PySide6 6.12 then
        # drops a reference to None (a crash at exit on Python 3.11)
        drives.setData(0, ROLE_KIND, "")
        drives.setData(0, ROLE_ID, "")
        bold = drives.font(0)
        bold.setBold(True)
        drives.setFont(0, bold)
        types = [catalog.drives[t] for t in platform.drive_types if t in catalog.drives]
        for dt in sorted(types, key=lambda d: (d.interface.value, -d.rpm, d.capacity_gb)):
            # the bay size where the catalog states it: enclosures take one size only
            size = f'  {dt.form_factor}"' if dt.form_factor else ""
            it = QTreeWidgetItem(drives, [f"{dt.speed_class}  {dt.capacity_gb:g} GB{size}"])
            it.setData(0, ROLE_KIND, "drive")
            it.setData(0, ROLE_ID, dt.id)
            it.setToolTip(0, dt.name + "\n" + tr("{mb_s} MB/s sequential, {ms} ms random I/O").format(
                mb_s=f"{dt.seq_mb_s:g}", ms=f"{dt.random_ms:g}"))
            it.setFlags(Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsDragEnabled)
        encl = QTreeWidgetItem(self, [tr("Enclosures")])
        encl.setFlags(Qt.ItemIsEnabled)
        encl.setData(0, ROLE_KIND, "")
        encl.setData(0, ROLE_ID, "")
        encl.setFont(0, bold)
        for et in platform.enclosure_types.values():
            it = QTreeWidgetItem(encl, [f"{et.name}"])
            it.setData(0, ROLE_KIND, "enclosure")
            it.setData(0, ROLE_ID, et.id)
            accepts = "/".join(i.value for i in et.interfaces) or tr("any")
            size = f' {et.form_factor}"' if et.form_factor else ""
            it.setToolTip(0, tr("{name}: {slots} slots, takes{size} {accepts} drives").format(
                name=et.name, slots=et.slots, size=size, accepts=accepts))
            it.setFlags(Qt.ItemIsEnabled | Qt.ItemIsSelectable | Qt.ItemIsDragEnabled)
        self.expandAll()

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [MIME_DRIVE_TYPE, MIME_ENCLOSURE_TYPE]

    def mimeData(self, items) -> QMimeData:  # noqa: N802
        mime = QMimeData()
        for it in items:
            kind, tid = it.data(0, ROLE_KIND), it.data(0, ROLE_ID)
            if kind == "drive":
                mime.setData(MIME_DRIVE_TYPE, QByteArray(tid.encode()))
            elif kind == "enclosure":
                mime.setData(MIME_ENCLOSURE_TYPE, QByteArray(tid.encode()))
            mime.setText(tid)
        return mime

    def item_for(self, kind: str, type_id: str) -> QTreeWidgetItem | None:
        for i in range(self.topLevelItemCount()):
            top = self.topLevelItem(i)
            for j in range(top.childCount()):
                it = top.child(j)
                if it.data(0, ROLE_KIND) == kind and it.data(0, ROLE_ID) == type_id:
                    return it
        return None
