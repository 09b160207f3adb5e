"""A table's watchers (``mille --watch``): let in with the table's watch
code, each sees the table as every seat sees it and never a hand (the
public view and stream, ``Feed.public``), who sits where, and the
seats' chat; it plays nothing.  Its own chat lines (``aside``) reach the
other watchers alone, never a seat, at a seat's pace (``SAY_BURST``
lines in ``SAY_WINDOW`` seconds).  At most ``limits.MAX_WATCHERS`` watch
a table.

The table (``table.Table``) calls these for a watcher's connection: its
welcome (:func:`watch`), its messages (:func:`handle`) and its leaving
(:func:`unwatch`).
"""

from __future__ import annotations

from ..game.limits import MAX_WATCHERS, BadName, check_name, name_key
from . import messages
from .connection import Connection, Watcher, chat_line
from .wire import UNKNOWN_TYPE, WATCHERS_FULL, WATCHING, ProtocolError, json_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Protocol

    from .connection import Seat

    class Table(Protocol):
        """What of a table (``table.Table``) its watchers use."""

        watchers: list[Connection]
        seats: list[Seat]

        def name(self, seat: Seat) -> str: ...
        def broadcast_seats(self) -> None: ...
        def update(self, conn: Connection, force: bool = False) -> None: ...


WATCHER_NAME = "Watcher {number}"  # a watcher with no name of its own (as ``Player N``)
# what a watcher may send besides ``say`` (handled as the seats' are)
WATCHER_KINDS = frozenset({"ping", "pong", "view", "bye", "hello"})
SEATS_ONLY = frozenset({"move", "deal", "save", "start", "end"})  # refused: ``watching``


def watcher_name(table: Table, name: object) -> str:
    """The watcher's name: its own if it is a name a person may have
    (``check_name``) and nobody at the table has it, else ``Watcher N``."""
    taken = {name_key(table.name(seat)) for seat in table.seats}
    taken |= {name_key(conn.watcher.name) for conn in table.watchers if conn.watcher}
    if isinstance(name, str):
        try:
            checked = check_name(name.strip())
        except BadName:
            checked = ""
        if checked and name_key(checked) not in taken:
            return checked
    number = 1
    while name_key(WATCHER_NAME.format(number=number)) in taken:
        number += 1
    return WATCHER_NAME.format(number=number)


def watch(table: Table, conn: Connection, name: object) -> None:
    """``conn`` watches ``table``: told so, shown who sits where and the
    table as it stands, with the public log of the hand so far (its
    events from the start, as far as they are kept); ``ProtocolError``
    (``watchers-full``) if ``MAX_WATCHERS`` already watch."""
    if len(table.watchers) >= MAX_WATCHERS:
        raise ProtocolError(WATCHERS_FULL, values={"count": MAX_WATCHERS})
    conn.watcher = Watcher(watcher_name(table, name))
    conn.send(messages.watching(0, conn.watcher.name))
    table.watchers.append(conn)
    table.broadcast_seats()
    table.update(conn, force=True)


def unwatch(table: Table, conn: Connection) -> None:
    """A watcher went: the others are told how many watch now."""
    if conn in table.watchers:
        table.watchers.remove(conn)
        table.broadcast_seats()


def handle(table: Table, conn: Connection, message: Mapping[str, Any]) -> None:
    """A watcher's message the seats' handlers do not take
    (``WATCHER_KINDS``): a chat line, to the watchers; a move, a deal, a
    save, the start or the end refused (``watching``)."""
    kind = message["type"]
    if kind == "say":
        aside(table, conn, message)
    elif kind in SEATS_ONLY:
        raise ProtocolError(WATCHING)
    else:
        raise ProtocolError(UNKNOWN_TYPE, values={"type": json_text(kind)})


def aside(table: Table, conn: Connection, message: Mapping[str, Any]) -> None:
    """A watcher's chat line to every watcher (never to a seat, nor kept
    with the game), cut as a seat's is, at a seat's pace."""
    watcher = conn.watcher
    assert watcher is not None
    said = chat_line(conn, watcher.said, message)
    if said is None:
        return
    text, now = said
    watcher.said.append(now)
    line = messages.aside(watcher.name, text)
    for other in table.watchers:
        other.send(line)
