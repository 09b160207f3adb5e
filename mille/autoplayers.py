"""Simple automatic players, to measure the computer against.

``RandomPlayer`` plays uniformly at random among its legal uses and
discards; ``GreedyPlayer`` plays the longest distance it can, else a remedy
it needs, else a hazard, else throws away its least useful card.
"""

from __future__ import annotations

import random

from .cards import (
    D25,
    D50,
    D75,
    D100,
    D200,
    ACCIDENT,
    END_OF_LIMIT,
    FLAT_TIRE,
    GASOLINE,
    OUT_OF_GAS,
    REPAIRS,
    SPARE_TIRE,
    STOP,
    EXTRA_TANK,
    GO,
    HAND_SLOTS,
    SPEED_LIMIT,
    VALUES,
    is_distance,
    is_hazard,
    is_remedy,
    safety_for,
)
from .engine import PICK, Discard, GameState, Move, MoveResult, Use


class _Forgetful:
    """A player with no memory: it only looks at the table when it moves."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def start_hand(self, state: GameState) -> None:
        """Nothing to remember."""

    def observe(self, state: GameState, result: MoveResult) -> None:
        """Nothing to remember."""


class RandomPlayer(_Forgetful):
    """Uniform among legal uses and discards; picks only when it must."""

    def choose(self, state: GameState) -> Move:
        moves = [m for m in state.legal_moves() if m != PICK]
        if not moves:
            return PICK
        return self.rng.choice(moves)

    def wants_extension(self, state: GameState, last: MoveResult) -> bool:
        return self.rng.random() < 0.5


# How much a card is worth keeping, when nothing better says otherwise.
_KEEP = {
    SPEED_LIMIT: 1, D25: 2, D50: 3,
    OUT_OF_GAS: 4, FLAT_TIRE: 4, ACCIDENT: 4, STOP: 4,
    END_OF_LIMIT: 5, GASOLINE: 6, SPARE_TIRE: 6, REPAIRS: 6,
    D75: 7, GO: 8, D100: 9, D200: 10,
}


class GreedyPlayer(_Forgetful):
    """Grab what is there now: miles, then remedies, then hazards.

    A coup fourre is taken when offered; otherwise it picks first.  With
    nothing to play it discards its least useful card (a card that can
    never help it is least useful; see ``usefulness``) and plays a safety
    only when it has nothing it may discard.
    """

    @staticmethod
    def usefulness(state: GameState, card: int) -> int:
        """0 for a card that can no longer help; else by ``_KEEP``."""
        me = state.players[state.to_move]
        opp = state.players[1 - state.to_move]
        if is_distance(card):
            if me.mileage + VALUES[card] > state.end:
                return 0
            if card == D200 and me.nummiles[D200] >= 2:
                return 0
        elif is_remedy(card):
            if me.has_safety(safety_for(card)):
                return 0
        elif is_hazard(card):
            if opp.has_safety(safety_for(card)):
                return 0
        return _KEEP.get(card, 11)

    def choose(self, state: GameState) -> Move:
        hand = state.players[state.to_move].hand
        uses = [s for s in range(HAND_SLOTS) if state.check(Use(s)) is None]
        safeties = [s for s in uses if hand[s] >= EXTRA_TANK]
        if state.check(PICK) is None:
            return Use(safeties[0]) if safeties else PICK
        others = [s for s in uses if hand[s] < EXTRA_TANK]
        distances = [s for s in others if is_distance(hand[s])]
        if distances:
            return Use(max(distances, key=lambda s: VALUES[hand[s]]))
        for kinds in (is_remedy, is_hazard):
            found = [s for s in others if kinds(hand[s])]
            if found:
                return Use(found[0])
        discards = [s for s in range(HAND_SLOTS) if state.check(Discard(s)) is None]
        if discards:
            return Discard(min(discards, key=lambda s: self.usefulness(state, hand[s])))
        if safeties:
            return Use(safeties[0])
        # nothing else is legal (cannot happen while the hand goes on)
        return state.legal_moves()[0]

    def wants_extension(self, state: GameState, last: MoveResult) -> bool:
        """Extend while plenty of cards remain and the opponent is far."""
        opp = state.players[1 - last.player]
        return len(state.deck) >= 30 and opp.mileage <= 400


