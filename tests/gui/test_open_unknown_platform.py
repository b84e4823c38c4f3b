"""A project whose platform is neither a preset nor embedded in the file is refused, whichever way
it comes in (open .json or .arrayplan, recovery, new), and the open project stays as it was. It used
to open half-way: load() said "Opened" and every panel's refresh raised KeyError."""
from __future__ import annotations

import json
import sqlite3

from PySide6.QtWidgets import QMessageBox

from app.store.project_file import load_project, save_project
from configurator_support import EXAMPLES, config_dict, isolated, make_window, settle  # noqa: F401


def _kept(w, before, title) -> bool:
    return (config_dict(w.document.project) == before and w.windowTitle() == title
            and w.document.platform.id == before["platform_id"] and not w.document.dirty)


def _hp_example_with(path, sql: str):
    """The HP example saved as a project file at `path`, then `sql` run on its project table."""
    save_project(load_project(EXAMPLES / "hp-sa6402-raid5.json"), path)
    con = sqlite3.connect(path)
    con.execute(sql)
    con.commit()
    con.close()
    return path


def _refusing(w, monkeypatch) -> list[str]:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    return shown


def test_open_json_and_arrayplan_with_an_unknown_platform_are_refused(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    settle(qtbot)
    before, title = config_dict(w.document.project), w.windowTitle()
    shown = _refusing(w, monkeypatch)

    d = json.loads((EXAMPLES / "hp-sa6402-raid5.json").read_text())
    d["platform_id"], d["platform_snapshot"] = "nope", None
    bad_json = isolated / "nope.json"
    bad_json.write_text(json.dumps(d))
    bad_db = _hp_example_with(isolated / "nope.arrayplan", "UPDATE project SET platform_id = 'nope'")

    for path in (bad_json, bad_db):
        shown.clear()
        assert not w.files.load(path)
        settle(qtbot)
        assert len(shown) == 1 and path.name in shown[0]
        assert "platform 'nope' is not in the preset catalog" in shown[0]
        assert not w.statusBar().currentMessage().startswith("Opened")
        assert _kept(w, before, title)
        assert str(path.resolve()) not in w.files.recent_files()


def test_open_with_an_unreadable_embedded_platform_keeps_the_project(qtbot, isolated, monkeypatch):
    w = make_window(qtbot)
    before, title = config_dict(w.document.project), w.windowTitle()
    shown = _refusing(w, monkeypatch)
    bad = _hp_example_with(isolated / "garbled.arrayplan",
                           "UPDATE project SET platform_id = 'zzz', platform_snapshot = 'garbage = ['")
    assert not w.files.load(bad)
    settle(qtbot)
    assert shown and "embedded platform" in shown[0]
    assert shown[0].startswith(f"{bad}: "), shown  # which file (the message had no path)
    assert _kept(w, before, title)


def test_recovery_and_new_with_an_unknown_platform_are_refused(qtbot, isolated, monkeypatch):
    from app.ui import recovery

    w = make_window(qtbot)
    before, title = config_dict(w.document.project), w.windowTitle()
    shown = _refusing(w, monkeypatch)

    orphan = load_project(EXAMPLES / "hp-sa6402-raid5.json")
    orphan.platform_id = "nope"
    data = isolated / "recovery" / "999999-dead.arrayplan"
    save_project(orphan, data)
    monkeypatch.setattr(recovery, "ask", lambda _p, leftovers: recovery.Choice(restore=list(leftovers)))
    assert not w.files.offer_recovery()
    assert data.exists()  # kept: restorable once the preset is back, or discarded explicitly
    settle(qtbot)
    assert shown and "platform 'nope' is not in the preset catalog" in shown[-1]
    assert _kept(w, before, title)

    shown.clear()
    assert not w.files.new(orphan)
    settle(qtbot)
    assert shown and "platform 'nope'" in shown[-1]
    assert _kept(w, before, title)
