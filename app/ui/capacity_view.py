"""The capacity summary on the inspector's Array page: per RAID group and in total, raw (nominal),
formatted (as the array reports it, less the vault's system area) and usable, bound to LUNs;
the vault, the hot-spare ratio, enclosures and rack units (app.domain.capacity.array_space)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QGroupBox, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout

from app.store.sources import cite
from app.ui.i18n import tr
from app.domain.capacity import ArraySpace, array_space
from app.domain.formatting import format_capacity
from app.domain.hardware import group_noun, group_title

COLUMNS = ("RAID group", "Raw", "Formatted", "Usable", "Bound")  # a group's layout: its tooltip


def capacity_box(project, catalog) -> QGroupBox:
    space = array_space(project, catalog)
    platform = catalog.platforms.get(project.platform_id)
    names = {g.id: g.name for g in project.groups}
    box = QGroupBox(tr("Capacity"))
    box.setObjectName("capacityBox")
    lay = QVBoxLayout(box)
    table = QTableWidget(len(space.groups) + 1, len(COLUMNS))
    table.setTabKeyNavigation(False)  # Tab leaves the table, as in every dock view
    table.setObjectName("capacityTable")
    # the first column in the platform's word ("Disk Group"), as the rows' names
    table.setHorizontalHeaderLabels([group_noun(platform), *COLUMNS[1:]])
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.NoSelection)
    table.setFocusPolicy(Qt.NoFocus)
    rows = [(group_title(platform, g.group_id, names.get(g.group_id, "")), g.layout, g.raw_gb, g.formatted_gb, g.usable_gb, g.allocated_gb) for g in space.groups]
    rows.append(("Total", f"{space.drives} drives", space.raw_gb, space.formatted_gb, space.usable_gb,
                 space.allocated_gb))
    for r, (label, layout, *gbs) in enumerate(rows):
        for c, text in enumerate([label, *map(format_capacity, gbs)]):
            item = QTableWidgetItem(text)
            if c >= 1:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            table.setItem(r, c, item)
        table.item(r, 0).setToolTip(layout)
        over = r < len(space.groups) and space.groups[r].allocated_gb > space.groups[r].usable_gb + 1e-6
        if over:  # more bound than the group holds formatted
            table.item(r, 4).setForeground(Qt.red)
            table.item(r, 4).setToolTip(tr("More is bound to LUNs than the group holds once formatted"))
    table.resizeColumnsToContents()
    table.resizeRowsToContents()
    shown = min(len(rows), 10)  # more groups than this: the table scrolls
    table.setFixedHeight(table.horizontalHeader().sizeHint().height() + table.frameWidth() * 2
                         + sum(table.rowHeight(r) for r in range(shown)))
    lay.addWidget(table)
    note = QLabel(capacity_notes(space))
    note.setObjectName("capacityNotes")
    note.setWordWrap(True)
    note.setToolTip(tr("Source: {source}").format(source=cite(space.source)) if space.source else tr("The platform preset gives no [capacity] table"))
    lay.addWidget(note)
    return box


def capacity_notes(space: ArraySpace) -> str:
    """The lines under the table: vault, spares, enclosures and rack space, the formatting factor."""
    lines = []
    if space.formatted_factor < 1.0:
        lines.append(f"Formatted = nominal x {space.formatted_factor:g} (the array's sector format and GB of "
                     "2^30 bytes; see the tooltip for the source).")
    else:
        lines.append("Formatted = nominal: the platform preset gives no formatting factor.")
    if space.vault_drives:
        lines.append(f"Vault: {space.vault_drives} drives, {format_capacity(space.vault_gb)} reserved for the system.")
    lines.append(f"Hot spares: {space.hot_spares} ({space.spare_ratio}).")
    rack = f", {space.rack_units:g} U of rack" if space.rack_units else ""
    lines.append(f"Enclosures: {space.enclosures}{rack}.")
    return "\n".join(lines)
