"""Command line: `arrayplanner [FILE]` starts the GUI; subcommands run headless.

Each group of subcommands lives in its own module with `register(subparsers)`; a command's
handler returns the process exit code. Errors are one clear line on stderr, never a traceback
(CliError carries the message and the exit code).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys

from app.cli import calibrate_cmd, engine_cmds, project_cmds, report_cmd, sizing_cmds
from app.cli.common import CliError

# The modules that add subcommands, each with register(subparsers).
COMMAND_MODULES = (
    project_cmds,  # check, export-json, import-json
    engine_cmds,   # simulate, validate
    report_cmd,    # report
    sizing_cmds,   # sweep, size
    calibrate_cmd,  # calibrate (measured data)
)


class _Version(argparse.Action):
    """--version: the version, then which engine runs (app.engine.ENGINE_BUILD). The engine is
    imported only here, not for every command line parsed."""

    def __init__(self, option_strings, dest, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and the engine build, and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from app import __version__
        from app.engine import native

        print(f"ArrayPlanner {__version__}\n{native.describe()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arrayplanner",
        description="What-if planner for storage array operations. Without a command, opens FILE "
                    "(or the built-in example) in the GUI.",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    gui = sub.add_parser("gui", help="open the GUI (the default)")
    gui.add_argument("file", nargs="?", help="project file (.arrayplan or .json)")
    gui.add_argument("--example", action="store_true", help="open the built-in example project")
    gui.set_defaults(handler=_run_gui)
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


NO_DISPLAY_MESSAGE = (
    "no display: the GUI needs a desktop (DISPLAY or WAYLAND_DISPLAY is not set); headless commands: "
    "arrayplanner check FILE, arrayplanner simulate FILE, arrayplanner report FILE (see arrayplanner --help)"
)


def display_available(environ: dict[str, str] | None = None, platform: str | None = None) -> bool:
    """False on Linux/BSD without DISPLAY/WAYLAND_DISPLAY, unless QT_QPA_PLATFORM picks a backend."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win", "darwin", "cygwin")):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("QT_QPA_PLATFORM"))


def _run_gui(args: argparse.Namespace) -> int:
    if not display_available():
        # one line instead of Qt's abort ("could not connect to display")
        raise CliError(NO_DISPLAY_MESSAGE, 2)
    try:
        from app.ui.launch import launch  # imports Qt only when the GUI is wanted
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] in ("PySide6", "pyqtgraph", "shiboken6"):
            raise CliError(f"the GUI needs {exc.name}, which is not installed (run the set-up again)", 2) from None
        raise
    except ImportError as exc:  # e.g. a missing Qt system library (libEGL, libGL ...)
        raise CliError(f"the GUI cannot start: {' '.join(str(exc).split())}", 2) from None

    return launch(args.file, example=getattr(args, "example", False))


# As a shell reports a command ended by SIGPIPE (128 + 13); Python ignores the signal and raises.
EXIT_BROKEN_PIPE = 141


def _stdout_to_devnull() -> None:
    """Point stdout's descriptor at devnull, so the flush at exit does not fail again (the Python
    docs' recipe for SIGPIPE)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _print_anything() -> None:
    """Let stdout and stderr print any str: a name read from a hostile file may hold a lone
    surrogate (a JSON "\\ud800" escape), which UTF-8 cannot encode: printing it raised
    UnicodeEncodeError (exit 3) in the middle of `check`'s report; it shows as \\ud800 instead."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):  # not a text file (a test's capture)
            stream.reconfigure(errors="backslashreplace")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _print_anything()
    parser = build_parser()
    commands = set(parser._subparsers._group_actions[0].choices) if parser._subparsers else set()
    # `arrayplanner FILE` and bare `arrayplanner` mean the GUI
    if not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help", "--version")):
        first = argv[0] if argv else ""
        if first and not first.startswith("-") and not os.path.exists(first) and "." not in first \
                and "/" not in first and os.sep not in first:
            # a mistyped command, not a project file
            print(f"arrayplanner: unknown command {first!r} (commands: {', '.join(sorted(commands))}; "
                  f"or give a project file)", file=sys.stderr)
            return 2
        argv = ["gui", *argv]
    args = parser.parse_args(argv)
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's flush at exit
        return code
    except CliError as exc:
        print(f"arrayplanner: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `arrayplanner simulate FILE | head -1`: the reader has gone, end quietly
        _stdout_to_devnull()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # a bug: one line for the user, the traceback only on request
        if os.environ.get("ARRAYPLANNER_DEBUG"):
            raise
        print(f"arrayplanner: internal error ({type(exc).__name__}: {' '.join(str(exc).split())}); "
              f"set ARRAYPLANNER_DEBUG=1 to see the traceback", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
