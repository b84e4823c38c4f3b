"""presets/sources.toml: the bibliography the presets' citation keys refer to (app/domain/sources.py)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from app.domain.sources import Bibliography, bibliography_from_tables

from .presets import PresetError, builtin_presets_dir, parse_toml

SOURCES_FILE = "sources.toml"


def load_bibliography(path: Path | None = None) -> Bibliography:
    """The bibliography in `path` (default: the built-in presets/sources.toml); PresetError names
    the file and table when it cannot be read."""
    path = path or builtin_presets_dir() / SOURCES_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PresetError(f"{path}: cannot read the bibliography ({e.strerror or e})") from e
    try:
        return bibliography_from_tables(parse_toml(text, str(path)), str(path))
    except ValueError as e:
        raise PresetError(str(e)) from e


@lru_cache(maxsize=1)
def default_bibliography() -> Bibliography:
    """The built-in bibliography, read once (it does not change while the app runs)."""
    return load_bibliography()


def cite(text: str) -> str:
    """`text` with the built-in bibliography's citation keys expanded (the GUI's tooltips)."""
    return default_bibliography().cite(text)
