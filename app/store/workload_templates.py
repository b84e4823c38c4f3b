"""presets/workload_templates.toml: the workload templates (app.domain.workload_templates), each
value with its source. A file that cannot be used raises PresetError naming the file, the
template and the key."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from app.domain.rate_keys import check_number
from app.domain.workload_templates import TEMPLATE_FIELDS, WorkloadTemplate
from app.store.presets import PresetError, _read_toml, builtin_presets_dir

FILE_NAME = "workload_templates.toml"
# each figure's valid range: the inspector's editors' (app/ui/inspector.py WORKLOAD_SPECS)
_RANGES = {"io_kb": (0.5, 16384.0, "KB"), "read_pct": (0.0, 100.0, "%"), "random_pct": (0.0, 100.0, "%"),
           "read_hit_pct": (0.0, 100.0, "%")}
_KEYS = ("id", "name", *TEMPLATE_FIELDS, "sources", "note")
ARRAY_MODEL = "array"  # read_hit_pct = "array": the array's cache model, no fixed figure


def parse_templates(doc: dict[str, Any], where: str) -> tuple[WorkloadTemplate, ...]:
    tables = doc.get("template", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise PresetError(f"{where}: templates must be [[template]] tables")
    out: list[WorkloadTemplate] = []
    for i, t in enumerate(tables):
        label = f"{where}: [[template]] #{i + 1}" + (f" ({t['id']})" if isinstance(t.get("id"), str) else "")
        unknown = sorted(set(t) - set(_KEYS))
        if unknown:
            raise PresetError(f"{label}: unknown key {unknown[0]!r} (keys: {', '.join(_KEYS)})")
        for key in ("id", "name"):
            if not isinstance(t.get(key), str) or not t[key].strip():
                raise PresetError(f"{label}: {key} must be a non-empty text")
        values: dict[str, Any] = {}
        for key in TEMPLATE_FIELDS:
            if key not in t:
                raise PresetError(f"{label}: missing {key!r}")
            value = t[key]
            if key == "read_hit_pct" and value == ARRAY_MODEL:
                values[key] = None
                continue
            lo, hi, unit = _RANGES[key]
            problem = check_number(value, lo, hi, unit=unit)
            if problem:
                hint = ' or "array" (the array\'s cache model)' if key == "read_hit_pct" else ""
                raise PresetError(f"{label}: {key} {problem}{hint}")
            values[key] = float(value)
        sources = t.get("sources")
        if not isinstance(sources, dict):
            raise PresetError(f"{label}: missing [template.sources]: every value says where it comes from")
        for key in TEMPLATE_FIELDS:
            if not isinstance(sources.get(key), str) or not sources[key].strip():
                raise PresetError(f"{label}: [template.sources] has no source for {key} "
                                  f"(a document, or 'rule of thumb: ...')")
        if any(o.id == t["id"] for o in out):
            raise PresetError(f"{label}: id {t['id']!r} is used twice")
        out.append(WorkloadTemplate(t["id"], t["name"], sources=dict(sources), **values))
    return tuple(out)


def load_templates(path: Path | None = None) -> tuple[WorkloadTemplate, ...]:
    """The templates of `path` (default: the built-in presets/workload_templates.toml)."""
    if path is None:
        return _builtin()
    return parse_templates(_read_toml(path), path.name)


@lru_cache(maxsize=1)
def _builtin() -> tuple[WorkloadTemplate, ...]:
    path = builtin_presets_dir() / FILE_NAME
    return parse_templates(_read_toml(path), FILE_NAME)
