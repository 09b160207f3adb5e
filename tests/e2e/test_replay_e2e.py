"""``mille --replay FILE`` at a terminal of 80x24 (issue 47): BSD's board
drawn at once, a key a step, ``q`` leaves with the terminal restored;
read through a pseudo-terminal as a person sees it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from test_replay_fronts import whole_game

from mille.storage import gamefile
from support.screen import Term


def test_a_replay_steps_on_bsds_board_and_restores_the_terminal(
    spawn: Callable[..., Term], tmp_path: Path
) -> None:
    history = whole_game()
    file = tmp_path / "game.json"
    file.write_text(gamefile.dumps(history))
    first = len(history.hands[0].moves)
    hands = len(history.hands)
    term = spawn("--replay", str(file))
    term.drawn(f"hand 1 of {hands}, move 0 of {first}", row=15)
    assert term.lines()[5].startswith("--HAND--")
    term.send("ll")
    term.wait_for(f"hand 1 of {hands}, move 2 of {first}", row=15)
    term.send("\x1b[D")  # the left arrow: a move back
    term.wait_for(f"hand 1 of {hands}, move 1 of {first}", row=15)
    term.send("]")
    term.wait_for(f"hand 1 of {hands}, move {first} of {first}", row=15)
    term.send("n")
    term.wait_for(f"hand 2 of {hands}, move 0 of ", row=15)
    term.send("?")
    term.wait_for("The replay's keys:", row=0)
    term.send(" q")
    assert term.wait_exit() == 0
    restored, _, told = term.raw.rpartition(b"\x1b[?1049l")
    assert restored, "the terminal is restored"
    assert b"Traceback" not in term.raw
