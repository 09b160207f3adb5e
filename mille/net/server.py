"""The host's server: tables, connections, their limits, drops and the
computers' moves, with asyncio.

A :class:`Server` holds tables (:class:`Host`), each found by its join
code.  A connection says ``hello`` with a table's code (and a name) to
take a free person seat, or with its seat's resume token to come back;
then it sends moves, and is sent its seat's updates (``seats.Feed``: its
view and the events it may see).  ``docs/protocol.md`` describes the
messages.

Limits per connection: a line of at most ``MAX_LINE`` bytes, ``RATE``
messages a second (``BURST`` at once), a ``hello`` within
``FIRST_DEADLINE`` seconds, a bounded send queue (a client that falls
``SEND_QUEUE`` messages behind is cut); wrong codes and tokens are slowed
down per address, and an address with too many is refused for a while.

A computer's ``choose`` runs in a worker thread, so the other tables,
pings and clients go on while it thinks.  A person who drops keeps the
seat: a computer plays it after ``grace`` seconds, until the person comes
back with the token; the others are told who is away (``seats``), and a
move a computer makes for an absent person is marked so (``stand_in``).

A table may open as a waiting room: nothing is played until the host
starts it or every person seat is taken; each seat still free is then
played by a computer until someone takes it.  The host's names stand: a
joiner's name names only a seat the host left unnamed, and a joiner whose
name is a seat's takes that seat.  ``say`` is a chat line to every seat,
escaped and limited.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sys
import time
from collections import deque
from dataclasses import dataclass, field

from ..engine.moves import IllegalMove
from ..engine.text import escape, shorten
from ..game.limits import SAY_BURST, SAY_WINDOW, name_key, say_text
from .seats import Feed, keep, save, saved_bytes
from .wire import (
    BAD_MESSAGE,
    BURST,
    BUSY,
    CODE_LENGTH,
    CODE_LETTERS,
    ENDED,
    FIRST_DEADLINE,
    HELLO_FIRST,
    HOST_GONE,
    IDLE_DEADLINE,
    MAX_LINE,
    MESSAGES,
    NOT_HOST,
    PING_EVERY,
    PROTOCOL,
    RATE,
    REFUSED,
    SEND_QUEUE,
    STALE,
    TABLE_FULL,
    TABLE_OVER,
    TOO_FAST,
    TOO_LONG,
    TOO_MANY,
    TOO_SLOW,
    VERSION,
    WRONG_CODE,
    WRONG_TOKEN,
    ProtocolError,
    bye,
    decode,
    encode,
    error,
    parse_move,
)
from .wire import (
    field as read_field,
)
from .worker import Thinker, apply_op, replay

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Awaitable, Callable
    from typing import Any

    from ..engine.moves import Move
    from ..game.session import Session

GRACE = 60.0  # seconds a dropped person's seat waits before a computer plays it
FAIL_WINDOW = 60.0  # wrong codes and tokens are counted over this many seconds
MAX_FAILURES = 20  # wrong codes from one address in FAIL_WINDOW: refused until they age
FREE_FAILURES = 3  # the first wrong codes from an address in FAIL_WINDOW are answered at once
FAIL_DELAY = 0.25  # then the answer waits this long, doubled each time (to 4 s)
MAX_FAIL_DELAY = 4.0
MAX_PER_ADDRESS = 32  # connections open at once from one address
MAX_DESCRIPTORS = 1 << 16  # the soft limit asked for where the hard one has none
MAX_UNSEATED = 256  # connections open at once that have no seat yet, from all addresses
MAX_ADDRESSES = 10000  # addresses whose failures are remembered
COMEBACKS = 10  # times a seat may come back (its token) at once, then ...
COMEBACK_EVERY = 2.0  # ... once every this many seconds (a comeback waits its turn)
ADDRESS_COMEBACKS = 40  # the same for all the seats of one address
ADDRESS_COMEBACK_EVERY = 0.5
COMEBACK_WAIT = 8.0  # the longest a comeback waits; past it it is refused (too-many-tries)
SWITCH = 0.0005  # seconds a thread holds the interpreter before the others may run


def new_code() -> str:
    """A join code: ``CODE_LENGTH`` letters from ``secrets``."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def clean_name(name: Any, seat: int) -> str:
    """A player's name as the table shows it: the session's (checked by
    ``limits.check_name``), control characters escaped; ``Seat N`` if none."""
    if not isinstance(name, str) or not name.strip():
        return f"Seat {seat}"
    return escape(name.strip())


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
    name: str
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
class Connection:
    """One client: its stream, its send queue and its rate."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    address: str
    limits: Limits
    queue: asyncio.Queue[bytes | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    seat: Seat | None = None
    table: Host | None = None
    sent_version: int = -1
    closed: bool = False
    tokens: float = 0.0
    refilled: float = field(default_factory=time.monotonic)
    said_bye: bool = False  # the client left (bye), rather than dropped

    def send(self, message: dict[str, Any]) -> None:
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


class Host:
    """One table: its game (through a :class:`Feed`), its seats, its code."""

    def __init__(
        self,
        session: Session,
        *,
        names: dict[int, str] | None = None,
        host_seat: int | None = None,
        limits: Limits | None = None,
        code: str | None = None,
        on_move: Callable[[], None] | None = None,
        auto_deal: bool = False,
        worker: bool = False,
        waiting_room: bool = False,
    ) -> None:
        self.feed = Feed(session)
        self.auto_deal = auto_deal  # deal each next hand at once (a table of computers)
        self.worker = worker  # the computers think in a process of their own
        self.thinker: Thinker | None = None
        self.code = code or new_code()
        self.limits = limits or Limits()  # the server's, once added to one
        self.own_limits = limits is not None
        self.on_move = on_move  # after every move (the host keeps the game)
        self.seats = [
            Seat(seat, not self.feed.is_computer(seat), "") for seat in range(self.feed.players)
        ]
        for seat in self.seats:  # a person's name is the session's (--people's, or given)
            if seat.person:
                given = (names or {}).get(seat.number)
                seat.name = clean_name(self.feed.rename(seat.number, given), seat.number)
            else:
                seat.name = f"Computer {seat.number}"
        if host_seat is not None:
            seat = self.seats[host_seat]
            seat.host = True
            seat.token = secrets.token_urlsafe(24)
        self.over = False
        # a waiting room: nothing is played until the host starts the game
        # (``start``, or its first move) or every person seat is taken
        self.started = not waiting_room
        self.join = ""  # the command that joins this table (the host's, for every seat)
        self.wake = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self.updates = 0  # updates sent (the bench counts them)

    # ----- seats ----------------------------------------------------------------------

    def free_seat(self, name: object = None) -> Seat | None:
        """The free person seat for someone called ``name``: the seat of
        that name (a resumed game gives each named seat back to its
        person), else the first the host left unnamed, else the first."""
        free = [s for s in self.seats if s.person and s.token is None]
        if isinstance(name, str):
            wanted = name_key(name.strip())
            for seat in free:
                if name_key(seat.name) == wanted:
                    return seat
        unnamed = [s for s in free if not self.feed.named(s.number)]
        chosen = unnamed or free
        return chosen[0] if chosen else None

    def full_reason(self, name: object) -> str:
        """Why a joiner without a token finds no seat: every person seat is
        taken, and if one of them is ``name``'s and its person is away, how
        that person comes back (their seat file: a name alone would give
        anyone their hand)."""
        wanted = name_key(name.strip()) if isinstance(name, str) else None
        for seat in self.seats:
            if seat.person and seat.conn is None and name_key(seat.name) == wanted:
                return (
                    f"every person seat is taken; {seat.name}'s waits for the person who sat "
                    "there: the same mille --join on their machine takes it back"
                )
        return MESSAGES[TABLE_FULL]

    def name_seat(self, seat: Seat, name: object) -> str | None:
        """A joiner's ``--name`` names a seat the host left unnamed; why
        it does not, if not (None: named so, or no name given)."""
        if not isinstance(name, str):
            return None
        if self.feed.named(seat.number):
            if name_key(name.strip()) == name_key(seat.name):
                return None
            return f"the host named this seat {seat.name}"
        reason = self.feed.name_seat(seat.number, name)
        seat.name = clean_name(self.feed.name(seat.number), seat.number)
        return reason

    def seat_of(self, token: str) -> Seat | None:
        found = None
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                found = seat
        return found

    def seats_message(self) -> dict[str, Any]:
        """Who sits where and who the table waits for."""
        rows = []
        for seat in self.seats:
            if not seat.person:
                status = "computer"
            elif seat.conn is not None:
                status = "here"
            elif seat.stand_in:
                status = "computer-for-now"
            elif seat.token is None:
                status = "free"
            elif seat.left:
                status = "left"
            else:
                status = "away"
            rows.append(
                {"seat": seat.number, "name": seat.name, "status": status, "host": seat.host}
            )
        return {
            "type": "seats",
            "seats": rows,
            "waiting_for": self.waiting_for(),
            "started": self.started,
            "join": self.join,
        }

    def waiting_for(self) -> int | None:
        """The person the table waits for (away, before the computer takes over)."""
        if not self.started:
            return None
        seat = self.feed.to_decide()
        if seat is None:
            host = next((s for s in self.seats if s.host), None)
            return host.number if host is not None and host.conn is None else None
        entry = self.seats[seat]
        if entry.person and entry.conn is None and not entry.stand_in:
            return seat
        return None

    def attach(self, seat: Seat, conn: Connection) -> None:
        """``conn`` plays ``seat`` from now on (a former connection is cut)."""
        if seat.conn is not None and seat.conn is not conn:
            old = seat.conn
            old.send(error(BAD_MESSAGE, "another connection took this seat"))
            old.seat = None
            old.close()
        seat.conn = conn
        seat.away_since = None
        seat.stand_in = seat.left = False
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None
        conn.seat = seat
        conn.table = self
        if not self.started and all(s.conn is not None for s in self.seats if s.person):
            self.start()  # every person is here: the waiting room is over
        else:
            self.broadcast_seats()

    def start(self) -> None:
        """The host starts the game (or every person is here): a computer
        plays each person seat nobody has taken until someone does; a seat
        whose person is away waits the grace period."""
        if self.started:
            return
        self.started = True
        for seat in self.seats:
            if seat.person and seat.conn is None and seat.token is None:
                seat.stand_in = True
        self.open_seats()
        self.broadcast_seats()
        self.wake.set()

    def detach(self, conn: Connection) -> None:
        """``conn`` is gone: its seat waits for it, then a computer plays it."""
        seat = conn.seat
        if seat is None or seat.conn is not conn:
            return
        seat.conn = None
        seat.away_since = time.monotonic()
        seat.left = conn.said_bye
        if not self.over and self.started:
            loop = asyncio.get_running_loop()
            seat.timer = loop.call_later(self.limits.grace, self._grace_over, seat)
        self.broadcast_seats()

    def open_seats(self) -> None:
        """The person seats nobody holds yet wait the grace period too, then
        a computer plays each until someone takes it."""
        if not self.started:  # the waiting room: no grace runs out before the start
            return
        loop = asyncio.get_running_loop()
        for seat in self.seats:
            if seat.person and seat.conn is None and seat.timer is None and not seat.stand_in:
                seat.away_since = time.monotonic()
                seat.timer = loop.call_later(self.limits.grace, self._grace_over, seat)

    def _grace_over(self, seat: Seat) -> None:
        seat.timer = None
        if seat.conn is None and not self.over:
            seat.stand_in = True
            self.broadcast_seats()
            self.wake.set()

    # ----- sending --------------------------------------------------------------------

    def connections(self) -> list[Connection]:
        return [seat.conn for seat in self.seats if seat.conn is not None]

    def broadcast_seats(self) -> None:
        message = self.seats_message()
        for conn in self.connections():
            conn.send(message)

    def update(self, conn: Connection, force: bool = False) -> None:
        """Send ``conn`` its seat's new events and view (if it changed, or
        if ``force``)."""
        seat = conn.seat
        if seat is None:
            return
        feed = self.feed
        version = feed.version(seat.number)
        if version == conn.sent_version and not force:
            return
        since = max(conn.sent_version, 0)
        events = feed.events_since(seat.number, since)
        message: dict[str, Any] = {
            "type": "update",
            "version": version,
            "events": events or [],
            "missed": events is None,
            "view": feed.snapshot(seat.number),
        }
        conn.sent_version = version
        conn.send(message)
        self.updates += 1

    def update_all(self) -> None:
        for conn in self.connections():
            self.update(conn)
        self.broadcast_waiting()

    def broadcast_waiting(self) -> None:
        waiting = self.waiting_for()
        if waiting != getattr(self, "_last_waiting", None):
            self._last_waiting = waiting
            self.broadcast_seats()

    # ----- moves ----------------------------------------------------------------------

    def moved(self, stale: list[int]) -> None:
        for number in stale:
            conn = self.seats[number].conn
            if conn is not None:
                conn.send(error(STALE))
        self.update_all()
        if self.on_move is not None:
            self.on_move()
        self.wake.set()

    def play(self, conn: Connection, message: dict[str, Any]) -> None:
        seat = conn.seat
        assert seat is not None
        version = read_field(message, "version", int)
        move = parse_move(message.get("move"))
        if self.over:
            raise ProtocolError(TABLE_OVER)
        if not self.started:
            if not seat.host:
                conn.send(error(REFUSED, "the host has not started the game yet"))
                return
            self.start()  # the host's first move starts the game
        try:
            played = self.feed.play(seat.number, version, move)
        except IllegalMove as exc:
            conn.send(error(REFUSED, str(exc)))
            return
        if not played.changed:  # waits for another seat's answer
            return
        self.moved(played.stale)

    def deal(self, conn: Connection) -> None:
        """The host deals the next hand (``Another hand?`` y)."""
        if conn.seat is None or not conn.seat.host:
            raise ProtocolError(NOT_HOST)
        if not self.feed.hand_over():
            conn.send(error(REFUSED, "the hand is not over"))
            return
        self.feed.next_hand()
        self.moved([])

    def say(self, conn: Connection, message: dict[str, Any]) -> None:
        """A chat line from ``conn``'s person to every seat, as
        ``limits.say_text`` makes it (escaped, cut), ``SAY_BURST`` lines
        in ``SAY_WINDOW`` seconds a seat; it carries no game data, and is
        kept with the hand's log only if a save can keep it."""
        seat = conn.seat
        assert seat is not None
        text = say_text(read_field(message, "text", str))
        if not text:
            return
        now = time.monotonic()
        said = seat.said
        while said and now - said[0] > SAY_WINDOW:
            said.popleft()
        if len(said) >= SAY_BURST:
            conn.send(error(TOO_FAST, "too many chat lines: wait a few seconds"))
            return
        try:
            self.feed.say(seat.number, text)
        except ValueError as exc:  # (never, as say_text makes it: refused at the door)
            raise ProtocolError(BAD_MESSAGE, f"bad message: {exc}") from None
        said.append(now)
        line = {"type": "said", "seat": seat.number, "name": seat.name, "text": text}
        for other in self.connections():
            other.send(line)

    def end(self, code: str = ENDED) -> None:
        """The table is over: every client is told why (``ENDED``,
        ``HOST_GONE``) and cut."""
        if self.over:
            return
        self.over = True
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
        for conn in self.connections():
            conn.send(bye(code))
            conn.close()
        if self.driver is not None:
            self.driver.cancel()

    def save(self, conn: Connection, message: dict[str, Any]) -> None:
        if conn.seat is None or not conn.seat.host:
            raise ProtocolError(NOT_HOST)
        path = read_field(message, "file", str)
        if self.thinker is not None:  # from the replica, whose computers are up to date
            asyncio.get_running_loop().create_task(self._save_by_worker(conn, path))
            return
        try:
            save(self.feed, path)
        except Exception as exc:  # a save never ends the game
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            conn.send({"type": "saved", "ok": False, "file": path, "reason": reason})
            return
        conn.send({"type": "saved", "ok": True, "file": path, "when": time.ctime()})

    async def _save_by_worker(self, conn: Connection, path: str) -> None:
        assert self.thinker is not None
        try:
            reason = await self.thinker.save(self.feed.take_ops(), path)
        except (OSError, ValueError):  # the worker failed: saved from here
            await self.lose_worker()
            try:
                save(self.feed, path)
                reason = None
            except Exception as exc:  # a save never ends the game
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if reason is None:
            conn.send({"type": "saved", "ok": True, "file": path, "when": time.ctime()})
        else:
            conn.send({"type": "saved", "ok": False, "file": path, "reason": reason})

    async def keep(self, path: str | None = None) -> str:
        """Keep the game in a recovery file (the host's signals), or in
        ``path``; its path, OSError if it could not be written."""
        if self.thinker is None:
            if path is None:
                return keep(self.feed)
            save(self.feed, path)
            return path
        from ..storage import recovery

        target = path or recovery.new_path()
        if path is None:
            os.makedirs(recovery.directory(), mode=recovery.DIRECTORY_MODE, exist_ok=True)
        try:
            reason = await self.thinker.save(self.feed.take_ops(), target)
        except (OSError, ValueError):  # the worker failed: kept from here
            await self.lose_worker()
            save(self.feed, target)
            return target
        if reason is not None:
            raise OSError(reason)
        return target

    def keep_quietly(self, path: str) -> bool:
        """The game to ``path`` by the worker, without waiting; False if the
        table has no worker."""
        if self.thinker is None:
            return False
        self.thinker.keep(self.feed.take_ops(), path)
        return True

    async def drive(self) -> None:
        """Make the computers' moves (and those of the seats a computer
        plays for an absent person), each chosen in a worker thread."""
        feed = self.feed
        if self.worker:
            await self._start_worker()
        while not self.over:
            if not self.started:
                self.wake.clear()
                await self.wake.wait()
                continue
            seat = feed.to_decide()
            if seat is None and feed.hand_over() and (self.auto_deal or self.deals_for_host()):
                feed.next_hand()
                self.moved([])
                await asyncio.sleep(0)
                continue
            entry = None if seat is None else self.seats[seat]
            if seat is None or entry is None or (entry.person and not entry.stand_in):
                self.wake.clear()
                await self.wake.wait()
                continue
            stamp = feed.stamp
            seed = secrets.randbits(32)
            move = await self._think(seat, seed if entry.person else None)
            if self.over or feed.stamp != stamp or feed.to_decide() != seat:
                continue  # the table changed meanwhile
            if entry.person and not entry.stand_in:
                continue  # the person came back meanwhile: the move is theirs
            try:
                played = feed.computer_plays(seat, move, stand_in=entry.person)
            except IllegalMove:  # the worker's replica went astray: think here from now on
                await self.lose_worker()
                continue
            self.moved(played.stale)

    def deals_for_host(self) -> bool:
        """The end of a hand while the host is away past the grace period
        (a computer plays its seat): the table deals on, as the host's
        ``Another hand?`` ``y`` would; the end of a game waits for the host
        (another game is the host's to start)."""
        host = next((seat for seat in self.seats if seat.host), None)
        return (
            host is not None and host.conn is None and host.stand_in and not self.feed.game_over()
        )

    async def _think(self, seat: int, stand_in: int | None) -> Move:
        """The computer's move for ``seat``: in the worker process if the
        table has one, else in a worker thread."""
        feed = self.feed
        if self.thinker is not None:
            try:
                return await self.thinker.think(feed.take_ops(), seat, stand_in)
            except (OSError, ValueError):
                await self.lose_worker()
        player = None if stand_in is None else feed.stand_in(seat, stand_in)
        return await asyncio.to_thread(feed.think, seat, player)

    async def lose_worker(self) -> None:
        """The worker process failed: the computers think here from now
        on, with the memory the worker's replica had (rebuilt from the game
        it started from and every move told it, ``worker.replay``, in a
        thread; the moves made meanwhile are told the rebuilt computers too)."""
        thinker, self.thinker = self.thinker, None
        if thinker is None:
            return
        feed = self.feed
        ops = thinker.sent + feed.take_ops()  # feed.ops stays a list: moves go on being noted
        with contextlib.suppress(Exception):
            await thinker.stop()
        replica = await asyncio.to_thread(replay, thinker.saved, ops)
        for op in feed.take_ops():
            apply_op(replica, op)
        feed.take_computers(replica.computers)

    async def _start_worker(self) -> None:
        thinker = Thinker()
        saved = saved_bytes(self.feed)
        self.feed.ops = []  # from this very state on (no await between)
        try:
            await thinker.start(saved)
        except (OSError, ValueError):
            self.feed.ops = None
            return
        self.thinker = thinker


class Server:
    """Tables by join code, the connections' limits, the failures by address."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.tables: dict[str, Host] = {}
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

    def add(self, host: Host) -> Host:
        """Serve ``host``'s table (with the server's limits unless it has its own)."""
        if not host.own_limits:
            host.limits = self.limits
        self.tables[host.code] = host
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

        self.server = await loop.create_server(connection, address, port)
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
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

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

    async def _failed(self, conn: Connection, code: str) -> None:
        """A wrong code or token: answered after a delay that grows with
        the address's recent failures, then the connection is cut."""
        times = self._recent_failures(conn.address)
        times.append(time.monotonic())
        limits = self.limits
        slowed = len(times) - limits.free_failures
        if slowed > 0:
            await asyncio.sleep(min(limits.fail_delay * 2 ** (slowed - 1), limits.max_fail_delay))
        raise ProtocolError(code)

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
            raise ProtocolError(TOO_MANY, "this seat came back too often: wait a minute")
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
        self.open[address] = self.open.get(address, 0) + 1
        pump: asyncio.Task[None] | None = None
        try:
            refusal = None
            if self.open[address] > self.limits.per_address:
                refusal = error(TOO_MANY, "too many connections from your address")
            elif not self._admit(conn):
                refusal = error(BUSY)
            if refusal is not None:
                if self.ssl_context is None:  # (no handshake for a refusal: TLS is cut)
                    with contextlib.suppress(Exception):
                        writer.write(encode(refusal))
                return
            if self.ssl_context is not None:
                await asyncio.wait_for(
                    start_tls(writer, self.ssl_context), self.limits.first_deadline
                )
            pump = asyncio.get_running_loop().create_task(conn.pump())
            left = self.limits.first_deadline - (time.monotonic() - accepted)
            await self._serve(conn, max(left, 0.001))
        except ProtocolError as exc:
            conn.send(error(exc.code, exc.message))
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            pass
        finally:
            self.answered += 1
            self._seated(conn)
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]
            if conn.table is not None:
                conn.table.detach(conn)
            conn.close()
            if pump is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pump, 5)
            writer.close()

    async def _line(self, conn: Connection, deadline: float) -> bytes | None:
        """The next line (None at the end of the stream)."""
        try:
            line = await asyncio.wait_for(conn.reader.readuntil(b"\n"), deadline)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise ProtocolError(BAD_JSON_LINE) from None
            return None
        except asyncio.LimitOverrunError:
            raise ProtocolError(TOO_LONG) from None
        except ValueError:  # the limit, on some versions
            raise ProtocolError(TOO_LONG) from None
        except asyncio.TimeoutError:
            raise ProtocolError(TOO_SLOW) from None
        return line

    async def _serve(self, conn: Connection, first_deadline: float) -> None:
        limits = self.limits
        line = await self._line(conn, first_deadline)
        if line is None:
            return
        await self._hello(conn, decode(line))
        table = conn.table
        assert table is not None
        while not conn.closed:
            try:
                line = await self._line(conn, limits.ping_every)
            except ProtocolError as exc:
                if exc.code != TOO_SLOW:
                    raise
                if time.monotonic() - conn.refilled > limits.idle_deadline:
                    raise
                conn.send({"type": "ping"})
                continue
            if line is None:
                return
            if not conn.allow():
                conn.send(error(TOO_FAST))
                continue
            try:
                self._message(conn, table, decode(line))
            except ProtocolError as exc:
                if exc.code == TABLE_OVER:
                    raise
                conn.send(error(exc.code, exc.message))

    def _message(self, conn: Connection, table: Host, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "move":
            table.play(conn, message)
        elif kind == "ping":
            conn.send({"type": "pong"})
        elif kind == "pong":
            pass
        elif kind == "deal":
            table.deal(conn)
        elif kind == "save":
            table.save(conn, message)
        elif kind == "end":
            if conn.seat is None or not conn.seat.host:
                raise ProtocolError(NOT_HOST)
            table.end()
        elif kind == "view":  # send the view again (a redraw)
            table.update(conn, force=True)
        elif kind == "bye":
            conn.said_bye = True
            conn.close()
        elif kind == "start":
            if conn.seat is None or not conn.seat.host:
                raise ProtocolError(NOT_HOST)
            table.start()
        elif kind == "say":
            table.say(conn, message)
        elif kind == "hello":
            raise ProtocolError(BAD_MESSAGE, "bad message: hello was already said")
        else:
            raise ProtocolError(BAD_MESSAGE, f"bad message: unknown type {json_text(kind)}")

    async def _hello(self, conn: Connection, hello: dict[str, Any]) -> None:
        if hello["type"] != "hello":
            raise ProtocolError(HELLO_FIRST)
        version = hello.get("protocol")
        if type(version) is not int or version != PROTOCOL:  # True and 1.0 are not 1 here
            raise ProtocolError(
                VERSION,
                f"this host speaks mille protocol {PROTOCOL}, not {json_text(version)}: "
                "play with the same version of mille",
            )
        if len(self._recent_failures(conn.address)) >= self.limits.max_failures:
            raise ProtocolError(TOO_MANY)
        code = read_field(hello, "code", str)
        table = self.tables.get(code) if len(code) <= 64 else None
        if table is None or not secrets.compare_digest(table.code, code):
            await self._failed(conn, WRONG_CODE)
            return
        if table.over:
            raise ProtocolError(TABLE_OVER)
        token = hello.get("token")
        refused: str | None = None  # why the joiner's name is not the seat's
        if token is not None:
            seat = table.seat_of(read_field(hello, "token", str)[:64])
            if seat is None:
                await self._failed(conn, WRONG_TOKEN)
                return
            await self._come_back(conn, seat)
            if table.over:
                raise ProtocolError(TABLE_OVER)
            version = hello.get("version")
            if isinstance(version, int) and not isinstance(version, bool) and version >= 0:
                conn.sent_version = version
        else:
            name = hello.get("name")
            seat = table.free_seat(name)
            if seat is None:
                raise ProtocolError(TABLE_FULL, table.full_reason(name))
            seat.token = secrets.token_urlsafe(24)
            refused = table.name_seat(seat, name)
        welcome = {
            "type": "welcome",
            "protocol": PROTOCOL,
            "seat": seat.number,
            "token": seat.token,
            "host": seat.host,
            "name": seat.name,
        }
        if refused is not None:  # why the joiner's --name is not the seat's
            welcome["name_refused"] = escape(shorten(refused, 100))
        conn.send(welcome)
        self._seated(conn)
        table.attach(seat, conn)
        table.update(conn, force=True)
        table.wake.set()


BAD_JSON_LINE = "bad-json"


class _Accepted(asyncio.StreamReaderProtocol):
    """A connection as ``asyncio.start_server`` makes it, which reads
    nothing until the server looks at it if ``paused`` (a TLS handshake is
    to come: its first bytes are the handshake's, not the stream's)."""

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

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if self.paused and isinstance(transport, asyncio.ReadTransport):
            transport.pause_reading()
        super().connection_made(transport)


async def start_tls(writer: asyncio.StreamWriter, context: ssl.SSLContext) -> None:
    """The server's side of a TLS handshake on an accepted connection
    (``StreamWriter.start_tls`` from Python 3.11; the same by hand before)."""
    start = getattr(writer, "start_tls", None)
    if start is not None:
        await start(context)
        return
    loop = asyncio.get_running_loop()  # Python 3.10
    transport = writer.transport
    protocol: Any = transport.get_protocol()
    secure = await loop.start_tls(transport, protocol, context, server_side=True)
    if secure is None:
        raise ConnectionResetError("the connection closed during the TLS handshake")
    writer._transport = secure  # type: ignore[attr-defined]
    protocol._transport = secure
    protocol._over_ssl = True
    reader = getattr(protocol, "_stream_reader", None)
    if reader is not None:
        reader._transport = secure


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


def json_text(value: Any) -> str:
    """A value from a client, quoted for an error line (short, escaped)."""
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = "?"
    return escape(shorten(text, 30))
