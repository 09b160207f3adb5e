"""``net.follow``: the one reader of the host's ``welcome`` and ``update``,
shared by the remote seat and the scripted client (``net.bot``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.net.bot import Bot
from mille.net.follow import Follow, read_welcome
from mille.net.seats import Feed
from mille.net.wire import PROTOCOL, ProtocolError


def welcome(seat: object) -> dict[str, Any]:
    return {"type": "welcome", "protocol": PROTOCOL, "seat": seat, "token": "t", "host": False}


def update(feed: Feed, seat: int, since: int = 0) -> dict[str, Any]:
    return {
        "type": "update",
        "version": feed.version(seat),
        "events": feed.events_since(seat, since) or [],
        "view": feed.snapshot(seat),
    }


@pytest.mark.parametrize("seat", ["1", "x", True, None, 1.0, -1, 99])
def test_a_seat_the_host_names_that_is_no_number_is_a_protocol_error(seat: object) -> None:
    """The bot's welcome names a seat that is no seat: a protocol error,
    never seat 0 (or ``int("1")``); nothing taken."""
    bot = Bot()
    with pytest.raises(ProtocolError, match="seat"):
        asyncio.run(bot.on(welcome(seat)))
    assert bot.follow.seat is None


def test_a_welcome_read() -> None:
    follow = Follow()
    follow.welcome(welcome(2))
    assert (follow.seat, follow.token, follow.host) == (2, "t", False)
    assert read_welcome(welcome(0)).seat == 0


def test_the_bot_and_the_remote_seat_follow_the_same_way() -> None:
    """The table, the hand's events, the names and the version as the host
    tells them; a deal empties the log."""
    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(1,), names={1: "Ann"}))
    follow = Follow(read_welcome(welcome(1)))
    follow.update(update(feed, 1))
    assert follow.names == {1: "Ann"} and follow.version == feed.version(1)
    seen = feed.version(1)
    while (seat := feed.to_decide()) is not None and seat != 1:
        feed.computer_plays(seat, feed.think(seat))
    follow.update(update(feed, 1, seen))
    assert follow.log == feed.session.events(1) != [] and follow.version == feed.version(1)
    assert follow.view.seat == 1 and follow.legal
    assert follow.table is not None and follow.table.hands[1] == feed.table.hands[1]
    follow.update(update(feed, 1, feed.version(1)) | {"events": [{"deal": True}]})
    assert follow.log == []


def test_an_update_is_read_whole_before_anything_is_taken() -> None:
    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1)))
    follow = Follow(read_welcome(welcome(1)))
    follow.update(update(feed, 1))
    before = (follow.version, follow.table, list(follow.log))
    broken = update(feed, 1) | {"version": 99, "events": [{"seat": "nobody"}]}
    with pytest.raises(ProtocolError):
        follow.update(broken)
    assert (follow.version, follow.table, follow.log) == before
