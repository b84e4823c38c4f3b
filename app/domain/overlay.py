"""A scenario's own configuration: differences from the base project (issue 23).

A scenario whose `overlay` is None runs on the base configuration. One with an Overlay runs on
the base with the overlay's differences applied, its *effective project*; the base stays as it
is, so a scenario "proposed: two more drives and HPT on" can be compared with today's array.

An overlay names whole objects, by their key, in each configuration section:

    changed[section][key] = the object (or, for cache / features, the value) in the scenario
    removed[section]      = the keys of base objects the scenario does not have

Entries are absolute (not "add one drive"), so applying an overlay twice gives the same project,
and an object of the base the overlay does not name follows later edits of the base. The
overlay of an edited copy is found by comparing it with the base (`overlay_between`): the GUI
edits a scenario's configuration on its effective project and keeps the difference.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

from .project import Project

# the list sections and each object's key; drives, cache and features are dicts already
_LIST_KEYS: dict[str, Callable[[Any], Any]] = {
    "enclosures": lambda e: e.id,
    "groups": lambda g: g.id,
    "luns": lambda l: l.id,
    "workloads": lambda w: w.id,
}
_DICT_SECTIONS = ("drives", "cache", "features")
# in the order a reader would list the differences: hardware first, then what runs on it
SECTIONS = ("enclosures", "drives", "groups", "luns", "cache", "features", "workloads")


@dataclass
class Overlay:
    changed: dict[str, dict[Any, Any]] = field(default_factory=dict)
    removed: dict[str, list[Any]] = field(default_factory=dict)

    def is_empty(self) -> bool:
        return not any(self.changed.values()) and not any(self.removed.values())

    def sections(self) -> list[str]:
        """The sections the overlay touches, in SECTIONS order."""
        return [s for s in SECTIONS if self.changed.get(s) or self.removed.get(s)]


def _items(project: Project, section: str) -> dict[Any, Any]:
    """A section of `project` as key -> object, in the project's order."""
    value = getattr(project, section)
    if section in _LIST_KEYS:
        key = _LIST_KEYS[section]
        out: dict[Any, Any] = {}
        for obj in value:
            out.setdefault(key(obj), obj)  # a duplicate id is validation's to report
        return out
    return dict(value)


def _rebuild(base_value: Any, section: str, changed: dict[Any, Any], removed: set[Any]) -> Any:
    """The section of the base with the overlay's entries put in: base order, changed objects in
    place, then the added ones in the overlay's order."""
    new = {k: copy.deepcopy(v) for k, v in changed.items()}
    if section in _LIST_KEYS:
        key = _LIST_KEYS[section]
        out, seen = [], set()
        for obj in base_value:
            k = key(obj)
            if k in removed:
                continue
            seen.add(k)
            out.append(new[k] if k in new else obj)
        out.extend(v for k, v in new.items() if k not in seen)
        return out
    result = {k: new.get(k, v) for k, v in base_value.items() if k not in removed}
    result.update((k, v) for k, v in new.items() if k not in result)
    return result


def apply_overlay(base: Project, overlay: Overlay) -> Project:
    """The base with `overlay` applied, as a new Project. Sections the overlay does not touch are
    the base's own containers (shared: callers only read them, as the engine does); use
    `editable_copy` for a project to edit."""
    out = copy.copy(base)
    for section in overlay.sections():
        setattr(out, section, _rebuild(getattr(base, section), section,
                                       overlay.changed.get(section, {}), set(overlay.removed.get(section, ()))))
    return out


def effective_project(project: Project, scenario_name: str | None = None) -> Project:
    """What `scenario_name` (default: the current one) runs on: `project` itself for a scenario
    without an overlay, else the base with the overlay applied (see apply_overlay)."""
    overlay = project.scenario(scenario_name).overlay
    return project if overlay is None else apply_overlay(project, overlay)


def editable_copy(project: Project, scenario_name: str | None = None) -> Project:
    """effective_project with every configuration container its own copy, for edits that must
    not reach the base; the scenarios, info and plain attributes stay the base's own objects."""
    eff = effective_project(project, scenario_name)
    out = copy.copy(eff)
    for section in SECTIONS:
        setattr(out, section, copy.deepcopy(getattr(eff, section)))
    return out


def overlay_between(base: Project, edited: Project) -> Overlay:
    """The overlay that turns `base` into `edited` (their configuration sections only)."""
    ov = Overlay()
    for section in SECTIONS:
        a, b = _items(base, section), _items(edited, section)
        changed = {k: copy.deepcopy(v) for k, v in b.items() if k not in a or a[k] != v}
        removed = [k for k in a if k not in b]
        # an order change alone (a LUN moved in the list) is not a configuration difference
        if changed:
            ov.changed[section] = changed
        if removed:
            ov.removed[section] = removed
    return ov


@dataclass(frozen=True)
class Difference:
    """One configuration difference of a scenario, for the comparison and the report."""

    section: str
    what: str    # "LUN 3", "drive 0_1_4", "cache: Write cache size", "Disk Group 2"
    base: str    # as the base has it ("-": the base has none)
    scenario: str  # as the scenario has it ("-": removed)


_NOUN = {"enclosures": "enclosure", "drives": "drive", "groups": "RAID group", "luns": "LUN",
         "cache": "cache", "features": "feature", "workloads": "workload"}


def _describe(section: str, obj: Any, project: Project | None = None, platform: Any = None,
              key: Any = None) -> str:
    """A configuration object in a few words, as the GUI writes it ("RAID 5, 5 drives",
    "100 GB on Disk Group 0, SP A", "2,000 MB")."""
    if obj is None:
        return "-"
    if section == "drives":
        return obj.type_id + (" (hot spare)" if obj.hot_spare else "")
    if section == "enclosures":
        return obj.type_id
    if section == "groups":
        raid = getattr(obj.raid, "label", None) or getattr(obj.raid, "value", obj.raid)
        return f"{raid}, {obj.width} drives"
    if section == "luns":
        return f"{obj.capacity_gb:g} GB on {_group_title(project, platform, obj.group_id)}, {obj.owner}"
    if section == "workloads":
        load = f"{obj.iops:,.0f} IOPS" if obj.mode == "open" else f"{obj.outstanding} outstanding"
        return f"{load}, {obj.read_pct:g}% read, {obj.io_kb:g} KB"
    if section == "features":
        return "on" if obj else "off"
    if section == "cache":
        spec = _cache_spec(platform, key)
        text = f"{obj:,}" if isinstance(obj, (int, float)) and not isinstance(obj, bool) else str(obj)
        return f"{text} {spec.unit}".strip() if spec is not None and spec.unit else text
    return str(obj)


def _cache_spec(platform: Any, key: Any):
    settings = getattr(platform, "cache_settings", None) or {}
    return settings.get(key)


def _group_title(project: Project | None, platform: Any, group_id: int) -> str:
    """ "Disk Group 3" (the platform's noun), or the group's own name: never the engine's "RG 3"."""
    from .hardware import group_title

    name = ""
    if project is not None:
        name = next((g.name for g in project.groups if g.id == group_id), "")
    return group_title(platform, group_id, name)


def _label(section: str, key: Any, obj: Any, project: Project | None = None, platform: Any = None) -> str:
    if section == "groups" and obj is not None and getattr(obj, "name", ""):
        return obj.name
    if section == "luns" and obj is not None and getattr(obj, "name", ""):
        return obj.name
    if section == "workloads" and obj is not None:
        return f"workload {obj.name or key}"
    if section == "groups":
        return _group_title(project, platform, key)
    if section == "cache":
        spec = _cache_spec(platform, key)
        return f"cache: {spec.label}" if spec is not None and spec.label else f"cache {key}"
    return f"{_NOUN[section]} {key}"


def differences(base: Project, scenario_project: Project, feature_names: dict[str, str] | None = None,
                platform: Any = None) -> list[Difference]:
    """The configuration differences between two projects (a scenario's effective project and
    the one it is compared with), object by object, named as the user knows them (`platform`:
    its word for a RAID group and its cache settings' names and units)."""
    out: list[Difference] = []
    names = feature_names or {}
    for section in SECTIONS:
        a, b = _items(base, section), _items(scenario_project, section)
        for key in list(a) + [k for k in b if k not in a]:
            va, vb = a.get(key), b.get(key)
            if key in a and key in b and va == vb:
                continue
            if section == "features":
                # a feature not set is off: "off -> off" is no difference
                if bool(va) == bool(vb):
                    continue
                what = f"feature {names.get(key, key)}"
                out.append(Difference(section, what, _describe(section, bool(va)), _describe(section, bool(vb))))
                continue
            label = _label(section, key, vb if vb is not None else va,
                           scenario_project if vb is not None else base, platform)
            da = _describe(section, va, base, platform, key) if key in a else "-"
            db = _describe(section, vb, scenario_project, platform, key) if key in b else "-"
            if section in ("groups", "luns", "workloads", "drives") and key in a and key in b and da == db:
                db = db + " (changed)"  # a difference the short form does not show (member order, a setting)
            out.append(Difference(section, label, da, db))
    return out
