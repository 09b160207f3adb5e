"""A remote seat: the game as the seat knows it, for the boards and the
line mode alike, and what every remote seat does once, whatever shows it.

:class:`RemoteSession` is the game as the remote seat knows it, shaped as
a :class:`~mille.game.session.Session` for the flow and the front ends:
its table is rebuilt from the seat's view after every update
(``net.client.table_of``), its log is the seat's event stream as sent,
its people are named as the host names them, and only the remote seat is
at this keyboard (``at_keyboard``): every other seat's move comes as a
computer's would (``computer_to_move``, ``computer_move``, which wait for
the host).  ``play`` sends the seat's move and waits for the host's
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
line) and the end of the seat (:meth:`RemoteSession.finish`: the host's
quitting ends the table, a joiner's leaves it with the command to come
back).
"""

from __future__ import annotations

import os
import queue
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TypeVar

from ...engine.moves import Discard, Event, IllegalMove, Move, Outcome, Use
from ...engine.table import OVER, Table
from ...game.session import Session
from ...i18n import N_, _, ngettext
from ...net.client import TABLE_GONE, event_of, keep_token, table_of
from ...net.wire import ENDED, FATAL, PROTOCOL, TABLE_OVER, WRONG_CODE, bye_code, shown
from .. import flow
from .link import Join, Link, waiting_line
from .presence import Presence, name_kept, name_refused, refusal, said_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ...storage.seatfile import SeatFile

# the exit statuses of mille --join (and of the host's own seat): what happened
ENDED_STATUS = 0  # the game ended (the host ended it), or the player left the table
FAILED_STATUS = 1  # no host reached (or a bad argument): nothing was played
REFUSED_STATUS = 2  # the host refused the seat (wrong code, table full, ...)
GONE_STATUS = 3  # the line to the host broke and did not come back
GONE = N_("mille: the host went away")
NOT_WELCOMED = N_(
    "mille: the host closed the connection without a word (a host with TLS wants --cert)"
)
BROKE = N_("mille: the line to the host broke; trying again")
BACK_AGAIN = N_("mille: back at the table")
BROKE_MOVE = N_("the line to the host broke: try again")
ONLY_HOST = N_("Only the host may save (a save holds every hand).")
WAITING_DEAL = N_("Waiting for the host to deal.")
NEW_CODE = N_(
    "{refusal} (a host that resumed a kept game, or started again, has a new join command:"
    " ask for it)"
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


class Gone(flow.Hangup):
    """The game goes on without this program (the host ended it, went
    away, or refused the seat): ``reason`` is the line to tell, ``status``
    the exit status."""

    def __init__(self, reason: str, status: int = 1, *, final: bool = False) -> None:
        super().__init__(reason)
        self.status = status
        self.final = final  # the table is gone (not only the line to it)


def ending(message: dict[str, Any]) -> Gone:
    """What the host's ``bye`` or refusal (an ``error``) means for the
    seat: the line to tell and the exit status; ``final`` if the table is
    gone (its seat file goes with it)."""
    if message.get("type") == "bye":
        ended = bye_code(message) == ENDED
        reason = shown(refusal(str(message.get("reason"))), 120)
        return Gone(f"mille: {reason}", ENDED_STATUS if ended else GONE_STATUS, final=True)
    code = message.get("code")
    status = ENDED_STATUS if code == TABLE_OVER else REFUSED_STATUS
    text = shown(refusal(str(message.get("message"))), 120)
    if code == WRONG_CODE:  # a table kept and resumed has a new code
        text = _(NEW_CODE).format(refusal=text)
    return Gone(f"mille: {text}", status, final=code in TABLE_GONE)


def away_line(moves: int) -> str:
    """Coming back: what a computer did for the seat meanwhile.

    >>> away_line(1), away_line(2)
    ('While you were away a computer played 1 move for you.', 'While you were away a computer played 2 moves for you.')
    """
    return ngettext(
        "While you were away a computer played {count} move for you.",
        "While you were away a computer played {count} moves for you.",
        moves,
    ).format(count=moves)


def other_version(welcome: dict[str, Any]) -> str:
    """The line that says the host speaks another protocol ("" if not)."""
    if welcome.get("protocol") == PROTOCOL:
        return ""
    return _(
        "mille: the host speaks mille protocol {protocol}, not {ours}: "
        "play with the same version of mille"
    ).format(protocol=shown(welcome.get("protocol"), 10), ours=PROTOCOL)


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
        if kind == "welcome":
            other = other_version(message)
            if other:
                say(other)
                link.close(bye=False)
                return REFUSED_STATUS
            welcome = message
            keep_token(seat_file, int(message.get("seat", 0)), str(message.get("token")))
        elif kind in ("seats", "said"):
            early.append(message)
        elif kind == "update" and welcome is not None:
            return Seated(link, welcome, message, early)


def relink(join: Join, version: int, tries: int = RETRIES) -> Link | dict[str, Any] | None:
    """A seat whose line to the host broke takes it back: ``tries`` tries,
    a second apart, with its token (``join``), from ``version``; the new
    link (welcomed, the update since to come), the host's refusal or
    goodbye, or None."""
    hello = join.hello(version)
    for attempt in range(tries):
        if attempt:
            time.sleep(1)
        link = Link(join)
        if link.open(hello, within=REACH_WITHIN) is not None:
            continue
        while True:
            message = link.next(timeout=ANSWER_WITHIN)
            if message is None:
                link.close(bye=False)
                break
            if message.get("type") in ("error", "bye"):
                link.close(bye=False)
                return message
            if message.get("type") == "welcome":
                return link
    return None


def save_at_host(
    front: flow.Dialogue, session: RemoteSession, refuse: Callable[[str], None]
) -> bool:
    """The host's save dialogue (``file:``, ``Overwrite file?``), the file
    written by the host's table; True if it was.  Another seat is told
    who saves (``refuse``)."""
    if not session.host:
        refuse(_(ONLY_HOST))
        return False
    name = front.read_file_name()
    if not name:
        return False
    if os.path.exists(name) and not front.ask("Overwrite file?", can_save=False):
        return False
    answer = session.save_to(name)
    if answer.get("ok"):
        front.saved_to(shown(answer.get("file"), 100), shown(answer.get("when"), 40))
        return True
    front.save_failed(shown(answer.get("reason"), 100))
    return False


_S = TypeVar("_S", bound="RemoteSession")


class RemoteSession(Session):
    """The game as the remote seat ``me`` knows it (see the module docstring)."""

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
        self.me = int(welcome["seat"])
        self.host = bool(welcome["host"])
        self.token = str(welcome.get("token", ""))
        self.retries = retries  # tries to come back when the line breaks
        self.version = 0
        self.level_name = "standard"
        # the others' moves not shown yet, each with the table after its update (last)
        self.pending: deque[tuple[Event, Table | None]] = deque()
        self.awaiting = False  # a move of ours was sent: its answer is awaited
        self.mine: Event | None = None
        self.refusal: str | None = None
        self.dealt = False
        self.saved: dict[str, Any] | None = None  # the host's answer to a save
        self.taken = 0  # messages taken from the host
        self.played_for_me = 0  # this seat's moves a computer made, in the update taken
        self.idle: Callable[[], None] = lambda: None  # the front end's checkpoint, while waiting
        self.notice: Callable[[str], None] = lambda line: None  # a line of the link's, at once
        self.presence = Presence(self.me)
        self.presence.fingerprint = link.join.fingerprint
        # what the table said (who came and went, chat), each with the log's length then
        self.notes: list[tuple[int, str]] = []
        self.said: list[str] = []  # the same lines, this whole game (J shows the last)
        self.news = 0  # lines said so far (a board shows the newest on its error line)
        super().__init__(table=table_of(update["view"]), computers={}, deal_rng=random.Random(0))
        self.networked = True  # the boards offer J and C; the record says so
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

    def __post_init__(self) -> None:
        """Nothing to check here: the people are the host's, named in each view."""

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

    # ----- what the flow and the front ends read ---------------------------------

    def at_keyboard(self) -> tuple[int, ...]:
        return (self.me,)

    def is_person(self, seat: int) -> bool:
        return seat in self.people

    @property
    def level(self) -> str:
        return self.level_name

    @property
    def computer_to_move(self) -> bool:
        """Another seat's move is to be shown, or another seat decides."""
        self.drain()
        seat = self.table.current_player
        return bool(self.pending) or (seat is not None and seat != self.me)

    @property
    def human_to_move(self) -> bool:
        return not self.computer_to_move and self.table.current_player == self.me

    @property
    def mine_next(self) -> bool:
        """This seat's move was sent and its answer is awaited, or the
        table as the host last told it waits for this seat (the others'
        moves before it still to show): what is typed now is for it."""
        if self.awaiting:
            return True
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
        kind = message.get("type")
        if kind == "update":
            self._update(message)
        elif kind == "error":
            if self.awaiting:
                self.awaiting, self.refusal = False, shown(message.get("message"), 120)
            elif message.get("code") in FATAL:
                raise ending(message)
        elif kind == "bye":
            raise ending(message)
        elif kind == "saved":
            self.saved = message
        elif kind == "seats":
            first = not self.presence.heard
            waited = self.presence.waiting_for
            for line in self.presence.take(message):
                self.tell(line)
            self.name_people()
            self.heard_seats(first, waited)
        elif kind == "said":
            chat = said_line(message, self.me)
            if chat is not None:
                self.tell(chat)

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
            back = relink(self.link.join.taking_back(self.token), self.version, self.retries)
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

    def _update(self, message: dict[str, Any]) -> None:
        view = message["view"]
        table = table_of(view)
        events: list[Event] = []
        for data in message.get("events", []):
            # checked as a save's log: a move the engine could make
            event = event_of(data, table.rules)
            if event is None:  # a new hand: what came before it is gone
                self.log.clear()
                self.notes.clear()
                self.pending.clear()
                events.clear()
                self.dealt = True
            elif self.awaiting and event.outcome.seat == self.me:
                self.awaiting, self.mine = False, event
                self.log.append(event)
            else:
                if event.outcome.seat == self.me and isinstance(event.outcome.move, (Use, Discard)):
                    self.played_for_me += 1  # a computer played this seat (away)
                events.append(event)
        names = view.get("names")
        if isinstance(names, list):
            self.people = {
                seat: shown(name, 24)
                for seat, name in enumerate(names)
                if isinstance(name, str) and seat < table.rules.players
            }
        level = view.get("level")
        if isinstance(level, str):
            self.level_name = shown(level, 12)
        self.version = int(message["version"])
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

    def computer_move(self) -> Outcome:
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
        self.link.send({"type": "move", "version": self.version, "move": str(move)})
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
        self.link.send({"type": "save", "file": name})
        while self.saved is None:
            self.wait()
        return self.saved

    def next_hand(self) -> None:
        """The host deals (the host's ``y``); wait for the new hand."""
        if self.host:
            self.link.send({"type": "deal"})
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
            self.link.close(bye=False)
            return left.status
        if self.host and status == ENDED_STATUS:
            self.link.send({"type": "end"})
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
        if status == ENDED_STATUS:
            say(leaving)
            if back:
                say(_("To come back: {command}").format(command=back))
        # a deliberate leave says goodbye (the others read "left"); a terminal
        # gone (a hang-up, the output lost) does not: they read "dropped"
        self.link.close(bye=status == ENDED_STATUS)
        return status
