"""Why a save failed, in one line the user can act on (Save, Save As and autosave all use it).

The store turns I/O and SQLite errors into ProjectFileError; a few values a project can hold in
memory cannot be written at all and raise plain Python errors from deep in the writer:

    UnicodeEncodeError  a string with a lone surrogate (e.g. "\\udc80" from a JSON file's escape)
    OverflowError       an integer beyond SQLite's signed 64-bit range (e.g. a LUN id of 2**63)

Their own messages name neither the object nor the field, so the project's data is searched for
the first such value and the message names where it is ("luns[3].id").
"""
from __future__ import annotations

from typing import Any

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


def printable(text: str) -> str:
    """`text` with lone surrogates written as \\udc80: Qt widgets and UTF-8 logs cannot take them."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def unsavable_value(data: Any, where: str = "") -> tuple[str, Any] | None:
    """(where, value) of the first value in `data` (dicts, lists, scalars) that no project file
    can store: a string (or key) with a lone surrogate, or an int outside 64 bits."""
    if isinstance(data, bool):
        return None
    if isinstance(data, int):
        return (where or "a value", data) if not INT64_MIN <= data <= INT64_MAX else None
    if isinstance(data, str):
        return (where or "a text", data) if _has_surrogate(data) else None
    if isinstance(data, dict):
        for key, value in data.items():
            name = f"{where}.{key}" if where else str(key)
            if isinstance(key, str) and _has_surrogate(key):
                return (f"{where or 'the project'}: the key {printable(key)!r}", key)
            found = unsavable_value(value, name)
            if found:
                return found
        return None
    if isinstance(data, (list, tuple)):
        for i, value in enumerate(data):
            found = unsavable_value(value, f"{where}[{i}]")
            if found:
                return found
    return None


def _unsavable_in(project: Any) -> tuple[str, Any] | None:
    if project is None:
        return None
    try:
        from app.store.project_json import project_to_dict
        return unsavable_value(project_to_dict(project))
    except Exception:  # noqa: BLE001 - only an explanation: never fail while explaining a failure
        return None


def save_error_text(exc: BaseException, project: Any = None) -> str:
    """One line that says why saving `project` raised `exc`."""
    from app.store.project_file import ProjectFileError

    if isinstance(exc, (ProjectFileError, OSError)):
        return printable(str(exc))
    found = _unsavable_in(project) if isinstance(exc, (UnicodeError, OverflowError, ValueError)) else None
    if isinstance(exc, UnicodeError):
        bad = ""
        if isinstance(exc, UnicodeEncodeError):
            bad = f" (U+{ord(exc.object[exc.start]):04X}, half of a surrogate pair)"
        if found:
            where, value = found
            return (f"{where} ('{printable(str(value))}') contains a character that cannot be "
                    f"saved{bad}; retype that text")
        return f"a text contains a character that cannot be saved{bad}; retype it"
    if isinstance(exc, OverflowError) and found:
        where, value = found
        return (f"{where} = {value} is too large to be saved (whole numbers are stored in 64 bits, "
                f"{INT64_MIN} to {INT64_MAX})")
    return printable(f"{type(exc).__name__}: {exc}")
