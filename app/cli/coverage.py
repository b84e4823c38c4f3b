"""`validate --bands N`: how many published figures fall inside the predicted P10-P90.

    cov = coverage(bench, results, samples=100, seed=0, workers=2)
    cov.share("calibration"), cov.share("prediction")     # (inside, cases)

A calibrated interval should hold about 80% of what it is calibrated on (P10-P90). Each numeric
case (calibration or prediction, not plumbing, not a directional statement) gets the band of its
prediction: the same seeded Latin hypercube over every ranged rates value as the uncertainty
bands (app/service/uncertainty.py `sample_matrix`), one run of the case per sample with the
sampled values put into its rates in memory (Bench.run). A case whose runs read no ranged value
has a zero-wide band, its point prediction, and is inside only when that is exact (ranges
are the only uncertainty the model knows of). "Inside": the published figure lies within
[P10, P90]; a published range overlaps it; a figure the source rounds up (ceil) or rounds to some
decimals is inside when a value that rounds to it is.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from app.cli.calibration import DIRECTIONAL, HARDWARE_KEY, Bench, load_rates_docs
from app.domain.value_ranges import ranged_nodes
from app.service.uncertainty import DRIVE_PREFIX, RangedParameter, hardware_parameters, sample_matrix, valid_limits


@dataclass
class CaseBand:
    id: str
    cls: str
    published: Any
    rule: str
    point: float
    p10: float
    p50: float
    p90: float
    varied: bool   # the case's runs read a ranged value
    inside: bool

    def to_json(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return round(x, 6) if math.isfinite(x) else None
        return {"id": self.id, "class": self.cls, "published": self.published, "point": num(self.point),
                "p10": num(self.p10), "p50": num(self.p50), "p90": num(self.p90), "varied": self.varied,
                "inside": self.inside}


@dataclass
class Coverage:
    samples: int
    seed: int
    parameters: int
    cases: list[CaseBand] = field(default_factory=list)
    sims: int = 0
    seconds: float = 0.0

    def share(self, cls: str) -> tuple[int, int]:
        mine = [c for c in self.cases if c.cls == cls]
        return sum(c.inside for c in mine), len(mine)

    def line(self, cls: str) -> str:
        inside, n = self.share(cls)
        varied = [c for c in self.cases if c.cls == cls and c.varied]
        pct = f"{100 * inside / n:.0f}%" if n else "--"
        return (f"{cls:12s} {inside} of {n} published figures inside the predicted P10-P90 ({pct}; target 80%); "
                f"{len(varied)} with a ranged input, of which {sum(c.inside for c in varied)} inside")

    def to_json(self) -> dict[str, Any]:
        return {"samples": self.samples, "seed": self.seed, "parameters": self.parameters,
                "engine_runs": self.sims, "seconds": round(self.seconds, 1),
                "share": {c: {"inside": self.share(c)[0], "cases": self.share(c)[1]}
                          for c in ("calibration", "prediction")},
                "cases": [c.to_json() for c in self.cases]}


def ranged_rates(rates_docs: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, RangedParameter]]:
    """(rates id, parameter) of every ranged value of the rates presets."""
    out = []
    for rid in sorted(rates_docs):
        doc = {k: v for k, v in rates_docs[rid].items() if k not in ("fit", "envelope")}
        limits = valid_limits(rates_docs[rid])
        for path, node in ranged_nodes(doc):
            lo, hi = limits.get(path, (-math.inf, math.inf))
            out.append((rid, RangedParameter(path, float(node["value"]), float(node["low"]), float(node["high"]),
                                             str(node.get("range_source", "")), lo, hi)))
    return out


def ranged_hardware(catalog: Any) -> list[tuple[str, RangedParameter]]:
    """(overrides key, parameter) of every ranged drive and platform number: the drives once
    (HARDWARE_KEY alone: a drive type is the same drive on every platform), each platform's
    hardware tables under HARDWARE_KEY + its id."""
    out = [(HARDWARE_KEY, p) for p in hardware_parameters(catalog, None, list(catalog.drives))]
    for pid in sorted(catalog.platforms):
        out += [(HARDWARE_KEY + pid, p) for p in hardware_parameters(catalog, pid, ())]
    return out


def inside(published: Any, rule: str, lo: float, hi: float, decimals: int = 0) -> bool:
    """Whether the published figure is within the band [lo, hi] (module docstring)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return False
    if isinstance(published, list):
        return lo <= float(published[1]) and float(published[0]) <= hi
    p = float(published)
    if rule == "ceil":  # the source printed the value rounded up: it was in (p - 1, p]
        return lo <= p and hi > p - 1.0
    if rule == "round":
        half = 0.5 * 10.0 ** (-decimals)
        return lo <= p + half and hi >= p - half
    eps = 1e-9 * max(1.0, abs(p))
    return lo - eps <= p <= hi + eps


def _runs(job: tuple[np.ndarray, list[tuple[str, str]], tuple[str, ...]]) -> tuple[list[dict[str, float]], int]:
    """One chunk of samples where it lands (a forked worker keeps the parent's Bench)."""
    from app.cli.calibration import _worker_bench

    rows, keys, ids = job
    bench = _worker_bench()
    sims0 = bench.sims
    out = []
    for row in rows:
        overrides: dict[str, dict[str, float]] = {}
        for (rid, path), x in zip(keys, row):
            overrides.setdefault(rid, {})[path] = float(x)
        res = bench.run(ids, overrides)
        out.append({cid: float(r.predicted) for cid, r in res.items()})
    return out, bench.sims - sims0


def coverage(bench: Bench, results: Iterable[Any], samples: int, seed: int = 0, workers: int = 2) -> Coverage:
    """The coverage of the numeric calibration and prediction cases among `results` (classified
    CaseResults), from `samples` runs of each case whose inputs carry a range."""
    import app.cli.calibration as calibration

    t0 = time.perf_counter()
    params = ranged_rates(load_rates_docs()) + ranged_hardware(bench.catalog)
    keys = [(rid, p.path) for rid, p in params]
    numeric = [r for r in results if r.cls in ("calibration", "prediction") and r.rule not in DIRECTIONAL]
    rates_of = {pid: pf.document.get("rates", "") for pid, pf in bench.catalog.platforms.items()}

    def varies(r) -> bool:
        rids = {rates_of.get(pid, "") for pid in r.platforms} | {HARDWARE_KEY + pid for pid in r.platforms}
        used = {path for path, _, _ in r.used}
        # a drive type varies the cases of the platforms that accept it (whether a case's
        # project uses it is not recorded: a case that does not keeps its point as its band)
        accepted = {tid for pid in r.platforms for tid in bench.catalog.platform(pid).drive_types}
        return any((rid in rids and (path in used or rid.startswith(HARDWARE_KEY)))
                   or (rid == HARDWARE_KEY and path.rpartition(".")[0][len(DRIVE_PREFIX):] in accepted)
                   for rid, path in keys)

    varied = tuple(r.id for r in numeric if varies(r))
    cov = Coverage(samples, seed, len(params))
    preds: dict[str, list[float]] = {cid: [] for cid in varied}
    if varied and samples > 0:
        rows = sample_matrix([p for _, p in params], samples, seed)
        size = max(1, math.ceil(len(rows) / (max(workers, 1) * 4)))
        jobs = [(rows[i:i + size], keys, varied) for i in range(0, len(rows), size)]
        calibration._BENCH = bench  # the workers (forked) and this process use it
        if workers > 1 and len(jobs) > 1:
            import multiprocessing as mp

            ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
            with ctx.Pool(workers) as pool:
                outs = pool.map(_runs, jobs)
        else:
            outs = [_runs(job) for job in jobs]
        for chunk, sims in outs:
            cov.sims += sims
            for sample in chunk:
                for cid, v in sample.items():
                    preds[cid].append(v)
    for r in numeric:
        case = bench.cases[r.id][0]
        if r.id in preds and preds[r.id]:
            x = np.array(preds[r.id], dtype=float)
            x = x[np.isfinite(x)]
            q = np.quantile(x, [0.1, 0.5, 0.9]) if len(x) else np.full(3, math.nan)
            p10, p50, p90 = (float(v) for v in q)
        else:
            p10 = p50 = p90 = float(r.predicted)
        cov.cases.append(CaseBand(r.id, r.cls, r.published, r.rule, float(r.predicted), p10, p50, p90,
                                  r.id in preds, inside(r.published, r.rule, p10, p90, int(case.get("decimals", 0)))))
    cov.seconds = time.perf_counter() - t0
    return cov


def print_coverage(cov: Coverage, listed: Sequence[str] = ()) -> None:
    print("")
    print(f"Coverage: published figures inside the predicted P10-P90 ({cov.samples} samples of "
          f"{cov.parameters} ranged values, seed {cov.seed}; {cov.sims} engine runs in {cov.seconds:.1f} s)")
    for cls in ("calibration", "prediction"):
        print("  " + cov.line(cls))
    out = [c for c in cov.cases if c.varied and not c.inside]
    if out:
        print("  outside (with a ranged input): " + ", ".join(
            f"{c.id} {c.p10:.4g}-{c.p90:.4g}" for c in out[:12]) + (" ..." if len(out) > 12 else ""))
