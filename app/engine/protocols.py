"""What the operations (app/engine/op_*.py, ops.py) use of the simulation and of its placement,
as Protocols: the operation modules type their arguments with these instead of importing
simulate.py, which imports them (the import circle the type hints alone made). Sim
(simulate.py) and Ctx (placement_ctx.py) satisfy them structurally; the attributes are Any because the operations only pass them through or index them.
"""
from __future__ import annotations

from typing import Any, Protocol


class CtxView(Protocol):
    """Ctx as an operation's demand() sees it: free time on drives, cores and buses, ASAP counts,
    the host load it is placed on, and the additions it makes."""

    max_util: Any
    U_host_g: Any
    host_random_g: Any
    occ_g: Any
    core_host: Any
    asap_g: Any
    asap_c: Any
    d_group: Any
    failed: Any

    def used_g(self, g: int) -> float: ...

    def used_d(self, d: int) -> float: ...

    def free_g(self, g: int) -> float: ...

    def free_d(self, d: int) -> float: ...

    def free_core(self, c: int) -> float: ...

    def free_bus(self, b: int) -> float: ...

    def asap_of_d(self, d: int) -> Any: ...

    def read_count(self, c: int) -> Any: ...

    def allow(self, need: float, same_host: bool) -> None: ...

    def add(self, kind: str, i: int, value: float) -> None: ...

    def count(self, kind: str, i: int) -> None: ...


class SimView(Protocol):
    """Sim as an operation sees it: the run's layout, rates and platform, the drive and cache
    state it changes, the bookkeeping of running operations, and advisories."""

    R: Any
    policies: Any
    lay: Any
    platform: Any
    project: Any
    max_util: Any
    failed: Any
    spare_busy: Any
    writing: Any
    forced: Any
    cache_fill: Any
    host_dirty: Any
    host_forced: Any
    write_cache_mb: Any
    ff_ms: Any
    wp_pct: Any
    offline: Any
    topo: Any
    features: Any
    lun_ops: Any
    dirty_ops: Any
    active: Any
    rebuild_of: Any
    rebuild_hours: Any
    rec_n: Any
    workloads: Any
    w_running: Any
    w_kb: Any
    p_w: Any
    p_l: Any
    P: Any
    X: Any
    _pairs_of_l: Any
    _run_index: Any
    any_queue: Any

    def advise(self, severity: str, code: str, text: str, where: str = "", source: str = "") -> None: ...

    def invalidate(self, topology: bool = False, groups: Any = None, luns: Any = None) -> None: ...

    def ctrl_caps(self) -> Any: ...

    def add_timer(self, when: float, cb: Any) -> None: ...
