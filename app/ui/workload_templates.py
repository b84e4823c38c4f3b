"""The workload templates in the inspector: a combo of templates (OLTP, DSS, mail, backup, VDI;
presets/workload_templates.toml) with "Apply template" on a workload's page, and with "Add
workload" on a LUN's page. Applying is one undoable edit (EditWorkload of the profile's fields)."""
from __future__ import annotations

import logging

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QPushButton, QWidget

from app.domain import edits
from app.domain.project import Workload
from app.domain.workload_templates import WorkloadTemplate
from app.ui.i18n import tr
from app.ui.properties import guard_wheel

log = logging.getLogger(__name__)


def templates() -> tuple[WorkloadTemplate, ...]:
    """The built-in templates; none (logged) when the file cannot be used: the editors still work."""
    from app.store.presets import PresetError
    from app.store.workload_templates import load_templates

    try:
        return load_templates()
    except (PresetError, OSError) as exc:
        log.warning("workload templates not loaded: %s", exc)
        return ()


def template_combo(blank: str | None = None, current: Workload | None = None) -> QComboBox:
    """A combo of the templates (item data: the template; `blank` first, data None, when given),
    each with its figures and, in its tooltip, their sources. `current`: the template the
    workload follows is preselected."""
    box = guard_wheel(QComboBox())  # in the inspector's scroll area: the wheel scrolls the page
    box.setObjectName("workload_template")
    # the entries are long ("Backup (streaming read ...) (256 KB, ...)"): sized to the dock, not
    # to them (the page grew wider than the inspector and pushed its buttons out of view); the
    # open list shows them whole
    box.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(12)
    box.view().setTextElideMode(Qt.ElideNone)
    if blank is not None:
        box.addItem(blank, None)
    for t in templates():
        box.addItem(f"{t.name} ({t.summary()})", t)
        box.setItemData(box.count() - 1, t.source_text(), 3)  # Qt.ToolTipRole
        if current is not None and t.matches(current):
            box.setCurrentIndex(box.count() - 1)
    box.setToolTip(tr("The I/O profile of a common application: I/O size, reads, randomness and "
                      "cache hits, each from a cited source (the tooltip of each entry)"))
    return box


def apply_template_edit(workload_id: str, template: WorkloadTemplate) -> edits.EditWorkload:
    op = edits.EditWorkload(workload_id, **template.values())
    op.text = f"Apply template {template.name} to workload {workload_id}"
    return op


def apply_row(inspector, workload: Workload) -> QWidget:
    """[template combo] [Apply template] for a workload's page."""
    row = QWidget()
    lay = QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    box = template_combo(current=workload)
    button = QPushButton(tr("Apply template"))
    button.setObjectName("apply_template")
    button.setToolTip(tr("Set the workload's I/O size, reads, randomness and cache hits to the template's "
                         "(its IOPS and LUNs stay); Undo takes it back"))
    button.setEnabled(box.count() > 0)

    def apply() -> None:
        t = box.currentData()
        if t is not None:
            inspector.apply(apply_template_edit(workload.id, t))

    button.clicked.connect(apply)
    lay.addWidget(box, 1)
    lay.addWidget(button)
    inspector.template_box, inspector.apply_template_button = box, button
    return row


def new_workload(project, lun_id: int, template: WorkloadTemplate | None) -> Workload:
    """A workload of 1,000 IOPS on `lun_id`, with the template's profile and name when one is chosen."""
    wid = edits.new_workload_id(project)
    w = Workload(wid, f"Workload {wid[1:]}", [lun_id], iops=1000.0)
    if template is not None:
        for k, v in template.values().items():
            setattr(w, k, v)
        w.name = f"{template.name} {wid[1:]}"
    return w
