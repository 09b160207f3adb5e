"""``mille --host``: the server in a thread of its own (:class:`Hosting`),
the command to give the others (:func:`join_command`, naming an address
they can reach), and the host's own seat played over loopback as a joiner
plays one: in lines (``--plain``, or off a terminal:
:func:`~mille.frontends.remote.lines.play_lines`) or on the board
(:func:`~mille.frontends.remote.board_ui.play_board`).  A hang-up,
SIGTERM or a lost terminal keeps the game in the recovery file
(``process.keep``), which the next ``mille --host`` offers.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading

from ...engine.text import escape
from ...i18n import N_, _, ngettext
from ...net.client import address_text
from ...net.wire import shown
from ...storage import atomic
from .. import process
from .link import Join, quiet_asyncio
from .presence import fingerprint_lines
from .size import small_screen_line, too_small
from .tls import CertError, client_tls, fingerprint, server_tls

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Coroutine
    from typing import Any

    from ...game.session import Session
    from ...net.server import Host, Limits, Server


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
        self.thread = atomic.thread(self._run, name="mille-host")
        self.kept_path: str | None = None  # the recovery file written after every move
        self.watchers = True  # the table may be watched (not ``--no-watchers``)
        self.writer: Any = None  # one thread writes it, in order

    def keep_after_move(self) -> None:
        """After every move: the game to the recovery file (serialised here,
        written by a thread of its own, so the table does not wait for the
        disk); a host that dies is offered by the next ``mille --host``."""
        from concurrent.futures import ThreadPoolExecutor

        from ...net.seats import saved_bytes
        from ...storage import recovery

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
                self.writer = ThreadPoolExecutor(
                    1, thread_name_prefix="mille-keep", initializer=atomic.block_exit_signals_here
                )
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
        from ...net.server import quiet, raise_descriptor_limit

        asyncio.set_event_loop(self.loop)
        quiet(self.loop)  # nothing of asyncio's over the host's screen
        raise_descriptor_limit()
        self.loop.run_until_complete(self._main())

    async def _main(self) -> None:
        from ...net.server import Host, Server

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
                    watchers=self.watchers,
                )
            )
            self.address = await server.start(listen, port, context)
        except OSError as exc:
            self.error = listen_error(exc)
            await server.close()  # the table's driver ended before the loop is
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
        return _("the port is in use (another mille --host?): --port 0 takes a free one")
    if exc.errno == errno.EADDRNOTAVAIL:
        return _("no such address on this machine (--listen 0.0.0.0 listens on every one)")
    if exc.errno == errno.EACCES:
        return _("permission denied (ports below 1024 are the system's: --port 0 takes a free one)")
    return os.strerror(exc.errno) if exc.errno else (exc.strerror or str(exc))


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
    watchers: bool = True,
) -> int:
    """``mille --host``: serve the table, show the join command (and the
    watch command, unless not ``watchers``), play the
    first person seat (``--people``'s first; seat 0 by default), in lines
    or on the ``board`` (``remote_ui``, the join command on its error
    line)."""
    from ...net.server import Limits

    size = too_small() if board else ""
    if size:  # said before the table opens
        print(small_screen_line(size, ""), file=sys.stderr)
        return 1
    if (cert is None) != (key is None):
        print(_("mille: --cert and --key go together"), file=sys.stderr)
        return 1
    try:
        context = server_tls(cert, key) if cert is not None and key is not None else None
    except CertError as exc:
        print(f"mille: {shown(exc, 300)}", file=sys.stderr)
        return 1
    host_seat = min(session.people)  # the first person seat; the others join
    quiet_asyncio()
    hosting = Hosting(session, Limits(grace=grace), host_seat, name or session.name(host_seat))
    hosting.watchers = watchers
    hosting.start(listen, port, context)
    if hosting.error is not None or hosting.table is None:
        print(
            _("mille: cannot listen on {address}: {why}").format(
                address=shown(address_text(listen, port)), why=shown(hosting.error, 200)
            ),
            file=sys.stderr,
        )
        return 1
    table = hosting.table
    listening, taken = hosting.address
    address = LOOPBACK.get(listening, listening)  # where the host's own seat connects
    people = sum(1 for seat in table.seats if seat.person) - 1
    command = join_command(listening, taken, table.code, cert)
    table.join = command  # every seat's seats message carries it (who, J)
    if table.watch_code:  # and the command that watches the table
        table.watch = join_command(listening, taken, table.watch_code, cert, watch=True)
    print(
        _("mille: hosting {rules} for {players} on {address}.").format(
            rules=session.rules.name,
            players=session.rules.players,
            address=address_text(listening, taken),
        )
    )
    if people:
        print(
            ngettext(
                "Give the others ({count} seat) this command:",
                "Give the others ({count} seats) this command:",
                people,
            ).format(count=people)
        )
        print(f"  {command}")
        if listening in ("127.0.0.1", "::1"):
            print(
                _(
                    "(this host listens on this machine only: --listen ADDRESS opens it to a network)"
                )
            )
    if table.watch:
        print(_("To watch the table: {command}").format(command=table.watch))
    sys.stdout.flush()
    token = table.seats[host_seat].token
    print_ = fingerprint(cert) if cert is not None else ""
    for line in fingerprint_lines(print_):  # to read out to the others, who see it too
        print(line)
    sys.stdout.flush()
    join = Join(
        address, taken, table.code, token=token, context=client_tls(cert), fingerprint=print_
    )
    kept: list[str] = []

    def write() -> str:
        path: str = hosting.run(table.keep())
        return path

    def keep_game(reason: str, tell: bool = True) -> str:
        if not kept:
            line, _kept = process.keep(session, reason, write=write)
            kept.append(line)
            if tell:
                print(line, file=sys.stderr, flush=True)
            hosting.run(hosting.drop_kept())
        return kept[0]

    try:
        if board:
            from .board_ui import play_board

            note = N_("J: the table, the join command") if people else ""
            return play_board(join, color, note=note, keep=lambda why: keep_game(why, tell=False))
        from .lines import play_lines

        return play_lines(join, keep=lambda why: keep_game(why, tell=False))
    except KeyboardInterrupt:
        keep_game(N_("interrupted"))
        return 130
    finally:
        if not kept:  # the game ended here: nothing to offer next time
            hosting.run(hosting.drop_kept())
        hosting.shut()


LOOPBACK = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}  # every address: this machine's


def outward_address(family: int, probe_address: str) -> str | None:
    """This machine's address of ``family`` on the network its traffic to
    ``probe_address`` would take (a UDP socket's ``connect``, which sends
    no packet), or None."""
    import socket

    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((probe_address, 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


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
    found = [address for address in (outward_address(family, probe_address),) if address]
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


def join_command(
    listening: str, port: int, code: str, cert: str | None = None, *, watch: bool = False
) -> str:
    """The command to give the others: ``mille --join ADDRESS:PORT CODE``
    (``--watch`` with the watch code), with ``--cert FILE`` for TLS,
    naming an address they can reach (:func:`reachable_address`)."""
    tls = f" --cert {escape(cert)}" if cert is not None else ""
    target = address_text(reachable_address(listening), port)
    option = "--watch" if watch else "--join"
    return f"mille {option} {escape(target)} {escape(code)}{tls}"


def describe_table(session: Session) -> str:
    rules = session.rules
    return f"{rules.name} for {rules.players}"
