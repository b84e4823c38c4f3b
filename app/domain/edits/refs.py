"""References to project objects as strings ("drive 0_1_4", "RG 3", "LUN 12" ...)."""
from __future__ import annotations

from typing import Any

from ..project import Project, parse_slot_id


def ref_drive(location: str) -> str:
    return f"drive {location}"


def ref_enclosure(enc_id: str) -> str:
    return f"enclosure {enc_id}"


def ref_group(group_id: int) -> str:
    return f"RG {group_id}"


def ref_lun(lun_id: int) -> str:
    return f"LUN {lun_id}"


def ref_workload(workload_id: str) -> str:
    return f"workload {workload_id}"


def ref_scenario(name: str) -> str:
    return f"scenario {name}"


def parse_ref(ref: str) -> tuple[str, Any]:
    """("drive", "0_1_4"), ("enclosure", "0_2"), ("bus", 0), ("group", 3), ("lun", 12),
    ("workload", "w1"), ("scenario", "Baseline"), ("event", "op3"), ("controller", "SP A"),
    or ("", ref) when the string names nothing known."""
    ref = ref.strip()
    head, _, rest = ref.partition(" ")
    try:
        if head == "drive":
            parse_slot_id(rest)
            return "drive", rest
        if head == "enclosure":
            return "enclosure", rest
        if head == "bus":
            return "bus", int(rest)
        if head == "RG":
            return "group", int(rest)
        if head == "LUN":
            return "lun", int(rest)
        if head == "workload":
            return "workload", rest
        if head == "scenario":
            return "scenario", rest
        if head == "feature":
            return "feature", rest
        if head.startswith("cache.") and not rest:
            return "cache", head[len("cache."):]
        if ref == "project":
            return "project", ""
        if head in ("SP", "Controller", "controller"):
            return "controller", ref
    except ValueError:
        return "", ref
    if " " not in ref and ref[:1].isalpha() and any(c.isdigit() for c in ref):
        return "event", ref
    return "", ref


def ref_exists(project: Project, ref: str) -> bool:
    """Does the object `ref` names exist in `project` as it is now? An event ("op3") exists when
    the current scenario has it. References to what cannot vanish (the project, a cache setting,
    a feature, a controller, a bus) or to nothing known count as existing: only objects an edit,
    an undo or a redo can remove are checked."""
    kind, key = parse_ref(ref)
    if kind == "drive":
        return key in project.drives
    if kind == "enclosure":
        return any(e.id == key for e in project.enclosures)
    if kind == "group":
        return any(g.id == key for g in project.groups)
    if kind == "lun":
        return any(l.id == key for l in project.luns)
    if kind == "workload":
        return any(w.id == key for w in project.workloads)
    if kind == "scenario":
        return any(s.name == key for s in project.scenarios)
    if kind == "event":
        try:
            project.scenario().event(key)
        except KeyError:
            return False
        return True
    return True
