"""What goes on the wire for a seat, and a seat's moves: the one module of
``mille.net`` that reads the session.

:class:`Feed` watches a :class:`~mille.game.session.Session` and gives,
for each seat, a snapshot of its view (JSON-able, with the seat's state
version) and its events since a version; it makes a seat's move, checked
by the engine (a refusal changes nothing), refusing a move made against an
older version.  Everything sent to a seat is made from its
:class:`~mille.engine.view.SeatView` (``Session.view``) and its event
stream (``Session.events``, whose one rule is ``SeatView.event``), each
event as ``storage.shapes.event_to_dict`` writes it (the view as
``storage.shapes.view_to_dict`` does): no other hand, no
deck order, no seed.  What a seat may see is decided there, not here.

A seat's version counts the changes it was shown (moves it may see, new
hands).  A person is never asked ``Coup Fourre?`` over the network: the
session calls it for them (``Session.calls_coup``), since the table's
pause while they decided would tell the others that they held the safety.
A computer's ``Coup Fourre?`` is hidden by the view
(``SeatView.question_hidden``: the phase, the question and the turn as if
none were put), and that seat's ``n`` is not in the stream, so it changes
no version: that a seat could have made a coup fourre is its secret.

>>> from mille.game.session import Session
>>> from mille.engine.table import PICK
>>> feed = Feed(Session.new(seed=1))
>>> feed.version(0), feed.snapshot(0)["phase"]
(0, 'playing')
>>> feed.play(0, 0, PICK).changed, feed.version(0), feed.version(1)
([0, 1], 1, 1)
>>> [event["drawn"] == [None] for event in feed.events_since(1, 0)]
[True]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.moves import COUP, IllegalMove, Move
from ..engine.table import Table
from ..engine.view import PublicView, SeatView
from ..game.session import seen_events
from ..storage.shapes import event_to_dict, shared_to_dict, view_to_dict
from .wire import NAME_TAKEN, STALE, ProtocolError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..game.history import Hand
    from ..game.session import Session
    from ..players.base import Player
    from .messages import Refusal

# ``ops``, what a worker's replica is told (``worker.apply_op``), one JSON object each:
# {"move": TEXT} a move made ("stand_in": true: by a computer for an absent person),
# {"deal": true} the next hand dealt, {"seat": N, "name": NAME} a person seat named,
# {"seat": N, "say": TEXT} a chat line said (kept in the save's log), and
# {"think": N} the seat's computer chose a move (``worker.Thinker.think``)
KEPT_EVENTS = 2000  # events kept per seat for a client that comes back


@dataclass
class Played:
    """What a move changed: the seats shown something, and the moves
    that had waited for a ``Coup Fourre?`` and were then refused as stale
    (their seats)."""

    changed: list[int]
    stale: list[int]


class Feed:
    """A session as its seats see it over the wire (see the module docstring)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        # every person's Coup Fourre? is called for them: a seat that could
        # time the question would learn who held the safety (Session.calls_coup)
        session.networked = True
        session.settle()
        players = session.rules.players
        # each seat's stream, and the watchers' last (``public``)
        self.streams: list[list[dict[str, Any]]] = [[] for _ in range(players + 1)]
        self.dropped = [0] * (players + 1)  # events no longer kept, by seat
        self._read = len(session.log)  # the session's events already shown
        # a move that waits for another seat's Coup Fourre? (seat, version, move)
        self.waiting: tuple[int, int, Move] | None = None
        self.stamp = 0  # changes whenever the table does
        # the moves made (and the rest of ``ops``), for a worker's replica, when one listens
        self.ops: list[dict[str, Any]] | None = None
        self._shared: dict[str, Any] = {}
        self._shared_key: tuple[int, int, int] | None = None

    # ----- what a seat is sent ---------------------------------------------------

    @property
    def players(self) -> int:
        return self.session.rules.players

    @property
    def public(self) -> int:
        """The watchers' "seat": their view and stream, which show no hand
        (``engine.view.PublicView``), after the seats'."""
        return self.session.rules.players

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know (the watchers': no hand, looking from seat 0)."""
        session = self.session
        if seat == self.public:
            return PublicView(session.table, 0, session.people)
        return session.view(seat)

    def version(self, seat: int) -> int:
        return self.dropped[seat] + len(self.streams[seat])

    def snapshot(self, seat: int) -> dict[str, Any]:
        """The seat's view, with its version (the watchers', ``public``:
        no hand, no legal move, ``watching``)."""
        view = self.view(seat)
        # the part every seat is shown alike (a question hidden from some
        # seats changes only the phase, the question and the turn), made once a change
        key = (self.stamp, len(self.session.log), id(self.session.table))
        if key != self._shared_key:
            self._shared = shared_to_dict(view)
            self._shared_key = key
        return (
            view_to_dict(view, self._shared)
            | {
                "version": self.version(seat),
                "level": self.session.level,  # how the computers play (the boards' ? page)
            }
            | ({"watching": True} if seat == self.public else {})
        )

    def events_since(self, seat: int, version: int) -> list[dict[str, Any]] | None:
        """The seat's events after ``version`` (None if some are no longer kept)."""
        start = version - self.dropped[seat]
        if start < 0 or version > self.version(seat):
            return None
        return self.streams[seat][start:]

    def _show(self, seat: int, event: dict[str, Any]) -> None:
        stream = self.streams[seat]
        stream.append(event)
        if len(stream) > KEPT_EVENTS:
            del stream[: len(stream) - KEPT_EVENTS]
            self.dropped[seat] = event["version"] - len(stream)

    def sync(self) -> list[int]:
        """Turn the session's new moves into each seat's events; the seats
        that were shown something."""
        session = self.session
        log = session.log
        changed: set[int] = set()
        if self.ops is not None:
            self.ops.extend(
                {"move": str(event.outcome.move)} | ({"stand_in": True} if event.stand_in else {})
                for event in log[self._read :]
            )
        for seat in range(self.players + 1):  # (the watchers' last)
            for event in seen_events(self.view(seat), log[self._read :]):  # the seat's stream
                self._show(seat, {"version": self.version(seat) + 1} | event_to_dict(event))
                changed.add(seat)
        if len(log) != self._read:
            self.stamp += 1
        self._read = len(log)
        changed.discard(self.public)  # (the watchers see no move the seats do not)
        return sorted(changed)

    # ----- who moves, and moves ----------------------------------------------------

    @property
    def table(self) -> Table:
        return self.session.table

    def to_decide(self) -> int | None:
        """The seat that must decide now (a move or an answer), None at the
        end of a hand."""
        return self.session.table.current_player

    def is_computer(self, seat: int) -> bool:
        return seat in self.session.computers

    def rename(self, seat: int, name: object) -> str:
        """The person at ``seat`` is called ``name`` if a person may be
        (:meth:`name_seat`); the seat's name in force either way (the
        session's: a save keeps it)."""
        self.name_seat(seat, name)
        return self.session.people[seat]

    def say(self, seat: int, text: str) -> None:
        """A chat line, kept with the hand's log (the save keeps it); it
        changes nothing else: no version, no view.  ``ValueError`` if a
        save could not keep it (``Session.say``)."""
        self.session.say(seat, text)
        if self.ops is not None:  # the worker's replica saves: it keeps it too
            self.ops.append({"seat": seat, "say": text})

    def name(self, seat: int) -> str:
        """The person at ``seat``'s name (the session's)."""
        return self.session.people[seat]

    def named(self, seat: int) -> bool:
        """The person seat has a name of its own (not ``Player N``)."""
        from ..game.limits import default_name

        return self.session.people.get(seat, default_name(seat)) != default_name(seat)

    def name_seat(self, seat: int, name: object) -> Refusal | None:
        """Call the person at ``seat`` ``name`` if a person may be called so
        (``check_name``) and nobody else at the table is; why not, if not
        (its code and values; None: named so, or no name given)."""
        from ..game.limits import BadName, check_name, name_key

        people = self.session.people
        if not isinstance(name, str):
            return None
        try:
            name = check_name(name.strip())
        except BadName as exc:
            return {"code": exc.code, "values": dict(exc.values)}
        taken = {name_key(other) for s, other in people.items() if s != seat}
        if name_key(name) in taken:
            return {"code": NAME_TAKEN, "values": {"name": repr(name)}}
        if people.get(seat) != name:
            people[seat] = name
            self.stamp += 1  # every seat's view names it
            if self.ops is not None:  # the worker's replica, which saves, names it too
                self.ops.append({"seat": seat, "name": name})
        return None

    def hand_over(self) -> bool:
        return self.session.table.hand_over

    def game_over(self) -> bool:
        return self.session.table.game_over

    def play(self, seat: int, version: int, move: Move) -> Played:
        """Make ``seat``'s ``move`` made against its ``version``.
        ``ProtocolError`` (stale) for an older version, ``IllegalMove``
        with the board's message if the engine refuses; either way nothing
        changed.

        A move of the seat to play while another seat's ``Coup Fourre?``
        is pending (which it cannot know) waits for the answer: it is made
        after ``n``, and refused as stale after a coup fourre."""
        if version != self.version(seat):
            raise ProtocolError(STALE)
        view = self.session.view(seat)
        reason = view.check(move)
        if reason is not None:
            raise IllegalMove(reason)
        if view.question_hidden():
            self.waiting = (seat, version, move)
            return Played([], [])
        self._play(move)
        return self._after()

    def _play(self, move: Move, stand_in: bool = False) -> None:
        """The session makes ``move``.  While a worker's replica holds the
        computers (``ops`` is a list), the session's own copies neither
        watch the move (the expert's watching costs the server's loop
        a tenth of a second a move at eight seats) nor answer a question
        put to them: the question waits for the worker like any decision,
        and saves are made from the replica."""
        session = self.session
        play = session.play_stand_in if stand_in else session.play
        if self.ops is None:
            play(move)
            return
        computers, session.computers = session.computers, {}
        try:
            play(move)
        finally:
            session.computers = computers

    def _after(self) -> Played:
        """Show the new moves; make a move that waited for a ``Coup
        Fourre?`` now answered, or refuse it as stale."""
        changed = self.sync()
        stale: list[int] = []
        waiting = self.waiting
        if waiting is not None and self.session.table.phase != COUP:
            self.waiting = None
            seat, version, move = waiting
            if (
                version == self.version(seat)
                and SeatView(self.session.table, seat).check(move) is None
            ):
                self._play(move)
                changed = sorted(set(changed) | set(self.sync()))
            else:
                stale.append(seat)
        return Played(changed, stale)

    def think(self, seat: int, stand_in: Player | None = None) -> Move:
        """The move of the computer that plays ``seat`` (its own, or
        ``stand_in`` for a person who is away).  Reads only: a worker thread
        may run it while the table waits."""
        player = self.session.computers.get(seat) if stand_in is None else stand_in
        if player is None:
            raise ValueError(f"no computer plays seat {seat}")
        return player.choose(SeatView(self.session.table, seat))

    def computer_plays(self, seat: int, move: Move, stand_in: bool = False) -> Played:
        """Make the move a computer chose for ``seat`` (by :meth:`think`);
        ``stand_in``: for the seat's person, away, so the log credits the
        computer (``Event.stand_in``) on every screen and in the save."""
        if self.session.table.current_player != seat:
            raise IllegalMove("not your turn")
        self._play(move, stand_in)
        return self._after()

    def take_ops(self) -> list[dict[str, Any]]:
        """The moves made since the last call (see ``ops``), and forget them."""
        ops = self.ops or []
        self.ops = []
        return ops

    def take_computers(self, computers: dict[int, Player]) -> None:
        """The session's computers are ``computers`` from now on (a failed
        worker's replica, rebuilt), and watch every move again (no ``ops``)."""
        self.session.computers = computers
        self.ops = None

    def stand_in(self, seat: int, seed: int) -> Player:
        """A computer to play ``seat`` while its person is away, at the
        table's level, shown the hand as it is now."""
        return self.session.stand_in(seat, seed)

    def next_hand(self) -> list[int]:
        """Deal the next hand (the last one over); every seat is shown it."""
        self.sync()
        self.waiting = None
        if self.ops is None:
            self.session.next_hand()
        else:  # the replica's computers are shown the new hand, not the session's
            session = self.session
            computers, session.computers = session.computers, {}
            try:
                session.next_hand()
            finally:
                session.computers = computers
            self.ops.append({"deal": True})
        self._read = 0
        self.stamp += 1
        for seat in range(self.players + 1):  # (the watchers' too)
            self._show(seat, {"version": self.version(seat) + 1, "deal": True})
        return list(range(self.players))

    def hand_played(self) -> Hand | None:
        """The hand as played so far, whole (its deal and every move, for
        the game sent whole at its end: ``whole``); None where its deal is
        not known (a hand resumed from a save)."""
        from ..game.history import hand_of

        session = self.session
        return hand_of(session.cards_dealt, session.log, session.orders)

    def game_text(self, hands: list[Hand]) -> str:
        """The game whose hands are ``hands``, as a game file's text on one
        line (its people named as the session names them)."""
        from ..game.history import History
        from ..storage import gamefile

        session = self.session
        players = range(session.rules.players)
        computers = {seat: session.level for seat in players if seat not in session.people}
        history = History(session.rules, dict(session.people), computers, tuple(hands))
        return gamefile.dumps(history, compact=True)


def save(feed: Feed, path: str) -> None:
    """Save the game to ``path`` (the host's; a save holds every hand)."""
    from ..storage import savefile

    savefile.save_session(feed.session, path)


def keep(feed: Feed) -> str:
    """Keep the game in a new recovery file; its path (OSError if not)."""
    from ..storage import recovery

    return recovery.write(feed.session)


def saved_bytes(feed: Feed) -> bytes:
    """The game as a save file's bytes (what the host keeps after every move)."""
    from ..storage import savefile

    return savefile.dumps(feed.session).encode("ascii")
