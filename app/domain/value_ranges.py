"""Ranges on rates values: `x = { value = 12, low = 10, high = 14, source = "...", range_source = "..." }`.

`low` and `high` are the value's 10th and 90th percentiles (the documents' scatter, a stated +/-,
a fit's standard error x 1.28); the uncertainty bands (app/service/uncertainty.py) sample them.
A value without `low`/`high` has no range and stays fixed. Checked here, with the rest of a rates
document's values (app.domain.rate_keys.check_values): both ends, numbers, low <= value <= high,
each end inside the key's valid range, `range_source` text. docs/presets.md "Ranges".
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

RANGE_KEYS = ("low", "high", "range_source")


def ranged_nodes(node: Any, path: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(dotted path, table) of every `{ value = ... }` table that has a range key."""
    if isinstance(node, Mapping):
        if "value" in node:
            if any(k in node for k in RANGE_KEYS):
                yield path, node
            return
        for key, val in node.items():
            yield from ranged_nodes(val, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for i, val in enumerate(node):
            yield from ranged_nodes(val, f"{path}[{i}]")


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def range_problems(doc: Mapping[str, Any], check_end: Callable[[str, float], str | None]) -> list[str]:
    """What is wrong with the ranges of a rates document, one message per value, naming its
    table and key. `check_end(path, x)`: why `x` is not a valid value at `path` (None: it is)."""
    out = []
    for path, node in ranged_nodes(doc):
        table, _, leaf = path.rpartition(".")
        name = f"[{table}] {leaf}" if table else leaf
        value, low, high = node.get("value"), node.get("low"), node.get("high")
        if "low" not in node or "high" not in node:
            missing = "high" if "low" in node else "low" if "high" in node else "low and high"
            out.append(f"{name}: a range needs both low and high ({missing} missing)")
            continue
        if not (_number(value) and _number(low) and _number(high)):
            bad = next(k for k, x in (("value", value), ("low", low), ("high", high)) if not _number(x))
            out.append(f"{name}: range {bad} must be a number, not {node.get(bad)!r}")
            continue
        if not low <= value <= high:
            out.append(f"{name}: range low = {low:g}, high = {high:g} must hold the value {value:g} "
                       f"(low <= value <= high)")
            continue
        for end, x in (("low", low), ("high", high)):
            why = check_end(path, float(x))
            if why:
                out.append(f"{name}: range {end} = {why}")
        if "range_source" in node and not isinstance(node["range_source"], str):
            out.append(f"{name}: range_source must be text (in quotes), not {node['range_source']!r}")
    return out


def markdown_ranges(rates_docs: Mapping[str, Mapping[str, Any]]) -> str:
    """The ranged values of the given rates documents ({rates_id: parsed TOML}) as a markdown
    table (docs/presets.md "Ranges", written by scripts/update_presets_doc.py)."""
    rows = ["| rates | value | P10 (low) | value | P90 (high) | where the range comes from |",
            "|---|---|---|---|---|---|"]
    for rid in sorted(rates_docs):
        doc = {k: v for k, v in rates_docs[rid].items() if k not in ("fit", "envelope")}
        for path, node in ranged_nodes(doc):
            why = str(node.get("range_source") or node.get("source", "")).replace("|", "/")
            rows.append(f"| `{rid}` | `{path}` | {node.get('low', '')} | {node.get('value', '')} | "
                        f"{node.get('high', '')} | {why} |")
    return "\n".join(rows)
