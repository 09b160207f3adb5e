"""The rules-aware computer for ``classic`` and ``milebymile`` (and any preset).

A heuristic in the spirit of BSD's comp.c, for any number of seats and any
team mode.  It sees only what its seat may see: its own hand, every
tableau, the discard pile and the set-aside pile, the deck's size, the
rules.  Never the order of the deck, never another hand (a partner's
neither).

Its memory, ``seen``, counts the cards of each kind it has seen this hand,
against the preset's deck (``rules.deck`` plus the False Virtues of the
karma rule): its own deal and draws, and every card any other seat uses,
discards or plays as a coup fourre.  A reshuffle of the discard pile puts
cards back out of sight: it then counts again what is in view.  So
``deck[k] - seen[k]`` is how many cards of kind k may still be in the deck
or in other hands.

Each turn, in this order:

1. a safety that cures what stops or limits its side goes at once (BSD);
2. other safeties are held for a coup fourre (a hazard on its side brings
   the ``Coup Fourre?`` offer, so a held safety protects as well as a
   played one), and played when no coup is possible any more (every copy of
   its hazard is in view), when the hand may soon end (the deck is nearly
   out, some side could finish within a turn or two) or before its own
   finishing card: a safety gives another turn, so this costs nothing;
3. a distance card that completes the trip (one that lands exactly on the
   target first), before any attack;
4. a remedy its side needs now (the side's tableau is its partners' too),
   or a hazard on the opposing side it hurts most, whichever is worth
   more: a hazard is weighed by how likely the side is to finish first (a
   side about to finish is stopped even before its own repair; one far
   behind its own side is mostly left alone), by the turns the hand has
   left, less the chance of a coup fourre against it (the safety unseen
   and in that side's hands rather than in the deck; a hazard whose safety
   is in view cannot be countered), more when most of its remedies are in
   view.  In a duel (two sides) it attacks more readily, above all the
   leader and with hazards that need a remedy and a Go.  Under the stack
   model (classic) it does not pile a hazard on a side another hazard or a
   Stop already stops (it discards rather): that mostly changes the remedy
   the side waits for, and wastes a card that would stop a rolling side.
   It never aims at its own team: targets are chosen among the opposing
   sides;
5. the longest distance (a hazard on a rolling side usually comes first),
   preferring one that leaves a remainder its hand can make exactly;
6. otherwise it discards its least useful card: cards that can never help
   first (a remedy whose safety its side has, a hazard whose safety every
   opposing side has, a distance past the target, a 200 over the limit),
   then duplicates and remedies whose hazard is unlikely to come (a small
   distance that makes an exact finish with its hand is kept).  It never
   discards a safety.

Under the problems model (milebymile) with three or more sides, while it
can move it plays miles rather than hazards (unless the target is on its
last leg and ahead); in a duel it attacks the rolling side as under the
other models.  With three or more opposing sides a rolling side is hit
again and again and every hazard brings a Stop: it keeps remedies over
hazards.  A second copy of a needed remedy is only a spare.

Under the karma rule a hazard that would clash is a weak move (nothing
lands, both sides lose karma), and a False Virtue gets the karma back once
its side has lost it, when nothing better is on.

It always answers ``Coup Fourre?`` yes, and ``Extension?`` yes only with
enough deck left (three rounds of draws in a duel, six otherwise, two more
for each side at 0), the other sides far behind and miles in hand.

The weights that differ between a duel and a race of three or more sides
(:data:`TWO_SIDES`, :data:`TWO_SIDES_PROBLEMS`, :data:`MANY_SIDES`) were
tuned by self-play against the previous version on duplicate deals, and
checked on other seeds.  Ties between equal choices are broken with its
``random.Random``.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import (
    ACCIDENT,
    ALL_NAMES,
    D25,
    D50,
    D200,
    END_OF_LIMIT,
    EXTRA_TANK,
    FALSE_VIRTUE,
    FLAT_TIRE,
    GASOLINE,
    GO,
    NO_CARD,
    OUT_OF_GAS,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
    VALUES,
    is_breakdown,
    opposite,
    safety_for,
)
from ..engine.rules import PROBLEMS, RIGGINGS, STACK, Rules, find_rules, other_side
from ..engine.table import (
    COUP,
    EXTENSION,
    NO,
    PICK,
    YES,
    Answer,
    Move,
    Outcome,
    Pick,
    Use,
)
from ..engine.tableau import Tableau
from ..engine.view import SeatView
from .base import Seated, before_pick, computer_discards
from .memory import card_counts, integer, saved_object

KINDS = FALSE_VIRTUE + 1  # the 19 card kinds and False Virtue
NAMES = ALL_NAMES
CRITICAL = (OUT_OF_GAS, FLAT_TIRE, ACCIDENT, STOP)  # hazards that stop a side

# The decks a preset may deal (by kind, False Virtue last): what a saved
# memory may count against.
_DECKS: frozenset[tuple[int, ...]] = frozenset(
    deck + (fv,)
    for deck in [find_rules("bsd").deck]
    + [find_rules("milebymile", rigging=r).deck for r in RIGGINGS]
    for fv in (0, 2)
)

# Values of the moves, on one scale (about half a point of score each; the
# first three are above any attack, however strong).
CURE = 10000  # a safety against what ails the side
FLUSH = 9000  # a safety played before it is too late
FINISH = 8000  # the distance card that completes the trip
WEAK = 10  # below this a use is no better than discarding a dead card
CROWD = 1.5  # a remedy's keep among many attackers (milebymile)
HOARD = 0.5  # a hazard's keep among many attackers (milebymile)
EXACT = 5.0  # a finishing card that lands exactly on the target, over one past it
FLUSH_DECK = 2  # safeties go once the deck holds this many rounds of draws or fewer
FLUSH_LEFT = 200  # ... or a rolling opposing side is this near the target


@dataclass(frozen=True)
class Weights:
    """The weights that differ between a duel of two sides and a race of
    three or more (tuned by self-play on duplicate deals)."""

    repair: float = 150.0  # a remedy the side needs now
    attack: float = 100.0  # a hazard on a rolling side, before weighing the target
    behind: float = 0.3  # an attack's worth on a side at 0 when its own side is ahead
    stacked: float = 0.0  # a hazard on a side a hazard or a Stop already stops (stack)
    lead: float = 1.5  # how much more a side at the target is worth stopping than one at 0
    scarce: float = 0.0  # more for a hazard when most of its remedies are in view
    coup_risk: float = 150.0  # what a coup fourre against a hazard costs, times its chance
    double: float = 0.0  # more for a hazard that needs two cards to mend (remedy and Go)
    hazard_keep: float = 40.0  # a hazard's keep in hand
    extension_rounds: int = 6  # rounds of draws left that the extension asks for
    # milebymile: an attack's worth while its own side could move instead,
    # unless the target is this near the end and ahead
    rolling: float = 0.0
    last_leg: int = 300


# two sides: attack more (the leader, what is hard to mend), never mind a
# coup fourre much
TWO_SIDES = Weights(
    repair=100.0,
    attack=160.0,
    behind=0.6,
    lead=3.5,
    scarce=0.5,
    coup_risk=50.0,
    double=0.2,
    hazard_keep=60.0,
    extension_rounds=3,
)
# two sides under the problems model (milebymile): attack while rolling too
TWO_SIDES_PROBLEMS = dataclasses.replace(TWO_SIDES, rolling=1.0)
MANY_SIDES = Weights()


def weights(rules: Rules) -> Weights:
    """The weights for ``rules``' number of sides (and battle model)."""
    if rules.sides > 2:
        return MANY_SIDES
    return TWO_SIDES_PROBLEMS if rules.battle == PROBLEMS else TWO_SIDES


class HeuristicError(ValueError):
    """A saved heuristic memory that cannot be restored; the message says why."""


def _needs(view: SeatView, tab: Tableau) -> list[int]:
    """The remedies ``tab``'s side must play before it rolls (Go last)."""
    model = view.rules.battle
    right_of_way = RIGHT_OF_WAY in tab.safeties
    if model == PROBLEMS:
        needs = [opposite(p) for p in tab.problems if is_breakdown(p)]
        return needs + ([GO] if STOP in tab.problems else [])
    if view.model.rolling(tab):
        return []
    if model == STACK:
        top = tab.battle[-1] if tab.battle else NO_CARD
    else:
        top = tab.top
    if 5 <= top <= 7:
        return [opposite(top)] + ([] if right_of_way else [GO])
    return [] if right_of_way else [GO]


def settled(
    view: SeatView, legal: Sequence[Move], seat: int, extend: Callable[[SeatView], bool]
) -> Move | None:
    """The move of ``seat`` that needs no weighing, for the heuristic and
    the players built on it: yes to a coup fourre, ``extend``'s answer to
    Extension?, the pick (or bsd's coup-fourre window before it); None
    for a turn to weigh.  ValueError if the seat is not to decide (no
    ``legal`` move)."""
    if not legal:
        raise ValueError(f"seat {seat} is not to decide")
    phase = view.phase
    if phase == COUP:
        return YES
    if phase == EXTENSION:
        return YES if extend(view) else NO
    if PICK in legal:
        return before_pick(legal)  # bsd's coup-fourre window comes before the pick
    return None


class Heuristic(Seated):
    """The rules-aware computer player of one seat (see the module docstring)."""

    error = HeuristicError

    def __init__(self, rng: random.Random, seat: int) -> None:
        super().__init__(rng, seat)
        self.deck = [0] * KINDS  # the composition counted against
        self.seen = [0] * KINDS
        self.refills = 0  # the table's reshuffles accounted for

    @classmethod
    def from_view(
        cls, view: SeatView, rng: random.Random, public: Sequence[int] | None = None
    ) -> Heuristic:
        """The computer of ``view``'s seat taking up a hand under way (the
        expert's playouts and guesses), counting as seen every card in view
        (``public``: the counts of ``SeatView.public_counts``, if already
        counted), as it counts at the start of a hand."""
        bot = cls(rng, view.seat)
        bot.start_hand(view, public)
        return bot

    # ----- memory ----------------------------------------------------------

    def start_hand(self, view: SeatView, public: Sequence[int] | None = None) -> None:
        """A new deal: the deck's composition, and its own six cards
        (every card in view, ``public`` as :meth:`recount` takes it)."""
        rules = view.rules
        self.deck = list(rules.deck) + [rules.false_virtues]
        self.recount(view, public)

    def recount(self, view: SeatView, public: Sequence[int] | None = None) -> None:
        """Count again every card in view (after a reshuffle, or a restore);
        ``public``: the counts of ``SeatView.public_counts``, if already
        counted."""
        self.seen = view.in_view(public)
        self.refills = view.refills

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        """Count the cards a move showed."""
        # (only a pick can empty the deck and so reshuffle the discards)
        if outcome.drawn and view.refills != self.refills:
            self.recount(view)
            return
        if outcome.seat == self.seat:
            if isinstance(outcome.move, Pick):
                for card in outcome.drawn:
                    self.seen[card] += 1
        elif outcome.card != NO_CARD and (
            not isinstance(outcome.move, (Pick, Answer)) or outcome.coup_fourre
        ):
            self.seen[outcome.card] += 1

    def unseen(self, card: int) -> int:
        """Cards of this kind that may be in the deck or in other hands."""
        return self.deck[card] - self.seen[card]

    # ----- the decision ------------------------------------------------------

    def choose(self, view: SeatView) -> Move:
        """The move for its seat: a pick, a use, a discard or an answer."""
        legal = view.legal_moves()  # none unless this seat must decide
        move = settled(view, legal, self.seat, self.wants_extension)
        return _Turn(self, view, legal).best() if move is None else move

    def wants_extension(self, view: SeatView) -> bool:
        """At exactly 700: go on to 1000 only with a long deck, the other
        sides far behind (none rolling near the end) and miles in hand."""
        rules = view.rules
        end = rules.extension or view.target
        own = view.side_of(self.seat)
        model = view.model
        others = [view.tableaux[s - 1] for s in range(1, rules.sides + 1) if s != own]
        if any(o.mileage >= 600 or (o.mileage >= 450 and model.rolling(o)) for o in others):
            return False
        rounds = view.deck_size // rules.players
        me = view.tableaux[own - 1]
        left = end - me.mileage
        hand = [c for c in view.hand if 0 <= c <= D200]
        miles = sum(min(VALUES[c], left) for c in hand)
        shut_outs = sum(o.mileage == 0 for o in others)
        need_rounds = weights(rules).extension_rounds + 2 * shut_outs
        return rounds >= need_rounds and miles >= 100 * (1 + shut_outs) and not model.limited(me)

    # ----- saving --------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Its memory as JSON-able data (not its rng)."""
        return {
            "seat": self.seat,
            "deck": {NAMES[c]: n for c, n in enumerate(self.deck)},
            "seen": {NAMES[c]: n for c, n in enumerate(self.seen)},
            "refills": self.refills,
        }

    @classmethod
    def from_dict(cls, data: Any, rng: random.Random, seat: int) -> Heuristic:
        """Rebuild a memory saved by ``to_dict`` for ``seat``;
        :class:`HeuristicError` says what is wrong with it."""
        keys = ("seat", "deck", "seen", "refills")
        data = saved_object(data, keys, "heuristic", HeuristicError)
        saved = integer(data["seat"], "heuristic: seat", HeuristicError)
        if saved != seat:
            raise HeuristicError(f"heuristic: saved for seat {saved}, not seat {seat}")
        deck = card_counts(data["deck"], NAMES, "heuristic: deck", HeuristicError)
        if tuple(deck) not in _DECKS:
            raise HeuristicError("heuristic: deck is not the deck of any preset")
        seen = card_counts(data["seen"], NAMES, "heuristic: seen", HeuristicError)
        for card, n in enumerate(seen):
            if not 0 <= n <= deck[card]:
                raise HeuristicError(
                    f"heuristic: seen {NAMES[card]!r} must be 0 to {deck[card]}, not {n}"
                )
        refills = integer(data["refills"], "heuristic: refills", HeuristicError)
        if refills < 0:
            raise HeuristicError(f"heuristic: refills must be 0 or more, not {refills}")
        bot = cls(rng, seat)
        bot.deck, bot.seen, bot.refills = deck, seen, refills
        return bot


class _Turn:
    """One decision after the pick: the position seen from the seat."""

    def __init__(self, bot: Heuristic, view: SeatView, legal: list[Move]) -> None:
        self.bot = bot
        self.view = view
        self.legal = legal
        self.rules: Rules = view.rules
        self.model = view.model
        self.w = weights(view.rules)
        self.hand = view.hand
        self.own = self.rules.side_of(bot.seat)
        self.me = view.tableaux[self.own - 1]
        self.needs = _needs(view, self.me)
        self.target = view.target
        self.left = self.target - self.me.mileage
        self.opponents = [s for s in range(1, self.rules.sides + 1) if s != self.own]
        # an extension may still make cards beyond 700 playable
        self.may_extend = (
            self.rules.extension is not None
            and view.extender is None
            and self.target != self.rules.extension
        )

    # ----- the choice ---------------------------------------------------------

    def best(self) -> Move:
        scored: list[tuple[float, float, Move]] = []
        rng = self.bot.rng
        for move in self.legal:
            if isinstance(move, Use):
                scored.append((self.use_value(move), rng.random(), move))
        discards = computer_discards(self.legal, self.hand)
        best_use = max(scored, key=lambda x: (x[0], x[1])) if scored else None
        if best_use is not None and best_use[0] >= WEAK:
            return best_use[2]
        if discards:
            keep = [(self.keep_value(self.hand[m.slot]), rng.random(), m) for m in discards]
            worst = min(keep, key=lambda x: (x[0], x[1]))
            if best_use is None or worst[0] <= 0 or best_use[0] <= 0:
                return worst[2]
        assert best_use is not None, "a decision with no legal move"
        return best_use[2]

    # ----- uses -----------------------------------------------------------------

    def use_value(self, move: Use) -> float:
        card = self.hand[move.slot]
        if card == FALSE_VIRTUE:
            return 40.0
        if card >= EXTRA_TANK:
            return self.safety_value(card)
        if card <= D200:
            return self.distance_value(card)
        if card >= GASOLINE:
            return self.remedy_value(card)
        target = move.target if move.target is not None else other_side(self.own)
        return self.attack_value(card, target)

    def safety_value(self, card: int) -> float:
        me = self.me
        if card == RIGHT_OF_WAY:
            cures = (
                bool(self.needs)
                and self.needs[-1] == GO
                or self.model.limited(me)
                or (self.rules.battle == PROBLEMS and STOP in me.problems)
            )
        else:
            cures = opposite(card) in self._hazards_on_me()
        if cures:
            return CURE
        if self.end_near() or self.finishing():
            return FLUSH
        hazards = (STOP, SPEED_LIMIT) if card == RIGHT_OF_WAY else (opposite(card),)
        if all(self.bot.unseen(h) == 0 for h in hazards):
            return FLUSH  # no coup fourre can come any more
        return -1.0  # held back for a coup fourre

    def _can_move(self) -> bool:
        """It may play a distance card now."""
        return any(isinstance(m, Use) and 0 <= self.hand[m.slot] <= D200 for m in self.legal)

    def _hazards_on_me(self) -> set[int]:
        me = self.me
        if self.rules.battle == PROBLEMS:
            return set(me.problems)
        top, speed = self.model.tops(me)
        return {top, speed}

    def finishing(self) -> bool:
        """It holds a distance card that completes the trip now."""
        return any(
            isinstance(m, Use)
            and 0 <= self.hand[m.slot] <= D200
            and VALUES[self.hand[m.slot]] >= self.left
            for m in self.legal
        )

    def end_near(self) -> bool:
        """The hand may end before it can play a held safety."""
        view = self.view
        if not view.can_supply():
            return True
        players = self.rules.players
        if not self.rules.reshuffle and view.deck_size <= FLUSH_DECK * players:
            return True
        for tab in view.tableaux:
            if tab is self.me:
                continue
            left = self.target - tab.mileage
            if not self.model.rolling(tab):
                continue
            if left <= (50 if self.model.limited(tab) else FLUSH_LEFT):
                return True
        return False

    def distance_value(self, card: int) -> float:
        value = VALUES[card]
        if value >= self.left:
            return FINISH + (EXACT if value == self.left else 0.0)
        rest = self.left - value
        others = [c for c in self.hand if 0 <= c <= D200]
        others.remove(card)
        if _makes(rest, others, self._200s_left(card)):
            return value / 2 + 30
        return value / 2

    def _200s_left(self, played: int) -> int:
        limit = self.rules.max_200s
        if limit is None:
            return 99
        return limit - self.me.nummiles[D200] - (played == D200)

    def remedy_value(self, card: int) -> float:
        if card == END_OF_LIMIT:
            if self.left <= 50:
                return 1.0
            small = any(isinstance(m, Use) and self.hand[m.slot] in (D25, D50) for m in self.legal)
            big = any(2 <= c <= D200 and VALUES[c] <= self.left for c in self.hand)
            if not big:
                return 5.0
            return 20.0 if small else self.w.repair * 0.6
        return self.w.repair

    def attack_value(self, card: int, target: int) -> float:
        view = self.view
        opp = view.tableaux[target - 1]
        left = self.target - opp.mileage
        rolling = self.model.rolling(opp)
        if card == SPEED_LIMIT:
            if left <= 50:
                return 2.0
            damage = 45.0 if rolling else 30.0
            if left <= 100:
                damage /= 2
        elif rolling:
            damage = self.w.attack
            if len(self._needs_after(opp, card)) > 1:
                damage *= 1.0 + self.w.double
        else:
            before = _needs(view, opp)
            after = self._needs_after(opp, card)
            damage = 60.0 * (len(after) - len(before))
            if damage <= 0:
                return damage - 5
            if self.rules.battle == STACK:
                # the side is stopped already: the hazard mostly changes
                # which remedy it waits for, and it would stop a rolling
                # side later
                damage *= self.w.stacked
        if card in CRITICAL:
            # a hazard whose remedies are mostly in view lasts longer
            remedy = GO if card == STOP else opposite(card)
            total = self.bot.deck[remedy]
            if total:
                damage *= 1.0 + self.w.scarce * (1.0 - self.bot.unseen(remedy) / total)
        value = damage * self.threat(target) * self.time_left()
        if (
            self.rules.battle == PROBLEMS
            and not self.needs
            and self._can_move()
            and (left > self.w.last_leg or opp.mileage < self.me.mileage)
        ):
            # while rolling, miles first: every hazard brings a Stop, so the
            # chance to roll may not come back, and a hazard keeps
            value *= self.w.rolling
        # a coup fourre against it: its hazard wasted, 400 and a turn to them
        safety = safety_for(card)
        if self.bot.unseen(safety) > 0:
            value -= self.w.coup_risk * self._chance_held(target)
        if self.rules.karma:
            if self.me.karma and opp.karma:
                return min(value, 12.0)  # a clash: nothing lands, both lose karma
            if self.me.karma:
                value -= 10.0
        return value

    def time_left(self) -> float:
        """1 while the hand has many turns to go, less as its end nears
        (the deck out for good): stopping a side then denies it less."""
        view = self.view
        if self.rules.reshuffle and view.can_supply():
            return 1.0
        rounds = view.deck_size / self.rules.players
        if not view.deck_size:
            rounds = max(view.hand_sizes) / 2
        return min(1.0, 0.25 + rounds / 4)

    def threat(self, side: int) -> float:
        """How much stopping ``side`` matters: most for a side that may
        finish soon or leads, least for one far behind its own side."""
        opp = self.view.tableaux[side - 1]
        target = max(self.target, 1)
        threat = 1.0 + self.w.lead * opp.mileage / target
        if opp.mileage + 200 >= self.target:
            threat += 0.5
        mine = self.me.mileage
        if opp.mileage < mine:
            behind = self.w.behind
            threat *= behind + (1 - behind) * opp.mileage / mine
        if self.rules.sides > 2:
            lead = max(t.mileage for t in self.view.tableaux)
            if opp.mileage == lead:
                threat += 0.3
        return threat

    def _needs_after(self, opp: Tableau, card: int) -> list[int]:
        if self.rules.battle == PROBLEMS:
            problems = set(opp.problems) | {card}
            if card != STOP and RIGHT_OF_WAY not in opp.safeties:
                problems.add(STOP)
            needs = [opposite(p) for p in problems if is_breakdown(p)]
            return needs + ([GO] if STOP in problems else [])
        if is_breakdown(card):
            return [opposite(card)] + ([] if RIGHT_OF_WAY in opp.safeties else [GO])
        return [GO]

    def _chance_held(self, side: int) -> float:
        """The chance that the one unseen copy of a safety sits in one of
        ``side``'s hands rather than in the deck or elsewhere."""
        view = self.view
        sizes = view.hand_sizes
        held = sum(sizes[seat] for seat in self.rules.members(side))
        unknown = view.deck_size + sum(sizes) - sizes[self.bot.seat]
        return held / unknown if unknown else 1.0

    # ----- discards ---------------------------------------------------------------

    def keep_value(self, card: int) -> float:
        """How much a card is worth keeping (0 or less: it can never help)."""
        count = self.hand.count(card)
        if card == FALSE_VIRTUE:
            return 10.0 if self.me.karma else 45.0
        if card >= EXTRA_TANK:
            return 1000.0  # a safety: never discarded
        if card <= D200:
            return self._miles_keep(card, count)
        if card >= GASOLINE:
            return self._remedy_keep(card, count)
        return self._hazard_keep(card, count)

    def _miles_keep(self, card: int, count: int) -> float:
        """How much a distance card is worth keeping (``count`` in hand)."""
        value = VALUES[card]
        if value > self.left and self.rules.perfect_crossing:
            return 3.0 if self.may_extend else 0.0
        if card == D200 and self._200s_left(NO_CARD) <= 0:
            return 0.0
        if self.left <= 200 and value <= self.left:
            if value == self.left:
                return 60.0
            others = [c for c in self.hand if 0 <= c <= D200]
            others.remove(card)
            if _makes(self.left - value, others, self._200s_left(card)):
                return 50.0  # part of an exact finish in hand
            return 20 + value / 10
        return {D25: 8.0, D50: 14.0, 2: 24.0, 3: 38.0, D200: 48.0}[card] / math.sqrt(count)

    def _remedy_keep(self, card: int, count: int) -> float:
        """How much a remedy is worth keeping (``count`` in hand)."""
        bot = self.bot
        if card in self.needs and count == 1:
            return 100.0  # a second copy is a spare, as below
        if card == GO or card == END_OF_LIMIT:
            safety = RIGHT_OF_WAY
        else:
            safety = safety_for(card)
        if safety in self.me.safeties:
            return 0.0
        if safety in self.hand:
            return 4.0  # the coup fourre will answer the hazard
        if card == GO:
            return {1: 50.0, 2: 22.0}.get(count, 9.0)
        if card == END_OF_LIMIT:
            if self.left <= 50:
                return 1.0
            return 6.0 + 2.0 * bot.unseen(SPEED_LIMIT) / count
        coming = bot.unseen(opposite(card))
        if coming == 0:
            return 0.5
        keep = (12.0 + 8.0 * coming) / count
        if self._crowd():
            # many attackers and every hazard also stops: it will be hit
            # again soon, and a remedy in hand saves turns of waiting
            keep *= CROWD
        return keep

    def _hazard_keep(self, card: int, count: int) -> float:
        """How much a hazard is worth keeping (``count`` in hand): none
        if every opponent has its safety."""
        targets = [
            s for s in self.opponents if safety_for(card) not in self.view.tableaux[s - 1].safeties
        ]
        if not targets:
            return 0.0
        keep = 10.0 if card == SPEED_LIMIT else self.w.hazard_keep / math.sqrt(count)
        if self._crowd():
            keep *= HOARD  # another hazard comes soon enough: room for remedies
        return keep

    def _crowd(self) -> bool:
        """Three or more opposing sides under the problems model: a rolling
        side is hit again and again (every hazard also brings a Stop)."""
        return self.rules.battle == PROBLEMS and len(self.opponents) >= 3


def _makes(rest: int, cards: list[int], two_hundreds: int) -> bool:
    """Can some of ``cards`` (distances) add up to exactly ``rest``?"""
    sums = {0: 0}  # total -> 200s used
    for card in cards:
        value = VALUES[card]
        for total, used in list(sums.items()):
            new = total + value
            extra = used + (card == D200)
            if new <= rest and extra <= two_hundreds and sums.get(new, 99) > extra:
                sums[new] = extra
    return rest in sums


__all__ = ["Heuristic", "HeuristicError"]
