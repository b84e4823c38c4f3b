"""scripts/check_commits.py (subject <= 72 characters, a body for non-merge commits) on a range of
real commits, and the commit-msg hook that `./scripts/dev setup --hooks` installs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import check_commits  # noqa: E402

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid", "GIT_CONFIG_NOSYSTEM": "1"}

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, **GIT_ENV, HOME=str(repo.parent))
    return subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args], cwd=repo,
                          env=env, capture_output=True, text=True, check=check)


def commit(repo: Path, message: str, name: str) -> str:
    (repo / name).write_text(name)
    git(repo, "add", name)
    git(repo, "commit", "-q", "--no-verify", "-m", message)
    return git(repo, "rev-parse", "HEAD").stdout.strip()


@pytest.mark.parametrize("message, merge, expected", [
    ("Fix the thing\n\nBecause it was broken.", False, []),
    ("x" * 72 + "\n\nwhy", False, []),
    ("x" * 73 + "\n\nwhy", False, ["the subject is 73 characters (at most 72)"]),
    ("Fix the thing", False, ["there is no body (say why, below a blank line)"]),
    ("Fix the thing\n\n  \n", False, ["there is no body (say why, below a blank line)"]),
    ("Fix the thing\nwhy, with no blank line", False, ["the subject is not followed by a blank line"]),
    ("Merge branch 'x'", True, []),
    ("", False, ["the subject line is empty"]),
])
def test_problems(message, merge, expected):
    assert check_commits.problems(message, merge) == expected


def test_editor_file_comments_and_the_scissors_are_not_the_message():
    text = "Subject\n# a comment\n\nBody line\n# ------------------------ >8 ------------------------\ndiff --git\n"
    assert check_commits.message_from_editor_file(text) == "Subject\n\nBody line"


def test_a_range_of_commits(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    base = commit(repo, "old history that is not checked, with a very long subject line way past 72", "a")
    commit(repo, "Good subject\n\nA body that says why.", "b")
    git(repo, "checkout", "-q", "-b", "side")
    long_one = commit(repo, "S" * 80 + "\n\nbody", "c")
    git(repo, "checkout", "-q", "main")
    no_body = commit(repo, "No body here", "d")
    git(repo, "merge", "-q", "--no-ff", "--no-verify", "-m", "Merge branch 'side'", "side")
    script = [sys.executable, str(ROOT / "scripts" / "check_commits.py")]
    r = subprocess.run([*script, f"{base}..HEAD"], cwd=repo, capture_output=True, text=True)
    assert r.returncode == 1, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2, lines  # the merge needs no body; the base is not checked
    assert lines[0].startswith(long_one[:10]) and "80 characters (at most 72)" in lines[0]
    assert lines[1].startswith(no_body[:10]) and "no body" in lines[1]
    assert "4 commits checked, 2 with a problem" in r.stderr
    ok = subprocess.run([*script, f"{base}..{base}~0"], cwd=repo, capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout == ""
    good = subprocess.run([*script, f"{base}..main~1~1"], cwd=repo, capture_output=True, text=True)
    assert good.returncode == 0, good.stdout
    bad_range = subprocess.run([*script, "nosuchbase..HEAD"], cwd=repo, capture_output=True, text=True)
    assert bad_range.returncode == 2 and bad_range.stderr.startswith("check_commits: git log")


def test_the_hook_installed_by_dev_setup_refuses_a_bad_message(tmp_path):
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "dev", repo / "scripts" / "dev")
    shutil.copy(ROOT / "scripts" / "check_commits.py", repo / "scripts" / "check_commits.py")
    (repo / "scripts" / "setup.sh").write_text("#!/bin/sh\nexit 0\n")  # the rest of the set-up: not here
    os.chmod(repo / "scripts" / "setup.sh", 0o755)
    git(repo, "init", "-q")
    env = dict(os.environ, **GIT_ENV, HOME=str(tmp_path))
    r = subprocess.run(["bash", "scripts/dev", "setup", "--hooks"], cwd=repo, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    hook = repo / ".git" / "hooks" / "commit-msg"
    assert os.access(hook, os.X_OK), r.stderr
    (repo / "f").write_text("1")
    git(repo, "add", "f")
    refused = git(repo, "commit", "-q", "-m", "no body", check=False)
    assert refused.returncode != 0 and "there is no body" in refused.stdout + refused.stderr
    accepted = git(repo, "commit", "-q", "-m", "A subject\n\nand a body", check=False)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    # a hook of another origin is left alone
    hook.write_text("#!/bin/sh\nexit 0\n")
    r = subprocess.run(["bash", "scripts/dev", "setup", "--hooks"], cwd=repo, env=env, capture_output=True, text=True)
    assert r.returncode == 0 and "left alone" in r.stderr and hook.read_text() == "#!/bin/sh\nexit 0\n"
