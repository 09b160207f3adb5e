"""A remote seat: the game as the seat knows it, for the boards and the
line mode alike, and what every remote seat does once, whatever shows it.

:class:`RemoteSeat` is the game as the remote seat knows it, a
:class:`~mille.game.protocol.Game` for the flow and the front ends, made
of the link to the host (``link.Link``), what the host told
(``net.follow.Follow``: the welcome and the updates read) and who is at
the table (``presence.Presence``): its table is rebuilt from the seat's
view after every update (``net.follow.table_of``), its log is the seat's
event stream as sent, its people are named as the host names them, and
only the remote seat is at this keyboard (``at_keyboard``): every other
seat decides at the host (``another_decides``; its move, as this seat
saw it, waited for by ``another_moves``).  Its talk (``talk``) is the
table's: who is here, the marks, the lines said, the keys refused.
``play`` sends the seat's move and waits for the host's
answer (the move as made, or the engine's refusal); ``next_hand`` waits
for the host to deal.  Who is at the table comes in the host's ``seats``
messages (``presence.Presence``); the lines that say who came and went
and the chat are the table's lines (``tell``).

A line to the host that breaks is said (``notice``) and the seat taken
back with its token (:func:`relink`: ``RETRIES`` tries, a second apart),
with what the host said since; a move or a save whose answer was lost is
refused, to be made again.  The boards and the line mode both come back
so.

Written once here for both front ends: the words of the host's end
(:func:`ending`: the line and the exit status of a ``bye`` or a refusal),
the exit statuses, the loop before the seat is taken (:func:`sit`: the
waiting for a host not listening yet, the welcome, the refusal in one
line) and the end of the seat (:meth:`RemoteSeat.finish`: the host's
quitting ends the table, a joiner's leaves it with the command to come
back).
"""

from __future__ import annotations

import os
import queue
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TypeVar

from ...engine.moves import Discard, Event, IllegalMove, Move, Outcome, Use
from ...engine.table import OVER, Table
from ...engine.view import PublicView, SeatView
from ...game.limits import computer_name
from ...game.session import seen_events
from ...i18n import N_, _, when
from ...net import messages
from ...net.client import keep_token
from ...net.follow import (
    Follow,
    Update,
    Welcome,
    read_update,
    read_watching,
    read_welcome,
    read_whole,
)
from ...net.wire import (
    FATAL,
    ProtocolError,
    move_refusal,
    shown,
)
from .. import flow
from ..questions import Question
from .ending import (
    ENDED_STATUS,
    FAILED_STATUS,
    GONE,
    GONE_STATUS,
    NEW_CODE,
    NOT_WELCOMED,
    REFUSED_STATUS,
    UNREADABLE,
    Gone,
    away_line,
    ending,
    other_version,
    unreadable,
)
from .link import Join, Link, Stopped, waiting_line
from .presence import Presence, aside_line, name_kept, name_refused, refusal, said_line

# read here before ending held them (seat.Gone, seat.ENDED_STATUS, ...)
__all__ = [
    "ENDED_STATUS",
    "FAILED_STATUS",
    "REFUSED_STATUS",
    "GONE_STATUS",
    "GONE",
    "NOT_WELCOMED",
    "NEW_CODE",
    "UNREADABLE",
    "Gone",
    "ending",
    "away_line",
    "unreadable",
    "other_version",
]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...engine.rules import Rules
    from ...game.history import History
    from ...storage.seatfile import SeatFile

BROKE = N_("mille: the line to the host broke; reconnecting (^C to stop)")
RECONNECTING = N_("Reconnecting...")
BACK_AGAIN = N_("mille: back at the table")
STOPPED = N_("mille: stopped coming back to the table; your seat waits for you")
BROKE_MOVE = N_("the line to the host broke: try again")
ONLY_HOST = N_("Only the host may save (a save holds every hand).")
WAITING_DEAL = N_("Waiting for the host to deal.")
WAITING_AGAIN = N_("Waiting for the others: another game when everyone at the table wants it.")
LEFT_TABLE = N_("You leave the table.")
STOP_WATCHING = N_("You stop watching the table.")  # (a watcher has no seat to wait)
BAD_WHOLE = N_(
    "mille: the game the host sent cannot be read: {reason}; the game is recorded without its moves"
)
RETRIES = 10  # tries to come back after the line to the host broke, a second apart
REACH_WITHIN = 5.0  # seconds each try may take to reach the host
ANSWER_WITHIN = 10.0  # seconds the host's welcome (or the update after it) may take
WAIT = 0.05  # seconds between two looks at the keys and the host while it is awaited
KEPT_LINES = 200  # the table's lines a seat keeps (J shows the last)


class Overtaken(Exception):
    """The table moved on while this seat was at its prompt (another
    seat's hidden question was answered, the host dealt): the prompt is
    left and the flow shows what happened."""


# what a message that is not the protocol's raises where it is read
MISREAD = (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError)


@dataclass
class Seated:
    """A seat taken: the link, the host's welcome and first update, and
    what it said between them (who sits where, chat)."""

    link: Link
    welcome: dict[str, Any]
    update: dict[str, Any]
    early: list[dict[str, Any]] = field(default_factory=list)


def sit(join: Join, seat_file: SeatFile | None, say: Callable[[str], None]) -> Seated | int:
    """Take a seat at the host's table (for both front ends, before they
    start): the waiting for a host not up yet said, the token kept; or the
    one line that says why not, and the exit status."""
    link = Link(join)
    unreached = link.open(join.hello(), waiting=lambda: say(waiting_line(join)))
    if unreached is not None:
        say(unreached)
        return FAILED_STATUS
    welcome: dict[str, Any] | None = None
    early: list[dict[str, Any]] = []
    while True:
        message = link.next()
        if message is None:
            if link.broken is not None:
                say(f"mille: {shown(refusal(link.broken), 120)}")
            else:
                say(_(GONE) if welcome is not None else _(NOT_WELCOMED))
            link.close(bye=False)
            fine = welcome is not None or link.broken is not None
            return GONE_STATUS if fine else FAILED_STATUS
        kind = message.get("type")
        if kind in ("error", "bye"):
            gone = ending(message)
            say(gone.reason)
            if seat_file is not None and gone.final:
                seat_file.remove()
            link.close(bye=False)
            return gone.status
        if kind in ("welcome", "watching"):  # (a watcher's: no seat, no token)
            other = other_version(message)
            if other:
                say(other)
                link.close(bye=False)
                return REFUSED_STATUS
            try:
                seat = welcomed(message)  # (the seat a number, never a string read as 0)
            except ProtocolError:
                return misread(link, say)
            welcome = message
            if not seat.watching:
                keep_token(seat_file, seat.seat, seat.token)
        elif kind in ("seats", "said", "aside"):
            early.append(message)
        elif kind == "update" and welcome is not None:
            try:
                read_update(message)  # (read again by the seat: read whole first)
                return Seated(link, welcome, message, early)
            except ProtocolError:
                return misread(link, say)


def welcomed(message: dict[str, Any]) -> Welcome:
    """The host's ``welcome`` read, or its ``watching`` (a watcher's)."""
    if message.get("type") == "watching":
        return read_watching(message)
    return read_welcome(message)


def misread(link: Link, say: Callable[[str], None]) -> int:
    """Before the seat is taken, a message this mille cannot read: its line
    said, the line hung up; the exit status (the seat file kept)."""
    say(_(UNREADABLE))
    link.close(bye=False)
    return unreadable().status


def relink(
    join: Join, version: int, tries: int = RETRIES, stop: Callable[[], bool] = lambda: False
) -> Link | dict[str, Any] | None:
    """A seat whose line to the host broke takes it back: ``tries`` tries,
    a second apart, with its token (``join``), from ``version``; the new
    link (welcomed, the update since to come), the host's refusal or
    goodbye, or None.  Every wait looks at ``stop`` (:class:`Stopped` if
    it says so)."""

    def looking(seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if stop():
                raise Stopped
            time.sleep(WAIT)

    hello = join.hello(version)
    for attempt in range(tries):
        if attempt:
            looking(1)
        link = Link(join)
        if link.open(hello, within=REACH_WITHIN, stop=stop) is not None:
            continue
        while True:
            message = next_message(link, ANSWER_WITHIN, stop)
            if message is None:
                link.close(bye=False)
                break
            if message.get("type") in ("error", "bye"):
                link.close(bye=False)
                return message
            if message.get("type") == "welcome":
                return link
    return None


def next_message(link: Link, within: float, stop: Callable[[], bool]) -> dict[str, Any] | None:
    """What the host says next within ``within`` seconds (None if
    nothing), ``stop`` looked at meanwhile (:class:`Stopped`)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if stop():
            link.close(bye=False)
            raise Stopped
        try:
            return link.inbox.get(timeout=WAIT)
        except queue.Empty:
            continue
    return None


def save_at_host(front: flow.Dialogue, session: RemoteSeat, refuse: Callable[[str], None]) -> bool:
    """The host's save dialogue (``file:``, ``Overwrite file?``), the file
    written by the host's table; True if it was.  Another seat is told
    who saves (``refuse``)."""
    if not session.host:
        refuse(_(ONLY_HOST))
        return False
    name = front.read_file_name()
    if not name:
        return False
    if os.path.exists(name) and not front.ask(Question.OVERWRITE_FILE, can_save=False):
        return False
    answer = session.save_to(name)
    if answer.get("ok"):
        front.saved_to(shown(answer.get("file"), 100), saved_when(answer.get("when")))
        return True
    front.save_failed(shown(answer.get("reason"), 100))
    return False


def saved_when(stamp: object) -> str:
    """When the host saved the game (its ``saved``'s ``when``: seconds
    since the epoch), in the language chosen; "?" if it is no time."""
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)):
        return "?"
    try:
        return when(stamp)
    except (OverflowError, OSError, ValueError):
        return "?"


_S = TypeVar("_S", bound="RemoteSeat")


class RemoteSeat:
    """The game as the remote seat ``me`` knows it (see the module
    docstring), a :class:`~mille.game.protocol.Game` made of the link to
    the host, what the host told (``follow``, :class:`~mille.net.follow.Follow`)
    and who is at the table (``presence``); the table and the log are
    those shown so far (the others' moves shown one at a time)."""

    window_full = False  # the W setting: full score window (this seat's own)
    networked = True  # the boards offer J and C; the record says so
    calls_coup = True  # over the network a person's coup fourre is called, never asked
    source: str | None = None  # no file: the host holds the game (and saves it)

    def __init__(
        self,
        link: Link,
        welcome: dict[str, Any],
        update: dict[str, Any],
        *,
        retries: int = 0,
    ) -> None:
        self.link = link
        self.welcome = welcome
        self.early: list[dict[str, Any]] = []  # what the host said before the first update
        seat = welcomed(welcome)
        self.follow = Follow(seat)  # what the host told: the version, the names, the level
        self.me, self.host, self.token = seat.seat, seat.host, seat.token
        # a watcher (``mille --watch``): it sees the table from ``me``'s seat, no hand,
        # and decides nothing (every seat decides at the host)
        self.watching = seat.watching
        self.retries = retries  # tries to come back when the line breaks
        # the others' moves not shown yet, each with the table after its update (last)
        self.pending: deque[tuple[Event, Table | None]] = deque()
        self.awaiting = False  # a move of ours was sent: its answer is awaited
        self.mine: Event | None = None
        self.refusal: str | None = None
        self.dealt = False
        self.saved: dict[str, Any] | None = None  # the host's answer to a save
        self.taken = 0  # messages taken from the host
        self.played_for_me = 0  # this seat's moves a computer made, in the update taken
        self.history: History | None = None  # the game over, whole, as the host sent it
        self.whole_heard = False  # the host's ``game`` came (this game's)
        self.idle: Callable[[], None] = lambda: None  # the front end's checkpoint, while waiting
        self.notice: Callable[[str], None] = lambda line: None  # a line of the link's, at once
        # while coming back: whether the person asked to stop (^C, SIGTERM, SIGHUP)
        self.stop_asked: Callable[[], bool] = lambda: False
        self.presence = Presence(-1 if self.watching else self.me)
        self.presence.fingerprint = link.join.fingerprint
        # what the table said (who came and went, chat), each with the log's length then
        self.notes: list[tuple[int, str]] = []
        self.said: list[str] = []  # the same lines, this whole game (J shows the last)
        self.news = 0  # lines said so far (a board shows the newest on its error line)
        self.table: Table = read_update(update).table  # as shown so far
        self.log: list[Event] = []  # this hand's moves shown so far
        self.people: dict[int, str] = {}  # the people's names, as the host names them
        self.take(update)

    @classmethod
    def seated(cls: type[_S], seated: Seated) -> _S:
        """The seat's game once :func:`sit` took it, coming back when the
        line breaks; what the host said first is for :meth:`hear_early`."""
        session = cls(seated.link, seated.welcome, seated.update, retries=RETRIES)
        session.early = seated.early
        return session

    def hear_early(self) -> None:
        """What the host said before the first update (the front end
        listens now)."""
        for message in self.early:
            self.take(message)
        self.early = []

    @property
    def name_refused(self) -> str:
        """Why the joiner's ``--name`` is not the seat's ("" if it is): the
        host refused it, or the seat was taken back with its token and
        keeps the name it had."""
        join = self.link.join
        if join.token is not None:
            return name_kept(self.welcome, join.name)
        return name_refused(self.welcome)

    @property
    def refused_keys(self) -> tuple[str, ...]:
        """The board's keys this seat may not use (not offered on its
        board): ``o`` (the host orders nobody's hand), ``s`` but for the
        host, ``h`` for a watcher (no hand, no hint)."""
        if self.watching:
            return ("o: ", "s: ", "h: ")
        return ("o: ",) if self.host else ("o: ", "s: ")

    def mark(self, seat: int) -> str:
        """The mark beside a seat's name: awaited, away, a computer for now."""
        return self.presence.mark(seat)

    def tell(self, line: str) -> None:
        """A line from the table (who came or went, chat) for the front end."""
        self.notes.append((len(self.log), line))
        self.said.append(line)
        del self.said[:-KEPT_LINES]
        self.news += 1

    def heard_seats(self, first: bool, waited: int | None) -> None:
        """After a ``seats`` message (``first``: the first; ``waited``: whom
        the table waited for before it): who was here first."""
        if first:
            here = self.presence.others_here()
            if here:
                self.tell(_("At the table: {people}.").format(people=here))

    # ----- what the flow and the front ends read (``protocol.Game``) -------------

    @property
    def version(self) -> int:
        """The table's version the host last told."""
        return self.follow.version

    @property
    def rules(self) -> Rules:
        return self.table.rules

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know of the table shown (as the host's session
        names them); a watcher's: no hand (``PublicView``)."""
        if self.watching:
            return PublicView(self.table, seat, self.people)
        return SeatView(self.table, seat, self.people)

    def events(self, seat: int, start: int = 0) -> list[Event]:
        """The moves shown from the ``start``-th on, as ``seat`` saw them."""
        return seen_events(self.view(seat), self.log[start:])

    def name(self, seat: int) -> str:
        """The seat's name for the others: a person's, or ``Comp N``."""
        return self.people.get(seat, computer_name(seat))

    def at_keyboard(self) -> tuple[int, ...]:
        """This seat (a watcher's: none; it decides nothing)."""
        return () if self.watching else (self.me,)

    @property
    def viewer(self) -> int:
        """The seat shown: this one."""
        return self.me

    @property
    def local(self) -> None:
        """No game held here: the host holds it (and saves it)."""
        return None

    @property
    def talk(self) -> RemoteSeat:
        """The table's talk (``protocol.Talk``): this seat says it, from
        the host's messages (``presence``, ``notes``, ``refused_keys``)."""
        return self

    @property
    def started(self) -> bool:
        """The game has started (the waiting room is over)."""
        return self.presence.started

    def status(self, seat: int) -> str:
        """Whether the seat's person is here, away, gone, stood in for."""
        return self.presence.status(seat)

    def is_person(self, seat: int) -> bool:
        return seat in self.people

    @property
    def level(self) -> str:
        return self.follow.level

    @property
    def another_decides(self) -> bool:
        """Another seat's move is to be shown, or another seat decides."""
        self.drain()
        seat = self.table.current_player
        mine = seat == self.me and not self.watching
        return bool(self.pending) or (seat is not None and not mine)

    @property
    def human_to_move(self) -> bool:
        return not self.another_decides and self.table.current_player == self.me

    @property
    def mine_next(self) -> bool:
        """This seat's move was sent and its answer is awaited, or the
        table as the host last told it waits for this seat (the others'
        moves before it still to show): what is typed now is for it."""
        if self.awaiting:
            return True
        if self.watching:
            return False
        newest = next((table for _, table in reversed(self.pending) if table is not None), None)
        table = newest if newest is not None else self.table
        return table.current_player == self.me and table.phase != OVER

    # ----- the host's messages ---------------------------------------------------

    def take(self, message: dict[str, Any] | None) -> None:
        """One message from the host (None: the line is gone)."""
        self.taken += 1
        if message is None:
            self.come_back()
            return
        try:
            self.heard(message)
        except Gone:
            raise
        except MISREAD:
            raise unreadable() from None

    def heard(self, message: dict[str, Any]) -> None:
        """What one message from the host says (``take``)."""
        kind = message.get("type")
        if kind == "update":
            self._update(read_update(message))
        elif kind == "error":
            if self.awaiting:
                self.awaiting, self.refusal = False, shown(move_refusal(message), 120)
            elif message.get("code") in FATAL:
                raise ending(message)
        elif kind == "bye":
            raise ending(message)
        elif kind == "saved":
            self.saved = message
        elif kind == "seats":
            self.presence.over = self.follow.table is not None and self.follow.table.game_over
            first = not self.presence.heard
            waited = self.presence.waiting_for
            for line in self.presence.take(message):
                self.tell(line)
            self.name_people()
            self.heard_seats(first, waited)
        elif kind == "said":
            chat = said_line(message, self.presence.me)
            if chat is not None:
                self.tell(chat)
        elif kind == "aside":
            chat = aside_line(message)
            if chat is not None:
                self.tell(chat)
        elif kind == "game":
            self.heard_whole(message.get("history"))

    def heard_whole(self, text: object) -> None:
        """The host's ``game``: the game over, whole, read as a game file
        is (``storage.gamefile.loads``, replayed); one that cannot be read
        is said in one line, and the game recorded without its moves."""
        from ...storage.checks import SaveError

        self.whole_heard, self.history = True, None
        try:
            self.history = read_whole(text, self.rules)
        except SaveError as exc:
            self.tell(_(BAD_WHOLE).format(reason=shown(exc, 120)))

    def whole_game(self) -> History | None:
        """The game over, whole, as the host sent it (waited for a while
        once the table shows the game over: the host sends it with the
        last move's update); None before the end, or if it is not known."""
        if not self.table.game_over:
            return None
        deadline = time.monotonic() + ANSWER_WITHIN
        while not self.whole_heard and time.monotonic() < deadline:
            try:
                message = self.link.inbox.get(timeout=WAIT)
            except queue.Empty:
                continue
            self.take(message)
        return self.history

    def name_people(self) -> None:
        """The people's names as the table's ``seats`` say them now: a
        person who joins is named on every board at once, not after the
        next move's update."""
        for row in self.presence.rows:
            seat, name = row.get("seat"), row.get("name")
            if isinstance(seat, int) and seat in self.people and isinstance(name, str) and name:
                self.people[seat] = shown(name, 24)

    def come_back(self) -> None:
        """The line to the host ended without a goodbye: back to the seat
        with its token (``retries`` tries), with what the host said since;
        else :class:`Gone`."""
        broken = self.link.broken
        self.link.close(bye=False)
        if self.retries:
            self.notice(_(BROKE))
            join = self.link.join.taking_back(self.token)
            try:
                back = relink(join, self.version, self.retries, self.stop_asked)
            except (Stopped, KeyboardInterrupt, flow.Hangup):
                raise Gone(_(STOPPED), GONE_STATUS, back=True) from None
            if isinstance(back, Link):
                back.wake, self.link = self.link.wake, back
                self.resumed()
                self.notice(_(BACK_AGAIN))
                return
            if back is not None:  # the host's refusal or goodbye: the seat is gone
                raise ending(back)
        raise Gone(f"mille: {shown(refusal(broken), 120)}" if broken else _(GONE), GONE_STATUS)

    def resumed(self) -> None:
        """Back at the seat: what the host said since (its update first);
        a move or save whose answer was lost is refused, to be made again."""
        while True:
            message = self.link.next(timeout=ANSWER_WITHIN)
            self.take(message)
            if message is None or message.get("type") == "update":
                break
        self.drain()
        if self.awaiting:
            self.awaiting, self.refusal = False, BROKE_MOVE
        if self.saved is None:
            self.saved = {"ok": False, "reason": BROKE_MOVE}

    def _update(self, update: Update) -> None:
        """An update read: its moves to show, the deal, the names (``follow``)."""
        table = update.table
        events: list[Event] = []
        for event in update.events:
            if event is None:  # a new hand: what came before it is gone
                if self.table.game_over:  # another game: its own whole game to come
                    self.history, self.whole_heard = None, False
                self.log.clear()
                self.notes.clear()
                self.pending.clear()
                events.clear()
                self.dealt = True
            elif self.awaiting and event.outcome.seat == self.me:
                self.awaiting, self.mine = False, event
                self.log.append(event)
            else:
                if (
                    event.stand_in
                    and not self.watching
                    and event.outcome.seat == self.me
                    and isinstance(event.outcome.move, (Use, Discard))
                ):
                    self.played_for_me += 1  # a computer played this seat (away)
                events.append(event)
        self.follow.take(update)
        if update.names is not None:
            self.people = dict(update.names)
        for index, event in enumerate(events):
            self.pending.append((event, table if index == len(events) - 1 else None))
        if self.played_for_me:  # coming back: what happened meanwhile
            self.tell(away_line(self.played_for_me))
            self.played_for_me = 0
        if not events:
            if self.pending:  # the table goes with the last move still to show
                event, _table = self.pending.pop()
                self.pending.append((event, table))
            else:
                self.table = table

    def drain(self) -> None:
        """Take what the host has said, without waiting."""
        while not self.link.inbox.empty():
            self.take(self.link.next())

    def wait(self) -> None:
        """Take the host's next message (the front end's checkpoint
        meanwhile, which may take it itself: a board drains what woke it)."""
        taken = self.taken
        while True:
            self.idle()
            if self.taken != taken:
                return
            try:
                message = self.link.inbox.get(timeout=WAIT)
            except queue.Empty:
                continue
            self.take(message)
            return

    # ----- moves --------------------------------------------------------------

    def another_moves(self) -> Outcome:
        """The next move of another seat, as this seat saw it (waits for it)."""
        while not self.pending:
            self.wait()
        event, table = self.pending.popleft()
        self.log.append(event)
        if table is not None:
            self.table = table
        return event.outcome

    def play(self, move: Move) -> Outcome:
        """Send the seat's move; the move as made, or ``IllegalMove`` with
        the host's refusal (nothing changed)."""
        self.drain()
        self.awaiting, self.mine, self.refusal = True, None, None
        self.link.send(messages.move(self.version, str(move)))
        while self.awaiting:
            self.wait()
        if self.mine is None:
            raise IllegalMove(self.refusal or "refused")
        if not self.pending:
            self.drain()
        return self.mine.outcome

    def save_to(self, name: str) -> dict[str, Any]:
        """The host saves the game to ``name`` (the host's seat only); its
        answer (``saved``)."""
        self.saved = None
        self.link.send(messages.save(name))
        while self.saved is None:
            self.wait()
        return self.saved

    def set_ordering(self, on: bool) -> None:
        """``O`` on this end's copy of the table (a joiner's board refuses
        the key: the host orders the hands it sends)."""
        self.table.set_ordering(on)

    def next_hand(self) -> None:
        """The host deals (the host's ``y``); after a game over, this seat
        wants another game (``again``: dealt once everyone at the table
        wants it); wait for the new hand."""
        if self.host:
            self.link.send(messages.plain("deal"))
        elif self.follow.table is not None and self.follow.table.game_over:
            self.link.send(messages.plain("again"))
        self.drain()
        while self.table.phase == OVER:  # (the deal may have come already)
            self.wait()

    # ----- the end -------------------------------------------------------------

    def finish(
        self,
        status: int,
        left: Gone | None,
        seat_file: SeatFile | None,
        say: Callable[[str], None],
        leaving: str,
        back: str = "",
    ) -> int:
        """The seat's end, once the front end is done: the exit status.
        The host gone (``left``): the seat file goes with a table that is
        gone.  The host's own seat that quit (``status`` 0): the table ends
        for everyone (its goodbye said).  A joiner that quit: ``leaving``
        and the command to come back (``back``) said, and ``bye`` to the host."""
        if left is not None:
            if seat_file is not None and left.final:
                seat_file.remove()
            if left.back and back:
                say(_("To come back: {command}").format(command=back))
            self.link.close(bye=False)
            return left.status
        if self.host and not self.watching and status == ENDED_STATUS:
            self.link.send(messages.plain("end"))
            try:
                while True:
                    message = self.link.next(timeout=5)
                    if message is None:
                        break
                    self.take(message)
            except Gone:  # the host's own goodbye: the host knows it ended the game
                pass
            self.link.close(bye=False)
            return ENDED_STATUS
        over = self.follow.table is not None and self.follow.table.game_over
        if status == ENDED_STATUS and self.watching:
            say(_(STOP_WATCHING))
            if back and not over:
                say(_("To come back: {command}").format(command=back))
        elif status == ENDED_STATUS and over:  # no other game: the table is left for good
            say(_(LEFT_TABLE))
        elif status == ENDED_STATUS:
            say(leaving)
            if back:
                say(_("To come back: {command}").format(command=back))
        # a deliberate leave says goodbye (the others read "left"); a terminal
        # gone (a hang-up, the output lost) does not: they read "dropped"
        self.link.close(bye=status == ENDED_STATUS)
        return status
