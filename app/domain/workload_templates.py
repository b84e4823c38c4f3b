"""Workload templates: the I/O profile of a common application (OLTP, decision support, mail,
backup, VDI) that a workload can take in one edit instead of typing each figure by hand. The
figures and their sources are in presets/workload_templates.toml (app.store.workload_templates)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

# the Workload fields a template sets; the load (IOPS, outstanding I/Os) and the LUNs stay the workload's
TEMPLATE_FIELDS = ("io_kb", "read_pct", "random_pct", "read_hit_pct")


@dataclass(frozen=True)
class WorkloadTemplate:
    id: str
    name: str
    io_kb: float
    read_pct: float
    random_pct: float
    read_hit_pct: float | None  # None: the array's cache model decides
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)

    def values(self) -> dict[str, Any]:
        """The workload fields it sets (EditWorkload's keywords)."""
        return {k: getattr(self, k) for k in TEMPLATE_FIELDS}

    def summary(self) -> str:
        """"8 KB, 70% reads, 100% random": what it sets, in a line."""
        hits = "" if self.read_hit_pct is None else f", {self.read_hit_pct:g}% read hits"
        return f"{self.io_kb:g} KB, {self.read_pct:g}% reads, {self.random_pct:g}% random{hits}"

    def source_text(self) -> str:
        """Every value with its source, a line each (a tooltip)."""
        labels = {"io_kb": "I/O size", "read_pct": "Reads", "random_pct": "Random", "read_hit_pct": "Read cache hits"}
        return "\n".join(f"{labels[k]}: {self.sources.get(k, '')}" for k in TEMPLATE_FIELDS)

    def matches(self, workload) -> bool:
        """Does `workload` have this profile (the inspector shows which template it follows)?"""
        return all(getattr(workload, k) == v for k, v in self.values().items())
