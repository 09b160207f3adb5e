"""The command line, without a terminal: argument handling and early exits."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mille
from mille.engine.rules import find_rules
from mille.frontends import cli, offer, process
from mille.frontends.cli import Options, UsageError, parse_args
from mille.game.session import Session
from mille.storage import savefile

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
        (["--seed", "7"], Options(seed=7, chosen=True)),
        (["--seed=7"], Options(seed=7, chosen=True)),
        (["--seed", "-3"], Options(seed=-3, chosen=True)),
        (["--plain"], Options(plain=True)),
        (["game.sav"], Options(file="game.sav")),
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


@pytest.mark.parametrize("argv", [["--seed"], ["--seed", "x"], ["--seed=1.5"], ["--bogus"], ["-x"]])
def test_other_usage_errors_end_with_a_usage_line(argv: list[str]) -> None:
    with pytest.raises(UsageError) as info:
        parse_args(argv)
    assert str(info.value).splitlines()[-1] == cli.USAGE


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--bogus"], "mille: unknown option: --bogus (mille --help lists the options)"),
        (
            ["--join", "127.0.0.1"],
            "mille: --join takes the host's address and join code:"
            " mille --join ADDRESS[:PORT] CODE",
        ),
        (
            ["--host", "--join", "a", "b"],
            "mille: --host and --join cannot be used together (mille --help lists the options)",
        ),
    ],
)
def test_a_refused_option_is_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    """Issue 40, item 14: the README promises one line (a usage line came
    after it), and --join without its code printed the local game's usage."""
    assert cli.main(argv) == 1
    assert capsys.readouterr() == ("", line + "\n")


def test_main_usage_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["a", "b"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "usage: mille [file]\n"


def test_main_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"mille {mille.__version__}\n"
    assert mille.__version__ == "2.0.0"


def test_main_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(cli.USAGE + "\n")
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
    assert done.returncode == 0 and done.stdout == "mille 2.0.0\n"
    done = subprocess.run([sys.executable, "-m", "mille", "a", "b"], capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr == "usage: mille [file]\n"
    assert "Traceback" not in done.stderr


def test_imports_stay_light() -> None:
    """--version must not load curses, the engine or the save code (the
    translation layer, mille.i18n, is the standard library's os alone)."""
    code = (
        "import sys; from mille.frontends import cli; cli.main(['--version']); "
        "print(sorted(m for m in sys.modules if m.startswith('mille') or m == '_curses'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == (
        "['mille', 'mille.frontends', 'mille.frontends.cli', 'mille.frontends.cli_help',"
        " 'mille.frontends.cli_people', 'mille.i18n']"
    )


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
    data = savefile.session_to_dict(Session.new(seed=3))
    node: Any = data
    for key in place[:-1]:
        node = node[key]
    node[place[-1]] = "@@here@@"
    return json.dumps(data).replace('"@@here@@"', text)


PLACES = [
    ("format",),
    ("version",),
    ("rules", "name"),
    ("table", "target"),
    ("table", "phase"),
    ("table", "deck", 0),
    ("seats", 1, "memory"),
    ("seats", 1, "rng"),
    ("deal_rng",),
]


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
    [
        save_text_with(("k" * 900_000,), "1"),
        save_text_with(("bad\x1b[2Jkey",), "1"),
        save_text_with(("to_move",), "9" * 4000),
        save_text_with(("phase",), json.dumps("x\x1b[2J" * 10_000)),
        save_text_with(("seats", 1, "memory", "safeties", "Extra Tank"), json.dumps("y" * 10_000)),
    ],
    ids=[
        "900000-character key",
        "key with ESC",
        "4000-digit number",
        "long phase",
        "computer text",
    ],
)
def test_a_hostile_value_is_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = tmp_path / "hostile"
    path.write_text(text)
    assert cli.main([str(path)]) == 1
    line = one_safe_line(capsys.readouterr().err)
    assert line.startswith(f"mille: {process.show_path(str(path))}: ")


@pytest.mark.parametrize(
    "argv",
    [["--bad\x1b[2Joption"], ["--seed", "1\n2"], ["--seed=\x1b]0;x\x07"], ["-" + "x" * 10_000]],
)
def test_a_hostile_argument_is_escaped(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.endswith(cli.SEE_HELP + "\n")  # one line
    one_safe_line(err)


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


def test_help_lists_the_keys_a_newcomer_needs(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    keys = capsys.readouterr().out.split("keys (case does not matter):\n")[1]
    for line in (
        "  H             a hint: the expert's move and why (never played)",
        "  T             the card tracker: the cards you have not seen yet",
        "  L             the whole hand so far (up/down, PgUp/PgDn; q leaves)",
        "  ?             a one-screen summary of the keys, the rules and the",
    ):
        assert line + "\n" in keys
    assert all(len(line) < 80 for line in keys.splitlines())


# ----- the interrupted game: offered before a new game ------------------------


class FakeUi:
    """Stands in for ``mille.frontends.tui.play``: records what it was given."""

    def __init__(self, status: int = 0, action: Any = None) -> None:
        self.status, self.action = status, action
        self.calls: list[tuple[Session, str, bool]] = []

    def __call__(self, session: Session, message: str = "", color: bool = True) -> int:
        from mille.storage import recovery

        self.calls.append((session, message, recovery.pending() is not None))
        if self.action is not None:
            self.action(session)
        return self.status


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Callable[..., FakeUi]:
    """``terminal(typed, status=0, action=None)``: a terminal where ``typed``
    (bytes) is what the player types, and a fake UI."""
    import mille.frontends.tui

    def set_up(typed: bytes, status: int = 0, action: Any = None) -> FakeUi:
        fake = FakeUi(status, action)
        monkeypatch.setattr(cli, "_is_terminal", lambda: True)
        monkeypatch.setattr(cli, "_stdin_is_terminal", lambda: True)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(typed)))
        monkeypatch.setattr(mille.frontends.tui, "play", fake)
        return fake

    return set_up


def interrupted(seed: int = 9, moves: int = 3) -> tuple[Session, Path, float]:
    """A recovery file for a seeded game a few moves in, dated 2026."""
    from mille.storage import recovery

    session = Session.new(seed=seed)
    for _ in range(moves):
        if session.computer_to_move:
            session.computer_move()
        else:
            session.play(session.table.legal_moves()[-1])
    path = Path(recovery.write(session))
    os.utime(path, (1_795_000_000, 1_795_000_000))
    return session, path, path.stat().st_mtime


def question(mtime: float, what: str = "bsd, 2 players, scores 0, 0") -> str:
    return f"mille: a game was interrupted on {time.ctime(mtime)}:\n{what}.\n"


def kept_files(home: Path) -> list[Path]:
    return sorted((home / "mille").glob("interrupted-*.json"))


ASK = "Resume it? (n deletes it) [yn] "


def test_nothing_interrupted_nothing_asked(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str]
) -> None:
    ui = terminal(b"")
    assert cli.main(["--seed", "4"]) == 0
    assert capsys.readouterr() == ("", "")
    ((session, message, _),) = ui.calls
    assert savefile.dumps(session) == savefile.dumps(Session.new(seed=4)) and message == ""


@pytest.mark.parametrize("answer,beeps", [(b"y", 0), (b"Y", 0), (b"yes\n", 0), (b" Y \n", 1)])
def test_yes_resumes_the_game_where_it_was(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    answer: bytes,
    beeps: int,
) -> None:
    original, path, mtime = interrupted()
    ui = terminal(answer)
    assert cli.main([]) == 0
    out, err = capsys.readouterr()
    # one key, as the board's questions take (no RETURN); another key beeps
    assert out == question(mtime) + ASK + "\a" * beeps + "y\n" and err == ""
    ((session, message, still_there),) = ui.calls
    assert savefile.dumps(session) == savefile.dumps(original)
    assert message == f"resumed [{time.ctime(mtime)}]"
    assert len(message) <= 35  # the error line's width
    assert session.source is None  # S asks file:, not Same file? for the recovery file
    assert not still_there and not path.exists()


@pytest.mark.parametrize("answer", [b"n", b"N", b"no\n"])
def test_no_starts_a_new_game_and_removes_the_file(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str], answer: bytes
) -> None:
    original, path, mtime = interrupted()
    ui = terminal(answer)
    assert cli.main([]) == 0
    assert capsys.readouterr() == (question(mtime) + ASK + "n\n", "")
    ((session, message, still_there),) = ui.calls
    assert savefile.dumps(session) != savefile.dumps(original) and message == ""
    assert session.log == [] and session.table.rules.name == "bsd"
    assert not still_there and not path.exists()


def test_anything_else_asks_again(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str]
) -> None:
    original, path, mtime = interrupted()
    ui = terminal(b"m\n\xff\x1b[Ay")
    assert cli.main([]) == 0
    assert capsys.readouterr().out == question(mtime) + ASK + "\a" * 6 + "y\n"
    assert savefile.dumps(ui.calls[0][0]) == savefile.dumps(original)


@pytest.mark.parametrize("typed", [b"", b"q\n", b"\x04y"])
def test_end_of_file_keeps_the_game_and_exits_1(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str], typed: bytes
) -> None:
    _, path, mtime = interrupted()
    before = path.read_bytes()
    ui = terminal(typed)
    assert cli.main([]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(question(mtime) + ASK) and out.endswith("\n")
    assert one_safe_line(err) == "mille: no answer: the interrupted game is kept for next time"
    assert ui.calls == []
    assert path.read_bytes() == before and path.stat().st_mtime == mtime


def test_not_a_terminal_is_checked_before_anything(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, path, mtime = interrupted()
    before = path.read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"y\n")))
    assert cli.main([]) == 1
    assert capsys.readouterr() == (
        "",
        "mille: standard input and output must be a terminal"
        " (for plain lines on pipes: mille --plain)\n",
    )
    assert path.read_bytes() == before


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["a", "b"], ["--bogus"]])
def test_help_version_and_usage_never_ask(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _, path, _ = interrupted()
    terminal(b"y\n")
    cli.main(argv)
    assert "Resume it?" not in capsys.readouterr().out
    assert path.exists()


def test_a_file_argument_never_asks(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, path, _ = interrupted(seed=9)
    game = tmp_path / "game"
    savefile.save_session(Session.new(seed=10), str(game))
    ui = terminal(b"")  # asking would meet end of file
    assert cli.main([str(game)]) == 0
    assert capsys.readouterr().out == ""
    assert savefile.dumps(ui.calls[0][0]) == savefile.dumps(Session.new(seed=10))
    assert path.exists()


def test_a_file_argument_names_the_kept_game_waiting(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As README says: with a file too, one line says what waits."""
    kept, path, mtime = interrupted(seed=9)
    game = tmp_path / "game"
    savefile.save_session(Session.new(seed=10), str(game))
    ui = terminal(b"")
    assert cli.main([str(game)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and one_safe_line(err) == (
        f"mille: a kept game is waiting ({offer.describe_game(kept)}; {time.ctime(mtime)}):"
        " run mille alone to resume it"
    )
    assert savefile.dumps(ui.calls[0][0]) == savefile.dumps(Session.new(seed=10))
    assert path.exists()


@pytest.mark.parametrize(
    "text", [b"garbage\n", b"", b'{"format": "bsd-mille-save", "version": 9}\n']
)
def test_a_recovery_file_that_does_not_load_is_moved_aside(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str], text: bytes
) -> None:
    _, path, _ = interrupted()
    path.write_bytes(text)
    Path(str(path) + ".bad").write_text("an older bad one")
    ui = terminal(b"")
    assert cli.main(["--seed", "6"]) == 0
    out, err = capsys.readouterr()
    assert out == ""  # nothing to offer
    line = one_safe_line(err)
    assert line.startswith(f"mille: {process.show_path(str(path))}: ")
    assert line.endswith(f" (moved to {path.name}.bad)")
    assert Path(str(path) + ".bad").read_bytes() == text
    assert not path.exists()
    assert savefile.dumps(ui.calls[0][0]) == savefile.dumps(Session.new(seed=6))


def test_a_long_reason_still_says_where_the_file_went(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str]
) -> None:
    _, path, _ = interrupted()
    path.write_text(save_text_with(("table", "phase"), json.dumps("p" * 5000)))
    terminal(b"")
    assert cli.main([]) == 0
    line = one_safe_line(capsys.readouterr().err)
    assert line.endswith(f"... (moved to {path.name}.bad)")


def test_a_bad_recovery_file_that_cannot_be_moved_is_kept(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, path, _ = interrupted()
    path.write_text("garbage")

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    ui = terminal(b"")
    assert cli.main([]) == 1
    line = one_safe_line(capsys.readouterr().err)
    assert line.endswith("; cannot move it aside: Permission denied")
    assert path.read_text() == "garbage" and ui.calls == []


@pytest.mark.parametrize("answer", [b"y\n", b"n\n"])
def test_a_recovery_file_that_cannot_be_removed_is_kept(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answer: bytes,
) -> None:
    _, path, _ = interrupted()

    def refuse(name: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "remove", refuse)
    ui = terminal(answer)
    assert cli.main([]) == 1
    assert (
        one_safe_line(capsys.readouterr().err)
        == f"mille: {process.show_path(str(path))}: cannot remove: Permission denied"
    )
    assert path.exists() and ui.calls == []


def test_a_game_that_could_not_start_is_put_back_as_it_was(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str]
) -> None:
    """Resumed, but the UI refused the terminal (too small, unknown TERM)."""
    _, path, mtime = interrupted()
    before = path.read_bytes()
    ui = terminal(b"y\n", status=1)
    assert cli.main([]) == 1
    assert ui.calls and not ui.calls[0][2]
    (kept,) = kept_files(path.parent.parent)
    assert kept.read_bytes() == before and kept.stat().st_mtime == mtime
    # after the UI's own line (Screen must be at least 24x80), one that
    # says the game is not lost
    assert capsys.readouterr().err == "mille: the interrupted game is kept for next time\n"


def play_one(session: Session) -> None:
    if session.computer_to_move:
        session.computer_move()
    else:
        session.play(session.table.legal_moves()[0])


def test_a_resumed_game_cut_short_is_kept(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str]
) -> None:
    """The game went on, then ended abruptly without a recovery file of its
    own: the game as it now stands is kept, newly dated."""
    _, path, mtime = interrupted()

    def play_then_die(session: Session) -> None:
        play_one(session)
        raise SystemExit(1)

    ui = terminal(b"y\n", action=play_then_die)
    with pytest.raises(SystemExit):
        cli.main([])
    session = ui.calls[0][0]
    (kept,) = kept_files(path.parent.parent)
    assert kept.read_text() == savefile.dumps(session)
    assert kept.stat().st_mtime != mtime


def test_the_games_own_recovery_file_is_not_overwritten(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str]
) -> None:
    from mille.storage import recovery

    _, path, _ = interrupted()
    kept: list[str] = []

    def interrupted_again(session: Session) -> None:
        play_one(session)
        recovery.write(session)  # as the UI does on a hang-up
        kept.append(savefile.dumps(session))
        play_one(session)
        raise SystemExit(1)

    terminal(b"y\n", action=interrupted_again)
    with pytest.raises(SystemExit):
        cli.main([])
    (again,) = kept_files(path.parent.parent)
    assert again.read_text() == kept[0]


def test_a_resumed_game_played_to_the_end_leaves_nothing(
    terminal: Callable[..., FakeUi], capsys: pytest.CaptureFixture[str]
) -> None:
    _, path, _ = interrupted()
    terminal(b"y\n", action=play_one)
    assert cli.main([]) == 0
    assert not path.exists()


def test_the_restore_note_shows_the_name_escaped(tmp_path: Path) -> None:
    path = tmp_path / "bad\nname\x1b[2J"
    path.write_text("x")
    note = cli.file_stamp(str(path))
    assert note.isprintable() and note.startswith(f"{tmp_path}/bad\\nname\\x1b[2J [")


def test_interrupt_at_the_question_keeps_the_game(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, path, mtime = interrupted()
    before = path.read_bytes()
    ui = terminal(b"")

    class Interrupted(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Interrupted()))
    assert cli.main([]) == 130
    assert capsys.readouterr().out == question(mtime) + ASK + "\n"  # the shell starts a new line
    assert path.read_bytes() == before and ui.calls == []


class DeadTerminal(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(5, "Input/output error")


def test_a_dead_stderr_is_no_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", DeadTerminal())
    assert cli.main([str(tmp_path / "missing")]) == 1
    monkeypatch.setattr(cli, "_play", lambda options: 1 / 0)
    assert cli.main([]) == 1


def test_the_level_is_read() -> None:
    assert parse_args(["--level", "expert"]).level == "expert"
    assert parse_args([]).level == "standard"
    with pytest.raises(UsageError, match="invalid choice: 'hard'"):
        parse_args(["--level", "hard"])
    with pytest.raises(UsageError, match="--level cannot be used with a file"):
        parse_args(["--level", "easy", "game.sav"])


# ----- who is asked, which game, several kept games -----------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--seed", "3"],
        ["--rules", "classic", "--players", "4"],
        ["--level", "easy"],
        ["--rules", "bsd"],
        ["--plain", "--seed", "3"],
    ],
)
def test_options_mean_a_new_game_and_the_kept_one_waits(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    from mille.frontends import plain

    _, path, mtime = interrupted()
    before = path.read_bytes()
    ui = terminal(b"y")  # a y typed ahead is no answer
    monkeypatch.setattr(plain, "play", lambda session, message, **_: ui(session, message))
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert one_safe_line(err) == (
        "mille: a kept game is waiting (bsd, 2 players, scores 0, 0;"
        f" {time.ctime(mtime)}): run mille alone to resume it"
    )
    ((session, message, _),) = ui.calls
    assert message == "" and session.log == []  # the new game the options asked for
    if "--players" in argv:
        assert session.rules.name == "classic" and session.rules.players == 4
    assert path.read_bytes() == before


def test_a_script_on_standard_input_is_not_asked(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mille.frontends import plain

    _, path, _ = interrupted()
    ui = terminal(b"n\np\n")
    monkeypatch.setattr(cli, "_stdin_is_terminal", lambda: False)
    monkeypatch.setattr(plain, "play", lambda session, message, **_: ui(session, message))
    assert cli.main(["--plain"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "a kept game is waiting" in one_safe_line(err)
    assert path.exists() and len(ui.calls) == 1
    assert sys.stdin.read() == "n\np\n"  # the script's lines are left for the game


def test_two_kept_games_both_stay_and_are_offered_newest_first(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mille.storage import recovery

    older, first, older_mtime = interrupted(seed=9)
    newer = Session.new(find_rules("classic", players=3), seed=4)
    newer.table.totals = [700, 350, 0]
    second = Path(recovery.write(newer))
    assert first.exists() and second.exists() and first != second
    ui = terminal(b"ny")
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mille: a game was interrupted on ")
    assert out.split("\n")[1] == "classic, 3 players, scores 700, 350, 0."
    assert out.endswith(question(older_mtime) + ASK + "y\n")
    assert savefile.dumps(ui.calls[0][0]) == savefile.dumps(older)
    assert not first.exists() and not second.exists()


def test_several_waiting_are_counted(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mille.storage import recovery

    interrupted(seed=9)
    recovery.write(Session.new(seed=2))
    terminal(b"")
    assert cli.main(["--seed", "1"]) == 0
    line = one_safe_line(capsys.readouterr().err)
    assert line.startswith("mille: 2 kept games are waiting (the newest: bsd, 2 players, ")
    assert line.endswith("): run mille alone to resume them")


@pytest.mark.parametrize("answer", [b"y", b"n"])
def test_a_game_kept_meanwhile_by_another_mille_is_not_removed(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    private_state_home: Path,
    answer: bytes,
) -> None:
    from mille.storage import recovery

    original, path, _ = interrupted()
    other = Session.new(seed=20)
    ask = offer.ask_yes_no

    def another_mille_keeps_one(question: str, line: bool = False) -> bool | None:
        recovery.write(other)  # while the player thinks
        return ask(question, line)

    monkeypatch.setattr(offer, "ask_yes_no", another_mille_keeps_one)
    ui = terminal(answer)
    assert cli.main([]) == 0
    assert not path.exists()
    (left,) = kept_files(private_state_home)
    assert left.read_text() == savefile.dumps(other)
    if answer == b"y":
        assert savefile.dumps(ui.calls[0][0]) == savefile.dumps(original)


def test_a_game_taken_or_changed_meanwhile_is_left_as_it_is(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, path, mtime = interrupted()
    ask = offer.ask_yes_no

    def changed(question: str, line: bool = False) -> bool | None:
        os.utime(path, (mtime + 60, mtime + 60))  # another mille wrote it again
        return ask(question, line)

    monkeypatch.setattr(offer, "ask_yes_no", changed)
    ui = terminal(b"y")
    assert cli.main([]) == 0
    err = capsys.readouterr().err
    assert one_safe_line(err).endswith(": another mille took or changed it meanwhile")
    assert path.exists() and path.stat().st_mtime == mtime + 60
    assert ui.calls[0][0].log == []  # a new game


class Bounded(io.BytesIO):
    """Input that refuses an unbounded read (``mille --plain < /dev/zero``)."""

    def readline(self, size: int | None = -1) -> bytes:
        assert size is not None and 0 < size <= 65536, "an unbounded read"
        return super().readline(size)

    def read(self, size: int | None = -1) -> bytes:
        assert size is not None and 0 < size <= 65536, "an unbounded read"
        return super().read(size)


def test_the_line_modes_question_reads_a_bounded_line(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mille.frontends import plain

    original, path, mtime = interrupted()
    ui = terminal(b"")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Bounded(b"y" * 100_000 + b"\nyes\n")))
    monkeypatch.setattr(plain, "play", lambda session, message, **_: ui(session, message))
    assert cli.main(["--plain"]) == 0
    assert capsys.readouterr().out == question(mtime) + ASK * 2  # the long line asks again
    assert savefile.dumps(ui.calls[0][0]) == savefile.dumps(original)


def test_the_question_names_the_game() -> None:
    session = Session.new(find_rules("milebymile", players=4, team_mode="2v2"), seed=1)
    session.table.totals = [1250, 400]
    assert offer.describe_game(session) == "milebymile, 4 players, scores 1250, 400"


@pytest.mark.parametrize(
    "argv",
    [["--seed", "\u0663"], ["--seed", "\u00b2"], ["--rules", "milebymile", "--players", "\u0663"]],
)
def test_numbers_on_the_command_line_are_ascii_digits(argv: list[str]) -> None:
    with pytest.raises(UsageError, match=f"not a number: {argv[-1]}\\n"):
        parse_args(argv)


def test_a_message_the_output_cannot_encode_is_escaped(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONIOENCODING="ascii", XDG_STATE_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "mille", "--plain", str(tmp_path / "\u00e9t\u00e9")],
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr == f"mille: {tmp_path}/\\xe9t\\xe9: No such file or directory\n".encode()


def test_output_lost_at_the_question_keeps_the_game(
    terminal: Callable[..., FakeUi],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, path, _ = interrupted()
    before = path.read_bytes()
    ui = terminal(b"y")
    monkeypatch.setattr(sys, "stdout", DeadTerminal())
    assert cli.main([]) == 1
    assert (
        one_safe_line(capsys.readouterr().err)
        == "mille: output lost: the interrupted games are kept for next time"
    )
    assert path.read_bytes() == before and ui.calls == []


NO_CURSES = """
import sys
sys.modules["curses"] = None  # a Python where curses cannot be imported
from mille.frontends import offer
print(offer.ask_yes_no("Resume it? ", line=True), "mille.frontends.curses_keys" in sys.modules)
"""


def test_the_line_modes_question_needs_no_curses() -> None:
    """The offer reads the line mode's answer with the line mode's reader;
    only the boards' one key goes through curses_keys."""
    done = subprocess.run(
        [sys.executable, "-c", NO_CURSES], input=b"maybe\nyes\n", capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"Resume it? Resume it? True False\n"


RESUME_THEN_SIGNAL = """
import os, signal, sys
from mille.frontends import cli, offer
from mille.storage import recovery
real_remove = recovery.remove
def remove_then_signal(target=None):
    real_remove(target)  # the offered file is gone: the game lives in memory only
    os.kill(os.getpid(), signal.SIGTERM)
recovery.remove = remove_then_signal
cli._stdin_is_terminal = lambda: True
offer.ask_yes_no = lambda question, line=False: True  # Resume it? y
sys.exit(cli.main(["--plain"]))
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX only")
def test_a_signal_as_the_resumed_game_starts_keeps_it(private_state_home: Path) -> None:
    """SIGTERM (or a hang-up) between the answer y, which removes the
    recovery file, and the game's own handlers: it waits for them, and the
    game is kept again (the process was killed, the game lost)."""
    original, path, _ = interrupted()
    done = subprocess.run(
        [sys.executable, "-c", RESUME_THEN_SIGNAL], input=b"", capture_output=True, timeout=60
    )
    assert done.returncode == 1, done
    assert done.stderr.decode().startswith("mille: terminated; the game is kept in ")
    (kept,) = kept_files(private_state_home)
    assert kept.read_text() == savefile.dumps(original)


@pytest.mark.parametrize("stream", ["stdin", "stdout"])
def test_a_closed_standard_stream_is_one_line(
    stream: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mille <&-``, ``mille >&-``: Python has no sys.stdin (or stdout)."""
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, stream, None)
    assert cli.main(["--seed", "1"]) == 1
    assert err.getvalue() == (
        "mille: standard input and output must be a terminal "
        "(for plain lines on pipes: mille --plain)\n"
    )


def test_the_line_mode_without_standard_output_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"p\n")))
    monkeypatch.setattr(sys, "stdout", None)
    assert cli.main(["--plain", "--seed", "1"]) == 1
    assert err.getvalue() == "mille: no standard output\n"


def test_help_says_how_to_host_and_to_join_in_a_block_of_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 40, item 15: --host was one option among others, its words
    hard to parse; the network's part of --help starts with the two
    commands, whole, and each option says which side it is for."""
    assert cli.main(["--help"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("playing with friends over the network (one hosts, the others join):")
    assert lines[start + 1] == "  to host:  mille --host [--people 0=Ann,1,2]"
    assert "  to join:  mille --join ADDRESS[:PORT] CODE [--name NAME]" in lines[start:]
    block = lines[start : lines.index("", start)]
    assert all(len(line) < 80 for line in block)
    for option in ("--listen", "--port", "--grace", "--wait"):
        row = next(line for line in block if line.startswith(f"  {option} "))
        assert "(--host)" in row or "(--join)" in row
