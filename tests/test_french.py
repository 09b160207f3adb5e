"""Issue 45 (a language code is a name; a catalog that cannot be used is
English) and issue 49 (--lang's codes, elision, French typography)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from mille import i18n
from support.command import run_mille
from tools import catalogs

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(None)


def a_catalog(where: Path, code: str, po: bytes) -> Path:
    folder = where / code / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "mille.po").write_bytes(po)
    return folder


def test_a_language_code_is_a_name_never_a_path(tmp_path: Path) -> None:
    a_catalog(tmp_path, "fr", b'msgid "Go"\nmsgstr "Allez"\n')
    evil = str(tmp_path / "fr")
    assert i18n.wanted(evil, {}) == []
    assert i18n.wanted(None, {"LANG": "../" * 9 + evil}) == []
    assert i18n.catalog("../" * 20 + str(tmp_path)[1:] + "/fr") is None
    done = run_mille("--lang", "../" * 20 + str(tmp_path)[1:] + "/fr", "--help")
    assert done.stdout.startswith("usage: mille [--rules NAME]")
    assert (
        done.stderr
        == f"mille: no translation for {'../' * 20 + str(tmp_path)[1:] + '/fr'!r}; playing in English\n"
    )
    quiet = run_mille("--help", LANGUAGE=str(tmp_path), LANG="/etc")
    assert quiet.stdout.startswith("usage: mille [--rules NAME]") and quiet.stderr == ""


@pytest.mark.parametrize(
    "po",
    [b'msgid "Go"\nmsgstr "All\xe9"\n', b'msgid "Go\nmsgstr', b"\x00\x01garbage"],
)
def test_a_catalog_that_cannot_be_read_is_english_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, po: bytes
) -> None:
    a_catalog(tmp_path, "fr", po)
    monkeypatch.setattr(i18n, "LOCALE_DIR", str(tmp_path))
    monkeypatch.setattr(i18n.catalog, "__defaults__", (str(tmp_path),))
    assert i18n.choose("fr") == "en"
    assert i18n._("Go") == "Go"
    assert i18n.said is not None and "\n" not in i18n.said
    assert i18n.said.startswith("mille: the catalog ") and i18n.said.endswith(
        "; playing in English"
    )


def test_a_damaged_mo_is_english_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = a_catalog(tmp_path, "fr", b"")
    (folder / "mille.po").unlink()
    (folder / "mille.mo").write_bytes(b"\xde\x12\x04\x95" + b"\xff" * 40)
    monkeypatch.setattr(i18n.catalog, "__defaults__", (str(tmp_path),))
    assert i18n.choose("fr") == "en" and i18n.said is not None


def test_a_translation_with_a_field_its_message_lacks_is_the_english_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po = (
        'msgid "{name} wins"\nmsgstr "{nom} gagne"\n\n'
        'msgid "{n} cards"\nmsgstr "{n} cartes {"\n\n'
        'msgid "Pass to {name}."\nmsgstr "Au tour de {name}."\n'
    )
    a_catalog(tmp_path, "fr", po.encode())
    monkeypatch.setattr(i18n.catalog, "__defaults__", (str(tmp_path),))
    assert i18n.choose("fr") == "fr"
    assert i18n._("{name} wins").format(name="Anne") == "Anne wins"
    assert i18n._("{n} cards").format(n=3) == "3 cards"
    assert i18n._("Pass to {name}.").format(name="Anne") == "Au tour d'Anne."


@pytest.mark.parametrize("code", ["FR", "fr_fr", "fr_FR.UTF-8", "Fr-fr", "fr_FR.utf8@euro"])
def test_lang_takes_a_code_in_any_case(code: str) -> None:
    done = run_mille("--lang", code, "--help")
    assert done.stdout.startswith("usage\u00a0: mille [--rules NOM]") and done.stderr == ""


@pytest.mark.parametrize("code", ["de", "xx", "de_DE.UTF-8"])
def test_a_language_without_a_catalog_is_said_once_then_english(code: str) -> None:
    done = run_mille("--lang", code, "--help")
    assert done.stdout.startswith("usage: mille [--rules NAME]")
    assert done.stderr == f"mille: no translation for {code!r}; playing in English\n"
    quiet = run_mille("--help", LANG=code)
    assert quiet.stdout.startswith("usage: mille [--rules NAME]") and quiet.stderr == ""


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Anne", "Au tour d'Anne."),
        ("Élodie", "Au tour d'Élodie."),
        ("Ordi 2", "Au tour d'Ordi 2."),
        ("Yves", "Au tour d'Yves."),
        ("Ugo", "Au tour d'Ugo."),
        ("Bob", "Au tour de Bob."),
        ("Hugo", "Au tour de Hugo."),
        ("Yann", "Au tour de Yann."),
    ],
)
def test_french_elides_de_before_a_vowel(name: str, said: str) -> None:
    assert i18n.choose("fr") == "fr"
    assert i18n._("Pass to {name}.").format(name=name) == said
    assert i18n.de(name) == said[len("Au tour ") : -1]


def test_french_typography_is_checked() -> None:
    assert catalogs.typography("Sauver la partie ? (o/n)") == [
        "a space before '?' is not a no-break space: 'Sauver la partie ? (o/n)'"
    ]
    assert catalogs.typography("à 12:30, https://x.org, « mot »") == [
        "no no-break space inside « »: 'à 12:30, https://x.org, « mot »'"
    ]
    assert catalogs.typography("fin\u00a0; oui\u202f! «\u00a0mot\u00a0»\u00a0:\u00a0x") == []
    assert catalogs.typography("mille: x") == ["no no-break space before ':': 'mille: x'"]
    assert catalogs.typography("? aide  ?\u00a0: aide") == []
    assert catalogs.typography("mille --join ADRESSE[:PORT] CODE") == []


def test_dates_in_english_are_bsds_and_in_french_are_french(tmp_path: Path) -> None:
    import time

    from mille.frontends.cli import file_stamp

    stamp = time.mktime((2026, 12, 1, 19, 37, 56, 0, 0, -1))
    saved = tmp_path / "partie-été.json"
    saved.write_text("{}")
    os.utime(saved, (stamp, stamp))
    assert i18n.when(stamp) == time.ctime(stamp) == "Tue Dec  1 19:37:56 2026"
    assert file_stamp(str(saved)) == f"{saved} [Tue Dec  1 19:37:56 2026]"
    assert i18n.choose("fr") == "fr"
    assert i18n.when(stamp) == "mar. 1 déc. 2026 19:37:56"
    assert file_stamp(str(saved)) == f"{saved} [mar. 1 déc. 2026 19:37:56]"
    summer = time.mktime((2026, 7, 25, 8, 5, 0, 0, 0, -1))
    assert i18n.when(summer) == "sam. 25 juil. 2026 08:05:00"


def test_the_errors_a_person_meets_are_french(tmp_path: Path) -> None:
    import errno

    from mille.storage import savefile

    assert i18n.choose("fr") == "fr"
    gone = FileNotFoundError(errno.ENOENT, "No such file or directory")
    assert i18n.oserror(gone) == "Aucun fichier ou dossier de ce nom"
    assert i18n.oserror(PermissionError(errno.EACCES, "x")) == "Permission refusée"
    assert i18n.oserror(OSError(errno.ENOSPC, "x")) == "Plus de place sur le disque"
    assert i18n.oserror(OSError(errno.EDOM, "Numerical argument")) == "Numerical argument"
    assert savefile.said("Is a directory") == "C'est un dossier"
    i18n.use(None)
    assert i18n.oserror(gone) == "No such file or directory"
    missing = str(tmp_path / "x.json")
    done = run_mille("--lang", "fr", missing, XDG_STATE_HOME=str(tmp_path))
    nb = "\u00a0"
    assert done.stderr == f"mille{nb}: {missing}{nb}: Aucun fichier ou dossier de ce nom\n"
    english = run_mille(missing, XDG_STATE_HOME=str(tmp_path))
    assert english.stderr == f"mille: {missing}: No such file or directory\n"


def test_argparse_speaks_french() -> None:
    """argparse's words in French, and the levels a refusal lists by their
    French names, which --level takes (``normal``, not ``standard``)."""
    nb = "\u00a0"
    done = run_mille("--lang", "fr", "--level", "dur")
    assert done.returncode == 1
    assert done.stderr.startswith(f"mille{nb}: argument --level")
    assert (
        f"choix invalide{nb}: 'dur' (au choix{nb}: 'facile', 'normal', 'expert')"
        " (mille --help donne la liste des options)\n"
    ) in done.stderr
    english = run_mille("--level", "dur")
    assert english.stderr.startswith(
        "mille: argument --level: invalid choice: 'dur' (choose from 'easy', 'standard', 'expert')"
    )


def test_the_french_help_names_the_default_player_as_the_table_does() -> None:
    done = run_mille("--lang", "fr", "--help")
    assert "est Joueur N)" in done.stdout and "Player" not in done.stdout


def test_the_save_checks_reasons_are_french() -> None:
    from mille.storage import savefile

    assert i18n.choose("fr") == "fr"
    said = savefile.said("not a mille save file (no format name)")
    assert said == "pas une sauvegarde de mille (pas de nom de format)"
    assert savefile.said("not a mille save file (over 1 MiB)") == (
        "pas une sauvegarde de mille (plus de 1\u00a0Mio)"
    )
    assert savefile.said("log[3].turn: not a mille save file (empty)") == (
        "log[3].turn\u00a0: pas une sauvegarde de mille (vide)"
    )


def test_the_row_boards_columns_show_a_name_that_fits() -> None:
    from mille.engine import cards
    from mille.engine.describe import card_name, fitting_name
    from mille.engine.text import width
    from mille.frontends.table_screen import BATTLE, SPEED

    battle = (cards.STOP, cards.GO, cards.SPARE_TIRE, cards.REPAIRS, cards.OUT_OF_GAS)
    speed = (cards.SPEED_LIMIT, cards.END_OF_LIMIT)
    for card in battle + speed:  # English: the names as they are
        assert fitting_name(card, BATTLE[2] if card in battle else SPEED[2]) == card_name(card)
    assert i18n.choose("fr") == "fr"
    shown = [fitting_name(card, BATTLE[2]) for card in battle]
    assert shown == ["Feu rouge", "Feu vert", "Secours", "Réparation", "Panne"]
    assert [fitting_name(card, SPEED[2]) for card in speed] == ["Limite 50", "Fin du 50"]
    assert fitting_name(cards.REPAIRS, 40) == "Réparations" and fitting_name(cards.REPAIRS, 80)
    assert all(width(fitting_name(card, 10)) <= 10 for card in battle + speed)


def test_a_save_too_large_and_a_quit_signal_are_said_in_french(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal of a save too large to load back, and the quit signal a
    game is kept for, in the player's language (they were English)."""
    from mille.frontends import process
    from mille.game.session import Session
    from mille.storage import recovery, savefile

    assert i18n.choose("fr") == "fr"
    session = Session.new(seed=3)
    with monkeypatch.context() as patched, pytest.raises(OSError) as info:
        patched.setattr(savefile, "MAX_SIZE", 100)
        savefile.save_session(session, str(tmp_path / "g.json"))
    size = len(savefile.dumps(session))
    assert i18n.oserror(info.value) == (
        f"sauvegarde impossible\u00a0: la partie prend {size}\u00a0octets,"
        " plus que les 4\u00a0Mio qu'une sauvegarde peut contenir"
    )
    import signal

    line, kept = process.keep(session, recovery.signal_reason(signal.SIGQUIT))
    assert kept and line.startswith("mille\u00a0: signal d'abandon\u00a0; "), line


def test_the_record_in_french_puts_its_space_before_the_semicolon() -> None:
    """``gagnée 5925-3700 ; 1513? (+7)``: the last games of ``--stats`` in
    French put a no-break space before ``;`` (they joined with ``; ``)."""
    from mille.frontends.record_words import _last_line

    assert i18n.choose("fr") == "fr"
    game = {  # one of the last games, as the record gives it (--stats --json)
        "key": "c4", "number": 2, "moves": True, "ended": "2026-12-02T03:59:01Z",
        "local": "2026-12-02T03:59:01+00:00", "rules": "bsd", "against": "easy",
        "opponents": [{"level": "easy"}], "place": "keyboard", "result": "won",
        "score": 5925, "best_other": 3700, "rating": 1513, "change": 7, "provisional": True,
    }  # fmt: skip
    assert "5925-3700\u00a0; 1513" in _last_line(game)
