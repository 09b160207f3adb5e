"""Simple automatic players, to measure the computers against.

Both follow the :class:`mille.players.base.Player` protocol over the N-seat
:class:`mille.engine.table.Table`, for every preset and seat count; each is bound
to one seat and made as ``Kind(rng, seat)``.

``RandomPlayer`` chooses uniformly among the legal moves, picking only when
it must (in ``bsd`` a coup-fourre window may offer a safety before the
pick); outside ``bsd`` that includes discarding a safety.  A question is a legal move too: it answers ``Extension?`` and
``Coup Fourre?`` yes or no at random, one chance in two.

``GreedyPlayer`` grabs what is there now: the longest distance it can
play, else a remedy its side needs, else a hazard on the leading opposing
side, else it throws away its least useful card (never a safety).  It
accepts every coup fourre and extends while the deck is long and every
opposing side is far from the target.
"""

from __future__ import annotations

from ..engine.cards import (
    ACCIDENT,
    D25,
    D50,
    D75,
    D100,
    D200,
    END_OF_LIMIT,
    EXTRA_TANK,
    FALSE_VIRTUE,
    FLAT_TIRE,
    GASOLINE,
    GO,
    NO_CARD,
    OUT_OF_GAS,
    REPAIRS,
    RIGHT_OF_WAY,
    SPARE_TIRE,
    SPEED_LIMIT,
    STOP,
    VALUES,
    is_distance,
    is_hazard,
    is_remedy,
    safety_for,
)
from ..engine.rules import other_side
from ..engine.table import PICK, YES, Answer, Move, Pick, Use
from ..engine.view import SeatView
from .base import Forgetful, before_pick, computer_discards


class RandomPlayer(Forgetful):
    """Uniform among the legal moves; picks only when it must; answers
    questions yes or no at random."""

    def choose(self, view: SeatView) -> Move:
        self.check_turn(view)
        moves = [m for m in view.legal_moves() if not isinstance(m, Pick)]
        if not moves:
            return PICK
        return self.rng.choice(moves)


# How much a card is worth keeping, when nothing better says otherwise.
_KEEP = {
    SPEED_LIMIT: 1,
    D25: 2,
    D50: 3,
    OUT_OF_GAS: 4,
    FLAT_TIRE: 4,
    ACCIDENT: 4,
    STOP: 4,
    END_OF_LIMIT: 5,
    GASOLINE: 6,
    SPARE_TIRE: 6,
    REPAIRS: 6,
    D75: 7,
    GO: 8,
    D100: 9,
    D200: 10,
}


def leading_side(view: SeatView, sides: list[int]) -> int:
    """The side among ``sides`` with the most miles (then the highest
    total, then the lowest number)."""
    return max(sides, key=lambda s: (view.tableaux[s - 1].mileage, view.total(s), -s))


class GreedyPlayer(Forgetful):
    """Grab what is there now: miles, then remedies, then hazards.

    It picks first (in ``bsd`` it takes a coup-fourre window before).  With
    nothing to play it discards its least useful card (a card that can
    never help its side is least useful; see ``usefulness``) and plays a
    safety only when it has nothing it may discard.
    """

    def usefulness(self, view: SeatView, card: int) -> int:
        """0 for a card that can no longer help; else by ``_KEEP``."""
        rules = view.rules
        me = view.tableaux[view.side_index(self.seat)]
        own = view.side_of(self.seat)
        if is_distance(card):
            if me.mileage + VALUES[card] > view.target and rules.perfect_crossing:
                return 0
            if card == D200 and rules.max_200s is not None and me.nummiles[D200] >= rules.max_200s:
                return 0
        elif is_remedy(card):
            if safety_for(card) in me.safeties or (card == GO and RIGHT_OF_WAY in me.safeties):
                return 0
        elif is_hazard(card):
            if all(
                safety_for(card) in view.tableaux[s - 1].safeties
                for s in range(1, rules.sides + 1)
                if s != own
            ):
                return 0
        return _KEEP.get(card, 11)

    def choose(self, view: SeatView) -> Move:
        self.check_turn(view)
        if view.offer is not None:  # Coup Fourre?
            return YES
        if view.asked is not None:  # Extension?
            return Answer(self.wants_extension(view))
        legal = view.legal_moves()
        if PICK in legal:
            return before_pick(legal)  # bsd's coup-fourre window comes before the pick
        hand = view.hand
        uses = [m for m in legal if isinstance(m, Use)]
        safeties = [m for m in uses if hand[m.slot] >= EXTRA_TANK and hand[m.slot] != FALSE_VIRTUE]
        distances = [m for m in uses if is_distance(hand[m.slot])]
        if distances:
            return max(distances, key=lambda m: VALUES[hand[m.slot]])
        remedies = [m for m in uses if is_remedy(hand[m.slot])]
        if remedies:
            return remedies[0]
        hazards = [m for m in uses if is_hazard(hand[m.slot])]
        if hazards:
            targets = [m.target or other_side(view.side_of(self.seat)) for m in hazards]
            lead = leading_side(view, sorted(set(targets)))
            return next(m for m, t in zip(hazards, targets) if t == lead)
        discards = computer_discards(legal, hand)
        if discards:
            return min(discards, key=lambda m: self.usefulness(view, hand[m.slot]))
        if safeties:
            return safeties[0]
        others = [m for m in uses if hand[m.slot] != NO_CARD]
        # nothing else is legal (a False Virtue, or a use the options force)
        return others[0] if others else legal[0]

    def wants_extension(self, view: SeatView) -> bool:
        """Extend while plenty of cards remain and every opposing side is far."""
        own = view.side_of(self.seat)
        far = all(
            view.tableaux[s - 1].mileage <= 400 for s in range(1, view.rules.sides + 1) if s != own
        )
        return view.deck_size >= 30 and far


__all__ = ["GreedyPlayer", "RandomPlayer", "leading_side"]
