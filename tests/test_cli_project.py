"""`arrayplanner check / export-json / import-json`, the shared CLI helpers, and the no-display
message: exit codes, one-line errors, never a traceback, and unreadable files left unchanged."""
from __future__ import annotations

import hashlib
import json
import re
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import CliError, display_available, main
from app.cli.common import load_or_fail, validate_or_fail
from app.store.project_file import load_project, save_project
from app.store.project_json import project_to_dict

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The real command line, in a fresh interpreter (as a user runs it)."""
    e = dict(os.environ if env is None else env)
    e.setdefault("PYTHONPATH", str(ROOT))
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, cwd=ROOT,
                          env=e, timeout=120)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def broken_project_file(tmp_path: Path, load_example) -> Path:
    d = project_to_dict(load_example("emc-cx4-960-worked-examples"))
    d["luns"][0]["capacity_gb"] = 5000          # LUN 0 cannot fit in RG 0
    d["luns"][1]["owner"] = "SP Z"              # not a controller
    d["groups"][2]["drives"] = d["groups"][2]["drives"][:5]   # RAID 6 of 5 drives
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(d))
    return path


# ---------------------------------------------------------------- check

def test_check_every_example_is_valid(example_path, capsys):
    assert main(["check", str(example_path)]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1].startswith(f"{example_path}: valid: 0 errors")


def test_check_broken_file_exits_1_naming_objects(tmp_path, load_example, capsys):
    path = broken_project_file(tmp_path, load_example)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    # named once (was "LUN 0: LUN 0 ..."), the groups by their names (issue 23: not "RG 0")
    assert "error: LUN 0 (5,000 GB) does not fit in Migration source" in out
    assert "error: LUN 1 is owned by 'SP Z', which is not a controller" in out
    assert "error: SATA RAID 6 (rebuild example) has 5 drives" in out
    # the 5,000 GB LUN 0 is also the source of the migrations: its 200 GB destination is now too small
    assert "error: Migration Low: Migrate LUN 0 -> LUN 1 (LUN migration): destination LUN 1 (200 GB) is smaller than source LUN 0" in out
    assert "op1: Migration Low" not in out  # the scenario and the event once, in the text
    # (the warnings: the CX4 vault drives' formatted space, issue 23's capacity check)
    assert re.search(r"NOT valid: 8 errors, \d+ warnings?$", out.strip().splitlines()[-1])


def test_check_quiet_and_scenario(tmp_path, load_example, capsys):
    assert main(["check", "-q", str(ROOT / "presets/examples/dell-md3200-hpt.json")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    # warnings hidden: the layout's one, and the platform's (no rebuild tables: generic-model)
    assert len(lines) == 1 and lines[0].endswith("valid: 0 errors, 2 warnings"), lines
    assert main(["check", "--scenario", "Nope", str(ROOT / "presets/examples/dell-md3200-hpt.json")]) == 2
    assert "no scenario 'Nope'" in capsys.readouterr().err


def test_check_subprocess_exit_codes(tmp_path, load_example):
    ok = run_cli("check", "presets/examples/emc-cx4-960-oltp.json")
    assert ok.returncode == 0, ok.stderr
    bad = run_cli("check", str(broken_project_file(tmp_path, load_example)))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr + bad.stdout
    assert "LUN 0" in bad.stdout and "SATA RAID 6 (rebuild example)" in bad.stdout


@pytest.mark.parametrize("kind", ["truncated", "random", "empty", "foreign", "too-new", "bad-json"])
def test_check_unreadable_exits_2_with_one_line(tmp_path, load_example, kind):
    if kind in ("truncated", "too-new"):
        path = tmp_path / "p.arrayplan"
        save_project(load_example("emc-cx4-960-oltp"), path)
        if kind == "truncated":
            path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])
        else:
            import sqlite3
            with sqlite3.connect(path) as con:
                con.execute("PRAGMA user_version = 50")
    elif kind == "random":
        path = tmp_path / "p.arrayplan"
        path.write_bytes(random.Random(1).randbytes(5000))
    elif kind == "empty":
        path = tmp_path / "p.arrayplan"
        path.write_bytes(b"")
    elif kind == "foreign":
        import sqlite3
        path = tmp_path / "p.arrayplan"
        with sqlite3.connect(path) as con:
            con.execute("CREATE TABLE other(x)")
    else:
        path = tmp_path / "p.json"
        path.write_text("{ not json")
    before = sha(path)
    r = run_cli("check", str(path))
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("arrayplanner: ") and str(path) in lines[0]
    assert "Traceback" not in r.stderr
    assert sha(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_check_missing_file(capsys):
    assert main(["check", "/no/such/project.arrayplan"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "arrayplanner: /no/such/project.arrayplan: no such file"


# ---------------------------------------------------------------- export / import

def test_export_json_to_stdout_and_file(tmp_path, load_example, capsys):
    src = tmp_path / "p.arrayplan"
    project = load_example("hitachi-usp600-tiers")
    save_project(project, src)
    assert main(["export-json", str(src)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "arrayplanner-project"
    out = tmp_path / "out.json"
    assert main(["export-json", str(src), "-o", str(out)]) == 0
    assert load_project(out) == project
    assert main(["export-json", str(src), "-o", str(tmp_path / "out.txt")]) == 2


def test_import_json(tmp_path, load_example, capsys):
    out = tmp_path / "imported.arrayplan"
    example = ROOT / "presets/examples/emc-cx4-960-oltp.json"
    assert main(["import-json", str(example), "-o", str(out)]) == 0
    assert out.read_bytes()[:16] == b"SQLite format 3\x00"
    assert load_project(out) == load_example("emc-cx4-960-oltp")
    capsys.readouterr()
    assert main(["import-json", str(example), "-o", str(tmp_path / "x.json")]) == 2
    assert "arrayplan" in capsys.readouterr().err


def test_import_json_bad_input_keeps_existing_output(tmp_path, load_example, capsys):
    out = tmp_path / "keep.arrayplan"
    save_project(load_example("hp-sa6402-raid5"), out)
    before = sha(out)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "arrayplanner-project", "version": 1, "platform_id": 5}')
    assert main(["import-json", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"arrayplanner: {bad}: platform_id: expected text, got the number 5"
    assert sha(out) == before


@pytest.mark.parametrize("command, name", [("import-json", "ro.arrayplan"), ("export-json", "ro.json")])
def test_a_read_only_output_is_refused_without_force(tmp_path, capsys, command, name):
    out = tmp_path / name
    out.write_text("keep me")
    os.chmod(out, 0o444)
    src = ROOT / "presets/examples/emc-cx4-960-oltp.json"
    if command == "export-json":
        src = tmp_path / "src.arrayplan"
        assert main(["import-json", str(ROOT / "presets/examples/emc-cx4-960-oltp.json"), "-o", str(src)]) == 0
    capsys.readouterr()
    assert main([command, str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"arrayplanner: {out}: the file is read-only; not replaced (give --force to replace it)"
    assert out.read_text() == "keep me"
    assert main([command, str(src), "-o", str(out), "--force"]) == 0
    assert out.read_text(errors="replace") != "keep me"


# ---------------------------------------------------------------- shared helpers

def test_load_or_fail_and_validate_or_fail(tmp_path, load_example):
    project, catalog = load_or_fail(ROOT / "presets/examples/hp-sa6402-raid5.json")
    warnings = validate_or_fail(project, catalog)
    assert all(w.severity == "warning" for w in warnings)
    with pytest.raises(CliError) as info:
        load_or_fail(tmp_path / "missing.arrayplan")
    assert info.value.code == 2
    broken, cat = load_or_fail(broken_project_file(tmp_path, load_example))
    with pytest.raises(CliError) as info:
        validate_or_fail(broken, cat)
    assert info.value.code == 1
    # the errors that stop a run of the current scenario: the layout's and that scenario's (the
    # other scenarios' migrations of LUN 0 are listed by `check`, they do not stop this run)
    assert broken.current_scenario == "Migration ASAP"
    assert "5 errors" in str(info.value) and "LUN 0" in str(info.value)
    assert "Migration ASAP: Migrate LUN 0 -> LUN 1 (LUN migration)" in str(info.value) and "Migration Low" not in str(info.value)
    with pytest.raises(CliError) as info:
        validate_or_fail(broken, cat, "Rebuild Low")  # no migration: the layout's 4 errors
    assert "4 errors" in str(info.value) and "(LUN migration)" not in str(info.value)


# ---------------------------------------------------------------- no display

def test_display_detection():
    assert not display_available({}, "linux")
    assert display_available({"DISPLAY": ":0"}, "linux")
    assert display_available({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert display_available({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert display_available({}, "win32") and display_available({}, "darwin")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the display check applies to Linux")
@pytest.mark.parametrize("args", [["--example"], [], ["gui", "presets/examples/hp-sa6402-raid5.json"]])
def test_no_display_is_one_line_not_a_qt_abort(args):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = run_cli(*args, env=env)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert "no display" in lines[0]
    for cmd in ("check", "simulate", "report"):
        assert f"arrayplanner {cmd}" in lines[0]
    assert "Traceback" not in r.stderr and "qt.qpa" not in r.stderr


def test_unknown_command_is_one_line(capsys):
    assert main(["chek", "x.arrayplan"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("arrayplanner: unknown command 'chek' (commands: ") and "check" in err


def test_internal_error_is_one_line(monkeypatch, capsys):
    import app.cli.project_cmds as pc

    def boom(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv("ARRAYPLANNER_DEBUG", raising=False)
    monkeypatch.setattr(pc, "cmd_check", boom)
    assert main(["check", "x.json"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["arrayplanner: internal error (ZeroDivisionError: division by zero); "
                   "set ARRAYPLANNER_DEBUG=1 to see the traceback"]
    monkeypatch.setenv("ARRAYPLANNER_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        main(["check", "x.json"])
