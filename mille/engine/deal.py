"""The deck: dealing a hand, drawing a card, Mile by Mile's reshuffle, and
the end of a hand (the scores banked, the next deal).

Mile by Mile's reshuffle refills an empty deck from the discard pile
whenever a card is needed.  One guard, which ordinary races never meet,
keeps a race from going on for ever: after three refills in a row with no
mileage gained by anyone in between, the deck is not refilled again until
some side gains mileage; play goes on without picking and the race ends
as a run-out (nobody completes) once every hand is empty.

>>> from mille.engine.rules import BSD
>>> cards = deck_cards(BSD)
>>> len(cards), cards[0], cards[-1]
(101, 0, 18)
>>> hand = [3, 5, 7, NO_CARD, 9, 10, 11]  # the card picked fills the hole
>>> close_holes(hand)
>>> hand == [NO_CARD, 5, 7, 3, 9, 10, 11]
True
"""

from __future__ import annotations

import random

from .cards import FALSE_VIRTUE, HAND_SLOTS, NO_CARD, STOP
from .moves import OVER, PLAYING
from .rules import PROBLEMS, Rules
from .scoring import game_over, total
from .state import State
from .tableau import Tableau

RESHUFFLED = "discard pile reshuffled"  # the notice of a reshuffle

IDLE_REFILLS = 3  # refills in a row with no mileage gained: no more after them


def deck_cards(rules: Rules) -> list[int]:
    """The preset's cards, unshuffled, in card order (False Virtues last)."""
    cards = [card for card, count in enumerate(rules.deck) for _ in range(count)]
    return cards + [FALSE_VIRTUE] * rules.false_virtues


def close_holes(hand: list[int]) -> None:
    """BSD's tidy: each hole in slots 1-6 takes the first card from slot P on."""
    if NO_CARD not in hand:
        return
    for i in range(1, HAND_SLOTS):
        if hand[i] == NO_CARD:
            j = 0
            while j < HAND_SLOTS and hand[j] == NO_CARD:
                j += 1
            if j == HAND_SLOTS:
                return
            hand[i], hand[j] = hand[j], NO_CARD


def deal(t: State, rng: random.Random, starter: int) -> None:
    """Shuffle the preset's cards and deal a hand that ``starter`` starts;
    the totals and games won stay."""
    rules = t.rules
    deck = deck_cards(rules)
    rng.shuffle(deck)
    size = rules.hand_size
    t.deck = deck
    t.hands = []
    for _ in range(rules.players):
        if rules.rigging == "no duplicates":
            hand = [NO_CARD]
            for _ in range(size):
                hand.append(take(t, hand))
            t.hands.append(hand)
        else:
            t.hands.append([NO_CARD] + [deck.pop() for _ in range(size)])
    problems = [STOP] if rules.battle == PROBLEMS else []
    t.tableaux = [Tableau(problems=problems[:], karma=rules.karma) for _ in range(rules.sides)]
    t.discard = []
    t.set_aside = []
    t.marks = [0] * rules.sides
    t.refills = t.idle_refills = 0
    if rules.reshuffle:
        t.seed = rng.getrandbits(32)
    t.target = rules.target
    t.starter = t.to_move = starter
    t.phase = PLAYING
    t.asked = None
    t.offer = None
    t.extender = None
    if t.ordering:
        for seat in t.ordered:
            t.hands[seat].sort()


def new_hand(t: State, rng: random.Random) -> None:
    """Bank the hand's scores, settle a finished game, deal the next hand
    (started by the seat after this hand's starter)."""
    if t.phase != OVER:
        raise ValueError("the hand is not over")
    totals = [total(t, side) for side in range(1, t.rules.sides + 1)]
    if game_over(t):  # (classic, milebymile: never with a tie on top)
        best = max(totals)
        if totals.count(best) == 1:  # bsd: a tie wins nobody the game
            t.games[totals.index(best)] += 1
        totals = [0] * len(totals)
    t.totals = totals
    deal(t, rng, (t.starter + 1) % t.rules.players)


def can_supply(t: State) -> bool:
    """The deck can supply a card: it is not empty, or a reshuffle may
    refill it (the option on, a discard pile; not after IDLE_REFILLS
    refills in a row with no mileage gained, until some side gains)."""
    if t.deck:
        return True
    if not t.rules.reshuffle or not t.discard:
        return False
    return t.idle_refills < IDLE_REFILLS - 1 or gained(t)


def gained(t: State) -> bool:
    """Some side's mileage grew since the last refill (or the deal)."""
    return any(tab.mileage > mark for tab, mark in zip(t.tableaux, t.marks))


def take(t: State, hand: list[int]) -> int:
    """The card a draw takes (``no duplicates``: the nearest the top
    whose name is not in ``hand``, else the top)."""
    deck = t.deck
    if t.rules.rigging == "no duplicates":
        for i in range(len(deck) - 1, -1, -1):
            if deck[i] not in hand:
                return deck.pop(i)
    return deck.pop()


def draw(t: State, hand: list[int]) -> int:
    """A card for ``hand``, from the deck refilled first if it is empty
    (the caller knows that ``can_supply``)."""
    if not t.deck:
        rng = random.Random(t.seed * 1000003 + t.refills)
        t.deck = t.discard
        t.discard = []
        rng.shuffle(t.deck)
        t.idle_refills = t.idle_refills + 1 if t.refills and not gained(t) else 0
        t.refills += 1
        t.marks = [tab.mileage for tab in t.tableaux]
        t.notices.append(RESHUFFLED)
    return take(t, hand)
