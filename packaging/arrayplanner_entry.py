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
    # Child processes of multiprocessing re-run this executable: the engine worker with a
    # "--multiprocessing-fork" argument, its resource tracker with "-c 'from multiprocessing...'".
    # PyInstaller's freeze_support recognises both (and returns at once otherwise); multiprocessing
    # is already imported by PyInstaller's runtime hook.
    if getattr(sys, "frozen", False):
        import multiprocessing

        multiprocessing.freeze_support()


def _import_check() -> int:
    """ARRAYPLANNER_IMPORT_CHECK=1 (packaging/smoke_test.py): import every module of the app and
    the libraries it loads lazily, print the ones that fail in the bundle, exit 1 if any did."""
    import importlib
    import pkgutil
    import traceback

    import app

    names = ["pyqtgraph", "numpy"] + [m.name for m in pkgutil.walk_packages(app.__path__, "app.")
                                      if not m.name.endswith("__main__")]
    failed = 0
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 (report every failure, not just the first)
            failed += 1
            print(f"import failed: {name}\n{traceback.format_exc()}", file=sys.stderr)
    print(f"imported {len(names) - failed} of {len(names)} modules")
    return 1 if failed else 0


_prepare()
if os.environ.get("ARRAYPLANNER_IMPORT_CHECK") == "1":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.exit(_import_check())

from app.cli import main  # noqa: E402

sys.exit(main())
