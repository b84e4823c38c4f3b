"""Strings ready for translation: the GUI's user-visible texts go through app.ui.i18n.tr, the
catalog resources/i18n/arrayplanner_en.ts holds exactly them (scripts/update_translations.py),
and a compiled translation for the system's language is installed at start-up."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import update_translations  # noqa: E402

# a literal handed straight to a Qt call that shows it (tr("...") inside the call is fine)
SHOWN = re.compile(
    r"\b(QLabel|QPushButton|QCheckBox|QGroupBox|QToolButton|QRadioButton|QAction|QMenu|QDockWidget|"
    r"setToolTip|setStatusTip|setWindowTitle|setPlaceholderText|addMenu|addTab|setTitle|setHeaderLabels|"
    r"setHorizontalHeaderLabels|setSpecialValueText|_action|_title|_note|showMessage|status|message\.emit|"
    r"QMessageBox\.\w+)\((?:[^()\"']*,\s*)?(text=)?f?(\"[^\"]*[A-Za-z][^\"]*\"|'[^']*[A-Za-z][^']*')")


def unwrapped() -> list[str]:
    out = []
    for path in sorted((ROOT / "app" / "ui").rglob("*.py")):
        if path.name in ("screenshot.py",):  # a developer's tool: its help is not shown in the app
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            m = SHOWN.search(line)
            if m and re.search(r"[A-Za-z]{2}", re.sub(r"\{[^}]*\}", "", m.group(3))):  # words, not only {fields}
                out.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return out


def messages(ts: Path) -> set[tuple[str, str]]:
    root = ET.parse(ts).getroot()
    return {(m.findtext("source"), m.findtext("comment") or "") for m in root.iter("message")}


def test_shown_literals_go_through_tr():
    assert not unwrapped(), "shown without tr():\n" + "\n".join(unwrapped())


def test_no_f_string_inside_tr():
    """lupdate cannot read an f-string: the source text must be a literal (use .format)."""
    found = [f"{p.relative_to(ROOT)}:{n}" for p in (ROOT / "app" / "ui").rglob("*.py")
             for n, line in enumerate(p.read_text().splitlines(), 1) if re.search(r"\btr\(\s*f[\"']", line)]
    assert not found, found


@pytest.mark.skipif(not (Path(sys.executable).parent / "pyside6-lupdate").exists()
                    and not shutil.which("pyside6-lupdate"), reason="pyside6-lupdate comes with PySide6")
def test_the_english_catalog_is_up_to_date(tmp_path):
    fresh = tmp_path / "fresh.ts"
    update_translations.update(fresh)
    committed = messages(update_translations.TS)
    now = messages(fresh)
    assert len(now) > 300  # the GUI's strings, not an empty file
    assert now == committed, (f"run scripts/update_translations.py: new {sorted(now - committed)[:10]}, "
                              f"gone {sorted(committed - now)[:10]}")


@pytest.mark.skipif(not (Path(sys.executable).parent / "pyside6-lrelease").exists()
                    and not shutil.which("pyside6-lrelease"), reason="pyside6-lrelease comes with PySide6")
def test_a_translation_for_the_system_language_is_installed_at_start(tmp_path, qapp):
    """A German .qm in the folder: install_translators loads it for a German locale, and the main
    window's menus come up in German."""
    from PySide6.QtCore import QLocale

    from app.ui.i18n import install_translators, tr

    ts = tmp_path / "arrayplanner_de.ts"
    ts.write_text('<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" language="de">'
                  '<context><name></name><message><source>&amp;File</source>'
                  '<translation>&amp;Datei</translation></message></context></TS>')
    subprocess.run([update_translations.tool("pyside6-lrelease"), str(ts), "-qm", str(tmp_path / "arrayplanner_de.qm")],
                   check=True, stdout=subprocess.DEVNULL)
    assert install_translators(qapp, QLocale("fr_FR"), folder=tmp_path) == []  # none for French
    loaded = install_translators(qapp, QLocale("de_DE"), folder=tmp_path)
    try:
        assert loaded and loaded[0].endswith("arrayplanner_de.qm")
        assert tr("&File") == "&Datei"
        from app.store.presets import default_catalog
        from app.ui.document import Document
        from app.ui.main_window import MainWindow
        from app.ui.sample import sample_project

        catalog = default_catalog()
        window = MainWindow(Document(sample_project(catalog), catalog), plugins=())
        try:
            assert window.menu("File").title() == "&Datei"
        finally:
            window.document.mark_saved()
            window.deleteLater()
    finally:
        for t in qapp._translators:
            qapp.removeTranslator(t)
        qapp._translators.clear()
    assert tr("&File") == "&File"
