"""Scoring: a side's score rows for the hand, its total, who completed the
trip, and when a game is over (the preset's ``Scoring`` table and tie rule).

>>> HandScore(miles=700, safeties=200, trip=400).total
1300
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import D200, NUM_SAFETIES
from .moves import OVER
from .rules import ALL_AT_ZERO, BONUS_TO_COMPLETER, EACH_AT_ZERO, TIE_NO_GAME, Scoring
from .state import State


@dataclass(frozen=True, slots=True)
class HandScore:
    """One side's score for a hand, row by row (BSD's score window)."""

    miles: int = 0
    safeties: int = 0
    all_four: int = 0
    coups: int = 0
    trip: int = 0
    safe_trip: int = 0
    delayed_action: int = 0
    extension: int = 0
    shut_out: int = 0
    perfect_crossing: int = 0

    @property
    def total(self) -> int:
        return (
            self.miles
            + self.safeties
            + self.all_four
            + self.coups
            + self.trip
            + self.safe_trip
            + self.delayed_action
            + self.extension
            + self.shut_out
            + self.perfect_crossing
        )


def completing_side(t: State) -> int | None:
    """The side that completed the trip, once the hand is over."""
    if t.phase != OVER:
        return None
    for i, tab in enumerate(t.tableaux):
        if tab.mileage >= t.target:
            return i + 1
    return None


def hand_score(t: State, side: int) -> HandScore:
    """This hand's score of ``side`` so far; trip rows once it is over."""
    rules = t.rules
    sc: Scoring = rules.scoring
    tab = t.tableaux[side - 1]
    nsafe = len(tab.safeties)
    trip = safe = delayed = ext = shut = perfect = 0
    if t.phase == OVER and tab.mileage >= t.target:
        trip = sc.trip
        if sc.perfect_crossing is not None and tab.mileage == t.target:
            perfect = sc.perfect_crossing
        if tab.nummiles[D200] == 0:
            safe = sc.safe_trip
        if not t.deck and sc.delayed_action is not None:
            delayed = sc.delayed_action
        if (
            sc.extension is not None
            and rules.extension is not None
            and t.target == rules.extension
            and (sc.extension_to == BONUS_TO_COMPLETER or t.extender == side)
        ):
            ext = sc.extension
        others = [o.mileage for i, o in enumerate(t.tableaux) if i != side - 1]
        if sc.shut_out_rule == EACH_AT_ZERO:
            shut = sc.shut_out * others.count(0)
        elif sc.shut_out_rule == ALL_AT_ZERO:
            shut = sc.shut_out if all(m == 0 for m in others) else 0
        else:
            shut = sc.shut_out if others[0] == 0 else 0
    return HandScore(
        miles=min(tab.mileage, t.target),
        safeties=sc.safety * nsafe,
        all_four=sc.all_safeties if nsafe == NUM_SAFETIES else 0,
        coups=sc.coup * sum(tab.coups),
        trip=trip,
        safe_trip=safe,
        delayed_action=delayed,
        extension=ext,
        shut_out=shut,
        perfect_crossing=perfect,
    )


def total(t: State, side: int) -> int:
    """``side``'s total: before this hand, plus this hand's score so far."""
    return t.totals[side - 1] + hand_score(t, side).total


def game_over(t: State) -> bool:
    """The hand is over and a side's total reached the winning score
    (classic, milebymile: with a single side on top)."""
    if t.phase != OVER:
        return False
    totals = [total(t, side) for side in range(1, t.rules.sides + 1)]
    best = max(totals)
    if best < t.rules.winning_score:
        return False
    return t.rules.game_tie == TIE_NO_GAME or totals.count(best) == 1
