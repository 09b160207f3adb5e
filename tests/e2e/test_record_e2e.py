"""``mille --forget`` at a terminal asks first (issue 40, item 18), read
through a pseudo-terminal as a person sees it."""

from __future__ import annotations

from collections.abc import Callable

from test_record_files import game

from mille.storage import record
from support.screen import Term


def test_forget_at_a_terminal_asks_and_no_keeps_the_name(spawn: Callable[..., Term]) -> None:
    record.add(game(1, names=("Ann", None)))
    record.add(game(2, names=("ann", "Bob")))
    term = spawn("--forget", "ANN")
    term.wait_for("Forget ANN in 2 games? (y/n)")
    term.send("n\r")
    term.wait_for("Nothing forgotten.")
    term.settle()
    assert [s.name for g in record.games() for s in g.seats] == ["Ann", None, "ann", "Bob"]
    term = spawn("--forget", "ANN")
    term.wait_for("Forget ANN in 2 games? (y/n)")
    term.send("y\r")
    term.wait_for("Forgot ANN: 2 games.")
    term.settle()
    assert [s.name for g in record.games() for s in g.seats] == [None, None, None, "Bob"]
