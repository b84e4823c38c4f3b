"""The open project as the GUI sees it: project + catalog + path + undo stack.

Every edit goes through `Document.apply(op)` with an operation from app.domain.edits; the op runs
inside a QUndoCommand, and `changed(Change)` is emitted after every apply, undo and redo (and with
Change.everything() when the project is replaced by open/new/recover). Views refresh from it.

Validation issues reach the Messages dock and the status bar through `issuesChanged`: the live
simulator validates each change off the GUI thread, along with the engine, and publishes them
(`publish_issues`); only a document nobody validates for (no live simulator, e.g. a window
without plug-ins) validates itself, on the GUI thread, once per burst of edits.

    doc = Document(project, catalog)
    doc.changed.connect(lambda change: ...)
    doc.apply(edits.PlaceDrive("0_0_3", "fc-15k-73"))   # raises EditError(reason) when refused
    doc.undo_stack.undo()

A scenario with a configuration of its own (Scenario.overlay, app/domain/overlay.py): while it is
current, `view` is its effective project, a copy, and the canvas, inspector and trees show and
edit that. An edit then runs on the copy and the difference from the base becomes the
scenario's overlay (OverlayCommand); `project`, the base, keeps its configuration and is what is
saved and simulated. Switching scenario is not an edit (`set_current_scenario`): it is no undo
step; an undo or redo first switches back to the scenario its edit was made in.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
import copy

from app.domain import edits
from app.domain.hardware import Catalog, Platform
from app.domain.edits import Change, Edit, EditError
from app.domain.overlay import editable_copy, overlay_between
from app.domain.project import Project
from app.domain.validation import unknown_platform_text

_MERGE_IDS: dict[Any, int] = {}
# mergeable ops (arrow steps) merge only within a burst: steps further apart are separate edits
MERGE_BURST_S = 1.0


def _merge_id(key: Any) -> int:
    """QUndoCommand ids are ints; map each op merge key to a stable one."""
    if key is None:
        return -1
    return _MERGE_IDS.setdefault(key, 1000 + len(_MERGE_IDS))


def follow_document(old: Any, new: Any, slot) -> None:
    """Move `slot` from old.changed to new.changed, for panels that can be handed another
    document (open, new, recover). Either may be None, or an object without `changed`."""
    if old is not None and hasattr(old, "changed"):
        try:
            old.changed.disconnect(slot)
        except (RuntimeError, TypeError):  # never connected, or the old document is gone
            pass
    if new is not None and hasattr(new, "changed"):
        new.changed.connect(slot)


class EditCommand(QUndoCommand):
    """A domain operation as an undo command (NodeGraphQt's model/item/command trio: the item
    refreshes from Document.changed)."""

    def __init__(self, document: "Document", op: Edit, change: Change, text: str | None = None):
        # text: the step as Edit > Undo and the status bar say it, with names, not ids
        super().__init__(text or op.text)
        self.document = document
        self.op = op
        self._first_change: Change | None = change  # already applied by Document.apply
        self._last_t = time.monotonic()  # when the newest op merged in here arrived
        # the scenario on screen when the edit was made: undo and redo show it again
        self.scenario = document.project.current_scenario

    def redo(self) -> None:
        if self._first_change is not None:
            change, self._first_change = self._first_change, None
        else:
            self.document._show_scenario(self.scenario)
            change = self.op.do(self.document.project)
        self.document._emit(change)

    def undo(self) -> None:
        self.document._show_scenario(self.scenario)
        self.document._emit(self.op.undo(self.document.project))

    def id(self) -> int:
        return _merge_id(self.op.merge_key())

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt API
        if not isinstance(other, EditCommand) or other.id() != self.id() or self.id() == -1:
            return False
        if other._last_t - self._last_t > MERGE_BURST_S or not self.op.merge(other.op):
            return False
        self._last_t = other._last_t
        return True


# what an edit made on a scenario's own configuration can change besides that configuration
# (which becomes the overlay): restored as a whole by undo and redo
_SCENARIO_STATE = ("scenarios", "current_scenario", "baseline_scenario", "info", "horizon_h")


class OverlayCommand(EditCommand):
    """An edit made while a scenario with an overlay is current: the op ran on the document's
    view (the scenario's effective project); the base's configuration did not change, the
    scenario's overlay did. Undo and redo restore the scenario state from before and after (the
    op's own undo would act on a view that is rebuilt by then)."""

    def __init__(self, document: "Document", op: Edit, change: Change, before: dict[str, Any],
                 text: str | None = None):
        super().__init__(document, op, change, text)
        self.scenario = before["current_scenario"]
        self.before = before
        self.after = document._scenario_state()

    def redo(self) -> None:
        if self._first_change is not None:
            change, self._first_change = self._first_change, None
            self.document._emit(change, rebuild_view=False)
            return
        self.document._restore_scenario_state(self.after)
        self.document._emit(self._change())

    def undo(self) -> None:
        self.document._restore_scenario_state(self.before)
        self.document._emit(self._change())

    def _change(self) -> Change:
        # the view is rebuilt: every part of the configuration shown may be another object
        return Change.of(edits.SCENARIOS, edits.EVENTS, *edits.CONFIG_ASPECTS, scenario=self.scenario)

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt API
        if not isinstance(other, OverlayCommand) or not super().mergeWith(other):
            return False
        self.after = other.after
        return True


class UnknownPlatformError(Exception):
    """replace_project refused a project whose platform is neither a preset nor embedded in it."""


class Document(QObject):
    changed = Signal(object)        # edits.Change
    dirtyChanged = Signal(bool)
    pathChanged = Signal(object)    # Path | None
    replaced = Signal()             # a different project (open, new, recover)
    issuesChanged = Signal(object)  # list: the newest validation issues (see shown_issues)

    def __init__(self, project: Project, catalog: Catalog, path: str | Path | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self._catalog_base = catalog
        self.project = project
        self._view: Project | None = None  # the current scenario's effective project, if it has an overlay
        self.catalog = self._catalog_for(project, catalog)
        self._snapshot_seen = project.platform_snapshot
        self.path: Path | None = Path(path) if path else None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self._issues: list | None = None
        self._force_dirty = False
        self.revision = 0  # bumps on every change; caches key on it
        self.issue_sources = 0  # parts that validate every change and publish the issues
        self._shown_issues: list | None = None
        self._shown_revision = -1
        # without an issue source: validate here once per burst of edits, after the repaint
        self._validate_timer = QTimer(self, singleShot=True, interval=120)
        self._validate_timer.timeout.connect(lambda: self.publish_issues(self.revision, self.issues()))

    def _clean_changed(self, clean: bool) -> None:
        try:
            self.dirtyChanged.emit(self.dirty)
        except RuntimeError:  # the document is being destroyed
            pass

    # ---------------------------------------------------------------- state
    @staticmethod
    def _catalog_for(project: Project, catalog: Catalog) -> Catalog:
        """The catalog plus the project's embedded platform when it is not a known preset."""
        if project.platform_id in catalog.platforms:
            return catalog
        from app.store.project_file import catalog_for

        return catalog_for(project, catalog)

    @property
    def platform(self) -> Platform:
        return self.catalog.platform(self.project.platform_id)

    # ---------------------------------------------------------------- the scenario's configuration
    @property
    def own_configuration(self) -> str | None:
        """The current scenario's name when it has a configuration of its own (edits go to its
        overlay), else None."""
        try:
            sc = self.project.scenario()
        except KeyError:
            return None
        return sc.name if sc.overlay is not None else None

    @property
    def view(self) -> Project:
        """The project the canvas, inspector and trees show and edit: the base, or the current
        scenario's effective project when it has a configuration of its own (a copy; its
        scenarios, info and names are the base's own)."""
        if self.own_configuration is None:
            self._view = None
            return self.project
        if self._view is None:
            self._view = editable_copy(self.project)
        return self._view

    def _rebuild_view(self) -> None:
        self._view = None

    def _scenario_state(self) -> dict[str, Any]:
        return {a: copy.deepcopy(getattr(self.project, a)) for a in _SCENARIO_STATE}

    def _restore_scenario_state(self, state: dict[str, Any]) -> None:
        for a, v in state.items():
            setattr(self.project, a, copy.deepcopy(v))
        self._rebuild_view()

    def _apply_to_overlay(self, op: Edit, text: str | None = None) -> Change:
        """Run `op` on the view, keep its configuration as the current scenario's overlay and
        write back what else it changed (events, names); returns its Change. The base's
        configuration is untouched."""
        before = self._scenario_state()
        view = self.view
        scenario = self.project.scenario()
        change = op.do(view)  # raises EditError with nothing changed
        for a in _SCENARIO_STATE:
            setattr(self.project, a, getattr(view, a))
        if scenario.overlay is not None and any(s is scenario for s in self.project.scenarios):
            scenario.overlay = overlay_between(self.project, view)
        if self.project.current_scenario != before["current_scenario"]:
            self._rebuild_view()  # e.g. a scenario added and made current
        # the overlay is in the scenarios: a copy of the project (the engine worker's) must take them again
        change = change | Change.of(edits.SCENARIOS, edits.EVENTS)
        self.undo_stack.push(OverlayCommand(self, op, change, before, text))
        return change

    def set_current_scenario(self, name: str) -> None:
        """Show another scenario. Not an edit: no undo step (issue 23). KeyError when there is
        no such scenario."""
        self.project.scenario(name)  # KeyError
        if name == self.project.current_scenario:
            return
        had_own = self.own_configuration is not None
        self.project.current_scenario = name
        self._rebuild_view()
        aspects = [edits.SCENARIOS, edits.EVENTS]
        if had_own or self.own_configuration is not None:
            aspects += edits.CONFIG_ASPECTS  # the canvas shows another configuration
        # not dirty either: which scenario is on screen is saved with the next save, but is
        # no change to the plan worth a "save changes?" question
        self._emit(Change.of(*aspects, scenario=name))

    def _show_scenario(self, name: str) -> None:
        """Before an undo or redo: show the scenario its edit was made in."""
        if name != self.project.current_scenario and any(s.name == name for s in self.project.scenarios):
            self.set_current_scenario(name)

    @property
    def dirty(self) -> bool:
        return self._force_dirty or not self.undo_stack.isClean()

    def mark_saved(self, path: str | Path | None = None) -> None:
        if path is not None:
            self.path = Path(path)
            self.pathChanged.emit(self.path)
        was = self.dirty
        self._force_dirty = False
        self.undo_stack.setClean()
        if was:
            self.dirtyChanged.emit(False)

    @property
    def title(self) -> str:
        return self.path.name if self.path else (self.project.info.title or "Untitled")

    # ---------------------------------------------------------------- edits
    def check(self, op: Edit) -> str | None:
        """Why `op` would be refused (None: it is fine); changes nothing."""
        try:
            return op.check(self.view, self.catalog)
        except KeyError as exc:
            return str(exc.args[0]) if exc.args else str(exc)

    def apply(self, op: Edit) -> Change:
        """Check, do, and push `op` as one undo step. Raises EditError(reason) when refused; then
        nothing changed."""
        why = self.check(op)
        if why:  # the domain's reason, with names for its ids ("RG 3 has ..." -> "RAID Group 3 has ...")
            raise EditError(self._named(why))
        text = self._step_text(op)  # named before the edit: a deleted object still has its name
        if self.own_configuration is not None:
            return self._apply_to_overlay(op, text)
        change = op.do(self.project)  # raises EditError with the project untouched
        self.undo_stack.push(EditCommand(self, op, change, text))
        return change

    def _step_text(self, op: Edit) -> str:
        """The edit's text ("Edit RG 3", "Move op2") as the user names things ("Edit Disk Group
        3", "Move Migrate LUN 18 -> LUN 19"): Edit > Undo and the status bar show it."""
        return self._named(op.text)

    def _named(self, text: str) -> str:
        from app.ui.message_names import MessageNames

        return MessageNames(self).message_text(text, self.project.current_scenario)

    def try_apply(self, op: Edit) -> str | None:
        """apply() for callers that only want the reason: None on success."""
        try:
            self.apply(op)
        except EditError as exc:
            return str(exc)
        return None

    def _emit(self, change: Change, rebuild_view: bool = True) -> None:
        if self.project.platform_snapshot is not self._snapshot_seen:
            # a calibration (or its undo) changed the embedded platform: read it again
            self.catalog = self._catalog_for(self.project, self._catalog_base)
            self._snapshot_seen = self.project.platform_snapshot
        if rebuild_view:
            self._rebuild_view()  # the base or the scenario state changed under it
        self._issues = None
        self.revision += 1
        self.changed.emit(change)
        if not self.issue_sources:
            self._validate_timer.start()

    def replace_project(self, project: Project, path: str | Path | None = None, dirty: bool = False) -> None:
        """Open/new/recover: a different project; the undo history starts again.

        Refused before anything changes: ProjectFileError (its embedded platform cannot be read),
        UnknownPlatformError (no such preset and no embedded copy: every panel would raise KeyError
        and the window would show parts of both projects)."""
        catalog = self._catalog_for(project, self._catalog_base)
        if project.platform_id not in catalog.platforms:
            raise UnknownPlatformError(unknown_platform_text(project.platform_id, catalog))
        self.project = project
        self._rebuild_view()
        self.catalog = catalog
        self._snapshot_seen = project.platform_snapshot
        self.path = Path(path) if path else None
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self._force_dirty = dirty
        self.dirtyChanged.emit(self.dirty)
        self.pathChanged.emit(self.path)
        self.replaced.emit()
        self._emit(Change.everything())

    # ---------------------------------------------------------------- validation
    def publish_issues(self, revision: int, issues: list) -> None:
        """The validation issues of the project as it was at `revision` (validated elsewhere);
        older than those already shown: ignored."""
        if revision < self._shown_revision:
            return
        issues = list(issues)
        if revision == self.revision:
            self._issues = issues
        self._shown_revision, self._shown_issues = revision, issues
        self.issuesChanged.emit(issues)

    @property
    def shown_issues(self) -> list:
        """The newest published issues: what the Messages dock and the status bar show. Until
        the first are published (a new window), validated here once."""
        if self._shown_issues is None:
            self._shown_revision, self._shown_issues = self.revision, self.issues()
        return self._shown_issues

    def issues(self) -> list:
        """Validation issues (severity, where, text) of the project as it is now, computed once
        per change, on the calling thread: for one-shot callers (export, save), not per edit."""
        if self._issues is None:
            from app.domain.validation import validate

            try:
                self._issues = list(validate(self.project, self.catalog))
            except Exception as exc:  # a validation bug must not take the GUI down
                from types import SimpleNamespace
                self._issues = [SimpleNamespace(severity="error", where="", text=f"validation failed: {exc}")]
        return self._issues


__all__ = ["Document", "EditCommand", "OverlayCommand", "UnknownPlatformError", "edits"]
