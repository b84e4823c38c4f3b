"""Hostile input (issue 21, items 10-13): files that `check` used to call valid though the store
cannot write them, nesting that ended in RecursionError, preset values the engine would divide
by, and paths that are no regular file. Each gets one clear line and exit 1 (errors) or 2
(unreadable); none may give exit 3 (internal error), hang, or eat the memory.

Most cases run the CLI in-process (main()); those that used to hang (a FIFO) or read without
end (/dev/zero) run it in a subprocess with a timeout, so a regression fails instead of hanging
the suite. The fuzz at the end mutates the example projects for a few hundred seeds.
"""
from __future__ import annotations

import copy
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from app.cli import main
from app.store import presets
from app.store.presets import builtin_presets_dir
from app.store.project_file import load_project, save_project

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "presets" / "examples"
HP = json.loads((EXAMPLES / "hp-sa6402-raid5.json").read_text())
HP_PLATFORM = (builtin_presets_dir() / "platforms" / "hp-sa6402-msa30.toml").read_text()
EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3


def cli(*argv: str | Path) -> tuple[int, str, str]:
    """main() in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def cli_process(*argv: str | Path, timeout: float = 60) -> tuple[int, str, str]:
    """The CLI in its own process, killed after `timeout` s (subprocess.TimeoutExpired: a hang)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ARRAYPLANNER_DEBUG": ""}
    done = subprocess.run([sys.executable, "-m", "app", *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)
    return done.returncode, done.stdout, done.stderr


def refused(code: int, err: str, expected: int, *words: str) -> None:
    """Exit `expected` with one line on stderr holding `words` (and no traceback)."""
    assert code == expected, (code, err)
    assert "internal error" not in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, (w, err)


def hp(**changes) -> dict:
    d = copy.deepcopy(HP)
    d.update(changes)
    return d


def write_json(path: Path, doc: dict) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")  # ensure_ascii: a lone surrogate is an \\ud800 escape
    return path


def error_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("error:")]


# ---------------------------------------------------------------- 10. what the store cannot write

def _with_spare_lun(lun_id: int, **fields) -> dict:
    """The HP example with one more LUN (no workload uses it) of id `lun_id`."""
    d = hp()
    d["luns"][0]["capacity_gb"] = 100
    d["luns"].append({"id": lun_id, "group_id": 0, "capacity_gb": 50, "owner": "Smart Array 6402", **fields})
    return d


@pytest.mark.parametrize("lun_id", [2**63, -(2**63) - 1, 10**30])
def test_check_refuses_an_integer_beyond_64_bits_naming_the_field(tmp_path, lun_id):
    path = write_json(tmp_path / "p.json", _with_spare_lun(lun_id))
    code, out, _ = cli("check", path)
    assert code == EXIT_INVALID
    bad = [e for e in error_lines(out) if "project file can store" in e]
    assert len(bad) == 1 and "id " in bad[0] and "LUN" in bad[0], out
    # the largest that fits is fine (and saves)
    ok = write_json(tmp_path / "ok.json", _with_spare_lun(2**63 - 1))
    assert cli("check", ok)[0] == EXIT_OK
    save_project(load_project(ok), tmp_path / "ok.arrayplan")


@pytest.mark.parametrize("where,edit", [
    ("LUN 0: name", lambda d: d["luns"][0].__setitem__("name", "log\ud800")),
    ("project: info.title", lambda d: d["info"].__setitem__("title", "\udcff")),
    ("LUN 0: settings key", lambda d: d["luns"][0]["settings"].__setitem__("\udc00", 1)),
    ("(workload change): id", lambda d: d["scenarios"][0]["events"][0].__setitem__("id", "w\udc00")),
    ("workload oltp: name", lambda d: d["workloads"][0].__setitem__("name", "\ud83d")),
])
def test_check_refuses_a_lone_surrogate_naming_the_field(tmp_path, where, edit):
    d = hp()
    edit(d)
    path = write_json(tmp_path / "p.json", d)
    assert "\\ud" in path.read_text()  # the file holds a JSON escape, as a hostile file would
    code, out, err = cli("check", path)
    assert code == EXIT_INVALID, (out, err)
    bad = [e for e in error_lines(out) if "cannot be stored as UTF-8" in e]
    assert len(bad) == 1 and where in bad[0], out
    bad[0].encode("utf-8")  # its own message shows the surrogate as an escape


def test_check_prints_a_surrogate_in_a_name_on_a_real_stdout(tmp_path):
    """print() of a lone surrogate raised UnicodeEncodeError on a UTF-8 stdout: exit 3."""
    d = hp()
    d["drives"][0]["location"] = "0_0_\ud800"
    code, out, err = cli_process("check", write_json(tmp_path / "p.json", d))
    assert code == EXIT_INVALID and "internal error" not in err, err
    assert "drive 0_0_\\ud800" in out


@pytest.mark.parametrize("command", ["import-json", "export-json"])
def test_import_and_export_refuse_what_they_cannot_write(tmp_path, command):
    src = write_json(tmp_path / "p.json", _with_spare_lun(2**64))
    out_path = tmp_path / ("out.arrayplan" if command == "import-json" else "out.json")
    code, _, err = cli(command, src, "-o", out_path)
    assert code == EXIT_INVALID and "cannot be written" in err and "LUN 18446744073709551616" in err, err
    assert not out_path.exists() and not list(tmp_path.glob(".out*"))


# ---------------------------------------------------------------- 11. nesting

@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,                       # balanced, far too deep
    "[" * 100_000,                                       # never closed: the parser recursed all the same
    json.dumps(hp()).replace('"cache": {}', '"cache": {"x": ' + "[" * 600 + "]" * 600 + "}"),
    json.dumps(hp()).replace('"notes": "', '"notes": "' + "[" * 5000, 1) + " " * 0,  # brackets in a string
])
def test_deep_json_is_refused_in_one_line(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    code, _, err = cli("check", path)
    if "[" * 5000 in text and '"notes": "[' in text:  # inside a string: not nesting, the project is fine
        assert code == EXIT_OK, err
        return
    refused(code, err, EXIT_UNREADABLE, "deep.json", "nest", "at most 64")


def test_json_at_the_depth_limit_is_read_and_one_more_is_not(tmp_path):
    d = hp()
    # the file, luns, the LUN, its settings: 4 levels; and 60 of lists
    d["luns"][0]["settings"] = {"x": json.loads("[" * 60 + "1" + "]" * 60)}
    code, out, err = cli("check", write_json(tmp_path / "p.json", d))
    assert code in (EXIT_OK, EXIT_INVALID) and "nest" not in err, err
    d["luns"][0]["settings"] = {"x": json.loads("[" * 61 + "1" + "]" * 61)}
    refused(*cli("check", write_json(tmp_path / "p.json", d))[::2], EXIT_UNREADABLE, "nest 65 levels")


def _arrayplan(tmp_path: Path, sql: str, *params) -> Path:
    path = tmp_path / "p.arrayplan"
    save_project(load_project(EXAMPLES / "hp-sa6402-raid5.json"), path)
    con = sqlite3.connect(path)
    con.execute(sql, params)
    con.commit()
    con.close()
    return path


@pytest.mark.parametrize("sql", [
    "UPDATE lun SET settings_json = ?",
    "UPDATE workload SET doc_json = ?",
    "UPDATE event SET doc_json = ?",
    "UPDATE project SET info_json = ?",
    "UPDATE raid_group SET drives_json = ?",
])
def test_nested_rows_of_a_v2_file_are_refused(tmp_path, sql):
    path = _arrayplan(tmp_path, sql, '{"x":' + "[" * 5000 + "]" * 5000 + "}")
    refused(*cli("check", path)[::2], EXIT_UNREADABLE, "p.arrayplan", "nest 5,001 levels")


def test_a_v2_json_column_holding_a_number_is_refused(tmp_path):
    path = _arrayplan(tmp_path, "UPDATE project SET cache_json = 5")
    refused(*cli("check", path)[::2], EXIT_UNREADABLE, "p.arrayplan", "cache")


def _v1_file(path: Path, document: str) -> Path:
    con = sqlite3.connect(path)
    con.execute("PRAGMA application_id = 1095781454")  # project_file.APPLICATION_ID
    con.execute("CREATE TABLE project_doc(id INTEGER PRIMARY KEY, json TEXT)")
    con.execute("INSERT INTO project_doc VALUES (1, ?)", (document,))
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    return path


def test_a_v1_file_is_still_read_and_a_deep_one_refused(tmp_path):
    ok = _v1_file(tmp_path / "ok.arrayplan", json.dumps(hp()))
    assert cli("check", ok)[0] == EXIT_OK
    deep = _v1_file(tmp_path / "deep.arrayplan", json.dumps(hp(cache={"x": "@"})).replace('"@"', "[" * 3000 + "]" * 3000))
    refused(*cli("check", deep)[::2], EXIT_UNREADABLE, "deep.arrayplan", "project_doc", "nest")


def _snapshot_project(tmp_path: Path, platform_text: str) -> Path:
    text = platform_text.replace('id = "hp-sa6402-msa30"', 'id = "my-hp"')
    return write_json(tmp_path / "snap.json", hp(platform_id="my-hp", platform_snapshot=text))


DOTTED = ".".join(f"k{i}" for i in range(3000)) + " = 1\n"


@pytest.mark.parametrize("where", ["top", "table", "override", "inline"])
def test_deep_embedded_toml_is_refused(tmp_path, where):
    text = {
        "top": DOTTED + HP_PLATFORM,
        "table": HP_PLATFORM + "\n[deep]\n" + DOTTED,  # an unknown table: it was walked all the same
        "override": HP_PLATFORM.replace("[[controllers]]", "[rates_override]\n" + DOTTED + "[[controllers]]", 1),
        "inline": HP_PLATFORM.replace("[[controllers]]", "deep = " + "[" * 3000 + "]" * 3000 + "\n[[controllers]]", 1),
    }[where]
    assert cli("check", _snapshot_project(tmp_path, HP_PLATFORM))[0] == EXIT_OK  # the template is fine
    refused(*cli("check", _snapshot_project(tmp_path, text))[::2], EXIT_UNREADABLE, "embedded platform", "nest")


@pytest.mark.parametrize("text", [DOTTED, 'rates_id = "x"\n' + DOTTED, "deep = " + "[" * 3000 + "]" * 3000])
def test_deep_preset_file_is_reported_not_a_crash(tmp_path, text):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    code, out, err = cli("check", path)
    assert code == EXIT_INVALID and not err, err
    assert "deep.toml" in out and "nest" in out, out


# ---------------------------------------------------------------- 12. preset values

def test_embedded_platform_with_raid_3_is_refused(tmp_path):
    doc = tomllib.loads(HP_PLATFORM)
    from app.store.toml_write import dumps

    doc["raid"] = 3
    refused(*cli("check", _snapshot_project(tmp_path, dumps(doc)))[::2], EXIT_UNREADABLE,
            "embedded platform", "raid must be a table")


@pytest.mark.parametrize("old,new,words", [
    ("bus_mb_s = 320", "bus_mb_s = 0", ("[back_end] bus_mb_s 0 is out of range",)),
    ("bus_mb_s = 320", "bus_mb_s = -5", ("bus_mb_s -5 is out of range",)),
    ("bus_mb_s = 320", "bus_mb_s = nan", ("bus_mb_s must be a finite number",)),
    ("bus_mb_s = 320", "bus_mb_s = inf", ("bus_mb_s must be a finite number",)),
    ("bus_mb_s = 320", "bus_mb_s = 1e300", ("bus_mb_s", "out of range")),
    ("bus_mb_s = 320", "bus_mb_s = 1" + "0" * 400, ("bus_mb_s is too large",)),
    ("bus_mb_s = 320", 'bus_mb_s = "fast"', ("bus_mb_s must be a number",)),
    ("buses = 2", "buses = 0", ("[back_end] buses 0",)),
    ("mb_s = 1066", "mb_s = 0", ("[host_ports] mb_s 0",)),
    ("slots = 14", "slots = 0", ("[[enclosure_types]] #1", "slots 0")),
    ("cores = 1", "cores = 0", ("[[controllers]] #1", "cores 0")),
    ("[raid.R5]\nmin = 3", "[raid.R5]\nmin = [3]", ("[raid.R5]", "min must be a number")),
])
def test_embedded_platform_values_are_checked_naming_table_and_key(tmp_path, old, new, words):
    assert old in HP_PLATFORM, old
    code, _, err = cli("check", _snapshot_project(tmp_path, HP_PLATFORM.replace(old, new, 1)))
    refused(code, err, EXIT_UNREADABLE, "embedded platform", *words)


DRIVE = ('[[drive]]\nid = "my-scsi"\nname = "My SCSI"\ninterface = "SCSI"\nrpm = 10000\ncapacity_gb = 36.4\n'
         'seq_mb_s = 60\nrandom_ms = 7\nsource = "test"\n')


@pytest.mark.parametrize("old,new", [("seq_mb_s = 60", "seq_mb_s = 0"), ("random_ms = 7", "random_ms = 0"),
                                     ("capacity_gb = 36.4", "capacity_gb = nan"), ("rpm = 10000", "rpm = 1e9"),
                                     ("seq_mb_s = 60", 'seq_mb_s = "60"')])
def test_a_user_drive_the_engine_would_divide_by_is_refused(tmp_path, monkeypatch, old, new):
    users = tmp_path / "presets"
    users.mkdir()
    (users / "drives.toml").write_text(DRIVE.replace(old, new))
    monkeypatch.setenv("ARRAYPLANNER_PRESETS", str(users))
    monkeypatch.setattr(presets, "_CATALOG", None)
    key = old.split(" = ")[0]
    code, out, err = cli("check", users / "drives.toml")
    assert code == EXIT_INVALID and "drives.toml" in out and "[[drive]]" in out and key in out, (out, err)
    # a project that uses the drive: its check says why, and simulate refuses instead of dividing by 0
    d = hp()
    for drv in d["drives"]:
        drv["type_id"] = "my-scsi"
    path = write_json(tmp_path / "p.json", d)
    code, out, err = cli("check", path)
    assert code == EXIT_INVALID and "my-scsi" in out and key in out, out
    code, _, err = cli("simulate", path)
    assert code == EXIT_INVALID and "internal error" not in err, err


# ---------------------------------------------------------------- 13. only regular files, a size cap

@pytest.fixture
def fifo(tmp_path):
    def make(name: str) -> Path:
        path = tmp_path / name
        os.mkfifo(path)
        return path
    return make


@pytest.mark.parametrize("name", ["p.arrayplan", "p.json", "p.toml", "noext"])
def test_a_fifo_is_refused_not_waited_on(fifo, name):
    path = fifo(name)
    code, _, err = cli_process("check", path)
    refused(code, err, EXIT_UNREADABLE, name, "named pipe", "only regular files")


@pytest.mark.parametrize("command", ["check", "simulate", "report", "export-json"])
def test_a_json_symlink_to_dev_zero_is_refused(tmp_path, command):
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    argv = [command, link] + (["-o", tmp_path / "r.pdf"] if command == "report" else [])
    code, _, err = cli_process(*argv)
    refused(code, err, EXIT_UNREADABLE, "zero.json", "is a device")


@pytest.mark.parametrize("name", ["folder.arrayplan", "folder.json", "folder.toml"])
def test_a_folder_is_refused(tmp_path, name):
    (tmp_path / name).mkdir()
    refused(*cli("check", tmp_path / name)[::2], EXIT_UNREADABLE, name, "folder")


def test_a_json_file_over_the_cap_is_refused_unread(tmp_path):
    """A sparse file of 513 MB (no disk used): refused by its size, before a byte is read."""
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:
        fh.truncate(513 * 2**20)
    code, _, err = cli_process("check", path)
    refused(code, err, EXIT_UNREADABLE, "huge.json", "larger than 512 MB", "JSON project")


def test_the_cap_applies_to_what_is_read(tmp_path, monkeypatch):
    from app.store import project_file

    path = write_json(tmp_path / "p.json", hp())
    monkeypatch.setattr(project_file, "MAX_JSON_BYTES", path.stat().st_size - 1)
    refused(*cli("check", path)[::2], EXIT_UNREADABLE, "p.json", "larger than", "the limit for a JSON project")
    monkeypatch.setattr(project_file, "MAX_JSON_BYTES", path.stat().st_size)
    assert cli("check", path)[0] == EXIT_OK


def test_a_fifo_in_the_user_preset_folder_does_not_hang_the_start(tmp_path):
    users = tmp_path / "presets"
    users.mkdir()
    os.mkfifo(users / "stuck.toml")
    env_dir = str(users)
    done = subprocess.run([sys.executable, "-m", "app", "check", str(EXAMPLES / "hp-sa6402-raid5.json")],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "ARRAYPLANNER_PRESETS": env_dir})
    assert done.returncode == EXIT_OK, done.stderr
    assert "stuck.toml" in done.stdout and "named pipe" in done.stdout


@pytest.mark.parametrize("edit,words", [
    (lambda t: t.replace('"capacity_gb": 182', '"capacity_gb": 1' + "0" * 400), ("capacity_gb", "too large")),
    (lambda t: t.replace('"capacity_gb": 182', '"capacity_gb": 1' + "0" * 5000), ("more than 4,300 digits",)),
    (lambda t: t.replace('"capacity_gb": 182', '"capacity_gb": NaN'), ("capacity_gb", "finite")),
])
def test_numbers_no_float_holds_are_refused(tmp_path, edit, words):
    path = tmp_path / "p.json"
    path.write_text(edit(json.dumps(hp())))
    refused(*cli("check", path)[::2], EXIT_UNREADABLE, "p.json", *words)


# ---------------------------------------------------------------- the GUI's open path

def test_the_gui_refuses_a_fifo_and_a_deep_file_with_a_message(qtbot, tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tests" / "gui"))
    from PySide6.QtWidgets import QMessageBox
    from configurator_support import make_window, settle

    w = make_window(qtbot)
    settle(qtbot)
    title = w.windowTitle()
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    pipe = tmp_path / "pipe.arrayplan"
    os.mkfifo(pipe)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    for path, words in ((pipe, "named pipe"), (deep, "nest")):
        shown.clear()
        assert not w.files.load(path)
        assert len(shown) == 1 and path.name in shown[0] and words in shown[0], shown
        assert w.windowTitle() == title


# ---------------------------------------------------------------- fuzz

_ODD_NUMBERS = [-1, 0, 2**63, -(2**63) - 1, 10**30, 1e308, -1e308, 1e-320, 0.5, 1e400 * 0, 1e400, 7, 1e6]
_ODD_TEXTS = ["", "x" * 300, "\ud800", "0_0_0", "R5", "SPA", "Baseline", "op1", "High", "SATA"]
_ODD_VALUES = [None, True, [], {}, [[1]], {"a": {"b": 1}}, *_ODD_NUMBERS, *_ODD_TEXTS]


def _mutate(doc, rng: random.Random) -> None:
    """One random change somewhere in `doc`: a value replaced by an odd one (often of its own type,
    so that it passes the reader and meets the rules), a key deleted or a list item doubled."""
    node, parents = doc, []
    while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        parents.append((node, key))
        node = node[key]
    if not parents:
        return
    parent, key = parents[-1]
    what = rng.random()
    if what < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif what < 0.25 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[key]))
    elif what < 0.6 and isinstance(node, (int, float)) and not isinstance(node, bool):
        parent[key] = rng.choice(_ODD_NUMBERS)  # a number for a number: past the reader, to the rules
    elif what < 0.7 and isinstance(node, str):
        parent[key] = rng.choice(_ODD_TEXTS)
    else:
        parent[key] = copy.deepcopy(rng.choice(_ODD_VALUES))


EXAMPLE_DOCS = {p.stem: json.loads(p.read_text()) for p in sorted(EXAMPLES.glob("*.json"))}


def test_fuzzed_projects_never_give_an_internal_error(tmp_path):
    """Three hundred mutated example projects: check exits 0, 1 or 2, never 3; and what check
    calls valid saves (as .arrayplan and .json) and reads back."""
    rng = random.Random(21)
    valid = 0
    for seed in range(300):
        name = rng.choice(sorted(EXAMPLE_DOCS))
        doc = copy.deepcopy(EXAMPLE_DOCS[name])
        for _ in range(rng.randint(1, 3)):
            _mutate(doc, rng)
        path = tmp_path / "fuzz.json"
        path.write_text(json.dumps(doc, allow_nan=True))
        code, out, err = cli("check", "-q", path)
        assert code in (EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE), (seed, name, err)
        assert "internal error" not in err and "could not be fully checked" not in out, (seed, name, out, err)
        if code == EXIT_OK:
            valid += 1
            project = load_project(path)
            for suffix in (".arrayplan", ".json"):
                save_project(project, tmp_path / f"saved{suffix}")
                assert load_project(tmp_path / f"saved{suffix}") == project, (seed, name, suffix)
    assert valid > 20  # the mutations leave enough projects valid to test the saves


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path, node


def _embedded_platform_docs() -> dict[str, tuple[dict, dict]]:
    """Each example with its platform as an embedded snapshot (rate tables inline), parsed."""
    from app.store.presets import default_catalog
    from app.store.toml_write import platform_snapshot_text

    catalog = default_catalog()
    out = {}
    for name, doc in EXAMPLE_DOCS.items():
        snap = tomllib.loads(platform_snapshot_text(catalog.platforms[doc["platform_id"]]))
        snap["id"] = "fuzzed-" + snap["id"]
        out[name] = (doc, snap)
    return out


def test_a_rate_table_source_that_is_no_text_is_refused(tmp_path):
    """`source = 3` in a rate table reached the engine's advisories: TypeError, exit 3."""
    from app.store.toml_write import dumps

    doc, snap = _embedded_platform_docs()["emc-cx4-960-worked-examples"]
    snap["rates_inline"]["envelope"]["cache"]["source"] = 3
    path = write_json(tmp_path / "p.json", dict(doc, platform_id=snap["id"], platform_snapshot=dumps(snap)))
    refused(*cli("simulate", path)[::2], EXIT_UNREADABLE, "[envelope.cache] source must be text")


_ODD_PRESET_NUMBERS = [0, -1, 1e-320, 1e308, float("nan"), float("inf"), 10**30, 2**63, 0.5]


def test_fuzzed_embedded_platforms_never_give_an_internal_error(tmp_path):
    """A hundred and twenty examples whose embedded platform (its rate tables too) has one to
    three values changed, mostly numbers to zero, negative, tiny, huge, NaN: check exits 0, 1 or
    2; what it accepts, simulate runs without an internal error (no division by zero)."""
    from app.store.toml_write import dumps

    rng = random.Random(2112)
    bases = _embedded_platform_docs()
    simulated = 0
    for seed in range(120):
        name = rng.choice(sorted(bases))
        doc, snap = copy.deepcopy(bases[name][0]), copy.deepcopy(bases[name][1])
        leaves = list(_leaves(snap))
        numbers = [(p, v) for p, v in leaves if isinstance(v, (int, float)) and not isinstance(v, bool)]
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.8:
                at, new = rng.choice(numbers)[0], rng.choice(_ODD_PRESET_NUMBERS)
            else:
                at, new = rng.choice(leaves)[0], rng.choice(["", "x", [], {}, True, 3])
            node = snap
            for k in at[:-1]:
                node = node[k]
            node[at[-1]] = new
        path = write_json(tmp_path / "p.json", dict(doc, platform_id=snap["id"], platform_snapshot=dumps(snap)))
        code, out, err = cli("check", "-q", path)
        assert code in (EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE), (seed, name, err)
        assert "internal error" not in err and "could not be fully checked" not in out, (seed, name, out, err)
        if code == EXIT_OK and seed % 2 == 0:  # every other: range checks refuse more fuzz now
            code, _, err = cli("simulate", path)
            assert code == EXIT_OK, (seed, name, err)
            simulated += 1
    assert simulated >= 5


def test_a_lun_of_a_subnormal_capacity_is_refused_not_divided_by(tmp_path):
    """capacity_gb = 1e-320 was "positive": the rebuild time squared underflowed to 0 and the
    MTTDL divided by it (ZeroDivisionError, exit 3). The smallest LUN is now 1 MB."""
    d = json.loads((EXAMPLES / "netapp-fas-wafl.json").read_text())
    d["luns"][0]["capacity_gb"] = 1e-320
    path = write_json(tmp_path / "p.json", d)
    code, out, _ = cli("check", path)
    assert code == EXIT_INVALID and "the smallest LUN is 1 MB" in out, out
    code, _, err = cli("simulate", path)
    assert code == EXIT_INVALID and "internal error" not in err, err
    d["luns"][0]["capacity_gb"] = 1 / 1024
    assert cli("check", write_json(tmp_path / "p.json", d))[0] in (EXIT_OK, EXIT_INVALID)
    assert "smallest LUN" not in cli("check", tmp_path / "p.json")[1]
