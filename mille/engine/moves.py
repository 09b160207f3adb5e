"""The moves of the game, what a move did, and the phases a move is made in.

Every decision is a move: :class:`Pick`, :class:`Use` (with a target side
for a hazard when there are two or more opposing sides), :class:`Discard`,
and :class:`Answer` for ``Extension?`` and ``Coup Fourre?``.  A move the
rules refuse raises :class:`IllegalMove`; a move made returns an
:class:`Outcome`, and the front ends' logs keep it as an :class:`Event`.

>>> str(Use(0)), str(Use(3, 2)), str(Discard(6)), str(PICK), str(YES)
('UP', 'U3>2', 'D6', 'P', 'y')
>>> USES[3] == Use(3) and DISCARDS[0] == Discard(0)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import HAND_SLOTS, NO_CARD

# phases
PLAYING = "playing"
EXTENSION = "extension"  # ``asked`` must answer Extension?
COUP = "coup"  # ``asked`` must answer Coup Fourre?
OVER = "hand over"


class IllegalMove(ValueError):
    """A move the rules refuse; ``str()`` is the exact message."""


@dataclass(frozen=True, slots=True)
class Pick:
    def __str__(self) -> str:
        return "P"


@dataclass(frozen=True, slots=True)
class Use:
    slot: int
    target: int | None = None  # a side number, for a hazard

    def __str__(self) -> str:
        where = "P" if self.slot == 0 else str(self.slot)
        return f"U{where}" + ("" if self.target is None else f">{self.target}")


@dataclass(frozen=True, slots=True)
class Discard:
    slot: int

    def __str__(self) -> str:
        return f"D{'P' if self.slot == 0 else self.slot}"


@dataclass(frozen=True, slots=True)
class Answer:
    yes: bool

    def __str__(self) -> str:
        return "y" if self.yes else "n"


Move = Pick | Use | Discard | Answer
# the moves made again and again, made once
PICK = Pick()
USES = tuple(Use(slot) for slot in range(HAND_SLOTS))
DISCARDS = tuple(Discard(slot) for slot in range(HAND_SLOTS))
USE_AT = tuple(tuple(Use(slot, target) for target in range(10)) for slot in range(HAND_SLOTS))
YES = Answer(True)
NO = Answer(False)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a move did, for the front ends and the players' ``observe``:
    ``card`` used or discarded (or the safety of an accepted coup), ``drawn``
    the cards a pick took, in order."""

    seat: int
    move: Move
    card: int = NO_CARD
    drawn: tuple[int, ...] = ()
    coup_fourre: bool = False
    extra_turn: bool = False


@dataclass(frozen=True)
class Event:
    """A move that was made, for the front ends' logs: its outcome, the
    table's notices after it (``discard pile reshuffled``, karma), the phase
    it was made in (an Answer's question), the mover's side's mileage
    after it, and whether a computer made it for a person who was away
    (``stand_in``: over the network, after the grace period)."""

    outcome: Outcome
    notices: tuple[str, ...] = ()
    phase: str = PLAYING
    mileage: int = 0
    stand_in: bool = False
