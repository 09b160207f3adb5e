"""Build explicit game states for rule tests, with all 101 cards placed."""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from mille.cards import NO_CARD, VALUES, card_from_name, full_deck
from mille.engine import GameState, PlayerState

Card = str | int | None


def card(c: Card) -> int:
    if c is None or c == "":
        return NO_CARD
    if isinstance(c, int):
        return c
    return card_from_name(c)


def player(
    hand: Sequence[Card] = (),
    *,
    battle: Card = None,
    speed: Card = None,
    battle_pile: Sequence[Card] | None = None,
    speed_pile: Sequence[Card] | None = None,
    miles: Sequence[Card] = (),
    safeties: Sequence[Card] = (),
    coups: Sequence[bool] = (False,) * 4,
    can_go: bool | None = None,
    battle_window: bool = False,
    speed_window: bool = False,
    total_before_hand: int = 0,
    games: int = 0,
) -> PlayerState:
    """A player; ``hand`` lists slots from P (pad with None/"" for holes)."""
    slots = [card(c) for c in hand] + [NO_CARD] * (7 - len(hand))
    top = card(battle)
    pile = [card(c) for c in battle_pile] if battle_pile is not None else (
        [top] if top != NO_CARD else []
    )
    spd = card(speed)
    spile = [card(c) for c in speed_pile] if speed_pile is not None else (
        [spd] if spd != NO_CARD else []
    )
    mls = [card(c) for c in miles]
    if can_go is None:
        can_go = top == card("Go")
    return PlayerState(
        hand=slots, battle=top, speed=spd, battle_pile=pile, speed_pile=spile,
        miles=mls, safeties=[card(c) for c in safeties], coups=list(coups),
        can_go=can_go, battle_window=battle_window, speed_window=speed_window,
        mileage=sum(VALUES[c] for c in mls), nummiles=[mls.count(c) for c in range(5)],
        total_before_hand=total_before_hand, games=games,
    )


def build(
    me: PlayerState | None = None,
    opp: PlayerState | None = None,
    *,
    deck_size: int | None = None,
    deck_top: Sequence[Card] = (),
    to_move: int = 0,
    **kwargs: Any,
) -> GameState:
    """A state where ``me`` (player 0 unless ``to_move`` says 1) moves.

    Unplaced cards go to the deck (``deck_top`` on top, in draw order); with
    ``deck_size`` only that many stay in the deck and the rest is discarded.
    """
    me = me or player()
    opp = opp or player()
    players = (me, opp) if to_move == 0 else (opp, me)
    remaining = Counter(full_deck())
    for p in players:
        remaining.subtract(p.cards())
    top = [card(c) for c in deck_top]
    remaining.subtract(top)
    if any(n < 0 for n in remaining.values()):
        raise ValueError(f"too many cards: {-remaining}")
    rest = sorted(remaining.elements())
    discard: list[int] = []
    if deck_size is not None:
        keep = deck_size - len(top)
        discard, rest = rest[keep:], rest[:keep]
    deck = rest + top[::-1]
    state = GameState(players=players, deck=deck, discard=discard, to_move=to_move, **kwargs)
    state.validate()
    return state
