"""A finished game reviewed for one seat: each decision judged from what
the seat could see then, and its chance to win the hand after every move.

The review replays the game (:class:`~mille.game.history.History`) through
the engine with an expert computer (:class:`~mille.players.expert.Expert`)
at the reviewed seat, watching the moves as that seat saw them
(``SeatView.seen``: another seat's draws hidden, a ``Coup Fourre?`` let go
unseen), as a computer at that seat would: it never reads the table, so a
card the seat could not see changes nothing in the review.  At each
decision of the seat (more than one distinct legal move: a play or a
discard, or the answer to ``Extension?``; a stand-in's moves are not the
person's and are not judged) it asks the expert its move, searching
without a time cap (the same review on every machine); when the move made
does something else, both are played out in fresh worlds dealt from the
seat's guesses (``_compare``: common random numbers, a step at a time,
until the difference is :attr:`Analysis.bar` standard errors from 0 or
:attr:`Analysis.most` worlds are played).  The move made is called a
*mistake* only when that analysis finds the expert's better by
:attr:`Analysis.sure` standard errors (3: at the hint's 2.5, too few
calls held when analysed again, ``bench/bench_review.py``) and by
:attr:`Analysis.threshold` hands won a hand at least, and a second
analysis finds it too: by an expert of its own, that watched the hand
with guesses of its own at the hidden cards (the first's guesses are a
sample too: two analyses of the same guesses agree on their error), in
worlds of its own, and the two together put the cost above the threshold
by :attr:`Analysis.margin` standard errors (:func:`called`).  The cost is
in hands won in 100, as the hint says it.

The chance to win the hand (:func:`chances`) is the learned value of the
position from the seat's view (``mille.players.value``) at the deal and
each time the seat has picked and is to play (where the value was
learned: the expert's cut playouts read it there), the hand's result at
its end.  The seat's decisions are worth what the analyses found them
worth against the expert's moves (their costs, added up); the rest of
the result against an even share of the hands is luck: the deals, the
draws and the other seats' moves (:class:`Summary`).

Pure: no I/O.  :func:`decisions` yields each decision as it is judged,
so a caller can show progress and stop.  The review is data
(:meth:`Review.to_dict`: codes and numbers), kept by the record.
"""

from __future__ import annotations

import math
import random
from collections.abc import Container, Iterable, Iterator
from dataclasses import dataclass, field, replace

from ..engine.cards import NO_CARD
from ..engine.moves import Answer, Discard, Move, Use
from ..engine.table import COUP, EXTENSION, NO, OVER, PICK, YES, Table
from ..engine.view import SeatView
from ..players.expert import Expert
from ..players.search import CUT_BUDGET, Budget, Sampler, distinct_moves, paired_z
from .history import Hand, History, _dealt, hand_moves, made

VERSION = 2  # the review's own version: a review kept by another is made again


@dataclass(frozen=True)
class Analysis:
    """How a review judges: the expert's ``budget`` (no time cap, so the
    same on every machine; half the moves of the expert's in a game, which
    its time cap would cut short as often), and the
    analysis of a move made against the expert's: worlds in steps of
    ``step``, at least ``least`` and at most ``most``, until the paired
    difference is ``bar`` standard errors from 0 (``sure`` for the move
    made worse); a mistake is ``sure`` standard errors and at least
    ``threshold`` hands won a hand, in both analyses, and their costs
    together at least ``threshold`` by ``margin`` standard errors (an
    analysis stopped as soon as it was sure finds a cost near the
    threshold more often than there is one: ``bench/bench_review.py``)."""

    budget: Budget = replace(CUT_BUDGET, moves=8_000, extra=4_000, seconds=None)
    bar: float = 2.5
    sure: float = 3.0
    step: int = 16
    least: int = 32
    most: int = 192
    threshold: float = 0.02
    margin: float = 2.5


ANALYSIS = Analysis()


@dataclass(frozen=True)
class Judged:
    """One analysis of the move made against the expert's: ``hands`` won
    more a hand by the expert's move, ``z`` its standard errors, the
    ``worlds`` each move met."""

    hands: float
    z: float
    worlds: int

    @property
    def error(self) -> float:
        """The standard error of ``hands``."""
        return self.hands / self.z if self.z else float("inf")

    def worse(self, analysis: Analysis) -> bool:
        """The move made is surely worse, by the threshold."""
        return self.z >= analysis.sure and self.hands >= analysis.threshold


def called(first: Judged, second: Judged, analysis: Analysis = ANALYSIS) -> bool:
    """Whether two analyses of a move (in worlds and guesses of their own)
    call it a mistake: each finds it surely worse by the threshold, and
    their mean cost is above the threshold by ``analysis.margin`` of its
    standard errors.

    >>> called(Judged(0.06, 3.0, 64), Judged(0.05, 3.2, 64))
    True
    >>> called(Judged(0.025, 3.1, 64), Judged(0.03, 3.0, 64))  # near the threshold
    False
    """
    if not (first.worse(analysis) and second.worse(analysis)):
        return False
    mean = (first.hands + second.hands) / 2
    error = math.sqrt(first.error**2 + second.error**2) / 2
    return mean - analysis.margin * error >= analysis.threshold


@dataclass(frozen=True)
class Decision:
    """A decision of the seat: the ``hand`` (from 0), the move's ``number``
    in the hand (from 0), the move ``made`` and the expert's (``best``),
    the cards they play (``NO_CARD`` for an answer), the ``first``
    analysis (None when they agree) and the ``second`` (None unless the
    first found the move made worse), and whether it is a ``mistake``."""

    hand: int
    number: int
    made: Move
    best: Move
    made_card: int
    best_card: int
    first: Judged | None = None
    second: Judged | None = None
    mistake: bool = False

    @property
    def agrees(self) -> bool:
        """The move made does what the expert's does."""
        return self.first is None

    @property
    def cost(self) -> float:
        """Hands won more a hand by the expert's move: the analyses'
        figure (both together for a mistake), 0 where they agree."""
        if self.first is None:
            return 0.0
        if self.second is None:
            return self.first.hands
        return (self.first.hands + self.second.hands) / 2


@dataclass(frozen=True)
class Point:
    """The seat's side's chance to win the hand after the move ``number``
    of ``hand`` (-1: at the deal)."""

    hand: int
    number: int
    chance: float


@dataclass(frozen=True)
class Summary:
    """What a review adds up to: the ``decisions`` judged, how many
    ``agreed`` with the expert, the ``mistakes`` and their ``cost`` (hands
    won a hand, added up); in hands, what the seat's decisions were worth
    against the expert's moves (``own``: every cost found, less; 0 when
    all agree) and ``luck``: the rest of the hands won against the
    ``share`` of an even game (the deals, the draws, the other seats'
    moves); the ``hands`` the seat's side won (a tie counts half) of the
    ``played``."""

    decisions: int
    agreed: int
    mistakes: int
    cost: float
    own: float | None
    luck: float | None
    hands: float
    played: int


@dataclass(frozen=True)
class Review:
    """A game reviewed for ``seat`` with ``seed``: its decisions and the
    chance to win at the deals and the seat's turns; ``share``: the hands
    an even game gives its side (a half, between two sides)."""

    seat: int
    seed: int
    decisions: tuple[Decision, ...]
    points: tuple[Point, ...] = field(default=())
    share: float = 0.5

    def summary(self) -> Summary:
        """The review added up (see :class:`Summary`)."""
        ends = [p for i, p in enumerate(self.points) if _last_of_hand(self.points, i)]
        own = -sum(d.cost for d in self.decisions)
        hands = sum(p.chance for p in ends)
        luck = hands - self.share * len(ends) - own
        mistakes = [d for d in self.decisions if d.mistake]
        return Summary(
            decisions=len(self.decisions),
            agreed=sum(d.agrees for d in self.decisions),
            mistakes=len(mistakes),
            cost=sum(d.cost for d in mistakes),
            own=own if self.points else None,
            luck=luck if self.points else None,
            hands=hands,
            played=len(ends),
        )

    def mark(self, hand: int, number: int) -> str:
        """The mark beside move ``number`` of ``hand`` in a replay: ``!``
        a mistake, ``?`` another move than the expert's (not a sure
        mistake), ``=`` the expert's move, ``""`` no decision of the seat."""
        for decision in self.decisions:
            if (decision.hand, decision.number) == (hand, number):
                return _mark(decision)
        return ""


def _mark(decision: Decision) -> str:
    return "!" if decision.mistake else "=" if decision.agrees else "?"


def replay_notes(reviews: Iterable[Review]) -> dict[tuple[int, int], str]:
    """The marks of ``reviews`` (each a seat's) as a replay's notes
    (``Replay(notes=...)``): by hand and the move counted from 1, the
    mark :meth:`Review.mark` gives its decision."""
    return {
        (decision.hand, decision.number + 1): _mark(decision)
        for review in reviews
        for decision in review.decisions
    }


def _last_of_hand(points: tuple[Point, ...], i: int) -> bool:
    return i + 1 == len(points) or points[i + 1].hand != points[i].hand


def people(history: History) -> list[int]:
    """The seats of people, in order."""
    return sorted(seat for seat in history.people if seat not in history.computers)


def _hands(history: History) -> Iterator[tuple[int, Table, Hand]]:
    """Each hand dealt at the game's table, with its number."""
    table: Table | None = None
    for number, hand in enumerate(history.hands):
        table = _dealt(table, history, hand.deal)
        yield number, table, hand


def _candidates(view: SeatView) -> list[Move]:
    """The distinct moves of a decision the expert searches (a play or a
    discard, or ``Extension?``); [] where it is none (a pick, a
    ``Coup Fourre?``, a single move)."""
    if view.phase == EXTENSION:
        return [YES, NO]
    if view.phase == COUP:
        return []
    legal = view.legal_moves()
    if PICK in legal:
        return []
    moves = distinct_moves(view, legal)
    return moves if len(moves) > 1 else []


def _card(view: SeatView, move: Move) -> int:
    return view.hand[move.slot] if isinstance(move, (Use, Discard)) else NO_CARD


def _same(view: SeatView, a: Move, b: Move) -> bool:
    """Whether two moves do the same thing (the same card from two slots)."""
    if isinstance(a, Answer) or isinstance(b, Answer):
        return a == b
    return (
        type(a) is type(b)
        and _card(view, a) == _card(view, b)
        and getattr(a, "target", None) == getattr(b, "target", None)
    )


def count(history: History, seat: int) -> int:
    """How many decisions of ``seat`` a review judges (for its progress)."""
    found = 0
    for _, table, hand in _hands(history):
        view = SeatView(table, seat)
        for _, move, stand_in in hand_moves(table, hand):
            if table.current_player == seat and not stand_in and _candidates(view):
                found += 1
            made(table, move)
    return found


def decisions(
    history: History,
    seat: int,
    seed: int = 0,
    analysis: Analysis = ANALYSIS,
    at: Container[tuple[int, int]] | None = None,
) -> Iterator[Decision]:
    """Each decision of ``seat`` judged, in order (see the module
    docstring), with random streams drawn from ``seed`` alone; with
    ``at``, only the decisions at those (hand, move number)."""
    for expert, view, move, where, dice in _positions(history, seat, seed, analysis, at):
        decision = _judge(expert, view, move, where, dice, analysis)
        if decision.first is not None and decision.first.worse(analysis):
            second = recheck(history, seat, decision, dice.getrandbits(64), analysis)
            decision = replace(
                decision, second=second, mistake=called(decision.first, second, analysis)
            )
        yield decision


def recheck(
    history: History, seat: int, decision: Decision, seed: int, analysis: Analysis = ANALYSIS
) -> Judged:
    """Another opinion on ``decision``: the move made against the
    expert's again, by an expert of its own (that watched the hand with
    guesses drawn from ``seed``) in fresh worlds: the review's second
    analysis, and the benchmark's re-analysis of each mistake called
    (``bench/bench_review.py``)."""
    where = (decision.hand, decision.number)
    for expert, view, _, _, dice in _positions(history, seat, seed, analysis, {where}):
        return _compare(_sampler(expert, view), decision.made, decision.best, dice, analysis)
    raise ValueError(f"no decision of seat {seat} at hand {where[0] + 1}, move {where[1] + 1}")


def _positions(
    history: History,
    seat: int,
    seed: int,
    analysis: Analysis,
    at: Container[tuple[int, int]] | None,
) -> Iterator[tuple[Expert, SeatView, Move, tuple[int, int], random.Random]]:
    """Each decision of ``seat`` (at ``at`` only, if given): an expert
    that watched the hand as the seat saw it, the seat's view, the move
    made, where (hand, move number) and dice of its own."""
    dice = random.Random(seed)
    for number, table, hand in _hands(history):
        view = SeatView(table, seat)
        expert = Expert(random.Random(dice.getrandbits(64)), seat, budget=analysis.budget)
        expert.start_hand(view)
        for index, move, stand_in in hand_moves(table, hand):
            if table.current_player == seat and not stand_in and _candidates(view):
                where, own = (number, index), random.Random(dice.getrandbits(64))
                if at is None or where in at:
                    yield expert, view, move, where, own
            event = made(table, move)
            seen = view.seen(event.outcome, event.phase)
            if seen is not None:
                expert.observe(view, seen)


def _sampler(expert: Expert, view: SeatView) -> Sampler:
    """The worlds of ``view`` as ``expert`` guesses them, valued by the hands won."""
    return Sampler(view, expert.beliefs, expert.needs, expert.safeties, "hands", *expert._cut(view))


def _judge(
    expert: Expert,
    view: SeatView,
    move: Move,
    where: tuple[int, int],
    dice: random.Random,
    analysis: Analysis,
) -> Decision:
    """The decision ``move`` at ``view``: the expert's move, and where it
    differs, the first analysis (the second is :func:`recheck`'s)."""
    best = expert.choose(view)
    decision = Decision(*where, move, best, _card(view, move), _card(view, best))
    if _same(view, move, best):
        return replace(decision, best=move, best_card=decision.made_card)
    first = _compare(
        _sampler(expert, view), move, best, random.Random(dice.getrandbits(64)), analysis
    )
    return replace(decision, first=first)


def _worth(sampler: Sampler, world: Table, move: Move, seed: int) -> float:
    """``move`` played out in ``world``: the seat's side's hand won (1),
    lost (0) or even (1/2), or the learned chance where the playout is cut."""
    if sampler.horizon is not None:
        t, _, chance = sampler.play_cut(world, move, seed, sampler.horizon)
        if chance is not None:
            return chance
    else:
        t, _ = sampler.play(world, move, seed)
    return (sampler.sign(t) + 1) / 2


def _compare(
    sampler: Sampler, made: Move, best: Move, rng: random.Random, analysis: Analysis
) -> Judged:
    """``best`` against ``made`` in the same fresh worlds (common random
    numbers), a step at a time (see :class:`Analysis`)."""
    diffs: list[float] = []
    z = 0.0
    while len(diffs) < analysis.most:
        for _ in range(min(analysis.step, analysis.most - len(diffs))):
            world, seed = sampler.world(rng), rng.getrandbits(64)
            diffs.append(_worth(sampler, world, best, seed) - _worth(sampler, world, made, seed))
        z, error = paired_z(diffs)
        if len(diffs) < analysis.least:
            continue
        if (
            z >= max(analysis.sure, analysis.bar)
            or z <= -analysis.bar
            or sum(diffs) / len(diffs) + analysis.bar * error < analysis.threshold
        ):
            break  # (sure either way, or sure it is short of a mistake)
    return Judged(sum(diffs) / len(diffs), z, len(diffs))


def chances(history: History, seat: int) -> tuple[Point, ...]:
    """The seat's side's chance to win the hand at each deal and each
    time the seat has picked, by the learned value of its view, and the
    hand's result at its end; () where the value has no weights for the
    table."""
    from ..players.value import family, load_value

    value = load_value()
    if family(history.rules) not in value.families:
        return ()
    points: list[Point] = []
    for number, table, hand in _hands(history):
        view = SeatView(table, seat)
        points.append(Point(number, -1, value.win_chance(view) or 0.5))
        for index, move, _ in hand_moves(table, hand):
            picked = table.current_player == seat and move == PICK
            made(table, move)
            if table.phase == OVER:
                points.append(Point(number, index, _result(table, seat)))
            elif picked:
                points.append(Point(number, index, value.win_chance(view) or 0.5))
    return tuple(points)


def _result(table: Table, seat: int) -> float:
    """The finished hand for the seat's side: won 1, lost 0, even 1/2."""
    rules = table.rules
    scores = [table.hand_score(side).total for side in range(1, rules.sides + 1)]
    mine = scores.pop(rules.side_of(seat) - 1)
    best = max(scores)
    return 1.0 if mine > best else 0.0 if mine < best else 0.5


def review(history: History, seat: int, seed: int = 0, analysis: Analysis = ANALYSIS) -> Review:
    """The whole review of ``seat`` (:func:`decisions`, :func:`chances`)."""
    judged = tuple(decisions(history, seat, seed, analysis))
    return Review(seat, seed, judged, chances(history, seat), 1 / history.rules.sides)


__all__ = [
    "ANALYSIS",
    "Analysis",
    "Decision",
    "Judged",
    "Point",
    "Review",
    "Summary",
    "VERSION",
    "called",
    "chances",
    "count",
    "decisions",
    "people",
    "recheck",
    "review",
]
