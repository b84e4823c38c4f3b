"""Property editors from a registry of property types (like pyqtgraph's parameter tree).

A property is described by a SettingSpec (app.domain.hardware): key, label, kind, unit, min/max,
choices, help, source. `EDITORS[kind]` is a factory `(spec, value, commit) -> QWidget`; `commit`
is called with the new value once the user finishes an edit (Enter, focus out, a toggle, a pick).
`PropertyForm` lays out any list of (spec, value) and reports `committed(key, value)`: the cache
panel, the LUN settings, the workload and the LUN fields all use it, so a new kind of setting in a
platform preset needs one registered editor, not a new form.

    register_editor("percent", make_my_editor)
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import (
    QAbstractSpinBox, QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget,
)

from app.store.sources import cite
from app.domain.formatting import format_time, parse_time
from app.domain.hardware import SettingSpec
from app.domain.validation import MAX_START_H
from app.ui.accessibility import label_for, plain_text
from app.ui.i18n import tr
from app.ui.theme import theme

Commit = Callable[[Any], None]
EditorFactory = Callable[[SettingSpec, Any, Commit], QWidget]
EDITORS: dict[str, EditorFactory] = {}


def register_editor(kind: str, factory: EditorFactory) -> None:
    EDITORS[kind] = factory


class _WheelOnlyWhenFocused(QObject):
    """Scrolling a form must not change the fields it passes under the pointer (a high
    watermark went 80 -> 77 -> 72 while the user scrolled the inspector): a spin box or combo
    box takes the wheel only once it has the focus (a click or Tab); otherwise the wheel goes on
    to the scroll area around it."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Wheel and isinstance(obj, QWidget) and not obj.hasFocus():
            event.ignore()
            return True  # not to the editor; ignored, the wheel reaches its parent's scroll area
        return False


WHEEL_GUARD = _WheelOnlyWhenFocused()


def guard_wheel(w: QWidget) -> QWidget:
    """`w` takes the mouse wheel only while it has the focus (and no focus from the wheel)."""
    if isinstance(w, (QAbstractSpinBox, QComboBox)):
        w.setFocusPolicy(Qt.StrongFocus)
        w.installEventFilter(WHEEL_GUARD)
    return w


def editor_for(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    factory = EDITORS.get(spec.kind)
    if factory is None:
        w = QLabel(tr("{value} (no editor for kind {kind})").format(value=repr(value), kind=repr(spec.kind)))
        return w
    w = guard_wheel(factory(spec, value, commit))
    tip = tr(spec.help) if spec.help else ""  # the app's own specs' help is in the catalog
    if spec.source:
        tip = f"{tip}\n{tr('Source: {source}').format(source=cite(spec.source))}".strip()
    if tip:
        w.setToolTip(tip)
    w.setObjectName(f"prop_{spec.key}")
    w.setProperty("spec_key", spec.key)
    return w


def _commit_spin_changes(w: QSpinBox | QDoubleSpinBox, commit: Commit, convert: Callable[[Any], Any]) -> None:
    """Commit a spin box's value only when it really changed: on Enter or focus out while
    typing, and at once for the arrows and the wheel (the box has no focus then)."""
    last = [w.value()]

    def done() -> None:
        if w.value() != last[0]:
            last[0] = w.value()
            commit(convert(w.value()))

    w.editingFinished.connect(done)
    w.valueChanged.connect(lambda _v: done() if not w.hasFocus() else None)


def _int_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    w = QSpinBox()
    _soft_bounds(w, spec)  # a hard range cut a typed 9000 to 900 and saved that
    w.setValue(int(value if value is not None else spec.default or 0))
    if spec.unit:
        w.setSuffix(f" {spec.unit}")
    w.setKeyboardTracking(False)
    w.setAccelerated(True)
    _commit_spin_changes(w, commit, lambda v: v)
    return w


def _mark_refused(w: QAbstractSpinBox, why: str, tip: str | None) -> None:
    """A spin box holding a value it will not take: red text, and `why` over its own tooltip
    `tip` (why "": unmarked, the tooltip back to `tip`)."""
    # (a border would drop the native arrows)
    w.setStyleSheet(f"QAbstractSpinBox {{ color: {theme().error.name()}; }}" if why else "")
    w.setToolTip(f"{why}\n{tip or ''}".strip() if why else (tip or ""))


def _soft_bounds(w: QSpinBox | QDoubleSpinBox, spec: SettingSpec) -> None:
    """Let the user type any number, not only those within the spec's bounds: a spin box drops
    the digits that would pass its maximum, so a typed 5000 became 50 without a word. The
    model's op refuses an impossible value with a message that says why (e.g. the free space of
    the RAID group); until then the box is marked and its tooltip says the bound."""
    big = 2_000_000_000 if isinstance(w, QSpinBox) else 1e12  # a QSpinBox holds a 32-bit int
    low = 0 if spec.minimum is not None and spec.minimum >= 0 else -big  # no sign to type
    w.setRange(low, big)
    tip = [None]

    def mark(value: float) -> None:
        if tip[0] is None:
            tip[0] = w.toolTip()  # the spec's help, set by editor_for after the factory
        why = spec.check(value)  # an int stays an int: the "whole number" rule must not trip
        _mark_refused(w, why or "", tip[0])

    w.valueChanged.connect(mark)


def _float_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    w = QDoubleSpinBox()
    w.setDecimals(2)
    _soft_bounds(w, spec)
    w.setValue(float(value if value is not None else spec.default or 0.0))
    if spec.unit:
        w.setSuffix(f" {spec.unit}")
    w.setKeyboardTracking(False)
    _commit_spin_changes(w, commit, float)
    return w


class TimeSpinBox(QDoubleSpinBox):
    """A time on the plan (hours from its start) shown as the timeline writes it ('2:32',
    '1 d 02:32'); typed as that or as decimal hours ('2.5'). The arrows step 15 minutes."""

    refused = Signal(str)  # a typed time past the maximum: why it was not taken

    def __init__(self, maximum_h: float = MAX_START_H, parent=None):
        super().__init__(parent)
        self.setRange(0.0, maximum_h)
        self.setDecimals(6)  # the value keeps the minutes exactly; the text shows h:mm
        self.setSingleStep(0.25)
        self.setKeyboardTracking(False)
        self.stepping = False  # True while an arrow/wheel step changes the value (see stepBy)
        self._tip: str | None = None  # the tooltip without the refusal
        self.valueChanged.connect(lambda _v: self._mark(""))  # a new value clears the mark
        self._refused_text: str | None = None  # Qt calls fixup twice for one Enter: say it once
        self.lineEdit().textEdited.connect(lambda _t: setattr(self, "_refused_text", None))

    def _mark(self, why: str) -> None:
        if self._tip is None:
            if not why:
                return  # not marked
            self._tip = self.toolTip()  # the owner's tooltip, set after construction
        _mark_refused(self, why, self._tip)
        if not why:
            self._tip = None

    def clear_mark(self) -> None:
        """Drop a refusal's red mark (the owner put the model's value back)."""
        self._mark("")
        self._refused_text = None

    def fixup(self, text: str) -> str:
        # Enter or focus-out with a time past the maximum: Qt keeps the previous value without a
        # word (a typed 1000000 vanished); mark the box and say the latest start
        value = parse_time(text)
        if value is not None and value > self.maximum() and text != self._refused_text:
            self._refused_text = text
            m = self.maximum()
            why = tr("{value} h is too late: the latest start is {latest} h ({years} years)").format(
                value=f"{value:,.0f}", latest=f"{m:,.0f}", years=f"{m / 8766:g}")
            self._mark(why)
            self.refused.emit(why)
        return text

    def stepBy(self, steps: int) -> None:  # noqa: N802 - Qt's name
        # lets a commit in valueChanged flag its op mergeable: arrow steps are one undo step
        self.stepping = True
        try:
            super().stepBy(steps)
        finally:
            self.stepping = False

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        return format_time(value)

    def valueFromText(self, text: str) -> float:  # noqa: N802
        value = parse_time(text)
        return self.value() if value is None else value

    def validate(self, text: str, pos: int):
        value = parse_time(text)
        if value is not None and self.minimum() <= value <= self.maximum():
            return QValidator.Acceptable, text, pos
        # while typing ('1:', '1 d') the text may not parse yet
        if all(c.isdigit() or c in " :.dh" for c in text.lower()):
            return QValidator.Intermediate, text, pos
        return QValidator.Invalid, text, pos


def _time_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    w = TimeSpinBox(spec.maximum if spec.maximum is not None else MAX_START_H)
    w.setValue(float(value or 0.0))
    _commit_spin_changes(w, commit, float)
    return w


def _bool_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    w = QCheckBox(tr("on"))
    w.setChecked(bool(value))
    w.toggled.connect(lambda on: (w.setText(tr("on") if on else tr("off")), commit(bool(on))))
    w.setText(tr("on") if w.isChecked() else tr("off"))
    return w


def _choice_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    w = QComboBox()
    labels = spec.choice_labels if len(spec.choice_labels) == len(spec.choices) else ()
    for i, c in enumerate(spec.choices):
        text = labels[i] if labels else (f"{c} {spec.unit}".strip() if spec.unit and not isinstance(c, str) else str(c))
        w.addItem(text, c)
    idx = next((i for i, c in enumerate(spec.choices) if c == value), -1)
    if idx < 0 and value is not None:
        w.addItem(tr("{value} (not offered)").format(value=value), value)
        idx = w.count() - 1
    w.setCurrentIndex(idx)
    w.activated.connect(lambda i: commit(w.itemData(i)))
    return w


def _str_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    w = QLineEdit(str(value or ""))
    w.setCursorPosition(0)  # show the start of a long title
    last = [w.text()]

    def done() -> None:
        if w.text() != last[0]:
            last[0] = w.text()
            commit(w.text())

    w.editingFinished.connect(done)
    return w


def _optional_float_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    """A float that may be unset (None: 'platform default')."""
    w = QDoubleSpinBox()
    w.setDecimals(1)
    lo = float(spec.minimum if spec.minimum is not None else 0.0)
    w.setRange(lo - 1, float(spec.maximum if spec.maximum is not None else 1e9))
    w.setSpecialValueText(tr("default"))
    w.setValue(lo - 1 if value is None else float(value))
    if spec.unit:
        w.setSuffix(f" {spec.unit}")
    w.setKeyboardTracking(False)
    _commit_spin_changes(w, commit, lambda v: None if v < lo else float(v))
    return w


class IntListEdit(QLineEdit):
    """A list of whole numbers as '0, 1, 5'; text that is not one is put back and `refused`
    says why (the owner shows it: the Inspector in the status bar)."""

    refused = Signal(str)


def _int_list_editor(spec: SettingSpec, value: Any, commit: Commit) -> QWidget:
    """A list of numbers as '0, 1, 5' (the LUNs of a workload)."""
    w = IntListEdit(", ".join(str(v) for v in (value or [])))
    w.setPlaceholderText(tr("e.g. 0, 1, 5"))
    last = [w.text()]

    def done() -> None:
        if w.text() == last[0]:
            return
        try:
            vals = [int(x) for x in w.text().replace(";", ",").split(",") if x.strip()]
        except ValueError:
            typed = w.text()
            w.setText(last[0])
            w.refused.emit(f"{spec.label}: '{typed}' is not a list of numbers such as 0, 1, 5; "
                           f"kept {last[0] or 'none'}")
            return
        last[0] = w.text()
        commit(vals)

    w.editingFinished.connect(done)
    return w


register_editor("int", _int_editor)
register_editor("float", _float_editor)
register_editor("time", _time_editor)  # a time on the plan, h:mm
register_editor("bool", _bool_editor)
register_editor("choice", _choice_editor)
register_editor("str", _str_editor)
register_editor("optional_float", _optional_float_editor)
register_editor("int_list", _int_list_editor)


class PropertyForm(QWidget):
    """A form of editors for (spec, value) pairs; emits committed(key, value)."""

    committed = Signal(str, object)
    refused = Signal(str)  # an editor put back text it cannot take: why (for the status bar)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        self.form.setLabelAlignment(Qt.AlignRight | Qt.AlignVCenter)
        self.editors: dict[str, QWidget] = {}

    def set_properties(self, items: Iterable[tuple[SettingSpec, Any]], read_only: Iterable[tuple[str, str]] = ()) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.editors.clear()
        for label, text in read_only:
            lab = QLabel(text)
            lab.setTextInteractionFlags(Qt.TextSelectableByMouse)
            lab.setWordWrap(True)
            lab.setAccessibleName(tr("{label}: {value}").format(label=label, value=text))  # one line, name and value
            self.form.addRow(tr("{label}:").format(label=label), lab)
        for spec, value in items:
            ed = editor_for(spec, value, lambda v, k=spec.key: self.committed.emit(k, v))
            if isinstance(ed, IntListEdit):
                ed.refused.connect(self.refused)
            self.editors[spec.key] = ed
            label = QLabel(tr("{label}:").format(label=tr(spec.label)))  # (a preset's label: as written)
            label.setToolTip(ed.toolTip())
            label_for(label, ed, tr(spec.label))
            if ed.toolTip():
                ed.setAccessibleDescription(plain_text(ed.toolTip()))
            self.form.addRow(label, ed)
