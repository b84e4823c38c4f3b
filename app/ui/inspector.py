"""The inspector dock: properties of the selection, the array's cache settings and premium features.

Every editor comes from the property registry (app.ui.properties) driven by SettingSpecs: the
platform's own cache and LUN settings, and the specs below for the project's own fields (LUN
capacity/owner, workload fields, project info). Every commit is a domain operation.
"""
from __future__ import annotations

import math
from dataclasses import fields as dataclass_fields
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFrame, QGroupBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QScrollArea,
    QSizePolicy, QTabWidget, QVBoxLayout, QWidget,
)

from app.store.sources import cite
from app.domain import edits
from app.domain.capacity import group_capacity, member_capacity_gb
from app.domain.formatting import (
    EVENT_FIELD_LABELS, format_capacity, format_chance, format_duration, format_duration_band, format_event_field,
    format_mttdl, plural,
)
from app.domain.hardware import SettingSpec
from app.domain.priorities import priority_choice
from app.domain.validation import MAX_OUTSTANDING, MAX_START_H, MAX_THINK_MS
from app.domain.edits import parse_ref, ref_group, ref_lun, ref_workload
from app.domain.project import Workload, describe_event
from app.domain.raid import RaidType
from app.ui.accessibility import accessible
from app.ui.capacity_view import capacity_box
from app.ui.create_group_dialog import stripe_label
from app.ui.deletion import confirm_deletion
from app.ui.i18n import QT_TR_NOOP, tr, tr_count
from app.ui.terms import group_noun, group_title
from app.ui.workload_templates import apply_row, new_workload, template_combo
from app.ui.properties import PropertyForm, guard_wheel
from app.ui.theme import follow_palette, mix

# ---------------------------------------------------------------- specs for the project's own fields

INFO_SPECS = [
    SettingSpec("title", QT_TR_NOOP("Title"), "str", ""),
    SettingSpec("customer", QT_TR_NOOP("Customer"), "str", ""),
    SettingSpec("author", QT_TR_NOOP("Author"), "str", ""),
]

WORKLOAD_SPECS = [
    SettingSpec("name", QT_TR_NOOP("Name"), "str", ""),
    SettingSpec("luns", QT_TR_NOOP("LUNs"), "int_list", [], help=QT_TR_NOOP("The LUNs the load is spread over, e.g. 0, 1")),
    SettingSpec("mode", QT_TR_NOOP("Mode"), "choice", "open", choices=("open", "closed"),
                help=QT_TR_NOOP("open: a fixed arrival rate (IOPS); closed: a fixed number of outstanding I/Os")),
    SettingSpec("iops", QT_TR_NOOP("Arrival rate"), "float", 0.0, unit="IOPS", minimum=0, help=QT_TR_NOOP("For open workloads")),
    SettingSpec("outstanding", QT_TR_NOOP("Outstanding I/Os"), "int", 1, minimum=0, maximum=MAX_OUTSTANDING,
                help=QT_TR_NOOP("For closed workloads (0: idle)")),
    SettingSpec("think_ms", QT_TR_NOOP("Think time"), "float", 0.0, unit="ms", minimum=0, maximum=MAX_THINK_MS,
                help=QT_TR_NOOP("For closed workloads: the wait after an I/O completes before the next is issued "
                                "(IOPS = outstanding / (response + think time); 0: at once)")),
    SettingSpec("read_pct", QT_TR_NOOP("Reads"), "float", 67.0, unit="%", minimum=0, maximum=100),
    SettingSpec("io_kb", QT_TR_NOOP("I/O size"), "float", 8.0, unit="KB", minimum=0.5, maximum=16384),
    SettingSpec("random_pct", QT_TR_NOOP("Random"), "float", 100.0, unit="%", minimum=0, maximum=100),
    SettingSpec("read_hit_pct", QT_TR_NOOP("Read cache hits"), "optional_float", None, unit="%", minimum=0, maximum=100,
                help=QT_TR_NOOP("Leave at 'default' for the platform's default hit ratio")),
    SettingSpec("response_target_ms", QT_TR_NOOP("Response target"), "optional_float", None, unit="ms", minimum=0,
                maximum=10000, help=QT_TR_NOOP("The SLA the priority advisor checks against")),
]


def lun_specs(document: Any, free_gb: float, new: bool) -> list[SettingSpec]:
    platform = document.platform
    names = tuple(platform.controller_names())
    specs = [
        SettingSpec("name", tr("Name"), "str", ""),
        SettingSpec("capacity_gb", tr("Capacity"), "float", 0.0, unit="GB", minimum=0.01, maximum=max(free_gb, 0.01),
                    help=tr("At most {capacity} fits in the group").format(capacity=format_capacity(free_gb))),
        SettingSpec("owner", tr("Owner"), "choice", names[0] if names else "", choices=names,
                    help=tr("The controller (SP) that owns the LUN")),
    ]
    return specs + list(platform.lun_settings.values())


# ---------------------------------------------------------------- the widget

class Inspector(QTabWidget):
    """Tabs: Selection | Array (cache settings and premium features)."""

    refsSelected = Signal(list)
    message = Signal(str)

    def __init__(self, document: Any, selection: Any, parent=None):
        super().__init__(parent)
        self.document = document
        self.selection = selection
        self.setDocumentMode(True)
        accessible(self, "Inspector", "The selected object's properties, and the array's cache and features")
        self.selection_page = _Scroll()
        self.array_page = _Scroll()
        self.addTab(self.selection_page, tr("Selection"))
        self.addTab(self.array_page, tr("Array"))
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self.refresh)
        self._array_timer = QTimer(self, singleShot=True, interval=0)
        self._array_timer.timeout.connect(self.refresh_array)
        self._capacity_timer = QTimer(self, singleShot=True, interval=0)
        self._capacity_timer.timeout.connect(self.refresh_capacity)
        self.capacity_box: QGroupBox | None = None
        selection.selectionChanged.connect(lambda _r: self._timer.start())
        document.changed.connect(self._changed)
        # widgets the tests and the main window reach
        self.raid_combo: QComboBox | None = None
        self.create_group_button: QPushButton | None = None
        self.new_lun_form: PropertyForm | None = None
        self.create_lun_button: QPushButton | None = None
        self.result: Any = None  # the newest prediction (set_result): a group's reliability figures
        self.reliability_form: PropertyForm | None = None
        self.bands: Any = None  # uncertainty bands sampled around self.result (set_bands)
        self.duration_label: QLabel | None = None  # the selected operation's predicted duration
        self._duration_event: str | None = None
        self.refresh()
        self.refresh_array()
        # the notes' grey is set on each label: made again in the new palette's
        follow_palette(self, lambda: (self._timer.start(), self._array_timer.start()))

    def set_result(self, result: Any) -> None:
        """A new prediction: a selected RAID group shows its reliability figures from it, a
        selected operation its predicted duration."""
        if result is not self.result:
            self.bands = None  # sampled around the previous prediction
        self.result = result
        if any(parse_ref(r)[0] == "group" for r in self.selection.refs()):
            self._timer.start()
        self._show_duration()

    def set_bands(self, bands: Any, result: Any) -> None:
        """The uncertainty bands sampled around `result`: a selected operation's duration reads
        with its P10-P90 (only while that prediction is the one shown)."""
        if result is not self.result:
            return
        self.bands = bands
        self._show_duration()

    def _show_duration(self) -> None:
        """The selected operation's predicted duration, updated in place (rebuilding the form
        after each prediction would take the focus from an editor the user is typing in)."""
        label, event_id = self.duration_label, self._duration_event
        if label is None or event_id is None:
            return
        try:
            text = self.predicted_duration(event_id)
            label.setText(tr("Predicted duration: {duration}").format(duration=text) if text else "")
            label.setVisible(bool(text))
        except RuntimeError:  # the page was rebuilt: the label went with it
            self.duration_label = self._duration_event = None

    def predicted_duration(self, event_id: str) -> str | None:
        """'3.4 h (P10-P90 2.8-4.1 h)', '3 h 24 min' before the bands, None without a prediction."""
        res = self.result
        if res is None or res.scenario != self.document.project.current_scenario:
            return None
        op = next((o for o in res.operations if o.event_id == event_id), None)
        if op is None or not op.phases:
            return None
        band = self.bands.operations.get(event_id) if self.bands is not None else None
        if band is None:
            return format_duration(op.duration_h)
        return format_duration_band(op.duration_h, band.duration_h.p10, band.duration_h.p90)

    def _changed(self, change: edits.Change) -> None:
        if self._selection_affected(change):
            self._timer.start()
        if change.affects(edits.CACHE, edits.FEATURES) or change.replaced:
            # only what the Array page shows: rebuilding it after every timeline edit cost the
            # GUI thread 10-20 ms on a large plan (building, then deleting the old editors)
            self._array_timer.start()
        elif change.affects(edits.LAYOUT, edits.GROUPS, edits.LUNS):
            self._capacity_timer.start()  # the capacity summary only, not the editors above it

    def _selection_affected(self, change: edits.Change) -> bool:
        """Does the edit change what the Selection page shows? (Rebuilding the page for an edit
        elsewhere would cost time on every edit of a large plan.)"""
        if change.replaced:
            return True
        refs = self.selection.refs()
        if not refs:  # the project page: info and the workload list
            return change.affects(edits.INFO, edits.WORKLOADS)
        if set(refs) & change.refs:
            return True
        if change.affects(edits.SCENARIOS) and any(parse_ref(r)[0] == "event" for r in refs):
            # another scenario shown: the selected id is now its operation (op1 is in each of an
            # example's scenarios), whose start and priority the page showed from the last one
            return True
        project = self.document.view
        for r in refs:
            kind, key = parse_ref(r)
            if kind == "lun":  # a LUN's room depends on its group's other LUNs
                try:
                    if ref_group(project.lun(key).group_id) in change.refs:
                        return True
                except KeyError:
                    return True
                if change.affects(edits.WORKLOADS):
                    return True
            elif kind == "group" and change.affects(edits.LAYOUT, edits.WORKLOADS):
                return True
            elif kind == "drive" and change.affects(edits.GROUPS):
                return True
        return False

    def apply(self, op: edits.Edit) -> bool:
        op = confirm_deletion(self, self.document, op)  # a deletion that leaves events dangling asks
        if op is None:
            self.message.emit(tr("Nothing deleted"))
            return False
        why = self.document.try_apply(op)
        if why:
            self.message.emit(tr("Cannot {what}: {why}").format(what=op.text[:1].lower() + op.text[1:], why=why))
            # put the editors back to the model's values, on both pages: a refused cache value
            # or feature stayed in the Array page's editors (the page is rebuilt on CACHE changes only)
            QTimer.singleShot(0, self.refresh)
            QTimer.singleShot(0, self.refresh_array)
            return False
        self.message.emit(op.text)
        return True

    def _form(self) -> PropertyForm:
        """A form whose editors' refusals (a LUN list typed as "abc") reach the status bar."""
        form = PropertyForm()
        form.refused.connect(self.message.emit)
        return form

    def _links(self, rows: list[tuple[str, str]]) -> QListWidget:
        """A short list whose rows select the object they name (a list, not wrapped rich text:
        cheap to build with a hundred workloads, and it never widens the dock)."""
        lst = QListWidget()
        lst.setObjectName("links")
        lst.setUniformItemSizes(True)
        lst.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        lst.setTextElideMode(Qt.ElideRight)
        for ref, text in rows:
            it = QListWidgetItem(text)
            it.setData(Qt.UserRole, ref)
            it.setToolTip(text)
            lst.addItem(it)
        row_h = lst.fontMetrics().height() + 6
        lst.setFixedHeight(min(len(rows), 6) * row_h + 2 * lst.frameWidth() + 2)
        lst.itemClicked.connect(lambda it: self.refsSelected.emit([it.data(Qt.UserRole)]))
        lst.itemActivated.connect(lambda it: self.refsSelected.emit([it.data(Qt.UserRole)]))
        return lst

    # ---------------------------------------------------------------- selection page
    def refresh(self) -> None:
        self.raid_combo = self.create_group_button = None
        self.new_lun_form = self.create_lun_button = None
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(8, 8, 8, 8)
        refs = self.selection.refs()
        kinds: dict[str, list] = {}
        for r in refs:
            k, v = parse_ref(r)
            kinds.setdefault(k, []).append(v)
        project = self.document.view
        if not refs:
            self._project_section(lay)
        elif set(kinds) == {"drive"}:
            self._drives_section(lay, kinds["drive"])
        elif len(refs) == 1 and "enclosure" in kinds:
            self._enclosure_section(lay, kinds["enclosure"][0])
        elif len(refs) == 1 and "group" in kinds and any(g.id == kinds["group"][0] for g in project.groups):
            self._group_section(lay, kinds["group"][0])
        elif len(refs) == 1 and "lun" in kinds and any(l.id == kinds["lun"][0] for l in project.luns):
            self._lun_section(lay, kinds["lun"][0])
        elif len(refs) == 1 and "workload" in kinds and any(w.id == kinds["workload"][0] for w in project.workloads):
            self._workload_section(lay, kinds["workload"][0])
        elif "enclosure" in kinds and "drive" in kinds and len(kinds) == 2:
            self._drives_section(lay, kinds["drive"])
        elif len(refs) == 1 and "event" in kinds and self._current_event(kinds["event"][0]) is not None:
            self._event_section(lay, kinds["event"][0])
        else:
            lay.addWidget(_title(", ".join(refs[:4]) + (" …" if len(refs) > 4 else "")))
            lay.addWidget(_note(tr("Select drives, a {group}, a LUN or a workload to edit it.").format(
                group=group_noun(self.document, in_sentence=True))))
        lay.addStretch(1)
        self.selection_page.set_body(body)

    def _project_section(self, lay: QVBoxLayout) -> None:
        p, platform = self.document.view, self.document.platform
        lay.addWidget(_title(tr("Project")))
        form = self._form()
        controllers = ", ".join(tr("{name} ({cores})").format(name=c.name, cores=tr_count(c.cores, "{n} core", "{n} cores"))
                                for c in platform.controllers)
        back_end = tr("{buses} of {speed} MB/s, up to {enclosures} each").format(
            buses=tr_count(platform.buses, "{n} bus", "{n} buses"), speed=f"{platform.bus_mb_s:g}",
            enclosures=tr_count(platform.max_enclosures_per_bus, "{n} enclosure", "{n} enclosures"))
        form.set_properties([(s, getattr(p.info, s.key)) for s in INFO_SPECS],
                            read_only=[(tr("Platform"), f"{platform.name}"), (tr("Firmware"), platform.firmware or "–"),
                                       (tr("Controllers"), controllers), (tr("Back end"), back_end)])
        form.committed.connect(lambda k, v: self.apply(edits.SetProjectInfo(**{k: v})))
        lay.addWidget(form)
        self._workloads_list(lay)
        lay.addWidget(_note(tr("Drag drives from the palette into slots and enclosures onto buses. "
                               "Select drives (click, Ctrl+click or drag a rubber band) to make a RAID group.")))

    def _workloads_list(self, lay: QVBoxLayout) -> None:
        p = self.document.view
        box = QGroupBox(tr("Host workloads"))
        v = QVBoxLayout(box)
        if not p.workloads:
            v.addWidget(_note(tr("None yet: select a LUN and add a workload to it.")))
        if p.workloads:
            v.addWidget(self._links([(ref_workload(w.id), f"{w.name or w.id}: {_workload_summary(w)}")
                                     for w in p.workloads]))
        lay.addWidget(box)

    def _drives_section(self, lay: QVBoxLayout, locs: list[str]) -> None:
        project, catalog = self.document.view, self.document.catalog
        drives = [project.drives[l] for l in locs if l in project.drives]
        if len(drives) == 1:
            d = drives[0]
            dt = catalog.drives.get(d.type_id)
            g = project.group_of_drive(d.location)
            lay.addWidget(_title(tr("Drive {location}").format(location=d.location)))
            form = self._form()
            ro = [(tr("Type"), dt.name if dt else d.type_id)]
            if dt:
                ro += [(tr("Class"), dt.speed_class), (tr("Capacity"), format_capacity(dt.capacity_gb)),
                       (tr("Streaming"), f"{dt.seq_mb_s:g} MB/s"), (tr("Random I/O"), f"{dt.random_ms:g} ms")]
            ro.append((group_noun(self.document), f"{self._group_name(g)} ({g.math.label})" if g else tr("none")))
            spec = SettingSpec("hot_spare", tr("Hot spare"), "bool", False,
                               help=tr("A hot spare takes over a failed drive's data (the rebuild writes to it)"))
            form.set_properties([] if g else [(spec, d.hot_spare)], read_only=ro)
            form.committed.connect(lambda _k, v, loc=d.location: self.apply(edits.SetHotSpare(loc, bool(v))))
            lay.addWidget(form)
            if g:
                b = QPushButton(tr("Show {group}").format(group=self._group_name(g)))
                b.clicked.connect(lambda: self.refsSelected.emit([ref_group(g.id)]))
                lay.addWidget(b)
        else:
            lay.addWidget(_title(tr("{n} drives selected").format(n=len(drives))))
            counts: dict[str, int] = {}
            for d in drives:
                name = catalog.drives[d.type_id].name if d.type_id in catalog.drives else d.type_id
                counts[name] = counts.get(name, 0) + 1
            lay.addWidget(_note("; ".join(f"{n} × {t}" for t, n in counts.items()) or tr("Only empty slots.")))
        if not drives:
            return
        # create a RAID group of a type the selection and platform allow
        box = QGroupBox(tr("Create {group}").format(group=group_noun(self.document)))
        v = QVBoxLayout(box)
        allowed = edits.allowed_raid_types(project, catalog, [d.location for d in drives])
        combo = guard_wheel(QComboBox())
        combo.setObjectName("raid_type")
        first_ok = fill_raid_combo(combo, allowed)
        button = QPushButton(tr("Create group"))
        button.setObjectName("create_group")
        reasons = sorted({w for w in allowed.values() if w})
        if first_ok < 0:
            button.setEnabled(False)
            v.addWidget(_note(tr("No RAID type fits: {reasons}").format(
                reasons=reasons[0] if len(reasons) == 1 else "; ".join(reasons[:3]))))
        row = QHBoxLayout()
        row.addWidget(combo, 1)
        row.addWidget(button)
        v.addLayout(row)

        def create() -> None:
            rt = RaidType(combo.currentData())
            op = edits.CreateRaidGroup(rt, [d.location for d in drives])
            if self.apply(op):
                self.refsSelected.emit([ref_group(op.group_id)])

        button.clicked.connect(create)
        self.raid_combo, self.create_group_button = combo, button
        lay.addWidget(box)
        # spares / removal
        row = QHBoxLayout()
        spare = QPushButton(tr("Mark hot spare") if not all(d.hot_spare for d in drives) else tr("Unmark hot spare"))
        to = not all(d.hot_spare for d in drives)
        spare.clicked.connect(lambda: self.apply(edits.Batch([edits.SetHotSpare(d.location, to) for d in drives],
                                                           f"{'Mark' if to else 'Unmark'} {len(drives)} hot spare(s)")))
        spare.setEnabled(all(project.group_of_drive(d.location) is None for d in drives))
        remove = QPushButton(tr("Remove drives") if len(drives) > 1 else tr("Remove drive"))
        remove.clicked.connect(lambda: self.apply(edits.Batch([edits.RemoveDrive(d.location) for d in drives],
                                                            f"Remove {len(drives)} drive(s)")))
        row.addWidget(spare)
        row.addWidget(remove)
        lay.addLayout(row)

    def _enclosure_section(self, lay: QVBoxLayout, enc_id: str) -> None:
        project, platform = self.document.view, self.document.platform
        try:
            e = project.enclosure(enc_id)
        except KeyError:
            lay.addWidget(_note(tr("Enclosure {id} no longer exists.").format(id=enc_id)))
            return
        et = platform.enclosure_types.get(e.type_id)
        n = sum(1 for d in project.drives.values() if d.enclosure == enc_id)
        lay.addWidget(_title(tr("Enclosure {id}").format(id=enc_id)))
        form = self._form()
        form.set_properties([], read_only=[
            (tr("Type"), et.name if et else e.type_id), (tr("Bus"), str(e.bus)), (tr("Position"), str(e.position)),
            (tr("Slots"), tr("{n} of {slots} used").format(n=n, slots=et.slots if et else "?")),
            (tr("Takes"), "/".join(i.value for i in et.interfaces) if et else "–")])
        lay.addWidget(form)
        b = QPushButton(tr("Remove enclosure"))
        b.clicked.connect(lambda: self.apply(edits.RemoveEnclosure(enc_id)) and self.refsSelected.emit([]))
        lay.addWidget(b)

    def _group_name(self, g) -> str:
        """"Disk Group 3" on a Dell MD, "RAID Group 3" on a CLARiiON (its name if it has one)."""
        return group_title(self.document, g.id, g.name)

    def _group_section(self, lay: QVBoxLayout, gid: int) -> None:
        project, catalog, platform = self.document.view, self.document.catalog, self.document.platform
        g = project.group(gid)
        cap = group_capacity(project, catalog, g)
        per = member_capacity_gb(project, catalog, g)
        lay.addWidget(_title(f"{self._group_name(g)}: {g.math.label}"))
        form = self._form()
        ro = [(tr("RAID type"), g.raid.label), (tr("Drives"), f"{g.width}: {', '.join(g.drives)}"),
              (tr("Per drive"), format_capacity(per)), (tr("Raw"), format_capacity(cap.raw_gb)),
              (tr("Usable"), format_capacity(cap.usable_gb)), (tr("Allocated"), format_capacity(cap.allocated_gb)),
              (tr("Free"), format_capacity(cap.free_gb)),
              (tr("Write penalty"), tr("{n} back-end I/Os per random write").format(n=g.math.write_penalty)),
              (tr("Survives"), tr("{n} drive failure(s)").format(n=g.math.failures_tolerated))]
        editable = [(SettingSpec("name", tr("Name"), "str", ""), g.name)]
        options = edits.stripe_options(project, catalog, g.raid, g.width)
        if options:  # RAID 50/60 spans, a distributed group's stripe: the value in use (0 = level default)
            default = edits.default_stripe(project, catalog, g.raid, g.width)
            what = tr("drives per span") if g.raid.spanned else tr("drives per stripe (data + parity)")
            # labelled as in the Create dialog: "16+2 (18 drives) (platform default)", "3 spans of 8 drives"
            labels = tuple(stripe_label(g.raid, g.width, s) + (tr(" (platform default)") if s == default else "")
                           for s in options)
            editable.append((SettingSpec(
                "stripe", tr("Stripe"), "choice", g.math.span_width, unit=tr("drives"), choices=options,
                choice_labels=labels, help=tr("{what}; the platform's default: {d}").format(
                    what=what, d=default if default else tr("none (the level's default geometry)"))),
                g.math.span_width))
        form.set_properties(editable, read_only=ro)
        form.committed.connect(lambda k, v: self.apply(edits.SetGroupFields(gid, **{k: v})))
        self.group_form = form
        self._reliability_box(lay, gid)  # (above the long member list: what a failure costs)
        lay.addWidget(form)
        # LUNs
        box = QGroupBox(tr("LUNs"))
        v = QVBoxLayout(box)
        if project.luns_in_group(gid):
            v.addWidget(self._links([(ref_lun(l.id), f"{l.label}: {format_capacity(l.capacity_gb)}, {l.owner}")
                                     for l in project.luns_in_group(gid)]))
        else:
            v.addWidget(_note(tr("No LUNs bound yet.")))
        lay.addWidget(box)
        # new LUN
        new = QGroupBox(tr("Create LUN"))
        nv = QVBoxLayout(new)
        specs = lun_specs(self.document, cap.free_gb, True)
        values: dict[str, Any] = {s.key: s.default for s in specs}
        # down to the box's 2 decimals: rounded up, the default was more than the group holds
        # (marked red, and Create LUN refused "410,666.7 GB free; the LUN needs 410,666.7 GB")
        values["capacity_gb"] = math.floor(max(cap.free_gb, 0.0) * 100.0) / 100.0
        nform = self._form()
        nform.set_properties([(s, values[s.key]) for s in specs])
        nform.committed.connect(lambda k, val: values.__setitem__(k, val))
        nv.addWidget(nform)
        button = QPushButton(tr("Create LUN"))
        button.setObjectName("create_lun")
        button.setEnabled(cap.free_gb > 0)

        def create() -> None:
            _flush(nform)
            # only what differs from the platform's default is stored with the LUN
            settings = {k: values[k] for k, spec in platform.lun_settings.items() if values[k] != spec.default}
            op = edits.CreateLun(gid, float(values["capacity_gb"]), values["owner"], settings,
                               name=values.get("name", ""))
            if self.apply(op):
                self.refsSelected.emit([ref_lun(op.lun_id)])

        button.clicked.connect(create)
        nv.addWidget(button)
        self.new_lun_form, self.create_lun_button = nform, button
        self.new_lun_values = values
        lay.addWidget(new)
        b = QPushButton((tr("Delete {group} and its LUNs") if project.luns_in_group(gid) else tr("Delete {group}"))
                        .format(group=self._group_name(g)))
        b.clicked.connect(lambda: self.apply(edits.DeleteRaidGroup(gid)) and self.refsSelected.emit([]))
        lay.addWidget(b)

    def _reliability_box(self, lay: QVBoxLayout, gid: int) -> None:
        """The group's rebuild under the planned load, MTTDL and URE risk (app/engine/reliability.py)."""
        self.reliability_form = None
        rel = self.result.reliability.get(gid) if self.result is not None else None
        if rel is None:
            return
        box = QGroupBox(tr("Reliability ({scenario})").format(scenario=self.result.scenario))
        v = QVBoxLayout(box)
        rform = PropertyForm()
        ure = format_chance(rel.p_ure)
        if rel.p_ure is not None:
            ure = (tr("{chance}, corrected by the 2nd parity") if rel.ure_covered
                   else tr("{chance}, the sector is lost")).format(chance=ure)
        rows = [(tr("Rebuild under load"), format_duration(rel.mttr_h)), (tr("How"), rel.basis),
                (tr("Rebuild on idle drives"), format_duration(rel.mttr_idle_h)),
                (tr("MTTDL"), format_mttdl(rel.mttdl_h))]
        if rel.critical_h is not None:
            rows.append((tr("Critical stripes first"),
                         tr("{time} exposed to a 3rd failure").format(time=format_duration(rel.critical_h))))
        rows += [(tr("Read per rebuild"), format_capacity(rel.read_gb)), (tr("URE during a rebuild"), ure)]
        rform.set_properties([], read_only=rows)
        v.addWidget(rform)
        lay.addWidget(box)
        self.reliability_form = rform

    def _lun_section(self, lay: QVBoxLayout, lid: int) -> None:
        project, catalog = self.document.view, self.document.catalog
        lun = project.lun(lid)
        try:
            g = project.group(lun.group_id)
            free = group_capacity(project, catalog, g).free_gb + lun.capacity_gb
            where = f"{self._group_name(g)} ({g.math.label})"
        except KeyError:
            free, where = lun.capacity_gb, tr("{group} (missing)").format(group=group_title(self.document, lun.group_id))
        lay.addWidget(_title(lun.label))
        form = self._form()
        specs = lun_specs(self.document, free, False)
        vals = {"name": lun.name, "capacity_gb": lun.capacity_gb, "owner": lun.owner}
        items = [(s, vals[s.key] if s.key in vals else lun.settings.get(s.key, s.default)) for s in specs]
        form.set_properties(items, read_only=[(group_noun(self.document), where)])

        def commit(k: str, v: Any) -> None:
            if k in vals:
                self.apply(edits.SetLunFields(lid, **{k: v}))
            else:
                self.apply(edits.SetLunFields(lid, settings={k: v}))

        form.committed.connect(commit)
        self.lun_form = form
        lay.addWidget(form)
        box = QGroupBox(tr("Host workloads on this LUN"))
        v = QVBoxLayout(box)
        using = [w for w in project.workloads if lid in w.luns]
        if using:
            v.addWidget(self._links([(ref_workload(w.id), f"{w.name or w.id}: {_workload_summary(w)}")
                                     for w in using]))
        add = QPushButton(tr("Add workload"))
        add.setObjectName("add_workload")
        # the new workload's profile: a template (OLTP, DSS, mail ...) or the editors' defaults
        self.add_template_box = template_combo(blank=tr("No template (8 KB, 67% reads, random)"))

        def add_workload() -> None:
            w = new_workload(project, lid, self.add_template_box.currentData())
            if self.apply(edits.AddWorkload(w)):
                self.refsSelected.emit([ref_workload(w.id)])

        add.clicked.connect(add_workload)
        row = QHBoxLayout()
        row.addWidget(self.add_template_box, 1)
        row.addWidget(add)
        v.addLayout(row)
        lay.addWidget(box)
        b = QPushButton(tr("Delete {lun}").format(lun=lun.label))
        b.clicked.connect(lambda: self.apply(edits.DeleteLun(lid)) and self.refsSelected.emit([ref_group(lun.group_id)]))
        lay.addWidget(b)

    def _workload_section(self, lay: QVBoxLayout, wid: str) -> None:
        w = self.document.view.workload(wid)
        lay.addWidget(_title(tr("Workload {name}").format(name=w.name or w.id)))
        form = self._form()
        id_spec = SettingSpec("id", tr("Id"), "str", "", help=tr("A short word that names the workload in files and events"))
        form.set_properties([(id_spec, w.id)] + [(s, getattr(w, s.key)) for s in WORKLOAD_SPECS
                                                 if _shown_for(s.key, w)])

        def commit(k: str, v: Any) -> None:
            if k == "id":
                op = edits.RenameWorkload(wid, v)
                if self.apply(op):
                    self.refsSelected.emit([ref_workload(op.new)])
            else:
                self.apply(edits.EditWorkload(wid, **{k: v}))

        form.committed.connect(commit)
        self.workload_form = form
        lay.addWidget(form)
        lay.addWidget(apply_row(self, w))  # a template's profile in one undoable edit
        b = QPushButton(tr("Remove workload"))
        b.clicked.connect(lambda: self.apply(edits.RemoveWorkload(wid)) and self.refsSelected.emit([]))
        lay.addWidget(b)

    def _current_event(self, event_id: str):
        try:
            return self.document.view.scenario().event(event_id)
        except KeyError:
            return None

    def _event_section(self, lay: QVBoxLayout, event_id: str) -> None:
        """A scheduled operation of the current scenario: its start and priority are edited here
        (as on the timeline); its other fields are shown (the timeline's Edit... changes them)."""
        ev = self._current_event(event_id)
        lay.addWidget(_title(f"{ev.label_text or type(ev).__name__} {ev.id}"))
        specs = [(SettingSpec("start_h", tr("Start"), "time", 0.0, minimum=0, maximum=MAX_START_H,
                              help=tr("From the start of the plan: h:mm, d hh:mm or decimal hours")), ev.start_h)]
        choice = priority_choice(self.document.platform, ev)
        if choice is not None and choice.choices:
            # the platform's levels; a level it lacks is shown after them, marked "(not offered)"
            # (properties._choice_editor), and one spelled in another case as the platform's
            specs.append((SettingSpec("priority", tr("Priority"), "choice", choice.choices[0], choices=choice.offered,
                                      help=tr("The Priority advisor compares them for this operation")), choice.selected))
        form = self._form()
        shown = {"id", "start_h", "priority", "kind"}
        others = [(EVENT_FIELD_LABELS.get(f.name, f.name), format_event_field(f.name, getattr(ev, f.name)))
                  for f in dataclass_fields(ev) if f.name not in shown and not f.name.startswith("_")]
        form.set_properties(specs, read_only=others)

        def commit(k: str, v: Any) -> None:
            op = edits.MoveEvent(event_id, v) if k == "start_h" else edits.SetEventPriority(event_id, v)
            op.mergeable = bool(getattr(form.editors.get(k), "stepping", False))  # arrow steps only
            self.apply(op)

        form.committed.connect(commit)
        form.editors["start_h"].refused.connect(lambda why: self.message.emit(
            tr("Cannot move {event}: {why}").format(event=describe_event(ev, self.document.platform), why=why)))
        self.event_form = form
        lay.addWidget(form)
        self.duration_label = QLabel()
        self.duration_label.setObjectName("predicted_duration")
        self.duration_label.setWordWrap(True)
        self.duration_label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self._duration_event = event_id
        lay.addWidget(self.duration_label)
        self._show_duration()
        lay.addWidget(_note(tr("Predicted phases and durations are on the timeline; the Priority advisor "
                               "compares every priority against the workloads' response-time target.")))

    # ---------------------------------------------------------------- array page
    def refresh_array(self) -> None:
        project, platform = self.document.view, self.document.platform
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(8, 8, 8, 8)
        box = QGroupBox(tr("Cache ({platform})").format(platform=platform.name))
        v = QVBoxLayout(box)
        form = self._form()
        form.set_properties([(spec, project.cache.get(k, spec.default)) for k, spec in platform.cache_settings.items()])
        form.committed.connect(
            lambda k, val: self.apply(edits.SetCacheSetting(k, val, platform.cache_settings[k].label.lower())))
        self.cache_form = form
        v.addWidget(form)
        if not platform.cache_settings:
            v.addWidget(_note(tr("This platform has no cache settings in its preset.")))
        lay.addWidget(box)
        fbox = QGroupBox(tr("Premium features"))
        fv = QVBoxLayout(fbox)
        self.feature_boxes: dict[str, QCheckBox] = {}
        for fid, spec in platform.features.items():
            cb = QCheckBox(spec.name)
            cb.setObjectName(f"feature_{fid}")
            cb.setChecked(bool(project.features.get(fid, False)))
            cb.toggled.connect(lambda on, f=fid: self.apply(edits.SetFeature(f, on)))
            tip = spec.description + ("\n" + tr("Source: {source}").format(source=cite(spec.source)) if spec.source else "")
            cb.setToolTip(tip)
            fv.addWidget(cb)
            text = spec.description
            if spec.reboot_minutes:
                text += " " + tr("Controller reboot: about {duration}. To enable it during the plan, add a "
                                 "Feature enable event on the timeline.").format(
                    duration=format_duration(spec.reboot_minutes / 60))
            fv.addWidget(_note(text))
            self.feature_boxes[fid] = cb
        if not platform.features:
            fv.addWidget(_note(tr("This platform offers no premium features.")))
        lay.addWidget(fbox)
        self.capacity_box = capacity_box(project, self.document.catalog)
        lay.addWidget(self.capacity_box)
        lay.addStretch(1)
        self.array_page.set_body(body)

    def refresh_capacity(self) -> None:
        old = self.capacity_box
        if old is None or old.parentWidget() is None:
            return
        lay = old.parentWidget().layout()
        self.capacity_box = capacity_box(self.document.project, self.document.catalog)
        lay.replaceWidget(old, self.capacity_box)
        old.deleteLater()


def fill_raid_combo(combo: QComboBox, allowed: dict) -> int:
    """The platform's RAID types in `combo`, those the drives cannot form disabled (the reason as
    their tooltip), the preferred protected one chosen (RAID 5 where allowed, never RAID 0 while a
    protected level fits). Returns its index, -1 when none fits."""
    preferred = edits.preferred_raid_type(allowed)
    chosen = -1
    for rt, why in allowed.items():
        combo.addItem(f"{rt.label}", rt.value)
        i = combo.count() - 1
        if why:
            item = combo.model().item(i)
            item.setEnabled(False)
            item.setToolTip(why)
        if rt == preferred:
            chosen = i
    combo.setCurrentIndex(max(chosen, 0))
    return chosen


def _esc(text: str) -> str:
    import html
    return html.escape(str(text))


def _flush(form: PropertyForm) -> None:
    """Commit editors that still have focus (the user clicked a button without leaving the field)."""
    for ed in form.editors.values():
        if hasattr(ed, "editingFinished"):
            ed.editingFinished.emit()


def _shown_for(key: str, w: Workload) -> bool:
    """Think time is a closed loop's: an open workload's editor leaves it out (unless it was set,
    so the user can see and clear what validation warns about)."""
    return key != "think_ms" or w.mode == "closed" or w.think_ms != 0


def _workload_summary(w: Workload) -> str:
    luns = ", ".join(map(str, w.luns)) or tr("no LUNs")
    load = (tr("{iops} IOPS").format(iops=f"{w.iops:,.0f}") if w.mode == "open"
            else tr("{n} outstanding").format(n=w.outstanding))
    if w.mode == "closed" and w.think_ms:
        load += ", " + tr("{ms} ms think time").format(ms=f"{w.think_ms:g}")
    return tr("{load}, {read}% read, {kb} KB on LUN {luns}").format(load=load, read=f"{w.read_pct:g}",
                                                                    kb=f"{w.io_kb:g}", luns=luns)


def _title(text: str) -> QLabel:
    lab = QLabel(text)
    f = lab.font()
    f.setBold(True)
    f.setPointSizeF(f.pointSizeF() * 1.15)
    lab.setFont(f)
    lab.setWordWrap(True)
    return lab


def _note(text: str) -> QLabel:
    lab = QLabel(text)
    lab.setWordWrap(True)
    pal = lab.palette()  # a palette, not a style sheet: style sheets make every rebuild slow
    pal.setColor(QPalette.WindowText, mix(pal.color(QPalette.Window), pal.color(QPalette.WindowText), 0.7))
    lab.setPalette(pal)
    lab.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Minimum)
    return lab


class _Scroll(QScrollArea):
    def __init__(self):
        super().__init__()
        accessible(self, "Inspector page")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)

    def set_body(self, body: QWidget) -> None:
        # group boxes pass their wrapped labels' height-for-width up to the page
        for box in body.findChildren(QGroupBox):
            sp = box.sizePolicy()
            sp.setHeightForWidth(True)
            box.setSizePolicy(sp)
        old = self.takeWidget()
        self.setWidget(body)
        if old is not None:
            old.deleteLater()
        self._fit_height()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        QTimer.singleShot(0, self._fit_labels)

    def _fit_labels(self) -> None:
        """Wrapped labels need more height when the dock is narrow: give each the height its text
        needs at its width, so the page scrolls instead of squeezing rows on each other."""
        body = self.widget()
        if body is None:
            return
        for lab in body.findChildren(QLabel):
            if lab.wordWrap() and lab.width() > 20:
                need = lab.heightForWidth(lab.width())
                if need > 0 and lab.minimumHeight() != need:
                    lab.setMinimumHeight(need)
