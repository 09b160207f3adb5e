"""The translation layer: the language chosen, the catalogs checked, and
every screen in the pseudo-language (each message about 40% longer, its
letters accented, in brackets): no English word left (a message that does
not go through ``mille.i18n`` shows as English and fails), nothing drawn
past the screen's edge; and French on BSD's board, whole.

English is the default and costs nothing: ``_`` returns its argument and
no catalog is read (``gettext`` not even imported).
"""

from __future__ import annotations

import gettext
import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_plain import whole_game

from mille import i18n
from mille.engine.rules import find_rules
from mille.engine.text import width
from mille.frontends import plain, recorder, screen, ui
from mille.frontends.table_ui import TableUi
from mille.game.session import Session
from support.command import run_mille
from support.fakewindow import FakeWindow, OutOfKeys
from tools import catalogs

ROOT = Path(__file__).resolve().parent.parent
FRENCH = catalogs.LOCALE / "fr" / "LC_MESSAGES" / "mille.po"
# words that are data, not messages: the rule sets' and levels' names as
# typed, the people's names, the program's
DATA = {"bsd", "classic", "milebymile", "mille", "Ann", "Bob", "easy", "standard", "expert"}
DATA |= {"individual"}


@pytest.fixture
def pseudo() -> Iterator[None]:
    i18n.use(catalogs.Pseudo(), "xx")
    try:
        yield
    finally:
        i18n.use(None)


def english(lines: list[str]) -> list[str]:
    """The words of three letters or more written in plain ASCII letters:
    in the pseudo-language, every message's letters are accented."""
    return sorted({word for line in lines for word in re.findall(r"[A-Za-z]{3,}", line)} - DATA)


@pytest.fixture
def past_the_edge(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the boards asked to draw past the screen's right edge (the
    screen cuts it: it must not need to)."""
    found: list[str] = []
    put = screen.Screen.put

    def checked(self: screen.Screen, y: int, x: int, text: str, attr: int = 0) -> None:
        cols = self.scr.getmaxyx()[1]
        if x + width(text.rstrip()) > cols:
            found.append(f"row {y} col {x}: {text!r}")
        put(self, y, x, text, attr)

    monkeypatch.setattr(screen.Screen, "put", checked)
    return found


# ----- the language chosen ------------------------------------------------------


def test_english_reads_no_catalog() -> None:
    """Without a language, with C, POSIX or English: the messages as
    written, and neither a catalog nor the gettext module is read."""
    code = (
        "import sys; from mille import i18n; "
        "print(i18n.choose(), 'gettext' in sys.modules, i18n._('Go'))"
    )
    for env in ({}, {"LANG": "C"}, {"LC_ALL": "POSIX", "LANG": "fr_FR.UTF-8"}, {"LANG": "en_US"}):
        clean = {k: v for k, v in os.environ.items() if k not in i18n.ENVIRONMENT}
        done = subprocess.run(
            [sys.executable, "-c", code], env={**clean, **env}, capture_output=True, text=True
        )
        assert done.stdout == "en False Go\n", env


def test_the_environment_and_lang_choose_french() -> None:
    assert run_mille("--help", LANGUAGE="fr").stdout.startswith("usage\u00a0: mille [--rules NOM]")
    assert run_mille("--help", LANG="fr_FR.UTF-8").stdout.startswith("usage\u00a0: mille")
    assert run_mille("--lang", "fr", "--help", LANG="C").stdout.startswith("usage\u00a0: mille")
    assert run_mille("--lang=fr", "--help").stdout.startswith("usage\u00a0: mille")
    english_help = run_mille("--lang", "en", "--help", LANGUAGE="fr").stdout
    assert english_help.startswith("usage: mille [--rules NAME]")
    assert "  --lang CODE           the language of the words: fr (French) or en" in english_help


def test_a_language_without_a_catalog_is_english() -> None:
    assert run_mille("--help", LANGUAGE="xx_YY:de").stdout.startswith("usage: mille")
    assert i18n.wanted(None, {"LANGUAGE": "de:fr_CA.UTF-8"}) == ["de", "fr_CA", "fr"]


def test_usage_errors_are_translated() -> None:
    done = run_mille("--lang", "fr", "--port", "7")
    assert done.returncode == 1
    assert done.stderr == (  # one line, as in English
        "mille\u00a0: --port va avec --host ou --join (mille --help donne la liste des options)\n"
    )


# ----- the catalogs ----------------------------------------------------------------


def test_every_catalog_is_complete_and_its_placeholders_match() -> None:
    messages = catalogs.extract()
    found = sorted(catalogs.LOCALE.glob("*/LC_MESSAGES/mille.po"))
    assert FRENCH in found
    for path in found:
        assert catalogs.problems(path, messages) == [], path


def test_the_check_sees_a_missing_message_and_a_wrong_placeholder(tmp_path: Path) -> None:
    messages: dict[catalogs.Key, list[str]] = {
        (None, "Go", None): ["x"],
        (None, "{who} drew {cards}", None): ["x"],
    }
    path = tmp_path / "mille.po"
    path.write_text(
        catalogs.format_po(
            [((None, "{who} drew {cards}", None), [], ["{qui} a pioché {cards}"])], "Language: xx\n"
        ),
        encoding="utf-8",
    )
    assert catalogs.problems(path, messages) == [
        "untranslated: 'Go'",
        "placeholders of '{who} drew {cards}': '{qui} a pioché {cards}'",
    ]


def test_the_template_has_every_message_of_the_sources() -> None:
    """mille/locale/mille.pot is extracted again after a change
    (python tools/catalogs.py extract)."""
    _header, template = catalogs.read(catalogs.TEMPLATE)
    assert set(template) == set(catalogs.extract())


def test_the_compiled_catalog_reads_as_gettext_does() -> None:
    """The .mo that setup.py writes (i18n.write_mo) is GNU gettext's: the
    standard library reads it, plural forms and contexts included."""
    data = i18n.write_mo(i18n.read_po(FRENCH.read_text(encoding="utf-8")))
    fr = gettext.GNUTranslations(io.BytesIO(data))
    assert fr.gettext("Right of Way") == "Véhicule prioritaire"
    assert fr.pgettext("card name, at most 18 columns", "Right of Way") == "Prioritaire"
    one = "{total} card, {deck} of them in the deck"
    many = "{total} cards, {deck} of them in the deck"
    assert [fr.ngettext(one, many, n).split()[1].rstrip(",") for n in (0, 1, 2)] == [
        "carte",
        "carte",
        "cartes",
    ]


def test_the_french_deck_and_rules_words() -> None:
    """The names of the French deck and of the French rules."""
    _header, fr = catalogs.read(FRENCH)
    words = {key[1]: strs[0] for key, strs in fr.items() if key[0] is None}
    assert [
        words[name] for name in ("Out of Gas", "Flat Tire", "Accident", "Speed Limit", "Stop")
    ] == [
        "Panne d'essence",
        "Crevaison",
        "Accident",
        "Limite de vitesse",
        "Feu rouge",
    ]
    assert [
        words[name] for name in ("Gasoline", "Spare Tire", "Repairs", "End of Limit", "Go")
    ] == [
        "Essence",
        "Roue de secours",
        "Réparations",
        "Fin de limite de vitesse",
        "Feu vert",
    ]
    safeties = ("Extra Tank", "Puncture Proof", "Driving Ace", "Right of Way")
    assert [words[name] for name in safeties] == [
        "Citerne d'essence",
        "Increvable",
        "As du volant",
        "Véhicule prioritaire",
    ]
    assert words["Extension"] == "Allonge" and words["Shut-Out"] == "Capot"
    assert words["Coup Fourre?"] == "Coup fourré\u00a0?"
    assert words["Milestones Played"] == "Bornes parcourues"


# ----- the screens in the pseudo-language ------------------------------------------


def bsd_session() -> Session:
    return Session.new(seed=5)


BSD_KEYS = "pu1\n" + "t" + "wt" + "w" + "?" + " " * 3 + "L" + "q" + "h" + "x" + "JCE" + "Q"


@pytest.mark.usefixtures("pseudo")
def test_bsd_board_in_the_pseudo_language(past_the_edge: list[str]) -> None:
    """BSD's board, its score windows, the tracker, the help, the log, a
    hint and an error, in the pseudo-language: no English word, nothing
    past the edge."""
    window = FakeWindow(BSD_KEYS)
    with pytest.raises(OutOfKeys):
        ui.Ui(window, bsd_session()).run()  # type: ignore[arg-type]
    shown = [line for lines in window.screens for line in lines]
    assert len(window.screens) == len(BSD_KEYS) + 1
    assert english(shown) == []
    assert past_the_edge == [], "\n".join(past_the_edge)
    assert any("[" in line for line in shown)


@pytest.mark.parametrize(
    "rules",
    [
        find_rules("classic", players=4),
        find_rules("milebymile", players=6, team_mode="2v2v2", karma=True, stacking=True),
        find_rules("milebymile", players=3, reshuffle=False),
    ],
    ids=["classic4", "milebymile6", "milebymile3"],
)
@pytest.mark.usefixtures("pseudo")
def test_row_board_in_the_pseudo_language(rules: object, past_the_edge: list[str]) -> None:
    """The board with a row per side: the sides, the full scores, the
    tracker, the help, the log, a hazard's side, in the pseudo-language."""
    session = Session.new(rules, seed=2)  # type: ignore[arg-type]
    keys = "pd1\n" + "t" + "t" + "w" + "w" + "?" + " " * 3 + "L" + "q" + "h" + "x" + "JCE" + "Q"
    window = FakeWindow(keys, prompt=(22, 0, 80), error=(23, 0))
    with pytest.raises(OutOfKeys):
        TableUi(window, session).run()  # type: ignore[arg-type]
    shown = [line for lines in window.screens for line in lines]
    assert english(shown) == []
    assert past_the_edge == [], "\n".join(past_the_edge)


@pytest.mark.parametrize("rules", ["bsd", "classic", "milebymile"])
@pytest.mark.usefixtures("pseudo")
def test_line_mode_in_the_pseudo_language(rules: str) -> None:
    """The line mode's lines: the table, a move, the help, the scores,
    the tracker, the log, a hint, a mistake, quitting."""
    session = Session.new(find_rules(rules, players=3 if rules != "bsd" else 2), seed=4)
    script = "p\nd 1\n?\nw\nr\nt\nl\nh\nz\nu 9\nq\ny\n"
    out = io.StringIO()
    plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) > 20
    assert english(lines) == []


# ----- French on the boards --------------------------------------------------------


@pytest.mark.usefixtures("french")
def test_french_fits_bsd_board_whole(past_the_edge: list[str]) -> None:
    """On BSD's board at 80x24 every French label is whole: the score
    rows, the keys, the piles, the cards' names."""
    from mille.frontends.bsd_screen import SCORE_FULL, SCORE_SMALL, SCORE_TOP

    window = FakeWindow("pu1\n" + "w" + "t" + "?")
    with pytest.raises(OutOfKeys):
        ui.Ui(window, bsd_session()).run()  # type: ignore[arg-type]
    text = "\n".join(line for lines in window.screens for line in lines)
    for _y, _x, label in SCORE_TOP + SCORE_SMALL + SCORE_FULL:
        assert i18n._(label) in text, label
    for words in ("--MAIN--", "--PIOCHE--", "--DÉFAUSSE--", "--BATAILLE--", "--VITESSE--"):
        assert words in text
    assert "--BORNES--" in text and ">>:À vous:" in text and "o trier la main" in text
    assert "Non vues (pioche et main de l'Ordi)" in text
    assert past_the_edge == [], "\n".join(past_the_edge)
    help_page = window.screens[-1]
    assert help_page[0].startswith("MILLE BORNES\u00a0: touches et règles")
    assert help_page[-2].startswith("Ordinateur\u00a0: normal (--level\u00a0: facile pour débuter")


@pytest.mark.usefixtures("french")
def test_french_row_board_hand_shows_the_short_names() -> None:
    """The row board's hand has 17 columns: a French card's name there is
    its short form (``Fin de limite``), as on BSD's board, never a long
    name cut (``Fin de limite de``)."""
    from mille.engine.cards import END_OF_LIMIT

    session = Session.new(find_rules("classic", players=4), seed=4)
    hand = session.table.hands[0]
    hand[1] = END_OF_LIMIT  # (the card whose French name is long)
    window = FakeWindow("x", prompt=(22, 0, 80), error=(23, 0))
    with pytest.raises(OutOfKeys):
        TableUi(window, session).run()  # type: ignore[arg-type]
    rows = window.screens[-1]
    assert any(
        row.startswith("1 Fin de limite ") or row.rstrip() == "1 Fin de limite" for row in rows
    )
    assert not any("Fin de limite de" in row for row in rows)


@pytest.mark.usefixtures("french")
def test_french_log_lines() -> None:
    """The log conjugates your moves and the others' apart."""
    session = bsd_session()
    out = io.StringIO()
    plain.play(session, stdin=io.BytesIO(b"p\nd 1\n"), stdout=out)
    text = out.getvalue()
    assert "Vous avez pioché " in text and "Vous avez défaussé " in text
    assert re.search(r"Ordi 1 a (joué|défaussé) ", text)


def test_the_french_man_page() -> None:
    """man/fr/mille.6, installed as share/man/fr/man6/mille.6: it renders
    without warnings at 80 columns, names --lang and the French deck."""
    import shutil

    page = ROOT / "man" / "fr" / "mille.6"
    text = page.read_text(encoding="utf-8")
    assert text.startswith('.\\" -*- coding: UTF-8 -*-')  # for man's preconv
    for words in ("Fl -lang", "Véhicule prioritaire", "Fin de limite de vitesse", "coup fourré"):
        assert words in text
    if shutil.which("groff") is None:
        pytest.skip("no groff")
    lint = subprocess.run(
        ["groff", "-k", "-mandoc", "-Tutf8", "-ww", "-z", str(page)], capture_output=True, text=True
    )
    assert lint.returncode == 0 and lint.stderr == ""
    shown = subprocess.run(
        ["groff", "-k", "-mandoc", "-Tutf8", "-rLL=78n", str(page)], capture_output=True, text=True
    ).stdout
    shown = re.sub(r".\x08", "", re.sub(r"\x1b\[[0-9;]*m", "", shown))
    assert max(len(line) for line in shown.splitlines()) <= 80


@pytest.mark.parametrize(("rules", "players"), [("bsd", 2), ("classic", 4), ("milebymile", 3)])
@pytest.mark.usefixtures("pseudo")
def test_a_whole_game_in_the_pseudo_language(
    rules: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole game in the line mode, to its winner: the questions
    (Another hand?, Discard a safety?, Save game?), the end of each hand,
    the scores, the results, in the pseudo-language.  (The record's lines
    at the end are the recorder's, not translated yet: left out.)"""
    monkeypatch.setattr(recorder, "enabled", False)
    script = "\n".join(whole_game(rules, players, 6)) + "\n"
    session = Session.new(find_rules(rules, players=players), seed=6)
    out = io.StringIO()
    status = plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
    lines = out.getvalue().splitlines()
    assert status == 0
    assert english(lines) == []
    assert any(line.startswith("[") and "~" in line for line in lines[-30:])


def keys_of(commands: list[str]) -> str:
    """The line mode's commands as the boards' keys (``u 3`` is U, 3,
    RETURN; ``u 3 2``, a hazard on side 2, then 2, RETURN)."""
    keys = ""
    for command in commands:
        words = command.split()
        keys += "".join(words[:2]) + ("\n" if words[0] in ("u", "d") else "")
        keys += "".join(word + "\n" for word in words[2:])
    return keys


@pytest.mark.parametrize(("rules", "players"), [("bsd", 2), ("classic", 3), ("milebymile", 4)])
@pytest.mark.usefixtures("pseudo")
def test_a_whole_game_on_the_boards_in_the_pseudo_language(
    rules: str, players: int, monkeypatch: pytest.MonkeyPatch, past_the_edge: list[str]
) -> None:
    """The same on the boards: every screen of a whole game (the ends of
    hands, the full score table, the results on the error line)."""
    monkeypatch.setattr(recorder, "enabled", False)
    keys = keys_of(whole_game(rules, players, 8))
    session = Session.new(find_rules(rules, players=players), seed=8)
    if rules == "bsd":
        keys += "n"  # Save game? (BSD's own board asks it after a game too)
        window = FakeWindow(keys)
        game: ui.Ui = ui.Ui(window, session)  # type: ignore[arg-type]
    else:
        window = FakeWindow(keys, prompt=(22, 0, 80), error=(23, 0))
        game = TableUi(window, session)  # type: ignore[arg-type]
    game.run()  # the last n ends it
    assert session.table.game_over
    shown = [line for lines in window.screens for line in lines]
    assert english(shown) == []
    assert past_the_edge == [], "\n".join(past_the_edge[:10])


def test_a_game_saved_in_french_is_the_game_saved_in_english() -> None:
    """Saves carry no language: the same moves made in French and in
    English save the same text (the log's notices too: a reshuffle)."""
    from mille.storage import savefile

    def saved(code: str | None) -> str:
        i18n.choose(code or "en")
        try:
            session = Session.new(find_rules("milebymile", players=3), seed=9)
            out = io.StringIO()
            script = "".join(f"{c}\n" for c in whole_game("milebymile", 3, 9)[:60])
            plain.play(session, stdin=io.BytesIO(script.encode()), stdout=out)
            assert ("Vous avez" in out.getvalue()) == (code == "fr")
            return savefile.dumps(session)
        finally:
            i18n.use(None)

    assert saved("fr") == saved(None)


@pytest.mark.usefixtures("pseudo")
def test_the_save_prompt_the_hand_off_and_a_small_terminal_in_the_pseudo_language(
    past_the_edge: list[str],
) -> None:
    """S's prompt (an empty name cancels), two people's hand-off page, and
    the notice of a terminal too small, in the pseudo-language."""
    session = Session.new(seed=5, humans=(0, 1), names={0: "Ann"})  # seat 1: Player 1
    window = FakeWindow("s\n" + "pd1\n" + " " + "p")
    with pytest.raises(OutOfKeys):
        ui.Ui(window, session).run()  # type: ignore[arg-type]
    shown = [line for lines in window.screens for line in lines]
    assert any("[Ƥášš ťó [Ƥĺáýéŕ 1~~~]" in line for line in shown)  # Pass to Player 1.
    assert english(shown) == []
    small = FakeWindow("", rows=20)
    with pytest.raises(OutOfKeys):
        ui.Ui(small, bsd_session()).run()  # type: ignore[arg-type]
    assert english(small.lines()) == [] and small.lines()[0].startswith("[")
    assert past_the_edge == [], "\n".join(past_the_edge)
