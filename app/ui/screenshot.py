"""Screenshots of the real main window (for docs/screenshots; run under Xvfb for a real X server):

    xvfb-run -a -s "-screen 0 1600x1000x24" python -m app.ui.screenshot OUT.png \\
        [--file PROJECT] [--select "RG 0"] [--tab array] [--no-plugins] [--wait-ms 3000] [--dark]
        [--size 1024x600] [--dialog goal-seek [--run]]

--dialog opens one of the dialogs a new user meets (app/ui/new_user_dialogs.py OPENERS) over the
window and grabs the whole screen (what the user sees: the dialog where it lies on the screen);
--run presses the sweep's or goal seek's Run/Search and waits for the answer before the grab.

Settings and recovery files go to a temporary folder, so the user's saved layout is not used.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile


def build_parser() -> argparse.ArgumentParser:
    """The options (docs/development.md "Screenshots" describes each: tests/test_docs_references.py)."""
    ap = argparse.ArgumentParser(prog="python -m app.ui.screenshot")
    ap.add_argument("out")
    ap.add_argument("--file", help="project to open (default: the built-in example)")
    ap.add_argument("--select", action="append", default=[], help="a reference to select, e.g. 'RG 0'")
    ap.add_argument("--tab", choices=("selection", "array"), default="selection")
    ap.add_argument("--no-plugins", action="store_true", help="the configurator alone (no timeline/charts)")
    ap.add_argument("--wait-ms", type=int, default=3000)
    ap.add_argument("--dark", action="store_true", help="the Fusion style with a dark palette (app.ui.theme)")
    ap.add_argument("--size", help="the window's size, WIDTHxHEIGHT (default: fitted to the screen)")
    from app.ui.new_user_dialogs import OPENERS

    ap.add_argument("--dialog", choices=sorted(OPENERS),
                    help="a dialog to open over the window (app/ui/new_user_dialogs.py OPENERS)")
    ap.add_argument("--run", action="store_true", help="with --dialog sweep/goal-seek: run it first")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.dark:
        os.environ["ARRAYPLANNER_COLOR_SCHEME"] = "dark"

    tmp = tempfile.mkdtemp(prefix="arrayplanner-shot-")
    os.environ["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
    os.environ["XDG_DATA_HOME"] = os.path.join(tmp, "data")
    from PySide6.QtCore import QTimer

    from app.store.presets import default_catalog
    from app.ui.document import Document
    from app.ui.launch import initial_project, make_app
    from app.ui.main_window import MainWindow

    app = make_app()
    catalog = default_catalog()
    doc = Document(initial_project(catalog), catalog)
    window = MainWindow(doc, plugins=() if args.no_plugins else None)
    if args.file:
        if not window.files.load(args.file):
            return 2
    window.show()

    opened: list = []

    def select() -> None:
        if args.size:
            w, h = (int(v) for v in args.size.lower().split("x"))
            window.resize(w, h)
        if args.select:
            window.selection.set(args.select)
        if args.tab == "array":
            window.inspector.setCurrentWidget(window.inspector.array_page)
        if args.dialog:
            from app.ui.new_user_dialogs import open_dialog

            dialog = open_dialog(window, args.dialog)
            opened.append(dialog)
            if args.run:
                dialog.run_button.click()

    settled: list[bool] = []

    def snap() -> None:
        dialog = opened[0] if opened else None
        if dialog is not None and args.run and not dialog.run_button.isEnabled():
            QTimer.singleShot(500, snap)  # still running
            return
        if dialog is not None and args.run and not settled:
            # the answer just arrived: let the new summary's layout and the chart's axes repaint
            # (grabbed at once, the axes still showed the empty plot's 0-1 range)
            settled.append(True)
            QTimer.singleShot(400, snap)
            return
        if dialog is None:
            window.grab().save(args.out)
            print(f"{args.out}: {window.width()}x{window.height()}")
        else:
            screen = window.screen()
            screen.grabWindow(0).save(args.out)
            g = dialog.frameGeometry()
            print(f"{args.out}: screen {screen.size().width()}x{screen.size().height()}, "
                  f"dialog {g.width()}x{g.height()} at {g.x()},{g.y()}")
            dialog.done(0)
        window.document.mark_saved()
        window.files.discard_recovery()
        app.quit()

    QTimer.singleShot(args.wait_ms // 2, select)
    QTimer.singleShot(args.wait_ms, snap)
    app.exec()
    return 0


if __name__ == "__main__":
    sys.exit(main())
