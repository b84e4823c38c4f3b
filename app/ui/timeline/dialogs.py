"""A form for a new (or edited) timeline event, built from the event's fields.

Fields are offered as the project allows: LUNs, drives, workloads and features from the project
and platform, priorities from the platform's operation table. `EventForm.make_event()` returns the
Event (not yet in the project; the panel adds it with an undoable op), `values()` the changed
fields for SetEventFields.
"""
from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel,
    QLineEdit, QVBoxLayout, QWidget,
)

from app.domain.project import DriveFailure, Event

# kinds in the Add menu, in order; those with a priority are offered only when the platform
# lists the operation
ADD_KINDS = ("lun_migration", "drive_failure", "drive_replacement", "bind", "volume_migration",
             "reallocate", "feature_enable", "workload_change")

FIELD_LABELS = {
    "start_h": "Start (hours from plan start)", "source_lun": "Source LUN", "dest_lun": "Destination LUN",
    "lun": "LUN", "drive": "Drive", "priority": "Priority", "no_initial_verify": "No initial verify",
    "moves": "Moves (source>target, ...)", "parallel": "Run as one migration group",
    "threshold": "Threshold", "measure_only": "Measure only", "feature": "Feature",
    "workload": "Workload", "changes": "Changes (field=value, ...)",
}


def available_kinds(project, platform) -> list[str]:
    out = []
    for kind in ADD_KINDS:
        cls = Event.registry[kind]
        has_priority = any(f.name == "priority" for f in fields(cls))
        if has_priority and platform is not None and kind not in platform.operations:
            continue
        if kind == "feature_enable" and platform is not None and not platform.features:
            continue
        if kind == "workload_change" and not project.workloads:
            continue
        out.append(kind)
    return out


def default_event(kind: str, project, platform, start_h: float = 0.0, **preset: Any) -> Event:
    """A new event of `kind` with sensible choices from the project (id left empty)."""
    cls = Event.registry[kind]
    ev = cls(id="", start_h=float(start_h))
    if hasattr(ev, "priority") and platform is not None:
        spec = platform.operations.get(kind)
        if spec is not None:
            ev.priority = spec.default
    luns = [l.id for l in project.luns]
    if kind == "lun_migration" and luns:
        src = preset.get("source_lun", luns[0])
        src_group = next((l.group_id for l in project.luns if l.id == src), None)
        other = [l.id for l in project.luns if l.id != src and l.group_id != src_group] or [l for l in luns if l != src]
        ev.source_lun, ev.dest_lun = src, (other[0] if other else src)
    elif kind in ("bind", "reallocate") and luns:
        ev.lun = luns[-1] if kind == "bind" else luns[0]
    elif kind == "drive_failure":
        grouped = [d for g in project.groups for d in g.drives]
        ev.drive = grouped[0] if grouped else next(iter(project.drives), "")
    elif kind == "drive_replacement":
        failed = [e.drive for s in project.scenarios if s.name == project.current_scenario
                  for e in s.events if isinstance(e, DriveFailure)]
        ev.drive = failed[0] if failed else next(iter(project.drives), "")
    elif kind == "feature_enable" and platform is not None and platform.features:
        ev.feature = next(iter(platform.features))
    elif kind == "workload_change" and project.workloads:
        ev.workload = project.workloads[0].id
        ev.changes = {"iops": 0}
    elif kind == "volume_migration" and len(luns) >= 2:
        ev.moves = [[luns[0], luns[1]]]
    for k, v in preset.items():
        setattr(ev, k, copy.deepcopy(v))
    return ev


def parse_moves(text: str) -> list[list[int]]:
    moves = []
    for chunk in text.replace(";", ",").split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        a, sep, b = chunk.replace("->", ">").partition(">")
        if not sep:
            raise ValueError(f"'{chunk}' is not of the form source>target")
        moves.append([int(a), int(b)])
    return moves


def parse_changes(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for chunk in text.split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        k, sep, v = chunk.partition("=")
        if not sep:
            raise ValueError(f"'{chunk}' is not of the form field=value")
        v = v.strip()
        try:
            val: Any = float(v)
            if val.is_integer() and "." not in v:
                val = int(val)
        except ValueError:
            val = {"true": True, "false": False}.get(v.lower(), v)
        out[k.strip()] = val
    return out


class EventForm(QDialog):
    def __init__(self, event: Event, project, platform, parent: QWidget | None = None, title: str = ""):
        super().__init__(parent)
        self.setWindowTitle(title or f"{event.label_text or event.kind}")
        self._event = copy.deepcopy(event)
        self.project = project
        self.platform = platform
        self.widgets: dict[str, QWidget] = {}
        lay = QVBoxLayout(self)
        form = QFormLayout()
        lay.addLayout(form)
        for f in fields(event):
            if f.name == "id":
                continue
            w = self._editor(f.name, getattr(event, f.name))
            if w is None:
                continue
            self.widgets[f.name] = w
            form.addRow(FIELD_LABELS.get(f.name, f.name), w)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c0392b")
        self.error.setWordWrap(True)
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def _combo(self, items: list[tuple[str, Any]], current: Any) -> QComboBox:
        cb = QComboBox()
        for text, data in items:
            cb.addItem(text, data)
        idx = cb.findData(current)
        if idx < 0 and current not in (None, ""):
            cb.addItem(str(current), current)
            idx = cb.count() - 1
        cb.setCurrentIndex(max(idx, 0))
        return cb

    def _editor(self, name: str, value: Any) -> QWidget | None:
        p = self.project
        if name == "start_h":
            sb = QDoubleSpinBox()
            sb.setRange(0.0, 1e6)
            sb.setDecimals(2)
            sb.setSuffix(" h")
            sb.setValue(float(value))
            return sb
        if name in ("source_lun", "dest_lun", "lun"):
            items = [(f"{l.label} ({p.group(l.group_id).label if any(g.id == l.group_id for g in p.groups) else 'RG ?'}, "
                      f"{l.capacity_gb:g} GB)", l.id) for l in p.luns]
            return self._combo(items, value)
        if name == "drive":
            items = []
            for loc, d in p.drives.items():
                g = p.group_of_drive(loc)
                where = g.label if g else ("hot spare" if d.hot_spare else "unbound")
                items.append((f"{loc} ({where})", loc))
            return self._combo(items, value)
        if name == "priority":
            offered = list(self.platform.priorities(self._event.kind)) if self.platform else []
            if value not in offered:
                offered.append(value)
            return self._combo([(x, x) for x in offered], value)
        if name == "feature":
            feats = self.platform.features if self.platform else {}
            return self._combo([(f.name, fid) for fid, f in feats.items()], value)
        if name == "workload":
            return self._combo([(w.name or w.id, w.id) for w in p.workloads], value)
        if name == "moves":
            return QLineEdit(", ".join(f"{a}>{b}" for a, b in value))
        if name == "changes":
            return QLineEdit(", ".join(f"{k}={v}" for k, v in value.items()))
        if isinstance(value, bool):
            cb = QCheckBox()
            cb.setChecked(value)
            return cb
        if isinstance(value, (int, float)):
            sb = QDoubleSpinBox()
            sb.setRange(-1e9, 1e9)
            sb.setDecimals(2)
            sb.setValue(float(value))
            return sb
        return QLineEdit(str(value))

    def values(self) -> dict[str, Any]:
        """The form's field values (raises ValueError for text that does not parse)."""
        out: dict[str, Any] = {}
        for name, w in self.widgets.items():
            old = getattr(self._event, name)
            if isinstance(w, QComboBox):
                val = w.currentData()
            elif isinstance(w, QCheckBox):
                val = w.isChecked()
            elif isinstance(w, QDoubleSpinBox):
                val = float(w.value()) if not isinstance(old, int) or isinstance(old, bool) else int(w.value())
                if name == "start_h":
                    val = float(w.value())
            elif name == "moves":
                val = parse_moves(w.text())
            elif name == "changes":
                val = parse_changes(w.text())
            else:
                val = w.text()
            out[name] = val
        return out

    def make_event(self) -> Event:
        ev = copy.deepcopy(self._event)
        for k, v in self.values().items():
            setattr(ev, k, v)
        return ev

    def changed_values(self) -> dict[str, Any]:
        return {k: v for k, v in self.values().items() if getattr(self._event, k) != v}

    def _accept(self) -> None:
        try:
            self.values()
        except ValueError as exc:
            self.error.setText(str(exc))
            return
        self.accept()
