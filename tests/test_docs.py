"""The man page and the README say what they must."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_man_page_renders_without_warnings() -> None:
    run = subprocess.run(
        ["groff", "-mandoc", "-Tutf8", "-ww", "-z", str(ROOT / "mille.6")],
        capture_output=True, text=True,
    )
    assert run.returncode == 0 and run.stderr == ""


def test_man_page_sections() -> None:
    text = (ROOT / "mille.6").read_text()
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "CARDS", "RULES", "SCORING",
                    "FILES", "EXIT STATUS"):
        assert f".Sh {section}\n" in text


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run makes its own venv (in a temporary directory, not .venv) and
    then runs the README's test install and pytest."""
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -e '.[test]' && pytest" in readme
    assert "python3 -m venv" in ci and '. "$venv/bin/activate"' in ci
    assert "pip install -e '.[test]' && pytest" in ci


@pytest.mark.parametrize("bench", ["bench_playouts.py", "bench_selfplay.py", "bench_startup.py"])
def test_a_baseline_git_does_not_know_is_one_line(bench: str) -> None:
    """docs/benchmarks.md: ``--baseline`` takes any commit, branch or tag; an
    unknown one is refused with one line before anything is measured."""
    import sys

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    run = subprocess.run([sys.executable, str(ROOT / "bench" / bench), "--baseline",
                          "no-such-revision"], capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.splitlines() == [
        f"{bench}: --baseline: no commit named 'no-such-revision' in this repository "
        "(give a commit hash, a branch or a tag; `git log --oneline` lists commits)"]


def test_the_man_page_names_every_option() -> None:
    """mille.6 covers every option of ``mille --help`` (both forms of the
    on/off ones), every preset and every key of the board."""
    from mille.frontends.cli import _parser

    text = (ROOT / "mille.6").read_text()
    for action in _parser()._actions:
        for flag in action.option_strings:
            if flag.startswith("--"):
                assert f"Fl {flag[1:]}" in text, flag
    for preset in ("bsd", "classic", "milebymile"):
        assert f"Cm {preset}" in text
    for key in ("P", "U", "D", "O", "W", "H", "T", "\\&?", "R", "S", "Q"):
        assert f".It Ic {key}" in text, key


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_the_man_page_fits_80_columns() -> None:
    """No table runs its columns together or off the page at 80 columns."""
    run = subprocess.run(["groff", "-mandoc", "-Tutf8", "-rLL=78n", str(ROOT / "mille.6")],
                         capture_output=True, text=True)
    plain = re.sub(r".\x08", "", re.sub(r"\x1b\[[0-9;]*m", "", run.stdout))  # no bold, underline
    lines = plain.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    cards = next(i for i, line in enumerate(lines) if line.startswith("CARDS"))
    table = lines[cards + 1:cards + 20]
    assert any(line.split() == ["Speed", "Limit", "hazard", "3", "4"] for line in table)
    assert any(line.split() == ["Right", "of", "Way", "safety", "1", "1"] for line in table)
