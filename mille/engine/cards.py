"""The 101-card Mille Bornes deck, in BSD mille's order.

Cards are small ints (0-18) so that the engine and the computer can
compare, count and sort them quickly; ``NO_CARD`` (-1) marks an empty hand
slot or an empty pile top and sorts before every card, as BSD's does.

>>> CARD_NAMES[D200], COUNTS[D200], VALUES[D200]
('200', 4, 200)
>>> CARD_NAMES[remedy_for(FLAT_TIRE)], CARD_NAMES[safety_for(FLAT_TIRE)]
('Spare Tire', 'Puncture Proof')
>>> sum(COUNTS)
101
>>> card_from_name("Right of Way") == RIGHT_OF_WAY
True
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

NO_CARD: Final = -1

# distances
D25: Final = 0
D50: Final = 1
D75: Final = 2
D100: Final = 3
D200: Final = 4
# hazards
OUT_OF_GAS: Final = 5
FLAT_TIRE: Final = 6
ACCIDENT: Final = 7
STOP: Final = 8
SPEED_LIMIT: Final = 9
# remedies
GASOLINE: Final = 10
SPARE_TIRE: Final = 11
REPAIRS: Final = 12
GO: Final = 13
END_OF_LIMIT: Final = 14
# safeties
EXTRA_TANK: Final = 15
PUNCTURE_PROOF: Final = 16
DRIVING_ACE: Final = 17
RIGHT_OF_WAY: Final = 18

NUM_KINDS: Final = 19
# Mile by Mile's karma card: not one of the 19 kinds of the BSD deck
FALSE_VIRTUE: Final = 19
FALSE_VIRTUE_NAME: Final = "False Virtue"
HAND_SLOTS: Final = 7  # slot 0 is "P", the picked card; 1-6 the hand
NUM_SAFETIES: Final = 4

CARD_NAMES: Final[tuple[str, ...]] = (
    "25",
    "50",
    "75",
    "100",
    "200",
    "Out of Gas",
    "Flat Tire",
    "Accident",
    "Stop",
    "Speed Limit",
    "Gasoline",
    "Spare Tire",
    "Repairs",
    "Go",
    "End of Limit",
    "Extra Tank",
    "Puncture Proof",
    "Driving Ace",
    "Right of Way",
)

COUNTS: Final[tuple[int, ...]] = (
    10,
    10,
    10,
    12,
    4,
    2,
    2,
    2,
    4,
    3,
    6,
    6,
    6,
    14,
    6,
    1,
    1,
    1,
    1,
)

# every card number's name, Mile by Mile's False Virtue too
ALL_NAMES: Final[tuple[str, ...]] = CARD_NAMES + (FALSE_VIRTUE_NAME,)

VALUES: Final[tuple[int, ...]] = (25, 50, 75, 100, 200) + (0,) * 14

DISTANCES: Final = frozenset(range(D25, D200 + 1))
HAZARDS: Final = frozenset(range(OUT_OF_GAS, SPEED_LIMIT + 1))
REMEDIES: Final = frozenset(range(GASOLINE, END_OF_LIMIT + 1))
SAFETIES: Final = frozenset(range(EXTRA_TANK, RIGHT_OF_WAY + 1))

_BY_NAME = {name.lower(): card for card, name in enumerate(CARD_NAMES)}

# hazard/remedy/safety families, each in card order: a hazard, its remedy,
# the safety that protects from it (Right of Way from Stop and Speed
# Limit alike).  ``_OPPOSITE`` pairs a hazard with its remedy (both ways)
# and a safety with the hazard it protects from; ``_SAFETY`` gives each
# hazard, remedy and safety its safety.  A distance has neither.
_FAMILY_HAZARDS = (OUT_OF_GAS, FLAT_TIRE, ACCIDENT, STOP, SPEED_LIMIT)
_FAMILY_REMEDIES = (GASOLINE, SPARE_TIRE, REPAIRS, GO, END_OF_LIMIT)
_FAMILY_SAFETIES = (EXTRA_TANK, PUNCTURE_PROOF, DRIVING_ACE, RIGHT_OF_WAY, RIGHT_OF_WAY)
_FOR_DISTANCES = (NO_CARD,) * (D200 + 1)
_OPPOSITE: Final[tuple[int, ...]] = (
    _FOR_DISTANCES + _FAMILY_REMEDIES + _FAMILY_HAZARDS + _FAMILY_HAZARDS[:NUM_SAFETIES]
)
_SAFETY: Final[tuple[int, ...]] = (
    _FOR_DISTANCES + _FAMILY_SAFETIES * 2 + _FAMILY_SAFETIES[:NUM_SAFETIES]
)


def is_distance(card: int) -> bool:
    return D25 <= card <= D200


def is_hazard(card: int) -> bool:
    return OUT_OF_GAS <= card <= SPEED_LIMIT


def is_breakdown(card: int) -> bool:
    """Out of Gas, Flat Tire or Accident: the hazards a repair cures (a
    Go is then needed too)."""
    return OUT_OF_GAS <= card <= ACCIDENT


def is_remedy(card: int) -> bool:
    return GASOLINE <= card <= END_OF_LIMIT


def is_repair(card: int) -> bool:
    """Gasoline, Spare Tire or Repairs: the remedies that still need a Go."""
    return GASOLINE <= card <= REPAIRS


def is_safety(card: int) -> bool:
    """Extra Tank, Puncture Proof, Driving Ace or Right of Way (not Mile by
    Mile's False Virtue, the card numbered after them)."""
    return EXTRA_TANK <= card <= RIGHT_OF_WAY


def opposite(card: int) -> int:
    """The hazard for a remedy or safety, the remedy for a hazard.

    Right of Way's opposite is Stop; ``NO_CARD`` for distances.
    """
    return _OPPOSITE[card] if card >= 0 else NO_CARD


def remedy_for(hazard: int) -> int:
    return _OPPOSITE[hazard]


def safety_for(card: int) -> int:
    """The safety that protects from a hazard (or makes a remedy moot)."""
    return _SAFETY[card] if card >= 0 else NO_CARD


def safety_index(safety: int) -> int:
    """Row of a safety on the board: 0 Extra Tank .. 3 Right of Way."""
    return safety - EXTRA_TANK


def card_name(card: int) -> str:
    """A card's name (False Virtue too), ``""`` for ``NO_CARD``."""
    return ALL_NAMES[card] if card >= 0 else ""


def card_from_name(name: str) -> int:
    """Card for a screen name (case-insensitive); ValueError if unknown."""
    try:
        return _BY_NAME[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown card: {name!r}") from None


def full_deck() -> list[int]:
    """The 101 cards, unshuffled, in card order."""
    return [card for card in range(NUM_KINDS) for _ in range(COUNTS[card])]
