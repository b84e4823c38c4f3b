"""Helpers shared by the CLI command modules (project_cmds, engine_cmds, report_cmd).

    from app.cli.common import load_or_fail, validate_or_fail

    project, catalog = load_or_fail(args.file)      # CliError(code 2) when the file is unreadable
    validate_or_fail(project, catalog)              # CliError(code 1) when validation finds errors

Exit codes used by every command: 0 ok, 1 the project has errors (or a check failed), 2 the file
could not be read (missing, corrupt, foreign, too new) or bad usage; 141 the output pipe closed
early (`... | head`: quietly, as a command ended by SIGPIPE).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from app.domain.hardware import Catalog
    from app.domain.project import Project
    from app.domain.validation import Issue

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_UNREADABLE = 2



class CliError(Exception):
    """A command's failure: `message` is the one line printed on stderr, `code` the exit status."""

    def __init__(self, message: str, code: int = EXIT_UNREADABLE):
        super().__init__(message)
        self.code = code


def refuse_read_only(out: Path, force: bool) -> None:
    """A save would silently replace a read-only (e.g. 0444) file: the GUI asks first, the CLI
    cannot, so it refuses unless --force was given."""
    from app.store.disk import is_read_only

    if not force and is_read_only(out):
        raise CliError(f"{out}: the file is read-only; not replaced (give --force to replace it)",
                       EXIT_UNREADABLE)


# How many error lines validate_or_fail puts in its message before "... and N more".
MAX_ERROR_LINES = 5


def load_or_fail(path: str | Path) -> tuple["Project", "Catalog"]:
    """Load a .arrayplan or .json project and the catalog to read it with (the built-in and
    user presets, plus the project's embedded platform when it is not a known one).

    Raises CliError(code 2) with one line naming the file when it cannot be read."""
    from app.store.presets import PresetError, default_catalog
    from app.store.project_file import ProjectFileError, catalog_for, load_project

    try:
        catalog = default_catalog()
    except PresetError as exc:
        raise CliError(f"built-in presets are broken: {exc}", EXIT_UNREADABLE) from None
    try:
        project = load_project(Path(path))
        catalog = catalog_for(project, catalog)
    except ProjectFileError as exc:
        raise CliError(str(exc), EXIT_UNREADABLE) from None
    return project, catalog


def refuse_too_large(path: str | Path, project: "Project", scenarios: list[str | None]) -> None:
    """Raise CliError(code 2) with one line naming the file, the scenario, its event count and
    the limit when a scenario to be simulated is larger than the engine runs
    (app.domain.limits); checked before validation, which is slow on such a plan too."""
    from app.domain.limits import too_many_events

    for name in scenarios:
        why = too_many_events(project, name)
        if why:
            raise CliError(f"{path}: {why}", EXIT_UNREADABLE)


def format_issue(issue: "Issue", names=None) -> str:
    """One line: 'error: RAID Group 3: RAID 5 takes 3 to 16 drives, it has 2' (Issue.line names
    the object once; a scenario's issue names its scenario and event in its text). `names` (an
    app.domain.user_names.ObjectNames) writes the ids as names, as the GUI shows them."""
    return f"{issue.severity}: {names.issue_line(issue) if names is not None else issue.line}"


def validate_or_fail(project: "Project", catalog: "Catalog", scenario: str | None = None) -> list["Issue"]:
    """Validate; return the other issues (warnings, errors in scenarios not simulated), or raise
    CliError(code 1) listing the first errors that stop a simulation of `scenario` (the current one when None): the layout's and that
    scenario's, as the GUI decides (app.domain.validation.blocking)."""
    from app.domain.user_names import names_for
    from app.domain.validation import blocking, validate

    issues = validate(project, catalog)
    errors = blocking(issues, [scenario or project.current_scenario])
    if errors:
        names = names_for(project, catalog)
        lines = [format_issue(i, names) for i in errors[:MAX_ERROR_LINES]]
        if len(errors) > MAX_ERROR_LINES:
            lines.append(f"... and {len(errors) - MAX_ERROR_LINES} more (run `arrayplanner check FILE`)")
        noun = "error" if len(errors) == 1 else "errors"
        raise CliError(f"the project has {len(errors)} {noun}:\n  " + "\n  ".join(lines), EXIT_INVALID)
    return [i for i in issues if i not in errors]
