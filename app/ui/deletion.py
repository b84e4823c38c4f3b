"""Deleting what workloads and timeline events use: a LUN a workload runs on (its load goes to the
LUNs it keeps), a LUN that a migration moves, a drive that fails, a workload that changes. Left
behind, each such event is a validation error that stops the prediction, so the user is asked
once, told what happens to each workload and event, and the events go with the object as one
undo step."""
from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from app.domain import edits
from app.domain.formatting import plural
from app.domain.project import describe_event
from app.ui.i18n import tr

MAX_LISTED = 12  # events named in the question; the rest are counted


def confirm_deletion(parent: QWidget, document, op: edits.Edit) -> edits.Edit | None:
    """`op` as it should be applied: itself when it touches no workload and no event uses what
    it deletes, else (if the user agrees, told what happens to each workload and event) with the
    removal of those events; None when the user cancels."""
    if document.check(op):
        return op  # nothing to ask (a refused deletion is reported by whoever applies it)
    dangling = edits.dangling_events(document.view, op)
    workloads = edits.workload_effects(document.view, op)
    if not dangling and not workloads:
        return op
    parts = [f"{op.text}?"]
    if workloads:
        parts.append(f"{plural(len(workloads), 'workload')} change{'s' if len(workloads) == 1 else ''}:\n"
                     + "\n".join(f"    {line}" for line in workloads[:MAX_LISTED])
                     + (f"\n    ... and {len(workloads) - MAX_LISTED} more" if len(workloads) > MAX_LISTED else ""))
    if dangling:
        parts.append(_events_text(document, dangling))
    parts.append("Undo brings everything back.")
    buttons = QMessageBox.Yes | QMessageBox.Cancel
    answer = QMessageBox.question(parent, tr("Delete"), "\n\n".join(parts), buttons, QMessageBox.Yes)
    if answer != QMessageBox.Yes:
        return None
    return edits.with_dependent_events(op, dangling)


def _events_text(document, dangling: list) -> str:
    several = len(document.view.scenarios) > 1
    lines, scenario = [], None
    for sc, ev in dangling[:MAX_LISTED]:
        if several and sc != scenario:
            lines.append(f"    {sc}:")
            scenario = sc
        lines.append(f"    {'    ' if several else ''}{ev.id}  {describe_event(ev, document.platform)}")
    if len(dangling) > MAX_LISTED:
        lines.append(f"    ... and {len(dangling) - MAX_LISTED} more")
    one = len(dangling) == 1
    return (f"{plural(len(dangling), 'timeline event')} use{'s' if one else ''} what it deletes and "
            f"{'goes' if one else 'go'} too (left in place, {'it' if one else 'they'} would stop the "
            "prediction):\n" + "\n".join(lines))
