"""A joiner whose line to the host breaks comes back to its seat by itself,
on the board as in the line mode: a loopback proxy between ``mille --join``
and ``mille --host`` is cut (every connection through it closed, nothing
listening) and opened again on the same port; the joiner, which tries
again a second apart, is back at its seat within 5 s of the line coming
back, with the move it missed, and plays on."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from support.screen import Term
from support.table import CLASSIC_THREE, HOSTING, TIMEOUT, board_turn, host_turn, hosted

Spawn = Callable[..., Term]
BROKE = "mille: the line to the host broke; reconnecting (^C to stop)"
BACK = "mille: back at the table"


class Proxy:
    """127.0.0.1:``port`` forwarded to 127.0.0.1:``target``, in a thread of
    its own; :meth:`cut` closes it and every connection through it,
    :meth:`open` listens again on the same port."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def call(self, work: Callable[[], object]) -> object:
        async def run() -> object:
            result = work()
            return await result if asyncio.iscoroutine(result) else result

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            host_reader, host_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, host_writer}
        await asyncio.gather(self._pipe(reader, host_writer), self._pipe(host_reader, writer))

    async def _open(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.writers:
            writer.transport.abort()
        self.writers.clear()
        await self.server.wait_closed()

    def open(self) -> None:
        self.call(self._open)

    def cut(self) -> None:
        self.call(self._cut)

    async def _close(self) -> None:
        await self._cut()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()

    def close(self) -> None:
        self.call(self._close)
        self.loop.call_soon_threadsafe(self.loop.stop)


@contextmanager
def behind_a_proxy(spawn: Spawn) -> Iterator[tuple[Term, Proxy, str, str]]:
    """A classic table of three hosted (Hal, in lines; Ann's seat open),
    with a :class:`Proxy` open before it: the host, the proxy, and the
    address and code that join through it; the proxy closed after."""
    host, address, code = hosted(spawn, *CLASSIC_THREE, *HOSTING)
    proxy = Proxy(int(address.rpartition(":")[2]))
    try:
        proxy.open()
        yield host, proxy, f"127.0.0.1:{proxy.port}", code
    finally:
        proxy.close()


def back_within(host: Term, proxy: Proxy, seconds: float) -> float:
    """Open the proxy again: how long until the host sees the joiner back
    (its ``is back`` line)."""
    backs = host.raw.count(b"Ann is back.")
    proxy.open()
    opened = time.monotonic()
    host.wait(lambda: host.raw.count(b"Ann is back.") > backs, seconds, "Ann back at the host")
    return time.monotonic() - opened


def test_a_board_joiner_whose_line_breaks_comes_back_by_itself(spawn: Spawn) -> None:
    with behind_a_proxy(spawn) as (host, proxy, address, code):
        ann = spawn("--join", address, code, "--name", "Ann")
        ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
        proxy.cut()
        ann.wait_for(BROKE, timeout=TIMEOUT)  # on the error line
        host.wait(lambda: b"Ann dropped; the seat waits for Ann." in host.raw, TIMEOUT, "drop")
        host_turn(host, 1)  # a move made while Ann's line is down
        host.wait(lambda: b"Waiting for Ann" in host.raw, TIMEOUT, "Ann's turn")
        assert back_within(host, proxy, 5) < 5
        assert ann.child.isalive()
        board_turn(ann, "Hal discarded")  # the move missed is on the board; Ann plays on
        host.wait(lambda: b"Ann discarded" in host.raw, TIMEOUT, "Ann's move at the host")
        assert b"Traceback" not in host.raw + ann.raw


def test_a_line_mode_joiner_whose_line_breaks_comes_back_by_itself(spawn: Spawn) -> None:
    with behind_a_proxy(spawn) as (host, proxy, address, code):
        ann = spawn("--join", address, code, "--name", "Ann", "--plain")
        ann.wait(lambda: b"You sit at seat 1." in ann.raw, TIMEOUT, "seated")
        proxy.cut()
        ann.wait(lambda: BROKE.encode() in ann.raw, TIMEOUT, "the break said")
        host.wait(lambda: b"Ann dropped; the seat waits for Ann." in host.raw, TIMEOUT, "drop")
        host_turn(host, 1)
        assert back_within(host, proxy, 5) < 5
        ann.wait(lambda: f"{BROKE}\n{BACK}".encode() in ann.raw.replace(b"\r", b""), 5, "back")
        ann.wait(lambda: b"Hal discarded" in ann.raw, TIMEOUT, "the move missed")
        ann.wait(lambda: b"Your move:" in ann.raw, TIMEOUT, "Ann's turn")
        ann.send("p\r")
        ann.wait(lambda: b"You drew" in ann.raw, TIMEOUT, "Ann plays on")
        assert b"Traceback" not in host.raw + ann.raw


STOPPED = b"mille: stopped coming back to the table; your seat waits for you"


def test_a_joiner_coming_back_to_a_host_gone_stops_at_once_on_ctrl_c(spawn: Spawn) -> None:
    """The host gone (nothing listens), the joiner tries to come back for
    a minute; ^C stops it at once (the board restored, the seat waiting,
    the command that comes back said), not after that minute."""
    with behind_a_proxy(spawn) as (host, proxy, address, code):
        ann = spawn("--join", address, code, "--name", "Ann")
        ann.wait_for(" 2 You ", row=3, timeout=TIMEOUT)
        proxy.cut()
        ann.wait_for(BROKE, timeout=TIMEOUT)
        ann.wait_for("Reconnecting...", timeout=TIMEOUT)  # in the prompt's place, not >>:Move:
        time.sleep(0.5)  # trying again
        ann.send("\x03")
        sent = time.monotonic()
        status = ann.wait_exit(5)
        assert time.monotonic() - sent < 2.5
        assert status == 3
        assert STOPPED in ann.raw and b"To come back: mille --join" in ann.raw
        assert b"Traceback" not in ann.raw and b"internal error" not in ann.raw
