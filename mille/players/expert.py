"""The expert computer: a determinized Monte-Carlo search over the engine.

It sees only what its seat may see: its own hand, every tableau, the
discard pile and the set-aside pile, how many cards each other seat holds,
the deck's size, and the moves it watched.  Never the order of the deck,
never another hand.

The player is three parts, each in its own module:

* what the other hands may hold: guesses at each other seat's hidden
  cards, weighed by the moves it makes against what the preset's standard
  computer would do (``Beliefs``, in ``mille.players.beliefs``);
* where each unseen safety is, which those guesses cannot tell
  (``SafetyTracker``, in ``mille.players.safeties``);
* the search: worlds dealt from both, each candidate move played out by
  the standard computer in every seat, to the end of the hand or (outside
  ``bsd``) some 32 moves on, where a learned value of the position
  (``mille.players.value``) says how likely its side is to win the hand,
  a budget of simulated moves (``search``, ``Budget``, in
  ``mille.players.search``).

This module joins them: each move watched updates the guesses, then the
safeties' chances, then foresees the next seat's move with each guess;
each real decision (more than one distinct legal move) is searched.  It
always answers ``Coup Fourre?`` yes and takes BSD's coup-fourre window
(the coup is worth 300 points and a turn); ``Extension?`` is searched.
A game saves its memory (``to_dict``): the guesses and the safeties'
chances, nothing left out, so a restored expert goes on exactly as the
original.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.table import COUP, EXTENSION, NO, PICK, YES, Move, Outcome
from ..engine.view import SeatView
from .base import Seated, before_pick
from .beliefs import KEYS, OPTIONAL_KEYS, Beliefs
from .memory import integer, quote, saved_object
from .safeties import SafetyTracker
from .search import (
    DEFAULT_BUDGET,
    Budget,
    Choice,
    ExpertError,
    Sampler,
    check_objective,
    distinct_moves,
    search,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .value import ValueModel

# how the expert values a playout (search.OBJECTIVES); "hands" is not yet
# shown to gain over it (bench_decisions, docs/benchmarks.md: issue 35)
OBJECTIVE = "points"


class Expert(Seated):
    """The search player of one seat (see the module docstring)."""

    error = ExpertError

    track_safeties = True  # deal the worlds' safeties from ``safeties``

    def __init__(
        self,
        rng: random.Random,
        seat: int,
        *,
        budget: Budget = DEFAULT_BUDGET,
        objective: str = OBJECTIVE,
    ) -> None:
        super().__init__(rng, seat)
        check_objective(objective)
        self.budget = budget
        self.objective = objective  # how its playouts are valued (search.OBJECTIVES)
        # what the other hands may hold
        self.others = Beliefs(seat)
        # where each unseen safety is (the guesses cannot tell: see safeties.py)
        self.safeties = SafetyTracker(seat)
        self.last_moves = 0  # simulated moves of the last decision (for benchmarks)
        self.last_playouts = 0
        self.last_choice: Choice | None = None  # the last search (the hint says what decided it)

    # its guesses, as ``Beliefs`` keeps them: by other seat, the guesses at
    # its hand, the moves foreseen with them, (bsd) its Numneed

    @property
    def beliefs(self) -> dict[int, list[list[int]]]:
        return self.others.particles

    @beliefs.setter
    def beliefs(self, particles: dict[int, list[list[int]]]) -> None:
        self.others.particles = particles

    @property
    def predictions(self) -> dict[int, list[str]]:
        return self.others.predictions

    @predictions.setter
    def predictions(self, keys: dict[int, list[str]]) -> None:
        self.others.predictions = keys

    @property
    def needs(self) -> dict[int, list[int]]:
        return self.others.needs

    @needs.setter
    def needs(self, needs: dict[int, list[int]]) -> None:
        self.others.needs = needs

    # ----- watching ----------------------------------------------------------------

    def start_hand(self, view: SeatView) -> None:
        """A new deal: every other hand is a guess among the unseen cards,
        every unseen safety anywhere unseen."""
        unseen = self.others.start_hand(view, self.rng)
        self.safeties.start_hand(view, unseen)
        self._foresee(view)

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        """Weigh the guesses about a seat by the move it made, update them
        with what it played and drew, then where the safeties are, then
        foresee the next seat's move."""
        unseen = self.others.observe(view, outcome, self.rng)
        self.safeties.observe(view, outcome, unseen)
        self._foresee(view)

    def _foresee(self, view: SeatView) -> None:
        """What the seat to decide would do with each guess at its hand, and
        how likely it is to keep each safety it may hold."""
        foresight = self.others.predict(view, self.rng)
        if foresight is not None:
            self.safeties.foresee(view, *foresight)

    # ----- the decision ----------------------------------------------------------

    def choose(self, view: SeatView) -> Move:
        """The move for its seat: a pick, a use, a discard or an answer."""
        if view.current_player != self.seat:
            raise ExpertError(f"seat {self.seat} is not to decide")
        self.last_moves = 0
        self.last_choice = None
        if view.phase == COUP:
            return YES
        if view.phase == EXTENSION:
            candidates: list[Move] = [YES, NO]
        else:
            legal = view.legal_moves()
            if PICK in legal:
                return before_pick(legal)  # bsd's coup-fourre window comes before the pick
            candidates = distinct_moves(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        rng = random.Random(self.rng.getrandbits(64))
        sampler = Sampler(
            view,
            self.others.particles,
            self.others.needs,
            self.safeties if self.track_safeties else None,
            self.objective,
            *self._cut(view),
        )
        choice = search(sampler, candidates, self.budget, rng)
        self.last_choice = choice
        self.last_moves = choice.moves
        self.last_playouts = choice.playouts
        return choice.move

    def _cut(self, view: SeatView) -> tuple[ValueModel | None, int | None]:
        """The value and horizon that cut its playouts short (``Budget.horizon``),
        or (None, None): full playouts.  Only where the preset's standard
        computer is the rules-aware heuristic (the value was learned from its
        self-play) and the value has weights for the table's family."""
        horizon = self.budget.horizon
        if horizon is None or view.rules.standard_computer != "heuristic":
            return None, None
        from .value import family, load_value

        value = load_value()
        if family(view.rules) not in value.families:
            return None, None
        return value, horizon

    # ----- saving ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Its memory as JSON-able data (not its rng, not its budget): its
        seat, its guesses at each other hand, the moves it foresees and
        (bsd) each other seat's Numneed as it counts it (``Beliefs.to_dict``),
        and the chances of where each unseen safety is."""
        return {"seat": self.seat, **self.others.to_dict(), "safeties": self.safeties.to_dict()}

    @classmethod
    def from_dict(cls, data: Any, rng: random.Random, seat: int) -> Expert:
        """Rebuild a memory saved by ``to_dict`` for ``seat``;
        :class:`ExpertError` says what is wrong with it."""
        optional = OPTIONAL_KEYS + ("safeties",)  # (older saves lack them)
        data = saved_object(data, ("seat",) + KEYS, "expert", ExpertError, optional)
        saved = integer(data["seat"], "expert: seat", ExpertError)
        if saved != seat:
            raise ExpertError(f"expert: saved for seat {quote(saved)}, not seat {seat}")
        others = Beliefs.from_dict(data, seat)
        bot = cls(rng, seat)
        bot.others = others
        if "safeties" in data:
            bot.safeties = SafetyTracker.from_dict(data["safeties"], seat, ExpertError)
        return bot


__all__ = ["Budget", "DEFAULT_BUDGET", "Expert", "ExpertError"]
