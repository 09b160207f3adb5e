"""What the other hands may hold, as one seat can tell: the expert's
guesses at them, how each move changes them, and their saved form.

For each other seat it keeps guesses at that seat's hidden cards
(particles; ``PARTICLES`` shared out between the other seats, at most
``MAX_EACH`` each), dealt at first from the unseen cards.  When a seat is
to decide, it works out what the preset's standard computer would do there
with each guess; when the seat's move comes, a guess that foresaw it keeps
its weight and one that did not keeps ``SURPRISE`` of it (a person, or
another computer, plays otherwise now and then), and the guesses are drawn
again by weight.  A card the seat plays leaves its guesses, a pick adds
unseen cards at random, a card that comes into view elsewhere is replaced,
and a ``Coup Fourre?`` put to a seat puts the safety in every guess.
Against the standard computer (which it foresees 99 times in 100 given the
hand) this is Bayes' rule over its hand.  In ``bsd`` it also keeps the
count BSD's computer keeps of the remedies it needs (Numneed: two more each
time it decides while stopped, never reset), which it can work out from the
table; without it, that computer's play in later hands is foreseen 95 times
in 100, not 99, and the guesses drift.

The guesses cannot tell where the safeties are (a computer keeps them, so
they hardly change what it plays, and drawing the guesses again fixes a
safety into most of them by chance): a ``SafetyTracker`` keeps the chance
of each place for each unseen safety apart (see ``mille.players.safeties``),
and ``Beliefs.predict`` gives it what it needs (a ``Foresight``): whether
the seat to move would play a safety put in one of its guesses.

The expert's search deals the other hands of its worlds from these guesses
(``mille.players.search``).  A save keeps them whole (``Beliefs.to_dict``),
so a restored expert goes on exactly as the original.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..engine.cards import CARD_NAMES, EXTRA_TANK, HAND_SLOTS, NO_CARD
from ..engine.table import COUP, EXTENSION, PLAYING, Answer, Discard, Move, Outcome, Pick, Use
from ..engine.view import SeatView
from .computer import INITIAL_NEED, BsdComputer, needed_remedy
from .heuristic import NAMES
from .memory import card_counts, quote, seat_number
from .safeties import Plays
from .search import STANDARD_COMPUTERS, ExpertError, expand, standard_policy

# Guesses kept about the other hands, shared out.  Against one opponent,
# 1,000 guesses hold four times as many different hands as 200 did and get
# more of its cards right (49% against 45%; a random guess gets 35%).
# Watching a move costs under 20 ms.
PARTICLES = 2000
MAX_EACH = 1000
SURPRISE = 0.03  # the weight of a guess whose foreseen move was not made
MAX_PARTICLES = MAX_EACH  # the most guesses a saved memory may hold about a hand
MAX_NEED = 10**6  # the most of a card a saved Numneed may count

KEYS = ("beliefs", "predictions")  # what a saved memory holds
OPTIONAL_KEYS = ("needs",)  # (older saves lack it)


class Foresight(NamedTuple):
    """For the ``SafetyTracker``: the guesses at the hand of the seat to
    move, whether the standard computer there would play a safety put in
    one (``plays``), and the random stream to draw guesses with."""

    particles: list[list[int]]
    plays: Plays
    rng: random.Random


class Beliefs:
    """The guesses of ``seat`` at each other seat's hand (see the module
    docstring)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        # by other seat: guesses at its hidden cards (the particles), and
        # what the standard computer would do now with each of them
        self.particles: dict[int, list[list[int]]] = {}
        self.predictions: dict[int, list[str]] = {}
        # bsd: by other seat, BSD's Numneed as that seat's computer keeps it
        # (never reset, like the computer's), and the remedy it will note
        # as needed if its coming move is not a safety
        self.needs: dict[int, list[int]] = {}
        self.stopped: dict[int, int] = {}

    def start_hand(self, view: SeatView, rng: random.Random) -> list[int]:
        """A new deal: every other hand is a guess among the unseen cards
        (returned, by kind)."""
        self.predictions = {}
        unseen = view.unseen()
        pool = expand(unseen)
        count = min(MAX_EACH, PARTICLES // max(1, view.rules.players - 1))
        self.particles = {}
        for other, size in enumerate(view.hand_sizes):
            if other != self.seat:
                self.particles[other] = [rng.sample(pool, size) for _ in range(count)]
        return unseen

    def observe(self, view: SeatView, outcome: Outcome, rng: random.Random) -> list[int]:
        """Weigh the guesses about a seat by the move it made, and update
        them with what it played and drew; the unseen cards, by kind."""
        seat = outcome.seat
        remedy = self.stopped.pop(seat, None)
        if (
            remedy is not None
            and isinstance(outcome.move, (Use, Discard))
            and not (isinstance(outcome.move, Use) and outcome.card >= EXTRA_TANK)
        ):
            # (BSD's calcmove notes it twice)
            self.needs.setdefault(seat, list(INITIAL_NEED))[remedy] += 2
        particles = self.particles.get(seat)
        if particles is not None:
            self._weigh(seat, particles, outcome, rng)
        unseen = view.unseen()
        self._repair(view, unseen, rng)
        return unseen

    def _weigh(
        self, seat: int, particles: list[list[int]], outcome: Outcome, rng: random.Random
    ) -> None:
        """Draw the guesses about ``seat`` again by how well they foresaw
        its move, and take out the card it played."""
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

    def _repair(self, view: SeatView, unseen: Sequence[int], rng: random.Random) -> None:
        """Every guess holds as many cards as its seat, and only unseen ones:
        a card that came into view is replaced, a pick adds unseen cards (at
        the end: the last drawn)."""
        sizes = view.hand_sizes
        for seat, particles in self.particles.items():
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

    def predict(self, view: SeatView, rng: random.Random) -> Foresight | None:
        """What the standard computer would do in the seat to decide, with
        each guess at its hand (a pick that is the only move tells nothing);
        while the hand is played, what the ``SafetyTracker`` needs to foresee
        whether it would play a safety."""
        seat = view.current_player
        if seat is None or seat == self.seat or seat not in self.particles:
            return None
        t = view.world()  # the seat's hand is filled in below, guess by guess
        hand = t.hands[seat]
        self._note_stop(view, seat, hand)
        if view.phase == COUP or (
            view.phase != EXTENSION
            and hand[0] == NO_CARD
            and not view.rules.coup_window  # (a coup may come before the pick)
            and view.can_supply()
        ):
            return None
        rng = random.Random(rng.getrandbits(64))
        public = view.public_counts()
        policy_view = SeatView(t, seat)
        slots = [i for i, c in enumerate(hand) if c != NO_CARD]
        if slots and slots[0] == 0:
            slots = slots[1:] + [0]  # the last card drawn is the one in P
        keys = []
        # the same guess twice is worked out once (one draw of the computer's dice)
        foreseen: dict[tuple[int, ...], str] = {}
        for particle in self.particles[seat]:
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
            return None
        need = self.needs.get(seat)

        def plays(cards: list[int], safety: int) -> bool | None:
            if len(cards) != len(slots):
                return None
            for slot, card in zip(slots, cards):
                hand[slot] = card
            move = standard_policy(policy_view, rng, public, need).choose(policy_view)
            return isinstance(move, Use) and hand[move.slot] == safety

        return Foresight(self.particles[seat], plays, rng)

    def _note_stop(self, view: SeatView, seat: int, hand: Sequence[int]) -> None:
        """BSD's computer, about to choose a move (not a pick) while stopped
        by a hazard, counts its remedy as needed twice more, for good
        (``BsdComputer._note_need``, called twice), unless it plays a safety
        first; what it counts changes what it plays, so the guesses about
        its hand follow it."""
        if (
            STANDARD_COMPUTERS[view.rules.standard_computer] is not BsdComputer
            or view.phase != PLAYING
            or (hand[0] == NO_CARD and view.deck_size)
        ):
            return
        remedy = needed_remedy(view.tableaux[view.side_index(seat)])
        if remedy is not None:
            self.stopped[seat] = remedy

    # ----- saving ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """As JSON-able data: the guesses at each other hand (``beliefs``),
        the moves it foresees (``predictions``) and (bsd) each other seat's
        Numneed as it counts it (``needs``).

        A guess is a string of card letters (``LETTERS``: ``a`` the 25, ...,
        ``t`` False Virtue) and a foreseen move names its card by its letter
        (``U:n``, ``D:a>2``): nine seats of experts hold 16,000 guesses, and
        card names made such a save over 1 MiB.  Nothing is left out.

        >>> _letters([0, 13, 19]), _short_key("U:Stop>2"), _long_key("U:i>2")
        ('ant', 'U:i>2', 'U:Stop>2')
        """
        return {
            "beliefs": {
                str(seat): [_letters(particle) for particle in particles]
                for seat, particles in sorted(self.particles.items())
            },
            "predictions": {
                str(seat): [_short_key(key) for key in keys]
                for seat, keys in sorted(self.predictions.items())
            },
            "needs": {
                str(seat): {CARD_NAMES[c]: n for c, n in enumerate(need)}
                for seat, need in sorted(self.needs.items())
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], seat: int) -> Beliefs:
        """Rebuild the guesses of ``seat`` saved by ``to_dict`` from the keys
        ``KEYS`` and ``OPTIONAL_KEYS`` of ``data`` (the caller has checked
        that it has every one of ``KEYS``); :class:`ExpertError` says what
        is wrong with them."""
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
        memory = cls(seat)
        memory.particles, memory.predictions, memory.needs = beliefs, predictions, needs
        return memory


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


def _draw(counts: list[int], k: int, rng: random.Random) -> list[int]:
    """``k`` kinds drawn at random without replacement from the multiset
    ``counts`` (which loses them), in the order drawn: distributed as
    ``rng.sample`` of its ``expand``, without building the list (all of it
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
