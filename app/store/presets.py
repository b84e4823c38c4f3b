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

import os
import sys
import tomllib
from pathlib import Path
from typing import Any, Mapping

from app.domain.envelope import problems as envelope_problems
from app.domain.hardware import (
    Catalog, ControllerSpec, DriveType, EnclosureType, FeatureSpec, Interface, OperationSpec, Param,
    Platform, RaidRule, SettingSpec, Tables,
)
from app.domain.raid import RaidType


class PresetError(ValueError):
    """A preset file is malformed; the message names the file and the key."""


def builtin_presets_dir() -> Path:
    """presets/ next to the app package, or inside a PyInstaller bundle."""
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[2]))
    return base / "presets"


def user_presets_dir() -> Path:
    env = os.environ.get("ARRAYPLANNER_PRESETS")
    if env:
        return Path(env)
    if sys.platform == "win32":
        root = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    elif sys.platform == "darwin":
        root = Path.home() / "Library" / "Application Support"
    else:
        root = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config"))
    return root / "ArrayPlanner" / "presets"


# ---------------------------------------------------------------- sourced tables

def _sourced(node: Mapping[str, Any], path: str, source: str, unit: str, where: str) -> Tables:
    """Turn a parsed TOML table into Tables whose numeric leaves are Params with a source."""
    source = node.get("source", source)
    unit = node.get("unit", unit)
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
            src = val.get("source", source)
            if not src:
                raise PresetError(f"{where}: {sub} has no source")
            out[key] = Param(float(val["value"]), src, val.get("unit", unit), sub)
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


def _deep_merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(merged.get(k), dict) and "value" not in v:
            merged[k] = _deep_merge(merged[k], v)
        else:
            merged[k] = v
    return merged


# ---------------------------------------------------------------- parsing

def _req(d: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in d:
        raise PresetError(f"{where}: missing {key!r}")
    return d[key]


def _interfaces(values: Any, where: str) -> tuple[Interface, ...]:
    try:
        return tuple(Interface(v) for v in values)
    except ValueError as exc:
        raise PresetError(f"{where}: {exc}") from None


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


def parse_drive(d: Mapping[str, Any], where: str) -> DriveType:
    try:
        return DriveType(
            id=_req(d, "id", where), name=_req(d, "name", where),
            interface=Interface(_req(d, "interface", where)), rpm=int(d.get("rpm", 0)),
            capacity_gb=float(_req(d, "capacity_gb", where)), seq_mb_s=float(_req(d, "seq_mb_s", where)),
            random_ms=float(_req(d, "random_ms", where)), mttf_h=float(d.get("mttf_h", 1_000_000)),
            source=_req(d, "source", where), form_factor=_form_factor(d, where),
        )
    except (TypeError, ValueError) as exc:
        raise PresetError(f"{where}: drive {d.get('id', '?')}: {exc}") from None


def _setting(key: str, d: Mapping[str, Any], where: str) -> SettingSpec:
    kind = d.get("kind", "int")
    if kind not in ("int", "float", "bool", "choice"):
        raise PresetError(f"{where}: setting {key}: kind must be int, float, bool or choice")
    return SettingSpec(
        key=key, label=d.get("label", key), kind=kind, default=_req(d, "default", f"{where}: setting {key}"),
        unit=d.get("unit", ""), minimum=d.get("min"), maximum=d.get("max"),
        choices=tuple(d.get("choices", ())), help=d.get("help", ""), source=d.get("source", ""),
    )


def parse_platform(doc: Mapping[str, Any], rates: Mapping[str, Mapping[str, Any]], where: str,
                   builtin: bool = True) -> Platform:
    rates_id = _req(doc, "rates", where)
    if rates_id not in rates:
        raise PresetError(f"{where}: rates {rates_id!r} not found in presets/rates/")
    merged = _deep_merge(rates[rates_id], doc.get("rates_override", {}))
    back = _req(doc, "back_end", where)
    hosts = doc.get("host_ports", {})
    raid_rules: dict[RaidType, RaidRule] = {}
    for name, r in doc.get("raid", {}).items():
        rt = RaidType.parse(name)
        raid_rules[rt] = RaidRule(
            rt, int(r.get("min", 2)), int(r.get("max", 16)), bool(r.get("even", False)),
            tuple(r.get("widths", ())), _interfaces(r.get("interfaces", ()), where))
    return Platform(
        id=_req(doc, "id", where), name=_req(doc, "name", where), vendor=doc.get("vendor", ""),
        family=doc.get("family", "custom"), firmware=doc.get("firmware", ""), source=_req(doc, "source", where),
        description=doc.get("description", ""),
        controllers=tuple(ControllerSpec(c["name"], int(c.get("cores", 1))) for c in _req(doc, "controllers", where)),
        buses=int(_req(back, "buses", where)), bus_mb_s=float(_req(back, "bus_mb_s", where)),
        max_enclosures_per_bus=int(_req(back, "max_enclosures_per_bus", where)),
        max_drives=int(back.get("max_drives", 0)),
        enclosure_types={
            e["id"]: EnclosureType(e["id"], e["name"], int(e["slots"]), _interfaces(e.get("interfaces", ()), where),
                                   e.get("source", ""), _form_factor(e, where))
            for e in _req(doc, "enclosure_types", where)
        },
        drive_types=tuple(_req(doc, "drive_types", where)),
        host_ports_per_controller=int(hosts.get("per_controller", 4)),
        host_port_mb_s=float(hosts.get("mb_s", 400.0)),
        cache_settings={k: _setting(k, v, where) for k, v in doc.get("cache", {}).items()},
        lun_settings={k: _setting(k, v, where) for k, v in doc.get("lun_settings", {}).items()},
        raid_rules=raid_rules,
        features={
            k: FeatureSpec(k, v.get("name", k), v.get("description", ""), float(v.get("reboot_minutes", 0)),
                           v.get("source", ""))
            for k, v in doc.get("features", {}).items()
        },
        operations={
            k: OperationSpec(k, tuple(v["priorities"]), v.get("default", v["priorities"][0]), v.get("source", ""))
            for k, v in doc.get("operations", {}).items()
        },
        rates=_sourced(merged, "", "", "", f"rates {rates_id}"),
        builtin=builtin,
        document=dict(doc), rates_document=dict(rates[rates_id]),
    )


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise PresetError(f"{path.name}: not valid TOML: {exc}") from None


def load_catalog(builtin_dir: Path | None = None, user_dir: Path | None = None) -> Catalog:
    """Read built-in presets (errors are fatal: they ship with the app) and user presets
    (errors are collected in Catalog.problems)."""
    builtin_dir = builtin_dir or builtin_presets_dir()
    user_dir = user_presets_dir() if user_dir is None else user_dir
    problems: list[str] = []
    drives: dict[str, DriveType] = {}
    rates: dict[str, dict[str, Any]] = {}
    platform_docs: list[tuple[dict[str, Any], str, bool]] = []

    def take(path: Path, builtin: bool) -> None:
        doc = _read_toml(path)
        where = path.name
        for d in doc.get("drive", []):
            drv = parse_drive(d, where)
            drives[drv.id] = drv
        if "rates_id" in doc:
            rates[doc["rates_id"]] = {k: v for k, v in doc.items() if k != "rates_id"}
        if "controllers" in doc:
            platform_docs.append((doc, where, builtin))

    for sub in ("drives.toml",):
        take(builtin_dir / sub, True)
    for path in sorted((builtin_dir / "rates").glob("*.toml")):
        take(path, True)
    for path in sorted((builtin_dir / "platforms").glob("*.toml")):
        take(path, True)
    if user_dir and user_dir.is_dir():
        for path in sorted(user_dir.rglob("*.toml")):
            try:
                take(path, False)
            except PresetError as exc:
                problems.append(str(exc))

    platforms: dict[str, Platform] = {}
    for doc, where, builtin in platform_docs:
        try:
            p = parse_platform(doc, rates, where, builtin)
        except PresetError as exc:
            if builtin:
                raise
            problems.append(str(exc))
            continue
        platforms[p.id] = p
        problems.extend(envelope_problems(p.rates, f"{where} (rates {doc.get('rates')})"))  # reported, not fatal
    return Catalog(platforms, drives, tuple(problems))


def platform_from_text(text: str, catalog: Catalog, builtin_dir: Path | None = None) -> Platform:
    """Parse a platform snapshot embedded in a project file (a custom platform)."""
    doc = tomllib.loads(text)
    builtin_dir = builtin_dir or builtin_presets_dir()
    rates: dict[str, dict[str, Any]] = {}
    for path in sorted((builtin_dir / "rates").glob("*.toml")):
        d = _read_toml(path)
        rates[d["rates_id"]] = {k: v for k, v in d.items() if k != "rates_id"}
    if "rates_inline" in doc:  # snapshot carries its own rate tables
        rates[doc["rates"]] = doc["rates_inline"]
    return parse_platform(doc, rates, "embedded platform", builtin=False)


_CATALOG: Catalog | None = None


def default_catalog() -> Catalog:
    """The catalog, loaded once per process (presets are read-only while the app runs)."""
    global _CATALOG
    if _CATALOG is None:
        _CATALOG = load_catalog()
    return _CATALOG
