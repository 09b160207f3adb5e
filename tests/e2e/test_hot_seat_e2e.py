"""End to end: two people at one keyboard in a pty at 80x24 (TERM=screen).

Classic, four seats, the people partners (Ann at seat 0, Bob at seat 2)
against two computers, on the board with a row per side: the game opens
on a hand-off page that shows no hand, each person's board names them
``You`` and the partner by name, and after Ann's move the keyboard is
handed to Bob on a page that hides Ann's hand.  BSD's board takes two
people too, each seeing their own side on the left.
"""

from __future__ import annotations

from collections.abc import Callable

from support.screen import Term

Spawn = Callable[..., Term]


def hidden(term: Term) -> bool:
    """The hand-off page: no board, no hand."""
    text = term.text()
    return "--HAND--" not in text and "Team" not in text and "Comp" not in text


def wait_hand_off(term: Term, name: str) -> None:
    """Until ``Pass to NAME.``; a hazard on the team first gives each
    partner a look (``Your side was hit: press a key``), answered here."""
    for _ in range(20):
        term.wait(
            lambda: f"Pass to {name}." in term.text() or "press a key" in term.row(22),
            timeout=30,
            what=f"a hand-off to {name}",
        )
        if f"Pass to {name}." in term.text():
            return
        term.send(" ")
        term.settle()
    raise AssertionError(f"no hand-off to {name}")


def test_two_partners_hand_the_keyboard_on(spawn: Spawn) -> None:
    term = spawn("--rules", "classic", "--players", "4", "--people", "0=Ann,2=Bob", "--seed", "5")
    term.wait_for("Pass to Ann.")
    term.wait_for("Ann, press a key.")
    assert hidden(term)
    term.send(" ")
    term.wait_for("--HAND--")
    assert "You, Bob" in term.text() and "Comp 1, Comp 3" in term.text()
    term.wait_for(">>:Move:", row=22)
    term.send("P")
    term.settle()
    term.send("D1 ")
    wait_hand_off(term, "Bob")
    term.settle()
    assert hidden(term) and "Bob, press a key." in term.text()
    term.send(" ")
    term.wait_for("--HAND--")
    assert "Ann, You" in term.text()
    term.wait_for(">>:Move:", row=22)
    term.send("Q")
    term.wait_for("Really?")
    term.send("y")
    assert term.wait_exit() == 0


def test_bsds_board_with_two_people(spawn: Spawn) -> None:
    term = spawn("--people", "0=Ann,1=Bob", "--seed", "3")
    term.wait_for("Pass to Ann.")
    assert hidden(term)
    term.send(" ")
    term.wait_for("--HAND--")
    assert "Bob" in term.row(0)  # the other person's column in the score window
    term.send("P")
    term.settle()
    term.send("D1 ")
    term.wait_for("Pass to Bob.")
    assert hidden(term)
    term.send(" ")
    term.wait_for("--HAND--")
    assert "Ann" in term.row(0)
    term.send("Q")
    term.wait_for("Really?")
    term.send("y")
    assert term.wait_exit() == 0
