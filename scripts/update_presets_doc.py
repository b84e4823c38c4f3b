#!/usr/bin/env python3
"""Regenerate the key reference tables of docs/presets.md from app/domain/rate_keys.py.

    python scripts/update_presets_doc.py          # rewrite the tables in place
    python scripts/update_presets_doc.py --check  # exit 1 when the document is out of date

The tables sit between `<!-- rate-keys:begin -->` / `<!-- rate-keys:end -->` and
`<!-- fields:begin -->` / `<!-- fields:end -->`, and the built-in ranged values (from
presets/rates/*.toml) between `<!-- ranges:begin -->` / `<!-- ranges:end -->`;
tests/test_custom_platforms.py and tests/test_uncertainty.py fail when they are out of date.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.domain.rate_keys import markdown_fields, markdown_table  # noqa: E402
from app.domain.value_ranges import markdown_hardware_ranges, markdown_ranges  # noqa: E402

DOC = ROOT / "docs" / "presets.md"


def builtin_rates_docs() -> dict[str, dict]:
    import tomllib

    out = {}
    for path in sorted((ROOT / "presets" / "rates").glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        out[str(doc.get("rates_id", path.stem))] = doc
    return out


def updated(text: str) -> str:
    from app.store.presets import load_catalog

    builtin = load_catalog(user_dir=ROOT / "presets" / "no-user-presets")  # the shipped presets alone
    for name, table in (("rate-keys", markdown_table()), ("fields", markdown_fields()),
                        ("ranges", markdown_ranges(builtin_rates_docs())),
                        ("hardware-ranges", markdown_hardware_ranges(builtin.drives, builtin.platforms))):
        pattern = re.compile(rf"(<!-- {name}:begin -->\n)(?:.*?\n)?(<!-- {name}:end -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"{DOC}: no <!-- {name}:begin --> ... <!-- {name}:end --> markers")
        text = pattern.sub(lambda m: m.group(1) + table + "\n" + m.group(2), text)
    return text


def main(argv: list[str]) -> int:
    text = DOC.read_text()
    new = updated(text)
    if "--check" in argv:
        return 0 if new == text else 1
    if new != text:
        DOC.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
