"""Validation: the one place the rules' consistency is checked, for the
engine's tests and for save files alike (``Table.validate``; a logged
move, ``check_event``).

Every message names what is impossible (``side 2: mileage over 700``,
``a coup fourre offer to a seat without the safety``); a state that passes
can be played on.
"""

from __future__ import annotations

import math

from .cards import (
    ACCIDENT,
    CARD_NAMES,
    D200,
    END_OF_LIMIT,
    EXTRA_TANK,
    FALSE_VIRTUE,
    FLAT_TIRE,
    GO,
    HAND_SLOTS,
    NO_CARD,
    NUM_SAFETIES,
    OUT_OF_GAS,
    RIGHT_OF_WAY,
    SAFETIES,
    SPEED_LIMIT,
    STOP,
    VALUES,
    is_hazard,
    is_repair,
    is_safety,
    safety_for,
)
from .deal import IDLE_REFILLS, RESHUFFLED, can_supply, deck_cards
from .moves import COUP, EXTENSION, OVER, PLAYING, Answer, Event, Pick, Use
from .rules import DECK_OUT_RUN_OUT, OFFER, PROBLEMS, STACK, TIE_NO_GAME, Rules
from .rules import TOP as TOP_BATTLE
from .scoring import completing_side, hand_score
from .state import State
from .tableau import Tableau


def validate(t: State, *, strict: bool = False) -> None:
    """Raise ValueError with a precise message if the state is impossible.

    The invariants of the spec's section 5 and what every game keeps
    besides (tops that match the piles, ``can_go`` the battle top, the
    phase that fits the mileages, a question only where one can be
    pending): the one place the rules' consistency is checked, for the
    engine's tests and for save files alike.  ``strict`` adds what only
    a hand-built state breaks (a save file is loaded strictly): no
    safety in the discard pile (bsd), no unsettled finished game in the
    totals, an extender for an extended target, no battle top a bsd
    side is protected from, a hand over only when it had to end.
    """
    rules = t.rules
    if len(t.hands) != rules.players:
        raise ValueError(f"{len(t.hands)} hands for {rules.players} seats")
    if len(t.tableaux) != rules.sides:
        raise ValueError(f"{len(t.tableaux)} tableaux for {rules.sides} sides")
    if len(t.totals) != rules.sides or len(t.games) != rules.sides or len(t.marks) != rules.sides:
        raise ValueError(f"totals, games and marks must have {rules.sides} entries")
    if any(c != FALSE_VIRTUE for c in t.set_aside):
        raise ValueError("only false virtues are set aside")
    if sorted(t.all_cards()) != deck_cards(rules):
        raise ValueError(f"cards are not the {rules.deck_size}-card deck")
    if strict and not rules.discard_safeties:
        for card in t.discard:
            if card in SAFETIES:
                raise ValueError(f"a safety in the discard pile ({CARD_NAMES[card]})")
    ends = {rules.target} | ({rules.extension} if rules.extension else set())
    if t.target not in ends:
        raise ValueError(f"target must be one of {sorted(ends)}, not {t.target}")
    if not 0 <= t.to_move < rules.players:
        raise ValueError(f"no seat {t.to_move} to move")
    if not 0 <= t.starter < rules.players:
        raise ValueError(f"no seat {t.starter} to start")
    for seat, hand in enumerate(t.hands):
        if len(hand) != HAND_SLOTS:
            raise ValueError(f"seat {seat}: a hand has {HAND_SLOTS} slots")
        held = sum(c != NO_CARD for c in hand)
        mover = seat == t.to_move
        if held > (HAND_SLOTS if mover else HAND_SLOTS - 1):
            raise ValueError(f"seat {seat}: holds {held} cards")
        if not mover and hand[0] != NO_CARD and not (t.ordering and seat in t.ordered):
            raise ValueError(f"seat {seat}: slot P filled outside its turn")
    for side, tab in enumerate(t.tableaux, 1):
        _tableau(t, side, tab, strict)
        score = hand_score(t, side)
        if (
            score.trip
            or score.safe_trip
            or score.delayed_action
            or score.extension
            or score.shut_out
            or score.perfect_crossing
        ) and completing_side(t) != side:
            raise ValueError(f"side {side}: trip rows without completing the trip")
    _totals(t, strict)
    _reshuffle(t)
    _phase(t, strict)


def _tableau(t: State, side: int, tab: Tableau, strict: bool) -> None:
    where = f"side {side}"
    problems_model = t.rules.battle == PROBLEMS
    played = tab.record if problems_model else tab.miles
    if any(not 0 <= c <= D200 for c in played):
        raise ValueError(f"{where}: only distances go on the distance pile")
    if tab.mileage != sum(VALUES[c] for c in played):
        raise ValueError(f"{where}: mileage does not match the distance pile")
    if tab.mileage > t.target and (t.rules.perfect_crossing or t.phase != OVER):
        raise ValueError(f"{where}: mileage over {t.target}")
    if tab.nummiles != [played.count(c) for c in range(5)]:
        raise ValueError(f"{where}: distance counts do not match the pile")
    if t.rules.max_200s is not None and tab.nummiles[D200] > t.rules.max_200s:
        raise ValueError(f"{where}: more than two 200s")
    if any(c not in SAFETIES for c in tab.safeties):
        raise ValueError(f"{where}: only safeties go in the safety area")
    if len(set(tab.safeties)) != len(tab.safeties):
        raise ValueError(f"{where}: a safety played twice")
    if len(tab.coups) != NUM_SAFETIES:
        raise ValueError(f"{where}: a coup fourre mark for each of {NUM_SAFETIES} safeties")
    for i, coup in enumerate(tab.coups):
        if coup and EXTRA_TANK + i not in tab.safeties:
            raise ValueError(f"{where}: a coup fourre for an unplayed safety")
    if tab.karma and not t.rules.karma:
        raise ValueError(f"{where}: karma without the karma rule")
    if tab.needs_go and (t.rules.battle != STACK or GO not in tab.battle):
        raise ValueError(f"{where}: needs a Go again without a Go on its battle pile")
    if problems_model:
        _problems(t, where, tab)
        return
    if tab.record or tab.problems or tab.saved:
        raise ValueError(f"{where}: milebymile's problems under {t.rules.name}")
    if any(c <= D200 or c >= EXTRA_TANK or c in (SPEED_LIMIT, END_OF_LIMIT) for c in tab.battle):
        raise ValueError(f"{where}: a card that cannot be on a battle pile")
    if any(c not in (SPEED_LIMIT, END_OF_LIMIT) for c in tab.speed):
        raise ValueError(f"{where}: a card that cannot be on a speed pile")
    if t.rules.battle == TOP_BATTLE:
        _tops(t, where, tab, strict)
        return
    _top_fields_unset(t, where, tab)
    if any(c != (SPEED_LIMIT if i % 2 == 0 else END_OF_LIMIT) for i, c in enumerate(tab.speed)):
        raise ValueError(f"{where}: the speed pile does not alternate from a speed limit")
    if tab.battle and is_hazard(tab.battle[-1]) and safety_for(tab.battle[-1]) in tab.safeties:
        raise ValueError(f"{where}: a battle top it is protected from")
    if tab.speed and tab.speed[-1] == SPEED_LIMIT and RIGHT_OF_WAY in tab.safeties:
        raise ValueError(f"{where}: a speed limit with right of way")


def _tops(t: State, where: str, tab: Tableau, strict: bool) -> None:
    """BSD's board: the tops it shows match the piles, ``can_go`` the top."""
    top, speed_top, right_of_way = tab.top, tab.speed_top, RIGHT_OF_WAY in tab.safeties
    if top == NO_CARD:
        if tab.battle:
            raise ValueError(f"{where}: no battle top, but a battle pile")
    elif top == GO:
        if GO not in tab.battle and not tab.safeties:
            raise ValueError(f"{where}: a Go top without a Go card or a safety")
    elif not tab.battle or top != tab.battle[-1]:
        raise ValueError(f"{where}: the battle top is not the top of the battle pile")
    if speed_top == NO_CARD:
        if tab.speed and not (right_of_way and tab.speed[-1] == SPEED_LIMIT):
            raise ValueError(f"{where}: no speed top, but a speed pile")
    elif (
        speed_top not in (SPEED_LIMIT, END_OF_LIMIT) or not tab.speed or speed_top != tab.speed[-1]
    ):
        raise ValueError(f"{where}: the speed top is not the top of the speed pile")
    if strict and is_hazard(top) and safety_for(top) in tab.safeties:
        raise ValueError(f"{where}: a battle top it is protected from")
    if speed_top == SPEED_LIMIT and right_of_way:
        raise ValueError(f"{where}: a speed limit with right of way")
    if tab.can_go != (top == GO or (right_of_way and is_repair(top))):
        raise ValueError(f"{where}: can_go does not match the battle top")


def _top_fields_unset(t: State, where: str, tab: Tableau) -> None:
    if (tab.top, tab.speed_top, tab.can_go, tab.battle_window, tab.speed_window) != (
        NO_CARD,
        NO_CARD,
        False,
        False,
        False,
    ):
        raise ValueError(f"{where}: bsd's top-card fields set under {t.rules.name}")


def _problems(t: State, where: str, tab: Tableau) -> None:
    _top_fields_unset(t, where, tab)
    if tab.miles:
        raise ValueError(f"{where}: a distance pile under milebymile")
    if (
        any(not is_hazard(c) for c in tab.battle + tab.speed)
        or SPEED_LIMIT in tab.battle
        or any(c != SPEED_LIMIT for c in tab.speed)
    ):
        raise ValueError(f"{where}: only hazards go on battle and speed piles")
    problems = tab.problems
    if any(not is_hazard(c) for c in problems) or len(set(problems)) != len(problems):
        raise ValueError(f"{where}: impossible problems {problems}")
    if any(safety_for(c) in tab.safeties for c in problems):
        raise ValueError(f"{where}: a problem it has the safety for")
    if (
        RIGHT_OF_WAY not in tab.safeties
        and any(c in problems for c in (OUT_OF_GAS, FLAT_TIRE, ACCIDENT))
        and STOP not in problems
    ):
        raise ValueError(f"{where}: a hazard without its stop")


def _totals(t: State, strict: bool) -> None:
    rules = t.rules
    # scores go in 25s, but Milestones Played stops at a race distance
    # that need not (milebymile, perfect crossing off)
    step = math.gcd(25, rules.target)
    for side, total in enumerate(t.totals, 1):
        if total < 0 or total % step:
            raise ValueError(f"side {side}: a total of {total} is not a score")
    best = max(t.totals)
    if (
        strict
        and best >= rules.winning_score
        and (rules.game_tie == TIE_NO_GAME or t.totals.count(best) == 1)
    ):
        raise ValueError(f"a total of {best} ended the game, but was not settled")
    if any(games < 0 for games in t.games):
        raise ValueError("a negative count of games won")


def _reshuffle(t: State) -> None:
    if not t.rules.reshuffle:
        if t.refills or t.seed or any(t.marks) or t.idle_refills:
            raise ValueError("reshuffle counters without the reshuffle rule")
        return
    if (
        not 0 <= t.seed < 2**32
        or t.refills < 0
        or not 0 <= t.idle_refills < IDLE_REFILLS
        or (t.idle_refills and t.idle_refills >= t.refills)
    ):
        raise ValueError("impossible reshuffle counters")
    for side, (tab, mark) in enumerate(zip(t.tableaux, t.marks), 1):
        if not 0 <= mark <= tab.mileage or mark % 25 or (mark and not t.refills):
            raise ValueError(f"side {side}: a mark of {mark} at {tab.mileage} miles")


def _phase(t: State, strict: bool) -> None:
    rules = t.rules
    phase = t.phase
    if phase not in (PLAYING, EXTENSION, COUP, OVER):
        raise ValueError(f"unknown phase {phase!r}")
    asked = t.asked
    if phase in (EXTENSION, COUP):
        if asked is None or not 0 <= asked < rules.players:
            raise ValueError(f"a {phase} question asked of nobody")
    elif asked is not None:
        raise ValueError("a question asked outside its phase")
    if t.offer is not None and phase != COUP:
        raise ValueError("a coup fourre offer outside its phase")
    if t.owed:
        hand = t.hands[t.to_move]
        if rules.coup != OFFER or phase != PLAYING or hand[0] != NO_CARD or hand[1] != NO_CARD:
            raise ValueError("a coup fourre's card owed to a mover who cannot pick it")
    extender = t.extender
    if extender is not None:
        if rules.extension is None or t.target != rules.extension:
            raise ValueError("an extender without an extension")
        if not 1 <= extender <= rules.sides:
            raise ValueError(f"no side {extender} to extend")
        if t.tableaux[extender - 1].mileage < rules.target:
            raise ValueError(f"side {extender} extended before reaching {rules.target}")
    elif rules.extension is not None and t.target == rules.extension:
        if strict:
            raise ValueError("an extension nobody called")
        if all(tab.mileage < rules.target for tab in t.tableaux):
            raise ValueError(f"an extension, but no side reached {rules.target}")
    reached = [side for side, tab in enumerate(t.tableaux, 1) if tab.mileage >= t.target]
    if asked is None:
        pass
    elif phase == EXTENSION:
        side = t.side_of(asked)
        if t.tableaux[side - 1].mileage != rules.target:
            raise ValueError("an extension decision for a side not at the target")
        if rules.extension is None or t.target == rules.extension:
            raise ValueError("an extension decision with no extension to call")
        if t.to_move != (asked + 1) % rules.players:
            raise ValueError("an extension decision out of turn")
        reached.remove(side)
    else:
        _offer(t, asked)
    if reached and phase != OVER:
        raise ValueError(f"the hand goes on, but side {reached[0]} has reached {t.target}")
    if strict and phase == OVER and not reached:
        if t.deck:
            raise ValueError("the hand is over, but nobody finished and the deck is not empty")
        if rules.deck_out == DECK_OUT_RUN_OUT and (
            can_supply(t) or any(c != NO_CARD for h in t.hands for c in h)
        ):
            raise ValueError("the hand is over, but cards are left to play")
    if phase == PLAYING and rules.deck_out == DECK_OUT_RUN_OUT:
        # (the skip rule of a run-out passes a seat with no card over)
        hand = t.hands[t.to_move]
        if not can_supply(t) and all(c == NO_CARD for c in hand):
            raise ValueError("the player to move has no card and cannot pick")


def _offer(t: State, asked: int) -> None:
    if t.rules.coup != OFFER:
        raise ValueError(f"a coup fourre question under {t.rules.name}")
    if t.offer is None:
        raise ValueError("a coup fourre question without an offer")
    side, safety, hazard = t.offer
    if t.side_of(asked) != side or safety not in t.hands[asked]:
        raise ValueError("a coup fourre offer to a seat without the safety")
    if not is_hazard(hazard) or safety_for(hazard) != safety:
        raise ValueError("a coup fourre offer with the wrong safety")
    tab = t.tableaux[side - 1]
    pile = tab.speed if hazard == SPEED_LIMIT else tab.battle
    if (
        not pile
        or pile[-1] != hazard
        or (t.rules.battle == PROBLEMS and hazard not in tab.problems)
    ):
        raise ValueError("a coup fourre offer for a hazard that did not land")


# ----- a move made -------------------------------------------------------------


class EventError(ValueError):
    """A logged move the engine could not have made; ``str()`` is the exact
    message, ``notice`` the index of the notice at fault (None: the move)."""

    def __init__(self, message: str, notice: int | None = None) -> None:
        super().__init__(message)
        self.notice = notice


def check_event(event: Event, rules: Rules) -> None:
    """Raise :class:`EventError` unless ``event`` is one the engine could
    have made under ``rules``: its card, draws, flags and notices agree
    with its move and the phase it was made in.

    >>> from mille.engine.moves import Outcome
    >>> from mille.engine.rules import BSD
    >>> check_event(Event(Outcome(0, Pick(), drawn=(3,))), BSD)
    >>> check_event(Event(Outcome(0, Pick())), BSD)
    Traceback (most recent call last):
    ...
    mille.engine.validation.EventError: a pick draws 1 or 2 cards and plays none
    """
    outcome, phase = event.outcome, event.phase
    move, card = outcome.move, outcome.card
    if isinstance(move, Answer):
        if phase == PLAYING:
            raise EventError("an answer is made only to a question")
        if (
            outcome.coup_fourre != (card != NO_CARD)
            or outcome.coup_fourre
            and not (move.yes and phase == COUP and is_safety(card))
        ):
            raise EventError("only a yes to Coup Fourre? plays a card (its safety)")
    elif phase != PLAYING:
        raise EventError(f"a question must be answered y or n, not {move}")
    elif isinstance(move, Pick):
        if card != NO_CARD or not 1 <= len(outcome.drawn) <= 2:
            raise EventError("a pick draws 1 or 2 cards and plays none")
    elif card == NO_CARD or outcome.drawn:
        raise EventError(f"{move} plays a card and draws none")
    if not isinstance(move, Pick) and outcome.drawn:
        raise EventError("only a pick draws cards")
    safety = isinstance(move, Use) and is_safety(card)
    if (
        outcome.extra_turn != safety
        or outcome.coup_fourre
        and not (safety or isinstance(move, Answer))
    ):
        raise EventError("only a safety gives another turn or a coup fourre")
    if isinstance(move, Use) and move.target == rules.side_of(outcome.seat) and is_hazard(card):
        raise EventError("a hazard on the mover's own side")
    for i, notice in enumerate(event.notices):
        karma = notice != RESHUFFLED
        side = int(notice.split()[1]) if notice.startswith("side ") else 0
        if (karma and not rules.karma) or (not karma and not rules.reshuffle) or side > rules.sides:
            raise EventError(f"not a notice of these rules: {notice!r}", i)
