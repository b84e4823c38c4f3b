"""A form for a new (or edited) timeline event, built from the event's fields.

Fields are offered as the project allows: LUNs, drives, workloads and features from the project
and platform, priorities from the platform's operation table. `EventForm.make_event()` returns the
Event (not yet in the project; the panel adds it with an undoable op), `values()` the changed
fields for SetEventFields.

The form judges the would-be event by the domain's own rules (app.domain.validation.event_issues:
the event in a throwaway copy of the current scenario) while the user edits it: errors and
warnings are shown in the form, and OK is refused while there are errors.
"""
from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel,
    QLineEdit, QVBoxLayout, QWidget,
)

from app.domain.formatting import EVENT_FIELD_LABELS, format_changes, format_moves
from app.domain.hardware import Catalog
from app.domain.priorities import PriorityChoice, default_priority, offered_priorities
from app.domain.project import DriveFailure, DriveReplacement, Event, FeatureEnable, LunMigration, VolumeMigration
from app.domain.user_names import names_for
from app.domain.validation import (
    ERROR, MAX_START_H, REALLOCATE_THRESHOLD, event_issues, migration_targets, unused_luns,
)
from app.ui.i18n import tr
from app.domain import hardware
from app.ui.properties import TimeSpinBox
from app.ui.theme import theme

# kinds in the Add menu, in order; those with a priority are offered only when the platform
# lists the operation
ADD_KINDS = ("lun_migration", "drive_failure", "drive_replacement", "bind", "volume_migration",
             "reallocate", "feature_enable", "workload_change")



# (least, most) of the number fields, from the domain's rules; others: 0 to MAX_NUMBER
NUMBER_RANGES = {"threshold": REALLOCATE_THRESHOLD}
MAX_NUMBER = 1e6


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
        if kind == "drive_replacement" and not failed_drives(project):
            continue  # nothing to replace yet
        out.append(kind)
    return out


def failed_drives(project) -> dict[str, float]:
    """Drives the current scenario fails and does not replace -> the failure's start (h)."""
    out: dict[str, float] = {}
    try:
        events = sorted(project.scenario().events, key=lambda e: e.start_h)
    except (KeyError, TypeError):
        return out
    for e in events:
        if isinstance(e, DriveFailure):
            out.setdefault(e.drive, e.start_h)
        elif isinstance(e, DriveReplacement):
            out.pop(e.drive, None)
    return out


def failed_at(project, t: float) -> set[str]:
    """Drives of the current scenario that are failed at time `t` (h): failed at or before `t`
    and not replaced by then (a replaced drive is in service again)."""
    down: set[str] = set()
    try:
        events = sorted(project.scenario().events, key=lambda e: e.start_h)
    except (KeyError, TypeError):
        return down
    for e in events:
        if e.start_h > t + 1e-9:
            break
        if isinstance(e, DriveFailure):
            down.add(e.drive)
        elif isinstance(e, DriveReplacement):
            down.discard(e.drive)
    return down


def _migration_ends(project) -> set[int]:
    """LUNs the current scenario already migrates from or to (not to be chosen again)."""
    out: set[int] = set()
    try:
        events = project.scenario().events
    except KeyError:
        return out
    for e in events:
        if isinstance(e, LunMigration):
            out |= {e.source_lun, e.dest_lun}
        elif isinstance(e, VolumeMigration):
            out |= {x for pair in e.moves if isinstance(pair, (list, tuple)) for x in pair}
    return out


def _pair_targets(project, sources: list[int], wanted: dict[int, int]) -> list[list[int]]:
    """Each source with its own target (the one in `wanted` when the rules accept it, else the
    first suitable one); sources without a suitable target are left out."""
    taken = _migration_ends(project) | set(sources)
    moves = []
    for src in sources:
        fits = migration_targets(project, src, taken)
        if not fits:
            continue
        dst = wanted[src] if wanted.get(src) in fits else fits[0]
        taken.add(dst)
        moves.append([src, dst])
    return moves


def default_event(kind: str, project, platform, start_h: float = 0.0, **preset: Any) -> Event:
    """A new event of `kind` with choices from the project that the validation rules accept
    where there are any (id left empty)."""
    cls = Event.registry[kind]
    ev = cls(id="", start_h=float(start_h))
    if hasattr(ev, "priority") and default_priority(platform, kind) is not None:
        ev.priority = default_priority(platform, kind)
    luns = [l.id for l in project.luns]
    if kind == "lun_migration" and luns:
        ends = _migration_ends(project)
        # asked for a source: that one; else the first LUN that can go somewhere
        src = preset.get("source_lun", next((l for l in luns if l not in ends and migration_targets(project, l, ends)),
                                            luns[0]))
        fits = migration_targets(project, src, ends)
        other = [l for l in luns if l != src]  # nothing fits: the form says why
        ev.source_lun, ev.dest_lun = src, (fits or other or [src])[0]
    elif kind == "bind" and luns:
        ends = _migration_ends(project)
        free = [l for l in unused_luns(project) if l not in ends]
        ev.lun = (free or luns)[-1]  # the newest unused LUN: binding is what a new LUN needs
    elif kind == "reallocate" and luns:
        ev.lun = luns[0]
    elif kind == "drive_failure":
        grouped = [d for g in project.groups for d in g.drives]
        ev.drive = grouped[0] if grouped else next(iter(project.drives), "")
    elif kind == "drive_replacement":
        failed = failed_drives(project)
        drive = preset.get("drive", next(iter(failed), None))
        if drive in failed:
            ev.drive = drive
            # a replacement comes after its failure: an hour later unless asked for a later time
            ev.start_h = max(ev.start_h, failed[drive] + 1.0)
        else:
            ev.drive = next(iter(project.drives), "")
    elif kind == "feature_enable" and platform is not None and platform.features:
        try:
            enabling = {e.feature for e in project.scenario().events if isinstance(e, FeatureEnable)}
        except KeyError:
            enabling = set()
        off = [f for f in platform.features if not project.features.get(f) and f not in enabling]
        ev.feature = (off or list(platform.features))[0]
    elif kind == "workload_change" and project.workloads:
        w = project.workloads[0]
        ev.workload = w.id
        # the load the engine reads for the workload's mode: off when on, back on when idle
        if w.mode == "closed":
            ev.changes = {"outstanding": 0} if w.outstanding else {"outstanding": 8}
        else:
            ev.changes = {"iops": 0} if w.iops else {"iops": 1000}
    elif kind == "volume_migration":
        asked = preset.pop("moves", None)
        pairs = [p for p in (asked or []) if isinstance(p, (list, tuple)) and len(p) == 2]
        sources = [a for a, _ in pairs] or luns[:1]
        ev.moves = _pair_targets(project, sources, {a: b for a, b in pairs})
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
    def __init__(self, event: Event, project, platform, parent: QWidget | None = None, title: str = "",
                 catalog: Catalog | None = None):
        super().__init__(parent)
        self.setWindowTitle(title or f"{event.label_text or event.kind}")
        self._event = copy.deepcopy(event)
        self.project = project
        self.platform = platform
        # the rules need the catalog: the panel's document has it; else the platform alone
        self.catalog = catalog or getattr(getattr(parent, "document", None), "catalog", None) or \
            Catalog({project.platform_id: platform} if platform is not None else {}, {})
        self._layout_cache: dict = {}  # the layout is the same for every check of this form
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
            form.addRow(EVENT_FIELD_LABELS.get(f.name, f.name), w)
        self.error = QLabel("")
        self.error.setObjectName("form_errors")
        ink = theme()  # a dialog lives shorter than a palette: its colours at opening
        self.error.setStyleSheet(f"color: {ink.error.name()}")
        self.error.setWordWrap(True)
        lay.addWidget(self.error)
        self.warning = QLabel("")
        self.warning.setObjectName("form_warnings")
        self.warning.setStyleSheet(f"color: {ink.warning.name()}")
        self.warning.setWordWrap(True)
        lay.addWidget(self.warning)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.setMinimumWidth(460)  # room for a message on two or three lines
        # check the values a moment after each edit (a burst of keystrokes: once)
        self._check_timer = QTimer(self, singleShot=True, interval=200)
        self._check_timer.timeout.connect(self.check)
        for w in self.widgets.values():
            for sig in ("currentIndexChanged", "valueChanged", "textChanged", "toggled"):
                if hasattr(w, sig):
                    getattr(w, sig).connect(self._check_timer.start)
                    break
        self.check()

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

    def _group_name(self, group, group_id: int) -> str:
        """"Disk Group 3" on a Dell MD (the platform's word); a missing group's number with a "?"."""
        if group is None:
            return f"{hardware.group_noun(self.platform)} {group_id}?"
        return hardware.group_title(self.platform, group.id, group.name)

    def _editor(self, name: str, value: Any) -> QWidget | None:
        p = self.project
        if name == "start_h":
            sb = TimeSpinBox(MAX_START_H)
            sb.setValue(float(value))
            return sb
        if name in ("source_lun", "dest_lun", "lun"):
            groups = {g.id: g for g in p.groups}
            items = [(f"{l.label} ({self._group_name(groups.get(l.group_id), l.group_id)}, "
                      f"{l.capacity_gb:g} GB)", l.id) for l in p.luns]
            return self._combo(items, value)
        if name == "drive":
            # only the drives the event can name: a failure a RAID group member (a hot spare or
            # an unbound drive holds no data to rebuild: offered, then refused), a replacement a
            # drive failed before it; the event's own drive stays listed when editing it
            failed = failed_drives(p) if isinstance(self._event, DriveReplacement) else {}
            items = []
            for loc, d in p.drives.items():
                g = p.group_of_drive(loc)
                if isinstance(self._event, DriveFailure) and g is None and loc != value:
                    continue
                if isinstance(self._event, DriveReplacement) and loc not in failed and loc != value:
                    continue
                where = self._group_name(g, g.id) if g else (tr("hot spare") if d.hot_spare else tr("unbound"))
                items.append((f"{loc} ({where})", loc))
            return self._combo(items, value)
        if name == "priority":
            choice = PriorityChoice(offered_priorities(self.platform, self._event.kind), value)
            return self._combo([(choice.label(x), x) for x in choice.choices], choice.selected)
        if name == "feature":
            feats = self.platform.features if self.platform else {}
            return self._combo([(f.name, fid) for fid, f in feats.items()], value)
        if name == "workload":
            return self._combo([(w.name or w.id, w.id) for w in p.workloads], value)
        if name == "moves":
            le = QLineEdit(format_moves(value))
            le.setPlaceholderText(tr("source>target, ... (no unused LUN large enough was found: "
                                     "create target LUNs first)") if not value else tr("source>target, ..."))
            return le
        if name == "changes":
            return QLineEdit(format_changes(value))
        if isinstance(value, bool):
            cb = QCheckBox()
            cb.setChecked(value)
            return cb
        if isinstance(value, (int, float)):
            sb = QDoubleSpinBox()
            sb.setRange(*NUMBER_RANGES.get(name, (0.0, MAX_NUMBER)))
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

    def issues(self) -> list:
        """What the validation rules say about the event as the form has it (raises ValueError
        for text that does not parse)."""
        ev = self.make_event()
        if not ev.id:  # a new event: the id it will get, so that the rules can name it
            try:
                ev.id = self.project.scenario().new_event_id()
            except KeyError:
                ev.id = "new"
        self._checked_id = ev.id
        return event_issues(self.project, self.catalog, ev, layout_cache=self._layout_cache)

    def _short(self, text: str) -> str:
        """An issue's text without what the form makes plain (the scenario, the event's id)."""
        sc = f"{self.project.current_scenario}: "
        if text.startswith(sc):
            text = text[len(sc):]
        mine = f"{self._checked_id} ("
        if text.startswith(mine) and "): " in text:
            text = text.split("): ", 1)[1]
        # "Disk Group 3", a workload by its name (the rules write the file's ids)
        text = names_for(self.project, self.catalog).text(text, self.project.current_scenario)
        return text[:1].upper() + text[1:]

    def check(self) -> bool:
        """Show the errors and warnings of the values as they are; True when there is no error."""
        try:
            issues = self.issues()
        except ValueError as exc:
            self.error.setText(str(exc))
            self.error.setVisible(True)
            self.warning.setVisible(False)
            return False
        errs = [self._short(i.text) for i in issues if i.severity == ERROR]
        warns = [self._short(i.text) for i in issues if i.severity != ERROR]
        self.error.setText("\n".join(f"• {t}" for t in errs))
        self.warning.setText("\n".join(f"• {t}" for t in warns))
        self.error.setVisible(bool(errs))
        self.warning.setVisible(bool(warns))
        return not errs

    def _accept(self) -> None:
        self._check_timer.stop()
        if self.check():  # warnings do not stop the event; errors do
            self.accept()
