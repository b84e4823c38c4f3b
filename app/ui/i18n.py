"""Translation-ready strings (Qt's tr and .ts files), though English is the only language shipped.

    from app.ui.i18n import QT_TR_NOOP, tr
    QLabel(tr("Response-time target"))
    tr("Delete {label}").format(label=group.label)  # named placeholders, never an f-string inside tr
    TITLES = {"File": QT_TR_NOOP("&File")}           # marked at import, translated where shown: tr(TITLES[k])

Every string goes in one context (""), so a phrase used in several views is translated once.
`scripts/update_translations.py` collects them with pyside6-lupdate into
resources/i18n/arrayplanner_en.ts (tests/test_translations.py checks it is up to date); a
translator copies it to arrayplanner_<lang>.ts, translates it in Qt Linguist and compiles it
with `scripts/update_translations.py --release` to a .qm that install_translators() loads at
start-up for the system's language.

Texts made outside the GUI (the domain's validation messages, operation names, the engine's
advisories, the PDF report) are not translated: those layers do not import Qt.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.domain.formatting import format_count

I18N_DIR = Path(__file__).resolve().parents[2] / "resources" / "i18n"
CATALOG = "arrayplanner"  # arrayplanner_<lang>.qm
CONTEXT = ""  # what pyside6-lupdate gives a call of a free function tr()


def tr(text: str, disambiguation: str | None = None) -> str:
    """`text` in the user's language when a translation is installed, else as written."""
    return QCoreApplication.translate(CONTEXT, text, disambiguation)


def tr_count(n: float, one: str, many: str) -> str:
    """A count with its noun: tr_count(3, "{n} drive", "{n} drives") -> "3 drives" (both forms
    literal, so both are translated; {n} with thousands separators)."""
    return tr(one if n == 1 else many).format(n=format_count(n))


def QT_TR_NOOP(text: str) -> str:  # noqa: N802 - the name pyside6-lupdate looks for
    """Mark a string for translation where it is defined (a module constant, made before any
    translator is installed); translate it with tr() where it is shown."""
    return text


def install_translators(app, locale: QLocale | None = None, folder: Path = I18N_DIR) -> list[str]:
    """Install the app's translation for `locale` (default: the system's) where one exists, and
    then Qt's own (the standard dialogs' buttons: without the app's, they would be the only
    words not in English); returns the files loaded. English needs none."""
    locale = locale or QLocale.system()
    loaded: list[str] = []
    app._translators = getattr(app, "_translators", [])  # kept alive: the app does not own them
    for name, where in ((CATALOG, str(folder)), ("qtbase", QLibraryInfo.path(QLibraryInfo.TranslationsPath))):
        translator = QTranslator(app)
        if not translator.load(locale, name, "_", where, ".qm"):
            break
        app.installTranslator(translator)
        app._translators.append(translator)
        loaded.append(translator.filePath())
    return loaded
