"""The main toolbar's Play action and the timeline's Play button show the same state: checked and
"Pause" while the cursor plays, "Play" otherwise, whichever started or stopped it."""
from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QStandardPaths, Qt  # noqa: E402

pytestmark = pytest.mark.gui
QStandardPaths.setTestModeEnabled(True)


@pytest.fixture
def win(small_timeline):
    window, doc, parts = small_timeline
    # the toolbar's Play (found by its text before anything plays)
    window.play_action = next(a for a in window.toolbar.actions() if a.text() == "Play")
    return window, doc, parts


def shown(window, parts):
    """(text, checked) of the toolbar's action and of the timeline's button."""
    action = window.play_action
    button = parts.timeline.play_button
    return (action.text(), action.isChecked()), (button.text(), button.isChecked())


PLAYING = (("Pause", True), ("Pause", True))
STOPPED = (("Play", False), ("Play", False))


def test_toolbar_action_and_timeline_button_agree(win, qtbot):
    window, _doc, parts = win
    assert shown(window, parts) == STOPPED
    window.play_action.trigger()  # the toolbar's Play
    assert parts.cursor.playing and shown(window, parts) == PLAYING
    window.play_action.trigger()
    assert not parts.cursor.playing and shown(window, parts) == STOPPED

    qtbot.mouseClick(parts.timeline.play_button, Qt.LeftButton)  # the timeline's Play
    assert parts.cursor.playing and shown(window, parts) == PLAYING
    qtbot.mouseClick(parts.timeline.play_button, Qt.LeftButton)
    assert not parts.cursor.playing and shown(window, parts) == STOPPED


def test_both_go_back_to_play_at_the_end_of_the_plan(win, qtbot):
    window, _doc, parts = win
    parts.cursor.play_seconds = 0.2
    window.play_action.trigger()
    assert shown(window, parts) == PLAYING
    qtbot.waitUntil(lambda: not parts.cursor.playing, timeout=5000)
    assert parts.cursor.time_h == parts.cursor.horizon_h
    assert shown(window, parts) == STOPPED


def test_nothing_to_play_leaves_both_unchecked(win):
    window, _doc, parts = win
    parts.cursor.set_horizon(0.0)  # no prediction yet: the cursor cannot play
    window.play_action.trigger()
    assert not parts.cursor.playing and shown(window, parts) == STOPPED
    parts.timeline.play_button.click()
    assert not parts.cursor.playing and shown(window, parts) == STOPPED
