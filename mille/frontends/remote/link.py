"""The line to the host: what a join is (:class:`Join`, one value), and
the connection that carries it (:class:`Link`).

A :class:`Link` runs the connection in a thread of its own (asyncio), so
the host's pings are answered while the board or the line mode waits for
a key or a line.  Its inbox holds what the host says, and only that:
``None`` is put there once, when the line ends.  The link's own states are
its return values and fields, never messages: :meth:`Link.open` answers
whether the host was reached (the line that says why not), the waiting for
a host not listening yet is a call of ``waiting``, and :attr:`Link.broken`
says whether the host broke the protocol when the line ended.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import queue
import threading
from dataclasses import dataclass, replace

from ...i18n import _
from ...net.client import Client, address_text, failure_reason
from ...net.messages import hello as wire_hello
from ...net.messages import plain
from ...net.wire import ProtocolError, shown
from ...storage import atomic

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Callable, Mapping
    from typing import Any


class Stopped(Exception):
    """The person stopped a wait for the host (^C, a hang-up signal)."""


@dataclass(frozen=True)
class Join:
    """Where and how a seat is joined: the host's ``address`` and
    ``port``, the table's ``code``, the ``name`` asked for a new seat or
    the ``token`` of a seat to take back, TLS (``context``, trusting the
    host's certificate, and its ``fingerprint``), how long to ``wait``
    for a host not listening yet, and ``back``: the command that comes
    back to the seat (told on leaving)."""

    address: str
    port: int
    code: str
    name: str | None = None
    token: str | None = None
    context: ssl.SSLContext | None = None
    wait: float = 0.0
    back: str = ""
    fingerprint: str = ""  # TLS: the SHA-256 of the host's certificate (tls.fingerprint)

    @property
    def where(self) -> str:
        """``ADDRESS:PORT``, as typed (escaped)."""
        return shown(address_text(self.address, self.port))

    def hello(self, version: int | None = None) -> Mapping[str, Any]:
        """The first message: the token's seat (from ``version`` on, if
        given), else a seat named ``name`` or the first free one."""
        if self.token is not None:
            return wire_hello(self.code, token=self.token, version=version)
        return wire_hello(self.code, name=self.name)  # a name names a seat the host left unnamed

    def taking_back(self, token: str) -> Join:
        """The same join, to take the seat of ``token`` back."""
        return replace(self, token=token)


def waiting_line(join: Join) -> str:
    """What a joiner says while the host is not there yet."""
    return _("mille: waiting for the host at {address}... (^C to stop)").format(address=join.where)


class Link:
    """The connection to the host (see the module docstring): what the
    host says goes to ``inbox`` (None when the line is gone), pings are
    answered there; :meth:`send` from any thread."""

    def __init__(self, join: Join) -> None:
        self.join = join
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.loop = asyncio.new_event_loop()
        self.client = Client()
        self.thread = atomic.thread(self._run, name="mille-join")
        self.reached = threading.Event()
        self.unreached: str | None = None  # why the host was not reached
        self.broken: str | None = None  # the host broke the protocol: the line says how
        self.hello: Mapping[str, Any] = {}
        self.within: float | None = None
        self.waiting: Callable[[], None] = lambda: None
        # called (from this thread) after each message: the board, which may
        # be waiting for a key, is woken to take it
        self.wake: Callable[[], None] = lambda: None

    def open(
        self,
        hello: Mapping[str, Any],
        waiting: Callable[[], None] = lambda: None,
        within: float | None = None,
        stop: Callable[[], bool] = lambda: False,
    ) -> str | None:
        """Connect, waiting up to the join's ``wait`` for a host that is
        not listening yet (``waiting`` is called once then), within
        ``within`` seconds in all if given, and say ``hello``; None, or the
        line that says why the host was not reached.  ``stop`` is looked
        at meanwhile: :class:`Stopped` if it says so."""
        self.hello, self.waiting, self.within = hello, waiting, within
        self.thread.start()
        while not self.reached.wait(0.05):
            if stop():  # (its thread ends by itself, within ``within``)
                raise Stopped
        if self.unreached is None:
            return None
        return _("mille: cannot reach {address}: {why}").format(
            address=self.join.where, why=shown(self.unreached, 200)
        )

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
            self.reached.set()
            self.inbox.put(None)
            self.wake()

    async def _main(self) -> None:
        join = self.join
        connecting = self.client.connect_waiting(
            join.address, join.port, join.context, patience=join.wait, waiting=self.waiting
        )
        try:
            await asyncio.wait_for(connecting, self.within)
        except (OSError, asyncio.TimeoutError) as exc:
            if isinstance(exc, OSError) and exc.errno is not None:
                self.unreached = failure_reason(exc)
            elif isinstance(exc, asyncio.TimeoutError):  # (an OSError from 3.11)
                self.unreached = _("no answer within {seconds} s").format(
                    seconds=f"{self.within or 0:g}"
                )
            else:
                self.unreached = failure_reason(exc)
            return
        self.reached.set()
        self.client.send(self.hello)
        while True:
            try:
                message = await self.client.receive()
            except ProtocolError as exc:
                self.broken = exc.message
                return
            if message is None:
                return
            if message.get("type") == "ping":
                self.client.send(plain("pong"))
                continue
            self.inbox.put(message)
            self.wake()

    def send(self, message: Mapping[str, Any]) -> None:
        try:
            self.loop.call_soon_threadsafe(self.client.send, message)
        except RuntimeError:  # the loop is closed: the line is gone
            pass

    def next(self, timeout: float | None = None) -> dict[str, Any] | None:
        """What the host says next (None: the line ended, or nothing
        within ``timeout`` seconds)."""
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def has_bye(self) -> bool:
        """The host's ``bye`` is among what it said and was not taken yet."""
        with self.inbox.mutex:
            return any(m is not None and m.get("type") == "bye" for m in self.inbox.queue)

    def close(self, bye: bool) -> None:
        """Say ``bye`` (if ``bye``) and hang up."""
        if not self.thread.is_alive():
            return
        if bye:
            self.send(plain("bye"))
            # the host hangs up on the bye: until then what it sends is
            # read, so that hanging up here resets nothing before the bye
            self.thread.join(BYE_WITHIN)
            if not self.thread.is_alive():
                return

        async def shut() -> None:
            await self.client.close()

        closing = shut()
        try:
            done = asyncio.run_coroutine_threadsafe(closing, self.loop)
            # the host may hang up on the bye first, and the link's loop
            # end without running this: no waiting for it then
            for _try in range(100):
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


BYE_WITHIN = 2.0  # seconds the host may take to hang up on a seat's bye


def quiet_asyncio() -> None:
    """Nothing from asyncio's logger reaches the terminal (the game's
    screen): a refused or broken connection is told in the game's words."""
    import logging

    logger = logging.getLogger("asyncio")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False
