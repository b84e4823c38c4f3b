"""Many engine runs at once, through a concurrent.futures Executor: sweeps and goal seeking.

    results = run_jobs(jobs, catalog, executor=None, work=sweep_step)

executor None: one local process pool for the whole process (spawn, as the engine worker: the
GUI has threads), created on first use with a worker per core and reused by later calls, so a
sweep repeated in the GUI pays the process start-up once. Any other concurrent.futures Executor
works the same: `InProcessExecutor()` (tests, tiny jobs) or a dask.distributed client's
`get_executor()` (`--dask ADDRESS`: `dask_executor`). Results come back in the jobs' order;
`should_stop` cancels the jobs not yet started; `progress(done, total)` is called as they end;
`max_in_flight` keeps the queue short (the uncertainty bands: app/service/uncertainty.py).

Each job names a top-level function (`work`) so that it pickles: it runs the engine where the
job lands and returns something small (a sweep step, not a Result with its series).
"""
from __future__ import annotations

import atexit
import hashlib
import multiprocessing
import os
import pickle
import threading
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from app.domain.project import Project


@dataclass
class RunJob:
    project: Project
    scenario: str
    tag: Any = None  # the caller's key for the answer (e.g. (curve, factor))


class InProcessExecutor(Executor):
    """Runs each call at submit time in this process: no start-up cost, one core."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through the future
            fut.set_exception(exc)
        return fut


_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


# The pool's workers run at a lower scheduling priority: they fill every core with background
# work (a sweep, the uncertainty bands after each edit), and at the same priority they took the
# CPU from the GUI thread and the live engine's worker (the window's 5 ms heartbeat: gaps of
# 12 ms median, 100 ms at worst, while the bands sampled; benchmarks/gui_bands.py).
WORKER_NICE = 10


def _lower_priority() -> None:
    try:
        os.nice(WORKER_NICE)
    except (AttributeError, OSError):  # no nice (Windows), or not allowed: run as is
        pass


def local_pool() -> ProcessPoolExecutor:
    """The process's shared pool: a worker per core (os.cpu_count()), at a lower priority."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=os.cpu_count() or 1, initializer=_lower_priority,
                                        mp_context=multiprocessing.get_context("spawn"))
            atexit.register(shutdown_local_pool)
        return _pool


def shutdown_local_pool() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None


def dask_executor(address: str) -> Executor:
    """A dask.distributed client's executor ("tcp://host:8786", or a LocalCluster's address).
    dask is an optional extra: a clear message when it is not installed."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise RuntimeError("--dask needs dask.distributed: install the 'dask' extra "
                           "(pip install 'arrayplanner[dask]')") from None
    return Client(address).get_executor()


def simulate_job(job: RunJob, catalog) -> Any:
    """The default work: the engine's Result for the job."""
    from app.engine.simulate import simulate

    return simulate(job.project, catalog, job.scenario)


class SharedCatalog:
    """The catalog pickled once for a batch of jobs, opened once per worker process.

    Passed to the executor as is, the catalog (every preset: ~210 KB pickled) was pickled for
    each job and unpickled in the worker for each one: ~40 ms a job, so a 47-run sweep on the
    pool took 0.7 s where the engine needed 0.2 s, and the pickling held the GIL the GUI thread
    wants. The worker also keeps one catalog object for the batch, so the engine's caches keyed
    on it are reused from job to job."""

    __slots__ = ("key", "data")

    def __init__(self, catalog: Any):
        self.data = pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL)
        self.key = hashlib.blake2b(self.data, digest_size=16).digest()


_opened: dict[bytes, Any] = {}  # in a worker: the catalogs its batches sent, by content
_OPENED_MAX = 4  # a worker serves one GUI: a handful of catalogs at most (user presets edited)


def _open_catalog(shared: SharedCatalog) -> Any:
    cat = _opened.get(shared.key)
    if cat is None:
        if len(_opened) >= _OPENED_MAX:
            _opened.pop(next(iter(_opened)))
        cat = _opened[shared.key] = pickle.loads(shared.data)
    return cat


def _with_shared_catalog(work: Callable[[RunJob, Any], Any], job: RunJob, shared: SharedCatalog) -> Any:
    """Where the job lands: `work` with the batch's catalog, unpickled once per worker."""
    return work(job, _open_catalog(shared))


def run_jobs(jobs: Sequence[RunJob], catalog, executor: Executor | None = None,
             work: Callable[[RunJob, Any], Any] = simulate_job,
             progress: Callable[[int, int], None] | None = None,
             should_stop: Callable[[], bool] | None = None,
             max_in_flight: int | None = None) -> list[Any] | None:
    """work(job, catalog) for every job, in the jobs' order; None if cancelled.

    `max_in_flight`: submit at most this many jobs ahead of the ones finished (None: all at
    once), so a cancel also stops an executor that runs a job when it is submitted
    (InProcessExecutor) and a long queue is not all pickled up front."""
    ex = executor if executor is not None else local_pool()
    limit = len(jobs) if max_in_flight is None else max(1, max_in_flight)
    if not isinstance(ex, InProcessExecutor) and jobs:  # another process: the catalog pickled once
        shared = SharedCatalog(catalog)

        def submit(job: RunJob) -> Future:
            return ex.submit(_with_shared_catalog, work, job, shared)
    else:
        def submit(job: RunJob) -> Future:
            return ex.submit(work, job, catalog)
    futures: list[Future] = []
    pending: set[Future] = set()
    done_count = 0
    while len(futures) < len(jobs) or pending:
        if should_stop is not None and should_stop():
            for f in pending:
                f.cancel()
            return None
        while len(futures) < len(jobs) and len(pending) < limit:
            f = submit(jobs[len(futures)])
            futures.append(f)
            pending.add(f)
            if should_stop is not None and f.done() and should_stop():
                break  # an executor that runs at submit time: look at the cancel between jobs
        finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
        done_count += len(finished)
        if finished and progress is not None:
            progress(done_count, len(jobs))
    return [f.result() for f in futures]
