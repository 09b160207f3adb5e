"""The line mode's parser (``mille.frontends.commands``): a line becomes a
move, a command the line mode does itself, or the one line saying why not."""

from __future__ import annotations

import pytest

from mille.engine.table import PICK, Discard, Use
from mille.frontends.commands import WORDS, Command, Mistake, answer, parse


@pytest.mark.parametrize(
    ("line", "wanted"),
    [
        ("p", PICK),
        ("PICK", PICK),
        ("u 3", Use(3)),
        ("u3", Use(3)),
        ("use P", Use(0)),
        ("u 4 2", Use(4, 2)),
        ("u 4, 2", Use(4, 2)),
        ("d p", Discard(0)),
        ("discard 6", Discard(6)),
        ("d6", Discard(6)),
    ],
)
def test_moves(line: str, wanted: object) -> None:
    assert parse(line) == wanted


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("u", "which card? (u N or d N, N is P or 1-6)"),
        ("d 7", "no such slot: 7 (P or 0, 1-6)"),
        ("d 1 2", "d takes a slot only"),
        ("u 1 2 3", "u takes a slot and a side"),
        ("u 1 ²", "no such opponent"),
        ("u 1 1000", "no such opponent"),
        ("x", "unknown command: X"),
        ("p 2", "unknown command: p 2"),
        ("play  the\tgame", "unknown command: play the game"),
        ("z" * 50, "unknown command: " + "z" * 37 + "..."),
        ("\x1b", "unknown command: \\X1B"),
    ],
)
def test_mistakes_say_one_line(line: str, said: str) -> None:
    assert parse(line) == Mistake(said)


def test_every_command_and_its_word() -> None:
    for word, letter in WORDS.items():
        if letter not in "pud":
            assert parse(word) == parse(letter.upper()) == Command(letter)
    assert parse("e") == Command("e")
    assert parse("") is None and parse(" , ") is None


def test_answers() -> None:
    said = ["Y", "yes", "No", "s", "hint", "tracker", "L", "?", "save", "yess", "q", ""]
    assert [answer(line) for line in said] == ["y", "y", "n", "s", "h", "t", "l", "?"] + [""] * 4
