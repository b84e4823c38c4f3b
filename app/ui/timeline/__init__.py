"""Timeline, charts, live predictions, priority advisor and scenario comparison, plugged into the
main window by `install(window)` (listed in app.ui.main_window.PLUGINS).

    parts = install(window)      # also window.plugins["app.ui.timeline"]
    parts.live                   LiveSimulator: re-runs the engine off the GUI thread after edits
    parts.cursor                 TimeCursor shared by the timeline, the charts and the canvas
    parts.timeline, parts.charts, parts.advisor, parts.compare, parts.scenarios   the widgets

Docks: Timeline and Charts (bottom), Priority advisor (right), Scenario comparison (bottom,
tabbed with Messages). The context menus of the canvas (a drive: Fail drive..., its RAID group's
operations in a submenu) and of the RAID group/LUN tree (a LUN: Migrate to..., Bind...; a group:
Bind LUN..., Reallocate..., Volume migration group...) schedule operations; the Operations and
Scenario menus list the same.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from app.domain.edits import parse_ref
from app.ui.timeline.dialogs import failed_at, failed_drives
from app.ui.charts import values_at
from app.ui.i18n import QT_TR_NOOP, tr
from app.ui.screen_fit import scrolled
from app.ui.terms import group_noun, group_title


# the GUI-thread time one turn of the event loop may spend on a result's redraw steps (the first
# step always runs); the longest stall allowed is 50 ms and the paint comes after them
TURN_BUDGET_S = 0.020


@dataclass
class TimelineParts:
    window: Any
    live: Any
    cursor: Any
    timeline: Any
    charts: Any
    advisor: Any
    compare: Any
    scenarios: Any
    docks: dict = field(default_factory=dict)
    colour_drives: QAction | None = None
    play_action: QAction | None = None  # the main toolbar's (and Operations menu's) Play / Pause
    last_latency_ms: float | None = None  # edit -> curves redrawn, for the status bar / benchmark
    # (name, start, end) of each redraw step of the last result, time.perf_counter()
    step_marks: list = field(default_factory=list)
    redraws: int = 0
    _coloured: bool = False
    _had_baseline: bool = False
    _advisories: list | None = None
    _steps: list = field(default_factory=list)  # the redraw steps still to come for the newest result
    _step_s: dict = field(default_factory=dict)  # each step's last duration, seconds
    _turn: QTimer | None = None  # zero-interval: the next step on the next turn of the event loop

    # ------------------------------------------------------------ result handling
    def on_result(self, live) -> None:
        """A new prediction: redraw the charts, the timeline, the comparison, the canvas colours
        and the engine's advisories (Messages), in that order. A step runs in the current turn of
        the event loop when the turn's steps so far plus that step's last duration fit in
        TURN_BUDGET_S; otherwise it waits for the next turn, so that no turn holds the GUI thread
        for long (a pinned baseline, a huge plan, a slow minute). Usually all fit in one turn and
        the window paints once: a paint between steps cost GUI time and an X server round trip
        (the large plan: the redraw 2.5-4 ms shorter than with one step a turn, interleaved
        runs). The next turn is a zero-interval QTimer: it waits for pending input and due timers,
        where QTimer.singleShot(0) can run in the same turn. A newer result drops the steps left
        of an older one."""
        self.step_marks = []
        self._steps = [self._show_charts, self._show_timeline, self._show_comparison, self._show_colours,
                       self._show_advisories, self._show_reliability]
        self._next_step()

    def _next_step(self) -> None:
        turn_start = time.perf_counter()
        first = True  # a turn runs at least one step
        while self._steps and self.live.live is not None:
            step = self._steps[0]
            t0 = time.perf_counter()
            if (not first and t0 - turn_start + self._step_s.get(step.__name__, 0.0) > TURN_BUDGET_S
                    and self._turn is not None):
                self._turn.start()  # it would make this turn too long: the next turn
                return
            first = False
            self._steps.pop(0)
            step(self.live.live)
            end = time.perf_counter()
            self._step_s[step.__name__] = end - t0
            self.step_marks.append((step.__name__, t0, end))

    @property
    def step_ms(self) -> list[tuple[str, float]]:
        """(name, GUI-thread ms) of each redraw step of the last result."""
        return [(name, (end - start) * 1000.0) for name, start, end in self.step_marks]

    @property
    def redrawing(self) -> bool:
        """Steps of the newest result are still to come (tests and the benchmark wait for them)."""
        return bool(self._steps)

    def _show_charts(self, live) -> None:
        project = self.window.document.project
        self.charts.set_results(live.current, live.baseline, project=project, catalog=self.window.document.catalog)
        self.cursor.set_horizon(self._horizon(live))
        self.redraws += 1
        self.last_latency_ms = (time.perf_counter() - live.requested_at) * 1000.0
        self.charts.set_status(self.charts.status_label.text()
                               + "  ·  " + tr("updated in {total} ms (engine {engine} ms)").format(
                                   total=f"{self.last_latency_ms:.0f}", engine=f"{live.engine_s * 1000:.0f}"))

    @staticmethod
    def _horizon(live) -> float:
        """How far the cursor goes: the longer of the current scenario and the pinned baseline."""
        return max(live.current.horizon_h, live.baseline.horizon_h if live.baseline else 0.0)

    def _show_timeline(self, live) -> None:
        self.timeline.set_result(live.current, horizon_h=self._horizon(live))

    def _show_comparison(self, live) -> None:
        self.compare.set_results(live.current, live.baseline, self.window.document.project,
                                 self.window.document.catalog)
        pinned = live.baseline is not None
        if pinned != self._had_baseline:  # a baseline was just pinned (or cleared)
            self.docks["compare"].setVisible(pinned)
        self._had_baseline = pinned

    def _show_colours(self, _live) -> None:
        self.colour_canvas()

    def _show_advisories(self, live) -> None:
        messages = getattr(self.window, "messages", None)
        key = [(a.severity, a.where, a.text) for a in live.current.advisories]
        if messages is not None and hasattr(messages, "set_extra") and key != self._advisories:
            self._advisories = key  # the Messages dock refreshes (and may validate) only on change
            messages.set_extra("prediction", live.current.advisories)

    def _show_reliability(self, live) -> None:
        """The inspector shows a selected RAID group's reliability from the newest prediction."""
        inspector = getattr(self.window, "inspector", None)
        if inspector is not None and hasattr(inspector, "set_result"):
            inspector.set_result(live.current)

    def on_failed(self, message: str) -> None:
        from app.ui.message_names import MessageNames

        # the banners and the status bar name operations and workloads, as the Messages dock does
        first = MessageNames(self.window.document).message_text(message.splitlines()[0], None)
        # the curves, the comparison and the bars stay, dimmed under the reason (a new result
        # undims them); the banner says it, so the chart status line does not repeat it
        self.charts.set_stale(first)
        self.compare.set_stale(first)
        self.charts.set_status(tr("No prediction"))
        self.timeline.set_stale(True, dim=True)
        self.window.status(tr("No prediction: {why}").format(why=first))
        messages = getattr(self.window, "messages", None)
        if messages is not None and hasattr(messages, "set_extra") and not messages.prediction_blocked():
            # the engine itself failed (validation would have said so): its advisories are gone
            self._advisories = None
            messages.set_extra("prediction", [])

    def on_replaced(self) -> None:
        """A different project: no curve, bar, comparison or colour of the old one stays (the
        next prediction, or the reason there is none, is this project's)."""
        self.live.forget()
        self._steps = []
        self.charts.set_results(None)
        self.compare.set_results(None, None)
        self.timeline.set_result(None)
        self._advisories = None
        self.colour_canvas()

    def on_busy(self, busy: bool) -> None:
        self.timeline.set_stale(busy)
        if busy:
            self.charts.set_status(tr("Predicting..."))

    def colour_canvas(self, *_args) -> None:
        canvas = getattr(self.window, "canvas", None)
        if canvas is None or not hasattr(canvas, "set_drive_values"):
            return
        res = self.live.result
        if res is None or self.colour_drives is None or not self.colour_drives.isChecked():
            if self._coloured:  # back to RAID-group colours (once: a canvas refresh is not free)
                canvas.set_drive_values(None)
                self._coloured = False
            return
        self._coloured = True
        t = self.cursor.time_h
        project = self.window.document.project
        drives = values_at(res, "drive_pct", t)
        groups = values_at(res, "group_pct", t) if len(drives) < len(project.drives) else {}
        group_of = {loc: str(g.id) for g in project.groups for loc in g.drives}
        values: dict[str, float | None] = {}
        for loc in project.drives:
            v = drives.get(loc)
            if v is None:  # no series of its own: its RAID group's utilization
                v = groups.get(group_of.get(loc))
            values[loc] = None if v is None else max(0.0, min(100.0, v))
        # a failed drive does no I/O: its 0% is not an idle drive's (green "0" would say it is)
        canvas.set_drive_values(values, failed=failed_at(project, t))

    # ------------------------------------------------------------ selection
    def on_selection(self, refs: list[str]) -> None:
        focus = set()
        event_id = None
        project = self.window.document.project
        for ref in refs:
            kind, key = parse_ref(ref)
            if kind == "event":
                event_id = event_id or key
                focus.add(("progress_pct", key))
            elif kind == "group":
                focus.add(("group_pct", str(key)))
            elif kind == "drive":
                focus.add(("drive_pct", key))
            elif kind == "lun":
                try:
                    focus.add(("group_pct", str(project.lun(key).group_id)))
                except KeyError:
                    pass
            elif kind == "workload":
                focus.add(("response_ms", key))
        self.charts.set_focus(focus)
        # the timeline shows the window's event (or workload) selection, none included (a
        # selection with neither, e.g. after the selected one was deleted or its add undone)
        workloads = [key for kind, key in map(parse_ref, refs) if kind == "workload"]
        self.timeline.show_selection(event_id, workloads[0] if len(workloads) == 1 else None)
        if event_id:
            self.advisor.set_event(event_id, evaluate=self.docks["advisor"].isVisible())

    def on_timeline_selection(self, ref: str) -> None:
        """An operation ("op3") or a workload ("workload w1") was picked on the timeline ("": none)."""
        if ref:
            self.window.selection.set([ref])
            if parse_ref(ref)[0] == "workload":
                self.window.show_inspector()
        else:
            # clear only what the timeline selects (events, a workload), keep a canvas selection
            refs = [r for r in self.window.selection.refs() if parse_ref(r)[0] not in ("event", "workload")]
            self.window.selection.set(refs)

    def show_advisor(self, event_id: str) -> None:
        dock = self.docks["advisor"]
        dock.show()
        dock.raise_()
        self.advisor.set_event(event_id)

    # ------------------------------------------------------------ context menus (canvas, tree)
    def context_actions(self, menu: QMenu, refs: list[str]) -> None:
        """Add the operations to schedule on what was right-clicked (refs[0]) to `menu`: on a LUN
        (tree) its own, on a RAID group (tree) the group's and its LUNs' migrations, on a drive
        (canvas) its failure or replacement and, in a "RAID group N" submenu, its group's. Only
        the operation kinds the project's platform offers. Hook of the main window's canvas menu
        and of the RAID group/LUN tree's menu."""
        if not refs:
            return
        project = self.window.document.project
        kind, key = parse_ref(refs[0])
        entries: list = []
        if kind == "lun" and any(l.id == key for l in project.luns):
            entries = self._lun_entries(key)
        elif kind == "group" and any(g.id == key for g in project.groups):
            entries = self._group_entries(key, drive_failure=True)
        elif kind == "drive" and key in project.drives:
            entries = self._drive_entries(key)
            group = project.group_of_drive(key)
            sub = self._group_entries(group.id, drive_failure=False) if group is not None else []
            if sub:
                entries.append((group_title(self.window.document, group.id), sub))
        if entries:
            menu.addSeparator()
            _add_entries(menu, entries)

    def _offered(self, kind: str) -> bool:
        return kind in self.window.document.platform.operations

    def _dialog(self, kind: str, **preset):
        return lambda: self.timeline.new_event_dialog(kind, **preset)

    def _lun_entries(self, lun: int) -> list:
        # a migration's destination is prefilled when the entry is picked (default_event: the
        # best one the rules accept; a move's None target asks for one)
        out = []
        if self._offered("lun_migration"):
            out.append((tr("Migrate LUN {id} to...").format(id=lun), self._dialog("lun_migration", source_lun=lun)))
        if self._offered("bind"):
            out.append((tr("Bind LUN {id}...").format(id=lun), self._dialog("bind", lun=lun)))
        if self._offered("reallocate"):
            out.append((tr("Reallocate LUN {id}...").format(id=lun), self._dialog("reallocate", lun=lun)))
        if self._offered("volume_migration"):
            out.append((tr("Volume migration of LUN {id}...").format(id=lun),
                        self._dialog("volume_migration", moves=[[lun, None]])))
        return out

    def _group_entries(self, gid: int, drive_failure: bool) -> list:
        project = self.window.document.project
        luns = [l.id for l in project.luns_in_group(gid)]
        out: list = []
        if luns and self._offered("bind"):  # the form offers every LUN; the newest one first
            out.append((tr("Bind LUN..."), self._dialog("bind", lun=luns[-1])))
        if luns and self._offered("reallocate"):
            out.append((tr("Reallocate..."), self._dialog("reallocate", lun=luns[0])))
        if luns and self._offered("volume_migration"):
            out.append((tr("Volume migration group..."),
                        self._dialog("volume_migration", moves=[[l, None] for l in luns], parallel=True)))
        members = project.group(gid).drives
        if drive_failure and members and self._offered("drive_failure"):
            out.append((tr("Fail a drive of {group}...").format(group=group_title(self.window.document, gid)), self._dialog("drive_failure", drive=members[0])))
        if luns and self._offered("lun_migration"):
            out.append(None)
            out += [(tr("Migrate LUN {id} to...").format(id=l), self._dialog("lun_migration", source_lun=l))
                    for l in luns[:MENU_LUNS]]
            if len(luns) > MENU_LUNS:
                out.append((tr("{n} more LUNs: right-click them in the {groups} and LUNs tree").format(
                            n=len(luns) - MENU_LUNS, groups=group_noun(self.window.document, plural=True)),
                            None))
        return out

    def _drive_entries(self, loc: str) -> list:
        project = self.window.document.project
        failed_at = failed_drives(project).get(loc)  # failed in this scenario and not replaced
        out = []
        if failed_at is not None:
            out.append((tr("Replace drive {id}...").format(id=loc), self._dialog("drive_replacement", drive=loc)))
        elif project.group_of_drive(loc) is not None and self._offered("drive_failure"):
            out.append((tr("Fail drive {id}...").format(id=loc), self._dialog("drive_failure", drive=loc)))
        return out


MENU_LUNS = 8  # a RAID group's LUN entries in a menu; more are in the tree


def _add_entries(menu: QMenu, entries: list) -> None:
    """(text, slot) an action (slot None: a disabled note), (text, [entries]) a submenu, None a
    separator."""
    for entry in entries:
        if entry is None:
            menu.addSeparator()
            continue
        text, what = entry
        if isinstance(what, list):
            _add_entries(menu.addMenu(text), what)
        elif what is None:
            menu.addAction(text).setEnabled(False)
        else:
            menu.addAction(text, what)


def _arrange_docks(window, parts: "TimelineParts") -> None:
    """The plug-in's docks in the default arrangement (the window runs this on a first run and
    on View > Reset Layout, not over a layout the user saved)."""
    window.splitDockWidget(parts.docks["timeline"], parts.docks["charts"], Qt.Vertical)
    messages_dock = getattr(window, "messages_dock", None)
    inspector_dock = getattr(window, "inspector_dock", None)
    if messages_dock is not None and inspector_dock is not None:
        window.addDockWidget(Qt.RightDockWidgetArea, messages_dock)
        window.splitDockWidget(inspector_dock, messages_dock, Qt.Vertical)
        window.resizeDocks([inspector_dock, messages_dock], [400, 150], Qt.Vertical)
    # the comparison beside the charts (it needs width), shown while a baseline is pinned
    window.splitDockWidget(parts.docks["charts"], parts.docks["compare"], Qt.Horizontal)
    window.resizeDocks([parts.docks["charts"], parts.docks["compare"]], [1100, 460], Qt.Horizontal)
    parts._had_baseline = parts.live.baseline_result is not None
    parts.docks["compare"].setVisible(parts._had_baseline)
    if inspector_dock is not None:
        window.tabifyDockWidget(inspector_dock, parts.docks["advisor"])
        inspector_dock.raise_()
    # the window sets the bottom docks' heights, fitted to its own (MainWindow._arrange_default)
    window.want_bottom_heights([parts.docks["timeline"], parts.docks["charts"]], [170, 430])


def install(window) -> TimelineParts:
    from app.ui.advisor import AdvisorPanel
    from app.ui.charts import ChartsPanel
    from app.ui.live import LiveSimulator, TimeCursor
    from app.ui.scenarios import CompareTable, ScenarioBar

    from .panel import TimelinePanel, show_play_state

    doc = window.document
    cursor = TimeCursor(window)
    live = LiveSimulator(None, parent=window)
    # follows the Document (a different project too) and is connected to its `changed` before the
    # plug-in's widgets, so that the engine request leaves before they redraw from the project
    live.set_document(doc)
    timeline = TimelinePanel(doc, cursor, notify=window.status)
    charts = ChartsPanel()
    advisor = AdvisorPanel(doc)
    compare = CompareTable()
    bar = ScenarioBar(doc, notify=window.status)
    parts = TimelineParts(window, live, cursor, timeline, charts, advisor, compare, bar)
    parts._turn = QTimer(window)
    parts._turn.setSingleShot(True)
    parts._turn.setInterval(0)
    parts._turn.timeout.connect(parts._next_step)

    parts.docks["timeline"] = window.add_dock(timeline, QT_TR_NOOP("Timeline"), Qt.BottomDockWidgetArea)
    if hasattr(window, "add_selection_view"):
        window.add_selection_view(timeline)  # Delete there deletes the selected operation
    parts.docks["charts"] = window.add_dock(charts, QT_TR_NOOP("Charts"), Qt.BottomDockWidgetArea)
    parts.docks["advisor"] = window.add_dock(scrolled(advisor, "advisor_scroll"), QT_TR_NOOP("Priority advisor"), Qt.RightDockWidgetArea)
    parts.docks["compare"] = window.add_dock(compare, QT_TR_NOOP("Scenario comparison"), Qt.BottomDockWidgetArea)
    # The default arrangement (the timeline above the charts, full width, so they read on one
    # time axis; the advisor tabbed with the inspector; messages and the comparison tabbed under
    # it) is made once the window is on screen: tabifying before that leaves stray tab bars
    # drawn over the docks (Qt 6.12). A layout the user saved (QSettings) is left alone.
    window.add_default_layout_step(lambda: _arrange_docks(window, parts))
    timeline.gantt.plot.setXLink(charts.master_plot)  # zoom or pan one, the other follows

    # the scenario controls next to the window's own scenario combo
    toolbar = getattr(window, "toolbar", None)
    if toolbar is not None and hasattr(window, "scenario_combo"):
        bar.current_box.hide()
        bar.layout().itemAt(0).widget().hide()  # its "Scenario" label
        toolbar.addWidget(bar)
    else:
        timeline.layout().insertWidget(0, bar)
    play = QAction(tr("Play"), window)
    play.setObjectName("play")
    play.setCheckable(True)
    parts.play_action = play

    def show_state(on: bool) -> None:  # as the timeline's own Play button, with a tooltip
        show_play_state(play, on)
        play.setToolTip(tr("Stop the cursor where it is") if on else
                        tr("Move the cursor through the plan; the canvas colours drives by utilization"))

    def play_toggled(on: bool) -> None:
        cursor.play() if on else cursor.pause()
        show_state(cursor.playing)  # a plan not predicted yet does not play: unchecked again

    show_state(False)
    play.toggled.connect(play_toggled)
    cursor.playingChanged.connect(show_state)
    if toolbar is not None:
        toolbar.addSeparator()
        toolbar.addAction(play)

    # wiring
    # before the Document's change after a replacement, which asks for the new prediction
    doc.replaced.connect(parts.on_replaced)
    live.resultReady.connect(parts.on_result)
    live.failed.connect(parts.on_failed)
    live.busyChanged.connect(parts.on_busy)
    live.notice.connect(window.status)  # the engine process restarted, or not used
    charts.cursorMoved.connect(cursor.set_time)
    cursor.moved.connect(charts.set_cursor)
    cursor.moved.connect(parts.colour_canvas)
    timeline.selectionRequested.connect(parts.on_timeline_selection)
    timeline.advisorRequested.connect(parts.show_advisor)
    window.selection.selectionChanged.connect(parts.on_selection)
    if not hasattr(window, "context_menu_hooks"):
        window.context_menu_hooks = []
    window.context_menu_hooks.append(parts.context_actions)
    tree = getattr(window, "storage", None)
    if tree is not None and hasattr(tree, "context_menu_hooks"):
        tree.context_menu_hooks.append(parts.context_actions)

    # menus
    ops_menu = window.menu("Operations")
    add_menu = ops_menu.addMenu(tr("&Add at the cursor"))
    add_menu.aboutToShow.connect(lambda: timeline._fill_add_menu(add_menu))
    ops_menu.addAction(tr("&Priority advisor"), lambda: timeline.selected and parts.show_advisor(timeline.selected))
    ops_menu.addAction(tr("&Delete selected operation"), lambda: timeline.selected and timeline.delete_event(timeline.selected))
    ops_menu.addSeparator()
    ops_menu.addAction(play)
    plan_menu = window.menu("Plan")
    from .plan_length import ask_plan_length
    plan_menu.addAction("Plan &length...", lambda: ask_plan_length(window))
    sc_menu = window.menu("Scenario")
    sc_menu.addAction(tr("&Duplicate current scenario"), lambda: bar.duplicate())
    sc_menu.addAction(tr("&Rename current scenario..."), bar._ask_rename)
    sc_menu.addAction(tr("Pin current as &baseline"), lambda: bar.set_baseline(doc.project.current_scenario))
    sc_menu.addAction(tr("&Clear baseline"), lambda: bar.set_baseline(None))
    sc_menu.addAction(tr("Show &comparison"), lambda: (parts.docks["compare"].show(), parts.docks["compare"].raise_()))
    view = window.menu("View")
    parts.colour_drives = QAction(tr("Colour drives by &utilization at the cursor"), window)
    parts.colour_drives.setCheckable(True)
    parts.colour_drives.setChecked(False)  # RAID-group colours until asked, or while playing
    cursor.playingChanged.connect(lambda on: on and parts.colour_drives.setChecked(True))
    parts.colour_drives.toggled.connect(parts.colour_canvas)
    view.addSeparator()
    view.addAction(parts.colour_drives)

    return parts
