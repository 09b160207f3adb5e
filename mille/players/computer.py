"""The computer opponent: BSD mille's heuristic (comp.c, misc.c's check_ext).

The computer keeps exactly the memory BSD's computer keeps, and nothing more:

* ``seen``: how many of each card it has seen this hand (BSD ``Numseen``):
  its own dealt cards and draws, and every card the opponent uses or
  discards.  Its own plays and discards are not counted again.
* ``gos``: BSD's ``Numgos``, bumped when it takes in a hazard (one more Go
  needed) or one of the first three safeties (the hazards of that family it
  has not seen yet will not need remedies).  Only cards taken in while it is
  "the player to move" count, so its dealt hand counts only in the hands it
  starts: BSD accounts the deal with ``Play`` already set to the starter.
* ``need``: BSD's ``Numneed``, the estimate of remedies needed per hand.
  BSD initialises it once and never resets it, neither between hands nor
  between games; every turn it spends stopped by a hazard adds to it (twice
  per turn, as BSD's ``calcmove`` does).  We are faithful to that.
* ``safeties``: whether each of its own safeties is unknown, in hand or
  played.

It plays only cards comp.c's ``canplay`` accepts, which the table's
deck-empty rule asks too: one function for both, as in BSD
(:func:`mille.engine.battle.could_play`).

It never looks at the opponent's hand or at the order of the deck; it reads
only the board (tops, mileage, played safeties, who is rolling), the number
of cards left in the deck, and its own hand.

It plays the ``bsd`` preset of :class:`mille.engine.table.Table` from one seat
(0 or 1), whose side's cards are ``table.tableaux[seat]``.  It is a
:class:`mille.players.base.Player`: ``choose`` gives its move while the hand is
played, and its answer when the table asks it ``Extension?``.

Where BSD's C depends on an accident of the language, we keep the behaviour
and say so next to the code.  Two such points matter:

* ``cango`` is declared as curses ``bool`` but used as a counter of playable
  cards (``++cango``, ``if (--cango <= 0) goto redoit``).  With the original
  ``char`` bool it counts, which is plainly the intent; we count.
* ``onecard`` tests ``Numseen[S_RIGHT_WAY]``, i.e. ``Numseen[3]``: the count
  of 100s seen, not of Right of Way (3 is the safety-table index).  Kept.

>>> import random
>>> from mille.engine.rules import BSD
>>> from mille.engine.table import Table
>>> from mille.engine.view import SeatView
>>> table = Table.new(BSD, random.Random(7))
>>> bot, view = BsdComputer(random.Random(1), seat=0), SeatView(table, 0)
>>> bot.start_hand(view)
>>> sum(bot.seen), bot.gos  # its six cards; seat 0 starts, so its Accident counts
(6, 1)
>>> bot.choose(view)
Pick()
>>> bot.observe(view, table.apply(Pick()))
>>> move = bot.choose(view)
>>> table.check(move) is None
True
"""

from __future__ import annotations

import random

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

from ..engine.battle import could_play
from ..engine.cards import (
    ACCIDENT,
    CARD_NAMES,
    COUNTS,
    D25,
    D50,
    D75,
    D100,
    D200,
    END_OF_LIMIT,
    EXTRA_TANK,
    FLAT_TIRE,
    GASOLINE,
    GO,
    HAND_SLOTS,
    NO_CARD,
    NUM_KINDS,
    NUM_SAFETIES,
    OUT_OF_GAS,
    REPAIRS,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
    VALUES,
    opposite,
    safety_for,
)
from ..engine.table import (
    DISCARDS,
    EXTENSION,
    NO,
    PICK,
    PLAYING,
    USES,
    YES,
    Move,
    Outcome,
    Pick,
    Use,
)
from ..engine.tableau import Tableau
from ..engine.view import SeatView
from .memory import card_counts, integer, quote


class ComputerError(ValueError):
    """A misuse of the computer, or saved computer data that cannot be loaded;
    ``str()`` is the exact message."""


# what the computer knows about each of its own safeties (BSD S_*)
UNKNOWN = 0
IN_HAND = 1
PLAYED = 2
_STATUS_NAMES = ("unknown", "in hand", "played")

ROW = RIGHT_OF_WAY - EXTRA_TANK  # Right of Way's row in the safety table

# BSD's starting Numneed: remedies (and hazards) a hand is expected to need.
INITIAL_NEED: tuple[int, ...] = (
    0,
    0,
    0,
    0,
    0,
    2,
    2,
    2,
    4,
    3,
    2,
    2,
    2,
    10,
    3,
    1,
    1,
    1,
    1,
)

# BSD's End: 700, or 1000 once extended (misc.c's literals; the bsd preset's
# target and extension).
FIRST_END = 700
EXTENDED_END = 1000

VALUABLE = 40  # an exactly finishing distance (BSD V_VALUABLE)
QUARTER_DECK = 101 // 4

_HAZARDS_STOPPING = (OUT_OF_GAS, FLAT_TIRE, ACCIDENT, STOP)
_NO_VALUES = (0,) * HAND_SLOTS


def _is_repair(card: int) -> bool:
    """BSD's ``is_repair``: also true of an empty battle pile."""
    return card == NO_CARD or GASOLINE <= card <= REPAIRS


def _trunc_div(a: int, b: int) -> int:
    """C's integer division (rounds toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def needed_remedy(me: Tableau) -> int | None:
    """The remedy BSD's computer counts as needed when it decides on
    tableau ``me`` (stopped by a hazard), or None."""
    if not me.can_go and OUT_OF_GAS <= me.top <= STOP:
        return opposite(me.top)
    return None


def _hand_miles(hand: list[int]) -> int:
    """The distance in a hand (misc.c's sum for ``check_ext``)."""
    return sum(VALUES[c] for c in hand if 0 <= c <= D200)


class BsdComputer:
    """BSD mille's computer player for ``seat`` (see the module docstring)."""

    def __init__(self, rng: random.Random, seat: int = 1) -> None:
        if isinstance(seat, bool) or seat not in (0, 1):
            raise ComputerError(f"seat must be 0 or 1, not {seat!r}")
        self.rng = rng
        self.seat = seat
        self.seen = [0] * NUM_KINDS
        self.gos = 0
        # never reset (see the module docstring)
        self.need = list(INITIAL_NEED)
        self.safeties = [UNKNOWN] * NUM_SAFETIES

    @classmethod
    def from_view(
        cls,
        view: SeatView,
        rng: random.Random,
        public: Sequence[int] | None = None,
        need: Sequence[int] | None = None,
    ) -> BsdComputer:
        """The computer of ``view``'s seat taking up a hand under way (the
        expert's playouts and guesses): it counts as seen every card in
        view (``public``: the counts of ``SeatView.public_counts``, if
        already counted), knows which of its safeties it holds or has
        played, and starts from ``need`` (its Numneed) if given, BSD's
        first one otherwise; its Numgos starts at 0.

        >>> import random
        >>> from mille.engine.rules import BSD
        >>> from mille.engine.table import Table
        >>> view = SeatView(Table.new(BSD, random.Random(7)), 0)
        >>> bot = BsdComputer.from_view(view, random.Random(1))
        >>> bot.seat, sum(bot.seen), bot.gos, bot.need == list(INITIAL_NEED)
        (0, 6, 0, True)
        """
        seat = view.seat
        bot = cls(rng, seat)
        bot.seen = view.in_view(public)[: EXTRA_TANK + NUM_SAFETIES]
        own = view.tableaux[seat].safeties
        hand = view.hand
        bot.safeties = [
            PLAYED if EXTRA_TANK + i in own else IN_HAND if EXTRA_TANK + i in hand else UNKNOWN
            for i in range(NUM_SAFETIES)
        ]
        if need is not None:
            bot.need = list(need)
        return bot

    # ----- memory ---------------------------------------------------------

    def _account(self, card: int, my_turn: bool) -> None:
        """BSD's ``account``: a card has come into view."""
        if card == NO_CARD:
            return
        self.seen[card] += 1
        if not my_turn:
            return
        if EXTRA_TANK <= card < RIGHT_OF_WAY:
            hazard = opposite(card)
            self.gos += COUNTS[hazard] - self.seen[hazard]
        elif card in _HAZARDS_STOPPING:
            self.gos += 1

    def _take_in(self, card: int, my_turn: bool) -> None:
        """One of the computer's own cards (dealt or drawn)."""
        self._account(card, my_turn)
        if card >= EXTRA_TANK:
            self.safeties[card - EXTRA_TANK] = IN_HAND

    def start_hand(self, view: SeatView) -> None:
        """A new deal: forget the last hand, look at the six dealt cards."""
        self.seen = [0] * NUM_KINDS
        self.gos = 0
        self.safeties = [UNKNOWN] * NUM_SAFETIES
        my_turn = view.starter == self.seat
        for card in view.hand[1:]:
            self._take_in(card, my_turn)

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        """Remember what a move showed."""
        if outcome.seat == self.seat:
            if isinstance(outcome.move, Pick):
                for card in outcome.drawn:
                    self._take_in(card, True)
            elif isinstance(outcome.move, Use) and outcome.card >= EXTRA_TANK:
                self.safeties[outcome.card - EXTRA_TANK] = PLAYED
        elif not isinstance(outcome.move, Pick):
            # (an answer shows no card: ``card`` is NO_CARD)
            self._account(outcome.card, False)

    # ----- BSD's helpers --------------------------------------------------

    def _onecard(self, op: Tableau, end: int) -> bool:
        """comp.c's ``onecard``: could ``op`` conceivably win with one card?"""
        seen = self.seen
        # BSD reads Numseen[S_RIGHT_WAY]: index 3, the 100s (see top).
        row_seen = seen[D100]
        bat, spd = op.top, op.speed_top
        if not (
            op.can_go
            or ((_is_repair(bat) or bat == STOP or spd == SPEED_LIMIT) and row_seen != 0)
            or (bat >= 0 and seen[safety_for(bat)] != 0)
        ):
            return False
        left = end - op.mileage
        if left == 200:
            if op.nummiles[D200] == 2:
                return False
            card = D200
        elif left == 100:
            card = D100
        elif left == 75:
            card = D75
        elif left == 50:
            card = D50
        elif left == 25:
            card = D25
        else:
            return False
        if card >= D75 and spd == SPEED_LIMIT:
            return row_seen == 0
        return seen[card] != COUNTS[card]

    def _check_ext(self, view: SeatView, hand_miles: int) -> bool:
        """misc.c's ``check_ext`` for the computer: go on to 1000?

        ``hand_miles`` is the mileage in its hand, counted as BSD does: the
        card just played still in it.
        """
        if view.target != FIRST_END:
            return False
        known = sum(1 for s in self.safeties if s != UNKNOWN)
        if known < 2:
            return False
        op = view.tableaux[1 - self.seat]
        if op.mileage == 0 or self._onecard(op, view.target) or (op.can_go and op.mileage >= 500):
            return False
        unplaced = sum(
            1
            for i in range(NUM_SAFETIES)
            if EXTRA_TANK + i not in op.safeties and self.safeties[i] == UNKNOWN
        )
        if unplaced + known == NUM_SAFETIES:  # the opponent has played none
            return True
        return hand_miles + view.deck_size * 3 > EXTENDED_END

    def _note_need(self, me: Tableau) -> None:
        """Stopped by a hazard: one more of its remedy is needed per hand."""
        remedy = needed_remedy(me)
        if remedy is not None:
            self.need[remedy] += 1

    # ----- the decision -------------------------------------------------------

    def wants_extension(self, view: SeatView) -> bool:
        """It has just reached exactly 700 (the table asks it ``Extension?``):
        extend to 1000?

        BSD decides before the card leaves the hand, so the distance card
        just played counts as still in hand.  That card is the last one on
        its distance pile: only a distance card played by this seat can put
        the question to it.
        """
        miles = _hand_miles(view.hand)
        pile = view.tableaux[self.seat].miles
        if pile:
            miles += VALUES[pile[-1]]  # BSD decides before the card leaves the hand
        return self._check_ext(view, miles)

    def ask_extension(self, view: SeatView, hand_miles: int) -> bool:
        """calcmove's own question (BSD ``check_ext(TRUE)``): would it go on
        to 1000 if the distance card it holds took it exactly to the end?

        Asked while choosing a move, whenever it holds a playable distance
        card that makes exactly the end (always "no" once the end is 1000).
        Kept apart from ``wants_extension`` (the real ``Extension?`` at 700)
        so that an observer can see each question and its answer by
        overriding this method; the BSD trace replay in the tests does.
        """
        return self._check_ext(view, hand_miles)

    def choose(self, view: SeatView) -> Move:
        """The computer's move (BSD's ``calcmove``, always a legal move), or
        its answer when it is asked ``Extension?``."""
        phase = view.phase
        if phase == PLAYING and view.to_move == self.seat:
            hand = view.hand
            if hand[1] == NO_CARD and hand.count(NO_CARD) == HAND_SLOTS:
                # Unreachable in play: the table ends a hand whose player to
                # move has no cards (BSD's domove ends it too).
                return PICK if view.deck_size else DISCARDS[0]
            move, values = self._calcmove(view, hand)
            # (a pick comes only with slot P empty and cards in the deck:
            # always legal)
            if move is PICK or view.check(move) is None:
                return move
            return self._fallback(view, values)
        if phase == EXTENSION and view.asked == self.seat:
            return YES if self.wants_extension(view) else NO
        raise ComputerError(f"seat {self.seat} has nothing to decide")

    def _fallback(self, view: SeatView, values: Sequence[int]) -> Move:
        """BSD's pick would be refused (it would loop forever): play the
        best-valued legal card, else discard the lowest-valued one."""
        best: Move | None = None
        best_value = -(10**9)
        for slot, value in enumerate(values):
            if view.check(USES[slot]) is None and value >= best_value:
                best, best_value = USES[slot], value
        if best is not None:
            return best
        low_value = 10**9
        for slot, value in enumerate(values):
            if view.check(DISCARDS[slot]) is None and value < low_value:
                best, low_value = DISCARDS[slot], value
        if best is not None:
            return best
        return view.legal_moves()[0]

    def _calcmove(self, view: SeatView, hand: list[int]) -> tuple[Move, Sequence[int]]:
        seat = self.seat
        tableaux = view.tableaux
        me = tableaux[seat]
        op = tableaux[1 - seat]
        end = view.target
        deck_left = view.deck_size
        seen = self.seen
        own = self.safeties

        if hand[0] == NO_CARD and deck_left:
            # Before drawing only a coup fourre matters (the rest of BSD's
            # first pass has no effect when it then draws).
            for i in range(1, HAND_SLOTS):
                card = hand[i]
                if card >= EXTRA_TANK and (
                    me.top == opposite(card)
                    or (card == RIGHT_OF_WAY and me.speed_top == SPEED_LIMIT)
                ):
                    return USES[i], _NO_VALUES
            return PICK, _NO_VALUES

        # What can be played; a safety that cures what ails us goes at once.
        count = [0] * NUM_KINDS
        playit = [False] * HAND_SLOTS
        cango = 0
        canstop = False
        foundend = False
        safe = 0
        for i in range(HAND_SLOTS):
            card = hand[i]
            if card >= EXTRA_TANK:
                if me.top == opposite(card) or (
                    card == RIGHT_OF_WAY and me.speed_top == SPEED_LIMIT
                ):
                    return USES[i], _NO_VALUES
                safe += 1
                playit[i] = True
            elif card != NO_CARD and could_play(me, op, card, end):
                playit[i] = True
                cango += 1
                if card <= D200:
                    if me.mileage + VALUES[card] == end:
                        foundend = True
                elif card < SPEED_LIMIT:
                    canstop = True
                elif card == SPEED_LIMIT:
                    if seen[D25] == COUNTS[D25] and seen[D50] == COUNTS[D50]:
                        canstop = True
            if card != NO_CARD:
                count[card] += 1

        op_one = self._onecard(op, end)
        if foundend:
            foundend = not self.ask_extension(view, _hand_miles(hand))

        # Hold safeties back for a coup fourre, unless it is time to use them.
        for i in range(HAND_SLOTS):
            if not safe:
                break
            card = hand[i]
            if card < EXTRA_TANK:
                continue
            if op_one or (foundend and cango and not canstop):
                return USES[i], _NO_VALUES
            hazard = opposite(card)
            if seen[hazard] == COUNTS[hazard] and not (
                card == RIGHT_OF_WAY and seen[SPEED_LIMIT] != COUNTS[SPEED_LIMIT]
            ):
                return USES[i], _NO_VALUES
            # (BSD also tests "Topcard < Deck" here, which is never true.)
            if not cango and (op.can_go or not me.can_go):
                left = deck_left - self.rng.randint(1, 10)
                if (me.mileage == 0) != (op.mileage == 0):
                    left -= 7
                if left < QUARTER_DECK:
                    return USES[i], _NO_VALUES
            safe -= 1

        self._note_need(me)

        need = self.need
        values = [0] * HAND_SLOTS
        while True:  # BSD's "redoit": restarts with fewer playable cards
            restart = False
            foundlow = bool(
                cango
                or count[END_OF_LIMIT]
                or seen[SPEED_LIMIT] == COUNTS[SPEED_LIMIT]
                or own[ROW] != UNKNOWN
            )
            foundend = False
            count200 = me.nummiles[D200]
            badcount = 0
            curmax, curmin = -1, 101
            nummax = nummin = -1
            for i in range(HAND_SLOTS):
                card = hand[i]
                if card >= EXTRA_TANK or playit[i] != (cango != 0):
                    value = 0 if cango else 101
                elif card == NO_CARD:
                    value = 0
                elif card <= D200:
                    is_miles = True
                    if card <= D50:
                        diff = end - me.mileage
                        if (
                            deck_left
                            and cango
                            and diff <= 100
                            and diff // VALUES[card] > count[card]
                            and (card == D25 or diff % 50 == 0)
                            and not (card == D50 and diff == 75 and count[D25] > 0)
                        ):
                            # too close to the end: keep it for the finish
                            value = 0
                            is_miles = False
                            cango -= 1
                            if cango <= 0:
                                restart = True
                                break
                        else:
                            value = (VALUES[card] >> 3) + (1 if me.speed_top == SPEED_LIMIT else -1)
                            if not foundlow and (card == D50 or count[D50] == 0):
                                value = 10 if me.mileage else 20
                                foundlow = True
                    else:
                        count200 += card == D200
                        if count200 > 2 and card == D200:
                            value = 0
                            is_miles = False
                        else:
                            value = (VALUES[card] >> 3) + (-1 if me.speed_top == SPEED_LIMIT else 1)
                    if is_miles:
                        reach = me.mileage + VALUES[card]
                        if reach > end:
                            value = card if end == FIRST_END else 0
                        elif reach == end:
                            value = card if foundend else VALUABLE
                            foundend = True
                elif card >= GASOLINE:  # remedies
                    if card == GO:
                        if own[ROW] != UNKNOWN:
                            value = -1 if own[ROW] == PLAYED else 2
                        elif me.can_go and self.gos + count[GO] == need[GO]:
                            value = 0
                            count[GO] -= 1
                        else:
                            value = need[GO] * 3 + seen[GO] - self.gos
                            value = _trunc_div(value, count[GO] * count[GO])
                            count[GO] -= 1
                    else:
                        row = safety_for(card) - EXTRA_TANK
                        hazard = opposite(card)
                        as_repair = False
                        if own[row] != UNKNOWN:
                            value = -1 if own[row] == PLAYED else 1
                        elif card == END_OF_LIMIT:
                            if me.speed_top == SPEED_LIMIT and end - me.mileage <= 50:
                                value = 1
                            elif (
                                me.speed_top == SPEED_LIMIT
                                or seen[SPEED_LIMIT] != COUNTS[SPEED_LIMIT]
                            ):
                                as_repair = True
                            else:
                                value = 0
                                count[card] -= 1
                        elif me.top != hazard and (
                            seen[hazard] == COUNTS[hazard]
                            or seen[hazard] + count[card] > COUNTS[hazard]
                        ):
                            value = 0
                            count[card] -= 1
                        else:
                            as_repair = True
                        if as_repair:
                            # worth more the likelier its hazard still is
                            value = COUNTS[hazard] * 6 + seen[card] - seen[hazard]
                            if not cango:
                                value = _trunc_div(value, count[card] * count[card])
                            count[card] -= 1
                elif card == STOP:
                    if RIGHT_OF_WAY in op.safeties:
                        value = -1
                    else:
                        value = 3 if own[ROW] != UNKNOWN else 4
                        value *= COUNTS[STOP] + seen[GO]
                        if not me.mileage or foundend or op_one:
                            value += 5
                        if not cango:
                            badcount += 1
                            value = _trunc_div(value, badcount)
                        if op.mileage == 0:
                            value += 5
                        if op.speed_top == SPEED_LIMIT or not op.can_go:
                            value -= 5
                        if cango and own[ROW] != UNKNOWN:
                            value += 5
                else:  # Speed Limit, Out of Gas, Flat Tire, Accident
                    bad = True
                    if card == SPEED_LIMIT:
                        row, remedy = ROW, END_OF_LIMIT
                        if op.mileage + 50 >= end:
                            value = 1 if end == FIRST_END and not cango else 0
                            bad = False
                        elif canstop or (cango and not op.can_go):
                            value = 1
                            bad = False
                        else:
                            value = 2 if own[ROW] != UNKNOWN else 3
                    else:
                        row = safety_for(card) - EXTRA_TANK
                        remedy = opposite(card)
                        value = 3 if own[row] != UNKNOWN else 4
                    if bad:
                        # worth more the more it would hurt the opponent
                        if EXTRA_TANK + row in op.safeties:
                            value = -1
                        else:
                            value *= need[remedy] + seen[remedy] + 2
                            if not me.mileage or foundend or op_one:
                                value += 5
                            if op.mileage == 0 or op_one:
                                value += 5
                            if op.speed_top == SPEED_LIMIT:
                                value -= 3
                            if cango and own[row] != UNKNOWN:
                                value += 3
                            if not cango:
                                badcount += 1
                                value = _trunc_div(value, badcount)
                values[i] = value
                if card != NO_CARD:
                    if value >= curmax:
                        nummax, curmax = i, value
                    if value <= curmin:
                        nummin, curmin = i, value
            if not restart:
                break

        self._note_need(me)
        if nummin < 0 or nummax < 0:
            # BSD starts its search for the lowest value at 101.  As Numneed
            # grows without bound, every card can be worth more than that
            # and BSD then reads outside the hand (undefined behaviour).  We
            # take the true extreme instead (the last one, as BSD's ties).
            held = [i for i in range(HAND_SLOTS) if hand[i] != NO_CARD]
            if nummin < 0:
                low = min(values[i] for i in held)
                nummin = max(i for i in held if values[i] == low)
            if nummax < 0:
                high = max(values[i] for i in held)
                nummax = max(i for i in held if values[i] == high)
        if cango:
            return USES[nummax], values
        if hand[nummin] >= EXTRA_TANK:  # never discard a safety
            return USES[nummin], values
        return DISCARDS[nummin], values

    # ----- saving ---------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The computer's memory as JSON-able data (not its rng); ``player``
        is its seat."""
        return {
            "player": self.seat,
            "seen": {CARD_NAMES[c]: n for c, n in enumerate(self.seen)},
            "gos": self.gos,
            "need": {CARD_NAMES[c]: n for c, n in enumerate(self.need)},
            "safeties": {
                CARD_NAMES[EXTRA_TANK + i]: _STATUS_NAMES[s] for i, s in enumerate(self.safeties)
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], rng: random.Random, seat: int = 1) -> BsdComputer:
        """Rebuild the computer of ``seat`` saved by ``to_dict``;
        ``ComputerError`` (a ValueError) if the data is malformed or is
        another seat's."""
        bot = cls(rng, seat)
        if not isinstance(data, dict):
            raise ComputerError("computer: expected an object")
        keys = {"player", "seen", "gos", "need", "safeties"}
        unknown = sorted(set(data) - keys, key=str)
        if unknown:
            raise ComputerError(f"computer: unknown key {quote(unknown[0])}")
        missing = sorted(keys - set(data))
        if missing:
            raise ComputerError(f"computer: missing key {missing[0]!r}")
        player = integer(data["player"], "computer: player", ComputerError)
        if player not in (0, 1):
            raise ComputerError(f"computer: player must be 0 or 1, not {quote(player)}")
        if player != seat:
            raise ComputerError(f"computer: saved for seat {player}, not seat {seat}")
        seen = _read_seen(data["seen"])
        gos = integer(data["gos"], "computer: gos", ComputerError)
        if not 0 <= gos <= _MAX_GOS:
            raise ComputerError(f"computer: gos must be 0 to {_MAX_GOS}, not {quote(gos)}")
        need = _read_need(data["need"])
        safeties = _read_safeties(data["safeties"], seen)
        bot.seen, bot.gos, bot.need, bot.safeties = seen, gos, need, safeties
        return bot


# Numgos can grow by one per stopping hazard (10) and by the two hazards of
# each of the first three safeties' families (6).
_MAX_GOS = sum(COUNTS[h] for h in _HAZARDS_STOPPING) + sum(
    COUNTS[h] for h in (OUT_OF_GAS, FLAT_TIRE, ACCIDENT)
)


def card_index(name: str) -> int:
    return CARD_NAMES.index(name)


def _read_seen(raw: Any) -> list[int]:
    """A saved computer's ``seen``: how many of each card it saw."""
    seen = card_counts(raw, CARD_NAMES, "computer: seen", ComputerError)
    for card, n in enumerate(seen):
        if not 0 <= n <= COUNTS[card]:
            raise ComputerError(
                f"computer: seen {CARD_NAMES[card]!r} must be 0 to {COUNTS[card]}, not {quote(n)}"
            )
    return seen


def _read_need(raw: Any) -> list[int]:
    """A saved computer's ``need``: the remedies it wants, each at least as at the start."""
    need = card_counts(raw, CARD_NAMES, "computer: need", ComputerError)
    for card, n in enumerate(need):
        if GASOLINE <= card <= GO:
            if n < INITIAL_NEED[card]:
                raise ComputerError(
                    f"computer: need {CARD_NAMES[card]!r} must be at least "
                    f"{INITIAL_NEED[card]}, not {quote(n)}"
                )
        elif n != INITIAL_NEED[card]:
            raise ComputerError(
                f"computer: need {CARD_NAMES[card]!r} must be {INITIAL_NEED[card]}, not {quote(n)}"
            )
    return need


def _read_safeties(raw: Any, seen: list[int]) -> list[int]:
    """A saved computer's ``safeties``: what it knows of each (a safety
    it knows of was seen)."""
    if not isinstance(raw, dict):
        raise ComputerError("computer: safeties must be an object")
    names = [CARD_NAMES[EXTRA_TANK + i] for i in range(NUM_SAFETIES)]
    for key in raw:
        if key not in names:
            raise ComputerError(f"computer: safeties: unknown safety {quote(key)}")
    safeties = []
    for name in names:
        if name not in raw:
            raise ComputerError(f"computer: safeties: missing {name!r}")
        status = raw[name]
        if not isinstance(status, str) or status not in _STATUS_NAMES:
            raise ComputerError(
                f"computer: safeties: {name!r} must be one of "
                f"{', '.join(repr(s) for s in _STATUS_NAMES)}, not {quote(status)}"
            )
        code = _STATUS_NAMES.index(status)
        if code != UNKNOWN and seen[card_index(name)] != 1:
            raise ComputerError(f"computer: safeties: {name!r} is {status} but was never seen")
        safeties.append(code)
    return safeties
