"""A finished game shown again, move by move: :class:`Replay`.

History is data, and a replay is the same game, read from a file: a
:class:`Replay` is built from a :class:`~mille.game.history.History`
(checked whole first: :func:`~mille.game.history.replay`, HistoryError in
one line) and satisfies :class:`mille.game.protocol.Game`, so the boards
and the line mode draw it as they draw a game in play.  Nobody decides at
a replay: its next move is another's (``another_decides`` while the hand
has one), made by :meth:`Replay.another_moves` (a step forward), and
``play`` is refused (:class:`ReadOnly`); ``at_keyboard()`` is empty and
``local`` None (nothing to save or keep).

It is positioned at any point (:meth:`Replay.go`: hand ``h``, move ``m``,
both from 0; move ``m`` is the position after ``m`` moves, and the ``O``
made before the next) and steps forward (one move made at the table),
back (the hand made again from its deal to the move before: the engine is
pure and fast, ``docs/benchmarks.md``), to the start or end of a hand and
to the next or previous hand.  It shows one seat's view as it was
(``viewer``, chosen by :meth:`Replay.choose`), or, with ``open`` on, every
hand open: each seat's event stream is then the whole log, the cards
drawn shown, and :meth:`Replay.open_hands` gives every other seat's hand.

``notes`` are an optional mark beside each move, by (hand, move) with the
move counted from 1 (the move just made): the status line shows it.

>>> from mille.game.history import History, hand_of
>>> from mille.game.session import Session
>>> game = Session.new(seed=3, humans=())
>>> while not game.table.hand_over:
...     _ = game.computer_move()
>>> hand = hand_of(game.cards_dealt, game.log)
>>> whole = History(game.rules, {}, dict.fromkeys(range(2), "standard"), (hand,))
>>> shown = Replay(whole, finished=False)
>>> shown.where(), shown.another_decides
((0, 0), True)
>>> shown.end()
>>> shown.table == game.table, shown.another_decides
(True, False)
>>> shown.back()
>>> shown.where() == (0, len(game.log) - 1)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.moves import Event, Move, Outcome
from ..engine.rules import Rules
from ..engine.table import Table
from ..engine.view import SeatView
from ..players.registry import STANDARD
from .history import Hand, History, HistoryError, made, replay
from .limits import computer_name
from .session import seen_events
from .talk import QUIET, Quiet

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .session import Session


class ReadOnly(ValueError):
    """A move offered to a replay: nobody plays at one."""


@dataclass(frozen=True)
class _Kept:
    """One hand of the game: as it was dealt (a table not to change) and
    as it was played (its moves, stand-ins and ``O``)."""

    dealt: Table
    hand: Hand


class Replay:
    """A finished game, shown again at one point of it (see the module
    docstring); at first the start of its first hand, from the first
    person's seat (the first seat's in a game of computers alone)."""

    window_full: bool  # the W setting: full score window

    def __init__(
        self,
        history: History,
        *,
        source: str | None = None,
        notes: Mapping[tuple[int, int], str] | None = None,
        finished: bool = True,
        here: tuple[int, ...] = (),
    ) -> None:
        hands = [played.dealt for played in replay(history, finished=finished)]
        if not hands:
            raise HistoryError("the game has no hands")
        self.history = history
        self._hands = [
            _Kept(dealt, hand) for dealt, hand in zip(hands, history.hands) if dealt is not None
        ]
        self._people = history.names()
        self._source = source
        self.notes: Mapping[tuple[int, int], str] = notes or {}
        self.window_full = False
        self.open = False  # every hand open (True) or one seat's view
        # the seats of the people at this machine (the record says them): the
        # words' "You", the view shown first; none known: every person's seat
        self._here = {seat for seat in here if seat in self._people} or set(self._people)
        self._viewer = min(self._here, default=0)
        self._hand = 0
        self._table = self._hands[0].dealt.copy()
        self._log: list[Event] = []
        self._orders()

    # ----- where it is ----------------------------------------------------------

    @property
    def hands(self) -> int:
        """How many hands the game had."""
        return len(self._hands)

    def moves(self, hand: int | None = None) -> int:
        """How many moves ``hand`` had (this one: None)."""
        return len(self._hands[self._hand if hand is None else hand].hand.moves)

    def where(self) -> tuple[int, int]:
        """The hand shown and how many of its moves are made (from 0)."""
        return self._hand, len(self._log)

    def note(self) -> str:
        """The mark beside the move just made ("" for none, or at a hand's start)."""
        hand, move = self.where()
        return self.notes.get((hand, move), "") if move else ""

    # ----- moving about ---------------------------------------------------------

    def go(self, hand: int, move: int) -> None:
        """Show hand ``hand`` after ``move`` of its moves (each clamped to
        the game's), made again from its deal."""
        self._hand = min(max(hand, 0), len(self._hands) - 1)
        kept = self._hands[self._hand]
        self._table = kept.dealt.copy()
        self._log = []
        self._orders()
        for _ in range(min(max(move, 0), len(kept.hand.moves))):
            self._forward()

    def forward(self) -> None:
        """One move on (nothing at the hand's end)."""
        if len(self._log) < self.moves():
            self._forward()

    def back(self) -> None:
        """One move back (nothing at the hand's start): the hand made
        again to the move before."""
        if self._log:
            self.go(self._hand, len(self._log) - 1)

    def start(self) -> None:
        """The start of this hand, as dealt."""
        self.go(self._hand, 0)

    def end(self) -> None:
        """The end of this hand: its last move made."""
        while len(self._log) < self.moves():
            self._forward()

    def next(self) -> None:
        """The start of the next hand (the last hand: its end)."""
        if self._hand + 1 < len(self._hands):
            self.go(self._hand + 1, 0)
        else:
            self.end()

    def previous(self) -> None:
        """The start of the previous hand (the first: its start)."""
        self.go(self._hand - 1, 0)

    def choose(self, seat: int) -> None:
        """Show the game from ``seat``'s view (its hand, what it saw)."""
        self._viewer = seat % self.rules.players

    def open_hands(self) -> dict[int, list[int]]:
        """Every other seat's hand, by seat, with ``open`` on; else none."""
        if not self.open:
            return {}
        return {seat: hand for seat, hand in enumerate(self._table.hands) if seat != self._viewer}

    def _forward(self) -> Outcome:
        kept = self._hands[self._hand].hand
        number = len(self._log)
        event = made(self._table, kept.moves[number], number in kept.stand_ins)
        self._log.append(event)
        self._orders()
        return event.outcome

    def _orders(self) -> None:
        """The ``O`` made after as many moves as are made now."""
        for count, on in self._hands[self._hand].hand.orders:
            if count == len(self._log):
                self._table.set_ordering(on)

    # ----- the game, as the front ends read it ----------------------------------

    @property
    def table(self) -> Table:
        return self._table

    @property
    def rules(self) -> Rules:
        return self.history.rules

    @property
    def people(self) -> Mapping[int, str]:
        return self._people

    @property
    def log(self) -> list[Event]:
        return self._log

    @property
    def source(self) -> str | None:
        return self._source

    @property
    def level(self) -> str:
        """The computers' level (the first computer's; standard for none)."""
        computers = self.history.computers
        return computers[min(computers)] if computers else STANDARD

    @property
    def networked(self) -> bool:
        return False

    @property
    def calls_coup(self) -> bool:
        return False

    @property
    def viewer(self) -> int:
        """The seat whose view is shown."""
        return self._viewer

    @property
    def another_decides(self) -> bool:
        """The hand has a move still to show (:meth:`another_moves`)."""
        return len(self._log) < self.moves()

    @property
    def human_to_move(self) -> bool:
        """Nobody decides at a replay."""
        return False

    @property
    def talk(self) -> Quiet:
        return QUIET

    @property
    def local(self) -> Session | None:
        """Nothing to save or keep: the game is in the record already."""
        return None

    def view(self, seat: int) -> SeatView:
        """What ``seat`` saw, as it saw it: ``You`` for the seat of a person
        at this machine (``here``), any other seat named (``seen by Hal``)."""
        return SeatView(self._table, seat, self._people, you=seat in self._here)

    def events(self, seat: int, start: int = 0) -> list[Event]:
        """The hand's moves from the ``start``-th on, as ``seat`` saw them;
        every hand open: as they were."""
        if self.open:
            return self._log[start:]
        return seen_events(self.view(seat), self._log[start:])

    def name(self, seat: int) -> str:
        return self._people.get(seat, computer_name(seat))

    def at_keyboard(self) -> tuple[int, ...]:
        """Nobody is at the keyboard of a replay."""
        return ()

    def is_person(self, seat: int) -> bool:
        return seat in self._people

    def play(self, move: Move) -> Outcome:
        """Refused: a replay shows moves, nobody makes one."""
        raise ReadOnly("a replay is not played")

    def another_moves(self) -> Outcome:
        """The hand's next move, made (ReadOnly at its end)."""
        if not self.another_decides:
            raise ReadOnly("the hand has no more moves")
        return self._forward()

    def next_hand(self) -> None:
        """The next hand, from its deal."""
        self.next()

    def set_ordering(self, on: bool) -> None:
        """Refused: the hands are shown as they were ordered."""
        raise ReadOnly("a replay is not played")

    def whole_game(self) -> None:
        """None: a replay is a game the record holds already (nothing to
        record again)."""
        return None
