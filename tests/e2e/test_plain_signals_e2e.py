"""End to end: the line mode (``mille --plain``) on a terminal, signals while
the computers move.  ^C asks ``Really?`` once the move under way is done,
as on the board; a hang-up followed at once by SIGTERM keeps the game."""

from __future__ import annotations

import re
import signal
from collections.abc import Callable
from pathlib import Path

from mille.storage.savefile import load_session
from support.screen import Term

Spawn = Callable[..., Term]
NINE_EXPERTS = (
    "--plain",
    "--rules",
    "milebymile",
    "--players",
    "9",
    "--level",
    "expert",
    "--seed",
    "3",
)


def your_discard(term: Term) -> None:
    """Pick, then discard: the eight experts move (seconds in all)."""
    term.wait_for("Your move:", timeout=20)
    term.send("p\r")
    term.wait_for("Your hand: P:", timeout=20)
    term.send("d 1\r")
    term.wait_for("You discarded", timeout=20)


def test_control_c_while_the_computers_move_asks_really(spawn: Spawn, tmp_path: Path) -> None:
    term = spawn(*NINE_EXPERTS, cwd=tmp_path)
    your_discard(term)
    term.send("\x03")
    term.wait_for("Really?", timeout=20)
    assert b"Traceback" not in term.raw and term.child.isalive()
    term.send("n\r")
    term.wait(lambda: term.raw.count(b"Your move:") >= 3, timeout=30, what="your next move")
    term.send("q\r")
    term.wait(lambda: term.raw.count(b"Really?") == 2, what="Really? again")
    term.send("y\r")
    assert term.wait_exit() == 0


def test_sighup_then_sigterm_keeps_the_game(spawn: Spawn, tmp_path: Path) -> None:
    term = spawn(*NINE_EXPERTS, cwd=tmp_path)
    your_discard(term)
    term.child.kill(signal.SIGHUP)
    term.child.kill(signal.SIGTERM)  # a second signal while the game is being kept
    assert term.wait_exit(timeout=10) == 1
    # the two signals are sent at once: with more than one thread in the
    # process either may be seen first (the CI saw "terminated" once)
    assert re.search(rb"mille: (hang-up|terminated); the game is kept in ", term.raw)
    assert b"could not be kept" not in term.raw
    (kept,) = (Path(term.state_home) / "mille").glob("interrupted-*.json")
    assert load_session(str(kept)).rules.players == 9
