"""The cards a seat cannot see, dealt again: the one helper of the tests
that check a seat (a computer, a view, the features, what the network
sends) learns nothing of them."""

from __future__ import annotations

import random

from mille.engine.cards import NO_CARD
from mille.engine.moves import COUP, PLAYING
from mille.engine.table import Table


def shuffled_hidden(table: Table, seat: int, rng: random.Random) -> Table:
    """A copy of ``table`` with the cards hidden from ``seat`` (the other
    hands' and the deck's) dealt again at random into the same places,
    and another seed for the next reshuffle; a ``Coup Fourre?`` put to
    another seat then goes to whoever the engine would ask (the first
    member of the side who holds the safety; none: no question)."""
    other = table.copy()
    other.notices = list(table.notices)  # (a copy starts without)
    places = [
        (who, slot)
        for who, hand in enumerate(other.hands)
        if who != seat
        for slot, card in enumerate(hand)
        if card != NO_CARD
    ]
    cards = [other.hands[who][slot] for who, slot in places] + other.deck
    rng.shuffle(cards)
    for (who, slot), card in zip(places, cards):
        other.hands[who][slot] = card
    other.deck = cards[len(places) :]
    other.seed = rng.getrandbits(32)
    if other.phase == COUP and other.offer is not None and other.asked != seat:
        side, safety, _ = other.offer
        rules = other.rules
        holders = [
            m for m in range(side - 1, rules.players, rules.sides) if safety in other.hands[m]
        ]
        if holders:
            other.asked = holders[0]
        else:
            other.phase, other.asked, other.offer = PLAYING, None, None
    return other
