"""End to end: H (a hint) and T (the card tracker) on BSD's board, through
the installed ``mille`` in a pty: ``mille --seed 4``, pick, ask for a hint,
look at the cards not seen yet, go back to the scores."""

from __future__ import annotations

from collections.abc import Callable

from mille.engine.describe import card_name, unseen
from mille.engine.table import PICK
from mille.engine.view import SeatView
from mille.frontends import bsd_screen, screen
from mille.game.session import Session
from mille.players import advice
from support.screen import Term

Spawn = Callable[..., Term]


def error_line(term: Term) -> str:
    return term.lines()[15].ljust(80)[45:80].rstrip()


def tracker_cells(lines: list[str]) -> list[tuple[str, int]]:
    cells: list[tuple[str, int]] = []
    for x in (bsd_screen.TRACK_X, bsd_screen.TRACK_X + bsd_screen.TRACK_COLUMN):
        for y in range(bsd_screen.TRACK_Y, bsd_screen.TRACK_Y + 10):
            cell = lines[y].ljust(80)[x : x + 17]
            if cell.strip():
                cells.append((cell[:14].strip(), int(cell[14:17])))
    return cells


def test_h_and_t_on_bsds_board(spawn: Spawn) -> None:
    session = Session.new(seed=4)  # what mille --seed 4 deals
    while session.computer_to_move:
        session.computer_move()
    session.play(PICK)
    table = session.table

    term = spawn("--seed", "4")
    term.wait_for(">>:Move:", row=10)
    term.wait_for("--MILEAGE--", row=17)
    scores = term.settle()
    term.send("p")
    term.wait(
        lambda: term.lines()[6][2:20].strip() == card_name(table.hands[0][0]),
        what="the picked card",
    )
    picked = term.settle()

    term.send("h")
    term.wait_for("hint:", row=15, timeout=5)
    wanted = screen.fit_line(advice.hint(SeatView(table, 0)), 35)
    term.wait(lambda: error_line(term) == wanted, what=wanted)
    term.settle()
    assert error_line(term) == wanted
    assert error_line(term).startswith(("hint: U", "hint: D"))
    assert term.lines()[15][:45].rstrip() == picked[15][:45].rstrip(), "only the error line"
    assert term.bells() == 0, "a hint does not beep"
    assert term.lines()[6] == picked[6], "nothing was played"

    term.send("t")
    term.wait_for("Not seen yet", row=0)
    lines = term.settle()
    assert tracker_cells(lines) == [
        (card_name(c), n) for c, n in enumerate(unseen(SeatView(table, 0)))
    ]
    assert all(line.ljust(80)[40] == "|" for line in lines[:17]), "the border stays"
    assert error_line(term).startswith("hint: "), "the hint stays with the tracker"

    term.send("t")
    term.wait_for("Milestones Played", row=1)
    lines = term.settle()
    assert [line[40:] for line in lines[:15]] == [line[40:] for line in picked[:15]]
    assert scores[1] == lines[1]

    term.send("q")
    term.wait_for("Really?", row=10)
    term.send("y")
    assert term.wait_exit() == 0
