"""A client's connection as the host's server holds it, the seat it
plays, and the server's numbers (``Limits``: the tests make them small).

Limits per connection: a line of at most ``wire.MAX_LINE`` bytes,
``RATE`` messages a second (``BURST`` at once), a ``hello`` within
``FIRST_DEADLINE`` seconds, a bounded send queue (a client that falls
``SEND_QUEUE`` messages behind is cut).  What belongs to a seat outlives
its connections: its chat allowance (``game.limits.SAY_BURST``) and the
pace of its comebacks (:class:`Pace`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from dataclasses import dataclass, field

from ..game.limits import SAY_BURST, SAY_WINDOW, say_text
from . import messages
from .wire import (
    BURST,
    CHAT_TOO_FAST,
    FIRST_DEADLINE,
    IDLE_DEADLINE,
    PING_EVERY,
    RATE,
    SEND_QUEUE,
    encode,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .messages import FromHost

GRACE = 60.0  # seconds a dropped person's seat waits before a computer plays it
FAIL_WINDOW = 60.0  # wrong codes and tokens are counted over this many seconds
MAX_FAILURES = 20  # wrong codes from one address in FAIL_WINDOW: refused until they age
FREE_FAILURES = 3  # the first wrong codes from an address in FAIL_WINDOW are answered at once
FAIL_DELAY = 0.25  # then the answer waits this long, doubled each time (to 4 s)
MAX_FAIL_DELAY = 4.0
MAX_PER_ADDRESS = 32  # connections open at once from one address
MAX_UNSEATED = 256  # connections open at once that have no seat yet, from all addresses
MAX_ADDRESSES = 10000  # addresses whose failures are remembered
COMEBACKS = 10  # times a seat may come back (its token) at once, then ...
COMEBACK_EVERY = 2.0  # ... once every this many seconds (a comeback waits its turn)
ADDRESS_COMEBACKS = 40  # the same for all the seats of one address
ADDRESS_COMEBACK_EVERY = 0.5
COMEBACK_WAIT = 8.0  # the longest a comeback waits; past it it is refused (too-many-tries)


def too_fast(said: deque[float], now: float) -> bool:
    """A seat (or a watcher) that said ``SAY_BURST`` lines in the last
    ``SAY_WINDOW`` seconds (``said``: when, the oldest first, those older
    dropped)."""
    while said and now - said[0] > SAY_WINDOW:
        said.popleft()
    return len(said) >= SAY_BURST


@dataclass
class Pace:
    """At most ``burst`` at once, then one every ``every`` seconds, each
    waiting its turn up to ``most`` seconds (a cell rate: ``due`` is when
    the next would come if they came evenly)."""

    burst: int
    every: float
    most: float
    due: float = 0.0

    def reserve(self, now: float) -> float | None:
        """How long one more must wait for its turn (taken now), None if
        longer than ``most`` (and nothing is taken)."""
        when = max(now, self.due - (self.burst - 1) * self.every)
        if when - now > self.most:
            return None
        self.due = max(self.due, when) + self.every
        return when - now


@dataclass
class Limits:
    """The server's numbers (the tests make them small)."""

    grace: float = GRACE
    first_deadline: float = FIRST_DEADLINE
    idle_deadline: float = IDLE_DEADLINE
    ping_every: float = PING_EVERY
    rate: float = RATE
    burst: int = BURST
    free_failures: int = FREE_FAILURES
    fail_delay: float = FAIL_DELAY
    max_fail_delay: float = MAX_FAIL_DELAY
    max_failures: int = MAX_FAILURES
    fail_window: float = FAIL_WINDOW
    per_address: int = MAX_PER_ADDRESS
    unseated: int = MAX_UNSEATED
    comebacks: int = COMEBACKS
    comeback_every: float = COMEBACK_EVERY
    address_comebacks: int = ADDRESS_COMEBACKS
    address_comeback_every: float = ADDRESS_COMEBACK_EVERY
    comeback_wait: float = COMEBACK_WAIT


@dataclass(eq=False)
class Seat:
    """A seat of a table as the server sees it."""

    number: int
    person: bool
    token: str | None = None  # a person seat's, once taken (the host's at once)
    host: bool = False
    conn: Connection | None = None
    away_since: float | None = None  # monotonic time the person dropped
    stand_in: bool = False  # a computer plays it while the person is away
    timer: asyncio.TimerHandle | None = None
    left: bool = False  # the person said bye (rather than dropped)
    # when its chat lines were said: the seat's, however often it comes back
    said: deque[float] = field(default_factory=deque)
    comebacks: Pace | None = None  # its comebacks' pace (made at the first)


@dataclass(eq=False)
class Watcher:
    """A watcher as the server sees it: its name and when it said its
    chat lines (the same allowance as a seat's)."""

    name: str
    said: deque[float] = field(default_factory=deque)


@dataclass(eq=False)
class Connection:
    """One client: its stream, its send queue and its rate."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    address: str
    limits: Limits
    queue: asyncio.Queue[bytes | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    seat: Seat | None = None
    watcher: Watcher | None = None  # a watcher's connection (no seat)
    sent_version: int = -1
    closed: bool = False
    tokens: float = 0.0
    refilled: float = field(default_factory=time.monotonic)
    said_bye: bool = False  # the client left (bye), rather than dropped

    def send(self, message: FromHost) -> None:
        """Queue ``message``; a client too far behind is cut."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(encode(message))
        except asyncio.QueueFull:
            self.close()

    def abort(self) -> None:
        """Hang up now (nothing more is sent)."""
        self.closed = True
        self.writer.transport.abort()

    def close(self) -> None:
        """Send what is queued, then hang up."""
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            if self.queue.full():  # no room for the end: hang up now
                self.writer.close()

    def allow(self) -> bool:
        """One more message within the rate (a token bucket)."""
        now = time.monotonic()
        limits = self.limits
        self.tokens = min(limits.burst, self.tokens + (now - self.refilled) * limits.rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def pump(self) -> None:
        """Write the queued lines until the end (None) or a broken line."""
        try:
            while True:
                line = await self.queue.get()
                if line is None:
                    break
                self.writer.write(line)
                await self.writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self.closed = True
            self.writer.close()


def chat_line(
    conn: Connection, said: deque[float], message: Mapping[str, Any]
) -> tuple[str, float] | None:
    """The chat line ``message`` carries from ``conn``'s seat or watcher,
    as ``say_text`` makes it (escaped, cut), and when it came; None if it
    says nothing, or comes too fast for ``said`` (:func:`too_fast`:
    ``conn`` is told so).  The caller notes the time in ``said`` once the
    line is taken."""
    text = say_text(messages.read_say(message)["text"])
    if not text:
        return None
    now = time.monotonic()
    if too_fast(said, now):
        conn.send(messages.error(CHAT_TOO_FAST))
        return None
    return text, now
