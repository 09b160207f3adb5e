"""Watchers (``mille --watch``): a watcher sees the table as every seat
sees it and never a hand, nor a draw, nor the deck; it plays nothing;
its chat reaches the watchers alone; a table has at most
``MAX_WATCHERS``; one who comes late sees the table as it stands and the
hand's public log so far.

Non-interference, as for the seats (``test_seat_views``): at every step
of seeded games of every preset, the watchers' view and stream are the
same when every hand and the deck are dealt again; and over loopback,
every message a watcher gets in a whole game names no card it may not
see."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Literal

import pytest
from test_net_game import card_names
from test_seat_views import CASES

from mille.engine.cards import ALL_NAMES, NO_CARD
from mille.engine.rules import find_rules
from mille.engine.table import OVER, Table
from mille.engine.view import PublicView
from mille.game.limits import MAX_WATCHERS, SAY_BURST
from mille.game.session import Session
from mille.net import connection as connection_module
from mille.net.bot import Bot
from mille.net.client import Client
from mille.net.messages import hello, move, plain, say
from mille.net.seats import Feed
from mille.net.server import Host, Limits, Server
from mille.net.wire import PROTOCOL, error_line
from mille.storage.shapes import view_to_dict
from support.hidden import shuffled_hidden

TIMEOUT = 60.0
EVERY_HAND = -1  # shuffled_hidden's seat for a watcher: every hand is hidden from it


def public_now(table: Table) -> set[str]:
    """The cards every seat sees now: the piles, the discard pile, the set aside."""
    cards = list(table.discard) + list(table.set_aside)
    for tab in table.tableaux:
        cards += tab.cards() + tab.record + tab.problems + tab.saved
    return {ALL_NAMES[c] for c in cards}


class Public:
    """Checks what a watcher is sent as it is sent: no card but those every
    seat has seen, no hand, no draw; and the same bytes for the same
    table with every hand and the deck dealt again."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.seen: set[str] = set()
        self.rng = random.Random(5)
        self.checked = 0

    def check(self, message: dict[str, Any]) -> None:
        table = self.session.table
        self.seen |= public_now(table)
        names = set(card_names(message))
        assert names <= self.seen, names - self.seen
        if message.get("type") != "update":
            return
        view = message["view"]
        assert view["hand"] == [None] * len(view["hand"])
        assert view["legal"] == [] and view["offer"] is None and view["watching"] is True
        for event in message["events"]:
            assert set(event.get("drawn", [None])) <= {None}, event
        other = shuffled_hidden(table, EVERY_HAND, self.rng)
        again = view_to_dict(PublicView(other, 0, self.session.people))
        assert (
            again | {"version": view["version"], "level": self.session.level} | {"watching": True}
            == view
        )
        self.checked += 1


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}{c[1]}")
def test_a_watcher_sees_no_card_in_any_hand(case: Any) -> None:
    """Every step of a seeded game: the watchers' view and stream, made
    by the host's feed, are the same whatever the hands and the deck hold."""
    name, players, options = case
    rules = find_rules(name, players=players, **options)
    rng = random.Random(players * 17 + len(options))
    people = tuple(seat for seat in range(players) if rng.random() < 0.5) or (0,)
    session = Session.new(rules, seed=players + 3, humans=people)
    feed = Feed(session)
    public = Public(session)
    table = session.table
    steps = 0
    while table.phase != OVER and steps < 400:
        seat = table.current_player
        assert seat is not None
        if session.computer_to_move:
            feed.computer_plays(seat, feed.think(seat))
        else:
            feed.play(seat, feed.version(seat), rng.choice(feed.view(seat).legal_moves()))
        steps += 1
        version = feed.version(feed.public)
        events = feed.events_since(feed.public, 0)
        assert events is not None
        public.check({"type": "update", "events": events, "view": feed.snapshot(feed.public)})
        assert version == len(events)
    assert steps > 30 and public.checked == steps


def capture(
    monkeypatch: pytest.MonkeyPatch, public: Public
) -> tuple[list[dict[str, Any]], list[str]]:
    """Every message sent to a watcher, checked by ``public`` as it is
    sent; the checks that failed."""
    sent: list[dict[str, Any]] = []
    failures: list[str] = []
    send = connection_module.Connection.send

    def checked(conn: connection_module.Connection, message: Any) -> None:
        if conn.watcher is not None:
            sent.append(message)
            try:
                public.check(message)
            except AssertionError as exc:
                failures.append(repr(exc))
        send(conn, message)

    monkeypatch.setattr(connection_module.Connection, "send", checked)
    return sent, failures


async def whole_game(session: Session, people: list[int], watchers: int = 1) -> list[Bot]:
    """Host ``session``, a bot at each person seat and ``watchers`` watching
    bots, to the end of the game; the watchers."""
    server = Server(Limits(grace=30, rate=1000, burst=1000))
    host = server.add(Host(session, host_seat=people[0]))
    _, port = await server.start()
    seats = [Bot(f"bot{n}", deal=n == people[0]) for n in people]
    watching = [Bot(f"Wes{n}", deal=False) for n in range(watchers)]
    try:
        token = host.seats[people[0]].token
        await seats[0].join(port, host.code, token=token)
        for bot in watching:
            await bot.join(port, host.watch_code)
        for bot in seats[1:]:
            await bot.join(port, host.code)
        bots = seats + watching
        await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), TIMEOUT)
    finally:
        await server.close()
        for bot in seats + watching:
            await bot.client.close()
    assert session.table.game_over
    return watching


@pytest.mark.parametrize(
    ("preset", "players", "people"),
    [("bsd", 2, [0]), ("classic", 4, [0, 2]), ("milebymile", 6, [0, 3, 5])],
)
def test_every_message_a_watcher_gets_in_a_whole_game(
    monkeypatch: pytest.MonkeyPatch, preset: str, players: int, people: list[int]
) -> None:
    score = 1000 if preset == "milebymile" else None
    rules = find_rules(preset, players=players, winning_score=score)
    session = Session.new(rules, seed=9, humans=tuple(people))
    public = Public(session)
    sent, failures = capture(monkeypatch, public)
    (watcher,) = asyncio.run(whole_game(session, people))
    assert failures == []
    assert public.checked > 20
    assert [m["type"] for m in sent[:3]] == ["watching", "seats", "update"]
    assert {m["type"] for m in sent} <= {"watching", "seats", "update", "bye", "ping", "game"}
    # the whole game (every card) comes to a watcher only once it is over, as to
    # the seats: after the update that ends it, and no update after it
    kinds = [m["type"] for m in sent]
    if "game" in kinds:
        first = kinds.index("game")
        assert "update" not in kinds[first:] and kinds.count("game") == 1
    assert watcher.moves == 0 and watcher.errors == []
    assert watcher.follow.watching and watcher.follow.table is not None
    assert watcher.follow.table.game_over
    # what it followed is the table as every seat sees it
    shown = view_to_dict(watcher.follow.view)
    assert shown["hand"] == [None] * len(shown["hand"])
    assert shown["tableaux"] == view_to_dict(session.view(0))["tableaux"]


async def until(condition: Any) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)


async def received(client: Client, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (the others before it skipped)."""
    while True:
        message = await asyncio.wait_for(client.receive(), 10)
        assert message is not None, kind
        if message["type"] == kind:
            return message


async def connected(port: int, code: str, name: str) -> Client:
    client = Client()
    await client.connect("127.0.0.1", port)
    client.send(hello(code, name=name))
    return client


def test_watchers_chat_apart_play_nothing_and_are_sixteen_at_most() -> None:
    async def scene() -> None:
        session = Session.new(find_rules("classic", players=2), seed=4, humans=(0,))
        server = Server(Limits(grace=30, rate=1000, burst=1000))
        host = server.add(Host(session, host_seat=0, names={0: "Hal"}))
        _, port = await server.start()
        clients: list[Client] = []
        try:
            token = host.seats[0].token
            assert token is not None and host.watch_code and host.watch_code != host.code
            seat = Client()
            await seat.connect("127.0.0.1", port)
            seat.send(hello(host.code, token=token))
            clients.append(seat)
            assert (await received(seat, "welcome"))["seat"] == 0
            first = await connected(port, host.watch_code, "Wes")
            clients.append(first)
            watching = await received(first, "watching")
            assert watching == {
                "type": "watching",
                "protocol": PROTOCOL,
                "viewer": 0,
                "name": "Wes",
            }
            seats = await received(first, "seats")
            assert seats["watchers"] == 1 and seats["watch"] == ""
            update = await received(first, "update")
            assert set(update["view"]["hand"]) == {None} and update["view"]["legal"] == []
            # a watcher plays nothing
            first.send(move(update["version"], "P"))
            refused = await received(first, "error")
            assert refused["code"] == "watching"
            assert error_line(refused) == "a watcher cannot play"
            kinds: tuple[Literal["deal", "start", "end"], ...] = ("deal", "start", "end")
            for kind in kinds:
                first.send(plain(kind))
                assert (await received(first, "error"))["code"] == "watching"
            # its chat reaches the watchers, never a seat
            second = await connected(port, host.watch_code, "Hal")  # a seat's name: not taken
            clients.append(second)
            assert (await received(second, "watching"))["name"] == "Watcher 1"
            first.send(say("hello all"))
            assert await received(second, "aside") == {
                "type": "aside", "name": "Wes", "text": "hello all"
            }  # fmt: skip
            # the seats' chat reaches the watchers
            seat.send(say("hi watchers"))
            assert (await received(second, "said"))["text"] == "hi watchers"
            while True:  # the seat heard no aside
                message = await asyncio.wait_for(seat.receive(), 10)
                assert message is not None and message["type"] != "aside"
                if message["type"] == "said":
                    assert message["text"] == "hi watchers"
                    break
            # the watchers' flood limit is a seat's (one line said already)
            for number in range(SAY_BURST):
                first.send(say(f"line {number}"))
            heard = []
            while True:
                message = await asyncio.wait_for(first.receive(), 10)
                assert message is not None
                if message["type"] == "error":
                    break
                if message["type"] == "aside":
                    heard.append(message["text"])
            assert message["code"] == "chat-too-fast"
            assert heard == ["hello all"] + [f"line {number}" for number in range(SAY_BURST - 1)]
            # at most MAX_WATCHERS
            for number in range(MAX_WATCHERS - 2):
                clients.append(await connected(port, host.watch_code, f"W{number}"))
            await until(lambda: len(host.watchers) == MAX_WATCHERS)
            late = await connected(port, host.watch_code, "Late")
            clients.append(late)
            full = await received(late, "error")
            assert full["code"] == "watchers-full"
            assert error_line(full) == "this table has 16 watchers already"
            assert await late.receive() is None  # and the host hung up
            assert all(conn.seat is None for conn in host.watchers)
        finally:
            await server.close()
            for client in clients:
                await client.close()

    asyncio.run(scene())


def test_a_late_watcher_sees_the_table_as_it_stands_and_the_hands_log() -> None:
    async def scene() -> None:
        session = Session.new(find_rules("classic", players=2), seed=4, humans=(0,))
        server = Server(Limits(grace=30, rate=1000, burst=1000))
        host = server.add(Host(session, host_seat=0))
        _, port = await server.start()
        bot = Bot("Hal")
        late: Client | None = None
        try:
            bot.stop_after = 6
            await bot.join(port, host.code, token=host.seats[0].token)
            await asyncio.wait_for(bot.run(), 20)
            # the bot's last move may still be on its way: the host has made
            # it, and the computer has answered, when the log holds all of
            # the bot's moves and the turn is the bot's seat's again
            await until(
                lambda: (
                    host.feed.to_decide() == 0
                    and sum(event.outcome.seat == 0 for event in session.log) == bot.moves
                )
            )
            late = await connected(port, host.watch_code, "Late")
            await received(late, "watching")
            update = await received(late, "update")
            public = host.feed.public
            assert update["version"] == host.feed.version(public) > 6
            logged = [event["move"] for event in update["events"]]
            assert logged == [str(event.outcome.move) for event in session.log]
            assert update["view"] == host.feed.snapshot(public)
            assert update["view"]["tableaux"] == view_to_dict(session.view(0))["tableaux"]
        finally:
            await server.close()
            await bot.client.close()
            if late is not None:
                await late.close()

    asyncio.run(scene())


def test_no_watchers_means_no_watch_code() -> None:
    async def scene() -> None:
        session = Session.new(find_rules("classic", players=2), seed=4, humans=(0,))
        server = Server(Limits(grace=30))
        host = server.add(Host(session, host_seat=0, watchers=False))
        _, port = await server.start()
        try:
            assert host.watch_code == "" and server.watched == {}
            client = await connected(port, "", "Wes")
            refused = await received(client, "error")
            assert refused["code"] == "wrong-code"
            await client.close()
        finally:
            await server.close()

    asyncio.run(scene())


def test_an_older_watcher_is_refused_in_one_line() -> None:
    async def scene() -> None:
        session = Session.new(find_rules("classic", players=2), seed=4, humans=(0,))
        server = Server(Limits(grace=30))
        host = server.add(Host(session, host_seat=0))
        _, port = await server.start()
        try:
            client = Client()
            await client.connect("127.0.0.1", port)
            client.send({"type": "hello", "protocol": 2, "code": host.watch_code})
            refused = await received(client, "error")
            assert refused["code"] == "version"
            assert refused["message"] == (
                "this host speaks mille protocol 3, not 2: play with the same version of mille"
            )
            await client.close()
        finally:
            await server.close()

    asyncio.run(scene())


def test_the_watchers_view_is_json_and_holds_no_hand() -> None:
    session = Session.new(find_rules("classic", players=2), seed=4, humans=(0,))
    feed = Feed(session)
    view = json.loads(json.dumps(feed.snapshot(feed.public)))
    assert view["hand"] == [None] * 7 and view["watching"] is True
    assert feed.view(feed.public).hand == [NO_CARD] * 7
