"""The table being played: its game (through ``seats.Feed``), its seats
and who sits at them, its chat, the moves, the deals, the saves, and its
computers' moves (in a thread, or in a worker process: ``worker``).

A :class:`Host` is one table, found by its join code by the server
(``server.Server``, which holds the connections, their limits and TLS,
and hands each seated connection's messages to :meth:`Host.handle`:
one handler a kind, ``HANDLERS``).  A person who drops keeps the seat: a
computer plays it after ``grace`` seconds, until the person comes back
with the token; the others are told who is away (``seats``), and a move a
computer makes for an absent person is marked so
(``Session.play_stand_in``).

A table may open as a waiting room: nothing is played until the host
starts it or every person seat is taken; each seat still free is then
played by a computer until someone takes it.  The host's names stand: a
joiner's name names only a seat the host left unnamed, and a joiner whose
name is a seat's takes that seat.  ``say`` is a chat line to every seat,
as ``game.limits.say_text`` makes it, ``SAY_BURST`` lines in
``SAY_WINDOW`` seconds a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time

from ..engine.moves import IllegalMove
from ..engine.text import escape, shorten
from ..game.limits import SAY_BURST, SAY_WINDOW, computer_name, default_name, name_key, say_text
from ..i18n import N_
from .connection import Connection, Limits, Seat
from .seats import Feed, keep, save, saved_bytes
from .wire import (
    BAD_MESSAGE,
    CODE_LENGTH,
    CODE_LETTERS,
    ENDED,
    HOST_NAMED,
    MESSAGES,
    NOT_HOST,
    PROTOCOL,
    REFUSED,
    SEAT_WAITS,
    STALE,
    TABLE_FULL,
    TABLE_OVER,
    TOO_FAST,
    ProtocolError,
    bye,
    error,
    json_text,
    parse_move,
)
from .wire import field as read_field
from .worker import Thinker, apply_op, replay

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..engine.moves import Move
    from ..game.session import Session


def new_code() -> str:
    """A join code: ``CODE_LENGTH`` letters from ``secrets``."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def clean_name(name: Any, seat: int) -> str:
    """A player's name as the table shows it: the session's (checked by
    ``limits.check_name``), control characters escaped; ``Player N`` (the
    session's name of a person not named) if none."""
    if not isinstance(name, str) or not name.strip():
        return default_name(seat)
    return escape(name.strip())


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
                seat.name = computer_name(seat.number)  # as the session names it
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
        self.last_waiting: int | None = None  # whom the table waited for, as last told

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
                return SEAT_WAITS.format(name=seat.name)
        return MESSAGES[TABLE_FULL]

    def name_seat(self, seat: Seat, name: object) -> str | None:
        """A joiner's ``--name`` names a seat the host left unnamed; why
        it does not, if not (None: named so, or no name given)."""
        if not isinstance(name, str):
            return None
        if self.feed.named(seat.number):
            if name_key(name.strip()) == name_key(seat.name):
                return None
            return HOST_NAMED.format(name=seat.name)
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
            old.send(error(BAD_MESSAGE, N_("another connection took this seat")))
            old.seat = None
            old.close()
        seat.conn = conn
        seat.away_since = None
        seat.stand_in = seat.left = False
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None
        conn.seat = seat
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
        if waiting != self.last_waiting:
            self.last_waiting = waiting
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
                conn.send(error(REFUSED, N_("the host has not started the game yet")))
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

    def deal(self, conn: Connection, message: dict[str, Any]) -> None:
        """The host deals the next hand (``Another hand?`` y)."""
        if not self.feed.hand_over():
            conn.send(error(REFUSED, N_("the hand is not over")))
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
            conn.send(error(TOO_FAST, N_("too many chat lines: wait a few seconds")))
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
        """The host saves the game (its ``s``) to the file it names."""
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

    # ----- the messages of a seated connection ------------------------------------------

    def handle(self, conn: Connection, message: dict[str, Any]) -> None:
        """A message from ``conn``, seated here: its kind's handler
        (``HANDLERS``); the host's own (``HOST_ONLY``) from the host's seat
        alone.  ``ProtocolError`` for a message that breaks the protocol."""
        kind = message["type"]
        handler = HANDLERS.get(kind)
        if handler is None:
            raise ProtocolError(BAD_MESSAGE, f"bad message: unknown type {json_text(kind)}")
        if kind in HOST_ONLY and (conn.seat is None or not conn.seat.host):
            raise ProtocolError(NOT_HOST)
        handler(self, conn, message)

    def pong(self, conn: Connection, message: dict[str, Any]) -> None:
        conn.send({"type": "pong"})

    def ignore(self, conn: Connection, message: dict[str, Any]) -> None:
        """A ``pong`` (the answer to the host's ``ping``): nothing to do."""

    def redraw(self, conn: Connection, message: dict[str, Any]) -> None:
        """``view``: the seat's view sent again."""
        self.update(conn, force=True)

    def leave(self, conn: Connection, message: dict[str, Any]) -> None:
        """``bye``: the person leaves (the seat waits for them)."""
        conn.said_bye = True
        conn.close()

    def start_by(self, conn: Connection, message: dict[str, Any]) -> None:
        """``start``: the host starts the game."""
        self.start()

    def end_by(self, conn: Connection, message: dict[str, Any]) -> None:
        """``end``: the host ends the table."""
        self.end()

    def hello_again(self, conn: Connection, message: dict[str, Any]) -> None:
        raise ProtocolError(BAD_MESSAGE, "bad message: hello was already said")

    def welcome(self, conn: Connection, seat: Seat, refused: str | None = None) -> None:
        """``conn`` takes ``seat``: welcomed (``refused``: why the joiner's
        name does not name the seat), shown who sits where and its view."""
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
        self.attach(seat, conn)
        self.update(conn, force=True)
        self.wake.set()

    def take_free(self, name: object) -> tuple[Seat, str | None]:
        """The free seat a joiner without a token takes, given a token, and
        why its ``name`` does not name it (None if it does);
        ``ProtocolError`` (``table-full``) if none is free."""
        seat = self.free_seat(name)
        if seat is None:
            raise ProtocolError(TABLE_FULL, self.full_reason(name))
        seat.token = secrets.token_urlsafe(24)
        return seat, self.name_seat(seat, name)

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


# the handler of each kind of message a seated connection sends (docs/protocol.md)
HANDLERS: dict[str, Callable[[Host, Connection, dict[str, Any]], None]] = {
    "move": Host.play,
    "ping": Host.pong,
    "pong": Host.ignore,
    "view": Host.redraw,
    "say": Host.say,
    "bye": Host.leave,
    "deal": Host.deal,
    "save": Host.save,
    "start": Host.start_by,
    "end": Host.end_by,
    "hello": Host.hello_again,
}
HOST_ONLY = frozenset({"deal", "save", "start", "end"})  # the host's seat's alone
