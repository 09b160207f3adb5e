"""End to end: two people at one keyboard in a pty at 80x24 (TERM=screen).

Classic, four seats, the people partners (Ann at seat 0, Bob at seat 2)
against two computers, on the board with a row per side: the game opens
on a hand-off page that shows no hand, each person's board names them
``You`` and the partner by name, and after Ann's move the keyboard is
handed to Bob on a page that hides Ann's hand.  BSD's board takes two
people too, each seeing their own side on the left.  From the moment
``Pass to Bob.`` shows, Ann's hand is neither on the screen nor in the
terminal's scrollback, in the line mode (cleared before the line is
printed) and on both boards.
"""

from __future__ import annotations

from collections.abc import Callable

import pyte

from support.screen import Screen, Stream, Term

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


class Scrollback(Screen, pyte.HistoryScreen):
    """The tests' screen (with SU and SD), keeping the lines scrolled off
    its top until ``ESC[3J``, as a real terminal does."""


def with_scrollback(term: Term) -> pyte.HistoryScreen:
    """Give ``term`` a scrollback, before any output is read."""
    screen = Scrollback(term.cols, term.rows, history=10000)
    term.screen, term.stream = screen, Stream(screen)
    return screen


def everything(term: Term, screen: pyte.HistoryScreen) -> str:
    """The scrollback and the screen, as text."""
    kept = ["".join(line[x].data for x in range(term.cols)) for line in screen.history.top]
    return "\n".join(kept + term.lines())


def test_the_line_modes_hand_off_hides_the_hand_and_the_scrollback(spawn: Spawn) -> None:
    term = spawn("--plain", "--people", "0=Ann,1=Bob", "--seed", "3")
    screen = with_scrollback(term)
    term.wait_for("Pass to Ann. Ann, press RETURN.")
    term.send("\r")
    term.wait_for("Your move:")
    for _ in range(30):  # more lines than the screen: some scroll into the scrollback
        term.send("r\r")
    term.send("p\r")
    term.wait_for("You drew")
    hands = [line for line in everything(term, screen).split("\n") if "Your hand: " in line]
    assert hands and len(screen.history.top) > 0
    term.send("d 1\r")
    term.wait_for("Pass to Bob. Bob, press RETURN.")
    shown = everything(term, screen)
    assert "Your hand: " not in shown and "Side 1, You" not in shown
    assert shown.strip() == "Pass to Bob. Bob, press RETURN."
    # the bytes say it too: the screen and its scrollback cleared before the line
    raw = bytes(term.raw)
    assert raw.rindex(b"\x1b[H\x1b[2J\x1b[3J") < raw.index(b"Pass to Bob.")
    assert raw.rindex(b"Your hand: ") < raw.rindex(b"\x1b[3J", 0, raw.index(b"Pass to Bob."))
    term.send("\r")
    term.wait_for("Bob, you are side 2.")
    term.wait_for("Your move:")
    assert "Out of Gas, 2: 100" not in everything(term, screen)  # Ann's hand, not Bob's
    term.send("q\r")
    term.wait_for("Really?")
    term.send("y\r")
    assert term.wait_exit() == 0


def test_two_partners_hand_the_keyboard_on(spawn: Spawn) -> None:
    term = spawn("--rules", "classic", "--players", "4", "--people", "0=Ann,2=Bob", "--seed", "5")
    screen = with_scrollback(term)
    term.wait_for("Pass to Ann.")
    term.wait_for("Ann, press a key.")
    assert hidden(term)
    term.send(" ")
    term.drawn("--HAND--")
    assert "You, Bob" in term.text() and "Comp 1, Comp 3" in term.text()
    term.wait_for(">>:Move:", row=22)
    term.send("P")
    term.settle()
    term.send("D1 ")
    wait_hand_off(term, "Bob")
    assert "--HAND--" not in everything(term, screen)
    term.settle()
    assert hidden(term) and "Bob, press a key." in term.text()
    assert "--HAND--" not in everything(term, screen)
    term.send(" ")
    term.drawn("--HAND--")
    assert "Ann, You" in term.text()
    term.wait_for(">>:Move:", row=22)
    term.wait_for("Bob, your turn.", row=23)  # whose turn, by name
    term.send("Q")
    term.wait_for("Really?")
    term.send("y")
    assert term.wait_exit() == 0


def test_bsds_board_with_two_people(spawn: Spawn) -> None:
    term = spawn("--people", "0=Ann,1=Bob", "--seed", "3")
    screen = with_scrollback(term)
    term.wait_for("Pass to Ann.")
    assert hidden(term)
    term.send(" ")
    term.wait_for("--HAND--")
    term.wait_for("Bob", row=0)  # the other person's column in the score window
    term.wait_for("Ann, your turn.", row=15)  # whose turn, by name, on the error line
    term.send("P")
    term.settle()
    term.send("D1 ")
    term.wait_for("Pass to Bob.")
    assert hidden(term) and "--HAND--" not in everything(term, screen)
    term.send(" ")
    term.wait_for("--HAND--")
    term.wait_for("Ann", row=0)
    term.wait_for("Bob, your turn.", row=15)
    term.send("Q")
    term.wait_for("Really?")
    term.send("y")
    assert term.wait_exit() == 0
