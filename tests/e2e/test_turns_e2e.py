"""Whose turn it is, at every moment, over loopback at 80x24 (issue 40's
items 1 to 3): BSD's board and the row board say whose turn it is in the
prompt's place while another seat decides (``Hal's turn``), a key pressed
out of turn says so at once and never acts later, ``L``, ``J`` and ``Q``
work while waiting and hold no key behind them, the line mode tells
another person's turn, and the host's row board names a friend as soon as
the friend sits down."""

from __future__ import annotations

from collections.abc import Callable

from support.screen import Term
from support.table import HOSTING, TIMEOUT, end, host_turn, hosted, join_command

Spawn = Callable[..., Term]


def test_bsds_board_over_the_network_says_whose_turn(spawn: Spawn) -> None:
    host, address, code = hosted(spawn, "--people", "0=Hal,1", *HOSTING)
    ann = spawn("--join", address, code, "--name", "Ann")
    # Hal moves first: Ann's prompt says so, not >>:Move:
    ann.wait(lambda: ann.row(10)[20:40].rstrip() == "Hal's turn", TIMEOUT, "Hal's turn")
    assert ">>:Move:" not in ann.text()
    # a move typed out of turn is refused at once, and never made later
    ann.send("p")
    ann.wait_for("Wait: it is Hal's turn.", row=15, timeout=TIMEOUT)
    # L works while waiting and holds no key behind it: q leaves it, q asks Really?
    ann.send("l")
    ann.wait(lambda: ann.row(0).startswith("The hand so far"), TIMEOUT, "the L view")
    ann.send("q")
    ann.wait(lambda: "--HAND--" in ann.text(), TIMEOUT, "the board again")
    ann.send("q")
    ann.wait_for("Really?", timeout=TIMEOUT)
    ann.send("n")
    ann.wait(lambda: ann.row(10)[20:40].rstrip() == "Hal's turn", TIMEOUT, "waiting again")
    # the line mode host is told whose turn it is when Ann's comes
    host_turn(host, 1)
    ann.wait_for(">>:Move:", row=10, timeout=TIMEOUT)
    ann.wait(lambda: "Wait:" not in ann.text(), TIMEOUT, "the Wait: line gone at Ann's turn")
    host.wait(lambda: b"Ann's turn." in host.raw, TIMEOUT, "Ann's turn told to the host")
    assert b"Ann drew" not in host.raw and b"Ann picked" not in host.raw  # nothing made unseen
    ann.send("p")
    ann.send("d1\r")
    host.wait(lambda: b"Ann discarded" in host.raw, TIMEOUT, "Ann's discard told to the host")
    ann.wait(lambda: ann.row(10)[20:40].rstrip() == "Hal's turn", TIMEOUT, "Hal's turn again")
    # the host typing out of turn, at a line: refused at once (a terminal), nothing kept
    end(host, ann)


def test_the_hosts_row_board_names_a_friend_at_once(spawn: Spawn) -> None:
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1",
        "--port", "0", "--seed", "3",
    )  # fmt: skip
    address, code = join_command(host)
    ann = spawn("--join", address, code, "--name", "Ann")
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    host.wait_for(" 1 You ", row=2, timeout=TIMEOUT)
    # before any move: the host's board names Ann, not Player
    host.wait(lambda: host.row(3).startswith(" 2 Ann "), TIMEOUT, "Ann's name on the host's board")
    # Ann waits for Hal: her prompt says so, and a key out of turn is refused
    ann.wait(lambda: ann.row(22).startswith("Hal's turn"), TIMEOUT, "Hal's turn on Ann's board")
    ann.send("p")
    ann.wait_for("Wait: it is Hal's turn.", row=23, timeout=TIMEOUT)
    host.send("q")
    host.wait_for("Really?", timeout=TIMEOUT)
    host.send("y")
    host.wait_for("Save game?", timeout=TIMEOUT)
    host.send("n")
    assert host.wait_exit(timeout=TIMEOUT) == 0
    assert ann.wait_exit(timeout=TIMEOUT) == 0
    assert b"Traceback" not in host.raw + ann.raw
