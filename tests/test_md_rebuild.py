"""Linux md's recovery (issue 24, the md family's two engine gaps): an idle md array streams its
members up to speed_limit_max (rebuild.io.idle_streaming), other I/O throttles it towards
speed_limit_min, and md rebuilds the whole member device (rebuild.scope = "whole_drive")."""
from __future__ import annotations

import dataclasses
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from app.engine import simulate
from app.engine.cases import build_project
from app.store import presets

SPEED_LIMIT_MAX = 200000 / 1024  # MB/s (md.c sysctl_speed_limit_max, KiB/s)
RAISED_MIN = 50000 / 1024
DEFAULT_MIN = 1000 / 1024
PRESETS = Path(__file__).resolve().parent.parent / "presets"


def _rebuild(catalog, platform="linux-md", raid="R6", drives=12, drive_type="nlsata-7k2-24000", lun_gb=20000.0,
             iops=0.0, priority="Default"):
    """The f0 rebuild phase (avg MB/s, hours, MB) of a group with a hot spare under `iops`."""
    spec = {"platform": platform,
            "groups": [{"id": 0, "raid": raid, "drives": drives, "drive_type": drive_type, "buses": [0]}],
            "spares": [{"drive_type": drive_type, "bus": 0, "count": 1}],
            "luns": [{"id": 0, "group": 0, "gb": lun_gb}],
            "workloads": [{"id": "w", "name": "w", "luns": [0], "mode": "open", "iops": iops, "read_pct": 70,
                           "io_kb": 8, "random_pct": 100}],
            "scenarios": [{"name": "f", "events": [{"kind": "drive_failure", "id": "f0", "start_h": 0.0,
                                                    "drive": "0_0_0", "priority": priority}]}],
            "horizon_h": 20000}
    res = simulate(build_project(spec, catalog), catalog, "f")
    ph = next(p for p in res.operation("f0").phases if p.name == "rebuild")
    assert ph.duration_h is not None
    return ph.avg_mb_s, ph.duration_h, ph.avg_mb_s * ph.duration_h * 3600.0


def test_an_idle_md_rebuild_runs_at_speed_limit_max_when_the_drives_stream_faster(catalog):
    seq = catalog.drives["nlsata-7k2-24000"].seq_mb_s
    mu = float(catalog.platform("linux-md").rates["host"]["max_util"].value)
    assert mu * seq > SPEED_LIMIT_MAX  # (the 24 TB drive streams ~210 MB/s on average)
    for priority in ("Default", "Raised minimum"):
        rate, _, _ = _rebuild(catalog, priority=priority)
        assert rate == pytest.approx(SPEED_LIMIT_MAX, rel=0.01), priority


def test_an_idle_md_rebuild_is_bounded_by_the_slowest_member_streaming(catalog):
    """Drives slower than speed_limit_max: the drives' streaming rate (not their rotations) sets it."""
    slow = dataclasses.replace(catalog.drives["nlsata-7k2-24000"], seq_mb_s=120.0)
    cat = dataclasses.replace(catalog, drives={**catalog.drives, "nlsata-7k2-24000": slow})
    mu = float(cat.platform("linux-md").rates["host"]["max_util"].value)
    rate, _, _ = _rebuild(cat)
    assert rate == pytest.approx(mu * 120.0, rel=0.02)


@pytest.mark.parametrize("priority,floor", [("Default", DEFAULT_MIN), ("Raised minimum", RAISED_MIN)])
def test_host_io_throttles_the_md_rebuild_but_never_below_its_minimum(catalog, priority, floor):
    idle, _, _ = _rebuild(catalog, priority=priority)
    busy, _, _ = _rebuild(catalog, iops=150, priority=priority)
    heavy, _, _ = _rebuild(catalog, iops=400, priority=priority)
    assert heavy <= busy < 0.8 * idle  # more load never speeds it up; any other I/O throttles md
    assert heavy >= floor * 0.999 and busy >= floor * 0.999


def test_md_rebuilds_the_whole_member_whatever_the_luns_hold(catalog):
    member_mb = catalog.drives["nlsata-7k2-24000"].capacity_gb * 1024.0
    _, h_small, mb_small = _rebuild(catalog, lun_gb=2000)
    _, h_big, mb_big = _rebuild(catalog, lun_gb=200000)
    assert h_small == pytest.approx(h_big, rel=1e-6)
    _, h_half, mb_half = _rebuild(catalog, drive_type="nlsas-7k2-12000")
    assert mb_half == pytest.approx(mb_small / 2, rel=0.02)  # 12 TB members: half the work
    assert mb_small == pytest.approx(member_mb, rel=0.02)


def test_other_platforms_still_rebuild_only_allocated_data(catalog):
    _, h_small, mb_small = _rebuild(catalog, platform="netapp-e5700", drive_type="nlsas-7k2-24000",
                                    lun_gb=20000, priority="High")
    _, h_big, mb_big = _rebuild(catalog, platform="netapp-e5700", drive_type="nlsas-7k2-24000",
                                lun_gb=100000, priority="High")
    assert mb_big == pytest.approx(5 * mb_small, rel=0.02) and h_big > 4 * h_small


def _check(monkeypatch, tmp_path: Path, file: Path) -> tuple[int, str]:
    from app.cli import main

    users = tmp_path / "presets"
    users.mkdir(exist_ok=True)
    monkeypatch.setenv("ARRAYPLANNER_PRESETS", str(users))
    monkeypatch.setattr(presets, "_CATALOG", None)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", str(file)])
    return code, out.getvalue() + err.getvalue()


def test_a_bad_rebuild_scope_is_refused_by_check_naming_file_table_and_key(tmp_path, monkeypatch):
    text = (PRESETS / "rates" / "linux-md.toml").read_text()
    assert 'scope = "whole_drive"' in text
    bad = tmp_path / "my-md.toml"
    bad.write_text(text.replace('scope = "whole_drive"', 'scope = "everything"'))
    code, out = _check(monkeypatch, tmp_path, bad)
    assert code == 1
    assert str(bad) in out and "[rebuild] scope 'everything' is not one of allocated, whole_drive" in out
    good = tmp_path / "my-md-ok.toml"
    good.write_text(text)
    code, out = _check(monkeypatch, tmp_path, good)
    assert code == 0, out


def test_the_reliability_estimate_under_load_uses_the_throttled_md_rebuild(catalog):
    """A plan with no failure estimates the rebuild time at its mean load (app/engine/reliability.py):
    for md that is the throttled (lockstep) recovery, not the idle streaming one."""
    def spec(events):
        return {"platform": "linux-md",
                "groups": [{"id": 0, "raid": "R6", "drives": 12, "drive_type": "nlsata-7k2-24000", "buses": [0]}],
                "spares": [{"drive_type": "nlsata-7k2-24000", "bus": 0, "count": 1}],
                "luns": [{"id": 0, "group": 0, "gb": 20000}],
                "workloads": [{"id": "w", "name": "w", "luns": [0], "mode": "open", "iops": 60, "read_pct": 70,
                               "io_kb": 8, "random_pct": 100}],
                "events": events, "horizon_h": 2000}
    est = simulate(build_project(spec([]), catalog), catalog).reliability[0]
    assert est.basis.startswith("estimated")
    _, simulated_h, _ = _rebuild(catalog, iops=60)
    assert est.mttr_h == pytest.approx(simulated_h, rel=0.25)
    assert est.mttr_idle_h < est.mttr_h / 3
