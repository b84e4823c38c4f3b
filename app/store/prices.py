"""The goal seek's price list: presets/prices.toml, then prices.toml in the user's preset folder
(which replaces the built-in one when present). Bad entries are a PresetError naming the file,
the table and the key; a missing file is an empty list (costs become drive counts)."""
from __future__ import annotations

import math
from pathlib import Path

from app.domain.prices import PRICE_TABLES, PriceList

from .presets import MAX_TOML_BYTES, PresetError, builtin_presets_dir, parse_toml, user_presets_dir
from .safe_read import read_regular

FILE_NAME = "prices.toml"


def parse_prices(text: str, where: str) -> PriceList:
    doc = parse_toml(text, where)
    unknown = sorted(set(doc) - set(PRICE_TABLES) - {"currency", "source"})
    if unknown:
        raise PresetError(f"{where}: unknown table or key {unknown[0]!r} (known: {', '.join(PRICE_TABLES)}, "
                          f"currency, source)")
    tables = {}
    for table in PRICE_TABLES:
        raw = doc.get(table, {})
        if not isinstance(raw, dict):
            raise PresetError(f"{where}: [{table}] must be a table of part id = price")
        out = {}
        for key, value in raw.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise PresetError(f"{where}: [{table}] {key}: a price is a number of at least 0, not {value!r}")
            out[key] = float(value)
        tables[table] = out
    for key in ("currency", "source"):
        if key in doc and not isinstance(doc[key], str):
            raise PresetError(f"{where}: {key} must be text")
    return PriceList(tables["drives"], tables["enclosures"], tables["features"], tables["cache"],
                     doc.get("currency", ""), doc.get("source", "") or where)


def load_prices(user_dir: Path | None = None) -> PriceList:
    user = (user_presets_dir() if user_dir is None else user_dir) / FILE_NAME
    path = user if user.is_file() else builtin_presets_dir() / FILE_NAME
    if not path.is_file():
        return PriceList()
    data = read_regular(path, "price list", MAX_TOML_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PresetError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_prices(text, str(path))
