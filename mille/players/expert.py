"""The expert computer: a determinized Monte-Carlo search over the engine.

It sees only what its seat may see: its own hand, every tableau, the
discard pile and the set-aside pile, how many cards each other seat holds,
the deck's size, and the moves it watched.  Never the order of the deck,
never another hand.

**What the other hands may hold.**  For each other seat it keeps guesses
at that seat's hidden cards (particles; ``PARTICLES`` shared out between
the other seats, at most ``MAX_EACH`` each), dealt at first from the
unseen cards.
When a seat is to decide, it works out what the preset's standard computer
would do there with each guess; when the seat's move comes, a guess that
foresaw it keeps its weight and one that did not keeps ``SURPRISE`` of it
(a person, or another computer, plays otherwise now and then), and the
guesses are drawn again by weight.  A card the seat plays leaves its
guesses, a pick adds unseen cards at random, a card that comes into view
elsewhere is replaced, and a ``Coup Fourre?`` put to a seat puts the
safety in every guess.  Against the standard computer (which it foresees
99 times in 100 given the hand) this is Bayes' rule over its hand.  In
``bsd`` it also keeps the count BSD's computer keeps of the remedies it
needs (Numneed: two more each time it decides while stopped, never reset),
which it can work out from the table; without it, that computer's play
in later hands is foreseen 95 times in 100, not 99, and the guesses drift.
The guesses cannot tell where the safeties are (a computer keeps them, so
they hardly change what it plays, and drawing the guesses again fixes a
safety into most of them by chance): a ``SafetyTracker`` keeps the chance
of each place for each unseen safety apart (see ``mille.players.safeties``).

For each real decision (more than one distinct legal move):

1. **Worlds.**  It counts the cards it cannot see (the preset's deck less
   every card in view: nothing hidden goes in), deals each other hand from
   one of its guesses (a card no longer unseen is replaced at random), its
   safeties put where the tracker's chances draw them, and shuffles the
   rest, in card order first, with its own ``random.Random`` into the
   deck.  Under the reshuffle rule the order of a future reshuffle is
   hidden too: each world draws its own ``table.seed``.
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
4. **Value.**  A playout is worth its side's hand score less the best
   opposing side's, plus ``GAME_WEIGHT`` times an estimate of its chance
   to win the game from the totals after the hand (1 or 0 once the game is
   over).
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
nobody waits long on a slow or busy machine.  It
always answers ``Coup Fourre?`` yes and takes BSD's coup-fourre window
(the coup is worth 300 points and a turn); ``Extension?`` is searched.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from time import monotonic
from typing import Any

from ..engine.cards import (
    CARD_NAMES,
    EXTRA_TANK,
    HAND_SLOTS,
    NO_CARD,
    NUM_SAFETIES,
    is_safety,
)
from ..engine.rules import TIE_NO_GAME
from ..engine.table import (
    COUP,
    EXTENSION,
    NO,
    OVER,
    PICK,
    PLAYING,
    YES,
    Answer,
    Discard,
    Move,
    Outcome,
    Pick,
    Table,
    Use,
)
from ..engine.view import SeatView, seen_by_others
from .base import Player
from .computer import IN_HAND, INITIAL_NEED, PLAYED, UNKNOWN, BsdComputer, needed_remedy
from .heuristic import KINDS, NAMES, Heuristic
from .memory import card_counts, integer, quote, seat_number
from .safeties import SafetyTracker

# Guesses kept about the other hands, shared out.  Against one opponent,
# 1,000 guesses hold four times as many different hands as 200 did and get
# more of its cards right (49% against 45%; a random guess gets 35%).
# Watching a move costs under 20 ms.
PARTICLES = 2000
MAX_EACH = 1000
SURPRISE = 0.03  # the weight of a guess whose foreseen move was not made
GAME_WEIGHT = 3000.0  # points a sure game win is worth over a lost one
HAND_SPREAD = 900.0  # the spread of one hand's score difference (bsd, about)
HAND_POINTS = 1000.0  # what a side scores in a hand, about


class ExpertError(ValueError):
    """A misuse of the expert, or a saved memory that cannot be restored;
    ``str()`` is the exact message."""


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

    The defaults are half of what they were before the expert kept its
    safeties apart: on the same decisions, twice the budget (and four
    times) chose no better, measured by ``bench/bench_decisions.py``.
    """

    moves: int = 16_000
    worlds: int = 12
    confidence: float = 1.5
    decisive: float = 2.0
    extra: int = 24_000
    close: float = 1.0
    seconds: float | None = 0.9

    def __post_init__(self) -> None:
        if self.moves < 1 or self.worlds < 2 or self.extra < 0:
            raise ExpertError("a budget needs at least 1 move and 2 worlds")
        if self.seconds is not None and not self.seconds > 0:
            raise ExpertError("a budget's time cap must be more than 0 seconds")


DEFAULT_BUDGET = Budget()


@dataclass
class _Stats:
    """One candidate's playout values, world by world."""

    move: Move
    values: list[float]

    def mean(self, n: int) -> float:
        return sum(self.values[:n]) / n


class Expert:
    """The search player of one seat (see the module docstring)."""

    track_safeties = True  # deal the worlds' safeties from ``safeties``

    def __init__(self, rng: random.Random, seat: int, *, budget: Budget = DEFAULT_BUDGET) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise ExpertError(f"seat must be a whole number from 0, not {seat!r}")
        self.rng = rng
        self.seat = seat
        self.budget = budget
        # by other seat: guesses at its hidden cards (the particles), and
        # what the standard computer would do now with each of them
        self.beliefs: dict[int, list[list[int]]] = {}
        self.predictions: dict[int, list[str]] = {}
        # bsd: by other seat, BSD's Numneed as that seat's computer keeps it
        # (never reset, like the computer's), and the remedy it will note
        # as needed if its coming move is not a safety
        self.needs: dict[int, list[int]] = {}
        self.stopped: dict[int, int] = {}
        # where each unseen safety is (the guesses cannot tell: see safeties.py)
        self.safeties = SafetyTracker(seat)
        self.last_moves = 0  # simulated moves of the last decision (for benchmarks)
        self.last_playouts = 0

    # ----- memory: what the other hands may hold ----------------------------------

    def start_hand(self, view: SeatView) -> None:
        """A new deal: every other hand is a guess among the unseen cards."""
        self.predictions = {}
        unseen = view.unseen()
        pool = _expand(unseen)
        count = min(MAX_EACH, PARTICLES // max(1, view.rules.players - 1))
        self.beliefs = {}
        for other, size in enumerate(view.hand_sizes):
            if other != self.seat:
                self.beliefs[other] = [self.rng.sample(pool, size) for _ in range(count)]
        self.safeties.start_hand(view, unseen)
        self._predict(view)

    def observe(self, view: SeatView, outcome: Outcome) -> None:
        """Weigh the guesses about a seat by the move it made, update them
        with what it played and drew, then foresee the next seat's move."""
        seat = outcome.seat
        remedy = self.stopped.pop(seat, None)
        if (
            remedy is not None
            and isinstance(outcome.move, (Use, Discard))
            and not (isinstance(outcome.move, Use) and outcome.card >= EXTRA_TANK)
        ):
            # (BSD's calcmove notes it twice)
            self.needs.setdefault(seat, list(INITIAL_NEED))[remedy] += 2
        particles = self.beliefs.get(seat)
        if particles is not None:
            self._weigh(seat, particles, outcome)
        if (
            view.phase == COUP
            and view.offer is not None
            and view.asked is not None
            and view.asked != self.seat
        ):
            # the question shows that the seat asked holds the safety
            safety = view.offer[1]
            for particle in self.beliefs.get(view.asked, []):
                if safety not in particle:
                    particle[self.rng.randrange(len(particle))] = safety
        unseen = view.unseen()
        self._repair(view, unseen)
        self.safeties.observe(view, outcome, unseen)
        self._predict(view)

    def _weigh(self, seat: int, particles: list[list[int]], outcome: Outcome) -> None:
        """Draw the guesses about ``seat`` again by how well they foresaw
        its move, and take out the card it played."""
        rng = self.rng
        predicted = self.predictions.pop(seat, None)
        move = outcome.move
        card = (
            outcome.card if not isinstance(move, (Pick, Answer)) or outcome.coup_fourre else NO_CARD
        )
        if predicted is not None and len(predicted) == len(particles):
            actual = _outcome_key(outcome)
            weights = [
                (1.0 if key == actual else SURPRISE) * (card == NO_CARD or card in particle)
                for key, particle in zip(predicted, particles)
            ]
            particles[:] = [p[:] for p in _resample(particles, weights, rng)]
        if card != NO_CARD:
            for particle in particles:
                if card in particle:
                    particle.remove(card)
                elif particle:
                    particle.pop(rng.randrange(len(particle)))

    def _repair(self, view: SeatView, unseen: Sequence[int]) -> None:
        """Every guess holds as many cards as its seat, and only unseen ones:
        a card that came into view is replaced, a pick adds unseen cards (at
        the end: the last drawn)."""
        rng = self.rng
        sizes = view.hand_sizes
        for seat, particles in self.beliefs.items():
            size = sizes[seat] if seat < len(sizes) else 0
            for particle in particles:
                left = list(unseen)
                kept = []
                for c in particle:
                    if left[c] > 0:
                        left[c] -= 1
                        kept.append(c)
                del kept[size:]
                if len(kept) < size:
                    kept += _draw(left, size - len(kept), rng)
                particle[:] = kept

    def _predict(self, view: SeatView) -> None:
        """What the standard computer would do in the seat to decide, with
        each guess at its hand (a pick that is the only move tells nothing)."""
        seat = view.current_player
        if seat is None or seat == self.seat or seat not in self.beliefs:
            return
        t = view.world()  # the seat's hand is filled in below, guess by guess
        hand = t.hands[seat]
        self._note_stop(view, seat, hand)
        if view.phase == COUP or (
            view.phase != EXTENSION
            and hand[0] == NO_CARD
            and not view.rules.coup_window  # (a coup may come before the pick)
            and view.can_supply()
        ):
            return
        rng = random.Random(self.rng.getrandbits(64))
        public = _public(view)
        policy_view = SeatView(t, seat)
        slots = [i for i, c in enumerate(hand) if c != NO_CARD]
        if slots and slots[0] == 0:
            slots = slots[1:] + [0]  # the last card drawn is the one in P
        keys = []
        # the same guess twice is worked out once (one draw of the computer's dice)
        foreseen: dict[tuple[int, ...], str] = {}
        for particle in self.beliefs[seat]:
            if len(particle) != len(slots):
                keys.append("?")  # (never made: a guess that cannot be weighed)
                continue
            same = tuple(particle)
            key = foreseen.get(same)
            if key is None:
                for slot, card in zip(slots, particle):
                    hand[slot] = card
                policy = standard_policy(policy_view, rng, public, self.needs.get(seat))
                move = policy.choose(policy_view)
                card = hand[move.slot] if isinstance(move, (Use, Discard)) else NO_CARD
                key = foreseen[same] = move_key(move, card)
            keys.append(key)
        self.predictions[seat] = keys
        if view.phase != PLAYING:
            return
        need = self.needs.get(seat)

        def plays(cards: list[int], safety: int) -> bool | None:
            if len(cards) != len(slots):
                return None
            for slot, card in zip(slots, cards):
                hand[slot] = card
            move = standard_policy(policy_view, rng, public, need).choose(policy_view)
            return isinstance(move, Use) and hand[move.slot] == safety

        self.safeties.foresee(view, self.beliefs[seat], plays, rng)

    def _note_stop(self, view: SeatView, seat: int, hand: Sequence[int]) -> None:
        """BSD's computer, about to choose a move (not a pick) while stopped
        by a hazard, counts its remedy as needed twice more, for good
        (``BsdComputer._note_need``, called twice), unless it plays a safety
        first; what it counts changes what it plays, so the guesses about
        its hand follow it."""
        if (
            _STANDARD[view.rules.standard_computer] is not BsdComputer
            or view.phase != PLAYING
            or (hand[0] == NO_CARD and view.deck_size)
        ):
            return
        remedy = needed_remedy(view.tableaux[view.side_index(seat)])
        if remedy is not None:
            self.stopped[seat] = remedy

    # ----- the decision ----------------------------------------------------------

    def choose(self, view: SeatView) -> Move:
        """The move for its seat: a pick, a use, a discard or an answer."""
        if view.current_player != self.seat:
            raise ExpertError(f"seat {self.seat} is not to decide")
        self.last_moves = 0
        if view.phase == COUP:
            return YES
        if view.phase == EXTENSION:
            candidates: list[Move] = [YES, NO]
        else:
            legal = view.legal_moves()
            if PICK in legal:
                # bsd's coup-fourre window comes before the pick
                windows = [m for m in legal if isinstance(m, Use)]
                return windows[0] if windows else PICK
            candidates = distinct_moves(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates)

    def _search(self, view: SeatView, candidates: list[Move]) -> Move:
        budget = self.budget
        rng = random.Random(self.rng.getrandbits(64))
        sampler = _Sampler(
            view,
            self.beliefs,
            self.needs,
            self.safeties if self.track_safeties else None,
        )
        base_move = sampler.base_move(rng.getrandbits(64), candidates)
        stats = [_Stats(move, []) for move in candidates]
        base = next(s for s in stats if s.move == base_move)
        worlds: list[tuple[Table, int]] = []
        used = playouts = 0
        deadline = None if budget.seconds is None else monotonic() + budget.seconds
        late = False  # past the deadline: choose now

        def fill(alive: list[_Stats], width: int, limit: int | None = None) -> int:
            """Every candidate of ``alive`` played in the first ``width``
            worlds, world after world; with ``limit``, stop after the world
            that spends it, and past the deadline stop after the world being
            played (two worlds at least).  The worlds played."""
            nonlocal used, playouts, late
            for i in range(width):
                if i == len(worlds):
                    worlds.append((sampler.world(rng), rng.getrandbits(64)))
                world, seed = worlds[i]
                played = False
                for st in alive:
                    if len(st.values) == i:
                        value, moves = sampler.playout(world, st.move, seed)
                        st.values.append(value)
                        used += moves
                        playouts += 1
                        played = True
                if played and i >= 1 and deadline is not None and monotonic() >= deadline:
                    late = True
                    return i + 1
                if limit is not None and used >= limit and i >= 1:
                    return i + 1
            return width

        def widen(alive: list[_Stats], width: int, limit: int) -> int:
            """More worlds for ``alive`` within ``limit`` moves (at most twice as many)."""
            room = (limit - used) / (used / playouts * len(alive))
            return width + int(min(width, room))

        alive = stats[:]
        # the first round stops early if the candidates are many and long
        width = fill(alive, budget.worlds, budget.moves)
        while not late:
            width = fill(alive, width)
            # drop what is clearly worse than the standard move, then the worse half
            rivals = [s for s in alive if s is not base and _z(s, base, width) > -budget.decisive]
            rivals.sort(key=lambda s: -s.mean(width))
            if len(rivals) > 1:
                rivals = rivals[: (len(rivals) + 1) // 2]
            alive = [base] + rivals
            if not rivals or used >= budget.moves or late:
                break
            wider = widen(alive, width, budget.moves)
            if wider - width < 2:
                break
            width = wider
        # a close call between the best rival and the standard move: look closer
        limit = budget.moves + budget.extra
        while len(alive) > 1 and not late:
            best = max(alive[1:], key=lambda s: s.mean(width))
            z = _z(best, base, width)
            if not budget.confidence - budget.close <= z < budget.confidence:
                break
            alive = [base, best]
            wider = widen(alive, width, limit)
            if wider - width < 2:
                break
            width = fill(alive, wider)
        self.last_moves = used
        self.last_playouts = playouts
        best = max(alive, key=lambda s: s.mean(width))
        if best is not base and _z(best, base, width) >= budget.confidence:
            return best.move
        return base.move

    # ----- saving ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Its memory as JSON-able data (not its rng, not its budget): its
        guesses at each other hand, the moves it foresees, (bsd) each other
        seat's Numneed as it counts it, and the chances of where each unseen
        safety is.

        A guess is a string of card letters (``LETTERS``: ``a`` the 25, ...,
        ``t`` False Virtue) and a foreseen move names its card by its letter
        (``U:n``, ``D:a>2``): nine seats of experts hold 16,000 guesses, and
        card names made such a save over 1 MiB.  Nothing is left out, so a
        restored expert goes on exactly as the original.

        >>> _letters([0, 13, 19]), _short_key("U:Stop>2"), _long_key("U:i>2")
        ('ant', 'U:i>2', 'U:Stop>2')
        """
        return {
            "seat": self.seat,
            "beliefs": {
                str(seat): [_letters(particle) for particle in particles]
                for seat, particles in sorted(self.beliefs.items())
            },
            "predictions": {
                str(seat): [_short_key(key) for key in keys]
                for seat, keys in sorted(self.predictions.items())
            },
            "needs": {
                str(seat): {CARD_NAMES[c]: n for c, n in enumerate(need)}
                for seat, need in sorted(self.needs.items())
            },
            "safeties": self.safeties.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any, rng: random.Random, seat: int) -> Expert:
        """Rebuild a memory saved by ``to_dict`` for ``seat``;
        :class:`ExpertError` says what is wrong with it."""
        if not isinstance(data, dict):
            raise ExpertError("expert: expected an object")
        keys = ("seat", "beliefs", "predictions")
        for key in data:
            if key not in keys + ("needs", "safeties"):  # (optional: older saves lack them)
                raise ExpertError(f"expert: unknown key {quote(key)}")
        for key in keys:
            if key not in data:
                raise ExpertError(f"expert: missing key {key!r}")
        saved = integer(data["seat"], "expert: seat", ExpertError)
        if saved != seat:
            raise ExpertError(f"expert: saved for seat {quote(saved)}, not seat {seat}")
        beliefs: dict[int, list[list[int]]] = {}
        for other, raw in _by_seat(data["beliefs"], "beliefs", seat).items():
            where = f"expert: beliefs {str(other)!r}"
            if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PARTICLES:
                raise ExpertError(f"{where} must be a list of 1 to {MAX_PARTICLES} hands")
            beliefs[other] = [_hand(hand, where) for hand in raw]
        predictions: dict[int, list[str]] = {}
        for other, raw in _by_seat(data["predictions"], "predictions", seat).items():
            where = f"expert: predictions {str(other)!r}"
            if other not in beliefs:
                raise ExpertError(f"{where}: no beliefs about seat {other}")
            size = len(beliefs[other])
            if not isinstance(raw, list) or len(raw) != size:
                raise ExpertError(f"{where} must be a list of {size} moves")
            foreseen: list[str] = []
            for key in raw:
                long = _long_key(key)
                if not isinstance(long, str) or not _is_key(long):
                    raise ExpertError(f"{where}: {quote(key)} is not a move")
                foreseen.append(long)
            predictions[other] = foreseen
        needs: dict[int, list[int]] = {}
        for other, raw in _by_seat(data.get("needs", {}), "needs", seat).items():
            where = f"expert: needs {str(other)!r}"
            need = card_counts(raw, CARD_NAMES, where, ExpertError)
            for card, n in enumerate(need):
                if not INITIAL_NEED[card] <= n <= MAX_NEED:
                    raise ExpertError(
                        f"{where} {CARD_NAMES[card]!r} must be "
                        f"{INITIAL_NEED[card]} to {MAX_NEED}, not {quote(n)}"
                    )
            needs[other] = need
        bot = cls(rng, seat)
        bot.beliefs, bot.predictions, bot.needs = beliefs, predictions, needs
        if "safeties" in data:
            bot.safeties = SafetyTracker.from_dict(data["safeties"], seat, ExpertError)
        return bot


MAX_PARTICLES = MAX_EACH  # the most guesses a saved memory may hold about a hand
MAX_NEED = 10**6  # the most of a card a saved Numneed may count


# a card's letter in a saved memory (card i is LETTERS[i])
LETTERS = "abcdefghijklmnopqrst"
assert len(LETTERS) == len(NAMES)
_BY_LETTER = {letter: card for card, letter in enumerate(LETTERS)}
_BY_NAME = {name: card for card, name in enumerate(NAMES)}


def _letters(cards: Sequence[int]) -> str:
    return "".join(LETTERS[c] for c in cards)


def _short_key(key: str) -> str:
    """A foreseen move as a save writes it: its card's name as its letter."""
    kind, colon, rest = key.partition(":")
    if not colon:
        return key
    name, arrow, target = rest.partition(">")
    return f"{kind}:{LETTERS[_BY_NAME[name]]}{arrow}{target}"


def _long_key(key: object) -> object:
    """A saved foreseen move as ``move_key`` writes it (a card letter back
    to its name; older saves wrote the name: left as it is)."""
    if not isinstance(key, str):
        return key
    kind, colon, rest = key.partition(":")
    name, arrow, target = rest.partition(">")
    if colon and name in _BY_LETTER:
        return f"{kind}:{NAMES[_BY_LETTER[name]]}{arrow}{target}"
    return key


def _hand(raw: object, where: str) -> list[int]:
    """A saved guess at a hand: a string of card letters, or (older saves)
    a list of card names."""
    if isinstance(raw, str):
        if len(raw) > HAND_SLOTS:
            raise ExpertError(f"{where}: a hand must be at most {HAND_SLOTS} card letters")
        for letter in raw:
            if letter not in _BY_LETTER:
                raise ExpertError(f"{where}: unknown card letter {quote(letter)}")
        return [_BY_LETTER[letter] for letter in raw]
    if not isinstance(raw, list):
        raise ExpertError(f"{where}: a hand must be a string of card letters")
    if len(raw) > HAND_SLOTS:
        raise ExpertError(f"{where}: a hand must be a list of at most {HAND_SLOTS} cards")
    for name in raw:
        if not isinstance(name, str) or name not in _BY_NAME:
            raise ExpertError(f"{where}: unknown card {quote(name)}")
    return [_BY_NAME[name] for name in raw]


def _by_seat(raw: Any, what: str, seat: int) -> dict[int, Any]:
    """An object keyed by other seats' numbers, as a dict by seat."""
    if not isinstance(raw, dict):
        raise ExpertError(f"expert: {what} must be an object")
    result = {}
    for key, value in raw.items():
        other = seat_number(key)
        if other is None:
            raise ExpertError(f"expert: {what}: {quote(key)} is not a seat number")
        if other == seat:
            raise ExpertError(f"expert: {what}: seat {other} is its own seat")
        result[other] = value
    return result


def _is_key(key: object) -> bool:
    """Is ``key`` a move as ``move_key`` writes it?"""
    if not isinstance(key, str):
        return False
    if key in ("P", "Y", "N", "?"):
        return True
    kind, _, rest = key.partition(":")
    if kind == "D":
        return rest in NAMES
    if kind != "U":
        return False
    name, _, target = rest.partition(">")
    return name in NAMES and (
        target == "" or target.isdigit() and target.isascii() and len(target) == 1
    )


def _z(a: _Stats, b: _Stats, n: int) -> float:
    """How many standard errors ``a``'s mean beats ``b``'s by, paired over
    the first ``n`` worlds."""
    diffs = [x - y for x, y in zip(a.values[:n], b.values[:n])]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    if var <= 0:
        return math.inf if mean > 0 else (0.0 if mean == 0 else -math.inf)
    return mean / math.sqrt(var / n)


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


def _resample(
    particles: list[list[int]], weights: list[float], rng: random.Random
) -> list[list[int]]:
    """As many particles, drawn by weight (systematic resampling); the same
    particles if every weight is 0."""
    total = sum(weights)
    n = len(particles)
    if total <= 0:
        return particles
    step = total / n
    point = rng.random() * step
    chosen = []
    acc = 0.0
    i = -1
    for _ in range(n):
        while acc <= point and i < n - 1:
            i += 1
            acc += weights[i]
        chosen.append(particles[i])
        point += step
    return chosen


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _public(table: Table | SeatView) -> list[int]:
    """Counts by kind of the cards every seat sees (piles and tableaux)."""
    counts = [0] * KINDS
    for card in table.discard + table.set_aside:
        counts[card] += 1
    for tab in table.tableaux:
        for card in tab.cards():
            counts[card] += 1
    return counts


def _draw(counts: list[int], k: int, rng: random.Random) -> list[int]:
    """``k`` kinds drawn at random without replacement from the multiset
    ``counts`` (which loses them), in the order drawn: distributed as
    ``rng.sample`` of its ``_expand``, without building the list (all of it
    if ``k`` is more).

    >>> counts = [2, 0, 1]
    >>> sorted(_draw(counts, 5, random.Random(1))), counts
    ([0, 0, 2], [0, 0, 0])
    """
    total = sum(counts)
    drawn = []
    for _ in range(min(k, total)):
        r = rng.randrange(total)
        kind = 0
        while r >= counts[kind]:
            r -= counts[kind]
            kind += 1
        counts[kind] -= 1
        total -= 1
        drawn.append(kind)
    return drawn


def _expand(counts: Sequence[int]) -> list[int]:
    """A multiset of kinds as a list, in card order."""
    return [kind for kind, n in enumerate(counts) for _ in range(n)]


def standard_policy(
    view: SeatView,
    rng: random.Random,
    public: Sequence[int] | None = None,
    need: Sequence[int] | None = None,
) -> Player:
    """The preset's standard computer for ``view``'s seat (BSD's for bsd,
    the rules-aware heuristic otherwise), counting as seen what that seat
    sees (``public``: the counts of ``_public``, if known); BSD's starts
    from ``need`` (its Numneed) if given."""
    rules = view.rules
    seat = view.seat
    seen = list(_public(view) if public is None else public)
    hand = view.hand
    for card in hand:
        if card != NO_CARD:
            seen[card] += 1
    if _STANDARD[rules.standard_computer] is BsdComputer:
        bot = BsdComputer(rng, seat)
        bot.seen = seen[: EXTRA_TANK + NUM_SAFETIES]
        own = view.tableaux[seat].safeties
        bot.safeties = [
            PLAYED if EXTRA_TANK + i in own else IN_HAND if EXTRA_TANK + i in hand else UNKNOWN
            for i in range(NUM_SAFETIES)
        ]
        if need is not None:
            bot.need = list(need)
        return bot
    heuristic = Heuristic(rng, seat)
    heuristic.deck = list(rules.deck) + [rules.false_virtues]
    heuristic.seen = seen
    heuristic.refills = view.refills
    return heuristic


def move_key(move: Move, card: int) -> str:
    """A move as a belief compares it: ``P``, ``Y``, ``N``, ``U:Go``,
    ``U:Stop>2``, ``D:25`` (``card`` the card it uses or discards)."""
    if isinstance(move, Pick):
        return "P"
    if isinstance(move, Answer):
        return "Y" if move.yes else "N"
    if isinstance(move, Discard):
        return f"D:{NAMES[card]}"
    target = "" if move.target is None else f">{move.target}"
    return f"U:{NAMES[card]}{target}"


def _outcome_key(outcome: Outcome) -> str:
    move = outcome.move
    if isinstance(move, Answer) and outcome.coup_fourre:
        return "Y"
    return move_key(move, outcome.card)


class _Sampler:
    """One decision's view: the unseen cards, the worlds, the playouts."""

    def __init__(
        self,
        view: SeatView,
        beliefs: dict[int, list[list[int]]] | None = None,
        needs: dict[int, list[int]] | None = None,
        safeties: SafetyTracker | None = None,
    ) -> None:
        self.view = view
        self.safeties = safeties
        self.seat = seat = view.seat
        self.needs = needs or {}
        self.side = view.side_of(seat)
        self.public = _public(view)
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
        rest = _expand(left)
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
        the end of the hand: the value for the seat's side, and the moves made.

        Each seat draws from its own stream of the world's deck (the cards
        at every n-th place from the top, n the number of seats, starting
        with the next seat), so the cards a seat draws do not shift when a
        candidate changes who moves when (a safety's extra turn): the
        candidates stay comparable world by world.  Any fixed rule that
        takes each next card from places not yet drawn deals the unseen
        cards as fairly as the deck's order does.
        """
        t = world.copy()
        rng = random.Random(seed)
        views = _views(t)
        players = self.policies(views, rng)
        streams = self.streams(world)
        refills = world.refills
        moves = 0
        while True:
            seat = t.current_player
            assert seat is not None
            if isinstance(move, Pick):
                if streams is not None and t.deck and t.refills == refills:
                    _arrange(t, streams, seat)
                t.apply_unchecked(move)
                outcome = Outcome(seat, move, drawn=t.drawn)
                seen = seen_by_others(outcome)  # how many cards, not which
            elif isinstance(move, Answer):
                offer = t.offer
                t.apply_unchecked(move)
                if offer is not None and move.yes:
                    outcome = Outcome(seat, move, card=offer[1], coup_fourre=True)
                else:
                    outcome = Outcome(seat, move)
                seen = outcome
            else:
                card = t.hands[seat][move.slot]
                t.apply_unchecked(move)
                seen = outcome = Outcome(seat, move, card=card)
            moves += 1
            for player, view in zip(players, views):
                player.observe(view, outcome if player.seat == seat else seen)
            if t.phase == OVER:
                break
            seat = t.current_player
            assert seat is not None
            move = players[seat].choose(views[seat])
        return self.value(t), moves

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

    def value(self, t: Table) -> float:
        """A finished hand's worth to the seat's side (see the module docstring)."""
        sides = t.rules.sides
        scores = [t.hand_score(side).total for side in range(1, sides + 1)]
        mine = scores[self.side - 1]
        others = [s for i, s in enumerate(scores) if i != self.side - 1]
        diff = mine - max(others)
        totals = [t.totals[i] + scores[i] for i in range(sides)]
        return diff + GAME_WEIGHT * game_chance(t, totals, self.side)


# the standard computers, by the kind their rules name (see players.registry)
_STANDARD: dict[str, type[Player]] = {"bsd": BsdComputer, "heuristic": Heuristic}


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


__all__ = ["Budget", "DEFAULT_BUDGET", "Expert", "ExpertError", "distinct_moves", "game_chance"]
