"""``frontends.remote.seat.RemoteSeat``: a remote seat's game as the flow
and the boards read it, against a stand-in host (a :class:`Feed` answering
each message as the server would)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from mille.engine.moves import PICK, IllegalMove, Use
from mille.engine.rules import find_rules
from mille.frontends.questions import Question
from mille.frontends.remote.link import Join, Link
from mille.frontends.remote.seat import Gone, RemoteSeat
from mille.game.session import Session
from mille.net.messages import bye, error
from mille.net.seats import Feed
from mille.net.wire import parse_move


def received(message: Mapping[str, Any]) -> dict[str, Any]:
    """A message of the host's (``messages``' constructors) as a link's
    inbox holds it (read from JSON)."""
    return dict(message)


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

    def send(self, message: Mapping[str, Any]) -> None:
        self.sent.append(dict(message))
        if message["type"] == "move":
            try:
                self.feed.play(self.seat, message["version"], parse_move(message["move"]))
            except IllegalMove as exc:
                self.inbox.put(received(error("refused", {"reason": str(exc)})))
                return
            self.inbox.put(self.update())


def game() -> tuple[Feed, StandIn, RemoteSeat]:
    rules = find_rules("classic", players=3)
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1, 2), names={0: "Hal", 1: "Ann"}))
    assert feed.session.table.current_player == 0
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": False, "token": "t", "protocol": 3}
    return feed, link, RemoteSeat(link, welcome, link.update())


def others_play(feed: Feed, until: int) -> None:
    """The other seats play (as computers would) until ``until`` must decide."""
    while feed.session.table.current_player != until:
        seat = feed.session.table.current_player
        assert seat is not None
        feed.play(seat, feed.version(seat), feed.think(seat, feed.stand_in(seat, 1)))


def test_the_others_moves_come_as_a_computers_one_by_one() -> None:
    feed, link, remote = game()
    assert remote.at_keyboard() == (1,) and remote.people == {0: "Hal", 1: "Ann", 2: "Player 2"}
    assert remote.another_decides and not remote.human_to_move  # Hal's turn
    others_play(feed, 1)
    link.inbox.put(link.update())
    seen = feed.session.events(1)
    outcomes = []
    while remote.another_decides:
        outcomes.append(remote.another_moves())
    assert outcomes == [event.outcome for event in seen]
    assert remote.log == seen and remote.table.current_player == 1 and remote.human_to_move


def test_a_move_is_made_by_the_host_or_refused_with_its_words() -> None:
    feed, link, remote = game()
    others_play(feed, 1)
    link.inbox.put(link.update())
    while remote.another_decides:
        remote.another_moves()
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
        ({"type": "bye"}, "mille: the host went away", 3),
        (bye("ended"), "mille: the host ended the game", 0),
        (bye("host-gone"), "mille: the host went away", 3),
        (None, "mille: the host went away", 3),
        (error("table-over"), "mille: the host ended the game", 0),
        (error("table-full"), "mille: every person seat is taken", 2),
        (
            # a host of protocol 1 refuses a hello of protocol 2 in its English alone
            {
                "type": "error",
                "code": "version",
                "message": "this host speaks mille protocol 1, not 2: play with the same version of mille",
            },
            "mille: the host speaks another mille protocol: play with the same version of mille",
            2,
        ),
    ],
)
def test_the_host_gone(message: dict[str, Any] | None, line: str, status: int) -> None:
    _, link, remote = game()
    link.inbox.put(message)
    with pytest.raises(Gone) as gone:
        remote.another_moves()
    assert (gone.value.reason, gone.value.status) == (line, status)


def test_a_board_that_takes_the_answer_while_waiting_does_not_wait_on() -> None:
    """The board's checkpoint drains what woke it (the link's signal): the
    move's answer taken there ends the wait (it waited on for a message
    that never came)."""
    feed, link, remote = game()
    others_play(feed, 1)
    link.inbox.put(link.update())
    while remote.another_decides:
        remote.another_moves()
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
    while remote.another_decides:
        remote.another_moves()
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
    while remote.another_decides:
        remote.another_moves()
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
    assert remote.another_decides and not remote.human_to_move
    outcome = remote.another_moves()
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
    while remote.another_decides:
        remote.another_moves()
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
    assert ui.ask(Question.ANOTHER_HAND) is True
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
    welcome = {"type": "welcome", "seat": mover, "host": False, "token": "t", "protocol": 3}
    remote = RemoteSeat(link, welcome, link.update())
    while remote.another_decides:
        remote.another_moves()
    assert remote.human_to_move  # the question is hidden: the person's turn, as they see it

    def computer_answers() -> None:
        remote.idle = lambda: None
        played = feed.computer_plays(0, YES if answer == "y" else NO)
        if mover in played.stale:
            link.inbox.put(received(error("stale")))
        link.inbox.put(link.update())

    remote.idle = computer_answers
    if answer == "n":
        outcome = remote.play(PICK)
        assert outcome.seat == mover and remote.table.current_player == mover
        return
    with pytest.raises(IllegalMove, match="the table changed: your move was not made"):
        remote.play(PICK)
    assert remote.another_decides  # the coup fourre, to be shown
    shown = []
    while remote.pending:  # (then the computer plays again: the host is waited for)
        shown.append(remote.another_moves())
    assert any(outcome.coup_fourre and outcome.seat == 0 for outcome in shown)
    assert remote.table == table_of_seat(feed, mover)


def table_of_seat(feed: Feed, seat: int) -> Any:
    from mille.net.follow import table_of

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

    def relink(join: Join, version: int, tries: int, stop: Any = None) -> Link:
        asked.append((join.token, version, tries))
        again.inbox.put({"type": "seats", "seats": [], "waiting_for": None})
        again.inbox.put(again.update())
        return again

    monkeypatch.setattr(seat, "relink", relink)
    others_play(feed, 1)  # while the line is down
    link.inbox.put(None)
    outcomes = []
    while remote.another_decides:
        outcomes.append(remote.another_moves())
    assert said == [seat.BROKE, seat.BACK_AGAIN]
    assert asked == [("t", 0, 3)] and remote.link is again
    assert outcomes == [event.outcome for event in feed.session.events(1)]
    assert remote.human_to_move and remote.play(PICK).seat == 1


@pytest.mark.parametrize(
    ("back", "line", "status", "final"),
    [
        (None, "mille: the host went away", 3, False),
        (error("wrong-token"), "mille: no seat has this token", 2, True),
        (bye("ended"), "mille: the host ended the game", 0, True),
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
    monkeypatch.setattr(seat, "relink", lambda join, version, tries, stop: back)
    link.inbox.put(None)
    with pytest.raises(Gone) as gone:
        remote.another_moves()
    assert (gone.value.reason, gone.value.status, gone.value.final) == (line, status, final)


def test_a_move_whose_answer_the_break_lost_is_refused_to_be_made_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mille.frontends.remote import seat

    feed, link, remote = game()
    others_play(feed, 1)
    link.inbox.put(link.update())
    while remote.another_decides:
        remote.another_moves()
    again = StandIn(feed, 1)
    again.shown = link.shown

    def relink(join: Join, version: int, tries: int, stop: Any = None) -> Link:
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
    assert join.hello() == {"type": "hello", "protocol": 3, "code": "abcdefghjkmn", "name": "Ann"}
    back = join.taking_back("tok")
    assert (back.token, back.name, back.wait, join.token) == ("tok", "Ann", 3.0, None)
    assert back.hello(7) == {
        "type": "hello", "protocol": 3, "code": "abcdefghjkmn", "token": "tok", "version": 7
    }  # fmt: skip
    assert back.hello() == {"type": "hello", "protocol": 3, "code": "abcdefghjkmn", "token": "tok"}


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


@pytest.mark.parametrize("when", [0.0, 0.3, 1.5])
def test_a_seat_coming_back_stops_at_once_when_asked(when: float) -> None:
    """^C, SIGTERM or SIGHUP (``stop_asked``) while the seat tries to come
    back to a host that is gone: it stops at once (not after a minute),
    the seat waiting, the command that comes back to be told."""
    import socket
    import time

    from mille.frontends.remote import seat

    with socket.socket() as taken:  # a port nothing listens on
        taken.bind(("127.0.0.1", 0))
        port = taken.getsockname()[1]
    _, link, remote = game()
    link.join = Join("127.0.0.1", port, "abcdefghjkmn")
    remote.retries = seat.RETRIES
    start = time.monotonic()
    remote.stop_asked = lambda: time.monotonic() - start > when
    link.inbox.put(None)
    with pytest.raises(Gone) as gone:
        remote.another_moves()
    assert time.monotonic() - start < when + 1
    assert gone.value.reason == "mille: stopped coming back to the table; your seat waits for you"
    assert (gone.value.status, gone.value.final, gone.value.back) == (3, False, True)


@pytest.mark.parametrize("host", [False, True], ids=["a joiner", "the host"])
def test_a_remote_board_offers_only_the_keys_its_seat_may_use(host: bool) -> None:
    """BSD's board and the row board of a remote seat: no ``o: order hand``
    (nobody orders a hand over the network), no ``s: save`` but for the
    host, in the score window, the hints and ``?``."""
    from mille.frontends.remote.board_ui import RemoteBsdUi, RemoteTableUi
    from support.fakewindow import FakeWindow

    rules = find_rules("bsd")
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1), names={0: "Hal", 1: "Ann"}))
    link = StandIn(feed, 1)
    welcome = {"type": "welcome", "seat": 1, "host": host, "token": "t", "protocol": 3}
    remote = RemoteSeat(link, welcome, link.update())
    for board in (RemoteBsdUi, RemoteTableUi):
        window = FakeWindow()
        ui = board(window, remote)  # type: ignore[arg-type]
        ui.render()
        text = window.text()
        help_text = "\n".join(ui.screen.help_lines())
        assert "o: order hand" not in text and "keep your hand in order" not in help_text
        assert ("s: save" in text) == (host and board is RemoteBsdUi)
        assert ("S      save the game" in help_text) == host
        assert "W      " in help_text  # the rest of the line stays


@pytest.mark.parametrize("board", ["bsd", "rows"])
def test_a_board_back_at_the_table_says_what_happened_meanwhile(board: str) -> None:
    """Back at the table after a closed terminal, the board says, as the
    line mode does, what a computer played meanwhile and the name kept,
    and keeps saying it while the moves missed are shown."""
    from mille.frontends.remote.board_ui import RemoteBsdUi, RemoteTableUi
    from mille.frontends.remote.link import Join
    from support.fakewindow import FakeWindow

    rules = find_rules("bsd")
    feed = Feed(Session.new(rules, seed=3, humans=(0, 1), names={0: "Hal", 1: "Tom"}))
    game = feed.session
    while len(game.log) < 6 or game.table.current_player != 0:
        seat = game.table.current_player
        assert seat is not None
        move = feed.think(seat, feed.stand_in(seat, 1))
        if seat == 1:
            feed.computer_plays(seat, move, stand_in=True)
        else:
            feed.play(seat, feed.version(seat), move)
    link = StandIn(feed, 1)
    link.join = Join("127.0.0.1", 0, "abcdefghjkmn", name="Ann", token="t")
    welcome = {"type": "welcome", "seat": 1, "host": False, "token": "t", "protocol": 3}
    remote = RemoteSeat(link, welcome | {"name": "Tom"}, link.update())
    if remote.name_refused:
        remote.tell(remote.name_refused)
    window = FakeWindow()
    ui = (RemoteBsdUi if board == "bsd" else RemoteTableUi)(window, remote)  # type: ignore[arg-type]
    ui.started()
    while remote.pending:  # the moves missed, shown one by one
        ui.computer_moved(remote.another_moves())
        ui.render()
    cells = [line.rpartition("|")[2] for line in window.full_lines()]  # (BSD's: the right)
    text = " ".join(" ".join(cells).split())
    assert "While you were away a computer played 2 moves for you." in text
    assert "mille: you are back as Tom: a seat keeps its name" in text
