"""Closing the window the moment it appears, while the first prediction is still running in
the worker, must exit cleanly (it once crashed in shiboken during teardown in ~1 of 6 starts).
Real processes, because the crash is in interpreter shutdown."""
import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("attempt", range(3))
def test_closing_at_once_exits_cleanly(attempt):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ARRAYPLANNER_EXIT_AFTER_SHOWN="1",
               ARRAYPLANNER_EXIT_DELAY_MS="0")
    proc = subprocess.run([sys.executable, "-m", "app"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert "ARRAYPLANNER_SHOWN" in proc.stdout
    assert "Traceback" not in proc.stderr
