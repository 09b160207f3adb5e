"""A seat that follows its table from what the host sends: the one reader
of the host's ``welcome`` and ``update`` messages (``docs/protocol.md``).

:func:`read_welcome` reads a welcome (the seat, a number, never a string
read as seat 0; the token; whether the seat is the host's) and
:func:`read_update` an update, whole, before anything is taken from it: its
version, the table the seat may imagine from its view (:func:`table_of`),
its events as a save's log items are checked (:func:`event_of`, a new
hand's deal read as None), the people's names, the computers' level and
the legal moves.  A message that is not the protocol's raises
:class:`~mille.net.wire.ProtocolError`, nothing taken.

:class:`Follow` is the seat as the host told it: the table, this hand's
events, the names, the version.  Two readers share it: the remote seat of
the front ends (``frontends.remote.seat.RemoteSeat``, which shows the
moves one at a time) and the scripted client of the tests and the
benchmark (``net.bot``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.moves import Event
from ..engine.rules import MAX_SEATS
from ..engine.table import Table
from ..engine.view import PublicView, SeatView
from ..i18n import _
from ..storage.shapes import event_from_dict, table_from_view
from .wire import BAD_MESSAGE, PROTOCOL, VERSION, ProtocolError, shown
from .wire import field as checked

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..engine.rules import Rules
    from ..game.history import History

NAME_SHOWN = 24  # the most of a name from the host shown
LEVEL_SHOWN = 12  # the most of a level's name from the host shown


def table_of(view: dict[str, Any]) -> Table:
    """The table a seat may imagine from its ``view`` (as
    ``storage.shapes.view_to_dict`` writes it, read back by
    ``storage.shapes.table_from_view``): what the seat sees as it is, the
    places hidden from it filled with the cards it has not seen, in card
    order (no secret: the client knows no more), so the front ends' words
    and boards, which read a :class:`~mille.engine.view.SeatView`, work on
    it unchanged; ``ProtocolError`` if the view is not a valid one."""
    try:
        return table_from_view(view)
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ProtocolError(BAD_MESSAGE, f"bad view from the host: {shown(exc, 200)}") from None


def event_of(data: dict[str, Any], rules: Rules | None = None) -> Event | None:
    """A move event as sent (None for a new hand's deal), checked as a
    save's log items are (under ``rules`` if given: a move the engine
    could have made); ``ProtocolError`` if it is not one."""
    if not isinstance(data, dict):
        raise ProtocolError(BAD_MESSAGE, "bad event from the host: not an object")
    if data.get("deal"):
        return None
    event = {key: value for key, value in data.items() if key != "version"}
    try:
        return event_from_dict(event, rules)
    except ValueError as exc:
        raise ProtocolError(BAD_MESSAGE, f"bad event from the host: {shown(exc, 200)}") from None


@dataclass(frozen=True)
class Welcome:
    """The host's welcome, read: the seat taken, its token (to come back
    with), whether it is the host's own."""

    seat: int
    token: str
    host: bool
    watching: bool = False  # a watcher's (``read_watching``): it sees no hand


def read_welcome(message: dict[str, Any]) -> Welcome:
    """The host's ``welcome``, its fields checked; ``ProtocolError`` if the
    host speaks another protocol or a field is not what it must be (a seat
    that is no number is no seat 0).

    >>> read_welcome({"type": "welcome", "protocol": PROTOCOL, "seat": 2, "token": "t", "host": False})
    Welcome(seat=2, token='t', host=False, watching=False)
    >>> try:
    ...     read_welcome({"protocol": PROTOCOL, "seat": "2", "token": "t", "host": False})
    ... except ProtocolError:
    ...     print("refused")
    refused
    """
    return Welcome(
        _seat(message, "seat"), checked(message, "token", str), checked(message, "host", bool)
    )


def _seat(message: dict[str, Any], key: str) -> int:
    """A welcome's seat (``key``), of the host speaking this protocol."""
    if message.get("protocol") != PROTOCOL:
        raise ProtocolError(
            VERSION,
            _(
                "the host speaks mille protocol {protocol}, not {ours}: "
                "play with the same version of mille"
            ).format(protocol=shown(message.get("protocol"), 10), ours=PROTOCOL),
        )
    seat: int = checked(message, key, int)
    if not 0 <= seat < MAX_SEATS:
        raise ProtocolError(BAD_MESSAGE, "bad message: no such seat")
    return seat


def read_watching(message: dict[str, Any]) -> Welcome:
    """The host's ``watching`` (a watcher let in), as a welcome to the
    seat it looks from, with no token, not the host's, ``watching``.

    >>> read_watching({"type": "watching", "protocol": PROTOCOL, "viewer": 0, "name": "W"})
    Welcome(seat=0, token='', host=False, watching=True)
    """
    checked(message, "name", str)
    return Welcome(_seat(message, "viewer"), "", False, watching=True)


@dataclass(frozen=True)
class Update:
    """The host's update, read whole: its version, the table the seat may
    imagine, the events (None where a new hand was dealt: what came
    before it is gone), and from the view the people's names (by seat,
    cut to show), the computers' level and the legal moves (as texts)
    where it says them."""

    version: int
    table: Table
    events: tuple[Event | None, ...] = ()
    names: dict[int, str] | None = None
    level: str | None = None
    legal: tuple[str, ...] = field(default=())


def read_update(message: dict[str, Any]) -> Update:
    """The host's ``update`` read as a save is (``table_of``, ``event_of``);
    ``ProtocolError`` if it cannot be."""
    version = checked(message, "version", int)
    view = checked(message, "view", dict)
    table = table_of(view)
    sent = checked(message, "events", list) if "events" in message else []
    events = tuple(event_of(data, table.rules) for data in sent)
    names, level, legal = view.get("names"), view.get("level"), view.get("legal")
    return Update(
        version,
        table,
        events,
        names={
            seat: shown(name, NAME_SHOWN)
            for seat, name in enumerate(names)
            if isinstance(name, str) and seat < table.rules.players
        }
        if isinstance(names, list)
        else None,
        level=shown(level, LEVEL_SHOWN) if isinstance(level, str) else None,
        legal=tuple(str(move) for move in legal) if isinstance(legal, list) else (),
    )


def read_whole(text: object, rules: Rules) -> History | None:
    """The host's ``game`` (its ``history``: the game over, whole) read as
    a game file is (``storage.gamefile.loads``: checked and replayed
    whole), under the table's ``rules``; None if the host does not know
    it; ``storage.checks.SaveError`` (one line) if it cannot be read."""
    from ..storage.checks import SaveError
    from ..storage.gamefile import loads

    if text is None:
        return None
    if not isinstance(text, str):
        raise SaveError("not a game file's text")
    history = loads(text)
    if history.rules != rules:
        raise SaveError("not this table's rules")
    return history


class Follow:
    """The seat as the host told it (see the module docstring): welcomed,
    ``seat``, ``token``, ``host``; after each update, ``table``, this
    hand's events (``log``, emptied at a deal), the people's ``names``,
    the computers' ``level``, the ``legal`` moves and the ``version``."""

    def __init__(self, welcome: Welcome | None = None) -> None:
        self.seat: int | None = None
        self.token = ""
        self.host = False
        self.watching = False  # a watcher: its view shows no hand (``PublicView``)
        if welcome is not None:
            self.welcomed(welcome)
        self.version = 0
        self.table: Table | None = None
        self.log: list[Event] = []
        self.names: dict[int, str] = {}
        self.level = "standard"
        self.legal: list[str] = []

    def welcomed(self, welcome: Welcome) -> None:
        """The seat the host gave (a welcome read)."""
        self.seat, self.token, self.host = welcome.seat, welcome.token, welcome.host
        self.watching = welcome.watching

    def welcome(self, message: dict[str, Any]) -> Welcome:
        """Take in the host's ``welcome`` (:func:`read_welcome`)."""
        welcome = read_welcome(message)
        self.welcomed(welcome)
        return welcome

    def watch(self, message: dict[str, Any]) -> Welcome:
        """Take in the host's ``watching`` (:func:`read_watching`)."""
        welcome = read_watching(message)
        self.welcomed(welcome)
        return welcome

    def update(self, message: dict[str, Any]) -> Update:
        """Take in the host's ``update`` (:func:`read_update`, then :meth:`take`)."""
        update = read_update(message)
        self.take(update)
        return update

    def take(self, update: Update) -> None:
        """An update read: its events logged (a deal empties the log), the
        table, names, level, legal moves and version as it says."""
        for event in update.events:
            if event is None:
                self.log.clear()
            else:
                self.log.append(event)
        self.table = update.table
        if update.names is not None:
            self.names = dict(update.names)
        if update.level is not None:
            self.level = update.level
        self.legal = list(update.legal)
        self.version = update.version

    def glance(self, message: dict[str, Any]) -> str:
        """An update's version and legal moves alone, no table rebuilt (the
        benchmark's light client); the phase it is in."""
        view = checked(message, "view", dict)
        self.version = checked(message, "version", int)
        legal = view.get("legal")
        self.legal = [str(move) for move in legal] if isinstance(legal, list) else []
        return str(view.get("phase", ""))

    @property
    def view(self) -> SeatView:
        """The seat's view, naming the people as the host's session does
        (``You`` for this seat: ``describe``'s words are relative to it)."""
        assert self.table is not None and self.seat is not None
        if self.watching:
            return PublicView(self.table, self.seat, self.names)
        return SeatView(self.table, self.seat, self.names)
