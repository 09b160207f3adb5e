"""A scripted client, for the tests and the network benchmark: it joins a
table, answers every question ``y``, plays the first card it may use (a
pick first), discards otherwise, and as the host deals each next hand
until the game is over (``games``: at a game over, another game is
wanted: the host's ``deal``, a joiner's ``again``).

It follows its table as the remote seat does (``net.follow.Follow``:
``follow``, the seat, the table, the version, the names).  It keeps every
line it was sent (``lines``) and the time each update came
(``arrivals``, by version), so a test can check the bytes and a
benchmark the delays.
"""

from __future__ import annotations

import asyncio
import time

from ..engine.table import OVER
from .client import Client
from .follow import Follow
from .messages import Move, hello, plain
from .messages import move as move_message
from .wire import decode

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from typing import Any


def choose(legal: list[str]) -> str:
    """The bot's move among ``legal`` (as texts): y, a pick, the first use,
    the first discard."""
    for prefix in ("y", "P", "U", "D", "n"):
        for move in legal:
            if move.startswith(prefix):
                return move
    raise ValueError("no legal move")


class Bot:
    """One scripted seat (see the module docstring)."""

    def __init__(
        self, name: str = "bot", *, deal: bool = True, games: int = 1, light: bool = False
    ) -> None:
        self.name = name
        self.client = Client()
        self.follow = Follow()  # the seat and its table, as the host told them
        self.seats: list[dict[str, Any]] = []  # who sits where (the last seats message)
        self.waiting_for: int | None = None  # whom the table waits for
        self.lines: list[bytes] = []
        self.messages: list[dict[str, Any]] = []
        self.arrivals: list[tuple[float, int]] = []  # (time, version) of each update
        self.errors: list[dict[str, Any]] = []
        self.deal = deal  # deal the next hand when it is over (the host)
        # read only the version and the legal moves (the benchmark: no table rebuilt,
        # no lines kept, games without end)
        self.light = light
        self.think = 0.0  # seconds to wait before each move (a pace, for the benchmark)
        self.sent: list[float] = []  # when each move was sent
        self.games = games
        self.done = asyncio.Event()
        self.bye: str | None = None
        self.moves = 0
        # leave after this many moves, at the end of a turn (a drop)
        self.stop_after: int | None = None
        self.last: Move | None = None  # the last move sent

    async def join(
        self,
        port: int,
        code: str,
        *,
        token: str | None = None,
        version: int | None = None,
        address: str = "127.0.0.1",
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        await self.client.connect(address, port, ssl_context)
        self.client.send(hello(code, name=self.name, token=token, version=version))

    async def run(self) -> None:
        """Read and answer until the game is over or the host hangs up."""
        client = self.client
        assert client.reader is not None
        try:
            while True:
                try:
                    line = await client.reader.readuntil(b"\n")
                except (asyncio.IncompleteReadError, ConnectionError, OSError):
                    break
                message = decode(line)
                if not self.light:
                    self.lines.append(line)
                    self.messages.append(message)
                if not await self.on(message):
                    break
        finally:
            self.done.set()
            await client.close()

    async def on(self, message: dict[str, Any]) -> bool:
        kind = message["type"]
        follow = self.follow
        if kind == "welcome":
            follow.welcome(message)
            return True
        if kind == "watching":
            follow.watch(message)
            return True
        if kind == "seats":
            self.seats = message["seats"]
            self.waiting_for = message["waiting_for"]
            return True
        if kind == "error":
            if message["code"] == "too-fast" and self.last is not None:
                await asyncio.sleep(0.1)  # the move was dropped: again, slower
                self.client.send(self.last)
                return True
            self.errors.append(message)
            return True
        if kind == "bye":
            self.bye = message.get("code")
            return False
        if kind == "ping":
            self.client.send(plain("pong"))
            return True
        if kind != "update":
            return True
        if self.light:
            phase = follow.glance(message)
            self.arrivals.append((time.perf_counter(), follow.version))
            if phase == OVER:
                if self.deal:
                    self.client.send(plain("deal"))
                return True
        else:
            table = follow.update(message).table
            self.arrivals.append((time.perf_counter(), follow.version))
            if table.phase == OVER:
                if table.game_over:
                    self.games -= 1
                    if self.games <= 0:
                        return False
                    # another game: the host's deal, a joiner's again
                    self.client.send(plain("deal" if follow.host else "again"))
                    return True
                if self.deal:
                    self.client.send(plain("deal"))
                return True
        if follow.legal:
            self.moves += 1
            move = choose(follow.legal)
            self.last = move_message(follow.version, move)
            if self.think:
                await asyncio.sleep(self.think)
            self.sent.append(time.perf_counter())
            self.client.send(self.last)
            if self.stop_after is not None and self.moves >= self.stop_after and move[0] in "UD":
                return False  # gone after a move that ends its turn: the others play on
        return True
