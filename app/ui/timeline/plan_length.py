"""Plan > Plan length...: how long the prediction runs at least (Project.horizon_h; None: until
the last operation ends). An undoable edit, saved with the project."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QRadioButton, QVBoxLayout, QWidget,
)

from app.ui.i18n import tr
from app.domain import edits
from app.domain.formatting import format_time, parse_time


def plan_length_edit(hours: float | None) -> edits.Edit:
    op = edits.SetProjectInfo(horizon_h=hours)
    op.text = f"Set the plan length to {format_time(hours)}" if hours else "Plan length: until the operations end"
    return op


class PlanLengthDialog(QDialog):
    """Automatic (the plan ends when its last operation does) or at least a typed length."""

    def __init__(self, hours: float | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(tr("Plan length"))
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(tr("How long the prediction runs. An operation that needs more time than this "
                                "still runs to its end.")))
        self.auto = QRadioButton(tr("Until the last operation ends"))
        self.fixed = QRadioButton(tr("At least:"))
        self.length = QLineEdit(format_time(hours) if hours else "")
        self.length.setPlaceholderText(tr("h:mm, d hh:mm or hours"))
        self.length.textEdited.connect(lambda _t: self.fixed.setChecked(True))
        (self.fixed if hours else self.auto).setChecked(True)
        form = QFormLayout()
        form.addRow(self.auto)
        form.addRow(self.fixed, self.length)
        lay.addLayout(form)
        self.error = QLabel()
        self.error.setObjectName("planLengthError")
        self.error.setStyleSheet("color: #b00020;")
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def hours(self) -> float | None | str:
        """The length chosen (None: automatic), or the reason the typed one is refused."""
        if self.auto.isChecked():
            return None
        value = parse_time(self.length.text())
        if value is None or value <= 0:
            return f"'{self.length.text()}' is not a length: write h:mm (12:00), d hh:mm (2 d 00:00) or hours (12)"
        return value

    def accept(self) -> None:
        value = self.hours()
        if isinstance(value, str):
            self.error.setText(value)
            return
        super().accept()


def ask_plan_length(window) -> bool:
    """The dialog over the window; the change as one undo step. True when something changed."""
    doc = window.document
    dialog = PlanLengthDialog(doc.project.horizon_h, window)
    if dialog.exec() != QDialog.Accepted:
        return False
    value = dialog.hours()
    if value == doc.project.horizon_h:
        return False
    op = plan_length_edit(value)  # type: ignore[arg-type]
    why = doc.try_apply(op)
    window.status(tr("Cannot set the plan length: {why}").format(why=why) if why else op.text)
    return why is None
