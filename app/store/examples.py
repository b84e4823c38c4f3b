"""The built-in example projects (presets/examples/*.json): one per source document's test set-up."""
from __future__ import annotations

from pathlib import Path

from .presets import builtin_presets_dir

# The project `arrayplanner --example` opens: the EMC OLTP load with ASAP migrations.
DEFAULT_EXAMPLE = "emc-cx4-960-oltp.json"


def examples_dir() -> Path:
    return builtin_presets_dir() / "examples"


def example_paths() -> list[Path]:
    """Every built-in example project, sorted by file name."""
    return sorted(examples_dir().glob("*.json"))


def default_example_path() -> Path:
    return examples_dir() / DEFAULT_EXAMPLE


def example_path(name: str) -> Path:
    """An example by file name, with or without '.json' (KeyError naming the known ones)."""
    stem = name[:-5] if name.endswith(".json") else name
    for p in example_paths():
        if p.stem == stem:
            return p
    known = ", ".join(p.stem for p in example_paths())
    raise KeyError(f"no example {name!r} (examples: {known})")


def example_title(path: Path) -> str:
    """The example's own title (its info.title, as the window shows it), else its file name:
    the New dialog lists titles, not slugs like "emc-cx4-960-oltp"."""
    import json

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        title = doc.get("info", {}).get("title") if isinstance(doc, dict) else None
    except (OSError, ValueError, AttributeError):
        title = None
    return title.strip() if isinstance(title, str) and title.strip() else path.stem
