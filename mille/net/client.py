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
from ..game.limits import default_name, say_text
from ..i18n import N_, _
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

HUNG_UP = N_(
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
        return _("the host's certificate did not verify (is --cert a copy of the host's own?)")
    if isinstance(exc, ssl.SSLError):
        if exc.reason == "WRONG_VERSION_NUMBER":  # what came back was no TLS
            return _("the host does not use TLS (join without --cert)")
        return _("TLS failed: {why}").format(why=exc.reason or exc)
    reason = os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))
    return reason or _(HUNG_UP)  # (a TLS handshake cut short says nothing)


def address_text(address: str, port: int) -> str:
    """``ADDRESS:PORT`` as typed after ``--join`` (an IPv6 address in brackets)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


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


def say_message(text: str) -> dict[str, Any] | None:
    """The ``say`` message for a chat line typed, cut as the host cuts it
    (``limits.say_text``); None if nothing is left to say."""
    line = say_text(text)
    return {"type": "say", "text": line} if line else None


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
                _(
                    "the host speaks mille protocol {protocol}, not {ours}: "
                    "play with the same version of mille"
                ).format(protocol=shown(message.get("protocol"), 10), ours=PROTOCOL),
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
        return default_name(seat)  # (the session's name of a person not named)


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
            raise ProtocolError(BAD_MESSAGE, _("a line from the host is too long")) from None
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
            _(
                "mille: cannot keep the seat's token in {path}: {why} "
                "(this seat cannot come back once mille ends)"
            ).format(path=shown(seat_file.path, 200), why=shown(exc.strerror or exc, 80)),
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
            _("mille: ignoring the seat file: {why} (joining as a new person)").format(
                why=shown(exc, 300)
            ),
            file=sys.stderr,
            flush=True,
        )
        return hello
    if token is None:
        return hello
    return wire_hello(hello["code"], token=token)
