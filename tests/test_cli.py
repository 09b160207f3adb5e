"""The command line, without a terminal: argument handling and early exits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mille
from mille import cli, savefile
from mille.cli import Options, UsageError, parse_args
from mille.session import Session

LINE_LIMIT = 200  # the longest line mille prints about a file


@pytest.fixture(autouse=True)
def private_state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads or leaves a recovery file in the real home."""
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


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


# ----- whatever the name or the file holds: one short, safe line --------------


def one_safe_line(err: str, limit: int = LINE_LIMIT) -> str:
    """The only line on stderr: printable, at most ``limit`` characters."""
    assert err.endswith("\n") and err.count("\n") == 1, repr(err[:300])
    line = err[:-1]
    assert line.isprintable(), repr(line[:300])
    assert len(line) <= limit, (len(line), line[:300])
    return line


def bad_save(path: Path, text: str = "this is not a saved game\n") -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "name,shown",
    [
        ("bad\nname", "bad\\nname"),
        ("bad\x1b[2Jname", "bad\\x1b[2Jname"),
        ("bad\rname\x07", "bad\\rname\\x07"),
        ("\u202egnp.sav", "\\u202egnp.sav"),
    ],
    ids=["newline", "ESC", "CR and bell", "RTL override"],
)
@pytest.mark.parametrize("exists", [True, False], ids=["bad file", "missing"])
def test_a_hostile_file_name_is_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, shown: str, exists: bool
) -> None:
    path = tmp_path / name
    if exists:
        bad_save(path)
    assert cli.main([str(path)]) == 1
    out, err = capsys.readouterr()
    line = one_safe_line(err)
    assert out == ""
    assert line.startswith(f"mille: {tmp_path}/{shown}: ")
    if not exists:
        assert line.endswith(": No such file or directory")


def test_an_undecodable_file_name_is_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = os.fsdecode(b"caf\xe9\x1b")
    assert cli.main([str(tmp_path / name)]) == 1
    line = one_safe_line(capsys.readouterr().err)
    assert line == f"mille: {tmp_path}/caf\\xe9\\x1b: No such file or directory"


def test_a_very_long_name_is_shortened_to_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / ("n" * 5000)) + "/end.sav"
    assert cli.main([path]) == 1
    line = one_safe_line(capsys.readouterr().err)
    assert line.startswith("mille: ...") and line.endswith("nnn/end.sav: File name too long")


def test_an_os_error_text_is_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> int:
        raise OSError(5, "disk\non fire\x1b[2J" + "!" * 1000)

    path = bad_save(tmp_path / "game")
    monkeypatch.setattr(os, "open", refuse)
    assert cli.main([str(path)]) == 1
    monkeypatch.undo()
    line = one_safe_line(capsys.readouterr().err)
    assert line.startswith(f"mille: {path}: disk\\non fire\\x1b[2J!!!")


def save_text_with(place: tuple[object, ...], text: str) -> str:
    """A real save whose value at ``place`` is the JSON ``text``."""
    data = savefile.session_to_dict(Session.new(3))
    node: Any = data
    for key in place[:-1]:
        node = node[key]
    node[place[-1]] = "@@here@@"
    return json.dumps(data).replace('"@@here@@"', text)


PLACES = [("format",), ("version",), ("end",), ("phase",), ("deck", 0), ("computer",), ("rng",)]


@pytest.mark.parametrize("place", PLACES, ids=[".".join(map(str, p)) for p in PLACES])
def test_a_deeply_nested_value_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], place: tuple[object, ...]
) -> None:
    """As deep as the JSON parser accepts (about 990 levels): never an internal error."""
    path = tmp_path / "deep"
    for levels in range(1000, 930, -1):
        path.write_text(save_text_with(place, "[" * levels + "0" + "]" * levels))
        assert cli.main([str(path)]) == 1
        line = one_safe_line(capsys.readouterr().err)
        assert "internal error" not in line


@pytest.mark.parametrize(
    "text",
    [save_text_with(("k" * 900_000,), "1"),
     save_text_with(("bad\x1b[2Jkey",), "1"),
     save_text_with(("to_move",), "9" * 4000),
     save_text_with(("phase",), json.dumps("x\x1b[2J" * 10_000)),
     save_text_with(("computer", "safeties", "Extra Tank"), json.dumps("y" * 10_000))],
    ids=["900000-character key", "key with ESC", "4000-digit number", "long phase", "computer text"],
)
def test_a_hostile_value_is_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = tmp_path / "hostile"
    path.write_text(text)
    assert cli.main([str(path)]) == 1
    line = one_safe_line(capsys.readouterr().err)
    assert line.startswith(f"mille: {path}: ")


@pytest.mark.parametrize(
    "argv", [["--bad\x1b[2Joption"], ["--seed", "1\n2"], ["--seed=\x1b]0;x\x07"], ["-" + "x" * 10_000]]
)
def test_a_hostile_argument_is_escaped(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    first, usage = err.splitlines()
    assert usage == cli.USAGE and err.count("\n") == 2
    one_safe_line(first + "\n")


def test_an_internal_error_is_one_safe_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(options: Options) -> int:
        raise RuntimeError("two\nlines\x1b[2J" + "z" * 10_000)

    monkeypatch.setattr(cli, "_play", boom)
    assert cli.main([]) == 1
    line = one_safe_line(capsys.readouterr().err)
    assert line.startswith("mille: internal error: RuntimeError: two\\nlines\\x1b[2Jzzz")


def test_help_names_the_man_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "mille(6)" in out and "man mille" in out
