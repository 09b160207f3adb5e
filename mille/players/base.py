"""What a player is, for the engine's drivers (the session, self-play).

A player is bound to one seat when it is made.  It is told about each new
hand and every move, and when ``table.current_player`` is its seat it
chooses the move: a pick, a use or a discard while the hand is played, an
``Answer`` when it is asked ``Extension?`` or ``Coup Fourre?``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..engine.cards import is_safety
from ..engine.table import Discard, Move, Outcome, Table


class Player(Protocol):
    """The interface every automatic player offers."""

    seat: int

    def start_hand(self, table: Table) -> None:
        """A new hand was dealt (the player may look at its own hand)."""

    def observe(self, table: Table, outcome: Outcome) -> None:
        """A move by any seat succeeded; ``table`` is the state after it."""

    def choose(self, table: Table) -> Move:
        """A legal move for ``table.current_player``, which is this seat."""
        ...


def computer_discards(legal: Sequence[Move], hand: Sequence[int]) -> list[Discard]:
    """The discards among ``legal`` that a computer may choose: never a
    safety's (``classic`` and ``milebymile`` allow it, but playing it is
    always legal and better)."""
    return [m for m in legal if isinstance(m, Discard) and not is_safety(hand[m.slot])]
