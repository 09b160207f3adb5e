"""End to end: ``LANGUAGE=fr mille`` and ``mille --lang fr`` in a
pseudo-terminal at 80x24: BSD's board and the row board in French, the
keys as in English."""

from __future__ import annotations

from collections.abc import Callable

from support.screen import Term


def test_bsd_board_in_french_from_the_environment(spawn: Callable[..., Term]) -> None:
    term = spawn("--seed", "3", env={"LANGUAGE": "fr"})
    lines = term.drawn(">>:À vous:", row=10)
    assert lines[0].endswith("Vous  Ordi   Prime")
    assert lines[1] == " " * 40 + "| Bornes parcourues     0     0"
    assert lines[5].startswith("--MAIN--            --PIOCHE--")
    assert lines[17].startswith("--BORNES--")
    term.send("p")  # the keys are the English ones
    term.wait_for("P ", row=6)
    term.send("Q")
    term.wait_for("Vraiment\u00a0?", row=10)
    term.send("y")
    assert term.wait_exit() == 0


def test_row_board_in_french_from_lang(spawn: Callable[..., Term]) -> None:
    term = spawn("--lang", "fr", "--rules", "classic", "--players", "4", "--seed", "7")
    lines = term.drawn(">>:À vous:", row=22)
    assert lines[0].startswith("classic 4 joueurs 2v2         Objectif 1000        Pioche ")
    assert lines[1].split() == ["#", "Camp", "Km", "Bataille", "Vitesse", "Bottes", "Man.", "Total"]
    assert lines[3].strip() == "Vous, Partenaire"
    assert lines[-2].endswith("ordinateurs\u00a0: normal")
    term.send("x")
    term.wait_for("commande inconnue\u00a0: X", row=23)
    term.send("Qy")
    assert term.wait_exit() == 0
