"""The command line, without a terminal: argument handling and early exits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import mille
from mille import cli
from mille.cli import Options, UsageError, parse_args


def test_no_arguments_plays_a_new_unseeded_game() -> None:
    assert parse_args([]) == Options()


@pytest.mark.parametrize(
    "argv,expected",
    [
        (["--seed", "7"], Options(seed=7)),
        (["--seed=7"], Options(seed=7)),
        (["--seed", "-3"], Options(seed=-3)),
        (["game.sav"], Options(file="game.sav")),
        (["--seed", "1", "game.sav"], Options(seed=1, file="game.sav")),
        (["game.sav", "--seed", "1"], Options(seed=1, file="game.sav")),
        (["--", "--odd-name"], Options(file="--odd-name")),
        (["-"], Options(file="-")),
    ],
)
def test_parse(argv: list[str], expected: Options) -> None:
    assert parse_args(argv) == expected


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["x", "--help"]])
def test_help(argv: list[str]) -> None:
    assert parse_args(argv).action == "help"


def test_version() -> None:
    assert parse_args(["--version"]).action == "version"


def test_two_files_is_bsds_usage() -> None:
    with pytest.raises(UsageError) as info:
        parse_args(["a", "b"])
    assert str(info.value) == "usage: mille [file]"


@pytest.mark.parametrize(
    "argv", [["--seed"], ["--seed", "x"], ["--seed=1.5"], ["--bogus"], ["-x"]]
)
def test_other_usage_errors_end_with_a_usage_line(argv: list[str]) -> None:
    with pytest.raises(UsageError) as info:
        parse_args(argv)
    assert str(info.value).splitlines()[-1] == cli.USAGE


def test_main_usage_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["a", "b"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "usage: mille [file]\n"


def test_main_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"mille {mille.__version__}\n"
    assert mille.__version__ == "1.0.0"


def test_main_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: mille [--seed N] [file]\n")
    assert "--seed N" in out and "--version" in out


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope"
    assert cli.main([str(missing)]) == 1
    assert capsys.readouterr().err == f"mille: {missing}: No such file or directory\n"


def test_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad"
    bad.write_text("this is not a saved game\n")
    assert cli.main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"mille: {bad}: ") and err.count("\n") == 1


def test_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    # under pytest stdin is not a terminal: a clear message, no curses
    assert cli.main(["--seed", "1"]) == 1
    assert "terminal" in capsys.readouterr().err


def test_internal_error_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(options: Options) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "_play", boom)
    assert cli.main([]) == 1
    assert capsys.readouterr().err == "mille: internal error: RuntimeError: boom\n"


def test_file_stamp_is_ctime_of_mtime(tmp_path: Path) -> None:
    import os
    import time

    path = tmp_path / "g"
    path.write_text("x")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    assert cli.file_stamp(str(path)) == f"{path} [{time.ctime(1_700_000_000)}]"


def test_python_dash_m(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mille", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == "mille 1.0.0\n"
    done = subprocess.run(
        [sys.executable, "-m", "mille", "a", "b"], capture_output=True, text=True
    )
    assert done.returncode == 1 and done.stderr == "usage: mille [file]\n"
    assert "Traceback" not in done.stderr


def test_imports_stay_light() -> None:
    """--version must not load curses, the engine or the save code."""
    code = (
        "import sys; from mille import cli; cli.main(['--version']); "
        "print(sorted(m for m in sys.modules if m.startswith('mille') or m == '_curses'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "['mille', 'mille.cli']"
