"""The dialogs a new user meets, opened by name without blocking (no exec): for screenshots at a
given screen size (app/ui/screenshot.py --dialog NAME) and for the test that each one fits a
1024 x 600 screen (tests/gui/test_small_screen.py). Each opener takes the main window and
returns the dialog, shown; the window's project decides what the dialogs are filled with."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDialog


def _new_project(window) -> QDialog:
    from app.ui.new_dialog import NewProjectDialog

    return NewProjectDialog(window.document.catalog, window)


def _create_group(window) -> QDialog:
    from app.ui.create_group_dialog import CreateGroupDialog

    project = window.document.project
    used = {loc for g in project.groups for loc in g.drives}
    free = [loc for loc, d in project.drives.items() if loc not in used and not d.hot_spare][:5]
    return CreateGroupDialog(window.document, free, window)


def _event(kind: str, **preset) -> Callable:
    def open_form(window) -> QDialog:
        from app.ui.i18n import tr
        from app.ui.timeline.dialogs import EventForm, default_event

        doc = window.document
        ev = default_event(kind, doc.project, doc.platform, 0.0, **preset)
        return EventForm(ev, doc.project, doc.platform, window, title=tr("Add {kind}").format(kind=ev.label_text))
    return open_form


def _bind_lun(window) -> QDialog:
    luns = window.document.project.luns
    return _event("bind", lun=luns[-1].id)(window) if luns else _event("bind")(window)


def _plugin(module: str, opener: str) -> Callable:
    def open_it(window) -> QDialog:
        return getattr(window.plugins[module], opener)()
    return open_it


def _plan_length(window) -> QDialog:
    from app.ui.timeline.plan_length import PlanLengthDialog

    return PlanLengthDialog(window.document.project.horizon_h, window)


def _import_measured(window) -> QDialog:
    from app.store.measured import read_measured, sample_file
    from app.ui.measured_dialogs import ImportMeasuredDialog

    # the sample shipped with the app (presets/samples/), not a test fixture a package lacks
    return ImportMeasuredDialog(window.document, read_measured(sample_file()), window)


def _calibrate(window) -> QDialog:
    from app.ui.measured_dialogs import CalibrateDialog

    return CalibrateDialog(window.document, window)


OPENERS: dict[str, Callable] = {
    "new-project": _new_project,
    "create-group": _create_group,
    "add-lun": _bind_lun,
    "add-drive-failure": _event("drive_failure"),
    "add-lun-migration": _event("lun_migration"),
    "plan-length": _plan_length,
    "goal-seek": _plugin("app.ui.sizing", "open_goal_seek"),
    "sweep": _plugin("app.ui.sizing", "open_sweep"),
    "report": _plugin("app.ui.report_dialog", "open_dialog"),
    "import-measured": _import_measured,
    "calibrate": _calibrate,
}


def open_dialog(window, name: str) -> QDialog:
    """The dialog `name` (a key of OPENERS) for the window's project, shown without blocking."""
    dialog = OPENERS[name](window)
    if not dialog.isVisible():
        dialog.show()
    return dialog
