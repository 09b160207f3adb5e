"""The learned computer: a small linear model that scores each move.

At each decision after its pick it scores every distinct candidate move
(:class:`~mille.players.features.Decision`: what the move does, read from
the seat's view only) with a weighted sum of its features, the weights
those of every preset plus those of the preset's family
(:func:`~mille.players.features.family`), and plays the best, ties broken
with its ``random.Random``.  In a family the weights have no set of their
own for (three sides or more, as trained here) it plays the heuristic's
move: the shared weights alone were measured weaker there.  It picks, answers ``Coup Fourre?`` and
``Extension?`` as the rules-aware heuristic does.  Pure Python: a
decision costs about as much as the heuristic's (a few milliseconds at
most).

The weights are a versioned data file inside the package
(``mille/players/data/learned.json``), written by ``python -m
training.train`` (see ``training/README.md``) and checked when loaded:
a file that is not this version's format is refused with one line
(:class:`LearnedError`).

>>> model = load_model()
>>> model.version, set(model.weights) >= {"*"}
(1, True)
>>> import random
>>> from mille.engine.rules import find_rules
>>> from mille.engine.table import Pick, Table
>>> from mille.engine.view import SeatView
>>> table = Table.new(find_rules("classic"), random.Random(3))
>>> _ = table.apply(Pick())
>>> bot = Learned(random.Random(1), 0)
>>> table.check(bot.choose(SeatView(table, 0))) is None
True
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.table import Move, Outcome
from ..engine.view import SeatView
from . import weightfile
from .features import FEATURE_NAMES, Decision, family
from .heuristic import Heuristic, settled

FORMAT = "mille learned weights"
VERSION = 1
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "learned.json")
SHARED = "*"  # the weights every family adds to its own
WHAT = "learned weights"  # what its refusals begin with


class LearnedError(ValueError):
    """A weights file that cannot be used; the message says why."""


@dataclass(frozen=True)
class Model:
    """Weights by family (``*``: every family), each by feature name, and
    what the training reported (seed, data size, time)."""

    weights: Mapping[str, Mapping[str, float]]
    version: int = VERSION
    trained: Mapping[str, Any] = field(default_factory=dict)

    def score(self, features: Mapping[str, float], fam: str) -> float:
        shared = self.weights[SHARED]
        own = self.weights.get(fam, {})
        total = 0.0
        for name, value in features.items():
            total += value * (shared.get(name, 0.0) + own.get(name, 0.0))
        return total

    def to_dict(self) -> dict[str, Any]:
        """The model as a weights file holds it (every feature listed, by name)."""
        return {
            "format": FORMAT,
            "version": self.version,
            "features": list(FEATURE_NAMES),
            "weights": {
                fam: [float(w.get(name, 0.0)) for name in FEATURE_NAMES]
                for fam, w in self.weights.items()
            },
            "trained": dict(self.trained),
        }


def model_from_dict(data: Any) -> Model:
    """The model a weights file holds; :class:`LearnedError` says what is wrong."""
    data = weightfile.header(data, WHAT, LearnedError, FORMAT, VERSION, "weights")
    names = data["features"]
    if names != list(FEATURE_NAMES):
        if not isinstance(names, list):
            raise LearnedError("learned weights: features must be a list of names")
        missing = [n for n in FEATURE_NAMES if n not in names]
        extra = [n for n in names if n not in FEATURE_NAMES]
        if missing:
            raise LearnedError(f"learned weights: feature {missing[0]!r} missing")
        if extra:
            raise LearnedError(f"learned weights: unknown feature {str(extra[0])[:40]!r}")
        raise LearnedError("learned weights: features not in this version's order")
    weights = data["weights"]
    if not isinstance(weights, dict) or SHARED not in weights:
        raise LearnedError(f"learned weights: weights must be an object with {SHARED!r}")
    parsed: dict[str, dict[str, float]] = {}
    for fam, values in weights.items():
        if not isinstance(values, list) or len(values) != len(FEATURE_NAMES):
            raise LearnedError(
                f"learned weights: {str(fam)[:20]!r} must list {len(FEATURE_NAMES)} numbers"
            )
        where = repr(str(fam)[:20])
        numbers = [weightfile.number(v, WHAT, LearnedError, where) for v in values]
        parsed[fam] = {n: v for n, v in zip(FEATURE_NAMES, numbers) if v}
    trained = weightfile.trained(data, WHAT, LearnedError)
    return Model(parsed, VERSION, trained)


_models: dict[str, Model] = {}  # path -> model (a file is read once per process)


def load_model(path: str = DATA) -> Model:
    """The model in the weights file at ``path`` (the package's by default)."""
    return weightfile.read(path, WHAT, LearnedError, model_from_dict, _models)


class Learned:
    """The learned computer of one seat (see the module docstring)."""

    def __init__(self, rng: random.Random, seat: int, model: Model | None = None) -> None:
        self.rng = rng
        self.seat = seat
        self.model = model if model is not None else load_model()

    def start_hand(self, view: SeatView) -> None:
        """Nothing to remember: every feature is read from the view."""

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        """Nothing to remember."""

    def choose(self, view: SeatView) -> Move:
        legal = view.legal_moves()
        move = settled(view, legal, self.seat, self._wants_extension)
        if move is not None:
            return move
        decision = Decision(view, self.rng, legal)
        if len(decision.moves) < 2 or family(view.rules) not in self.model.weights:
            # (a family the weights were not fitted for is played as the
            # heuristic plays it: the shared weights alone lost there)
            return decision.moves[0] if len(decision.moves) == 1 else decision.heuristic_move
        return self.best(decision)

    def _wants_extension(self, view: SeatView) -> bool:
        """Extension? as the heuristic answers it."""
        return Heuristic(self.rng, self.seat).wants_extension(view)

    def best(self, decision: Decision) -> Move:
        """The candidate of ``decision`` the model scores highest."""
        fam = family(decision.view.rules)
        scored = [
            (self.model.score(f, fam), self.rng.random(), move)
            for f, move in zip(decision.features, decision.moves)
        ]
        return max(scored, key=lambda x: (x[0], x[1]))[2]


__all__ = ["Learned", "LearnedError", "Model", "load_model", "model_from_dict"]
