"""Measured data in (issue 25): each supported format read from a sample written from its
documentation (tests/fixtures/measured/), bad cells named by line and column, partial files,
mapping by name, the project keeping the data (JSON, .arrayplan, the 3 -> 4 upgrade), the
import as one undoable edit."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.domain.measured import MeasuredData, MeasuredInterval
from app.domain.edits.measured import ImportMeasured, SetMeasuredMapping
from app.domain.measured_map import guess_mapping
from app.store import project_file
from app.store.measured import MeasuredImportError, detect, parse_measured, read_measured
from app.store.project_file import APPLICATION_ID, load_project, save_project
from app.store.project_json import project_from_dict, project_to_dict

FIX = Path(__file__).resolve().parent / "fixtures" / "measured"
OLTP = Path(__file__).resolve().parents[1] / "presets" / "examples" / "emc-cx4-960-oltp.json"


def by(data: MeasuredData, name: str) -> list[MeasuredInterval]:
    return [iv for iv in data.intervals if iv.name == name]


def test_generic_csv():
    d = read_measured(FIX / "generic.csv")
    assert d.format == "generic-csv" and d.source == "generic.csv"
    assert {(k, n) for k, n in d.objects()} == {("lun", "OLTP 0"), ("lun", "OLTP 1"), ("group", "RG 0"), ("sp", "SP A")}
    lun0 = by(d, "OLTP 0")
    assert [iv.iops for iv in lun0] == [416, 500]  # the third row's "fast" is skipped
    assert lun0[0].seconds == 300 and lun0[0].response_ms == 12.1 and lun0[0].util_pct is None
    # the I/O size comes from MB/s and IOPS where the row leaves it empty
    assert by(d, "OLTP 1")[1].io_kb == pytest.approx(3.75 * 1024 / 480)
    assert d.skipped_count == 3
    assert d.skipped == [
        "generic.csv: line 11, column 'iops': 'fast' is not a number",
        "generic.csv: line 12, column 'object_type': 'array' is not an object type (lun, group, drive, sp, port)",
        "generic.csv: line 14, column 'util_pct': 140 is out of range (0 to 100)",
    ]


@pytest.mark.parametrize("name, devices, first_resp", [
    ("iostat-sysstat10.txt", {"sda", "sdb"}, (335 * 15.40 + 165 * 11.16) / 500),
    ("iostat-sysstat12.txt", {"sdb", "sdc"}, (335 * 15.40 + 165 * 11.16) / 500),
    ("iostat-sysstat12.4.txt", {"sdb", "nvme0n1"}, (335 * 15.40 + 165 * 11.16) / 500),
])
def test_iostat_versions(name, devices, first_resp):
    d = read_measured(FIX / name)
    assert d.format == "iostat"
    assert {n for _, n in d.objects()} == devices and all(k == "lun" for k, _ in d.objects())
    sdb = by(d, "sdb")
    # the first report (since boot) is not an interval: the second is the first one read
    assert d.skipped[-1 if name != "iostat-sysstat10.txt" else 0].endswith("the first report is the average since boot, "
                                                                           "not an interval (iostat -y omits it)")
    assert sdb[0].iops == pytest.approx(500) and sdb[0].read_pct == pytest.approx(67.0)
    assert sdb[0].mb_s == pytest.approx(4000 / 1024) and sdb[0].io_kb == pytest.approx(8.0)
    assert sdb[0].response_ms == pytest.approx(first_resp) and sdb[0].util_pct == 95.0
    assert sdb[0].seconds == (30 if "12.4" in name else 60)


def test_iostat_bad_cells_and_idle_devices():
    d = read_measured(FIX / "iostat-sysstat10.txt")
    assert "iostat-sysstat10.txt: line 25, column 'r_await': 'x.yz' is not a number" in d.skipped
    assert len(by(d, "sdb")) == 2  # 10:01 and 10:03; 10:02's line is skipped
    d12 = read_measured(FIX / "iostat-sysstat12.4.txt")
    assert "iostat-sysstat12.4.txt: line 12: 4 fields where the header at this report has 23" in d12.skipped
    idle = by(read_measured(FIX / "iostat-sysstat12.txt"), "sdc")
    assert idle and all(iv.iops == 0 and iv.response_ms is None for iv in idle)  # no I/O: undefined, not 0 ms


def test_iostat_needs_time_stamps():
    text = (FIX / "iostat-sysstat12.txt").read_text()
    no_t = "\n".join(l for l in text.splitlines() if not l.startswith("12/06/26"))
    with pytest.raises(MeasuredImportError, match=r"line \d+: a device line before any time stamp: run iostat with -t"):
        parse_measured(no_t, "no-t.txt")


def test_unisphere_analyzer_dump():
    d = read_measured(FIX / "analyzer-archivedump.csv")
    assert d.format == "unisphere-analyzer"
    assert set(d.objects()) == {
        ("sp", "SP A"), ("sp", "SP B"), ("port", "Port 0 [SP A]"), ("lun", "OLTP 0 [0]"), ("lun", "OLTP 1 [1]"),
        ("group", "RAID Group 0"), ("drive", "Bus 0 Enclosure 0 Disk 0")}
    spa = by(d, "SP A")
    assert [iv.util_pct for iv in spa] == [12.4, 15.1] and spa[0].iops == 7490 and spa[0].seconds == 60
    assert spa[0].read_pct == pytest.approx(100 * 5018.3 / 7490)
    lun = by(d, "OLTP 0 [0]")[0]
    assert lun.response_ms == 12.3 and lun.io_kb == pytest.approx(8.0)
    assert d.skipped == ["analyzer-archivedump.csv: line 13, column 'Utilization (%)': 'seventy' is not a number"]
    assert by(d, "Port 0 [SP A]")[0].util_pct is None  # N/A


def test_format_detection_and_refusals(tmp_path):
    for f, fmt in (("generic.csv", "generic-csv"), ("iostat-sysstat10.txt", "iostat"),
                   ("analyzer-archivedump.csv", "unisphere-analyzer")):
        assert detect((FIX / f).read_text()) == fmt
    with pytest.raises(MeasuredImportError, match=r"x\.csv: not a measured-data file"):
        parse_measured("a,b,c\n1,2,3\n", "x.csv")
    with pytest.raises(MeasuredImportError, match=r"line 1: the header has no object_type, object column"):
        parse_measured("timestamp,iops\n2026-01-01T00:00:00,5\n", "g.csv", "generic-csv")
    with pytest.raises(MeasuredImportError, match=r"g\.csv: no valid interval; 1 lines skipped \(first: g\.csv: line 2, "
                                                  r"column 'timestamp': 'yesterday' is not a time"):
        parse_measured("timestamp,object_type,object,iops\nyesterday,lun,L1,5\n", "g.csv")
    with pytest.raises(MeasuredImportError, match="no such file|cannot be read"):
        read_measured(tmp_path / "missing.csv")


def test_mapping_by_name():
    project = load_project(OLTP)
    for f in ("generic.csv", "analyzer-archivedump.csv"):
        d = read_measured(FIX / f)
        m = guess_mapping(project, d, ("SP A", "SP B"))
        lun0 = "lun:OLTP 0" if f == "generic.csv" else "lun:OLTP 0 [0]"
        assert m[lun0] == "lun:0"
        assert m["sp:SP A"] == "sp:SP A"
        assert m["group:RG 0" if f == "generic.csv" else "group:RAID Group 0"] == "group:0"
    m = guess_mapping(project, read_measured(FIX / "analyzer-archivedump.csv"), ("SP A", "SP B"))
    assert m["drive:Bus 0 Enclosure 0 Disk 0"] == "drive:0_0_0" and m["port:Port 0 [SP A]"] == "port:SP A"
    io = read_measured(FIX / "iostat-sysstat12.txt")
    assert guess_mapping(project, io) == {"lun:sdb": "", "lun:sdc": ""}  # host devices: the dialog maps them
    # a mapping the project remembers wins over the name rules
    assert guess_mapping(project, io, keep={"lun:sdb": "lun:3"})["lun:sdb"] == "lun:3"
    assert guess_mapping(project, io, keep={"lun:sdb": "lun:999"})["lun:sdb"] == ""  # gone: not kept


def _with_measured():
    project = load_project(OLTP)
    d = read_measured(FIX / "analyzer-archivedump.csv")
    d.mapping = guess_mapping(project, d, ("SP A", "SP B"))
    return project, d


def test_import_is_one_undoable_edit():
    project, d = _with_measured()
    before = project_to_dict(project)
    op = ImportMeasured(d)
    op.do(project)
    assert project.measured == d and project.measured is not d
    assert "Import measured data (analyzer-archivedump.csv, 13 intervals)" == op.text
    remap = SetMeasuredMapping({**d.mapping, "lun:OLTP 1 [1]": ""})
    remap.do(project)
    assert project.measured.mapping["lun:OLTP 1 [1]"] == ""
    remap.undo(project)
    op.undo(project)
    assert project.measured is None and project_to_dict(project) == before


def test_measured_data_round_trips(tmp_path):
    project, d = _with_measured()
    ImportMeasured(d).do(project)
    for name in ("p.json", "p.arrayplan"):
        save_project(project, tmp_path / name)
        again = load_project(tmp_path / name)
        assert again.measured == d and again == project
    # a project without measured data writes no key (files read as before)
    assert "measured" not in project_to_dict(load_project(OLTP))
    bad = project_to_dict(project)
    bad["measured"]["intervals"][0][2] = "array"
    with pytest.raises(ValueError, match=r"measured: measured data intervals\[0\]: measured interval kind 'array'"):
        project_from_dict(bad)


def test_upgrade_from_v3_adds_empty_measured_tables(tmp_path):
    import shutil

    path = tmp_path / "v3.arrayplan"
    shutil.copy(Path(__file__).parent / "fixtures/schema/project-v3.arrayplan", path)
    loaded = load_project(path)
    assert loaded.measured is None and loaded.calibration is None
    with sqlite3.connect(path) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == 3  # opened, not rewritten
    project_file.save_project(loaded, path)
    with sqlite3.connect(path) as c:
        assert c.execute("PRAGMA user_version").fetchone()[0] == project_file.SCHEMA_VERSION
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"measured_data", "calibration"} <= tables
