"""The line mode over the network (``frontends.remote.LineClient``): what
it says, word for word, for each message of the host and each line typed."""

from __future__ import annotations

import io
from typing import Any

from mille.engine.rules import find_rules
from mille.frontends.remote import LineClient
from mille.game.session import Session
from mille.net.client import Client
from mille.net.seats import Feed


class FakeClient(Client):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def client(seat: int = 1, host: bool = False) -> tuple[LineClient, FakeClient, io.StringIO]:
    fake, out = FakeClient(), io.StringIO()
    ui = LineClient(fake, out)
    ui.on({"type": "welcome", "protocol": 1, "seat": seat, "token": "t", "host": host})
    return ui, fake, out


def seats(*rows: tuple[int, str, str], waiting: int | None = None) -> dict[str, Any]:
    return {
        "type": "seats",
        "seats": [{"seat": s, "name": n, "status": st, "host": s == 0} for s, n, st in rows],
        "waiting_for": waiting,
    }


def test_welcome_lines() -> None:
    _, _, out = client(1)
    assert out.getvalue() == "You sit at seat 1.\n"
    _, _, out = client(0, host=True)
    assert out.getvalue() == (
        "You sit at seat 0 (you host this table: only you may deal, save or end).\n"
    )


def test_who_is_here_and_whom_the_table_waits_for() -> None:
    ui, _, out = client(1)
    out.truncate(0), out.seek(0)
    ui.on(seats((0, "Bo\\x1b", "here"), (1, "Ann", "here"), (2, "Cy", "here")))
    ui.on(seats((0, "Bo\\x1b", "here"), (1, "Ann", "here"), (2, "Cy", "away"), waiting=2))
    ui.on(seats((0, "Bo\\x1b", "here"), (1, "Ann", "here"), (2, "Cy", "computer-for-now")))
    assert out.getvalue().splitlines() == [
        "Seats:",
        "   1 Bo\\x1b           here, the host",
        "   2 Ann              you",
        "   3 Cy               here",
        "Cy dropped; the seat waits for Cy.",
        "Waiting for Cy (seat 2).",
        "A computer plays Cy's seat until Cy is back.",
    ]


def test_joined_left_back_and_the_waiting_room() -> None:
    """Who comes and goes, in lines; before the start the host is told how
    to start, and ``who`` shows the whole join command and the seats."""
    ui, fake, out = client(0, host=True)
    out.truncate(0), out.seek(0)
    command = "mille --join 127.0.0.1:7477 abcdefghjkmn"

    def said(*rows: tuple[int, str, str], started: bool = False) -> None:
        ui.on(seats(*rows) | {"started": started, "join": command})

    said((0, "Hal", "here"), (1, "Ann", "free"), (2, "Bob", "free"))
    said((0, "Hal", "here"), (1, "Ann", "here"), (2, "Bob", "free"))
    said((0, "Hal", "here"), (1, "Ann", "here"), (2, "Bob", "computer-for-now"), started=True)
    said((0, "Hal", "here"), (1, "Ann", "left"), (2, "Bob", "here"), started=True)
    said((0, "Hal", "here"), (1, "Ann", "here"), (2, "Bob", "here"), started=True)
    assert out.getvalue().splitlines() == [
        f"To join this table: {command}",
        "Seats:",
        "   1 Hal              you, the host",
        "   2 Ann              awaited",
        "   3 Bob              awaited",
        "Type start to begin now (a computer plays each empty seat until its person joins); "
        "the game starts by itself when every seat is taken.",
        "Ann joined.",
        "A computer plays Bob's seat until Bob joins.",
        "The game starts.",
        "Ann left; the seat waits for Ann.",
        "Bob joined.",
        "Ann is back.",
    ]
    out.truncate(0), out.seek(0)
    ui.line("who")
    assert out.getvalue().splitlines()[:2] == [f"To join this table: {command}", "Seats:"]
    ui.line("say  hello  there ")
    ui.line("start")
    assert fake.sent == [{"type": "say", "text": "hello  there"}]
    assert "start: the game has started" in out.getvalue()


def test_chat_lines_and_a_refused_name() -> None:
    ui, _, out = client(1)
    out.truncate(0), out.seek(0)
    ui.on({"type": "said", "seat": 0, "name": "Hal", "text": "hi \\x1b"})
    ui.on({"type": "said", "seat": 1, "name": "Ann", "text": "hello"})
    assert out.getvalue().splitlines() == ["Hal says: hi \\x1b", "You say: hello"]
    out = io.StringIO()
    ui = LineClient(FakeClient(), out)
    ui.on(
        {
            "type": "welcome", "protocol": 1, "seat": 1, "token": "t", "host": False,
            "name": "Bob", "name_refused": "the host named this seat Bob",
        }
    )  # fmt: skip
    assert out.getvalue().splitlines()[-1] == (
        "mille: your name is not used (the host named this seat Bob); you are Bob."
    )


def test_a_name_from_the_network_is_escaped() -> None:
    ui, _, out = client(1)
    out.truncate(0), out.seek(0)
    ui.on(seats((0, "Bo\x1b[2J", "here")))
    ui.on(seats((0, "Bo\x1b[2J", "away")))
    assert out.getvalue().splitlines()[-1] == "Bo\\x1b[2J dropped; the seat waits for Bo\\x1b[2J."


def update(feed: Feed, seat: int, since: int = 0) -> dict[str, Any]:
    return {
        "type": "update",
        "version": feed.version(seat),
        "events": feed.events_since(seat, since) or [],
        "missed": False,
        "view": feed.snapshot(seat),
    }


def test_a_turn_the_host_and_the_errors() -> None:
    feed = Feed(Session.new(find_rules("classic", players=4), seed=3, humans=(0, 1, 2, 3)))
    starter = feed.session.table.current_player
    assert starter is not None
    ui, fake, out = client(starter)
    out.truncate(0), out.seek(0)
    ui.on(update(feed, starter))
    lines = out.getvalue().splitlines()
    assert lines[-2].startswith("Your hand: ") and lines[-1] == "Your move: "
    out.truncate(0), out.seek(0)
    ui.line("p")
    assert fake.sent[-1] == {"type": "move", "version": 0, "move": "P"}
    ui.line("u 9")
    ui.line("o")
    ui.line("s")
    ui.on({"type": "error", "code": "refused", "message": "must pick first"})
    assert out.getvalue() == (
        "no such slot: 9 (P or 0, 1-6)\n"
        "Your move: o is not offered over the network.\n"
        "Your move: Only the host may save (a save holds every hand).\n"
        "Your move: mille: must pick first\n"
        "Your move: "
    )
    ui.on({"type": "saved", "ok": False, "file": "f", "reason": "Permission denied"})
    ui.on({"type": "bye", "reason": "the host ended the game"})
    assert out.getvalue().endswith(
        "Not saved: Permission denied.\nmille: the host ended the game\n"
    )
    assert (ui.done, ui.status) == (True, 0)
    other, _, out = client(2)
    other.on({"type": "bye", "reason": "the host went away"})
    assert (other.status, out.getvalue().splitlines()[-1]) == (3, "mille: the host went away")


def test_the_end_of_a_hand() -> None:
    feed = Feed(Session.new(find_rules("classic", players=4), seed=3, humans=()))
    session = feed.session
    while not session.table.hand_over:
        seat = session.table.current_player
        assert seat is not None
        feed.computer_plays(seat, feed.think(seat))
    host, fake, out = client(0, host=True)
    host.on(update(feed, 0, feed.version(0)))
    assert out.getvalue().endswith("Another hand? ")
    host.line("maybe")
    assert out.getvalue().endswith("Answer y or n.\nAnother hand? ")
    host.line("y")
    assert fake.sent[-1] == {"type": "deal"}
    guest, _, out = client(1)
    guest.on(update(feed, 1, feed.version(1)))
    assert out.getvalue().endswith("Waiting for the host to deal.\n")
    feed.next_hand()
    guest.on(update(feed, 1, feed.version(1) - 1))
    assert "A new hand is dealt.\n" in out.getvalue()


def test_quitting_asks_really_and_the_host_saves() -> None:
    feed = Feed(Session.new(find_rules("classic", players=4), seed=3, humans=(0, 1, 2, 3)))
    guest, fake, out = client(1)
    guest.on(update(feed, 1))
    out.truncate(0), out.seek(0)
    guest.line("q")
    guest.line("maybe")
    guest.line("n")
    assert out.getvalue() == "Really? Answer y or n.\nReally? "
    assert not guest.done and fake.sent == []
    guest.back = "mille --join 127.0.0.1:7477 abcdefghjkmn"
    guest.line("q")
    guest.line("y")
    assert out.getvalue().endswith(
        "Really? You leave the table; your seat waits for you.\n"
        "To come back: mille --join 127.0.0.1:7477 abcdefghjkmn\n"
    )
    assert fake.sent == [{"type": "bye"}] and guest.done

    host, fake, out = client(0, host=True)
    host.on(update(feed, 0))
    out.truncate(0), out.seek(0)
    host.line("s")
    host.line("game.sav")
    assert fake.sent[-1] == {"type": "save", "file": "game.sav"}
    host.on({"type": "saved", "ok": True, "file": "game.sav", "when": "now"})
    host.line("q")
    host.line("y")
    assert fake.sent[-1] == {"type": "end"} and not host.done  # until the host's bye
    assert out.getvalue() == "file: Saved to game.sav.\nReally? "


def test_each_seat_is_named_as_it_sees_the_table() -> None:
    """A joiner is ``You`` to itself, the others by their names, partners
    as at one table (issue 29's words, relative to the seat reading)."""
    rules = find_rules("classic", players=4)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1), names={0: "Ann"}))
    assert feed.rename(1, "Bob") == "Bob"
    assert feed.rename(1, "ann") == "Bob"  # another's name (any case): kept as it was
    assert feed.rename(1, "You") == "Bob"  # a name mille gives a seat
    assert feed.session.people == {0: "Ann", 1: "Bob"}  # a save keeps them
    session = feed.session
    while not (len(session.log) > 8 and session.table.current_player == 1):
        seat = session.table.current_player
        assert seat is not None
        if feed.is_computer(seat):
            feed.computer_plays(seat, feed.think(seat))
        else:
            feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
    assert feed.snapshot(1)["names"] == ["Ann", "Bob", None, None]
    host, _, out = client(0, host=True)
    host.on(update(feed, 0))
    assert out.getvalue().splitlines()[1:6] == [
        "You drew Out of Gas",
        "You played Go",
        "Bob played Go",
        "Partner played 50: Team A 50 miles",
        "Comp 3 played Stop on side 1 (Team A)",
    ]
    guest, _, out = client(1)
    guest.on(update(feed, 1))
    assert out.getvalue().splitlines() == [
        "You sit at seat 1.",
        "Ann played Go",
        "You drew Go",
        "You played Go",
        "Comp 2 played 50: Team A 50 miles",
        "Partner played Stop on side 1 (Team A)",
        "Ann played Out of Gas on side 2 (Team B)",
        "Side 1, Team A (Ann, Comp 2): 50 of 1000 miles; Stop; 50 this hand, 50 in all.",
        "Side 2, Team B (You, Partner): 0 of 1000 miles; Out of Gas; 0 this hand, 0 in all.",
        "Deck: 77 cards. Discard pile: empty.",
        "Your hand: P: -, 1: Go, 2: Repairs, 3: 25, 4: 100, 5: Repairs, 6: 75.",
        "Your move: ",
    ]


def test_a_name_in_a_view_from_the_network_is_escaped() -> None:
    feed = Feed(Session.new(find_rules("classic", players=4), seed=3, humans=(0, 1)))
    message = update(feed, 1)
    message["view"]["names"] = ["Bo\x1b[2J", None, None, None]
    guest, _, _ = client(1)
    guest.on(message)
    assert guest.remote.view.names == {0: "Bo\\x1b[2J"}


def test_a_joiners_words_before_the_start() -> None:
    ui, fake, out = client(1)
    out.truncate(0), out.seek(0)
    ui.on(seats((0, "Hal", "here"), (1, "Ann", "here")) | {"started": False, "join": ""})
    ui.line("start")
    ui.line("say")
    assert out.getvalue().splitlines() == [
        "Seats:",
        "   1 Hal              here, the host",
        "   2 Ann              you",
        "Waiting for the host to start the game.",
        "start: only the host starts the game",
        "say what? (say and the words, on one line)",
    ]
    assert fake.sent == []
