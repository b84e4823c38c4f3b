"""Guards the PySide6 pin in pyproject.toml: PySide6-Essentials 6.12.0 returns None (void C++
methods) and True/False (Signal.emit) without taking a reference, which on CPython 3.11 aborts a
GUI session or a large report with "Fatal Python error: none_dealloc". Run in a subprocess so a
broken build fails this test instead of killing the test run."""
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import os, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QApplication, QWidget
    app = QApplication([])
    w = QWidget()
    class Emitter(QObject):
        fired = Signal(int)
    e = Emitter()
    before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(200):
        w.setEnabled(True)
        e.fired.emit(1)
    after = sys.getrefcount(None), sys.getrefcount(True)
    print(after[0] - before[0], after[1] - before[1])
""")


def test_pyside_keeps_singleton_refcounts():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-500:]
    none_delta, true_delta = (int(x) for x in proc.stdout.split())
    # a leaking build loses ~200 references to each; allow small noise from Qt internals
    assert abs(none_delta) < 20 and abs(true_delta) < 20, proc.stdout
