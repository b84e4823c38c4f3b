"""Project file commands: check, export-json, import-json.

    arrayplanner check FILE                 validation messages; exit 0 valid (warnings allowed),
                                            1 errors, 2 unreadable file
    arrayplanner check PRESET.toml          check a user preset (platform, drives or rate table) as
                                            the catalog would load it, same exit codes
    arrayplanner export-json FILE [-o OUT]  write the project as JSON (stdout without -o)
    arrayplanner import-json FILE -o OUT    write a JSON (or .arrayplan) project as OUT.arrayplan
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.cli.common import (
    EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, MAX_ERROR_LINES, CliError, format_issue, load_or_fail, refuse_read_only,
    refuse_too_large,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="validate a project file (or a preset .toml) and list its errors and warnings",
                       description="Validate a project, or a user preset file (.toml: a platform, drives or a "
                                   "rate table). Exit 0: valid (warnings allowed); 1: errors; "
                                   "2: the file cannot be read.")
    p.add_argument("file", help="project file (.arrayplan or .json), or a preset file (.toml)")
    p.add_argument("--scenario", help="check only this scenario's events (default: all scenarios)")
    p.add_argument("-q", "--quiet", action="store_true", help="print errors only")
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("export-json", help="write a project as JSON")
    p.add_argument("file", help="project file (.arrayplan or .json)")
    p.add_argument("-o", "--output", help="JSON file to write (default: standard output)")
    p.add_argument("--force", action="store_true", help="replace the output even when it is read-only")
    p.set_defaults(handler=cmd_export_json)

    p = sub.add_parser("import-json", help="turn a JSON project into a .arrayplan project file")
    p.add_argument("file", help="JSON project file")
    p.add_argument("-o", "--output", required=True, help="project file to write (.arrayplan)")
    p.add_argument("--force", action="store_true", help="replace the output even when it is read-only")
    p.set_defaults(handler=cmd_import_json)


def cmd_check(args: argparse.Namespace) -> int:
    from app.domain.validation import validate

    if Path(args.file).suffix.lower() == ".toml":
        return check_preset(args)
    project, catalog = load_or_fail(args.file)
    if args.scenario and args.scenario not in {s.name for s in project.scenarios}:
        raise CliError(f"{args.file}: no scenario {args.scenario!r} "
                       f"(scenarios: {', '.join(s.name for s in project.scenarios)})", EXIT_UNREADABLE)
    refuse_too_large(args.file, project,
                     [args.scenario] if args.scenario else [s.name for s in project.scenarios])
    issues = validate(project, catalog, args.scenario)
    n_err = sum(1 for i in issues if i.severity == "error")
    n_warn = len(issues) - n_err
    for problem in catalog.problems:
        if not args.quiet:
            print(f"note: user preset not loaded: {problem}")
    from app.domain.user_names import names_for

    names = names_for(project, catalog)  # "Disk Group 3", not the file's "RG 3"
    for issue in issues:
        if args.quiet and issue.severity != "error":
            continue
        print(format_issue(issue, names))  # a scenario's issues name it in their text
    verdict = "valid" if not n_err else "NOT valid"
    print(f"{args.file}: {verdict}: {n_err} error{'s' if n_err != 1 else ''}, "
          f"{n_warn} warning{'s' if n_warn != 1 else ''}")
    return EXIT_INVALID if n_err else EXIT_OK


def check_preset(args: argparse.Namespace) -> int:
    """`check PRESET.toml`: load the catalog with this file as a user preset (it may lie outside
    the user preset folder) and report what loading and checking it found."""
    from app.store.presets import (
        MAX_TOML_BYTES, PresetError, builtin_presets_dir, load_catalog, parse_toml, user_presets_dir,
    )
    from app.store.safe_read import UnreadableFile, read_regular

    path = Path(args.file).resolve()
    try:  # a FIFO, a device, a folder or a huge file: refused here, not read by the catalog
        text = read_regular(path, "preset file", MAX_TOML_BYTES).decode("utf-8", errors="replace")
    except UnreadableFile as exc:
        raise CliError(str(exc).replace(str(path), args.file, 1), EXIT_UNREADABLE) from None
    try:
        catalog = load_catalog(builtin_presets_dir(), user_presets_dir(), extra_files=(path,))
    except PresetError as exc:
        raise CliError(f"built-in presets are broken: {exc}", EXIT_UNREADABLE) from None
    lines: list[tuple[str, str]] = [("error", f"not loaded: {p}") for p in catalog.problems if str(path) in p]
    mine = [pf for pf in catalog.platforms.values() if pf.origin == str(path)]
    for pf in mine:
        lines += [(i.severity, f"platform {pf.id}: {i.text}") for i in pf.preset_issues]
    try:
        rid = parse_toml(text, args.file).get("rates_id")
    except PresetError:  # loading it above has said why
        rid = None
    users = [pf for pf in catalog.platforms.values()
             if isinstance(rid, str) and pf.document.get("rates") == rid and pf not in mine]
    for pf in users:  # platforms that use this rate table: what it lacks for them
        lines += [(i.severity, f"platform {pf.id}: {i.text}") for i in pf.preset_issues if str(path) in i.text]
    mine += users
    n_err = sum(1 for sev, _ in lines if sev == "error")
    for sev, text in lines:
        if not (args.quiet and sev != "error"):
            print(f"{sev}: {text}")
    what = ", ".join(f"platform {pf.id!r}" for pf in mine) or "no platform"
    print(f"{args.file}: {'valid' if not n_err else 'NOT valid'} preset ({what}): {n_err} "
          f"error{'s' if n_err != 1 else ''}, {len(lines) - n_err} warning{'s' if len(lines) - n_err != 1 else ''}")
    return EXIT_INVALID if n_err else EXIT_OK


def storable_or_fail(project, args: argparse.Namespace) -> None:
    """CliError(code 1) naming the first fields a project file cannot store (a LUN id of 2**63,
    a lone surrogate in a name): the save would fail halfway (OverflowError, UnicodeEncodeError)."""
    from app.domain.validation import storage_issues

    issues = storage_issues(project)
    if issues:
        lines = [format_issue(i) for i in issues[:MAX_ERROR_LINES]]
        more = f"\n  ... and {len(issues) - MAX_ERROR_LINES} more" if len(issues) > MAX_ERROR_LINES else ""
        raise CliError(f"{args.file}: cannot be written, {len(issues)} value{'s' if len(issues) > 1 else ''} "
                       f"a project file cannot store:\n  " + "\n  ".join(lines) + more, EXIT_INVALID)


def cmd_export_json(args: argparse.Namespace) -> int:
    from app.store.project_file import ProjectFileError, save_project
    from app.store.project_json import project_to_json

    project, catalog = load_or_fail(args.file)
    storable_or_fail(project, args)
    if not args.output:
        sys.stdout.write(project_to_json(project))
        return EXIT_OK
    out = Path(args.output)
    if out.suffix.lower() != ".json":
        raise CliError(f"{out}: the output of export-json must end in .json", EXIT_UNREADABLE)
    refuse_read_only(out, args.force)
    try:
        save_project(project, out, catalog)
    except ProjectFileError as exc:
        raise CliError(str(exc), EXIT_UNREADABLE) from None
    print(f"wrote {out}")
    return EXIT_OK


def cmd_import_json(args: argparse.Namespace) -> int:
    from app.store.project_file import SUFFIX, ProjectFileError, save_project

    out = Path(args.output)
    if out.suffix.lower() == ".json":
        raise CliError(f"{out}: import-json writes a project file; give it the {SUFFIX} suffix", EXIT_UNREADABLE)
    if out.resolve() == Path(args.file).resolve():
        raise CliError(f"{out}: the output would overwrite the input", EXIT_UNREADABLE)
    refuse_read_only(out, args.force)
    project, catalog = load_or_fail(args.file)
    storable_or_fail(project, args)
    try:
        save_project(project, out, catalog)
    except ProjectFileError as exc:
        raise CliError(str(exc), EXIT_UNREADABLE) from None
    print(f"wrote {out}")
    return EXIT_OK
