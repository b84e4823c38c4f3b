"""Priority policies: the small documented set a rates preset names for each operation level.

A priority level of an operation is a throttle policy, declared in the rates preset as

    [policy.<op kind>.<Level>]       # op kind: migration | rebuild | bind | volume_migration | reallocate
    kind = "cap" | "asap" | "share" | "idle_only" | "duty_cycle" | "window"
    <parameters of the kind>         # numbers, each with a source (docs/presets.md)
    [policy.<op kind>.<Level>.<phase>]   # optional: another policy for one phase

The levels are the platform's (`[operations.<platform kind>] priorities`, slowest first).
Pure data and checks: no engine, no I/O. The engine (app/engine/policy.py) reads the same tables;
`policy_problems` is what `check` and the preset loader report.
"""
from __future__ import annotations

from typing import Any, Mapping

# op kind in [policy.*] -> the platform's [operations.*] kind
OP_KINDS: dict[str, str] = {
    "migration": "lun_migration",
    "rebuild": "drive_failure",
    "bind": "bind",
    "volume_migration": "volume_migration",
    "reallocate": "reallocate",
}

# the phases an op kind has (a policy table may hold one sub-table per phase)
PHASES: dict[str, tuple[str, ...]] = {
    "migration": ("copy", "expansion"),
    "rebuild": ("rebuild", "equalization"),
    "bind": ("zeroing", "verify"),
    "volume_migration": ("copy",),
    "reallocate": ("reallocate",),
}

# kind -> {parameter: (minimum, maximum, required, meaning)}; maximum None: no upper bound
_F = float("inf")
_FLOOR = ("share of each drive's time the phase keeps even where the host would fill the drives (at "
          "most its cap): it takes that time from the host, which is then served what is left; "
          "default 0 (the host first)")
POLICY_KINDS: dict[str, dict[str, tuple[float, float, bool, str]]] = {
    "cap": {
        "mb_s": (0.0, _F, True, "rate cap (MB/s); the phase runs at it unless a centre gives less"),
        "mirror_mb_s": (0.0, _F, False, "rate cap for a mirrored (RAID 1/0) target, if it differs"),
        "sata_mb_s": (0.0, _F, False, "rate cap on SATA drives, if it differs"),
        "min_share": (0.0, 1.0, False, _FLOOR),
    },
    "asap": {
        "mb_s": (0.0, _F, False, "ceiling (MB/s); default: the operation's full-speed rate"),
        "mirror_mb_s": (0.0, _F, False, "ceiling for a mirrored (RAID 1/0) target"),
        "sata_mb_s": (0.0, _F, False, "ceiling on SATA drives"),
        "max_util": (0.0, 1.0, False, "drive busy it fills up to; default host.max_util"),
        "min_share": (0.0, 1.0, False, _FLOOR),
    },
    "share": {
        "share": (0.0, 1.0, False, "share of the drive time the host contends for (both patterns)"),
        "share_random": (0.0, 1.0, False, "share under a random host load"),
        "share_sequential": (0.0, 1.0, False, "share under a sequential host load"),
        "efficiency": (0.0, 1.0, False, "progress per unit of contended drive time, relative to idle"),
        "efficiency_random": (0.0, 1.0, False, "efficiency under a random host load"),
        "efficiency_sequential": (0.0, 1.0, False, "efficiency under a sequential host load"),
        "idle_duty": (0.0, 1.0, False, "fraction of the full-speed rate on idle drives (default 1)"),
    },
    "idle_only": {
        "trickle_mb_s": (0.0, _F, False, "rate while the host contends (default 0)"),
        "idle_duty": (0.0, 1.0, False, "fraction of the full-speed rate on idle drives (default 1)"),
    },
    "duty_cycle": {
        "duty": (0.0, 1.0, True, "fraction of the time the operation runs at full speed"),
    },
    "window": {
        "min_mb_s": (0.0, _F, True, "guaranteed rate, even under host load (Linux md speed_limit_min)"),
        "max_mb_s": (0.0, _F, True, "rate ceiling (speed_limit_max)"),
    },
}

# parameters every kind takes
COMMON: dict[str, tuple[float, float, bool, str]] = {
    "queue_depth": (0.0, 1024.0, False, "I/Os the operation keeps outstanding on each drive (ZFS "
                    "zfs_vdev_scrub_max_active, an md or controller rebuild queue depth): the host's "
                    "response sees them as a closed class and the rate follows Little's law "
                    "(not under share, whose share sets the rate; docs/model.md 3.1); default 0, "
                    "its I/O counted as open load"),
}
for _params in POLICY_KINDS.values():
    _params.update(COMMON)
# the op kinds whose engine reads queue_depth (their rates go through Op.take; volume migration
# and reallocate pace themselves by max_util and do not read it)
QUEUE_OPS = ("migration", "rebuild", "bind")

_META = ("kind", "source", "unit", "note")

# tables the [policy.*] schema replaced: a preset (or a platform's rates_override) that still
# sets them would be silently ignored, so they are reported
LEGACY: dict[str, str] = {
    "migration.economical": "[policy.migration.<Level>] kind = \"cap\", mb_s",
    "migration.asap": "[policy.migration.ASAP] kind = \"asap\", mb_s / mirror_mb_s",
    "rebuild.economical": "[policy.rebuild.<Level>] kind = \"cap\", mb_s",
    "rebuild.economical_equalization_factor": "[policy.rebuild.<Level>.equalization] kind = \"cap\", mb_s",
    "rebuild.idle": "the full-speed rate from the configuration ([rebuild.io] kb) and a policy's idle_duty",
    "rebuild.policy": "[policy.rebuild.<Level>] kind",
    "rebuild.share": "[policy.rebuild.<Level>] kind = \"share\", share_random / share_sequential",
    "rebuild.efficiency": "[policy.rebuild.<Level>] efficiency_random / efficiency_sequential",
    "bind.rate": "[policy.bind.<Level>] mb_s / sata_mb_s",
    "migration.max_group_util": "[policy.volume_migration.<Level>] kind = \"asap\", max_util",
}


def _number(v: Any) -> float | None:
    """A policy parameter's value: a number, or {value = ..., source = ...}; None otherwise."""
    if isinstance(v, dict):
        v = v.get("value")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v)


def levels_of(operations: Mapping[str, Any], op_kind: str) -> tuple[str, ...]:
    """The platform's levels for a policy op kind (slowest first); () when it offers none."""
    spec = operations.get(OP_KINDS.get(op_kind, op_kind))
    return tuple(getattr(spec, "priorities", ()) or ()) if spec is not None else ()


def _check_policy(table: Mapping[str, Any], where: str, name: str, out: list[str], phases: tuple[str, ...],
                  op_kind: str = "") -> None:
    kind = table.get("kind")
    if kind not in POLICY_KINDS:
        out.append(f"{where}: [{name}] kind = {kind!r} is not a policy kind "
                   f"({', '.join(POLICY_KINDS)})")
        return
    params = POLICY_KINDS[kind]
    for key, val in table.items():
        if key in _META:
            continue
        if isinstance(val, dict) and "value" not in val:
            if key in phases:
                _check_policy(val, where, f"{name}.{key}", out, (), op_kind)
            else:
                out.append(f"{where}: [{name}.{key}] is not a phase ({', '.join(phases) or 'none here'})")
            continue
        if key not in params:
            out.append(f"{where}: [{name}] {key}: not a parameter of kind {kind!r} "
                       f"({', '.join(params)})")
            continue
        if key in COMMON and op_kind and op_kind not in QUEUE_OPS:
            out.append(f"{where}: [{name}] {key}: not read for {op_kind} (only {', '.join(QUEUE_OPS)})")
            continue
        x = _number(val)
        lo, hi, _, _ = params[key]
        if x is None:
            out.append(f"{where}: [{name}] {key} = {val!r} is not a number")
        elif not lo <= x <= hi:
            rng = f"{lo:g} to {hi:g}" if hi != _F else f"at least {lo:g}"
            out.append(f"{where}: [{name}] {key} = {x:g} is out of range ({rng})")
        elif isinstance(val, dict) and not val.get("source") and not table.get("source"):
            out.append(f"{where}: [{name}] {key} has no source")
    for key, (_, _, required, _) in params.items():
        if required and key not in table:
            out.append(f"{where}: [{name}] {key} is missing (kind {kind!r} needs it)")
    if kind == "window":
        lo, hi = _number(table.get("min_mb_s")), _number(table.get("max_mb_s"))
        if lo is not None and hi is not None and lo > hi:
            out.append(f"{where}: [{name}] min_mb_s = {lo:g} is above max_mb_s = {hi:g}")
    if kind == "share" and not any(k in table for k in ("share", "share_random", "share_sequential")):
        out.append(f"{where}: [{name}] share is missing (kind 'share' needs share or share_random/share_sequential)")


def policy_problems(rates: Mapping[str, Any], operations: Mapping[str, Any], where: str) -> list[str]:
    """What is wrong with a rates table's [policy.*] tables, one message each naming the file
    (`where`), the table and the key: unknown op kinds, levels the platform does not offer,
    unknown policy kinds, parameters outside their range. `rates` is the parsed TOML (plain
    dicts); `operations` the platform's OperationSpecs by kind (each with .priorities)."""
    out: list[str] = []
    for path, now in LEGACY.items():
        node: Any = rates
        for part in path.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            out.append(f"{where}: [{path}] is no longer read: priorities are policies now ({now}; "
                       "docs/presets.md, 'Priority policies and operation keys')")
    pol = rates.get("policy")
    if pol is None:
        return out
    if not isinstance(pol, dict):
        return [f"{where}: [policy] must be a table of op kinds"]
    for op_kind, levels in pol.items():
        if op_kind not in OP_KINDS:
            out.append(f"{where}: [policy.{op_kind}] is not an operation kind ({', '.join(OP_KINDS)})")
            continue
        if not isinstance(levels, dict):
            out.append(f"{where}: [policy.{op_kind}] must hold one table per priority level")
            continue
        offered = levels_of(operations, op_kind)
        for level, table in levels.items():
            name = f"policy.{op_kind}.{level}"
            if offered and level not in offered:
                out.append(f"{where}: [{name}] {level!r} is not a priority the platform offers for "
                           f"{OP_KINDS[op_kind]} ({', '.join(offered)})")
                continue
            if not isinstance(table, dict):
                out.append(f"{where}: [{name}] must be a table with a kind")
                continue
            _check_policy(table, where, name, out, PHASES[op_kind], op_kind)
    return out
