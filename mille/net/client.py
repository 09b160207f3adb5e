"""The client's side: a connection to a host, and the seat's view rebuilt
from what it is sent.

:class:`Client` connects (TLS if asked), says ``hello`` and reads and
sends messages.  :func:`table_of` rebuilds a table from a seat's view as
sent (``storage.shapes.view_to_dict``, read back by
``storage.shapes.table_from_view``): what the seat sees as it is, the places hidden
from it filled with the cards it has not seen, in card order (no secret:
the client knows no more), so the front ends' words and boards, which read
a :class:`~mille.engine.view.SeatView`, work on it unchanged.
"""

from __future__ import annotations

import asyncio
import sys
import time

from ..engine.moves import Event
from ..engine.table import Table
from ..engine.view import SeatView
from ..game.limits import say_text
from ..storage.seatfile import SeatFile, SeatFileError
from ..storage.shapes import event_from_dict, table_from_view
from .wire import (
    BAD_MESSAGE,
    MAX_SERVER_LINE,
    PROTOCOL,
    TABLE_OVER,
    VERSION,
    WRONG_CODE,
    WRONG_TOKEN,
    ProtocolError,
    decode,
    encode,
    shown,
)
from .wire import hello as wire_hello

NAME_SHOWN = 24  # the most of a name from the host shown

# the exit statuses of mille --join (and of the host's own seat): what happened
ENDED_STATUS = 0  # the game ended (the host ended it), or the player left the table
FAILED_STATUS = 1  # no host reached (or a bad argument): nothing was played
REFUSED_STATUS = 2  # the host refused the seat (wrong code, table full, ...)
GONE_STATUS = 3  # the line to the host broke and did not come back
GONE = "mille: the host went away"
NOT_WELCOMED = "mille: the host closed the connection without a word (a host with TLS wants --cert)"


HUNG_UP = (
    "the host hung up at once (too many connections from your address, or it is busy: "
    "try again in a minute)"
)
WAIT_FOR_HOST = 300.0  # seconds a joiner waits for a host that is not listening yet
RETRY_EVERY = 0.5  # seconds between two tries meanwhile


def failure_reason(exc: OSError) -> str:
    """The words for a failed connection: a TLS failure as such (its
    error's number is no system error's), else the system's words
    (asyncio puts its own in ``strerror``)."""
    import os
    import ssl

    if isinstance(exc, ssl.SSLCertVerificationError):
        return "the host's certificate did not verify (is --cert a copy of the host's own?)"
    if isinstance(exc, ssl.SSLError):
        if exc.reason == "WRONG_VERSION_NUMBER":  # what came back was no TLS
            return "the host does not use TLS (join without --cert)"
        return f"TLS failed: {exc.reason or exc}"
    reason = os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))
    return reason or HUNG_UP  # (a TLS handshake cut short says nothing)


def address_text(address: str, port: int) -> str:
    """``ADDRESS:PORT`` as typed after ``--join`` (an IPv6 address in brackets)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def waiting_line(address: str, port: int) -> str:
    """What a joiner says while the host is not there yet."""
    return f"mille: waiting for the host at {shown(address_text(address, port))}... (^C to stop)"


def _refused(exc: OSError) -> bool:
    import errno

    return isinstance(exc, ConnectionRefusedError) or exc.errno == errno.ECONNREFUSED


TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Callable
    from typing import Any

    from ..engine.rules import Rules


def table_of(view: dict[str, Any]) -> Table:
    """The table a seat may imagine from its ``view`` (see the module
    docstring); ``ProtocolError`` if the view is not a valid one."""
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


# ----- who is at the table (both front ends' words) ----------------------------

MARKS = {"free": "?", "away": "~", "left": "~", "computer-for-now": "+"}  # beside a name
MARKS_LEGEND = "? awaited  ~ away  + a computer plays for now"
STATUS_WORDS = {
    "here": "here",
    "free": "awaited",
    "away": "away (dropped)",
    "left": "away (left)",
    "computer": "a computer",
    "computer-for-now": "a computer plays it for now",
}


class Presence:
    """Who sits where, as the host's ``seats`` messages say, and the lines
    that tell what changed: joined, dropped, left, back, a computer
    standing in, the game started."""

    def __init__(self, me: int = -1) -> None:
        self.me = me
        self.rows: list[dict[str, Any]] = []
        self.started = True
        self.join = ""  # the whole join command, as the host gives it
        self.waiting_for: int | None = None
        self.came: set[int] = set()  # seats whose person has been here
        self.heard = False  # a seats message came

    def status(self, seat: int) -> str:
        for row in self.rows:
            if row.get("seat") == seat:
                return str(row.get("status", ""))
        return ""

    def name(self, seat: int) -> str:
        for row in self.rows:
            if row.get("seat") == seat:
                return shown(row.get("name", ""), NAME_SHOWN)
        return f"Seat {seat}"

    def mark(self, seat: int) -> str:
        """A mark beside a seat's name on the boards (``MARKS``; "" if here)."""
        return MARKS.get(self.status(seat), "")

    def take(self, message: dict[str, Any]) -> list[str]:
        """A ``seats`` message; the lines telling what changed."""
        before = {row.get("seat"): row.get("status") for row in self.rows}
        first = not self.heard
        self.heard = True
        self.rows = [row for row in message.get("seats", []) if isinstance(row, dict)]
        started = message.get("started") is not False
        join = message.get("join")
        if isinstance(join, str) and join:
            self.join = shown(join, 300)
        lines: list[str] = []
        for row in self.rows:
            seat = row.get("seat")
            status = row.get("status")
            if not isinstance(seat, int):
                continue
            old = before.get(seat)
            if status == "here" and seat != self.me:
                if seat in self.came and old != "here":
                    lines.append(f"{self.name(seat)} is back.")
                elif old != "here" and not first:
                    lines.append(f"{self.name(seat)} joined.")
            if status == "here":
                self.came.add(seat)
            if first or old == status or seat == self.me:
                continue
            who = self.name(seat)
            if status == "away":
                lines.append(f"{who} dropped; the seat waits for {who}.")
            elif status == "left":
                lines.append(f"{who} left; the seat waits for {who}.")
            elif status == "computer-for-now":
                until = "is back" if seat in self.came else "joins"
                lines.append(f"A computer plays {who}'s seat until {who} {until}.")
        if started and not self.started:
            lines.append("The game starts.")
        self.started = started
        waiting = message.get("waiting_for")
        self.waiting_for = waiting if isinstance(waiting, int) else None
        return lines

    def others_here(self) -> str:
        """The others at the table now, by name (``Hal (the host), Ann``)."""
        return ", ".join(
            self.name(seat) + (" (the host)" if row.get("host") else "")
            for row in self.rows
            if isinstance(seat := row.get("seat"), int)
            and seat != self.me
            and row.get("status") == "here"
        )

    def seat_lines(self) -> list[str]:
        """A line a seat: its number (from 0, as ``--people``, ``You sit at
        seat N`` and the default names ``Player N`` count them), name and
        who plays it."""
        lines = []
        for row in self.rows:
            seat = row.get("seat")
            if not isinstance(seat, int):
                continue
            words = STATUS_WORDS.get(str(row.get("status")), "?")
            if seat == self.me:
                words = "you" + (", the host" if row.get("host") else "")
            elif row.get("host"):
                words += ", the host"
            lines.append(f"  {seat:>2} {self.name(seat):<16} {words}")
        return lines


def said_line(message: dict[str, Any], me: int) -> str | None:
    """A chat line as every seat shows it (``Ann says: hello``), escaped."""
    text = message.get("text")
    seat = message.get("seat")
    if not isinstance(text, str) or not isinstance(seat, int):
        return None
    who = "You" if seat == me else shown(message.get("name", ""), NAME_SHOWN)
    return f"{who} {'say' if seat == me else 'says'}: {shown(text, 200)}"


def say_message(text: str) -> dict[str, Any] | None:
    """The ``say`` message for a chat line typed, cut as the host cuts it
    (``limits.say_text``); None if nothing is left to say."""
    line = say_text(text)
    return {"type": "say", "text": line} if line else None


def name_refused(welcome: dict[str, Any]) -> str:
    """The line saying why the joiner's ``--name`` does not name the seat
    ("" if it does)."""
    reason = welcome.get("name_refused")
    if not isinstance(reason, str):
        return ""
    return f"mille: your name is not used ({shown(reason, 100)}); you are {shown(welcome.get('name'), 24)}."


class Remote:
    """What the client knows of its seat: the view, the hand's events,
    who sits where."""

    def __init__(self) -> None:
        self.seat = 0
        self.token = ""
        self.host = False
        self.version = 0
        self.table: Table | None = None
        self.log: list[Event] = []
        self.seats: list[dict[str, Any]] = []
        self.waiting_for: int | None = None
        self.legal: list[str] = []
        self.names: dict[int, str] = {}  # the people's names, by seat (escaped)

    @property
    def view(self) -> SeatView:
        """The seat's view, naming the people as the host's session does
        (``You`` for this seat: ``describe``'s words are relative to it)."""
        assert self.table is not None
        return SeatView(self.table, self.seat, self.names)

    def welcome(self, message: dict[str, Any]) -> None:
        if message.get("protocol") != PROTOCOL:
            raise ProtocolError(
                VERSION,
                f"the host speaks mille protocol {shown(message.get('protocol'), 10)}, "
                f"not {PROTOCOL}: play with the same version of mille",
            )
        self.seat = int(message["seat"])
        self.token = str(message["token"])
        self.host = bool(message["host"])

    def update(self, message: dict[str, Any]) -> list[Event]:
        """Take in an update; the new events to tell (a deal empties the log)."""
        new: list[Event] = []
        view = message["view"]
        table = table_of(view)
        for data in message.get("events", []):
            event = event_of(data, table.rules)
            if event is None:
                self.log.clear()
                new.clear()
            else:
                self.log.append(event)
                new.append(event)
        self.table = table
        names = view.get("names")
        if isinstance(names, list):
            self.names = {
                seat: shown(name, NAME_SHOWN)
                for seat, name in enumerate(names)
                if isinstance(name, str) and seat < self.table.rules.players
            }
        self.legal = [str(move) for move in view.get("legal", [])]
        self.version = int(message["version"])
        return new

    def name(self, seat: int) -> str:
        """A seat's player's name as the host gave it, escaped."""
        for row in self.seats:
            if row.get("seat") == seat:
                return shown(row.get("name", ""), 24)
        return f"Seat {seat}"


class Client:
    """A connection to a host: lines in, lines out."""

    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(
        self, address: str, port: int, ssl_context: ssl.SSLContext | None = None
    ) -> None:
        self.reader, self.writer = await asyncio.open_connection(
            address,
            port,
            ssl=ssl_context,
            limit=MAX_SERVER_LINE,
            server_hostname=address if ssl_context is not None else None,
        )

    async def connect_waiting(
        self,
        address: str,
        port: int,
        ssl_context: ssl.SSLContext | None = None,
        *,
        patience: float = WAIT_FOR_HOST,
        waiting: Callable[[], None] = lambda: None,
    ) -> None:
        """Connect; while nothing listens there (the host has not started
        yet), call ``waiting`` once and try again every ``RETRY_EVERY``
        seconds for up to ``patience`` seconds; the last ``OSError`` then
        (any other failure at once)."""
        deadline = time.monotonic() + patience
        told = False
        while True:
            try:
                await self.connect(address, port, ssl_context)
                return
            except OSError as exc:
                if not _refused(exc) or time.monotonic() + RETRY_EVERY > deadline:
                    raise
            if not told:
                told = True
                waiting()
            await asyncio.sleep(RETRY_EVERY)

    def send(self, message: dict[str, Any]) -> None:
        assert self.writer is not None
        self.writer.write(encode(message))

    async def receive(self) -> dict[str, Any] | None:
        """The next message (None when the host hung up)."""
        assert self.reader is not None
        try:
            line = await self.reader.readuntil(b"\n")
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            return None
        except (asyncio.LimitOverrunError, ValueError):
            raise ProtocolError(BAD_MESSAGE, "a line from the host is too long") from None
        return decode(line)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await asyncio.wait_for(self.writer.wait_closed(), 2)
            except (asyncio.TimeoutError, ConnectionError, OSError):
                pass


# ----- the seat file (mille --join comes back after its program ended) ----------

LOCK_WAIT = 3.0  # seconds to wait for the seat file another mille --join holds
TABLE_GONE = (WRONG_CODE, WRONG_TOKEN, TABLE_OVER)  # a kept token is no use any more


def keep_token(seat_file: SeatFile | None, seat: int, token: str) -> None:
    """Welcomed: keep the seat's token for the next ``mille --join`` (one
    line on standard error if it cannot be written)."""
    if seat_file is None:
        return
    try:
        seat_file.store(seat, token)
    except OSError as exc:
        print(
            f"mille: cannot keep the seat's token in {shown(seat_file.path, 200)}: "
            f"{shown(exc.strerror or exc, 80)} (this seat cannot come back once mille ends)",
            file=sys.stderr,
            flush=True,
        )


def resume_hello(seat_file: SeatFile, hello: dict[str, Any]) -> dict[str, Any]:
    """``hello`` with the token kept for this table in a seat file no other
    ``mille --join`` holds, if any (a file that cannot be used: one line on
    standard error, and ``hello`` as it is).  Where others hold every one,
    they are waited for up to ``LOCK_WAIT`` seconds (a program whose
    terminal just closed is still ending: its seat is this one's), then
    this one joins as a new person."""
    try:
        token = seat_file.load()
        deadline = time.monotonic() + LOCK_WAIT
        while token is None and seat_file.in_use and time.monotonic() < deadline:
            # other mille --join hold the table's seats: one whose terminal
            # just closed lets go within a moment, and this one takes it over
            time.sleep(0.05)
            token = seat_file.load()
    except SeatFileError as exc:
        print(
            f"mille: ignoring the seat file: {shown(exc, 300)} (joining as a new person)",
            file=sys.stderr,
            flush=True,
        )
        return hello
    if token is None:
        return hello
    return wire_hello(hello["code"], token=token)
