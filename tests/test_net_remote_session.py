"""``frontends.remote.seat.RemoteSession``: a remote seat's game as the flow
and the boards read it, against a stand-in host (a :class:`Feed` answering
each message as the server would)."""

from __future__ import annotations

from typing import Any

import pytest

from mille.engine.moves import PICK, IllegalMove, Use
from mille.engine.rules import find_rules
from mille.frontends.remote.link import Join, Link
from mille.frontends.remote.seat import Gone, RemoteSession
from mille.game.session import Session
from mille.net.seats import Feed
from mille.net.wire import parse_move


class StandIn(Link):
    """A host in this process: a move sent is made by ``feed`` at once."""

    def __init__(self, feed: Feed, seat: int) -> None:
        super().__init__(Join("127.0.0.1", 0, "abcdefghjkmn"))
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


def test_a_board_at_its_prompt_follows_the_table_that_moved_on() -> None:
    """Ann is at ``>>:Move:`` when the table moves on without her (here a
    computer plays her seat; a hidden ``Coup Fourre?`` answered does the
    same): the host's news leaves the prompt, nothing is sent, and the flow
    shows the move (the board froze on the old table until the hand ended)."""
    from mille.frontends.curses_keys import Keyboard
    from mille.frontends.remote.board_ui import RemoteTableUi
    from mille.frontends.screen import MOVE_PROMPT
    from support.fakewindow import FakeWindow

    feed, link, remote = game()
    others_play(feed, 1)
    link.inbox.put(link.update())
    while remote.computer_to_move:
        remote.computer_move()
    assert remote.human_to_move
    ui = RemoteTableUi(FakeWindow(), remote)  # type: ignore[arg-type]

    class News(Keyboard):
        """No key: the host's news comes instead, and wakes the board."""

        def wait(self, timeout: float | None) -> int | None:
            assert not link.sent, "nothing was sent"
            feed.computer_plays(1, PICK, stand_in=True)
            link.inbox.put(link.update())
            ui.heard = True
            return None

    from mille.frontends.table_screen import NETWORK_KEYS

    assert NETWORK_KEYS in ui.screen.help_lines()  # ? lists J and C over the network
    ui.keys.keyboard = News()
    assert ui.read_move() is None
    assert ui.screen.prompt == MOVE_PROMPT and ui.screen.echo == ""
    assert remote.computer_to_move and not remote.human_to_move
    outcome = remote.computer_move()
    assert outcome.seat == 1 and remote.log[-1].stand_in and link.sent == []


def test_a_joiner_at_another_hand_follows_the_hosts_deal() -> None:
    """A joiner at ``Another hand?`` when the host deals: the question goes
    (as a ``y``) and the new hand is played, with nothing sent."""
    from mille.frontends.curses_keys import Keyboard
    from mille.frontends.remote.board_ui import RemoteTableUi
    from support.fakewindow import FakeWindow

    feed, link, remote = game()
    session = feed.session
    while not session.table.hand_over:
        seat = session.table.current_player
        assert seat is not None
        feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
    link.inbox.put(link.update())
    while remote.computer_to_move:
        remote.computer_move()
    ui = RemoteTableUi(FakeWindow(), remote)  # type: ignore[arg-type]

    class Deal(Keyboard):
        """The host's deal comes, then (if still asked) the joiner's n."""

        dealt = False

        def wait(self, timeout: float | None) -> int | None:
            if self.dealt:
                return ord("n")
            self.dealt = True
            feed.next_hand()  # the host's y
            link.inbox.put(link.update())
            ui.heard = True
            return None

    ui.keys.keyboard = Deal()
    assert ui.ask("Another hand?") is True
    remote.next_hand()
    assert link.sent == [] and not remote.table.hand_over and remote.log == []


@pytest.mark.parametrize("answer", ["n", "y"])
def test_a_pick_while_another_seat_answers_coup_fourre(answer: str) -> None:
    """A person sees their turn and picks while a computer, hit, is asked
    ``Coup Fourre?`` (hidden from the person; it waits for the computer, as
    when the host's worker process holds it; a person is never asked over
    the network): the host holds the pick; the computer's ``n`` makes it,
    its ``y`` refuses it as stale and the person's board is shown the coup
    fourre and the table after it (it froze on the old table)."""
    from mille.engine.moves import COUP, NO, YES

    rules = find_rules("classic", players=3)
    for seed in range(80):
        session = Session.new(rules, seed=seed, humans=(1, 2), names={1: "Ann", 2: "Bob"})
        feed = Feed(session)
        feed.ops = []  # (the computers' questions wait, as in the worker)
        table = session.table
        for _ in range(300):
            if table.hand_over or table.phase == COUP:
                break
            seat = table.current_player
            assert seat is not None
            if seat in session.computers:
                feed.computer_plays(seat, feed.think(seat))
            else:
                feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))
        if table.phase == COUP and table.asked == 0 and table.to_move in session.people:
            break
    else:
        raise AssertionError("no coup fourre asked of the computer before a person's turn")
    mover = table.to_move
    assert mover is not None
    link = StandIn(feed, mover)
    welcome = {"type": "welcome", "seat": mover, "host": False, "token": "t", "protocol": 1}
    remote = RemoteSession(link, welcome, link.update())
    while remote.computer_to_move:
        remote.computer_move()
    assert remote.human_to_move  # the question is hidden: the person's turn, as they see it

    def computer_answers() -> None:
        remote.idle = lambda: None
        played = feed.computer_plays(0, YES if answer == "y" else NO)
        if mover in played.stale:
            link.inbox.put(
                {"type": "error", "code": "stale", "message": "the table changed: your move was not made"}
            )  # fmt: skip
        link.inbox.put(link.update())

    remote.idle = computer_answers
    if answer == "n":
        outcome = remote.play(PICK)
        assert outcome.seat == mover and remote.table.current_player == mover
        return
    with pytest.raises(IllegalMove, match="the table changed: your move was not made"):
        remote.play(PICK)
    assert remote.computer_to_move  # the coup fourre, to be shown
    shown = []
    while remote.pending:  # (then the computer plays again: the host is waited for)
        shown.append(remote.computer_move())
    assert any(outcome.coup_fourre and outcome.seat == 0 for outcome in shown)
    assert remote.table == table_of_seat(feed, mover)


def table_of_seat(feed: Feed, seat: int) -> Any:
    from mille.net.client import table_of

    return table_of(feed.snapshot(seat))


def test_a_line_that_breaks_is_taken_back_by_the_seat_with_what_it_missed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The seat model comes back by itself (for the boards as for the line
    mode): the break and the return said, the seat taken back with its
    token from the version it saw, the moves made meanwhile shown."""
    from mille.frontends.remote import seat

    feed, link, remote = game()
    remote.retries = 3
    said: list[str] = []
    remote.notice = said.append
    asked: list[tuple[str | None, int, int]] = []
    again = StandIn(feed, 1)
    again.shown = link.shown

    def relink(join: Join, version: int, tries: int) -> Link:
        asked.append((join.token, version, tries))
        again.inbox.put({"type": "seats", "seats": [], "waiting_for": None})
        again.inbox.put(again.update())
        return again

    monkeypatch.setattr(seat, "relink", relink)
    others_play(feed, 1)  # while the line is down
    link.inbox.put(None)
    outcomes = []
    while remote.computer_to_move:
        outcomes.append(remote.computer_move())
    assert said == [seat.BROKE, seat.BACK_AGAIN]
    assert asked == [("t", 0, 3)] and remote.link is again
    assert outcomes == [event.outcome for event in feed.session.events(1)]
    assert remote.human_to_move and remote.play(PICK).seat == 1


@pytest.mark.parametrize(
    ("back", "line", "status", "final"),
    [
        (None, "mille: the host went away", 3, False),
        (
            {"type": "error", "code": "wrong-token", "message": "no seat has this token"},
            "mille: no seat has this token",
            2,
            True,
        ),
        ({"type": "bye", "code": "ended", "reason": "the host ended the game"}, "mille: the host ended the game", 0, True),
    ],
)  # fmt: skip
def test_a_seat_that_cannot_come_back_is_gone_with_its_status(
    monkeypatch: pytest.MonkeyPatch,
    back: dict[str, Any] | None,
    line: str,
    status: int,
    final: bool,
) -> None:
    from mille.frontends.remote import seat

    _, link, remote = game()
    remote.retries = 2
    monkeypatch.setattr(seat, "relink", lambda join, version, tries: back)
    link.inbox.put(None)
    with pytest.raises(Gone) as gone:
        remote.computer_move()
    assert (gone.value.reason, gone.value.status, gone.value.final) == (line, status, final)


def test_a_move_whose_answer_the_break_lost_is_refused_to_be_made_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mille.frontends.remote import seat

    feed, link, remote = game()
    others_play(feed, 1)
    link.inbox.put(link.update())
    while remote.computer_to_move:
        remote.computer_move()
    again = StandIn(feed, 1)
    again.shown = link.shown

    def relink(join: Join, version: int, tries: int) -> Link:
        again.inbox.put(again.update())
        return again

    monkeypatch.setattr(seat, "relink", relink)
    remote.retries = 1
    link.send = lambda message: link.inbox.put(None)  # type: ignore[method-assign]
    with pytest.raises(IllegalMove, match="^the line to the host broke: try again$"):
        remote.play(PICK)
    assert remote.play(PICK).seat == 1  # made again, on the new line


def test_the_join_is_one_value_and_says_its_hello() -> None:
    join = Join("::1", 7477, "abcdefghjkmn", name="Ann", wait=3.0, back="mille --join x y")
    assert join.where == "[::1]:7477"
    assert join.hello() == {"type": "hello", "protocol": 1, "code": "abcdefghjkmn", "name": "Ann"}
    back = join.taking_back("tok")
    assert (back.token, back.name, back.wait, join.token) == ("tok", "Ann", 3.0, None)
    assert back.hello(7) == {
        "type": "hello", "protocol": 1, "code": "abcdefghjkmn", "token": "tok", "version": 7
    }  # fmt: skip
    assert back.hello() == {"type": "hello", "protocol": 1, "code": "abcdefghjkmn", "token": "tok"}


def test_a_host_not_reached_is_the_links_answer_not_a_message() -> None:
    """The link's own states are its return values and fields: the inbox
    holds what the host says, and only its end (None) otherwise."""
    import socket

    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    link = Link(Join("127.0.0.1", port, "abcdefghjkmn"))
    said = link.open(link.join.hello())
    assert said == f"mille: cannot reach 127.0.0.1:{port}: Connection refused"
    assert link.next(timeout=5) is None and link.inbox.empty() and link.broken is None
