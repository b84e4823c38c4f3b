"""Edit > Create RAID Group... (Ctrl+G): a dialog for the selected drives (their count and type,
the RAID level: the preferred protected one, RAID 5 where allowed), one undoable edit."""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from app.ui.i18n import tr
from app.ui.terms import group_noun
from app.domain import edits
from app.domain.raid import RaidType


class CreateGroupDialog(QDialog):
    def __init__(self, document, locations: list[str], parent: QWidget | None = None):
        super().__init__(parent)
        from app.ui.inspector import fill_raid_combo

        self.setWindowTitle(tr("Create {group}").format(group=group_noun(document)))
        self.document, self.locations = document, list(locations)
        project, catalog = document.project, document.catalog
        lay = QVBoxLayout(self)
        types = sorted({catalog.drives[project.drives[l].type_id].name if project.drives[l].type_id in catalog.drives
                        else project.drives[l].type_id for l in self.locations if l in project.drives})
        lay.addWidget(QLabel(tr("{n} drives: {types}").format(n=len(self.locations), types=", ".join(types))))
        allowed = edits.allowed_raid_types(project, catalog, self.locations)
        self.raid = QComboBox()
        self.raid.setObjectName("raid_type")
        chosen = fill_raid_combo(self.raid, allowed)
        form = QFormLayout()
        form.addRow("RAID level:", self.raid)
        lay.addLayout(form)
        self.note = QLabel()
        self.note.setWordWrap(True)
        reasons = sorted({w for w in allowed.values() if w})
        if chosen < 0:
            self.note.setText("No RAID level fits: " + "; ".join(reasons[:3]))
        lay.addWidget(self.note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Create")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(chosen >= 0)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    def edit(self) -> edits.CreateRaidGroup:
        return edits.CreateRaidGroup(RaidType(self.raid.currentData()), self.locations)
