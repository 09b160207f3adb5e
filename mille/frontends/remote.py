"""``mille --host`` and ``mille --join``: the line mode over the network.

:class:`LineClient` plays a seat of a table held by a host
(:mod:`mille.net.server`), in plain lines: it tells the moves its seat may
see (the log's words), shows the table and the hand at each turn, reads
the line mode's commands and sends the moves; the host's engine checks
them.  ``who`` shows the join command and the seats, ``say WORDS`` says a
line to the table, ``start`` (the host) ends the waiting room; who comes
and goes is told as it happens (``net.client.Presence``).  :func:`join` runs it for ``mille --join``; :func:`host` starts the
server in a thread of its own, shows the command to give the others, and
runs a :class:`LineClient` for the host's own seat (or its board:
``remote_ui.play_board``).  A hang-up, SIGTERM or
a lost terminal on the host keeps the game in the recovery file
(``process.keep``), which the next ``mille --host`` offers.

A joiner that starts before the host waits for it (``--wait``), and ends
with a status that says what happened (``net.client``'s ``*_STATUS``: the
game ended or the player left, no host reached, the seat refused, the
line lost).  The join command shown names an address the others can
reach (:func:`join_command`).

Every string that came over the network (names, messages) is escaped
before it is printed.  With ``--plain`` (or off a terminal, for the
host) a seat plays in lines, else on the board
(:mod:`mille.frontends.remote_ui`).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading

from ..engine import describe
from ..engine.moves import Move
from ..engine.text import escape
from ..net.client import (
    ENDED_STATUS,
    FAILED_STATUS,
    GONE,
    GONE_STATUS,
    NOT_WELCOMED,
    REFUSED_STATUS,
    TABLE_GONE,
    WAIT_FOR_HOST,
    Client,
    Presence,
    Remote,
    address_text,
    keep_token,
    name_refused,
    said_line,
    waiting_line,
)
from ..net.client import failure_reason as _reason
from ..net.wire import (
    DEFAULT_PORT,
    ENDED,
    FATAL,
    PROTOCOL,
    TABLE_OVER,
    VERSION,
    ProtocolError,
    bye_code,
    shown,
)
from . import process, recorder
from .commands import Command, Mistake, answer, parse
from .plain_board import hand_so_far, score_lines, table_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Coroutine
    from typing import Any, TextIO

    from ..game.session import Session
    from ..net.server import Host, Limits, Server
    from ..storage.seatfile import SeatFile

LINE_MAX = 4096  # bytes of a typed line
RETRIES = 10  # tries to reconnect after the line to the host breaks, a second apart


class HostGone(Exception):
    """The line to the host broke and did not come back."""


class LineClient:
    """One seat over the network in plain lines (see the module docstring)."""

    def __init__(self, client: Client, out: TextIO) -> None:
        self.client = client
        self.remote = Remote()
        self.out = out
        self.tracking = False
        self.question = ""  # the question the next line answers ("" for a move)
        self.file_prompt = False  # the next line is a file name (the host's save)
        self.done = False
        self.told_turn = -1  # the version whose table was shown
        self.status = 0  # the exit status once done
        self.welcomes = 0  # welcomes received (each connection that was let in)
        self.really = False  # q was typed: the next line answers Really?
        self.seat_file: SeatFile | None = None  # the seat's token kept for mille --join
        self.presence = Presence()
        self.back = ""  # the command that comes back to this seat (mille --join)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # ----- what the host says ----------------------------------------------------

    def on(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        remote = self.remote
        if kind == "welcome":
            remote.welcome(message)
            self.welcomes += 1
            self.presence.me = remote.seat
            keep_token(self.seat_file, remote.seat, remote.token)
            role = " (you host this table: only you may deal, save or end)" if remote.host else ""
            self.say(f"You sit at seat {remote.seat}{role}.")
            refused = name_refused(message)
            if refused:
                self.say(refused)
        elif kind == "seats":
            self.on_seats(message)
        elif kind == "update":
            self.on_update(message)
        elif kind == "error":
            self.say(f"mille: {shown(message.get('message'), 120)}")
            if message.get("code") in TABLE_GONE and self.seat_file is not None:
                self.seat_file.remove()
            self.prompt()
        elif kind == "said":
            line = said_line(message, remote.seat)
            if line is not None:
                self.say(line)
        elif kind == "ping":
            self.client.send({"type": "pong"})
        elif kind == "saved":
            if message.get("ok"):
                self.say(f"Saved to {shown(message.get('file'), 100)}.")
            else:
                self.say(f"Not saved: {shown(message.get('reason'), 100)}.")
        elif kind == "bye":
            reason = shown(message.get("reason"), 100)
            self.say(f"mille: {reason}")
            if self.seat_file is not None:  # the table is gone
                self.seat_file.remove()
            self.done = True
            self.status = ENDED_STATUS if bye_code(message) == ENDED else GONE_STATUS

    def on_seats(self, message: dict[str, Any]) -> None:
        remote = self.remote
        remote.seats = [row for row in message.get("seats", []) if isinstance(row, dict)]
        presence = self.presence
        first = not presence.heard
        for line in presence.take(message):
            self.say(line)
        if first:
            self.who()
        waiting = message.get("waiting_for")
        if waiting != remote.waiting_for and isinstance(waiting, int):
            self.say(f"Waiting for {remote.name(waiting)} (seat {waiting}).")
        remote.waiting_for = waiting if isinstance(waiting, int) else None

    def who(self) -> None:
        """``who``: the join command and who sits where (and, before the
        game starts, how the host starts it)."""
        presence = self.presence
        if presence.join:
            self.say(f"To join this table: {presence.join}")
        self.say("Seats:")
        for line in presence.seat_lines():
            self.say(line)
        if not presence.started:
            if self.remote.host:
                self.say(START_LINE)
            else:
                self.say("Waiting for the host to start the game.")

    def on_update(self, message: dict[str, Any]) -> None:
        remote = self.remote
        dealt = any(isinstance(e, dict) and e.get("deal") for e in message.get("events", []))
        new = remote.update(message)
        view = remote.view
        if dealt:
            self.say("A new hand is dealt.")
        for event in new:
            for line in describe.describe(view, event):
                self.say(escape(line))
        phase = view.phase
        recorded = recorder.seen(self, view, message, remote.seat)  # the record, at a game's end
        if phase == "hand over":
            for line in describe.end_lines(view):
                self.say(line)
            for line in score_lines(view):
                self.say(line)
            for line in recorded:
                self.say(escape(line))
            if remote.host:
                self.question = "Another game?" if view.game_over else "Another hand?"
            else:
                self.question = ""
                self.say("Waiting for the host to deal.")
        elif phase in ("extension", "coup") and remote.legal:
            self.question = "Extension?" if phase == "extension" else "Coup Fourre?"
        else:
            self.question = ""
        if remote.legal and remote.version != self.told_turn and not self.question:
            self.told_turn = remote.version
            for line in table_lines(view, self.tracking):
                self.say(line)
        self.prompt()

    def prompt(self) -> None:
        if self.really:
            self.out.write("Really? ")
        elif self.file_prompt:
            self.out.write("file: ")
        elif self.question:
            self.out.write(self.question + " ")
        elif self.remote.legal:
            self.out.write("Your move: ")
        else:
            return
        self.out.flush()

    # ----- what the player types ------------------------------------------------

    def send_move(self, move: Move) -> None:
        self.client.send({"type": "move", "version": self.remote.version, "move": str(move)})

    def line(self, text: str) -> None:
        """One line the player typed."""
        remote = self.remote
        if not (self.file_prompt or self.really) and self.table_word(text):
            return
        if remote.table is None:
            return
        if self.file_prompt:
            self.file_prompt = False
            if text:
                self.client.send({"type": "save", "file": text})
            return
        if self.really:
            said = answer(text)
            if said == "y":
                self.leave()
            elif said == "n":
                self.really = False
                self.prompt()
            else:
                self.say("Answer y or n.")
                self.prompt()
            return
        if self.question:
            said = answer(text)
            if said in ("y", "n"):
                if self.question in ("Another hand?", "Another game?"):
                    if said == "y":
                        self.client.send({"type": "deal"})
                    else:
                        self.client.send({"type": "end"})
                    self.question = ""
                else:
                    self.send_move(_answer_move(said))
                return
            if said == "s":
                self.save()
                return
            self.say("Answer y or n.")
            self.prompt()
            return
        parsed = parse(text)
        if parsed is None:
            self.prompt()
            return
        if isinstance(parsed, Mistake):
            self.say(parsed.text)
            self.prompt()
            return
        if isinstance(parsed, Command):
            self.command(parsed.letter)
            return
        if not remote.legal:
            self.say("not your turn")
            return
        self.send_move(parsed)

    def table_word(self, text: str) -> bool:
        """``who``, ``say WORDS`` and (the host, before the game starts)
        ``start``: True if ``text`` was one of them."""
        word, _, rest = text.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        if word == "who" and not rest:
            self.who()
        elif word == "say":
            if rest:
                self.client.send({"type": "say", "text": rest})
            else:
                self.say("say what? (say and the words, on one line)")
        elif word == "start" and not rest:
            if self.remote.host and not self.presence.started:
                self.client.send({"type": "start"})
            else:
                self.say("start: the game has started" if self.presence.started else NOT_HOST)
        else:
            return False
        self.prompt()
        return True

    def leave(self) -> None:
        """``q``, ``Really?`` y: the host ends the game for everyone (the
        host's ``bye`` ends this too); another leaves, and the seat waits."""
        self.really = False
        if self.remote.host:
            self.client.send({"type": "end"})
            return
        self.say("You leave the table; your seat waits for you.")
        if self.back:
            self.say(f"To come back: {self.back}")
        self.client.send({"type": "bye"})
        self.done = True

    def save(self) -> None:
        if not self.remote.host:
            self.say("Only the host may save (a save holds every hand).")
            self.prompt()
            return
        self.file_prompt = True
        self.prompt()

    def command(self, letter: str) -> None:
        remote = self.remote
        view = remote.view
        if letter == "w":
            for line in score_lines(view):
                self.say(line)
        elif letter == "r":
            for line in table_lines(view, self.tracking):
                self.say(line)
        elif letter == "l":
            for line in hand_so_far(view, remote.log):
                self.say(escape(line))
        elif letter == "t":
            self.tracking = not self.tracking
            self.say("Card tracker " + ("on." if self.tracking else "off."))
        elif letter == "h":
            from .flow import hint

            self.say(hint(view)[0])
        elif letter == "s":
            self.save()
            return
        elif letter == "q":
            self.really = True
            self.prompt()
            return
        elif letter == "o":
            self.say("o is not offered over the network.")
        else:
            self.say(HELP)
        self.prompt()


def _answer_move(said: str) -> Move:
    from ..engine.moves import NO, YES

    return YES if said == "y" else NO


HELP = """Over the network, the line mode's commands: p, u N [S], d N, y, n,
w, r, h, t, l, q (asks Really?; then you leave, and your seat waits for you;
the host ends the game for everyone), s (the host only), ?; who (the join
command and the seats), say WORDS (a line to the table), start (the host,
before the game starts)."""
NOT_HOST = "start: only the host starts the game"
START_LINE = (
    "Type start to begin now (a computer plays each empty seat until its person "
    "joins); the game starts by itself when every seat is taken."
)


# ----- running one --------------------------------------------------------------


def _read_lines(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    """Standard input's lines into ``queue`` (None at its end); run in a
    daemon thread, which a blocked read does not keep from exiting (it
    reads the descriptor, not the buffered file, whose lock would)."""

    def put(text: str | None) -> bool:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, text)
        except RuntimeError:  # the loop is closed
            return False
        return True

    pending = b""
    while True:
        try:
            chunk = os.read(0, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            if pending:
                put(pending.decode("utf-8", "replace").strip())
            put(None)
            return
        pending += chunk
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            if not put(raw[:LINE_MAX].decode("utf-8", "replace").strip()):
                return
        pending = pending[-LINE_MAX:]


async def play_seat(
    address: str,
    port: int,
    hello: dict[str, Any],
    out: TextIO,
    ssl_context: ssl.SSLContext | None = None,
    *,
    typed: bool = True,
    seat_file: SeatFile | None = None,
    back: str = "",
    patience: float = 0.0,
) -> int:
    """Play a seat until the game ends, the player leaves or the host goes
    away (after trying to come back); the exit status (``ENDED_STATUS``,
    ``FAILED_STATUS``, ``REFUSED_STATUS``, ``GONE_STATUS``).  The player's
    lines come from standard input (none if not ``typed``), read once the
    seat is taken.  A host not listening yet is waited for up to
    ``patience`` seconds (saying so)."""
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    if typed:
        threading.Thread(target=_read_lines, args=(loop, lines), daemon=True).start()
    ui: LineClient | None = None
    tries = 0  # connections in a row that came to nothing

    def waiting() -> None:
        out.write(waiting_line(address, port) + "\n")
        out.flush()

    while True:
        client = Client()
        try:
            if ui is None:
                await client.connect_waiting(
                    address, port, ssl_context, patience=patience, waiting=waiting
                )
            else:
                await client.connect(address, port, ssl_context)
        except OSError as exc:
            if ui is None:
                where = shown(address_text(address, port))
                out.write(f"mille: cannot reach {where}: {shown(_reason(exc), 200)}\n")
                return FAILED_STATUS
            tries += 1
            if tries > RETRIES:
                out.write(GONE + "\n")
                return GONE_STATUS
            await asyncio.sleep(1)
            continue
        if ui is None:
            ui = LineClient(client, out)
            ui.seat_file = seat_file
            ui.back = back
        else:  # back with the seat's token, from the version last seen
            ui.client = client
            hello = {
                "type": "hello",
                "protocol": PROTOCOL,
                "code": hello["code"],
                "token": ui.remote.token,
                "version": ui.remote.version,
            }
        client.send(hello)
        welcomed = ui.welcomes
        status = await _session(client, ui, lines)
        await client.close()
        if status is not None:
            return status
        if not ui.welcomes:  # never let in: the host is something else, or wants TLS
            out.write(NOT_WELCOMED + "\n")
            return FAILED_STATUS
        tries = 0 if ui.welcomes > welcomed else tries + 1
        if tries > RETRIES:
            out.write(GONE + "\n")
            return GONE_STATUS
        out.write("mille: the line to the host broke; trying again\n")
        await asyncio.sleep(0 if tries == 0 else 1)


async def _session(client: Client, ui: LineClient, lines: asyncio.Queue[str | None]) -> int | None:
    """Read the host and the player until the end (a status) or a broken
    line (None).  The player's lines wait until the table is known (a
    piped script's end is then no goodbye before the host answered)."""
    receive: asyncio.Task[dict[str, Any] | None] = asyncio.ensure_future(client.receive())
    typed: asyncio.Task[str | None] | None = None
    try:
        while True:
            if typed is None and ui.remote.table is not None:
                typed = asyncio.ensure_future(lines.get())
            waited = {receive} if typed is None else {receive, typed}
            done, _ = await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
            if receive in done:
                try:
                    message = receive.result()
                except ProtocolError as exc:
                    ui.say(f"mille: {exc.message}")
                    return GONE_STATUS
                if message is None:
                    return ui.status if ui.done else None
                try:
                    ui.on(message)
                except ProtocolError as exc:
                    ui.say(f"mille: {exc.message}")
                    if exc.code == VERSION:
                        return REFUSED_STATUS
                if message.get("type") == "error" and message.get("code") in FATAL:
                    return ENDED_STATUS if message.get("code") == TABLE_OVER else REFUSED_STATUS
                if ui.done:
                    return ui.status
                receive = asyncio.ensure_future(client.receive())
            if typed is not None and typed in done:
                text = typed.result()
                if text is None:
                    ui.say("")
                    client.send({"type": "bye"})
                    return ENDED_STATUS
                ui.line(text)
                if ui.done:
                    return ENDED_STATUS
                typed = asyncio.ensure_future(lines.get())
    finally:
        receive.cancel()
        # a line typed but not read stays for the next connection
        if typed is not None and not typed.done():
            typed.cancel()


def split_address(text: str) -> tuple[str, int]:
    """``ADDRESS[:PORT]`` (``[::1]:PORT`` for IPv6); ValueError if bad.

    >>> split_address("example.org:7000"), split_address("[::1]"), split_address("::1")
    (('example.org', 7000), ('::1', 7477), ('::1', 7477))
    """
    port = DEFAULT_PORT
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"bad address: {escape(text)}")
            port = _port(rest[1:])
        return host, port
    if text.count(":") == 1:
        host, _, number = text.partition(":")
        return host, _port(number)
    return text, port


def _port(text: str) -> int:
    if not (text.isascii() and text.isdecimal()) or not 0 < int(text) < 65536:
        raise ValueError(f"bad port: {escape(text)[:20]}")
    return int(text)


TLS_WORDS = {  # OpenSSL's reasons, in words
    None: "not a certificate and its key in PEM form",
    "PEM_LIB": "not a certificate and its key in PEM form",
    "NO_CERTIFICATE_OR_CRL_FOUND": "no certificate in it (PEM form)",
    "KEY_VALUES_MISMATCH": "the key is not the certificate's",
}


def _tls_words(exc: OSError) -> str:
    reason = getattr(exc, "reason", None)
    return TLS_WORDS.get(reason, str(reason))


class CertError(ValueError):
    """A certificate or key that cannot be used (the message names it)."""


def _readable(path: str, what: str) -> None:
    """``CertError`` naming ``path`` if it cannot be read."""
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise CertError(f"cannot read the {what} {escape(path)}: {exc.strerror or exc}") from None


def client_tls(cert: str | None) -> ssl.SSLContext | None:
    """TLS trusting ``cert`` (the host's certificate), or None;
    ``CertError`` if it cannot be used."""
    if cert is None:
        return None
    import ssl

    _readable(cert, "certificate")
    try:
        context = ssl.create_default_context(cafile=cert)
    except ssl.SSLError as exc:
        raise CertError(f"cannot use the certificate {escape(cert)}: {_tls_words(exc)}") from None
    context.check_hostname = False  # the certificate itself is the trust
    return context


def join(
    target: str,
    code: str,
    name: str | None,
    cert: str | None,
    *,
    board: bool = False,
    color: bool = True,
    wait: float = WAIT_FOR_HOST,
) -> int:
    """``mille --join ADDRESS[:PORT] CODE``: play a person seat, in lines
    or on the ``board`` (``remote_ui``), waiting up to ``wait`` seconds for
    a host that is not listening yet; the exit status (see ``play_seat``)."""
    try:
        address, port = split_address(target)
        context = client_tls(cert)
    except (ValueError, OSError) as exc:
        print(f"mille: {shown(exc, 300)}", file=sys.stderr)
        return FAILED_STATUS
    from ..net.client import resume_hello
    from ..storage.seatfile import SeatFile

    quiet_asyncio()
    hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "code": code}
    if name is not None:  # names a seat the host left unnamed
        hello["name"] = name
    seat_file = SeatFile(address, port, code)
    hello = resume_hello(seat_file, hello)
    back = join_command(address, port, code, cert)  # told on leaving
    try:
        if board:
            from .remote_ui import play_board

            return play_board(
                address, port, hello, context, color, seat_file=seat_file, back=back, patience=wait
            )
        from .remote_lines import play_lines

        return play_lines(
            address, port, hello, context, seat_file=seat_file, back=back, patience=wait
        )
    except KeyboardInterrupt:
        return 130
    finally:
        seat_file.release()


def quiet_asyncio() -> None:
    """Nothing from asyncio's logger reaches the terminal (the game's
    screen): a refused or broken connection is told in the game's words."""
    import logging

    logger = logging.getLogger("asyncio")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False


# ----- the host -----------------------------------------------------------------------


class Hosting:
    """The server running in a thread of its own, with one table."""

    def __init__(self, session: Session, limits: Limits, host_seat: int, name: str) -> None:
        self.session = session
        self.limits = limits
        self.host_seat = host_seat
        self.name = name
        self.loop = asyncio.new_event_loop()
        self.server: Server | None = None
        self.table: Host | None = None
        self.ready = threading.Event()
        self.address: tuple[str, int] = ("", 0)
        self.error: str | None = None
        self.thread = threading.Thread(target=self._run, name="mille-host", daemon=True)
        self.kept_path: str | None = None  # the recovery file written after every move
        self.writer: Any = None  # one thread writes it, in order

    def keep_after_move(self) -> None:
        """After every move: the game to the recovery file (serialised here,
        written by a thread of its own, so the table does not wait for the
        disk); a host that dies is offered by the next ``mille --host``."""
        from concurrent.futures import ThreadPoolExecutor

        from ..net.seats import saved_bytes
        from ..storage import atomic, recovery

        table = self.table
        assert table is not None
        try:
            if self.kept_path is None:
                os.makedirs(recovery.directory(), mode=recovery.DIRECTORY_MODE, exist_ok=True)
                self.kept_path = recovery.new_path()
            if table.keep_quietly(self.kept_path):  # the worker's replica writes it
                return
            data = saved_bytes(table.feed)
            if self.writer is None:
                self.writer = ThreadPoolExecutor(1, thread_name_prefix="mille-keep")
        except (OSError, ValueError):
            return
        self.writer.submit(atomic.write, self.kept_path, data, recovery.MODE)

    async def drop_kept(self) -> None:
        """The game ended or was kept elsewhere: the per-move file goes
        (once the writes under way are done)."""
        if self.writer is not None:
            self.writer.shutdown(wait=True)
        table = self.table
        if table is not None and table.thinker is not None and self.kept_path is not None:
            try:
                await table.thinker.save([], self.kept_path)  # the worker's keeps are done
            except (OSError, ValueError):
                pass
        if self.kept_path is not None:
            try:
                os.unlink(self.kept_path)
            except OSError:
                pass

    def start(self, listen: str, port: int, context: ssl.SSLContext | None) -> None:
        self.listen = (listen, port, context)
        self.thread.start()
        self.ready.wait(30)

    def _run(self) -> None:
        from ..net.server import quiet, raise_descriptor_limit

        asyncio.set_event_loop(self.loop)
        quiet(self.loop)  # nothing of asyncio's over the host's screen
        raise_descriptor_limit()
        self.loop.run_until_complete(self._main())

    async def _main(self) -> None:
        from ..net.server import Host, Server

        self.stop = asyncio.Event()
        server = self.server = Server(self.limits)
        listen, port, context = self.listen
        try:
            self.table = server.add(
                Host(
                    self.session,
                    host_seat=self.host_seat,
                    names={self.host_seat: self.name},
                    on_move=self.keep_after_move,
                    worker=True,  # computers and stand-ins think in a process of their own
                    waiting_room=True,  # the host starts the game (or everyone is here)
                )
            )
            self.address = await server.start(listen, port, context)
        except OSError as exc:
            self.error = listen_error(exc)
            self.ready.set()
            return
        self.ready.set()
        await self.stop.wait()
        await server.close()

    def run(self, work: Coroutine[Any, Any, Any]) -> Any:
        """Run ``work`` in the server's thread (the game is its own) and
        return what it returns (or raise what it raises)."""
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(60)

    def shut(self) -> None:
        if self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.stop.set)
            self.thread.join(10)


def listen_error(exc: OSError) -> str:
    """Why the host cannot listen, whole, with the way out."""
    import errno

    if exc.errno == errno.EADDRINUSE:
        return "the port is in use (another mille --host?): --port 0 takes a free one"
    if exc.errno == errno.EADDRNOTAVAIL:
        return "no such address on this machine (--listen 0.0.0.0 listens on every one)"
    if exc.errno == errno.EACCES:
        return "permission denied (ports below 1024 are the system's: --port 0 takes a free one)"
    return os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))


def server_tls(cert: str, key: str) -> ssl.SSLContext:
    """TLS with ``cert`` and ``key``; ``CertError`` if they cannot be used."""
    import ssl

    _readable(cert, "certificate")
    _readable(key, "key")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as exc:
        reason = _tls_words(exc) if isinstance(exc, ssl.SSLError) else exc.strerror or str(exc)
        raise CertError(
            f"cannot use the certificate {escape(cert)} with the key {escape(key)}: {reason}"
        ) from None
    return context


def host(
    session: Session,
    *,
    listen: str,
    port: int,
    grace: float,
    cert: str | None,
    key: str | None,
    name: str | None,
    board: bool = False,
    color: bool = True,
) -> int:
    """``mille --host``: serve the table, show the join command, play the
    first person seat (``--people``'s first; seat 0 by default), in lines
    or on the ``board`` (``remote_ui``, the join command on its error
    line)."""
    from ..net.server import Limits

    if (cert is None) != (key is None):
        print("mille: --cert and --key go together", file=sys.stderr)
        return 1
    try:
        context = server_tls(cert, key) if cert is not None and key is not None else None
    except CertError as exc:
        print(f"mille: {shown(exc, 300)}", file=sys.stderr)
        return 1
    host_seat = min(session.people)  # the first person seat; the others join
    quiet_asyncio()
    hosting = Hosting(session, Limits(grace=grace), host_seat, name or session.name(host_seat))
    hosting.start(listen, port, context)
    if hosting.error is not None or hosting.table is None:
        print(
            f"mille: cannot listen on {shown(address_text(listen, port))}: "
            f"{shown(hosting.error, 200)}",
            file=sys.stderr,
        )
        return 1
    table = hosting.table
    listening, taken = hosting.address
    address = LOOPBACK.get(listening, listening)  # where the host's own seat connects
    people = sum(1 for seat in table.seats if seat.person) - 1
    command = join_command(listening, taken, table.code, cert)
    table.join = command  # every seat's seats message carries it (who, J)
    print(f"mille: hosting {describe_table(session)} on {address_text(listening, taken)}.")
    if people:
        print(f"Give the others ({people} seat{'s' if people > 1 else ''}) this command:")
        print(f"  {command}")
        if listening in ("127.0.0.1", "::1"):
            print(
                "(this host listens on this machine only: --listen ADDRESS opens it to a network)"
            )
    sys.stdout.flush()
    token = table.seats[host_seat].token
    hello = {"type": "hello", "protocol": PROTOCOL, "code": table.code, "token": token}
    kept: list[str] = []

    def write() -> str:
        path: str = hosting.run(table.keep())
        return path

    def keep_game(reason: str, tell: bool = True) -> str:
        if not kept:
            line, _ = process.keep(session, reason, write=write)
            kept.append(line)
            if tell:
                print(line, file=sys.stderr, flush=True)
            hosting.run(hosting.drop_kept())
        return kept[0]

    if board:
        from .remote_ui import play_board

        note = "J: the table, the join command" if people else ""
        try:
            return play_board(
                address,
                taken,
                hello,
                client_tls(cert),
                color,
                note=note,
                keep=lambda reason: keep_game(reason, tell=False),
            )
        except KeyboardInterrupt:
            keep_game("interrupted")
            return 130
        finally:
            if not kept:  # the game ended here: nothing to offer next time
                hosting.run(hosting.drop_kept())
            hosting.shut()

    from .remote_lines import play_lines

    try:
        return play_lines(
            address,
            taken,
            hello,
            client_tls(cert),
            keep=lambda reason: keep_game(reason, tell=False),
        )
    except KeyboardInterrupt:
        keep_game("interrupted")
        return 130
    finally:
        if not kept:  # the game ended here: nothing to offer next time
            hosting.run(hosting.drop_kept())
        hosting.shut()


LOOPBACK = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}  # every address: this machine's


def reachable_address(listening: str) -> str:
    """The address a friend reaches a host listening on ``listening`` at:
    itself, unless it is every address (``0.0.0.0``, or ``::``, which
    asyncio opens to IPv6 alone); then this machine's address of that
    family on the network its outward traffic would take (a UDP socket's
    ``connect`` to a documentation address, which sends nothing), else the
    first of the host name's addresses of that family that is not
    loopback, else the host name."""
    import ipaddress
    import socket

    if listening not in LOOPBACK:
        return listening
    family, probe_address = (
        (socket.AF_INET6, "2001:db8::1") if ":" in listening else (socket.AF_INET, "192.0.2.1")
    )
    found: list[str] = []
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((probe_address, 9))  # a UDP connect sends no packet
            found.append(str(probe.getsockname()[0]))
    except OSError:
        pass
    name = socket.gethostname()
    try:
        infos = socket.getaddrinfo(name, None, family, socket.SOCK_STREAM)
        found += [str(info[4][0]) for info in infos]
    except OSError:
        pass
    for candidate in found:
        try:
            ip = ipaddress.ip_address(candidate.split("%")[0])
        except ValueError:
            continue
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            return candidate
    return name or "localhost"


def join_command(listening: str, port: int, code: str, cert: str | None = None) -> str:
    """The command to give the others: ``mille --join ADDRESS:PORT CODE``
    (with ``--cert FILE`` for TLS), naming an address they can reach
    (:func:`reachable_address`)."""
    tls = f" --cert {escape(cert)}" if cert is not None else ""
    target = address_text(reachable_address(listening), port)
    return f"mille --join {escape(target)} {escape(code)}{tls}"


def describe_table(session: Session) -> str:
    rules = session.rules
    return f"{rules.name} for {rules.players}"
