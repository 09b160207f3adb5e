"""A newcomer's network game, end to end over loopback (issue 40): a
joiner's terminal too small for a board is told so before the seat is
taken, with the command that plays in lines."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from support.screen import Term
from support.table import HOSTING, TIMEOUT, hosted, join_command, quit_host

Spawn = Callable[..., Term]


def test_a_joiner_too_small_for_a_board_takes_no_seat(spawn: Spawn) -> None:
    host, address, code = hosted(spawn, "--people", "0=Hal,1", *HOSTING)
    small = spawn("--join", address, code, "--name", "Ann", rows=20, cols=60)
    assert small.wait_exit(timeout=TIMEOUT) == 1
    assert small.raw.decode().strip() == (  # one line (the terminal wraps it)
        "mille: Screen must be at least 24x80 (this one is 20x60); to play in lines:"
        f" mille --join {address} {code} --plain"
    )
    # the seat was not taken: the host still waits for it, and Ann then sits on a board
    assert b"Ann joined" not in host.raw
    ann = spawn("--join", address, code, "--name", "Ann")
    host.wait(lambda: b"Ann joined." in host.raw, TIMEOUT, "Ann's seat")
    ann.send("q")
    ann.wait_for("Really?", timeout=TIMEOUT)
    ann.send("y")
    assert ann.wait_exit(timeout=TIMEOUT) == 0
    quit_host(host)


def test_a_host_too_small_for_its_board_opens_no_table(spawn: Spawn) -> None:
    host = spawn("--host", "--people", "0=Hal,1", "--port", "0", rows=20, cols=60)
    assert host.wait_exit(timeout=TIMEOUT) == 1
    assert host.raw.decode().strip() == (
        "mille: Screen must be at least 24x80 (this one is 20x60); to play in lines, add --plain"
    )


def test_a_friends_terminal_closed_reads_dropped_and_a_q_left(spawn: Spawn) -> None:
    host = spawn("--host", "--people", "0=Hal,1,2", "--rules", "classic", "--players", "3",
                 "--port", "0", "--seed", "3", "--plain")  # fmt: skip
    address, code = join_command(host)
    ann = spawn("--join", address, code, "--name", "Ann")
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    bob = spawn("--join", address, code, "--name", "Bob", "--plain")
    host.wait(lambda: b"Bob joined." in host.raw, TIMEOUT, "Bob's seat")
    ann.child.kill(signal.SIGHUP)  # the terminal closed
    host.wait(lambda: b"Ann dropped; the seat waits for Ann." in host.raw, TIMEOUT, "dropped")
    assert ann.wait_exit(timeout=TIMEOUT) == 1
    bob.send("q\n")
    bob.wait(lambda: b"Really? " in bob.raw, TIMEOUT, "Really?")
    bob.send("y\n")
    host.wait(lambda: b"Bob left; the seat waits for Bob." in host.raw, TIMEOUT, "left")
    assert bob.wait_exit(timeout=TIMEOUT) == 0
    assert b"Ann left" not in host.raw
    quit_host(host)


def test_a_joiner_back_with_another_name_is_told_the_seat_keeps_its_own(
    spawn: Spawn, tmp_path: Path
) -> None:
    host, address, code = hosted(spawn, "--people", "0=Hal,1", *HOSTING)
    ann = spawn("--join", address, code, "--name", "Ann", "--plain", state_home=tmp_path)
    host.wait(lambda: b"Ann joined." in host.raw, TIMEOUT, "Ann's seat")
    ann.send("q\n")
    ann.wait(lambda: b"Really? " in ann.raw, TIMEOUT, "Really?")
    ann.send("y\n")
    assert ann.wait_exit(timeout=TIMEOUT) == 0
    again = spawn("--join", address, code, "--name", "Anna", "--plain", state_home=tmp_path)
    again.wait(
        lambda: (
            b"mille: you are back as Ann: a seat keeps its name"
            b" (--name Anna names a new seat only)." in again.raw.replace(b"\r\n", b" ")
        ),
        TIMEOUT,
        "the name kept, said",
    )
    host.wait(lambda: b"Ann is back." in host.raw, TIMEOUT, "Ann back")
    quit_host(host)
    assert again.wait_exit(timeout=TIMEOUT) == 0


def test_the_certificates_fingerprint_on_both_ends_and_an_encrypted_mark_on_j(
    spawn: Spawn, tmp_path: Path
) -> None:
    """The friend elsewhere checks the table over the phone with no
    openssl: the SHA-256 of the host's certificate on the host's table
    page (J, marked encrypted) and on the joiner's first screen."""
    import shutil
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "1", "-subj", "/CN=mille"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    said = subprocess.run(
        ["openssl", "x509", "-in", str(cert), "-noout", "-fingerprint", "-sha256"],
        check=True, capture_output=True, text=True, timeout=60,
    ).stdout  # fmt: skip
    whole = said.strip().split("=", 1)[1].upper()
    rows = ["  " + whole[:48].rstrip(":"), "  " + whole[48:]]
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1",
        "--port", "0", "--seed", "3", "--cert", str(cert), "--key", str(key),
    )  # fmt: skip
    host.wait_for("The table (J shows this page at any time) - encrypted (TLS)", row=0,
                  timeout=TIMEOUT)  # fmt: skip
    encrypted = "Encrypted (TLS); the host's certificate's SHA-256 (the same on every screen):"
    host.wait(  # the page drawn whole (its first row may come before the rest)
        lambda: encrypted in host.lines() and rows[1] in host.lines(),
        timeout=TIMEOUT,
        what="the fingerprint",
    )
    lines = host.lines()
    at = lines.index(encrypted)
    assert lines[at + 1 : at + 3] == rows
    address, code = join_command(host)
    ann = spawn("--join", address, code, "--name", "Ann", "--plain", "--cert", str(cert))
    ann.wait(lambda: b"You sit at seat 1." in ann.raw, TIMEOUT, "Ann's seat")
    ann.wait(lambda: rows[1].encode() in ann.raw, TIMEOUT, "the fingerprint")
    told = ann.raw.decode().replace("\r\n", "\n").splitlines()
    at = told.index("Encrypted (TLS); the host's certificate's SHA-256 (the same on every screen):")
    assert told[at + 1 : at + 3] == rows
    ann.send("q\n")
    ann.wait(lambda: b"Really? " in ann.raw, TIMEOUT, "Really?")
    ann.send("y\n")
    assert ann.wait_exit(timeout=TIMEOUT) == 0


def test_coming_back_says_what_a_computer_played_for_you(spawn: Spawn, tmp_path: Path) -> None:
    host = spawn("--host", "--people", "0=Hal,1", "--port", "0", "--seed", "3", "--plain",
                 "--grace", "1")  # fmt: skip
    address, code = join_command(host)
    ann = spawn("--join", address, code, "--name", "Ann", "--plain", state_home=tmp_path)
    host.wait(lambda: b"Ann joined." in host.raw, TIMEOUT, "Ann's seat")
    ann.wait(lambda: b"Your move:" in ann.raw or b"Hal" in ann.raw, TIMEOUT, "Ann seated")
    ann.wait(lambda: any((tmp_path / "mille").glob("seat-*.json")), TIMEOUT, "the seat file")
    ann.child.kill(signal.SIGKILL)
    host.wait(lambda: b"A computer plays Ann's seat" in host.raw, TIMEOUT, "a computer for Ann")

    def prompts(least: int) -> Callable[[], bool]:
        return lambda: host.raw.count(b"Your move:") >= least

    for turn in (1, 3):  # Hal's moves, each answered by the computer in Ann's seat
        host.wait(prompts(turn), TIMEOUT, "Hal's turn")
        host.send("p\r")
        host.wait(prompts(turn + 1), TIMEOUT, "Hal's pick")
        host.send("d 1\r")
    host.wait(lambda: host.raw.count(b"Your move:") >= 5, TIMEOUT, "Hal's third turn")
    again = spawn("--join", address, code, "--plain", state_home=tmp_path)
    again.wait(
        lambda: b"While you were away a computer played 2 moves for you." in again.raw,
        TIMEOUT,
        "what happened meanwhile",
    )
    again.send("q\n")
    again.wait(lambda: b"Really? " in again.raw, TIMEOUT, "Really?")
    again.send("y\n")
    assert again.wait_exit(timeout=TIMEOUT) == 0
