"""An issue's one-line form names its object once: 'error: LUN 0 has capacity ...', not
'error: LUN 0: LUN 0 has capacity ...' (the CLI, the report dialog); an object its text does not
name keeps the prefix ('RG 3: ...')."""
from __future__ import annotations

from app.domain.validation import ERROR, Issue, validate
from app.store.examples import example_path
from app.store.project_file import load_project


def _errors(project, catalog) -> list[str]:
    return [str(i) for i in validate(project, catalog) if i.severity == ERROR]


def test_lun_and_workload_errors_name_their_object_once(catalog):
    p = load_project(example_path("emc-cx4-960-oltp"))
    p.luns[0].capacity_gb = -5.0
    p.workloads[0].iops = -100.0
    lines = _errors(p, catalog)
    lun = f"LUN {p.luns[0].id}"
    wid = p.workloads[0].id
    assert f"error: {lun} has capacity -5.0; it must be a positive number of GB" in lines, lines
    assert f"error: workload '{wid}': IOPS -100.0 must be zero or a positive number" in lines, lines
    assert not [line for line in lines if f"{lun}: {lun}" in line or f"workload {wid}: workload" in line], lines


def test_an_object_the_text_does_not_name_keeps_its_prefix():
    assert str(Issue(ERROR, "RG 3", "RAID 5 takes 3 to 16 drives, it has 2")) == "error: RG 3: RAID 5 takes 3 to 16 drives, it has 2"
    assert str(Issue(ERROR, "LUN 1", "LUN 12 does not exist")) == "error: LUN 1: LUN 12 does not exist"  # another LUN
    assert str(Issue(ERROR, "", "validation failed")) == "error: validation failed"
