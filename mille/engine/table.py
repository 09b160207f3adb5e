"""The N-seat engine: one table for every preset, the rules coming in as data.

Seats 0..N-1 each hold a private hand of 7 slots (0 = P); sides 1..S each
own one :class:`Tableau` (seat s plays for side ``s % S + 1``).  The rules
come in as a :class:`mille.engine.rules.Rules`; the battle model (``mille.engine.battle``)
keeps each side's battle and speed state.  Pure Python: no curses, no I/O,
no globals; randomness only through a passed ``random.Random``.

Every decision is a move: :class:`Pick`, :class:`Use` (with a target side
for a hazard when there are two or more opposing sides), :class:`Discard`,
and :class:`Answer` for ``Extension?`` and ``Coup Fourre?``.
``current_player`` is whoever must decide now.

Mile by Mile's reshuffle refills an empty deck from the discard pile
whenever a card is needed.  One guard, which ordinary races never meet,
keeps a race from going on for ever: after three refills in a row with no
mileage gained by anyone in between, the deck is not refilled again until
some side gains mileage; play goes on without picking and the race ends
as a run-out (nobody completes) once every hand is empty.

>>> import random
>>> from mille.engine.rules import BSD
>>> t = Table.new(BSD, random.Random(1))
>>> t.check(Use(1))
'must pick first'
>>> t.apply(Pick()).drawn == (t.hands[0][0],)
True
>>> t.check(Pick())
'already picked'
>>> from mille.engine.rules import find_rules
>>> t = Table.new(find_rules("classic", players=3), random.Random(1))
>>> len(t.deck), t.current_player, t.legal_moves()
(88, 0, [Pick()])
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, fields

from .battle import MODELS, BattleModel, TopModel
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
    HAZARDS,
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
from .rules import (
    ALL_AT_ZERO,
    BONUS_TO_COMPLETER,
    DECK_OUT_CANPLAY,
    DECK_OUT_RUN_OUT,
    EACH_AT_ZERO,
    OFFER,
    PROBLEMS,
    STACK,
    TIE_NO_GAME,
    WINDOW,
    Rules,
    Scoring,
    other_side,
)
from .rules import (
    TOP as TOP_BATTLE,
)
from .tableau import Tableau

IDLE_REFILLS = 3  # refills in a row with no mileage gained: no more after them

# phases
PLAYING = "playing"
EXTENSION = "extension"  # ``asked`` must answer Extension?
COUP = "coup"  # ``asked`` must answer Coup Fourre?
OVER = "hand over"


class IllegalMove(ValueError):
    """A move the rules refuse; ``str()`` is the exact message."""


@dataclass(frozen=True, slots=True)
class Pick:
    def __str__(self) -> str:
        return "P"


@dataclass(frozen=True, slots=True)
class Use:
    slot: int
    target: int | None = None  # a side number, for a hazard

    def __str__(self) -> str:
        where = "P" if self.slot == 0 else str(self.slot)
        return f"U{where}" + ("" if self.target is None else f">{self.target}")


@dataclass(frozen=True, slots=True)
class Discard:
    slot: int

    def __str__(self) -> str:
        return f"D{'P' if self.slot == 0 else self.slot}"


@dataclass(frozen=True, slots=True)
class Answer:
    yes: bool

    def __str__(self) -> str:
        return "y" if self.yes else "n"


Move = Pick | Use | Discard | Answer
PICK = Pick()
USES = tuple(Use(slot) for slot in range(HAND_SLOTS))
DISCARDS = tuple(Discard(slot) for slot in range(HAND_SLOTS))
_USE_AT = tuple(tuple(Use(slot, target) for target in range(10)) for slot in range(HAND_SLOTS))
YES = Answer(True)
NO = Answer(False)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a move did, for the front ends and the players' ``observe``:
    ``card`` used or discarded (or the safety of an accepted coup), ``drawn``
    the cards a pick took, in order."""

    seat: int
    move: Move
    card: int = NO_CARD
    drawn: tuple[int, ...] = ()
    coup_fourre: bool = False
    extra_turn: bool = False


@dataclass(frozen=True)
class Event:
    """A move that was made, for the front ends' logs: its outcome, the
    table's notices after it (``discard pile reshuffled``, karma), the phase
    it was made in (an Answer's question) and the mover's side's mileage
    after it."""

    outcome: Outcome
    notices: tuple[str, ...] = ()
    phase: str = PLAYING
    mileage: int = 0


@dataclass(frozen=True, slots=True)
class HandScore:
    """One side's score for a hand, row by row (BSD's score window)."""

    miles: int = 0
    safeties: int = 0
    all_four: int = 0
    coups: int = 0
    trip: int = 0
    safe_trip: int = 0
    delayed_action: int = 0
    extension: int = 0
    shut_out: int = 0
    perfect_crossing: int = 0

    @property
    def total(self) -> int:
        return (
            self.miles
            + self.safeties
            + self.all_four
            + self.coups
            + self.trip
            + self.safe_trip
            + self.delayed_action
            + self.extension
            + self.shut_out
            + self.perfect_crossing
        )


def _close_holes(hand: list[int]) -> None:
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


def deck_cards(rules: Rules) -> list[int]:
    """The preset's cards, unshuffled, in card order (False Virtues last)."""
    cards = [card for card, count in enumerate(rules.deck) for _ in range(count)]
    return cards + [FALSE_VIRTUE] * rules.false_virtues


@dataclass(slots=True, eq=False)
class Table:
    """A run of games under ``rules``: the current hand plus the side totals."""

    rules: Rules
    hands: list[list[int]]  # by seat, 7 slots each
    tableaux: list[Tableau]  # by side - 1
    deck: list[int]  # the top is the end of the list
    discard: list[int] = field(default_factory=list)  # top is the end
    target: int = 700
    to_move: int = 0
    starter: int = 0
    phase: str = PLAYING
    asked: int | None = None  # the seat asked Extension? or Coup Fourre?
    offer: tuple[int, int, int] | None = None  # coup: (side, safety, hazard)
    extender: int | None = None  # the side that extended (classic)
    totals: list[int] = field(default_factory=list)  # by side, before this hand
    games: list[int] = field(default_factory=list)
    ordering: bool = False  # keep seat 0's hand sorted (BSD's O command)
    set_aside: list[int] = field(default_factory=list)  # played False Virtues
    marks: list[int] = field(default_factory=list)  # mileages at the last refill
    seed: int = 0  # reshuffles: the n-th uses random.Random(seed * 1000003 + n)
    refills: int = 0
    # the last refills in a row each made with no mileage gained since the
    # one before (0 to IDLE_REFILLS - 1: with that many, IDLE_REFILLS refills
    # in a row gained nothing, and none is made until some side gains)
    idle_refills: int = 0
    # notices of the last move (``discard pile reshuffled``, karma), for the UI
    notices: list[str] = field(default_factory=list, compare=False)
    drawn: tuple[int, ...] = field(default=(), compare=False)  # by the last pick
    # derived from ``rules`` (not part of the state)
    _bsd: bool = field(init=False, compare=False, repr=False)  # BSD's coup window (TOP model)
    _model: BattleModel = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._bsd = self.rules.coup == WINDOW
        self._model = MODELS[self.rules.battle]
        if not self.marks:
            self.marks = [0] * self.rules.sides

    # ----- construction ----------------------------------------------------

    @classmethod
    def new(cls, rules: Rules, rng: random.Random, *, ordering: bool = False) -> Table:
        """Shuffle and deal the first hand; seat 0 starts."""
        t = cls(
            rules=rules,
            hands=[],
            tableaux=[],
            deck=[],
            totals=[0] * rules.sides,
            games=[0] * rules.sides,
            ordering=ordering,
        )
        t._deal(rng, 0)
        return t

    def _deal(self, rng: random.Random, starter: int) -> None:
        rules = self.rules
        deck = deck_cards(rules)
        rng.shuffle(deck)
        size = rules.hand_size
        self.deck = deck
        self.hands = []
        for _ in range(rules.players):
            if rules.rigging == "no duplicates":
                hand = [NO_CARD]
                for _ in range(size):
                    hand.append(self._take(hand))
                self.hands.append(hand)
            else:
                self.hands.append([NO_CARD] + [deck.pop() for _ in range(size)])
        problems = [STOP] if rules.battle == PROBLEMS else []
        self.tableaux = [
            Tableau(problems=problems[:], karma=rules.karma) for _ in range(rules.sides)
        ]
        self.discard = []
        self.set_aside = []
        self.marks = [0] * rules.sides
        self.refills = self.idle_refills = 0
        if rules.reshuffle:
            self.seed = rng.getrandbits(32)
        self.target = self.rules.target
        self.starter = self.to_move = starter
        self.phase = PLAYING
        self.asked = None
        self.offer = None
        self.extender = None
        if self.ordering:
            self.hands[0].sort()

    def new_hand(self, rng: random.Random) -> None:
        """Bank the hand's scores, settle a finished game, deal the next hand
        (started by the seat after this hand's starter)."""
        if self.phase != OVER:
            raise ValueError("the hand is not over")
        totals = [self.total(side) for side in range(1, self.rules.sides + 1)]
        if self.game_over:  # (classic, milebymile: never with a tie on top)
            best = max(totals)
            if totals.count(best) == 1:  # bsd: a tie wins nobody the game
                self.games[totals.index(best)] += 1
            totals = [0] * len(totals)
        self.totals = totals
        self._deal(rng, (self.starter + 1) % self.rules.players)

    def copy(self) -> Table:
        return Table(
            self.rules,
            [h[:] for h in self.hands],
            [tab.copy() for tab in self.tableaux],
            self.deck[:],
            self.discard[:],
            self.target,
            self.to_move,
            self.starter,
            self.phase,
            self.asked,
            self.offer,
            self.extender,
            self.totals[:],
            self.games[:],
            self.ordering,
            self.set_aside[:],
            self.marks[:],
            self.seed,
            self.refills,
            self.idle_refills,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return all(
            getattr(self, f.name) == getattr(other, f.name) for f in fields(self) if f.compare
        )

    # ----- seats, sides and the model --------------------------------------

    @property
    def is_bsd(self) -> bool:
        """BSD's flavour: the coup window, the deck-empty end, BSD's game end."""
        return self._bsd

    @property
    def model(self) -> BattleModel:
        return self._model

    def side_of(self, seat: int) -> int:
        return seat % self.rules.sides + 1

    def side_index(self, seat: int) -> int:
        return seat % self.rules.sides

    @property
    def current_player(self) -> int | None:
        """Who must decide now: the mover, or the seat asked a question."""
        if self.phase == PLAYING:
            return self.to_move
        if self.phase == OVER:
            return None
        return self.asked

    @property
    def hand_over(self) -> bool:
        return self.phase == OVER

    @property
    def game_over(self) -> bool:
        """The hand is over and a side's total reached the winning score
        (classic, milebymile: with a single side on top)."""
        if self.phase != OVER:
            return False
        totals = [self.total(side) for side in range(1, self.rules.sides + 1)]
        best = max(totals)
        if best < self.rules.winning_score:
            return False
        return self.rules.game_tie == TIE_NO_GAME or totals.count(best) == 1

    # ----- scores -------------------------------------------------------------

    def completing_side(self) -> int | None:
        if self.phase != OVER:
            return None
        for i, tab in enumerate(self.tableaux):
            if tab.mileage >= self.target:
                return i + 1
        return None

    def hand_score(self, side: int) -> HandScore:
        """This hand's score of ``side`` so far; trip rows once it is over."""
        sc: Scoring = self.rules.scoring
        tab = self.tableaux[side - 1]
        nsafe = len(tab.safeties)
        trip = safe = delayed = ext = shut = perfect = 0
        if self.phase == OVER and tab.mileage >= self.target:
            trip = sc.trip
            if sc.perfect_crossing is not None and tab.mileage == self.target:
                perfect = sc.perfect_crossing
            if tab.nummiles[D200] == 0:
                safe = sc.safe_trip
            if not self.deck and sc.delayed_action is not None:
                delayed = sc.delayed_action
            if (
                sc.extension is not None
                and self.rules.extension is not None
                and self.target == self.rules.extension
                and (sc.extension_to == BONUS_TO_COMPLETER or self.extender == side)
            ):
                ext = sc.extension
            others = [o.mileage for i, o in enumerate(self.tableaux) if i != side - 1]
            if sc.shut_out_rule == EACH_AT_ZERO:
                shut = sc.shut_out * others.count(0)
            elif sc.shut_out_rule == ALL_AT_ZERO:
                shut = sc.shut_out if all(m == 0 for m in others) else 0
            else:
                shut = sc.shut_out if others[0] == 0 else 0
        return HandScore(
            miles=min(tab.mileage, self.target),
            safeties=sc.safety * nsafe,
            all_four=sc.all_safeties if nsafe == NUM_SAFETIES else 0,
            coups=sc.coup * sum(tab.coups),
            trip=trip,
            safe_trip=safe,
            delayed_action=delayed,
            extension=ext,
            shut_out=shut,
            perfect_crossing=perfect,
        )

    def total(self, side: int) -> int:
        return self.totals[side - 1] + self.hand_score(side).total

    # ----- legality -------------------------------------------------------------

    def can_supply(self) -> bool:
        """The deck can supply a card: it is not empty, or a reshuffle may
        refill it (the option on, a discard pile; not after IDLE_REFILLS
        refills in a row with no mileage gained, until some side gains)."""
        if self.deck:
            return True
        if not self.rules.reshuffle or not self.discard:
            return False
        return self.idle_refills < IDLE_REFILLS - 1 or self._gained()

    def _gained(self) -> bool:
        """Some side's mileage grew since the last refill (or the deal)."""
        return any(tab.mileage > mark for tab, mark in zip(self.tableaux, self.marks))

    def _take(self, hand: list[int]) -> int:
        """The card a draw takes (``no duplicates``: the nearest the top
        whose name is not in ``hand``, else the top)."""
        deck = self.deck
        if self.rules.rigging == "no duplicates":
            for i in range(len(deck) - 1, -1, -1):
                if deck[i] not in hand:
                    return deck.pop(i)
        return deck.pop()

    def _draw(self, hand: list[int]) -> int:
        if not self.deck:
            rng = random.Random(self.seed * 1000003 + self.refills)
            self.deck = self.discard
            self.discard = []
            rng.shuffle(self.deck)
            self.idle_refills = self.idle_refills + 1 if self.refills and not self._gained() else 0
            self.refills += 1
            self.marks = [tab.mileage for tab in self.tableaux]
            self.notices.append("discard pile reshuffled")
        return self._take(hand)

    def _usable(self, seat: int, card: int) -> bool:
        """Could ``seat`` use ``card`` now (a hazard: on some side)?  A
        safety always can."""
        if card in SAFETIES:
            return True
        if card in HAZARDS and self.rules.sides > 2:
            own = self.side_of(seat)
            return any(
                self._model.check(self, seat, card, target) is None
                for target in range(1, self.rules.sides + 1)
                if target != own
            )
        return self._model.check(self, seat, card, other_side(self.side_of(seat))) is None

    def has_picked(self, seat: int, slot: int = 0) -> bool:
        """BSD's ``haspicked`` for a move naming ``slot``."""
        if not self.deck:
            return True
        hand = self.hands[seat]
        return hand[1 if is_safety(hand[slot]) else 0] != NO_CARD

    def check(self, move: Move) -> str | None:
        """None if whoever must decide may make ``move``, else the message."""
        phase = self.phase
        if phase != PLAYING:
            if phase == OVER:
                return "the hand is over"
            if isinstance(move, Answer):
                return None
            return (
                "extension decision pending"
                if phase == EXTENSION
                else "coup fourre decision pending"
            )
        if isinstance(move, Answer):
            return "no question pending"
        seat = self.to_move
        hand = self.hands[seat]
        if isinstance(move, Pick):
            if not self.deck and not self.can_supply():
                return "no more cards"
            if hand[0] != NO_CARD:
                return "already picked"
            return None
        card = hand[move.slot]
        if isinstance(move, Discard):
            if self._bsd:
                if not self.has_picked(seat, move.slot):
                    return "must pick first"
            elif hand[0] == NO_CARD and self.can_supply():
                return "must pick first"
            if card == NO_CARD:
                return "no card there"
            if card in SAFETIES and not self.rules.discard_safeties:
                return "discard a safety?"  # bsd (the others ask the person to confirm)
            if not self.rules.always_discard and self._usable(seat, card):
                return "that card is playable"
            return None
        return self._check_use(seat, card, move.target)

    def _check_use(self, seat: int, card: int, target: int | None) -> str | None:
        hand = self.hands[seat]
        if self._bsd:
            if card in SAFETIES:
                if (
                    hand[0] == NO_CARD
                    and self.deck
                    and not TopModel.is_coup(self.tableaux[self.side_index(seat)], card)
                ):
                    return "must pick first"
                return None
            if hand[0] == NO_CARD and self.deck:
                return "must pick first"
            if card == NO_CARD:
                return "no card there"
            if card in HAZARDS:
                target = 2 - self.side_index(seat)
            return self._model.check(self, seat, card, target or 0)
        if hand[0] == NO_CARD and self.can_supply():
            return "must pick first"
        if card == NO_CARD:
            return "no card there"
        if card in SAFETIES:
            return None
        if card in HAZARDS:
            sides = self.rules.sides
            own = self.side_of(seat)
            if target is None:
                if sides > 2:
                    return "which opponent?"
                target = other_side(own)
            elif not 1 <= target <= sides:
                return "no such opponent"
            elif target == own:
                return "can't attack your own side"
        return self._model.check(self, seat, card, target or 0)

    def discards_safety(self, move: Move) -> bool:
        """``move`` is a legal discard of a safety (outside bsd, which
        refuses it): the front ends ask a person ``Discard a safety?`` first."""
        return (
            isinstance(move, Discard)
            and self.phase == PLAYING
            and self.hands[self.to_move][move.slot] in SAFETIES
            and self.check(move) is None
        )

    def legal_moves(self) -> list[Move]:
        """Every move whoever must decide may make now (``check``'s verdicts,
        computed once per card kind)."""
        phase = self.phase
        if phase != PLAYING:
            return [] if phase == OVER else [YES, NO]
        seat = self.to_move
        hand = self.hands[seat]
        sides = self.rules.sides
        if hand[0] == NO_CARD and (self.deck or (not self._bsd and self.can_supply())):
            if not self._bsd:
                return [PICK]
            moves: list[Move] = [PICK]
            tab = self.tableaux[seat % sides]
            if tab.battle_window or tab.speed_window:
                for slot in range(1, HAND_SLOTS):
                    card = hand[slot]
                    if card in SAFETIES and TopModel.is_coup(tab, card):
                        moves.append(USES[slot])
            return moves
        moves = []
        model = self._model
        check = model.check
        own = seat % sides + 1
        other = other_side(own)  # the target of a hazard in a game of two sides
        verdicts: dict[int, bool] = {}
        any_discard = self.rules.always_discard
        safety_discards = any_discard and self.rules.discard_safeties
        for slot, card in enumerate(hand):
            if card < 0:
                continue
            if card in SAFETIES:  # always usable
                moves.append(USES[slot])
                if safety_discards:
                    moves.append(DISCARDS[slot])
                continue
            usable = False
            if sides > 2 and card in HAZARDS:
                for target in range(1, sides + 1):
                    if target != own and check(self, seat, card, target) is None:
                        moves.append(_USE_AT[slot][target])
                        usable = True
            else:
                ok = verdicts.get(card)
                if ok is None:
                    ok = verdicts[card] = check(self, seat, card, other) is None
                if ok:
                    moves.append(USES[slot])
                    usable = True
            if any_discard or not usable:
                moves.append(DISCARDS[slot])
        return moves

    # ----- moves -------------------------------------------------------------------

    def apply(self, move: Move) -> Outcome:
        """Make ``move`` for whoever must decide; ``IllegalMove`` if refused."""
        message = self.check(move)
        if message is not None:
            raise IllegalMove(message)
        seat = self.current_player
        assert seat is not None
        if isinstance(move, Pick):
            self.apply_unchecked(move)
            return Outcome(seat, move, drawn=self.drawn)
        if isinstance(move, Answer):
            offer = self.offer
            self.apply_unchecked(move)
            if offer is not None and move.yes:
                return Outcome(seat, move, card=offer[1], coup_fourre=True)
            return Outcome(seat, move)
        card = self.hands[seat][move.slot]
        coups = sum(self.tableaux[self.side_index(seat)].coups)
        self.apply_unchecked(move)
        if isinstance(move, Discard) or card not in SAFETIES:
            return Outcome(seat, move, card=card)
        coup = sum(self.tableaux[self.side_index(seat)].coups) > coups
        return Outcome(seat, move, card=card, coup_fourre=coup, extra_turn=True)

    def apply_unchecked(self, move: Move) -> None:
        """Make a move already known to be legal."""
        if self.notices:
            self.notices = []
        if isinstance(move, Answer):
            self._answer(move.yes)
            return
        seat = self.to_move
        hand = self.hands[seat]
        if isinstance(move, Pick):
            if self._bsd:
                hand[0] = self.deck.pop()
                if hand[1] == NO_CARD and self.deck:
                    hand[1] = self.deck.pop()
                    self.drawn = (hand[0], hand[1])
                else:
                    self.drawn = (hand[0],)
            else:
                hand[0] = self._draw(hand)
                if hand[1] == NO_CARD and self.can_supply():
                    hand[1] = self._draw(hand)
                    self.drawn = (hand[0], hand[1])
                else:
                    self.drawn = (hand[0],)
            if self._bsd:
                tab = self.tableaux[self.side_index(seat)]
                tab.battle_window = tab.speed_window = False
            _close_holes(hand)
            self._after_move()
            return
        card = hand[move.slot]
        hand[move.slot] = NO_CARD
        if isinstance(move, Discard):
            self.discard.append(card)
            self._tidy(seat)
            self._pass_turn(seat)
            return
        side = self.side_of(seat)
        tab = self.tableaux[side - 1]
        if card in SAFETIES:
            self._model.play_safety(self, side, card)
            self._tidy(seat)
            self._after_move()  # the same seat moves again
            return
        if card <= D200:
            self._model.play_distance(self, tab, card)
            tab.nummiles[card] += 1
            tab.mileage += VALUES[card]
            self._tidy(seat)
            if tab.mileage >= self.target:
                ext = self.rules.extension
                if ext is not None and self.target != ext and self.extender is None:
                    self._next_seat(seat)
                    self.phase = EXTENSION
                    self.asked = seat
                    return
                self.phase = OVER
                self._next_seat(seat)
                return
            self._pass_turn(seat)
            return
        target = move.target
        if card in HAZARDS and target is None:
            target = other_side(side)
        landed = self._model.play(self, seat, card, target or 0)
        self._tidy(seat)
        self._pass_turn(seat)
        if landed and self.rules.coup == OFFER and target is not None:
            safety = safety_for(card)
            for member in range(target - 1, self.rules.players, self.rules.sides):
                if safety in self.hands[member]:
                    self.phase = COUP
                    self.asked = member
                    self.offer = (target, safety, card)
                    break

    def _answer(self, yes: bool) -> None:
        asked = self.asked
        assert asked is not None
        self.asked = None
        if self.phase == EXTENSION:
            if yes:
                self.target = self.rules.extension or self.target
                self.extender = self.side_of(asked)
                self.phase = PLAYING
                self._after_move()
            else:
                self.phase = OVER
            return
        offer = self.offer
        assert offer is not None
        self.offer = None
        self.phase = PLAYING
        if yes:
            side, safety, hazard = offer
            hand = self.hands[asked]
            hand[hand.index(safety)] = NO_CARD
            self._tidy(asked)
            self._model.coup(self, side, safety, hazard)
            self.to_move = asked
            self._after_move()

    def _tidy(self, seat: int) -> None:
        if self.ordering and seat == 0:
            self.hands[0].sort()
        else:
            _close_holes(self.hands[seat])

    def _next_seat(self, seat: int) -> None:
        self.to_move = (seat + 1) % self.rules.players

    def _pass_turn(self, seat: int) -> None:
        self._next_seat(seat)
        self._after_move()

    def _after_move(self) -> None:
        """The deck-empty end of a hand, and the skip rule."""
        if self.deck or self.phase != PLAYING:
            return
        hands = self.hands
        if self.rules.deck_out == DECK_OUT_RUN_OUT and self.can_supply():
            return
        if self.rules.deck_out == DECK_OUT_CANPLAY:
            model = self._model
            assert isinstance(model, TopModel)
            if not any(self._bsd_could_play(model, seat) for seat in (0, 1)) or all(
                c == NO_CARD for c in hands[self.to_move]
            ):
                self.phase = OVER
            return
        n = self.rules.players
        seat = self.to_move
        for _ in range(n):
            if any(c != NO_CARD for c in hands[seat]):
                self.to_move = seat
                return
            seat = (seat + 1) % n
        self.phase = OVER

    def _bsd_could_play(self, model: TopModel, seat: int) -> bool:
        return any(
            c != NO_CARD and (c in SAFETIES or model.could_play(self, seat, c))
            for c in self.hands[seat]
        )

    def set_ordering(self, on: bool) -> None:
        self.ordering = on
        if on:
            self.hands[0].sort()

    # ----- consistency ------------------------------------------------------------

    def all_cards(self) -> list[int]:
        cards = self.deck + self.discard + self.set_aside
        for hand in self.hands:
            cards += [c for c in hand if c != NO_CARD]
        for tab in self.tableaux:
            cards += tab.cards()
        return cards

    def validate(self, *, strict: bool = False) -> None:
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
        rules = self.rules
        if len(self.hands) != rules.players:
            raise ValueError(f"{len(self.hands)} hands for {rules.players} seats")
        if len(self.tableaux) != rules.sides:
            raise ValueError(f"{len(self.tableaux)} tableaux for {rules.sides} sides")
        if (
            len(self.totals) != rules.sides
            or len(self.games) != rules.sides
            or len(self.marks) != rules.sides
        ):
            raise ValueError(f"totals, games and marks must have {rules.sides} entries")
        if any(c != FALSE_VIRTUE for c in self.set_aside):
            raise ValueError("only false virtues are set aside")
        if sorted(self.all_cards()) != deck_cards(rules):
            raise ValueError(f"cards are not the {rules.deck_size}-card deck")
        if strict and not rules.discard_safeties:
            for card in self.discard:
                if card in SAFETIES:
                    raise ValueError(f"a safety in the discard pile ({CARD_NAMES[card]})")
        ends = {rules.target} | ({rules.extension} if rules.extension else set())
        if self.target not in ends:
            raise ValueError(f"target must be one of {sorted(ends)}, not {self.target}")
        if not 0 <= self.to_move < rules.players:
            raise ValueError(f"no seat {self.to_move} to move")
        if not 0 <= self.starter < rules.players:
            raise ValueError(f"no seat {self.starter} to start")
        for seat, hand in enumerate(self.hands):
            if len(hand) != HAND_SLOTS:
                raise ValueError(f"seat {seat}: a hand has {HAND_SLOTS} slots")
            held = sum(c != NO_CARD for c in hand)
            mover = seat == self.to_move
            if held > (HAND_SLOTS if mover else HAND_SLOTS - 1):
                raise ValueError(f"seat {seat}: holds {held} cards")
            if not mover and hand[0] != NO_CARD and not (self.ordering and seat == 0):
                raise ValueError(f"seat {seat}: slot P filled outside its turn")
        for side, tab in enumerate(self.tableaux, 1):
            self._validate_tableau(side, tab, strict)
            score = self.hand_score(side)
            if (
                score.trip
                or score.safe_trip
                or score.delayed_action
                or score.extension
                or score.shut_out
                or score.perfect_crossing
            ) and self.completing_side() != side:
                raise ValueError(f"side {side}: trip rows without completing the trip")
        self._validate_totals(strict)
        self._validate_reshuffle()
        self._validate_phase(strict)

    def _validate_tableau(self, side: int, tab: Tableau, strict: bool) -> None:
        where = f"side {side}"
        problems_model = self.rules.battle == PROBLEMS
        played = tab.record if problems_model else tab.miles
        if any(not 0 <= c <= D200 for c in played):
            raise ValueError(f"{where}: only distances go on the distance pile")
        if tab.mileage != sum(VALUES[c] for c in played):
            raise ValueError(f"{where}: mileage does not match the distance pile")
        if tab.mileage > self.target and (self.rules.perfect_crossing or self.phase != OVER):
            raise ValueError(f"{where}: mileage over {self.target}")
        if tab.nummiles != [played.count(c) for c in range(5)]:
            raise ValueError(f"{where}: distance counts do not match the pile")
        if self.rules.max_200s is not None and tab.nummiles[D200] > self.rules.max_200s:
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
        if tab.karma and not self.rules.karma:
            raise ValueError(f"{where}: karma without the karma rule")
        if tab.needs_go and (self.rules.battle != STACK or GO not in tab.battle):
            raise ValueError(f"{where}: needs a Go again without a Go on its battle pile")
        if problems_model:
            self._validate_problems(where, tab)
            return
        if tab.record or tab.problems or tab.saved:
            raise ValueError(f"{where}: milebymile's problems under {self.rules.name}")
        if any(
            c <= D200 or c >= EXTRA_TANK or c in (SPEED_LIMIT, END_OF_LIMIT) for c in tab.battle
        ):
            raise ValueError(f"{where}: a card that cannot be on a battle pile")
        if any(c not in (SPEED_LIMIT, END_OF_LIMIT) for c in tab.speed):
            raise ValueError(f"{where}: a card that cannot be on a speed pile")
        if self.rules.battle == TOP_BATTLE:
            self._validate_tops(where, tab, strict)
            return
        self._validate_bsd_fields_unset(where, tab)
        if any(c != (SPEED_LIMIT if i % 2 == 0 else END_OF_LIMIT) for i, c in enumerate(tab.speed)):
            raise ValueError(f"{where}: the speed pile does not alternate from a speed limit")
        if tab.battle and is_hazard(tab.battle[-1]) and safety_for(tab.battle[-1]) in tab.safeties:
            raise ValueError(f"{where}: a battle top it is protected from")
        if tab.speed and tab.speed[-1] == SPEED_LIMIT and RIGHT_OF_WAY in tab.safeties:
            raise ValueError(f"{where}: a speed limit with right of way")

    def _validate_tops(self, where: str, tab: Tableau, strict: bool) -> None:
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
            speed_top not in (SPEED_LIMIT, END_OF_LIMIT)
            or not tab.speed
            or speed_top != tab.speed[-1]
        ):
            raise ValueError(f"{where}: the speed top is not the top of the speed pile")
        if strict and is_hazard(top) and safety_for(top) in tab.safeties:
            raise ValueError(f"{where}: a battle top it is protected from")
        if speed_top == SPEED_LIMIT and right_of_way:
            raise ValueError(f"{where}: a speed limit with right of way")
        if tab.can_go != (top == GO or (right_of_way and is_repair(top))):
            raise ValueError(f"{where}: can_go does not match the battle top")

    def _validate_bsd_fields_unset(self, where: str, tab: Tableau) -> None:
        if (tab.top, tab.speed_top, tab.can_go, tab.battle_window, tab.speed_window) != (
            NO_CARD,
            NO_CARD,
            False,
            False,
            False,
        ):
            raise ValueError(f"{where}: bsd's top-card fields set under {self.rules.name}")

    def _validate_problems(self, where: str, tab: Tableau) -> None:
        self._validate_bsd_fields_unset(where, tab)
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

    def _validate_totals(self, strict: bool) -> None:
        rules = self.rules
        # scores go in 25s, but Milestones Played stops at a race distance
        # that need not (milebymile, perfect crossing off)
        step = math.gcd(25, rules.target)
        for side, total in enumerate(self.totals, 1):
            if total < 0 or total % step:
                raise ValueError(f"side {side}: a total of {total} is not a score")
        best = max(self.totals)
        if (
            strict
            and best >= rules.winning_score
            and (rules.game_tie == TIE_NO_GAME or self.totals.count(best) == 1)
        ):
            raise ValueError(f"a total of {best} ended the game, but was not settled")
        if any(games < 0 for games in self.games):
            raise ValueError("a negative count of games won")

    def _validate_reshuffle(self) -> None:
        if not self.rules.reshuffle:
            if self.refills or self.seed or any(self.marks) or self.idle_refills:
                raise ValueError("reshuffle counters without the reshuffle rule")
            return
        if (
            not 0 <= self.seed < 2**32
            or self.refills < 0
            or not 0 <= self.idle_refills < IDLE_REFILLS
            or (self.idle_refills and self.idle_refills >= self.refills)
        ):
            raise ValueError("impossible reshuffle counters")
        for side, (tab, mark) in enumerate(zip(self.tableaux, self.marks), 1):
            if not 0 <= mark <= tab.mileage or mark % 25 or (mark and not self.refills):
                raise ValueError(f"side {side}: a mark of {mark} at {tab.mileage} miles")

    def _validate_phase(self, strict: bool) -> None:
        rules = self.rules
        phase = self.phase
        if phase not in (PLAYING, EXTENSION, COUP, OVER):
            raise ValueError(f"unknown phase {phase!r}")
        asked = self.asked
        if phase in (EXTENSION, COUP):
            if asked is None or not 0 <= asked < rules.players:
                raise ValueError(f"a {phase} question asked of nobody")
        elif asked is not None:
            raise ValueError("a question asked outside its phase")
        if self.offer is not None and phase != COUP:
            raise ValueError("a coup fourre offer outside its phase")
        extender = self.extender
        if extender is not None:
            if rules.extension is None or self.target != rules.extension:
                raise ValueError("an extender without an extension")
            if not 1 <= extender <= rules.sides:
                raise ValueError(f"no side {extender} to extend")
            if self.tableaux[extender - 1].mileage < rules.target:
                raise ValueError(f"side {extender} extended before reaching {rules.target}")
        elif rules.extension is not None and self.target == rules.extension:
            if strict:
                raise ValueError("an extension nobody called")
            if all(tab.mileage < rules.target for tab in self.tableaux):
                raise ValueError(f"an extension, but no side reached {rules.target}")
        reached = [side for side, tab in enumerate(self.tableaux, 1) if tab.mileage >= self.target]
        if asked is None:
            pass
        elif phase == EXTENSION:
            side = self.side_of(asked)
            if self.tableaux[side - 1].mileage != rules.target:
                raise ValueError("an extension decision for a side not at the target")
            if rules.extension is None or self.target == rules.extension:
                raise ValueError("an extension decision with no extension to call")
            if self.to_move != (asked + 1) % rules.players:
                raise ValueError("an extension decision out of turn")
            reached.remove(side)
        else:
            self._validate_offer(asked)
        if reached and phase != OVER:
            raise ValueError(f"the hand goes on, but side {reached[0]} has reached {self.target}")
        if strict and phase == OVER and not reached:
            if self.deck:
                raise ValueError("the hand is over, but nobody finished and the deck is not empty")
            if rules.deck_out == DECK_OUT_RUN_OUT and (
                self.can_supply() or any(c != NO_CARD for h in self.hands for c in h)
            ):
                raise ValueError("the hand is over, but cards are left to play")
        if phase == PLAYING and not self._bsd:
            hand = self.hands[self.to_move]
            if not self.can_supply() and all(c == NO_CARD for c in hand):
                raise ValueError("the player to move has no card and cannot pick")

    def _validate_offer(self, asked: int) -> None:
        if self.rules.coup != OFFER:
            raise ValueError(f"a coup fourre question under {self.rules.name}")
        if self.offer is None:
            raise ValueError("a coup fourre question without an offer")
        side, safety, hazard = self.offer
        if self.side_of(asked) != side or safety not in self.hands[asked]:
            raise ValueError("a coup fourre offer to a seat without the safety")
        if not is_hazard(hazard) or safety_for(hazard) != safety:
            raise ValueError("a coup fourre offer with the wrong safety")
        tab = self.tableaux[side - 1]
        pile = tab.speed if hazard == SPEED_LIMIT else tab.battle
        if (
            not pile
            or pile[-1] != hazard
            or (self.rules.battle == PROBLEMS and hazard not in tab.problems)
        ):
            raise ValueError("a coup fourre offer for a hazard that did not land")
