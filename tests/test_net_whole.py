"""A network game kept whole on every end (issue 47): once the game is
over, and never before, the host sends each seat the whole game (the
``game`` message: a game file's text); each seat's record keeps it, so
``--stats`` lists the network game with its moves and it replays exactly.

Whole seeded games over loopback: every message each seat is sent is
captured as the server sends it (and every update checked against what
its seat may see, as ``test_net_game`` checks them)."""

from __future__ import annotations

import asyncio
import io
import json
import queue
from typing import Any

import pytest
from test_net_game import Watch, play, watched
from test_net_remote_session import StandIn

from mille.engine.rules import find_rules
from mille.frontends.remote.lines import LineSeat, RemoteLineUi
from mille.game.history import replay
from mille.game.session import Session
from mille.net import connection as connection_module
from mille.net.follow import table_of
from mille.net.messages import whole_game
from mille.net.seats import Feed
from mille.net.whole import Hands
from mille.net.wire import MAX_SERVER_LINE, PROTOCOL, encode
from mille.storage import gamefile, record

SHORT: dict[str, Any] = {"distance": 300, "winning_score": 1000}  # games of a few hands


def captured(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[dict[str, Any]]]:
    """Every message each seat is sent, by seat, as sent (a copy)."""
    sent: dict[int, list[dict[str, Any]]] = {}
    send = connection_module.Connection.send

    def keep(conn: connection_module.Connection, message: Any) -> None:
        if conn.seat is not None:
            sent.setdefault(conn.seat.number, []).append(json.loads(json.dumps(message)))
        send(conn, message)

    monkeypatch.setattr(connection_module.Connection, "send", keep)
    return sent


@pytest.mark.parametrize(
    ("rules", "people", "seed"),
    [
        (find_rules("classic", players=4), (0, 1, 2, 3), 11),
        (find_rules("milebymile", players=3, **SHORT), (0, 2), 5),
    ],
    ids=["classic four people", "mile by mile two people and a computer"],
)
def test_the_whole_game_comes_to_every_seat_at_its_end_and_never_before(
    monkeypatch: pytest.MonkeyPatch, rules: Any, people: tuple[int, ...], seed: int
) -> None:
    session = Session.new(rules, seed=seed, humans=people, level="easy")
    watch = Watch(session)
    watched(monkeypatch, watch)  # every update: only what its seat may see
    sent = captured(monkeypatch)
    asyncio.run(play(session, list(people), watch))
    assert watch.checked > 20
    assert sorted(sent) == list(people)
    for seat, got in sent.items():
        kinds = [message["type"] for message in got]
        assert kinds.count("game") == 1, seat
        at = kinds.index("game")
        # nothing but updates (each checked) and the table's words before it
        assert set(kinds[:at]) <= {"welcome", "seats", "update", "said", "error", "ping"}
        updates = [m for m in got[:at] if m["type"] == "update"]
        # the update before it shows the game over; none before that one did
        assert table_of(updates[-1]["view"]).game_over
        assert not any(table_of(m["view"]).game_over for m in updates[:-1])
        assert "update" not in kinds[at:]
        history = gamefile.loads(got[at]["history"])
        assert history.rules == session.rules
        *_, last = replay(history)  # it replays exactly, to the table's end
        assert last.table.totals == session.table.totals
        assert last.table.hands == session.table.hands
        assert list(last.log) == session.log
        assert dict(history.people) == session.people


def played_to_the_end(rules: Any, seed: int) -> tuple[Feed, Hands]:
    """A game of computers played to its end at the host's feed, each hand
    noted as the table notes it."""
    session = Session.new(rules, seed=seed, humans=(), level="easy")
    feed, hands = Feed(session), Hands()
    while True:
        while not session.table.hand_over:
            seat = session.table.current_player
            assert seat is not None
            feed.computer_plays(seat, feed.think(seat))
        if session.table.game_over:
            return feed, hands
        hands.note(feed)
        feed.next_hand()


def test_the_whole_game_of_nine_seats_fits_a_line_of_the_protocol() -> None:
    """A nine-seat game of the default length, its message whole: well
    within ``wire.MAX_SERVER_LINE`` (1 MiB)."""
    feed, hands = played_to_the_end(find_rules("milebymile", players=9), seed=4)
    line = encode(hands.message(feed))
    history = gamefile.loads(whole_game(json.loads(line)["history"])["history"] or "")
    assert len(history.hands) >= 2
    print(f"nine seats, {len(history.hands)} hands: {len(line)} bytes")
    assert len(line) < MAX_SERVER_LINE // 4


def joined_to_the_end(whole: Any) -> tuple[Session, str]:
    """Seat 1 of a short network game in the line mode (the host in this
    process, ``StandIn``), the flow's end of each hand noted by its
    recorder; at the game's end the host sends ``whole`` (a function of
    the session and its hands: the ``game`` message); what it said."""
    rules = find_rules("milebymile", players=3, **SHORT)
    session = Session.new(rules, seed=2, humans=(0, 1), names={0: "Ann", 1: "Bob"})
    feed, hands = Feed(session), Hands()
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": False, "token": "t", "protocol": PROTOCOL}
    remote = LineSeat(link, welcome, link.update())
    out = io.StringIO()
    ui = RemoteLineUi(remote, io.BytesIO(), out, queue.Queue())
    remote.out = lambda line: print(line, file=out)
    while True:
        while not session.table.hand_over:  # every seat's moves, by the host
            seat = session.table.current_player
            assert seat is not None
            feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
        link.inbox.put(link.update())
        if session.table.game_over:
            link.inbox.put(whole(feed, hands))
        while remote.another_decides:
            ui.computer_moved(remote.another_moves())
        ui.recorder.hand_over(remote)  # flow.finish_hand
        if session.table.game_over:
            return session, out.getvalue()
        hands.note(feed)
        feed.next_hand()
        link.inbox.put(link.update())
        remote.next_hand()
        ui.new_hand()


def test_a_joiners_record_keeps_the_network_game_with_its_moves() -> None:
    session, _said = joined_to_the_end(lambda feed, hands: dict(hands.message(feed)))
    (game,) = record.games()
    assert game.place == "network"
    text = record.history(1)
    assert text is not None
    history = gamefile.loads(text)
    *_, last = replay(history)
    assert last.table.totals == session.table.totals
    assert list(last.log) == session.log
    assert history.names() == {0: "Ann", 1: "Bob"}


def test_a_whole_game_that_cannot_be_read_is_one_line_and_the_game_recorded_without_moves() -> None:
    def broken(feed: Feed, hands: Hands) -> dict[str, Any]:
        text = hands.message(feed)["history"]
        assert text is not None
        message: dict[str, Any] = {"type": "game", "history": text[:-40]}
        return message

    _session, said = joined_to_the_end(broken)
    (game,) = record.games()
    assert game.place == "network" and record.history(1) is None
    lines = [line for line in said.splitlines() if "the game the host sent" in line]
    assert len(lines) == 1
    assert lines[0].startswith("mille: the game the host sent cannot be read: not a mille game")
    assert lines[0].endswith("; the game is recorded without its moves")
