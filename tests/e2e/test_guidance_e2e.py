"""End to end (issue 22): what the boards tell a newcomer, through the
installed ``mille`` in a pty: the options in force, the reminders, the
computers thinking, L (the whole hand so far), a hint shown whole on
BSD's board, ``?`` per preset, the N-seat board on a taller terminal."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from mille.engine.table import PICK
from mille.game.session import Session
from mille.players import advice
from support.screen import Term

Spawn = Callable[..., Term]
PROMPT_Y = 22

SIX = ("--rules", "milebymile", "--players", "6", "--teams", "2v2v2", "--karma", "--seed", "5")


def quit_game(term: Term, prompt_y: int = PROMPT_Y) -> None:
    term.send("q")
    term.wait_for("Really?", row=prompt_y)
    term.send("y")
    assert term.wait_exit() == 0


def test_the_n_seat_board_shows_options_keys_help_and_the_whole_hand(spawn: Spawn) -> None:
    term = spawn(*SIX)
    lines = term.drawn("karma; standard computers", row=PROMPT_Y)
    assert lines[PROMPT_Y].startswith(">>:Move:") and lines[PROMPT_Y].endswith("computers")
    assert lines[19].startswith("h: hint  t: tracker")
    assert lines[20].startswith("w: scores  ?: help")
    assert "(l: the whole hand)" in lines[8]
    board = term.settle()

    term.send("?")
    term.wait_for("MILLE BORNES.  In force: 1000 miles, game 5000 points, perfect crossing", row=0)
    help_lines = term.settle()
    text = "\n".join(help_lines)
    assert "karma, standard computers\n(--level: easy for a first game," in text
    assert "Extension?" not in text
    assert "Karma: a hazard costs your side its" in text.replace("\n", " ")
    assert "L      the hand so far" in text
    term.send(" ")
    term.wait(lambda: term.lines() == board, what="the board again")

    term.send("p")
    term.wait_for("You drew ", row=9)
    term.send("d3\r")
    term.wait(
        lambda: (
            "You discarded" not in term.text()
            and term.lines()[PROMPT_Y].endswith("standard computers")
        ),
        what="your turn again",
    )
    term.settle()
    assert "You drew " not in term.text(), "the short log starts after your last turn"
    term.send("l")
    term.wait_for("The hand so far (lines 1-", row=0)
    view = term.settle()
    assert view[1].startswith("You drew ") and view[2].startswith("You discarded ")
    assert any(line.startswith("Comp 1 ") for line in view[3:])
    assert view[23].startswith("up/down, PgUp/PgDn")
    term.send("q")
    term.wait_for(">>:Move:", row=PROMPT_Y)
    term.wait_for("--HAND--", row=8)
    quit_game(term)


def test_slow_computers_are_shown_thinking_one_after_another(spawn: Spawn) -> None:
    term = spawn("--rules", "milebymile", "--players", "9", "--level", "expert", "--seed", "5")
    term.wait_for("expert computers", row=PROMPT_Y, timeout=20)
    term.send("p")
    term.wait_for("You drew ", row=12)
    term.send("d3\r")
    term.wait_for("Comp 1 is thinking...", row=PROMPT_Y, timeout=10)
    seen = []

    def thinking() -> bool:
        row = term.lines()[PROMPT_Y]
        if row.endswith("is thinking...") and row.split()[-3] not in seen:
            seen.append(row.split()[-3])
        return row.endswith("expert computers")

    term.wait(thinking, timeout=60, what="your turn again")
    assert len(seen) >= 3 and seen == sorted(seen), f"computers seen thinking: {seen}"
    assert "Comp 8 " in term.text(), "their moves are in the log"
    quit_game(term)


def test_bsds_board_shows_a_long_hint_whole_then_its_own_screen_again(spawn: Spawn) -> None:
    session = Session.new(seed=10)  # what mille --seed 10 deals
    while session.computer_to_move:
        session.computer_move()
    session.play(PICK)
    hint = advice.hint(session.view(0))
    assert len(textwrap.wrap(hint, 35)) >= 2, hint  # a hint longer than the error line

    term = spawn("--seed", "10")
    term.wait_for(">>:Move:", row=10)
    term.wait_for("--MILEAGE--", row=17)
    dealt = term.settle()
    term.send("p")
    term.wait(lambda: term.lines()[6] != dealt[6], what="the picked card")
    picked = term.settle()
    term.send("h")
    term.wait(
        lambda: any("hint: " in line and "thinking" not in line for line in term.lines()[10:16]),
        timeout=30,
        what="the hint",
    )
    shown = term.settle()
    # the hint the program shows (its analysis may be cut short by its time cap
    # on a busy machine, and then say another thing than this process's): whole,
    # wrapped in the score window's columns, its last row on the error line
    top = next(row for row in range(10, 16) if shown[row][45:].startswith("hint: "))
    rows = [line[45:].rstrip() for line in shown[top:16]]
    assert len(rows) >= 2 and rows == textwrap.wrap(" ".join(rows), 35), "the whole hint"
    assert shown[:top] == picked[:top] and shown[16:] == picked[16:], "the rest is BSD's"
    term.send("r")
    term.wait_for("w: toggle window", row=14)
    back = term.settle()
    assert back[:15] == picked[:15], "the next key: BSD's score window again"

    term.send("L")
    term.wait_for("The hand so far (lines 1-", row=0)
    assert term.settle()[1].startswith("You drew ")
    term.send("\x1b")
    term.wait_for("--MILEAGE--", row=17)

    term.send("?")
    term.drawn("for a challenge).  Press any key to go back to the game.", row=23)
    assert "  L      the hand so far (scroll)" in term.text()
    term.send(" ")
    term.wait_for("--MILEAGE--", row=17)
    term.send("q")
    term.wait_for("Really?", row=10)
    term.send("y")
    assert term.wait_exit() == 0


def test_a_taller_terminal_puts_the_prompt_at_the_foot(spawn: Spawn) -> None:
    term = spawn(*SIX, rows=30)
    lines = term.drawn("karma; standard computers", row=28)
    assert lines[28].startswith(">>:Move:")
    assert lines[25].startswith("h: hint  t: tracker")
    quit_game(term, 28)
