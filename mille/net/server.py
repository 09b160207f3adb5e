"""The host's server: the connections, their limits and TLS, with asyncio.

A :class:`Server` holds tables (``host.Host``: the game being played,
its seats, chat, moves, deals and saves), each found by its join code.  A
connection says ``hello`` with a table's code (and a name) to take a
free person seat, or with its seat's resume token to come back; then
each message it sends is handed to its table (``Host.handle``), and it is
sent its seat's updates.  ``docs/protocol.md`` describes the messages.

The limits are here: per connection (``connection.Connection``: a line of
at most ``MAX_LINE`` bytes, a rate, a first deadline, a bounded send
queue), per address (connections open at once; wrong codes and tokens
slowed down, and an address with too many refused for a while;
comebacks paced, with each seat's own pace), and the connections without
a seat yet, from all addresses.  With TLS, each handshake is made after
the connection is accepted, within those limits (on the accepted socket,
before anything reads from it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import sys
import time
from collections import deque

from . import messages
from .connection import MAX_ADDRESSES, Connection, Limits, Pace, Seat
from .host import Host
from .watchers import watch
from .wire import (
    BAD_JSON,
    BUSY,
    HELLO_FIRST,
    HOST_GONE,
    MAX_LINE,
    PROTOCOL,
    TABLE_OVER,
    TLS_REFUSED,
    TOO_FAST,
    TOO_LONG,
    TOO_MANY,
    TOO_MANY_COMEBACKS,
    TOO_MANY_CONNECTIONS,
    TOO_SLOW,
    VERSION,
    WRONG_CODE,
    WRONG_TOKEN,
    ProtocolError,
    decode,
    encode,
    json_text,
)
from .wire import field as read_field

__all__ = ["Host", "Limits", "Server", "quiet", "raise_descriptor_limit"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Awaitable, Callable
    from typing import Any

    from .messages import Refusal


REFUSE_WAIT = 0.2  # seconds a TLS connection refused waits for its first bytes, at most
MAX_DESCRIPTORS = 1 << 16  # the soft limit asked for where the hard one has none
SWITCH = 0.0005  # seconds a thread holds the interpreter before the others may run


class Server:
    """Tables by join code, the connections' limits, the failures by address."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.tables: dict[str, Host] = {}
        self.watched: dict[str, Host] = {}  # the tables by watch code (``net.watchers``)
        self.failures: dict[str, deque[float]] = {}
        self.open: dict[str, int] = {}  # connections by address
        self.answered = 0  # connections served (the fuzz counts them)
        self.server: asyncio.Server | None = None
        self.ssl_context: ssl.SSLContext | None = None
        # the connections without a seat yet, by address, oldest first
        self.unseated: dict[str, deque[Connection]] = {}
        self.unseated_count = 0
        self.comebacks: dict[str, Pace] = {}  # the comebacks' pace by address
        self.evicted = 0  # unseated connections cut to let another in (the flood test counts)
        self.handlers: set[asyncio.Task[Any]] = set()  # the connections' handlers running

    def add(self, host: Host) -> Host:
        """Serve ``host``'s table (with the server's limits unless it has its own)."""
        if not host.own_limits:
            host.limits = self.limits
        self.tables[host.code] = host
        if host.watch_code:
            self.watched[host.watch_code] = host
        host.open_seats()
        host.driver = asyncio.get_running_loop().create_task(host.drive())
        host.wake.set()
        return host

    async def start(
        self, address: str = "127.0.0.1", port: int = 0, ssl_context: ssl.SSLContext | None = None
    ) -> tuple[str, int]:
        """Listen; the address and port taken.

        With ``ssl_context`` each connection's TLS handshake is made after
        it is accepted, within the connection limits (per address, and of
        the connections not yet seated) and the first message's deadline.

        The process's thread switch interval is cut to ``SWITCH`` seconds:
        a computer searching in a worker thread then lets go of the
        interpreter that often, so the loop answers the others within
        about that long (rather than 5 ms each time it waits)."""
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH))
        self.ssl_context = ssl_context
        loop = asyncio.get_running_loop()
        paused = ssl_context is not None

        def connection() -> asyncio.StreamReaderProtocol:
            reader = asyncio.StreamReader(limit=MAX_LINE + 1, loop=loop)
            return _Accepted(reader, self.handle, loop=loop, paused=paused)

        try:
            self.server = await loop.create_server(connection, address, port)
        except OSError as exc:
            raise exc if exc.errno else bind_error(address, port, exc) from None
        name = self.server.sockets[0].getsockname()
        return name[0], name[1]

    async def close(self) -> None:
        for host in list(self.tables.values()):
            host.end(HOST_GONE)
        for host in list(self.tables.values()):
            if host.driver is not None:
                with contextlib.suppress(BaseException):
                    await host.driver
            if host.thinker is not None:
                await host.thinker.stop()
        if self.server is not None:
            self.server.close()
        await self._end_handlers()
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

    async def _end_handlers(self) -> None:
        """The connections' handlers ended (none left suspended when the
        loop closes: a SIGTERM while a joiner comes back)."""
        handlers = list(self.handlers)
        for task in handlers:
            task.cancel()
        if handlers:
            await asyncio.wait(handlers, timeout=2)

    # ----- failures by address ---------------------------------------------------------

    def _recent_failures(self, address: str) -> deque[float]:
        times = self.failures.get(address)
        if times is None:
            if len(self.failures) >= MAX_ADDRESSES:
                self.failures.pop(next(iter(self.failures)))
            times = self.failures[address] = deque()
        now = time.monotonic()
        while times and now - times[0] > self.limits.fail_window:
            times.popleft()
        return times

    async def _failed(self, conn: Connection, code: str) -> ProtocolError:
        """A wrong code or token: the error to answer (and then cut the
        connection) after a delay that grows with the address's recent
        failures."""
        times = self._recent_failures(conn.address)
        times.append(time.monotonic())
        limits = self.limits
        slowed = len(times) - limits.free_failures
        if slowed > 0:
            await asyncio.sleep(min(limits.fail_delay * 2 ** (slowed - 1), limits.max_fail_delay))
        return ProtocolError(code)

    def _holds_a_seat(self, hello: dict[str, Any]) -> bool:
        """The right code with a seat's token: let in from an address refused
        for its wrong codes (a person seated there, behind the same home
        router as whoever guesses), at its seat's pace of comebacks.  Any
        other hello from there is refused the same way, whichever part of
        it is wrong."""
        code, token = hello.get("code"), hello.get("token")
        if not isinstance(code, str) or not isinstance(token, str) or len(code) > 64:
            return False
        table = self.tables.get(code)
        if table is None or not secrets.compare_digest(table.code, code):
            return False
        return table.seat_of(token[:64]) is not None

    async def _come_back(self, conn: Connection, seat: Seat) -> None:
        """A seat taken back with its token waits its turn: each seat,
        and each address, comes back at a pace (``Limits.comebacks``),
        so that coming back again and again floods nobody with who is
        here; one that would wait too long is refused."""
        limits = self.limits
        now = time.monotonic()
        if seat.comebacks is None:
            seat.comebacks = Pace(limits.comebacks, limits.comeback_every, limits.comeback_wait)
        pace = self.comebacks.get(conn.address)
        if pace is None:
            if len(self.comebacks) >= MAX_ADDRESSES:
                self.comebacks.pop(next(iter(self.comebacks)))
            pace = self.comebacks[conn.address] = Pace(
                limits.address_comebacks, limits.address_comeback_every, limits.comeback_wait
            )
        waits = (seat.comebacks.reserve(now), pace.reserve(now))
        if None in waits:
            raise ProtocolError(TOO_MANY_COMEBACKS)
        wait = max(w for w in waits if w is not None)
        if wait > 0:
            await asyncio.sleep(wait)

    # ----- connections without a seat ----------------------------------------------------

    def _admit(self, conn: Connection) -> bool:
        """Count ``conn`` among the connections without a seat; at the cap,
        the oldest one of the address that holds the most goes to make
        room (a flood from many addresses does not keep a newcomer out),
        unless no address holds more than ``conn``'s would: False."""
        if self.unseated_count >= self.limits.unseated:
            most = max(self.unseated, key=lambda address: len(self.unseated[address]))
            if len(self.unseated[most]) <= len(self.unseated.get(conn.address, ())) + 1:
                return False
            victim = self.unseated[most][0]
            self._seated(victim)
            victim.abort()
            self.evicted += 1
        self.unseated.setdefault(conn.address, deque()).append(conn)
        self.unseated_count += 1
        return True

    def _seated(self, conn: Connection) -> None:
        """``conn`` is no longer among the connections without a seat."""
        waiting = self.unseated.get(conn.address)
        if waiting is None or conn not in waiting:
            return
        waiting.remove(conn)
        self.unseated_count -= 1
        if not waiting:
            del self.unseated[conn.address]

    # ----- a connection ------------------------------------------------------------------

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted = time.monotonic()
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        conn = Connection(reader, writer, address, self.limits, tokens=float(self.limits.burst))
        plain = writer.transport.get_protocol()
        task = asyncio.current_task()
        assert task is not None  # (start_server runs each handler as a task)
        self.handlers.add(task)
        self.open[address] = self.open.get(address, 0) + 1
        pump: asyncio.Task[None] | None = None
        try:
            refusal = None
            if self.open[address] > self.limits.per_address:
                refusal = messages.error(TOO_MANY_CONNECTIONS)
            elif not self._admit(conn):
                refusal = messages.error(BUSY)
            if refusal is not None:
                if isinstance(plain, _Accepted) and plain.socket is not None:
                    await refuse_tls(plain.socket)  # (no handshake for a refusal)
                else:
                    with contextlib.suppress(Exception):
                        writer.write(encode(refusal))
                return
            if isinstance(plain, _Accepted) and plain.socket is not None:
                assert self.ssl_context is not None
                sock, plain.socket = plain.socket, None
                conn.reader, conn.writer = await secure(
                    sock, self.ssl_context, self.limits.first_deadline
                )
                writer = conn.writer
            pump = asyncio.get_running_loop().create_task(conn.pump())
            left = self.limits.first_deadline - (time.monotonic() - accepted)
            await self._serve(conn, max(left, 0.001))
        except ProtocolError as exc:
            conn.send(messages.error(exc.code, exc.values))
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            pass
        finally:
            if isinstance(plain, _Accepted) and plain.socket is not None:
                plain.socket.close()  # refused before its handshake
            self.answered += 1
            self._seated(conn)
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]
            conn.close()
            try:
                if pump is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(pump, 5)
            finally:
                writer.close()
                self.handlers.discard(task)

    async def _line(self, conn: Connection, deadline: float) -> bytes | None:
        """The next line (None at the end of the stream)."""
        try:
            line = await asyncio.wait_for(conn.reader.readuntil(b"\n"), deadline)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise ProtocolError(BAD_JSON) from None
            return None
        except asyncio.LimitOverrunError:
            raise ProtocolError(TOO_LONG) from None
        except ValueError:  # the limit, on some versions
            raise ProtocolError(TOO_LONG) from None
        except asyncio.TimeoutError:
            raise ProtocolError(TOO_SLOW) from None
        return line

    async def _serve(self, conn: Connection, first_deadline: float) -> None:
        line = await self._line(conn, first_deadline)
        if line is None:
            return
        table = await self._hello(conn, decode(line))
        try:
            await self._seated_messages(conn, table)
        finally:
            table.detach(conn)

    async def _seated_messages(self, conn: Connection, table: Host) -> None:
        """Read a seated connection's messages, each within the rate, and
        hand them to its table (``Host.handle``); ping it when it is quiet,
        and hang up on one silent too long."""
        limits = self.limits
        while not conn.closed:
            try:
                line = await self._line(conn, limits.ping_every)
            except ProtocolError as exc:
                if exc.code != TOO_SLOW:
                    raise
                if time.monotonic() - conn.refilled > limits.idle_deadline:
                    raise
                conn.send(messages.beat("ping"))
                continue
            if line is None:
                return
            if not conn.allow():
                conn.send(messages.error(TOO_FAST, {"rate": f"{limits.rate:g}"}))
                continue
            try:
                table.handle(conn, decode(line))
            except ProtocolError as exc:
                if exc.code == TABLE_OVER:
                    raise
                conn.send(messages.error(exc.code, exc.values))

    async def _hello(self, conn: Connection, hello: dict[str, Any]) -> Host:
        """The first message: the seat taken (its table), or ``ProtocolError``."""
        if hello["type"] != "hello":
            raise ProtocolError(HELLO_FIRST)
        version = hello.get("protocol")
        if type(version) is not int or version != PROTOCOL:  # True and 1.0 are not 1 here
            raise ProtocolError(
                VERSION, values={"protocol": PROTOCOL, "version": json_text(version)}
            )
        locked = len(self._recent_failures(conn.address)) >= self.limits.max_failures
        if locked and not self._holds_a_seat(hello):
            raise ProtocolError(TOO_MANY)
        code = read_field(hello, "code", str)
        table = self.tables.get(code) if len(code) <= 64 else None
        if table is None or not secrets.compare_digest(table.code, code):
            return await self._watch(conn, hello, code)
        if table.over:
            raise ProtocolError(TABLE_OVER)
        refused: Refusal | None = None  # why the joiner's name is not the seat's
        if hello.get("token") is not None:
            seat = table.seat_of(read_field(hello, "token", str)[:64])
            if seat is None:
                raise await self._failed(conn, WRONG_TOKEN)
            await self._come_back(conn, seat)
            if table.over:
                raise ProtocolError(TABLE_OVER)
            version = hello.get("version")
            if isinstance(version, int) and not isinstance(version, bool) and version >= 0:
                conn.sent_version = version
        else:
            seat, refused = table.take_free(hello.get("name"))
        self._seated(conn)
        table.welcome(conn, seat, refused)
        return table

    async def _watch(self, conn: Connection, hello: dict[str, Any], code: str) -> Host:
        """A hello with a table's watch code: the table watched
        (``watchers.watch``); a wrong code otherwise, slowed down as any."""
        table = self.watched.get(code) if len(code) <= 64 else None
        if table is None or not secrets.compare_digest(table.watch_code, code):
            raise await self._failed(conn, WRONG_CODE)
        if table.over:
            raise ProtocolError(TABLE_OVER)
        self._seated(conn)
        watch(table, conn, hello.get("name"))
        return table


class _Accepted(asyncio.StreamReaderProtocol):
    """A connection as ``asyncio.start_server`` makes it; if ``paused`` (a
    TLS handshake is to come) its plain transport is closed before it reads
    anything, and ``socket`` is the connection, for :func:`secure` once the
    server has let it in."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        handle: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
        *,
        loop: asyncio.AbstractEventLoop,
        paused: bool,
    ) -> None:
        super().__init__(reader, handle, loop=loop)
        self.paused = paused
        self.socket: socket.socket | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self.paused and isinstance(transport, asyncio.Transport):  # the socket, taken first
            held = transport.get_extra_info("socket")
            self.socket = socket.socket(fileno=os.dup(held.fileno()))
            self.socket.setblocking(False)
            super().connection_made(transport)
            transport.abort()  # (its descriptor closed; the copy holds the connection)
            return
        super().connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.paused:  # the plain transport's end; the TLS one is the stream's
            return
        super().connection_lost(exc)


async def secure(
    sock: socket.socket, context: ssl.SSLContext, timeout: float
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """The server's side of a TLS handshake on ``sock``, an accepted
    connection nothing has read from yet; the TLS stream (``TimeoutError``
    after ``timeout`` seconds).  asyncio's own path (``ssl=`` of a
    server's sockets), where ``start_tls`` on a stream lost the first bytes
    of the handshake to the stream's reader on Python 3.10 and 3.11.2."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE + 1, loop=loop)
    try:
        transport, _ = await asyncio.wait_for(
            loop.connect_accepted_socket(
                lambda: asyncio.StreamReaderProtocol(reader, loop=loop),
                sock,
                ssl=context,
                ssl_handshake_timeout=timeout,
            ),
            timeout,
        )
    except BaseException:
        sock.close()
        raise
    protocol: Any = transport.get_protocol()
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


async def refuse_tls(sock: socket.socket) -> None:
    """A TLS connection refused before its handshake (too many from its
    address, or the host busy): TLS's own word for it, the alert
    ``access_denied`` (``wire.TLS_REFUSED``), sent once the client's first
    bytes came (or after ``REFUSE_WAIT`` seconds): a connection closed
    with them unread is reset, and the alert lost.  The client then says
    the host refused it, not that TLS failed (``client.failure_reason``)."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(OSError, asyncio.TimeoutError):
        await asyncio.wait_for(loop.sock_recv(sock, MAX_LINE), REFUSE_WAIT)
    with contextlib.suppress(OSError, asyncio.TimeoutError):
        await asyncio.wait_for(loop.sock_sendall(sock, TLS_REFUSED), REFUSE_WAIT)
        sock.shutdown(socket.SHUT_WR)


def bind_error(address: str, port: int, failed: OSError) -> OSError:
    """Why ``address`` cannot be listened on, with its errno: Python 3.13's
    ``create_server`` says only "could not bind on any address" when the
    address is not this machine's (EADDRNOTAVAIL)."""
    try:
        found = socket.getaddrinfo(
            address or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
        for family, kind, proto, _, where in found:
            with socket.socket(family, kind, proto) as probe:
                probe.bind(where)
    except OSError as exc:
        return exc
    return failed


def quiet(loop: asyncio.AbstractEventLoop) -> None:
    """Nothing of asyncio's on the host's terminal: what it would log (a
    refused handshake, descriptors running out while a flood lasts) is
    dropped; the server has its own limits and answers."""
    import logging

    loop.set_exception_handler(lambda loop, context: None)
    logger = logging.getLogger("asyncio")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False


def raise_descriptor_limit() -> None:
    """The soft limit of open files raised to the hard one, where the
    system lets a program (a host under a flood has room for its seats)."""
    try:
        import resource
    except ImportError:  # Windows
        return
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = MAX_DESCRIPTORS if hard == resource.RLIM_INFINITY else hard
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        pass
