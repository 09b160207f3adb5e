"""The expert's search: which move to make, by playing the hand out in
worlds dealt from what its seat may know.

For each real decision (more than one distinct legal move):

1. **Worlds.**  It counts the cards its seat cannot see (the preset's deck
   less every card in view: nothing hidden goes in), deals each other hand
   from one of the guesses about it (``mille.players.beliefs``; a card no
   longer unseen is replaced at random), the unseen safeties put where the
   ``SafetyTracker``'s chances draw them, and shuffles the rest, in card
   order first, with its own ``random.Random`` into the deck.  Under the
   reshuffle rule the order of a future reshuffle is hidden too: each world
   draws its own ``table.seed``.
2. **Candidates.**  Legal moves that do the same thing (the same card from
   two slots) are one candidate.
3. **Playouts.**  Each candidate is played in a world, then the hand is
   played out to its end by the preset's standard computer in every seat
   (BSD's heuristic for ``bsd``, the rules-aware heuristic otherwise: a
   rollout of the standard policy, so the search improves on it), each
   bot's card counts started from what its seat sees in that world.  Every
   candidate meets the same worlds with the same random stream (common
   random numbers), and each seat draws from its own stream of the deck,
   so a move that changes who draws when (a safety's extra turn) does not
   change what each seat draws: differences between candidates are the
   moves' own.
   With a ``Budget.horizon`` (the expert's budget, ``CUT_BUDGET``: 32
   moves) and a learned value of the position for the table
   (``mille.players.value``; not under ``bsd``) a playout is cut short at
   the seat's first decision that many moves on, and the position there is
   valued instead: twice the value's chance that the seat's side wins the
   hand, less one (a playout that ends first is worth its hand's sign,
   whatever the objective).  A cut playout costs a third to a half of a
   whole one, so the same budget buys two to three times the worlds.
4. **Value.**  By the ``objective`` (``OBJECTIVES``).  ``hands`` (the
   expert's): a playout is worth the hand won (+1), lost (-1) or even
   (0) for its side against the best opposing side, plus a small term of
   the points, squashed (``POINTS_WEIGHT`` times the hyperbolic tangent of
   the score difference over ``POINTS_SCALE``), and, when the game may end
   with this hand (a side within ``HAND_POINTS`` of the winning score when
   the decision is made), ``GAME_HANDS`` times twice its chance to win the
   game less one: what decides hands, not how many points they make.
   ``points`` (before): its side's hand score less the best opposing
   side's, plus ``GAME_WEIGHT`` times an estimate of its chance to win the
   game from the totals after the hand (1 or 0 once the game is over).
5. **Budget.**  Sequential halving around the standard computer's own
   move: every live candidate gets the same worlds; those clearly worse
   than the standard move (``Budget.decisive`` standard errors of the
   paired difference) and the worse half of the rest are dropped, the
   others get twice as many worlds, until the budget of simulated moves
   (``Budget.moves``, a tenth to a quarter of a second in ``bsd``) is spent
   or no rival is left.  A close call (the best rival short of the bar by less
   than ``Budget.close``) may spend ``Budget.extra`` more on the two.  The
   standard move is kept unless another beats it by ``Budget.confidence``
   standard errors: the search only departs from it when it is sure
   enough, so noise does not make it worse than the standard computer.

The budget counts simulated moves, not seconds: the same random stream
gives the same choice on any machine (saved games replay exactly), unless
a decision meets the budget's time cap (``Budget.seconds``), there so that
nobody waits long on a slow or busy machine.

The search takes the guesses and the safeties' chances as they are when
it starts (``Sampler``) and changes neither.  The guesses are weighed by
the same standard computer (``standard_policy``), which
``mille.players.beliefs`` takes from here; ``ExpertError`` is here too, the
one error of the three modules.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from time import monotonic

from ..engine.cards import NO_CARD, is_safety
from ..engine.rules import TIE_NO_GAME
from ..engine.table import OVER, PLAYING, Answer, Discard, Move, Outcome, Pick, Table, Use
from ..engine.view import SeatView, seen_by_others
from .base import Player
from .computer import BsdComputer
from .heuristic import Heuristic
from .safeties import SafetyTracker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .value import ValueModel

GAME_WEIGHT = 3000.0  # points a sure game win is worth over a lost one
HAND_SPREAD = 900.0  # the spread of one hand's score difference (bsd, about)
HAND_POINTS = 1000.0  # what a side scores in a hand, about
POINTS_WEIGHT = 0.1  # the hands objective: the squashed points term's weight
POINTS_SCALE = 500.0  # the hands objective: the score difference that counts about 0.76
GAME_HANDS = 2.0  # the hands objective, near the end: a sure game win over a lost one, in hands

# how a playout is valued (see the module docstring); the expert's is ``hands``
OBJECTIVES = ("hands", "points")

# the standard computers, by the kind their rules name (see players.registry)
STANDARD_COMPUTERS: dict[str, type[Player]] = {"bsd": BsdComputer, "heuristic": Heuristic}


class ExpertError(ValueError):
    """A misuse of the expert, or a saved memory that cannot be restored;
    ``str()`` is the exact message."""


def check_objective(objective: str) -> None:
    """ExpertError unless ``objective`` is one of ``OBJECTIVES``."""
    if objective not in OBJECTIVES:
        raise ExpertError(f"unknown objective {objective!r}")


@dataclass(frozen=True)
class Budget:
    """How much the expert searches per decision.

    ``moves`` is the number of simulated moves (all playouts together) a
    decision may spend; ``worlds`` the worlds each candidate meets in the
    first round; ``confidence`` how many standard errors a candidate must
    beat the standard computer's move by to be preferred; ``decisive`` the
    standard errors by which a candidate worse than the standard move is
    dropped; ``extra`` the moves a close call (a rival within ``close``
    standard errors of being preferred) may spend beyond ``moves``.

    ``seconds`` caps a decision's wall-clock time (None: no cap): past it,
    the search ends after the world it is playing (two worlds at least)
    and chooses from what it has.  It is there so that a person never
    waits long on a slow or busy machine (two such decisions, a move and
    its ``Extension?``, stay under two seconds); on this project's
    machines a ``bsd`` decision takes 0.11 to 0.25 s at the median (the
    machine of each session differs) and hardly ever meets it.  Only a
    decision that meets it depends on the machine.

    More does not help: on the same decisions, twice the default budget
    (and four times) chose no better, measured by
    ``bench/bench_decisions.py``.

    ``horizon`` (None: play every playout to the end of the hand) cuts a
    playout short: at the searching seat's first decision (after its
    pick) ``horizon`` or more moves after the candidate, the position is
    scored by the learned value of the position (``mille.players.value``)
    instead: twice the chance that the seat's side wins the hand less one,
    on the scale of a finished hand's sign (won 1, lost -1, even 0), which
    is what a playout that ends first is worth.  ``setup`` is charged to
    the budget, in moves, for each playout (its set-up and the value cost
    about as much as that many moves), so that a budget of cut playouts
    stays a budget of time; neither counts where the search has no value
    to cut with (``bsd``, whose standard computer is BSD's: its playouts
    are played out, as before).
    """

    moves: int = 16_000
    worlds: int = 12
    confidence: float = 1.5
    decisive: float = 2.0
    extra: int = 24_000
    close: float = 1.0
    seconds: float | None = 0.9
    horizon: int | None = None
    setup: int = 0

    def __post_init__(self) -> None:
        if self.moves < 1 or self.worlds < 2 or self.extra < 0:
            raise ExpertError("a budget needs at least 1 move and 2 worlds")
        if self.horizon is not None and self.horizon < 1:
            raise ExpertError("a budget's horizon must be at least 1 move")
        if self.setup < 0:
            raise ExpertError("a budget's set-up charge cannot be negative")
        if self.seconds is not None and not self.seconds > 0:
            raise ExpertError("a budget's time cap must be more than 0 seconds")


FULL_BUDGET = Budget()  # full playouts (the expert's until issue 42)
# playouts cut after ``horizon`` moves and scored by the learned value: the
# expert's since issue 42 (docs/benchmarks.md, "The expert's cut playouts")
CUT_BUDGET = Budget(horizon=32, setup=6)
DEFAULT_BUDGET = CUT_BUDGET


@dataclass
class _Stats:
    """One candidate's playout values, world by world."""

    move: Move
    values: list[float]

    def mean(self, n: int) -> float:
        return sum(self.values[:n]) / n


@dataclass(frozen=True)
class Choice:
    """What a search chose, and what it spent: the simulated moves and the
    playouts; and the standard computer's move (``standard``), which it
    keeps unless another beats it clearly in the playouts."""

    move: Move
    moves: int
    playouts: int
    standard: Move | None = None


def search(sampler: Sampler, candidates: list[Move], budget: Budget, rng: random.Random) -> Choice:
    """The move among ``candidates`` (two or more) that the search prefers,
    spending ``budget`` (see the module docstring)."""
    base_move = sampler.base_move(rng.getrandbits(64), candidates)
    stats = [_Stats(move, []) for move in candidates]
    base = next(s for s in stats if s.move == base_move)
    play = _Playing(sampler, rng, budget)
    alive, width = _narrow(play, stats, base, budget)
    alive, width = _look_closer(play, alive, base, width, budget)
    best = max(alive, key=lambda s: s.mean(width))
    if best is not base and _z(best, base, width) >= budget.confidence:
        return Choice(best.move, play.used, play.playouts, base.move)
    return Choice(base.move, play.used, play.playouts, base.move)


class _Playing:
    """The worlds of one :func:`search`, and what it has spent: the
    simulated moves (``used``) and the playouts; ``late``, past the
    deadline: choose now."""

    def __init__(self, sampler: Sampler, rng: random.Random, budget: Budget) -> None:
        self.sampler = sampler
        self.rng = rng
        self.worlds: list[tuple[Table, int]] = []
        self.used = self.playouts = 0
        self.deadline = None if budget.seconds is None else monotonic() + budget.seconds
        self.late = False
        self.setup = budget.setup if sampler.horizon is not None else 0  # (cut playouts only)

    def fill(self, alive: list[_Stats], width: int, limit: int | None = None) -> int:
        """Every candidate of ``alive`` played in the first ``width``
        worlds, world after world; with ``limit``, stop after the world
        that spends it, and past the deadline stop after the world being
        played (two worlds at least).  The worlds played."""
        worlds, sampler, deadline = self.worlds, self.sampler, self.deadline
        for i in range(width):
            if i == len(worlds):
                worlds.append((sampler.world(self.rng), self.rng.getrandbits(64)))
            world, seed = worlds[i]
            played = False
            for st in alive:
                if len(st.values) == i:
                    value, moves = sampler.playout(world, st.move, seed)
                    st.values.append(value)
                    self.used += moves + self.setup
                    self.playouts += 1
                    played = True
            if played and i >= 1 and deadline is not None and monotonic() >= deadline:
                self.late = True
                return i + 1
            if limit is not None and self.used >= limit and i >= 1:
                return i + 1
        return width

    def widen(self, alive: list[_Stats], width: int, limit: int) -> int:
        """More worlds for ``alive`` within ``limit`` moves (at most twice as many)."""
        room = (limit - self.used) / (self.used / self.playouts * len(alive))
        return width + int(min(width, room))


def _narrow(
    play: _Playing, stats: list[_Stats], base: _Stats, budget: Budget
) -> tuple[list[_Stats], int]:
    """The rounds of :func:`search`: the standard move (``base``, first)
    and the rivals left, and the worlds they were played in."""
    alive = stats[:]
    # the first round stops early if the candidates are many and long
    width = play.fill(alive, budget.worlds, budget.moves)
    while not play.late:
        width = play.fill(alive, width)
        # drop what is clearly worse than the standard move, then the worse half
        rivals = [s for s in alive if s is not base and _z(s, base, width) > -budget.decisive]
        rivals.sort(key=lambda s: -s.mean(width))
        if len(rivals) > 1:
            rivals = rivals[: (len(rivals) + 1) // 2]
        alive = [base] + rivals
        if not rivals or play.used >= budget.moves or play.late:
            break
        wider = play.widen(alive, width, budget.moves)
        if wider - width < 2:
            break
        width = wider
    return alive, width


def _look_closer(
    play: _Playing, alive: list[_Stats], base: _Stats, width: int, budget: Budget
) -> tuple[list[_Stats], int]:
    """A close call between the best rival and the standard move: more
    worlds for the two, within the budget's extra moves."""
    limit = budget.moves + budget.extra
    while len(alive) > 1 and not play.late:
        best = max(alive[1:], key=lambda s: s.mean(width))
        z = _z(best, base, width)
        if not budget.confidence - budget.close <= z < budget.confidence:
            break
        alive = [base, best]
        wider = play.widen(alive, width, limit)
        if wider - width < 2:
            break
        width = play.fill(alive, wider)
    return alive, width


@dataclass(frozen=True)
class Trial:
    """How a confident analysis is made (``confirm``): worlds in steps of
    ``step``, at least ``least`` and at most ``most`` (``seconds``: a time
    cap, None for none), until the paired difference is ``bar`` standard
    errors from 0 either way."""

    bar: float = 2.5
    step: int = 16
    least: int = 32
    most: int = 400
    seconds: float | None = 2.0


@dataclass(frozen=True)
class Verdict:
    """What a confident analysis found about ``rival`` against ``standard``:
    ``better`` when it beats it by ``Trial.bar`` standard errors of the
    paired difference of values; ``z`` those standard errors; ``hands`` the
    hands won more by the rival a hand (half the mean difference of the
    hands' signs); ``worlds`` how many each move met."""

    standard: Move
    rival: Move
    better: bool
    z: float
    hands: float
    worlds: int


def confirm(
    sampler: Sampler, standard: Move, rival: Move, rng: random.Random, trial: Trial = Trial()
) -> Verdict:
    """Whether ``rival`` is clearly better than ``standard``: both played
    out in the same fresh worlds (common random numbers), a step at a time,
    until the difference of their values is ``trial.bar`` standard errors
    from 0 (at ``trial.least`` worlds or more) or ``trial.most`` worlds are
    played.  Worlds of its own: a rival chosen by a search is judged on
    worlds that did not choose it."""
    diffs: list[float] = []
    signs: list[int] = []
    deadline = None if trial.seconds is None else monotonic() + trial.seconds
    z = 0.0
    while len(diffs) < trial.most:
        for _ in range(min(trial.step, trial.most - len(diffs))):
            world, seed = sampler.world(rng), rng.getrandbits(64)
            a, _ = sampler.play(world, rival, seed)
            b, _ = sampler.play(world, standard, seed)
            diffs.append(sampler.value(a) - sampler.value(b))
            signs.append(sampler.sign(a) - sampler.sign(b))
        z = paired_z(diffs)[0]
        if len(diffs) >= trial.least and abs(z) >= trial.bar:
            break
        if deadline is not None and monotonic() >= deadline:
            break
    hands = sum(signs) / len(signs) / 2
    return Verdict(standard, rival, z >= trial.bar, z, hands, len(diffs))


def _z(a: _Stats, b: _Stats, n: int) -> float:
    """How many standard errors ``a``'s mean beats ``b``'s by, paired over
    the first ``n`` worlds."""
    return paired_z([x - y for x, y in zip(a.values[:n], b.values[:n])])[0]


def paired_z(diffs: Sequence[float]) -> tuple[float, float]:
    """How many standard errors the mean of paired ``diffs`` is from 0,
    and its standard error (0 where the diffs do not vary).

    >>> paired_z([1.0, 3.0])
    (2.0, 1.0)
    """
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    if var <= 0:
        return (math.inf if mean > 0 else (0.0 if mean == 0 else -math.inf)), 0.0
    error = math.sqrt(var / n)
    return mean / error, error


def distinct_moves(view: SeatView, legal: Sequence[Move]) -> list[Move]:
    """The legal moves that do different things: one per kind of move,
    card and target (the first slot holding the card).  Never the discard
    of a safety: playing it is always legal and better."""
    hand = view.hand
    seen: set[tuple[int, int, int | None]] = set()
    moves: list[Move] = []
    for move in legal:
        if isinstance(move, Use):
            key = (0, hand[move.slot], move.target)
        elif isinstance(move, Discard):
            if is_safety(hand[move.slot]):
                continue
            key = (1, hand[move.slot], None)
        else:
            moves.append(move)
            continue
        if key not in seen:
            seen.add(key)
            moves.append(move)
    return moves


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def expand(counts: Sequence[int]) -> list[int]:
    """A multiset of kinds as a list, in card order."""
    return [kind for kind, n in enumerate(counts) for _ in range(n)]


def standard_policy(
    view: SeatView,
    rng: random.Random,
    public: Sequence[int] | None = None,
    need: Sequence[int] | None = None,
) -> Player:
    """The preset's standard computer for ``view``'s seat (BSD's for bsd,
    the rules-aware heuristic otherwise), built from the view by its own
    class (``from_view``): it counts as seen what that seat sees
    (``public``: the counts of ``SeatView.public_counts``, if known);
    BSD's starts from ``need`` (its Numneed) if given."""
    if STANDARD_COMPUTERS[view.rules.standard_computer] is BsdComputer:
        return BsdComputer.from_view(view, rng, public, need)
    return Heuristic.from_view(view, rng, public)


class Sampler:
    """One decision's view: the unseen cards, the worlds, the playouts.

    ``beliefs`` are the guesses at each other seat's hand (a world deals
    the hand from one of them), ``needs`` BSD's Numneed of each other seat
    (its standard computer in the playouts starts from it), ``safeties``
    where the unseen safeties are (None: dealt at random with the rest);
    ``objective`` how a playout is valued (one of ``OBJECTIVES``).
    """

    def __init__(
        self,
        view: SeatView,
        beliefs: dict[int, list[list[int]]] | None = None,
        needs: dict[int, list[int]] | None = None,
        safeties: SafetyTracker | None = None,
        objective: str = "points",
        value: ValueModel | None = None,
        horizon: int | None = None,
    ) -> None:
        check_objective(objective)
        self.view = view
        self.objective = objective
        # cut playouts: after ``horizon`` moves, scored by ``value`` (None: played out)
        self.value_model = value
        self.horizon = horizon if value is not None else None
        rules = view.rules
        # the game may end with this hand: its chance counts (hands objective)
        self.near_end = max(view.totals) + HAND_POINTS >= rules.winning_score
        self.safeties = safeties
        self.seat = seat = view.seat
        self.needs = needs or {}
        self.side = view.side_of(seat)
        self.public = view.public_counts()
        self.unseen = view.unseen()
        self.beliefs = beliefs or {}

    def world(self, rng: random.Random) -> Table:
        """A table consistent with what the seat sees, hidden cards dealt at
        random: each other hand from one of the seat's guesses about it
        (its belief particles; a card no longer unseen is dealt at random
        instead), the rest shuffled."""
        world = self.view.world()
        left = self.unseen[:]
        placed = self.safeties.deal(rng) if self.safeties is not None else {}
        for safety in placed:
            left[safety] -= 1
        chosen: dict[int, list[int]] = {}
        for other, hand in enumerate(world.hands):
            particles = self.beliefs.get(other)
            if other == self.seat or not particles:
                continue
            room = sum(c != NO_CARD for c in hand)
            held = [s for s, place in placed.items() if place == other][:room]
            for safety in held:
                del placed[safety]
            cards: list[int] = []
            for card in rng.choice(particles):
                if left[card] > 0 and len(cards) < room - len(held):
                    left[card] -= 1
                    cards.append(card)
            chosen[other] = cards + held
        rest = expand(left)
        rng.shuffle(rest)
        # the safeties for the deck (or for a hand with no room for them);
        # drawn one by one, more may be for the deck than it holds: a hand
        # left short then takes one
        spare = list(placed)
        for other, hand in enumerate(world.hands):
            if other == self.seat:
                continue
            cards = chosen.get(other, [])
            k = 0
            for slot, card in enumerate(hand):
                if card != NO_CARD:
                    if k < len(cards):
                        hand[slot] = cards[k]
                        k += 1
                    else:
                        hand[slot] = rest.pop() if rest else spare.pop()
        for safety in spare:
            rest.insert(rng.randrange(len(rest) + 1), safety)
        world.deck = rest
        if world.rules.reshuffle:
            world.seed = rng.getrandbits(32)
        return world

    def policies(self, views: Sequence[SeatView], rng: random.Random) -> list[Player]:
        """The standard computer in every seat of a world, its counts from
        what that seat sees (``views``: the world's, by seat)."""
        needs = self.needs
        return [
            standard_policy(
                view, rng, self.public, None if view.seat == self.seat else needs.get(view.seat)
            )
            for view in views
        ]

    def base_move(self, seed: int, candidates: list[Move]) -> Move:
        """The standard computer's move here (as one of ``candidates``)."""
        world = self.world(random.Random(seed))
        views = _views(world)
        players = self.policies(views, random.Random(seed))
        move = players[self.seat].choose(views[self.seat])
        if move in candidates:
            return move
        hand = self.view.hand
        for other in candidates:
            if (
                type(other) is type(move)
                and isinstance(other, (Use, Discard))
                and isinstance(move, (Use, Discard))
                and hand[other.slot] == hand[move.slot]
                and getattr(other, "target", None) == getattr(move, "target", None)
            ):
                return other
        return candidates[0]

    def playout(self, world: Table, move: Move, seed: int) -> tuple[float, int]:
        """``move`` in a copy of ``world``, then the standard computers to
        the end of the hand (``play``): the value for the seat's side, and
        the moves made.  With a ``horizon``, the playout may be cut short
        (``play_cut``): twice the learned chance to win the hand less one
        at the cut, the hand's sign if it ended first."""
        if self.horizon is not None:
            t, moves, chance = self.play_cut(world, move, seed, self.horizon)
            if chance is not None:
                return 2.0 * chance - 1.0, moves
            return float(self.sign(t)), moves
        t, moves = self.play(world, move, seed)
        return self.value(t), moves

    def play(self, world: Table, move: Move, seed: int) -> tuple[Table, int]:
        """``move`` in a copy of ``world``, then the standard computers to
        the end of the hand: the finished table, and the moves made.

        Each seat draws from its own stream of the world's deck (the cards
        at every n-th place from the top, n the number of seats, starting
        with the next seat), so the cards a seat draws do not shift when a
        candidate changes who moves when (a safety's extra turn): the
        candidates stay comparable world by world.  Any fixed rule that
        takes each next card from places not yet drawn deals the unseen
        cards as fairly as the deck's order does.
        """
        t, moves, _chance = self.play_cut(world, move, seed, None)
        return t, moves

    def play_cut(
        self, world: Table, move: Move, seed: int, horizon: int | None
    ) -> tuple[Table, int, float | None]:
        """``play``, cut at the seat's first decision (after its pick)
        ``horizon`` or more moves after ``move`` (None: never): the table
        where it stopped, the moves made, and the value's chance that the
        seat's side wins the hand there (None if the hand ended first)."""
        t = world.copy()
        rng = random.Random(seed)
        views = _views(t)
        players = self.policies(views, rng)
        watchers = list(zip(players, views))
        streams = self.streams(world)
        refills = world.refills
        moves = 0
        seat = t.current_player
        assert seat is not None
        while True:
            if isinstance(move, Pick):
                if streams is not None and t.deck and t.refills == refills:
                    _arrange(t, streams, seat)
                t.apply_unchecked(move)
                if (
                    seat == self.seat
                    and horizon is not None
                    and moves + 1 >= horizon
                    and len(t.drawn) == 1
                    and t.phase == PLAYING
                    and self.value_model is not None
                ):
                    chance = self.value_model.win_chance(views[seat])
                    if chance is not None:
                        return t, moves + 1, chance
                outcome = Outcome(seat, move, NO_CARD, t.drawn)
                seen = seen_by_others(outcome)  # how many cards, not which
                for player, view in watchers:
                    player.observe(view, outcome if view.seat == seat else seen)
            else:
                if isinstance(move, Answer):
                    outcome = t.apply_answer(seat, move)
                else:
                    card = t.hands[seat][move.slot]
                    t.apply_unchecked(move)
                    outcome = Outcome(seat, move, card)
                for player, view in watchers:
                    player.observe(view, outcome)
            moves += 1
            phase = t.phase
            if phase == OVER:
                break
            next_seat = t.to_move if phase == PLAYING else t.asked
            assert next_seat is not None
            seat = next_seat
            move = players[seat].choose(views[seat])
        return t, moves, None

    def streams(self, world: Table) -> list[list[int]] | None:
        """Each seat's cards of the world's deck, the first to draw last
        (None under ``no duplicates``, where a draw depends on the hand)."""
        if world.rules.rigging == "no duplicates":
            return None
        n = world.rules.players
        first = (self.seat + 1) % n
        streams: list[list[int]] = [[] for _ in range(n)]
        for k, card in enumerate(reversed(world.deck)):
            streams[(first + k) % n].append(card)
        for stream in streams:
            stream.reverse()
        return streams

    def sign(self, t: Table) -> int:
        """A finished hand for the seat's side: won 1, lost -1, even 0 (its
        score against the best opposing side's)."""
        scores = [t.hand_score(side).total for side in range(1, t.rules.sides + 1)]
        mine = scores[self.side - 1]
        best = max(s for i, s in enumerate(scores) if i != self.side - 1)
        return (mine > best) - (mine < best)

    def value(self, t: Table) -> float:
        """A finished hand's worth to the seat's side (see the module docstring)."""
        sides = t.rules.sides
        scores = [t.hand_score(side).total for side in range(1, sides + 1)]
        mine = scores[self.side - 1]
        others = [s for i, s in enumerate(scores) if i != self.side - 1]
        diff = mine - max(others)
        totals = [t.totals[i] + scores[i] for i in range(sides)]
        if self.objective == "points":
            return diff + GAME_WEIGHT * game_chance(t, totals, self.side)
        worth = (diff > 0) - (diff < 0) + POINTS_WEIGHT * math.tanh(diff / POINTS_SCALE)
        if self.near_end:
            worth += GAME_HANDS * (2.0 * game_chance(t, totals, self.side) - 1.0)
        return worth


def _views(world: Table) -> list[SeatView]:
    """What each seat of a world sees."""
    return [SeatView(world, seat) for seat in range(world.rules.players)]


def _arrange(t: Table, streams: list[list[int]], seat: int) -> None:
    """Put the next cards of ``seat``'s stream on top of the deck (another
    seat's once its own is out), for the pick it is about to make."""
    deck = t.deck
    hand = t.hands[seat]
    count = min(len(deck), 2 if hand[1] == NO_CARD else 1)
    for k in range(count):
        stream = streams[seat]
        if not stream:
            stream = next(s for s in streams if s)
        card = stream.pop()
        top = len(deck) - 1 - k
        i = deck.index(card, 0, top + 1)
        deck[i], deck[top] = deck[top], deck[i]


def game_chance(t: Table, totals: list[int], side: int) -> float:
    """An estimate of ``side``'s chance to win the game, from the totals
    after a hand: 1 or 0 once it is over, else a normal approximation of the
    race to the winning score against the best opposing side."""
    rules = t.rules
    mine = totals[side - 1]
    best_other = max(s for i, s in enumerate(totals) if i != side - 1)
    top = max(totals)
    if top >= rules.winning_score:
        if mine == top and totals.count(top) == 1:
            return 1.0
        if mine == top:
            return 0.5
        if totals.count(top) > 1 and rules.game_tie == TIE_NO_GAME:
            return 0.5
        return 0.0
    hands_left = max(1.0, (rules.winning_score - top) / HAND_POINTS)
    return _phi((mine - best_other) / (HAND_SPREAD * math.sqrt(hands_left)))


__all__ = [
    "DEFAULT_BUDGET",
    "STANDARD_COMPUTERS",
    "Budget",
    "CUT_BUDGET",
    "Choice",
    "FULL_BUDGET",
    "ExpertError",
    "GAME_HANDS",
    "OBJECTIVES",
    "POINTS_SCALE",
    "POINTS_WEIGHT",
    "Sampler",
    "Trial",
    "Verdict",
    "check_objective",
    "confirm",
    "distinct_moves",
    "expand",
    "game_chance",
    "paired_z",
    "search",
    "standard_policy",
]
