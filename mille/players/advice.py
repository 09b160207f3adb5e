"""Advice for the person at the keyboard: the hint (the expert's move and
one line of why).  The card tracker's counts are :func:`mille.engine.describe.unseen`.

The hint is given the seat's view (:class:`mille.engine.view.SeatView`) and
asks a fresh expert computer for that seat's move, so it knows only what
the seat may know; it never plays the move: the front end shows
the line (on the error line, or as a line of the line mode).  It names
another move than the standard computer's only when a confident analysis
(``search.confirm``: the two moves played out in worlds of their own until
one is ahead by 2.5 standard errors, 400 worlds at most) finds it better,
and says by how many hands won in 100; else it names the standard move,
and that the playouts found no clear better one.

No curses, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.cards import (
    D200,
    END_OF_LIMIT,
    FALSE_VIRTUE,
    GO,
    NO_CARD,
    SPEED_LIMIT,
    VALUES,
    is_hazard,
    is_repair,
    is_safety,
)
from ..engine.describe import card_name, side_name
from ..engine.rules import Rules, other_side
from ..engine.table import COUP, EXTENSION, OVER, Answer, Discard, Move, Pick, Use
from ..engine.view import SeatView
from ..i18n import _, ngettext
from .search import Sampler, Verdict, confirm

HINT_SEED = 0x4D494C4C45  # the hint's own random stream: same position, same hint


def hint(view: SeatView) -> str:
    """``hint: U3 Go - stopped; you hold 75, 100``: what the
    expert would do for the view's seat now, and why."""
    seat = view.seat
    if view.phase == OVER:
        return (
            _("hint: y starts a new game") if view.game_over else _("hint: y deals the next hand")
        )
    if view.current_player != seat:
        return _("hint: it is not your turn")
    legal = view.legal_moves()
    line = _("hint: {move} - {why}")
    if len(legal) == 1:
        return line.format(move=label(view, legal[0]), why=reason(view, legal[0]))
    move, verdict = advise(view)
    if verdict is None:
        return line.format(move=label(view, move), why=reason(view, move))
    if verdict.better:
        return line.format(move=label(view, move), why=searched(view, verdict))
    why = f"{reason(view, move)}; {unclear(view, move)}"
    return line.format(move=label(view, move), why=why)


def advise(view: SeatView) -> tuple[Move, Verdict | None]:
    """The move a hint names for the view's seat (to decide, more than one
    legal move), and the confident analysis that made it, if any.

    A fresh expert searches; when it leans to another move than the
    standard computer's, the two are played out again in worlds of their
    own (not those of the search that chose the rival), by the hands won,
    until one is clearly ahead (``search.confirm``): the rival is named
    only if it is clearly better, else the standard computer's move."""
    from .expert import Expert

    expert = Expert(random.Random(HINT_SEED), view.seat)
    move = expert.choose(view)
    choice = expert.last_choice
    if choice is None or choice.standard is None or choice.move == choice.standard:
        return move, None
    sampler = Sampler(view, expert.beliefs, expert.needs, expert.safeties, "hands")
    verdict = confirm(sampler, choice.standard, move, random.Random(HINT_SEED + 1))
    return (move if verdict.better else choice.standard), verdict


def searched(view: SeatView, verdict: Verdict) -> str:
    """Why the hint names another move than the standard computer's (whose
    reason, ``the card needed least`` and the like, did not decide it): the
    playouts, the move they beat and by how many hands won in 100 (an
    analysis cut short by its time cap, ``search.Trial.seconds``, may give
    another figure on a busier machine).

    >>> from mille.engine.rules import BSD
    >>> from mille.engine.table import Discard, Table
    >>> t = Table.new(BSD, random.Random(1))
    >>> searched(SeatView(t, 0), Verdict(Discard(3), Discard(0), True, 3.1, 0.042, 96))
    'played out, it beats the usual D3 Extra Tank: about 4 more hands won in 100'
    """
    line = _("played out, it beats the usual {move}: {worth}")
    return line.format(move=label(view, verdict.standard), worth=more_hands(verdict.hands))


def more_hands(hands: float) -> str:
    """``hands`` (more won a hand) in the hint's words, by the hundred.

    >>> more_hands(0.042), more_hands(0.004)
    ('about 4 more hands won in 100', 'under 1 more hand won in 100')
    """
    more = round(hands * 100)
    if more >= 1:
        return ngettext(
            "about {count} more hand won in 100", "about {count} more hands won in 100", more
        ).format(count=more)
    return _("under 1 more hand won in 100")


def unclear(view: SeatView, standard: Move) -> str:
    """What the hint adds when the search leaned to another move but the
    confident analysis did not find it clearly better.

    >>> from mille.engine.rules import BSD
    >>> from mille.engine.table import Discard, Table
    >>> t = Table.new(BSD, random.Random(1))
    >>> unclear(SeatView(t, 0), Discard(3))
    'played out, no clear better move than D3 Extra Tank'
    """
    return _("played out, no clear better move than {move}").format(move=label(view, standard))


def label(view: SeatView, move: Move) -> str:
    """``U3 Go``, ``U4 Stop on 2``, ``D1 25``, ``P``, ``y``."""
    return move_label(view.rules, view.hand, move)


def move_label(rules: Rules, hand: Sequence[int], move: Move) -> str:
    """:func:`label` of ``move`` made from ``hand`` (the seat's cards then)
    under ``rules``.

    >>> from mille.engine.rules import BSD
    >>> move_label(BSD, [0, 13], Use(1)), move_label(BSD, [0, 13], Discard(0))
    ('U1 Go', 'DP 25')
    """
    if isinstance(move, Pick):
        return "P"
    if isinstance(move, Answer):
        return "y" if move.yes else "n"
    slot = "P" if move.slot == 0 else str(move.slot)
    card = card_name(hand[move.slot])
    if isinstance(move, Discard):
        return f"D{slot} {card}"
    if move.target is not None and rules.sides > 2:
        return _("U{slot} {card} on {side}").format(slot=slot, card=card, side=move.target)
    return f"U{slot} {card}"


def _distances(hand: list[int]) -> str:
    cards = sorted({c for c in hand if c != NO_CARD and c <= D200}, key=lambda c: VALUES[c])
    return ", ".join(card_name(c) for c in cards)


def reason(view: SeatView, move: Move) -> str:
    """One line of why ``move`` is good for the view's seat."""
    rules = view.rules
    seat = view.seat
    side = rules.side_of(seat)
    tab = view.tableaux[side - 1]
    if isinstance(move, Pick):
        return _("pick first")
    if isinstance(move, Answer):
        if view.phase == COUP:
            return _("300 more and the next turn") if move.yes else _("keep it for later")
        if view.phase == EXTENSION:
            if move.yes:
                return _("you can make {miles}").format(miles=rules.extension)
            return _("bank the trip now")
        return _("answer the question")
    hand = view.hand
    card = hand[move.slot]
    if isinstance(move, Discard):
        if is_hazard(card) and not any(
            view.check(Use(move.slot, t)) is None for t in range(1, rules.sides + 1)
        ):
            return _("unplayable, needed least")
        if card <= D200 and rules.perfect_crossing and VALUES[card] > view.target - tab.mileage:
            line = _("{card} would pass {miles}")  # never playable this trip
            return line.format(card=card_name(card), miles=view.target)
        return _("the card needed least")
    if card <= D200:
        left = view.target - tab.mileage - VALUES[card]
        if left <= 0:
            return _("completes the trip")
        return _("{miles} to go after it").format(miles=left)
    if is_safety(card):
        return _("safe for good, another turn")
    if card == FALSE_VIRTUE:
        return _("gets your karma back")
    if card == GO:
        held = _distances(hand)
        return _("stopped; you hold {cards}").format(cards=held) if held else _("stopped")
    if card == END_OF_LIMIT:
        long = [c for c in hand if c != NO_CARD and c <= D200 and VALUES[c] > 50]
        return _("lifts your limit for long distances") if long else _("lifts your limit")
    if is_repair(card):
        return _("repairs you; a Go then rolls")
    if is_hazard(card):
        target = (
            move.target if isinstance(move, Use) and move.target is not None else other_side(side)
        )
        other = view.tableaux[target - 1]
        line = _("slows {side} at {miles}") if card == SPEED_LIMIT else _("stops {side} at {miles}")
        return line.format(
            side=side_name(rules, target, view.seat, view.names), miles=other.mileage
        )
    return _("the best use of your hand")
