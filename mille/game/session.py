"""A game in progress: the table, who controls each seat, the dice, the settings.

This is what a front end drives and what a save file holds.  It has no
screen: the front end asks it to make moves and draws what comes back.  The
engine (``mille.engine.table``) knows seats; the session knows which seats are
played by a person and which by a computer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..engine.rules import BSD, Rules
from ..engine.table import COUP, EXTENSION, Event, Move, Outcome, Table
from ..engine.view import SeatView
from ..players.registry import STANDARD, level_of, make_computer

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from ..players.base import Player


@dataclass(eq=False)
class Session:
    """The table plus the computers, the shuffler and the settings.

    Seats without a computer in ``computers`` are played by people (in
    BSD's game, seat 0 is you and seat 1 the computer).
    """

    table: Table
    computers: dict[int, Player]  # by seat
    deal_rng: random.Random  # shuffles every new hand
    window_full: bool = False  # the W setting: full score window
    source: str | None = None  # the file this game was restored from
    kept: str | None = None  # the recovery file it was last kept in (by this program)
    # every move of this hand, computers' answers too
    log: list[Event] = field(default_factory=list)

    @classmethod
    def new(
        cls,
        rules: Rules = BSD,
        *,
        seed: int | None = None,
        humans: tuple[int, ...] = (0,),
        level: str = "standard",
    ) -> Session:
        """A new game; ``seed`` makes the deals and the computers reproducible;
        ``level`` says how the computers play.

        >>> s = Session.new(seed=1)
        >>> s.table.rules.name, sorted(s.computers), s.human_to_move
        ('bsd', [1], True)
        """
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules value, not {type(rules).__name__}")
        master = random.Random(seed)
        deal_rng = random.Random(master.getrandbits(64))
        computers = {
            seat: make_computer(rules, seat, random.Random(master.getrandbits(64)), level)
            for seat in range(rules.players)
            if seat not in humans
        }
        table = Table.new(rules, deal_rng)
        session = cls(table=table, computers=computers, deal_rng=deal_rng)
        session._deal_computers_in()
        return session

    @property
    def rules(self) -> Rules:
        return self.table.rules

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: what its computer, its hints and its
        screen are given."""
        return SeatView(self.table, seat)

    @property
    def level(self) -> str:
        """How the computers play (``easy``, ``standard`` or ``expert``):
        the first computer's, as every computer of a game has the same
        (a player of another kind counts as standard).

        >>> Session.new(seed=1).level, Session.new(seed=1, level="expert").level
        ('standard', 'expert')
        """
        seats = sorted(self.computers)
        return level_of(self.computers[seats[0]]) if seats else STANDARD

    @property
    def computer_to_move(self) -> bool:
        """A computer must decide now."""
        return self.table.current_player in self.computers

    @property
    def human_to_move(self) -> bool:
        """A person must decide now (a move, or a question)."""
        seat = self.table.current_player
        return seat is not None and seat not in self.computers

    def play(self, move: Move) -> Outcome:
        """Make ``move`` for whoever must decide; ``IllegalMove`` if refused.

        Every computer sees the outcome.  A question the move puts to a
        computer (``Extension?``, ``Coup Fourre?``) is answered here, so a
        front end never finds one pending.
        """
        outcome = self._apply(move)
        table = self.table
        while table.phase in (EXTENSION, COUP) and table.asked in self.computers:
            asked = self.computers[table.asked]
            self._apply(asked.choose(self.view(table.asked)))
        return outcome

    def _apply(self, move: Move) -> Outcome:
        table = self.table
        phase = table.phase
        outcome = table.apply(move)
        mileage = table.tableaux[table.side_index(outcome.seat)].mileage
        self.log.append(Event(outcome, tuple(table.notices), phase, mileage))
        for seat, computer in self.computers.items():
            view = self.view(seat)
            seen = view.seen(outcome, phase)
            if seen is not None:  # (a coup fourre let go is not seen)
                computer.observe(view, seen)
        return outcome

    def computer_move(self) -> Outcome:
        """Let the computer whose turn it is make one move."""
        seat = self.table.current_player
        if seat not in self.computers:
            raise ValueError("no computer is to move")
        return self.play(self.computers[seat].choose(self.view(seat)))

    def next_hand(self) -> None:
        """Bank the finished hand and deal the next one."""
        self.table.new_hand(self.deal_rng)
        self.log.clear()
        self._deal_computers_in()

    def _deal_computers_in(self) -> None:
        """Show each computer its new hand."""
        for seat, computer in self.computers.items():
            computer.start_hand(self.view(seat))
