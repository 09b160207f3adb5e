"""What one seat may know of a table: its :class:`SeatView`.

A seat sees its own hand, every side's piles, the discard pile (each
card on it was shown face up), the cards set aside, how many cards each
hand and the deck hold, the scores, whose turn it is and the question
pending.  It does not see the other hands, the order of the deck, the
cards another seat drew, or the seed of the next reshuffle (which would
tell the order of the refilled deck).

A :class:`SeatView` reads the table live (it is a window, not a copy:
making one costs next to nothing, and it follows the game as moves are
made), and offers nothing else: players, hints and front ends are given
views, so what they cannot see they cannot read by mistake.  A player
that searches makes whole tables from a view with :meth:`SeatView.world`,
the hidden cards filled in by its own guesses.

>>> import random
>>> from mille.engine.rules import BSD
>>> from mille.engine.table import Pick, Table
>>> table = Table.new(BSD, random.Random(1))
>>> view = SeatView(table, 0)
>>> view.hand == table.hands[0], view.deck_size, view.hand_sizes
(True, 89, (6, 6))
>>> hasattr(view, "hands"), hasattr(view, "deck")
(False, False)
>>> outcome = table.apply(Pick())
>>> view.hand_sizes, SeatView(table, 1).seen(outcome).drawn == (-1,)
((7, 6), True)
>>> sorted(view.world().all_cards()) == sorted(table.all_cards())
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter

from .battle import BattleModel
from .cards import FALSE_VIRTUE, HAND_SLOTS, NO_CARD
from .rules import MAX_SEATS, Rules
from .table import COUP, PICK, PLAYING, Answer, Event, HandScore, Move, Outcome, Table
from .tableau import Tableau

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from typing import Generic, TypeVar

    _T = TypeVar("_T")

    class _Live(Generic[_T]):
        """What the table holds under ``name``, read live: an attribute
        of the view that is every seat's alike (its type named where it
        is declared)."""

        def __init__(self, name: str) -> None: ...
        def __get__(self, view: SeatView, owner: type | None = None) -> _T: ...

else:

    def _Live(name):  # a property, read at C speed
        return property(attrgetter("_table." + name))


# a pick as the others see it, by seat and number of cards drawn (made once:
# self-play and the expert's playouts show one to every other seat per pick)
_HIDDEN_PICKS = tuple(
    tuple(Outcome(seat, PICK, drawn=(NO_CARD,) * count) for count in range(HAND_SLOTS))
    for seat in range(MAX_SEATS)
)


def seen_by_others(outcome: Outcome) -> Outcome:
    """``outcome`` as the seats that did not move saw it: the cards drawn
    are hidden (``NO_CARD`` each; how many were drawn is seen)."""
    drawn = outcome.drawn
    if not drawn:
        return outcome
    return _HIDDEN_PICKS[outcome.seat][len(drawn)]


class SeatView:
    """What seat ``seat`` may know of ``table``, read live (see the module
    docstring).  The lists it returns belong to the table: read them, do
    not change them (moves go through the game, not through a view).

    The words call the seat ``You`` (:attr:`reader`), unless ``you`` is
    False: a page read by others than the seat's person (a replay, a
    watcher's screen), where the seat is named.
    """

    __slots__ = ("_table", "seat", "rules", "model", "names", "reader")

    def __init__(
        self,
        table: Table,
        seat: int,
        names: Mapping[int, str] | None = None,
        *,
        you: bool = True,
    ) -> None:
        if not 0 <= seat < table.rules.players:
            raise ValueError(f"no seat {seat} at a table of {table.rules.players}")
        self._table = table
        self.seat = seat
        # the seat the words call "You" (None: nobody, every seat named)
        self.reader: int | None = seat if you else None
        # the people's names, by seat (public: the words name seats by them)
        self.names: Mapping[int, str] = names if names is not None else {}
        # a table's rules, and so its battle model, are its own for good
        self.rules: Rules = table.rules
        self.model: BattleModel = table.model

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat}, {self._table.rules.name})"

    # ----- the seat's own cards ------------------------------------------------

    @property
    def hand(self) -> list[int]:
        """The seat's 7 slots (slot 0 is P, the card just drawn; NO_CARD is empty)."""
        return self._table.hands[self.seat]

    def seen(self, outcome: Outcome, phase: str = PLAYING) -> Outcome | None:
        """``outcome`` (of a move made in ``phase``) as this seat saw it:
        the cards another seat drew are hidden (``NO_CARD`` each; how many
        it drew is seen), and another seat's ``n`` to ``Coup Fourre?`` is
        not seen at all (None): at a real table a coup fourre let go is
        silent, and the question itself is hidden (:meth:`question_hidden`)."""
        if outcome.seat == self.seat:
            return outcome
        if phase == COUP and isinstance(outcome.move, Answer) and not outcome.coup_fourre:
            return None
        return seen_by_others(outcome)

    def event(self, event: Event) -> Event | None:
        """``event`` as this seat saw it (:meth:`seen`), or None if it saw
        nothing of it.  The one rule of what a seat may read of the moves:
        the session's :meth:`~mille.game.session.Session.events` is made of
        it, and the boards, the line mode, ``L`` and the hint read that."""
        outcome = self.seen(event.outcome, event.phase)
        if outcome is None:
            return None
        if outcome is event.outcome:
            return event
        return Event(outcome, event.notices, event.phase, event.mileage, event.stand_in)

    def question_hidden(self) -> bool:
        """Another seat is asked ``Coup Fourre?``: this seat must not know
        (it would learn that the seat holds the safety), so its view shows
        the table as if no question were put: the hand played on, the turn
        with the next seat.  (``Extension?`` is asked aloud.)"""
        table = self._table
        return table.phase == COUP and table.asked != self.seat

    def _decides_in_view(self) -> bool:
        """This seat decides on the table as it is (its turn to move, or
        it is asked): with no hidden question put to another seat."""
        table = self._table
        return (table.to_move if table.phase == PLAYING else table.asked) == self.seat

    # ----- what every seat sees -------------------------------------------------

    # the table's own, read live (see _Live): each side's piles, by side - 1;
    # the discard pile, top last; the False Virtues played (milebymile's
    # karma); the scores; whether the hand and the game are over
    tableaux: _Live[list[Tableau]] = _Live("tableaux")
    discard: _Live[list[int]] = _Live("discard")
    set_aside: _Live[list[int]] = _Live("set_aside")
    target: _Live[int] = _Live("target")
    to_move: _Live[int] = _Live("to_move")
    starter: _Live[int] = _Live("starter")
    extender: _Live[int | None] = _Live("extender")
    totals: _Live[list[int]] = _Live("totals")
    games: _Live[list[int]] = _Live("games")
    ordering: _Live[bool] = _Live("ordering")
    refills: _Live[int] = _Live("refills")
    notices: _Live[list[str]] = _Live("notices")
    hand_over: _Live[bool] = _Live("hand_over")
    game_over: _Live[bool] = _Live("game_over")

    # the table's methods, as methods (a property giving the table's bound
    # method would cost a call more each time, in the playouts too)
    def side_of(self, seat: int) -> int:
        return self._table.side_of(seat)

    def side_index(self, seat: int) -> int:
        return self._table.side_index(seat)

    def completing_side(self) -> int | None:
        return self._table.completing_side()

    def hand_score(self, side: int) -> HandScore:
        return self._table.hand_score(side)

    def total(self, side: int) -> int:
        return self._table.total(side)

    def can_supply(self) -> bool:
        """A pick would find a card (the deck, or a reshuffle of the discards)."""
        return self._table.can_supply()

    @property
    def deck_size(self) -> int:
        return len(self._table.deck)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(HAND_SLOTS - hand.count(NO_CARD) for hand in self._table.hands)

    def filled_slots(self) -> list[list[bool]]:
        """Which slots of each hand hold a card (which, only its seat
        sees; where, the moves made in view tell)."""
        return [[card != NO_CARD for card in hand] for hand in self._table.hands]

    def hand_size(self, seat: int) -> int:
        return HAND_SLOTS - self._table.hands[seat].count(NO_CARD)

    @property
    def phase(self) -> str:
        """The phase, as the seat knows it (another seat's ``Coup Fourre?``
        is hidden: :meth:`question_hidden`)."""
        return PLAYING if self.question_hidden() else self._table.phase

    @property
    def asked(self) -> int | None:
        """Who must answer a question: this seat, or anyone asked
        ``Extension?``; None while another seat is asked ``Coup Fourre?``."""
        return None if self.question_hidden() else self._table.asked

    @property
    def offer(self) -> tuple[int, int, int] | None:
        """The coup fourre offered to this seat (side, safety, hazard)."""
        table = self._table
        return table.offer if table.asked == self.seat else None

    @property
    def current_player(self) -> int | None:
        """Who must decide, as the seat knows it: while another seat is
        asked ``Coup Fourre?``, the seat whose turn comes next."""
        table = self._table
        return table.to_move if self.question_hidden() else table.current_player

    # ----- the seat's decisions -------------------------------------------------

    # (while another seat is asked Coup Fourre?, the seat next to move sees
    # its turn come, as if no question were put: its move waits for the
    # answer, and the game flow asks for it only then)

    def to_decide(self) -> bool:
        """This seat must decide now (a move, or a question)."""
        if self.question_hidden():
            return self._table.to_move == self.seat
        return self._decides_in_view()

    def _deciding_on(self) -> Table | None:
        """The table this seat decides on now: while another seat is asked
        ``Coup Fourre?``, a world it may imagine (its turn next); else the
        table; None if it does not decide now."""
        if self.question_hidden():
            return self.world() if self._table.to_move == self.seat else None
        return self._table if self._decides_in_view() else None

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves: none unless it must decide now."""
        table = self._deciding_on()
        return [] if table is None else table.legal_moves()

    def check(self, move: Move) -> str | None:
        """Why the seat may not make ``move`` now (``None``: it may)."""
        table = self._deciding_on()
        return "not your turn" if table is None else table.check(move)

    def discards_safety(self, move: Move) -> bool:
        """``move`` is a legal discard of a safety (a person is asked first)."""
        return self._table.current_player == self.seat and self._table.discards_safety(move)

    # ----- guessing the rest --------------------------------------------------------

    def public_counts(self) -> list[int]:
        """How many cards of each kind every seat sees (the discard pile, the
        cards set aside, every side's piles), by card number, False Virtue
        last: the same for every seat of a table."""
        table = self._table
        counts = [0] * (FALSE_VIRTUE + 1)
        for card in table.discard:
            counts[card] += 1
        for card in table.set_aside:
            counts[card] += 1
        for tab in table.tableaux:
            for card in tab.cards():
                counts[card] += 1
        return counts

    def in_view(self, public: Sequence[int] | None = None) -> list[int]:
        """How many cards of each kind the seat sees, by card number, False
        Virtue last: :meth:`public_counts` (``public``, if already counted
        at this table) and its own hand."""
        counts = self.public_counts() if public is None else list(public)
        for card in self._table.hands[self.seat]:
            if card != NO_CARD:
                counts[card] += 1
        return counts

    def unseen(self) -> list[int]:
        """How many cards of each kind the seat cannot see (in the other
        hands and the deck), by card number, False Virtue last: the
        preset's cards less those in view (:meth:`in_view`)."""
        rules = self.rules
        seen = self.in_view()
        counts = [n - seen[card] for card, n in enumerate(rules.deck)]
        counts.append(rules.false_virtues - seen[FALSE_VIRTUE])
        return counts

    def world(
        self, hands: Sequence[Sequence[int]] | None = None, deck: Sequence[int] = ()
    ) -> Table:
        """A whole table as the seat may imagine it: everything it sees as
        it is, the hidden places filled with the unseen cards, the next
        reshuffle's seed 0.

        Without arguments the unseen cards fill the other hands' cards in
        order, then the deck, in card order (no secret in the order).
        With ``hands`` (one per seat, its own ignored; each the cards for
        that seat's filled slots in slot order) and ``deck``, those are
        the guesses; they must be the unseen cards exactly
        (``ValueError`` otherwise).
        """
        table = self._table
        unseen = self.unseen()
        world = table.copy()
        world.seed = 0
        world.drawn = ()
        if self.question_hidden():  # as if no question were put
            world.phase, world.asked, world.offer = PLAYING, None, None
        if hands is None:
            pool = [card for card, n in enumerate(unseen) for _ in range(n)]
            pool.reverse()
            for seat, hand in enumerate(world.hands):
                if seat != self.seat:
                    for slot, card in enumerate(hand):
                        if card != NO_CARD:
                            hand[slot] = pool.pop()
            world.deck = pool
            return world
        guessed = [0] * (FALSE_VIRTUE + 1)
        for card in deck:
            guessed[card] += 1
        for seat, hand in enumerate(world.hands):
            if seat == self.seat:
                continue
            slots = [slot for slot, card in enumerate(hand) if card != NO_CARD]
            cards = hands[seat]
            if len(cards) != len(slots):
                raise ValueError(f"seat {seat} holds {len(slots)} cards, not {len(cards)}")
            for slot, card in zip(slots, cards):
                hand[slot] = card
                guessed[card] += 1
        if len(deck) != len(table.deck):
            raise ValueError(f"the deck holds {len(table.deck)} cards, not {len(deck)}")
        if guessed != unseen:
            raise ValueError("the guessed cards are not the unseen cards")
        world.deck = list(deck)
        return world


class PublicView(SeatView):
    """What a watcher may know of ``table``: what every seat sees alike
    and no hand, looking from seat ``seat`` (the one its board shows
    first).  Every draw is hidden from it, as from a seat that did not
    draw, and every ``Coup Fourre?`` (it would tell that the seat asked
    holds the safety); it decides nothing.

    >>> import random
    >>> from mille.engine.rules import BSD
    >>> from mille.engine.table import Pick, Table
    >>> table = Table.new(BSD, random.Random(1))
    >>> view = PublicView(table, 0)
    >>> view.hand == [NO_CARD] * HAND_SLOTS, view.legal_moves(), view.to_decide()
    (True, [], False)
    >>> view.seen(table.apply(Pick())).drawn == (NO_CARD,)
    True
    """

    __slots__ = ()

    def __init__(self, table: Table, seat: int, names: Mapping[int, str] | None = None) -> None:
        super().__init__(table, seat, names, you=False)  # nobody at the table is its "You"

    @property
    def hand(self) -> list[int]:
        """No hand: every slot empty."""
        return [NO_CARD] * HAND_SLOTS

    def seen(self, outcome: Outcome, phase: str = PLAYING) -> Outcome | None:
        """``outcome`` as a seat that did not make it saw it, whoever made it."""
        if phase == COUP and isinstance(outcome.move, Answer) and not outcome.coup_fourre:
            return None
        return seen_by_others(outcome)

    def question_hidden(self) -> bool:
        """Any ``Coup Fourre?`` is hidden from a watcher."""
        return self._table.phase == COUP

    @property
    def offer(self) -> tuple[int, int, int] | None:
        """No coup fourre is offered to a watcher."""
        return None

    def to_decide(self) -> bool:
        """A watcher never decides."""
        return False

    def _deciding_on(self) -> Table | None:
        return None

    def discards_safety(self, move: Move) -> bool:
        return False

    def in_view(self, public: Sequence[int] | None = None) -> list[int]:
        """What every seat sees (no hand)."""
        return self.public_counts() if public is None else list(public)
