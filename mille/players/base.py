"""What a player is, for the engine's drivers (the session, self-play).

A player is bound to one seat when it is made.  It is told about each new
hand and every move, and when its seat must decide it chooses the move: a
pick, a use or a discard while the hand is played, an ``Answer`` when it is
asked ``Extension?`` or ``Coup Fourre?``.

A player is only ever given its seat's :class:`~mille.engine.view.SeatView`
and outcomes as its seat saw them (``SeatView.seen``): what the other
hands hold, the order of the deck and the cards others draw are not in
what it is given, so it cannot play on them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..engine.cards import is_safety
from ..engine.table import PICK, PLAYING, Discard, Move, Outcome, Table, Use
from ..engine.view import SeatView


class Player(Protocol):
    """The interface every automatic player offers."""

    seat: int

    def start_hand(self, view: SeatView) -> None:
        """A new hand was dealt (the player may look at its own hand)."""

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        """A move by any seat succeeded, as this seat saw it; ``view``
        shows the table after it."""

    def choose(self, view: SeatView) -> Move:
        """A legal move for this seat, which must decide now."""
        ...


def check_seat(seat: object, error: type[ValueError]) -> None:
    """A computer is made for ``seat``, a whole number from 0; ``error`` if not."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise error(f"seat must be a whole number from 0, not {seat!r}")


class Seated:
    """What every computer of this package is made with: its seat (checked:
    ``error``, the ValueError a misuse of the computer raises) and its
    random source."""

    error: type[ValueError] = ValueError

    def __init__(self, rng: random.Random, seat: int) -> None:
        check_seat(seat, self.error)
        self.rng = rng
        self.seat = seat

    def check_turn(self, view: SeatView) -> None:
        """``error`` unless its seat is to decide on ``view``."""
        if view.current_player != self.seat:
            raise self.error(f"seat {self.seat} is not to decide")


class Forgetful(Seated):
    """A computer with no memory: it only looks at the table when it moves."""

    def start_hand(self, view: SeatView) -> None:
        """Nothing to remember."""

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        """Nothing to remember."""


def before_pick(legal: Sequence[Move]) -> Move:
    """The move of a seat that may pick: BSD's coup-fourre window (a use
    offered before the pick), if there is one, else the pick."""
    windows = [m for m in legal if isinstance(m, Use)]
    return windows[0] if windows else PICK


def computer_discards(legal: Sequence[Move], hand: Sequence[int]) -> list[Discard]:
    """The discards among ``legal`` that a computer may choose: never a
    safety's (``classic`` and ``milebymile`` allow it, but playing it is
    always legal and better)."""
    return [m for m in legal if isinstance(m, Discard) and not is_safety(hand[m.slot])]


# ----- giving a player its view (for drivers that hold the whole table) ------


def choose(player: Player, table: Table) -> Move:
    """``player``'s move at ``table``, chosen from its seat's view."""
    return player.choose(SeatView(table, player.seat))


def observe(player: Player, table: Table, outcome: Outcome, phase: str = PLAYING) -> None:
    """Show ``player`` a move made at ``table`` in ``phase``, as its seat
    saw it (nothing of another seat's coup fourre let go)."""
    view = SeatView(table, player.seat)
    seen = view.seen(outcome, phase)
    if seen is not None:
        player.observe(view, seen)


def start_hand(player: Player, table: Table) -> None:
    """Show ``player`` the new hand dealt at ``table``, from its seat."""
    player.start_hand(SeatView(table, player.seat))
