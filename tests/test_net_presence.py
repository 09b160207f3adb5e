"""Who is at a network table, over loopback: the names kept (the host's
stand, a joiner's names only an unnamed seat, a resumed game's named seat
goes back to its person), the waiting room (nothing is played until the
host starts or every person is here), a computer's move for an absent
person credited to the computer (on the wire, in the words, in the save),
and chat lines (escaped, limited)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from mille.engine.describe import describe
from mille.engine.moves import PICK
from mille.engine.rules import find_rules
from mille.game.limits import SAY_BURST
from mille.game.session import Session
from mille.net.seats import Feed
from mille.net.server import Host, Limits, Server
from mille.net.wire import PROTOCOL, encode, error_line, refusal_line
from mille.storage.savefile import SaveError, load_session, save_session

FAST = Limits(grace=30, first_deadline=2, idle_deadline=10, ping_every=5, rate=1000, burst=1000)
WAIT = 10.0  # seconds any one answer may take


class Line:
    """A client's connection: what it was sent, read as it is awaited."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.got: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(encode(message))

    async def until(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message (read so far or to come) that passes ``test``."""
        for message in self.got:
            if test(message):
                return message
        while True:
            line = await asyncio.wait_for(self.reader.readline(), WAIT)
            assert line, "the host hung up"
            got: dict[str, Any] = json.loads(line)
            self.got.append(got)
            if test(got):
                return got

    async def kind(self, kind: str, **fields: Any) -> dict[str, Any]:
        return await self.until(
            lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())
        )


async def connect(port: int, **hello: Any) -> Line:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    line = Line(reader, writer)
    line.send({"type": "hello", "protocol": PROTOCOL, "code": "abcdefghjkmn", **hello})
    return line


def run(session: Session, test: Callable[[Host, int], Awaitable[None]], **options: Any) -> None:
    async def main() -> None:
        server = Server(FAST)
        host = server.add(Host(session, host_seat=0, code="abcdefghjkmn", **options))
        _, port = await server.start()
        try:
            await asyncio.wait_for(test(host, port), 60)
        finally:
            await server.close()

    asyncio.run(main())


def classic(players: int, humans: tuple[int, ...], names: dict[int, str]) -> Session:
    rules = find_rules("classic", players=players)
    return Session.new(rules, seed=3, humans=humans, names=names)


def test_the_hosts_names_stand_and_a_joiner_names_an_unnamed_seat() -> None:
    session = classic(4, (0, 1, 2, 3), {0: "Hal", 2: "Bob"})

    async def test(host: Host, port: int) -> None:
        bob = await connect(port, name="bob")  # the seat of that name, whoever comes first
        assert await bob.kind("welcome") == {
            "type": "welcome", "protocol": PROTOCOL, "seat": 2, "token": host.seats[2].token,
            "host": False, "name": "Bob",
        }  # fmt: skip
        ann = await connect(port, name="Ann")  # the first seat the host left unnamed
        welcome = await ann.kind("welcome")
        assert (welcome["seat"], welcome["name"], "name_refused" in welcome) == (1, "Ann", False)
        you = await connect(port, name="you")
        welcome = await you.kind("welcome")
        assert (welcome["seat"], welcome["name"]) == (3, "Player 3")
        assert welcome["name_refused"] == {"code": "name-given", "values": {"name": "'you'"}}
        assert refusal_line(welcome["name_refused"]) == "'you' is a name mille gives a seat"
        assert session.people == {0: "Hal", 1: "Ann", 2: "Bob", 3: "Player 3"}

    run(session, test)


def test_a_named_seat_keeps_its_name_and_says_why() -> None:
    session = classic(3, (0, 1), {0: "Hal", 1: "Bob"})

    async def test(host: Host, port: int) -> None:
        cy = await connect(port, name="Cy")
        welcome = await cy.kind("welcome")
        assert (welcome["seat"], welcome["name"]) == (1, "Bob")
        assert welcome["name_refused"] == {"code": "host-named", "values": {"name": "Bob"}}
        assert refusal_line(welcome["name_refused"]) == "the host named this seat Bob"
        assert session.people[1] == "Bob"

    run(session, test)


def test_the_waiting_room_starts_when_every_person_is_here() -> None:
    session = classic(3, (0, 1), {0: "Hal"})

    async def test(host: Host, port: int) -> None:
        hal = await connect(port, token=host.seats[0].token)
        seats = await hal.kind("seats")
        assert seats["started"] is False and seats["waiting_for"] is None
        assert [row["status"] for row in seats["seats"]] == ["here", "free", "computer"]
        hal.send({"type": "ping"})  # answered after the table woke to Hal's coming and slept again
        await hal.kind("pong")
        assert session.log == [] and not host.started  # nothing is played before the start
        ann = await connect(port, name="Ann")
        await ann.kind("seats", started=True)
        started = await hal.kind("seats", started=True)
        assert [row["status"] for row in started["seats"]] == ["here", "here", "computer"]

    run(session, test, waiting_room=True)


def test_the_host_starts_with_an_empty_seat_a_computer_plays_it() -> None:
    session = classic(3, (0, 1, 2), {0: "Hal", 2: "Bob"})

    async def test(host: Host, port: int) -> None:
        hal = await connect(port, token=host.seats[0].token)
        await hal.kind("seats", started=False)
        ann = await connect(port, name="Ann")
        await ann.kind("welcome")
        ann.send({"type": "start"})
        assert (await ann.kind("error"))["code"] == "not-host"
        hal.send({"type": "start"})
        seats = await hal.kind("seats", started=True)
        assert [row["status"] for row in seats["seats"]] == ["here", "here", "computer-for-now"]
        bob = await connect(port, name="Bob")  # the seat is his as soon as he comes
        assert (await bob.kind("welcome"))["seat"] == 2
        back = await hal.until(
            lambda m: m.get("type") == "seats" and m["seats"][2]["status"] == "here"
        )
        assert back["started"] is True

    run(session, test, waiting_room=True)


def test_a_computers_move_for_an_absent_person_is_credited_to_it(tmp_path: Path) -> None:
    session = classic(3, (0, 1, 2), {0: "Hal", 1: "Bob", 2: "Cy"})
    feed = Feed(session)
    seat = feed.to_decide()
    assert seat is not None
    other = (seat + 1) % 3
    feed.play(seat, feed.version(seat), PICK)
    feed.computer_plays(seat, feed.think(seat, feed.stand_in(seat, 7)), stand_in=True)
    event = session.log[-1]
    assert event.stand_in and not session.log[0].stand_in
    sent = feed.events_since(other, 0)
    assert sent is not None and sent[-1]["stand_in"] is True and "stand_in" not in sent[0]
    name = session.people[seat]
    assert describe(session.view(other), event)[0].startswith(f"Computer (for {name}) ")
    assert describe(session.view(seat), event)[0].startswith("Computer (for you) ")
    path = tmp_path / "game.sav"
    save_session(session, str(path))
    again = load_session(str(path))
    assert [e.stand_in for e in again.log] == [False, True]


def test_chat_lines_reach_every_seat_escaped_and_limited() -> None:
    session = classic(3, (0, 1), {0: "Hal"})

    async def test(host: Host, port: int) -> None:
        hal = await connect(port, token=host.seats[0].token)
        ann = await connect(port, name="Ann")
        await ann.kind("welcome")
        ann.send({"type": "say", "text": "hi\x1b[2J  there " + "x" * 300})
        said = await hal.kind("said")
        assert said["seat"] == 1 and said["name"] == "Ann"
        assert said["text"].startswith("hi\\x1b[2J there xx") and len(said["text"]) == 200
        assert (await ann.kind("said"))["text"] == said["text"]
        for number in range(SAY_BURST + 1):
            hal.send({"type": "say", "text": f"line {number}"})
        await ann.kind("said", text=f"line {SAY_BURST - 1}")
        error = await hal.kind("error")
        assert error == {"type": "error", "code": "chat-too-fast", "values": {}}
        assert error_line(error) == "too many chat lines: wait a few seconds"

    run(session, test)


def test_a_joiners_name_is_in_the_game_the_worker_keeps(tmp_path: Path) -> None:
    """The host's worker process saves the game: a name given by a joiner
    after it started is in the file (a resumed game gives the seat back)."""
    session = classic(3, (0, 1), {0: "Hal"})
    path = tmp_path / "kept.sav"

    async def test(host: Host, port: int) -> None:
        while host.thinker is None:  # the worker starts with the table
            await asyncio.sleep(0.05)
        ann = await connect(port, name="Ann")
        await ann.kind("welcome")
        assert await host.keep(str(path)) == str(path)

    run(session, test, worker=True)
    assert load_session(str(path)).people == {0: "Hal", 1: "Ann"}


def test_chat_lines_are_kept_in_the_saves_log(tmp_path: Path) -> None:
    """The host's save (by its worker) keeps the hand's chat lines where
    they were said among the moves; they carry no game data, a file without
    them reads as before, and a bad one is refused with its place."""
    session = classic(3, (0, 1), {0: "Hal"})
    path = tmp_path / "chat.sav"

    async def test(host: Host, port: int) -> None:
        while host.thinker is None:
            await asyncio.sleep(0.05)
        hal = await connect(port, token=host.seats[0].token)
        ann = await connect(port, name="Ann")
        await ann.kind("welcome")
        hal.send({"type": "say", "text": "good luck"})
        await ann.kind("said")
        assert await host.keep(str(path)) == str(path)

    run(session, test, worker=True, waiting_room=True)
    data = json.loads(path.read_text())
    assert data["log"][0] == {"seat": 0, "say": "good luck"}
    again = load_session(str(path))
    assert again.chat == [(0, 0, "good luck")] and again.log == []
    save_session(again, str(path))
    assert json.loads(path.read_text())["log"] == data["log"]
    data["log"][0]["say"] = "\x1b[2J"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=r"log\[0\]\.say: a chat line is 1 to 200 printable"):
        load_session(str(path))


def test_a_taken_name_and_a_move_before_the_start_are_refused_in_words() -> None:
    session = classic(3, (0, 1, 2), {0: "Hal"})

    async def test(host: Host, port: int) -> None:
        hal = await connect(port, token=host.seats[0].token)
        await hal.kind("seats")
        ann = await connect(port, name="hal")
        welcome = await ann.kind("welcome")
        assert (welcome["seat"], welcome["name"]) == (1, "Player 1")
        assert welcome["name_refused"] == {"code": "name-taken", "values": {"name": "'hal'"}}
        assert refusal_line(welcome["name_refused"]) == "'hal' is taken at this table"
        ann.send({"type": "move", "version": 0, "move": "P"})
        error = await ann.kind("error")
        assert (error["code"], error_line(error)) == (
            "not-started",
            "the host has not started the game yet",
        )
        assert session.log == []

    run(session, test, waiting_room=True)
