"""The table being played: its game (through ``seats.Feed``), its moves,
its deals, its chat and its computers' moves (in a thread, or in a worker
process: ``worker``).

A :class:`Table` is one table, found by its join code by the server
(``server.Server``, which holds the connections, their limits and TLS,
and hands each seated connection's messages to :meth:`Table.handle`:
one handler a kind, ``HANDLERS``).  Who sits where, presence and the
grace period are the :class:`~mille.net.seating.Seating` it extends; its
saves and its worker process, its :class:`~mille.net.keeper.Keeper`.
"The host" is
the person who opened the table, and their seat (``Seat.host``): the
messages in ``HOST_ONLY`` are theirs alone.  A move a computer makes for
an absent person is marked so (``Session.play_stand_in``).

A table may open as a waiting room: nothing is played until the host
starts it or every person seat is taken; each seat still free is then
played by a computer until someone takes it.  ``say`` is a chat line to
every seat, as ``game.limits.say_text`` makes it, ``SAY_BURST`` lines in
``SAY_WINDOW`` seconds a seat.
"""

from __future__ import annotations

import asyncio
import secrets

from ..engine.moves import IllegalMove
from . import messages, watchers
from .connection import Connection, Limits, Seat, chat_line
from .keeper import Keeper
from .seating import Seating
from .seats import Feed
from .whole import Hands
from .wire import (
    BAD_MESSAGE,
    CODE_LENGTH,
    CODE_LETTERS,
    ENDED,
    HAND_NOT_OVER,
    HELLO_AGAIN,
    HOST_LEFT,
    NOT_HOST,
    NOT_STARTED,
    REFUSED,
    STALE,
    TABLE_OVER,
    UNKNOWN_TYPE,
    ProtocolError,
    json_text,
    parse_move,
)
from .worker import Thinker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from ..engine.moves import Move
    from ..game.session import Session
    from .messages import Refusal

    # a seat's message as it came (a JSON object with a string type): its
    # handler reads it as its kind's (``messages.read_move``, ...), its fields checked
    Message = Mapping[str, Any]


def new_code() -> str:
    """A join code: ``CODE_LENGTH`` letters from ``secrets``."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


class Table(Seating):
    """One table: its game (through a :class:`Feed`), its seats (a
    :class:`Seating`: who sits where), its keeper, its code."""

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
        watchers: bool = True,
    ) -> None:
        feed = Feed(session)
        # the code that watches the table ("": nobody may, ``--no-watchers``)
        self.watch_code = new_code() if watchers else ""
        self.auto_deal = auto_deal  # deal each next hand at once (a table of computers)
        self.worker = worker  # the computers think in a process of their own
        self.code = code or new_code()
        self.own_limits = limits is not None
        self.on_move = on_move  # after every move and chat line (the host keeps the game)
        # a waiting room: nothing is played until the host starts the game
        # (``start``, or its first move) or every person seat is taken
        super().__init__(
            feed, names, host_seat, limits or Limits(), asyncio.Event(), not waiting_room
        )
        self.keeper = Keeper(feed)
        self.keep = self.keeper.keep
        self.keep_quietly = self.keeper.keep_quietly
        self.driver: asyncio.Task[None] | None = None
        self.updates = 0  # updates sent (the bench counts them)
        self.whole = Hands()  # the game's hands, sent whole to every seat once it is over
        self.agreed: set[int] = set()  # the seats that want another game (the game over)

    @property
    def thinker(self) -> Thinker | None:
        """The worker process, if the computers think there."""
        return self.keeper.thinker

    # ----- sending --------------------------------------------------------------------

    def update(self, conn: Connection, force: bool = False) -> None:
        """Send ``conn`` its seat's new events and view (if it changed, or
        if ``force``)."""
        seat = conn.seat
        feed = self.feed
        if seat is None and conn.watcher is None:
            return
        number = feed.public if seat is None else seat.number  # (a watcher's: the public)
        version = feed.version(number)
        if version == conn.sent_version and not force:
            return
        since = max(conn.sent_version, 0)
        events = feed.events_since(number, since)
        message = messages.update(version, events, feed.snapshot(number))
        conn.sent_version = version
        conn.send(message)
        self.updates += 1

    def update_all(self) -> None:
        for conn in self.connections() + self.watchers:
            self.update(conn)
        self.broadcast_waiting()

    def welcome(self, conn: Connection, seat: Seat, refused: Refusal | None = None) -> None:
        """``conn`` takes ``seat``: welcomed (``refused``: why the joiner's
        name does not name the seat), shown who sits where and its view."""
        assert seat.token is not None
        conn.send(messages.welcome(seat.number, seat.token, seat.host, self.name(seat), refused))
        self.attach(seat, conn)
        self.update(conn, force=True)
        if self.whole.sent is not None and self.feed.game_over():
            conn.send(self.whole.sent)  # (a seat back after the end: the game whole too)
        self.wake.set()

    def end(self, code: str = ENDED) -> None:
        """The table is over: every client is told why (``ENDED``,
        ``HOST_GONE``) and cut."""
        if self.over:
            return
        for conn in self.close():
            conn.send(messages.bye(code))
            conn.close()
        if self.driver is not None:
            self.driver.cancel()

    # ----- moves ----------------------------------------------------------------------

    def moved(self, stale: list[int]) -> None:
        for number in stale:
            conn = self.seats[number].conn
            if conn is not None:
                conn.send(messages.error(STALE))
        self.update_all()
        if self.feed.game_over() and self.whole.sent is None:
            self.broadcast(self.whole.message(self.feed))  # over: now, not before
        if self.on_move is not None:
            self.on_move()
        self.wake.set()

    def play(self, conn: Connection, message: Message) -> None:
        seat = conn.seat
        assert seat is not None
        played_at = messages.read_move(message)
        version, move = played_at["version"], parse_move(played_at["move"])
        if self.over:
            raise ProtocolError(TABLE_OVER)
        if not self.started:
            if not seat.host:
                conn.send(messages.error(NOT_STARTED))
                return
            self.start()  # the host's first move starts the game
        try:
            played = self.feed.play(seat.number, version, move)
        except IllegalMove as exc:
            conn.send(messages.error(REFUSED, {"reason": str(exc)}))
            return
        if not played.changed:  # waits for another seat's answer
            return
        self.moved(played.stale)

    def deal(self, conn: Connection, message: Message) -> None:
        """The host deals the next hand (``Another hand?`` y); after a game
        over, the host wants another game (``Another game?`` y: :meth:`again`)."""
        if not self.feed.hand_over():
            conn.send(messages.error(HAND_NOT_OVER))
            return
        if self.feed.game_over():
            self.again(conn, message)
            return
        self.next_hand()
        self.moved([])

    def again(self, conn: Connection, message: Message) -> None:
        """``again``: the seat's person wants another game (its
        ``Another game?`` y); dealt once everyone at the table wants it."""
        if not self.feed.game_over():
            conn.send(messages.error(HAND_NOT_OVER))
            return
        assert conn.seat is not None
        self.agreed.add(conn.seat.number)
        self.rematch()

    def rematch(self) -> None:
        """Another game, the same seats and names, once the host and every
        person still at the table want it (a person who left is not waited
        for: a computer plays the seat until someone takes it)."""
        host = self.host()
        if self.over or not self.feed.game_over() or host is None:
            return
        here = {seat.number for seat in self.seats if seat.person and seat.conn is not None}
        if host.number not in self.agreed or not here <= self.agreed:
            return
        self.agreed.clear()
        self.next_hand()
        self.moved([])

    def detach(self, conn: Connection) -> None:
        """``conn`` is gone (its seat waits for it); after a game over,
        another game no longer waits for its answer, and a person who said
        ``bye`` (``Another game?`` n) left the table: a computer plays the
        seat from the next game on, until someone takes it; a watcher is
        gone."""
        if conn.watcher is not None:
            watchers.unwatch(self, conn)
            return
        seat = conn.seat
        super().detach(conn)
        if seat is not None and seat.conn is None and conn.said_bye and self.feed.game_over():
            if seat.timer is not None:
                seat.timer.cancel()
                seat.timer = None
            seat.stand_in = not self.over
        self.rematch()

    def next_hand(self) -> None:
        """Deal the next hand: the hand over noted for the game whole
        (after a game over, another game's first hand)."""
        if self.feed.game_over():
            self.whole.next_game()
        else:
            self.whole.note(self.feed)
        self.feed.next_hand()

    def say(self, conn: Connection, message: Message) -> None:
        """A chat line from ``conn``'s person to every seat, as
        ``limits.say_text`` makes it (escaped, cut), ``SAY_BURST`` lines
        in ``SAY_WINDOW`` seconds a seat; it carries no game data, and is
        kept with the hand's log only if a save can keep it."""
        seat = conn.seat
        assert seat is not None
        line = chat_line(conn, seat.said, message)
        if line is None:
            return
        text, now = line
        try:
            self.feed.say(seat.number, text)
        except ValueError:  # (never, as say_text makes it: refused at the door)
            raise ProtocolError(
                BAD_MESSAGE, values={"field": "text", "kind": "chat line"}
            ) from None
        seat.said.append(now)
        name = self.name(seat)
        self.broadcast(messages.said(seat.number, name, text))
        if self.on_move is not None:  # kept with the game, as a move is
            self.on_move()

    # ----- the computers ----------------------------------------------------------------

    async def drive(self) -> None:
        """Make the computers' moves (and those of the seats a computer
        plays for an absent person), each chosen in a worker thread, and
        deal the next hand where nobody else will."""
        if self.worker:
            await self.keeper.start_worker()
        while not self.over:
            if self.started and self.deals_now():
                self.next_hand()
                self.moved([])
                await asyncio.sleep(0)
                continue
            seat = self.computer_to_move()
            if seat is None:
                self.wake.clear()
                await self.wake.wait()
                continue
            await self.computer_moves(seat)

    def deals_now(self) -> bool:
        """The hand is over and the table deals the next: a table of
        computers, or the host away (:meth:`deals_for_host`)."""
        feed = self.feed
        done = feed.to_decide() is None and feed.hand_over()
        return done and (self.auto_deal or self.deals_for_host())

    def computer_to_move(self) -> int | None:
        """The seat a computer moves for now (its own, or a person's who
        is away), None if none."""
        seat = self.feed.to_decide()
        if not self.started or seat is None:
            return None
        entry = self.seats[seat]
        return None if entry.person and not entry.stand_in else seat

    async def computer_moves(self, seat: int) -> None:
        """The computer's move for ``seat``, made unless the table changed
        while it thought (or the person came back: the move is theirs)."""
        feed = self.feed
        entry = self.seats[seat]
        stamp = feed.stamp
        seed = secrets.randbits(32)
        move = await self._think(seat, seed if entry.person else None)
        if self.over or feed.stamp != stamp or feed.to_decide() != seat:
            return  # the table changed meanwhile
        if entry.person and not entry.stand_in:
            return  # the person came back meanwhile: the move is theirs
        try:
            played = feed.computer_plays(seat, move, stand_in=entry.person)
        except IllegalMove:  # the worker's replica went astray: think here from now on
            await self.keeper.lose_worker()
            return
        self.moved(played.stale)

    def deals_for_host(self) -> bool:
        """The end of a hand while the host is away past the grace period
        (a computer plays its seat): the table deals on, as the host's
        ``Another hand?`` ``y`` would; the end of a game waits for the host
        (another game is the host's to start)."""
        host = self.host()
        return (
            host is not None and host.conn is None and host.stand_in and not self.feed.game_over()
        )

    async def _think(self, seat: int, stand_in: int | None) -> Move:
        """The computer's move for ``seat``: in the worker process if the
        table has one, else in a worker thread."""
        feed = self.feed
        thinker = self.keeper.thinker
        if thinker is not None:
            try:
                return await thinker.think(feed.take_ops(), seat, stand_in)
            except (OSError, ValueError):
                await self.keeper.lose_worker()
        player = None if stand_in is None else feed.stand_in(seat, stand_in)
        return await asyncio.to_thread(feed.think, seat, player)

    # ----- the messages of a seated connection ------------------------------------------

    def handle(self, conn: Connection, message: Message) -> None:
        """A message from ``conn``, seated here: its kind's handler
        (``HANDLERS``); the host's own (``HOST_ONLY``) from the host's seat
        alone.  ``ProtocolError`` for a message that breaks the protocol."""
        kind = message["type"]
        if conn.watcher is not None and kind not in watchers.WATCHER_KINDS:
            watchers.handle(self, conn, message)
            return
        handler = HANDLERS.get(kind)
        if handler is None:
            raise ProtocolError(UNKNOWN_TYPE, values={"type": json_text(kind)})
        if kind in HOST_ONLY and (conn.seat is None or not conn.seat.host):
            raise ProtocolError(NOT_HOST)
        handler(self, conn, message)

    def pong(self, conn: Connection, message: Message) -> None:
        conn.send(messages.beat("pong"))

    def ignore(self, conn: Connection, message: Message) -> None:
        """A ``pong`` (the answer to the host's ``ping``): nothing to do."""

    def redraw(self, conn: Connection, message: Message) -> None:
        """``view``: the seat's view sent again."""
        self.update(conn, force=True)

    def leave(self, conn: Connection, message: Message) -> None:
        """``bye``: the person leaves (the seat waits for them)."""
        conn.said_bye = True
        conn.close()

    def save(self, conn: Connection, message: Message) -> None:
        """``save``: the host saves the game to the file it names."""
        self.keeper.save(conn, messages.read_save(message)["file"])

    def start_by(self, conn: Connection, message: Message) -> None:
        """``start``: the host starts the game."""
        self.start()

    def end_by(self, conn: Connection, message: Message) -> None:
        """``end``: the host ends the table (after a game over: the host
        leaves it, wanting no other game)."""
        self.end(HOST_LEFT if self.feed.game_over() else ENDED)

    def hello_again(self, conn: Connection, message: Message) -> None:
        raise ProtocolError(HELLO_AGAIN)


# the handler of each kind of message a seated connection sends (docs/protocol.md)
HANDLERS: dict[str, Callable[[Table, Connection, Message], None]] = {
    "move": Table.play,
    "ping": Table.pong,
    "pong": Table.ignore,
    "view": Table.redraw,
    "say": Table.say,
    "bye": Table.leave,
    "deal": Table.deal,
    "save": Table.save,
    "start": Table.start_by,
    "end": Table.end_by,
    "hello": Table.hello_again,
    "again": Table.again,
}
HOST_ONLY = frozenset({"deal", "save", "start", "end"})  # the host's seat's alone
