"""Engine fingerprint: save every prediction of a set of plans, or compare against a saved one.

    python benchmarks/engine_fingerprint.py --save /tmp/engine-before.pkl
    python benchmarks/engine_fingerprint.py --compare /tmp/engine-before.pkl [--rtol 1e-9] [--nan-as-zero]

An optimisation of the engine must not change what it predicts. The plans: every scenario of
every example project (presets/examples/*.json) and the generated large plans of
benchmarks/engine.py (30 and 300 days). For each: every series block (times and values),
every operation (start, end, phases with data and average rate), the advisories, MTTDL, the
assumptions used and the per-group reliability estimate. The comparison prints the first
differences and exits 1 if there are any.

--nan-as-zero compares against a fingerprint saved before response times became undefined where
nothing completed I/O (response_ms, response_max_ms, lun_response_ms were 0 there, now NaN): it
reads the new run's NaN cells as 0, fails if a NaN is in any other metric or (response_ms,
response_max_ms) where the workload's IOPS are not 0, and lists per plan and series how many
cells are NaN.
"""
from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from app.engine import native, simulate  # noqa: E402
from app.store.examples import example_paths  # noqa: E402
from app.store.presets import load_catalog  # noqa: E402
from app.store.project_file import load_project  # noqa: E402
from engine import large_project  # noqa: E402


def plans():
    for path in example_paths():
        project = load_project(path)
        for sc in project.scenarios:
            yield f"{path.stem} / {sc.name}", project, sc.name
    yield "large 30 days", large_project(30.0), None
    yield "large 300 days", large_project(300.0), None


def fingerprint(result) -> dict:
    blocks = {}
    for b in result.series.blocks:
        blocks[b.metric] = (list(b.entities), np.asarray(b.t, float).copy(), np.asarray(b.V, float).copy())
    ops = [(o.event_id, o.start_h, o.end_h, [(p.name, p.start_h, p.end_h, p.mb, p.avg_mb_s) for p in o.phases],
            list(o.touches_workloads)) for o in result.operations]
    return {
        "blocks": blocks,
        "ops": ops,
        "advisories": sorted((a.severity, a.code, a.where, a.text) for a in result.advisories),
        "mttdl": dict(result.mttdl_h),
        "assumptions": sorted((a.path, a.value) for a in result.assumptions),
        "horizon": result.horizon_h,
        # the end-of-run reliability estimate (issue 24): no series holds it
        "reliability": {g: r.to_json() for g, r in (getattr(result, "reliability", None) or {}).items()},
    }


def close(a, b, rtol: float) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= rtol * max(abs(a), abs(b), 1.0)


NAN_METRICS = ("response_ms", "response_max_ms", "lun_response_ms")  # undefined without I/O


def nan_cells(new: dict) -> tuple[dict[str, int], list[str]]:
    """NaN cells per 'metric entity' of a fingerprint, and what is wrong about where they are."""
    counts, bad = {}, []
    for metric, (ents, _t, V) in new["blocks"].items():
        nan = np.isnan(V)
        if not nan.any():
            continue
        if metric not in NAN_METRICS:
            bad.append(f"{metric}: {int(nan.sum())} NaN cells (only response times may be undefined)")
            continue
        for j in np.nonzero(nan.any(axis=0))[0]:
            counts[f"{metric} {ents[j]}"] = int(nan[:, j].sum())
        if metric in ("response_ms", "response_max_ms") and "iops" in new["blocks"]:
            iops_ents, _, I = new["blocks"]["iops"]
            I = I[:, [iops_ents.index(e) for e in ents]]
            if not np.array_equal(nan, I <= 0):
                bad.append(f"{metric}: NaN cells are not exactly the cells where the workload's IOPS are 0")
    return counts, bad


def summarize(counts: dict[str, int]) -> str:
    """'response_ms 2 cells (oltp 1, seq 1); lun_response_ms 40 cells in 20 series'."""
    parts = []
    for metric in NAN_METRICS:
        mine = {k.split(" ", 1)[1]: n for k, n in counts.items() if k.split(" ", 1)[0] == metric}
        if not mine:
            continue
        detail = (", ".join(f"{e} {n}" for e, n in mine.items()) if len(mine) <= 4
                  else f"in {len(mine)} series")
        parts.append(f"{metric} {sum(mine.values())} cells ({detail})")
    return "; ".join(parts)


def nan_as_zero(new: dict) -> dict:
    """new with NaN cells read as 0 (what the engine wrote before they were undefined)."""
    blocks = {m: (e, t, np.nan_to_num(V, nan=0.0)) for m, (e, t, V) in new["blocks"].items()}
    return {**new, "blocks": blocks}


def compare(old: dict, new: dict, rtol: float) -> list[str]:
    out = []
    if abs(old["horizon"] - new["horizon"]) > rtol * max(1.0, old["horizon"]):
        out.append(f"horizon {old['horizon']} -> {new['horizon']}")
    for metric, (ents, t, V) in old["blocks"].items():
        if metric not in new["blocks"]:
            out.append(f"{metric}: missing")
            continue
        ents2, t2, V2 = new["blocks"][metric]
        if ents != ents2:
            out.append(f"{metric}: entities differ")
        elif t.shape != t2.shape or not np.allclose(t, t2, rtol=rtol, atol=rtol):
            out.append(f"{metric}: times differ ({len(t)} vs {len(t2)} rows)")
        # an undefined response time (NaN: no I/O) must stay undefined, and only there
        elif not np.allclose(V, V2, rtol=rtol, atol=rtol * max(1.0, float(np.nanmax(np.abs(V), initial=0.0))),
                             equal_nan=True):
            diff = np.abs(V - V2)
            diff[np.isnan(V) != np.isnan(V2)] = np.inf
            i, j = np.unravel_index(np.nanargmax(np.where(np.isnan(V) & np.isnan(V2), -1.0, diff)), V.shape)
            out.append(f"{metric}: values differ, e.g. {ents[j]} at t={t[i]:.4f} h: {V[i, j]!r} -> {V2[i, j]!r}")
    for metric in new["blocks"]:
        if metric not in old["blocks"]:
            out.append(f"{metric}: new block")
    if len(old["ops"]) != len(new["ops"]):
        out.append(f"operations: {len(old['ops'])} -> {len(new['ops'])}")
    for o, n in zip(old["ops"], new["ops"]):
        if o[0] != n[0] or not close(o[1], n[1], rtol) or not close(o[2], n[2], rtol) or o[4] != n[4]:
            out.append(f"operation {o[0]}: {o[:3]} -> {n[:3]}")
        elif len(o[3]) != len(n[3]) or any(
                p[0] != q[0] or not all(close(x, y, rtol) for x, y in zip(p[1:], q[1:])) for p, q in zip(o[3], n[3])):
            out.append(f"operation {o[0]}: phases differ: {o[3]} -> {n[3]}")
    if old["advisories"] != new["advisories"]:
        out.append(f"advisories differ: {set(old['advisories']) ^ set(new['advisories'])}")
    if old["mttdl"].keys() != new["mttdl"].keys() or any(
            not close(old["mttdl"][k], new["mttdl"][k], rtol) for k in old["mttdl"]):
        out.append("MTTDL differs")
    if old["assumptions"] != new["assumptions"]:
        out.append("assumptions differ")
    if "reliability" in old:  # (a fingerprint saved before it was recorded has none)
        rel_old, rel_new = old["reliability"], new.get("reliability", {})
        if rel_old.keys() != rel_new.keys():
            out.append(f"reliability: groups differ ({len(rel_old)} -> {len(rel_new)})")
        for g in sorted(rel_old.keys() & rel_new.keys()):
            a, b = rel_old[g], rel_new[g]
            bad = [k for k in a if not (a[k] == b.get(k) or (isinstance(a[k], float) and isinstance(b.get(k), float)
                                                          and close(a[k], b[k], rtol)))]
            if bad:
                out.append(f"reliability of group {g}: {', '.join(f'{k} {a[k]!r} -> {b.get(k)!r}' for k in bad)}")
                break
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", type=Path)
    g.add_argument("--compare", type=Path)
    ap.add_argument("--rtol", type=float, default=1e-9)
    ap.add_argument("--nan-as-zero", action="store_true",
                    help="read NaN response times (no I/O) as 0 and count them (see the module docstring)")
    args = ap.parse_args()
    print(native.describe())
    cat = load_catalog()
    prints = {name: fingerprint(simulate(p, cat, sc)) for name, p, sc in plans()}
    if args.save:
        args.save.write_bytes(pickle.dumps(prints, protocol=5))
        print(f"saved {len(prints)} plans to {args.save}")
        return 0
    old = pickle.loads(args.compare.read_bytes())
    bad = 0
    for name, fp in prints.items():
        if name not in old:
            print(f"{name}: not in the saved fingerprint")
            bad += 1
            continue
        misplaced = []
        if args.nan_as_zero:
            counts, misplaced = nan_cells(fp)
            if counts:
                print(f"{name}: NaN (no I/O) cells: {summarize(counts)}")
            fp = nan_as_zero(fp)
        diffs = misplaced + compare(old[name], fp, args.rtol)
        if diffs:
            bad += 1
            print(f"{name}:")
            for d in diffs[:6]:
                print(f"    {d}")
    nan = ", NaN read as 0" if args.nan_as_zero else ""
    print(f"{len(prints) - bad} of {len(prints)} plans identical (rtol {args.rtol:g}{nan})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
