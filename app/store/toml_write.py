"""A small TOML writer (the standard library only reads TOML), enough for preset documents:
tables, arrays of tables, strings, numbers, booleans and lists of scalars or inline tables."""
from __future__ import annotations

import json
import math
import re
from typing import Any, Mapping

from app.domain.hardware import Platform

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k)


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_scalar(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _emit(out: list[str], table: Mapping[str, Any], prefix: str) -> None:
    plain = [(k, v) for k, v in table.items() if not isinstance(v, Mapping) and not _is_table_array(v)]
    for k, v in plain:
        out.append(f"{_key(k)} = {_scalar(v)}")
    for k, v in table.items():
        name = f"{prefix}.{_key(k)}" if prefix else _key(k)
        if isinstance(v, Mapping):
            out.append("")
            out.append(f"[{name}]")
            _emit(out, v, name)
        elif _is_table_array(v):
            for item in v:
                out.append("")
                out.append(f"[[{name}]]")
                _emit(out, item, name)


def dumps(doc: Mapping[str, Any]) -> str:
    out: list[str] = []
    _emit(out, doc, "")
    return "\n".join(out).lstrip("\n") + "\n"


def platform_snapshot_text(platform: Platform) -> str:
    """The platform's preset as TOML, with its rate tables inline (`rates_inline`), so that
    app.store.presets.platform_from_text can rebuild it where the user preset is missing."""
    doc = dict(platform.document)
    if not doc:
        raise ValueError(f"platform {platform.id!r} has no preset document to copy")
    doc["rates_inline"] = dict(platform.rates_document)
    return ("# Platform preset embedded by ArrayPlanner so the project opens without the user preset.\n"
            + dumps(doc))
