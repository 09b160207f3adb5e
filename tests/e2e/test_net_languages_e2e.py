"""End to end over loopback (127.0.0.1), issue 41's "Done when": a French
host (``LANGUAGE=fr mille --host --plain``) and an English joiner
(``mille --join ... --plain``) play one game, each reading their own
language: who comes, the game's start, chat, the moves, and the host's
end, which the joiner reads in English (the protocol carries a code, no
language)."""

from __future__ import annotations

from collections.abc import Callable

from support.screen import Term
from support.table import join_command

Spawn = Callable[..., Term]
TIMEOUT = 20.0  # seconds any one thing may take


def said(term: Term, text: str) -> None:
    data = text.encode()
    term.wait(lambda: data in term.raw, timeout=TIMEOUT, what=text)


def test_a_french_host_and_an_english_joiner_each_read_their_own(spawn: Spawn) -> None:
    host = spawn(
        "--host", "--people", "0=Hal,1", "--port", "0", "--seed", "3", "--plain",
        env={"LANGUAGE": "fr"},
    )  # fmt: skip
    said(host, "Donnez aux autres (1 place) cette commande\u00a0:")
    address, code = join_command(host)
    assert address.startswith("127.0.0.1:")
    ann = spawn("--join", address, code, "--name", "Ann", "--plain", env={"LANGUAGE": "en"})
    said(ann, "You sit at seat 1.")
    said(ann, "   0 Hal              here, the host")
    said(host, "Vous êtes à la place 0 (vous hébergez cette table")
    said(host, "Ann est arrivé.")
    said(host, "La partie commence.")
    said(ann, "mille: bsd, 2 players: side 1 Hal; side 2 Ann.")

    ann.send("say bonjour\r")
    said(host, "Ann dit\u00a0: bonjour")
    said(ann, "You say: bonjour")
    host.send("say hello\r")
    said(ann, "Hal says: hello")
    said(host, "Vous dites\u00a0: hello")
    ann.send("who\r")
    said(ann, "   1 Ann              you")
    host.send("who\r")
    said(host, "   1 Ann              là")

    host.send("q\r")
    said(host, "Vraiment\u00a0?")
    host.send("y\r")
    said(host, "Sauver la partie\u00a0?")  # the host ends the table for everyone: asked first
    host.send("n\r")
    assert host.wait_exit(timeout=TIMEOUT) == 0
    said(ann, "mille: the host ended the game")
    assert ann.wait_exit(timeout=TIMEOUT) == 0
    # no French at the joiner's, no English sentence at the host's
    assert "é" not in ann.raw.decode("utf-8", "replace")
    for english in (b"joined", b"says:", b"The game starts", b"Seats:"):
        assert english not in host.raw
    assert b"Traceback" not in host.raw + ann.raw
