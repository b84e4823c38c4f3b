"""make_app keeps Qt's raster thread pool off (app/ui/launch.py): no pooled painting threads
wait on a latch while the engine worker has the other core."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# paints what makes Qt split a fill over its GUI thread pool (an image and stroked, filled
# rectangles taller than ~96 rows), then prints the names of the process's threads
SCRIPT = """
import glob, sys
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtWidgets import QApplication, QWidget
if sys.argv[1] == "make_app":
    from app.ui.launch import make_app
    app = make_app()
else:
    app = QApplication(sys.argv[:1])

class Canvas(QWidget):
    def paintEvent(self, event):
        p = QPainter(self)
        image = QImage(700, 500, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(0, 0, 200, 100))
        p.drawImage(10, 10, image)
        p.setPen(QPen(QColor(0, 0, 0, 128), 3))
        p.setBrush(QColor(0, 200, 0, 100))
        p.drawRects([self.rect().adjusted(5, 5, -5, -5)])
        p.end()

w = Canvas()
w.resize(800, 600)
w.show()
for _ in range(3):
    w.repaint()
    app.processEvents()
print(sorted(open(f).read().strip() for f in glob.glob("/proc/self/task/*/comm")))
"""


def _threads(how: str, config_home: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "QT_NO_GUI_THREADPOOL"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["XDG_CONFIG_HOME"] = str(config_home)  # nothing of the user's
    out = subprocess.run([sys.executable, "-c", SCRIPT, how], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="thread names from /proc (Linux)")
def test_make_app_paints_without_qt_pooled_threads(tmp_path):
    assert "Thread (pooled)" in _threads("plain", tmp_path)  # the same painting starts the pool in a plain app
    assert "Thread (pooled)" not in _threads("make_app", tmp_path)
