"""Validation cases: build a small project from a case's definition, run it, measure what the
case predicts and compare with the published figure. Pure functions on parsed TOML (dicts); the
CLI and the tests read the files (presets/validation/*.toml).

Case format (docs/model.md, "Validation cases"):

    id, source, kind ("formula" | "measured" | "directional"), unit, note, reading
    published = 2.53            (or [low, high] for a published range)
    tolerance = "pct" | "range" | "ceil" | "less" | "greater"
    tolerance_pct = 5
    measure = { what = "op_duration", op = "op1", unit = "h" }   (see measure())
    [project] ...                                                 (see build_project())
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.domain.hardware import Catalog
from app.domain.project import Drive, Enclosure, Event, Lun, Project, RaidGroup, Scenario, Workload
from app.domain.raid import RaidType

from .result import Result
from .simulate import simulate

UNIT_PER_H = {"h": 1.0, "min": 60.0, "s": 3600.0}


def build_project(spec: dict[str, Any], catalog: Catalog) -> Project:
    """A project from a compact definition:

    platform = "emc-cx4-960-r28"
    cache = { write_cache_mb = 3000 }
    [[groups]]  id, raid, drives (count), drive_type, buses = [0] (round-robin), enclosure = 0
    [[spares]]  drive_type, bus, count
    [[luns]]    id, group, gb, owner ("SP A"), settings = {...}, optimization
    [[workloads]] fields of app.domain.project.Workload
    [[scenarios]] name, events = [ {kind, id, start_h, ...}, ... ]   (or events = [...] at top level)
    """
    platform = catalog.platform(spec["platform"])
    enc_type = next(iter(platform.enclosure_types))
    slots = platform.enclosure_types[enc_type].slots
    p = Project(platform_id=platform.id)
    p.cache = platform.default_cache() | dict(spec.get("cache", {}))
    p.features = dict(spec.get("features", {}))
    next_slot: dict[tuple[int, int], int] = {}

    def place(bus: int, enc_hint: int, type_id: str, spare: bool = False, enc_type_id: str | None = None) -> str:
        e = enc_hint
        while next_slot.get((bus, e), 0) >= slots:
            e += 1
        if not any(x.bus == bus and x.position == e for x in p.enclosures):
            p.enclosures.append(Enclosure(bus, e, enc_type_id or enc_type))
        s = next_slot.get((bus, e), 0)
        next_slot[(bus, e)] = s + 1
        loc = f"{bus}_{e}_{s}"
        p.drives[loc] = Drive(loc, type_id, spare)
        return loc

    for g in spec.get("groups", []):
        buses = list(g.get("buses", [0]))
        locs = [place(buses[i % len(buses)], int(g.get("enclosure", 0)), g["drive_type"],
                      enc_type_id=g.get("enclosure_type")) for i in range(int(g["drives"]))]
        p.groups.append(RaidGroup(int(g["id"]), RaidType.parse(g["raid"]), locs, g.get("name", ""),
                                  int(g.get("stripe", 0)), int(g.get("spare", 0))))
    for s in spec.get("spares", []):
        for _ in range(int(s.get("count", 1))):
            place(int(s.get("bus", 0)), int(s.get("enclosure", 0)), s["drive_type"], True, s.get("enclosure_type"))
    owner0 = platform.controller_names()[0]
    for l in spec.get("luns", []):
        settings = platform.default_lun_settings() | dict(l.get("settings", {}))
        p.luns.append(Lun(int(l["id"]), int(l["group"]), float(l["gb"]), l.get("owner", owner0), l.get("name", ""),
                          settings, float(l.get("optimization", 1.0))))
    for w in spec.get("workloads", []):
        p.workloads.append(Workload(**w))
    scenarios = spec.get("scenarios") or [{"name": "Baseline", "events": spec.get("events", [])}]
    p.scenarios = [Scenario(s["name"], [Event.from_dict(dict(e)) for e in s.get("events", [])]) for s in scenarios]
    p.current_scenario = p.scenarios[0].name
    if "horizon_h" in spec:
        p.horizon_h = float(spec["horizon_h"])
    return p


def _window(res: Result, during: dict[str, Any] | None) -> tuple[float, float]:
    if not during:
        return 0.0, res.horizon_h
    op = res.operation(during["op"])
    if "phase" in during:
        ph = [p for p in op.phases if p.name == during["phase"]]
        if not ph:
            raise KeyError(f"operation {during['op']} has no phase {during['phase']!r}")
        a, b = ph[0].start_h, ph[0].end_h if ph[0].end_h is not None else res.horizon_h
    else:
        a, b = op.start_h, op.end_h if op.end_h is not None else res.horizon_h
    return a, b


def series_stat(res: Result, metric: str, entity: str, a: float, b: float, stat: str = "mean") -> float:
    s = res.get(metric, entity)
    if s is None:
        raise KeyError(f"no series {metric} [{entity}]")
    if b <= a:  # an instant: the value right after a
        return s.at(a)
    t = np.append(s.t, res.horizon_h if res.horizon_h > s.t[-1] else s.t[-1] + 1e-9)
    lo = np.clip(t[:-1], a, b)
    hi = np.clip(t[1:], a, b)
    w = hi - lo
    if not np.any(w > 0):
        return s.at(a)
    # a response time's NaN pieces (no I/O completed) are left out; NaN if nothing else is left
    ok = (w > 0) & ~np.isnan(s.v)
    if not ok.any():
        return float("nan")
    if stat == "max":
        return float(np.max(s.v[ok]))
    if stat == "min":
        return float(np.min(s.v[ok]))
    return float(np.sum(w[ok] * s.v[ok]) / np.sum(w[ok]))


def measure(m: dict[str, Any], run) -> float:
    """Evaluate a measure spec; `run(scenario)` returns the Result of that scenario."""
    what = m["what"]
    if what == "ratio":
        return measure(m["num"], run) / measure(m["den"], run)
    if what == "sum":
        return sum(measure(x, run) for x in m["terms"])
    if what == "diff":
        return measure(m["a"], run) - measure(m["b"], run)
    res: Result = run(m.get("scenario"), m.get("project"))
    per_h = UNIT_PER_H.get(m.get("unit", "h"), 1.0)
    if what == "op_duration":
        d = res.operation(m["op"]).duration_h
        return math.inf if d is None else d * per_h
    if what == "phase_duration":
        ph = [p for p in res.operation(m["op"]).phases if p.name == m["phase"]]
        if not ph or ph[0].duration_h is None:
            return math.inf
        return ph[0].duration_h * per_h
    if what == "phase_rate":
        ph = [p for p in res.operation(m["op"]).phases if p.name == m["phase"]]
        return ph[0].avg_mb_s if ph else 0.0
    if what == "series":
        if "at_h" in m:
            a = b = float(m["at_h"])
        elif "after" in m:  # an instant relative to an operation's end
            op = res.operation(m["after"]["op"])
            a = b = (op.end_h if op.end_h is not None else res.horizon_h) + float(m["after"].get("offset_h", 0.0))
        else:
            a, b = _window(res, m.get("during"))
        return series_stat(res, m["metric"], str(m["entity"]), a, b, m.get("stat", "mean"))
    if what == "mttdl":
        return res.mttdl_h[int(m["group"])] * per_h
    if what == "advisory":
        return 1.0 if any(a.code == m["code"] for a in res.advisories) else 0.0
    raise ValueError(f"unknown measure {what!r}")


@dataclass
class CaseResult:
    id: str
    source: str
    published: Any
    predicted: float
    unit: str
    error_pct: float | None
    tolerance_pct: float | None
    passed: bool
    note: str = ""
    check: str = ""  # the condition checked, e.g. "2.53 ±5%", "> 4", "range 12-40", "flag set"
    rule: str = ""  # pct | range | ceil | round | less | greater | flag
    # what the runs behind the prediction read: the platforms and every preset value (path,
    # value, source) the engine used; the classification (app/cli/calibration.py) scans them
    platforms: tuple[str, ...] = ()
    used: tuple[tuple[str, float, str], ...] = ()
    cls: str = ""  # calibration | prediction | plumbing (set by the classification)
    sims: int = 0  # engine runs (simulate calls) behind the prediction

    @property
    def is_number(self) -> bool:
        """The published figure is a number the prediction is compared with (an error in %
        means something); False for directional statements and flags."""
        return self.rule in ("pct", "ceil", "round")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "published": self.published, "predicted": self.predicted,
                "unit": self.unit, "error_pct": self.error_pct, "tolerance_pct": self.tolerance_pct,
                "pass": self.passed, "check": self.check, "class": self.cls or None}


def rule_of(case: dict[str, Any]) -> str:
    """The comparison a case makes; "flag" for a directional case on an advisory (0 or 1)."""
    pub = case["published"]
    rule = case.get("tolerance", "range" if isinstance(pub, list) else "pct")
    if case.get("measure", {}).get("what") == "advisory" and rule in ("greater", "less"):
        return "flag"
    return rule


def _num(v: Any) -> str:
    return f"{float(v):.4g}"


def check_text(case: dict[str, Any]) -> str:
    """The condition a case checks, in words a reader of `arrayplanner validate` can verify."""
    pub = case["published"]
    rule = rule_of(case)
    tol = case.get("tolerance_pct")
    widen = f" ±{float(tol):g}%" if tol else ""
    if rule == "flag":  # the advisory is raised (greater than 0.5) or not (less than 0.5)
        raised = case.get("tolerance") == "greater"
        return "flag set" if raised else "flag not set"
    if rule == "range":
        return f"range {_num(pub[0])}-{_num(pub[1])}{widen}"
    if rule == "greater":
        return f"> {_num(pub)}"
    if rule == "less":
        return f"< {_num(pub)}"
    if rule == "ceil":
        return f"{_num(pub)} (rounded up)"
    if rule == "round":
        return f"{_num(pub)} (rounded to {int(case.get('decimals', 0))} decimals{' or' + widen if widen else ''})"
    return f"{_num(pub)}{widen}"


def judge(case: dict[str, Any], predicted: float) -> tuple[float | None, bool]:
    """(error in % of the published figure, pass). The error is None where a percentage means
    nothing: directional statements (greater/less, flags) and non-finite predictions; for a
    range it is the distance outside the range (0 inside)."""
    pub = case["published"]
    tol = float(case.get("tolerance_pct", 0.0))
    rule = case.get("tolerance", "range" if isinstance(pub, list) else "pct")
    if not math.isfinite(predicted):
        return None, False
    if rule == "range":
        lo, hi = float(pub[0]), float(pub[1])
        lo_t, hi_t = lo * (1 - tol / 100), hi * (1 + tol / 100)
        if predicted < lo:
            err = (predicted - lo) / lo * 100
        elif predicted > hi:
            err = (predicted - hi) / hi * 100
        else:
            err = 0.0
        return err, lo_t <= predicted <= hi_t
    pub = float(pub)
    err = (predicted - pub) / pub * 100 if pub else predicted * 100
    if rule == "pct":
        return err, abs(err) <= tol + 1e-9
    if rule == "ceil":  # the source rounds up to whole units (EMC Table 3)
        return err, pub - 1.0 < predicted <= pub + 1e-9
    if rule == "round":  # the source rounds to `decimals`
        dec = int(case.get("decimals", 0))
        return err, round(predicted, dec) == round(pub, dec) or abs(err) <= tol
    if rule == "less":
        return None, predicted < pub
    if rule == "greater":
        return None, predicted > pub
    raise ValueError(f"case {case.get('id')}: unknown tolerance rule {rule!r}")


def run_case(case: dict[str, Any], catalog: Catalog, examples: dict[str, Project] | None = None,
             projects: dict[str, dict[str, Any]] | None = None) -> CaseResult:
    """Run one case. `projects` maps names to project definitions: the case's own file's
    [projects.NAME] tables, and "file.toml#NAME" for another case file's."""
    projects = projects or {}
    built: dict[str | None, Project] = {}

    def project_for(ref: str | None) -> Project:
        if ref not in built:
            if ref is None:
                if "example" in case:
                    if not examples or case["example"] not in examples:
                        raise KeyError(f"case {case['id']}: example {case['example']!r} not found")
                    built[ref] = examples[case["example"]]
                elif "project" in case:
                    built[ref] = build_project(case["project"], catalog)
                else:
                    built[ref] = project_for(case["project_ref"])
            else:
                if ref not in projects:
                    raise KeyError(f"case {case['id']}: no project {ref!r}")
                built[ref] = build_project(projects[ref], catalog)
        return built[ref]

    cache: dict[tuple[str | None, str | None], Result] = {}

    def run(scenario: str | None, project: str | None = None) -> Result:
        key = (project, scenario)
        if key not in cache:
            cache[key] = simulate(project_for(project), catalog, scenario)
        return cache[key]

    predicted = float(measure(case["measure"], run))
    err, ok = judge(case, predicted)
    tol = case.get("tolerance_pct")
    platforms = tuple(sorted({r.platform_id for r in cache.values()}))
    used = tuple(sorted({(a.path, a.value, a.source) for r in cache.values() for a in r.assumptions}))
    return CaseResult(case["id"], case.get("source", ""), case["published"], predicted, case.get("unit", ""),
                      None if err is None else round(err, 2), None if tol is None else float(tol), ok,
                      case.get("reading", ""), check_text(case), rule_of(case), platforms, used, "", len(cache))
