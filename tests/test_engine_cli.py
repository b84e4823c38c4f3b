"""`arrayplanner simulate` and `arrayplanner validate` from the command line."""
from __future__ import annotations

import json

from app.cli import main
from app.engine import RESULT_FORMAT_VERSION
from conftest import EXAMPLE_PATHS

EX = {p.stem: p for p in EXAMPLE_PATHS}


def test_simulate_summary(capsys):
    code = main(["simulate", str(EX["emc-cx4-960-oltp"]), "--scenario", "Dependent ASAP migration"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Migrate LUN 18 -> LUN 19 (ASAP)" in out
    assert "- copy:" in out and "- expansion:" in out
    assert "Advisories" in out and "ASAP" in out
    assert "Peaks" in out


def test_simulate_json_is_the_documented_format(capsys):
    code = main(["simulate", str(EX["emc-cx4-960-worked-examples"]), "--scenario", "Rebuild ASAP", "--json"])
    assert code == 0
    d = json.loads(capsys.readouterr().out)
    assert d["format"] == "arrayplanner-result" and d["version"] == RESULT_FORMAT_VERSION
    op = d["operations"][0]
    assert [p["name"] for p in op["phases"]] == ["rebuild", "equalization"]
    assert any(s["metric"] == "drive_pct" for s in d["series"])


def test_simulate_unknown_scenario_is_one_line(capsys):
    code = main(["simulate", str(EX["emc-cx4-960-oltp"]), "--scenario", "nope"])
    err = capsys.readouterr().err
    assert code == 2 and "nope" in err and "Traceback" not in err


def test_validate_json(capsys):
    code = main(["validate", "--json", "--only", "emc.migration"])
    d = json.loads(capsys.readouterr().out)
    assert code == 0
    assert d["cases"] and all(set(c) >= {"id", "source", "published", "predicted", "unit", "error_pct",
                                         "tolerance_pct", "pass"} for c in d["cases"])
    assert all(c["pass"] for c in d["cases"])


def test_validate_table(capsys):
    code = main(["validate", "--only", "emc.bind"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0].split()[:3] == ["case", "published", "predicted"]
    assert "cases pass" in out


def test_validate_table_shows_conditions(capsys):
    # directional and flag cases: the condition in the published column, no error percentage
    code = main(["validate", "--only", "emc.load"])
    out = capsys.readouterr().out
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines()[1:] if line.startswith("emc.")}
    fig8 = rows["emc.load.figure8.asap_disk_significant"].split()
    assert fig8[1:3] == [">", "4"] and fig8[5] == "--" and "%" not in " ".join(fig8[4:])
    flag = rows["emc.load.dependent.forced_flush_advised"]
    assert "flag set" in flag and " set " in flag and "%" not in flag
    code = main(["validate", "--json", "--only", "emc.load.figure8"])
    d = {c["id"]: c for c in json.loads(capsys.readouterr().out)["cases"]}["emc.load.figure8.asap_disk_significant"]
    assert d["check"] == "> 4" and d["error_pct"] is None and d["published"] == 4


# (example, scenario, operation, expected hours, relative tolerance, source)
DOCUMENTED = [
    ("emc-cx4-960-worked-examples", "Migration ASAP", "op1", 2.53, 0.05, "emc migration example"),
    ("emc-cx4-960-worked-examples", "Rebuild High", "op1", 18.0, 0.05, "emc Table 7"),
    ("emc-cx4-960-worked-examples", "Rebuild Medium", "op1", 36.0, 0.05, "emc Table 7"),
    ("emc-cx4-960-worked-examples", "Bind ASAP verify", "op1", 0.34, 0.05, "emc bind example"),
    ("emc-cx4-960-oltp", "Independent ASAP migration", "op1", 20 * 1024 / 170 / 3600 + 20 * 1024 / 12 / 3600, 0.05,
     "emc Tables 2 + expansion rate (independent disks run at the idle rates)"),
    ("hitachi-usp600-tiers", "Table 2: USP R6 6D+2P -> USP R5 7D+1P", "op1", 28 / 60, 0.25, "hitachi Table 2"),
    ("hitachi-usp600-tiers", "Table 2: USP R6 6D+2P -> AMS500 FC R5 14D+1P", "op1", 53 / 60, 0.25, "hitachi Table 2"),
    ("hitachi-usp600-tiers", "Table 1: AMS500 SATA R5 14D+1P -> USP R6 6D+2P", "op1", 52 / 60, 0.25, "hitachi Table 1"),
    # (Table 3's migration group R6 6+2 -> R5 3+1 is a prediction the refitted model misses:
    # app/cli/calibration.py KNOWN_MISSES, hitachi.table3.a.group)
    ("hitachi-usp600-tiers", "Table 3: serial R6 6+2 -> R5 3+1", "op1", (74 + 56 / 60) / 60, 0.25, "hitachi Table 3"),
    ("hp-sa6402-raid5", "Sequential 64 KB, rebuild at High", "op1", 0.05 + 36.4 * 1024 / 21.83 / 3600, 0.25,
     "hp Table 2 (21.83 MB/s under sequential reads; degraded 0.05 h first)"),
    ("dell-md3200-hpt", "Enable High Performance Tier", "op1", 5 / 60, 0.01, "dell: controllers reboot (platform 5 min)"),
    ("netapp-fas-wafl", "Measure only", "op1", 1 / 3600, 0.01, "netapp log: measure within one second"),
]


import pytest  # noqa: E402


@pytest.mark.parametrize("example,scenario,op,hours,rel,source", DOCUMENTED,
                         ids=[f"{d[0]}:{d[1]}" for d in DOCUMENTED])
def test_simulate_json_durations_match_the_documents(capsys, example, scenario, op, hours, rel, source):
    assert main(["simulate", str(EX[example]), "--scenario", scenario, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    o = {x["event_id"]: x for x in d["operations"]}[op]
    assert o["duration_h"] == pytest.approx(hours, rel=rel), source


@pytest.mark.parametrize("path", EXAMPLE_PATHS, ids=[p.stem for p in EXAMPLE_PATHS])
def test_simulate_json_every_example(capsys, path):
    assert main(["simulate", str(path), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["version"] == RESULT_FORMAT_VERSION and d["series"]


def test_a_closed_output_pipe_ends_simulate_quietly():
    """`arrayplanner simulate FILE | head -1`: the reader closes the pipe before the summary is
    written (here: before the command even starts). No 'internal error', the shell's SIGPIPE code."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    read, write = os.pipe()
    os.close(read)  # every write to the pipe now fails with EPIPE
    try:
        done = subprocess.run([sys.executable, "-m", "app", "simulate", str(EX["emc-cx4-960-oltp"])],
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=120,
                              cwd=Path(__file__).resolve().parents[1])
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 141


def test_a_missing_current_scenario_is_an_invalid_project_for_every_command(tmp_path, load_example, capsys):
    """The file reads; its current scenario is missing: a validation error, exit 1 (common.py's
    codes), from simulate as from check and report. A scenario typed with --scenario that the
    file lacks stays bad usage (2)."""
    from app.store.project_json import project_to_dict

    d = project_to_dict(load_example("emc-cx4-960-oltp"))
    d["current_scenario"] = "nope"
    path = tmp_path / "p.json"
    path.write_text(json.dumps(d))
    for command in ("check", "simulate", "report"):
        assert main([command, str(path)]) == 1, command
        assert "the current scenario 'nope' does not exist" in "".join(capsys.readouterr()), command
    assert not path.with_suffix(".pdf").exists()
    assert main(["simulate", str(path), "--scenario", "zz"]) == 2
