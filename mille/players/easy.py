"""The easy computer: visibly weaker than the standard one, never silly.

It plays every preset and seat count, from what its seat sees now (no
memory of the hand).  Each turn, in this order:

1. it takes a coup fourre whenever it can (BSD's window before the pick,
   ``Coup Fourre?`` answered yes);
2. a distance card that completes the trip is always played;
3. a safety that cures what stops or limits its side is played two times in
   three, any other safety it holds one turn in eight, and every safety
   once the deck is out (a safety is never discarded: playing it is always
   legal and better, though only bsd's rules refuse the discard);
4. otherwise it picks at random among the decent moves: the distances and
   needed remedies it may play, the hazards it may lay on an opposing side
   and the discards of its two least useful cards; one time in three it
   takes the greedy choice (:class:`mille.players.autoplayers.GreedyPlayer`)
   instead.

It answers ``Extension?`` as the greedy player does (a long deck, every
opposing side far behind).  Its only randomness is its ``random.Random``.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.cards import D200, EXTRA_TANK, FALSE_VIRTUE, RIGHT_OF_WAY, VALUES, is_safety, opposite
from ..engine.rules import PROBLEMS, STACK
from ..engine.table import (
    COUP,
    EXTENSION,
    PICK,
    YES,
    Answer,
    Move,
    Use,
)
from ..engine.view import SeatView
from .autoplayers import GreedyPlayer
from .base import Forgetful, before_pick, computer_discards
from .memory import integer, quote, saved_object

CURE_CHANCE = 2 / 3  # plays a safety that cures what ails it
SAFETY_CHANCE = 1 / 8  # plays some other safety it holds
GREEDY_CHANCE = 1 / 3  # takes the greedy choice rather than a random decent one
DISCARDS_KEPT = 2  # how many of its least useful cards it considers discarding


class EasyError(ValueError):
    """A misuse of the easy computer, or a saved memory that cannot be
    restored; ``str()`` is the exact message."""


class Easy(Forgetful):
    """The easy computer player of one seat (see the module docstring)."""

    error = EasyError

    def __init__(self, rng: random.Random, seat: int) -> None:
        super().__init__(rng, seat)
        self._greedy = GreedyPlayer(rng, seat)

    # ----- the decision ----------------------------------------------------------

    def choose(self, view: SeatView) -> Move:
        """The move for its seat: a pick, a use, a discard or an answer."""
        self.check_turn(view)
        if view.phase == COUP:
            return YES
        if view.phase == EXTENSION:
            return Answer(self._greedy.wants_extension(view))
        legal = view.legal_moves()
        if PICK in legal:
            return before_pick(legal)  # bsd's coup-fourre window comes before the pick
        rng = self.rng
        hand = view.hand
        uses = [m for m in legal if isinstance(m, Use)]
        me = view.tableaux[view.side_index(self.seat)]
        for move in uses:
            card = hand[move.slot]
            if card <= D200 and me.mileage + VALUES[card] >= view.target:
                return move  # the finishing card
        safeties = [m for m in uses if is_safety(hand[m.slot])]
        if safeties:
            curing = [m for m in safeties if self._cures(view, hand[m.slot])]
            if curing and rng.random() < CURE_CHANCE:
                return curing[0]
            if not view.can_supply() or rng.random() < SAFETY_CHANCE:
                return rng.choice(safeties)
        decent = self.decent(view, legal)
        if not decent:
            return self._greedy.choose(view)
        if rng.random() < GREEDY_CHANCE:
            return self._greedy.choose(view)
        return rng.choice(decent)

    def _cures(self, view: SeatView, safety: int) -> bool:
        """Does ``safety`` lift what stops or limits its side now?"""
        me = view.tableaux[view.side_index(self.seat)]
        model = view.model
        if safety == RIGHT_OF_WAY:
            return not model.rolling(me) or model.limited(me)
        if model.rolling(me):
            return False
        hazard = opposite(safety)
        if view.rules.battle == PROBLEMS:
            return hazard in me.problems
        top = me.battle[-1] if view.rules.battle == STACK and me.battle else me.top
        return top == hazard

    def decent(self, view: SeatView, legal: list[Move]) -> list[Move]:
        """The uses of distances, remedies, hazards and False Virtues, and
        the discards of its least useful cards (never a safety)."""
        hand = view.hand
        moves: list[Move] = []
        for move in legal:
            if isinstance(move, Use):
                card = hand[move.slot]
                if card < EXTRA_TANK or card == FALSE_VIRTUE:
                    moves.append(move)
        discards = computer_discards(legal, hand)
        discards.sort(key=lambda m: self._greedy.usefulness(view, hand[m.slot]))
        return moves + discards[:DISCARDS_KEPT]

    # ----- saving ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Its memory as JSON-able data (it has none but its seat; not its rng)."""
        return {"seat": self.seat}

    @classmethod
    def from_dict(cls, data: Any, rng: random.Random, seat: int) -> Easy:
        """Rebuild the player saved by ``to_dict`` for ``seat``;
        :class:`EasyError` says what is wrong with the data."""
        data = saved_object(data, ("seat",), "easy", EasyError)
        saved = integer(data["seat"], "easy: seat", EasyError)
        if saved != seat:
            raise EasyError(f"easy: saved for seat {quote(saved)}, not seat {seat}")
        return cls(rng, seat)


__all__ = ["Easy", "EasyError"]
