"""The computer opponent.  PLACEHOLDER: replaced by BSD's heuristic (issue 3).

Interface (kept by the real implementation): ``BsdComputer(rng)``,
``start_hand``, ``observe``, ``choose``, ``wants_extension``, ``to_dict``,
``from_dict``.
"""

from __future__ import annotations

import random
from typing import Any

from .cards import NO_CARD, is_safety
from .engine import PICK, Discard, GameState, Move, MoveResult, Use


class BsdComputer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def start_hand(self, state: GameState) -> None:
        pass

    def observe(self, state: GameState, result: MoveResult) -> None:
        pass

    def choose(self, state: GameState) -> Move:
        if state.is_legal(PICK):
            return PICK
        hand = state.players[state.to_move].hand
        for slot in range(7):
            if state.is_legal(Use(slot)):
                return Use(slot)
        for slot in range(7):
            if hand[slot] != NO_CARD and not is_safety(hand[slot]):
                return Discard(slot)
        return Use(next(s for s in range(7) if hand[s] != NO_CARD))

    def wants_extension(self, state: GameState, last: MoveResult) -> bool:
        return False

    def to_dict(self) -> dict[str, Any]:
        return {}

    @classmethod
    def from_dict(cls, data: dict[str, Any], rng: random.Random) -> BsdComputer:
        return cls(rng)
