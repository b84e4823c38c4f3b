"""Entry point of the frozen app (both executables: the GUI and the console command).

`app.cli.main` decides what to do: no argument or a FILE opens the GUI, a subcommand runs headless.
This wrapper only smooths over what freezing changes.
"""
import os
import sys


def _prepare() -> None:
    # A windowed Windows executable has no console: sys.stdout/sys.stderr are None, and any
    # print (argparse's --version, a warning) would raise. Send them nowhere instead.
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    # macOS Finder may pass a process serial number (-psn_0_12345) to a launched .app.
    sys.argv[1:] = [a for a in sys.argv[1:] if not a.startswith("-psn_")]
    # Child processes of multiprocessing re-run this executable with a marker argument.
    if any(a.startswith("--multiprocessing") for a in sys.argv[1:]):
        import multiprocessing

        multiprocessing.freeze_support()


_prepare()

from app.cli import main  # noqa: E402

sys.exit(main())
