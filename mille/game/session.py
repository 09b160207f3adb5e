"""A game in progress: the table, who controls each seat, the dice, the settings.

This is what a front end drives and what a save file holds.  It has no
screen: the front end asks it to make moves and draws what comes back.  The
engine (``mille.engine.table``) knows seats; the session knows which seats are
played by a person (``people``, each with a name) and which by a computer
(``computers``), and what each seat has seen of the moves: its event stream,
:meth:`Session.events` (the log as the seat's view allows, see
:meth:`mille.engine.view.SeatView.event`).  It is the local game, one of
the two sources of :class:`mille.game.protocol.Game` that the front ends
play (the other is the remote seat): its talk is ``talk.QUIET``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..engine.rules import BSD, Rules
from ..engine.table import COUP, EXTENSION, YES, Event, Move, Outcome, Table
from ..engine.view import SeatView
from ..players.registry import STANDARD, level_of, make_computer
from .history import Deal, Dealer, made
from .limits import CHAT_KEPT, check_say, normal
from .limits import BadName as BadName  # (the names' limits live in limits)
from .limits import check_name as check_name
from .limits import computer_name as computer_name
from .limits import default_name as default_name  # (the names mille gives live in limits)
from .talk import QUIET, Quiet

TYPE_CHECKING = False  # no typing import at run time (start-up)
if TYPE_CHECKING:
    from ..players.base import Player


def seen_events(view: SeatView, log: list[Event]) -> list[Event]:
    """The moves of ``log`` as the ``view``'s seat saw them
    (:meth:`SeatView.event`; one it did not see left out): a seat's event
    stream, the local game's and the remote seat's alike."""
    seen = (view.event(event) for event in log)
    return [event for event in seen if event is not None]


@dataclass(eq=False)
class Session:
    """The table plus the computers, the shuffler and the settings.

    Seats without a computer in ``computers`` are played by people, named
    in ``people`` (in BSD's game, seat 0 is you and seat 1 the computer); a
    person given no name is ``Player N``.
    """

    table: Table
    computers: dict[int, Player]  # by seat
    deal_rng: random.Random  # shuffles every new hand
    window_full: bool = False  # the W setting: full score window
    source: str | None = None  # the file this game was restored from
    kept: str | None = None  # the recovery file it was last kept in (by this program)
    # every move of this hand, computers' answers too
    log: list[Event] = field(default_factory=list)
    people: dict[int, str] = field(default_factory=dict)  # by seat: the person's name
    # played over the network, the one flag that says so (set by the host's
    # ``net.seats.Feed``, so a resumed hosted game has it again, and by a
    # remote seat's game; not saved): see ``calls_coup``; the boards offer
    # J and C then, and the record says so
    networked: bool = False
    # this hand's chat lines (a network table's): the log's length when said, seat, text
    chat: list[tuple[int, int, str]] = field(default_factory=list)
    # this hand's cards as dealt (game.history: the record keeps the game
    # whole), None where not known (a hand restored from a save), and its O:
    # the log's length at each, ordering on or off
    cards_dealt: Deal | None = None
    orders: list[tuple[int, bool]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for seat in range(self.table.rules.players):
            if seat in self.computers:
                self.people.pop(seat, None)
            else:  # a name as the limits count it (composed: limits.normal)
                self.people[seat] = normal(self.people.get(seat, default_name(seat)))
        self.table.ordered = tuple(sorted(self.people))  # O sorts the people's hands

    @classmethod
    def new(
        cls,
        rules: Rules = BSD,
        *,
        seed: int | None = None,
        humans: tuple[int, ...] = (0,),
        level: str = "standard",
        names: Mapping[int, str] | None = None,
    ) -> Session:
        """A new game; ``seed`` makes the deals and the computers reproducible;
        ``humans`` are the seats people play, ``names`` their names (by
        seat; ``Player N`` for one not named); ``level`` says how the
        computers play.

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
        dealer = Dealer(deal_rng)
        table = Table.new(rules, dealer)
        people = {seat: (names or {}).get(seat, default_name(seat)) for seat in humans}
        session = cls(table=table, computers=computers, deal_rng=deal_rng, people=people)
        session.cards_dealt = dealer.deal(table, opens=True)
        session._deal_computers_in()
        return session

    @property
    def rules(self) -> Rules:
        return self.table.rules

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: what its computer, its hints and its
        screen are given (with the people's names)."""
        return SeatView(self.table, seat, self.people)

    def events(self, seat: int, start: int = 0) -> list[Event]:
        """This hand's moves from the ``start``-th of the log on, as
        ``seat`` saw them (:meth:`SeatView.event`): the seat's event
        stream, what its board, line mode, log (``L``) and hint show and
        what a remote seat is sent."""
        return seen_events(self.view(seat), self.log[start:])

    def is_person(self, seat: int) -> bool:
        return seat not in self.computers

    def at_keyboard(self) -> tuple[int, ...]:
        """The seats whose people share this program's keyboard (a hot
        seat hands it on between them): every person's here; a remote
        seat's game (``mille --join``) has its own seat alone, the others'
        moves coming as a computer's would.

        >>> Session.new(seed=1, humans=(0, 1)).at_keyboard()
        (0, 1)
        """
        return tuple(sorted(self.people))

    def name(self, seat: int) -> str:
        """The seat's name for the others: a person's, or ``Comp N``."""
        return self.people.get(seat, computer_name(seat))

    @property
    def viewer(self) -> int:
        """The seat a front end shows first: the first person's (a game
        of computers alone shows the first seat's view).

        >>> Session.new(seed=1, humans=(1,)).viewer, Session.new(seed=1, humans=()).viewer
        (1, 0)
        """
        return min(self.people, default=0)

    @property
    def talk(self) -> Quiet:
        """What the table says beside the moves: at one keyboard, nothing
        (``talk.QUIET``; a network seat's game says who is here)."""
        return QUIET

    @property
    def local(self) -> Session | None:
        """The game as this program holds it, to save and keep: itself."""
        return self

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
    def calls_coup(self) -> bool:
        """Whether a person's ``Coup Fourre?`` is called for them (``y``,
        always right) instead of asked: wherever another person could time
        the question and so learn that the seat held the safety, i.e. with
        two people or more at the table (one keyboard) or over the network.
        A person alone against computers is asked.

        >>> Session.new(seed=1).calls_coup, Session.new(seed=1, humans=(0, 1)).calls_coup
        (False, True)
        """
        return self.networked or len(self.people) > 1

    @property
    def computer_to_move(self) -> bool:
        """A computer must decide now."""
        return self.table.current_player in self.computers

    @property
    def another_decides(self) -> bool:
        """A seat not at this keyboard decides now (here: a computer),
        its move made by :meth:`another_moves`."""
        return self.computer_to_move

    @property
    def human_to_move(self) -> bool:
        """A person must decide now (a move, or a question)."""
        seat = self.table.current_player
        return seat is not None and seat not in self.computers

    def play(self, move: Move) -> Outcome:
        """Make ``move`` for whoever must decide; ``IllegalMove`` if refused.

        Every computer sees the outcome.  A question the move puts to a
        computer (``Extension?``, ``Coup Fourre?``) is answered here, so a
        front end never finds one pending, and so is a person's ``Coup
        Fourre?`` where it is called for them (:attr:`calls_coup`).
        """
        outcome = self._apply(move)
        self.settle()
        return outcome

    def play_stand_in(self, move: Move) -> Outcome:
        """:meth:`play` ``move``, chosen by a computer for the seat's
        person, who is away (a network table's, :meth:`stand_in`): the log
        credits it to the computer (``Event.stand_in``) on every screen and
        in the save."""
        outcome = self._apply(move, stand_in=True)
        self.settle()
        return outcome

    def stand_in(self, seat: int, seed: int) -> Player:
        """A computer to play ``seat`` while its person is away, at the
        table's level, shown the hand as it is now (its moves are made by
        :meth:`play_stand_in`)."""
        player = make_computer(self.rules, seat, random.Random(seed), self.level)
        player.start_hand(self.view(seat))
        return player

    def settle(self) -> None:
        """Answer the question pending if nobody is to be asked it: a
        computer's (its own answer), or a person's ``Coup Fourre?`` where
        :attr:`calls_coup` (yes, as a move of that seat's in the log)."""
        table = self.table
        while table.phase in (EXTENSION, COUP) and table.asked is not None:
            asked = table.asked
            if asked in self.computers:
                self._apply(self.computers[asked].choose(self.view(asked)))
            elif table.phase == COUP and asked in self.people and self.calls_coup:
                self._apply(YES)
            else:
                return

    def _apply(self, move: Move, stand_in: bool = False) -> Outcome:
        """Make ``move`` as made (no question answered): logged, and
        watched by the computers (a replica of the game, ``net.worker``,
        is told each move so, the answers being moves of their own)."""
        event = made(self.table, move, stand_in)
        self.log.append(event)
        outcome, phase = event.outcome, event.phase
        for seat, computer in self.computers.items():
            view = self.view(seat)
            seen = view.seen(outcome, phase)
            if seen is not None:  # (a coup fourre let go is not seen)
                computer.observe(view, seen)
        return outcome

    def say(self, seat: int, text: str) -> None:
        """A chat line said at the table (a network game's), kept with
        the hand's log where it was said; the last ``CHAT_KEPT`` lines of
        a hand are kept.  ``ValueError`` if a save could not keep it
        (``limits.check_say``: the host cuts every line to fit first)."""
        reason = check_say(text)
        if reason is not None:
            raise ValueError(reason)
        self.chat.append((len(self.log), seat, text))
        del self.chat[:-CHAT_KEPT]

    def computer_move(self) -> Outcome:
        """Let the computer whose turn it is make one move."""
        seat = self.table.current_player
        if seat not in self.computers:
            raise ValueError("no computer is to move")
        return self.play(self.computers[seat].choose(self.view(seat)))

    def another_moves(self) -> Outcome:
        """The move of the seat that decides, not at this keyboard (here:
        the computer's, :meth:`computer_move`)."""
        return self.computer_move()

    def next_hand(self) -> None:
        """Bank the finished hand and deal the next one."""
        dealer, opens = Dealer(self.deal_rng), self.table.game_over
        self.table.new_hand(dealer)
        self.cards_dealt = dealer.deal(self.table, opens)
        self.log.clear()
        self.chat.clear()
        self.orders.clear()
        self._deal_computers_in()

    def set_ordering(self, on: bool) -> None:
        """``O``: the people's hands ordered (``on``) or not, noted for the record."""
        self.orders.append((len(self.log), on))
        self.table.set_ordering(on)

    def whole_game(self) -> None:
        """None: a game at this keyboard is recorded hand by hand, as each
        ends (``protocol.Game.whole_game`` is a remote seat's)."""
        return None

    def _deal_computers_in(self) -> None:
        """Show each computer its new hand."""
        for seat, computer in self.computers.items():
            computer.start_hand(self.view(seat))
