"""The schema of a rates preset's `[envelope]` table (its validity envelope: what the documents
cover; docs/presets.md "Validity envelope") and a check of its entries. Pure: the loader and
`check` call problems(); app/engine/envelope.py compares a run with the envelope."""
from __future__ import annotations

from typing import Any

from app.domain.hardware import Param, Tables

OP_SCOPE = {"drive_failure": "rebuild", "lun_migration": "migration", "bind": "bind",
            "volume_migration": "volume_migration", "reallocate": "reallocate"}
SCOPES = ("host", "cache") + tuple(OP_SCOPE.values())
RAID_RANGES = ("data_disks", "width")
DRIVE_RANGES = ("rpm", "capacity_gb")
HOST_RANGES = ("drive_util", "outstanding", "io_kb")
RAID_LEVELS = ("R0", "R1", "R1/0", "R3", "R5", "R6", "RAID-DP", "R5/0", "R6/0", "dRAID6", "DDP")
INTERFACES = ("FC", "SAS", "SATA", "SSD", "SCSI", "NVMe")


def bounds(node: Any) -> tuple[Param | None, Param | None]:
    """(min, max) of a range table, each None when not given."""
    if not isinstance(node, Tables):
        return None, None
    lo, hi = node.get("min"), node.get("max")
    return (lo if isinstance(lo, Param) else None), (hi if isinstance(hi, Param) else None)


def problems(tables: Any, where: str = "rates") -> list[str]:
    """Malformed [envelope] entries (unknown scope, level, interface or key; a range without
    numbers or with min > max), each message naming the table and key."""
    env = tables.get("envelope") if isinstance(tables, Tables) else None
    if env is None:
        return []
    out: list[str] = []
    if not isinstance(env, Tables):
        return [f"{where}: envelope must be a table"]

    def rng(node: Any, path: str) -> None:
        if not isinstance(node, Tables) or not set(node) <= {"min", "max"} or not len(node):
            out.append(f"{where}: [{path}] must be {{ min = .., max = .. }} (either may be left out)")
            return
        lo, hi = bounds(node)
        if lo is not None and hi is not None and lo.value > hi.value:
            out.append(f"{where}: [{path}] has min {lo.value:g} > max {hi.value:g}")

    for scope in env:
        node = env[scope]
        path = f"envelope.{scope}"
        if scope not in SCOPES:
            out.append(f"{where}: [{path}] is not a scope (one of {', '.join(SCOPES)})")
            continue
        if not isinstance(node, Tables):
            out.append(f"{where}: [{path}] must be a table")
            continue
        for key in node:
            sub = f"{path}.{key}"
            if key == "raid" and scope != "cache":
                for lvl in node[key]:
                    if lvl not in RAID_LEVELS:
                        out.append(f"{where}: [{sub}.{lvl}]: unknown RAID level (one of {', '.join(RAID_LEVELS)})")
                        continue
                    for k in node[key][lvl]:
                        if k not in RAID_RANGES:
                            out.append(f"{where}: [{sub}.{lvl}] {k}: unknown key (one of {', '.join(RAID_RANGES)})")
                        else:
                            rng(node[key][lvl][k], f"{sub}.{lvl}.{k}")
            elif key == "drives" and scope != "cache":
                for iface in node[key]:
                    if iface not in INTERFACES:
                        out.append(f"{where}: [{sub}.{iface}]: unknown interface (one of {', '.join(INTERFACES)})")
                        continue
                    for k in node[key][iface]:
                        if k not in DRIVE_RANGES:
                            out.append(f"{where}: [{sub}.{iface}] {k}: unknown key (one of {', '.join(DRIVE_RANGES)})")
                        else:
                            rng(node[key][iface][k], f"{sub}.{iface}.{k}")
            elif scope == "host" and key in HOST_RANGES or scope == "cache":
                rng(node[key], sub)
            else:
                allowed = ("raid", "drives") + (HOST_RANGES if scope == "host" else ())
                out.append(f"{where}: [{path}] {key}: unknown key (one of {', '.join(allowed)})")
    return out
