"""A learned value of the position: the chance that a seat's side wins the hand.

The expert's search may cut a playout short and score the position it
reached with this value instead of playing the hand to its end
(``mille.players.search``, ``Budget.horizon``).  The value reads the
seat's own view only (:func:`state_features`: both sides' mileage and
distance to go, who rolls, who is limited, the safeties and coups, the
deck left, the counts of each card in the seat's hand, the unseen hazards
and safeties) and is a logistic model: a weighted sum of those features,
squashed to a chance by the sigmoid.  Pure Python: a few microseconds a
position, no numpy.

Each *family* of tables has its own weights (:func:`family`): ``duel``
(two seats), ``teams`` (two sides of two or more seats) and ``sides``
(three sides or more).  The other side a feature reads is the opposing
side furthest along.

The weights are a versioned data file inside the package
(``mille/players/data/value.json``), written by ``python -m
training.value`` (see ``training/README.md``), read the first time a
value is asked for (never at start-up) and checked when loaded: a file
that is not this version's format is refused with one line
(:class:`ValueModelError`).

>>> import random
>>> from mille.engine.rules import find_rules
>>> from mille.engine.table import Pick, Table
>>> from mille.engine.view import SeatView
>>> table = Table.new(find_rules("classic"), random.Random(3))
>>> _ = table.apply(Pick())
>>> view = SeatView(table, 0)
>>> len(state_features(view)) == len(FEATURE_NAMES)
True
>>> chance = load_value().win_chance(view)
>>> chance is not None and 0.0 < chance < 1.0
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.cards import D200, GO, NO_CARD, NUM_KINDS, VALUES
from ..engine.rules import Rules
from ..engine.view import SeatView
from . import weightfile
from .heuristic import _needs

FORMAT = "mille value of the position"
VERSION = 1
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "value.json")
FAMILIES = ("duel", "teams", "sides")
WHAT = "value weights"  # what its refusals begin with

FEATURE_NAMES: tuple[str, ...] = (
    (
        "my_miles",
        "op_miles",
        "lead",
        "my_left",
        "op_left",
        "extended",
        "deck",
        "deck*lead",
        "deck*my_left",
        "deck*op_left",
        "my_rolling",
        "op_rolling",
        "my_limited",
        "op_limited",
        "my_needs_remedy",
        "my_needs_go",
        "op_needs_remedy",
        "op_needs_go",
    )
    + tuple(f"my_safety{k}" for k in range(4))
    + tuple(f"op_safety{k}" for k in range(4))
    + ("my_coups", "op_coups")
    + tuple(f"hand{k}" for k in range(NUM_KINDS))
    + ("hand_miles", "can_finish", "holds_needed", "my_200s", "op_200s", "my_done", "op_done")
    + tuple(f"unseen{k}" for k in range(5, 10))
    + tuple(f"unseen_safety{k}" for k in range(4))
    + ("lead+", "lead-", "my_left^2", "op_left^2")
)


class ValueModelError(ValueError):
    """A value file that cannot be used; the message says why."""


def family(rules: Rules) -> str:
    """The family of tables ``rules`` belongs to, for the value's weights."""
    if rules.sides > 2:
        return "sides"
    return "duel" if rules.players == 2 else "teams"


def hand_counts(hand: Sequence[int]) -> tuple[list[int], int]:
    """How many of each card ``hand`` holds, and its miles."""
    counts = [0] * NUM_KINDS
    miles = 0
    for card in hand:
        if card != NO_CARD and card < NUM_KINDS:
            counts[card] += 1
            if card <= D200:
                miles += VALUES[card]
    return counts, miles


def state_features(view: SeatView) -> list[float]:
    """The features of ``view``'s position for its seat's side (see the
    module docstring), in the order of :data:`FEATURE_NAMES`."""
    rules = view.rules
    own = rules.side_of(view.seat)
    tableaux = view.tableaux
    me = tableaux[own - 1]
    op = max((tab for side, tab in enumerate(tableaux, 1) if side != own), key=lambda t: t.mileage)
    target = view.target
    model = view.model
    deck = view.deck_size / 106.0
    my_left = max(target - me.mileage, 0) / 1000.0
    op_left = max(target - op.mileage, 0) / 1000.0
    lead = (me.mileage - op.mileage) / 1000.0
    my_needs = _needs(view, me)
    op_needs = _needs(view, op)
    counts, miles = hand_counts(view.hand)
    unseen = view.unseen()
    full = rules.deck
    left = max(target - me.mileage, 0)
    return (
        [
            me.mileage / 1000.0,
            op.mileage / 1000.0,
            lead,
            my_left,
            op_left,
            1.0 if rules.extension is not None and target == rules.extension else 0.0,
            deck,
            deck * lead,
            deck * my_left,
            deck * op_left,
            1.0 if model.rolling(me) else 0.0,
            1.0 if model.rolling(op) else 0.0,
            1.0 if model.limited(me) else 0.0,
            1.0 if model.limited(op) else 0.0,
            1.0 if (my_needs and my_needs[0] != GO) else 0.0,
            1.0 if my_needs == [GO] else 0.0,
            1.0 if (op_needs and op_needs[0] != GO) else 0.0,
            1.0 if op_needs == [GO] else 0.0,
        ]
        + [1.0 if 15 + k in me.safeties else 0.0 for k in range(4)]
        + [1.0 if 15 + k in op.safeties else 0.0 for k in range(4)]
        + [float(sum(me.coups)), float(sum(op.coups))]
        + [n / 2.0 for n in counts]
        + [
            min(miles, left) / 200.0,
            1.0 if (left > 0 and miles >= left) else 0.0,
            1.0 if any(counts[c] for c in my_needs if c < NUM_KINDS) else 0.0,
            me.nummiles[4] / 2.0,
            op.nummiles[4] / 2.0,
            1.0 if left == 0 else 0.0,
            1.0 if op.mileage >= target else 0.0,
        ]
        + [unseen[h] / full[h] if full[h] else 0.0 for h in range(5, 10)]
        + [float(unseen[15 + k]) for k in range(4)]
        + [max(lead, 0.0), max(-lead, 0.0), my_left * my_left, op_left * op_left]
    )


@dataclass(frozen=True)
class Weights:
    """One family's logistic model: a bias and a weight per feature."""

    bias: float
    weights: tuple[float, ...]

    def logit(self, features: Sequence[float]) -> float:
        return self.bias + sum(w * x for w, x in zip(self.weights, features))


@dataclass(frozen=True)
class ValueModel:
    """The value's weights by family, and what the training reported."""

    families: Mapping[str, Weights]
    version: int = VERSION
    trained: Mapping[str, Any] = field(default_factory=dict)

    def win_chance(self, view: SeatView) -> float | None:
        """The chance that ``view``'s seat's side wins the hand (a tie
        counts half); None in a family the file has no weights for."""
        weights = self.families.get(family(view.rules))
        if weights is None:
            return None
        z = weights.logit(state_features(view))
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    def to_dict(self) -> dict[str, Any]:
        """The model as its data file holds it."""
        return {
            "format": FORMAT,
            "version": self.version,
            "features": list(FEATURE_NAMES),
            "families": {
                name: {"bias": w.bias, "weights": list(w.weights)}
                for name, w in self.families.items()
            },
            "trained": dict(self.trained),
        }


def model_from_dict(data: Any) -> ValueModel:
    """The model a value file holds; :class:`ValueModelError` says what is wrong."""
    data = weightfile.header(data, WHAT, ValueModelError, FORMAT, VERSION, "families")
    if data["features"] != list(FEATURE_NAMES):
        raise ValueModelError("value weights: features are not this version's")
    families = data["families"]
    if not isinstance(families, dict):
        raise ValueModelError("value weights: families must be an object")
    parsed: dict[str, Weights] = {}
    for name, entry in families.items():
        if name not in FAMILIES:
            raise ValueModelError(f"value weights: unknown family {str(name)[:20]!r}")
        if not isinstance(entry, dict) or set(entry) != {"bias", "weights"}:
            raise ValueModelError(f"value weights: {name!r} must hold a bias and weights")
        values = entry["weights"]
        if not isinstance(values, list) or len(values) != len(FEATURE_NAMES):
            raise ValueModelError(f"value weights: {name!r} must list {len(FEATURE_NAMES)} weights")
        bias, *numbers = (
            weightfile.number(v, WHAT, ValueModelError, repr(name))
            for v in [entry["bias"], *values]
        )
        parsed[name] = Weights(bias, tuple(numbers))
    trained = weightfile.trained(data, WHAT, ValueModelError)
    return ValueModel(parsed, VERSION, trained)


_models: dict[str, ValueModel] = {}  # path -> model (a file is read once per process)


def load_value(path: str = DATA) -> ValueModel:
    """The value in the file at ``path`` (the package's by default)."""
    return weightfile.read(path, WHAT, ValueModelError, model_from_dict, _models)


__all__ = [
    "FAMILIES",
    "FEATURE_NAMES",
    "ValueModel",
    "ValueModelError",
    "Weights",
    "family",
    "load_value",
    "model_from_dict",
    "state_features",
]
