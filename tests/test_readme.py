"""Every command the README (and the other user and developer pages) shows
works as written.

The shell lines of the pages' code blocks are split at ``&&``; each part is
run or named as one that is not run here:

- ``mille ...`` runs the installed mille with ``--plain`` added, empty
  standard input and a private XDG_STATE_HOME (the line mode prints the
  first turn and keeps the game at the end of the input);
- ``python -m ...`` and ``python bench/...`` run with ``--help`` in place of
  their arguments (they would start a long run);
- set-up and test commands (``python3 -m venv``, ``.``, ``pip``, ``pipx``,
  ``pytest``, ``mypy``) are not run here; .ci/run runs the README's.

A command fails on a non-zero exit or on an error line in its output
(``mille: ...`` on standard error, ``Traceback``, ``error``).
"""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = ("README.md", "CONTRIBUTING.md", "docs/benchmarks.md", "docs/architecture.md")
FIRST_WORDS = {
    "mille",
    "python",
    "python3",
    "pip",
    "pipx",
    "pytest",
    "mypy",
    ".",
    "MILLE_BSD_TRACES",
}
NOT_RUN = re.compile(r"^(python3? -m venv |\. |pip |pipx |pytest|mypy |MILLE_BSD_TRACES=)")
ERROR = re.compile(r"Traceback|\berror\b", re.IGNORECASE)
REFUSAL = re.compile(r"^mille: ", re.MULTILINE)  # on standard error (the line mode's
#                                                  first line on stdout starts so too)


def shell_lines(text: str) -> list[str]:
    """The command lines of a page's code blocks (indented or fenced)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not (fenced or line.startswith("    ")):
            continue
        command = re.sub(r"\s+#.*$", "", line).strip()
        if command.split(" ", 1)[0] in FIRST_WORDS:
            lines.append(command)
    return lines


def commands() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for page in PAGES:
        path = ROOT / page
        if path.exists():
            for line in shell_lines(path.read_text()):
                found.extend((page, part.strip()) for part in line.split("&&"))
    return found


COMMANDS = commands()


def test_the_readme_shows_commands_of_each_kind() -> None:
    shown = [command for page, command in COMMANDS if page == "README.md"]
    assert any(c.startswith("mille --rules classic") for c in shown)
    assert any(c.startswith("mille --rules milebymile") for c in shown)
    assert "mille" in shown
    assert any(c.startswith("pip install -e '.[test]'") for c in shown)


def test_the_readme_set_up_commands_make_a_venv_first() -> None:
    """PEP 668: a system Python refuses ``pip install``; both set-up lines
    make and activate a venv before installing."""
    text = (ROOT / "README.md").read_text()
    venv = "python3 -m venv .venv && . .venv/bin/activate && "
    assert venv + "pip install . && mille" in text
    assert venv + "pip install -e '.[test]' && pytest" in text


def _mille() -> str:
    here = pathlib.Path(sys.executable).parent / ("mille.exe" if os.name == "nt" else "mille")
    if not here.exists():
        pytest.skip("mille is not installed next to this Python")
    return str(here)


@pytest.mark.parametrize(
    ("page", "command"), COMMANDS, ids=[f"{page}: {command}" for page, command in COMMANDS]
)
def test_the_command_works(page: str, command: str, tmp_path: pathlib.Path) -> None:
    if NOT_RUN.match(command):
        return  # set-up and test commands: .ci/run runs the README's
    words = shlex.split(command)
    if words[0] == "mille":
        argv = [_mille(), *words[1:], "--plain"]
    elif words[0] in ("python", "python3") and words[1] == "-m":
        argv = [sys.executable, "-m", words[2], "--help"]
    elif words[0] in ("python", "python3") and words[1].startswith("bench/"):
        argv = [sys.executable, str(ROOT / words[1]), "--help"]
    else:
        pytest.fail(f"{page}: a command this test does not know how to run: {command}")
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert not ERROR.search(output), output
    assert not REFUSAL.search(done.stderr), output
