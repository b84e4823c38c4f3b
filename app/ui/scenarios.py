"""Scenarios: switch, duplicate, rename, delete, pin a baseline, and compare with it.

`ScenarioBar` is a compact row of controls (for a toolbar or the timeline dock); every action but
switching is an undoable op (DuplicateScenario, RenameScenario, RemoveScenario,
SetBaselineScenario, SetScenarioOverlay: "Own configuration"), so the choices are saved in the
project file; switching (Document.set_current_scenario) is no undo step. `CompareTable` lists, for
the current scenario against the pinned baseline, each operation's predicted duration and each
workload's peak response time, with the difference. Both read the engine's Results only.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QInputDialog, QLabel, QMessageBox, QTableWidget,
    QTableWidgetItem, QToolButton, QVBoxLayout, QWidget,
)

from app.domain import edits
from app.domain.overlay import Overlay, effective_project
from app.engine.compare import (  # noqa: F401  (CompareRow, NOT_FINISHED: for callers of this module)
    NOT_FINISHED, SECTION_TITLES, CompareRow, compare, csv_rows, delta_text, value_text,
)
from app.ui.document import follow_document
from app.ui.accessibility import accessible
from app.ui.i18n import tr
from app.ui.theme import follow_palette, theme


def compare_results(current, baseline, project=None, catalog=None) -> list[CompareRow]:
    """The comparison's rows (app.engine.compare), each scenario on its own configuration: the
    effective project of each Result's scenario when `project` still has it."""
    return compare(current, baseline, _effective(project, current), _effective(project, baseline), catalog,
                   _feature_names(project, catalog))


def _effective(project, result):
    if project is None or result is None:
        return project
    try:
        return effective_project(project, result.scenario)
    except KeyError:  # a result of a scenario renamed or removed since: the base's configuration
        return project


def _feature_names(project, catalog) -> dict[str, str]:
    if project is None or catalog is None or project.platform_id not in catalog.platforms:
        return {}
    return {k: spec.name for k, spec in catalog.platform(project.platform_id).features.items()}


def _fmt_delta(row: CompareRow, compact: bool = False) -> str:
    return delta_text(row, compact)


class ScenarioBar(QWidget):
    """[Scenario: v] [Duplicate] [...] Baseline: [v]"""

    def __init__(self, document=None, parent: QWidget | None = None, notify=None):
        super().__init__(parent)
        self.document = None
        self.notify = notify or (lambda text: None)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(2, 0, 2, 0)
        lay.addWidget(QLabel(tr("Scenario")))
        self.current_box = QComboBox()
        self.current_box.setMinimumContentsLength(14)
        self.current_box.setToolTip(tr("The scenario the timeline, the charts and the canvas show"))
        self.current_box.activated.connect(self._current_chosen)
        lay.addWidget(self.current_box)
        self.duplicate_button = QToolButton(text=tr("Duplicate"))
        self.duplicate_button.setToolTip(tr("Copy the current scenario (its events) and switch to the copy"))
        self.duplicate_button.clicked.connect(lambda: self.duplicate())
        lay.addWidget(self.duplicate_button)
        self.rename_button = QToolButton(text=tr("Rename..."))
        self.rename_button.clicked.connect(self._ask_rename)
        lay.addWidget(self.rename_button)
        self.delete_button = QToolButton(text=tr("Delete"))
        self.delete_button.clicked.connect(self._ask_delete)
        lay.addWidget(self.delete_button)
        self.own_box = QCheckBox(tr("Own configuration"))
        self.own_box.setToolTip(tr("The scenario changes the configuration (drives, RAID groups, LUNs, cache, "
                                "features, workloads): while it is current, edits go to it, not to the "
                                "project's configuration the other scenarios run on"))
        self.own_box.toggled.connect(self._own_toggled)
        lay.addWidget(self.own_box)
        lay.addSpacing(8)
        lay.addWidget(QLabel(tr("Baseline")))
        self.baseline_box = QComboBox()
        self.baseline_box.setMinimumContentsLength(14)
        self.baseline_box.setToolTip(tr("Pin a scenario to draw its curves dashed under the current one"))
        self.baseline_box.activated.connect(self._baseline_chosen)
        lay.addWidget(self.baseline_box)
        self.pin_button = QToolButton(text=tr("Pin current"))
        self.pin_button.setToolTip(tr("Make the current scenario the baseline"))
        self.pin_button.clicked.connect(lambda: self.set_baseline(self.document.project.current_scenario))
        lay.addWidget(self.pin_button)
        if document is not None:
            self.set_document(document)

    def set_document(self, document) -> None:
        follow_document(self.document, document, self.refresh)
        self.document = document
        self.refresh()

    def refresh(self, change=None) -> None:
        if change is not None and not change.affects(edits.SCENARIOS):
            return
        p = self.document.project
        names = [s.name for s in p.scenarios]
        for box in (self.current_box, self.baseline_box):
            box.blockSignals(True)
            box.clear()
        self.current_box.addItems(names)
        self.current_box.setCurrentText(p.current_scenario)
        self.baseline_box.addItem("(none)", None)
        for n in names:
            self.baseline_box.addItem(n, n)
        idx = self.baseline_box.findData(p.baseline_scenario) if p.baseline_scenario else 0
        self.baseline_box.setCurrentIndex(max(idx, 0))
        for box in (self.current_box, self.baseline_box):
            box.blockSignals(False)
        self.delete_button.setEnabled(len(names) > 1)
        try:
            own = p.scenario().overlay is not None
        except KeyError:
            own = False
        self.own_box.blockSignals(True)
        self.own_box.setChecked(own)
        self.own_box.blockSignals(False)

    # ---------------------------------------------------------------- actions (undoable)
    def _apply(self, op) -> bool:
        why = self.document.try_apply(op)
        if why:
            self.notify(why)
        return why is None

    def switch_to(self, name: str) -> bool:
        """Show scenario `name`: not an edit, so no undo step (issue 23)."""
        try:
            self.document.set_current_scenario(name)
        except KeyError as exc:
            self.notify(str(exc.args[0]) if exc.args else str(exc))
            return False
        return True

    def set_own_configuration(self, own: bool) -> bool:
        """Give the current scenario a configuration of its own (starting as the project's), or
        let it run on the project's configuration again (its differences dropped; undoable)."""
        sc = self.document.project.scenario()
        if own == (sc.overlay is not None):
            return True
        ok = self._apply(edits.SetScenarioOverlay(sc.name, Overlay() if own else None))
        if ok and own:
            self.notify(f"Scenario {sc.name} has its own configuration: edits on the canvas and in the "
                        "inspector change it, not the project's")
        return ok

    def duplicate(self, new_name: str | None = None) -> str | None:
        p = self.document.project
        op = edits.DuplicateScenario(p, p.current_scenario, new_name)
        return op.scenario.name if self._apply(op) else None

    def rename(self, new_name: str) -> bool:
        return self._apply(edits.RenameScenario(self.document.project.current_scenario, new_name))

    def remove_current(self) -> bool:
        return self._apply(edits.RemoveScenario(self.document.project.current_scenario))

    def set_baseline(self, name: str | None) -> bool:
        if name == self.document.project.baseline_scenario:
            return True
        return self._apply(edits.SetBaselineScenario(name))

    def _own_toggled(self, checked: bool) -> None:
        if not self.set_own_configuration(checked):
            self.refresh()

    def _current_chosen(self, _i: int) -> None:
        self.switch_to(self.current_box.currentText())

    def _baseline_chosen(self, _i: int) -> None:
        self.set_baseline(self.baseline_box.currentData())

    def _ask_rename(self) -> None:
        cur = self.document.project.current_scenario
        text, ok = QInputDialog.getText(self, "Rename scenario", "New name", text=cur)
        if ok and text.strip() and text.strip() != cur:
            self.rename(text.strip())

    def _ask_delete(self) -> None:
        cur = self.document.project.current_scenario
        if QMessageBox.question(self, tr("Delete scenario"), tr("Delete scenario '{name}' and its events?").format(name=cur)) == QMessageBox.Yes:
            self.remove_current()


class CompareTable(QWidget):
    """Differences between the current scenario and the pinned baseline."""

    COLUMNS = ("", "Baseline", "Current", "Difference", "Note")
    LABEL_MIN_W = 110  # the names give way (elided, whole in the tooltip) before the numbers do
    _TONES = {True: QColor("#c0392b"), False: QColor("#1e8449")}  # worse (longer, slower), better
    _SLA_BROKEN = QColor("#f5b7b1")

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.rows: list[CompareRow] = []
        self.names: tuple[str, str] = ("", "")  # (baseline, current) scenario of the rows
        self._keys: list[tuple[str, str]] | None = None  # (section, key) of each table row shown
        self.stale_reason: str | None = None
        self._compact = False  # differences as percentages only: the table is too narrow
        self._full_delta_w = 0
        self._names_w = 0  # the widest row name: the names take no more, the note gets the rest
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.header = QLabel(tr("Pin a baseline scenario to compare."))
        self.header.setWordWrap(True)
        top.addWidget(self.header, 1)
        self.export_button = QToolButton(text=tr("Export CSV..."))
        self.export_button.setToolTip(tr("Save every row of the comparison as a CSV file (numbers unformatted)"))
        self.export_button.clicked.connect(self._ask_export)
        self.export_button.setEnabled(False)
        top.addWidget(self.export_button)
        lay.addLayout(top)
        # shown while the table is that of the last good prediction (set_stale)
        self.stale_banner = QLabel()
        self.stale_banner.setObjectName("compareStale")
        self.stale_banner.setWordWrap(True)
        self.stale_banner.hide()
        self._set_theme()
        follow_palette(self, self._set_theme)
        lay.addWidget(self.stale_banner)
        self.table = QTableWidget(0, len(self.COLUMNS))
        accessible(self.table, tr("Scenario comparison"))
        self.table.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, not cell to cell
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.ElideMiddle)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.Interactive)
        head.setStretchLastSection(True)  # the note takes what is left, if anything
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.viewport().installEventFilter(self)
        lay.addWidget(self.table, 1)

    def _set_theme(self) -> None:
        """Worse in red, better in green, each in the shade that reads on the table's ground; the
        banner as the charts' (app.ui.theme)."""
        ink = theme()
        self._TONES = {True: ink.error, False: ink.ok}  # worse (longer, slower), better
        self.stale_banner.setStyleSheet(ink.banner_style())
        if getattr(self, "rows", None):
            self._fill()

    def set_stale(self, reason: str | None) -> None:
        """With a reason: the table is that of the last good prediction and there is no new one;
        dim it and say why. None: restore."""
        from app.ui.charts import dim_view

        if reason == self.stale_reason:
            return
        self.stale_reason = reason
        if reason and not self.rows:
            self.stale_banner.setText(f"No comparison: {reason}")
        elif reason:
            self.stale_banner.setText(f"These differences are from the last good prediction; there is none "
                                      f"for the plan as it is now: {reason}")
        self.stale_banner.setVisible(bool(reason))
        dim_view(self.table, bool(reason))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        # the table's viewport, not this widget: a scroll bar or the banner appearing narrows it too
        if obj is self.table.viewport() and event.type() == QEvent.Resize:
            self._fit_columns()
        return False

    def _fit_columns(self) -> None:
        """Baseline, Current and Difference as wide as their texts; the names the rest of the
        width (at least LABEL_MIN_W, at most their own width); the note after them, in view
        when the table is wide enough (it held "Disk Group 0 -> Disk Group 1", "target broken"
        out of sight on a wide dock, the names column taking it all)."""
        t = self.table
        if self.rows and self._too_narrow() != self._compact:
            self._compact = not self._compact
            self._fill()  # the Difference texts for the new width (it fits the columns again)
            return
        numbers = sum(t.columnWidth(c) for c in (1, 2, 3))
        rest = t.viewport().width() - numbers - 2
        t.setColumnWidth(0, max(self.LABEL_MIN_W, min(rest, self._names_w) if self._names_w else rest))

    def _too_narrow(self) -> bool:
        """No room for the names, the values and the full differences side by side."""
        t = self.table
        return t.viewport().width() < self.LABEL_MIN_W + t.columnWidth(1) + t.columnWidth(2) + self._full_delta_w

    def set_results(self, current, baseline, project=None, catalog=None) -> None:
        """Fill the table. After an edit the rows are usually the same ones: then only the texts
        that changed are set (rebuilding 300 rows took 30-90 ms of the GUI thread)."""
        self.set_stale(None)  # a new prediction
        if current is None or baseline is None:
            self.rows = []
            self.export_button.setEnabled(False)
            self._keys = None
            self.table.setRowCount(0)
            self.header.setText("Pin a baseline scenario (other than the current one) to compare.")
            return
        self.rows = compare_results(current, baseline, project, catalog)
        self.names = (baseline.scenario, current.scenario)
        self.export_button.setEnabled(True)
        self.header.setText(f"'{current.scenario}' compared with baseline '{baseline.scenario}'")
        fm = self.table.fontMetrics()
        self._full_delta_w = max((fm.horizontalAdvance(_fmt_delta(r)) for r in self.rows), default=0) + 16
        self._names_w = max((fm.horizontalAdvance("  " + r.label) for r in self.rows), default=0) + 24
        self._compact = self._too_narrow()
        self._fill()

    def _fill(self) -> None:
        lines = _table_lines(self.rows, self._compact)
        keys = [line[0] for line in lines]
        if keys != self._keys:
            self._keys = keys
            self._rebuild(lines)
            return
        changed = False
        for r, ((_, key), texts, worse, sla) in enumerate(lines):
            for c, text in enumerate(texts):
                item = self.table.item(r, c)
                if item is not None and item.text() != text:
                    item.setText(text)
                    changed = True
            if key is not None:
                self._tone(self.table.item(r, 3), worse)
                self._mark_sla(r, sla)
        if changed:
            self._fit_numbers()

    def _rebuild(self, lines) -> None:
        self.table.setUpdatesEnabled(False)
        self.table.setRowCount(len(lines))
        self.table.clearSpans()
        bold = QFont()
        bold.setBold(True)
        for r, ((section, key), texts, worse, sla) in enumerate(lines):
            for c, text in enumerate(texts):
                if key is None and c > 0:  # a section's title row: one cell over the row
                    self.table.takeItem(r, c)
                    continue
                item = QTableWidgetItem(text)
                if key is None:
                    item.setFont(bold)
                elif c == 0:
                    item.setToolTip(text.strip() + (f" ({texts[4]})" if texts[4] else ""))
                elif c in (1, 2, 3):
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                if c == 3:
                    self._tone(item, worse)
                self.table.setItem(r, c, item)
            if key is None:
                self.table.setSpan(r, 0, 1, len(self.COLUMNS))
            else:
                self._mark_sla(r, sla)
        self._fit_numbers()
        self.table.setUpdatesEnabled(True)

    def _fit_numbers(self) -> None:
        for c in (1, 2, 3):
            self.table.resizeColumnToContents(c)
        self._fit_columns()

    def export_csv(self, path) -> None:
        """Write the comparison's rows to `path` (CSV, UTF-8); ProjectFileError when it cannot be
        written (the old file is then unchanged)."""
        import csv
        import io

        from app.store.project_file import save_text

        buf = io.StringIO()
        csv.writer(buf).writerows(csv_rows(self.rows, *self.names))
        save_text(path, buf.getvalue())

    def _ask_export(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getSaveFileName(self, "Export comparison", "comparison.csv", "CSV files (*.csv)")
        if not path:
            return
        from app.store.project_file import ProjectFileError

        try:
            self.export_csv(path)
        except ProjectFileError as exc:
            QMessageBox.warning(self, tr("Export comparison"), str(exc))

    def _mark_sla(self, r: int, sla: frozenset) -> None:
        """A response-time target broken in a scenario: that scenario's cell on red."""
        for c, side in ((1, "baseline"), (2, "current")):
            item = self.table.item(r, c)
            if item is None:
                continue
            brush = QBrush(self._SLA_BROKEN) if side in sla else None
            if item.data(Qt.BackgroundRole) != brush:
                item.setData(Qt.BackgroundRole, brush)
                item.setToolTip(tr("the workload's response-time target is broken here") if brush else "")

    def _tone(self, item: QTableWidgetItem, worse: bool | None) -> None:
        brush = None if worse is None else QBrush(self._TONES[worse])  # None: the table's own colour
        if item.data(Qt.ForegroundRole) != brush:
            item.setData(Qt.ForegroundRole, brush)


def _table_lines(rows: list[CompareRow],
                 compact: bool = False) -> list[tuple[tuple[str, str | None], list[str], bool | None, frozenset]]:
    """The table's lines: ((section, key or None for the section's title), five texts, whether the
    difference is worse, better (False) or neither (None), the scenarios breaking a target)."""
    out = []
    section = None
    for row in rows:
        if row.section != section:
            section = row.section
            out.append(((section, None), [SECTION_TITLES.get(section, section), "", "", "", ""], None, frozenset()))
        out.append(((row.section, row.key),
                    ["  " + row.label, value_text(row, "baseline"), value_text(row, "current"),
                     _fmt_delta(row, compact), row.note],
                    row.worse, row.sla_broken))
    return out
