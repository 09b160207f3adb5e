"""Battle models: how a side's battle and speed state is kept, per preset.

Each model is a small stateless object with one interface, used by
:class:`mille.engine.table.Table` (seen through
:class:`mille.engine.tableau.TableState`):

* ``check(t, seat, card, target)``: the preset's legality rows for a Use
  (after the checks every preset shares), ``None`` or the exact message;
* ``play(t, seat, card, target)``: the effects of a legal Use of a
  non-distance, non-safety card; returns True if a hazard *landed* (so a
  coup-fourré offer may follow);
* ``play_safety(t, side, card)``: a safety into the side's area (ordinary);
  returns True if it was a coup fourré (BSD's window rule);
* ``coup(t, side, safety, hazard)``: a coup fourré accepted on an offer;
* ``rolling(tab)`` / ``limited(tab)``: may the side move, is it limited;
* ``tops(tab)``: the battle and speed tops the board shows.

``TopModel`` is BSD's (the board's top card, ``can_go`` and the coup
windows), ``StackModel`` classic's (real stacks with the clearing rule),
``ProblemsModel`` Mile by Mile's (a set of problems, Stop under every
hazard).

A safety that remedies its hazard in turn (not as a coup fourre) leaves
the side stopped in ``classic`` as in ``milebymile``: unless it has Right
of Way, it needs a Go before distance.  Only a coup fourre exposes the Go
beneath again (the side rolls at once).  In ``bsd`` the side rolls (BSD's
game).
"""

from __future__ import annotations

import abc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .tableau import Tableau, TableState

from . import rules
from .cards import (
    CARD_NAMES,
    D50,
    D75,
    D200,
    END_OF_LIMIT,
    FALSE_VIRTUE,
    GASOLINE,
    GO,
    NO_CARD,
    REPAIRS,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
    VALUES,
    is_hazard,
    is_remedy,
    is_repair,
    opposite,
    safety_for,
    safety_index,
)

_REPAIR_REFUSALS = tuple(f'can\'t play "{name}"' for name in CARD_NAMES)
_GO_ON = tuple(f'cannot play "Go" on a "{name}"' for name in CARD_NAMES)


class BattleModel(abc.ABC):
    """The interface; see the module's docstring."""

    name = ""

    @abc.abstractmethod
    def check(self, t: TableState, seat: int, card: int, target: int) -> str | None:
        """None if ``seat`` may play ``card`` (a hazard on side ``target``), else the refusal."""

    @abc.abstractmethod
    def play(self, t: TableState, seat: int, card: int, target: int) -> bool:
        """Play a checked remedy or hazard; True if a hazard landed on ``target``."""

    @abc.abstractmethod
    def play_safety(self, t: TableState, side: int, card: int) -> bool:
        """``side`` lays a safety down in turn; True if it was a coup fourre."""

    @abc.abstractmethod
    def coup(self, t: TableState, side: int, safety: int, hazard: int) -> None:
        """``side`` takes an offered coup fourre against ``hazard``."""

    @abc.abstractmethod
    def rolling(self, tab: Tableau) -> bool:
        """May ``tab``'s side play distance now?"""

    @abc.abstractmethod
    def limited(self, tab: Tableau) -> bool:
        """Is ``tab``'s side under a speed limit?"""

    @abc.abstractmethod
    def tops(self, tab: Tableau) -> tuple[int, int]:
        """The battle and speed cards the board shows (NO_CARD if none)."""

    def play_distance(self, t: TableState, tab: Tableau, card: int) -> None:
        """Where a played distance card goes (the counters are the table's)."""
        tab.miles.append(card)

    def check_distance(self, t: TableState, tab: Tableau, card: int) -> str | None:
        """Distance rows in BSD's order (200s, limit, over, rolling)."""
        if card == D200 and t.rules.max_200s is not None and tab.nummiles[D200] >= t.rules.max_200s:
            return "only two 200's per hand"
        if card >= D75 and self.limited(tab):
            return "limit of 50"
        if card >= D50 and tab.mileage + VALUES[card] > t.target and t.rules.perfect_crossing:
            return f"puts you over {t.target}"
        if not self.rolling(tab):
            return "cannot move now"
        return None


class TopModel(BattleModel):
    """BSD: the board's battle and speed tops, ``can_go``, coup windows."""

    name = rules.TOP

    def check(self, t: TableState, seat: int, card: int, target: int) -> str | None:
        tab = t.tableaux[seat % len(t.tableaux)]
        if card <= D200:  # check_distance's rows with BSD's rules, flat: the playouts' hot path
            if card == D200 and tab.nummiles[D200] >= 2:
                return "only two 200's per hand"
            if card >= D75 and tab.speed_top == SPEED_LIMIT:
                return "limit of 50"
            if card >= D50 and tab.mileage + VALUES[card] > t.target:
                return f"puts you over {t.target}"
            return None if tab.can_go else "cannot move now"
        if is_repair(card):
            return None if tab.top == opposite(card) else _REPAIR_REFUSALS[card]
        if card == GO:
            top = tab.top
            if top != NO_CARD and top != STOP and not is_repair(top):
                return _GO_ON[top]
            if RIGHT_OF_WAY in tab.safeties:
                return '"Go" implied by "Right of Way"'
            return None
        if card == END_OF_LIMIT:
            return None if tab.speed_top == SPEED_LIMIT else "not limited"
        opp = t.tableaux[target - 1]
        if card == SPEED_LIMIT:
            if opp.speed_top == SPEED_LIMIT:
                return "opponent has limit"
            if RIGHT_OF_WAY in opp.safeties:
                return "opponent is protected"
            return None
        if not opp.can_go:
            return "opponent cannot go"
        if safety_for(card) in opp.safeties:
            return "opponent is protected"
        return None

    def play(self, t: TableState, seat: int, card: int, target: int) -> bool:
        tab = t.tableaux[seat % len(t.tableaux)]
        if is_repair(card):
            tab.battle.append(card)
            tab.top = card
            if RIGHT_OF_WAY in tab.safeties:
                tab.can_go = True
        elif card == GO:
            tab.battle.append(card)
            tab.top = GO
            tab.can_go = True
        elif card == END_OF_LIMIT:
            tab.speed.append(card)
            tab.speed_top = END_OF_LIMIT
        else:
            opp = t.tableaux[target - 1]
            if card == SPEED_LIMIT:
                opp.speed.append(card)
                opp.speed_top = SPEED_LIMIT
                opp.speed_window = True
            else:
                opp.battle.append(card)
                opp.top = card
                opp.battle_window = True
                opp.can_go = False
            return True
        return False

    @staticmethod
    def is_coup(tab: Tableau, safety: int) -> bool:
        return (tab.battle_window and tab.top == opposite(safety)) or (
            tab.speed_window and safety == RIGHT_OF_WAY
        )

    def play_safety(self, t: TableState, side: int, card: int) -> bool:
        tab = t.tableaux[side - 1]
        coup = self.is_coup(tab, card)
        if coup:
            tab.coups[safety_index(card)] = True
        tab.safeties.append(card)
        if tab.top == opposite(card):
            tab.top = GO
            tab.can_go = True
        if card == RIGHT_OF_WAY:
            if tab.speed_top == SPEED_LIMIT:
                tab.speed_top = NO_CARD
            if tab.top in (STOP, NO_CARD) or (not tab.can_go and is_repair(tab.top)):
                tab.top = GO
                tab.can_go = True
        return coup

    def coup(self, t: TableState, side: int, safety: int, hazard: int) -> None:
        raise ValueError("bsd has no coup fourre offers")

    def rolling(self, tab: Tableau) -> bool:
        return tab.can_go

    def limited(self, tab: Tableau) -> bool:
        return tab.speed_top == SPEED_LIMIT

    def tops(self, tab: Tableau) -> tuple[int, int]:
        return tab.top, tab.speed_top

    def could_play(self, t: TableState, seat: int, card: int) -> bool:
        """:func:`could_play` for ``seat``'s side at table ``t`` (the deck-empty
        end of a hand)."""
        return could_play(t.tableaux[seat % 2], t.tableaux[1 - t.side_index(seat)], card, t.target)


def could_play(me: Tableau, op: Tableau, card: int, end: int) -> bool:
    """BSD comp.c's ``canplay``: could side ``me`` usefully play ``card`` now,
    ``op`` its opponent and ``end`` the trip?  (A safety: no.)

    One function for two uses, as in BSD: the deck-empty end of a ``bsd``
    hand (:meth:`TopModel.could_play`: the hand ends when neither side
    holds a safety or a card this accepts) and BSD's computer, which plays
    only cards this accepts.  Stricter than the rules in one place: a
    Speed Limit that cannot stop the opponent finishing (its mileage
    within 50 of the end) is of no use.
    """
    if card <= D200:  # TopModel.check's distance rows as yes or no, flat: the computer's hot path
        if card == D200 and me.nummiles[D200] >= 2:
            return False
        if card >= D75 and me.speed_top == SPEED_LIMIT:
            return False
        if card >= D50 and me.mileage + VALUES[card] > end:
            return False
        return me.can_go
    if card <= SPEED_LIMIT:  # hazards
        if card == SPEED_LIMIT:
            return (
                op.speed_top != SPEED_LIMIT
                and RIGHT_OF_WAY not in op.safeties
                and op.mileage + 50 < end
            )
        return op.can_go and safety_for(card) not in op.safeties
    if card <= REPAIRS:  # (comparisons, not calls: the hot path)
        return me.top == opposite(card)
    if card == GO:
        # BSD's is_repair() is also true of an empty battle pile
        top = me.top
        return not me.can_go and (GASOLINE <= top <= REPAIRS or top in (STOP, NO_CARD))
    if card == END_OF_LIMIT:
        return me.speed_top == SPEED_LIMIT
    return False


class StackModel(BattleModel):
    """Classic: real battle and speed stacks; only the top counts; the
    clearing rule discards a top hazard the side is protected from."""

    name = rules.STACK

    def rolling(self, tab: Tableau) -> bool:
        top = tab.battle[-1] if tab.battle else NO_CARD
        if RIGHT_OF_WAY in tab.safeties:
            return not is_hazard(top)
        return top == GO and not tab.needs_go

    def limited(self, tab: Tableau) -> bool:
        return bool(tab.speed) and tab.speed[-1] == SPEED_LIMIT

    @staticmethod
    def started(tab: Tableau) -> bool:
        return bool(tab.battle) or RIGHT_OF_WAY in tab.safeties

    def tops(self, tab: Tableau) -> tuple[int, int]:
        """The top cards; a side rolling by Right of Way on an empty pile
        shows Go (as BSD's board), one that needs a Go again on a Go shows
        Stop (as Mile by Mile's board: never Go for a side that cannot move)."""
        top = tab.battle[-1] if tab.battle else NO_CARD
        if RIGHT_OF_WAY in tab.safeties:
            if top == NO_CARD:
                top = GO
        elif top == GO and tab.needs_go:
            top = STOP
        speed = tab.speed[-1] if tab.speed else NO_CARD
        return top, speed

    def check(self, t: TableState, seat: int, card: int, target: int) -> str | None:
        tab = t.tableaux[seat % len(t.tableaux)]
        if card <= D200:
            return self.check_distance(t, tab, card)
        top = tab.battle[-1] if tab.battle else NO_CARD
        if is_repair(card):
            return None if top == opposite(card) else _REPAIR_REFUSALS[card]
        if card == GO:
            if (top == GO and not tab.needs_go) or (is_hazard(top) and top != STOP):
                return _GO_ON[top]
            if RIGHT_OF_WAY in tab.safeties:
                return '"Go" implied by "Right of Way"'
            return None
        if card == END_OF_LIMIT:
            return None if self.limited(tab) else "not limited"
        opp = t.tableaux[target - 1]
        if card == SPEED_LIMIT:
            if self.limited(opp):
                return "opponent has limit"
            if RIGHT_OF_WAY in opp.safeties:
                return "opponent is protected"
            return None
        if not self.started(opp):
            return "opponent has not started"
        if safety_for(card) in opp.safeties:
            return "opponent is protected"
        return None

    def play(self, t: TableState, seat: int, card: int, target: int) -> bool:
        tab = t.tableaux[seat % len(t.tableaux)]
        if card == END_OF_LIMIT:
            tab.speed.append(card)
        elif card >= GASOLINE_:
            tab.battle.append(card)
            if card == GO:
                tab.needs_go = False
        elif card == SPEED_LIMIT:
            t.tableaux[target - 1].speed.append(card)
            return True
        else:
            t.tableaux[target - 1].battle.append(card)
            return True
        return False

    @staticmethod
    def clear(t: TableState, tab: Tableau) -> None:
        """The clearing rule (spec 2.3)."""
        battle = tab.battle
        while battle and is_hazard(battle[-1]) and safety_for(battle[-1]) in tab.safeties:
            t.discard.append(battle.pop())
        if tab.speed and tab.speed[-1] == SPEED_LIMIT and RIGHT_OF_WAY in tab.safeties:
            t.discard.append(tab.speed.pop())

    def play_safety(self, t: TableState, side: int, card: int) -> bool:
        """In turn: the clearing rule discards the hazard, but the side
        does not roll on the Go beneath (``needs_go``; Right of Way rolls)."""
        tab = t.tableaux[side - 1]
        tab.safeties.append(card)
        height = len(tab.battle)
        self.clear(t, tab)
        if len(tab.battle) < height and tab.battle and tab.battle[-1] == GO:
            tab.needs_go = True
        return False

    def coup(self, t: TableState, side: int, safety: int, hazard: int) -> None:
        tab = t.tableaux[side - 1]
        pile = tab.speed if hazard == SPEED_LIMIT else tab.battle
        pile.pop()  # the hazard just landed on top
        t.discard.append(hazard)
        tab.safeties.append(safety)
        tab.coups[safety_index(safety)] = True
        self.clear(t, tab)


GASOLINE_ = 10  # remedies from here on (Gasoline .. Go; End of Limit apart)

TOP = TopModel()
STACK = StackModel()
MODELS: dict[str, BattleModel] = {TOP.name: TOP, STACK.name: STACK}


_ALREADY = tuple(f'opponent already has "{name}"' for name in CARD_NAMES)


class ProblemsModel(BattleModel):
    """Milebymile: a side's state is a list of problems (in landing order);
    Stop comes with every hazard; played hazards stay on the target's piles,
    distances and remedies go to the discard pile."""

    name = rules.PROBLEMS

    def rolling(self, tab: Tableau) -> bool:
        problems = tab.problems
        return not (5 in problems or 6 in problems or 7 in problems or 8 in problems)

    def limited(self, tab: Tableau) -> bool:
        return SPEED_LIMIT in tab.problems

    def tops(self, tab: Tableau) -> tuple[int, int]:
        top = GO
        for card in reversed(tab.problems):
            if card in (5, 6, 7):
                top = card
                break
        else:
            if STOP in tab.problems:
                top = STOP
        return top, SPEED_LIMIT if SPEED_LIMIT in tab.problems else NO_CARD

    def play_distance(self, t: TableState, tab: Tableau, card: int) -> None:
        tab.record.append(card)
        t.discard.append(card)

    def check(self, t: TableState, seat: int, card: int, target: int) -> str | None:
        tab = t.tableaux[seat % len(t.tableaux)]
        if card <= D200:
            return self.check_distance(t, tab, card)
        problems = tab.problems
        if card == FALSE_VIRTUE:
            return "you still have karma" if tab.karma else None
        if is_repair(card):
            return None if opposite(card) in problems else _REPAIR_REFUSALS[card]
        if card == GO:
            if RIGHT_OF_WAY in tab.safeties:
                return '"Go" implied by "Right of Way"'
            if STOP not in problems or 5 in problems or 6 in problems or 7 in problems:
                return _GO_ON[self.tops(tab)[0]]
            return None
        if card == END_OF_LIMIT:
            return None if SPEED_LIMIT in problems else "not limited"
        opp = t.tableaux[target - 1]
        if safety_for(card) in opp.safeties:
            return "opponent is protected"
        if t.rules.karma and not tab.karma and opp.karma:
            return "opponent has karma"
        if card == SPEED_LIMIT:
            return "opponent has limit" if SPEED_LIMIT in opp.problems else None
        if not t.rules.stacking:
            return None if self.rolling(opp) else "opponent cannot go"
        return _ALREADY[card] if card in opp.problems else None

    def play(self, t: TableState, seat: int, card: int, target: int) -> bool:
        tab = t.tableaux[seat % len(t.tableaux)]
        if card == FALSE_VIRTUE:
            tab.karma = True
            t.set_aside.append(card)
            t.notices.append(f"side {t.side_index(seat) + 1} regains karma")
            return False
        if is_remedy(card):
            problem = STOP if card == GO else opposite(card)
            tab.problems.remove(problem)
            t.discard.append(card)
            return False
        opp = t.tableaux[target - 1]
        if t.rules.karma:
            if tab.karma and opp.karma:  # a clash
                tab.karma = opp.karma = False
                t.discard.append(card)
                t.notices.append("karma clash: both lose karma")
                return False
            if tab.karma:
                tab.karma = False
                t.notices.append(f"side {t.side_index(seat) + 1} loses karma")
        opp.saved = opp.problems[:]
        if card == SPEED_LIMIT:
            opp.speed.append(card)
        else:
            opp.battle.append(card)
        if card not in opp.problems:
            opp.problems.append(card)
        if (
            card != STOP
            and card != SPEED_LIMIT
            and STOP not in opp.problems
            and RIGHT_OF_WAY not in opp.safeties
        ):
            opp.problems.append(STOP)
        return True

    @staticmethod
    def _protect(tab: Tableau, safety: int) -> None:
        problems = tab.problems
        if safety == RIGHT_OF_WAY:
            for gone in (STOP, SPEED_LIMIT):
                if gone in problems:
                    problems.remove(gone)
        else:
            hazard = opposite(safety)
            if hazard in problems:
                problems.remove(hazard)

    def play_safety(self, t: TableState, side: int, card: int) -> bool:
        tab = t.tableaux[side - 1]
        tab.safeties.append(card)
        self._protect(tab, card)
        return False

    def coup(self, t: TableState, side: int, safety: int, hazard: int) -> None:
        tab = t.tableaux[side - 1]
        tab.problems = tab.saved[:]
        tab.safeties.append(safety)
        tab.coups[safety_index(safety)] = True
        self._protect(tab, safety)


PROBLEMS = ProblemsModel()
MODELS[PROBLEMS.name] = PROBLEMS
