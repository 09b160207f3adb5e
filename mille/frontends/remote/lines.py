"""A remote seat in the line mode (``mille --join --plain``, and
``mille --host --plain``), driven by the same flow as every front end
(``flow.run``) over a :class:`~mille.frontends.remote.seat.RemoteSeat`.
No curses here, nor in anything this imports.

:class:`RemoteLineUi` is the line mode's front end
(:class:`~mille.frontends.plain.LineUi`): the same words, prompts,
refusals and questions as at home.  What only the network has is added:
the lines a table says (who joined, dropped, left or came back, a
computer standing in, whom the table waits for, chat) are told as they
come (:class:`LineSeat`); ``who`` shows the join command and the
seats, ``say WORDS`` says a line to the table, ``start`` (the host, in
the waiting room) starts the game, at any prompt but ``Really?`` and a
file name's, and while the seat waits for the others (a line that is not
one of these waits for the seat's next prompt).  Only the host saves
(its table writes the file), ``o`` is not offered (the host keeps the
hand's order); a joiner is not asked ``Another hand?``: it waits for the
host's deal (saying so).  After a game over every seat is asked
``Another game?``: the same table plays again once everyone at it says
``y``; ``n`` leaves the table (the host's ends it for everyone).  Quitting
ends the game for everyone at the host, and leaves the table elsewhere
(the seat waits; the command to come back is told).  A line to the host that breaks is said, and the seat
taken back (``RemoteSeat.come_back``), as on the boards.

:func:`play_lines` runs it: the seat taken (``seat.sit``: or the one line
that says why not), the game, the exit status (``seat``'s ``*_STATUS``).
"""

from __future__ import annotations

import os
import queue
import sys

from ...engine.table import OVER
from ...i18n import N_, _
from ...net.client import say_message
from ...net.messages import plain
from ...storage import atomic
from .. import flow, process
from ..plain import EndOfInput, Hangup, LineUi, OutputLost, Quit, terminal_columns
from ..plain_board import wrap
from ..questions import DEALS, Question
from ..turns import turn_prompt, wait_line
from .presence import fingerprint_lines, who_lines
from .seat import (
    ENDED_STATUS,
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
    from collections.abc import Callable
    from typing import BinaryIO, TextIO

    from ...engine.table import Move, Outcome
    from ...storage.seatfile import SeatFile
    from .link import Join

LINE_MAX = 4096  # bytes of a typed line
NO_ORDER = N_("o is not offered over the network.")
NOT_HOST = N_("start: only the host starts the game")
STARTED = N_("start: the game has started")
SAY_WHAT = N_("say what? (say and the words, on one line)")
LEAVE = N_("You leave the table; your seat waits for you.")
NETWORK_HELP = N_("""Over the network: who (the join command and the seats), say WORDS (a
line to the table), start (the host, before the game starts); s saves at the
host only; q leaves the table (your seat waits for you), and at the host ends
the game for everyone.""")


class LineSeat(RemoteSeat):
    """The remote seat's game for the line mode: what the table says is
    told at once, through ``out`` (a line each)."""

    out: Callable[[str], None] = staticmethod(lambda line: None)

    def tell(self, line: str) -> None:
        super().tell(line)
        self.out(line)

    def heard_seats(self, first: bool, waited: int | None) -> None:
        """Who is here (and how the game starts) at first; whom the table
        waits for, when that changes."""
        presence = self.presence
        if first:
            for line in who_lines(presence, self.host):
                self.out(line)
        waiting = presence.waiting_for
        if waiting is not None and waiting != waited:
            self.out(
                _("Waiting for {who} (seat {seat}).").format(
                    who=presence.name(waiting), seat=waiting
                )
            )

    def next_hand(self) -> None:
        """The host deals; a joiner says it waits for that (after a game
        over, every seat waits for everyone's answer)."""
        self.drain()
        if self.table.game_over:
            self.out(_(WAITING_AGAIN))
        elif not self.host and self.table.phase == OVER:
            self.out(_(WAITING_DEAL))
        super().next_hand()


class RemoteLineUi(LineUi):
    """The line mode for a remote seat (see the module docstring)."""

    def __init__(
        self,
        session: LineSeat,
        stdin: BinaryIO,
        stdout: TextIO,
        lines: queue.Queue[bytes | None],
    ) -> None:
        super().__init__(session, stdin, stdout)
        self.seat = session.me
        self.remote = session  # (self.remote, as a LineSeat)
        self.lines = lines  # what is typed, a line each (None at the end)
        self.kept: list[bytes | None] = []  # a line typed while waiting, for the next prompt
        self.choosing = False  # at the seat's move prompt, which the table may overtake
        self.turn_seen: int | None = None  # the other person whose turn was told last
        session.out = self.say
        session.idle = self.meanwhile
        session.stop_asked = lambda: self.stop is not None or self.interrupted

    # ----- reading ------------------------------------------------------------

    def next_line(self) -> bytes:
        """The next line typed (``b""`` at the end of the input, which
        stays the end); what the host says meanwhile is taken (and told)."""
        while True:
            if self.kept:
                raw = self.kept.pop(0)
                if raw is None:
                    self.kept.insert(0, None)
                    return b""
                return raw
            self.remote.drain()
            if self.choosing and (self.remote.pending or not self.remote.human_to_move):
                self.write("\n")
                raise Overtaken
            self.signalled()
            try:
                raw = self.lines.get(timeout=WAIT)
            except queue.Empty:
                continue
            self.kept.append(raw)

    def done_here(self, line: str, prompt: str, file_name: bool) -> bool:
        """``who``, ``say`` and ``start`` are done at any prompt but
        ``Really?`` and a file name's."""
        return not file_name and prompt != "Really? " and self.table_word(line)

    def table_word(self, text: str) -> bool:
        """``who``, ``say WORDS`` and (the host, before the game starts)
        ``start``: True if ``text`` was one of them (done)."""
        word, _space, rest = text.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        session = self.remote
        if word == "who" and not rest:
            for line in who_lines(session.presence, session.host):
                self.say(line)
        elif word == "say":
            message = say_message(rest) if rest else None
            if message is not None:
                session.link.send(message)
            else:
                self.say(_(SAY_WHAT))
        elif word == "start" and not rest:
            if session.host and not session.presence.started:
                session.link.send(plain("start"))
            else:
                self.say(_(STARTED) if session.presence.started else _(NOT_HOST))
        else:
            return False
        self.flush()
        return True

    def meanwhile(self) -> None:
        """While the host is awaited (another seat decides): the signals,
        whose turn it is when another person's comes (``Bob's turn.``), and
        a line typed meanwhile: ``who``, ``say`` and ``start`` are done;
        typed at a terminal, ``q`` asks ``Really?``, ``s`` saves (the
        host), ``l``, ``t``, ``w``, ``r`` and ``?`` are done at once, and
        any other line is refused at once (``Wait: it is Bob's turn.``):
        nothing typed out of turn acts later, unseen.  A script's lines
        (piped, echoed) wait for the seat's prompt, in order."""
        self.checkpoint()
        self.tell_turn()
        self.flush()
        if self.kept or self.remote.awaiting:  # (a move of ours is under way)
            return
        try:
            raw = self.lines.get_nowait()
        except queue.Empty:
            return
        self.kept.append(raw)
        if raw is None:
            if not self.remote.presence.started:  # the waiting room: nothing will start it
                raise EndOfInput
            return
        self.kept.pop()
        text = raw.decode("utf-8", "replace").strip()
        if self.table_word(text):
            return
        if self.echo:  # a script's lines wait their turn
            self.kept.append(raw)
            return
        letter = text.lower()
        if letter == "q":
            self.really()
        elif letter == "s":
            self.save()
        elif letter in ("l", "t", "w", "r", "?"):
            self.do(letter)
        elif text:
            self.say(wait_line(self.remote, self.seat))
        self.flush()

    def tell_turn(self) -> None:
        """Another person's turn, once when it comes (``Bob's turn.``; in
        a hand of people and computers, only the people's are told: a
        computer answers at once)."""
        session = self.remote
        seat = session.table.current_player
        if session.pending or seat is None or seat == self.seat or not session.presence.started:
            return
        if seat == self.turn_seen or seat not in session.people:
            return
        self.turn_seen = seat
        self.say(turn_prompt(session, self.seat) + ".")

    # ----- the dialogues a remote seat has its own way -------------------------

    def human_turn(self) -> None:
        self.turn_seen = None  # the next person's turn is told again
        super().human_turn()

    def read_move(self) -> Move | None:
        self.choosing = True
        try:
            return super().read_move()
        except Overtaken:
            return None
        finally:
            self.choosing = False

    def ask(self, question: Question, can_save: bool = True) -> bool:
        host = self.remote.host
        if question is Question.SAVE_GAME:  # the host holds the game: only it saves
            return host and flow.ask(self, question, can_save=False)
        if question is Question.ANOTHER_GAME:  # everyone at the table is asked
            return flow.ask(self, question, can_save=False)
        if question in DEALS and not host:
            return True  # the host deals (or ends the game): the seat waits for it
        return flow.ask(self, question, can_save and host)

    def save(self) -> bool:
        """The host's save dialogue, the file written by the host's table;
        another seat is told who saves."""
        return save_at_host(self, self.remote, self.say)

    def really(self) -> None:
        """``q``: ``Really?``; the host, ending the game for everyone, is
        then asked ``Save game?``, as on its board (a save that fails
        keeps the game going)."""
        try:
            flow.really(self)
        except Quit:
            if self.remote.host and self.ask(Question.SAVE_GAME) and not self.save():
                return
            raise

    def do(self, letter: str) -> None:
        if letter == "q":
            self.really()
        elif letter == "o":
            self.say(_(NO_ORDER))
        elif letter == "?":
            super().do(letter)
            self.say(_(NETWORK_HELP))
        else:
            super().do(letter)

    def played(self, outcome: Outcome) -> None:
        """As at home, and what the move did is told at once (the next
        seat may be a person, who takes its time)."""
        super().played(outcome)
        self.tell_events()
        self.flush()

    def introduce(self) -> None:
        super().introduce()
        self.flush()

    def started(self) -> None:
        """Before the game starts (the waiting room) the seat waits for it,
        reading ``who``, ``say`` and the host's ``start`` meanwhile."""
        super().started()
        self.flush()
        session = self.remote
        while not session.presence.started:
            if self.kept and self.kept[0] is None:  # nothing more will be typed
                raise EndOfInput
            session.wait()


# ----- running one --------------------------------------------------------------


def read_lines(stdin: BinaryIO, lines: queue.Queue[bytes | None]) -> None:
    """Standard input's lines into ``lines`` (None at its end); run in a
    daemon thread, which a blocked read does not keep from exiting (it
    reads the descriptor, not the buffered file, whose lock would)."""
    try:
        fd: int | None = stdin.fileno()
    except (AttributeError, ValueError, OSError):
        fd = None
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 4096) if fd is not None else stdin.readline(LINE_MAX)
        except (OSError, ValueError):
            chunk = b""
        if not chunk:
            if pending:
                lines.put(pending[:LINE_MAX])
            lines.put(None)
            return
        pending += chunk
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            lines.put(raw[:LINE_MAX])
        pending = pending[-LINE_MAX:]


def sayer(out: TextIO) -> Callable[[str], None]:
    """What the seat says before its line mode starts (and what the link
    says meanwhile): a line to ``out``, cut between words at its terminal's
    width as the line mode cuts its own (a pipe gets whole lines); an
    output gone is let be.

    >>> import io
    >>> sayer(io.StringIO())("You sit at seat 1.")
    """
    columns = terminal_columns(out)  # (0 on a pipe, a file or a fake)

    def say(line: str) -> None:
        try:
            out.write(wrap(line, columns) + "\n")
            out.flush()
        except (OSError, ValueError):
            pass

    return say


def play_lines(
    join: Join,
    *,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    keep: Callable[[str], str] | None = None,
    seat_file: SeatFile | None = None,
) -> int:
    """A remote seat in the line mode until the game ends, the player
    leaves or the host goes away; the exit status.  The host's own seat
    (``mille --host``): ``keep`` keeps the game after a hang-up (the line
    to tell), and quitting ends the game for everyone.  ``seat_file``
    keeps a joiner's token."""
    source = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout

    say = sayer(out)
    seated = sit(join, seat_file, say)
    if isinstance(seated, int):
        return seated
    session = LineSeat.seated(seated)
    if session.watching:
        say(_("You watch this table: you see no hand, and your lines reach the watchers alone."))
    elif session.host:
        say(
            _(
                "You sit at seat {seat} (you host this table: only you may deal, save or end)."
            ).format(seat=session.me)
        )
    else:
        say(_("You sit at seat {seat}.").format(seat=session.me))
    if session.name_refused:
        say(session.name_refused)
    if not session.host:  # to check with the host, over the phone
        for line in fingerprint_lines(join.fingerprint):
            say(line)
    for line in session.said:  # told by the first update (a computer played for you)
        say(line)
    lines: queue.Queue[bytes | None] = queue.Queue()
    atomic.thread(read_lines, source, lines, name="mille-lines").start()
    ui = RemoteLineUi(session, source, out, lines)
    session.notice = say
    undo = process.route_exit_signals(ui.on_signal)
    status = ENDED_STATUS
    left: Gone | None = None
    try:
        session.hear_early()
        ui.run()
    except Quit:
        pass
    except EndOfInput:
        if session.host and keep is not None and ui.changed:  # kept, as at home
            process.tell_after(out, keep(N_("end of input")))
            session.link.close(bye=False)
            return ENDED_STATUS
    except Gone as exc:
        left = exc
        say(exc.reason)
    except Hangup as exc:
        status = 1
        if keep is not None:
            process.tell_after(out, keep(exc.reason))
    except OutputLost:
        status = 1
        if keep is not None:
            process.tell_after(out, keep(N_("output lost")))
    finally:
        for restore in undo:
            restore()
    return session.finish(status, left, seat_file, say, _(LEAVE), join.back)
