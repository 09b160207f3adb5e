"""Build explicit bsd-preset tables for rule tests, with all 101 cards placed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from mille.engine.cards import NO_CARD, VALUES, card_from_name
from mille.engine.rules import BSD
from mille.engine.table import OVER, Outcome, Table, deck_cards
from mille.engine.tableau import Tableau
from mille.players.base import choose, observe

Card = str | int | None


def card(c: Card) -> int:
    if c is None or c == "":
        return NO_CARD
    if isinstance(c, int):
        return c
    return card_from_name(c)


@dataclass
class Seat:
    """One seat of a 2-seat bsd table: its hand, its side's tableau, its side's
    total before this hand and its games."""

    hand: list[int]
    tableau: Tableau
    total: int = 0
    games: int = 0

    def cards(self) -> list[int]:
        return [c for c in self.hand if c != NO_CARD] + self.tableau.cards()


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
    total: int = 0,
    games: int = 0,
) -> Seat:
    """A seat; ``hand`` lists slots from P (pad with None/"" for holes).

    ``battle``/``speed`` are the tops the board shows (``Tableau.top`` and
    ``speed_top``); the piles default to just that top.
    """
    slots = [card(c) for c in hand] + [NO_CARD] * (7 - len(hand))
    top = card(battle)
    pile = (
        [card(c) for c in battle_pile]
        if battle_pile is not None
        else ([top] if top != NO_CARD else [])
    )
    spd = card(speed)
    spile = (
        [card(c) for c in speed_pile]
        if speed_pile is not None
        else ([spd] if spd != NO_CARD else [])
    )
    mls = [card(c) for c in miles]
    if can_go is None:
        can_go = top == card("Go")
    tab = Tableau(
        battle=pile,
        speed=spile,
        miles=mls,
        safeties=[card(c) for c in safeties],
        coups=list(coups),
        mileage=sum(VALUES[c] for c in mls),
        nummiles=[mls.count(c) for c in range(5)],
        top=top,
        speed_top=spd,
        can_go=can_go,
        battle_window=battle_window,
        speed_window=speed_window,
    )
    return Seat(slots, tab, total, games)


def build(
    me: Seat | None = None,
    opp: Seat | None = None,
    *,
    deck_size: int | None = None,
    deck_top: Sequence[Card] = (),
    to_move: int = 0,
    **kwargs: Any,
) -> Table:
    """A bsd table where ``me`` (seat 0 unless ``to_move`` says 1) moves.

    Unplaced cards go to the deck (``deck_top`` on top, in draw order); with
    ``deck_size`` only that many stay in the deck and the rest is discarded.
    Other keywords (``target``, ``phase``, ``asked``, ``ordering``, ...) go to
    the :class:`Table`.  The table is validated.
    """
    me = me or player()
    opp = opp or player()
    seats = (me, opp) if to_move == 0 else (opp, me)
    remaining = Counter(deck_cards(BSD))
    for s in seats:
        remaining.subtract(s.cards())
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
    table = Table(
        rules=BSD,
        hands=[s.hand for s in seats],
        tableaux=[s.tableau for s in seats],
        deck=deck,
        discard=discard,
        to_move=to_move,
        totals=[s.total for s in seats],
        games=[s.games for s in seats],
        **kwargs,
    )
    table.validate()
    return table


def watched(table: Table, players: Sequence[Any], watcher: Any) -> Iterator[Outcome]:
    """Play the hand to its end by ``players`` (one per seat), each move
    shown to them and to ``watcher``; yields each outcome once all saw it."""
    while table.phase != OVER:
        seat = table.current_player
        assert seat is not None
        outcome = table.apply(choose(players[seat], table))
        for player in players:
            observe(player, table, outcome)
        observe(watcher, table, outcome)
        yield outcome
