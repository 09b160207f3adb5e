"""``frontends.remote_ui.RemoteSession``: a remote seat's game as the flow
and the boards read it, against a stand-in host (a :class:`Feed` answering
each message as the server would)."""

from __future__ import annotations

from typing import Any

import pytest

from mille.engine.moves import PICK, IllegalMove, Use
from mille.engine.rules import find_rules
from mille.frontends.remote_ui import Gone, Link, RemoteSession
from mille.game.session import Session
from mille.net.seats import Feed
from mille.net.wire import parse_move


class StandIn(Link):
    """A host in this process: a move sent is made by ``feed`` at once."""

    def __init__(self, feed: Feed, seat: int) -> None:
        super().__init__("127.0.0.1", 0, {}, None)
        self.feed, self.seat, self.shown = feed, seat, 0
        self.sent: list[dict[str, Any]] = []

    def update(self) -> dict[str, Any]:
        feed, seat = self.feed, self.seat
        message = {
            "type": "update",
            "version": feed.version(seat),
            "events": feed.events_since(seat, self.shown) or [],
            "missed": False,
            "view": feed.snapshot(seat),
        }
        self.shown = feed.version(seat)
        return message

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if message["type"] == "move":
            try:
                self.feed.play(self.seat, message["version"], parse_move(message["move"]))
            except IllegalMove as exc:
                self.inbox.put({"type": "error", "code": "refused", "message": str(exc)})
                return
            self.inbox.put(self.update())


def game() -> tuple[Feed, StandIn, RemoteSession]:
    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1, 2), names={0: "Hal", 1: "Ann"}))
    assert feed.session.table.current_player == 0
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": False, "token": "t", "protocol": 1}
    return feed, link, RemoteSession(link, welcome, link.update())


def others_play(feed: Feed, until: int) -> None:
    """The other seats play (as computers would) until ``until`` must decide."""
    while feed.session.table.current_player != until:
        seat = feed.session.table.current_player
        assert seat is not None
        feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))


def test_the_others_moves_come_as_a_computers_one_by_one() -> None:
    feed, link, remote = game()
    assert remote.at_keyboard() == (1,) and remote.people == {0: "Hal", 1: "Ann", 2: "Player 2"}
    assert remote.computer_to_move and not remote.human_to_move  # Hal's turn
    others_play(feed, 1)
    link.inbox.put(link.update())
    seen = feed.session.events(1)
    outcomes = []
    while remote.computer_to_move:
        outcomes.append(remote.computer_move())
    assert outcomes == [event.outcome for event in seen]
    assert remote.log == seen and remote.table.current_player == 1 and remote.human_to_move


def test_a_move_is_made_by_the_host_or_refused_with_its_words() -> None:
    feed, link, remote = game()
    others_play(feed, 1)
    link.inbox.put(link.update())
    while remote.computer_to_move:
        remote.computer_move()
    with pytest.raises(IllegalMove, match="^must pick first$"):
        remote.play(Use(1))
    outcome = remote.play(PICK)
    assert (
        outcome.seat == 1
        and len(outcome.drawn) == 1
        and outcome.drawn == tuple(feed.session.log[-1].outcome.drawn)
    )
    assert remote.version == feed.version(1) and remote.table.hands[1] == feed.table.hands[1]


@pytest.mark.parametrize(
    ("message", "line", "status"),
    [
        ({"type": "bye", "reason": "the host ended the game"}, "mille: the host ended the game", 0),
        ({"type": "bye", "reason": "the host went away"}, "mille: the host went away", 3),
        (
            {"type": "bye", "code": "ended", "reason": "the host ended the game"},
            "mille: the host ended the game",
            0,
        ),
        (
            {"type": "bye", "code": "host-gone", "reason": "the host went away"},
            "mille: the host went away",
            3,
        ),
        (None, "mille: the host went away", 3),
        (
            {"type": "error", "code": "table-over", "message": "the host ended the game"},
            "mille: the host ended the game",
            0,
        ),
        (
            {"type": "error", "code": "table-full", "message": "every person seat is taken"},
            "mille: every person seat is taken",
            2,
        ),
    ],
)
def test_the_host_gone(message: dict[str, Any] | None, line: str, status: int) -> None:
    _, link, remote = game()
    link.inbox.put(message)
    with pytest.raises(Gone) as gone:
        remote.computer_move()
    assert (gone.value.reason, gone.value.status) == (line, status)


def test_a_board_that_takes_the_answer_while_waiting_does_not_wait_on() -> None:
    """The board's checkpoint drains what woke it (the link's signal): the
    move's answer taken there ends the wait (it waited on for a message
    that never came)."""
    feed, link, remote = game()
    others_play(feed, 1)
    link.inbox.put(link.update())
    while remote.computer_to_move:
        remote.computer_move()
    calls = []

    def board_checkpoint() -> None:
        calls.append(1)
        assert len(calls) < 50, "the answer was taken, yet the session waited on"
        remote.drain()

    remote.idle = board_checkpoint
    assert remote.play(PICK).seat == 1


def test_the_next_hand_is_the_hosts_to_deal() -> None:
    feed, link, remote = game()
    session = feed.session
    while not session.table.hand_over:  # everyone's moves, this seat's too, by the host
        seat = session.table.current_player
        assert seat is not None
        feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
    link.inbox.put(link.update())
    while remote.computer_to_move:
        remote.computer_move()
    assert remote.table.hand_over and remote.log == session.events(1)
    feed.next_hand()  # the host's y
    link.inbox.put(link.update())
    remote.next_hand()  # a joiner's y: waits for the deal, sends nothing
    assert link.sent == [] and remote.log == [] and not remote.table.hand_over
    assert remote.table.hands[1] == session.table.hands[1]
