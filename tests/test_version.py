"""The version lives in pyproject.toml; app/_version.py (read by the frozen app) must match it."""
from __future__ import annotations

import tomllib
from pathlib import Path

import app
from app._version import VERSION

ROOT = Path(__file__).resolve().parents[1]


def pyproject_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_version_file_matches_pyproject():
    assert VERSION == pyproject_version()


def test_package_version_matches():
    assert app.__version__ == pyproject_version()


def test_cli_prints_the_version(capsys):
    import pytest

    from app.cli import main

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"ArrayPlanner {pyproject_version()}"
