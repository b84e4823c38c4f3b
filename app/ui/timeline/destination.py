"""A LUN migration with nowhere to go: the LUN to create as its destination (Add -> LUN migration
offers it instead of only saying that no LUN fits)."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from app.ui.i18n import tr
from app.domain.hardware import group_title
from app.ui.terms import platform_of
from app.domain import edits
from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity


def destination_lun(project, catalog, source_lun: int, platform=None) -> edits.CreateLun | None:
    """A new LUN as large as `source_lun`, owned by the same controller, in the RAID group with
    the most free space that holds it, another group than the source's when one does (moving a
    LUN within its own group changes nothing of its drives); None when no group has room."""
    src = project.lun(source_lun)
    rows, _ = capacity_summary(project, catalog)
    fits = [r for r in rows if r.free_gb + 1e-9 >= src.capacity_gb]
    if not fits:
        return None
    best = max(fits, key=lambda r: (r.group_id != src.group_id, r.free_gb, -r.group_id))
    op = edits.CreateLun(best.group_id, src.capacity_gb, src.owner)
    op.text = tr("Create a {size} destination LUN for LUN {lun} in {group}").format(
        size=format_capacity(src.capacity_gb), lun=source_lun, group=group_title(platform, best.group_id))
    return op


def offer_destination(parent: QWidget, document, source_lun: int, why: str) -> int | None:
    """Ask whether to create the destination LUN; the new LUN's id once created, else None."""
    op = destination_lun(document.project, document.catalog, source_lun, platform_of(document))
    if op is None or document.check(op):
        return None
    answer = QMessageBox.question(
        parent, tr("LUN migration"),
        tr("{why}.\n\n{what} and migrate to it? (Undo removes it again.)").format(why=why[:1].upper() + why[1:],
                                                                               what=op.text),
        QMessageBox.Yes | QMessageBox.Cancel, QMessageBox.Yes)
    if answer != QMessageBox.Yes:
        return None
    before = {l.id for l in document.project.luns}
    if document.try_apply(op):
        return None
    return next(l.id for l in document.project.luns if l.id not in before)
