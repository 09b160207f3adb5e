"""End to end: saving and restoring through the real ``mille`` in a pty.

BSD's flows: S asks ``file:`` (or ``Same file?`` for a restored game, and
``Overwrite file?`` for someone else's file), the error line shows
``NAME [date]``; ``mille FILE`` resumes with ``FILE [mtime]`` shown; the
command line refuses bad arguments and bad files with one line and exit 1.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mille.engine.cards import card_name
from mille.engine.table import EXTENSION, OVER, PLAYING

HUMAN = 0
from mille.game.session import Session
from mille.storage.savefile import load_session, save_session
from support.screen import Term, mille_command

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from test_savefile import step  # noqa: E402  (the seeded game driver)

CTIME = r"[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}"
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

Spawn = Callable[..., Term]


def prompt_line(term: Term) -> str:
    return term.lines()[10].ljust(40)[20:40].rstrip()


def error_line(term: Term) -> str:
    return term.lines()[15].ljust(80)[45:80].rstrip()


def hand(term: Term) -> list[str]:
    return [line.ljust(20)[:20].rstrip() for line in term.lines()[6:13]]


def score_rows(term: Term) -> list[str]:
    return [line.ljust(80)[41:80].rstrip() for line in term.lines()[0:10]]


def start(spawn: Spawn, *args: str, cwd: Path) -> Term:
    term = spawn(*args, cwd=cwd)
    term.wait_for(">>:Move:", row=10)
    term.settle()
    return term


def save_as(term: Term, name: str) -> None:
    """At a prompt, S, then type ``name`` at ``file:`` and RETURN."""
    term.send("s")
    term.wait(lambda: prompt_line(term).startswith("file:"), what="file:")
    term.send(name)
    term.wait(lambda: prompt_line(term).replace(" ", "") == f"file:{name}", what=f"echo of {name}")
    term.send("\r")


def quit_game(term: Term) -> int:
    term.send("q")
    term.wait_for("Really?", row=10)
    term.send("y")
    return term.wait_exit()


def stamp(path: Path) -> str:
    return time.ctime(path.stat().st_mtime)


def dumps_hand(session: Session) -> list[str]:
    return [card_name(c) for c in session.table.hands[HUMAN]]


def test_save_to_a_new_file_then_restore(spawn: Spawn, tmp_path: Path) -> None:
    term = start(spawn, "--seed", "5", cwd=tmp_path)
    term.send("p")
    term.wait(lambda: hand(term)[0] != "P", what="the pick")
    term.settle()
    before_hand, before_scores = hand(term), score_rows(term)

    save_as(term, "game1")
    term.wait(lambda: error_line(term).startswith("game1 ["), what="the save note")
    assert re.fullmatch(rf"game1 \[{CTIME}\]", error_line(term))
    path = tmp_path / "game1"
    assert path.is_file()
    assert os.listdir(tmp_path) == ["game1"]
    term.wait_for(">>:Move:", row=10)
    session = load_session(str(path))
    names = [slot.ljust(20)[2:].rstrip() for slot in before_hand]
    assert names == [c if c else "" for c in (dumps_hand(session))]
    assert quit_game(term) == 0

    term = start(spawn, "game1", cwd=tmp_path)
    assert error_line(term) == f"game1 [{stamp(path)}]"
    assert hand(term) == before_hand
    assert score_rows(term) == before_scores
    assert quit_game(term) == 0
    assert load_session(str(path)).table == session.table  # quitting did not touch it


def board_without_note(term: Term) -> list[str]:
    """The whole screen but the error line (row 15 of the score window)."""
    lines = [line.ljust(80) for line in term.lines()]
    lines[15] = lines[15][:45]
    return lines


def test_a_game_in_full_swing_comes_back_the_same(spawn: Spawn, tmp_path: Path) -> None:
    """Restore a game with miles, safeties and scores; save it under a new
    name; restore that: the same screen, card for card and point for point."""
    session = Session.new(seed=31)
    driver = random.Random(31)
    for _ in range(5000):
        state = session.table
        if (
            state.phase == PLAYING
            and state.to_move == HUMAN
            and all(t.mileage for t in state.tableaux)
            and any(t.safeties for t in state.tableaux)
            and state.hands[HUMAN][0] == -1
        ):
            break
        step(session, driver)
    else:  # pragma: no cover
        raise AssertionError("seed 31 never got going")
    save_session(session, str(tmp_path / "start"))
    term = start(spawn, "start", cwd=tmp_path)
    first = board_without_note(term)
    me = session.table.tableaux[HUMAN]
    assert [line.ljust(20)[2:20].rstrip() for line in first[6:13]] == dumps_hand(session)
    assert f"{me.mileage:4d}" in first[1][41:80]  # Milestones Played
    assert re.fullmatch(rf"start \[{CTIME}\]", error_line(term))

    term.send("s")
    term.wait_for("Same file?", row=10)
    term.send("n")
    term.wait(lambda: prompt_line(term).startswith("file:"), what="file:")
    term.send("copy\r")
    term.wait(lambda: error_line(term).startswith("copy ["), what="the save note")
    assert quit_game(term) == 0
    assert (tmp_path / "copy").read_bytes() == (tmp_path / "start").read_bytes()

    term = start(spawn, "copy", cwd=tmp_path)
    assert board_without_note(term) == first
    assert error_line(term) == f"copy [{stamp(tmp_path / 'copy')}]"
    assert quit_game(term) == 0


def test_same_file_saves_over_the_file_it_came_from(spawn: Spawn, tmp_path: Path) -> None:
    path = tmp_path / "g"
    save_session(Session.new(seed=8), str(path))
    os.utime(path, (1_000_000_000, 1_000_000_000))
    term = start(spawn, "g", cwd=tmp_path)
    assert error_line(term) == f"g [{time.ctime(1_000_000_000)}]"
    term.send("p")
    term.wait(lambda: hand(term)[0] != "P", what="the pick")
    term.send("s")
    term.wait_for("Same file?", row=10)
    term.send("y")
    term.wait(
        lambda: error_line(term).startswith("g [") and "2001" not in error_line(term),
        what="the save note",
    )
    assert re.fullmatch(rf"g \[{CTIME}\]", error_line(term))
    assert path.stat().st_mtime > 1_000_000_000
    assert load_session(str(path)).table.hands[HUMAN][0] != -1  # the pick was saved
    assert os.listdir(tmp_path) == ["g"]

    # n at Same file? asks for a name instead
    term.send("s")
    term.wait_for("Same file?", row=10)
    term.send("n")
    term.wait(lambda: prompt_line(term).startswith("file:"), what="file:")
    term.send("h\r")
    term.wait(lambda: error_line(term).startswith("h ["), what="the save note")
    assert sorted(os.listdir(tmp_path)) == ["g", "h"]
    assert quit_game(term) == 0


def test_overwrite_file_prompt(spawn: Spawn, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.write_text("somebody's notes\n")
    term = start(spawn, "--seed", "3", cwd=tmp_path)

    save_as(term, "other")
    term.wait_for("Overwrite file?", row=10)
    term.send("n")
    term.wait_for(">>:Move:", row=10)
    assert other.read_text() == "somebody's notes\n"

    save_as(term, "other")
    term.wait_for("Overwrite file?", row=10)
    term.send("y")
    term.wait(lambda: error_line(term).startswith("other ["), what="the save note")
    load_session(str(other))
    assert quit_game(term) == 0


def test_an_empty_name_cancels_and_erase_and_kill_work(spawn: Spawn, tmp_path: Path) -> None:
    term = start(spawn, "--seed", "4", cwd=tmp_path)
    term.send("s")
    term.wait(lambda: prompt_line(term).startswith("file:"), what="file:")
    term.send("\r")
    term.wait_for(">>:Move:", row=10)
    term.settle()
    assert os.listdir(tmp_path) == []

    term.send("s")
    term.wait(lambda: prompt_line(term).startswith("file:"), what="file:")
    term.send("junk\x15")  # ^U kills the line
    term.send("savex\x7f\r")  # DEL erases the x
    term.wait(lambda: error_line(term).startswith("save ["), what="the save note")
    assert os.listdir(tmp_path) == ["save"]
    assert quit_game(term) == 0


def test_a_failed_save_says_why_and_play_goes_on(spawn: Spawn, tmp_path: Path) -> None:
    term = start(spawn, "--seed", "6", cwd=tmp_path)
    save_as(term, "nodir/game")
    term.wait(lambda: error_line(term) != "", what="the error")
    assert error_line(term) == "No such file or directory"
    term.wait_for(">>:Move:", row=10)
    if IS_ROOT:
        (tmp_path / "file").write_text("x")
        save_as(term, "file/game")  # root ignores permissions: another failure
        term.wait(lambda: error_line(term) == "Not a directory", what="the error")
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        save_as(term, "locked/game")
        term.wait(lambda: error_line(term) == "Permission denied", what="the error")
    term.send("p")
    term.wait(lambda: hand(term)[0] != "P", what="play goes on")
    assert quit_game(term) == 0


def _game_at(phase: str, starter: int | None = None) -> Session:
    """A seeded game driven to ``phase`` (an extension is the human's to decide;
    ``starter``, if given, is who started the hand)."""
    for seed in range(500):
        session = Session.new(seed=seed)
        driver = random.Random(seed)
        for _ in range(3000):
            state = session.table
            if (
                state.phase == phase
                and (phase != EXTENSION or state.asked == HUMAN)
                and (starter is None or state.starter == starter)
            ):
                return session
            step(session, driver)
    raise AssertionError(f"no game reached {phase}")  # pragma: no cover


def test_saved_at_extension_then_save_game_at_the_end(spawn: Spawn, tmp_path: Path) -> None:
    """Extension? n, Another hand? n, Save game? y, Same file? y: saved at the
    end of the hand; restoring it deals the next hand."""
    path = tmp_path / "ext"
    session = _game_at(EXTENSION)
    save_session(session, str(path))
    term = spawn("ext", cwd=tmp_path)
    term.wait_for("Extension?", row=10)
    term.send("n")
    term.wait_for("Another hand?", row=10)
    term.send("n")
    term.wait_for("Save game?", row=10)
    term.send("y")
    term.wait_for("Same file?", row=10)
    term.send("y")
    assert term.wait_exit() == 0
    saved = load_session(str(path))
    assert saved.table.phase == OVER
    assert os.listdir(tmp_path) == ["ext"]

    expected = load_session(str(path))
    expected.next_hand()
    term = spawn("ext", cwd=tmp_path)
    term.wait_for(">>:Move:", row=10)
    term.settle()
    deck = int(term.lines()[6].ljust(24)[22:24])
    if expected.table.starter == HUMAN:
        assert deck == 89  # a fresh deal
        assert [s.ljust(20)[2:].rstrip() for s in hand(term)] == dumps_hand(expected)
    else:
        assert deck in (87, 88)  # a fresh deal; the computer picked
    assert quit_game(term) == 0


def test_saving_at_another_hand_skips_save_game(spawn: Spawn, tmp_path: Path) -> None:
    """S at ``Another hand?`` saves and asks again; n then quits at once."""
    path = tmp_path / "ext"
    save_session(_game_at(EXTENSION), str(path))
    before = path.read_bytes()
    term = spawn("ext", cwd=tmp_path)
    term.wait_for("Extension?", row=10)
    term.send("n")
    term.wait_for("Another hand?", row=10)
    term.send("s")
    term.wait_for("Same file?", row=10)
    term.send("n")
    term.wait(lambda: prompt_line(term).startswith("file:"), what="file:")
    term.send("later\r")
    term.wait(lambda: error_line(term).startswith("later ["), what="the save note")
    term.wait_for("Another hand?", row=10)
    term.send("n")
    assert term.wait_exit() == 0  # no Save game? prompt
    assert path.read_bytes() == before
    assert load_session(str(tmp_path / "later")).table.phase == OVER


def test_restoring_a_finished_hand_deals_the_next(spawn: Spawn, tmp_path: Path) -> None:
    path = tmp_path / "over"
    session = _game_at(OVER, starter=1 - HUMAN)  # you start the next hand
    save_session(session, str(path))
    before = path.read_bytes()
    expected = load_session(str(path))
    expected.next_hand()
    term = start(spawn, "over", cwd=tmp_path)
    assert int(term.lines()[6].ljust(24)[22:24]) == 89
    assert [s.ljust(20)[2:].rstrip() for s in hand(term)] == dumps_hand(expected)
    assert quit_game(term) == 0
    assert path.read_bytes() == before


def test_restoring_a_finished_hand_shows_the_file_and_date(spawn: Spawn, tmp_path: Path) -> None:
    """BSD shows ``FILE [mtime]`` after dealing the new hand too (spec 10)."""
    path = tmp_path / "over"
    save_session(_game_at(OVER, starter=1 - HUMAN), str(path))
    term = start(spawn, "over", cwd=tmp_path)
    assert error_line(term) == f"over [{stamp(path)}]"
    assert quit_game(term) == 0


# ----- the command line ---------------------------------------------------


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [mille_command(), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=20,
        stdin=subprocess.DEVNULL,
    )


def test_two_files_is_a_usage_error(tmp_path: Path) -> None:
    result = run("a", "b", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (1, "", "usage: mille [file]\n")


def test_a_missing_file(tmp_path: Path) -> None:
    result = run("nothing", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "mille: nothing: No such file or directory\n"


@pytest.mark.parametrize(
    "content,reason",
    [
        (b"", "not a mille save file (empty)"),
        (b"\x00\x01\x02\x80garbage", "not a mille save file (not UTF-8 text at byte 3)"),
        (
            b'{"format": "bsd-mille-save", "version": 9}',
            "version: unsupported save version 9 (this mille reads versions 1, 2 and 3)",
        ),
    ],
)
def test_a_corrupt_file(tmp_path: Path, content: bytes, reason: str) -> None:
    (tmp_path / "bad").write_bytes(content)
    result = run("bad", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"mille: bad: {reason}\n"
    assert (tmp_path / "bad").read_bytes() == content


def test_a_tampered_save(tmp_path: Path) -> None:
    path = tmp_path / "cheat"
    save_session(Session.new(seed=1), str(path))
    path.write_text(
        path.read_text()
        .replace('"games": 0', '"games": 99', 1)
        .replace('"mileage": 0', '"mileage": 700', 1)
    )
    before = path.read_bytes()
    result = run("cheat", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        result.stderr
        == "mille: cheat: impossible game: side 1: mileage does not match the distance pile\n"
    )
    assert "Traceback" not in result.stderr
    assert path.read_bytes() == before


def test_a_directory(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    result = run("d", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (1, "mille: d: Is a directory\n")
