"""One side's cards on the table and its counters for a hand.

Both the table (``mille.engine.table``) and the battle models
(``mille.engine.battle``) use a :class:`Tableau`; the models see the table
only through :class:`TableState`, the few fields they read and change, so
neither module imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import NO_CARD, NUM_SAFETIES

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from typing import Protocol

    from .rules import Rules

    class TableState(Protocol):
        """What a battle model reads and changes on the table."""

        rules: Rules
        tableaux: list[Tableau]  # by side - 1
        discard: list[int]
        target: int  # the distance to reach this hand
        set_aside: list[int]  # played False Virtues
        notices: list[str]  # things the front ends tell after a move

        def side_index(self, seat: int) -> int: ...


@dataclass(slots=True)
class Tableau:
    """One side's cards on the table and its counters for the hand."""

    battle: list[int] = field(default_factory=list)  # pile, bottom to top
    speed: list[int] = field(default_factory=list)
    miles: list[int] = field(default_factory=list)  # distance cards, in play order
    safeties: list[int] = field(default_factory=list)  # in play order
    coups: list[bool] = field(default_factory=lambda: [False] * NUM_SAFETIES)
    mileage: int = 0
    nummiles: list[int] = field(default_factory=lambda: [0] * 5)
    # the TOP model's view (bsd): the tops the board shows, can_go, windows
    top: int = NO_CARD
    speed_top: int = NO_CARD
    can_go: bool = False
    battle_window: bool = False
    speed_window: bool = False
    # the PROBLEMS model's (milebymile): distances played (the cards are
    # discarded), problems in landing order, those before the last landing
    # (a coup fourre restores them), karma
    record: list[int] = field(default_factory=list)
    problems: list[int] = field(default_factory=list)
    saved: list[int] = field(default_factory=list)
    karma: bool = False
    # the STACK model's (classic): a safety played in turn took a hazard off
    # a Go, and the side needs a Go again (that Go no longer counts)
    needs_go: bool = False

    def copy(self) -> Tableau:
        return Tableau(
            self.battle[:],
            self.speed[:],
            self.miles[:],
            self.safeties[:],
            self.coups[:],
            self.mileage,
            self.nummiles[:],
            self.top,
            self.speed_top,
            self.can_go,
            self.battle_window,
            self.speed_window,
            self.record[:],
            self.problems[:],
            self.saved[:],
            self.karma,
            self.needs_go,
        )

    def cards(self) -> list[int]:
        return self.battle + self.speed + self.miles + self.safeties
