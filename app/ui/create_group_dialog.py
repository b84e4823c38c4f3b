"""Edit > Create RAID Group... (Ctrl+G): a dialog for the selected drives (their count and type,
the RAID level: the preferred protected one, RAID 5 where allowed; for RAID 50/60 and
distributed levels the stripe, starting from the platform's default), one undoable edit."""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from app.ui.i18n import tr
from app.ui.terms import group_noun
from app.domain import edits
from app.domain.raid import RaidMath, RaidType


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
        # the stripe (RAID 50/60 span, distributed stripe) of the chosen level, from the preset
        self.stripe = QComboBox()
        self.stripe.setObjectName("stripe")
        self.stripe_label = QLabel(tr("Stripe:"))
        form = QFormLayout()
        form.addRow(tr("RAID level:"), self.raid)
        form.addRow(self.stripe_label, self.stripe)
        lay.addLayout(form)

        def level_changed() -> None:
            shown = fill_stripe_combo(self.stripe, project, catalog, RaidType(self.raid.currentData()),
                                      len(self.locations))
            self.stripe.setVisible(shown)
            self.stripe_label.setVisible(shown)
            self.stripe_shown = shown

        self.raid.currentIndexChanged.connect(level_changed)
        level_changed()
        self.note = QLabel()
        self.note.setWordWrap(True)
        reasons = sorted({w for w in allowed.values() if w})
        if chosen < 0:
            self.note.setText(tr("No RAID level fits: {why}").format(why="; ".join(reasons[:3])))
        lay.addWidget(self.note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText(tr("Create"))
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(chosen >= 0)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    def edit(self) -> edits.CreateRaidGroup:
        stripe = self.stripe.currentData() if self.stripe_shown else 0
        return edits.CreateRaidGroup(RaidType(self.raid.currentData()), self.locations, stripe=int(stripe or 0))


def stripe_label(raid: RaidType, width: int, stripe: int) -> str:
    """'16+2 (18 drives)' for a distributed stripe, '3 spans of 8' for RAID 50/60."""
    if raid.spanned:
        return tr("{n} spans of {k} drives").format(n=width // stripe, k=stripe)
    return tr("{d}+2 ({k} drives)").format(d=stripe - 2, k=stripe)


def fill_stripe_combo(combo: QComboBox, project, catalog, raid: RaidType, width: int) -> bool:
    """The stripes a new `raid` group of `width` drives can have (edits.stripe_options), the
    platform preset's default_stripe chosen (else the level's default geometry). False when the
    level has no stripe to choose (the combo is then empty)."""
    combo.clear()
    options = edits.stripe_options(project, catalog, raid, width)
    if not options:
        return False
    platform_default = edits.default_stripe(project, catalog, raid, width)
    start = platform_default or RaidMath(raid, width).span_width
    for s in options:
        text = stripe_label(raid, width, s)
        combo.addItem(text + (tr(" (platform default)") if s == platform_default else ""), s)
    combo.setCurrentIndex(max(combo.findData(start), 0))
    return True
