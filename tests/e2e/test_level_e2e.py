"""End to end: ``mille --level expert`` in a pty.  The expert computer
answers on BSD's board (its move shown as BSD shows the computer's), and a
save keeps it: the file names the expert and restores it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from mille.frontends.bsd_screen import MOVE_X, MOVE_Y
from support.screen import Term

Spawn = Callable[..., Term]


def last_move(term: Term) -> tuple[str, str]:
    lines = term.lines()
    return (
        lines[MOVE_Y + 1][MOVE_X : MOVE_X + 8].strip(),
        lines[MOVE_Y + 2][MOVE_X : MOVE_X + 16].strip(),
    )


def without_last_move(lines: list[str]) -> list[str]:
    """The board less the computer's last move (not kept in a save)."""
    out = [line.ljust(80) for line in lines]
    for y in (MOVE_Y + 1, MOVE_Y + 2):
        out[y] = out[y][:MOVE_X] + " " * 20 + out[y][MOVE_X + 20 :]
    return out


def test_the_expert_plays_and_is_saved(spawn: Spawn, tmp_path: Path) -> None:
    term = spawn("--level", "expert", "--seed", "4", cwd=tmp_path)
    term.wait_for(">>:Move:", row=MOVE_Y)
    assert last_move(term) == ("", "")
    term.send("p")
    term.wait(lambda: term.lines()[6][2:20].strip() != "", what="a pick")
    term.send("d")
    term.wait_for(">>:Move: D", row=MOVE_Y)
    term.send("p\r")  # the card just picked (P takes a return, as in BSD)
    # the expert picks, then plays or discards; then it is our move again
    # (the two lines of its move, together: a frame may arrive in pieces)
    term.wait(
        lambda: last_move(term)[0] in ("PLAY", "DISCARD") and last_move(term)[1] != "",
        what="the expert's move and its card",
        timeout=10,
    )
    term.wait_for(">>:Move:", row=MOVE_Y)
    term.send("s")
    term.wait_for("file:", row=MOVE_Y)
    term.send("game1\r")
    term.wait_for("game1 [", row=15)
    board = without_last_move(term.settle()[:15])
    term.send("q")
    term.wait_for("Really?", row=MOVE_Y)
    term.send("y")
    assert term.wait_exit() == 0

    seats = json.loads((tmp_path / "game1").read_text(encoding="utf-8"))["seats"]
    assert [seat.get("kind") for seat in seats] == [None, "expert"]
    term = spawn("game1", cwd=tmp_path)
    term.wait_for("game1 [", row=15)
    assert without_last_move(term.settle()[:15]) == board
    term.send("p")  # the restored game goes on
    term.wait(lambda: term.lines()[6][2:20].strip() != "", what="a pick")
    term.send("q")
    term.wait_for("Really?", row=MOVE_Y)
    term.send("y")
    assert term.wait_exit() == 0
