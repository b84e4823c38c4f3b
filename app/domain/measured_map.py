"""Which project object a measured object stands for, found by name (docs/measured-data.md
"Mapping"): the GUI's mapping dialog starts from this and the CLI uses it as is.

    LUN:    the LUN's name or label ("OLTP 0", "LUN 17"), an Analyzer name with its number in
            brackets ("Oracle [17]"), or "LUN 17" / "lun_17" / "LUN17";
    group:  "RAID Group 3", "RG 3", "RG3", or the group's name;
    drive:  "Bus 0 Enclosure 1 Disk 4" or "0_1_4";
    SP, port: the controller's name ("SP A"; "Port 0 [SP A]" -> the host ports of SP A).

A name matching nothing stays unmapped (a host device such as sdb needs the dialog).
"""
from __future__ import annotations

import re

from .measured import MeasuredData, object_key, target
from .project import Project


def _norm(s: str) -> str:
    return re.sub(r"[\s_\-]+", "", s).lower()


def guess_target(project: Project, kind: str, name: str, controllers: tuple[str, ...] = ()) -> str:
    """The target ("lun:17", ...) a measured object's name points at, or ""."""
    n = name.strip()
    if kind == "lun":
        by_label = {_norm(l.label): l.id for l in project.luns}
        by_label.update({_norm(l.name): l.id for l in project.luns if l.name})
        if _norm(n) in by_label:
            return target("lun", by_label[_norm(n)])
        m = re.match(r"^(.*?)\s*\[\s*(\d+)\s*\]$", n)  # Analyzer: "name [17]"
        if m:
            if _norm(m.group(1)) in by_label:
                return target("lun", by_label[_norm(m.group(1))])
            num = int(m.group(2))
        else:
            m2 = re.fullmatch(r"(?i)lun[\s_\-]*(\d+)", n)
            num = int(m2.group(1)) if m2 else None
        if num is not None and any(l.id == num for l in project.luns):
            return target("lun", num)
        return ""
    if kind == "group":
        m = re.fullmatch(r"(?i)(?:raid\s*group|rg)[\s_\-]*(\d+)", n)
        if m and any(g.id == int(m.group(1)) for g in project.groups):
            return target("group", int(m.group(1)))
        for g in project.groups:
            if g.name and _norm(g.name) == _norm(n):
                return target("group", g.id)
        return ""
    if kind == "drive":
        m = re.fullmatch(r"(?i)bus\s*(\d+)\s*enclosure\s*(\d+)\s*disk\s*(\d+)", n) or re.fullmatch(r"(\d+)_(\d+)_(\d+)", n)
        if m:
            loc = "_".join(m.groups())
            if loc in project.drives:
                return target("drive", loc)
        return ""
    if kind in ("sp", "port"):
        m = re.search(r"(?i)\bSP\s*([A-Z])\b", n)
        names = {_norm(c): c for c in controllers} or {_norm(l.owner): l.owner for l in project.luns}
        if m and _norm(f"SP {m.group(1)}") in names:
            return target(kind, names[_norm(f"SP {m.group(1)}")])
        if _norm(n) in names:
            return target(kind, names[_norm(n)])
    return ""


def guess_mapping(project: Project, data: MeasuredData, controllers: tuple[str, ...] = (),
                  keep: dict[str, str] | None = None) -> dict[str, str]:
    """A target for every measured object: `keep` (a mapping remembered in the project) first,
    where its target still exists, then the name rules above."""
    out = {}
    for kind, name in data.objects():
        key = object_key(kind, name)
        remembered = (keep or {}).get(key)
        if remembered is not None and (remembered == "" or target_exists(project, remembered, controllers)):
            out[key] = remembered
        else:
            out[key] = guess_target(project, kind, name, controllers)
    return out


def target_exists(project: Project, text: str, controllers: tuple[str, ...] = ()) -> bool:
    kind, _, ident = text.partition(":")
    try:
        if kind == "lun":
            return any(l.id == int(ident) for l in project.luns)
        if kind == "group":
            return any(g.id == int(ident) for g in project.groups)
    except ValueError:
        return False
    if kind == "drive":
        return ident in project.drives
    if kind in ("sp", "port"):
        return ident in (controllers or {l.owner for l in project.luns})
    return False


def target_choices(project: Project, kind: str, controllers: tuple[str, ...] = (),
                   platform=None) -> list[tuple[str, str]]:
    """(target, label) of every project object a measured object of `kind` can map to; a RAID
    group as the GUI names it on `platform` ("Disk Group 3", or its own name), not "RG 3"."""
    if kind == "lun":
        return [(target("lun", l.id), f"LUN {l.id}" + (f" ({l.name})" if l.name else "")) for l in project.luns]
    if kind == "group":
        from app.domain.hardware import group_title

        return [(target("group", g.id), group_title(platform, g.id, g.name)) for g in project.groups]
    if kind == "drive":
        return [(target("drive", loc), f"drive {loc}") for loc in project.drives]
    names = controllers or tuple(dict.fromkeys(l.owner for l in project.luns))
    return [(target(kind, c), c + (" host ports" if kind == "port" else "")) for c in names]
