"""``mille --join`` on the boards: a remote seat played on the same board
as a local game, by the same flow (``flow.run``), no second loop.

:class:`RemoteSession` is the game as the remote seat knows it, shaped as
a :class:`~mille.game.session.Session` for the flow and the boards: its
table is rebuilt from the seat's view after every update
(``net.client.table_of``), its log is the seat's event stream as sent, its
people are named as the host names them, and only the remote seat is at
this keyboard (``at_keyboard``): every other seat's move comes as a
computer's would (``computer_to_move``, ``computer_move``, which wait for
the host).  ``play`` sends the seat's move and waits for the host's answer
(the move as made, or the engine's refusal); ``next_hand`` waits for the
host to deal.  :class:`Link` is the connection, in a thread of its own
(asyncio), which answers the host's pings while the board waits for a
key, and wakes the board's key wait through its wake-up pipe (no signal)
when the host says something.

Who is at the table comes in the host's ``seats`` messages
(``net.client.Presence``): the lines saying who joined, dropped, left or
came back, a computer standing in, and chat lines are the table's lines
(``RemoteSession.tell``), shown on the error line (whole on BSD's board)
and in the row board's log; the boards mark the names.  ``J`` shows the
table's page (the whole join command, the seats, the last lines); before
the game starts it is the host's waiting room (RETURN starts).  ``C``
says a line to the table.  A prompt the table overtakes (a hidden
question answered, the host's deal) is left, so the board follows the
table.

The board's dialogues a joiner may not have are its own
(:class:`RemoteBsdUi`, :class:`RemoteTableUi`): ``S`` says only the host
saves, ``O`` is not offered (the hand's order is the host's),
``Save game?`` is asked of the host alone (at the end, and after its
``Q``), and ``Another hand?`` ``y`` waits for the
host's deal, ``n`` leaves.  The host's own seat (``mille --host`` on a
terminal) is played the same way, over loopback: its ``S`` has the host's
table write the file, its quitting ends the game for everyone, and a
hang-up keeps the game as the line mode's does.
"""

from __future__ import annotations

import asyncio
import os
import queue
import random
import threading
from collections import deque

from ..engine.describe import stand_in_name
from ..engine.moves import Event, IllegalMove, Move, Outcome
from ..engine.table import OVER, Table
from ..game.session import Session
from ..net.client import (
    ENDED_STATUS,
    FAILED_STATUS,
    GONE,
    GONE_STATUS,
    MARKS_LEGEND,
    NOT_WELCOMED,
    REFUSED_STATUS,
    TABLE_GONE,
    Client,
    Presence,
    address_text,
    event_of,
    failure_reason,
    keep_token,
    name_refused,
    said_line,
    table_of,
    waiting_line,
)
from ..net.wire import ENDED, FATAL, TABLE_OVER, ProtocolError, bye_code, shown
from . import flow
from .curses_keys import CTRL_L, NEWLINE, RESIZE, RETURN, SPACE
from .screen import MOVE_PROMPT
from .table_ui import TableUi
from .ui import Ui

TYPE_CHECKING = False
if TYPE_CHECKING:
    import curses
    import ssl
    from collections.abc import Callable
    from typing import Any

    from ..storage.seatfile import SeatFile

ONLY_HOST = "Only the host may save (a save holds every hand)."
NO_ORDER = "O is not offered over the network (the host keeps the hand's order)."
LEFT = "You left the table; a computer plays your seat after the grace period."
WAIT = 0.05  # seconds between two looks at the keys and the host while it is awaited
SAY_MAX = 200  # bytes of a chat line typed
TABLE_TITLE = "The table (J shows this page at any time)"
START_KEYS = "RETURN: start now (a computer plays each empty seat until its person joins)"
STARTS_ITSELF = "The game starts by itself when every seat is taken.  Another key: the board."
BACK = "Press any key to go back to the game."
WAITING_HOST = "Waiting for the host to start (J: the table)"


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


class Link:
    """The connection to the host, run by a thread of its own: what the
    host says goes to ``inbox`` (None when the line is gone), pings are
    answered there; :meth:`send` from any thread."""

    def __init__(
        self,
        address: str,
        port: int,
        hello: dict[str, Any],
        context: ssl.SSLContext | None,
        patience: float = 0.0,
    ) -> None:
        self.target = (address, port, context)
        self.patience = patience  # seconds to wait for a host not listening yet
        self.hello = hello
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.loop = asyncio.new_event_loop()
        self.client = Client()
        self.thread = threading.Thread(target=self._run, name="mille-join", daemon=True)
        # called (from this thread) after each message: the board, which may
        # be waiting for a key, is woken to take it
        self.wake: Callable[[], None] = lambda: None

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
            # what close() asked meanwhile (the hang-up) ends too: nothing left unawaited
            pending = asyncio.all_tasks(self.loop)
            if pending:
                self.loop.run_until_complete(asyncio.wait(pending, timeout=2))
        finally:
            self.loop.close()  # here, not by the collector at exit
            self.inbox.put(None)
            self.wake()

    async def _main(self) -> None:
        address, port, context = self.target
        try:
            await self.client.connect_waiting(
                address,
                port,
                context,
                patience=self.patience,
                waiting=lambda: self.inbox.put({"type": "waiting"}),
            )
        except OSError as exc:
            self.inbox.put({"type": "unreached", "reason": failure_reason(exc)})
            return
        self.client.send(self.hello)
        while True:
            try:
                message = await self.client.receive()
            except ProtocolError as exc:
                self.inbox.put({"type": "broken", "message": exc.message})
                return
            if message is None:
                return
            if message.get("type") == "ping":
                self.client.send({"type": "pong"})
                continue
            self.inbox.put(message)
            self.wake()

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.loop.call_soon_threadsafe(self.client.send, message)
        except RuntimeError:  # the loop is closed: the line is gone
            pass

    def close(self, bye: bool) -> None:
        """Say ``bye`` (if ``bye``) and hang up."""
        if self.thread.is_alive():
            if bye:
                self.send({"type": "bye"})

            async def shut() -> None:
                await self.client.close()

            import concurrent.futures
            import inspect

            closing = shut()
            try:
                done = asyncio.run_coroutine_threadsafe(closing, self.loop)
                # the host may hang up on the bye first, and the link's loop
                # end without running this: no waiting for it then
                for _ in range(100):
                    if not self.thread.is_alive():
                        break
                    try:
                        done.result(0.05)
                        break
                    except concurrent.futures.TimeoutError:
                        continue
            except Exception:  # the line went meanwhile (the loop closed)
                pass
            if inspect.getcoroutinestate(closing) == inspect.CORO_CREATED:
                closing.close()  # never run: no "never awaited" warning
            self.thread.join(5)


class RemoteSession(Session):
    """The game as the remote seat ``me`` knows it (see the module docstring)."""

    over_network = True  # (the record says so)

    def __init__(self, link: Link, welcome: dict[str, Any], update: dict[str, Any]) -> None:
        self.link = link
        self.me = int(welcome["seat"])
        self.host = bool(welcome["host"])
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
        self.idle: Callable[[], None] = lambda: None  # the board's checkpoint, while waiting
        self.presence = Presence(self.me)
        # what the table said (who came and went, chat), each with the log's length then
        self.notes: list[tuple[int, str]] = []
        self.said: list[str] = []  # the same lines, this whole game (J shows the last)
        self.news = 0  # lines said so far (a board shows the newest on its error line)
        super().__init__(table=table_of(update["view"]), computers={}, deal_rng=random.Random(0))
        self.take(update)

    def __post_init__(self) -> None:
        """Nothing to check here: the people are the host's, named in each view."""

    network = True  # the boards offer J (the table) and C (a chat line)

    def mark(self, seat: int) -> str:
        """The mark beside a seat's name: awaited, away, a computer for now."""
        return self.presence.mark(seat)

    def tell(self, line: str) -> None:
        """A line from the table (who came or went, chat) for the boards."""
        self.notes.append((len(self.log), line))
        self.said.append(line)
        del self.said[:-KEPT_LINES]
        self.news += 1

    # ----- what the flow and the boards read -------------------------------------

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

    # ----- the host's messages ---------------------------------------------------

    def take(self, message: dict[str, Any] | None) -> None:
        """One message from the host (None: the line is gone)."""
        self.taken += 1
        if message is None:
            raise Gone("mille: the host went away", GONE_STATUS)
        kind = message.get("type")
        if kind == "update":
            self._update(message)
        elif kind == "error":
            text = shown(message.get("message"), 120)
            if self.awaiting:
                self.awaiting, self.refusal = False, text
            elif message.get("code") in FATAL:
                code = message.get("code")
                status = ENDED_STATUS if code == TABLE_OVER else REFUSED_STATUS
                raise Gone(f"mille: {text}", status, final=code in TABLE_GONE)
        elif kind == "bye":
            reason = shown(message.get("reason"), 100)
            ended = bye_code(message) == ENDED
            raise Gone(f"mille: {reason}", ENDED_STATUS if ended else GONE_STATUS, final=True)
        elif kind == "saved":
            self.saved = message
        elif kind == "seats":
            first = not self.presence.heard
            for line in self.presence.take(message):
                self.tell(line)
            if first:  # who was here first
                here = self.presence.others_here()
                if here:
                    self.tell(f"At the table: {here}.")
        elif kind == "said":
            chat = said_line(message, self.me)
            if chat is not None:
                self.tell(chat)
        elif kind == "broken":
            raise Gone(f"mille: {shown(message.get('message'), 120)}", GONE_STATUS)

    def _update(self, message: dict[str, Any]) -> None:
        view = message["view"]
        table = table_of(view)
        events: list[Event] = []
        for data in message.get("events", []):
            event = event_of(
                data, table.rules
            )  # checked as a save's log: a move the engine could make
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
        if not events:
            if self.pending:  # the table goes with the last move still to show
                event, _ = self.pending.pop()
                self.pending.append((event, table))
            else:
                self.table = table

    def drain(self) -> None:
        """Take what the host has said, without waiting."""
        while True:
            try:
                message = self.link.inbox.get_nowait()
            except queue.Empty:
                return
            self.take(message)

    def wait(self) -> None:
        """Take the host's next message (the board's checkpoint meanwhile,
        which may take it itself: the board drains what woke it)."""
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


def _bye(link: Link) -> bool:
    """The host's ``bye`` is among what it said and the board has not taken."""
    with link.inbox.mutex:
        return any(m is None or m.get("type") == "bye" for m in link.inbox.queue)


KEPT_LINES = 200  # the table's lines a joiner keeps (J shows the last)
NEWS_SHOWN = 3  # the table's lines said at once put together on the error line


def table_lines(session: RemoteSession, width: int, height: int) -> list[str]:
    """J: the whole join command, the seats, and the table's last lines,
    wrapped to ``width``, at most ``height`` lines; in the waiting room
    (before the game starts), how the host starts it."""
    import textwrap

    presence = session.presence
    lines = [TABLE_TITLE, ""]
    if presence.join:
        lines.append("To join, the others type:")
        lines += textwrap.wrap(presence.join, width, initial_indent="  ", subsequent_indent="  ")
    lines += ["Seats:", *presence.seat_lines(), f"Marks beside the names: {MARKS_LEGEND}"]
    foot = [""]
    if not presence.started:
        foot += [START_KEYS, STARTS_ITSELF] if session.host else [WAITING_HOST + ".", BACK]
    else:
        foot.append(BACK)
    room = height - len(lines) - len(foot) - 1
    said = [
        row
        for line in session.said
        for row in textwrap.wrap(line, width, subsequent_indent="  ") or [""]
    ]
    if said and room > 0:
        lines += ["", "Lately:", *said[-max(room - 1, 0) :]] if room > 1 else []
    return [line[:width] for line in lines + foot][:height]


if TYPE_CHECKING:
    _Base = Ui
else:
    _Base = object


class _Remote(_Base):
    """The dialogues of a remote seat's board (see the module docstring)."""

    painted: tuple[int, int, int] = (0, 0, 0)  # the table, log and news last drawn waiting

    news_shown = 0  # the table's lines already put on the error line
    choosing = False  # at the seat's own prompt (its move), which the table may overtake
    asking_deal = False  # a joiner at Another hand?, which the host's deal overtakes

    def take_news(self) -> None:
        """The link woke the key reader (the host said something): take it
        and draw it."""
        session = self.session
        if isinstance(session, RemoteSession):
            session.drain()
            self.show_news()
            if self.choosing and (session.pending or not session.human_to_move):
                raise Overtaken  # the move asked for is no longer this seat's
            if self.asking_deal and session.table.phase != OVER:
                raise Overtaken  # the host dealt: the joiner plays on
        self.render()

    def show_news(self) -> None:
        """The table's new lines (who came or went, chat: the last
        ``NEWS_SHOWN``) on the error line; J shows them all, whole."""
        session = self.session
        if not isinstance(session, RemoteSession) or session.news == self.news_shown:
            return
        new = min(session.news - self.news_shown, NEWS_SHOWN)
        self.news_shown = session.news
        if session.said:
            self.note("  ".join(session.said[-new:]))

    def started(self) -> None:
        """The game's first screen; before the game starts (the waiting
        room), the host sees the table page, a joiner is told whom it waits for."""
        super().started()
        session = self.session
        if isinstance(session, RemoteSession):
            session.drain()
            self.show_news()
            if not session.presence.started:
                if session.host:
                    self.show_table()
                else:
                    session.tell(WAITING_HOST + ".")
                    self.show_news()
                    self.render()

    def show_table(self) -> None:
        """J: the table's page (the join command, the seats, the last
        lines), kept up to date until a key; in the waiting room the host's
        RETURN starts the game, which also starts once every seat is taken."""
        session = self.session
        if not isinstance(session, RemoteSession):
            return
        screen = self.screen

        def page() -> list[str]:  # at the terminal's size now
            height, width = screen.scr.getmaxyx()
            return table_lines(session, width - 1, height)

        screen.page = page
        room = not session.presence.started
        shown = -1
        try:
            while True:
                self.checkpoint()
                session.drain()
                if room and session.presence.started:
                    return  # every seat is taken: the game starts
                if self.winched:
                    self.winched = False
                    self.sync_size()
                    shown = -1
                if self.heard:
                    self.heard = False
                if self.interrupted and not self.in_really:
                    self.interrupted = False
                    self.really()
                    shown = -1
                if session.taken != shown:
                    shown = session.taken
                    self.render()
                key = self.keys.next_byte(WAIT)
                if key is None:
                    continue
                if key == RESIZE:
                    if self.keys.keyboard.size() is None:
                        screen.resized()
                    shown = -1
                    continue
                if key == CTRL_L:
                    self.redraw()
                    continue
                if room and session.host and key in (RETURN, NEWLINE, SPACE):
                    session.link.send({"type": "start"})
                return
        finally:
            screen.page = None
            self.heard = True  # what came meanwhile is looked at again (a prompt overtaken)
            self.show_news()
            self.render()

    def chat(self) -> None:
        """C: a line to the table (``say:``), sent to every seat."""
        session = self.session
        if not isinstance(session, RemoteSession):
            return
        screen = self.screen
        kept = screen.prompt, screen.echo, screen.ghost
        try:
            text = self.read_line("say:", SAY_MAX).decode("utf-8", "replace").strip()
        finally:
            screen.prompt, screen.echo, screen.ghost = kept
        if text:
            session.link.send({"type": "say", "text": text})

    @property
    def is_host(self) -> bool:
        session = self.session
        return isinstance(session, RemoteSession) and session.host

    def save(self) -> bool:
        """The host's save dialogue (``file:``, ``Overwrite file?``), the
        file written by the host's table; another seat is told who saves."""
        session = self.session
        if not isinstance(session, RemoteSession) or not session.host:
            self.error(ONLY_HOST)
            return False
        name = self.read_file_name()
        if not name:
            return False
        if os.path.exists(name) and not self.ask("Overwrite file?", can_save=False):
            return False
        answer = session.save_to(name)
        if answer.get("ok"):
            self.saved_to(shown(answer.get("file"), 100), shown(answer.get("when"), 40))
            return True
        self.save_failed(shown(answer.get("reason"), 100))
        return False

    def read_move(self) -> Move | None:
        """The seat's command at ``>>:Move:``; None (nothing done) if the
        table moves on meanwhile: the flow then shows the moves, and the
        board follows the table while it waits at any prompt."""
        self.choosing = True
        try:
            return super().read_move()
        except Overtaken:
            self.screen.set_prompt(MOVE_PROMPT)
            return None
        finally:
            self.choosing = False

    def really(self) -> None:
        """Q and ^C: ``Really?``; the host, leaving (which ends the game for
        everyone), is then asked ``Save game?`` as at home; a save that
        fails keeps the game going."""
        try:
            super().really()
        except flow.Quit:
            if self.is_host and self.ask("Save game?") and not self.save():
                return
            raise

    def ask(self, question: str, can_save: bool = True) -> bool:
        if question == "Save game?":  # the host holds the game: only it saves
            return self.is_host and flow.ask(self, question, can_save=False)
        if question in ("Another hand?", "Another game?") and not self.is_host:
            self.asking_deal = True
            try:
                answer = flow.ask(self, question, can_save=False)
            except Overtaken:  # the host dealt meanwhile: the next hand is on
                return True
            finally:
                self.asking_deal = False
            if answer:
                self.note("Waiting for the host to deal.")
                self.render()
            return answer
        return flow.ask(self, question, can_save and self.is_host)

    def toggle_order(self) -> None:
        self.error(NO_ORDER)

    def waiting(self) -> None:
        """While the host is awaited (another seat decides): the signals
        as between two moves, a resize repainted; ^C and Q ask
        ``Really?`` (y leaves), S says who saves, ^L redraws; another key
        waits for your turn (and the keys after it)."""
        self.checkpoint()
        session = self.session
        screen = self.screen
        if not self.keys.pending and (screen.prompt, screen.echo, screen.ghost) != (
            MOVE_PROMPT,
            "",
            "",
        ):  # what was typed or answered is done: no stale text while waiting
            screen.set_prompt(MOVE_PROMPT)
        self.show_news()
        taken = session.taken if isinstance(session, RemoteSession) else 0
        shown = (id(session.table), len(session.log), taken)
        if shown != self.painted:  # what the host said meanwhile, on the board
            self.painted = shown
            self.render()
        if self.winched:
            self.winched = False
            self.sync_size()
        if self.heard:
            self.heard = False
        if self.interrupted and not self.in_really:
            self.interrupted = False
            self.really()
            self.render()
        if self.keys.pending:  # a key kept for your turn: the rest wait behind it
            return
        key = self.keys.next_byte(WAIT)
        if key is None:
            return
        if key == RESIZE:  # (not kept for your turn: the keys after it are read)
            if self.keys.keyboard.size() is None:
                self.screen.resized()
            self.render()
            return
        if key in (ord("q"), ord("Q")):
            self.really()
        elif key in (ord("s"), ord("S")):
            self.save()
        elif key in (ord("j"), ord("J")):
            self.show_table()
        elif key in (ord("c"), ord("C")):
            self.chat()
        elif key == CTRL_L:
            self.redraw()
        elif 0 <= key <= 255:
            self.keys.pending.append(key)
        self.render()


class RemoteBsdUi(_Remote, Ui):
    """BSD's board for a remote seat."""


class RemoteTableUi(_Remote, TableUi):
    """The board with a row per side for a remote seat."""

    def waiting(self) -> None:
        """As a remote seat waits; the status follows who is there (a
        person who drops is waited for, not thinking)."""
        if self.screen.thinking or self.screen.awaited:
            self.screen.thinking = self.thinker()
        super().waiting()

    def thinker(self) -> str:
        """Who decides next: a connected person (or a computer, standing in
        for one: ``Computer (for Bob)``) is thinking; for a person who is
        not there, the status says ``waiting for Bob``."""
        name = super().thinker()
        session = self.session
        self.screen.awaited = ""
        if isinstance(session, RemoteSession) and not session.presence.started:
            self.screen.awaited = "the host to start"  # the waiting room: nobody thinks
            return ""
        seat = session.table.current_player
        if not name or not isinstance(session, RemoteSession) or seat is None:
            return name
        if seat not in session.people:
            return name
        status = session.presence.status(seat)
        if status == "computer-for-now":
            return stand_in_name(name)
        if status not in ("here", ""):
            self.screen.awaited = name
            return ""
        return name


def board_for(session: Session) -> type[Ui]:
    from .tui import board_class

    return RemoteBsdUi if board_class(session) is Ui else RemoteTableUi


def say(line: str) -> None:
    """A line on standard output, at once (before curses starts)."""
    print(line, flush=True)


def before_seat(
    message: dict[str, Any],
    link: Link,
    address: str,
    port: int,
    seat_file: SeatFile | None,
    say: Callable[[str], None],
) -> int | None:
    """What the host or the link said before the seat was taken, for both
    front ends: the waiting for a host not yet up said (None), or the line
    and exit status of a message that ends the join (the link closed, the
    seat file gone with the table); None for any other message."""
    kind = message.get("type")
    if kind == "waiting":
        say(waiting_line(address, port))
        return None
    if kind == "unreached":
        where = shown(address_text(address, port))
        say(f"mille: cannot reach {where}: {shown(message.get('reason'), 200)}")
        return FAILED_STATUS
    if kind not in ("error", "broken", "bye"):
        return None
    say(f"mille: {shown(message.get('message') or message.get('reason'), 120)}")
    if seat_file is not None and (kind == "bye" or message.get("code") in TABLE_GONE):
        seat_file.remove()
    link.close(bye=False)
    if kind == "bye":
        return ENDED_STATUS if bye_code(message) == ENDED else GONE_STATUS
    if kind == "error":
        return ENDED_STATUS if message.get("code") == TABLE_OVER else REFUSED_STATUS
    return GONE_STATUS


def play_board(
    address: str,
    port: int,
    hello: dict[str, Any],
    context: ssl.SSLContext | None,
    color: bool = True,
    *,
    note: str = "",
    keep: Callable[[str], str] | None = None,
    seat_file: SeatFile | None = None,
    back: str = "",
    patience: float = 0.0,
) -> int:
    """``mille --join`` on a terminal: the seat on its board; the exit
    status.  The host's own seat (``mille --host``) too: ``note`` on the
    error line first (the join command), ``keep`` keeps the game after a
    hang-up (the line to tell), and quitting ends the game for everyone.
    ``seat_file`` keeps a joiner's token (``mille --join``), ``back`` is
    the command that comes back to the seat (told on leaving)."""
    import sys

    from . import tui

    link = Link(address, port, hello, context, patience)
    link.start()
    welcome: dict[str, Any] | None = None
    early: list[dict[str, Any]] = []  # who sits where, said before the first update
    while True:  # before curses: a refusal is one line
        message = link.inbox.get()
        if message is None:
            print(GONE if welcome is not None else NOT_WELCOMED)
            return GONE_STATUS if welcome is not None else FAILED_STATUS
        kind = message.get("type")
        status = before_seat(message, link, address, port, seat_file, say)
        if status is not None:
            return status
        if kind == "waiting":
            continue
        if kind == "welcome":
            welcome = message
            keep_token(seat_file, int(message.get("seat", 0)), str(message.get("token")))
        elif kind == "seats":
            early.append(message)
        elif kind == "update" and welcome is not None:
            break
    session = RemoteSession(link, welcome, message)
    for said in early:
        session.take(said)
    refused = name_refused(welcome)
    if refused:  # why the joiner's --name is not the seat's: among the table's lines
        session.tell(refused)
    left: list[Gone] = []

    def gone(exc: flow.Hangup) -> tuple[str, int]:
        if not isinstance(exc, Gone):
            try:
                session.drain()  # the host's bye, which woke the board?
            except Gone as bye:
                exc = bye
        if isinstance(exc, Gone):
            left.append(exc)
            return exc.reason, exc.status
        if keep is not None:  # the host's terminal: the game is kept
            return keep(exc.reason), 1
        return "", 1  # this terminal is gone: the seat waits for the grace period

    def board(scr: curses.window, game: Session, note: str) -> Ui:
        ui = board_for(game)(scr, game, note)
        assert isinstance(ui, _Remote)
        session.idle = ui.waiting

        def wake() -> None:  # the key reader's wait ends: it looks at its flags
            ui.heard = True
            if not link.thread.is_alive() or not link.inbox.empty() and _bye(link):
                ui.stop = ui.stop or "the host"
            ui.keys.keyboard.wake()

        link.wake = wake
        return ui

    status = tui.play(session, note, color, board=board, gone=gone)
    if session.host and not left and status == 0:  # the host quit: the game ends
        link.send({"type": "end"})
        try:
            while True:
                session.take(link.inbox.get(timeout=5))
        except (Gone, queue.Empty):
            pass
        return 0
    if seat_file is not None and any(exc.final for exc in left):
        seat_file.remove()
    link.close(bye=not left)
    if status == 0 and not left:
        print(LEFT)
        if back:
            print(f"To come back: {back}")
        sys.stdout.flush()
    return status
