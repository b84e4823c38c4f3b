"""Start the GUI: `launch(path, example=False) -> exit code` (called by `arrayplanner [FILE]`)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "ArrayPlanner"
ORG_NAME = "ArrayPlanner"
ORG_DOMAIN = "arrayplanner.example"
EXAMPLE = "emc-cx4-960-oltp.json"


def make_app(argv: list[str] | None = None):
    """The QApplication with the names QSettings and QStandardPaths use."""
    from PySide6.QtWidgets import QApplication

    # Qt's raster engine splits fills taller than ~96 rows over a pool of threads and waits for
    # them on a latch: with the engine worker on another core, that wait cost ~2 ms of each
    # result's ~20 ms redraw on a 2-core machine (docs/performance.md, "Eighth session"), and
    # our redraws touch strips of plots, not whole screens. Read when Qt makes the pool (at the
    # first such fill); set in the environment beforehand, any value keeps it off.
    os.environ.setdefault("QT_NO_GUI_THREADPOOL", "1")
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setOrganizationDomain(ORG_DOMAIN)
    app.setApplicationDisplayName(APP_NAME)
    from app.ui.theme import apply_forced_scheme

    apply_forced_scheme(app)  # the system's light or dark palette, unless ARRAYPLANNER_COLOR_SCHEME says
    from app.ui.i18n import install_translators

    install_translators(app)  # the system language's .qm, when one is shipped (English needs none)
    from app.ui.gc_policy import collect_on_gui_thread

    collect_on_gui_thread(app)  # never in the engine's reader/pool threads (see gc_policy)
    from app.service.engine_worker.heap import keep_freed_memory

    keep_freed_memory()  # each reply lands in pages an earlier one used (app/service/engine_worker/heap.py)
    from app import __version__

    app.setApplicationVersion(__version__)
    from app.service.runner import shutdown_local_pool

    # Cancel the pool's queued runs (bands, sweeps) before the interpreter exits: its exit hook
    # joins the pool and would otherwise wait for every queued sample (the window hung on quit).
    app.aboutToQuit.connect(shutdown_local_pool)
    icon = Path(__file__).resolve().parents[2] / "resources" / "icons" / "app.png"
    if icon.exists():
        from PySide6.QtGui import QIcon
        app.setWindowIcon(QIcon(str(icon)))
    return app


def initial_project(catalog):
    """The built-in example, or (in a checkout without it) the same kind of project made in code."""
    from app.ui.files import load_example
    try:
        project = load_example(EXAMPLE)
    except Exception:  # a broken example must not stop the app from starting
        project = None
    if project is None:
        from app.ui.sample import sample_project
        project = sample_project(catalog)
    return project


def build_window(path: str | Path | None = None, example: bool = False, offer_recovery: bool = True):
    """The main window with `path` (or the example) open; used by launch() and by tests."""
    from app.store.presets import default_catalog
    from app.store.user_dirs import move_legacy_presets
    from app.ui.document import Document
    from app.ui.main_window import MainWindow

    moved = move_legacy_presets()  # ArrayPlanner 0.1's preset folder on Linux (user_dirs.py)
    catalog = default_catalog()
    document = Document(initial_project(catalog), catalog)
    window = MainWindow(document)
    notes = [moved] if moved else []
    if catalog.problems:
        from app.ui.i18n import tr
        notes.append(tr("Some user presets could not be read: {problems}").format(problems="; ".join(catalog.problems)))
    if notes:
        window.status(". ".join(notes))
    if os.environ.get("ARRAYPLANNER_EXIT_AFTER_SHOWN") == "1":
        offer_recovery = False  # benchmarks and the bundle smoke test never wait for a question
    # work left by a crash comes first; the file asked for opens when the user declines it
    recovered = window.files.offer_recovery() if offer_recovery else False
    if path and not example and not recovered:
        window.files.load(path)
    elif not recovered and example:
        from app.ui.i18n import tr
        window.status(tr("Opened the built-in example"))
    return window


def exit_after_first_show(app, window) -> None:
    """ARRAYPLANNER_EXIT_AFTER_SHOWN=1 (benchmarks/startup.py, packaging/smoke_test.py): once the
    first window has been shown and the events queued by showing it (expose, first paint) are
    processed, print `ARRAYPLANNER_SHOWN <time.time()> <seconds since process start>`, then close
    the window and quit a second later (ARRAYPLANNER_EXIT_DELAY_MS overrides the delay; 0 closes
    while the first prediction may still be running, tests/gui/test_quit_at_once.py)."""
    import time

    from PySide6.QtCore import QEvent, QObject, QTimer

    def report() -> None:
        since_start = ""
        try:  # Linux: the process start time from /proc, in clock ticks after boot
            ticks = os.sysconf("SC_CLK_TCK")
            with open("/proc/self/stat") as fh:
                start = int(fh.read().rsplit(")", 1)[1].split()[19]) / ticks
            with open("/proc/uptime") as fh:
                since_start = f" {float(fh.read().split()[0]) - start:.3f}"
        except (OSError, ValueError, AttributeError, IndexError):
            pass
        print(f"ARRAYPLANNER_SHOWN {time.time():.6f}{since_start}", flush=True)
        QTimer.singleShot(int(os.environ.get("ARRAYPLANNER_EXIT_DELAY_MS", "1000")), close)

    def close() -> None:
        # A second later, and as a user would: closing at once, while the first simulation's
        # result was still on its way, crashed the exit now and then (in shiboken, from a
        # QGraphicsWidget event during teardown); the time printed above is not affected.
        window.close()
        app.quit()

    class _FirstShow(QObject):
        def eventFilter(self, obj, event):
            if obj is window and event.type() == QEvent.Type.Show:
                window.removeEventFilter(self)
                QTimer.singleShot(0, report)
            return False

    window._first_show_probe = _FirstShow(window)
    window.installEventFilter(window._first_show_probe)


def open_files_from_the_system(app, window) -> None:
    """macOS hands a double-clicked or dropped-on-the-Dock .arrayplan to the running app as a
    QFileOpenEvent (not as an argument): open it as File > Open would, asking about unsaved
    changes first. Other systems start a new process with the path instead."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class _FileOpen(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.FileOpen:
                path = event.file()
                if path:  # after the event: open() may show a dialog of its own
                    QTimer.singleShot(0, lambda: window.files.open(path))
                return True
            return False

    window._file_open_filter = _FileOpen(window)
    app.installEventFilter(window._file_open_filter)


def launch(path: str | None = None, example: bool = False) -> int:
    app = make_app()
    window = build_window(path, example)
    open_files_from_the_system(app, window)
    if os.environ.get("ARRAYPLANNER_EXIT_AFTER_SHOWN") == "1":
        exit_after_first_show(app, window)
    window.show()
    return app.exec()


if __name__ == "__main__":  # python -m app.ui.launch [FILE]
    sys.exit(launch(sys.argv[1] if len(sys.argv) > 1 else None))
