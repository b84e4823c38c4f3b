"""The preset catalog: every built-in platform loads, every number has a source, user presets can
add a platform, and a broken user file is reported instead of stopping the app."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from app.domain.hardware import Param
from app.store.presets import builtin_presets_dir, load_catalog

PRESETS = builtin_presets_dir()
PLATFORM_FILES = sorted((PRESETS / "platforms").glob("*.toml"))
EXPECTED = {"emc-cx4-960-r28", "emc-cx4-960-pre28", "hp-sa6402-msa30", "hitachi-usp600-ams500", "dell-md3200",
            "dell-md3200i", "netapp-fas-ontap"}
EXPECTED_RATES = {"emc-cx4-960-r28": "clariion-flare28", "emc-cx4-960-pre28": "clariion-pre28",
                  "hp-sa6402-msa30": "smartarray-6402", "hitachi-usp600-ams500": "hitachi-usp",
                  "dell-md3200": "dell-md32xx", "dell-md3200i": "dell-md32xx", "netapp-fas-ontap": "netapp-ontap"}


def test_every_builtin_platform_loads(catalog):
    assert catalog.problems == ()
    ids = {tomllib.loads(p.read_text())["id"] for p in PLATFORM_FILES}
    assert ids == set(catalog.platforms)
    assert EXPECTED <= set(catalog.platforms)
    for pid, rates in EXPECTED_RATES.items():
        assert tomllib.loads((PRESETS / "platforms" / f"{pid}.toml").read_text())["rates"] == rates
        assert catalog.platform(pid).builtin


def test_every_rate_has_a_source(catalog):
    for pf in catalog.platforms.values():
        params = list(pf.rates.walk())
        for p in params:
            assert isinstance(p, Param) and p.source.strip(), f"{pf.id}: {p.path} has no source"


def _numbers_without_source(node, path, inherited: bool) -> list[str]:
    """Numeric leaves of a platform document that neither they nor an enclosing table source."""
    out = []
    if isinstance(node, dict):
        here = inherited or bool(node.get("source"))
        for k, v in node.items():
            out += _numbers_without_source(v, f"{path}.{k}" if path else k, here)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _numbers_without_source(v, f"{path}[{i}]", inherited)
    elif isinstance(node, (int, float)) and not isinstance(node, bool) and not inherited:
        out.append(path)
    return out


@pytest.mark.parametrize("path", PLATFORM_FILES, ids=[p.stem for p in PLATFORM_FILES])
def test_every_platform_number_has_a_source(path):
    doc = tomllib.loads(path.read_text())
    assert doc.get("source"), f"{path.name}: no top-level source"
    body = {k: v for k, v in doc.items() if k not in ("source", "rates_override")}
    # the top-level source names the document; numbers must carry their own table's source
    missing = _numbers_without_source(body, "", False)
    assert missing == [], f"{path.name}: numbers without a source: {missing}"


def test_drive_catalog_sources(catalog):
    doc = tomllib.loads((PRESETS / "drives.toml").read_text())
    assert {d["id"] for d in doc["drive"]} == set(catalog.drives)
    for d in catalog.drives.values():
        assert d.source.strip()
        # the documents give no per-drive service times or streaming rates: they must say so; a
        # current drive's figures come from its datasheet, each marked (drives.toml's header)
        assert any(m in d.source for m in ("assumption", "[datasheet]", "[checked]")), d.id
        assert d.capacity_gb > 0 and d.seq_mb_s > 0 and d.random_ms > 0 and d.mttf_h > 0


def test_documents_drives_are_in_the_catalog(catalog):
    want = {  # (interface, rpm, capacity) the documents name
        ("FC", 15000, 73), ("FC", 10000, 400), ("SATA", 7200, 1000), ("SATA", 7200, 750), ("SATA", 7200, 500),
        ("SCSI", 10000, 36.4), ("SCSI", 15000, 36.4), ("FC", 10000, 146), ("FC", 10000, 300), ("SATA", 7200, 250),
    }
    have = {(d.interface.value, d.rpm, d.capacity_gb) for d in catalog.drives.values()}
    assert want <= have
    assert any(d.interface.value == "SSD" for d in catalog.drives.values())


def test_platforms_are_consistent(catalog):
    for pf in catalog.platforms.values():
        for did in pf.drive_types:
            assert did in catalog.drives, f"{pf.id}: drive type {did} not in drives.toml"
        assert pf.controllers and pf.buses > 0 and pf.enclosure_types and pf.raid_rules
        for spec in list(pf.cache_settings.values()) + list(pf.lun_settings.values()):
            assert spec.check(spec.default) is None, f"{pf.id}: {spec.key} default {spec.default!r}"
            assert spec.source, f"{pf.id}: setting {spec.key} has no source"
        for op in pf.operations.values():
            assert op.default in op.priorities and op.source, f"{pf.id}: {op.kind}"
        for f in pf.features.values():
            assert f.source, f"{pf.id}: feature {f.id}"
        for et in pf.enclosure_types.values():
            assert et.slots > 0 and et.source


def test_platform_specifics(catalog):
    dell, dell_i = catalog.platform("dell-md3200"), catalog.platform("dell-md3200i")
    assert dell.max_drives == 96 and "hpt" in dell.features and dell.features["hpt"].reboot_minutes > 0
    assert dell.cache_settings["cache_block_kb"].choices == (4, 8, 16, 32)
    assert dell.cache_settings["cache_block_kb"].default == 4
    assert dell.lun_settings["segment_kb"].default == 128
    assert dell.host_ports_per_controller == dell_i.host_ports_per_controller == 4
    assert dell.host_port_mb_s * 8 == 4000 and dell_i.host_port_mb_s * 8 == 800   # MODEL-NOTES
    assert {e.slots for e in dell.enclosure_types.values()} == {12, 24}
    hp = catalog.platform("hp-sa6402-msa30")
    assert hp.priorities("drive_failure") == ("Low", "Medium", "High")
    assert 14 in {e.slots for e in hp.enclosure_types.values()} and hp.buses in (1, 2)
    netapp = catalog.platform("netapp-fas-ontap")
    assert list(netapp.raid_rules) == [__import__("app.domain.raid", fromlist=["RaidType"]).RaidType.RAID_DP]
    emc, pre = catalog.platform("emc-cx4-960-r28"), catalog.platform("emc-cx4-960-pre28")
    assert emc.operations["lun_migration"].default == "High" and pre.operations["lun_migration"].default == "ASAP"
    assert emc.operations["bind"].default == "Medium" and pre.operations["bind"].default == "ASAP"


# ---------------------------------------------------------------- user presets

def copied_platform(new_id: str, name: str, extra: str = "") -> str:
    text = (PRESETS / "platforms" / "emc-cx4-960-r28.toml").read_text()
    text = text.replace('id = "emc-cx4-960-r28"', f'id = "{new_id}"').replace(
        'name = "EMC CLARiiON CX4-960 (FLARE 28)"', f'name = "{name}"')
    return text.replace("max_enclosures_per_bus = 8\n", "max_enclosures_per_bus = 5\n") + extra


def test_user_platform_is_added(tmp_path):
    (tmp_path / "my-array.toml").write_text(copied_platform(
        "my-cx4", "My CX4", extra='\n[rates_override.policy.migration.High]\n'
                                  'mb_s = { value = 5.0, source = "lab measurement, 2024-03" }\n'))
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.problems == ()
    mine = cat.platform("my-cx4")
    assert not mine.builtin and mine.name == "My CX4" and mine.max_enclosures_per_bus == 5
    high = mine.rates.param("policy.migration.High.mb_s")
    assert high.value == 5.0 and high.source == "lab measurement, 2024-03"
    # the rest of the tables are inherited, sources included
    assert mine.rates.param("policy.migration.Low.mb_s").source == cat.platform("emc-cx4-960-r28").rates.param(
        "policy.migration.Low.mb_s").source
    assert "emc-cx4-960-r28" in cat.platforms and cat.platform("emc-cx4-960-r28").builtin


def test_user_drive_is_added(tmp_path):
    (tmp_path / "drives.toml").write_text(
        '[[drive]]\nid = "fc-15k-600"\nname = "600 GB 15k FC"\ninterface = "FC"\nrpm = 15000\n'
        'capacity_gb = 600\nseq_mb_s = 150\nrandom_ms = 5.3\nmttf_h = 1600000\nsource = "vendor datasheet"\n')
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert cat.drive("fc-15k-600").capacity_gb == 600


@pytest.mark.parametrize("content,words", [
    ("id = [this is not toml", ("broken.toml", "not valid TOML")),
    (None, ("broken.toml", "rates 'no-such-rates' not found")),
    ('[[drive]]\nid = "x"\nname = "X"\n', ("broken.toml", "missing 'interface'")),
])
def test_broken_user_file_shows_in_problems(tmp_path, content, words):
    if content is None:
        content = copied_platform("bad-rates", "Bad").replace('rates = "clariion-flare28"', 'rates = "no-such-rates"')
    (tmp_path / "broken.toml").write_text(content)
    (tmp_path / "good.toml").write_text(copied_platform("good-cx4", "Good"))
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert len(cat.problems) == 1
    for w in words:
        assert w in cat.problems[0], cat.problems
    assert "good-cx4" in cat.platforms and EXPECTED <= set(cat.platforms)


def test_user_rate_without_source_is_a_problem(tmp_path):
    (tmp_path / "nosrc.toml").write_text(copied_platform(
        "nosrc", "No source", extra="\n[rates_override.newtable]\nspeed = 3.0\n"))
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert "nosrc" not in cat.platforms
    assert any("newtable.speed" in p and "no source" in p for p in cat.problems)


def test_docs_describe_the_format():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "presets.md").read_text()
    for word in ("rates_override", "ARRAYPLANNER_PRESETS", "source", "assumption:", "drive_types", "[raid.",
                 "value =", "max_drives"):
        assert word in doc, word
