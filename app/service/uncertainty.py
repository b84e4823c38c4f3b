"""How sure a prediction is: P10 / P50 / P90 bands from the ranges the preset values carry.

    bands = compute_bands(project, catalog, samples=200, seed=0)          # None if cancelled
    bands.operation("op1").duration_h.p90      # hours; inf: not finished by the horizon
    bands.operation("op1").unfinished_share    # share of the samples still running at the horizon
    bands.series_band("response_ms", "oltp")   # SeriesBand: t, p10, p50, p90 (numpy arrays)
    bands.to_json()                            # the `bands` key of `simulate --json --bands N`

Public API (stable; the GUI's bands and the report's ranges build on it):
- `RangedParameter(path, value, low, high, source, valid_low, valid_high)`: one rates value
  with a range (`ranged_parameters(platform)` lists them; docs/presets.md "Ranges").
- `Quantiles(p10, p50, p90)`; `OperationBand(event_id, label, duration_h, unfinished_share, finished)`;
  `SeriesBand(metric, entity, unit, t, p10, p50, p90)`;
  `Bands(scenario, samples, seed, parameters, operations, series, runs, seconds)` with
  `operation(event_id)`, `series_band(metric, entity)`, `to_json()`.
- `compute_bands(project, catalog, scenario=None, samples=DEFAULT_SAMPLES, seed=0, executor=None,
  progress=None, cancel=None, point=None, metrics=BAND_METRICS, chunk=None) -> Bands | None`:
  `samples=None`: `sample_count(point)` (200, fewer for a plan of long runs, at least 100);
  `progress(done_runs, total_runs)`, `cancel` a threading.Event (or any callable returning
  True to stop), `point` the point estimate's Result when the caller already has it (its time
  grid is the bands' grid), `executor` as app/service/runner.py (None: the shared local pool,
  all cores; `InProcessExecutor()` for tests).
- `sample_matrix(parameters, samples, seed) -> ndarray (samples, len(parameters))`.
- `with_ranges(catalog, platform_id, {path: (low, high)}, keep_others=True) -> Catalog`: a
  what-if (or a test) with ranges put on some values, in memory.
- `DEFAULT_SAMPLES` (200), `sample_count(point)`, `BAND_METRICS` (the series that get bands).
- `hardware_parameters(catalog, platform_id, drive_types)`: the ranged drive and platform
  numbers ("drive:<type>.<key>", "platform:<table>.<key>"); `catalog_with(catalog, platform_id,
  values)`: the catalog with sampled values in (rates paths and those names).

What a range means: `low` and `high` are the value's 10th and 90th percentiles (the documents'
scatter, a stated +/-, or a fit's standard error x 1.28). Each parameter is drawn from a split
normal through (low, value, high) (a different sigma either side, so an asymmetric range keeps
its shape), cut at 3 sigma and, for a range that does not go below zero, at zero. The draws are a
Latin hypercube (scipy.stats.qmc.LatinHypercube, seeded: the same seed gives the same bands),
which covers each parameter's range evenly with a few hundred runs. Each sample is one real
engine run of the project with the sampled values put into the platform's rates (in memory,
as the calibration does); the runs go to the runner in chunks of several samples, so a job is
not one run and a worker sends back only the values on the point estimate's grid.

The bands are quantiles over the samples, per time step: P10 <= P50 <= P90 by construction; each
sample is a physical run, so a band never shows a centre busier than the engine lets one be.
A duration's quantile counts an operation that did not finish as infinitely long (`inf`, JSON
null): a P90 of `inf` says "more than 10% of the samples do not finish in the plan".
No Qt here.
"""
from __future__ import annotations

import dataclasses
import math
import os
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from app.domain.hardware import Catalog, Platform
from app.domain.project import Project

from .runner import RunJob, run_jobs

DEFAULT_SAMPLES = 200
# The sample count when the caller leaves it to the bands (samples=None, sample_count): 200 runs,
# fewer for a plan whose runs are long, never below MIN_SAMPLES. 100 leaves 10 samples beyond
# each of P10 and P90 (a Latin hypercube puts one in each tenth of every parameter's range), so
# the quantiles still come from samples, not from one extreme draw. STEP_BUDGET engine steps in
# all: a long run's cost grows with its steps (a small plan's runs take a few ms whatever their
# 3-25 steps, and keep 200), and the 960-drive benchmark plan (661 steps) gets 100.
MIN_SAMPLES = 100
STEP_BUDGET = 40_000
# response per workload, utilisation per component (drive_pct, one per drive, on request: a
# 960-drive plan would carry 960 bands)
BAND_METRICS = ("response_ms", "cpu_pct", "group_pct", "bus_pct", "port_pct", "write_cache_pct")
UTILISATION_METRICS = frozenset({"cpu_pct", "group_pct", "bus_pct", "port_pct", "write_cache_pct", "drive_pct"})
# a grid longer than this (a plan of thousands of engine steps) is thinned to this many of its
# breakpoints: the bands' memory is samples x steps x entities
MAX_GRID_POINTS = 400
Z90 = 1.2815515655446004  # the standard normal's 90th percentile: low/high are P10/P90
CUT_SIGMAS = 3.0
# adaptive stopping (compute_bands(adaptive=True), the GUI's bands): the first ADAPTIVE_MIN rows
# of the Latin hypercube, then ADAPTIVE_STEP more at a time, until no P10/P50/P90 (durations, and
# series relative to their metric's largest P90) moves by more than ADAPTIVE_TOLERANCE between
# rounds. The rows are always the same hypercube's first ones: the same seed gives the same bands.
ADAPTIVE_MIN = 100  # MIN_SAMPLES' reasoning: 10 samples beyond each of P10 and P90
ADAPTIVE_STEP = 50
ADAPTIVE_TOLERANCE = 0.02


@dataclass(frozen=True)
class RangedParameter:
    path: str      # rates path, "host.cpu_us_per_io"
    value: float   # the preset's value (the point estimate uses it)
    low: float     # P10
    high: float    # P90
    source: str = ""  # where the range comes from (the value's `range_source`, else its source)
    # the values the model accepts here (a [fit] table's bounds, else the rate key's valid range):
    # a draw is kept inside them
    valid_low: float = -math.inf
    valid_high: float = math.inf

    @property
    def width(self) -> float:
        return self.high - self.low


@dataclass(frozen=True)
class Quantiles:
    p10: float
    p50: float
    p90: float

    def to_json(self) -> dict[str, float | None]:
        return {k: (None if not math.isfinite(v) else round(v, 6)) for k, v in
                (("p10", self.p10), ("p50", self.p50), ("p90", self.p90))}


@dataclass(frozen=True)
class OperationBand:
    event_id: str
    label: str
    duration_h: Quantiles       # unfinished samples count as inf
    unfinished_share: float     # 0-1: samples still running at the horizon
    finished: int               # samples that finished

    def to_json(self) -> dict[str, Any]:
        return {"event_id": self.event_id, "label": self.label, "duration_h": self.duration_h.to_json(),
                "unfinished_share": round(self.unfinished_share, 6), "finished": self.finished}


@dataclass
class SeriesBand:
    metric: str
    entity: str
    unit: str
    t: np.ndarray    # hours: the point estimate's breakpoints (thinned beyond MAX_GRID_POINTS)
    p10: np.ndarray  # piecewise constant like the series: p10[i] holds from t[i] to t[i+1]
    p50: np.ndarray
    p90: np.ndarray

    def to_json(self) -> dict[str, Any]:
        def arr(a: np.ndarray) -> list[float | None]:
            return [None if not math.isfinite(x) else round(float(x), 6) for x in a]
        return {"metric": self.metric, "entity": self.entity, "unit": self.unit,
                "t": [round(float(x), 6) for x in self.t], "p10": arr(self.p10), "p50": arr(self.p50),
                "p90": arr(self.p90)}


@dataclass
class Bands:
    scenario: str
    samples: int
    seed: int
    parameters: list[RangedParameter]
    operations: dict[str, OperationBand] = field(default_factory=dict)
    series: dict[tuple[str, str], SeriesBand] = field(default_factory=dict)
    runs: int = 0          # engine runs made (samples; 0 when no parameter has a range)
    seconds: float = 0.0

    def operation(self, event_id: str) -> OperationBand:
        try:
            return self.operations[event_id]
        except KeyError:
            raise KeyError(f"no band for operation {event_id!r}") from None

    def series_band(self, metric: str, entity: str) -> SeriesBand | None:
        return self.series.get((metric, entity))

    def to_json(self) -> dict[str, Any]:
        return {
            "samples": self.samples, "seed": self.seed, "runs": self.runs,
            "method": "latin hypercube over the ranged rates values; P10/P50/P90 per time step",
            "parameters": [{"path": p.path, "value": p.value, "low": p.low, "high": p.high, "source": p.source}
                           for p in self.parameters],
            "operations": [b.to_json() for b in self.operations.values()],
            "series": [b.to_json() for b in self.series.values()],
        }


# ---------------------------------------------------------------- the ranged values

def _walk_ranges(node: Any, prefix: str, out: dict[str, RangedParameter]) -> None:
    if isinstance(node, dict):
        if "value" in node and ("low" in node or "high" in node):
            try:
                v, lo, hi = float(node["value"]), float(node["low"]), float(node["high"])
            except (KeyError, TypeError, ValueError):
                return  # loading refuses a malformed range (app/store/presets.py); not sampled
            out[prefix] = RangedParameter(prefix, v, lo, hi, str(node.get("range_source") or node.get("source", "")))
            return
        for k, v in node.items():
            _walk_ranges(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _walk_ranges(v, f"{prefix}[{i}]", out)


def ranged_parameters(platform: Platform) -> list[RangedParameter]:
    """The platform's rates values that carry a range (its [rates_override] wins over the rates
    file, as the engine reads them), sorted by path; the [fit] and [envelope] tables are not
    model values."""
    from app.store.presets import _deep_merge

    merged = _deep_merge(dict(platform.rates_document), platform.document.get("rates_override", {}) or {})
    out: dict[str, RangedParameter] = {}
    for key, val in merged.items():
        if key in ("fit", "envelope"):
            continue
        _walk_ranges(val, str(key), out)
    limits = valid_limits(merged)
    return [dataclasses.replace(out[k], valid_low=limits[k][0], valid_high=limits[k][1]) if k in limits else out[k]
            for k in sorted(out)]


# the bands' names for hardware numbers (rates paths have no colon): "drive:<type id>.<key>",
# "platform:<table>.<key>"
DRIVE_PREFIX, PLATFORM_PREFIX = "drive:", "platform:"


def hardware_parameters(catalog: Catalog, platform_id: str | None, drive_types: Sequence[str]) -> list[RangedParameter]:
    """The ranged numbers of these drive types and of the platform's hardware tables
    (presets/drives.toml, presets/platforms/*.toml; docs/presets.md "Ranges"), kept inside the
    field's valid range (app.domain.rate_keys.FIELDS). `platform_id` None: the drives alone."""
    from app.domain.rate_keys import field_spec
    from app.domain.value_ranges import PLATFORM_FIELDS

    def limits(table: str, key: str) -> tuple[float, float]:
        spec = field_spec(table, key)
        return (-math.inf if spec.lo is None else float(spec.lo), math.inf if spec.hi is None else float(spec.hi))

    out = []
    for tid in sorted(set(drive_types)):
        drive = catalog.drives.get(tid)
        for key, lo, hi, src in (drive.value_ranges if drive is not None else ()):
            out.append(RangedParameter(f"{DRIVE_PREFIX}{tid}.{key}", float(getattr(drive, key)), lo, hi, src,
                                       *limits("[[drive]]", key)))
    pf = catalog.platforms.get(platform_id) if platform_id is not None else None
    for path, lo, hi, src in (pf.value_ranges if pf is not None else ()):
        table, _, key = path.partition(".")
        out.append(RangedParameter(f"{PLATFORM_PREFIX}{path}", float(getattr(pf, PLATFORM_FIELDS[path])), lo, hi,
                                   src, *limits(table, key)))
    return out


def catalog_with(catalog: Catalog, platform_id: str | None, values: Mapping[str, float]) -> Catalog:
    """The catalog with sampled values in (rates paths, DRIVE_PREFIX and PLATFORM_PREFIX names):
    the platform's Params and hardware fields and the drive types replaced, nothing parsed again
    (a parse checks every table again, six times the cost of the run; the draws are inside the
    valid ranges by construction, sample_matrix)."""
    from app.domain.value_ranges import PLATFORM_FIELDS

    rates: dict[str, float] = {}
    hardware: dict[str, float] = {}
    drives: dict[str, dict[str, float]] = {}
    for path, x in values.items():
        if path.startswith(DRIVE_PREFIX):
            tid, _, key = path[len(DRIVE_PREFIX):].rpartition(".")
            drives.setdefault(tid, {})[key] = x
        elif path.startswith(PLATFORM_PREFIX):
            hardware[PLATFORM_FIELDS[path[len(PLATFORM_PREFIX):]]] = x
        else:
            rates[path] = x
    platforms = catalog.platforms
    if rates or hardware:
        pf = catalog.platform(str(platform_id))
        alt = dataclasses.replace(pf, rates=pf.rates.with_values(rates)) if rates else pf
        if hardware:
            alt = dataclasses.replace(alt, **hardware)
        platforms = {**catalog.platforms, pf.id: alt}
    new_drives = catalog.drives
    if drives:
        new_drives = {**catalog.drives, **{tid: dataclasses.replace(catalog.drives[tid], **kv)
                                           for tid, kv in drives.items()}}
    return dataclasses.replace(catalog, platforms=platforms, drives=new_drives)


def valid_limits(rates: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """path -> (low, high) a value may take: the rate key's valid range (app.domain.rate_keys),
    narrowed by the bounds of a [fit] table that fits it (a policy's shares and efficiencies are
    not registry keys: their fit bounds keep them inside 0-1)."""
    from app.domain.rate_keys import lookup
    from app.store.presets import fit_tied_keys

    out: dict[str, tuple[float, float]] = {}

    def narrow(path: str, lo: float, hi: float) -> None:
        a, b = out.get(path, (-math.inf, math.inf))
        out[path] = (max(a, lo), min(b, hi))

    stack: list[tuple[str, Any]] = [(k, v) for k, v in rates.items() if k not in ("fit", "envelope")]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict) and "value" in node:
            key = lookup(path)
            if key is not None and key.kind not in ("bool", "text", "rows"):
                narrow(path, -math.inf if key.lo is None else float(key.lo),
                       math.inf if key.hi is None else float(key.hi))
        elif isinstance(node, dict):
            stack.extend((f"{path}.{k}", v) for k, v in node.items())
    for fit in (rates.get("fit") or {}).values():
        b = fit.get("bounds") if isinstance(fit, dict) else None
        if isinstance(b, list) and len(b) == 2:
            try:
                tied = fit_tied_keys(fit)
            except ValueError:
                tied = ()  # (`validate` reports the declaration)
            for path, factor in ((fit.get("path", ""), 1.0), *tied):
                narrow(str(path), float(b[0]) * factor, float(b[1]) * factor)
    return out


def sample_matrix(parameters: Sequence[RangedParameter], samples: int, seed: int) -> np.ndarray:
    """(samples, len(parameters)) values: a seeded Latin hypercube through each parameter's
    split normal (module docstring)."""
    from scipy.stats import norm, qmc

    d = len(parameters)
    if d == 0 or samples <= 0:
        return np.zeros((max(samples, 0), d))
    u = qmc.LatinHypercube(d=d, seed=seed).random(samples)
    z = np.clip(norm.ppf(u), -CUT_SIGMAS, CUT_SIGMAS)
    value = np.array([p.value for p in parameters])
    below = np.array([max(p.value - p.low, 0.0) for p in parameters]) / Z90
    above = np.array([max(p.high - p.value, 0.0) for p in parameters]) / Z90
    x = value + np.where(z < 0, z * below, z * above)
    # inside what the model accepts; a range that stays positive stays positive (not 0: a rate
    # of 0 is refused where the valid range is open at 0)
    floor = np.array([max(p.valid_low, 0.0 if p.low >= 0 else -np.inf) for p in parameters])
    floor = np.where(floor == 0.0, np.array([min(p.low, p.value) * 1e-3 if p.low > 0 else 0.0 for p in parameters]),
                     floor)
    ceiling = np.array([p.valid_high for p in parameters])
    return np.clip(x, floor, ceiling)


# ---------------------------------------------------------------- one chunk of samples (a worker)

@dataclass
class _Chunk:
    platform_id: str
    paths: list[str]
    rows: np.ndarray                 # (k, len(paths)) sampled values
    grids: dict[str, np.ndarray]     # metric -> the point estimate's grid
    columns: dict[str, list[str]]    # metric -> entities, in the order the band arrays use


@dataclass
class _ChunkOut:
    durations: list[dict[str, float]]          # per sample: event id -> hours (inf: unfinished)
    values: dict[str, np.ndarray]              # metric -> (k, T, E) float32


def _values_on_grid(result, metric: str, grid: np.ndarray, entities: list[str]) -> np.ndarray:
    block = next((b for b in result.series.blocks if b.metric == metric), None)
    out = np.full((len(grid), len(entities)), np.nan, dtype=np.float32)
    if block is None or not len(block.t):
        return out
    idx = np.clip(np.searchsorted(block.t, grid, side="right") - 1, 0, len(block.t) - 1)
    cols = [block.column(e) for e in entities]
    have = [j for j, c in enumerate(cols) if c is not None]
    if have:
        V = block.V
        out[:, have] = V[np.ix_(idx, [cols[j] for j in have])]
    return out


def band_chunk(job: RunJob, catalog: Catalog) -> _ChunkOut:
    """Run every sample of a chunk where the job lands; only durations and grid values return."""
    from app.engine.simulate import simulate

    chunk: _Chunk = job.tag
    durations: list[dict[str, float]] = []
    values: dict[str, list[np.ndarray]] = {m: [] for m in chunk.grids}
    for row in chunk.rows:
        cat = catalog_with(catalog, chunk.platform_id, dict(zip(chunk.paths, (float(x) for x in row))))
        res = simulate(job.project, cat, job.scenario)
        durations.append({op.event_id: (math.inf if op.end_h is None else op.end_h - op.start_h)
                          for op in res.operations})
        for m, grid in chunk.grids.items():
            values[m].append(_values_on_grid(res, m, grid, chunk.columns[m]))
    return _ChunkOut(durations, {m: np.stack(v) if v else np.zeros((0, 0, 0), np.float32)
                                 for m, v in values.items()})


# ---------------------------------------------------------------- the bands

def _grid(t: np.ndarray) -> np.ndarray:
    t = np.asarray(t, dtype=float)
    if len(t) <= MAX_GRID_POINTS:
        return t
    return t[np.unique(np.linspace(0, len(t) - 1, MAX_GRID_POINTS).round().astype(int))]


def _quantiles(x: np.ndarray, axis: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P10, P50, P90 along `axis`, NaN cells (no I/O in that sample) left out."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns: NaN, which is right
        q = np.nanquantile(x, [0.1, 0.5, 0.9], axis=axis) if np.isnan(x).any() else \
            np.quantile(x, [0.1, 0.5, 0.9], axis=axis)
    return q[0], q[1], q[2]


def sample_count(point) -> int:
    """How many samples the bands take of a plan whose point estimate is `point` (a Result):
    DEFAULT_SAMPLES, or fewer, down to MIN_SAMPLES, when DEFAULT_SAMPLES runs of its engine steps
    would pass STEP_BUDGET (the rule above DEFAULT_SAMPLES). Deterministic: the same plan gets the
    same count, and with the seed the same bands, on any machine."""
    steps = max(int(getattr(point, "event_count", 0) or 0), 1)
    return int(min(DEFAULT_SAMPLES, max(MIN_SAMPLES, STEP_BUDGET // steps)))


def _stop_of(cancel: Any) -> Callable[[], bool] | None:
    if cancel is None:
        return None
    if hasattr(cancel, "is_set"):
        return cancel.is_set
    return cancel


def _summarise(point, durations: list[dict[str, float]], stacks: Mapping[str, np.ndarray]):
    """Operation bands and per-metric quantile arrays (q10, q50, q90, each (T, E)) of these samples."""
    operations: dict[str, OperationBand] = {}
    for op in point.operations:
        x = np.array([d.get(op.event_id, math.inf) for d in durations], dtype=float)
        fin = np.isfinite(x)
        p10, p50, p90 = (float(v) for v in np.quantile(np.where(fin, x, np.inf), [0.1, 0.5, 0.9],
                                                        method="inverted_cdf"))
        operations[op.event_id] = OperationBand(op.event_id, op.label, Quantiles(p10, p50, p90),
                                                float(1.0 - fin.mean()) if len(x) else 0.0, int(fin.sum()))
    return operations, {m: _quantiles(stack) for m, stack in stacks.items()}


def _relative_change(a: float, b: float) -> float:
    if a == b:  # both inf too: an unfinished P90 that stays unfinished is stable
        return 0.0
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf
    return abs(a - b) / max(abs(a), abs(b), 1e-12)


def _quantiles_moved(before, after) -> float:
    """The largest relative move of any P10/P50/P90 between two summaries (_summarise): each
    duration quantile against itself, each series quantile against its metric's largest band
    value (a utilisation near 0% moving by 0.1 point is not a 50% move)."""
    ops0, ser0 = before
    ops1, ser1 = after
    worst = 0.0
    for eid, b1 in ops1.items():
        b0 = ops0[eid].duration_h
        worst = max(worst, *(_relative_change(getattr(b0, q), getattr(b1.duration_h, q)) for q in ("p10", "p50", "p90")))
    for m, q1 in ser1.items():
        q0 = ser0[m]
        scale = max(float(np.nanmax(np.abs(q1[2]))) if np.isfinite(q1[2]).any() else 0.0, 1e-12)
        for a, b in zip(q0, q1):
            d = np.abs(np.asarray(a, float) - np.asarray(b, float))
            if np.isfinite(d).any():
                worst = max(worst, float(np.nanmax(d)) / scale)
    return worst


def compute_bands(project: Project, catalog: Catalog, scenario: str | None = None,
                  samples: int | None = DEFAULT_SAMPLES, seed: int = 0, executor: Executor | None = None,
                  progress: Callable[[int, int], None] | None = None, cancel: Any = None,
                  point=None, metrics: Sequence[str] = BAND_METRICS, chunk: int | None = None,
                  adaptive: bool = False) -> Bands | None:
    """The bands of one scenario (module docstring); None if `cancel` was set before the end.
    `adaptive`: stop before `samples` once the quantiles are stable (ADAPTIVE_TOLERANCE, after at
    least ADAPTIVE_MIN samples); `Bands.samples` then says how many were used."""
    from app.engine.simulate import simulate

    t0 = time.perf_counter()
    scenario = scenario or project.current_scenario
    pf = catalog.platform(project.platform_id)
    params = ranged_parameters(pf) + hardware_parameters(catalog, pf.id, [d.type_id for d in project.drives.values()])
    if point is None:
        point = simulate(project, catalog, scenario)
    if samples is None:
        samples = sample_count(point)
    grids: dict[str, np.ndarray] = {}
    columns: dict[str, list[str]] = {}
    units: dict[str, str] = {}
    for block in point.series.blocks:
        if block.metric in metrics and block.entities and not block.linear:
            grids[block.metric] = _grid(block.t)
            columns[block.metric] = list(block.entities)
            units[block.metric] = block.unit
    if not params or samples <= 0:
        # nothing has a range: the band is the point estimate itself (zero width)
        rows = np.zeros((1, 0))
    else:
        rows = sample_matrix(params, samples, seed)
    paths = [p.path for p in params]
    workers = os.cpu_count() or 1
    total = len(rows)
    # the rounds: all rows at once, or (adaptive) ADAPTIVE_MIN first, then ADAPTIVE_STEP more
    # until the quantiles stop moving
    if adaptive and params and total > ADAPTIVE_MIN:
        cuts = [ADAPTIVE_MIN, *range(ADAPTIVE_MIN + ADAPTIVE_STEP, total, ADAPTIVE_STEP), total]
    else:
        cuts = [total]
    stop = _stop_of(cancel)
    # each job carries the catalog: only the platform the runs use (and the drives) travels
    travelling = dataclasses.replace(catalog, platforms={pf.id: pf})
    outs: list[_ChunkOut] = []
    summary = None
    done = 0
    for cut in cuts:
        part = rows[done:cut]
        size = chunk or max(1, math.ceil(len(part) / (workers * 4)))
        jobs = [RunJob(project, scenario, _Chunk(pf.id, paths, part[i:i + size], grids, columns))
                for i in range(0, len(part), size)]

        def chunk_progress(done_jobs: int, _total_jobs: int, base: int = done, n: int = len(part),
                           size: int = size) -> None:
            if progress is not None:
                progress(base + min(done_jobs * size, n), total)

        got = run_jobs(jobs, travelling, executor, work=band_chunk, progress=chunk_progress, should_stop=stop,
                       max_in_flight=2 * workers)
        if got is None or (stop is not None and stop()):
            return None
        outs.extend(got)
        done = cut
        durations = [d for o in outs for d in o.durations]
        stacks = {m: np.concatenate([o.values[m] for o in outs], axis=0) for m in grids}  # (samples, T, E)
        previous, summary = summary, _summarise(point, durations, stacks)
        if previous is not None and _quantiles_moved(previous, summary) <= ADAPTIVE_TOLERANCE:
            break
    assert summary is not None
    if progress is not None and done < total:
        progress(total, total)  # stopped early: the work is complete
    bands = Bands(scenario, done if params else samples, seed, params)
    bands.runs = done if params else 0
    bands.operations, quantiles = summary
    for m, grid in grids.items():
        q10, q50, q90 = quantiles[m]
        for j, ent in enumerate(columns[m]):
            bands.series[(m, ent)] = SeriesBand(m, ent, units[m], grid, q10[:, j].astype(float),
                                                q50[:, j].astype(float), q90[:, j].astype(float))
    bands.seconds = time.perf_counter() - t0
    return bands


def with_ranges(catalog: Catalog, platform_id: str, ranges: Mapping[str, tuple[float, float]],
                source: str = "what-if range", keep_others: bool = True) -> Catalog:
    """The catalog with ranges put on some rates values of one platform (in memory: a what-if,
    a test): `{path: (low, high)}`, each value kept as it is; `keep_others=False` drops the
    ranges the rates, the drives and the platform's hardware already carry, so that only these vary."""
    import copy

    from app.domain.value_ranges import RANGE_KEYS, ranged_nodes
    from app.store.presets import parse_platform

    pf = catalog.platform(platform_id)
    rates = copy.deepcopy(dict(pf.rates_document))
    if not keep_others:
        for _, node in list(ranged_nodes({k: v for k, v in rates.items() if k not in ("fit", "envelope")})):
            for k in RANGE_KEYS:
                node.pop(k, None)  # type: ignore[attr-defined]
    for path, (low, high) in ranges.items():
        node: Any = rates
        parts = path.split(".")
        for part in parts[:-1]:
            node = node[part]
        leaf = node[parts[-1]]
        base = dict(leaf) if isinstance(leaf, dict) else {"value": leaf, "source": source}
        node[parts[-1]] = base | {"low": float(low), "high": float(high), "range_source": source}
    alt = parse_platform(pf.document, {pf.document["rates"]: rates}, f"{pf.id} (ranges)", pf.builtin,
                         drives=catalog.drives)
    if keep_others:
        return dataclasses.replace(catalog, platforms={**catalog.platforms, pf.id: alt})
    # nor do the drive and platform numbers (hardware_parameters)
    return dataclasses.replace(catalog, platforms={**catalog.platforms, pf.id: dataclasses.replace(alt, value_ranges=())},
                               drives={k: dataclasses.replace(d, value_ranges=()) for k, d in catalog.drives.items()})
