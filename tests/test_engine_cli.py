"""`arrayplanner simulate` and `arrayplanner validate` from the command line."""
from __future__ import annotations

import json

from app.cli import main
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
    assert d["format"] == "arrayplanner-result" and d["version"] == 1
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
