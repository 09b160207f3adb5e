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

from collections.abc import Sequence
from typing import Protocol

from ..engine.cards import is_safety
from ..engine.table import PLAYING, Discard, Move, Outcome, Table
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
