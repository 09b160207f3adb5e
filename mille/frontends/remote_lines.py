"""``mille --join --plain`` (and ``mille --host --plain``): a remote seat
in the line mode, driven by the same flow as every front end
(``flow.run``) over a :class:`~mille.frontends.remote_ui.RemoteSession`.

:class:`RemoteLineUi` is the line mode's front end
(:class:`~mille.frontends.plain.LineUi`): the same words, prompts,
refusals and questions as at home.  What only the network has is added:
the lines a table says (who joined, dropped, left or came back, a
computer standing in, whom the table waits for, chat) are told as they
come (:class:`LineSession`); ``who`` shows the join command and the
seats, ``say WORDS`` says a line to the table, ``start`` (the host, in
the waiting room) starts the game, at any prompt but ``Really?`` and a
file name's, and while the seat waits for the others (a line that is not
one of these waits for the seat's next prompt).  Only the host saves
(its table writes the file), ``o`` is not offered (the host keeps the
hand's order); a joiner is not asked ``Another hand?``: it waits for the
host's deal (saying so).  Quitting ends the game for
everyone at the host, and leaves the table elsewhere (the seat waits;
the command to come back is told).  A line to the host that breaks is
said, and the seat taken back (:func:`relink`: ten tries, a second
apart), with what the host said since.

:func:`play_lines` runs it: the welcome (or the one line that says why
not), the game, the exit status (``net.client``'s ``*_STATUS``).
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time

from ..engine.table import OVER
from ..net.client import (
    ENDED_STATUS,
    FAILED_STATUS,
    GONE,
    GONE_STATUS,
    NOT_WELCOMED,
    REFUSED_STATUS,
    keep_token,
    name_refused,
    said_line,
)
from ..net.wire import ENDED, PROTOCOL, TABLE_OVER, bye_code, shown
from . import flow, process
from .plain import EndOfInput, Hangup, LineUi, OutputLost, Quit
from .remote_ui import WAIT, Gone, Link, Overtaken, RemoteSession, before_seat

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Callable
    from typing import Any, BinaryIO, TextIO

    from ..engine.table import Move, Outcome
    from ..storage.seatfile import SeatFile

LINE_MAX = 4096  # bytes of a typed line
ONLY_HOST = "Only the host may save (a save holds every hand)."
NO_ORDER = "o is not offered over the network."
NOT_HOST = "start: only the host starts the game"
STARTED = "start: the game has started"
SAY_WHAT = "say what? (say and the words, on one line)"
START_LINE = (
    "Type start to begin now (a computer plays each empty seat until its person "
    "joins); the game starts by itself when every seat is taken."
)
WAITING_START = "Waiting for the host to start the game."
WAITING_DEAL = "Waiting for the host to deal."
LEAVE = "You leave the table; your seat waits for you."
BROKE = "mille: the line to the host broke; trying again"
BROKE_MOVE = "the line to the host broke: try again"
RETRIES = 10  # tries to come back after the line to the host broke, a second apart
NETWORK_HELP = """Over the network: who (the join command and the seats), say WORDS (a
line to the table), start (the host, before the game starts); s saves at the
host only; q leaves the table (your seat waits for you), and at the host ends
the game for everyone."""


class LineSession(RemoteSession):
    """The remote seat's game for the line mode: what the table says is
    told at once, through ``out`` (a line each)."""

    out: Callable[[str], None] = staticmethod(lambda line: None)
    # the line to the host broke: a new link to the seat, or None (see relink)
    relink: Callable[[LineSession], Link | dict[str, Any] | None] = staticmethod(
        lambda session: None
    )
    token = ""  # the seat's token (to come back to it)

    def tell(self, line: str) -> None:
        super().tell(line)
        self.out(line)

    def take(self, message: dict[str, Any] | None) -> None:
        if message is None or message.get("type") == "broken":
            link = self.relink(self)  # the line broke: back to the seat, if it can be
            if isinstance(link, Link):
                self.link = link
                self.taken += 1
                self.resumed()
                return
            if link is not None:  # the host's refusal or goodbye: the seat is gone
                text = shown(link.get("message") or link.get("reason"), 120)
                code = link.get("code")
                if link.get("type") == "bye":
                    status = ENDED_STATUS if bye_code(link) == ENDED else GONE_STATUS
                else:
                    status = ENDED_STATUS if code == TABLE_OVER else REFUSED_STATUS
                raise Gone(f"mille: {text}", status, final=True)
        if message is None or message.get("type") != "seats":
            super().take(message)
            return
        self.taken += 1
        presence = self.presence
        first = not presence.heard
        waited = presence.waiting_for
        for line in presence.take(message):
            self.tell(line)
        if first:  # who is here (and how the game starts)
            for line in who_lines(self):
                self.out(line)
        waiting = presence.waiting_for
        if waiting is not None and waiting != waited:
            self.out(f"Waiting for {presence.name(waiting)} (seat {waiting}).")

    def resumed(self) -> None:
        """Back at the seat: what the host said since (its update first);
        a move or save whose answer was lost is refused, to be made again."""
        while True:
            try:
                message = self.link.inbox.get(timeout=10)
            except queue.Empty:
                message = None
            self.take(message)
            if message is None or message.get("type") == "update":
                break
        self.drain()
        if self.awaiting:
            self.awaiting, self.refusal = False, BROKE_MOVE
        if self.saved is None:
            self.saved = {"ok": False, "reason": BROKE_MOVE}

    def next_hand(self) -> None:
        """The host deals; a joiner says it waits for that."""
        self.drain()
        if not self.host and self.table.phase == OVER:
            self.out(WAITING_DEAL)
        super().next_hand()


def who_lines(session: RemoteSession) -> list[str]:
    """``who``: the join command and who sits where (and, before the game
    starts, how the host starts it)."""
    presence = session.presence
    lines = [f"To join this table: {presence.join}"] if presence.join else []
    lines += ["Seats:", *presence.seat_lines()]
    if not presence.started:
        lines.append(START_LINE if session.host else WAITING_START)
    return lines


class RemoteLineUi(LineUi):
    """The line mode for a remote seat (see the module docstring)."""

    def __init__(
        self,
        session: LineSession,
        stdin: BinaryIO,
        stdout: TextIO,
        lines: queue.Queue[bytes | None],
    ) -> None:
        super().__init__(session, stdin, stdout)
        self.seat = session.me
        self.remote = session  # (self.remote, as a LineSession)
        self.lines = lines  # what is typed, a line each (None at the end)
        self.kept: list[bytes | None] = []  # a line typed while waiting, for the next prompt
        self.choosing = False  # at the seat's move prompt, which the table may overtake
        session.out = self.say
        session.idle = self.meanwhile

    # ----- reading ------------------------------------------------------------

    def next_line(self) -> bytes | None:
        """The next line typed (None at the end of the input); what the
        host says meanwhile is taken (and told)."""
        while True:
            if self.kept:
                return self.kept.pop(0)
            self.remote.drain()
            if self.choosing and (self.remote.pending or not self.remote.human_to_move):
                raise Overtaken
            if self.stop is not None:
                raise Hangup(self.stop)
            if self.interrupted:
                self.interrupted = False
                raise KeyboardInterrupt
            try:
                return self.lines.get(timeout=WAIT)
            except queue.Empty:
                continue

    def read_line(self, prompt: str, file_name: bool = False) -> str:
        """As at home (``LineUi.read_line``), from the lines typed, with
        ``who``, ``say`` and ``start`` done at any prompt but ``Really?``
        and a file name's."""
        words = not file_name and prompt != "Really? "
        while True:
            self.checkpoint()
            self.write(prompt, flush=True)
            try:
                raw = self.next_line()
            except KeyboardInterrupt:
                self.write("\n")
                if self.in_really or self.ask("Really?"):
                    raise Quit from None
                continue
            except Overtaken:
                self.write("\n")
                raise
            if raw is None:
                self.kept.insert(0, None)  # (the end stays the end)
                self.write("\n")
                raise EndOfInput
            line = (os.fsdecode(raw) if file_name else raw.decode("utf-8", "replace")).strip()
            if self.echo:
                from ..engine.text import escape

                self.write(escape(line)[:80] + "\n")
            if words and self.table_word(line):
                continue
            return line

    def table_word(self, text: str) -> bool:
        """``who``, ``say WORDS`` and (the host, before the game starts)
        ``start``: True if ``text`` was one of them (done)."""
        word, _, rest = text.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        session = self.remote
        if word == "who" and not rest:
            for line in who_lines(session):
                self.say(line)
        elif word == "say":
            if rest:
                session.link.send({"type": "say", "text": rest})
            else:
                self.say(SAY_WHAT)
        elif word == "start" and not rest:
            if session.host and not session.presence.started:
                session.link.send({"type": "start"})
            else:
                self.say(STARTED if session.presence.started else NOT_HOST)
        else:
            return False
        self.flush()
        return True

    def meanwhile(self) -> None:
        """While the host is awaited (another seat decides): the signals,
        and a line typed meanwhile: ``who``, ``say`` and ``start`` are done,
        ``q`` typed at a terminal asks ``Really?``, ``s`` saves (the host); another line waits for the seat's prompt
        (and the lines after it)."""
        self.checkpoint()
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
        if text.lower() in ("q", "s") and not self.echo:  # typed now (a script's waits its turn)
            if text.lower() == "q":
                flow.really(self)
            else:
                self.save()
            self.flush()
            return
        self.kept.append(raw)

    # ----- the dialogues a remote seat has its own way -------------------------

    def read_move(self) -> Move | None:
        self.choosing = True
        try:
            return super().read_move()
        except Overtaken:
            return None
        finally:
            self.choosing = False

    def ask(self, question: str, can_save: bool = True) -> bool:
        host = self.remote.host
        if question == "Save game?":  # the host holds the game: only it saves
            return host and flow.ask(self, question, can_save=False)
        if question in ("Another hand?", "Another game?") and not host:
            return True  # the host deals (or ends the game): the seat waits for it
        return flow.ask(self, question, can_save and host)

    def save(self) -> bool:
        """The host's save dialogue (``file:``, ``Overwrite file?``), the
        file written by the host's table; another seat is told who saves."""
        session = self.remote
        if not session.host:
            self.say(ONLY_HOST)
            return False
        name = self.read_file_name()
        if not name:
            return False
        if os.path.exists(name) and not self.ask("Overwrite file?", can_save=False):
            return False
        answer = session.save_to(name)
        if answer.get("ok"):
            self.say(f"{shown(answer.get('file'), 100)} [{shown(answer.get('when'), 40)}]")
            self.changed = False
            return True
        self.say(shown(answer.get("reason"), 100))
        return False

    def do(self, letter: str) -> None:
        if letter == "o":
            self.say(NO_ORDER)
        elif letter == "?":
            super().do(letter)
            self.say(NETWORK_HELP)
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


def relink(
    address: str, port: int, hello: dict[str, Any], context: ssl.SSLContext | None
) -> Callable[[LineSession], Link | dict[str, Any] | None]:
    """What a seat whose line to the host broke does: says so, and tries
    ``RETRIES`` times, a second apart, to take its seat back (with its
    token, from the version last seen); the new link (welcomed, the update
    since to come), the host's refusal, or None."""

    def again(session: LineSession) -> Link | dict[str, Any] | None:
        session.out(BROKE)
        resume = {
            "type": "hello",
            "protocol": PROTOCOL,
            "code": hello.get("code"),
            "token": session.token,
            "version": session.version,
        }
        for attempt in range(RETRIES):
            if attempt:
                time.sleep(1)
            link = Link(address, port, resume, context)
            link.start()
            while True:
                try:
                    message = link.inbox.get(timeout=10)
                except queue.Empty:
                    message = None
                if message is None or message.get("type") in ("unreached", "broken"):
                    link.close(bye=False)
                    break
                if message.get("type") in ("error", "bye"):
                    link.close(bye=False)
                    return message
                if message.get("type") == "welcome":
                    return link
        return None

    return again


def play_lines(
    address: str,
    port: int,
    hello: dict[str, Any],
    context: ssl.SSLContext | None,
    *,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    keep: Callable[[str], str] | None = None,
    seat_file: SeatFile | None = None,
    back: str = "",
    patience: float = 0.0,
) -> int:
    """A remote seat in the line mode until the game ends, the player
    leaves or the host goes away; the exit status.  The host's own seat
    (``mille --host``): ``keep`` keeps the game after a hang-up (the line
    to tell), and quitting ends the game for everyone.  ``seat_file``
    keeps a joiner's token, ``back`` is the command that comes back to
    the seat (told on leaving)."""
    source = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    link = Link(address, port, hello, context, patience)
    link.start()
    welcome: dict[str, Any] | None = None
    early: list[dict[str, Any]] = []  # who sits where, said before the first update
    while True:
        message = link.inbox.get()
        if message is None:
            say(GONE if welcome is not None else NOT_WELCOMED)
            return GONE_STATUS if welcome is not None else FAILED_STATUS
        kind = message.get("type")
        status = before_seat(message, link, address, port, seat_file, say)
        if status is not None:
            return status
        if kind == "waiting":
            continue
        if kind == "welcome":
            if message.get("protocol") != PROTOCOL:
                say(
                    f"mille: the host speaks mille protocol {shown(message.get('protocol'), 10)}, "
                    f"not {PROTOCOL}: play with the same version of mille"
                )
                link.close(bye=False)
                return REFUSED_STATUS
            welcome = message
            keep_token(seat_file, int(message.get("seat", 0)), str(message.get("token")))
            role = (
                " (you host this table: only you may deal, save or end)"
                if message.get("host")
                else ""
            )
            say(f"You sit at seat {shown(message.get('seat'), 4)}{role}.")
            refused = name_refused(message)
            if refused:
                say(refused)
        elif kind == "seats":
            early.append(message)
        elif kind == "said" and welcome is not None:
            line = said_line(message, int(welcome.get("seat", 0)))
            if line is not None:
                say(line)
        elif kind == "update" and welcome is not None:
            break
    session = LineSession(link, welcome, message)
    session.token = str(welcome.get("token", ""))
    session.relink = relink(address, port, hello, context)
    lines: queue.Queue[bytes | None] = queue.Queue()
    threading.Thread(target=read_lines, args=(source, lines), daemon=True).start()
    ui = RemoteLineUi(session, source, out, lines)
    undo = []
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"):
        import signal

        signum = getattr(signal, name, None)
        if signum is not None:
            try:
                undo.append(process.route(signum, ui.on_signal))
            except (ValueError, OSError):  # not the main thread
                pass
    status = 0
    left: Gone | None = None
    try:
        for said in early:
            session.take(said)
        ui.run()
    except Quit:
        status = ENDED_STATUS
    except EndOfInput:
        status = ENDED_STATUS
        if session.host and keep is not None and ui.changed:  # kept, as at home
            _tell(out, keep("end of input"))
            link.close(bye=False)
            return ENDED_STATUS
    except Gone as exc:
        left = exc
        _say_quietly(out, exc.reason)
        status = exc.status
    except Hangup as exc:
        status = 1
        if keep is not None:
            _tell(out, keep(exc.reason))
    except OutputLost:
        status = 1
        if keep is not None:
            _tell(out, keep("output lost"))
    finally:
        for restore in undo:
            restore()
    if left is not None:
        if seat_file is not None and left.final:
            seat_file.remove()
        link.close(bye=False)
        return status
    if session.host and status == ENDED_STATUS:  # the host quit: the game ends
        link.send({"type": "end"})
        try:
            while True:
                session.take(link.inbox.get(timeout=5))
        except Gone as exc:
            _say_quietly(out, exc.reason)
        except queue.Empty:
            pass
        link.close(bye=False)
        return ENDED_STATUS
    if status == ENDED_STATUS and not session.host:
        try:
            ui.say(LEAVE)
            if back:
                ui.say(f"To come back: {back}")
            ui.flush()
        except OutputLost:
            pass
    link.close(bye=status == ENDED_STATUS)
    return status


def _say_quietly(out: TextIO, line: str) -> None:
    try:
        out.write(line + "\n")
        out.flush()
    except (OSError, ValueError):
        pass


def _tell(out: TextIO, line: str) -> None:
    """The line that says where the game is kept, on standard error."""
    try:
        out.flush()
    except (OSError, ValueError):
        pass
    try:
        print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
