"""End to end: a plain ``mille`` offers the interrupted game, on the terminal,
before curses starts, naming it; one key answers (no RETURN, as every
yes/no of the board): y resumes it, n starts a new game, end of file or a
closed terminal keeps it.  With game options or ``--seed`` nothing is
asked: the new game starts and the kept one waits.

Each ``Term`` is given the test's own directory as its ``XDG_STATE_HOME``,
where the test left the recovery file.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mille.engine.cards import card_name
from mille.game.session import Session
from mille.storage import recovery
from mille.storage.savefile import dumps
from support.screen import Term

HUMAN = 0

WHEN = 1_795_000_000  # the interruption's date


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))  # for recovery.write here
    return tmp_path


@pytest.fixture
def spawn(state_home: Path) -> Iterator[Callable[..., Term]]:
    started: list[Term] = []

    def start(*args: str, command: str | None = None) -> Term:
        started.append(Term(*args, state_home=state_home, command=command))
        return started[-1]

    yield start
    for term in started:
        term.close()


def interrupted_game() -> tuple[Session, Path]:
    """A seeded game some moves in, you to move, left as a recovery file."""
    session = Session.new(seed=21)
    moves = 0
    while moves < 9 or session.computer_to_move:
        if session.computer_to_move:
            session.computer_move()
        else:
            session.play(session.table.legal_moves()[-1])
        moves += 1
    path = Path(recovery.write(session))
    os.utime(path, (WHEN, WHEN))
    return session, path


def hand_names(session: Session) -> list[str]:
    return [card_name(c) for c in session.table.hands[HUMAN]]


def hand_on_screen(term: Term) -> list[str]:
    return [line.ljust(20)[2:20].rstrip() for line in term.lines()[6:13]]


def ask(term: Term) -> None:
    term.wait_for(f"mille: a game was interrupted on {time.ctime(WHEN)}:")
    term.drawn("Resume it? (n deletes it) [yn]")
    lines = term.lines()
    which = lines[lines.index("Resume it? (n deletes it) [yn]") - 1]
    assert re.fullmatch(r"bsd, 2 players, scores \d+, \d+\.", which), which


def quit_game(term: Term) -> int:
    term.child.send("q")
    term.wait_for("Really?", row=10)
    term.child.send("y")
    return term.wait_exit()


def test_yes_resumes_the_game(spawn: Callable[..., Term], state_home: Path) -> None:
    session, path = interrupted_game()
    term = spawn()
    ask(term)
    assert path.exists()
    term.child.send("y")  # one key: no RETURN
    term.wait_for(">>:Move:", row=10)
    term.wait(lambda: hand_on_screen(term) == hand_names(session), what="the resumed hand")
    resumed = f"resumed [{time.ctime(WHEN)}]"
    term.wait(lambda: term.lines()[15].ljust(80)[45:].rstrip() == resumed, what=resumed)
    term.wait(lambda: not path.exists(), what="the kept file taken")
    assert quit_game(term) == 0
    assert os.listdir(path.parent) == []


def test_another_answer_asks_again(spawn: Callable[..., Term], state_home: Path) -> None:
    session, path = interrupted_game()
    term = spawn()
    ask(term)
    term.child.send("p\r")
    term.wait(lambda: term.bells() == 2, what="a beep for each other key")
    assert b"Resume it? (n deletes it) [yn] " in term.raw and b">>:Move:" not in term.raw
    term.child.send("Y")
    term.wait(lambda: hand_on_screen(term) == hand_names(session), what="the resumed hand")
    assert not path.exists()
    assert quit_game(term) == 0


def test_no_starts_a_new_game(spawn: Callable[..., Term], state_home: Path) -> None:
    session, path = interrupted_game()
    term = spawn()
    ask(term)
    term.child.send("n")
    term.wait_for(">>:Move:", row=10)
    term.wait(lambda: hand_on_screen(term) != hand_names(session), what="a new hand")
    assert not path.exists()
    assert quit_game(term) == 0


def test_options_start_a_new_game_and_the_kept_one_waits(
    spawn: Callable[..., Term], state_home: Path
) -> None:
    _, path = interrupted_game()
    before = path.read_bytes()
    term = spawn("--seed", "4")
    term.wait_for(">>:Move:", row=10)
    term.wait(lambda: hand_on_screen(term) == hand_names(Session.new(seed=4)), what="the new hand")
    assert b"Resume it?" not in term.raw
    assert re.search(
        (
            r"mille: a kept game is waiting \(bsd, 2 players, scores \d+, \d+; "
            f"{time.ctime(WHEN)}\\): run mille alone to resume it"
        ).encode(),
        bytes(term.raw),
    )
    assert quit_game(term) == 0
    assert path.read_bytes() == before


def test_control_backslash_at_the_question_keeps_the_game(
    spawn: Callable[..., Term], state_home: Path
) -> None:
    _, path = interrupted_game()
    before = path.read_bytes()
    term = spawn()
    ask(term)
    term.child.send("\x1c")  # ^\\: SIGQUIT
    assert term.wait_exit() == 130  # as ^C: nothing was answered
    assert b"Traceback" not in term.raw
    assert path.read_bytes() == before


OFFER_THEN_TERMINAL = """
import sys, termios
from mille.frontends import cli

status = cli.main([])
lflag = termios.tcgetattr(0)[3]
print("restored" if lflag & termios.ICANON and lflag & termios.ECHO else "raw")
sys.exit(status)
"""


@pytest.mark.parametrize("name, reason", [("SIGTERM", "terminated"), ("SIGHUP", "hang-up")])
def test_a_signal_at_the_question_keeps_the_game_and_restores_the_terminal(
    spawn: Callable[..., Term], state_home: Path, tmp_path: Path, name: str, reason: str
) -> None:
    """As everywhere else: one line, exit status 1, the terminal as it was
    (not left in cbreak, no echo), the kept game untouched."""
    import signal
    import sys

    _, path = interrupted_game()
    before = path.read_bytes()
    script = tmp_path / "script" / "offer.py"  # (not beside the state's mille/)
    script.parent.mkdir()
    script.write_text(OFFER_THEN_TERMINAL)
    term = spawn(str(script), command=sys.executable)
    ask(term)
    term.child.kill(getattr(signal, name))
    assert term.wait_exit() == 1
    text = term.raw.decode(errors="replace")
    assert f"\nmille: {reason}: the interrupted game is kept for next time\r\n" in text
    assert "restored" in text and "Traceback" not in text
    assert path.read_bytes() == before and path.stat().st_mtime == WHEN
    assert os.listdir(path.parent) == [path.name]


def test_end_of_file_keeps_the_game(spawn: Callable[..., Term], state_home: Path) -> None:
    session, path = interrupted_game()
    before = path.read_bytes()
    term = spawn()
    ask(term)
    term.child.sendeof()
    assert term.wait_exit() == 1
    assert b"mille: no answer: the interrupted game is kept for next time" in term.raw
    assert b"Traceback" not in term.raw
    assert path.read_bytes() == before and path.stat().st_mtime == WHEN
    assert dumps(Session.new(seed=21)) != before.decode() == dumps(session)


def test_a_closed_terminal_keeps_the_game(spawn: Callable[..., Term], state_home: Path) -> None:
    _, path = interrupted_game()
    before = path.read_bytes()
    term = spawn()
    ask(term)
    term.child.close(force=True)  # the terminal goes away: SIGHUP
    deadline = time.monotonic() + 5
    while term.child.isalive():  # pragma: no cover - close() waits
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert path.read_bytes() == before and path.stat().st_mtime == WHEN
    assert os.listdir(path.parent) == [path.name]


def test_a_bad_recovery_file_is_moved_aside(spawn: Callable[..., Term], state_home: Path) -> None:
    _, path = interrupted_game()
    path.write_text("not a game\n")
    term = spawn()
    term.wait_for(">>:Move:", row=10)
    assert b"Resume it?" not in term.raw
    assert f"{path.name}: not a mille save file".encode() in term.raw
    assert f"(moved to {path.name}.bad)".encode() in term.raw
    assert not path.exists()
    assert Path(str(path) + ".bad").read_text() == "not a game\n"
    assert quit_game(term) == 0


def test_a_file_argument_never_asks(
    spawn: Callable[..., Term], state_home: Path, tmp_path: Path
) -> None:
    _, path = interrupted_game()
    game = tmp_path / "game"
    game.write_bytes(path.read_bytes())
    term = spawn(str(game))
    term.wait_for(">>:Move:", row=10)
    assert b"Resume it?" not in term.raw
    assert quit_game(term) == 0
    assert path.exists()
