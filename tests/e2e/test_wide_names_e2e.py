"""End to end: a name of wide (CJK) characters, each two columns on a
terminal, takes the columns the boards give a name and no more (pyte lays
out wide characters as a terminal does: the character, then an empty cell).

The name has 8 characters, 16 columns: the most a name may take.
"""

from __future__ import annotations

from collections.abc import Callable

from support.screen import Term

Spawn = Callable[..., Term]
NAME = "\u5c71\u7530\u592a\u90ce" * 2  # 山田太郎山田太郎


def cells(term: Term, y: int) -> list[str]:
    """Row ``y`` cell by cell (a wide character's second cell is "")."""
    line = term.screen.buffer[y]
    return [line[x].data for x in range(term.cols)]


def bobs_board(spawn: Spawn, *args: str) -> Term:
    term = spawn(*args, "--people", f"0=Bob,1={NAME}")
    term.wait_for("Pass to Bob.")
    term.send(" ")
    term.wait_for("--HAND--")
    term.settle()
    return term


def test_the_row_boards_side_column_holds_a_wide_name_in_its_six_columns(spawn: Spawn) -> None:
    term = bobs_board(spawn, "--rules", "classic", "--players", "3", "--seed", "1")
    row = cells(term, 3)  # side 2, the other person's
    # "Side" is 6 columns from x=3: three wide characters; "Miles" right-aligned at 10-14
    assert row[:15] == [" ", "2", " ", "\u5c71", "", "\u7530", "", "\u592a", "", " "] + [
        " "
    ] * 4 + ["0"]
    assert cells(term, 2)[:15] == list(" 1 You        0")


def test_bsds_board_names_the_other_person_in_its_six_columns(spawn: Spawn) -> None:
    term = bobs_board(spawn, "--seed", "3")
    row = cells(term, 0)
    assert row[62:] == list("You   ") + ["\u5c71", "", "\u7530", "", "\u592a", "", " "] + list(
        "Value"
    )
