"""The repository scripts that the GitHub workflows run, with the arguments they pass, read from
.github/workflows/*.yml (no YAML parser is installed: each `python SCRIPT ARGS` on a line, which
is how every step of ours calls one). For tests that run those commands or check their options."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
CALL = re.compile(r"\bpython3? ((?:packaging|scripts)/[\w/.-]+\.py)([^|;&#)\n]*)")
SHELL_SCRIPT = re.compile(r"(?<![\w/.-])\./((?:packaging|scripts)/[\w/.-]+\.(?:sh|ps1))")
EXPRESSION = re.compile(r"\$\{\{[^}]*\}\}")  # ${{ matrix.bundle }}: filled in by GitHub


def script_calls(workflow: str) -> list[tuple[str, list[str]]]:
    """(script, its arguments) for each python call of a repository script in `workflow` (a
    file name in .github/workflows/); a GitHub expression argument becomes "${{}}"."""
    text = (WORKFLOWS / workflow).read_text(encoding="utf-8")
    calls = []
    for m in CALL.finditer(text):
        args = shlex.split(EXPRESSION.sub("${{}}", m.group(2)))
        calls.append((m.group(1), args))
    return calls


def shell_scripts(workflow: str) -> set[str]:
    return set(SHELL_SCRIPT.findall((WORKFLOWS / workflow).read_text(encoding="utf-8")))
