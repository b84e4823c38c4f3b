"""Plans of very many operations (issue 21 item 9): the per-operation progress is stored sparsely
(only the rows an operation ran in) and reads back as the dense matrix did; a plan over the
engine's limit (app.domain.limits) is refused up front, in one line, by every entry point."""
from __future__ import annotations

import json

import numpy as np
import pytest

from app.cli import main
from app.domain.limits import MAX_EVENTS
from app.engine import native


def _dense_progress_cells(sim):
    """The dense form progress_cells computed before the sparse one (a steps x ops matrix of the
    latest log entry per cell): flat row-major cells, moved MB and rate there."""
    ops = sim.ops
    n_rows, n_ops = sim.rec_n, len(ops)
    log = np.fromiter(sim.rec_progress, float, len(sim.rec_progress)).reshape(-1, 4)
    k, j, moved, rate = log[:, 0].astype(int), log[:, 1].astype(int), log[:, 2], log[:, 3]
    latest = np.full((n_rows, n_ops), -1, np.int32)
    latest[k, j] = np.arange(len(k))
    np.maximum.accumulate(latest, axis=0, out=latest)
    first = np.array([op.rec_first for op in ops], np.int32)
    end = np.array([min(op.rec_end, n_rows) for op in ops], np.int32)
    row = np.arange(n_rows, dtype=np.int32)[:, None]
    cells = np.flatnonzero((row >= first) & (row < end))
    src = latest.ravel().take(cells)
    return cells, np.append(moved, 0.0).take(src), np.append(rate, 0.0).take(src)


@pytest.mark.skipif(native.ENGINE_BUILD == "mypyc", reason="hooks a Python function of the engine")
@pytest.mark.parametrize("example", ["emc-cx4-960-oltp", "emc-cx4-960-worked-examples"])
def test_sparse_progress_reads_back_as_the_dense_matrix(monkeypatch, load_example, example):
    import importlib

    simulate_mod = importlib.import_module("app.engine.simulate")  # (app.engine.simulate: the function)
    from app.engine.recorded import Cells, Progress
    from app.store.presets import default_catalog

    project = load_example(example)
    seen = {}
    real = simulate_mod.progress_cells

    def both(sim):
        seen["dense"] = _dense_progress_cells(sim) if sim.ops else None
        real(sim)

    monkeypatch.setattr(simulate_mod, "progress_cells", both)
    checked = 0
    for scenario in project.scenarios:
        res = simulate_mod.simulate(project, default_catalog(), scenario.name)
        blocks = {b.metric: b for b in res.series.blocks}
        if "progress_pct" not in blocks:
            continue
        prog, rate = blocks["progress_pct"], blocks["rate_mb_s"]
        assert isinstance(prog.compute, Progress) and isinstance(rate.compute, Cells)
        cells, moved, rates = seen["dense"]
        # the dense matrices as finish() built them before (Progress.__call__ of row-major cells)
        n, T = len(prog.entities), len(prog.t)
        p = prog.compute
        P = (p.t[:, None] >= p.ends - 1e-12) * (100.0 if p.final is None else p.final)
        tot = p.totals[cells % n]
        ok = tot > 0
        P.ravel()[cells] = np.where(ok, np.minimum(moved / np.where(ok, tot, 1.0) * 100.0, 100.0), 0.0)
        R = np.zeros((T, n))
        R.ravel()[cells] = rates
        np.testing.assert_array_equal(prog.V, P)
        np.testing.assert_array_equal(rate.V, R)
        for j in range(n):  # what the charts and the report read: a column, a row, the peaks
            np.testing.assert_array_equal(p.column(j), P[:, j])
            np.testing.assert_array_equal(rate.compute.column(j), R[:, j])
        for i in range(0, T, max(T // 20, 1)):
            np.testing.assert_array_equal(p.row(i), P[i])
        np.testing.assert_array_equal(p.peaks(), np.fmax.reduce(P, axis=0))
        np.testing.assert_array_equal(rate.compute.peaks(), R.max(axis=0))
        checked += 1
    assert checked


@pytest.mark.skipif(native.ENGINE_BUILD == "mypyc", reason="passes a stand-in for the compiled SimState")
def test_operations_with_rows_and_no_log_entry_are_at_zero():
    """Rows recorded for an operation before its first log entry (or with none at all) read 0 MB
    at 0 MB/s, as the dense form's -1 entries did (an empty log once raised IndexError)."""
    from types import SimpleNamespace

    from app.engine.results import progress_cells

    ops = [SimpleNamespace(rec_first=1, rec_end=4), SimpleNamespace(rec_first=0, rec_end=10**9)]
    for log in ([], [2, 0, 5.0, 1.0, 3, 1, 7.0, 2.0]):
        sim = SimpleNamespace(ops=ops, rec_n=5, rec_progress=list(map(float, log)))
        progress_cells(sim)
        dense = _dense_progress_cells(sim)
        n = len(ops)
        assert sim.rec_rows.tolist() == [1, 2, 3, 0, 1, 2, 3, 4]
        flat = np.repeat(np.arange(n), np.diff(sim.rec_offsets)) + sim.rec_rows * n
        order = np.argsort(flat)
        np.testing.assert_array_equal(flat[order], dense[0])
        np.testing.assert_array_equal(sim.rec_moved[order], dense[1])
        np.testing.assert_array_equal(sim.rec_rate[order], dense[2])


def test_peaks_of_a_column_stored_in_full():
    """A column whose every row is stored has no background value in its peak."""
    from app.engine.recorded import Cells, Progress

    t = np.linspace(0, 4, 5)
    cells = np.array([0, 2, 4, 6, 8])  # column 0 in every row of a 5 x 2 matrix
    c = Cells((5, 2), cells, np.array([-3.0, -1, -2, -5, -4]))
    np.testing.assert_array_equal(c.peaks(), [-1.0, 0.0])
    p = Progress(t, np.array([np.inf, 2.0]), cells, np.array([1.0, 2, 3, 4, 5]), np.array([10.0, 10.0]))
    np.testing.assert_array_equal(p.peaks(), np.fmax.reduce(p(), axis=0))
    np.testing.assert_array_equal(p.peaks(), [50.0, 100.0])


@pytest.fixture(scope="module")
def too_large(tmp_path_factory):
    """The OLTP example with a scenario of MAX_EVENTS + 1 migrations (never simulated)."""
    from app.store.examples import example_path
    from app.store.project_file import load_project
    from app.store.project_json import project_to_dict

    d = project_to_dict(load_project(example_path("emc-cx4-960-oltp")))
    event = next(e for s in d["scenarios"] for e in s["events"])
    d["scenarios"].append({**next(iter(d["scenarios"])), "name": "Huge",
                           "events": [{**event, "id": f"b{k}", "start_h": k * 1e-3} for k in range(MAX_EVENTS + 1)]})
    d["current_scenario"] = "Huge"
    path = tmp_path_factory.mktemp("huge") / "huge.json"
    path.write_text(json.dumps(d))
    return path


def test_a_plan_over_the_limit_is_refused_by_every_command(too_large, capsys):
    for command in ("check", "simulate", "report"):
        assert main([command, str(too_large)]) == 2, command
        out, err = capsys.readouterr()
        lines = err.strip().splitlines()
        assert len(lines) == 1, (command, err)
        assert f"{MAX_EVENTS + 1:,} events" in lines[0] and f"{MAX_EVENTS:,}" in lines[0], lines[0]
        assert "'Huge'" in lines[0] and str(too_large) in lines[0]
    assert not too_large.with_suffix(".pdf").exists()


def test_a_plan_over_the_limit_is_refused_by_the_engine_and_the_gui_checks(too_large):
    from app.domain.validation import validate
    from app.engine import simulate
    from app.engine.errors import PlanTooLarge
    from app.service.predict import ProjectInvalid, default_simulate
    from app.store.project_file import catalog_for, load_project
    from app.store.presets import default_catalog

    project = load_project(too_large)
    catalog = catalog_for(project, default_catalog())
    with pytest.raises(PlanTooLarge, match=f"{MAX_EVENTS + 1:,} events"):
        simulate(project, catalog)
    errors = [i for i in validate(project, catalog, "Huge") if i.severity == "error"]
    assert len(errors) == 1 and errors[0].scenario == "Huge" and f"{MAX_EVENTS:,}" in errors[0].text
    with pytest.raises(ProjectInvalid, match="more than the"):  # the GUI's prediction path
        default_simulate(project, catalog)
    # one event fewer: within the limit (validated as usual, not refused)
    project.scenario("Huge").events.pop()
    assert not any(f"more than the {MAX_EVENTS:,}" in i.text for i in validate(project, catalog, "Huge"))
