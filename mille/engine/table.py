"""The N-seat engine: one table for every preset, the rules coming in as data.

A :class:`Table` is the table's state (``mille.engine.state``) with its
moves: ``apply`` checks a move and makes it (the card moves, the turn
passes, a question is put, the hand ends), and the table's other concerns
are bound to it from their modules: dealing and drawing (``deal``),
whether a move is legal and which are (``legality``), the score rows and
the end of a game (``scoring``), the consistency checks (``validation``).
The move types, ``Outcome`` and ``Event`` are in ``moves``; all of these
names can be imported from here too.  The rules come in as a
:class:`mille.engine.rules.Rules`; the battle model (``mille.engine.battle``)
keeps each side's battle and speed state.  Pure Python: no curses, no
I/O, no globals; randomness only through a passed ``random.Random``.

``current_player`` is whoever must decide now.

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

import random

from . import deal, legality, scoring, validation
from .battle import TopModel
from .cards import D200, HAZARDS, NO_CARD, SAFETIES, VALUES, safety_for
from .deal import IDLE_REFILLS, can_supply, close_holes, deck_cards, draw
from .moves import (
    COUP,
    DISCARDS,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    USES,
    YES,
    Answer,
    Discard,
    Event,
    IllegalMove,
    Move,
    Outcome,
    Pick,
    Use,
)
from .rules import DECK_OUT_CANPLAY, DECK_OUT_RUN_OUT, OFFER, Rules, other_side
from .scoring import HandScore
from .state import State

_new = object.__new__

__all__ = [
    "COUP",
    "DISCARDS",
    "EXTENSION",
    "IDLE_REFILLS",
    "NO",
    "OVER",
    "PICK",
    "PLAYING",
    "USES",
    "YES",
    "Answer",
    "Discard",
    "Event",
    "HandScore",
    "IllegalMove",
    "Move",
    "Outcome",
    "Pick",
    "Table",
    "Use",
    "deck_cards",
]


class Table(State):
    """A run of games under ``rules``: the current hand plus the side totals,
    and the moves that change them."""

    __slots__ = ()

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
        deal.deal(t, rng, 0)
        return t

    def copy(self) -> Table:
        """An independent copy (the notices and the cards drawn start empty).

        Made field by field, without ``__init__``: the search players copy
        a table for every playout."""
        t = _new(Table)
        t.rules = self.rules
        t.hands = [h[:] for h in self.hands]
        t.tableaux = [tab.copy() for tab in self.tableaux]
        t.deck = self.deck[:]
        t.discard = self.discard[:]
        t.target = self.target
        t.to_move = self.to_move
        t.starter = self.starter
        t.phase = self.phase
        t.asked = self.asked
        t.offer = self.offer
        t.extender = self.extender
        t.totals = self.totals[:]
        t.games = self.games[:]
        t.ordering = self.ordering
        t.set_aside = self.set_aside[:]
        t.marks = self.marks[:]
        t.seed = self.seed
        t.refills = self.refills
        t.idle_refills = self.idle_refills
        t.owed = self.owed
        t.notices = []
        t.drawn = ()
        t.ordered = self.ordered
        t._model = self._model
        t._window = self._window
        t._plain_draw = self._plain_draw
        return t

    # ----- the other concerns, bound from their modules (no call of their own) ----

    new_hand = deal.new_hand
    can_supply = deal.can_supply
    has_picked = legality.has_picked
    check = legality.check
    discards_safety = legality.discards_safety
    legal_moves = legality.legal_moves
    completing_side = scoring.completing_side
    hand_score = scoring.hand_score
    total = scoring.total
    validate = validation.validate

    @property
    def game_over(self) -> bool:
        """The hand is over and a side's total reached the winning score
        (classic, milebymile: with a single side on top)."""
        return scoring.game_over(self)

    # ----- moves -------------------------------------------------------------------

    def apply(self, move: Move) -> Outcome:
        """Make ``move`` for whoever must decide; ``IllegalMove`` if refused."""
        message = self.check(move)
        if message is not None:
            raise IllegalMove(message)
        # (legal: a move while the hand is played, or an answer to a question)
        seat = self.to_move if self.phase == PLAYING else self.asked
        assert seat is not None
        if isinstance(move, Pick):
            self.apply_unchecked(move)
            return Outcome(seat, move, NO_CARD, self.drawn)
        if isinstance(move, Answer):
            return self.apply_answer(seat, move)
        card = self.hands[seat][move.slot]
        if isinstance(move, Discard) or card not in SAFETIES:
            self.apply_unchecked(move)
            return Outcome(seat, move, card)
        tab = self.tableaux[seat % self.rules.sides]
        coups = sum(tab.coups)
        self.apply_unchecked(move)
        return Outcome(seat, move, card, (), sum(tab.coups) > coups, True)

    def apply_answer(self, seat: int, move: Answer) -> Outcome:
        """``seat``'s answer, already known to be legal; its outcome (a
        coup fourre's safety played, when it says yes to one)."""
        offer = self.offer
        self.apply_unchecked(move)
        if offer is not None and move.yes:
            return Outcome(seat, move, card=offer[1], coup_fourre=True)
        return Outcome(seat, move)

    def apply_unchecked(self, move: Move) -> None:
        """Make a move already known to be legal."""
        if self.notices:
            self.notices = []
        if isinstance(move, Answer):
            self._answer(move.yes)
            return
        seat = self.to_move
        hand = self.hands[seat]
        owed = self.owed  # (the coup's card: the mover's next move settles it)
        if owed:
            self.owed = False
        if isinstance(move, Pick):
            if self._plain_draw:  # no reshuffle, no rigging: the top card (a legal pick has one)
                deck = self.deck
                hand[0] = deck.pop()
                if hand[1] == NO_CARD and deck:
                    hand[1] = deck.pop()
                    self.drawn = (hand[0], hand[1])
                else:
                    self.drawn = (hand[0],)
            else:  # (no tidy after it: with the reshuffle, a hand short after turns
                # without picking keeps the card in slot P: picked, one a turn)
                hand[0] = draw(self, hand)
                if owed and hand[1] == NO_CARD and can_supply(self):
                    hand[1] = draw(self, hand)
                    self.drawn = (hand[0], hand[1])
                else:
                    self.drawn = (hand[0],)
            if self._window:  # the pick closes the side's coup fourre windows
                tab = self.tableaux[self.side_index(seat)]
                tab.battle_window = tab.speed_window = False
            if self._plain_draw:
                close_holes(hand)  # BSD's tidy
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
            self._play_safety(seat, side, card)
            return
        if card <= D200:
            self._model.play_distance(self, tab, card)
            tab.nummiles[card] += 1
            tab.mileage += VALUES[card]
            self._tidy(seat)
            if tab.mileage >= self.target:
                self._arrived(seat)
            else:
                self._pass_turn(seat)
            return
        self._play_card(seat, side, card, move.target)

    def _play_card(self, seat: int, side: int, card: int, target: int | None) -> None:
        """``seat`` plays a remedy, or a hazard on side ``target`` (None:
        the other side of two); a hazard that landed may offer a coup fourre."""
        if card in HAZARDS and target is None:
            target = other_side(side)
        landed = self._model.play(self, seat, card, target or 0)
        self._tidy(seat)
        self._pass_turn(seat)
        if landed and self.rules.coup == OFFER and target is not None:
            self._offer_coup(target, card)

    def _play_safety(self, seat: int, side: int, card: int) -> None:
        """``seat`` plays a safety for ``side``, and moves again."""
        self._model.play_safety(self, side, card)
        self._tidy(seat)
        self._after_move()  # the same seat moves again

    def _arrived(self, seat: int) -> None:
        """``seat``'s side reached the target: Extension? where the rules
        have one not yet taken, else the hand is over."""
        ext = self.rules.extension
        if ext is not None and self.target != ext and self.extender is None:
            self._next_seat(seat)
            self.phase = EXTENSION
            self.asked = seat
            return
        self.phase = OVER
        self._next_seat(seat)

    def _offer_coup(self, target: int, card: int) -> None:
        """A hazard landed on side ``target``: its first member holding the
        safety is asked Coup Fourre? (the rules' OFFER)."""
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
            self.owed = self.phase == PLAYING and self.to_move == asked

    def _tidy(self, seat: int) -> None:
        if self.ordering and seat in self.ordered:
            self.hands[seat].sort()
        else:
            close_holes(self.hands[seat])

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
        deck_out = self.rules.deck_out
        if deck_out == DECK_OUT_RUN_OUT and can_supply(self):
            return
        if deck_out == DECK_OUT_CANPLAY:
            model = self._model
            assert isinstance(model, TopModel)
            if not any(self._canplay(model, seat) for seat in range(self.rules.players)) or all(
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

    def _canplay(self, model: TopModel, seat: int) -> bool:
        """BSD's ``canplay``: ``seat`` holds a card it could play."""
        return any(
            c != NO_CARD and (c in SAFETIES or model.could_play(self, seat, c))
            for c in self.hands[seat]
        )

    def set_ordering(self, on: bool) -> None:
        self.ordering = on
        if on:
            for seat in self.ordered:
                self.hands[seat].sort()
