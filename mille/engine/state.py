"""The table's state: every field of a run of games, and the seats and sides.

:class:`State` holds what :class:`mille.engine.table.Table` is made of (a
``Table`` is a ``State`` with its moves); the modules of the engine's
concerns, dealing (``deal``), legality (``legality``), scoring
(``scoring``) and the consistency checks (``validation``), are functions
of a ``State``, so they need not import ``table``, which binds them as
its methods.

Seats 0..N-1 each hold a private hand of 7 slots (0 = P); sides 1..S each
own one :class:`Tableau` (seat s plays for side ``s % S + 1``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .battle import MODELS, BattleModel
from .cards import NO_CARD
from .moves import OVER, PLAYING
from .rules import Rules
from .tableau import Tableau


@dataclass(slots=True, eq=False)
class State:
    """A run of games under ``rules``: the current hand plus the side totals."""

    rules: Rules
    hands: list[list[int]]  # by seat, 7 slots each
    tableaux: list[Tableau]  # by side - 1
    deck: list[int]  # the top is the end of the list
    discard: list[int] = field(default_factory=list)  # top is the end
    target: int = 700
    to_move: int = 0
    starter: int = 0
    phase: str = PLAYING
    asked: int | None = None  # the seat asked Extension? or Coup Fourre?
    offer: tuple[int, int, int] | None = None  # coup: (side, safety, hazard)
    extender: int | None = None  # the side that extended (classic)
    totals: list[int] = field(default_factory=list)  # by side, before this hand
    games: list[int] = field(default_factory=list)
    ordering: bool = False  # keep the people's hands sorted (BSD's O command)
    set_aside: list[int] = field(default_factory=list)  # played False Virtues
    marks: list[int] = field(default_factory=list)  # mileages at the last refill
    seed: int = 0  # reshuffles: the n-th uses random.Random(seed * 1000003 + n)
    refills: int = 0
    # the last refills in a row each made with no mileage gained since the
    # one before (0 to IDLE_REFILLS - 1: with that many, IDLE_REFILLS refills
    # in a row gained nothing, and none is made until some side gains)
    idle_refills: int = 0
    # the mover is owed a card for the safety of the coup fourré it just
    # made: its pick takes two cards (a hand short for any other reason,
    # after turns without picking, still takes one a turn)
    owed: bool = False
    # notices of the last move (``discard pile reshuffled``, karma), for the UI
    notices: list[str] = field(default_factory=list, compare=False)
    drawn: tuple[int, ...] = field(default=(), compare=False)  # by the last pick
    # the seats ``ordering`` sorts: the people's (the session's to say; not saved)
    ordered: tuple[int, ...] = field(default=(0,), compare=False)
    # derived from ``rules`` (not part of the state), read on the hot paths
    _model: BattleModel = field(init=False, compare=False, repr=False)
    _window: bool = field(init=False, compare=False, repr=False)  # rules.coup_window
    # a draw takes the deck's top card: no reshuffle, no rigging that chooses
    _plain_draw: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        rules = self.rules
        self._model = MODELS[rules.battle]
        self._window = rules.coup_window
        self._plain_draw = not rules.reshuffle and rules.rigging != "no duplicates"
        if not self.marks:
            self.marks = [0] * rules.sides

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(
            getattr(self, f.name) == getattr(other, f.name) for f in fields(self) if f.compare
        )

    # ----- seats, sides and the model --------------------------------------

    @property
    def model(self) -> BattleModel:
        return self._model

    def side_of(self, seat: int) -> int:
        return seat % self.rules.sides + 1

    def side_index(self, seat: int) -> int:
        return seat % self.rules.sides

    @property
    def current_player(self) -> int | None:
        """Who must decide now: the mover, or the seat asked a question."""
        if self.phase == PLAYING:
            return self.to_move
        if self.phase == OVER:
            return None
        return self.asked

    @property
    def hand_over(self) -> bool:
        return self.phase == OVER

    def all_cards(self) -> list[int]:
        """Every card of the game, wherever it is."""
        cards = self.deck + self.discard + self.set_aside
        for hand in self.hands:
            cards += [c for c in hand if c != NO_CARD]
        for tab in self.tableaux:
            cards += tab.cards()
        return cards
