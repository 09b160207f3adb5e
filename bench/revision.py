"""A git revision's code in a temporary worktree, for the benchmarks' ``--baseline``.

``--baseline REV`` takes anything git can name as a commit: a hash (full or
short), a branch, a tag, ``HEAD~3``.  A name git does not know is refused
with one line before anything is measured.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def resolve(rev: str) -> str:
    """The full hash of the commit ``rev`` names; exits with one line if none."""
    done = subprocess.run(
        [
            "git",
            "-C",
            ROOT,
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            f"{rev}^{{commit}}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.strip():
        prog = os.path.basename(sys.argv[0])
        sys.exit(
            f"{prog}: --baseline: no commit named {rev!r} in this repository "
            "(give a commit hash, a branch or a tag; `git log --oneline` lists commits)"
        )
    return done.stdout.strip()


@contextlib.contextmanager
def worktree(rev: str) -> Iterator[str]:
    """The code of commit ``rev`` checked out in a temporary directory."""
    commit = resolve(rev)
    with tempfile.TemporaryDirectory(prefix="mille-baseline-") as tmp:
        tree = os.path.join(tmp, "tree")
        subprocess.run(
            ["git", "-C", ROOT, "worktree", "add", "--detach", "-q", tree, commit], check=True
        )
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", tree], check=False)


def run(tree: str, code: str, *args: str) -> str:
    """Standard output of ``code`` run on the worktree's package; one line and
    exit if it fails there (an older layout that this measure cannot use)."""
    done = subprocess.run(
        [sys.executable, "-S", "-c", code, *args],
        env={**os.environ, "PYTHONPATH": tree},
        cwd=os.path.dirname(tree),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        prog = os.path.basename(sys.argv[0])
        sys.exit(f"{prog}: --baseline: that revision's code cannot be measured: {last}")
    return done.stdout
