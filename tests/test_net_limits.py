"""Nothing another person sends can lose a game (issue 39).

The chat cases are played by a small client written from
``docs/protocol.md`` alone: raw JSON lines over a loopback socket, no
code of ``mille.net`` on its side.  Whatever a seat sends, the host's
game saves and loads back: a chat line is counted as the save's reader
counts it (``game/limits.py``), the chat allowance is the seat's and
survives its comebacks, comebacks wait their turn, and a hand keeps a
bounded number of chat lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
import unicodedata
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mille.engine.rules import find_rules
from mille.engine.text import width
from mille.frontends.remote.tls import client_tls, server_tls
from mille.game.limits import (
    CHAT_KEPT,
    SAY_BURST,
    SAY_CHARACTERS,
    SAY_COLUMNS,
    SAY_WINDOW,
    BadName,
    check_name,
    check_say,
    say_text,
)
from mille.game.session import Session
from mille.net.bot import Bot
from mille.net.client import HUNG_UP, Client, failure_reason, say_message
from mille.net.connection import COMEBACK_EVERY, COMEBACKS
from mille.net.seats import Feed
from mille.net.server import Host, Limits, Server
from mille.net.wire import MAX_LINE, error_line, refusal_line
from mille.storage import savefile

CODE = "abcdefghjkmn"
WAIT = 10.0  # seconds any one answer may take
FAST = Limits(grace=30, first_deadline=2, idle_deadline=10, ping_every=5, rate=1000, burst=1000)


# ----- a client written from docs/protocol.md -------------------------------------------


class Raw:
    """One connection: JSON objects, one a line, ending in a newline."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.got: list[dict[str, Any]] = []
        self.closed = False

    @classmethod
    async def hello(cls, port: int, **fields: Any) -> Raw:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 21)
        line = cls(reader, writer)
        line.send({"type": "hello", "protocol": 3, "code": CODE, **fields})
        return line

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(json.dumps(message).encode() + b"\n")

    async def read(self, timeout: float = WAIT) -> dict[str, Any] | None:
        """The next message, None at the end of the line or after ``timeout``."""
        try:
            line = await asyncio.wait_for(self.reader.readline(), timeout)
        except (asyncio.TimeoutError, ConnectionError):
            return None
        if not line:
            self.closed = True
            return None
        message: dict[str, Any] = json.loads(line)
        if message.get("type") == "ping":
            self.send({"type": "pong"})
        self.got.append(message)
        return message

    async def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The first message of ``kind`` with ``fields`` (read so far or to come)."""

        def wanted(message: dict[str, Any]) -> bool:
            return message.get("type") == kind and all(
                message.get(key) == value for key, value in fields.items()
            )

        for message in self.got:
            if wanted(message):
                return message
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            got = await self.read(deadline - time.monotonic())
            if got is not None and wanted(got):
                return got
            assert not self.closed, f"the host hung up: {self.got[-3:]}"
        raise AssertionError(f"no {kind} {fields} within {WAIT} s: {self.got[-3:]}")

    async def drain(self, seconds: float) -> None:
        """Read for ``seconds`` (what came is in ``got``)."""
        deadline = time.monotonic() + seconds
        while not self.closed and time.monotonic() < deadline:
            await self.read(deadline - time.monotonic())

    def close(self) -> None:
        self.writer.close()


def said(line: Raw, seat: int) -> list[str]:
    return [m["text"] for m in line.got if m.get("type") == "said" and m.get("seat") == seat]


def table() -> Session:
    """Hal hosts, a seat for a joiner, a computer."""
    return Session.new(find_rules("classic", players=3), seed=5, humans=(0, 1), names={0: "Hal"})


def run(
    session: Session,
    test: Callable[[Host, int], Awaitable[None]],
    limits: Limits = FAST,
    seconds: float = 60,
    **options: Any,
) -> None:
    async def main() -> None:
        server = Server(limits)
        host = server.add(Host(session, host_seat=0, code=CODE, **options))
        _, port = await server.start()
        try:
            await asyncio.wait_for(test(host, port), seconds)
        finally:
            await server.close()

    asyncio.run(main())


def saves_and_loads(session: Session) -> Session:
    """The game as a save holds it, read back (SaveError if it would not be)."""
    again = savefile.loads(savefile.dumps(session))
    assert again.chat == session.chat[-CHAT_KEPT:]
    assert again.people == session.people
    return again


# ----- one chat line ---------------------------------------------------------------------


def test_a_letter_and_200_combining_accents_is_a_chat_line_a_save_keeps(tmp_path: Path) -> None:
    """201 characters, 1 column: the host cut by columns and the save's
    reader counted characters, so the game could no longer be kept."""
    session = table()
    accents = "q" + "\u0301" * 200  # (no composed q with an acute: 201 characters still)
    decomposed = "e\u0301" * 101  # 202 characters as typed on macOS: 101 once composed

    async def test(host: Host, port: int) -> None:
        hal = await Raw.hello(port, token=host.seats[0].token)
        ann = await Raw.hello(port, name="Ann")
        await ann.until("welcome")
        ann.send({"type": "say", "text": accents})
        ann.send({"type": "say", "text": decomposed})
        first = await hal.until("said", seat=1)
        assert check_say(first["text"]) is None
        assert len(first["text"]) == SAY_CHARACTERS and first["text"].endswith("...")
        second = await hal.until("said", text="\u00e9" * 101)  # not cut: composed first
        assert second["text"] == unicodedata.normalize("NFC", decomposed)
        assert await host.keep(str(tmp_path / "kept.sav")) == str(tmp_path / "kept.sav")

    run(session, test)
    again = savefile.load_session(str(tmp_path / "kept.sav"))
    assert [text for _, _, text in again.chat] == [say_text(accents), "\u00e9" * 101]
    saves_and_loads(session)


def test_a_chat_line_keeps_the_game_as_a_move_does() -> None:
    """The host keeps its game (the recovery file) after every move, and
    after every chat line: a host killed between two moves kept the lines
    said since the last one."""
    session = table()
    kept: list[int] = []

    async def test(host: Host, port: int) -> None:
        host.on_move = lambda: kept.append(len(session.chat))
        ann = await Raw.hello(port, name="Ann")
        await ann.until("welcome")
        ann.send({"type": "say", "text": "hello"})
        await ann.until("said", seat=1)
        assert kept and kept[-1] == len(session.chat) == 1

    run(session, test)


@given(st.text(max_size=600))
@settings(max_examples=300, deadline=None)
def test_every_chat_line_the_host_makes_is_one_a_save_reads(text: str) -> None:
    line = say_text(text)
    if line:
        assert check_say(line) is None
        assert len(line) <= SAY_CHARACTERS and width(line) <= SAY_COLUMNS
        assert say_message(text) == {"type": "say", "text": line}  # the client cuts it so too
    else:
        assert say_message(text) is None


def test_a_chat_line_a_save_could_not_keep_is_refused_at_the_door() -> None:
    session = table()
    with pytest.raises(ValueError, match="a chat line is 1 to 200 printable characters"):
        session.say(1, "q" + "\u0301" * 200)
    with pytest.raises(ValueError, match="a chat line is 1 to 200 printable characters"):
        session.say(1, "\x1b[2J")
    assert session.chat == []


def test_a_hand_keeps_its_last_chat_lines() -> None:
    """The chat a save keeps is bounded (the 4 MiB a save may hold was
    passed by a flood); a file of 2.x with more keeps its last ones."""
    session = table()
    feed = Feed(session)
    for number in range(CHAT_KEPT + 50):
        feed.say(1, f"line {number} " + "\u5c71" * 90)
    assert len(session.chat) == CHAT_KEPT
    assert session.chat[0][2].startswith("line 50 ")
    again = saves_and_loads(session)
    assert len(again.chat) == CHAT_KEPT
    widest = "\U000e0100" * SAY_CHARACTERS  # the most bytes a chat line takes in a save
    assert check_say(widest) is None
    for _ in range(CHAT_KEPT):
        feed.say(2, widest)
    assert len(savefile.dumps(session)) < 1 << 20  # far below the 4 MiB a save may hold
    data = json.loads(savefile.dumps(session))
    data["log"] = [{"seat": 1, "say": f"old {n}"} for n in range(CHAT_KEPT + 7)]
    old = savefile.loads(json.dumps(data))
    assert [text for _, _, text in old.chat] == [f"old {n}" for n in range(7, CHAT_KEPT + 7)]


# ----- names --------------------------------------------------------------------------------


def test_a_name_of_one_letter_and_60_marks_is_not_used() -> None:
    with pytest.raises(BadName):
        check_name("a" + "\u0301" * 60)
    session = Session.new(
        find_rules("classic", players=4), seed=5, humans=(0, 1, 2), names={0: "Hal"}
    )

    async def test(host: Host, port: int) -> None:
        ann = await Raw.hello(port, name="a" + "\u0301" * 60)
        welcome = await ann.until("welcome")
        assert welcome["name"] == "Player 1"
        assert welcome["name_refused"] == {
            "code": "name-long",
            "values": {"characters": 32, "columns": 16},
        }
        assert refusal_line(welcome["name_refused"]) == (
            "a name has at most 32 characters, taking 16 columns (a wide one counts two)"
        )
        bob = await Raw.hello(port, name="Jose\u0301")  # composed, as every limit counts it
        assert (await bob.until("welcome"))["name"] == "Jos\u00e9"

    run(session, test, waiting_room=True)
    assert saves_and_loads(session).people[2] == "Jos\u00e9"


def test_a_name_is_composed_and_compared_so() -> None:
    """A seat named ``José`` composed is taken back by ``JOSE`` and an
    acute typed apart."""
    session = Session.new(
        find_rules("classic", players=3), seed=5, humans=(0, 1), names={0: "Hal", 1: "Jos\u00e9"}
    )

    async def test(host: Host, port: int) -> None:
        jose = await Raw.hello(port, name="JOSE\u0301")
        welcome = await jose.until("welcome")
        assert (welcome["seat"], welcome["name"]) == (1, "Jos\u00e9")
        assert "name_refused" not in welcome

    run(session, test, waiting_room=True)


# ----- the allowance is the seat's -----------------------------------------------------------


def test_the_chat_allowance_is_the_seats_and_survives_its_comebacks() -> None:
    """5 lines in 10 s a seat: coming back with the token gives no fresh
    allowance (7,925 lines reached another seat in 10 s that way)."""
    session = table()

    async def test(host: Host, port: int) -> None:
        hal = await Raw.hello(port, token=host.seats[0].token)
        ann = await Raw.hello(port, name="Ann")
        token = (await ann.until("welcome"))["token"]
        refusals = 0
        for _ in range(4):  # four connections of the same seat, one after the other
            for number in range(SAY_BURST):
                ann.send({"type": "say", "text": f"line {number}"})
            ann.send({"type": "ping"})
            await ann.until("pong")  # (answered in order: every line was answered)
            refusals += sum(1 for m in ann.got if m.get("code") == "chat-too-fast")
            ann.close()
            ann = await Raw.hello(port, token=token)
            await ann.until("welcome")
        await hal.drain(0.3)
        assert len(said(hal, 1)) == SAY_BURST
        assert refusals == 3 * SAY_BURST
        ann.send({"type": "say", "text": "and one more"})
        error = await ann.until("error")
        assert error == {"type": "error", "code": "chat-too-fast", "values": {}}

    run(session, test)


def test_comebacks_to_a_seat_wait_their_turn_and_too_many_are_refused() -> None:
    session = table()
    limits = Limits(
        grace=30, first_deadline=2, idle_deadline=10, ping_every=5, rate=1000, burst=1000,
        comebacks=2, comeback_every=0.4, comeback_wait=1.0,
    )  # fmt: skip

    async def test(host: Host, port: int) -> None:
        ann = await Raw.hello(port, name="Ann")
        token = (await ann.until("welcome"))["token"]
        ann.close()
        started = time.monotonic()

        async def comeback() -> tuple[float, dict[str, Any] | None]:
            line = await Raw.hello(port, token=token)
            answer = await line.read()
            return time.monotonic() - started, answer

        answers = await asyncio.gather(*(comeback() for _ in range(6)))  # six at once
        welcomed = sorted(
            when for when, answer in answers if answer and answer["type"] == "welcome"
        )
        refused = [answer for _, answer in answers if answer and answer["type"] == "error"]
        # two at once, then one each 0.4 s, each waiting up to 1 s: 4 welcomed, 2 refused
        assert len(welcomed) == 4
        assert welcomed[1] < 0.35 and 0.35 <= welcomed[2] < 0.75 <= welcomed[3]
        assert refused == 2 * [{"type": "error", "code": "too-many-comebacks", "values": {}}]
        assert error_line(refused[0]) == "this seat came back too often: wait a minute"

    run(session, test, limits=limits)


# ----- any sequence of messages --------------------------------------------------------------

TEXTS = st.text(max_size=300) | st.sampled_from(
    ["a" + "\u0301" * 250, "e\u0301" * 150, "\u5c71" * 150, "\x1b[2J", "\ud800", "  "]
)
MESSAGES = st.one_of(
    st.builds(lambda text: {"type": "say", "text": text}, TEXTS),
    st.builds(lambda move: {"type": "move", "version": 0, "move": move}, st.text(max_size=6)),
    st.sampled_from(
        [
            {"type": "view"},
            {"type": "ping"},
            {"type": "start"},
            {"type": "deal"},
            {"type": "end"},
            {"type": "bye"},
            {"type": "hello", "protocol": 3, "code": CODE},
            {"type": "say"},
            {"type": "say", "text": 5},
            {"type": "what"},
            "comeback",
            "play",
            "play",
        ]
    ),
)
SEQUENCES = st.lists(st.tuples(st.sampled_from([0, 1, 2]), MESSAGES), max_size=25)


async def pong_or_the_end(host: Host, line: Raw) -> None:
    """The pong of a ping, or the line closed because the game is over (an
    end sent just before, which the host had not read yet)."""

    def pongs() -> int:
        return sum(m.get("type") == "pong" for m in line.got)

    before, deadline = pongs(), time.monotonic() + WAIT
    while pongs() == before:
        assert time.monotonic() < deadline, f"no pong within {WAIT} s: {line.got[-3:]}"
        await line.read(deadline - time.monotonic())
        if line.closed:
            assert host.over, f"the host hung up: {line.got[-3:]}"
            return


@given(names=st.lists(TEXTS, min_size=2, max_size=2), sequence=SEQUENCES)
# the host's own seat ends the game: its line is closed under the next move's ping
@example(names=["", ""], sequence=[(0, {"type": "end"}), (0, "play")])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_sequence_of_messages_leaves_a_game_that_saves_and_loads_back(
    names: list[str], sequence: list[tuple[int, Any]]
) -> None:
    session = Session.new(
        find_rules("classic", players=4), seed=2, humans=(0, 1, 2), names={0: "Hal"}
    )

    async def test(host: Host, port: int) -> None:
        lines = [await Raw.hello(port, token=host.seats[0].token)]
        for name in names:
            lines.append(await Raw.hello(port, name=name))
        for line in lines:
            await line.until("update")
        tokens = [host.seats[seat].token for seat in range(3)]
        for seat, message in sequence:
            if host.over:  # an end from the host's seat: nothing more is read
                break
            if message == "comeback":
                lines[seat].close()
                lines[seat] = await Raw.hello(port, token=tokens[seat])
            elif message == "play":  # a legal move, if the seat has one (chat falls among moves)
                legal = host.feed.snapshot(seat)["legal"]
                version = host.feed.version(seat)
                if legal:
                    lines[seat].send({"type": "move", "version": version, "move": legal[0]})
                    lines[seat].send({"type": "ping"})
                    await pong_or_the_end(host, lines[seat])
            elif isinstance(message, dict) and message.get("type") == "move":
                version = host.feed.version(seat)
                lines[seat].send(message | {"version": version})
            else:
                lines[seat].send(message)
        lines[0].send({"type": "ping"})
        if not host.over:
            await lines[0].drain(0.05)
        again = saves_and_loads(host.feed.session)
        assert all(check_say(text) is None for _, _, text in again.chat)

    run(session, test, limits=FAST, waiting_room=True)


# ----- a flood of chat and comebacks from every seat ------------------------------------------


async def flood(port: int, token: str, until: float, counts: dict[str, int]) -> None:
    """Chat and come back as fast as the host lets one seat."""
    line = await Raw.hello(port, token=token)
    while time.monotonic() < until:
        for number in range(SAY_BURST + 3):
            line.send({"type": "say", "text": f"flood {number} " + "a\u0301" * 150})
        line.send({"type": "view"})
        await line.read(0.05)
        counts["said"] += SAY_BURST + 3
        line.close()
        line = await Raw.hello(port, token=token)
        answer = await line.read(WAIT)
        counts["comebacks" if answer and answer["type"] == "welcome" else "refused"] += 1
    line.close()


def check_flood(seconds: float) -> None:
    session = Session.new(
        find_rules("classic", players=4), seed=9, humans=(0, 1, 2, 3), names={0: "Hal"}
    )
    counts = {"said": 0, "comebacks": 0, "refused": 0}
    observed: dict[int, list[str]] = {}
    played: list[int] = []

    async def test(host: Host, port: int) -> None:
        watcher = await Raw.hello(port, token=host.seats[0].token)
        joiners = [await Raw.hello(port, name=f"P{seat}") for seat in (1, 2, 3)]
        tokens = [(await joiner.until("welcome"))["token"] for joiner in joiners]
        for joiner in joiners:
            joiner.close()
        started = time.monotonic()
        until = started + seconds
        flooders = [asyncio.ensure_future(flood(port, token, until, counts)) for token in tokens]
        while time.monotonic() < until:
            await watcher.read(0.2)
        await asyncio.wait_for(asyncio.gather(*flooders), WAIT * 2)
        await watcher.drain(0.5)
        elapsed = time.monotonic() - started
        windows = int(elapsed // SAY_WINDOW) + 1
        for seat in (1, 2, 3):
            observed[seat] = said(watcher, seat)
            assert len(observed[seat]) <= SAY_BURST * windows, (seat, len(observed[seat]))
        seats = sum(1 for m in watcher.got if m.get("type") == "seats")
        # the comebacks keep their pace, and each tells the others a few lines at most
        # (away, here; a computer standing in; whom the table waits for)
        paced = 3 * (COMEBACKS + elapsed / COMEBACK_EVERY + 1)
        assert counts["comebacks"] <= paced, (counts, elapsed)
        assert seats <= 4 * (counts["comebacks"] + counts["refused"]) + 10
        # the game is kept, reads back and plays on: the computers stand in for the flooders
        before = len(host.feed.session.log)
        saves_and_loads(host.feed.session)
        bot = Bot("Hal", deal=False)
        await bot.join(port, CODE, token=host.seats[0].token)
        hal = asyncio.ensure_future(bot.run())
        deadline = time.monotonic() + 30
        while len(host.feed.session.log) < before + 6 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        played.append(len(host.feed.session.log) - before)
        hal.cancel()
        saves_and_loads(host.feed.session)

    limits = Limits(grace=0.5, first_deadline=5, idle_deadline=30, ping_every=10)
    run(session, test, limits=limits, seconds=seconds + 90)
    assert counts["comebacks"] >= 3 and counts["said"] > 3 * SAY_BURST
    assert played[0] >= 6


def test_a_flood_of_chat_and_comebacks_from_every_seat_loses_nothing() -> None:
    check_flood(3.0)


@pytest.mark.slow
def test_a_minutes_flood_of_chat_and_comebacks_from_every_seat_loses_nothing() -> None:
    check_flood(60.0)


# ----- TLS, as the joiner reads it --------------------------------------------------------------


def test_a_tls_handshake_cut_short_says_it_is_tls() -> None:
    """A TLS handshake the host cut short has no words of its own: it is
    said to be TLS's failure, not a flood (issue 45)."""
    assert failure_reason(ConnectionResetError()) == (
        "the TLS handshake failed: the host hung up (is --cert a copy of the host's own?)"
    )


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """A host's certificate and key (openssl's), made once."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    where = tmp_path_factory.mktemp("tls")
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "1", "-subj", "/CN=mille"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return str(cert), str(key)


def reason_joining(port: int, context: ssl.SSLContext | None) -> str:
    """Why a TLS joiner's connection to ``port`` failed, in its words."""

    async def main() -> str:
        try:
            await Client().connect("127.0.0.1", port, context)
        except OSError as exc:
            return failure_reason(exc)
        return "connected"

    return asyncio.run(main())


def test_a_tls_joiner_refused_for_a_flood_is_told_so(certificate: tuple[str, str]) -> None:
    """Over the connections an address may hold, the host refuses a TLS
    joiner before the handshake with TLS's own alert: the joiner says the
    host refused it (issue 45: only then, the flood's words)."""
    cert, key = certificate

    async def main() -> str:
        server = Server(Limits(per_address=0))
        server.add(Host(table(), host_seat=0, code=CODE))
        _, port = await server.start("127.0.0.1", 0, server_tls(cert, key))
        try:
            return await asyncio.to_thread(reason_joining, port, client_tls(cert))
        finally:
            await server.close()

    assert (
        asyncio.run(main())
        == HUNG_UP
        == (
            "the host refused the connection (too many connections from your address, "
            "or it is busy: try again in a minute)"
        )
    )


def test_a_host_that_hangs_up_in_the_handshake_is_a_tls_failure(
    certificate: tuple[str, str],
) -> None:
    """A host that reads the joiner's TLS hello and hangs up (its TLS
    refused it) is a TLS failure in one line, not a flood (issue 45)."""
    listener = socket.create_server(("127.0.0.1", 0))

    def host() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.settimeout(10)
            conn.recv(MAX_LINE)
            conn.settimeout(0.3)  # all of the hello read: hung up, not reset
            with contextlib.suppress(OSError):
                while conn.recv(MAX_LINE):
                    pass

    thread = threading.Thread(target=host, daemon=True)
    thread.start()
    try:
        reason = reason_joining(listener.getsockname()[1], client_tls(certificate[0]))
    finally:
        thread.join(10)
        listener.close()
    assert reason == (
        "the TLS handshake failed: the host hung up (is --cert a copy of the host's own?)"
    )


def test_tls_to_a_host_without_it_says_the_host_does_not_use_tls() -> None:
    async def main() -> str:
        server = Server(FAST)
        server.add(Host(table(), host_seat=0, code=CODE))
        _, port = await server.start()
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        try:
            await Client().connect("127.0.0.1", port, context)
        except OSError as exc:
            return failure_reason(exc)
        finally:
            await server.close()
        return "connected"

    assert asyncio.run(main()) == "the host does not use TLS (join without --cert)"
