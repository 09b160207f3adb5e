"""A table over loopback for the end-to-end tests: ``mille --host``
started in a pseudo-terminal (``spawn``, the conftest's fixture) and its
join command read (:func:`hosted`), the host's turns in the line mode, a
board's, and the host ending the game (:func:`quit_host`, :func:`end`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from support.screen import Term

Spawn = Callable[..., Term]
JOIN = re.compile(rb"mille --join (\S+) (\S+)")
TIMEOUT = 20.0  # seconds any one thing may take

# a classic table of three, Hal hosting in lines, Ann's seat open (seat 2: the computer)
CLASSIC_THREE = ("--rules", "classic", "--players", "3", "--people", "0=Hal,1")
HOSTING = ("--port", "0", "--seed", "3", "--plain")  # the OS's port, a known deal, in lines


def join_command(term: Term) -> tuple[str, str]:
    """The address and code of the last ``mille --join`` command ``term`` wrote."""
    term.wait(lambda: JOIN.search(term.raw) is not None, timeout=TIMEOUT, what="the join command")
    match = JOIN.findall(bytes(term.raw))[-1]
    return match[0].decode(), match[1].decode()


def hosted(spawn: Spawn, *options: str, **how: object) -> tuple[Term, str, str]:
    """``mille --host OPTIONS``, and the address and code it gives joiners."""
    host = spawn("--host", *options, **how)
    return (host, *join_command(host))


def host_turn(host: Term, turns: int) -> None:
    """The host (the line mode) picks and discards slot 1 at its turn number ``turns``."""
    host.wait(lambda: host.raw.count(b"Your move:") >= 2 * turns - 1, TIMEOUT, "the host's turn")
    host.send("p\r")
    host.wait(lambda: host.raw.count(b"Your move:") >= 2 * turns, TIMEOUT, "the host's pick")
    host.send("d 1\r")


def board_turn(term: Term, told: str) -> None:
    """A board's turn, once ``told`` is in its log: pick, discard slot 1."""
    term.wait_for(told, timeout=TIMEOUT)
    term.wait(lambda: "thinking" not in term.row(23), TIMEOUT, "the board's turn")
    drawn = term.raw.count(b"You drew")
    term.send("p")
    term.wait(lambda: term.raw.count(b"You drew") > drawn, TIMEOUT, "the pick told")
    term.send("d1\r")


def quit_host(host: Term) -> None:
    """The host (the line mode) quits, saving nothing, and leaves with 0."""
    host.send("q\r")
    host.wait(lambda: b"Really? " in host.raw, TIMEOUT, "Really?")
    host.send("y\rn\r")  # Save game? n
    assert host.wait_exit(timeout=TIMEOUT) == 0


def end(host: Term, *others: Term) -> None:
    """The host ends the game for everyone (:func:`quit_host`): the others
    leave with 0 too, and nobody wrote a traceback."""
    quit_host(host)
    for term in others:
        assert term.wait_exit(timeout=TIMEOUT) == 0
    assert b"Traceback" not in b"".join(term.raw for term in (host, *others))
