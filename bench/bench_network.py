"""The server under load, over loopback: one server process holding many
tables of four scripted clients (``mille.net.bot``, each moving
``--think`` ms after it may: 100 by default, a quick person), optionally beside a table of eight expert computers.

    python bench/bench_network.py [--tables 50] [--seconds 20] [--think MS] [--experts]
        [--watchers N]

The server runs in a process of its own (``--serve``, started by this
script); the clients share this one.  Prints the moves made a second
(the people's; the experts' apart) and, over every move, the time from
the move sent to the last of its table's four clients updated: the
median and the 99th percentile, each with its 95% interval (by order
statistics).  With ``--experts`` a table of eight experts (milebymile, 8
seats, no person, each next hand dealt at once) plays beside them: its
search runs in the server's worker threads and must not stall the others.
With ``--watchers N`` each table also has N watchers (``mille --watch``:
scripted clients with the table's watch code, 16 at most), and a move
counts as delivered when the last of its table's seats and watchers is
updated.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mille.engine.rules import find_rules  # noqa: E402
from mille.game.session import Session  # noqa: E402
from mille.net.bot import Bot  # noqa: E402
from mille.net.server import Host, Limits, Server  # noqa: E402

# the scripted clients move as fast as they may, all from 127.0.0.1
LIMITS = Limits(rate=10_000, burst=10_000, per_address=10_000, unseated=10_000)


async def serve(tables: int, experts: bool, worker: bool) -> None:
    """The server process: the tables, then their codes and the host
    tokens on one line of standard output; serves until killed."""
    server = Server(LIMITS)
    found = []
    for number in range(tables):
        session = Session.new(find_rules("classic", players=4), seed=number, humans=(0, 1, 2, 3))
        host = server.add(Host(session, host_seat=0))
        found.append({"code": host.code, "token": host.seats[0].token, "watch": host.watch_code})
    expert_table = None
    if experts:
        rules = find_rules("milebymile", players=8)
        session = Session.new(rules, seed=99, humans=(), level="expert")
        expert_table = server.add(Host(session, auto_deal=True, worker=worker))
    _, port = await server.start("127.0.0.1", 0)
    print(json.dumps({"port": port, "tables": found}), flush=True)
    started = time.perf_counter()
    try:
        while True:
            await asyncio.sleep(1)
            moves = expert_table.feed.stamp if expert_table is not None else 0
            line = {"expert_moves": moves, "at": time.perf_counter() - started}
            print(json.dumps(line | {"cpu": time.process_time()}), flush=True)
    finally:
        await server.close()


def percentile_interval(values: list[float], q: float) -> tuple[float, float, float]:
    """The ``q`` quantile of ``values`` and its 95% interval by order
    statistics (binomial, normal approximation)."""
    ordered = sorted(values)
    n = len(ordered)
    middle = q * n
    half = 1.96 * math.sqrt(n * q * (1 - q))
    low = max(0, math.floor(middle - half))
    high = min(n - 1, math.ceil(middle + half))
    return ordered[min(n - 1, int(middle))], ordered[low], ordered[high]


def latencies(bots: list[Bot], warmup: float) -> list[float]:
    """For each move sent after ``warmup``: the time until every bot of
    its table had an update after it."""
    found = []
    arrivals = [[t for t, _ in bot.arrivals] for bot in bots]
    for bot in bots:
        for sent in bot.sent:
            if sent < warmup:
                continue
            worst = 0.0
            for times in arrivals:
                index = bisect.bisect_right(times, sent)
                if index == len(times):
                    break
                worst = max(worst, times[index] - sent)
            else:
                found.append(worst)
    return found


async def clients(
    port: int, tables: list[dict[str, Any]], seconds: float, think: float, watchers: int = 0
) -> tuple[list[float], int, float]:
    """Four bots a table (and ``watchers`` watching it) for ``seconds``;
    the latencies, the moves made after the warm-up, and the time measured."""
    everyone: list[list[Bot]] = []
    for table in tables:
        host = Bot("host", light=True)
        await host.join(port, table["code"], token=table["token"])
        others = []
        for number in (1, 2, 3):
            bot = Bot(f"bot {number}", deal=False, light=True)
            await bot.join(port, table["code"])
            others.append(bot)
        for number in range(watchers):
            watcher = Bot(f"watcher {number}", deal=False, light=True)
            await watcher.join(port, table["watch"])
            others.append(watcher)
        everyone.append([host, *others])
        for bot in everyone[-1]:
            bot.think = think
    tasks = [asyncio.ensure_future(bot.run()) for table in everyone for bot in table]
    warm = time.perf_counter() + min(3.0, seconds / 4)
    await asyncio.sleep(seconds)
    end = time.perf_counter()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    found: list[float] = []
    moves = 0
    idle = sum(1 for bots in everyone if not any(bot.sent for bot in bots))
    if idle:
        print(f"  {idle} tables made no move", file=sys.stderr)
    for bots in everyone:
        found += latencies(bots, warm)
        moves += sum(1 for bot in bots for sent in bot.sent if warm <= sent < end)
    return found, moves, end - warm


def run(
    tables: int, seconds: float, experts: bool, think: float, threads: bool, watchers: int = 0
) -> None:
    command = [sys.executable, __file__, "--serve", "--tables", str(tables)]
    if threads:
        command.append("--threads")
    if experts:
        command.append("--experts")
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        first = json.loads(server.stdout.readline())
        found, moves, measured = asyncio.run(
            clients(first["port"], first["tables"], seconds, think, watchers)
        )
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    watching = f", {watchers} watchers a table" if watchers else ""
    print(f"{tables} tables of 4 scripted clients (each move after {think * 1000:.0f} ms)"
          f"{watching}{' + a table of 8 experts' if experts else ''}, "
          f"{measured:.1f} s measured (after a warm-up)")  # fmt: skip
    print(f"  moves a second (the people's): {moves / measured:.0f}")
    if experts and lines:
        last = lines[-1]
        print(f"  the experts' table: {last['expert_moves']} moves in {last['at']:.0f} s")
    if len(lines) >= 2 and not experts:  # the server's CPU time a move, over the last seconds
        span = lines[-1]["at"] - lines[0]["at"]
        cpu = lines[-1]["cpu"] - lines[0]["cpu"]
        print(f"  the server's CPU: {cpu / span * 100:.0f}% of a core, "
              f"{cpu / (moves / measured * span) * 1000:.2f} ms a move")  # fmt: skip
    if not found:
        print("  no move measured")
        return
    for name, q in (("p50", 0.5), ("p99", 0.99)):
        value, low, high = percentile_interval(found, q)
        print(f"  {name} from a move to its table's {4 + watchers} clients updated: "
              f"{value * 1000:.2f} ms (95%: {low * 1000:.2f} to {high * 1000:.2f}), "
              f"{len(found)} moves")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four clients (50)")
    parser.add_argument("--seconds", type=float, default=20, help="how long to measure (20)")
    parser.add_argument("--experts", action="store_true", help="a table of 8 experts beside")
    parser.add_argument(
        "--think", type=float, default=100, help="ms a client waits before each move (100; 0: none)"
    )
    parser.add_argument(
        "--threads",
        action="store_true",
        help="the experts think in the server's threads, not a worker process",
    )
    parser.add_argument(
        "--watchers", type=int, default=0, help="watchers a table (0; at most 16, as a host allows)"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        try:
            asyncio.run(serve(args.tables, args.experts, not args.threads))
        except KeyboardInterrupt:
            pass
        return
    os.environ.setdefault("PYTHONHASHSEED", "0")
    run(args.tables, args.seconds, args.experts, args.think / 1000, args.threads, args.watchers)


if __name__ == "__main__":
    main()
