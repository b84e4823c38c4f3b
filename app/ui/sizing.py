"""Sizing windows: Scenario > Load Sweep… (response time against host load, per scenario) and
Scenario > Goal Seek… (the cheapest designs that meet the goals, applied as one undoable edit).

A plug-in (app/ui/main_window.py PLUGINS). Both run in the background the same way
(app/ui/background_run.py: a Python thread that only waits on the shared local process pool,
progress by a queued signal, Cancel stops the jobs not yet started). The chart draws the worst workload response against offered IOPS, one curve per
scenario and per "steady" / "during OP", with the knee and the saturation point marked and the
response target as a line; the table lists the chosen curve's steps.
"""
from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem, QProgressBar, QPushButton, QSpinBox, QSplitter,
    QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from app.ui.background_run import BackgroundRunDialog
from app.ui.i18n import tr
from app.service.goal_seek import SizingGoal, build_design, goal_seek
from app.service.sweep import SweepSpec, sweep

CURVE_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


class SweepDialog(BackgroundRunDialog):
    failed_text = "The sweep failed"

    def __init__(self, document, parent: QWidget | None = None, executor: Any = None):
        super().__init__(parent)
        self.setWindowTitle(tr("Load Sweep"))
        self.setAccessibleName("Load sweep")
        self.document = document
        self.executor = executor  # None: the shared local process pool
        self.results: list[tuple[str, Any]] = []
        self._names: Any = None  # ObjectNames of the project when the results came (_finished)

        form = QFormLayout()
        self.scenarios = QListWidget()
        self.scenarios.setAccessibleName("Scenarios to sweep")
        self.scenarios.setMaximumHeight(72)
        project = document.project
        for sc in project.scenarios:
            item = QListWidgetItem(sc.name)
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Checked if sc.name == project.current_scenario else Qt.Unchecked)
            self.scenarios.addItem(item)
        form.addRow(tr("Scenarios"), self.scenarios)
        self.background = QComboBox()
        self.background.setAccessibleName("Background operation")
        self.background.addItem("None (host load alone)", None)
        for ev in project.scenario().events:
            if getattr(ev, "priority", None):
                self.background.addItem(f"{ev.id}: {ev.label_text} at {ev.priority}", ev.id)
        self.background.setToolTip(tr("Also sweep while this operation of the current scenario runs"))
        form.addRow(tr("During"), self.background)
        self.steps = QSpinBox(minimum=2, maximum=200, value=20)
        self.steps.setAccessibleName("Load steps")
        form.addRow(tr("Load steps"), self.steps)
        self.target = QDoubleSpinBox(minimum=0.1, maximum=100000.0, decimals=1, suffix=" ms")
        targets = [w.response_target_ms for w in project.workloads if w.response_target_ms]
        self.target.setValue(min(targets) if targets else 20.0)
        self.target.setAccessibleName("Response target")
        self.target.valueChanged.connect(lambda _v: self._show())
        form.addRow(tr("Response target"), self.target)
        self.growth = QSpinBox(minimum=0, maximum=1000, value=30, suffix=" %")
        self.growth.setAccessibleName("Planned growth")
        self.growth.valueChanged.connect(lambda _v: self._show())
        form.addRow(tr("Planned growth"), self.growth)
        self.advise = QCheckBox(tr("Advise priorities across the load levels"))
        self.advise.setAccessibleName("Advise priorities across the load levels")
        self.advise.setToolTip(tr("Per operation, the lowest-impact priority that still finishes inside its "
                                  "window at each load level"))
        self.window_h = QDoubleSpinBox(minimum=0.0, maximum=100000.0, decimals=1, suffix=" h")
        self.window_h.setAccessibleName("Operation window (0: the plan's)")
        self.window_h.setSpecialValueText(tr("the plan's horizon"))
        advise_row = QHBoxLayout()
        advise_row.addWidget(self.advise)
        advise_row.addWidget(QLabel(tr("window")))
        advise_row.addWidget(self.window_h)
        advise_row.addStretch(1)
        form.addRow(tr("Priorities"), advise_row)

        self.run_button = QPushButton(tr("Run"))
        self.run_button.setAccessibleName("Run the sweep")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setAccessibleName("Cancel the sweep")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Sweep progress")
        self.bar.setTextVisible(True)
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.bar, 1)

        self.plot = pg.PlotWidget()
        self._follow_palette()
        self.plot.setAccessibleName("Response time against offered IOPS")
        self.legend = self.plot.addLegend(offset=(10, 10))
        self._follow_palette()
        self.plot.showGrid(x=True, y=True, alpha=0.2)
        self.summary = QLabel(tr("Run the sweep to see how the response grows with the load."))
        self.summary.setWordWrap(True)
        self.curve_box = QComboBox()
        self.curve_box.setAccessibleName("Curve shown in the table")
        self.curve_box.currentIndexChanged.connect(lambda _i: (self._fill_table(), self._fill_advice()))
        self.table = QTableWidget(0, 6)
        self.table.setAccessibleName("Sweep steps")
        self.table.setHorizontalHeaderLabels(["Load", "Offered IOPS", "Served IOPS", "Worst response",
                                              "Limiting component", "Note"])  # + workloads, kinds per run
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.advice_table = QTableWidget(0, 1)
        self.advice_table.setAccessibleName("Lowest-impact priority in the window per load level")
        self.advice_table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.advice_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.advice_table.horizontalHeader().setStretchLastSection(True)
        self.advice_note = QLabel("")
        self.advice_note.setWordWrap(True)
        self.advice_table.hide()
        self.advice_note.hide()
        advice_pane = self.advice_pane = QWidget()  # beside the steps: both keep their height
        al = QVBoxLayout(advice_pane)
        al.setContentsMargins(0, 0, 0, 0)
        al.addWidget(self.advice_note)
        al.addWidget(self.advice_table, 1)
        tables = QSplitter(Qt.Horizontal)
        tables.addWidget(self.table)
        tables.addWidget(advice_pane)
        tables.setStretchFactor(0, 3)
        tables.setStretchFactor(1, 2)
        advice_pane.setMinimumWidth(280)
        advice_pane.hide()  # shown once priorities are advised
        lower = QWidget()
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(self.curve_box)
        ll.addWidget(tables)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.plot)
        split.addWidget(lower)
        self._lay_out(form, row, split, (900, 760))

    def _follow_palette(self) -> None:
        """The chart in the palette's colours (a dark system palette gives a dark chart)."""
        pal = self.palette()
        self.plot.setBackground(pal.color(QPalette.Base))
        for name in ("left", "bottom"):
            axis = self.plot.getPlotItem().getAxis(name)
            axis.setTextPen(pal.color(QPalette.Text))
            axis.setPen(pal.color(QPalette.Mid))
        text = pal.color(QPalette.Text).name()
        self.plot.setLabel("bottom", "Offered IOPS", color=text)
        self.plot.setLabel("left", "Worst workload response (ms)", color=text)
        if getattr(self, "legend", None) is not None:
            self.legend.setLabelTextColor(pal.color(QPalette.Text))

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.PaletteChange, QEvent.ApplicationPaletteChange):
            self._follow_palette()
        super().changeEvent(event)

    # ---------------------------------------------------------------- running
    def chosen_scenarios(self) -> list[str]:
        return [self.scenarios.item(i).text() for i in range(self.scenarios.count())
                if self.scenarios.item(i).checkState() == Qt.Checked]

    def start(self) -> None:
        names = self.chosen_scenarios()
        if not names:
            self.summary.setText(tr("Tick at least one scenario."))
            return
        project = self.document.project.clone()  # a snapshot: edits meanwhile do not reach the run
        catalog = self.document.catalog
        background = self.background.currentData()
        steps = self.steps.value()
        advise, window_h = self.advise.isChecked(), (self.window_h.value() or None)
        self.summary.setText(tr("Sweeping…"))
        executor = self.executor

        def work(progress, should_stop):
            out = []
            for k, name in enumerate(names):
                bg = background if background and _has_event(project, name, background) else None
                spec = SweepSpec(steps=steps, scenario=name, background=bg, advise=advise, window_h=window_h)
                res = sweep(project, catalog, spec, executor=executor, should_stop=should_stop,
                            progress=lambda d, t, k=k: progress(k * t + d, len(names) * t))
                if res is None:
                    return None
                out.append((name, res))
            return out

        self._run_in_background("load-sweep", work)

    def _idle(self) -> None:
        super()._idle()
        self.bar.setValue(0)

    def _finished(self, results) -> None:
        self._idle()
        if results is None:
            self.summary.setText(tr("Cancelled."))
            return
        self.results = results
        from app.domain.user_names import ObjectNames

        self._names = ObjectNames(self.document.project, self.document.platform)  # once per answer
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        self.curve_box.blockSignals(True)
        self.curve_box.clear()
        for name, res in results:
            for c in res.curves:
                self.curve_box.addItem(f"{name}: {self._named(c.label, name)}", (name, c.label))
        self.curve_box.blockSignals(False)
        self._show()

    # ---------------------------------------------------------------- showing
    def curves(self):
        for name, res in self.results:
            for c in res.curves:
                yield name, res, c

    def _show(self) -> None:
        if not self.results:
            return
        target, growth = self.target.value(), float(self.growth.value())
        self.plot.clear()
        lines = []
        # a colour per scenario, a dashed line for its "during OP" curve: with four scenarios the
        # eight curves no longer cycle back onto the first colours
        scenario_colour = {name: CURVE_COLOURS[k % len(CURVE_COLOURS)] for k, (name, _r) in enumerate(self.results)}
        for name, res, c in self.curves():
            colour = scenario_colour[name]
            pts = [(s.total_offered, s.worst_response_ms) for s in c.steps if not math.isnan(s.worst_response_ms)]
            if not pts:
                continue
            xs, ys = zip(*pts)
            style = Qt.DashLine if c.background else Qt.SolidLine
            self.plot.plot(xs, ys, pen=pg.mkPen(colour, width=2, style=style), symbol="o", symbolSize=5,
                           symbolBrush=colour, name=f"{name}: {self._named(c.label, name)}")
            knee, sat = c.knee, c.saturation()
            if knee is not None:
                self.plot.plot([knee.total_offered], [knee.worst_response_ms], pen=None, symbol="d",
                               symbolSize=14, symbolBrush=colour, symbolPen=self.palette().color(QPalette.Text))
                text = pg.TextItem("knee", color=colour, anchor=(0, 1))
                text.setPos(knee.total_offered, knee.worst_response_ms)
                self.plot.addItem(text)
            if sat is not None:
                self.plot.plot([sat.total_offered], [sat.worst_response_ms], pen=None, symbol="x",
                               symbolSize=14, symbolPen=pg.mkPen(colour, width=3))
            mx, head = c.max_iops_at(target), c.headroom_pct(target)
            if mx is None:
                lines.append(f"{name}, {self._named(c.label, name)}: {target:g} ms is not met even at 10% of today's load.")
            else:
                fits = "fits" if head >= growth else "does not fit"
                lim = self._component(knee.limiting if knee is not None else c.steps[-1].limiting)
                lines.append(f"{name}, {self._named(c.label, name)}: at most {mx:,.0f} IOPS within {target:g} ms; headroom "
                             f"{head:+.0f}% ({growth:g}% growth {fits}); limiting: {lim}.")
        sla = pg.InfiniteLine(pos=target, angle=0, pen=pg.mkPen(self.palette().color(QPalette.Mid), style=Qt.DashLine),
                              label=f"target {target:g} ms",  # at the right: the legend sits top left
                              labelOpts={"position": 0.93, "anchors": [(1, 0), (1, 0)]})  # under the line
        self.plot.addItem(sla)
        self.summary.setText("\n".join(lines) + "\n◆ knee   ✕ saturation (demand no longer served)")
        self._fill_table()
        self._fill_advice()

    def _named(self, text: str, scenario: str | None = None) -> str:
        """A service text as the user names things: "during op1 (...)" -> "during Migrate LUN 18
        -> LUN 19 (...)", "RG 3" -> "Disk Group 3" (or the group's own name)."""
        return self._names.text(text, scenario) if self._names is not None else text

    def _component(self, label: str) -> str:
        """A component label ("RG 3", "drive 0_0_0") with its group named, drive ids kept."""
        return self._names.groups_in(label) if self._names is not None else label

    def _kind(self, kind: str) -> str:
        """A component kind as the platform calls it: "RG" -> "Disk Group"."""
        from app.domain.hardware import group_noun

        return group_noun(self.document.platform) if kind == "RG" else kind

    def _fill_advice(self) -> None:
        """The priority advisor across the load levels, for the scenario of the chosen curve."""
        from app.service.sweep_advice import level_text

        key = self.curve_box.currentData()
        res = next((r for name, r in self.results if key and key[0] == name), None)
        advice = res.advice if res is not None else None
        self.advice_table.setVisible(advice is not None and bool(advice.operations))
        self.advice_note.setVisible(advice is not None)
        self.advice_pane.setVisible(advice is not None)  # else the steps take the dialog's width
        if advice is None:
            return
        ops = advice.operations
        notes = [f"{op.label}: now {op.current_priority}; window {op.window_h:g} h "
                 f"({'given' if op.window_source == 'given' else 'the plan after its start'})" for op in ops]
        if not notes and not advice.skipped:
            self.advice_note.setText(tr("No operation of this scenario has a priority to advise on."))
            return
        self.advice_note.setText("Lowest-impact priority that finishes in the window, per load level. "
                                 + "; ".join(notes + advice.skipped) + ".")
        self.advice_table.setColumnCount(1 + len(ops))
        self.advice_table.setHorizontalHeaderLabels(["Load"] + [op.label for op in ops])  # names, not op ids
        levels = ops[0].levels if ops else []
        self.advice_table.setRowCount(len(levels))
        for i, lv in enumerate(levels):
            self.advice_table.setItem(i, 0, QTableWidgetItem(f"{lv.factor:.2f}x"))
            for j, op in enumerate(ops):
                self.advice_table.setItem(i, j + 1, QTableWidgetItem(level_text(op.levels[i])))

    def _fill_table(self) -> None:
        key = self.curve_box.currentData()
        chosen = next((c for name, _r, c in self.curves() if key == (name, c.label)), None)
        self.table.setRowCount(0)
        if chosen is None:
            return
        knee, sat = chosen.knee, chosen.saturation()
        res = next(r for name, r in self.results if name == key[0])
        workloads = list(chosen.steps[0].response_ms) if chosen.steps else []
        kinds = list(chosen.steps[0].utilisation_by_kind()) if chosen.steps else []
        headers = (["Load", "Offered IOPS", "Served IOPS", "Worst response"]
                   + [res.workloads.get(w, w) for w in workloads]   # each workload's response
                   + [f"{self._kind(kind)} peak" for kind in kinds]  # the busiest of each kind
                   + ["Limiting component", "Note"])
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        numeric = range(1, 4 + len(workloads) + len(kinds))

        def ms(v: float) -> str:
            return "no I/O" if math.isnan(v) else f"{v:.1f} ms"

        self.table.setRowCount(len(chosen.steps))
        for i, s in enumerate(chosen.steps):
            note = "knee" if s is knee else ("saturated" if s is sat else ("" if not s.saturated else "overloaded"))
            by_kind = s.utilisation_by_kind()
            cells = ([f"{s.factor:.2f}x", f"{s.total_offered:,.0f}", f"{s.total_served:,.0f}", ms(s.worst_response_ms)]
                     + [ms(s.response_ms.get(w, math.nan)) for w in workloads]
                     + [f"{by_kind.get(kind, 0.0):.0f}%" for kind in kinds]
                     + [f"{self._component(s.limiting)} {s.utilisation_pct.get(s.limiting, 0.0):.0f}%", note])
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j in numeric:
                    item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.table.setItem(i, j, item)


def _has_event(project, scenario: str, event_id: str) -> bool:
    try:
        project.scenario(scenario).event(event_id)
    except KeyError:
        return False
    return True


class GoalSeekDialog(BackgroundRunDialog):
    """Goals in, the Pareto front of designs out (a table and cost-against-response chart);
    Apply rewrites the project with the selected design as one undoable edit."""

    failed_text = "The search failed"

    def __init__(self, document, parent: QWidget | None = None, executor: Any = None, prices=None):
        super().__init__(parent)
        self.setWindowTitle(tr("Goal Seek"))
        self.setAccessibleName("Goal seek")
        self.document, self.executor, self.prices = document, executor, prices
        self.result = None
        project = document.project
        platform = document.platform
        form = QFormLayout()
        targets = [w.response_target_ms for w in project.workloads if w.response_target_ms]
        self.target = _spin(0.1, 100000.0, min(targets) if targets else 10.0, " ms", "Response target")
        form.addRow(tr("Response at peak ≤"), self.target)
        self.growth = _spin(0.0, 1000.0, 30.0, " %", "Planned growth")
        form.addRow(tr("Growth"), self.growth)
        today = sum(l.capacity_gb for l in project.luns)
        self.capacity = _spin(1.0, 1e9, max(today, 1.0), " GB", "Usable capacity")
        form.addRow(tr("Usable capacity ≥"), self.capacity)
        self.rebuild_h = _spin(0.0, 10000.0, 8.0, " h", "Rebuild window (0: none)")
        form.addRow(tr("Rebuild within (0: no goal)"), self.rebuild_h)
        self.priority = QComboBox()
        self.priority.setAccessibleName("Rebuild priority")
        from app.domain.priorities import default_priority, offered_priorities

        for level in offered_priorities(platform, "drive_failure"):
            self.priority.addItem(level)
        dp = default_priority(platform, "drive_failure")
        if dp:
            self.priority.setCurrentText(dp)
        form.addRow(tr("at priority"), self.priority)
        self.mttdl = _spin(0.0, 1e12, 0.0, " years", "MTTDL floor (0: none)")
        form.addRow(tr("MTTDL ≥ (0: no goal)"), self.mttdl)
        self.run_button = QPushButton(tr("Search"))
        self.run_button.setAccessibleName("Search designs")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setAccessibleName("Cancel the search")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.apply_button = QPushButton(tr("Apply Selected Design"))
        self.apply_button.setAccessibleName("Apply the selected design to the project")
        self.apply_button.setEnabled(False)
        self.apply_button.clicked.connect(self.apply_selected)
        self.scenario_button = QPushButton(tr("Add as Scenario"))
        self.scenario_button.setAccessibleName("Add the selected design as a scenario")
        self.scenario_button.setToolTip(tr("A new scenario with the design as its own configuration, to compare "
                                           "with today's array (Scenario > Compare)"))
        self.scenario_button.setEnabled(False)
        self.scenario_button.clicked.connect(lambda: self.add_as_scenario())
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Search progress")
        row = QHBoxLayout()
        for w in (self.run_button, self.cancel_button, self.bar):
            row.addWidget(w, 1 if w is self.bar else 0)
        row.addWidget(self.apply_button)
        row.addWidget(self.scenario_button)
        self.summary = QLabel(tr("Set the goals and search the platform's designs."))
        self.summary.setWordWrap(True)
        self.plot = pg.PlotWidget()
        self.plot.setAccessibleName("Cost against response of the designs")
        pal = self.palette()
        self.plot.setBackground(pal.color(QPalette.Base))
        self.plot.setLabel("bottom", "Cost", color=pal.color(QPalette.Text).name())
        self.plot.setLabel("left", "Response at peak (ms)", color=pal.color(QPalette.Text).name())
        self.table = QTableWidget(0, 8)
        self.table.setAccessibleName("Designs")
        self.table.setHorizontalHeaderLabels(["Design", "Cost", "Response", "Rebuild", "MTTDL", "Usable",
                                              "Meets", "Why not / note"])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SingleSelection)
        self.table.itemSelectionChanged.connect(self._selection)
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.plot)
        split.addWidget(self.table)
        self._lay_out(form, row, split, (1000, 800))
        self.rows: list[Any] = []

    def goal(self) -> SizingGoal:
        return SizingGoal(self.target.value(), self.growth.value(), self.capacity.value(),
                          self.rebuild_h.value() or None, self.priority.currentText() or None, None,
                          self.mttdl.value() or None)

    def start(self) -> None:
        project, catalog, goal = self.document.project.clone(), self.document.catalog, self.goal()
        prices = self.prices
        if prices is None:
            from app.store.prices import load_prices

            try:
                prices = load_prices()
            except (ValueError, OSError) as exc:
                self.summary.setText(f"The price list was not used: {exc}")
                prices = None
        self.apply_button.setEnabled(False)
        self.scenario_button.setEnabled(False)
        self.summary.setText(tr("Searching…"))
        executor = self.executor

        def work(progress, should_stop):
            return goal_seek(project, catalog, goal, prices, executor=executor, should_stop=should_stop,
                             progress=progress)

        self._run_in_background("goal-seek", work)

    def _finished(self, res) -> None:
        self._idle()
        if res is None:
            self.summary.setText(tr("Cancelled."))
            return
        self.result = res
        self.bar.setValue(1)
        unit = "price list" if res.cost_unit == "price" else "drive count (no complete price list)"
        if res.chosen is None:
            self.summary.setText(f"No design meets the goals ({res.families} families, {res.runs} engine runs). "
                                 "The closest tries say why.")
        else:
            c = res.chosen
            self.summary.setText(f"Chosen: {c.label}: {res.chosen_reason}. Cost: {unit}. "
                                 f"{len(res.front)} designs on the Pareto front; {res.families} families, "
                                 f"{res.runs} engine runs.")
        self.rows = list(res.front) + [c for c in res.candidates if not c.meets][:20]
        self.table.setRowCount(len(self.rows))
        for i, c in enumerate(self.rows):
            cells = [c.label, f"{c.cost:,.0f}", "-" if math.isnan(c.response_ms) else f"{c.response_ms:.1f} ms",
                     "-" if c.rebuild_h is None else f"{c.rebuild_h:.1f} h",
                     "-" if not c.mttdl_h else f"{c.mttdl_h / 8766:,.0f} y", f"{c.usable_gb:,.0f} GB",
                     "yes" if c.meets else "no",
                     res.verdict(c)]
            for j, text in enumerate(cells):
                self.table.setItem(i, j, QTableWidgetItem(text))
        self.plot.clear()
        front = [c for c in res.front if not math.isnan(c.response_ms)]
        if front:
            self.plot.plot([c.cost for c in front], [c.response_ms for c in front], pen=None, symbol="o",
                           symbolBrush=CURVE_COLOURS[0], name="Pareto front")
        if res.chosen is not None:
            self.plot.plot([res.chosen.cost], [res.chosen.response_ms], pen=None, symbol="star", symbolSize=18,
                           symbolBrush=CURVE_COLOURS[1])
        self.plot.addItem(pg.InfiniteLine(pos=self.target.value(), angle=0,
                                          pen=pg.mkPen(self.palette().color(QPalette.Mid), style=Qt.DashLine)))
        if self.rows:
            self.table.selectRow(0)

    def _selection(self) -> None:
        rows = {i.row() for i in self.table.selectedItems()}
        ok = len(rows) == 1 and self.rows[next(iter(rows))].meets
        self.apply_button.setEnabled(ok)
        self.scenario_button.setEnabled(ok)

    def selected(self):
        rows = {i.row() for i in self.table.selectedItems()}
        return self.rows[next(iter(rows))] if len(rows) == 1 else None

    def apply_selected(self) -> None:
        from app.domain import edits

        c = self.selected()
        if c is None or self.result is None:
            return
        design = build_design(self.document.project, self.document.catalog, c.family, c.groups,
                              self.result.goal.spares_per)
        edit = edits.ApplyDesign(design, c.label)
        why = self.document.try_apply(edit)
        self.summary.setText(f"Not applied: {why}" if why else
                             f"Applied {c.label} (Edit > Undo reverts it)." + (f" {edit.note}." if edit.note else ""))


    def add_as_scenario(self, name: str | None = None) -> None:
        """The selected design as a new scenario (its overlay: the design's differences from the
        base configuration), made current; one undoable edit."""
        from app.domain import edits

        c = self.selected()
        if c is None or self.result is None:
            return
        project = self.document.project
        design = build_design(project, self.document.catalog, c.family, c.groups, self.result.goal.spares_per)
        name = name or edits.unique_scenario_name(project, f"Design: {c.groups} x {c.family.label}")
        why = self.document.try_apply(edits.DesignAsScenario(project, design, name, c.label))
        self.summary.setText(f"Not added: {why}" if why else
                             f"Added scenario \u201c{name}\u201d with {c.label} as its configuration; compare it "
                             "with today's (Scenario > Compare). Edit > Undo removes it.")


def _spin(lo: float, hi: float, value: float, suffix: str, name: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox(minimum=lo, maximum=hi, decimals=1, suffix=suffix)
    box.setValue(value)
    box.setAccessibleName(name)
    return box


class SizingParts:
    def __init__(self, window) -> None:
        self.window = window
        self.dialog: SweepDialog | None = None
        self.goal_dialog: GoalSeekDialog | None = None
        self.action = window._action(tr("Load &Sweep…"), self.open_sweep, "Ctrl+Shift+L",
                                     tr("Response time against host load, to saturation"))
        self.goal_action = window._action(tr("&Goal Seek…"), self.open_goal_seek, None,
                                          tr("The cheapest designs that meet a response, rebuild and capacity goal"))
        window.menu("Scenario").addAction(self.action)
        window.menu("Scenario").addAction(self.goal_action)

    def open_goal_seek(self) -> GoalSeekDialog:
        if self.goal_dialog is not None:
            self.goal_dialog.close()
        self.goal_dialog = GoalSeekDialog(self.window.document, self.window)
        self.goal_dialog.show()
        return self.goal_dialog

    def open_sweep(self) -> SweepDialog:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = SweepDialog(self.window.document, self.window)
        self.dialog.show()
        return self.dialog


def install(window) -> SizingParts:
    return SizingParts(window)
