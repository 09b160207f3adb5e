"""The line mode over the network (``frontends.remote.lines``): the line
mode's front end driven by the flow over a ``RemoteSeat``, against a
stand-in host (``test_net_remote_session.StandIn``); what it says, word
for word, for the host's messages and the lines typed."""

from __future__ import annotations

import io
import time
from collections.abc import Mapping
from typing import Any

import pytest
from test_net_remote_session import StandIn, received

from mille.engine.moves import Discard, Use
from mille.engine.rules import find_rules
from mille.frontends.remote import lines as remote_lines
from mille.frontends.remote import seat as remote_seat
from mille.frontends.remote.lines import LineSeat
from mille.frontends.remote.link import Join
from mille.frontends.remote.presence import who_lines
from mille.game.session import Session
from mille.net.messages import bye, saved
from mille.net.seats import Feed

SAVED_AT = 1764633600  # when the stand-in host saves (seconds since the epoch)

BACK = "mille --join 127.0.0.1:7477 abcdefghjkmn"


class Host(StandIn):
    """The stand-in host, with the computers' moves made after each move
    sent, a save answered, an end said goodbye to, and no thread."""

    def __init__(self, feed: Feed, seat: int) -> None:
        super().__init__(feed, seat)
        self.closed_with: bool | None = None

    def open(self, hello: Mapping[str, Any], *args: Any, **kwargs: Any) -> None:
        return None

    def send(self, message: Mapping[str, Any]) -> None:
        kind = message["type"]
        if kind == "move":
            super().send(message)
            feed = self.feed
            while (seat := feed.to_decide()) is not None and feed.is_computer(seat):
                feed.computer_plays(seat, feed.think(seat))
            self.inbox.put(self.update())
            return
        self.sent.append(dict(message))
        if kind == "save":
            self.inbox.put(received(saved(message["file"], SAVED_AT)))
        elif kind == "end":
            self.inbox.put(received(bye("ended")))

    def close(self, bye: bool) -> None:
        self.closed_with = bye


def welcome(seat: int, host: bool, **more: Any) -> dict[str, Any]:
    return {"type": "welcome", "protocol": 3, "seat": seat, "token": "t", "host": host} | more


def play(
    monkeypatch: pytest.MonkeyPatch,
    feed: Feed,
    seat: int,
    script: str,
    *,
    host: bool = False,
    first: list[dict[str, Any]] | None = None,
    hello: dict[str, Any] | None = None,
) -> tuple[int, str, Host]:
    """``play_lines`` for ``seat`` with ``script`` typed; the status, what
    was said, the stand-in host."""
    link = Host(feed, seat)
    link.inbox.put(hello or welcome(seat, host))
    for message in first or []:
        link.inbox.put(message)
    link.inbox.put(link.update())
    monkeypatch.setattr(remote_seat, "Link", lambda *args: link)
    out = io.StringIO()
    join = Join("127.0.0.1", 7477, "abcdefghjkmn", back=BACK)
    status = remote_lines.play_lines(join, stdin=io.BytesIO(script.encode()), stdout=out)
    return status, out.getvalue(), link


def four(people: tuple[int, ...] = (1,)) -> Feed:
    return Feed(Session.new(find_rules("classic", players=4), seed=3, humans=people))


def session(seat: int = 1, host: bool = False) -> tuple[LineSeat, list[str]]:
    feed = four((0, 1, 2, 3))
    link = Host(feed, seat)
    said: list[str] = []
    remote = LineSeat(link, welcome(seat, host), link.update())
    remote.out = said.append
    return remote, said


def seats(*rows: tuple[int, str, str], waiting: int | None = None) -> dict[str, Any]:
    return {
        "type": "seats",
        "seats": [{"seat": s, "name": n, "status": st, "host": s == 0} for s, n, st in rows],
        "waiting_for": waiting,
    }


def test_who_is_here_and_whom_the_table_waits_for() -> None:
    remote, said = session(1)
    remote.take(seats((0, "Bo\\x1b", "here"), (1, "Ann", "here"), (2, "Cy", "here")))
    remote.take(seats((0, "Bo\\x1b", "here"), (1, "Ann", "here"), (2, "Cy", "away"), waiting=2))
    remote.take(seats((0, "Bo\\x1b", "here"), (1, "Ann", "here"), (2, "Cy", "computer-for-now")))
    assert said == [
        "Seats:",
        "   0 Bo\\x1b           here, the host",
        "   1 Ann              you",
        "   2 Cy               here",
        "Cy dropped; the seat waits for Cy.",
        "Waiting for Cy (seat 2).",
        "A computer plays Cy's seat until Cy is back.",
    ]


def test_joined_left_back_and_the_waiting_room() -> None:
    """Who comes and goes, in lines; before the start the host is told how
    to start, and ``who`` shows the whole join command and the seats."""
    remote, said = session(0, host=True)
    command = "mille --join 127.0.0.1:7477 abcdefghjkmn"

    def told(*rows: tuple[int, str, str], started: bool = False) -> None:
        remote.take(seats(*rows) | {"started": started, "join": command})

    told((0, "Hal", "here"), (1, "Ann", "free"), (2, "Bob", "free"))
    assert who_lines(remote.presence, remote.host)[-1].startswith("Type start to begin now")
    told((0, "Hal", "here"), (1, "Ann", "here"), (2, "Bob", "free"))
    told((0, "Hal", "here"), (1, "Ann", "here"), (2, "Bob", "computer-for-now"), started=True)
    told((0, "Hal", "here"), (1, "Ann", "left"), (2, "Bob", "here"), started=True)
    told((0, "Hal", "here"), (1, "Ann", "here"), (2, "Bob", "here"), started=True)
    assert said == [
        f"To join this table: {command}",
        "Seats:",
        "   0 Hal              you, the host",
        "   1 Ann              awaited",
        "   2 Bob              awaited",
        "Type start to begin now (a computer plays each empty seat until its person joins); "
        "the game starts by itself when every seat is taken.",
        "Ann joined.",
        "A computer plays Bob's seat until Bob joins.",
        "The game starts.",
        "Ann left; the seat waits for Ann.",
        "Bob joined.",
        "Ann is back.",
    ]
    assert who_lines(remote.presence, remote.host) == [
        f"To join this table: {command}",
        "Seats:",
        "   0 Hal              you, the host",
        "   1 Ann              here",
        "   2 Bob              here",
    ]


def test_chat_lines_and_a_name_from_the_network_escaped() -> None:
    remote, said = session(1)
    remote.take({"type": "said", "seat": 0, "name": "Hal", "text": "hi \\x1b"})
    remote.take({"type": "said", "seat": 1, "name": "Ann", "text": "hello"})
    remote.take(seats((0, "Bo\x1b[2J", "here")))
    remote.take(seats((0, "Bo\x1b[2J", "away")))
    assert said[:2] == ["Hal says: hi \\x1b", "You say: hello"]
    assert said[-1] == "Bo\\x1b[2J dropped; the seat waits for Bo\\x1b[2J."


def test_who_say_and_start_at_the_prompt(monkeypatch: pytest.MonkeyPatch) -> None:
    room = seats((0, "Hal", "here"), (1, "Ann", "here")) | {"started": False, "join": ""}
    status, out, link = play(monkeypatch, four(), 1, "say  hello  there \nsay\n", first=[room])
    assert out.splitlines()[:5] == [
        "You sit at seat 1.",
        "Seats:",
        "   0 Hal              here, the host",
        "   1 Ann              you",
        "Waiting for the host to start the game.",
    ]
    assert "say what? (say and the words, on one line)" in out.splitlines()
    assert link.sent == [{"type": "say", "text": "hello there"}]  # cut as the host cuts it
    assert status == 0  # the input ended in the waiting room: the seat leaves


def test_a_turn_in_the_line_modes_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """At its turn a joiner gets the line mode's words: a refusal as at
    home, ``o`` not offered, ``s`` the host's; the end of the input leaves
    the table, with the command to come back."""
    feed = four((1,))
    while feed.to_decide() != 1:
        seat = feed.to_decide()
        assert seat is not None
        feed.computer_plays(seat, feed.think(seat))
    status, out, link = play(monkeypatch, feed, 1, "u 9\nu 2\no\ns\n")
    assert out.startswith("You sit at seat 1.\n")
    assert (
        "Your move: u 9\n"
        "no such slot: 9 (P or 0, 1-6)\n"
        "Your move: u 2\n"
        "must pick first\n"
        "Your move: o\n"
        "o is not offered over the network.\n"
        "Your move: s\n"
        "Only the host may save (a save holds every hand).\n"
    ) in out
    assert out.endswith(
        f"Your move: \nYou leave the table; your seat waits for you.\nTo come back: {BACK}\n"
    )
    assert (status, link.closed_with) == (0, True)


def test_quitting_asks_really_and_the_host_saves_and_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    feed = four((0, 1))
    status, out, link = play(monkeypatch, feed, 0, "q\nmaybe\nn\ns\ngame.sav\nq\ny\nn\n", host=True)
    assert out.splitlines()[0] == (
        "You sit at seat 0 (you host this table: only you may deal, save or end)."
    )
    assert "Your move: q\nReally? maybe\nAnswer y or n.\nReally? n\nYour move: s\n" in out
    # as on the host's board: Save game? after Really? y (issue 40, item 10), and
    # no "the host ended the game" told to the host itself
    at = time.ctime(SAVED_AT)  # (the host sends the time, the joiner shows it: i18n.when)
    assert out.endswith(f"file: game.sav\ngame.sav [{at}]\nYour move: q\nReally? y\nSave game? n\n")
    assert {"type": "save", "file": "game.sav"} in link.sent and link.sent[-1] == {"type": "end"}
    assert status == 0


def test_a_refused_name_and_each_seat_named_as_it_sees_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A joiner is ``You`` to itself, the others by their names, partners
    as at one table; a ``--name`` the host did not take is said why."""
    rules = find_rules("classic", players=4)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1), names={0: "Ann"}))
    assert feed.rename(1, "Bob") == "Bob"
    assert feed.rename(1, "ann") == "Bob"  # another's name (any case): kept as it was
    assert feed.rename(1, "You") == "Bob"  # a name mille gives a seat
    game = feed.session
    while not (len(game.log) > 8 and game.table.current_player == 1):
        seat = game.table.current_player
        assert seat is not None
        if feed.is_computer(seat):
            feed.computer_plays(seat, feed.think(seat))
        else:
            feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
    hello = welcome(
        1, False, name="Bob", name_refused={"code": "host-named", "values": {"name": "Bob"}}
    )
    _, out, _ = play(monkeypatch, feed, 1, "", hello=hello)
    lines = out.splitlines()
    assert lines[:2] == [
        "You sit at seat 1.",
        "mille: your name is not used (the host named this seat Bob); you are Bob.",
    ]  # (Bob's own Go, made before: no computer played for Bob)
    assert "While you were away" not in out
    assert lines[4:16] == [
        "Ann played Go",
        "You drew Go",
        "You played Go",
        "Comp 2 played 50: Team A 50 miles",
        "Partner played Stop on side 1 (Team A)",
        "Ann played Out of Gas on side 2 (Team B)",
        "Side 1, Team A (Ann, Comp 2): 50 of 1000 miles; Stop; 50 this hand, 50 in all.",
        "Side 2, Team B (You, Partner): 0 of 1000 miles; Out of Gas; 0 this hand, 0 in all.",
        "Deck: 77 cards. Discard pile: empty.",
        "Your hand: P: empty, 1: Go, 2: Repairs, 3: 25, 4: 100, 5: Repairs, 6: 75.",
        "Your move: ",
        "You leave the table; your seat waits for you.",
    ]


@pytest.mark.parametrize("stand_in", [False, True], ids=["own moves", "a computer's"])
def test_a_joiner_back_after_a_crash_counts_only_the_moves_a_computer_made(
    monkeypatch: pytest.MonkeyPatch, stand_in: bool
) -> None:
    """Restarted (its token, no version: the whole hand comes), a joiner
    says a computer played for it only for the moves a computer made
    (``stand_in``), never for its own."""
    feed = Feed(Session.new(find_rules("classic", players=3), seed=3, humans=(0, 1)))
    game = feed.session
    mine = 0
    while mine < 5:
        seat = game.table.current_player
        assert seat is not None
        move = feed.think(seat, feed.stand_in(seat, 1) if seat != 2 else None)
        if seat == 1:
            mine += 1
            feed.computer_plays(seat, move, stand_in=stand_in)
        elif seat == 2:
            feed.computer_plays(seat, move)
        else:
            feed.play(seat, feed.version(seat), move)
    made = sum(
        1
        for event in game.events(1)
        if event.outcome.seat == 1
        and event.stand_in
        and isinstance(event.outcome.move, Use | Discard)
    )
    _, out, _ = play(monkeypatch, feed, 1, "")
    if stand_in:
        assert made > 0 and f"While you were away a computer played {made} moves" in out
    else:
        assert made == 0 and "While you were away" not in out


def test_a_name_in_a_view_from_the_network_is_escaped() -> None:
    feed = four((0, 1))
    link = Host(feed, 1)
    message = link.update()
    message["view"]["names"] = ["Bo\x1b[2J", None, None, None]
    remote = LineSeat(link, welcome(1, False), message)
    assert remote.people == {0: "Bo\\x1b[2J"}


class Terminal(io.BytesIO):
    def isatty(self) -> bool:
        return True


def test_lines_typed_while_another_seat_decides() -> None:
    """Whose turn it is is told when another person's comes; ``who`` and
    ``say`` are done at once, ``s`` too at a terminal (the host's alone
    saves), ``l`` shows the hand so far; a move typed out of turn is
    refused at once (``Wait: ...``), never kept to act later, unseen, and
    the lines after it are read."""
    import queue

    from mille.frontends.remote.lines import RemoteLineUi

    remote, _ = session(1)
    lines: queue.Queue[bytes | None] = queue.Queue()
    for line in (b"who", b"say hi", b"s", b"p", b"say later"):
        lines.put(line)
    out = io.StringIO()
    ui = RemoteLineUi(remote, Terminal(), out, lines)
    for _ in range(6):
        ui.meanwhile()
    assert out.getvalue().splitlines() == [
        "Player 0's turn.",
        "Seats:",
        "Only the host may save (a save holds every hand).",
        "Wait: it is Player 0's turn.",
    ]
    assert ui.kept == [] and lines.empty()
    assert remote.link.sent == [  # type: ignore[attr-defined]
        {"type": "say", "text": "hi"},
        {"type": "say", "text": "later"},
    ]


@pytest.mark.parametrize("signum", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_joiner_coming_back_stops_at_once_on_a_signal(
    monkeypatch: pytest.MonkeyPatch, signum: str
) -> None:
    """The host gone, the joiner tries to come back for a minute: ^C,
    SIGTERM or SIGHUP stops it at once, with the command to come back."""
    import os
    import signal
    import socket
    import threading
    import time

    with socket.socket() as taken:  # a port nothing listens on
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
    link = Host(four(), 1)
    link.join = Join("127.0.0.1", port, "abcdefghjkmn")
    for message in (welcome(1, False), link.update(), None):
        link.inbox.put(message)
    monkeypatch.setattr(remote_seat, "Link", lambda *args: link)
    out = io.StringIO()
    join = Join("127.0.0.1", port, "abcdefghjkmn", back=BACK)
    threading.Timer(0.5, os.kill, (os.getpid(), getattr(signal, signum))).start()
    start = time.monotonic()
    status = remote_lines.play_lines(join, stdin=Terminal(b""), stdout=out)
    assert time.monotonic() - start < 2.5
    assert status == 3
    assert out.getvalue().splitlines()[-3:] == [
        "mille: the line to the host broke; reconnecting (^C to stop)",
        "mille: stopped coming back to the table; your seat waits for you",
        f"To come back: {BACK}",
    ]
