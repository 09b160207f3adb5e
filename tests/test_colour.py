"""Colour on the board with a row per side (issue 28): hazards red,
remedies green, safeties cyan, your side yellow; where the terminal has
colour, unless ``--no-color`` or a non-empty ``NO_COLOR``.  BSD's board
stays plain, as BSD draws it."""

from __future__ import annotations

import curses
from collections.abc import Callable

import pytest

from mille.engine.cards import (
    ALL_NAMES,
    GO,
    NO_CARD,
    RIGHT_OF_WAY,
    STOP,
    is_hazard,
    is_remedy,
    is_safety,
)
from mille.engine.rules import find_rules
from mille.frontends.cli import HELP, parse_args
from mille.frontends.table_screen import (
    HAZARD_PAIR,
    PAIR_COLORS,
    REMEDY_PAIR,
    SAFETY_PAIR,
    YOU_PAIR,
    TableBoard,
    card_pair,
    color_wanted,
)
from mille.game.session import Session
from support.fakewindow import Grid
from support.screen import Term


class Painted(Grid):
    """A grid that keeps each cell's attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.attrs = [[0] * self.cols for _ in range(self.rows)]

    def erase(self) -> None:
        super().erase()
        self.attrs = [[0] * self.cols for _ in range(self.rows)]

    clear = erase

    def addstr(self, y: int, x: int, text: str, attr: int = 0) -> None:
        super().addstr(y, x, text, attr)
        for i in range(len(text)):
            self.attrs[y][x + i] = attr


def test_each_kind_of_card_has_its_pair() -> None:
    for card in range(len(ALL_NAMES)):
        if is_hazard(card):
            assert card_pair(card) == HAZARD_PAIR, ALL_NAMES[card]
        elif is_remedy(card):
            assert card_pair(card) == REMEDY_PAIR, ALL_NAMES[card]
        elif is_safety(card):
            assert card_pair(card) == SAFETY_PAIR, ALL_NAMES[card]
        else:
            assert card_pair(card) == 0, ALL_NAMES[card]  # distances, False Virtue
    assert card_pair(NO_CARD) == 0
    assert PAIR_COLORS == {
        HAZARD_PAIR: curses.COLOR_RED,
        REMEDY_PAIR: curses.COLOR_GREEN,
        SAFETY_PAIR: curses.COLOR_CYAN,
        YOU_PAIR: curses.COLOR_YELLOW,
    }


@pytest.mark.parametrize(
    "environ,asked,wanted",
    [
        ({}, True, True),
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": "0"}, True, False),  # any value but empty
        ({"NO_COLOR": ""}, True, True),
        ({}, False, False),
    ],
)
def test_no_color_and_the_option_turn_it_off(
    environ: dict[str, str], asked: bool, wanted: bool
) -> None:
    assert color_wanted(environ, asked) is wanted


def test_the_option_is_read_and_told() -> None:
    assert parse_args([]).color and not parse_args(["--no-color"]).color
    assert not parse_args(["--no-color", "game.sav"]).color
    assert "  --no-color            no colour on the board with a row per side" in HELP


def painted(session: Session, colored: bool, monkeypatch: pytest.MonkeyPatch) -> Painted:
    monkeypatch.setattr(curses, "color_pair", lambda number: number << 8)
    window = Painted()
    board = TableBoard(window, session)  # type: ignore[arg-type]
    board.colored = colored
    board.render()
    return window


def test_the_board_draws_cards_and_your_side_in_their_colours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session = Session.new(find_rules("classic", players=3), seed=1)
    table = session.table
    table.hands[0][1:4] = [STOP, GO, RIGHT_OF_WAY]
    table.tableaux[1].battle.append(GO)
    window = painted(session, True, monkeypatch)
    lines = window.lines()
    hand_y = lines.index(next(line for line in lines if line.startswith("--HAND--")))
    for slot, pair in ((1, HAZARD_PAIR), (2, REMEDY_PAIR), (3, SAFETY_PAIR)):
        assert window.attrs[hand_y + 1 + slot][2] == pair << 8, slot
    side_2 = lines.index(next(line for line in lines if line.startswith(" 2 Comp 1")))
    assert lines[side_2][16:18] == "Go" and window.attrs[side_2][16] == REMEDY_PAIR << 8
    you = lines.index(next(line for line in lines if line.startswith(" 1 You")))
    assert window.attrs[you][3] == curses.A_BOLD | YOU_PAIR << 8
    plain = painted(session, False, monkeypatch)
    assert plain.lines() == lines, "the same text"
    assert {a for row in plain.attrs for a in row} <= {0, curses.A_BOLD, curses.A_STANDOUT}


def test_colour_on_a_terminal(spawn: Callable[..., Term]) -> None:
    """In a pty (TERM=screen has 8 colours): the hand in its kinds'
    colours, your side in yellow."""
    term = spawn("--rules", "classic", "--players", "3", "--seed", "1")
    term.wait_for(">>:Move:", row=22)
    lines = term.settle()
    colours = {term.screen.buffer[y][2].fg for y in range(9, 16) if lines[y][:1] in "P123456"} - {
        "default"
    }
    assert colours and colours <= {"red", "green", "cyan"}
    assert term.screen.buffer[2][3].fg == "brown"  # "You" on side 1's row: ANSI 33 (pyte's name)


@pytest.mark.parametrize(
    "args,env",
    [
        (("--no-color",), {}),
        ((), {"NO_COLOR": "1"}),
    ],
)
def test_no_colour_when_asked(
    spawn: Callable[..., Term], args: tuple[str, ...], env: dict[str, str]
) -> None:
    term = spawn("--rules", "classic", "--players", "3", "--seed", "1", *args, env=env)
    term.wait_for(">>:Move:", row=22)
    term.settle()
    assert all(char.fg == "default" for row in term.screen.buffer.values() for char in row.values())


def test_bsds_board_stays_plain(spawn: Callable[..., Term]) -> None:
    term = spawn("--seed", "1")
    term.wait_for("--MILEAGE--", row=17)
    term.settle()
    assert all(char.fg == "default" for row in term.screen.buffer.values() for char in row.values())
