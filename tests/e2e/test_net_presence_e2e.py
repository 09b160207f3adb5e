"""A new user's network game at 80x24, end to end over loopback, on each
board: the host's waiting room shows the whole join command and the seats,
a friend joins with that command, both see each other arrive, the friend
drops (a computer stands in, marked, after the grace period) and comes
back, a chat line reaches every seat, ``J`` shows the table at any time,
and the host's Q offers to save the game, which ends for everyone."""

from __future__ import annotations

import re
import signal
from collections.abc import Callable
from pathlib import Path

from support.screen import Term
from support.table import quit_host

Spawn = Callable[..., Term]
TIMEOUT = 20.0  # seconds any one thing may take
JOIN = re.compile(r"mille --join (\S+) ([a-z2-9]{12})")


def the_command(host: Term) -> tuple[str, str]:
    """The join command, read whole from the host's waiting room."""
    host.wait_for("The table (J shows this page at any time)", row=0, timeout=TIMEOUT)
    seen(host, "The game starts by itself when every seat is taken.")  # the page's last line
    rows = host.lines()
    assert rows[2] == "To join, the others type:"
    match = JOIN.fullmatch(rows[3].strip())
    assert match is not None, rows[3]
    return match[1], match[2]


def row_ends(term: Term, row: int, words: list[str]) -> None:
    """Wait until ``row`` ends with ``words``."""
    term.wait(lambda: term.row(row).split()[-len(words) :] == words, TIMEOUT, " ".join(words))


def seen(term: Term, text: str) -> None:
    term.wait(lambda: text in term.text(), TIMEOUT, text)


def test_a_friend_on_bsds_board(spawn: Spawn, tmp_path: Path) -> None:
    host = spawn(
        "--host", "--people", "0=Hal,1=Bob", "--port", "0", "--seed", "3", "--grace", "1",
        cwd=tmp_path,
    )  # fmt: skip
    address, code = the_command(host)
    rows = host.lines()  # the join command, the watch command, then the seats
    assert "To watch, type:" in rows or any("mille --watch" in row for row in rows)
    at = rows.index("Seats:")
    assert rows[at + 1 : at + 3] == [
        "   0 Hal              you, the host",
        "   1 Bob              awaited",
    ]
    assert "RETURN: start now" in host.text()
    bob = spawn("--join", address, code, state_home=tmp_path / "bob")  # (no --name: Bob's seat)
    seen(bob, "At the table: Hal (the host).")
    seen(host, "Bob joined.")  # the waiting room is over: every seat is taken
    row_ends(host, 0, ["You", "Bob", "Value"])
    row_ends(bob, 0, ["You", "Hal", "Value"])
    # J shows the table at any time, the command whole
    host.send("j")
    host.wait_for("The table (J shows this page at any time)", row=0, timeout=TIMEOUT)
    seen(host, f"mille --join {address} {code}")
    seen(host, "   1 Bob              here")
    host.send(" ")
    host.wait(lambda: "--HAND--" in host.text(), TIMEOUT, "the board again")
    # a chat line, to every seat
    host.send("c")
    seen(host, "say:")
    host.send("hello Bob\r")
    seen(bob, "Hal says: hello Bob")
    seen(host, "You say: hello Bob")
    # Bob drops; after the grace period a computer plays his seat, marked
    bob.child.kill(signal.SIGKILL)
    seen(host, "A computer plays Bob's seat until")
    row_ends(host, 0, ["Bob+", "Value"])
    # Bob comes back with the same command
    again = spawn("--join", address, code, state_home=tmp_path / "bob")
    row_ends(host, 0, ["Bob", "Value"])
    seen(again, "At the table: Hal (the host).")
    # the table's page says it all, whole
    host.send("j")
    host.wait_for("The table (J shows this page at any time)", row=0, timeout=TIMEOUT)
    seen(host, "Press any key to go back to the game.")
    lately = host.lines()[host.lines().index("Lately:") + 1 :]
    assert [line for line in lately if line][-7:] == [
        "Bob joined.",
        "The game starts.",
        "You say: hello Bob",
        "Bob dropped; the seat waits for Bob.",
        "A computer plays Bob's seat until Bob is back.",
        "Bob is back.",
        "Press any key to go back to the game.",
    ]
    host.send(" ")
    host.wait(lambda: "--HAND--" in host.text(), TIMEOUT, "the board again")
    # the host leaves: Really?, then Save game? as at home
    host.send("q")
    seen(host, "Really?")
    host.send("y")
    seen(host, "Save game?")
    host.send("y")
    seen(host, "file:")
    host.send("bsd.sav\r")
    assert host.wait_exit(timeout=TIMEOUT) == 0
    assert (tmp_path / "bsd.sav").is_file()
    assert again.wait_exit(timeout=TIMEOUT) == 0
    assert b"mille: the host ended the game" in again.raw
    assert b"Traceback" not in host.raw + bob.raw + again.raw


def test_a_friend_on_the_row_board(spawn: Spawn, tmp_path: Path) -> None:
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1=Bob",
        "--port", "0", "--seed", "3", "--grace", "1", cwd=tmp_path,
    )  # fmt: skip
    address, code = the_command(host)
    seen(host, "   2 Comp 2           a computer")
    bob = spawn("--join", address, code, "--name", "Cy", state_home=tmp_path / "bob")
    bob.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    seen(bob, "At the table: Hal (the host).")
    seen(bob, "mille: your name is not used (the host named this seat Bob);")  # in the log,
    bob.wait(lambda: bob.row(8).strip().endswith("you are Bob."), TIMEOUT, "its end")
    host.wait_for(" 2 Bob ", row=3, timeout=TIMEOUT)
    seen(host, "Bob joined.")
    # a chat line from the friend, in every seat's log
    bob.send("c")
    seen(bob, "say:")
    bob.send("hi all\r")
    seen(host, "Bob says: hi all")
    seen(bob, "You say: hi all")
    # Bob drops: marked, then a computer plays for him, credited to it
    bob.child.kill(signal.SIGKILL)
    seen(host, "Bob dropped; the seat waits for Bob.")
    seen(host, "A computer plays Bob's seat until Bob is back.")
    host.wait_for("+2 Bob ", row=3, timeout=TIMEOUT)
    play_until(host, lambda: "Computer (for Bob) " in host.text())
    again = spawn("--join", address, code, state_home=tmp_path / "bob")
    seen(host, "Bob is back.")
    host.wait_for(" 2 Bob ", row=3, timeout=TIMEOUT)
    again.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    again.send("l")  # the whole hand: the move made for him, as the computer's
    seen(again, "Computer (for you) ")
    again.send("q")
    # the host leaves: Really?, Save game? (n), and the game ends for both
    host.wait(lambda: "thinking" not in host.row(22), TIMEOUT, "the host's turn")
    host.send("q")
    seen(host, "Really?")
    host.send("y")
    seen(host, "Save game?")
    host.send("n")
    assert host.wait_exit(timeout=TIMEOUT) == 0
    assert again.wait_exit(timeout=TIMEOUT) == 0
    assert b"mille: the host ended the game" in again.raw
    assert b"Traceback" not in host.raw + bob.raw + again.raw


def play_until(term: Term, done: Callable[[], bool]) -> None:
    """Pick and discard slot 1 at each of ``term``'s turns until ``done()``."""
    for _ in range(10):
        if done():
            return
        term.wait(
            lambda: done() or (">>:Move:" in term.row(22) and "thinking" not in term.row(22)),
            TIMEOUT,
            "a turn",
        )
        if done():
            return
        term.send("p")
        term.wait_for("You drew", timeout=TIMEOUT)
        term.send("d1\r")
        term.wait(  # the turn has passed on
            lambda: done() or re.search("thinking|waiting for", term.row(22)) is not None,
            TIMEOUT,
            "the next seat",
        )
    raise AssertionError("never done:\n" + term.text())


def test_a_joiner_resized_while_it_waits_reads_its_keys(spawn: Spawn) -> None:
    """While the host decides, a board joiner whose terminal is resized (once,
    then a storm of resizes) still reads its keys: ``q`` asks ``Really?``,
    ``n`` goes back to waiting, ``j`` shows the table."""
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1",
        "--port", "0", "--seed", "3", "--plain",
    )  # fmt: skip
    host.wait(lambda: JOIN.search(host.raw.decode(errors="replace")) is not None, TIMEOUT)
    match = JOIN.search(host.raw.decode(errors="replace"))
    assert match is not None
    ann = spawn("--join", match[1], match[2], "--name", "Ann")
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    host.wait(lambda: b"Your move:" in host.raw, TIMEOUT, "the host's turn")  # Ann waits
    ann.resize(30, 90)
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    ann.send("q")
    ann.wait(lambda: "Really?" in ann.text(), TIMEOUT, "Really? after a resize")
    ann.send("n")
    ann.wait(lambda: "Really?" not in ann.text(), TIMEOUT, "back to waiting")
    for number in range(30):  # a storm of resizes
        ann.resize(24 + number % 7, 80 + number % 5)
    ann.resize(24, 80)
    ann.send("j")
    ann.wait_for("The table (J shows this page at any time)", row=0, timeout=TIMEOUT)
    ann.send(" ")
    ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    ann.send("q")
    ann.wait(lambda: "Really?" in ann.text(), TIMEOUT, "Really? after a storm")
    ann.send("y")
    assert ann.wait_exit(timeout=TIMEOUT) == 0
    quit_host(host)
    assert b"Traceback" not in host.raw + ann.raw


def test_thinking_only_for_a_person_who_is_there(spawn: Spawn) -> None:
    """The row board's status: ``Bob is thinking...`` while Bob is connected,
    ``waiting for Bob`` once he dropped (before the grace period ends), and
    the prompt keeps no stale text while the host waits."""
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1=Bob",
        "--port", "0", "--seed", "3", "--grace", "60",
    )  # fmt: skip
    address, code = the_command(host)
    bob = spawn("--join", address, code)
    bob.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    host.wait_for(" 2 Bob ", row=3, timeout=TIMEOUT)
    host.wait(lambda: ">>:Move:" in host.row(22), TIMEOUT, "the host's turn (seat 0 starts)")
    host.send("p")
    host.wait_for("You drew", timeout=TIMEOUT)
    host.send("d1\r")
    host.wait(lambda: "Bob is thinking..." in host.row(22), TIMEOUT, "Bob's turn")
    host.wait(lambda: host.row(22).startswith("Bob's turn"), TIMEOUT, "Bob's turn, said")
    assert "D1" not in host.row(22)
    bob.child.kill(signal.SIGKILL)
    host.wait(lambda: "waiting for Bob" in host.row(22), TIMEOUT, "waiting for Bob")
    assert "thinking" not in host.row(22)
    host.wait_for("~2 Bob ", row=3, timeout=TIMEOUT)
    host.send("q")
    seen(host, "Really?")
    host.send("y")
    seen(host, "Save game?")
    host.send("n")
    assert host.wait_exit(timeout=TIMEOUT) == 0


def test_the_line_mode_host(spawn: Spawn) -> None:
    """``mille --host --plain``: the join command and the seats, ``start``
    with a seat empty (a computer plays it until its person joins), a chat
    line both ways, ``who`` at any time."""
    host = spawn(
        "--host", "--rules", "classic", "--players", "3", "--people", "0=Hal,1=Bob,2",
        "--port", "0", "--seed", "3", "--plain",
    )  # fmt: skip
    seen(host, "Type start to begin now")
    text = host.raw.decode(errors="replace")
    match = JOIN.search(text)
    assert match is not None
    assert f"To join this table: mille --join {match[1]} {match[2]}" in text
    bob = spawn("--join", match[1], match[2], "--name", "Bob")  # the seat named Bob
    bob.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
    bob.wait_for(WAITING, timeout=TIMEOUT)
    bob.wait(lambda: "waiting for the host to start" in bob.row(22), TIMEOUT, "the status")
    seen(host, "Bob joined.")
    host.send("start\r")
    seen(host, "A computer plays Player 2's seat until Player 2 joins.")
    seen(host, "The game starts.")
    bob.send("c")
    seen(bob, "say:")
    bob.send("hello Hal\r")
    seen(host, "Bob says: hello Hal")
    host.send("say hi Bob\r")
    seen(bob, "Hal says: hi Bob")
    host.send("who\r")
    host.wait(lambda: host.raw.count(b"To join this table:") == 2, TIMEOUT, "who")
    seen(host, "   2 Player 2         a computer plays it for now")
    host.send("q\r")
    seen(host, "Really?")
    host.send("y\rn\r")  # Save game? n
    assert host.wait_exit(timeout=TIMEOUT) == 0
    assert bob.wait_exit(timeout=TIMEOUT) == 0
    assert b"Traceback" not in host.raw + bob.raw


WAITING = "Waiting for the host to start (J: the table)"


def test_a_resumed_bsd_table(spawn: Spawn, tmp_path: Path) -> None:
    """A BSD table kept by the host and resumed: the waiting room shows the
    new join command whole, and the friend, by name, gets his seat back."""
    host = spawn("--host", "--people", "0=Hal,1", "--port", "0", "--seed", "3")
    address, code = the_command(host)
    bob = spawn("--join", address, code, "--name", "Bob")
    seen(host, "Bob joined.")
    host.child.kill(signal.SIGTERM)
    assert host.wait_exit(timeout=TIMEOUT) == 1
    assert (
        bob.wait_exit(timeout=TIMEOUT) == 3
    )  # the line to the host lost (mille --join's exit statuses)
    again = spawn("--host", "--port", "0", state_home=host.state_home)
    seen(again, "Resume it?")
    again.send("y")
    address, code = the_command(again)
    seen(again, "   1 Bob              awaited")
    bob = spawn("--join", address, code, "--name", "bob")
    seen(bob, "At the table: Hal (the host).")
    row_ends(bob, 0, ["You", "Hal", "Value"])
    row_ends(again, 0, ["You", "Bob", "Value"])
    again.send("q")
    seen(again, "Really?")
    again.send("y")
    seen(again, "Save game?")
    again.send("n")
    assert again.wait_exit(timeout=TIMEOUT) == 0
    assert bob.wait_exit(timeout=TIMEOUT) == 0
