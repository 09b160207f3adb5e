"""A whole game as data: its rules, its seats, each hand's cards as dealt
and every move in order, and the replay that makes the same game again.

History is data: a game's deals and moves are enough to replay it
exactly, and a replay is the same game, read from a file.  The deal kept
is the deck as it was shuffled (not the dice that shuffled it: Python
promises the same numbers from a seeded generator, not the same shuffle
from one version to the next), with the seed of Mile by Mile's reshuffles
(``Table.seed``: they come from it alone); everything after the deal
follows from the moves, as the engine is pure.  The moves are those of
the log (``Session.log``): people's and computers', the answers to
``Extension?`` and ``Coup Fourre?``, each marked when a stand-in made it;
and the ``O`` of the hand (a person ordering their hand changes its
slots, and so what the next ``U3`` plays).  The chat is never kept.

:class:`Dealer` is the dice the game deals with (it notes the deal);
:func:`hand_of` takes a hand from a session's deal and log; :func:`replay`
plays a :class:`History` again, hand by hand, through the engine, and
raises :class:`HistoryError` (one line) where it is no game the engine
could have played.  ``mille.storage.gamefile`` writes and reads it as a
file (``docs/game-format.md``).

>>> from mille.game.session import Session
>>> game = Session.new(seed=3, humans=())
>>> while not game.table.hand_over:
...     _ = game.computer_move()
>>> hand = hand_of(game.cards_dealt, game.log)
>>> whole = History(game.rules, {}, dict.fromkeys(range(2), "standard"), (hand,))
>>> [hand.log == tuple(game.log) for hand in replay(whole, finished=False)]
[True]
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..engine.moves import OVER, Event, IllegalMove, Move
from ..engine.rules import Rules
from ..engine.table import Table

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, MutableSequence, Sequence
    from typing import Any


class HistoryError(ValueError):
    """A history the engine cannot replay; ``str()`` says where and why,
    on one line (``hand 2, move 14: not your turn``)."""


@dataclass(frozen=True)
class Deal:
    """What a hand starts from: the deck as shuffled (the deal takes its
    cards from the end), the reshuffles' seed (None without the option),
    the seat that starts, whether the people's hands are ordered (``O``);
    ``opens``: the hand is a game's first (not written: a file's first
    hand is its game's first)."""

    deck: tuple[int, ...]
    seed: int | None
    starter: int
    ordering: bool = False
    opens: bool = field(default=True, compare=False)


@dataclass(frozen=True)
class Hand:
    """One hand as played: its deal and every move, in order; ``stand_ins``
    the moves (by index) a computer made for a person away; ``orders`` each
    ``O``: how many moves were made before it, and ordering on or off."""

    deal: Deal
    moves: tuple[Move, ...]
    stand_ins: tuple[int, ...] = ()
    orders: tuple[tuple[int, bool], ...] = ()


@dataclass(frozen=True)
class History:
    """A game from its first deal to its last move: its rules, its people
    (by seat: a name, None once forgotten), its computers (by seat: their
    level) and its hands."""

    rules: Rules
    people: Mapping[int, str | None]
    computers: Mapping[int, str]
    hands: tuple[Hand, ...]

    def names(self) -> dict[int, str]:
        """The people's names as the log shows them (a forgotten one: the
        name mille gives the seat)."""
        from .limits import default_name

        return {seat: name or default_name(seat) for seat, name in self.people.items()}


@dataclass(frozen=True)
class Replayed:
    """A hand replayed: its number (from 0), the table at its end (a copy
    of its own), and its log, as ``Session.log`` had it; ``dealt``: the
    table as the hand was dealt, before its first move (a copy of its
    own: where a replay, ``game.replay``, starts the hand again)."""

    number: int
    table: Table
    log: tuple[Event, ...]
    dealt: Table | None = field(default=None, compare=False)


class Dealer(random.Random):
    """The dice of a deal: ``rng``'s own shuffle and numbers, each noted
    (:meth:`deal`), so the game's dice go on exactly as without it."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(0)
        self._rng = rng
        self._deck: tuple[int, ...] = ()
        self._seed: int | None = None

    def shuffle(self, x: MutableSequence[Any], *args: Any) -> None:
        self._rng.shuffle(x)
        self._deck = tuple(x)

    def getrandbits(self, k: int, /) -> int:
        self._seed = self._rng.getrandbits(k)
        return self._seed

    def deal(self, table: Table, opens: bool) -> Deal:
        """The deal just made at ``table`` with these dice."""
        return Deal(self._deck, self._seed, table.starter, table.ordering, opens)


class _Deck(random.Random):
    """The dice of a deal replayed: the shuffle lays out the deck kept
    (the same cards, or HistoryError), the numbers are the seed kept."""

    def __init__(self, deal: Deal) -> None:  # (one argument: Python 3.10's Random takes no more)
        super().__init__(0)
        self._deal = deal

    def shuffle(self, x: MutableSequence[Any], *args: Any) -> None:
        deck = self._deal.deck
        if sorted(deck) != sorted(x):
            raise HistoryError("the deck is not the rules' cards")
        x[:] = deck

    def getrandbits(self, k: int, /) -> int:
        seed = self._deal.seed
        if seed is None or not 0 <= seed < 1 << k:
            raise HistoryError("the reshuffles have no seed")
        return seed


def made(table: Table, move: Move, stand_in: bool = False) -> Event:
    """Make ``move`` at ``table`` and the log's event of it
    (``IllegalMove`` if refused): what the session logs, and the replay."""
    phase = table.phase
    outcome = table.apply(move)
    mileage = table.tableaux[table.side_index(outcome.seat)].mileage
    return Event(outcome, tuple(table.notices), phase, mileage, stand_in)


def hand_of(
    dealt: Deal | None, log: Sequence[Event], orders: Sequence[tuple[int, bool]] = ()
) -> Hand | None:
    """The hand dealt ``dealt`` as played so far (a session's ``cards_dealt``,
    ``log`` and ``orders``; at its end: the whole hand); None where its deal
    is not known (a hand restored from a save)."""
    if dealt is None:
        return None
    return Hand(
        dealt,
        tuple(event.outcome.move for event in log),
        tuple(number for number, event in enumerate(log) if event.stand_in),
        tuple(orders),
    )


def replay(history: History, *, finished: bool = True) -> Iterator[Replayed]:
    """Play ``history`` again, hand by hand: each hand's end as it was
    played.  HistoryError (one line) where a deal is not the rules' cards,
    a move is refused, a hand does not end with its last move, or
    (``finished``) the last hand does not end the game."""
    table: Table | None = None
    for number, hand in enumerate(history.hands):
        where = f"hand {number + 1}"
        deal = hand.deal
        try:
            table = _dealt(table, history, deal)
        except HistoryError as exc:
            raise HistoryError(f"{where}: {exc}") from None
        if (table.starter, table.ordering) != (deal.starter, deal.ordering):
            raise HistoryError(f"{where}: not the seat that starts it, or not its order")
        dealt = table.copy()
        log = tuple(_moves(table, hand, where))
        if table.phase != OVER:
            raise HistoryError(f"{where}: the hand does not end with its last move")
        yield Replayed(number, table.copy(), log, dealt)
    if finished and (table is None or not table.game_over):
        raise HistoryError("the game does not end with its last hand")


def _dealt(table: Table | None, history: History, deal: Deal) -> Table:
    """``deal`` made: the game's first hand at a new table (None), else
    the next hand at ``table``."""
    dice = _Deck(deal)
    if table is not None:
        table.new_hand(dice)
        return table
    table = Table.new(history.rules, dice)
    table.starter = table.to_move = deal.starter
    table.ordered = tuple(sorted(history.people))
    if deal.ordering:
        table.set_ordering(True)
    return table


def _moves(table: Table, hand: Hand, where: str) -> Iterator[Event]:
    """The hand's moves made at ``table`` (its ``O`` at their places)."""
    for number, move, stand_in in hand_moves(table, hand):
        try:
            yield made(table, move, stand_in)
        except IllegalMove as exc:
            raise HistoryError(f"{where}, move {number + 1}: {exc}") from None


def hand_moves(table: Table, hand: Hand) -> Iterator[tuple[int, Move, bool]]:
    """The hand's moves, each as it is about to be made at ``table`` (its
    ``O`` made first): its number, the move, whether a stand-in made it;
    the caller makes it."""
    orders = list(hand.orders)
    stand_ins = set(hand.stand_ins)
    for number, move in enumerate(hand.moves):
        while orders and orders[0][0] <= number:
            table.set_ordering(orders.pop(0)[1])
        yield number, move, number in stand_ins
    for _, on in orders:
        table.set_ordering(on)
