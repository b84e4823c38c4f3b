"""Custom platforms described by data alone: a user platform, drive or rate table in the user
preset folder is checked key by key, with messages naming file, table and key; `check` passing
means the engine has every rate it reads; a broken user file never hides or breaks a built-in.

Each test starts from a mistake a new user made (docs/presets.md is the guide they followed)."""
from __future__ import annotations

import copy
import dataclasses
import json
import re
import tomllib
from pathlib import Path

import pytest

from app.domain import rate_keys
from app.domain.project import Scenario
from app.domain.validation import validate
from app.store import presets
from app.store.presets import PresetError, builtin_presets_dir, load_catalog, parse_platform, platform_from_text

ROOT = Path(__file__).resolve().parents[1]
PRESETS = builtin_presets_dir()
EMC = (PRESETS / "platforms" / "emc-cx4-960-r28.toml").read_text()
# the bus line as the preset writes it (a plain number or a {value, low, high} range)
BUS_LINE = re.search(r"^bus_mb_s = .*$", EMC, re.M).group(0)

FLARE28 = (PRESETS / "rates" / "clariion-flare28.toml").read_text()
DRIVE = ('[[drive]]\nid = "my-ssd"\nname = "My SSD"\ninterface = "SSD"\nrpm = 0\ncapacity_gb = 400\n'
         'seq_mb_s = 250\nrandom_ms = 0.2\nmttf_h = 2000000\nsource = "vendor datasheet"\n')


def user_platform(new_id: str = "my-cx4", text: str = EMC, **replace: str) -> str:
    text = text.replace('id = "emc-cx4-960-r28"', f'id = "{new_id}"')
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def load(tmp_path: Path, **files: str):
    for name, text in files.items():
        (tmp_path / f"{name}.toml").write_text(text)
    return load_catalog(PRESETS, user_dir=tmp_path)


def issues(platform, severity: str | None = None, code: str | None = None) -> list[str]:
    return [i.text for i in platform.preset_issues
            if (severity is None or i.severity == severity) and (code is None or i.code == code)]


def project_on(platform_id: str, example: str = "emc-cx4-960-worked-examples") -> dict:
    doc = json.loads((PRESETS / "examples" / f"{example}.json").read_text())
    doc["platform_id"] = platform_id
    doc.pop("platform_snapshot", None)
    return doc


def run_cli(monkeypatch, tmp_path: Path, user_dir: Path, *argv: str) -> tuple[int, str, str]:
    """The CLI with `user_dir` as the user preset folder (the catalog is loaded again)."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from app.cli import main

    monkeypatch.setenv("ARRAYPLANNER_PRESETS", str(user_dir))
    monkeypatch.setattr(presets, "_CATALOG", None)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


# ---------------------------------------------------------------- 1. rates the engine reads

def test_rates_without_host_fail_check_and_simulate_says_why(tmp_path, monkeypatch):
    users = tmp_path / "presets"
    users.mkdir()
    no_host = FLARE28.replace('rates_id = "clariion-flare28"', 'rates_id = "my-rates"')
    no_host = no_host[:no_host.index("[host]")] + no_host[no_host.index("[cache]"):]
    (users / "my-rates.toml").write_text(no_host)
    (users / "my-cx4.toml").write_text(user_platform(**{'rates = "clariion-flare28"': 'rates = "my-rates"'}))
    project = tmp_path / "p.json"
    project.write_text(json.dumps(project_on("my-cx4")))
    code, out, _ = run_cli(monkeypatch, tmp_path, users, "check", str(project))
    assert code == 1
    line = next(ln for ln in out.splitlines() if "max_util" in ln)
    assert line.startswith("error:") and "my-cx4.toml" in line and "my-rates.toml" in line and "[host]" in line
    code, _, err = run_cli(monkeypatch, tmp_path, users, "simulate", str(project))
    assert code == 1 and "internal error" not in err and "MissingRate" not in err
    assert "[host] is missing; the engine reads max_util" in err


def _covered(path: str) -> bool:
    """A path read by the engine ({...}: any segment) falls under a registry entry."""
    want = re.sub(r"\{[^}]*\}", "{}", path).split(".")
    for k in rate_keys.RATE_KEYS:
        for c in k.concrete():
            for have in (c.split("."), c.split(".") + ["<member>"] if k.kind == "keyed" else None):
                if have and len(have) == len(want) and all(
                        w == h or "{" in w or h.startswith("<") for w, h in zip(want, have)):
                    return True
    return False


def test_every_key_the_engine_reads_is_registered():
    """Every dotted string of a rate table's namespace in the engine (literal or f-string) falls
    under a registry entry."""
    engine = ROOT / "app" / "engine"
    # the operations (ops.py, op_*.py, run_index.py), the run (simulate.py and the modules split from it)
    modules = ["ops", "run_index", "simulate", "sim_state", "host_terms", "host_model", "host_solve", "placement",
               "placement_ctx", "results", "rates", "rebuild_model", "policy", "write_cost"]
    paths = [engine / f"{m}.py" for m in modules] + sorted(engine.glob("op_*.py"))
    src = "".join(path.read_text() for path in paths)
    tables = "|".join(sorted({k.path.split(".")[0] for k in rate_keys.RATE_KEYS if "." in k.path}))
    found = set(re.findall(rf"""f?["']((?:{tables})\.[\w.{{}}]+)["']""", src))
    assert len(found) > 50, found
    assert {"bind.zeroing.{key}", "rebuild.io.kb", "host.write_penalty.{raid}", "rebuild.engine_mb_s"} <= found
    missing = sorted(p for p in found if not _covered(p))
    assert missing == [], f"the engine reads keys the registry does not list: {missing}"
    assert all(_covered(c) for k in rate_keys.RATE_KEYS for c in k.concrete())
    assert not _covered("host.no_such_key")


def test_every_value_a_run_used_is_registered(catalog):
    """What the engine recorded as used (Result.assumptions) on every example falls under an entry."""
    from app.engine import simulate
    from app.store.examples import example_paths
    from app.store.project_file import load_project

    used = set()
    for path in example_paths():
        project = load_project(path)
        for sc in project.scenarios:
            used |= {a.path for a in simulate(project, catalog, sc.name).assumptions}
    assert len(used) > 40
    # [policy.*] values are the policies' own (app.domain.policies checks them), not registry keys
    owned = {p for p in used if p.split(".")[0] in rate_keys.RESERVED_TABLES}
    assert any(p.startswith("policy.") for p in owned)
    unregistered = sorted(p for p in used - owned if rate_keys.lookup(p) is None
                          and rate_keys.lookup(re.sub(r"\[\d+\]\.\w+$", "", p)) is None)
    assert unregistered == []


def test_shipped_rate_tables_pass_the_registry(catalog):
    for p in catalog.platforms.values():
        assert issues(p, "error") == [], p.id
        assert issues(p, code="unknown-rate-key") == [], p.id
        assert issues(p, code="bad-rate") == [], p.id


def _priority_scenarios(project, platform) -> None:
    """Add to `project` a copy of each scenario at every priority the platform offers for its
    operations: the engine reads other keys at ASAP than at Low."""
    extra = []
    for sc in project.scenarios:
        kinds = {e.kind for e in sc.events if hasattr(e, "priority")}
        for kind in kinds:
            for prio in platform.priorities(kind):
                events = [dataclasses.replace(e, priority=prio) if e.kind == kind else e for e in sc.events]
                extra.append(Scenario(f"{sc.name} @{kind}={prio}", events))
    project.scenarios = project.scenarios + extra


_EXAMPLE_FOR = {"clariion-flare28": [("emc-cx4-960-r28", "emc-cx4-960-worked-examples"),
                                     ("emc-cx4-960-r28", "emc-cx4-960-oltp")],
                "clariion-pre28": [("emc-cx4-960-pre28", "emc-cx4-960-worked-examples")],
                "smartarray-6402": [("hp-sa6402-msa30", "hp-sa6402-raid5")],
                "hitachi-usp": [("hitachi-usp600-ams500", "hitachi-usp600-tiers")],
                "dell-md32xx": [("dell-md3200", "dell-md3200-hpt")],
                "netapp-ontap": [("netapp-fas-ontap", "netapp-fas-wafl")],
                "dell-me5": [("dell-me5", "dell-me5-adapt")],
                "santricity": [("netapp-e5700", "netapp-e5700-ddp")],
                "linux-md": [("linux-md", "linux-md-server")]}
RATE_FILES = sorted((PRESETS / "rates").glob("*.toml"))


def _deletions(body: dict) -> list[tuple[str, ...]]:
    """Every leaf (and every column of the first row of a row table) as a path of keys."""
    out = []

    def walk(node, path):
        for k, v in node.items():
            if k in rate_keys.META_KEYS:
                continue
            if isinstance(v, dict) and "value" not in v:
                walk(v, path + (k,))
            elif isinstance(v, list) and v and isinstance(v[0], dict):
                out.append(path + (k,))
                out.extend(path + (k, 0, c) for c in v[0] if c not in rate_keys.META_KEYS)
            else:
                out.append(path + (k,))
    walk(body, ())
    return out


@pytest.mark.parametrize("rates_file", RATE_FILES, ids=[p.stem for p in RATE_FILES])
def test_deleting_any_rate_is_reported_or_harmless(rates_file, catalog):
    """Delete each key of a shipped rate table in turn: either check reports it (an error on the
    platform) or a simulation of the platform's example at every priority runs without a missing
    rate (no exception, no 'not predicted' advisory)."""
    from app.engine import simulate
    from app.store.project_json import project_from_dict

    doc = tomllib.loads(rates_file.read_text())
    rid = doc.pop("rates_id")
    cases = _EXAMPLE_FOR[rid]
    platform_docs = {pid: tomllib.loads((PRESETS / "platforms" / f"{pid}.toml").read_text()) for pid, _ in cases}
    projects = []
    for pid, example in cases:
        project = project_from_dict(project_on(pid, example))
        _priority_scenarios(project, catalog.platform(pid))
        projects.append((pid, project))
    reported = simulated = 0
    for path in _deletions(doc):
        body = copy.deepcopy(doc)
        node = body
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]
        for pid, project in projects:
            try:
                p = parse_platform(platform_docs[pid], {rid: body}, f"{pid}.toml", True, catalog.drives)
            except PresetError:  # refused by the loader (e.g. a [policy.*] table its owner rejects)
                reported += 1
                continue
            if issues(p, "error"):
                reported += 1
                continue
            cat = dataclasses.replace(catalog, platforms={**catalog.platforms, pid: p})
            generic = issues(p, code="generic-model")
            for sc in project.scenarios:
                result = simulate(project, cat, sc.name)
                bad = [a.text for a in result.advisories if a.code in ("no-rates", "no-rebuild-rates")]
                assert generic or not bad, f"{rid}: without {'.'.join(map(str, path))} check passed but: {bad}"
            simulated += 1
    assert reported > 0 and simulated > 0, (reported, simulated)
    print(f"{rid}: {reported} deletions reported by check, {simulated} simulated")


def test_rates_with_an_unknown_key_and_a_wrong_type_say_so(tmp_path):
    over = ('\n[rates_override.rebuild.io]\nkbs = { value = 512, source = "lab" }\n'
            '[rates_override.host]\nmax_util = { value = 1.5, source = "lab" }\n')
    cat = load(tmp_path, mine=user_platform() + over)
    mine = cat.platform("my-cx4")
    typo = issues(mine, "warning", "unknown-rate-key")
    assert any("[rebuild.io] 'kbs'" in t and "'kb'" in t for t in typo), typo
    bad = issues(mine, "error", "bad-rate")
    assert any("[host] max_util 1.5 is out of range" in t and "mine.toml" in t for t in bad), bad


def test_a_level_without_a_policy_table_is_an_error(tmp_path):
    """The engine does not run a level the policy tables leave out at another level (it reports
    unknown-priority): check says so before a run."""
    text = FLARE28.replace('rates_id = "clariion-flare28"', 'rates_id = "r2"')
    start = text.index("[policy.rebuild.High]")
    text = text[:start] + text[text.index("[policy.rebuild.ASAP]"):]
    cat = load(tmp_path, r2=text, mine=user_platform(**{'rates = "clariion-flare28"': 'rates = "r2"'}))
    errors = issues(cat.platform("my-cx4"), "error", "missing-rate")
    assert any("[policy.rebuild] has no 'High' table" in t and "r2.toml" in t for t in errors), errors
    assert len(errors) == 1, errors


def test_a_missing_member_uses_the_nearest_with_a_warning(catalog):
    """A keyed table (read with a fallback) without the member a platform's RAID level needs: the
    warning names the member used instead (Hitachi's efficiencies have no R1: the first, R5)."""
    near = issues(catalog.platform("hitachi-usp600-ams500"), "warning", "nearest-rate")
    assert any("[migration.read_eff] has no 'R0', 'R1'" in t and "'R5'" in t for t in near), near


# ---------------------------------------------------------------- 2. unknown drive ids

def test_unknown_drive_id_is_reported_with_the_nearest(tmp_path):
    cat = load(tmp_path, mine=user_platform(**{'"fc-15k-73", ': '"fc-15k-37", '}))
    found = issues(cat.platform("my-cx4"), "warning", "unknown-drive")
    assert len(found) == 1
    assert "mine.toml" in found[0] and "drive_types" in found[0] and "'fc-15k-37'" in found[0]
    assert "fc-15k-73" in found[0]  # the nearest known


def test_platform_issues_show_in_validation(tmp_path, catalog):
    from app.store.project_json import project_from_dict

    cat = load(tmp_path, mine=user_platform(**{'"fc-15k-73", ': '"fc-15k-37", '}))
    project = project_from_dict(project_on("my-cx4"))
    found = [i for i in validate(project, cat) if "fc-15k-37" in i.text]
    assert found and found[0].severity == "warning" and found[0].where == "project"


# ---------------------------------------------------------------- 3. enum fields list the valid values

@pytest.mark.parametrize("old,new,words", [
    ('interface = "SSD"', 'interface = "PATA"', ("'PATA'", "FC, SAS, SATA, SSD, SCSI, NVMe")),
    ('form_factor', None, ()),
])
def test_drive_enum_lists_valid_values(tmp_path, old, new, words):
    if new is None:
        text = DRIVE + 'form_factor = "huge"\n'
        words = ("form_factor", "2.5")
    else:
        text = DRIVE.replace(old, new)
    cat = load(tmp_path, drives=text)
    assert "my-ssd" not in cat.drives
    assert len(cat.problems) == 1 and all(w in cat.problems[0] for w in words), cat.problems
    assert "drives.toml" in cat.problems[0] and "[[drive]] 'my-ssd'" in cat.problems[0]


@pytest.mark.parametrize("old,new,words", [
    ('[raid.R6]', '[raid.R7]', ("[raid.R7]", "R0, R1, R1/0, R3, R5, R6, RAID-DP, R5/0, R6/0, dRAID6, DDP")),
    ('interfaces = ["FC", "SATA"]', 'interfaces = ["FC", "PATA"]', ("'PATA'", "FC, SAS, SATA, SSD, SCSI, NVMe")),
    ('[operations.bind]', '[operations.bnid]', ("'bnid'", "lun_migration, drive_failure, bind")),
    ('kind = "choice"', 'kind = "list"', ("kind 'list'", "int, float, bool, choice")),
])
def test_platform_enum_lists_valid_values(tmp_path, old, new, words):
    cat = load(tmp_path, mine=user_platform(**{old: new}))
    assert "my-cx4" not in cat.platforms
    assert len(cat.problems) == 1 and "mine.toml" in cat.problems[0], cat.problems
    for w in words:
        assert w in cat.problems[0], cat.problems


# ---------------------------------------------------------------- 4. a key below a table header

def test_key_after_a_table_header_is_named(tmp_path):
    text = user_platform().replace('rates = "clariion-flare28"\n', "")
    text = text.replace("[[controllers]]\n", '[[controllers]]\nrates = "clariion-flare28"\n', 1)
    cat = load(tmp_path, mine=text)
    assert "my-cx4" not in cat.platforms
    msg = cat.problems[0]
    assert "mine.toml" in msg and "'rates'" in msg and "inside table [[controllers]]" in msg
    assert "above the first table header" in msg


def test_optional_key_after_a_table_header_is_a_warning(tmp_path):
    text = user_platform().replace('vendor = "EMC"\n', "").replace("[back_end]\n", '[back_end]\nvendor = "EMC"\n')
    mine = load(tmp_path, mine=text).platform("my-cx4")
    found = issues(mine, "warning", "unknown-key")
    assert any("[back_end] holds 'vendor'" in t and "above the first table header" in t for t in found), found


def test_a_typo_in_a_platform_table_is_a_warning(tmp_path):
    mine = load(tmp_path, mine=user_platform(**{BUS_LINE: BUS_LINE + "\nbus_mbs = 800"})).platform("my-cx4")
    found = issues(mine, "warning", "unknown-key")
    assert any("[back_end] has 'bus_mbs'" in t and "'bus_mb_s'" in t for t in found), found


# ---------------------------------------------------------------- 5. where rates are looked for

def test_no_rates_message_names_both_folders(tmp_path):
    cat = load(tmp_path, mine=user_platform(**{'rates = "clariion-flare28"': 'rates = "clariion-flare29"'}))
    msg = cat.problems[0]
    assert "presets/rates/" in msg and str(tmp_path) in msg and "clariion-flare28" in msg  # known ids listed


def test_rates_in_the_user_folder_are_found(tmp_path):
    text = FLARE28.replace('rates_id = "clariion-flare28"', 'rates_id = "acme-flare30"')
    cat = load(tmp_path, acme=text, mine=user_platform(**{'rates = "clariion-flare28"': 'rates = "acme-flare30"'}))
    assert cat.problems == () and issues(cat.platform("my-cx4"), "error") == []


# ---------------------------------------------------------------- 6. every field in range

@pytest.mark.parametrize("old,new,words", [
    ("seq_mb_s = 250", "seq_mb_s = 0", ("seq_mb_s 0 is out of range", "more than 0 to 100,000 MB/s")),
    ('interface = "SSD"\nrpm = 0', 'interface = "FC"\nrpm = 0', ("rpm 0", "3,600 to 30,000", "SSD")),
    ("capacity_gb = 400", "capacity_gb = -1", ("capacity_gb -1 is out of range",)),
    ("random_ms = 0.2", 'random_ms = "fast"', ("random_ms must be a number",)),
    ('name = "My SSD"\n', "", ("missing 'name'",)),
])
def test_drive_fields_are_checked(tmp_path, old, new, words):
    cat = load(tmp_path, drives=DRIVE.replace(old, new))
    assert "my-ssd" not in cat.drives and len(cat.problems) == 1
    for w in words + ("drives.toml", "[[drive]]"):
        assert w in cat.problems[0], cat.problems


def test_one_bad_drive_does_not_lose_the_others(tmp_path):
    cat = load(tmp_path, drives=DRIVE + "\n" + DRIVE.replace("my-ssd", "bad").replace("seq_mb_s = 250", "seq_mb_s = 0"))
    assert "my-ssd" in cat.drives and "bad" not in cat.drives and len(cat.problems) == 1


@pytest.mark.parametrize("old,new,words", [
    (BUS_LINE, "bus_mb_s = 1e12", ("[back_end] bus_mb_s", "out of range", "100,000 MB/s")),
    ("buses = 8", "buses = 0", ("[back_end] buses 0 is out of range", "1 to 256")),
    ("cores = 4", "cores = 2.5", ("[[controllers]] #1", "cores must be a whole number")),
    ("slots = 15", "slots = -3", ("[[enclosure_types]] #1", "slots -3 is out of range")),
    ("[raid.R5]\nmin = 3", "[raid.R5]\nmin = 30", ("[raid.R5]", "min 30 is above max 16")),
    ("raid", 3, ("raid must be a table",)),
    ("controllers", [], ("controllers must be one or more [[controllers]] tables",)),
])
def test_platform_fields_are_checked(tmp_path, old, new, words):
    text = EMC.replace('id = "emc-cx4-960-r28"', 'id = "my-cx4"')
    if isinstance(new, str):
        assert old in text, old
        text = text.replace(old, new, 1)
    else:  # a whole table replaced by a value of the wrong type
        from app.store.toml_write import dumps

        doc = tomllib.loads(text)
        doc[old] = new
        text = dumps(doc)
    cat = load(tmp_path, mine=text)
    assert "my-cx4" not in cat.platforms and len(cat.problems) == 1, cat.problems
    for w in words + ("mine.toml",):
        assert w in cat.problems[0], cat.problems


def test_embedded_platform_with_a_bad_raid_table_is_a_preset_error(catalog):
    doc = tomllib.loads(EMC.replace('id = "emc-cx4-960-r28"', 'id = "snap"'))
    doc["raid"] = 3
    from app.store.toml_write import dumps

    with pytest.raises(PresetError, match="raid must be a table"):
        platform_from_text(dumps(doc), catalog)


def test_setting_default_outside_its_range_is_refused(tmp_path):
    text = user_platform()
    m = re.search(r"\[lun_settings\.(\w+)\][^\[]*?default = (\d+)", text)
    assert m, "the template has an int LUN setting"
    text = text.replace(m.group(0), m.group(0)[:-len(m.group(2))] + "-99999999")
    cat = load(tmp_path, mine=text)
    assert "my-cx4" not in cat.platforms and f"setting {m.group(1)}" in cat.problems[0], cat.problems


# ---------------------------------------------------------------- 7. generic model, borrowed tables

def test_operation_without_tables_warns_generic_model(tmp_path):
    text = user_platform() + ('\n[operations.reallocate]\npriorities = ["Normal"]\n'
                              'source = "assumption: test"\n')
    mine = load(tmp_path, mine=text).platform("my-cx4")
    found = issues(mine, "warning", "generic-model")
    assert len(found) == 1 and "reallocate" in found[0] and "[reallocate.*]" in found[0]
    assert issues(mine, "error") == []


def test_borrowed_rates_warn(tmp_path):
    mine = load(tmp_path, mine=user_platform(**{'family = "clariion"': 'family = "acme"'})).platform("my-cx4")
    found = issues(mine, "warning", "borrowed-rates")
    assert len(found) == 1 and "'acme'" in found[0] and "'clariion'" in found[0]
    emc = load(tmp_path).platform("emc-cx4-960-r28")
    assert issues(emc, code="borrowed-rates") == []


def test_shipped_generic_model_warnings_are_true(catalog):
    """Dell, Hitachi and NetApp offer drive_failure without rebuild tables: said, not hidden."""
    for pid in ("dell-md3200", "hitachi-usp600-ams500", "netapp-fas-ontap"):
        assert any("drive_failure" in t for t in issues(catalog.platform(pid), "warning", "generic-model")), pid
    for pid in ("emc-cx4-960-r28", "hp-sa6402-msa30"):
        assert issues(catalog.platform(pid), code="generic-model") == [], pid


# ---------------------------------------------------------------- broken user files never hide built-ins

@pytest.mark.parametrize("text", [
    "controllers = 3\nid = 'x'\n",
    "drive = 5\n",
    "[[drive]]\nid = 7\n",
    'rates_id = "clariion-flare28"\n[host]\nmax_util = { value = "high", source = "me" }\n',
    'rates_id = 5\n',
    'id = "emc-cx4-960-r28"\nname = "broken"\n[[controllers]]\nname = 3\n',
    "\x00\x01 not text",
])
def test_a_malformed_user_file_is_skipped(tmp_path, text, catalog):
    (tmp_path / "bad.toml").write_bytes(text.encode("latin-1"))
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert len(cat.problems) == 1 and "bad.toml" in cat.problems[0], cat.problems
    assert set(cat.platforms) == set(catalog.platforms)
    emc = cat.platform("emc-cx4-960-r28")
    assert emc.builtin and emc.rates.param("host.max_util").value == 0.97 and issues(emc, "error") == []


def test_user_rates_that_would_break_a_builtin_are_not_used_for_it(tmp_path):
    no_host = FLARE28[:FLARE28.index("[host]")] + FLARE28[FLARE28.index("[cache]"):]
    cat = load(tmp_path, mine=no_host)
    emc = cat.platform("emc-cx4-960-r28")
    assert issues(emc, "error") == [] and emc.rates.has("host.max_util")
    assert any("mine.toml" in p and "max_util" in p for p in cat.problems), cat.problems


def test_a_user_platform_with_errors_does_not_replace_the_builtin(tmp_path):
    text = EMC.replace('name = "EMC CLARiiON CX4-960 (FLARE 28)"', 'name = "Mine"')
    text += '\n[rates_override.host]\nmax_util = { value = 7, source = "me" }\n'
    cat = load(tmp_path, mine=text)
    assert cat.platform("emc-cx4-960-r28").name != "Mine"
    assert any("built-in one is kept" in p for p in cat.problems), cat.problems


# ---------------------------------------------------------------- the guide

def _doc() -> str:
    return (ROOT / "docs" / "presets.md").read_text()


def test_docs_list_every_registered_key():
    doc = _doc()
    assert rate_keys.markdown_table() in doc, "docs/presets.md: regenerate the rate key table (see its comment)"
    assert rate_keys.markdown_fields() in doc, "docs/presets.md: regenerate the field table"
    for k in rate_keys.RATE_KEYS:
        assert f"`{k.path}`".replace("|", "\\|") in doc


def test_the_worked_example_passes_check(tmp_path, monkeypatch):
    """The custom platform of docs/presets.md, copied as a user would, loads without errors and a
    project on it checks and simulates."""
    blocks = re.findall(r"<!-- worked-example: (\S+) -->\n```toml\n(.*?)```", _doc(), re.S)
    assert {name for name, _ in blocks} >= {"acme-drives.toml", "acme-cx4-480.toml"}
    users = tmp_path / "presets"
    users.mkdir()
    for name, text in blocks:
        (users / name).write_text(text)
    cat = load_catalog(PRESETS, user_dir=users)
    assert cat.problems == ()
    mine = cat.platform("acme-cx4-480")
    assert issues(mine, "error") == [] and issues(mine, "warning") == [], mine.preset_issues
    proj = project_on("acme-cx4-480")
    project = tmp_path / "acme.json"
    project.write_text(json.dumps(proj))
    code, out, err = run_cli(monkeypatch, tmp_path, users, "check", str(project))
    assert code == 0, out + err
    code, out, err = run_cli(monkeypatch, tmp_path, users, "simulate", str(project))
    assert code == 0, err



def _worked_example(users: Path, extra: str = "", **replace: str) -> None:
    """The docs' worked example (Acme CX4-480) in `users`, its platform changed as given."""
    for name, text in re.findall(r"<!-- worked-example: (\S+) -->\n```toml\n(.*?)```", _doc(), re.S):
        if name == "acme-cx4-480.toml":
            for old, new in replace.items():
                assert old in text, old
                text = text.replace(old, new)
            text += extra
        (users / name).write_text(text)


def _rebuild_mb_s(monkeypatch, tmp_path, users, scenario: str, priority: str | None = None,
                  renamed: dict | None = None) -> float:
    """The rebuild phase's average MB/s of the worked-examples project's `scenario` on the
    Acme platform, through `arrayplanner check` and `simulate --json` (the user's path); the
    rebuilds' levels `renamed` (old: new) first, the scenario's at `priority`."""
    proj = project_on("acme-cx4-480")
    proj["current_scenario"] = scenario
    for sc in proj["scenarios"]:
        for ev in sc["events"]:
            if ev["kind"] == "drive_failure" and renamed:
                ev["priority"] = renamed.get(ev["priority"], ev["priority"])
    if priority:
        next(sc for sc in proj["scenarios"] if sc["name"] == scenario)["events"][0]["priority"] = priority
    project = tmp_path / "acme.json"
    project.write_text(json.dumps(proj))
    code, out, err = run_cli(monkeypatch, tmp_path, users, "check", str(project))
    assert code == 0, out + err
    code, out, err = run_cli(monkeypatch, tmp_path, users, "simulate", "--json", str(project))
    assert code == 0, err
    op = json.loads(out)["operations"][0]
    return next(ph["avg_mb_s"] for ph in op["phases"] if ph["name"] == "rebuild")


def test_a_rebuild_engine_cap_from_the_data_alone(tmp_path, monkeypatch):
    """Issue 20 (custom platforms, 'missing policies seen in the field'): a controller's
    rebuild-engine cap is a rate key (`rebuild.engine_mb_s`), set in a platform's
    [rates_override]: the ASAP rebuild is held to it, and `check` names a cap out of range."""
    users = tmp_path / "presets"
    users.mkdir()
    _worked_example(users)
    free = _rebuild_mb_s(monkeypatch, tmp_path, users, "Rebuild ASAP")
    assert free > 10.0
    cap = '\n[rates_override.rebuild]\nengine_mb_s = { value = 5, source = "lab: the rebuild engine" }\n'
    _worked_example(users, cap)
    assert _rebuild_mb_s(monkeypatch, tmp_path, users, "Rebuild ASAP") == pytest.approx(5.0, rel=1e-3)
    _worked_example(users, cap.replace("value = 5", "value = 0"))
    code, out, _ = run_cli(monkeypatch, tmp_path, users, "check", str(users / "acme-cx4-480.toml"))
    assert code == 1
    line = next(ln for ln in out.splitlines() if "engine_mb_s" in ln)
    assert line.startswith("error:") and "acme-cx4-480.toml" in line and "[rebuild]" in line and "out of range" in line


def test_a_platform_names_its_own_levels(tmp_path, monkeypatch):
    """Issue 20 (custom platforms): priorities are not hard-wired to Low/Medium/High/ASAP. A
    platform that calls its drive-failure levels Gentle, Steady, Brisk and ASAP, with a policy
    table per level in its own rate table, checks clean and runs each level at its own policy
    (slowest first); the old names are then unknown levels, an error in `check`."""
    users = tmp_path / "presets"
    users.mkdir()
    rates = FLARE28.replace('rates_id = "clariion-flare28"', 'rates_id = "acme-rates"')
    for old, new in (("Low", "Gentle"), ("Medium", "Steady"), ("High", "Brisk")):
        rates = rates.replace(f"[policy.rebuild.{old}", f"[policy.rebuild.{new}")
    (users / "acme-rates.toml").write_text(rates)
    _worked_example(users, **{
        'rates = "clariion-flare28"': 'rates = "acme-rates"',
        '[operations.drive_failure]\npriorities = ["Low", "Medium", "High", "ASAP"]\ndefault = "High"':
            '[operations.drive_failure]\npriorities = ["Gentle", "Steady", "Brisk", "ASAP"]\ndefault = "Brisk"',
        "[rates_override.policy.rebuild.High]": "[rates_override.policy.rebuild.Brisk]"})
    cat = load_catalog(PRESETS, user_dir=users)
    mine = cat.platform("acme-cx4-480")
    assert issues(mine, "error") == [] and issues(mine, "warning") == [], mine.preset_issues
    renamed = {"Low": "Gentle", "Medium": "Steady", "High": "Brisk"}
    rates_by_level = [_rebuild_mb_s(monkeypatch, tmp_path, users, "Rebuild High", level, renamed)
                      for level in ("Gentle", "Steady", "Brisk", "ASAP")]
    assert rates_by_level == sorted(rates_by_level) and len(set(rates_by_level)) == 4, rates_by_level
    assert rates_by_level[2] == pytest.approx(10.5)  # the worked example's measured Brisk (was High) rate
    proj = project_on("acme-cx4-480")  # its rebuilds are at High, Medium, Low and ASAP
    project = tmp_path / "old-names.json"
    project.write_text(json.dumps(proj))
    code, out, _ = run_cli(monkeypatch, tmp_path, users, "check", str(project))
    assert code == 1
    assert any(ln.startswith("error:") and "priority 'High' is not offered" in ln and "Gentle, Steady, Brisk, ASAP" in ln
               for ln in out.splitlines()), out


# ---------------------------------------------------------------- check PRESET.toml

def test_check_a_preset_file_directly(tmp_path, monkeypatch):
    """`arrayplanner check my-platform.toml`: the file need not be in the user folder."""
    users = tmp_path / "presets"
    users.mkdir()
    mine = tmp_path / "elsewhere.toml"
    mine.write_text(user_platform(**{'"fc-15k-73", ': '"fc-15k-37", '}))
    code, out, _ = run_cli(monkeypatch, tmp_path, users, "check", str(mine))
    assert code == 0 and "warning: platform my-cx4:" in out and "fc-15k-37" in out
    assert out.strip().splitlines()[-1].endswith("valid preset (platform 'my-cx4'): 0 errors, 1 warning")
    mine.write_text(user_platform(**{BUS_LINE: "bus_mbs = 400"}))
    code, out, _ = run_cli(monkeypatch, tmp_path, users, "check", str(mine))
    assert code == 1 and "missing 'bus_mb_s'" in out and "'bus_mbs': a typo?" in out
    rates = users / "acme.toml"
    rates.write_text(FLARE28.replace('rates_id = "clariion-flare28"', 'rates_id = "acme"').replace(
        "[host]", "[hots]"))
    (users / "mine.toml").write_text(user_platform(**{'rates = "clariion-flare28"': 'rates = "acme"'}))
    code, out, _ = run_cli(monkeypatch, tmp_path, users, "check", str(rates))
    assert code == 1 and "[host] is missing" in out and "platform my-cx4" in out
    assert "[hots] is not a table the engine reads (did you mean [host]" in out
    code, _, err = run_cli(monkeypatch, tmp_path, users, "check", str(tmp_path / "nope.toml"))
    assert code == 2 and "no such file" in err


def test_rates_against_physics(tmp_path, catalog):
    over = ('\n[rates_override.policy.rebuild.High]\nmb_s = { value = 1.0, source = "lab" }\n'
            '[rates_override.policy.bind.High]\nmb_s = { value = 200.0, source = "lab" }\n')
    mine = load(tmp_path, mine=user_platform() + over).platform("my-cx4")
    order = issues(mine, "warning", "priority-order")
    assert any("[policy.rebuild] High mb_s = 1 is below Medium mb_s = 6.1" in t for t in order), order
    bad = issues(mine, "error", "bad-rate")
    assert any("[policy.bind.High] mb_s = 200 MB/s is not below [bind.zeroing] FC = 170.7" in t for t in bad), bad
    assert not any("SATA" in t for t in bad), bad  # sata_mb_s 7.47 is below SATA zeroing
    for shipped in catalog.platforms.values():
        assert issues(shipped, code="priority-order") == [], shipped.id


def test_a_project_on_a_refused_preset_is_told_why(tmp_path):
    from app.store.project_json import project_from_dict

    bad_drive = DRIVE.replace("seq_mb_s = 250", "seq_mb_s = 0")
    cat = load(tmp_path, drives=bad_drive, mine=user_platform(**{"buses = 8": "buses = 0"}))
    text = " ".join(i.text for i in validate(project_from_dict(project_on("my-cx4")), cat))
    assert "'my-cx4' was not loaded from the user presets" in text and "buses 0 is out of range" in text
    doc = project_on("emc-cx4-960-r28")
    first = next(iter(doc["drives"])) if isinstance(doc["drives"], dict) else 0
    if isinstance(doc["drives"], dict):
        doc["drives"][first]["type_id"] = "my-ssd"
    else:
        doc["drives"][0]["type_id"] = "my-ssd"
    text = " ".join(i.text for i in validate(project_from_dict(doc), cat))
    assert "'my-ssd'" in text and "not loaded" in text and "seq_mb_s 0 is out of range" in text


def test_every_policy_kind_is_accepted_for_lun_migration(tmp_path, catalog):
    """LUN migration takes every policy kind (app/engine/op_policy.py): a duty_cycle level passes
    check and the engine predicts that migration (before: refused as not modelled)."""
    from app.engine import simulate
    from app.store.project_json import project_from_dict

    over = ('\n[rates_override.policy.migration.High]\nkind = "duty_cycle"\n'
            'duty = { value = 0.5, source = "lab" }\n')
    cat = load(tmp_path, mine=user_platform() + over)
    mine = cat.platform("my-cx4")
    assert issues(mine, "error") == [], issues(mine, "error")
    project = project_from_dict(project_on("my-cx4"))
    _priority_scenarios(project, mine)
    names = [sc.name for sc in project.scenarios if "lun_migration=High" in sc.name]
    assert names
    for name in names:
        res = simulate(project, cat, name)
        assert [a.text for a in res.advisories if a.code == "no-rates"] == []
        assert res.operation("op1").duration_h > 0


def test_an_operation_without_its_policy_table(tmp_path):
    """Rates without [policy.<op>]: a rebuild runs on the generic duty-cycle model (warned, as the
    engine's generic-model advisory); LUN migration and bind whose rates calibrate them need
    their table: an error naming it (tests/test_generic_ops.py: rates with none of their keys). A [policy] table is
    never an unknown key, and the old per-priority tables are reported as no longer read."""
    text = FLARE28.replace('rates_id = "clariion-flare28"', 'rates_id = "policies"')
    kept = []
    skip = False
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            skip = line.startswith(("[policy.migration.", "[policy.rebuild.", "[policy.bind."))
        if not skip:
            kept.append(line)
    bare = "".join(kept)
    cat = load(tmp_path, policies=bare, mine=user_platform(**{'rates = "clariion-flare28"': 'rates = "policies"'}))
    mine = cat.platform("my-cx4")
    errors = " ".join(issues(mine, "error"))
    assert "[policy.migration] is missing" in errors and "[policy.bind] is missing" in errors, errors
    assert "[policy.rebuild]" not in errors
    generic = issues(mine, "warning", "generic-model")
    assert len(generic) == 1 and "drive_failure" in generic[0] and "Low 25%" in generic[0], generic
    assert issues(mine, code="unknown-rate-key") == []
    legacy = bare + '\n[rebuild.economical]\nHigh = { value = 12.2, source = "emc Table 4" }\n'
    (tmp_path / "policies.toml").write_text(legacy)
    cat = load_catalog(PRESETS, user_dir=tmp_path)
    assert any("[rebuild.economical] is no longer read" in p for p in cat.problems), cat.problems
