"""Load the preset catalog: platforms, drive types and rate tables (TOML, human-edited).

Format (docs/presets.md has the full description):

* presets/drives.toml           [[drive]] tables, one per drive type, each with a `source`.
* presets/rates/<id>.toml       the engine's tables for one firmware family. Any table may carry a
                                `source = "..."` (and `unit = "..."`) that applies to the numbers
                                directly inside it; a number may instead be written
                                `{ value = 12.2, source = "...", unit = "MB/s" }`.
* presets/platforms/<id>.toml   hardware, cache/LUN setting schemas, RAID rules, features,
                                operations; `rates = "<id>"` names its rate tables, and an optional
                                `[rates_override]` table deep-merges over them (a custom array).

User presets: every *.toml in the user preset folder (ARRAYPLANNER_PRESETS, or the platform's
config folder + "/presets") is loaded after the built-ins and may add or replace platforms,
drives and rates. A broken user file is reported in Catalog.problems, never fatal.
"""
from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any, Mapping

from app.domain.envelope import problems as envelope_problems
from app.domain.hardware import (
    CapacitySpec, Catalog, ControllerSpec, DriveType, EnclosureType, FeatureSpec, Interface, OperationSpec,
    Param, Platform, RaidRule, SettingSpec, Tables, hdd_random_ms, ssd_random_ms,
)
from app.domain.policies import policy_problems
from app.domain.raid import RaidType
from app.domain.value_ranges import RANGE_KEYS, RANGED_FIELDS, unwrap_ranges
from app.domain.rate_keys import (
    INTERFACES, MIN_SPINNING_RPM, OPERATION_KINDS, RAID_KEYS, RESERVED_TABLES, SETTING_KINDS, PlatformFacts,
    PresetIssue, check_number, check_rates, check_values, field_spec, known_fields, nearest,
)
from app.store import user_dirs
from app.store.safe_read import UnreadableFile, read_regular


class PresetError(ValueError):
    """A preset file is malformed; the message names the file and the key."""


# The deepest nesting of tables and lists a preset may have (the shipped ones reach 9); the
# loader walks them recursively, so a dotted key of 3,000 parts ended in RecursionError.
MAX_TOML_DEPTH = 32
# The largest preset file read (the shipped ones are under 40 KB).
MAX_TOML_BYTES = 16 * 2**20


def toml_depth(doc: Any) -> int:
    """How deeply tables and lists nest in parsed TOML (without recursion)."""
    deepest, stack = 0, [(doc, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            node = node.values()
        elif not isinstance(node, list):
            continue
        depth += 1
        deepest = max(deepest, depth)
        if depth <= MAX_TOML_DEPTH:  # deeper is refused anyway: no need to walk a hostile file to its end
            stack.extend((v, depth) for v in node)
    return deepest


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """tomllib.loads for a preset or an embedded platform: PresetError naming `where` for invalid
    TOML, nesting beyond MAX_TOML_DEPTH (tomllib itself recurses into nested inline arrays and
    tables: RecursionError) or a number it cannot take (more than 4,300 digits)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PresetError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise PresetError(f"{where}: not valid TOML: lists or tables nest too deeply "
                          f"(a preset has at most {MAX_TOML_DEPTH} levels)") from None
    except ValueError as exc:  # int("1" * 5000): Python's limit on digits
        why = "a number has more than 4,300 digits" if "4300" in str(exc) else " ".join(str(exc).split())
        raise PresetError(f"{where}: not valid TOML: {why}") from None
    depth = toml_depth(doc)
    if depth > MAX_TOML_DEPTH:
        raise PresetError(f"{where}: tables and lists nest more than {MAX_TOML_DEPTH} levels deep (a dotted "
                          f"key of that many parts?); a preset has at most {MAX_TOML_DEPTH}")
    return doc


def builtin_presets_dir() -> Path:
    """presets/ next to the app package, or inside a PyInstaller bundle."""
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[2]))
    return base / "presets"


def user_presets_dir() -> Path:
    """The user preset folder (app/store/user_dirs.py: $ARRAYPLANNER_PRESETS, else the per-user
    data folder's presets/, or an old folder not moved yet)."""
    return user_dirs.presets_dir()


# ---------------------------------------------------------------- sourced tables

def _sourced(node: Mapping[str, Any], path: str, source: str, unit: str, where: str) -> Tables:
    """Turn a parsed TOML table into Tables whose numeric leaves are Params with a source."""
    source = _text(node, "source", source, path, where)
    unit = _text(node, "unit", unit, path, where)
    out: dict[str, Any] = {}
    for key, val in node.items():
        if key in ("source", "unit", "note"):
            continue
        sub = f"{path}.{key}" if path else key
        if isinstance(val, bool):
            out[key] = val
        elif isinstance(val, (int, float)):
            if not source:
                raise PresetError(f"{where}: {sub} = {val} has no source (add source = \"...\" to its table)")
            out[key] = Param(float(val), source, unit, sub)
        elif isinstance(val, dict) and "value" in val and isinstance(val["value"], (int, float)):
            src = _text(val, "source", source, sub, where)
            if not src:
                raise PresetError(f"{where}: {sub} has no source")
            out[key] = Param(float(val["value"]), src, _text(val, "unit", unit, sub, where), sub)
        elif isinstance(val, dict):
            out[key] = _sourced(val, sub, source, unit, where)
        elif isinstance(val, list):
            out[key] = [
                _sourced(v, f"{sub}[{i}]", source, unit, where) if isinstance(v, dict) else v
                for i, v in enumerate(val)
            ]
        else:
            out[key] = val  # strings: names, notes, modes
    return Tables(out, path)


def _text(node: Mapping[str, Any], key: str, default: str, path: str, where: str) -> str:
    """node[key] (a table's source or unit), which must be text: a number there reached the
    engine's messages (TypeError joining the sources of a range)."""
    value = node.get(key, default)
    if not isinstance(value, str):
        raise PresetError(f"{where}: {f'[{path}] ' if path else ''}{key} must be text (in quotes), not {value!r}")
    return value


def _deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for k, v in over.items():
        # (a policy table that names its kind replaces the level's policy: another kind's parameters
        # would not apply to it)
        if isinstance(v, dict) and isinstance(merged.get(k), dict) and "value" not in v and "kind" not in v:
            merged[k] = _deep_merge(merged[k], v)
        else:
            merged[k] = v
    return merged


# ---------------------------------------------------------------- parsing

def _req(d: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in d:
        raise PresetError(f"{where}: missing {key!r}")
    return d[key]


def _choice(value: Any, valid: tuple[str, ...], what: str, where: str) -> str:
    if not isinstance(value, str) or value not in valid:
        raise PresetError(f"{where}: {what} {value!r} is not one of {', '.join(valid)}")
    return value


def _interfaces(values: Any, where: str) -> tuple[Interface, ...]:
    if isinstance(values, str) or not isinstance(values, (list, tuple)):
        raise PresetError(f"{where}: interfaces must be a list such as [\"FC\", \"SATA\"], not {values!r}")
    return tuple(Interface(_choice(v, INTERFACES, "interface", where)) for v in values)


def _form_factor(d: Mapping[str, Any], where: str) -> str:
    """A drive's or slot's size in inches as text ("2.5"); "" when the preset does not say."""
    value = d.get("form_factor")
    if value is None or value == "":
        return ""
    try:
        inches = float(str(value).rstrip('"')) if isinstance(value, (str, int, float)) else 0.0
    except ValueError:
        inches = 0.0
    if isinstance(value, bool) or not 0 < inches < 10:
        raise PresetError(f"{where}: {d.get('id', '?')}: form_factor must be a size in inches such as "
                          f"\"2.5\" or \"3.5\", not {value!r}")
    return f"{inches:g}"


def _field(d: Mapping[str, Any], table: str, key: str, where: str, label: str | None = None) -> Any:
    """d[key] checked against the registry's Field (app.domain.rate_keys.FIELDS): its default when
    absent, PresetError naming file, table and key when missing or out of range."""
    spec = field_spec(table, key)
    if label is None:
        label = f"[{table}]" if table and not table.startswith("[") else table
    if key not in d or d[key] is None:
        if spec.required:
            typo = nearest(key, [k for k in d if isinstance(k, str) and k not in known_fields(table)])
            raise PresetError(f"{where}: {label + ' ' if label else ''}missing {key!r}"
                              + (f" ({spec.doc})" if spec.doc else "")
                              + (f"; it has {typo[0]!r}: a typo?" if typo else ""))
        return spec.default
    problem = spec.check(d[key])
    if problem:
        raise PresetError(f"{where}: {label + ' ' if label else ''}{key} {problem}")
    value = d[key]
    if spec.kind == "int":
        return int(value)
    if spec.kind == "float":
        return float(value)
    return value


def _table(doc: Mapping[str, Any], key: str, where: str, required: bool = False) -> dict[str, Any]:
    val = doc.get(key)
    if val is None:
        if required:
            raise PresetError(f"{where}: missing table [{key}]")
        return {}
    if not isinstance(val, dict):
        raise PresetError(f"{where}: {key} must be a table ([{key}] ...), not {val!r}")
    return val


def _tables(doc: Mapping[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    val = doc.get(key)
    if val is None:
        raise PresetError(f"{where}: missing [[{key}]] (one table per entry)")
    if not isinstance(val, list) or not val or not all(isinstance(v, dict) for v in val):
        raise PresetError(f"{where}: {key} must be one or more [[{key}]] tables, not {val!r}")
    return val


def _subtables(doc: Mapping[str, Any], key: str, where: str) -> dict[str, dict[str, Any]]:
    tab = _table(doc, key, where)
    for name, v in tab.items():
        if not isinstance(v, dict):
            raise PresetError(f"{where}: [{key}] {name} must be a table ([{key}.{name}] ...), not {v!r}")
    return tab


HOURS_PER_YEAR = 8766.0  # 365.25 days


def parse_drive(d: Mapping[str, Any], where: str) -> DriveType:
    if not isinstance(d, dict):
        raise PresetError(f"{where}: drive must be a [[drive]] table, not {d!r}")
    label = f"[[drive]] {d['id']!r}:" if isinstance(d.get("id"), str) else "[[drive]]"
    d, ranges = _without_ranges(d, "[[drive]]", where, label)
    f = lambda key: _field(d, "[[drive]]", key, where, label)  # noqa: E731
    drive_id, name = f("id"), f("name")
    interface = Interface(f("interface"))  # (the field's choices checked the name)
    rpm = f("rpm")
    # flash has no spindle (rpm 0) on any bus; a spinning drive needs its speed, and NVMe is flash
    if rpm != 0 and rpm < MIN_SPINNING_RPM or (rpm == 0 and interface in (Interface.FC, Interface.SCSI)):
        raise PresetError(f"{where}: {label} rpm {rpm} is out of range for a {interface.value} drive "
                          f"(valid: {MIN_SPINNING_RPM:,} to 30,000, or 0 for an SSD on SAS, SATA, NVMe)")
    if interface is Interface.NVME and rpm != 0:
        raise PresetError(f"{where}: {label} an NVMe drive is an SSD: rpm must be 0, not {rpm}")
    extra = {k: f(k) for k in ("seek_ms", "seq_outer_mb_s", "seq_inner_mb_s", "read_iops", "write_iops",
                               "read_latency_ms", "ure_bits", "afr_pct", "dwpd")}
    seq = d.get("seq_mb_s")
    if seq is None and extra["seq_outer_mb_s"] and extra["seq_inner_mb_s"]:
        seq = (extra["seq_outer_mb_s"] + extra["seq_inner_mb_s"]) / 2.0  # the mean over the zones
    seq_mb_s = f("seq_mb_s") if seq is None or "seq_mb_s" in d else float(seq)
    if "random_ms" in d:
        random_ms = f("random_ms")
    elif rpm == 0 and extra["read_iops"]:
        random_ms = ssd_random_ms(extra["read_iops"], extra["write_iops"])
    elif rpm and extra["seek_ms"]:
        random_ms = hdd_random_ms(extra["seek_ms"], rpm, seq_mb_s)
    else:
        raise PresetError(f"{where}: {label} missing 'random_ms' (or the figures it is derived from: "
                          "seek_ms for a spinning drive, read_iops for an SSD)")
    if "mttf_h" in d:
        mttf_h = f("mttf_h")
    elif extra["afr_pct"]:
        mttf_h = HOURS_PER_YEAR / (extra["afr_pct"] / 100.0)  # AFR = hours per year / MTTF
    else:
        mttf_h = f("mttf_h")
    return DriveType(
        id=drive_id, name=name, interface=interface, rpm=rpm,
        capacity_gb=f("capacity_gb"), seq_mb_s=seq_mb_s, random_ms=random_ms, mttf_h=mttf_h,
        source=f("source"), form_factor=_form_factor(d, f"{where}: {label}"), **extra, value_ranges=ranges,
    )


def _without_ranges(d: Mapping[str, Any], table: str, where: str, label: str
                    ) -> tuple[dict[str, Any], tuple[tuple[str, float, float, str], ...]]:
    """A drive or platform table with its ranged numbers as plain values, and the ranges
    (app/domain/value_ranges.py unwrap_ranges); PresetError naming file, table and key."""
    def check_end(key: str, x: float) -> str | None:
        why = field_spec(table, key).check(x)
        return f"{x:g} {why}" if why else None

    plain, ranges, problems = unwrap_ranges(d, RANGED_FIELDS.get(table, ()), check_end)
    if problems:
        raise PresetError(f"{where}: {label} {problems[0]}")
    return plain, ranges


_SETTING_KEYS = ("label", "unit", "kind", "choices", "default", "min", "max", "help", "source", "note")


def _setting(key: str, d: Mapping[str, Any], where: str) -> SettingSpec:
    w = f"{where}: setting {key}"
    kind = _choice(d.get("kind", "int"), SETTING_KINDS, "kind", w)
    lo, hi = d.get("min"), d.get("max")
    for name, v in (("min", lo), ("max", hi)):
        if v is not None and check_number(v, None, None):
            raise PresetError(f"{w}: {name} {check_number(v, None, None)}")
    if lo is not None and hi is not None and lo > hi:
        raise PresetError(f"{w}: min {lo} is above max {hi}")
    choices = d.get("choices", ())
    if not isinstance(choices, (list, tuple)) or (kind == "choice" and not choices):
        raise PresetError(f"{w}: kind = \"choice\" needs choices = [...]" if kind == "choice"
                          else f"{w}: choices must be a list, not {choices!r}")
    spec = SettingSpec(
        key=key, label=str(d.get("label", key)), kind=kind, default=_req(d, "default", w),
        unit=str(d.get("unit", "")), minimum=lo, maximum=hi,
        choices=tuple(choices), help=str(d.get("help", "")), source=str(d.get("source", "")),
        sizes=_sizes(d.get("sizes", ()), w),
    )
    problem = spec.check(spec.default)
    if problem:
        raise PresetError(f"{w}: default {spec.default!r}: {problem}")
    for size in spec.sizes:
        problem = spec.check(size)
        if problem:
            raise PresetError(f"{w}: sizes: {problem}")
    return spec


def _sizes(raw: Any, w: str) -> tuple[float, ...]:
    """A cache setting's sizes the platform is sold in (goal seek tries each): numbers, no repeats."""
    if not isinstance(raw, (list, tuple)) or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in raw):
        raise PresetError(f"{w}: sizes must be a list of numbers, not {raw!r}")
    if len(set(raw)) != len(raw):
        raise PresetError(f"{w}: sizes lists a size twice")
    return tuple(sorted(raw))


def _lun_setting(key: str, d: Mapping[str, Any], where: str) -> SettingSpec:
    if "sizes" in d:  # sizes are bought per array, not set per LUN
        raise PresetError(f"{where}: setting {key}: sizes is a key of [cache.*] settings only")
    return _setting(key, d, where)


def _misplaced(doc: Mapping[str, Any], key: str) -> str | None:
    """The table a top-level key landed in (a key written below a [table] header belongs to it)."""
    def walk(node: Any, label: str) -> str | None:
        if isinstance(node, dict):
            if key in node and label:
                return label
            for k, v in node.items():
                found = walk(v, f"{label}.{k}" if label else k)
                if found:
                    return found
        elif isinstance(node, list):
            for v in node:
                found = walk(v, label)
                if found:
                    return found
        return None

    for k, v in doc.items():
        if isinstance(v, (dict, list)):
            found = walk(v, k)
            if found:
                return f"[[{found}]]" if isinstance(doc.get(found.split('.')[0]), list) else f"[{found}]"
    return None


def _top(doc: Mapping[str, Any], key: str, where: str) -> Any:
    """A top-level field, with the TOML pitfall named: the key found inside a table."""
    if key not in doc and field_spec("", key).required:
        inside = _misplaced(doc, key)
        if inside:
            raise PresetError(f"{where}: missing top-level {key!r}: it was found inside table {inside}; "
                              f"TOML puts every key written below a [table] header into that table, so move "
                              f"{key} = ... above the first table header")
    return _field(doc, "", key, where)


def parse_platform(doc: Mapping[str, Any], rates: Mapping[str, Mapping[str, Any]], where: str,
                   builtin: bool = True, drives: Mapping[str, DriveType] | None = None,
                   rates_where: Mapping[str, str] | None = None, searched: str = "presets/rates/") -> Platform:
    """A platform from its parsed TOML. PresetError (naming file, table and key) when it cannot be
    used at all; what it can be used with but should say (missing rates, unknown drive ids,
    unknown keys) goes into Platform.preset_issues, which validation reports."""
    issues: list[PresetIssue] = []
    pid = _top(doc, "id", where)
    rates_id = _top(doc, "rates", where)
    if rates_id not in rates:
        known = ", ".join(sorted(rates)) or "none"
        raise PresetError(f"{where}: rates {rates_id!r} not found: no file with rates_id = {rates_id!r} in "
                          f"{searched} (known: {known})")
    override = _table(doc, "rates_override", where)
    merged = _deep_merge(rates[rates_id], override)
    # [fit.*] declares which values a fit may move and to which figures (docs/model.md §7,
    # app/cli/calibration.py); it is metadata for the fit, not a table the engine reads
    merged.pop("fit", None)
    back, back_ranges = _without_ranges(_table(doc, "back_end", where, required=True), "back_end", where, "[back_end]")
    hosts, host_ranges = _without_ranges(_table(doc, "host_ports", where), "host_ports", where, "[host_ports]")
    raid_rules: dict[RaidType, RaidRule] = {}
    for name, r in _subtables(doc, "raid", where).items():
        w = f"{where}: [raid.{name}]"
        try:
            rt = RaidType.parse(name)
        except ValueError:
            raise PresetError(f"{where}: [raid.{name}]: unknown RAID level {name!r} "
                              f"(valid: {', '.join(RAID_KEYS)})") from None
        lo, hi = _field(r, "raid.<level>", "min", w, ""), _field(r, "raid.<level>", "max", w, "")
        if lo > hi:
            raise PresetError(f"{w}: min {lo} is above max {hi}")
        widths = _field(r, "raid.<level>", "widths", w, "")
        for x in widths:
            if check_number(x, 1, 1000, integer=True):
                raise PresetError(f"{w}: widths: {check_number(x, 1, 1000, integer=True)}")
        stripe = _field(r, "raid.<level>", "default_stripe", w, "")
        stripes = tuple(int(x) for x in _field(r, "raid.<level>", "stripes", w, ""))
        if (stripe or stripes) and not (rt.spanned or rt.distributed):
            raise PresetError(f"{w}: default_stripe/stripes apply to RAID 50/60 and distributed levels only, "
                              f"not {rt.label}")
        if stripe and (stripe < (3 if rt is RaidType.R50 else 4) or stripe > hi):
            raise PresetError(f"{w}: default_stripe {stripe} is not a {rt.label} stripe "
                              f"(at least {3 if rt is RaidType.R50 else 4} drives, at most max = {hi})")
        if stripes and stripe not in stripes:
            raise PresetError(f"{w}: default_stripe {stripe} is not one of stripes = {list(stripes)}")
        raid_rules[rt] = RaidRule(rt, lo, hi, _field(r, "raid.<level>", "even", w, ""),
                                  tuple(int(x) for x in widths), _interfaces(r.get("interfaces", ()), w),
                                  stripe, stripes)
    controllers = []
    for i, c in enumerate(_tables(doc, "controllers", where)):
        w = f"{where}: [[controllers]] #{i + 1}"
        controllers.append(ControllerSpec(_field(c, "[[controllers]]", "name", w, ""),
                                          _field(c, "[[controllers]]", "cores", w, "")))
    names = [c.name for c in controllers]
    if len(set(names)) != len(names):
        raise PresetError(f"{where}: [[controllers]] names must be unique: {names}")
    enclosures: dict[str, EnclosureType] = {}
    for i, e in enumerate(_tables(doc, "enclosure_types", where)):
        w = f"{where}: [[enclosure_types]] #{i + 1}"
        g = lambda key: _field(e, "[[enclosure_types]]", key, w, "")  # noqa: E731
        enclosures[g("id")] = EnclosureType(g("id"), g("name"), g("slots"), _interfaces(g("interfaces"), w),
                                            str(e.get("source", "")), _form_factor(e, w))
    operations: dict[str, OperationSpec] = {}
    for kind, v in _subtables(doc, "operations", where).items():
        w = f"{where}: [operations.{kind}]"
        _choice(kind, OPERATION_KINDS, "operation kind", f"{where}: [operations]")
        prios = _field(v, "operations.<kind>", "priorities", w, "")
        if not prios or not all(isinstance(p, str) and p for p in prios) or len(set(prios)) != len(prios):
            raise PresetError(f"{w}: priorities must be a list of distinct names such as "
                              f"[\"Low\", \"Medium\", \"High\", \"ASAP\"], not {prios!r}")
        default = v.get("default", prios[0])
        if default not in prios:
            raise PresetError(f"{w}: default {default!r} is not one of its priorities ({', '.join(prios)})")
        operations[kind] = OperationSpec(kind, tuple(prios), default, str(v.get("source", "")))
    if problems := policy_problems(merged, operations, f"{where} (rates {rates_id})"):
        raise PresetError("; ".join(problems))
    features = {}
    for k, v in _subtables(doc, "features", where).items():
        w = f"{where}: [features.{k}]"
        features[k] = FeatureSpec(k, str(v.get("name", k)), str(v.get("description", "")),
                                  _field(v, "features.<id>", "reboot_minutes", w, ""), str(v.get("source", "")))
    drive_types = _top(doc, "drive_types", where)
    if not all(isinstance(x, str) for x in drive_types):
        raise PresetError(f"{where}: drive_types must be a list of drive ids (text), not {drive_types!r}")
    if drives is not None:
        for did in drive_types:
            if did not in drives:
                close = nearest(did, drives)
                issues.append(PresetIssue("warning", "unknown-drive", (
                    f"{where}: drive_types lists {did!r}, which is not in the drive catalog (drives.toml or a "
                    f"user drive file)" + (f"; nearest known: {', '.join(close)}" if close else "")
                    + ": that drive cannot be used")))
    issues += _unknown_keys(doc, where)
    platform_kw = dict(
        id=pid, name=_top(doc, "name", where), vendor=str(doc.get("vendor", "")),
        family=str(doc.get("family", "custom")), firmware=str(doc.get("firmware", "")),
        source=_top(doc, "source", where), description=str(doc.get("description", "")),
        controllers=tuple(controllers),
        buses=_field(back, "back_end", "buses", where), bus_mb_s=_field(back, "back_end", "bus_mb_s", where),
        max_enclosures_per_bus=_field(back, "back_end", "max_enclosures_per_bus", where),
        max_drives=_field(back, "back_end", "max_drives", where),
        enclosure_types=enclosures,
        drive_types=tuple(drive_types),
        host_ports_per_controller=_field(hosts, "host_ports", "per_controller", where),
        host_port_mb_s=_field(hosts, "host_ports", "mb_s", where),
        cache_settings={k: _setting(k, v, where) for k, v in _subtables(doc, "cache", where).items()},
        lun_settings={k: _lun_setting(k, v, where) for k, v in _subtables(doc, "lun_settings", where).items()},
        raid_rules=raid_rules,
        features=features,
        operations=operations,
        capacity=_capacity(doc, where),
        group_noun=_group_noun(doc, where),
    )
    tables = _sourced(merged, "", "", "", f"{where}: rates {rates_id}" + (" with [rates_override]" if override else ""))
    rfile = (rates_where or {}).get(rates_id, f"rates {rates_id!r}")
    label = f"{where}: rates {rates_id!r} ({rfile}{' + its [rates_override]' if override else ''})"
    facts = platform_facts(platform_kw, merged, drives)
    issues += check_rates(merged, facts, label)
    return Platform(
        **platform_kw, rates=tables, builtin=builtin,  # type: ignore[arg-type]
        document=dict(doc), rates_document=dict(rates[rates_id]),
        origin=where, preset_issues=tuple(issues),
        value_ranges=tuple((f"back_end.{k}", lo, hi, src) for k, lo, hi, src in back_ranges)
        + tuple((f"host_ports.{k}", lo, hi, src) for k, lo, hi, src in host_ranges),
    )


_GROUP_NOUN = re.compile(r"[A-Za-z][A-Za-z -]{0,22}[A-Za-z]")


def _group_noun(doc: Mapping[str, Any], where: str) -> str:
    """The top-level group_noun: a word or two the GUI puts before a group's number."""
    noun = _field(doc, "", "group_noun", where)
    if not _GROUP_NOUN.fullmatch(noun) or "  " in noun:
        raise PresetError(f"{where}: group_noun {noun!r} must be a word or two such as \"Disk Group\" "
                          f"(letters, spaces and hyphens, 2 to 24 characters; the GUI adds the number)")
    return noun


def _capacity(doc: Mapping[str, Any], where: str) -> CapacitySpec:
    """The [capacity] table: formatted capacity, the vault, cache memory, rack units."""
    cap = doc.get("capacity", {})
    if not isinstance(cap, dict):
        raise PresetError(f"{where}: capacity must be a table [capacity], not {cap!r}")
    vault = _field(cap, "capacity", "vault_drives", where)
    if not all(isinstance(x, str) for x in vault):
        raise PresetError(f"{where}: [capacity] vault_drives must be drive locations such as \"0_0_0\", not {vault!r}")
    return CapacitySpec(
        formatted_factor=float(_field(cap, "capacity", "formatted_factor", where)), vault_drives=tuple(vault),
        vault_reserved_gb=float(_field(cap, "capacity", "vault_reserved_gb", where)),
        cache_memory_mb=float(_field(cap, "capacity", "cache_memory_mb", where)),
        enclosure_rack_units=float(_field(cap, "capacity", "enclosure_rack_units", where)),
        controller_rack_units=float(_field(cap, "capacity", "controller_rack_units", where)),
        source=str(cap.get("source", "")))


def platform_facts(kw: Mapping[str, Any], merged: Mapping[str, Any],
                   drives: Mapping[str, DriveType] | None) -> PlatformFacts:
    ifaces = {drives[d].interface.value for d in kw["drive_types"] if drives and d in drives}
    family = merged.get("family", "")  # the family the rates were calibrated on (borrowed-rates)

    def present(path: str) -> bool:
        node: Any = merged
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        return node is not None

    return PlatformFacts(
        rates_family=family if isinstance(family, str) else "", family=kw["family"],
        operations={k: s.priorities for k, s in kw["operations"].items()},
        raid=frozenset(r.value for r in kw["raid_rules"]), interfaces=frozenset(ifaces),
        features=frozenset(kw["features"]), present=present,
    )


# the keys each platform table may hold (anything else is a typo or a misplaced key: a warning)
_KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "": ("id", "name", "vendor", "family", "firmware", "rates", "source", "drive_types", "description", "note",
         "group_noun",
         "controllers", "back_end", "host_ports", "enclosure_types", "raid", "cache", "lun_settings", "features",
         "operations", "capacity", "rates_override", "rates_inline", *RESERVED_TABLES),
    "capacity": ("formatted_factor", "vault_drives", "vault_reserved_gb", "cache_memory_mb", "enclosure_rack_units",
                 "controller_rack_units", "source", "note"),
    "controllers": ("name", "cores", "source", "note"),
    "back_end": ("buses", "bus_mb_s", "max_enclosures_per_bus", "max_drives", "source", "note"),
    "host_ports": ("per_controller", "mb_s", "source", "note"),
    "enclosure_types": ("id", "name", "slots", "interfaces", "form_factor", "source", "note"),
    "raid": ("min", "max", "even", "widths", "interfaces", "default_stripe", "stripes", "source", "note"),
    "cache": _SETTING_KEYS + ("sizes",), "lun_settings": _SETTING_KEYS,
    "features": ("name", "description", "reboot_minutes", "source", "note"),
    "operations": ("priorities", "default", "source", "note"),
}
_TOP_LEVEL = _KNOWN_KEYS[""]


def _unknown_keys(doc: Mapping[str, Any], where: str) -> list[PresetIssue]:
    out = []

    def check(table: str, label: str, node: Mapping[str, Any]) -> None:
        known = _KNOWN_KEYS[table]
        for k in node:
            if k in known:
                continue
            if k in _TOP_LEVEL and table:
                text = (f"{label} holds {k!r}, a top-level key: TOML puts keys written below a table header "
                        f"into that table; move it above the first table header")
            else:
                close = nearest(k, known)
                text = f"{label} has {k!r}, which is not a key of this table" + (
                    f" (did you mean {', '.join(map(repr, close))}?)" if close else "") + "; it is ignored"
            out.append(PresetIssue("warning", "unknown-key", f"{where}: {text}"))

    check("", "the top level", doc)
    for table in ("back_end", "host_ports", "capacity"):
        if isinstance(doc.get(table), dict):
            check(table, f"[{table}]", doc[table])
    for table in ("controllers", "enclosure_types"):
        for i, item in enumerate(doc.get(table) or ()):
            if isinstance(item, dict):
                check(table, f"[[{table}]] #{i + 1}", item)
    for table in ("raid", "cache", "lun_settings", "features", "operations"):
        for name, item in (doc.get(table) or {}).items():
            if isinstance(item, dict):
                check(table, f"[{table}.{name}]", item)
    return out


def _read_toml(path: Path, name: str | None = None) -> dict[str, Any]:
    """A preset file parsed; PresetError naming it when it is no regular file (a FIFO in the
    preset folder would hang the start), too large, not UTF-8 or not valid TOML."""
    where = name or path.name
    try:
        text = read_regular(path, "preset file", MAX_TOML_BYTES).decode("utf-8")
    except UnreadableFile as exc:
        raise PresetError(f"{where}: {str(exc).removeprefix(f'{path}: ')}") from None
    except UnicodeDecodeError as exc:
        raise PresetError(f"{where}: cannot be read: {exc}") from None
    return parse_toml(text, where)


def _rates_doc(doc: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A rates preset's tables; PresetError when a number has no source or a value is refused."""
    rates_id = doc.get("rates_id")
    if not isinstance(rates_id, str) or not rates_id:
        raise PresetError(f"{where}: rates_id must be a name in quotes, not {rates_id!r}")
    body = {k: v for k, v in doc.items() if k != "rates_id"}
    # [fit.*] is the fit's metadata (app/cli/calibration.py checks it), not a table of sourced values
    values = {k: v for k, v in body.items() if k != "fit"}
    _sourced(values, "", "", "", where)
    bad = [i.text for i in check_values(values, where) if i.severity == "error"]
    if bad:
        raise PresetError("; ".join(bad))
    return body


def load_catalog(builtin_dir: Path | None = None, user_dir: Path | None = None,
                 extra_files: tuple[Path, ...] = ()) -> Catalog:
    """Read built-in presets (errors are fatal: they ship with the app) and user presets
    (errors are collected in Catalog.problems: a user file, or one entry of it, that cannot be
    used is skipped and never hides or breaks a built-in preset). extra_files: more user files
    (read last)."""
    builtin_dir = builtin_dir or builtin_presets_dir()
    user_dir = user_presets_dir() if user_dir is None else user_dir
    problems: list[str] = []
    refused: dict[str, str] = {}
    drives: dict[str, DriveType] = {}
    rates: dict[str, dict[str, Any]] = {}
    rates_where: dict[str, str] = {}
    builtin_rates: dict[str, dict[str, Any]] = {}
    platform_docs: list[tuple[dict[str, Any], str, bool]] = []

    def name_of(path: Path, builtin: bool) -> str:
        try:
            return (f"presets/{path.relative_to(builtin_dir).as_posix()}" if builtin
                    else str(path))
        except ValueError:
            return str(path)

    def take(path: Path, builtin: bool) -> None:
        where = name_of(path, builtin)
        doc = _read_toml(path, where)
        drive_list = doc.get("drive", [])
        if not isinstance(drive_list, list):
            raise PresetError(f"{where}: drive must be [[drive]] tables, not {drive_list!r}")
        for d in drive_list:
            try:
                drv = parse_drive(d, where)
            except PresetError as exc:
                if builtin:
                    raise
                problems.append(str(exc))
                if isinstance(d, dict) and isinstance(d.get("id"), str) and d["id"] not in drives:
                    refused[f"drive {d['id']}"] = str(exc)
                continue
            drives[drv.id] = drv
        if "rates_id" in doc:
            body = _rates_doc(doc, where)
            rates[doc["rates_id"]] = body
            rates_where[doc["rates_id"]] = where
            if builtin:
                builtin_rates[doc["rates_id"]] = body
        if "controllers" in doc or ("id" in doc and "drive" not in doc and "rates_id" not in doc):
            platform_docs.append((doc, where, builtin))

    take(builtin_dir / "drives.toml", True)
    for path in sorted((builtin_dir / "rates").glob("*.toml")):
        take(path, True)
    for path in sorted((builtin_dir / "platforms").glob("*.toml")):
        take(path, True)
    searched = "presets/rates/"
    if user_dir:
        searched += f" or the user preset folder {user_dir}"
    user_files = sorted(user_dir.rglob("*.toml")) if user_dir and user_dir.is_dir() else []
    user_files += [p for p in extra_files if p not in user_files]  # `check FILE.toml` on a file elsewhere
    if user_files:
        for path in user_files:
            try:
                take(path, False)
            except PresetError as exc:
                problems.append(str(exc))
            except Exception as exc:  # noqa: BLE001 - a user file must never stop the program
                problems.append(f"{path}: cannot be read ({type(exc).__name__}: {exc})")

    platforms: dict[str, Platform] = {}

    def refuse(doc: Mapping[str, Any], text: str) -> None:
        problems.append(text)
        if isinstance(doc.get("id"), str):
            refused[f"platform {doc['id']}"] = text

    for doc, where, builtin in platform_docs:
        try:
            p = parse_platform(doc, rates, where, builtin, drives, rates_where, searched)
            if builtin and _errors(p) and p.rates_document is not builtin_rates.get(doc.get("rates", "")):
                # a user rate table replaced this platform's: keep the built-in one
                rid = doc["rates"]
                problems.append(f"{rates_where[rid]}: rates {rid!r} not used for built-in platform {p.id!r}: "
                                + "; ".join(i.text for i in p.preset_issues if i.severity == "error"))
                p = parse_platform(doc, {**rates, rid: builtin_rates[rid]}, where, builtin, drives,
                                   {**rates_where, rid: f"presets/rates/{rid}.toml"}, searched)
        except PresetError as exc:
            if builtin:
                raise
            refuse(doc, str(exc))
            continue
        except Exception as exc:  # noqa: BLE001 - see above
            if builtin:
                raise
            refuse(doc, f"{where}: cannot be read ({type(exc).__name__}: {exc})")
            continue
        old = platforms.get(p.id)
        if old is not None and old.builtin and not builtin and _errors(p):
            problems.append(f"{where}: platform {p.id!r} would replace the built-in one but has errors, so the "
                            f"built-in one is kept: " + "; ".join(i.text for i in p.preset_issues
                                                                   if i.severity == "error"))
            continue
        platforms[p.id] = p
        problems.extend(envelope_problems(p.rates, f"{where} (rates {doc.get('rates')})"))  # reported, not fatal
    refused = {k: v for k, v in refused.items()
               if not (k.startswith("platform ") and k[9:] in platforms)
               and not (k.startswith("drive ") and k[6:] in drives)}
    return Catalog(platforms, drives, tuple(problems), refused)


def _errors(p: Platform) -> bool:
    return any(i.severity == "error" for i in p.preset_issues)


def platform_from_text(text: str, catalog: Catalog, builtin_dir: Path | None = None) -> Platform:
    """Parse a platform snapshot embedded in a project file (a custom platform)."""
    doc = parse_toml(text, "embedded platform")
    builtin_dir = builtin_dir or builtin_presets_dir()
    rates: dict[str, dict[str, Any]] = {}
    for path in sorted((builtin_dir / "rates").glob("*.toml")):
        d = _read_toml(path)
        rates[d["rates_id"]] = {k: v for k, v in d.items() if k != "rates_id"}
    inline = doc.get("rates_inline")
    if inline is not None:  # snapshot carries its own rate tables
        if not isinstance(inline, dict) or not isinstance(doc.get("rates"), str):
            raise PresetError("embedded platform: rates_inline must be a table and rates a name")
        rates[doc["rates"]] = _rates_doc({"rates_id": doc["rates"], **inline}, "embedded platform (rates_inline)")
    try:
        return parse_platform(doc, rates, "embedded platform", builtin=False, drives=catalog.drives,
                              rates_where={doc.get("rates", ""): "rates_inline"} if inline is not None else None,
                              searched="presets/rates/ or the project's rates_inline")
    except PresetError:
        raise
    except Exception as exc:  # noqa: BLE001 - malformed data: one message, not a traceback
        raise PresetError(f"embedded platform: cannot be read ({type(exc).__name__}: {exc})") from None


def fit_tied_keys(decl: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """The keys a [fit.NAME] declaration sets besides its `path`, each with its factor: `also`
    (the same value) and `ratios` (path -> factor: the fitted value times the factor, for a
    ladder whose steps keep published proportions; docs/model.md 7.1). A factor must be a
    positive number (ValueError naming the key)."""
    out = [(str(k), 1.0) for k in decl.get("also", ())]
    ratios = decl.get("ratios", {})
    if not isinstance(ratios, Mapping):
        raise ValueError("ratios must be a table of key path = factor")
    for k, f in ratios.items():
        if isinstance(f, bool) or not isinstance(f, (int, float)) or not f > 0:
            raise ValueError(f"ratios.{k!r} must be a positive number, not {f!r}")
        out.append((str(k), float(f)))
    return tuple(out)


def set_rates_value(doc: dict[str, Any], path: str, value: float) -> dict[str, Any]:
    """A copy of a parsed rates document with the number at `path` ("a.b.c", "a.rows[2].c")
    replaced, keeping its source and unit (and its range only if the value stays the same: a
    range is about the value it was given for); only the tables on the path are copied."""
    def parts(p: str) -> list[str | int]:
        out: list[str | int] = []
        for part in p.split("."):
            if part.endswith("]") and "[" in part:
                name, idx = part[:-1].split("[")
                out += [name, int(idx)]
            else:
                out.append(part)
        return out

    def put(node: Any, keys: list[str | int]) -> Any:
        key = keys[0]
        if isinstance(node, list):
            copy_l = list(node)
            copy_l[key] = put(node[key], keys[1:]) if len(keys) > 1 else value  # type: ignore[index]
            return copy_l
        if not isinstance(node, dict) or key not in node:
            raise KeyError(f"rates have no value at {path!r}")
        copy_d = dict(node)
        if len(keys) > 1:
            copy_d[key] = put(node[key], keys[1:])
        elif isinstance(node[key], dict) and "value" in node[key]:
            copy_d[key] = dict(node[key]) | {"value": value}
            if node[key]["value"] != value:  # a range described the old value, not this one
                for k in RANGE_KEYS:
                    copy_d[key].pop(k, None)
        elif isinstance(node[key], (int, float)) and not isinstance(node[key], bool):
            copy_d[key] = value
        else:
            raise KeyError(f"rates value at {path!r} is not a number")
        return copy_d

    return put(doc, parts(path))


def with_rates_values(catalog: Catalog, rates_id: str, values: Mapping[str, float]) -> Catalog:
    """The catalog with some numbers of one rates preset replaced, for one run of the model (the
    fit, app/cli/calibration.py): every platform built on those rates is parsed again from its
    documents, in memory; nothing is written."""
    platforms = dict(catalog.platforms)
    for pid, pf in catalog.platforms.items():
        if pf.document.get("rates") != rates_id:
            continue
        doc: dict[str, Any] = dict(pf.rates_document)
        for path, v in values.items():
            doc = set_rates_value(doc, path, float(v))
        platforms[pid] = parse_platform(pf.document, {rates_id: doc}, f"{pid} (fit)", pf.builtin)
    return Catalog(platforms, catalog.drives, catalog.problems)


_CATALOG: Catalog | None = None


def default_catalog() -> Catalog:
    """The catalog, loaded once per process (presets are read-only while the app runs)."""
    global _CATALOG
    if _CATALOG is None:
        _CATALOG = load_catalog()
    return _CATALOG
