"""``mille --join`` comes back after its program ended: the seat's token is
kept in the state directory (``storage.seatfile``), and the same
``mille --join ADDRESS CODE`` takes the seat back with the moves it missed.
Over loopback, with real ``mille --join --plain`` processes."""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import signal
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.net.server import Host, Limits, Server
from mille.storage import recovery
from mille.storage.seatfile import SeatFile, SeatFileError, name_for


class Table:
    """A server in a thread of its own, with one classic table whose only
    person seat is seat 1 (the computers wait for it), or whose person
    seats are ``people``."""

    def __init__(self, people: tuple[int, ...] = (1,)) -> None:
        self.people = people
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(30)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())
        self.loop.close()

    async def _main(self) -> None:
        self.stop = asyncio.Event()
        self.server = Server(Limits(grace=600))
        session = Session.new(find_rules("classic", players=4), seed=3, humans=self.people)
        self.host = self.server.add(Host(session))
        _, self.port = await self.server.start("127.0.0.1", 0)
        self.ready.set()
        await self.stop.wait()
        await self.server.close()

    def call(self, work: Callable[[], Any]) -> Any:
        async def run() -> Any:
            return work()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def wait_for(self, test: Callable[[], bool], what: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while not self.call(test):
            assert time.monotonic() < end, what
            time.sleep(0.05)

    def shut(self) -> None:
        self.loop.call_soon_threadsafe(self.stop.set)
        self.thread.join(10)


@pytest.fixture
def table() -> Iterator[Table]:
    table = Table()
    yield table
    table.shut()


class Joiner:
    """``mille --join 127.0.0.1:PORT CODE --plain``, its standard input
    held open (its end would be a goodbye)."""

    def __init__(self, port: int, code: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mille", "--join", f"127.0.0.1:{port}", code, "--plain"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [
            threading.Thread(target=self._read, args=(stream, lines), daemon=True)
            for stream, lines in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))
        ]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _read(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))

    def wait_for(self, line: str, timeout: float = 30) -> None:
        end = time.monotonic() + timeout
        while line not in self.out:
            assert self.proc.poll() is None or line in self.out, (line, self.out, self.err)
            assert time.monotonic() < end, (line, self.out, self.err)
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def exit_status(self) -> int:
        status = self.proc.wait(30)
        for reader in self.readers:  # the readers take the last lines (to the end of each)
            reader.join(10)
        return status


def seat_path(port: int, code: str, seat: int = 1) -> pathlib.Path:
    return pathlib.Path(recovery.directory()) / name_for("127.0.0.1", port, code, seat)


def test_a_joiner_killed_comes_back_to_its_seat_with_the_moves_it_missed(table: Table) -> None:
    host = table.host
    first = Joiner(table.port, host.code)
    try:
        first.wait_for("You sit at seat 1.")
        path = seat_path(table.port, host.code)
        table.wait_for(lambda: path.exists(), "the seat file")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        kept = json.loads(path.read_text())
        assert kept == {
            "address": "127.0.0.1",
            "port": table.port,
            "code_sha256": SeatFile("127.0.0.1", table.port, host.code).code_sha256,
            "seat": 1,
            "token": table.call(lambda: host.seats[1].token),
        }
        assert host.code not in path.read_text()  # the code's hash only
        # the computers wait for seat 1; killed (no goodbye), a computer
        # plays for it at once and the hand goes on to its end
        table.wait_for(lambda: host.feed.to_decide() == 1, "seat 1's turn")
        table.call(lambda: setattr(host.limits, "grace", 0.2))
        first.kill()
    finally:
        first.kill()
    assert "Waiting for the host to deal." not in first.out
    table.wait_for(lambda: host.feed.hand_over(), "the hand played out", timeout=120)
    assert path.exists()
    missed = table.call(lambda: host.feed.version(1))

    again = Joiner(table.port, host.code)
    try:
        again.wait_for("You sit at seat 1.")
        again.wait_for("Waiting for the host to deal.")  # the hand's end it missed
        table.wait_for(lambda: host.seats[1].conn is not None, "seat 1 taken back")
        conn = table.call(lambda: host.seats[1].conn)
        assert conn is not None and conn.sent_version == missed
        assert again.err == []
        table.call(host.end)  # the game ends: the file goes
        assert again.exit_status() == 0
        assert "mille: the host ended the game" in again.out
        assert not path.exists()
    finally:
        again.kill()


def test_a_second_join_while_the_first_plays_takes_a_seat_of_its_own() -> None:
    """The file is held by the program that plays the seat: another join
    from the same account does not take it (here: the table is full, and
    the file stays)."""
    table = Table()
    try:
        first = Joiner(table.port, table.host.code)
        try:
            first.wait_for("You sit at seat 1.")
            path = seat_path(table.port, table.host.code)
            table.wait_for(lambda: path.exists(), "the seat file")
            second = Joiner(table.port, table.host.code)
            assert second.exit_status() == 2  # refused
            assert second.out == ["mille: every person seat is taken"]
            assert table.call(lambda: table.host.seats[1].conn is not None)
            assert path.exists()
        finally:
            first.kill()
    finally:
        table.shut()


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"\xff{", "not JSON"),
        (b"[1]", "not a JSON object"),
        (b'{"token": 5}', "no token"),
        (b'{"token": "x", "address": "127.0.0.1", "port": 1, "code_sha256": "0"}', "another table's (port)"),
    ],
)  # fmt: skip
def test_a_corrupt_seat_file_is_one_line_and_a_new_join(
    table: Table, content: bytes, why: str
) -> None:
    path = seat_path(table.port, table.host.code)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    joiner = Joiner(table.port, table.host.code)
    try:
        joiner.wait_for("You sit at seat 1.")
        table.wait_for(lambda: bool(joiner.err), "the line about the seat file")
        assert joiner.err == [
            f"mille: ignoring the seat file: {path} is not a seat file: {why} (joining as a new person)"
        ]
        table.wait_for(lambda: json.loads(path.read_text()).get("seat") == 1, "the file anew")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        joiner.kill()


def test_an_unreadable_seat_file_is_one_line(tmp_path: pathlib.Path) -> None:
    seat_file = SeatFile("127.0.0.1", 7477, "code")
    os.makedirs(seat_file.path)  # a directory where the file would be
    with pytest.raises(SeatFileError) as refused:
        seat_file.load()
    assert str(refused.value) in (
        f"cannot read {seat_file.path}: Is a directory",
        f"cannot read {seat_file.path}: not a regular file",
        f"{seat_file.path} is not a seat file: not JSON",
    )


def test_a_refused_token_removes_the_file(table: Table) -> None:
    """The host does not know the token (the table is gone): the file goes
    and the joiner says why in one line."""
    seat_file = SeatFile("127.0.0.1", table.port, table.host.code)
    seat_file.store(1, "not-a-token")
    seat_file.release()
    joiner = Joiner(table.port, table.host.code)
    assert joiner.exit_status() == 2  # refused
    assert joiner.out == ["mille: no seat has this token"]
    assert not os.path.exists(seat_file.path)


def test_a_token_that_cannot_be_kept_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from mille.net.client import keep_token

    seat_file = SeatFile("127.0.0.1", 7477, "code")
    os.makedirs(seat_file.path_for(1))  # a directory where the file would be
    keep_token(seat_file, 1, "token")
    assert capsys.readouterr().err == (
        f"mille: cannot keep the seat's token in {seat_file.path}: Is a directory "
        "(this seat cannot come back once mille ends)\n"
    )


def test_two_joins_started_together_each_keep_their_seats_token() -> None:
    """Two ``mille --join`` to the same table at the same moment, from the
    same account: each keeps its own seat's token, in a file of its own
    (before, one file a table: the second overwrote the first)."""
    table = Table(people=(1, 3))
    joiners = []
    try:
        joiners = [Joiner(table.port, table.host.code) for _ in range(2)]
        for joiner in joiners:
            out = joiner.out
            table.wait_for(
                lambda out=out: any(line.startswith("You sit at seat ") for line in out),  # type: ignore[misc]
                "a seat taken",
            )
        tokens = table.call(lambda: [seat.token for seat in table.host.seats])
        for seat in (1, 3):
            path = seat_path(table.port, table.host.code, seat)
            table.wait_for(path.exists, f"seat {seat}'s file")
            kept = json.loads(path.read_text())
            assert kept["seat"] == seat and kept["token"] == tokens[seat]
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert all(joiner.err == [] for joiner in joiners)
    finally:
        for joiner in joiners:
            joiner.kill()
        table.shut()


def test_a_line_mode_joiner_whose_line_breaks_comes_back_by_itself(table: Table) -> None:
    """The host cuts a ``--plain`` joiner's connection: it says so, takes
    its seat back with its token (no new program), and plays on."""
    joiner = Joiner(table.port, table.host.code)
    try:
        joiner.wait_for("You sit at seat 1.")
        table.wait_for(lambda: table.host.feed.to_decide() == 1, "seat 1's turn")
        end = time.monotonic() + 30
        while not any(line.startswith("Your hand: ") for line in joiner.out):
            assert time.monotonic() < end, joiner.out
            time.sleep(0.05)
        first = table.call(lambda: table.host.seats[1].conn)
        assert first is not None
        table.call(first.close)
        broke = "mille: the line to the host broke; reconnecting (^C to stop)"
        while not any(line.endswith(broke) for line in joiner.out):  # (after the prompt)
            assert time.monotonic() < end, joiner.out
            time.sleep(0.05)
        table.wait_for(lambda: table.host.seats[1].conn not in (None, first), "seat 1 taken back")
        assert joiner.proc.stdin is not None
        joiner.proc.stdin.write("p\n")
        joiner.proc.stdin.flush()
        end = time.monotonic() + 30
        while not any(line.startswith("You drew ") for line in joiner.out):
            assert time.monotonic() < end, joiner.out
            time.sleep(0.05)
        assert joiner.err == []
    finally:
        joiner.kill()
