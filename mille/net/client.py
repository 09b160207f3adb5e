"""The client's side: a connection to a host.

:class:`Client` connects (TLS if asked), says ``hello`` and reads and
sends messages; a failure to connect is said in words
(:func:`failure_reason`), a chat line typed is cut as the host cuts it
(:func:`say_message`), and a joined seat's token is kept for the next
``mille --join`` (:func:`keep_token`, :func:`resume_hello`).  What the
host's welcome and updates say is read in ``net.follow``.
"""

from __future__ import annotations

import asyncio
import sys
import time

from ..game.limits import say_text
from ..i18n import N_, _
from ..storage.seatfile import SeatFile, SeatFileError
from .messages import Say, say
from .messages import hello as wire_hello
from .wire import (
    BAD_MESSAGE,
    MAX_SERVER_LINE,
    TABLE_OVER,
    TLS_REFUSED_REASON,
    WRONG_CODE,
    WRONG_TOKEN,
    ProtocolError,
    decode,
    encode,
    shown,
)

HUNG_UP = N_(
    "the host refused the connection (too many connections from your address, or it is busy: "
    "try again in a minute)"
)
TLS_CUT = N_("the TLS handshake failed: the host hung up (is --cert a copy of the host's own?)")
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
        if exc.reason == TLS_REFUSED_REASON:  # the host's refusal before the handshake
            return _(HUNG_UP)
        return _("TLS failed: {why}").format(why=exc.reason or exc)
    reason = os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))
    return reason or _(TLS_CUT)  # (a TLS handshake cut short says nothing)


def address_text(address: str, port: int) -> str:
    """``ADDRESS:PORT`` as typed after ``--join`` (an IPv6 address in brackets)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def _refused(exc: OSError) -> bool:
    import errno

    return isinstance(exc, ConnectionRefusedError) or exc.errno == errno.ECONNREFUSED


TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Callable, Mapping
    from typing import Any


def say_message(text: str) -> Say | None:
    """The ``say`` message for a chat line typed, cut as the host cuts it
    (``limits.say_text``); None if nothing is left to say."""
    line = say_text(text)
    return say(line) if line else None


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

    def send(self, message: Mapping[str, Any]) -> None:
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


def resume_hello(seat_file: SeatFile, hello: Mapping[str, Any]) -> Mapping[str, Any]:
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
