"""What a player is, for the engine's drivers (the UI's computer, self-play).

A player is told about each new hand and every move, chooses moves when it
is its turn, and answers ``Extension?`` when it reaches exactly 700.
"""

from __future__ import annotations

from typing import Protocol

from .engine import GameState, Move, MoveResult


class Player(Protocol):
    """The interface every automatic player offers."""

    def start_hand(self, state: GameState) -> None:
        """A new hand was dealt (the player may look at its own hand)."""

    def observe(self, state: GameState, result: MoveResult) -> None:
        """A move by either side succeeded; ``state`` is the state after it."""

    def choose(self, state: GameState) -> Move:
        """Pick a move for ``state.to_move`` (which is this player)."""
        ...

    def wants_extension(self, state: GameState, last: MoveResult) -> bool:
        """Exactly 700 reached with ``last``: go on to 1000?"""
        ...
