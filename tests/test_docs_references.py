"""The docs are true to the repository: every file, test (tests/x.py::test_name), script,
benchmark and module (app/x/y.py, app.x.y.name) that README.md or a docs/*.md names exists,
and no doc cites a file outside the repository (a reader of a clone has only the clone: a path
on the author's machine or in a sibling folder cannot be followed)."""
from __future__ import annotations

import ast
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
# the top-level folders whose files the docs name; a path starts with one of them
TOP = ("app", "tests", "scripts", "benchmarks", "packaging", "presets", "resources", "docs", ".github", ".ci")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*[\w/])(?:::(\w+)(\.\.\.)?)?" % "|".join(re.escape(t) for t in TOP))
# a script or module named without its folder: worker_job.py, `gui_latency.py --edits 40` (a name
# in capitals is a placeholder for a file of the reader's: LOOP.py)
BARE = re.compile(r"(?<![\w./-])([\w-]*[a-z][\w-]*\.(?:py|sh|ps1))\b")
# a test named without its file: `test_something` in code quotes
BARE_TEST = re.compile(r"`(test_\w+)`")
# a module or a name in it, dotted: app.domain.limits.MAX_EVENTS
DOTTED = re.compile(r"(?<![\w./-])(app\.(?:cli|domain|engine|service|store|ui|report)(?:\.\w+)*)")
# what is not in a clone: the author's machine (/work/..., /home/...), a sibling folder (../)
OUTSIDE = re.compile(r"(?<![\w.])(/work/\S*|/home/\S*|\.\./[\w./-]+|(?<!/)shared/(?:seeds|reference|design|tools)\S*)")
# named by the docs as what a script writes, never committed
GENERATED = {"resources/icons/app.iconset": "packaging/make_icons.py --iconset writes it on a Mac"}


@cache
def repository_files() -> frozenset[str]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return frozenset(out.splitlines())


@cache
def functions_of(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))


@cache
def every_test_name() -> frozenset[str]:
    return frozenset().union(*(functions_of(f) for f in repository_files()
                               if f.startswith("tests/") and f.endswith(".py") and Path(f).name.startswith("test_")))


def exists(rel: str) -> bool:
    rel = rel.rstrip("/").rstrip(".")
    if rel in GENERATED:
        return True
    files = repository_files()
    return rel in files or any(f.startswith(rel + "/") for f in files)


def references(doc: Path) -> list[tuple[int, str, str | None, bool]]:
    """(line number, path, test name or None, name is a prefix) of each repository path in `doc`."""
    found = []
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
        for m in PATH.finditer(line):
            path = m.group(1)
            if any(c in line[m.end(1):m.end(1) + 2] for c in "<*{"):
                continue  # a pattern (`presets/rates/<id>.toml`, `presets/rates/*.toml`), not a file
            found.append((number, path, m.group(2), bool(m.group(3))))
    return found


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_named_path_and_test_exists(doc):
    missing = []
    for number, path, test, prefix in references(doc):
        if not exists(path):
            missing.append(f"{doc.name}:{number}: {path} is not in the repository")
        elif test is not None:
            names = functions_of(path.rstrip("."))
            if not (any(n.startswith(test) for n in names) if prefix else test in names):
                missing.append(f"{doc.name}:{number}: {path} has no {test}")
    assert missing == []


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_named_file_and_test_name_exists(doc):
    """A file named without its folder (`worker_job.py`) or a test without its file is somewhere."""
    basenames = {Path(f).name for f in repository_files()}
    missing = []
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
        missing += [f"{doc.name}:{number}: no file {name}" for name in BARE.findall(line)
                    if name not in basenames]
        missing += [f"{doc.name}:{number}: no test {name}" for name in BARE_TEST.findall(line)
                    if name not in every_test_name()]
    assert missing == []


def dotted_problem(name: str) -> str | None:
    """Why `name` (app.x.y[.attribute]) names nothing, or None: its longest prefix that is a
    module or package must define the next part (a function, class or constant at its top)."""
    parts = name.split(".")
    files = repository_files()
    for n in range(len(parts), 0, -1):
        base = "/".join(parts[:n])
        module = next((f for f in (base + ".py", base + "/__init__.py") if f in files), None)
        if module is None:
            continue
        if n == len(parts):
            return None
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))}
        defined |= {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
        defined |= {(a.asname or a.name).split(".")[0] for node in tree.body
                    if isinstance(node, (ast.Import, ast.ImportFrom)) for a in node.names}
        return None if parts[n] in defined else f"{module} defines no {parts[n]}"
    return "no such module"


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_every_dotted_module_name_exists(doc):
    problems = [f"{doc.name}:{number}: {name}: {why}"
                for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1)
                for name in DOTTED.findall(line) if (why := dotted_problem(name.rstrip("."))) is not None]
    assert problems == []


@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_no_doc_cites_a_file_outside_the_repository(doc):
    outside = [f"{doc.name}:{number}: {m}"
               for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1)
               for m in OUTSIDE.findall(line)]
    assert outside == []


def test_the_checks_see_what_they_look_for(tmp_path):
    """The patterns catch a missing file, a missing test and a path outside the repository."""
    doc = tmp_path / "x.md"
    doc.write_text("see tests/test_store.py::test_no_such_thing and scripts/no_such.py,\n"
                   "`benchmarks/engine.py --repeat 3`, presets/rates/<id>.toml, and ../shared/seeds/a.pdf\n",
                   encoding="utf-8")
    refs = references(doc)
    assert [(p, t) for _, p, t, _ in refs] == [("tests/test_store.py", "test_no_such_thing"),
                                              ("scripts/no_such.py", None), ("benchmarks/engine.py", None)]
    assert exists("tests/test_store.py") and not exists("scripts/no_such.py")
    assert "test_no_such_thing" not in functions_of("tests/test_store.py")
    assert OUTSIDE.findall(doc.read_text(encoding="utf-8")) == ["../shared/seeds/a.pdf"]
    assert dotted_problem("app.domain.limits.MAX_EVENTS") is None
    assert dotted_problem("app.domain.limits.NO_SUCH") == "app/domain/limits.py defines no NO_SUCH"
    assert dotted_problem("app.domain.no_such_module") == "app/domain/__init__.py defines no no_such_module"


def test_development_doc_describes_every_screenshot_option():
    """docs/development.md says what each option of app.ui.screenshot does and which dialogs
    --dialog opens: an option or a dialog added without a word in the doc fails here."""
    pytest.importorskip("PySide6")
    from app.ui.new_user_dialogs import OPENERS
    from app.ui.screenshot import build_parser

    text = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    heading = "## Screenshots (app/ui/screenshot.py)"
    assert heading in text, f"docs/development.md has no section {heading!r}"
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    options = [o for a in build_parser()._actions for o in a.option_strings if o.startswith("--") and o != "--help"]
    assert {"--size", "--dialog", "--run", "--file"} <= set(options)
    missing = [o for o in options if f"`{o}" not in section]
    missing += [n for n in OPENERS if f"`{n}`" not in section]
    assert not missing, f"docs/development.md, Screenshots: not described: {missing}"
