#!/usr/bin/env python3
"""Check commit messages: a subject of at most 72 characters, then a blank line and a body that
says why (merge commits need no body).

    python3 scripts/check_commits.py BASE..HEAD        the commits of a push or pull request (CI)
    python3 scripts/check_commits.py --message-file F  one message being written (the commit-msg
                                                       hook: ./scripts/dev setup --hooks)

Past history is not rewritten: CI checks only the commits after a base. One line per problem on
stdout; exit 0 when every message is fine, 1 when one is not, 2 when git or the arguments fail.
Standard library only (it runs before any set-up).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MAX_SUBJECT = 72
SCISSORS = "------------------------ >8 ------------------------"


@dataclass
class Commit:
    sha: str
    message: str
    merge: bool


def problems(message: str, merge: bool = False) -> list[str]:
    """What is wrong with one commit message ([] when nothing is)."""
    lines = message.strip("\n").splitlines()
    subject = lines[0].rstrip() if lines else ""
    if not subject.strip():
        return ["the subject line is empty"]
    out = []
    if len(subject) > MAX_SUBJECT:
        out.append(f"the subject is {len(subject)} characters (at most {MAX_SUBJECT})")
    if len(lines) > 1 and lines[1].strip():
        out.append("the subject is not followed by a blank line")
    if not merge and not any(line.strip() for line in lines[1:]):
        out.append("there is no body (say why, below a blank line)")
    return out


def message_from_editor_file(text: str, comment_char: str = "#") -> str:
    """The message git will record from COMMIT_EDITMSG: comment lines and everything below the
    scissors line (`git commit -v`) removed, as git's default clean-up does."""
    kept = []
    for line in text.splitlines():
        if line.startswith(comment_char):
            if SCISSORS in line:
                break
            continue
        kept.append(line)
    return "\n".join(kept).strip("\n")


def git(*args: str, cwd: Path | None = None) -> str:
    proc = subprocess.run(["git", *args], capture_output=True, text=True, cwd=cwd)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {' '.join(proc.stderr.split()) or 'failed'}")
    return proc.stdout


def commits_in(revision_range: str, cwd: Path | None = None) -> list[Commit]:
    """The commits of `revision_range` (anything `git log` takes, e.g. BASE..HEAD), oldest first."""
    out = git("log", "--reverse", "--format=%H%x00%P%x00%B%x1e", revision_range, cwd=cwd)
    commits = []
    for record in out.split("\x1e"):
        record = record.lstrip("\n")
        if not record:
            continue
        sha, parents, message = record.split("\x00", 2)
        commits.append(Commit(sha, message, merge=len(parents.split()) > 1))
    return commits


def merging(cwd: Path | None = None) -> bool:
    """True while a merge is being committed (the commit-msg hook of `git merge`)."""
    return subprocess.run(["git", "rev-parse", "-q", "--verify", "MERGE_HEAD"], capture_output=True,
                          cwd=cwd).returncode == 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Check commit messages: subject <= 72 characters, a body.")
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("range", nargs="?", help="the commits to check, e.g. origin/main..HEAD")
    what.add_argument("--message-file", type=Path, help="check one message file (the commit-msg hook)")
    args = ap.parse_args(argv)
    try:
        if args.message_file is not None:
            text = args.message_file.read_text(encoding="utf-8", errors="replace")
            found = problems(message_from_editor_file(text), merge=merging())
            for p in found:
                print(f"commit message: {p}")
            if found:
                print(f"(the message is kept in {args.message_file}; `git commit -e -F {args.message_file}` edits it)")
            return 1 if found else 0
        bad = 0
        commits = commits_in(args.range)
        for commit in commits:
            found = problems(commit.message, commit.merge)
            subject = commit.message.strip().splitlines()[0] if commit.message.strip() else ""
            for p in found:
                print(f"{commit.sha[:10]} {subject[:50]!r}: {p}")
            bad += bool(found)
        print(f"{len(commits)} commits checked, {bad} with a problem", file=sys.stderr)
        return 1 if bad else 0
    except (OSError, RuntimeError) as exc:
        print(f"check_commits: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
