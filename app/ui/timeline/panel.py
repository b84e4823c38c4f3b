"""The Timeline dock: a toolbar (add, delete, priority, start, play) over the Gantt view.

Every edit is an undoable operation applied through the Document (app.domain.edits: AddEvent,
RemoveEvent, MoveEvent, SetEventPriority, SetEventFields). The panel redraws from the project at
once (so a new event shows where it starts) and again when the engine's prediction arrives.
"""
from __future__ import annotations

import copy
from typing import Callable

from PySide6.QtCore import QPoint, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QLabel, QMenu, QSizePolicy, QToolButton, QVBoxLayout, QWidget,
)

from app.domain import edits
from app.domain.formatting import format_time
from app.domain.priorities import offered_priorities, priority_choice
from app.domain.project import Event, LunMigration, VolumeMigration, describe_event
from app.domain.validation import event_issues
from app.ui.accessibility import accessible, label_for
from app.ui.charts.statustext import StatusText
from app.ui.document import follow_document
from app.ui.i18n import tr
from app.ui.message_names import MessageNames
from app.ui.properties import TimeSpinBox

from .dialogs import EventForm, available_kinds, default_event
from .gantt import GanttView
from .legend import PhaseLegend, legend_keys


def show_play_state(control, playing: bool) -> None:
    """A Play control (the timeline's button, the main toolbar's action: both checkable, with a
    text) as the cursor is: checked and "Pause" while it plays, "Play" otherwise."""
    control.blockSignals(True)
    control.setChecked(playing)
    control.setText(tr("Pause") if playing else tr("Play"))
    control.blockSignals(False)


class TimelinePanel(QWidget):
    selectionRequested = Signal(str)  # event id ("" = nothing)
    advisorRequested = Signal(str)  # event id

    def __init__(self, document=None, cursor=None, parent: QWidget | None = None,
                 notify: Callable[[str], None] | None = None):
        super().__init__(parent)
        self.document = None
        self.cursor = cursor
        self.result = None
        self._horizon_h: float | None = None
        self.notify = notify or (lambda text: self.message.setText(text))
        self.selected: str | None = None
        self.selected_workload: str | None = None  # a workload lane's (no event selected then)
        self._updating = False

        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        bar = QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 0)
        self.add_button = QToolButton(text=tr("Add"))
        self.add_button.setToolTip(tr("Schedule an operation or event at the cursor time"))
        self.add_button.setPopupMode(QToolButton.InstantPopup)
        self.add_menu = QMenu(self.add_button)
        self.add_menu.aboutToShow.connect(self._fill_add_menu)
        self.add_button.setMenu(self.add_menu)
        bar.addWidget(self.add_button)
        self.delete_button = QToolButton(text=tr("Delete"))
        self.delete_button.clicked.connect(lambda: self.selected and self.delete_event(self.selected))
        bar.addWidget(self.delete_button)
        self.edit_button = QToolButton(text=tr("Edit..."))
        self.edit_button.clicked.connect(lambda: self.selected and self.edit_event(self.selected))
        bar.addWidget(self.edit_button)
        priority_label = QLabel(tr("Priority"))
        bar.addWidget(priority_label)
        self.priority_box = QComboBox()
        label_for(priority_label, self.priority_box, tr("Priority of the selected operation"))
        self.priority_box.setMinimumContentsLength(7)
        self.priority_box.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.priority_box.activated.connect(self._priority_chosen)
        bar.addWidget(self.priority_box)
        start_label = QLabel(tr("Start"))
        bar.addWidget(start_label)
        self.start_box = TimeSpinBox()
        label_for(start_label, self.start_box, tr("Start of the selected operation"))
        self.start_box.setToolTip(tr("Start of the selected operation: h:mm, d hh:mm or decimal hours"))
        self.start_box.valueChanged.connect(self._start_edited)
        self.start_box.refused.connect(lambda why: self.notify(tr("Start not changed: {why}").format(why=why)))
        bar.addWidget(self.start_box)
        self.advisor_button = QToolButton(text=tr("Advisor"))
        self.advisor_button.setToolTip(tr("Compare the priorities of the selected operation"))
        self.advisor_button.clicked.connect(lambda: self.selected and self.advisorRequested.emit(self.selected))
        bar.addWidget(self.advisor_button)
        bar.addSpacing(12)
        self.play_button = QToolButton(text=tr("Play"))
        self.play_button.setToolTip(tr("Move the cursor through the plan (the canvas shows drive utilization)"))
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self._play_toggled)
        bar.addWidget(self.play_button)
        # texts that change while the cursor plays or an operation is dragged
        self.time_label = StatusText("0:00")
        accessible(self.time_label, tr("Cursor time"))
        # a fixed width the layout keeps: with StatusText's "Ignored" policy the layout placed the
        # message over it ("0:00start 1:15")
        self.time_label.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.time_label.setFixedWidth(self.time_label.fontMetrics().horizontalAdvance("00 d 00:00") + 8)
        bar.addWidget(self.time_label)
        bar.addSpacing(8)
        self.message = StatusText("", muted=True)
        bar.addWidget(self.message, 1)
        self.legend = PhaseLegend()
        bar.addWidget(self.legend)
        lay.addLayout(bar)

        self.gantt = GanttView(self)
        lay.addWidget(self.gantt, 1)
        self.gantt.eventClicked.connect(self.select)
        self.gantt.workloadClicked.connect(self.select_workload)
        self.gantt.moveRequested.connect(self.move_event)
        self.gantt.editRequested.connect(self.edit_event)
        self.gantt.contextRequested.connect(self._context_menu)
        self.gantt.backgroundContext.connect(self._background_menu)
        self.gantt.dragging.connect(lambda _eid, t: self.message.setText(tr("start {time}").format(time=format_time(t))))
        self.gantt.dragFinished.connect(lambda _eid: self.message.setText(""))

        # no shortcut of its own: in the main window Edit > Delete (Del) deletes the selection,
        # which holds the selected operation ("op3"); a second Del shortcut would be ambiguous
        self.delete_action = QAction(tr("Delete operation"), self)
        self.delete_action.triggered.connect(lambda: self.selected and self.delete_event(self.selected))
        self.addAction(self.delete_action)

        if cursor is not None:
            self.set_cursor_model(cursor)
        if document is not None:
            self.set_document(document)
        self._update_controls()

    # ---------------------------------------------------------------- wiring
    def set_document(self, document) -> None:
        follow_document(self.document, document, self._doc_changed)
        self.document = document
        self.result = None
        self.refresh()

    def set_cursor_model(self, cursor) -> None:
        self.cursor = cursor
        cursor.moved.connect(self._cursor_moved)
        cursor.playingChanged.connect(self._playing_changed)
        self.gantt.cursorMoved.connect(cursor.set_time)

    @property
    def project(self):
        # the current scenario's configuration (its own, if it has one): LUNs, drives, workloads
        return self.document.view if self.document is not None else None

    @property
    def platform(self):
        return self.document.platform if self.document is not None else None

    def set_result(self, result, horizon_h: float | None = None) -> None:
        """The engine's prediction for the current scenario arrived. The cursor may go as far as
        `horizon_h` (default: the prediction's horizon; longer with a longer pinned baseline)."""
        self.result = result
        self._horizon_h = horizon_h
        self.gantt.set_stale(False)
        self.refresh()

    def set_bands(self, bands, result) -> None:
        """The uncertainty bands sampled around `result` (None: none): the operations' durations
        read with their P10-P90 while that prediction is shown."""
        self.gantt.set_bands(bands, result)
        self.refresh()

    def set_stale(self, stale: bool, dim: bool = False) -> None:
        """A prediction is running (`stale`), or failed (`dim` too: the bars are dimmed now)."""
        self.gantt.set_stale(stale, dim)

    def _doc_changed(self, change=None) -> None:
        if change is not None and getattr(change, "aspects", None) is not None and not change.replaced:
            if not change.affects(edits.EVENTS, edits.SCENARIOS, edits.WORKLOADS):
                self.gantt.set_stale(True)  # the rows stand; the prediction is being redone
                return
        if self.selected and self.project is not None:
            try:
                self.project.scenario().event(self.selected)
            except KeyError:  # deleted, an add undone, another scenario (the window drops it from
                self.selected = None  # its selection too: MainWindow._drop_vanished_refs)
        if self.selected_workload and self.project is not None and not any(
                w.id == self.selected_workload for w in self.project.workloads):
            self.selected_workload = None
        self.gantt.set_stale(True)
        self.refresh()

    def refresh(self) -> None:
        project = self.project
        result = self.result
        if result is not None and project is not None and result.scenario != project.current_scenario:
            result = None
        self.gantt.set_data(project, result, platform=self.platform)
        self.legend.set_keys(legend_keys(result))
        self.gantt.select(self.selected, self.selected_workload)
        if self.cursor is not None and result is not None:
            self.cursor.set_horizon(self._horizon_h if self._horizon_h is not None else result.horizon_h)
        self._update_controls()

    # ---------------------------------------------------------------- selection
    def select(self, event_id: str) -> None:
        self.selected = event_id or None
        self.selected_workload = None
        self.gantt.select(self.selected)
        self._update_controls()
        self.selectionRequested.emit(event_id or "")

    def select_workload(self, workload_id: str) -> None:
        """A workload lane was clicked: the workload is selected (in the window: the inspector
        shows it, Delete removes it)."""
        self.selected, self.selected_workload = None, workload_id
        self.gantt.select(None, workload_id)
        self._update_controls()
        self.selectionRequested.emit(edits.ref_workload(workload_id))

    def show_selection(self, event_id: str | None, workload_id: str | None) -> None:
        """The window's selection changed elsewhere (canvas, tree, inspector): outline it here."""
        if (event_id, workload_id) != (self.selected, self.selected_workload):
            self.selected, self.selected_workload = event_id, (None if event_id else workload_id)
            self.gantt.select(self.selected, self.selected_workload)
            self._update_controls()

    def selected_event(self) -> Event | None:
        if not self.selected or self.project is None:
            return None
        try:
            return self.project.scenario().event(self.selected)
        except KeyError:
            return None

    def _update_controls(self) -> None:
        ev = self.selected_event()
        self._updating = True
        try:
            self.priority_box.clear()
            has_priority = ev is not None and hasattr(ev, "priority")
            if has_priority:
                choice = priority_choice(self.platform, ev)
                for level in choice.choices:
                    self.priority_box.addItem(choice.label(level), level)
                self.priority_box.setCurrentIndex(choice.choices.index(choice.selected))
            self.priority_box.setEnabled(has_priority)
            self.advisor_button.setEnabled(has_priority)
            self.start_box.setEnabled(ev is not None)
            # the text goes back to the model's value (or none): a refusal's red mark with it, also
            # when the value is the same (after switching scenario, valueChanged does not fire)
            self.start_box.clear_mark()
            if ev is not None:
                self.start_box.setValue(ev.start_h)  # puts the text back, even at the same value
            else:
                self.start_box.clear()  # the text only: no operation's start shows while none is selected
            self.delete_button.setEnabled(ev is not None)
            self.edit_button.setEnabled(ev is not None)
            self.delete_action.setEnabled(ev is not None)
        finally:
            self._updating = False

    # ---------------------------------------------------------------- edits (all undoable)
    def _apply(self, op) -> bool:
        if self.document is None:
            return False
        why = self.document.try_apply(op)
        if why:
            self.notify(why)
        return why is None

    def add_event(self, event: Event) -> str | None:
        """Add `event` to the current scenario; returns its id (filled in when empty)."""
        op = edits.AddEvent(event)
        if not self._apply(op):
            return None
        self.select(op.event.id)
        return op.event.id

    def move_event(self, event_id: str, start_h: float, mergeable: bool = False) -> bool:
        op = edits.MoveEvent(event_id, max(0.0, float(start_h)))
        op.mergeable = mergeable  # the Start box's arrow steps; a drag is one edit of its own
        ok = self._apply(op)
        if ok:
            name = describe_event(self.project.scenario().event(event_id), self.platform)
            self.notify(tr("{event} now starts at {time}").format(event=name, time=format_time(start_h)))
        return ok

    def set_priority(self, event_id: str, priority: str) -> bool:
        return self._apply(edits.SetEventPriority(event_id, priority))

    def delete_event(self, event_id: str) -> bool:
        # a deleted selected event leaves the selection through the document's change
        # (_doc_changed here, MainWindow._drop_vanished_refs for the window's)
        return self._apply(edits.RemoveEvent(event_id))

    def edit_event(self, event_id: str) -> None:
        try:
            ev = self.project.scenario().event(event_id)
        except KeyError:
            return
        form = EventForm(ev, self.project, self.platform, self,
                         title=tr("Edit {event}").format(event=describe_event(ev, self.platform)))
        if form.exec():
            values = form.changed_values()
            if values:
                self._apply(edits.SetEventFields(event_id, **values))

    def new_event_dialog(self, kind: str, start_h: float | None = None, **preset) -> str | None:
        """Ask for the fields of a new `kind` event (pre-filled with `preset`) and add it."""
        if self.project is None:
            return None
        t = self.cursor.time_h if (start_h is None and self.cursor is not None) else (start_h or 0.0)
        ev = default_event(kind, self.project, self.platform, t, **preset)  # what the rules accept
        why = self._no_target(ev, [src for src, _ in preset.get("moves", ())])
        created = None
        if why and isinstance(ev, LunMigration):  # nowhere to go: offer to create the destination
            from .destination import offer_destination

            created = offer_destination(self, self.document, ev.source_lun, why)
            if created is not None:
                ev.dest_lun, why = created, None
        if why:
            self.notify(tr("Cannot add {kind}: {why}").format(kind=ev.label_text, why=why))
            return None
        form = EventForm(ev, self.project, self.platform, self, title=tr("Add {kind}").format(kind=ev.label_text))
        if form.exec():
            return self.add_event(form.make_event())
        if created is not None:  # the migration was cancelled: so is the LUN made for it
            self.document.undo_stack.undo()
        return None

    def _no_target(self, ev: Event, asked: list[int]) -> str | None:
        """Why a new migration cannot succeed: default_event found no valid destination (for a
        LUN migration, the rules' first objection). Volumes of a group left out for want of a
        target are reported, the others still scheduled."""
        if isinstance(ev, LunMigration):
            named = copy.copy(ev)
            named.id = self.project.scenario().new_event_id()  # the id it would get: the texts name it
            issues = event_issues(self.project, self.document.catalog, named)
            names = MessageNames(self.document)  # the rules write ids ("RG 3"): the notice names
            errors = [names.message_text(i.text, None) for i in issues if i.is_error]
            if errors:
                return tr("no LUN can be the destination of LUN {lun} ({why})").format(lun=ev.source_lun, why=errors[0])
        elif isinstance(ev, VolumeMigration):
            left = [src for src in asked if src not in {a for a, _ in ev.moves}]
            if left:
                luns = ", ".join(tr("LUN {id}").format(id=x) for x in left)
                if not ev.moves:
                    return tr("no unused LUN at least as large is free for {luns}").format(luns=luns)
                self.notify(tr("{kind}: {luns} left out (no unused LUN at least as large is free)").format(
                    kind=ev.label_text, luns=luns))
        return None

    def _priority_chosen(self, _index: int) -> None:
        if self._updating or not self.selected:
            return
        ev = self.selected_event()
        text = self.priority_box.currentData() or self.priority_box.currentText()
        if ev is not None and getattr(ev, "priority", text) != text:
            self.set_priority(self.selected, text)

    def _start_edited(self, value: float) -> None:
        if self._updating or not self.selected:
            return
        ev = self.selected_event()
        if ev is not None and abs(ev.start_h - value) > 1e-9:
            self.move_event(self.selected, value, mergeable=self.start_box.stepping)

    # ---------------------------------------------------------------- menus
    def _fill_add_menu(self, menu: QMenu | None = None, start_h: float | None = None) -> None:
        menu = menu or self.add_menu
        menu.clear()
        if self.project is None:
            return
        for kind in available_kinds(self.project, self.platform):
            cls = Event.registry[kind]
            menu.addAction(f"{cls.label_text}...", lambda k=kind: self.new_event_dialog(k, start_h))

    def _context_menu(self, event_id: str, pos: QPoint) -> None:
        menu = self.build_context_menu(event_id)
        if menu is not None:
            menu.exec(pos)

    def build_context_menu(self, event_id: str) -> QMenu | None:
        try:
            ev = self.project.scenario().event(event_id)
        except (KeyError, AttributeError):
            return None
        menu = QMenu(self)
        if hasattr(ev, "priority"):
            sub = menu.addMenu(tr("Priority"))
            for prio in offered_priorities(self.platform, ev.kind):
                act = sub.addAction(prio, lambda p=prio: self.set_priority(event_id, p))
                act.setCheckable(True)
                act.setChecked(prio == ev.priority)
            menu.addAction(tr("Priority advisor..."), lambda: self.advisorRequested.emit(event_id))
        menu.addAction(tr("Edit..."), lambda: self.edit_event(event_id))
        if self.cursor is not None:
            menu.addAction(tr("Start at the cursor"), lambda: self.move_event(event_id, self.cursor.time_h))
        menu.addSeparator()
        menu.addAction(tr("Delete"), lambda: self.delete_event(event_id))
        return menu

    def _background_menu(self, t: float, pos: QPoint) -> None:
        menu = QMenu(self)
        sub = menu.addMenu(tr("Add at {time}").format(time=format_time(t)))
        self._fill_add_menu(sub, t)
        menu.exec(pos)

    # ---------------------------------------------------------------- cursor / play
    def _cursor_moved(self, t: float) -> None:
        self.gantt.set_cursor(t)
        self.time_label.setText(format_time(t))

    def _play_toggled(self, on: bool) -> None:
        if self.cursor is None:
            return
        self.cursor.play() if on else self.cursor.pause()
        self._playing_changed(self.cursor.playing)  # a plan not predicted yet does not play

    def _playing_changed(self, playing: bool) -> None:
        show_play_state(self.play_button, playing)
