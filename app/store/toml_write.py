"""Preset documents written back as TOML (the standard library only reads it): tomli-w, the
writer of the tomllib family, so that what tomllib reads back is what was written."""
from __future__ import annotations

from typing import Any, Mapping

import tomli_w

from app.domain.hardware import Platform


def dumps(doc: Mapping[str, Any]) -> str:
    """`doc` as a TOML document: tables, arrays of tables, strings, numbers (nan and inf too),
    booleans, lists. Raises TypeError for a value TOML has no form for (None, say)."""
    return tomli_w.dumps(doc)


def platform_snapshot_text(platform: Platform) -> str:
    """The platform's preset as TOML, with its rate tables inline (`rates_inline`), so that
    app.store.presets.platform_from_text can rebuild it where the user preset is missing."""
    doc = dict(platform.document)
    if not doc:
        raise ValueError(f"platform {platform.id!r} has no preset document to copy")
    doc["rates_inline"] = dict(platform.rates_document)
    return ("# Platform preset embedded by ArrayPlanner so the project opens without the user preset.\n"
            + dumps(doc))
