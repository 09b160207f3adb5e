"""The host's computers live in one place: while the worker process plays
them, its replica holds their memory; when it fails, the host rebuilds
that replica (``worker.replay``) and plays on, the memory up to date.
And the protocol's goodbyes and fatal errors are codes (a golden test)."""

from __future__ import annotations

import asyncio
import json
import pathlib
import time
from typing import Any

from mille.engine.rules import find_rules
from mille.game.session import Session
from mille.net.messages import bye, error
from mille.net.server import Host, Server
from mille.net.wire import (
    ENDED,
    FATAL,
    HOST_GONE,
    PROTOCOL,
    bye_code,
    encode,
)
from mille.net.worker import replay
from mille.storage import savefile


def computers(path: pathlib.Path) -> list[object]:
    """The computers' part of a save file: kind, memory and rng, by seat."""
    seats = json.loads(path.read_text())["seats"]
    return [seat.get("memory") for seat in seats] + [seat.get("rng") for seat in seats]


def hand(seed: int, saved: pathlib.Path, kill: bool) -> tuple[list[str], int]:
    """Two computers play a hand of BSD's game in the worker (killed a few
    moves in if ``kill``); the game is kept in ``saved`` at the hand's
    end.  The moves, and where the worker was killed."""
    session = Session.new(find_rules("bsd"), seed=seed, humans=())

    async def main() -> int:
        server = Server()
        host = Host(session, worker=True)
        server.add(host)
        killed_at = -1
        try:
            end = time.monotonic() + 60
            while host.thinker is None or len(session.log) < 4:
                assert time.monotonic() < end, "the worker never played"
                await asyncio.sleep(0.001)
            if kill:
                thinker = host.thinker
                assert thinker is not None and thinker.process is not None
                killed_at = len(session.log)
                thinker.process.kill()
            while not session.table.hand_over:
                assert time.monotonic() < end, "the hand did not go on"
                await asyncio.sleep(0.01)
            assert (host.thinker is None) == kill  # the host plays them itself now
            await host.keep(str(saved))
            return killed_at
        finally:
            await server.close()

    killed_at = asyncio.run(main())
    return [str(event.outcome.move) for event in session.log], killed_at


def test_a_worker_killed_mid_hand_leaves_the_computers_memory_up_to_date(
    tmp_path: pathlib.Path,
) -> None:
    """Killed a few moves into the hand, the worker's computers are
    rebuilt by the host, which plays the hand out: the same moves, and the
    saved computers (memory and random state) those of a run without the
    kill (they were frozen at the worker's start, then played on)."""
    for seed in (11, 12):
        moves, _ = hand(seed, tmp_path / "whole.json", kill=False)
        killed_moves, killed_at = hand(seed, tmp_path / "killed.json", kill=True)
        assert 0 < killed_at < len(killed_moves)
        assert killed_moves == moves
        assert computers(tmp_path / "killed.json") == computers(tmp_path / "whole.json")


def second_hand(seed: int, saved: pathlib.Path, kill: bool) -> list[str]:
    """Two hands as ``mille --host`` plays them (the game kept after every
    move by the worker); killed a few moves into the second if ``kill``,
    after the worker's replica was dumped at its deal; the second hand's moves."""
    session = Session.new(find_rules("bsd"), seed=seed, humans=())
    kept = saved.with_suffix(".kept")

    async def main() -> None:
        server = Server()
        host = Host(session, worker=True, auto_deal=True)

        def keep_after_move() -> None:
            host.keep_quietly(str(kept))

        host.on_move = keep_after_move
        server.add(host)
        try:
            end = time.monotonic() + 60
            while host.thinker is None:
                await asyncio.sleep(0.001)
            first = host.thinker.saved
            while host.thinker.saved == first or len(session.log) < 4:
                assert time.monotonic() < end, "no second hand"
                await asyncio.sleep(0.001)
            host.auto_deal = False  # this hand is the last
            assert {"deal": True} not in host.thinker.sent  # rebuilt from this hand's deal on
            if kill:
                assert host.thinker.process is not None
                host.thinker.process.kill()
            while not session.table.hand_over:
                assert time.monotonic() < end, "the hand did not go on"
                await asyncio.sleep(0.01)
            await host.keep(str(saved))
        finally:
            await server.close()

    asyncio.run(main())
    return [str(event.outcome.move) for event in session.log]


def test_a_worker_killed_in_a_later_hand_is_rebuilt_from_that_hands_deal(
    tmp_path: pathlib.Path,
) -> None:
    moves = second_hand(21, tmp_path / "whole.json", kill=False)
    killed_moves = second_hand(21, tmp_path / "killed.json", kill=True)
    assert killed_moves == moves
    assert computers(tmp_path / "killed.json") == computers(tmp_path / "whole.json")


def test_a_replica_rebuilt_is_the_workers() -> None:
    """``replay`` makes the moves, deals and decisions a worker was told
    on the game it started from: the same computers as a session that
    played them."""
    session = Session.new(find_rules("bsd"), seed=5, humans=())
    start = savefile.dumps(session).encode("ascii")
    ops: list[dict[str, Any]] = []
    while not session.table.hand_over:
        seat = session.table.current_player
        assert seat is not None
        move = session.computers[seat].choose(session.view(seat))
        ops += [{"think": seat}, {"move": str(move)}]
        session._apply(move)
    session.next_hand()
    ops.append({"deal": True})
    rebuilt = replay(start, ops)
    assert savefile.dumps(rebuilt) == savefile.dumps(session)


def test_the_goodbyes_and_fatal_errors_are_codes() -> None:
    """Golden lines: what the host sends as it hangs up, and the errors
    after which a client stops."""
    assert encode(bye(ENDED)) == b'{"type":"bye","code":"ended"}\n'
    assert encode(bye(HOST_GONE)) == b'{"type":"bye","code":"host-gone"}\n'
    assert encode(error("busy")) == b'{"type":"error","code":"busy","values":{}}\n'
    assert FATAL == (
        "version",
        "wrong-code",
        "too-many-tries",
        "too-many-connections",
        "too-many-comebacks",
        "wrong-token",
        "table-full",
        "seat-waits",
        "table-over",
        "busy",
        "watchers-full",
    )
    # a bye carries its code alone (the reason is each end's, in its language)
    assert bye_code({"type": "bye", "code": "ended"}) == ENDED
    assert bye_code({"type": "bye", "reason": "the host ended the game"}) == HOST_GONE
    assert bye_code({"type": "bye"}) == HOST_GONE


def test_the_host_says_goodbye_with_a_code() -> None:
    async def main() -> list[dict[str, object]]:
        server = Server()
        session = Session.new(find_rules("classic", players=4), seed=1, humans=(0, 1))
        host = server.add(Host(session, host_seat=0))
        _, port = await server.start()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        hello = {"type": "hello", "protocol": PROTOCOL, "code": host.code, "name": "x"}
        writer.write(encode(hello))
        await reader.readline()
        host.end()
        said = []
        while line := await asyncio.wait_for(reader.readline(), 10):
            said.append(json.loads(line))
        writer.close()
        await server.close()
        return said

    said = asyncio.run(main())
    assert said[-1] == {"type": "bye", "code": "ended"}
