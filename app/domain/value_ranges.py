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


def markdown_hardware_ranges(drives: Mapping[str, Any], platforms: Mapping[str, Any]) -> str:
    """The ranged drive and platform numbers (DriveType / Platform `value_ranges`, by id) as a
    markdown table (docs/presets.md "Ranges", written by scripts/update_presets_doc.py)."""
    rows = ["| preset | value | P10 (low) | value | P90 (high) | where the range comes from |",
            "|---|---|---|---|---|---|"]
    for kind, table, items, field_of in (("drive", "[[drive]]", drives, lambda key: key),
                                         ("platform", "", platforms, lambda path: PLATFORM_FIELDS[path])):
        for pid in sorted(items):
            for key, low, high, why in items[pid].value_ranges:
                value = getattr(items[pid], field_of(key))
                rows.append(f"| {kind} `{pid}` | `{key}` | {low:g} | {value:g} | {high:g} | {why.replace('|', '/')} |")
    return "\n".join(rows)


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


# drive and platform numbers that may carry a range (the ones the engine reads per run; a value
# derived from others, random_ms from seek_ms, ranges through what it is derived from only when
# written out itself): table -> keys (docs/presets.md "Ranges")
RANGED_FIELDS: dict[str, tuple[str, ...]] = {
    "[[drive]]": ("seq_mb_s", "random_ms", "read_latency_ms"),
    "back_end": ("bus_mb_s",),
    "host_ports": ("mb_s",),
}
# a platform's ranged number -> the Platform field the parser puts it in (the bands set that field)
PLATFORM_FIELDS: dict[str, str] = {"back_end.bus_mb_s": "bus_mb_s", "host_ports.mb_s": "host_port_mb_s"}


def unwrap_ranges(table: Mapping[str, Any], keys: tuple[str, ...],
                  check_end: Callable[[str, float], str | None]
                  ) -> tuple[dict[str, Any], tuple[tuple[str, float, float, str], ...], list[str]]:
    """A drive or platform table with its `{ value, low, high, range_source }` numbers written
    as plain values: (plain table, ((key, low, high, range_source), ...), problems). Only `keys`
    may be written so; a problem names the key (the caller adds file and table)."""
    plain = dict(table)
    ranges: list[tuple[str, float, float, str]] = []
    problems: list[str] = []
    for key, node in table.items():
        if not isinstance(node, Mapping):
            continue
        if key not in keys:
            if "value" in node:
                problems.append(f"{key} cannot carry a range (only {', '.join(keys) or 'none'} here): write a number")
            continue
        if "value" not in node:
            problems.append(f"{key} must be a number or {{ value = ..., low = ..., high = ..., range_source = "
                            f"\"...\" }}, not {dict(node)!r}")
            continue
        extra = [k for k in node if k not in ("value", "source", "unit", "note", *RANGE_KEYS)]
        if extra:
            problems.append(f"{key} has {extra[0]!r}: a ranged value takes value, low, high, range_source")
            continue
        found = range_problems({key: node}, check_end)
        if found:
            problems.extend(found)
            continue
        plain[key] = node["value"]
        if "low" in node:
            ranges.append((key, float(node["low"]), float(node["high"]), str(node.get("range_source", ""))))
    return plain, tuple(ranges), problems
