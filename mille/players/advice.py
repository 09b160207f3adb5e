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
from ..engine.rules import other_side
from ..engine.table import COUP, EXTENSION, OVER, Answer, Discard, Move, Pick, Use
from ..engine.view import SeatView
from .search import Sampler, Verdict, confirm

HINT_SEED = 0x4D494C4C45  # the hint's own random stream: same position, same hint


def hint(view: SeatView) -> str:
    """``hint: U3 Go - stopped; you hold 75, 100``: what the
    expert would do for the view's seat now, and why."""
    seat = view.seat
    if view.phase == OVER:
        return "hint: y " + ("starts a new game" if view.game_over else "deals the next hand")
    if view.current_player != seat:
        return "hint: it is not your turn"
    legal = view.legal_moves()
    if len(legal) == 1:
        return f"hint: {label(view, legal[0])} - {reason(view, legal[0])}"
    move, verdict = advise(view)
    if verdict is None:
        return f"hint: {label(view, move)} - {reason(view, move)}"
    if verdict.better:
        return f"hint: {label(view, move)} - {searched(view, verdict)}"
    return f"hint: {label(view, move)} - {reason(view, move)}; {unclear(view, move)}"


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
    more = round(verdict.hands * 100)
    if more >= 2:
        worth = f"about {more} more hands won in 100"
    elif more == 1:
        worth = "about 1 more hand won in 100"
    else:
        worth = "under 1 more hand won in 100"
    return f"played out, it beats the usual {label(view, verdict.standard)}: {worth}"


def unclear(view: SeatView, standard: Move) -> str:
    """What the hint adds when the search leaned to another move but the
    confident analysis did not find it clearly better.

    >>> from mille.engine.rules import BSD
    >>> from mille.engine.table import Discard, Table
    >>> t = Table.new(BSD, random.Random(1))
    >>> unclear(SeatView(t, 0), Discard(3))
    'played out, no clear better move than D3 Extra Tank'
    """
    return f"played out, no clear better move than {label(view, standard)}"


def label(view: SeatView, move: Move) -> str:
    """``U3 Go``, ``U4 Stop on 2``, ``D1 25``, ``P``, ``y``."""
    if isinstance(move, Pick):
        return "P"
    if isinstance(move, Answer):
        return "y" if move.yes else "n"
    slot = "P" if move.slot == 0 else str(move.slot)
    card = card_name(view.hand[move.slot])
    if isinstance(move, Discard):
        return f"D{slot} {card}"
    on = f" on {move.target}" if move.target is not None and view.rules.sides > 2 else ""
    return f"U{slot} {card}{on}"


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
        return "pick first"
    if isinstance(move, Answer):
        if view.phase == COUP:
            return "300 more and the next turn" if move.yes else "keep it for later"
        if view.phase == EXTENSION:
            return f"you can make {rules.extension}" if move.yes else "bank the trip now"
        return "answer the question"
    hand = view.hand
    card = hand[move.slot]
    if isinstance(move, Discard):
        if is_hazard(card) and not any(
            view.check(Use(move.slot, t)) is None for t in range(1, rules.sides + 1)
        ):
            return "unplayable, needed least"
        if card <= D200 and rules.perfect_crossing and VALUES[card] > view.target - tab.mileage:
            return f"{card_name(card)} would pass {view.target}"  # never playable this trip
        return "the card needed least"
    if card <= D200:
        left = view.target - tab.mileage - VALUES[card]
        if left <= 0:
            return "completes the trip"
        return f"{left} to go after it"
    if is_safety(card):
        return "safe for good, another turn"
    if card == FALSE_VIRTUE:
        return "gets your karma back"
    if card == GO:
        held = _distances(hand)
        return "stopped" + (f"; you hold {held}" if held else "")
    if card == END_OF_LIMIT:
        long = [c for c in hand if c != NO_CARD and c <= D200 and VALUES[c] > 50]
        return "lifts your limit" + (" for long distances" if long else "")
    if is_repair(card):
        return "repairs you; a Go then rolls"
    if is_hazard(card):
        target = (
            move.target if isinstance(move, Use) and move.target is not None else other_side(side)
        )
        other = view.tableaux[target - 1]
        verb = "slows" if card == SPEED_LIMIT else "stops"
        return f"{verb} {side_name(rules, target, view.seat, view.names)} at {other.mileage}"
    return "the best use of your hand"
