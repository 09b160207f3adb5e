"""Issue 49, items 2a to 2c: the answers and command words of each
language (in French ``o``/``oui`` is yes, ``piocher`` picks) and the
level's names (``--level facile``, ``--level normal``)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_board import extension_asked
from test_plain import whole_game

from mille import i18n
from mille.engine.rules import find_rules
from mille.engine.table import EXTENSION, PICK, Discard, Use
from mille.frontends import cli, cli_help, plain
from mille.frontends.commands import answer, parse, yes_no_key
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from mille.players.registry import level_code
from support import fakewindow

PROMPTS = ("Your move: ", "Really? ", "Another hand? ", "Another game? ", "Save game? ")


@pytest.fixture(autouse=True)
def private_state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


def run(script: str) -> tuple[int, str]:
    out = io.StringIO()
    session = Session.new(find_rules("classic", players=3), seed=3)
    status = plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
    return status, out.getvalue()


# ----- 2a: o and oui are yes in French -----------------------------------------------------------


def test_french_answers_o_and_oui(french: None) -> None:
    said = ["o", "Oui", "OUI", "y", "yes", "n", "non", "No", "h", "conseil", "ouais"]
    assert [answer(line) for line in said] == ["y"] * 5 + ["n"] * 3 + ["h", "h", ""]


def test_english_answers_are_as_before() -> None:
    said = ["y", "yes", "n", "no", "o", "oui", "non"]
    assert [answer(line) for line in said] == ["y", "y", "n", "n", "", "", ""]


def test_a_key_at_a_question(french: None) -> None:
    keys = [ord(key) for key in "oOyYnNsq"] + [0x263A, -1]
    assert [yes_no_key(key) for key in keys] == ["y", "y", "y", "y", "n", "n", "", "", "", ""]


def test_a_key_at_a_question_in_english() -> None:
    assert [yes_no_key(ord(key)) for key in "oOyYnN"] == ["", "", "y", "y", "n", "n"]


def test_the_line_mode_takes_o_for_yes_in_french(french: None) -> None:
    status, out = run("q\no\n")
    assert out.count("Vraiment") == 1 and "Répondez" not in out and status == 0


def test_the_line_mode_takes_non_for_no_in_french(french: None) -> None:
    status, out = run("q\nnon\nq\noui\n")
    assert out.count("Vraiment") == 2 and "Répondez" not in out and status == 0


def test_the_line_mode_says_how_to_answer_in_french(french: None) -> None:
    status, out = run("q\npeut-être\no\n")
    assert "Répondez o (oui) ou n (non)" in out and status == 0


OFFER = """
from mille import i18n
from mille.frontends import offer
i18n.choose("fr")
print(offer.ask_yes_no("? ", line=True))
"""


@pytest.mark.parametrize(
    "typed,wanted", [(b"o\n", b"True"), (b"oui\n", b"True"), (b"non\n", b"False")]
)
def test_the_kept_games_offer_takes_o_in_french(typed: bytes, wanted: bytes) -> None:
    done = subprocess.run(
        [sys.executable, "-c", OFFER],
        input=typed,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == wanted


# ----- 2b: the French help's verbs -------------------------------------------------------------


def test_the_french_words_play() -> None:
    assert parse("piocher") == PICK
    assert parse("jouer 3") == Use(3)
    assert parse("Jouer 3 2") == Use(3, 2)
    assert parse("défausser 2") == Discard(2)
    assert parse("DÉFAUSSER p") == Discard(0)
    assert parse("defausser 6") == Discard(6)
    words = ["trier", "montrer", "remontrer", "conseil", "compteur", "manche", "sauver"]
    assert [parse(word) for word in [*words, "quitter", "aide"]] == [
        parse(letter) for letter in "owrhtlsq?"
    ]


def test_the_french_words_play_in_a_french_game(french: None) -> None:
    status, out = run("piocher\ndéfausser 1\nquitter\noui\n")
    assert "commande inconnue" not in out and out.count("Vraiment") == 1 and status == 0


def test_the_french_help_names_the_words(french: None) -> None:
    status, out = run("?\nq\ny\n")
    assert "piocher, jouer N, défausser N, trier" in out and status == 0


# ----- 2c: each level's names ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,code",
    [("easy", "easy"), ("facile", "easy"), ("standard", "standard"), ("normal", "standard")]
    + [("Normal", "standard"), ("expert", "expert")],
)
def test_level_takes_every_name(name: str, code: str) -> None:
    assert level_code(name) == code
    assert cli.parse_args(["--level", name]).level == code
    stats = cli.parse_args(["--stats", "--level", name]).stats
    assert stats is not None and stats.level == code


def test_an_unknown_level_is_one_line() -> None:
    with pytest.raises(cli.UsageError) as caught:
        cli.parse_args(["--level", "hard"])
    assert "invalid choice: 'hard' (choose from 'easy', 'standard', 'expert')" in str(caught.value)


def test_the_french_help_names_the_french_levels(french: None) -> None:
    assert "facile, normal (par défaut)" in cli_help.help_text()


# ----- 5: long lines cut between words at a terminal's width -------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return 1


def on_terminal(monkeypatch: pytest.MonkeyPatch, script: str, columns: int) -> str:
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((columns, 24)))
    out = Terminal()
    session = Session.new(find_rules("classic", players=3), seed=3)
    plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("language", [None, "fr"])
def test_a_terminal_cuts_lines_between_words(
    monkeypatch: pytest.MonkeyPatch, language: str | None
) -> None:
    if language:
        assert i18n.choose(language) == language
    try:
        out = on_terminal(monkeypatch, "r\n?\nq\ny\n", 40)
        piped = run("r\n?\nq\ny\n")[1]
    finally:
        i18n.use(None)
    lines = out.split("\n")
    assert max(len(line) for line in lines) <= 40, [line for line in lines if len(line) > 40]
    assert " ".join(out.split()) == " ".join(piped.split())  # the same words, none cut
    assert max(len(line) for line in piped.split("\n")) > 40  # a pipe: whole lines
    assert "5000 points" in " ".join(out.split()) and "\n000 points" not in out


# ----- 6: what a listener hears ------------------------------------------------------------------

BARE = {"-", "|", "/", "*", "=>", "->", "+", "x"}  # a symbol said alone for a word
NUMBER = re.compile(r"[0-9]+$")  # a number alone, no mark before or after it


def unheard(out: str, prompts: tuple[str, ...]) -> list[str]:
    """The lines a listener would mishear: a bare symbol for a word, or two
    numbers side by side with no word or mark between (what is typed, after
    a prompt, is the player's own)."""
    bad = []
    for line in out.split("\n"):
        if line.startswith(prompts):
            continue
        words = line.split()
        if any(word in BARE for word in words) or any(
            NUMBER.match(one) and NUMBER.match(two) for one, two in zip(words, words[1:])
        ):
            bad.append(line)
    return bad


@pytest.mark.parametrize("language", [None, "fr"])
@pytest.mark.parametrize(
    "rules_name,players,seed",
    [("bsd", 2, 4), ("classic", 3, 5), ("classic", 4, 6), ("milebymile", 5, 7)],
)
def test_a_whole_game_is_heard_in_words(
    language: str | None, rules_name: str, players: int, seed: int
) -> None:
    commands = ["t", "w", "l", "?"] + whole_game(rules_name, players, seed)
    if language:
        assert i18n.choose(language) == language
    try:
        session = Session.new(find_rules(rules_name, players=players), seed=seed)
        out = io.StringIO()
        script = "\n".join(commands) + "\n"
        plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
        prompts = tuple(i18n._(prompt) for prompt in PROMPTS)
    finally:
        i18n.use(None)
    said = out.getvalue()
    assert said.count("\n") > 100
    assert unheard(said, prompts) == []


# ----- 2a on the boards: O answers yes in French, and only at a question -----------------------


def on_the_board(keys: str) -> Session:
    session = extension_asked()
    game = TableUi(fakewindow.FakeWindow(keys), session)  # type: ignore[arg-type]
    with pytest.raises(fakewindow.OutOfKeys):
        game.run()
    return session


def test_the_row_board_takes_o_for_yes_in_french(french: None) -> None:
    assert on_the_board("pu1\ro").table.target == 1000


def test_the_row_board_takes_o_as_no_answer_in_english() -> None:
    assert on_the_board("pu1\ro").table.phase == EXTENSION  # a beep: still asked


def test_the_seats_first_lines_are_cut_between_words_at_the_terminals_width() -> None:
    """``Vous êtes à la place 0 (vous hébergez cette table : vous seul pouvez
    donner, sau`` / ``ver ou finir).``: the network seat's first lines (before
    its line mode starts) were written whole, and the terminal cut them
    inside a word; now they are cut between words, as the line mode's."""
    import fcntl
    import os
    import struct
    import termios

    from mille.frontends.remote.lines import sayer

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
    with os.fdopen(slave, "w", encoding="utf-8") as out:
        sayer(out)("You sit at seat 0 (you host this table: only you may deal, save or end).")
    got = os.read(master, 4096).decode().replace("\r\n", "\n")
    os.close(master)
    assert got == "You sit at seat 0 (you host this table:\nonly you may deal, save or end).\n"
