"""End to end over loopback: ``mille --host`` and two ``mille --join`` in
pseudo-terminals (the line mode at every end) play a few turns; the host
is killed with SIGTERM, keeps the game, and the next ``mille --host``
resumes it for the same people, who join again."""

from __future__ import annotations

import re
import signal
from collections.abc import Callable

from support.screen import Term
from support.table import join_command

Spawn = Callable[..., Term]


def said(term: Term, text: bytes, timeout: float = 20) -> None:
    term.wait(lambda: text in term.raw, timeout=timeout, what=text.decode())


def grows(term: Term, text: bytes, count: int, what: str) -> None:
    """Wait until ``text`` was written more than ``count`` times."""
    term.wait(lambda: term.raw.count(text) > count, timeout=20, what=what)


def play_turns(terms: list[Term], turns: int) -> None:
    """Each term picks and discards when asked, until each did ``turns`` times."""
    done = dict.fromkeys(range(len(terms)), 0)
    prompts = [term.raw.count(b"Your move:") for term in terms]
    while min(done.values()) < turns:
        moved = False
        for index, term in enumerate(terms):
            term.pump(0.02)
            if term.raw.count(b"Your move:") > prompts[index]:
                term.send("p\r")
                grows(term, b"Your move:", prompts[index] + 1, "the hand after the pick")
                discards = term.raw.count(b" discarded ")
                term.send("d 1\r")
                grows(term, b" discarded ", discards, "the discard told")
                prompts[index] = term.raw.count(b"Your move:")
                done[index] += 1
                moved = True
        if not moved:
            terms[0].pump(0.1)


def test_host_two_joins_sigterm_and_resume(spawn: Spawn) -> None:
    host = spawn(
        "--host", "--rules", "classic", "--players", "4", "--people", "0,1,2", "--port", "0",
        "--seed", "3", "--name", "Hal", "--plain",
    )  # fmt: skip
    address, code = join_command(host)
    assert address.startswith("127.0.0.1:") and len(code) == 12
    ann = spawn("--join", address, code, "--name", "Ann", "--plain")
    ann.wait_for("You sit at seat 1", timeout=20)
    bob = spawn("--join", address, code, "--name", "Bob", "--plain")
    bob.wait_for("You sit at seat 2", timeout=20)
    ann.wait(lambda: b"0 Hal              here, the host" in ann.raw, what="the host's name")
    said(ann, b"Bob joined.")  # every person seat is taken: the game starts
    said(ann, b"The game starts.")
    play_turns([host, ann, bob], 2)
    # each end names the seats as its seat sees them: You, the others by name
    for term, me, others in ((host, b"Hal", (b"Ann", b"Bob")), (ann, b"Ann", (b"Hal", b"Bob"))):
        assert b"You discarded " in term.raw and me + b" discarded " not in term.raw
        for other in others:
            assert other + b" discarded " in term.raw
    assert b"Traceback" not in host.raw + ann.raw + bob.raw

    # another seat may not save
    ann.send("s\r")
    ann.wait(lambda: b"Only the host may save (a save holds every hand)." in ann.raw)

    host.child.kill(signal.SIGTERM)
    assert host.wait_exit(timeout=20) == 1
    assert re.search(rb"mille: terminated; the game is kept in \S+", host.raw)
    for joiner in (ann, bob):
        said(joiner, b"mille: the host went away", timeout=30)
        assert joiner.wait_exit(timeout=10) == 3  # the line to the host is gone

    again = spawn("--host", "--port", "0", "--plain", state_home=host.state_home)
    again.wait_for("Resume it?", timeout=20)
    again.send("y\r")
    address, code = join_command(again)
    # each named seat goes back to the person of that name, whoever comes first
    bob2 = spawn("--join", address, code, "--name", "Bob", "--plain")
    bob2.wait_for("You sit at seat 2", timeout=20)
    ann2 = spawn("--join", address, code, "--name", "Ann", "--plain")
    ann2.wait_for("You sit at seat 1", timeout=20)
    play_turns([again, ann2, bob2], 1)
    again.send("q\r")
    said(again, b"Really? ")
    again.send("y\rn\r")  # Save game? n
    assert again.wait_exit(timeout=20) == 0
    for joiner in (ann2, bob2):
        said(joiner, b"mille: the host ended the game")
        assert joiner.wait_exit(timeout=10) == 0
    assert b"Traceback" not in again.raw + ann2.raw + bob2.raw
