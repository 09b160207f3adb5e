"""End to end over loopback, on the boards: ``mille --host --plain`` (the
line mode) or ``mille --host`` (its board), and ``mille --join`` without
``--plain``, in pseudo-terminals (TERM=screen, read through pyte): each
seat plays on the board a local game gets (the N-seat board for classic,
BSD's for bsd), named as it sees the table, until the host ends the game
for everyone (or is terminated, and keeps it)."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Callable
from pathlib import Path

from support.screen import Term
from support.table import (
    CLASSIC_THREE,
    HOSTING,
    TIMEOUT,
    board_turn,
    host_turn,
    hosted,
    join_command,
    quit_host,
)

Spawn = Callable[..., Term]


def test_two_joiners_on_the_table_board(spawn: Spawn) -> None:
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1,2",
        "--port", "0", "--seed", "3", "--plain",
    )  # fmt: skip
    address, code = join_command(host)
    ann = spawn("--join", address, code, "--name", "Ann")
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    bob = spawn("--join", address, code, "--name", "Bob")
    bob.wait_for(" 3 You ", row=4, timeout=TIMEOUT)
    assert ann.drawn("classic 3 players", row=0)[2].startswith(" 1 Hal ")
    host_turn(host, 1)
    board_turn(ann, "Hal discarded")
    ann.wait_for("You discarded", timeout=TIMEOUT)
    board_turn(bob, "Ann discarded")
    bob.wait_for("You discarded", timeout=TIMEOUT)
    host.wait(lambda: b"Bob discarded" in host.raw, TIMEOUT, "Bob's discard told to the host")
    # each board names the seats as its seat sees them
    lines = bob.lines()
    assert lines[2].startswith(" 1 Hal ") and lines[3].startswith(" 2 Ann ")
    ann.wait_for("Bob discarded", timeout=TIMEOUT)
    ann.wait(  # (the rows are drawn after the line that tells the move)
        lambda: ann.row(3).startswith(" 2 You ") and ann.row(4).startswith(" 3 Bob "),
        TIMEOUT,
        "Ann's board naming the seats",
    )
    # a joiner may not save, nor change the hand's order (the host's)
    ann.send("s")
    ann.wait_for("Only the host may save (a save holds every hand).", timeout=TIMEOUT)
    host_turn(host, 2)
    ann.wait_for("Hal discarded", timeout=TIMEOUT)
    ann.wait(lambda: "thinking" not in ann.row(23), TIMEOUT, "Ann's turn")
    ann.send("o")
    ann.wait_for("O is not offered over the network", timeout=TIMEOUT)
    # the host ends the game for everyone
    quit_host(host)
    for joiner in (ann, bob):
        assert joiner.wait_exit(timeout=TIMEOUT) == 0
        assert b"mille: the host ended the game" in joiner.raw
    assert b"Traceback" not in host.raw + ann.raw + bob.raw


def test_a_joiner_on_bsds_board(spawn: Spawn) -> None:
    host, address, code = hosted(spawn, "--people", "0=Hal,1", *HOSTING)
    ann = spawn("--join", address, code, "--name", "Ann")
    ann.wait(lambda: "Hal" in ann.text(), TIMEOUT, "the host's name on BSD's board")
    host_turn(host, 1)
    ann.wait(lambda: "Hal discarded" in ann.text() or ">>:Move:" in ann.text(), TIMEOUT, "turn")
    # the prompt may be drawn before Hal's move reaches Ann's board (a slow
    # Python lost the keys to "Wait: it is Hal's turn"): the host has passed
    # the turn, then a moment for the update to reach her
    host.wait(lambda: b"Ann's turn" in host.raw, TIMEOUT, "Ann's turn at the host")
    time.sleep(1.0)
    drawn = ann.raw.count(b"\n")
    ann.send("p")
    ann.wait(lambda: ann.raw.count(b"\n") >= drawn, TIMEOUT, "the pick")
    ann.send("d1\r")
    host.wait(lambda: b"Ann discarded" in host.raw, TIMEOUT, "Ann's discard told to the host")
    ann.send("q")
    ann.wait_for("Really?", timeout=TIMEOUT)
    ann.send("y")
    assert ann.wait_exit(timeout=TIMEOUT) == 0
    assert b"You left the table; a computer plays your seat after the grace period." in ann.raw
    assert f"To come back: mille --join {address} {code}".encode() in ann.raw
    quit_host(host)
    assert b"Traceback" not in host.raw + ann.raw


def test_the_host_on_its_board_saves_and_keeps_the_game(spawn: Spawn, tmp_path: Path) -> None:
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1",
        "--port", "0", "--seed", "3", cwd=tmp_path,
    )  # fmt: skip
    address, code = join_command(host)  # whole, on the waiting room's page too
    host.wait_for(f"  mille --join {address} {code}", row=3, timeout=TIMEOUT)
    ann = spawn("--join", address, code, "--name", "Ann")
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    host.wait_for(" 1 You ", row=2, timeout=TIMEOUT)
    board_turn(host, " 1 You ")
    board_turn(ann, "Hal discarded")
    host.wait_for("Ann discarded", timeout=TIMEOUT)  # (the name came with the move)
    host.wait(lambda: host.row(3).startswith(" 2 Ann "), TIMEOUT, "the host's row 2: Ann")
    # the host saves (the file written by its table), a joiner may not
    host.wait(lambda: re.search("Comp 2 (played|discarded)", host.text()) is not None, TIMEOUT)
    host.wait(lambda: "thinking" not in host.row(23), TIMEOUT, "the host's turn")
    host.send("s")
    host.wait_for("file:", timeout=TIMEOUT)
    host.send("game.sav\r")
    host.wait(lambda: (tmp_path / "game.sav").is_file(), TIMEOUT, "the save")
    host.wait_for("game.sav [", timeout=TIMEOUT)
    host.child.kill(signal.SIGTERM)
    assert host.wait_exit(timeout=TIMEOUT) == 1
    assert re.search(rb"mille: terminated; the game is kept in \S+", host.raw)
    assert ann.wait_exit(timeout=TIMEOUT) == 3  # the line to the host is gone
    assert b"mille: the host went away" in ann.raw
    assert b"Traceback" not in host.raw + ann.raw


def test_a_board_joiner_killed_comes_back_to_its_seat(spawn: Spawn, tmp_path: Path) -> None:
    """``mille --join`` on the board, killed (no goodbye): the same command
    again, from the same account, takes its seat back and shows the move it
    missed; the game's end removes the seat file."""
    host, address, code = hosted(spawn, *CLASSIC_THREE, *HOSTING)
    ann = spawn("--join", address, code, "--name", "Ann", state_home=tmp_path)
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    files = list((tmp_path / "mille").glob("seat-*.json"))
    assert len(files) == 1 and files[0].stat().st_mode & 0o777 == 0o600
    ann.child.kill(signal.SIGKILL)
    host.wait(lambda: b"Ann dropped; the seat waits for Ann." in host.raw, TIMEOUT, "Ann's drop")
    host_turn(host, 1)  # a move Ann is not there to see
    again = spawn("--join", address, code, "--name", "Ann", state_home=tmp_path)
    again.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    again.wait_for("Hal discarded", timeout=TIMEOUT)
    host.wait(lambda: b"Ann is back." in host.raw, TIMEOUT, "Ann back")
    quit_host(host)
    assert again.wait_exit(timeout=TIMEOUT) == 0
    assert not files[0].exists()
