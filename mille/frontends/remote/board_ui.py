"""A remote seat on the boards (``mille --join`` and ``mille --host`` on a
terminal): the same board as a local game, driven by the same flow
(``flow.run``) over a :class:`~mille.frontends.remote.seat.RemoteSeat`,
no second loop.  The link wakes the board's key wait through its wake-up
pipe (no signal) when the host says something.

The table's lines (who joined, dropped, left or came back, a computer
standing in, chat) are shown on the error line (whole on BSD's board) and
in the row board's log; the boards mark the names.  ``J`` shows the
table's page (``presence.table_lines``); before the game starts it is the
host's waiting room (RETURN starts).  ``C`` says a line to the table.  A
prompt the table overtakes (a hidden question answered, the host's deal)
is left, so the board follows the table.  A line to the host that breaks
is said on the error line, and the seat comes back by itself
(``RemoteSeat.come_back``), as in the line mode.

The board's dialogues a joiner may not have are its own
(:class:`RemoteBsdUi`, :class:`RemoteTableUi`): ``S`` says only the host
saves, ``O`` is not offered (the hand's order is the host's),
``Save game?`` is asked of the host alone (at the end, and after its
``Q``), and ``Another hand?`` ``y`` waits for the host's deal, ``n``
leaves.  The host's own seat (``mille --host`` on a terminal) is played
the same way, over loopback: its ``S`` has the host's table write the
file, its quitting ends the game for everyone, and a hang-up keeps the
game as the line mode's does.
"""

from __future__ import annotations

from ...engine.describe import stand_in_name
from ...engine.moves import Move
from ...engine.table import OVER
from ...i18n import N_, _
from ...net.client import say_message
from ...net.messages import plain
from .. import flow
from ..curses_keys import CTRL_C, CTRL_L, ESC, NEWLINE, RESIZE, RETURN, SPACE
from ..questions import DEALS, Question
from ..screen import MOVE_PROMPT
from ..table_ui import TableUi
from ..turns import turn_prompt, wait_line
from ..ui import Ui
from .presence import WAITING_HOST_LINE, fingerprint_lines, table_lines
from .seat import (
    BACK_AGAIN,
    BROKE,
    RECONNECTING,
    WAIT,
    WAITING_AGAIN,
    WAITING_DEAL,
    Gone,
    Overtaken,
    RemoteSeat,
    save_at_host,
    sit,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import curses
    from collections.abc import Callable

    from ...game.protocol import Game
    from ...storage.seatfile import SeatFile
    from .link import Join

NO_ORDER = N_("O is not offered over the network (the host keeps the hand's order).")
LEFT = N_("You left the table; a computer plays your seat after the grace period.")
SAY_MAX = 200  # bytes typed at the board's say: prompt (then cut as the host cuts: limits.say_text)
NEWS_SHOWN = 3  # the table's lines said at once put together on the error line


if TYPE_CHECKING:
    _Base = Ui
else:
    _Base = object


class _Remote(_Base):
    """The dialogues of a remote seat's board (see the module docstring)."""

    painted: tuple[int, int, int] = (0, 0, 0)  # the table, log and news last drawn waiting

    save_after_game = False  # a game won is over: nothing to save
    news_shown = 0  # the table's lines already put on the error line
    choosing = False  # at the seat's own prompt (its move), which the table may overtake
    asking_deal = False  # a joiner at Another hand?, which the host's deal overtakes

    def __init__(self, scr: curses.window, session: RemoteSeat, message: str = "") -> None:
        super().__init__(scr, session, message)
        self.remote = session  # the game, as the remote seat it is (its link, its table's talk)

    def take_news(self) -> None:
        """The link woke the key reader (the host said something): take it
        and draw it."""
        session = self.remote
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
        session = self.remote
        if session.news == self.news_shown:
            return
        new = min(session.news - self.news_shown, NEWS_SHOWN)
        self.news_shown = session.news
        if session.said:
            self.note("  ".join(session.said[-new:]))

    def started(self) -> None:
        """The game's first screen; before the game starts (the waiting
        room), the host sees the table page, a joiner is told whom it waits for."""
        super().started()
        session = self.remote
        session.drain()
        if session.news > self.news_shown:  # (back: a computer played, the name kept)
            self.keep_note = True  # stays while the moves missed are shown
        self.show_news()
        if not session.presence.started:
            if session.host:
                self.show_table()
            else:
                session.tell(_(WAITING_HOST_LINE))
                self.show_news()
                self.render()

    def show_table(self) -> None:
        """J: the table's page (the join command, the seats, the last
        lines), kept up to date until a key; in the waiting room the host's
        RETURN starts the game, which also starts once every seat is taken."""
        session = self.remote
        screen = self.screen

        def page() -> list[str]:  # at the terminal's size now
            height, width = screen.scr.getmaxyx()
            return table_lines(session.presence, session.host, session.said, width - 1, height)

        screen.page = page
        room = not session.presence.started
        shown = -1
        try:
            while True:
                self.checkpoint()
                session.drain()
                if room and session.presence.started:
                    return  # every seat is taken: the game starts
                if self.look_at_flags():
                    shown = -1
                if session.taken != shown:
                    shown = session.taken
                    self.render()
                key = self.keys.next_byte(WAIT)
                if key is None:
                    continue
                if key == RESIZE:
                    self.follow_resize()
                    shown = -1
                    continue
                if key == CTRL_L:
                    self.redraw()
                    continue
                if room and session.host and key in (RETURN, NEWLINE, SPACE):
                    session.link.send(plain("start"))
                return
        finally:
            screen.page = None
            self.heard = True  # what came meanwhile is looked at again (a prompt overtaken)
            self.show_news()
            self.render()

    def chat(self) -> None:
        """C: a line to the table (``say:``), sent to every seat."""
        session = self.remote
        screen = self.screen
        kept = screen.prompt, screen.echo, screen.ghost
        try:
            text = self.read_line(N_("say:"), SAY_MAX).decode("utf-8", "replace").strip()
        finally:
            screen.prompt, screen.echo, screen.ghost = kept
        message = say_message(text) if text else None
        if message is not None:
            session.link.send(message)

    @property
    def is_host(self) -> bool:
        return self.remote.host

    def save(self) -> bool:
        """The host's save dialogue (``file:``, ``Overwrite file?``), the
        file written by the host's table; another seat is told who saves."""
        return save_at_host(self, self.remote, self.error)

    def read_move(self) -> Move | None:
        """The seat's command at ``>>:Move:``; None (nothing done) if the
        table moves on meanwhile: the flow then shows the moves, and the
        board follows the table while it waits at any prompt.  A ``Wait:``
        said to a key pressed out of turn goes: it is your turn now."""
        if self.screen.message.startswith("Wait: "):
            self.screen.message = ""
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
            if self.is_host and self.ask(Question.SAVE_GAME) and not self.save():
                return
            raise

    def ask(self, question: Question, can_save: bool = True) -> bool:
        if question is Question.SAVE_GAME:  # the host holds the game: only it saves
            return self.is_host and flow.ask(self, question, can_save=False)
        if question in DEALS and not self.is_host:
            self.asking_deal = True
            try:
                answer = flow.ask(self, question, can_save=False)
            except Overtaken:  # the host dealt meanwhile: the next hand is on
                return True
            finally:
                self.asking_deal = False
            if answer:
                self.note(WAITING_AGAIN if question is Question.ANOTHER_GAME else WAITING_DEAL)
                self.render()
            return answer
        if question is Question.ANOTHER_GAME:  # (the host's: it waits for everyone's answer)
            answer = flow.ask(self, question, can_save=False)
            if answer:
                self.note(WAITING_AGAIN)
            return answer
        return flow.ask(self, question, can_save and self.is_host)

    def toggle_order(self) -> None:
        self.error(NO_ORDER)

    def look_at_flags(self) -> bool:
        """While the host is awaited, between two looks at the keys: the
        terminal's size followed, the news left to the session (drained
        here), ^C's ``Really?``; True if the board is to be painted again."""
        again = self.winched or (self.interrupted and not self.in_really)
        self.heard = False
        if self.winched:
            self.winched = False
            self.sync_size()
        if self.interrupted and not self.in_really:
            self.interrupted = False
            self.really()
        return again

    def follow_resize(self) -> None:
        """A resize key: where curses does not follow the size itself, the screen does."""
        if self.keys.keyboard.size() is None:
            self.screen.resized()

    def waiting(self) -> None:
        """While the host is awaited (another seat decides): the prompt's
        place says whose turn it is (``Bob's turn``, not ``>>:Move:``); the
        signals as between two moves, a resize repainted; ^C and Q ask
        ``Really?`` (y leaves), S says who saves, J shows the table, C
        says a line, L shows the hand so far, ? the help, T the tracker,
        R and ^L redraw; any other key is refused at once (``Wait: it is
        Bob's turn.``): nothing typed out of turn is kept to act later."""
        self.checkpoint()
        session = self.remote
        screen = self.screen
        mine = session.mine_next
        turn = turn_prompt(session, self.seat)
        if not mine and (screen.prompt, screen.echo, screen.ghost) != (turn, "", ""):
            screen.set_prompt(turn)  # what was typed or answered is done
        self.show_news()
        shown = (id(session.table), len(session.log), session.taken)
        if shown != self.painted:  # what the host said meanwhile, on the board
            self.painted = shown
            self.render()
        if self.look_at_flags():
            self.render()
        if mine:  # your move's answer, or your turn, is coming: keys wait for it
            return
        key = self.keys.next_byte(WAIT)
        if key is None:
            return
        if key == RESIZE:
            self.follow_resize()
            self.render()
            return
        char = chr(key).upper() if 0 <= key < 128 else ""
        if char == "Q":
            self.really()
        elif char == "S":
            self.save()
        elif char == "J":
            self.show_table()
        elif char == "C":
            self.chat()
        elif char == "L":
            self.show_log()
        elif char == "?":
            self.show_help()
        elif char == "T":
            self.toggle_tracker()
        elif char == "R" or key == CTRL_L:
            self.redraw()
        elif key == ESC:
            self.keys.escape_sequence()  # an arrow key, read whole
            self.error(wait_line(session, self.seat))
        elif key not in (RETURN, NEWLINE, SPACE):
            self.error(wait_line(session, self.seat))
        screen.set_prompt(turn_prompt(session, self.seat))
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
        session = self.remote
        self.screen.awaited = ""
        if not session.presence.started:
            self.screen.awaited = _("the host to start")  # the waiting room: nobody thinks
            return ""
        seat = session.table.current_player
        if not name or seat is None:
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


def board_for(session: RemoteSeat) -> type[_Remote]:
    from ..tui import board_class

    return RemoteBsdUi if board_class(session) is Ui else RemoteTableUi


def say(line: str) -> None:
    """A line on standard output, at once (before curses starts, or after)."""
    print(line, flush=True)


def play_board(
    join: Join,
    color: bool = True,
    *,
    note: str = "",
    keep: Callable[[str], str] | None = None,
    seat_file: SeatFile | None = None,
) -> int:
    """A remote seat on its board (``mille --join`` on a terminal); the
    exit status.  The host's own seat (``mille --host``) too: ``note`` on
    the error line first (the join command), ``keep`` keeps the game after
    a hang-up (the line to tell), and quitting ends the game for everyone.
    ``seat_file`` keeps a joiner's token."""
    from .. import tui

    seated = sit(join, seat_file, say)  # before curses: a refusal is one line
    if isinstance(seated, int):
        return seated
    session = RemoteSeat.seated(seated)
    session.hear_early()
    if session.name_refused:  # among the table's lines
        session.tell(session.name_refused)
    if join.fingerprint and not session.host:  # the first screen: to check with the host
        session.tell(" ".join(fingerprint_lines(join.fingerprint)[:1]) + " " + join.fingerprint)
    link = seated.link
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

    def board(scr: curses.window, game: Game, note: str) -> Ui:
        ui = board_for(session)(scr, session, note)  # (the game is this seat's)
        session.idle = ui.waiting

        kept: list[tuple[str, str, str]] = []  # the prompt while reconnecting

        def notice(line: str) -> None:  # the line to the host broke, or is back
            screen = ui.screen
            if line == _(BROKE):  # the prompt's place says so, not >>:Move:
                kept[:] = [(screen.prompt, screen.echo, screen.ghost)]
                screen.set_prompt(_(RECONNECTING))
            elif line == _(BACK_AGAIN) and kept:
                screen.prompt, screen.echo, screen.ghost = kept.pop()
            ui.note(line)
            ui.render()

        def wake() -> None:  # the key reader's wait ends: it looks at its flags
            ui.heard = True
            if session.link.has_bye():
                ui.stop = ui.stop or N_("the host")
            ui.keys.keyboard.wake()

        def stop_asked() -> bool:  # while coming back: ^C, SIGTERM, SIGHUP
            return ui.stop is not None or ui.interrupted or ui.keys.next_byte(0) == CTRL_C

        session.notice = notice
        session.stop_asked = stop_asked
        link.wake = wake
        return ui

    status = tui.play(session, note, color, board=board, gone=gone)
    return session.finish(status, left[0] if left else None, seat_file, say, _(LEFT), join.back)
