"""The game every front end plays, declared: :class:`Game`, and the
table's talk beside the moves, :class:`Talk`.

A front end (the flow, the boards, the line mode, ``turns``, the record's
notes) is typed against :class:`Game` and asks a game nothing else: never
what it is.  Two sources satisfy it: the local game,
:class:`~mille.game.session.Session` (every seat at this keyboard or a
computer's, its talk the quiet value ``talk.QUIET``), and the remote seat,
:class:`~mille.frontends.remote.seat.RemoteSeat` (one seat at this
keyboard, the others deciding at the host, its talk the table's: who is
here, the marks, the lines said).

The rest of the package imports this module for type checking only (no
``typing`` at start-up); the tests check at run time that both sources
satisfy it (``runtime_checkable``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..engine.moves import Event, Move, Outcome
    from ..engine.rules import Rules
    from ..engine.table import Table
    from ..engine.view import SeatView
    from .history import History
    from .session import Session


@runtime_checkable
class Talk(Protocol):
    """What a table says beside its moves: whether the game has started
    (a network table's waiting room is over), each seat's presence
    (``status``: ``here``, ``away``, ``computer-for-now``...; "" unknown)
    and the mark beside its name, the table's lines with the log's length
    when each was said (``notes``), and the board keys this seat may not
    use (``refused_keys``: ``"o: "``, ``"s: "``).  A game at one keyboard
    says nothing: ``talk.QUIET``."""

    @property
    def started(self) -> bool: ...

    @property
    def notes(self) -> Sequence[tuple[int, str]]: ...

    @property
    def refused_keys(self) -> tuple[str, ...]: ...

    def status(self, seat: int) -> str: ...

    def mark(self, seat: int) -> str: ...


@runtime_checkable
class Game(Protocol):
    """What a front end plays and reads (see the module docstring).

    The rules, the table, the people (by seat, named), the hand's log;
    each seat's view, event stream and name; who is at this keyboard
    (``at_keyboard``, the first of them shown first: ``viewer``); whether
    a seat not at this keyboard decides now (``another_decides``, its move
    then ``another_moves``) or one here does (``human_to_move``); a move
    made (``play``), the next hand (``next_hand``); the table's talk.
    ``local`` is the game as this program holds it, to save and keep (a
    local game is its own; a remote seat's is held by its host: None)."""

    window_full: bool  # the W setting: full score window

    @property
    def table(self) -> Table: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def people(self) -> Mapping[int, str]: ...

    @property
    def log(self) -> list[Event]: ...

    @property
    def source(self) -> str | None: ...

    @property
    def level(self) -> str: ...

    @property
    def networked(self) -> bool: ...

    @property
    def calls_coup(self) -> bool: ...

    @property
    def viewer(self) -> int: ...

    @property
    def another_decides(self) -> bool: ...

    @property
    def human_to_move(self) -> bool: ...

    @property
    def talk(self) -> Talk: ...

    @property
    def local(self) -> Session | None: ...

    def view(self, seat: int) -> SeatView: ...

    def events(self, seat: int, start: int = 0) -> list[Event]: ...

    def name(self, seat: int) -> str: ...

    def at_keyboard(self) -> tuple[int, ...]: ...

    def is_person(self, seat: int) -> bool: ...

    def play(self, move: Move) -> Outcome: ...

    def another_moves(self) -> Outcome: ...

    def next_hand(self) -> None: ...

    def set_ordering(self, on: bool) -> None: ...

    def whole_game(self) -> History | None:
        """The game over, whole, where another program holds it (a remote
        seat's: the host's ``game``); None otherwise (a local game's
        recorder notes each hand itself)."""
        ...
