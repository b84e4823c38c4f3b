"""run_jobs sends the catalog to another process pickled once per batch, and a worker opens it
once (app/service/runner.py SharedCatalog): pickled with every job it cost ~40 ms a job."""
from __future__ import annotations

import pickle
from concurrent.futures import Executor, Future
from pathlib import Path

from app.service import runner
from app.service.runner import RunJob, run_jobs
from app.store.presets import load_catalog
from app.store.project_file import load_project

ROOT = Path(__file__).resolve().parents[1]


def _scenario_of(job: RunJob, catalog) -> tuple[str, int]:
    return job.scenario, id(catalog)


class PicklingExecutor(Executor):
    """Runs each call as another process would receive it: its arguments pickled and loaded."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        data = pickle.dumps((fn, args, kwargs))
        fn, args, kwargs = pickle.loads(data)
        fut: Future = Future()
        fut.set_result(fn(*args, **kwargs))
        return fut


def test_the_catalog_is_pickled_once_per_batch_and_opened_once_per_worker():
    catalog = load_catalog()
    project = load_project(ROOT / "presets/examples/dell-md3200-hpt.json")
    jobs = [RunJob(project, s.name) for s in project.scenarios] * 5
    ex = PicklingExecutor()
    runner._opened.clear()
    out = run_jobs(jobs, catalog, ex, work=_scenario_of)
    assert [name for name, _ in out] == [j.scenario for j in jobs]
    assert len({cat for _, cat in out}) == 1  # one catalog object for the batch in the "worker"
    assert len(runner._opened) == 1
    opened = next(iter(runner._opened.values()))
    assert pickle.dumps(opened) == pickle.dumps(catalog)  # the same presets


def test_in_process_runs_take_the_catalog_as_is():
    catalog = load_catalog()
    project = load_project(ROOT / "presets/examples/dell-md3200-hpt.json")
    out = run_jobs([RunJob(project, project.current_scenario)], catalog, runner.InProcessExecutor(),
                   work=_scenario_of)
    assert out[0][1] == id(catalog)
