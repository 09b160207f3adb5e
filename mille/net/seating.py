"""Who sits at a table: its seats, their names, presence and the grace period.

A :class:`Seating` holds a table's seats (``connection.Seat``: a person's
or a computer's, its token, its connection) and says who sits where (the
``seats`` message).  A seat's name is stored once, in the session
(``Feed.name``): :meth:`Seating.name` reads it.  A person who drops keeps
the seat: a computer plays it after ``grace`` seconds (``stand_in``),
until the person comes back with the token.

The host's names stand: a joiner's name names only a seat the host left
unnamed, and a joiner whose name is a seat's takes that seat.  A waiting
room (``started`` False) runs no grace period: nothing is played until the
host starts the game or every person seat is taken.
"""

from __future__ import annotations

import asyncio
import secrets
import time

from ..engine.text import escape
from ..game.limits import computer_name, default_name, name_key
from . import messages
from .connection import Connection, Limits, Seat
from .seats import Feed
from .wire import HOST_NAMED, SEAT_WAITS, TABLE_FULL, TAKEN_OVER, ProtocolError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .messages import FromHost, Refusal, Seats


def clean_name(name: Any, seat: int) -> str:
    """A player's name as the table shows it: the session's (checked by
    ``limits.check_name``), control characters escaped; ``Player N`` (the
    session's name of a person not named) if none."""
    if not isinstance(name, str) or not name.strip():
        return default_name(seat)
    return escape(name.strip())


def new_token() -> str:
    """A seat's resume token."""
    return secrets.token_urlsafe(24)


def status(seat: Seat) -> str:
    """A seat's status in the ``seats`` message."""
    if not seat.person:
        return "computer"
    if seat.conn is not None:
        return "here"
    if seat.stand_in:
        return "computer-for-now"
    if seat.token is None:
        return "free"
    return "left" if seat.left else "away"


class Seating:
    """A table's seats and who sits at them; ``wake`` is set when a
    computer may have a move to make (a seat's grace ran out, the start)."""

    def __init__(
        self,
        feed: Feed,
        names: dict[int, str] | None,
        host_seat: int | None,
        limits: Limits,
        wake: asyncio.Event,
        started: bool,
    ) -> None:
        self.feed = feed
        self.limits = limits  # the server's, once added to one
        self.wake = wake
        self.seats = [Seat(seat, not feed.is_computer(seat)) for seat in range(feed.players)]
        for seat in self.seats:  # a person's name is the session's (--people's, or given)
            if seat.person:
                feed.rename(seat.number, (names or {}).get(seat.number))
        if host_seat is not None:
            seat = self.seats[host_seat]
            seat.host = True
            seat.token = new_token()
        self.started = started
        self.over = False  # the table ended: no grace runs out any more
        self.join = ""  # the command that joins this table (the host's, for every seat)
        self.watch = ""  # the command that watches it ("": no watchers)
        self.watchers: list[Connection] = []  # the watchers' connections (``net.watchers``)
        self.last_waiting: int | None = None  # whom the table waited for, as last told

    def name(self, seat: Seat) -> str:
        """The seat's name: the session's, as the table shows it."""
        if not seat.person:
            return computer_name(seat.number)  # as the session names it
        return clean_name(self.feed.name(seat.number), seat.number)

    def host(self) -> Seat | None:
        """The host's seat (None: a table of computers, or the bench's)."""
        return next((seat for seat in self.seats if seat.host), None)

    # ----- finding a seat ---------------------------------------------------------------

    def free_seat(self, name: object = None) -> Seat | None:
        """The free person seat for someone called ``name``: the seat of
        that name (a resumed game gives each named seat back to its
        person), else the first the host left unnamed, else the first."""
        free = [s for s in self.seats if s.person and s.token is None]
        if isinstance(name, str):
            wanted = name_key(name.strip())
            for seat in free:
                if name_key(self.name(seat)) == wanted:
                    return seat
        unnamed = [s for s in free if not self.feed.named(s.number)]
        chosen = unnamed or free
        return chosen[0] if chosen else None

    def full(self, name: object) -> ProtocolError:
        """Why a joiner without a token finds no seat: every person seat is
        taken (``table-full``), and if one of them is ``name``'s and its
        person is away, how that person comes back (``seat-waits``: their
        seat file; a name alone would give anyone their hand)."""
        wanted = name_key(name.strip()) if isinstance(name, str) else None
        for seat in self.seats:
            if seat.person and seat.conn is None and name_key(self.name(seat)) == wanted:
                return ProtocolError(SEAT_WAITS, values={"name": self.name(seat)})
        return ProtocolError(TABLE_FULL)

    def name_seat(self, seat: Seat, name: object) -> Refusal | None:
        """A joiner's ``--name`` names a seat the host left unnamed; why
        it does not, if not (None: named so, or no name given)."""
        if not isinstance(name, str):
            return None
        if self.feed.named(seat.number):
            if name_key(name.strip()) == name_key(self.name(seat)):
                return None
            return {"code": HOST_NAMED, "values": {"name": self.name(seat)}}
        return self.feed.name_seat(seat.number, name)

    def seat_of(self, token: str) -> Seat | None:
        found = None
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token, token):
                found = seat
        return found

    def take_free(self, name: object) -> tuple[Seat, Refusal | None]:
        """The free seat a joiner without a token takes, given a token, and
        why its ``name`` does not name it (None if it does);
        ``ProtocolError`` (``table-full``, ``seat-waits``) if none is free."""
        seat = self.free_seat(name)
        if seat is None:
            raise self.full(name)
        seat.token = new_token()
        return seat, self.name_seat(seat, name)

    # ----- who is here ------------------------------------------------------------------

    def seats_message(self) -> Seats:
        """Who sits where and who the table waits for."""
        rows: list[messages.SeatRow] = [
            {
                "seat": seat.number,
                "name": self.name(seat),
                "status": status(seat),
                "host": seat.host,
            }
            for seat in self.seats
        ]
        return messages.seats(
            rows, self.waiting_for(), self.started, self.join, self.watch, len(self.watchers)
        )

    def waiting_for(self) -> int | None:
        """The person the table waits for (away, before the computer takes over)."""
        if not self.started:
            return None
        seat = self.feed.to_decide()
        if seat is None:
            host = self.host()
            return host.number if host is not None and host.conn is None else None
        entry = self.seats[seat]
        if entry.person and entry.conn is None and not entry.stand_in:
            return seat
        return None

    def attach(self, seat: Seat, conn: Connection) -> None:
        """``conn`` plays ``seat`` from now on (a former connection is cut)."""
        if seat.conn is not None and seat.conn is not conn:
            old = seat.conn
            old.send(messages.error(TAKEN_OVER))
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
        seat.left = conn.said_bye
        if not self.over and self.started:
            self._wait_grace(seat)
        else:
            seat.away_since = time.monotonic()
        self.broadcast_seats()

    def open_seats(self) -> None:
        """The person seats nobody holds yet wait the grace period too, then
        a computer plays each until someone takes it."""
        if not self.started:  # the waiting room: no grace runs out before the start
            return
        for seat in self.seats:
            if seat.person and seat.conn is None and seat.timer is None and not seat.stand_in:
                self._wait_grace(seat)

    def _wait_grace(self, seat: Seat) -> None:
        """The seat's person is away from now: a computer plays it after
        the grace period."""
        seat.away_since = time.monotonic()
        loop = asyncio.get_running_loop()
        seat.timer = loop.call_later(self.limits.grace, self._grace_over, seat)

    def _grace_over(self, seat: Seat) -> None:
        seat.timer = None
        if seat.conn is None and not self.over:
            seat.stand_in = True
            self.broadcast_seats()
            self.wake.set()

    def close(self) -> list[Connection]:
        """The table is over: no grace runs out any more; the connections
        still here (to be told and cut)."""
        self.over = True
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
        return self.connections() + self.watchers

    # ----- telling everyone -------------------------------------------------------------

    def connections(self) -> list[Connection]:
        return [seat.conn for seat in self.seats if seat.conn is not None]

    def broadcast(self, message: FromHost) -> None:
        """``message`` to every seat here and every watcher."""
        for conn in self.connections() + self.watchers:
            conn.send(message)

    def broadcast_seats(self) -> None:
        self.broadcast(self.seats_message())

    def broadcast_waiting(self) -> None:
        """Who the table waits for, told if it changed."""
        waiting = self.waiting_for()
        if waiting != self.last_waiting:
            self.last_waiting = waiting
            self.broadcast_seats()
