"""The protocol's shapes, pinned: a short seeded game over loopback, every
message each seat and a watcher received (tokens, the join and watch
codes and the port made fixed), compared line by line with
``tests/data/protocol-golden.jsonl`` (the watcher's lines are ``2 ...``).

A change of what a view, an event, a tableau, a card or a move looks like
on the wire shows here as a difference.  Where the change is meant (and
``docs/protocol.md`` says so), write the file again:

    MILLE_GOLDEN=write pytest tests/test_net_golden.py
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.net.bot import Bot
from mille.net.server import Host, Limits, Server

GOLDEN = Path(__file__).parent / "data" / "protocol-golden.jsonl"
MESSAGES = 24  # messages kept of each seat (the first ones: a dozen moves each)
TIMEOUT = 30.0


class Counted(Bot):
    """A bot that stops after its first ``MESSAGES`` messages."""

    async def on(self, message: dict[str, Any]) -> bool:
        return await super().on(message) and len(self.messages) < MESSAGES


async def seated(host: Host, seat: int) -> None:
    """Wait (a bounded time) for ``seat``'s person to be seated."""
    deadline = time.monotonic() + TIMEOUT
    while host.seats[seat].conn is None:
        assert time.monotonic() < deadline, f"seat {seat} was never taken"
        await asyncio.sleep(0.01)


async def watched(host: Host) -> None:
    """Wait (a bounded time) for the watcher to be let in."""
    deadline = time.monotonic() + TIMEOUT
    while not host.watchers:
        assert time.monotonic() < deadline, "the watcher was never let in"
        await asyncio.sleep(0.01)


async def game() -> tuple[list[Counted], dict[str, str]]:
    """Seats 0 (the host's) and 1 of a seeded table of Mile by Mile with a
    computer at seat 2, played by bots, and a watcher (bot 2)."""
    rules = find_rules("milebymile", players=3)
    session = Session.new(rules, seed=34, humans=(0, 1), level="easy")
    server = Server(Limits(grace=30, rate=1000, burst=1000))
    host = server.add(Host(session, host_seat=0, names={0: "Hal"}))
    _, port = await server.start()
    secrets = {host.code: "<code>", host.watch_code: "<watch code>", f":{port}": ":<port>"}
    bots = [Counted("Hal"), Counted("Ann"), Counted("Wes", deal=False)]
    try:
        token = host.seats[0].token
        assert token is not None
        await bots[0].join(port, host.code, token=token)
        await seated(host, 0)
        await bots[2].join(port, host.watch_code)
        await watched(host)
        await bots[1].join(port, host.code)
        await seated(host, 1)  # (so each seat's messages come in one order, whatever the load)
        await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), TIMEOUT)
    finally:
        await server.close()
        for bot in bots:
            await bot.client.close()
    for number, bot in enumerate(bots):
        for message in bot.messages:
            if message["type"] == "welcome":
                secrets[message["token"]] = f"<token {number}>"
    return bots, secrets


def normalised(value: Any, secrets: dict[str, str]) -> Any:
    """``value`` with each secret (a token, the code, the port) replaced by its name."""
    if isinstance(value, dict):
        return {key: normalised(item, secrets) for key, item in value.items()}
    if isinstance(value, list):
        return [normalised(item, secrets) for item in value]
    if isinstance(value, str):
        for secret, name in secrets.items():
            value = value.replace(secret, name)
    return value


def transcript() -> list[str]:
    """The golden file's lines: ``SEAT JSON`` for every message, in each
    seat's order, seat 0's first."""
    bots, secrets = asyncio.run(game())
    lines = []
    for number, bot in enumerate(bots):
        for message in bot.messages:
            normal = json.dumps(normalised(message, secrets), separators=(",", ":"))
            lines.append(f"{number} {normal}")
    return lines


def test_the_protocol_is_the_golden_file() -> None:
    lines = transcript()
    if os.environ.get("MILLE_GOLDEN") == "write":
        GOLDEN.write_text("\n".join(lines) + "\n", encoding="ascii")
    golden = GOLDEN.read_text(encoding="ascii").splitlines()
    for index, (line, want) in enumerate(zip(lines, golden)):
        assert line == want, f"line {index + 1} of {GOLDEN.name} differs"
    assert len(lines) == len(golden)
