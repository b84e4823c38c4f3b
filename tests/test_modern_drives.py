"""Current drive classes (issue 24): the catalog's SSDs, NVMe, 10k/15k SAS and 7.2k nearline
drives, their datasheet figures and what the engine derives from them."""
from __future__ import annotations

import pytest

from app.domain.hardware import Interface, hdd_random_ms, ssd_random_ms
from app.store.presets import PresetError, parse_drive

NEW = ["nlsas-7k2-24000", "nlsas-7k2-12000", "nlsata-7k2-24000", "nlsas-7k2-24000-hc580", "sas-10k-2400",
       "sas-15k-900", "sas-ssd-3840", "sata-ssd-3840", "nvme-ssd-3840", "nvme-ssd-7680", "nvme-ssd-1920-cm7"]


def _drive(**kw):
    d = {"id": "x", "name": "X", "interface": "SAS", "rpm": 7200, "capacity_gb": 1000, "seq_mb_s": 200,
         "random_ms": 12.0, "source": "test"}
    d.update(kw)
    return {k: v for k, v in d.items() if v is not None}


def test_catalog_has_every_current_class(catalog):
    types = {t: catalog.drive(t) for t in NEW}
    classes = {(t.interface, t.is_ssd, t.rpm) for t in types.values()}
    assert (Interface.SAS, True, 0) in classes and (Interface.SATA, True, 0) in classes
    assert (Interface.NVME, True, 0) in classes
    assert {(Interface.SAS, False, 10000), (Interface.SAS, False, 15000), (Interface.SAS, False, 7200),
            (Interface.SATA, False, 7200)} <= classes
    assert max(t.capacity_gb for t in types.values() if t.rpm == 7200) == 24000
    for t in types.values():
        assert "http" in t.source and t.ure_bits > 0 and t.mttf_h > 1e6, t.id


def test_hdd_service_time_from_seek_rotation_and_transfer():
    t = parse_drive(_drive(random_ms=None, seek_ms=8.0, seq_mb_s=200), "drives.toml")
    assert t.random_ms == pytest.approx(8.0 + 60000 / 7200 / 2 + 8 / 1024 / 200 * 1000)
    assert t.random_ms == pytest.approx(hdd_random_ms(8.0, 7200, 200))
    assert t.response_ratio == 1.0


def test_zone_rates_give_the_mean_streaming_rate():
    t = parse_drive(_drive(seq_mb_s=None, seq_outer_mb_s=280, seq_inner_mb_s=140), "drives.toml")
    assert t.seq_mb_s == pytest.approx(210)


def test_ssd_service_from_iops_and_latency():
    t = parse_drive(_drive(interface="NVMe", rpm=0, random_ms=None, read_iops=1_000_000, write_iops=200_000,
                           read_latency_ms=0.08), "drives.toml")
    busy = ssd_random_ms(1_000_000, 200_000)
    assert t.random_ms == pytest.approx(busy) and busy == pytest.approx(1000 * (0.7 / 1e6 + 0.3 / 2e5))
    # busy time per I/O is 1/IOPS (the throughput), an I/O's own response the latency
    assert t.random_ms * t.response_ratio == pytest.approx(0.08)
    assert t.is_ssd and t.speed_class == "NVMe SSD"


def test_mttf_from_afr():
    t = parse_drive(_drive(afr_pct=0.35), "drives.toml")
    assert t.mttf_h == pytest.approx(8766 / 0.0035)


@pytest.mark.parametrize("kw,msg", [
    ({"interface": "PATA"}, "not one of FC, SAS, SATA, SSD, SCSI, NVMe"),
    ({"interface": "NVMe", "rpm": 7200}, "NVMe drive is an SSD"),
    ({"interface": "FC", "rpm": 0}, "out of range for a FC drive"),
    ({"rpm": 0, "random_ms": None}, "missing 'random_ms'"),
])
def test_bad_drive_names_the_problem(kw, msg):
    with pytest.raises(PresetError, match=msg):
        parse_drive(_drive(**kw), "drives.toml")


def _nvme_run(catalog, iops):
    from app.engine import simulate
    from app.engine.cases import build_project

    spec = {"platform": "linux-md",
            "groups": [{"id": 0, "raid": "R1/0", "drives": 4, "drive_type": "nvme-ssd-3840", "buses": [0],
                        "enclosure_type": "bays-2.5"}],
            "luns": [{"id": 0, "group": 0, "gb": 1000}],
            "workloads": [{"id": "db", "name": "db", "luns": [0], "mode": "open", "iops": iops, "read_pct": 100,
                           "io_kb": 4, "random_pct": 100}],
            "horizon_h": 1.0}
    return simulate(build_project(spec, catalog), catalog)


def test_nvme_group_serves_its_iops_at_its_latency(catalog):
    # four NVMe drives of 1M read IOPS each: 400k random reads are well inside their throughput
    # (a one-at-a-time server with the 70 us latency as service time would saturate at ~57k)
    light, heavy = _nvme_run(catalog, 1000), _nvme_run(catalog, 400_000)
    assert "host-overload" not in [a.code for a in heavy.advisories]
    assert heavy.get("iops", "db").at(0.5) == pytest.approx(400_000, rel=1e-3)
    # a light load sees the published read latency (plus the host's own path), not 1/IOPS
    r = light.get("response_ms", "db").at(0.5)
    assert 0.07 <= r < 0.2


# ---------------------------------------------------------------- every figure is cited
_FIGURES = ("capacity_gb", "rpm", "seq_mb_s", "seq_outer_mb_s", "seq_inner_mb_s", "seek_ms", "read_iops",
            "write_iops", "read_latency_ms", "mttf_h", "afr_pct", "ure_bits", "dwpd")


def _renderings(key: str, v) -> set[str]:
    """The ways a source writes a figure (14,000 MB/s, 2,000K IOPS, 2.5M h, 10^17, 70 us...)."""
    import math

    out = {f"{v:,}", f"{v}", f"{v:g}"}
    if isinstance(v, float) and v.is_integer():
        out |= {f"{int(v):,}", f"{int(v)}"}
    extra = {"ure_bits": lambda: {f"10^{round(math.log10(v))}"},
             "read_iops": lambda: {f"{v / 1000:,.0f}K", f"{v / 1000:g}K"},
             "write_iops": lambda: {f"{v / 1000:,.0f}K", f"{v / 1000:g}K"},
             "mttf_h": lambda: {f"{v / 1e6:g}M h", f"{v / 1e6:.1f}M h"},
             "read_latency_ms": lambda: {f"{v * 1000:g} us"},
             "afr_pct": lambda: {f"{v:g}%"},
             "capacity_gb": lambda: {f"{v / 1000:g} TB", f"{v:,} GB"},
             "seq_mb_s": lambda: {f"{v / 1000:g} GB/s"}}
    return out | extra.get(key, set)()


def test_current_drives_cite_every_figure():
    """Each figure of an issue-24 drive is in its source: as the number the document gives, or by
    name where the source says it is an assumption or derived (inner zone, seek, latency...)."""
    import tomllib
    from pathlib import Path

    raw = tomllib.loads((Path(__file__).parent.parent / "presets" / "drives.toml").read_text())["drive"]
    current = [d for d in raw if "ure_bits" in d]
    assert {d["id"] for d in current} >= set(NEW)
    missing = []
    for d in current:
        text = (d["source"] + " " + d["name"]).replace("inner zone", "seq_inner_mb_s").replace("seek", "seek_ms")
        assert "http" in d["source"], d["id"]
        for key in _FIGURES:
            if key in d and not (key == "rpm" and d[key] == 0):
                if key not in text and not any(r in text for r in _renderings(key, d[key])):
                    missing.append(f"{d['id']}.{key} = {d[key]}")
    assert not missing, "figures the source does not give or name: " + ", ".join(missing)


def test_kioxia_cm7_is_a_pcie5_nvme_drive(catalog):
    t = catalog.drive("nvme-ssd-1920-cm7")
    assert t.interface is Interface.NVME and t.is_ssd and t.seq_mb_s == 14000
    assert (t.read_iops, t.write_iops, t.dwpd) == (2_000_000, 155_000, 1)
    assert "nvme-ssd-1920-cm7" in catalog.platform("linux-md").drive_types
