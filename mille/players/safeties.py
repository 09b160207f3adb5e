"""Where each unseen safety is, as one seat can tell: a belief the expert
deals its worlds from.

Each preset has one card of each safety.  A safety the seat cannot see is
in the deck or in one of the other hands; this keeps the chance of each
place (``weights``: by other seat, and ``DECK``), by Bayes' rule over what
the seat watches:

* At the deal, every unseen card is equally likely to be anywhere unseen,
  so a hand's chance is its size over the unseen cards.
* A seat's pick of ``k`` cards from a deck of ``d`` takes the safety with
  chance ``k / d`` if it is there; a pick of the seat's own that shows
  other cards makes the deck a little less likely.
* A move of another seat weighs its hand by how likely the preset's
  standard computer, holding the safety, was to make a move that does not
  play it (worked out on the seat's guesses at that hand, each with the
  safety put in): BSD's computer plays a safety as soon as its hazard is on
  it (the coup-fourre window too), once every hazard it stops is in view,
  and often when it has nothing else to play late in the deck.
* a hazard that lands with no coup fourre made of it (``offer`` presets)
  shows that no seat of the side it landed on holds its safety (a
  computer always makes the coup; a question put to another seat is not
  seen, nor a person's ``n`` to it, so a person who lets a coup go is
  taken for one without the safety).

The guesses at the other hands (the expert's particles) cannot learn
this: a computer keeps its safeties, so they hardly change what it plays,
and drawing the guesses again by weight fixes a safety into most of them
by chance.  Kept apart, the chance of a safety in BSD's computer's hand is
calibrated (it holds it 58 times in 100 when given 40-50%, 5 in 100 when
given under 10%), where the guesses' own share was not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.cards import CARD_NAMES, EXTRA_TANK, HAZARDS, NUM_SAFETIES, safety_for
from ..engine.rules import OFFER, other_side
from ..engine.table import COUP, Outcome, Pick, Use
from ..engine.view import SeatView
from .memory import quote, seat_number

SAFETY_KINDS = tuple(range(EXTRA_TANK, EXTRA_TANK + NUM_SAFETIES))
DECK = -1  # the place of a safety still in the deck
SAMPLES = 16  # guesses at a hand tried with each safety put in
SLIP = 0.03  # the chance a seat keeps a safety its computer would have played
NEGLIGIBLE = 1e-3  # a chance too small to be worth weighing

# whether the standard computer in the seat to move, holding ``hand`` (a
# guess at its hidden cards), would play ``safety`` (None: cannot tell)
Plays = Callable[[list[int], int], "bool | None"]


class SafetyTracker:
    """The chance of each place for each unseen safety, for ``seat``."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        # by safety kind: by place (another seat, or DECK), its chance; an
        # empty dict for a safety in view
        self.weights: dict[int, dict[int, float]] = {}
        self._ratios: dict[int, dict[int, float]] = {}  # by seat to move

    def start_hand(self, view: SeatView, unseen: Sequence[int]) -> None:
        """A new deal: each unseen safety is anywhere unseen, at random."""
        self._ratios = {}
        self.weights = {}
        for safety in SAFETY_KINDS:
            places = {
                other: float(_size(view, other))
                for other in range(view.rules.players)
                if other != self.seat
            }
            places[DECK] = float(view.deck_size)
            self.weights[safety] = places if unseen[safety] else {}
            _normalize(places)

    def chance(self, safety: int, place: int) -> float:
        """The chance that ``safety`` is at ``place`` (0 if in view)."""
        return self.weights.get(safety, {}).get(place, 0.0)

    def foresee(
        self, view: SeatView, particles: Sequence[list[int]], plays: Plays, rng: random.Random
    ) -> None:
        """Before the seat to move decides: how likely it is, holding each
        safety it may hold, not to play it (on guesses at its hand)."""
        seat = view.current_player
        if seat is None or seat == self.seat or view.phase == COUP or not particles:
            return
        ratios = {}
        for safety, places in self.weights.items():
            if places.get(seat, 0.0) < NEGLIGIBLE:
                continue
            kept = tried = 0
            for _ in range(SAMPLES):
                hand = list(rng.choice(particles))
                if safety not in hand:
                    slots = [i for i, c in enumerate(hand) if c < EXTRA_TANK]
                    if not slots:
                        continue
                    hand[rng.choice(slots)] = safety
                played = plays(hand, safety)
                if played is not None:
                    tried += 1
                    kept += not played
            if tried:
                ratios[safety] = SLIP + (1 - SLIP) * kept / tried
        self._ratios[seat] = ratios

    def observe(self, view: SeatView, outcome: Outcome, unseen: Sequence[int]) -> None:
        """Update with a move just made (``table`` is after it)."""
        if not self.weights:  # (a memory saved before it was kept)
            self.start_hand(view, unseen)
        seat = outcome.seat
        deck_before = view.deck_size + len(outcome.drawn)
        ratios = self._ratios.pop(seat, {})
        move = outcome.move
        for safety in SAFETY_KINDS:
            places = self.weights.get(safety)
            if not unseen[safety]:
                self.weights[safety] = {}
                continue
            if not places:  # back out of view (a reshuffle): in the deck
                places = self.weights[safety] = {DECK: 1.0}
            if safety in ratios:
                places[seat] = places.get(seat, 0.0) * ratios[safety]
            if isinstance(move, Pick) and deck_before > 0:
                k = min(len(outcome.drawn), deck_before)
                deck = places.get(DECK, 0.0)
                if seat != self.seat:
                    places[seat] = places.get(seat, 0.0) + deck * k / deck_before
                places[DECK] = deck * (deck_before - k) / deck_before
            if not view.deck_size:
                places[DECK] = 0.0
            for other in places:
                if other != DECK and not _size(view, other):
                    places[other] = 0.0
            _normalize(places, view)
        self._shown(view, outcome)

    def _shown(self, view: SeatView, outcome: Outcome) -> None:
        """What a hazard landing shows: no coup fourre was made of it, so
        (as the computers always make one) no seat of its side holds the
        safety.  A question put to another seat is not seen
        (``SeatView.question_hidden``), and neither is a person's ``n``: a
        person who lets the coup go is taken for one without the safety."""
        move = outcome.move
        if (
            view.rules.coup != OFFER
            or not isinstance(move, Use)
            or outcome.card not in HAZARDS
            or any("clash" in n for n in view.notices)
        ):
            return
        side = move.target if move.target is not None else other_side(view.side_of(outcome.seat))
        places = self.weights.get(safety_for(outcome.card))
        if not places:
            return
        for member in range(side - 1, view.rules.players, view.rules.sides):
            if member in places:
                places[member] = 0.0
        _normalize(places, view)

    def deal(self, rng: random.Random) -> dict[int, int]:
        """A place for each unseen safety, drawn by its chances."""
        placed = {}
        for safety, places in self.weights.items():
            if places:
                r = rng.random()
                where = DECK
                for place, chance in sorted(places.items()):
                    r -= chance
                    if r < 0:
                        where = place
                        break
                placed[safety] = where
        return placed

    # ----- saving ------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """As JSON-able data: ``chances``, by safety name, by place
        (``"deck"`` or another seat's number; an empty object for a safety
        in view); ``kept``, by the seat about to move, the chance it keeps
        each safety it may hold (worked out before its move, used after)."""
        return {
            "chances": {
                CARD_NAMES[safety]: {
                    _place_name(place): chance for place, chance in sorted(places.items())
                }
                for safety, places in sorted(self.weights.items())
            },
            "kept": {
                str(seat): {CARD_NAMES[safety]: ratio for safety, ratio in sorted(r.items())}
                for seat, r in sorted(self._ratios.items())
            },
        }

    @classmethod
    def from_dict(cls, raw: Any, seat: int, error: type[ValueError]) -> SafetyTracker:
        """Rebuild what ``to_dict`` wrote; ``error`` says what is wrong.

        >>> t = SafetyTracker.from_dict({"chances": {"Extra Tank": {"deck": 0.75, "1": 0.25},
        ...     "Puncture Proof": {}, "Driving Ace": {}, "Right of Way": {}},
        ...     "kept": {"1": {"Extra Tank": 0.5}}}, 0, ValueError)
        >>> t.chance(EXTRA_TANK, 1), t.to_dict()["chances"]["Extra Tank"]
        (0.25, {'deck': 0.75, '1': 0.25})
        """
        where = "expert: safeties"
        if not isinstance(raw, dict):
            raise error(f"{where} must be an object")
        for key in raw:
            if key not in ("chances", "kept"):
                raise error(f"{where}: unknown key {quote(key)}")
        for key in ("chances", "kept"):
            if not isinstance(raw.get(key), dict):
                raise error(f"{where}: {key} must be an object")
        tracker = cls(seat)
        chances = raw["chances"]
        names = {CARD_NAMES[safety]: safety for safety in SAFETY_KINDS}
        for key in chances:
            if key not in names:
                raise error(f"{where}: unknown safety {quote(key)}")
        for name, safety in names.items():
            if name not in chances:
                raise error(f"{where}: missing safety {name!r}")
            places = chances[name]
            if not isinstance(places, dict):
                raise error(f"{where} {name!r} must be an object")
            weights = {}
            for key, chance in places.items():
                place = DECK if key == "deck" else _seat(key, seat)
                if place is None:
                    raise error(f"{where} {name!r}: {quote(key)} is not a place")
                weights[place] = _chance(chance, f"{where} {name!r} {key!r}", error)
            if abs(sum(weights.values()) - 1) > 1e-9:
                _normalize(weights)
            tracker.weights[safety] = weights
        for key, ratios in raw["kept"].items():
            other = _seat(key, seat)
            if other is None:
                raise error(f"{where}: kept: {quote(key)} is not another seat")
            if not isinstance(ratios, dict):
                raise error(f"{where}: kept {key!r} must be an object")
            kept = {}
            for name, ratio in ratios.items():
                if name not in names:
                    raise error(f"{where}: kept {key!r}: unknown safety {quote(name)}")
                kept[names[name]] = _chance(ratio, f"{where}: kept {key!r} {name!r}", error)
            tracker._ratios[other] = kept
        return tracker


def _seat(key: Any, seat: int) -> int | None:
    """Another seat's number as a save writes it (None if it is not one)."""
    other = seat_number(key)
    return None if other == seat else other


def _chance(value: Any, what: str, error: type[ValueError]) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise error(f"{what} must be a number from 0 to 1, not {quote(value)}")
    return float(value)


def _place_name(place: int) -> str:
    return "deck" if place == DECK else str(place)


def _size(view: SeatView, seat: int) -> int:
    return view.hand_size(seat)


def _normalize(places: dict[int, float], view: SeatView | None = None) -> None:
    """Chances that add up to 1; if none is left (the evidence was wrong),
    every place that can hold a card is equally likely."""
    total = sum(places.values())
    if total <= 0 and view is not None:
        for place in places:
            places[place] = float(view.deck_size if place == DECK else _size(view, place))
        total = sum(places.values())
    if total > 0:
        for place in places:
            places[place] /= total
