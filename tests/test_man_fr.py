"""The French man page, man/fr/mille.6, says what the English one says:
the same sections, the same options, rendered clean at 80 columns."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGLISH = ROOT / "mille.6"
FRENCH = ROOT / "man" / "fr" / "mille.6"

# Each section of mille.6 (.Sh and .Ss) and its name in the French page.
SECTIONS = {
    "NAME": "NOM",
    "SYNOPSIS": "SYNOPSIS",
    "DESCRIPTION": "DESCRIPTION",
    "OPTIONS": "OPTIONS",
    "KEYS": "TOUCHES",
    "THE BOARD": "LE PLATEAU",
    "LINE MODE": "MODE LIGNE",
    "PLAYING TOGETHER": "JOUER À PLUSIEURS",
    "NETWORK": "RÉSEAU",
    "Playing with a friend elsewhere": "Jouer avec un ami ailleurs",
    "CARDS": "CARTES",
    "RULES": "RÈGLES",
    "KARMA": "KARMA",
    "SCORING": "SCORE",
    "RECORD": "HISTORIQUE",
    "FILES": "FICHIERS",
    "ENVIRONMENT": "ENVIRONNEMENT",
    "EXIT STATUS": "CODE DE RETOUR",
    "SEE ALSO": "VOIR AUSSI",
    "AUTHORS": "AUTEURS",
}


def sections(page: pathlib.Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return re.findall(r"^\.S[hs] (.+)$", text, flags=re.M)


def options(page: pathlib.Path) -> set[str]:
    """Every long option the page documents (``Fl -name``)."""
    return set(re.findall(r"\bFl (-[a-z0-9-]+)", page.read_text(encoding="utf-8")))


def rendered(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["groff", "-k", "-mandoc", "-Tutf8", *options, str(FRENCH)],
        capture_output=True,
        text=True,
    )


def shown() -> list[str]:
    """The page as man shows it at 80 columns, without bold and underline."""
    out = rendered("-rLL=78n").stdout
    return re.sub(r".\x08", "", re.sub(r"\x1b\[[0-9;]*m", "", out)).splitlines()


needs_groff = pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")


def test_every_english_section_has_its_french_one_in_the_same_order() -> None:
    assert sections(ENGLISH) == list(SECTIONS)
    assert sections(FRENCH) == list(SECTIONS.values())


def test_every_option_of_the_english_page_is_in_the_french_one() -> None:
    english = options(ENGLISH)
    assert {"-host", "-join", "-stats", "-forget", "-cert", "-karma"} <= english
    assert sorted(english - options(FRENCH)) == []


def test_the_header_and_the_synopsis() -> None:
    """An mdoc header as the English page's, and the join code required:
    ``--join ADRESSE:PORT CODE`` as in mille.6, not an optional code."""
    text = FRENCH.read_text(encoding="utf-8")
    assert text.startswith('.\\" -*- coding: UTF-8 -*-\n')  # for man's preconv
    assert re.search(r"^\.Dd .+\n(?:.*\n){0,3}\.Dt MILLE 6\n", text, flags=re.M)
    synopsis = text.split(".Sh SYNOPSIS\n")[1].split(".Sh ")[0]
    assert ".Fl -join Ar adresse : Ns Ar port code\n" in synopsis
    assert not re.search(r"^\.Op .*Ar port", synopsis, flags=re.M)
    assert "Fl -host | Fl -join" not in synopsis  # --join has its own line


def test_the_catalogs_words() -> None:
    """The French deck's names and the questions as the game says them."""
    text = FRENCH.read_text(encoding="utf-8")
    for words in (
        "Panne d'essence",
        "Crevaison",
        "Feu rouge",
        "Limite de vitesse",
        "Fin de limite de vitesse",
        "Accident",
        "Essence",
        "Roue de secours",
        "Réparations",
        "Feu vert",
        "As du volant",
        "Increvable",
        "Citerne d'essence",
        "Véhicule prioritaire",
        "Allonge\\~?",
        "Coup fourré\\~?",
        "Défausser une botte\\~?",
        "Capot",
        "coup fourré",
    ):
        assert words in text, words


def test_no_plain_space_before_french_punctuation() -> None:
    """Outside the literal examples, ; : ? ! follow a no-break space
    (``\\~``), so that no line of the page starts with one."""
    text = FRENCH.read_text(encoding="utf-8")
    text = re.sub(r"^\.Bd -literal\n.*?^\.Ed\n", "", text, flags=re.M | re.S)
    prose = [line for line in text.splitlines() if not line.startswith(".")]
    bad = [line for line in prose if re.search(r"[^\s\\~] [;:?!](?!:)", line)]
    assert bad == []


@needs_groff
def test_the_french_page_renders_without_warnings() -> None:
    lint = rendered("-ww", "-z")
    assert lint.returncode == 0 and lint.stderr == ""


@needs_groff
def test_the_french_page_fits_80_columns() -> None:
    lines = shown()
    assert lines[0].split() == ["MILLE(6)", "Manuel", "des", "jeux", "MILLE(6)"]
    assert max(len(line) for line in lines) <= 80
    # a wrapped line never starts with French punctuation (the ? key's
    # own entry, "?  Un écran ...", is a key, not a wrap)
    assert [line for line in lines if re.match(r"\s*([;:!»]|\?(?!\s{2,}Un écran))", line)] == []
    assert "« Allonge ? »" in " ".join(" ".join(lines).split())


@needs_groff
def test_the_rendered_synopsis_requires_the_join_code() -> None:
    lines = shown()
    assert "     mille --join adresse:port code [--name nom] [--cert fichier]" in lines


@needs_groff
def test_the_card_table_keeps_its_columns_apart() -> None:
    lines = shown()
    cards = lines.index("CARTES")
    table = lines[cards + 1 : cards + 20]
    assert re.split(r"\s{2,}", table[0].strip()) == ["Carte", "Sorte", "bsd", "classic, milebymile"]
    row = next(line for line in table if line.lstrip().startswith("Fin de limite"))
    assert re.split(r"\s{2,}", row.strip()) == ["Fin de limite de vitesse", "parade", "6", "6"]
    safety = next(line for line in table if "prioritaire" in line)
    assert re.split(r"\s{2,}", safety.strip()) == ["Véhicule prioritaire", "botte", "1", "1"]
    assert re.split(r"\s{2,}", table[-1].strip()) == ["Total", "101", "106"]


def test_pyproject_installs_it_where_man_l_fr_looks() -> None:
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"share/man/fr/man6" = ["man/fr/mille.6"]' in project
