"""`arrayplanner report` end to end, in a subprocess without a display: every example project makes
a valid PDF whose text holds the engine's figures formatted as the GUI formats them; a project
with validation errors is refused in one line with exit 1."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.domain.capacity import capacity_summary
from app.domain.formatting import format_capacity, format_duration, format_mb, format_time

from conftest import EXAMPLE_IDS, EXAMPLE_PATHS, ROOT

pytestmark = [
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils"),
    pytest.mark.slow,
]


def headless_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["PYTHONPATH"] = str(ROOT)
    return env


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True,
                          env=headless_env(), cwd=ROOT, timeout=300)


def pdf_text(path: Path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"[ \t]+", " ", out)


def simulate_json(project_file: Path, scenario: str) -> dict:
    """What `arrayplanner simulate FILE --json` reports."""
    res = run_cli("simulate", str(project_file), "--scenario", scenario, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@pytest.mark.parametrize("example", EXAMPLE_PATHS, ids=EXAMPLE_IDS)
def test_every_example_makes_a_report(example, tmp_path):
    out = tmp_path / f"{example.stem}.pdf"
    res = run_cli("report", str(example), "-o", str(out))
    assert res.returncode == 0, res.stderr
    assert out.exists() and not list(tmp_path.glob("*.part"))
    info = subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True)
    assert info.returncode == 0, info.stderr
    pages = int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))
    assert pages >= 5
    text = pdf_text(out)
    assert f"Page {pages} of {pages}" in text
    if shutil.which("pdfimages"):  # all vectors: charts, the canvas, tables (sharp when printed)
        images = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True).stdout
        assert len(images.strip().splitlines()) <= 2, images[:500]

    from app.store.presets import default_catalog
    from app.store.project_file import catalog_for, load_project

    project = load_project(example)
    catalog = catalog_for(project, default_catalog())
    rows, total = capacity_summary(project, catalog)
    assert format_capacity(total.raw_gb) in text
    assert format_capacity(total.usable_gb) in text
    for r in rows:
        assert format_capacity(r.usable_gb) in text

    # a cell whose text is squeezed to fit ("8 d 3 h" in a narrow column) comes out of pdftotext
    # without its spaces: durations are looked up with the spaces taken out on both sides
    bare = re.sub(r"\s+", "", text)
    for scen in project.scenarios:
        data = simulate_json(example, scen.name)
        for op in data["operations"]:
            assert format_duration(op["duration_h"]).replace(" ", "") in bare, (scen.name, op["label"])
            assert format_time(op["start_h"]) in text
            for ph in op["phases"]:
                assert format_duration(ph["duration_h"]).replace(" ", "") in bare, (scen.name, op["label"], ph["name"])
                if ph["mb"]:
                    assert format_mb(ph["mb"]) in text
        for a in data["assumptions"]:
            assert a["path"] in text


def test_one_scenario_only(tmp_path):
    example = next(p for p in EXAMPLE_PATHS if p.stem == "emc-cx4-960-oltp")
    from app.store.project_file import load_project

    names = [s.name for s in load_project(example).scenarios]
    assert len(names) > 1
    out = tmp_path / "one.pdf"
    res = run_cli("report", str(example), "-o", str(out), "--scenario", names[1], "--charts", "response,cpu")
    assert res.returncode == 0, res.stderr
    text = pdf_text(out)
    assert f"Scenario \u201c{names[1]}\u201d" in text
    assert f"Scenario \u201c{names[0]}\u201d" not in text
    assert "Host response time (ms)" in text and "Back-end bus utilization" not in text


def test_validation_errors_refuse_in_one_line(tmp_path):
    example = next(p for p in EXAMPLE_PATHS if p.stem == "hp-sa6402-raid5")
    data = json.loads(example.read_text())
    data["groups"][0]["drives"] = data["groups"][0]["drives"][:2]  # a RAID 5 of two drives
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    out = tmp_path / "bad.pdf"
    res = run_cli("report", str(bad), "-o", str(out))
    assert res.returncode == 1
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert "no report" in lines[0] and "validation error" in lines[0] and "Traceback" not in res.stderr
    assert not out.exists()


def test_unknown_scenario_and_chart(tmp_path):
    example = EXAMPLE_PATHS[0]
    res = run_cli("report", str(example), "-o", str(tmp_path / "x.pdf"), "--scenario", "No such")
    assert res.returncode == 2 and "No such" in res.stderr
    res = run_cli("report", str(example), "-o", str(tmp_path / "x.pdf"), "--charts", "pie")
    assert res.returncode == 2 and "pie" in res.stderr
    assert not (tmp_path / "x.pdf").exists()
