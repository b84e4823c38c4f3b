"""Deleting what timeline events use: a LUN that a migration moves, a drive that fails, a workload
that changes. Left behind, each such event is a validation error that stops the prediction, so
the user is asked once, naming the events, and they go with the object as one undo step."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from app.domain import edits
from app.domain.project import describe_event
from app.ui.i18n import tr

MAX_LISTED = 12  # events named in the question; the rest are counted


def confirm_deletion(parent: QWidget, document, op: edits.Edit) -> edits.Edit | None:
    """`op` as it should be applied: itself when no event uses what it deletes, else (if the
    user agrees) with the removal of those events; None when the user cancels."""
    dangling = edits.dangling_events(document.view, op)
    if not dangling or document.check(op):
        return op  # nothing to ask (a refused deletion is reported by whoever applies it)
    several = len(document.view.scenarios) > 1
    lines, scenario = [], None
    for sc, ev in dangling[:MAX_LISTED]:
        if several and sc != scenario:
            lines.append(f"{sc}:")
            scenario = sc
        lines.append(f"{'    ' if several else ''}{ev.id}  {describe_event(ev, document.platform)}")
    if len(dangling) > MAX_LISTED:
        lines.append(tr("... and {n} more").format(n=len(dangling) - MAX_LISTED))
    one = len(dangling) == 1
    text = ((tr("{what}? {n} timeline event uses what it deletes:") if one else
             tr("{what}? {n} timeline events use what it deletes:")).format(what=op.text, n=len(dangling))
            + "\n\n" + "\n".join(lines) + "\n\n"
            + (tr("Delete it too? Left in place, it would stop the prediction. Undo brings everything back.") if one
               else tr("Delete them too? Left in place, they would stop the prediction. Undo brings everything back.")))
    answer = QMessageBox.question(parent, tr("Delete"), text, QMessageBox.Yes | QMessageBox.Cancel, QMessageBox.Yes)
    if answer != QMessageBox.Yes:
        return None
    return edits.with_dependent_events(op, dangling)
