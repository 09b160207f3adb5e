"""Legality: whether a move may be made now, with the exact message if not,
and every move that may.

The checks every preset shares are here (a question pending, a pick
first, an empty slot, a hazard's target); what a card may do to a side's
battle and speed state is the preset's battle model's (``battle``).  Under
the coup window (``Rules.coup_window``, BSD's) a safety that makes a coup
fourré may be used before the pick.  ``check`` and ``legal_moves`` are the
hot path of the computers' playouts: they stay flat.

>>> import random
>>> from mille.engine.rules import BSD
>>> from mille.engine.table import Table
>>> t = Table.new(BSD, random.Random(1))
>>> check(t, USES[1]), legal_moves(t)[0]
('must pick first', Pick())
"""

from __future__ import annotations

from .battle import TopModel
from .cards import HAND_SLOTS, HAZARDS, NO_CARD, SAFETIES, is_safety
from .deal import can_supply
from .moves import (
    DISCARDS,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    USE_AT,
    USES,
    YES,
    Answer,
    Discard,
    Move,
    Pick,
)
from .rules import other_side
from .state import State


def has_picked(t: State, seat: int, slot: int = 0) -> bool:
    """BSD's ``haspicked`` for a move naming ``slot``."""
    if not t.deck:
        return True
    hand = t.hands[seat]
    return hand[1 if is_safety(hand[slot]) else 0] != NO_CARD


def usable(t: State, seat: int, card: int) -> bool:
    """Could ``seat`` use ``card`` now (a hazard: on some side)?  A
    safety always can."""
    if card in SAFETIES:
        return True
    if card in HAZARDS and t.rules.sides > 2:
        own = t.side_of(seat)
        return any(
            t._model.check(t, seat, card, target) is None
            for target in range(1, t.rules.sides + 1)
            if target != own
        )
    return t._model.check(t, seat, card, other_side(t.side_of(seat))) is None


def check(t: State, move: Move) -> str | None:
    """None if whoever must decide may make ``move``, else the message."""
    phase = t.phase
    if phase != PLAYING:
        if phase == OVER:
            return "the hand is over"
        if isinstance(move, Answer):
            return None
        return (
            "extension decision pending" if phase == EXTENSION else "coup fourre decision pending"
        )
    if isinstance(move, Answer):
        return "no question pending"
    seat = t.to_move
    hand = t.hands[seat]
    if isinstance(move, Pick):
        if not t.deck and not can_supply(t):
            return "no more cards"
        if hand[0] != NO_CARD:
            return "already picked"
        return None
    card = hand[move.slot]
    if isinstance(move, Discard):
        if t._window:  # BSD's haspicked: a safety named looks at slot 1
            if not has_picked(t, seat, move.slot):
                return "must pick first"
        elif hand[0] == NO_CARD and can_supply(t):
            return "must pick first"
        if card == NO_CARD:
            return "no card there"
        if card in SAFETIES and not t.rules.discard_safeties:
            return "discard a safety?"  # bsd (the others ask the person to confirm)
        if not t.rules.always_discard and usable(t, seat, card):
            return "that card is playable"
        return None
    return _check_use(t, seat, card, move.target)


def _check_use(t: State, seat: int, card: int, target: int | None) -> str | None:
    hand = t.hands[seat]
    if (
        hand[0] == NO_CARD
        and (t.deck or can_supply(t))
        and not (
            t._window
            and card in SAFETIES
            and TopModel.is_coup(t.tableaux[t.side_index(seat)], card)
        )
    ):
        return "must pick first"
    if card == NO_CARD:
        return "no card there"
    if card in SAFETIES:
        return None
    if card in HAZARDS:
        sides = t.rules.sides
        own = seat % sides + 1
        if target is None:
            if sides > 2:
                return "which opponent?"
            target = other_side(own)
        elif not 1 <= target <= sides:
            return "no such opponent"
        elif target == own:
            return "can't attack your own side"
    return t._model.check(t, seat, card, target or 0)


def discards_safety(t: State, move: Move) -> bool:
    """``move`` is a legal discard of a safety (outside bsd, which
    refuses it): the front ends ask a person ``Discard a safety?`` first."""
    return (
        isinstance(move, Discard)
        and t.phase == PLAYING
        and t.hands[t.to_move][move.slot] in SAFETIES
        and check(t, move) is None
    )


def legal_moves(t: State) -> list[Move]:
    """Every move whoever must decide may make now (``check``'s verdicts,
    computed once per card kind)."""
    phase = t.phase
    if phase != PLAYING:
        return [] if phase == OVER else [YES, NO]
    seat = t.to_move
    hand = t.hands[seat]
    sides = t.rules.sides
    if hand[0] == NO_CARD and (t.deck or can_supply(t)):
        if not t._window:
            return [PICK]
        moves: list[Move] = [PICK]  # and the safeties that make a coup fourré
        tab = t.tableaux[seat % sides]
        if tab.battle_window or tab.speed_window:
            for slot in range(1, HAND_SLOTS):
                card = hand[slot]
                if card in SAFETIES and TopModel.is_coup(tab, card):
                    moves.append(USES[slot])
        return moves
    moves = []
    model_check = t._model.check
    own = seat % sides + 1
    other = other_side(own)  # the target of a hazard in a game of two sides
    verdicts: dict[int, bool] = {}
    any_discard = t.rules.always_discard
    safety_discards = any_discard and t.rules.discard_safeties
    for slot, card in enumerate(hand):
        if card < 0:
            continue
        if card in SAFETIES:  # always usable
            moves.append(USES[slot])
            if safety_discards:
                moves.append(DISCARDS[slot])
            continue
        playable = False
        if sides > 2 and card in HAZARDS:
            for target in range(1, sides + 1):
                if target != own and model_check(t, seat, card, target) is None:
                    moves.append(USE_AT[slot][target])
                    playable = True
        else:
            ok = verdicts.get(card)
            if ok is None:
                ok = verdicts[card] = model_check(t, seat, card, other) is None
            if ok:
                moves.append(USES[slot])
                playable = True
        if any_discard or not playable:
            moves.append(DISCARDS[slot])
    return moves
