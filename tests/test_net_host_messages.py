"""A host's message this mille cannot read (a newer version's, or a
broken one) ends a joiner in one line, never ``internal error``: a
scripted host on loopback sends a real game's messages (welcome, seats,
the first update, a move's update), one of them mutated."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mille.engine.rules import find_rules
from mille.frontends.remote import lines as remote_lines
from mille.frontends.remote.link import Join
from mille.frontends.remote.seat import GONE_STATUS
from mille.game.session import Session
from mille.net.seats import Feed
from mille.net.wire import encode
from mille.storage.seatfile import SeatFile

CODE = "abcdefghjkmn"
UNREADABLE = "mille: the host sent what this mille cannot read: play with the same version of mille"
Mutation = Callable[[dict[str, Any]], dict[str, Any]]


def a_game() -> list[dict[str, Any]]:
    """A real table's messages to seat 1: welcome, seats, the first
    update, the update after seat 0's move, the goodbye."""
    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1, 2), names={0: "Hal", 1: "Ann"}))

    def update(since: int) -> dict[str, Any]:
        return {
            "type": "update",
            "version": feed.version(1),
            "events": feed.events_since(1, since) or [],
            "missed": False,
            "view": feed.snapshot(1),
        }

    first = update(0)
    shown = feed.version(1)
    feed.play(0, feed.version(0), feed.think(0, feed.stand_in(0, 1)))
    seats = [
        {"seat": 0, "name": "Hal", "status": "here", "host": True},
        {"seat": 1, "name": "Ann", "status": "here", "host": False},
        {"seat": 2, "name": None, "status": "computer", "host": False},
    ]
    return [
        {"type": "welcome", "protocol": 3, "seat": 1, "token": "t" * 22, "host": False},
        {"type": "seats", "seats": seats, "waiting_for": 0, "started": True, "join": ""},
        first,
        update(shown),
        {"type": "bye", "code": "ended"},
    ]


def without(*path: Any) -> Mutation:
    def mutate(message: dict[str, Any]) -> dict[str, Any]:
        *way, last = path
        inner = message
        for step in way:
            inner = inner[step]
        del inner[last]
        return message

    return mutate


def setting(value: Any, *path: Any) -> Mutation:
    def mutate(message: dict[str, Any]) -> dict[str, Any]:
        *way, last = path
        inner = message
        for step in way:
            inner = inner[step]
        inner[last] = value
        return message

    return mutate


UPDATE_MUTATIONS: dict[str, Mutation] = {
    "no view": without("view"),
    "a view that is a list": setting([], "view"),
    "no version": without("version"),
    "a version that is text": setting("12", "version"),
    "a version that is a fraction": setting(12.5, "version"),
    "events that are no list": setting({}, "events"),
    "an event that is a number": setting([7], "events"),
    "an unknown rules option": setting(True, "view", "rules", "turbo"),
    "an unknown rules name": setting("zork", "view", "rules", "name"),
    "players that are text": setting("3", "view", "rules", "players"),
    "no hand": without("view", "hand"),
    "a hand of numbers": setting([1, 2, 3], "view", "hand"),
    "a huge deck": setting(10**30, "view", "deck_size"),
    "no tableaux": without("view", "tableaux"),
    "names that are a number": setting(5, "view", "names"),
    "legal that is a number": setting(5, "view", "legal"),
    "a seat past the table": setting(99, "view", "seat"),
}
WELCOME_MUTATIONS: dict[str, Mutation] = {
    "a seat that is text": setting("x", "seat"),
    "a seat that is a digit's text": setting("1", "seat"),
    "no seat": without("seat"),
    "a negative seat": setting(-1, "seat"),
    "a huge seat": setting(10**20, "seat"),
    "no token": without("token"),
    "a token that is a number": setting(5, "token"),
    "host that is text": setting("no", "host"),
}
OTHER_MUTATIONS: dict[str, Mutation] = {
    "an unknown kind": setting("zork", "type"),
    "no kind": without("type"),
}


class ScriptedHost:
    """A host on loopback that says ``messages`` (one line each) once it
    is said hello, then waits for the joiner to hang up."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(10)
        self.port = self.server.getsockname()[1]
        self.messages = messages
        self.connection: socket.socket | None = None
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        try:
            connection, _address = self.server.accept()
        except OSError:
            return
        self.server.close()  # one joiner: its tries to come back are refused at once
        self.connection = connection
        with connection:
            connection.settimeout(10)
            reader = connection.makefile("rb")
            reader.readline()  # hello
            try:
                for message in self.messages:
                    connection.sendall(encode(message))
                while reader.readline():
                    pass
            except OSError:
                pass

    def close(self) -> None:
        """The joiner is done: its connection ends now, whether or not it
        hung up (the thread reading it needs no time-out)."""
        self.server.close()
        if self.connection is not None:
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
        self.thread.join(10)


@pytest.fixture(scope="module")
def game() -> list[dict[str, Any]]:
    return a_game()


@pytest.fixture(autouse=True)
def state(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    yield


def joined(messages: list[dict[str, Any]]) -> tuple[int, str, SeatFile]:
    """A line-mode joiner (nothing typed) at the scripted host: its
    status, what it said, its seat file."""
    host = ScriptedHost(messages)
    seat_file = SeatFile("127.0.0.1", host.port, CODE)
    out = io.StringIO()
    join = Join("127.0.0.1", host.port, CODE, back="mille --join ...")
    try:
        status = remote_lines.play_lines(
            join, stdin=io.BytesIO(b""), stdout=out, seat_file=seat_file
        )
    finally:
        seat_file.release()
        host.close()
    return status, out.getvalue(), seat_file


def mutated(game: list[dict[str, Any]], index: int, mutation: Mutation) -> list[dict[str, Any]]:
    messages = copy.deepcopy(game)
    messages[index] = mutation(messages[index])
    json.dumps(messages[index])  # still JSON: the mutation is the protocol's
    return messages


def assert_one_line(status: int, said: str) -> None:
    assert "internal error" not in said and "Traceback" not in said
    assert said.count(UNREADABLE) == 1, said
    assert said.rstrip("\n").splitlines()[-1] == UNREADABLE
    assert status == GONE_STATUS


@pytest.mark.parametrize("name", sorted(WELCOME_MUTATIONS))
def test_a_welcome_this_mille_cannot_read(game: list[dict[str, Any]], name: str) -> None:
    status, said, _seat_file = joined(mutated(game, 0, WELCOME_MUTATIONS[name]))
    assert_one_line(status, said)
    assert "You sit at seat" not in said  # never seat 0, nor any other


@pytest.mark.parametrize("where", [2, 3], ids=["first update", "mid-game"])
@pytest.mark.parametrize("name", sorted(UPDATE_MUTATIONS))
def test_an_update_this_mille_cannot_read(
    game: list[dict[str, Any]], name: str, where: int
) -> None:
    status, said, seat_file = joined(mutated(game, where, UPDATE_MUTATIONS[name]))
    if name in ("names that are a number", "legal that is a number") and status == 0:
        return  # (read as no names, nothing legal told: the game went on)
    assert_one_line(status, said)
    assert os.path.exists(seat_file.path)  # kept: the seat can come back


@pytest.mark.parametrize("where", [1, 3], ids=["before the first update", "mid-game"])
@pytest.mark.parametrize("name", sorted(OTHER_MUTATIONS))
def test_a_message_of_no_kind_known_is_passed_over(
    game: list[dict[str, Any]], name: str, where: int
) -> None:
    messages = copy.deepcopy(game)
    messages.insert(where, OTHER_MUTATIONS[name](copy.deepcopy(messages[where])))
    status, said, _seat_file = joined(messages)
    assert "internal error" not in said and "Traceback" not in said
    assert status in (0, GONE_STATUS)


def test_the_real_game_unmutated_ends_with_the_hosts_goodbye(game: list[dict[str, Any]]) -> None:
    status, said, _seat_file = joined(copy.deepcopy(game))
    assert status == 0 and UNREADABLE not in said
    assert said.rstrip("\n").splitlines()[-1] == "mille: the host ended the game"
