"""What the learned computer knows of a move: features read from a seat's view.

Every feature is computed from the seat's :class:`~mille.engine.view.SeatView`
alone: its own hand, every tableau, the discard and set-aside piles, the
deck's size and the cards it cannot see (their counts, not where they are),
the options of the rules in force.  The other hands and the order of the
deck are not in a view, so no feature can read them; a test shuffles the
hidden cards and checks that nothing here changes.  Whether another seat
was asked ``Coup Fourre?`` is not read either (declining is silent at a
real table).

A decision's features are one mapping per candidate move, name to value;
most are 0 and are left out.  They say what the move does (its kind and
card: ``use:75``, ``attack:Stop``, ``discard:Go``), what the preset's
rules-aware heuristic makes of it (``heuristic:choice`` is 1 for the move
it would make, ``heuristic:value`` its worth squashed to -1..1), and how
the move meets the position: the distance left, a remedy its side needs,
how near the target side is to finishing, the chance of a coup fourre
against a hazard, how much of the deck is left.  Only differences between
the candidates of one decision matter to a model that compares them, so
each feature belongs to a move.

A model may weigh the features differently in each *family* of presets
(:func:`family`): the battle model and whether two sides race or more.

>>> import random
>>> from mille.engine.rules import find_rules
>>> from mille.engine.table import Pick, Table
>>> from mille.engine.view import SeatView
>>> table = Table.new(find_rules("classic"), random.Random(3))
>>> _ = table.apply(Pick())
>>> view = SeatView(table, 0)
>>> decision = Decision(view, random.Random(1))
>>> len(decision.moves) == len(decision.features) >= 2
True
>>> sum(f.get("heuristic:choice", 0.0) for f in decision.features)
1.0
>>> family(view.rules)
'stack/2'
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..engine.cards import (
    ALL_NAMES,
    D200,
    END_OF_LIMIT,
    EXTRA_TANK,
    GASOLINE,
    NO_CARD,
    RIGHT_OF_WAY,
    SPEED_LIMIT,
    STOP,
    VALUES,
    opposite,
    safety_for,
)
from ..engine.rules import Rules, other_side
from ..engine.table import Discard, Move, Use
from ..engine.tableau import Tableau
from ..engine.view import SeatView
from .base import computer_discards
from .heuristic import KINDS, Heuristic, _makes, _Turn

ACTIONS = ("use", "attack", "discard")


def family(rules: Rules) -> str:
    """The family of presets ``rules`` belongs to, for a model's weights:
    the battle model and ``2`` (a duel of two sides) or ``n`` (more)."""
    return f"{rules.battle}/{'2' if rules.sides == 2 else 'n'}"


def _feature_names() -> tuple[str, ...]:
    names: list[str] = ["heuristic:choice", "heuristic:value"]
    for action in ACTIONS:
        names += [f"{action}:{name}" for name in ALL_NAMES]
        names += [f"{action}*{c}" for c in ("deck", "mine", "lead", "stopped", "end")]
    names += [
        "dist:value",
        "dist:finish",
        "dist:exact",
        "dist:rest",
        "dist:makes",
        "dist:last200",
        "remedy:needed",
        "remedy:first",
        "remedy:spare",
        "safety:cures",
        "safety:unseen",
        "safety:end",
        "attack:rolling",
        "attack:side",
        "attack:ahead",
        "attack:near",
        "attack:coup",
        "attack:doubled",
        "attack:leader",
        "attack:clash",
        "discard:dead",
        "discard:copies",
        "discard:keep",
        "discard:needed",
    ]
    return tuple(names)


# every feature a model may weigh, in the order a weights file lists them
FEATURE_NAMES: tuple[str, ...] = _feature_names()


def _squash(value: float, scale: float) -> float:
    return math.tanh(value / scale)


class Decision:
    """One decision of a seat after its pick: the candidate moves (one per
    distinct thing to do: never the discard of a safety) and their features.

    ``rng`` breaks the heuristic's ties (its choice is a feature)."""

    def __init__(self, view: SeatView, rng: random.Random, legal: Sequence[Move] | None = None):
        legal = list(view.legal_moves() if legal is None else legal)
        self.view = view
        rules = view.rules
        bot = Heuristic(rng, view.seat)
        bot.deck = list(rules.deck) + [rules.false_virtues]
        unseen = view.unseen()
        bot.seen = [bot.deck[k] - unseen[k] for k in range(KINDS)]
        bot.refills = view.refills
        self.unseen = unseen
        turn = _Turn(bot, view, legal)
        self.turn = turn
        self.heuristic_move = turn.best()
        hand = view.hand
        moves: list[Move] = []
        keys: set[tuple[int, int, int | None]] = set()
        discards = computer_discards(legal, hand)
        for move in legal:
            if isinstance(move, Use):
                key = (0, hand[move.slot], move.target)
            elif move in discards:
                assert isinstance(move, Discard)
                key = (1, hand[move.slot], None)
            else:
                continue
            if key not in keys:
                keys.add(key)
                moves.append(move)
        self.moves = moves
        self.keys = keys
        chosen = self._key(self.heuristic_move)
        self._context()
        self.features = [self._features(move, self._key(move) == chosen) for move in moves]

    def _key(self, move: Move) -> tuple[int, int, int | None]:
        hand = self.view.hand
        if isinstance(move, Use):
            return (0, hand[move.slot], move.target)
        if isinstance(move, Discard):
            return (1, hand[move.slot], None)
        return (2, NO_CARD, None)

    def _context(self) -> None:
        view = self.view
        turn = self.turn
        rules = view.rules
        self.target = max(view.target, 1)
        size = sum(rules.deck) + rules.false_virtues
        self.deck_frac = view.deck_size / size
        me = turn.me
        self.mine = me.mileage / self.target
        others = [view.tableaux[s - 1] for s in turn.opponents]
        best = max((o.mileage for o in others), default=0)
        self.lead = (me.mileage - best) / self.target
        self.stopped = 1.0 if turn.needs else 0.0
        self.end = 1.0 if turn.end_near() else 0.0

    def _features(self, move: Move, chosen: bool) -> dict[str, float]:
        turn = self.turn
        hand = self.view.hand
        card = hand[move.slot] if isinstance(move, (Use, Discard)) else NO_CARD
        f: dict[str, float] = {}
        if chosen:
            f["heuristic:choice"] = 1.0
        name = ALL_NAMES[card]
        if isinstance(move, Discard):
            action = "discard"
            keep = turn.keep_value(card)
            f["heuristic:value"] = -_squash(keep, 50.0)
            self._discard(f, card, keep)
        elif 5 <= card <= SPEED_LIMIT:
            action = "attack"
            assert isinstance(move, Use)
            target = move.target if move.target is not None else other_side(turn.own)
            f["heuristic:value"] = _squash(turn.use_value(move), 100.0)
            self._attack(f, card, target)
        else:
            action = "use"
            assert isinstance(move, Use)
            value = turn.use_value(move)
            f["heuristic:value"] = _squash(value if value < 1000 else 300.0, 100.0)
            self._use(f, card, move)
        f[f"{action}:{name}"] = 1.0
        for label, value in (
            ("deck", self.deck_frac),
            ("mine", self.mine),
            ("lead", self.lead),
            ("stopped", self.stopped),
            ("end", self.end),
        ):
            if value:
                f[f"{action}*{label}"] = value
        return {k: v for k, v in f.items() if v}

    def _use(self, f: dict[str, float], card: int, move: Use) -> None:
        turn = self.turn
        if card <= D200:
            value = VALUES[card]
            left = turn.left
            f["dist:value"] = value / 200
            if value >= left:
                f["dist:finish"] = 1.0
                f["dist:exact"] = 1.0 if value == left else 0.0
            else:
                rest = left - value
                f["dist:rest"] = rest / self.target
                others = hand_distances(self.view.hand)
                others.remove(card)
                f["dist:makes"] = 1.0 if _makes(rest, others, turn._200s_left(card)) else 0.0
            if card == D200 and turn._200s_left(card) == 0:
                f["dist:last200"] = 1.0
        elif GASOLINE <= card <= END_OF_LIMIT:
            needs = turn.needs
            if card in needs:
                f["remedy:needed"] = 1.0
                f["remedy:first"] = 1.0 if needs[0] == card else 0.0
            else:
                f["remedy:spare"] = 1.0
        elif EXTRA_TANK <= card <= RIGHT_OF_WAY:
            f["safety:cures"] = 1.0 if turn.safety_value(card) >= 10000 else 0.0
            hazards = (STOP, SPEED_LIMIT) if card == RIGHT_OF_WAY else (opposite(card),)
            f["safety:unseen"] = sum(self.unseen[h] for h in hazards) / 10
            f["safety:end"] = self.end

    def _attack(self, f: dict[str, float], card: int, target: int) -> None:
        turn = self.turn
        view = self.view
        opp: Tableau = view.tableaux[target - 1]
        rolling = turn.model.rolling(opp)
        f["attack:rolling"] = 1.0 if rolling else 0.0
        f["attack:side"] = opp.mileage / self.target
        f["attack:ahead"] = (opp.mileage - turn.me.mileage) / self.target
        f["attack:near"] = 1.0 if opp.mileage + 200 >= turn.target else 0.0
        if self.unseen[safety_for(card)] > 0:
            f["attack:coup"] = turn._chance_held(target)
        f["attack:doubled"] = 1.0 if len(turn._needs_after(opp, card)) > 1 else 0.0
        lead = max(t.mileage for t in view.tableaux)
        f["attack:leader"] = 1.0 if opp.mileage == lead else 0.0
        if view.rules.karma and turn.me.karma and opp.karma:
            f["attack:clash"] = 1.0

    def _discard(self, f: dict[str, float], card: int, keep: float) -> None:
        turn = self.turn
        f["discard:dead"] = 1.0 if keep <= 0 else 0.0
        f["discard:copies"] = float(self.view.hand.count(card) - 1)
        f["discard:keep"] = _squash(keep, 50.0)
        if card in turn.needs:
            f["discard:needed"] = 1.0


def hand_distances(hand: Sequence[int]) -> list[int]:
    """The distance cards in ``hand``."""
    return [c for c in hand if 0 <= c <= D200]
