"""Whole games over loopback: a host and scripted clients (``mille.net.bot``)
play to the end; every byte each client is sent is checked against what
its seat may see, and against the same table with the cards hidden from
the seat shuffled (non-interference)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from mille.engine.cards import ALL_NAMES, NO_CARD
from mille.engine.moves import PICK, Event, Outcome
from mille.engine.rules import find_rules
from mille.engine.table import Table
from mille.engine.view import SeatView
from mille.game.session import Session
from mille.net import connection as connection_module
from mille.net.bot import Bot
from mille.net.server import Host, Limits, Server
from mille.storage.shapes import event_to_dict
from mille.storage.shapes import view_to_dict as view_dict
from support.hidden import shuffled_hidden

TIMEOUT = 120.0  # seconds a whole game may take (it takes a few)


def card_names(message: Any) -> Iterator[str]:
    """Every card a message names: the strings under the keys that hold cards."""
    card_keys = {
        "hand", "discard", "set_aside", "battle", "speed", "miles", "safeties", "record",
        "problems", "saved", "top", "speed_top", "card", "drawn", "offer",
    }  # fmt: skip
    if isinstance(message, dict):
        for key, value in message.items():
            if key in card_keys:
                values = value if isinstance(value, list) else [value]
                for item in values:
                    if isinstance(item, str) and item in ALL_NAMES:
                        yield item
            else:
                yield from card_names(value)
    elif isinstance(message, list):
        for item in message:
            yield from card_names(item)


def visible_now(table: Table, seat: int) -> set[str]:
    """The cards ``seat`` may see now: its hand and every pile in view."""
    cards = [c for c in table.hands[seat] if c != NO_CARD] + table.discard + table.set_aside
    for tab in table.tableaux:
        cards += tab.cards() + tab.record + tab.problems + tab.saved
    return {ALL_NAMES[c] for c in cards}


class Watch:
    """Checks every update the server sends, when it sends it (capture and
    non-interference), and counts the cases."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.seen: dict[int, set[str]] = {}  # every card each seat saw at some time
        self.rng = random.Random(7)
        self.checked = 0
        self.failures: list[str] = []
        self.failed = asyncio.Event()

    def check(self, seat: int, message: dict[str, Any]) -> None:
        table = self.session.table
        seen = self.seen.setdefault(seat, set())
        seen |= visible_now(table, seat)
        names = set(card_names(message))
        assert names <= seen, (seat, names - seen)
        view = message["view"]
        assert view["hand"] == [None if c == NO_CARD else ALL_NAMES[c] for c in table.hands[seat]]
        for event in message["events"]:
            if event.get("move") == "P" and event["seat"] != seat:
                assert set(event["drawn"]) == {None}
        # the same table with the hidden cards shuffled: the same bytes
        other = shuffled_hidden(table, seat, self.rng)
        version = view["version"]
        again_view = view_dict(SeatView(other, seat, self.session.people))
        assert again_view | {"version": version, "level": self.session.level} == view
        for event in message["events"]:
            if event.get("deal"):
                continue
            outcome = Outcome(
                event["seat"],
                PICK if event["move"] == "P" else _move(event["move"]),
                ALL_NAMES.index(event["card"]) if event["card"] else NO_CARD,
                tuple(self.rng.randrange(19) for _ in event["drawn"])
                if event["seat"] != seat
                else tuple(ALL_NAMES.index(c) for c in event["drawn"]),
                event["coup_fourre"],
                event["extra_turn"],
            )
            shown = SeatView(other, seat).event(
                Event(outcome, tuple(event["notices"]), event["phase"], event["mileage"])
            )
            assert shown is not None
            again = {"version": event["version"]} | event_to_dict(shown)
            assert json.dumps(again) == json.dumps(event)
        self.checked += 1


def _move(text: str) -> Any:
    from mille.net.wire import parse_move

    return parse_move(text)


def watched(monkeypatch: pytest.MonkeyPatch, watch: Watch) -> None:
    """Every update goes through ``watch.check`` as it is sent."""
    send = connection_module.Connection.send

    def checked(conn: connection_module.Connection, message: Any) -> None:
        if message.get("type") == "update" and conn.seat is not None:
            try:
                watch.check(conn.seat.number, message)
            except AssertionError as exc:
                watch.failures.append(f"seat {conn.seat.number}: {exc}")
                watch.failed.set()
        send(conn, message)

    monkeypatch.setattr(connection_module.Connection, "send", checked)


async def play(session: Session, people: list[int], watch: Watch | None = None) -> list[Bot]:
    """Host ``session`` (the first person seat the host's) and let a bot
    play each person seat to the end of the game."""
    server = Server(Limits(grace=30, rate=1000, burst=1000))
    host = server.add(Host(session, host_seat=people[0]))
    _, port = await server.start()
    bots = []
    try:
        token = host.seats[people[0]].token
        assert token is not None
        first = Bot("host")
        await first.join(port, host.code, token=token)
        bots.append(first)
        for number in people[1:]:
            bot = Bot(f"bot {number}", deal=False)
            await bot.join(port, host.code)
            bots.append(bot)
        game: asyncio.Future[Any] = asyncio.gather(*(bot.run() for bot in bots))
        failed: asyncio.Future[Any] = asyncio.ensure_future((watch or Watch(session)).failed.wait())
        await asyncio.wait([game, failed], timeout=TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
        failed.cancel()
        if watch is not None:
            assert watch.failures == []
    finally:
        await server.close()
        for bot in bots:
            await bot.client.close()
    assert session.table.game_over
    session.table.validate()
    return bots


def test_classic_two_against_two_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session.new(find_rules("classic", players=4), seed=11, humans=(0, 1, 2, 3))
    watch = Watch(session)
    watched(monkeypatch, watch)
    bots = asyncio.run(play(session, [0, 1, 2, 3], watch))
    assert sorted(bot.follow.view.seat for bot in bots) == [0, 1, 2, 3]
    assert all(bot.errors == [] for bot in bots)
    assert all(bot.moves > 20 for bot in bots)
    assert watch.checked > 100


def test_mile_by_mile_six_seats_people_and_computers(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = find_rules("milebymile", players=6, winning_score=2000)
    session = Session.new(rules, seed=5, humans=(0, 2, 3, 5), level="easy")
    watch = Watch(session)
    watched(monkeypatch, watch)
    bots = asyncio.run(play(session, [0, 2, 3, 5], watch))
    assert sorted(bot.follow.view.seat for bot in bots) == [0, 2, 3, 5]
    assert all(bot.errors == [] for bot in bots)
    # the others' moves came too: the computers' (seats 1 and 4) among them
    movers = {
        e["seat"]
        for m in bots[1].messages
        if m["type"] == "update"
        for e in m["events"]
        if "seat" in e
    }
    assert movers == set(range(6))
    assert watch.checked > 100
