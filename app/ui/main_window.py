"""The main window: menus, toolbar with the scenario combo, the layout canvas in the middle, the
palette and the RAID group/LUN tree on the left, the inspector on the right, messages below.

Other parts plug in through PLUGINS: each module named there has `install(window)` called once
the window is built. What they can use:

    window.document           app.ui.document.Document (project, catalog, platform, apply(op), changed)
    window.canvas             the LayoutView (window.canvas.layout_scene is the LayoutScene;
                              window.canvas.set_drive_values({...}) colours drives by a value)
    window.menu(name)         the QMenu "File", "Edit", "View", "Scenario", "Operations", "Report", "Help"
    window.add_dock(w, title, area)  a dock (also listed in View > Panels); returns the QDockWidget
    window.selection          app.ui.selection.Selection: refs like "RG 3", signal selectionChanged
    window.status(text)       a message in the status bar
    window.add_selection_view(w)  Delete/Backspace delete the selection while w (or a child) has focus
    window.messages           the Messages dock's view (set_extra(source, items) adds advisories)
"""
from __future__ import annotations

import html
import importlib
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDockWidget, QLabel, QMainWindow, QMenu, QMessageBox, QToolBar, QWidget,
)

from app.domain import edits
from app.ui.canvas import LayoutView
from app.ui.deletion import confirm_deletion
from app.ui.document import Document
from app.ui.files import FileController
from app.domain.formatting import format_count
from app.ui.i18n import QT_TR_NOOP, tr, tr_count
from app.ui.terms import group_noun
from app.ui.inspector import Inspector
from app.ui.messages import MessagesView
from app.ui.palette import Palette
from app.ui.screen_fit import ElidedLabel
from app.ui.selection import Selection
from app.ui.storage_tree import StorageTree
from app.ui.theme import follow_palette

log = logging.getLogger(__name__)

PLUGINS = ("app.ui.timeline", "app.ui.bands", "app.ui.report_dialog", "app.ui.sizing", "app.ui.measured_dialogs")
MENUS = ("File", "Edit", "View", "Scenario", "Operations", "Report", "Help")
# the menus' shown titles (translated); plug-ins name a menu by its English key above
MENU_TITLES = {"File": QT_TR_NOOP("&File"), "Edit": QT_TR_NOOP("&Edit"), "View": QT_TR_NOOP("&View"),
               "Scenario": QT_TR_NOOP("&Scenario"), "Operations": QT_TR_NOOP("&Operations"),
               "Report": QT_TR_NOOP("&Report"), "Help": QT_TR_NOOP("&Help")}
STATE_VERSION = 1
TOP_MIN_H = 300  # first run: the canvas keeps at least this height over the bottom docks


class MainWindow(QMainWindow):
    def __init__(self, document: Document, plugins: tuple[str, ...] | None = None):
        super().__init__()
        self.document = document
        self.selection = Selection(self)
        self.setObjectName("MainWindow")
        self.setDockNestingEnabled(True)
        self.resize(1600, 1000)
        self._menus: dict[str, QMenu] = {}
        self._docks: list[QDockWidget] = []
        self._sync = False
        self._layout_steps: list = []  # plug-ins' default dock arrangements (add_default_layout_step)
        self._bottom_wish: tuple[list[QDockWidget], list[int]] | None = None  # want_bottom_heights

        # centre: the canvas
        self.canvas = LayoutView(document)
        self.canvas.setObjectName("canvas")
        self.setCentralWidget(self.canvas)

        # docks
        self.palette = Palette(document)
        self.palette_dock = self.add_dock(self.palette, QT_TR_NOOP("Palette"), Qt.LeftDockWidgetArea)
        self.storage = StorageTree(document)
        self.storage_dock = self.add_dock(self.storage, QT_TR_NOOP("RAID groups and LUNs"), Qt.LeftDockWidgetArea)
        self.inspector = Inspector(document, self.selection)
        self.inspector_dock = self.add_dock(self.inspector, QT_TR_NOOP("Inspector"), Qt.RightDockWidgetArea)
        self.messages = MessagesView(document)
        self.messages_dock = self.add_dock(self.messages, QT_TR_NOOP("Messages"), Qt.BottomDockWidgetArea)
        self.resizeDocks([self.palette_dock, self.inspector_dock], [440, 370], Qt.Horizontal)
        self.resizeDocks([self.palette_dock, self.storage_dock], [260, 460], Qt.Vertical)
        self.resizeDocks([self.messages_dock], [120], Qt.Vertical)

        self.files = FileController(self)
        self._build_menus()
        self._build_toolbar()
        self._status_label = ElidedLabel()  # elided, not widening the window past a small screen
        self.statusBar().addPermanentWidget(self._status_label)
        self._counts_timer = QTimer(self, singleShot=True, interval=130)  # once per burst of edits
        self._counts_timer.timeout.connect(self._update_counts)

        # wiring: selection <-> canvas, tree, messages; messages to the status bar
        self.canvas.layout_scene.selectionChanged.connect(self._scene_selection)
        self.selection.selectionChanged.connect(self._selection_changed)
        self.storage.refsSelected.connect(self.selection.set)
        self.inspector.refsSelected.connect(self.selection.set)
        self.messages.refActivated.connect(self.select_ref)
        self.canvas.message.connect(self.status)
        self.inspector.message.connect(self.status)
        self.canvas.contextRequested.connect(self._context_menu)
        document.changed.connect(self._doc_changed)
        document.issuesChanged.connect(self._issues_changed)
        self.messages.countsChanged.connect(self._counts_timer.start)  # the prediction's advisories too
        document.dirtyChanged.connect(lambda _d: self._update_title())
        document.pathChanged.connect(lambda _p: self._update_title())
        self.files.guard.readOnlyChanged.connect(lambda _r: self._update_title())
        self._update_title()
        self._update_counts()

        self.add_selection_view(self.canvas)
        self.add_selection_view(self.storage)
        self._install_plugins(PLUGINS if plugins is None else plugins)
        self.restore_layout()
        QTimer.singleShot(0, self.canvas.fit)

    # ---------------------------------------------------------------- plug-in API
    def menu(self, name: str) -> QMenu:
        if name not in self._menus:
            self._menus[name] = self.menuBar().addMenu(tr(MENU_TITLES[name]) if name in MENU_TITLES else f"&{name}")
        return self._menus[name]

    def add_dock(self, widget: QWidget, title: str, area: Qt.DockWidgetArea = Qt.BottomDockWidgetArea) -> QDockWidget:
        """`title` in English, marked QT_TR_NOOP at the call: shown translated; the English names
        the dock in the saved layout (the same whatever the language)."""
        dock = QDockWidget(tr(title), self)
        dock.setObjectName(f"dock_{title.lower().replace(' ', '_')}")
        if not widget.accessibleName():  # a scroll area a screen reader reaches by Tab
            widget.setAccessibleName(tr(title))
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self._docks.append(dock)
        if hasattr(self, "_panels_menu"):
            self._panels_menu.addAction(dock.toggleViewAction())
        return dock

    def add_selection_view(self, widget: QWidget) -> None:
        """A view that shows (and selects) the selection: while it or a child has focus, Delete and
        Backspace delete the selection (Edit > Delete works from anywhere)."""
        widget.addAction(self.act_delete)

    def status(self, text: str, timeout_ms: int = 8000) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def _said_undo(self, what: str, offset: int) -> None:
        stack = self.document.undo_stack
        cmd = stack.command(stack.index() + offset)  # undo: the step above the index; redo: below
        if cmd is None:
            self.status(tr("Nothing to undo") if what == "Undo" else tr("Nothing to redo"))
        else:
            self.status((tr("Undo: {step}") if what == "Undo" else tr("Redo: {step}")).format(step=cmd.text()))

    def _install_plugins(self, names: tuple[str, ...]) -> None:
        self.plugins: dict[str, Any] = {}
        for name in names:
            module = importlib.import_module(name)  # a missing plug-in is a bug: it raises
            install = getattr(module, "install", None)
            if install is None:
                continue
            try:
                self.plugins[name] = install(self)
            except Exception:  # a broken plug-in must not stop the configurator
                log.exception("plug-in %s failed to install", name)
                self.status(tr("Plug-in {name} failed to load; see the log").format(name=name))

    # ---------------------------------------------------------------- menus and toolbar
    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        if tip:
            a.setStatusTip(tip)
        a.triggered.connect(slot)
        return a

    def _build_menus(self) -> None:
        for name in MENUS:
            self.menu(name)
        f = self.menu("File")
        self.act_new = self._action(tr("&New…"), self.new_project, QKeySequence.New,
                                    tr("A new project from a platform or an example"))
        self.act_open = self._action(tr("&Open…"), lambda: self.files.open(), QKeySequence.Open)
        self.recent_menu = QMenu(tr("Open &Recent"), self)
        self.files.recentChanged.connect(lambda _l: self._fill_recent())
        self._fill_recent()
        self.act_save = self._action(tr("&Save"), self.files.save, QKeySequence.Save)
        self.act_save_as = self._action(tr("Save &As…"), self.files.save_as, QKeySequence.SaveAs)
        self.act_quit = self._action(tr("&Quit"), self.close, QKeySequence.Quit)
        f.addActions([self.act_new, self.act_open])
        f.addMenu(self.recent_menu)
        f.addSeparator()
        f.addActions([self.act_save, self.act_save_as])
        self._file_tail = f.addSeparator()
        f.addAction(self.act_quit)

        e = self.menu("Edit")
        stack = self.document.undo_stack
        self.act_undo = stack.createUndoAction(self, tr("&Undo"))
        self.act_undo.setShortcut(QKeySequence.Undo)
        self.act_redo = stack.createRedoAction(self, tr("&Redo"))
        self.act_redo.setShortcut(QKeySequence.Redo)
        # say what was undone/redone: the last edit's message ("op1 now starts at 0:50") stayed.
        # These run after the stack's own slot (connected first), so the index has moved already.
        self.act_undo.triggered.connect(lambda: self._said_undo("Undo", 0))
        self.act_redo.triggered.connect(lambda: self._said_undo("Redo", -1))
        self.act_delete = self._action(tr("&Delete"), self.delete_selection, QKeySequence.Delete,
                                       tr("Delete the selected drives, enclosures, groups or LUNs"))
        self.act_delete.setShortcuts([QKeySequence(QKeySequence.Delete), QKeySequence(Qt.Key_Backspace)])
        # the keys delete the selection only from its views (add_selection_view): in an Inspector
        # editor (a combo box takes no Delete) they went on to delete the selected objects
        self.act_delete.setShortcutContext(Qt.WidgetWithChildrenShortcut)
        self.act_select_all = self._action(tr("Select &All Drives"), self.select_all, QKeySequence.SelectAll)
        self.act_create_group = self._action(tr("Create RAID &Group…"), self.focus_create_group, "Ctrl+G",
                                             tr("Make a RAID group of the selected drives"))
        self.act_hot_spare = self._action(tr("Mark as &Hot Spare"), self.mark_hot_spare, "Ctrl+H")
        e.addActions([self.act_undo, self.act_redo])
        e.addSeparator()
        e.addActions([self.act_delete, self.act_select_all])
        e.addSeparator()
        e.addActions([self.act_create_group, self.act_hot_spare])

        v = self.menu("View")
        self.act_zoom_in = self._action(tr("Zoom &In"), lambda: self.canvas.zoom(1.25), QKeySequence.ZoomIn)
        self.act_zoom_out = self._action(tr("Zoom &Out"), lambda: self.canvas.zoom(0.8), QKeySequence.ZoomOut)
        self.act_fit = self._action(tr("&Fit Width"), self.canvas.fit, "Ctrl+0")
        self.act_fit_all = self._action(tr("Fit &Whole Layout"), self.canvas.fit_all, "Ctrl+Shift+0")
        self.act_actual = self._action(tr("&Actual Size"), self.canvas.resetTransform, "Ctrl+1")
        v.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit, self.act_fit_all, self.act_actual])
        v.addSeparator()
        self._panels_menu = v.addMenu(tr("&Panels"))
        for d in self._docks:
            self._panels_menu.addAction(d.toggleViewAction())
        v.addAction(self._action(tr("&Reset Layout"), self.reset_layout))

        h = self.menu("Help")
        h.addAction(self._action(tr("&About ArrayPlanner"), self.about))
        h.addAction(self._action(tr("&Keyboard and Mouse"), self.help_keys, QKeySequence.HelpContents))
        for name in MENUS:
            self.menu(name)  # keep the order even when a part adds nothing

    def _build_toolbar(self) -> None:
        tb = QToolBar(tr("Main"), self)
        tb.setObjectName("toolbar_main")
        tb.setMovable(False)
        tb.setIconSize(QSize(20, 20))
        tb.setToolButtonStyle(Qt.ToolButtonIconOnly)
        self.addToolBar(Qt.TopToolBarArea, tb)
        self._draw_toolbar_icons()
        follow_palette(tb, self._draw_toolbar_icons)  # dark mode: light strokes
        for action in (self.act_new, self.act_open, self.act_save, self.act_undo, self.act_redo,
                       self.act_zoom_in, self.act_zoom_out, self.act_fit):
            keys = action.shortcut().toString(QKeySequence.NativeText)
            action.setToolTip(action.text().replace("&", "").rstrip("…") + (f" ({keys})" if keys else ""))
        self.toolbar = tb
        tb.addActions([self.act_new, self.act_open, self.act_save])
        tb.addSeparator()
        tb.addActions([self.act_undo, self.act_redo])
        tb.addSeparator()
        tb.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        tb.addSeparator()
        tb.addWidget(QLabel(tr(" Scenario ")))
        self.scenario_combo = QComboBox()
        self.scenario_combo.setObjectName("scenario_combo")
        self.scenario_combo.setMinimumContentsLength(14)
        self.scenario_combo.setSizeAdjustPolicy(QComboBox.AdjustToContents)
        self.scenario_combo.activated.connect(self._scenario_picked)
        tb.addWidget(self.scenario_combo)
        self._fill_scenarios()
        # on a narrow screen the toolbar ends in Qt's ">>" button: a screen reader names it too
        from PySide6.QtWidgets import QToolButton
        for button in tb.findChildren(QToolButton, "qt_toolbar_ext_button"):
            button.setAccessibleName(tr("More toolbar buttons"))
            button.setToolTip(tr("More toolbar buttons"))

    def _draw_toolbar_icons(self) -> None:
        from app.ui import icons
        for action, icon in ((self.act_new, icons.document("new")), (self.act_open, icons.document("open")),
                             (self.act_save, icons.document("save")), (self.act_undo, icons.arrow("undo")),
                             (self.act_redo, icons.arrow("redo")), (self.act_zoom_in, icons.magnifier("+")),
                             (self.act_zoom_out, icons.magnifier("-")), (self.act_fit, icons.fit())):
            action.setIcon(icon)

    def _fill_scenarios(self) -> None:
        p = self.document.project
        c = self.scenario_combo
        baseline = tr("{name}  (baseline)")
        items = [(baseline.format(name=s.name) if s.name == p.baseline_scenario else s.name, s.name) for s in p.scenarios]
        c.blockSignals(True)
        # refilled only when the list differs: after every event edit (before the engine request
        # left) a refill laid out and repainted the toolbar and the window
        if items != [(c.itemText(i), c.itemData(i)) for i in range(c.count())]:
            c.clear()
            for label, name in items:
                c.addItem(label, name)
        c.setCurrentIndex(max(c.findData(p.current_scenario), 0))
        c.blockSignals(False)

    def _scenario_picked(self, index: int) -> None:
        name = self.scenario_combo.itemData(index)
        if name and name != self.document.project.current_scenario:
            self.document.set_current_scenario(name)  # not an undo step

    def _fill_recent(self) -> None:
        m = self.recent_menu
        m.clear()
        files = self.files.recent_files()
        for i, p in enumerate(files):
            a = m.addAction(f"&{i + 1} {Path(p).name}")
            a.setToolTip(p)
            a.setStatusTip(p)
            a.triggered.connect(lambda _=False, path=p: self.files.open(path))
        if files:
            m.addSeparator()
            m.addAction(tr("Clear List"), self.files.clear_recent)
        m.setEnabled(bool(files))

    # ---------------------------------------------------------------- selection
    def _scene_selection(self) -> None:
        if self._sync:
            return
        self._sync = True
        try:
            refs = self.canvas.layout_scene.selected_refs()
        except RuntimeError:  # the scene is being destroyed with the window
            return
        finally:
            self._sync = False
        self._sync = True
        try:
            self.selection.set(refs)
        finally:
            self._sync = False

    def _selection_changed(self, refs: list[str]) -> None:
        if not self._sync:
            self._sync = True
            try:
                self.canvas.layout_scene.select_refs(refs)
            finally:
                self._sync = False
        self.storage.select_refs(refs)
        # a RAID group picked on the canvas or in the tree: its settings are what one edits next,
        # so the inspector comes to the front (it shares its place with the advisor's tab)
        if any(edits.parse_ref(r)[0] == "group" for r in refs):
            self.show_inspector()

    def show_inspector(self) -> None:
        """Bring the inspector's selection page to the front (the dock shown and raised)."""
        self.inspector.setCurrentWidget(self.inspector.selection_page)
        if not self.inspector_dock.isVisible():
            self.inspector_dock.show()
        self.inspector_dock.raise_()

    def select_ref(self, ref: str) -> None:
        """Select the object a reference names (a message was clicked) and bring it into view."""
        kind, _key = edits.parse_ref(ref)
        if kind in ("cache", "feature"):
            self.inspector.setCurrentWidget(self.inspector.array_page)
            self.inspector_dock.raise_()
            return
        if kind == "project":  # the project page of the inspector
            self.selection.clear()
            self.inspector.setCurrentWidget(self.inspector.selection_page)
            return
        # events ("op3") are selected too: the timeline plug-in listens to the selection
        self.selection.set([ref])
        self.inspector.setCurrentWidget(self.inspector.selection_page)
        items = self.canvas.layout_scene._items_for_ref(ref)
        if items:
            self.canvas.ensureVisible(items[0], 40, 40)
        self.status(ref)

    def select_all(self) -> None:
        self.selection.set([edits.ref_drive(l) for l in self.document.view.drives])

    # ---------------------------------------------------------------- edit actions
    def delete_selection(self) -> None:
        refs = self.selection.refs()
        todo = edits.delete_edits(self.document.view, refs)
        if not todo:
            self.status(tr("Nothing to delete: select drives, an enclosure, a {group} or a LUN").format(
                group=group_noun(self.document, in_sentence=True)))
            return
        op = confirm_deletion(self, self.document,
                              edits.Batch(todo, todo[0].text if len(todo) == 1 else f"Delete {len(todo)} objects"))
        if op is None:
            self.status(tr("Nothing deleted"))
            return
        why = self.document.try_apply(op)
        if why:
            self.status(tr("Cannot delete: {why}").format(why=why))
        else:
            self.selection.clear()
            self.status(op.text)

    def focus_create_group(self) -> None:
        """Edit > Create RAID Group... (Ctrl+G): the dialog for the selected drives."""
        from app.ui.create_group_dialog import CreateGroupDialog

        drives = self.selection.drives()
        if not drives:
            self.status(tr("Select the drives for the {group} first").format(group=group_noun(self.document, in_sentence=True)))
            return
        dialog = CreateGroupDialog(self.document, drives, self)
        if dialog.exec() != QDialog.Accepted:
            return
        op = dialog.edit()
        why = self.document.try_apply(op)
        self.status(tr("Cannot create the {group}: {why}").format(group=group_noun(self.document, in_sentence=True), why=why)
                    if why else op.text)
        if not why:
            self.selection.set([edits.ref_group(op.group_id)])

    def mark_hot_spare(self) -> None:
        drives = self.selection.drives()
        if not drives:
            self.status(tr("Select a drive to mark it as a hot spare"))
            return
        op = edits.Batch([edits.SetHotSpare(d, True) for d in drives], f"Mark {len(drives)} hot spare(s)")
        why = self.document.try_apply(op)
        self.status(tr("Cannot mark hot spare: {why}").format(why=why) if why else op.text)

    def _context_menu(self, global_pos, refs: list[str]) -> None:
        m = QMenu(self)
        if self.selection.drives():
            m.addAction(self.act_create_group)
            m.addAction(self.act_hot_spare)
        if refs:
            m.addAction(self.act_delete)
        for hook in getattr(self, "context_menu_hooks", ()):  # plug-ins add actions: hook(menu, refs)
            hook(m, refs)
        m.addSeparator()
        m.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        m.exec(global_pos)

    # ---------------------------------------------------------------- files
    def new_project(self) -> None:
        from app.ui.new_dialog import NewProjectDialog
        if not self.files.maybe_save():
            return
        dlg = NewProjectDialog(self.document.catalog, self)
        if dlg.exec() != NewProjectDialog.Accepted:
            return
        try:
            project = dlg.project()
        except Exception as exc:  # ProjectFileError from an example
            QMessageBox.critical(self, tr("Cannot create the project"), str(exc))
            return
        if project is not None and self.files.new(project):
            self.status(tr("New project on the {platform}").format(platform=self.document.platform.name))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self.files.maybe_save():
            event.ignore()
            return
        self.save_layout()
        self.files.discard_recovery()
        self.files.guard.release()  # its lock file: other windows may now open it without a warning
        event.accept()

    # ---------------------------------------------------------------- layout memory
    def save_layout(self) -> None:
        s = QSettings()
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState(STATE_VERSION))

    def restore_layout(self) -> None:
        s = QSettings()
        # the docks as added: View > Reset Layout starts from here and arranges them as on a
        # first run (a saved layout may have been restored over them since)
        self._initial_state = self.saveState(STATE_VERSION)
        geo, state = s.value("window/geometry", QByteArray()), s.value("window/state", QByteArray())
        self._geometry_restored = self._state_restored = False
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            self._geometry_restored = self.restoreGeometry(geo)
        if isinstance(state, QByteArray) and not state.isEmpty():
            self._state_restored = self.restoreState(state, STATE_VERSION)

    def add_default_layout_step(self, fn) -> None:
        """A plug-in's part of the default dock arrangement: fn() runs once the window is on
        screen on a first run (tabifying before that leaves stray tab bars drawn over the docks,
        Qt 6.12), and again on View > Reset Layout."""
        self._layout_steps.append(fn)

    def want_bottom_heights(self, docks: list[QDockWidget], heights: list[int]) -> None:
        """A plug-in's first-run heights for its bottom docks (stacked, top to bottom); the window
        fits them to its height (_size_bottom_docks)."""
        self._bottom_wish = (list(docks), list(heights))

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if not getattr(self, "_shown_once", False):
            self._shown_once = True
            QTimer.singleShot(0, self._first_shown)

    def _first_shown(self) -> None:
        """The first-run layout in one fixed order (it was two timers, and whichever fired last
        set the bottom docks' heights): the window fitted to the screen, then the default dock
        arrangement. A layout the user saved is left alone."""
        if not self._geometry_restored:
            self._fit_to_screen()
        if not self._state_restored:
            self._arrange_default()
        if not self._geometry_restored:
            # the docks' first (stacked) arrangement has larger minimums than the default one:
            # the first resize was held above the screen's height; now it fits
            self.resize(self._screen_fit())
        QTimer.singleShot(0, self.canvas.fit)

    def _arrange_default(self) -> None:
        """The default dock arrangement: the plug-ins' steps, then the bottom docks' heights
        (set here only, fitted to the window)."""
        for fn in self._layout_steps:
            fn()
        self._size_bottom_docks()

    def _fit_to_screen(self) -> None:
        """First run: docks' minimum sizes can push the window past the screen; fit it."""
        self.resize(self._screen_fit())
        screen = self.screen()
        if screen is not None:  # its frame inside the available area (not under a panel)
            avail, frame = screen.availableGeometry(), self.frameGeometry()
            if not avail.contains(frame):
                self.move(max(avail.left(), min(frame.left(), avail.right() - frame.width() + 1)),
                          max(avail.top(), min(frame.top(), avail.bottom() - frame.height() + 1)))

    def _screen_fit(self) -> QSize:
        """1600 x 1000, or less: what fits the screen's available area with the window frame
        (the title bar a window manager adds is outside the window's own height)."""
        w, h = 1600, 1000
        screen = self.screen()
        if screen is not None:
            avail = screen.availableGeometry()
            frame_w = max(0, self.frameGeometry().width() - self.width())
            frame_h = max(0, self.frameGeometry().height() - self.height())
            w, h = min(w, avail.width() - frame_w), min(h, avail.height() - frame_h)
        return QSize(w, h)

    def _size_bottom_docks(self) -> None:
        """The bottom docks' first-run heights: a plug-in's wish (want_bottom_heights), else their
        own, scaled down together (proportions kept) when the window has less room for them;
        the canvas above keeps TOP_MIN_H and the side docks their minimum heights."""
        if self._bottom_wish is not None:
            docks, wanted = self._bottom_wish
        else:
            docks = [d for d in self._docks if self.dockWidgetArea(d) == Qt.BottomDockWidgetArea]
            wanted = [d.height() for d in docks]
        pairs = []
        for d, h in zip(docks, wanted):  # tabbed docks share one slot; count each slot once
            if d.isVisible() and not d.isFloating() and not set(self.tabifiedDockWidgets(d)) & {p for p, _ in pairs}:
                pairs.append((d, h))
        if not pairs:
            return
        slots, wanted = zip(*pairs)
        self.resizeDocks(list(slots), list(wanted), Qt.Vertical)
        self.layout().activate()  # the sizes Qt can give, now: the side docks' minimums hold the top
        room = sum(d.height() for d in slots) - max(0, TOP_MIN_H - self.centralWidget().height())
        if room < sum(wanted):
            self.resizeDocks(list(slots), [int(h * room / sum(wanted)) for h in wanted], Qt.Vertical)
            self.layout().activate()

    def reset_layout(self) -> None:
        """The first run's arrangement, whether or not a saved layout was restored at start-up
        (a state saved at the end of the first run would hold only a first-run user's layout)."""
        self.restoreState(self._initial_state, STATE_VERSION)
        for d in self._docks:
            d.show()
        self._arrange_default()

    # ---------------------------------------------------------------- refresh
    def _doc_changed(self, change: edits.Change) -> None:
        if change.affects(edits.SCENARIOS, edits.EVENTS):
            self._fill_scenarios()
        if change.replaced:
            self.selection.clear()
            self._name_groups()  # another platform may have another word for a RAID group
            QTimer.singleShot(0, self.canvas.fit)
        else:
            self._drop_vanished_refs()
        self._counts_timer.start()

    def _drop_vanished_refs(self) -> None:
        """An edit, undo or redo removed selected objects (a deleted operation, an undone RAID
        group, a drive moved back): drop them from the selection, so that no view (Inspector,
        timeline, canvas) goes on showing an object that is gone."""
        refs = self.selection.refs()
        if refs:
            project = self.document.view
            kept = [r for r in refs if edits.ref_exists(project, r)]
            if kept != refs:
                self.selection.set(kept)

    def _issues_changed(self, _issues: list) -> None:
        self._counts_timer.start()

    def _update_counts(self) -> None:
        counts = self.messages.counts()  # what the Messages dock lists: validation and advisories
        e, w = counts.get("error", 0), counts.get("warning", 0)
        p = self.document.view
        tally = tr("{errors}, {warnings}").format(errors=tr_count(e, "{n} error", "{n} errors"),
                                                  warnings=tr_count(w, "{n} warning", "{n} warnings"))
        self._status_label.setText(" · ".join((
            self.document.platform.name, tr_count(len(p.enclosures), "{n} enclosure", "{n} enclosures"),
            tr_count(len(p.drives), "{n} drive", "{n} drives"),
            tr("{n} {groups}").format(n=format_count(len(p.groups)),
                                      groups=group_noun(self.document, plural=len(p.groups) != 1, in_sentence=True)),
            tr_count(len(p.luns), "{n} LUN", "{n} LUNs"), tally)))
        self.messages_dock.setWindowTitle(tr("Messages ({tally})").format(tally=tally)
                                          if e or w or self.document.shown_issues else tr("Messages"))
        self._name_groups()

    def _name_groups(self) -> None:
        """The menu, its tooltip and the tree's dock in the platform's word for a RAID group
        ("Create Disk Group…" on a Dell MD, "Create Aggregate…" on a NetApp filer)."""
        noun = group_noun(self.document)
        texts = ((self.act_create_group.setText, self.act_create_group.text(), tr("Create {group}…").format(group=noun)),
                 (self.act_create_group.setToolTip, self.act_create_group.toolTip(),
                  tr("Make a {group} of the selected drives").format(group=group_noun(self.document, in_sentence=True))),
                 (self.storage_dock.setWindowTitle, self.storage_dock.windowTitle(),
                  tr("{groups} and LUNs").format(groups=group_noun(self.document, plural=True))))
        for setter, old, new in texts:
            if old != new:
                setter(new)

    def _update_title(self) -> None:
        title = tr("{title} (read-only)[*] — ArrayPlanner") if self.files.guard.read_only else tr("{title}[*] — ArrayPlanner")
        self.setWindowTitle(title.format(title=self.document.title))
        self.setWindowModified(self.document.dirty)

    # ---------------------------------------------------------------- help
    def about(self) -> None:
        from app import __version__
        from app.engine import ENGINE_BUILD
        QMessageBox.about(self, tr("About ArrayPlanner"), tr(
            "<b>ArrayPlanner {version}</b><p>A what-if planner for storage arrays: predict how long a "
            "rebuild, migration or bind takes at each priority and what it does to host response time.</p>"
            "<p>Prediction engine: {engine}</p>").format(version=__version__, engine=html.escape(ENGINE_BUILD)))

    def help_keys(self) -> None:
        QMessageBox.information(self, tr("Keyboard and mouse"), tr(
            "Drag drives and enclosures from the Palette onto the layout; a drive dropped on an "
            "enclosure's label fills its empty slots.\n"
            "Click a drive to select it; Ctrl+click adds; drag on empty space for a rubber band.\n"
            "Drag a drive to move it to another slot. Delete removes the selection.\n"
            "Ctrl+G: create a RAID group of the selected drives. Ctrl+H: mark as hot spare.\n"
            "Ctrl+wheel or Ctrl++ / Ctrl+-: zoom. Ctrl+0: fit. Middle button or Space+drag: pan.\n"
            "Ctrl+Z / Ctrl+Shift+Z: undo / redo."))
